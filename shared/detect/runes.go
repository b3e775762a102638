package detect

import (
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

// Rune classes of the Basic Multilingual Plane as bit sets, computed once
// from the unicode package's range tables: the per-rune tests of the hot
// paths (word runes, scripts without spaces) are then one load instead of
// a binary search through several tables for every typographic quote or
// dash. Runes beyond the BMP use the range tables directly. The sets are
// built with the fold tables, by the first New (about a millisecond), not
// at package init: a process that never detects does not pay for them;
// until then the tests read the range tables.
type bmpSet [1 << 16 / 64]uint64

func (s *bmpSet) has(r rune) bool { return s[r>>6]&(1<<(r&63)) != 0 }

func newBMPSet(f func(rune) bool) *bmpSet {
	s := new(bmpSet)
	for r := rune(0); r < 1<<16; r++ {
		if f(r) {
			s[r>>6] |= 1 << (r & 63)
		}
	}
	return s
}

var wordBMP, noSpaceBMP atomic.Pointer[bmpSet]

// initRuneSets runs once, from initFold.
func initRuneSets() {
	wordBMP.Store(newBMPSet(isWordRuneTables))
	noSpaceBMP.Store(newBMPSet(noSpaceScriptTables))
}

// isWordRune: letters, digits and combining marks form words.
// The ASCII test stays small enough to inline at every call; other runes
// take a call.
func isWordRune(r rune) bool {
	if uint32(r) < utf8.RuneSelf {
		return asciiWordRune[r]
	}
	return r >= 0 && isWordRuneWide(r)
}

// asciiWordRune: ASCII letters and digits.
var asciiWordRune = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	return t
}()

func isWordRuneWide(r rune) bool {
	if s := wordBMP.Load(); s != nil && r < 1<<16 {
		return s.has(r)
	}
	return isWordRuneTables(r)
}

func isWordRuneTables(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// noSpaceScript: scripts written without spaces between words.
func noSpaceScript(r rune) bool {
	if r < 0x0E00 {
		return false
	}
	if s := noSpaceBMP.Load(); s != nil && r < 1<<16 {
		return s.has(r)
	}
	return noSpaceScriptTables(r)
}

func noSpaceScriptTables(r rune) bool {
	if r < 0x0E00 {
		return false
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai,
		unicode.Lao, unicode.Khmer, unicode.Myanmar) || r == 0x30FC
}
