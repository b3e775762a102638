package detect

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Folding maps every rune to the UTF-8 bytes the automaton sees: Unicode full
// case folding (cases.Fold), compatibility decomposition (NFKD, so "ﬁ" is
// "fi" and full-width "Ａ" is "a") and removal of the combining diacritical
// marks, so "Café Zoë" and "cafe zoe" fold to the same bytes. Runes are folded
// through tables computed once, because running x/text transformers per rune
// in the hot path would allocate.

// foldRange is one contiguous block of precomputed folds: the fold of rune
// r is data[off[r-lo]:off[r-lo+1]]. One string and an offset table, not a
// string per rune, keep the tables free of pointers, so the garbage
// collector never scans them.
type foldRange struct {
	lo, hi rune // [lo, hi)
	data   string
	off    []uint32
}

var (
	foldOnce   sync.Once
	foldRanges []foldRange
)

// foldTableSpans are the blocks that contain cased letters, letters with
// decomposable diacritics or compatibility forms worth folding: Latin, Greek,
// Cyrillic, Armenian, general punctuation, letter-like symbols, kana, Cyrillic
// and Latin extensions, ligatures and the half/full-width forms. Other runes
// (CJK ideographs, Hangul, emoji, …) fold to themselves.
var foldTableSpans = [][2]rune{
	{0x0000, 0x3100},
	{0xA640, 0xA800},
	{0xFB00, 0xFB50},
	{0xFF00, 0xFFF0},
}

func initFold() {
	foldOnce.Do(func() {
		initRuneSets()
		caser := cases.Fold()
		for _, sp := range foldTableSpans {
			fr := foldRange{lo: sp[0], hi: sp[1], off: make([]uint32, 0, sp[1]-sp[0]+1)}
			var b strings.Builder
			for r := sp[0]; r < sp[1]; r++ {
				fr.off = append(fr.off, uint32(b.Len()))
				b.WriteString(computeFold(caser, r))
			}
			fr.off = append(fr.off, uint32(b.Len()))
			fr.data = b.String()
			foldRanges = append(foldRanges, fr)
		}
	})
}

// isStrippedMark reports the combining marks that folding drops: the
// diacritics blocks only. Script-essential marks (kana voicing marks,
// Devanagari vowel signs, …) are kept, because dropping them would merge
// different words; text and patterns fold identically either way.
func isStrippedMark(r rune) bool {
	return (r >= 0x0300 && r <= 0x036F) || (r >= 0x1AB0 && r <= 0x1AFF) ||
		(r >= 0x1DC0 && r <= 0x1DFF) || (r >= 0x20D0 && r <= 0x20FF) ||
		(r >= 0xFE20 && r <= 0xFE2F)
}

func computeFold(caser cases.Caser, r rune) string {
	switch {
	case r >= 0xD800 && r <= 0xDFFF:
		return "\uFFFD"
	case r == '\u2019' || r == '\u2018' || r == '\u02BC' || r == '\u2032' || r == '\uFF07':
		return "'" // typographic apostrophes: "Notion’s" is "Notion's"
	case r >= 0x2010 && r <= 0x2015 || r == 0x2212 || r == 0xFE63 || r == 0xFF0D:
		return "-" // dash and hyphen variants
	case r == 0x200B || r == 0x3000:
		return " "
	case r == 0x00AD || r == 0x200C || r == 0x200D || r == 0x2060 || r == 0xFEFF ||
		(r >= 0xFE00 && r <= 0xFE0F):
		return "" // soft hyphen, joiners, variation selectors: invisible
	case r < utf8.RuneSelf:
		if unicode.IsSpace(r) {
			return " "
		}
		if 'A' <= r && r <= 'Z' {
			return string(r + 'a' - 'A')
		}
		return string(r)
	case unicode.IsSpace(r):
		return " "
	}
	s := norm.NFKD.String(string(r))
	s = caser.String(s)
	s = norm.NFKD.String(s)
	var b strings.Builder
	for _, c := range s {
		if isStrippedMark(c) {
			continue
		}
		if unicode.IsSpace(c) {
			c = ' '
		}
		b.WriteRune(c)
	}
	return b.String()
}

// foldRune returns the folded form of r; orig is r's own encoding in the
// text, returned unchanged for runes outside the tables (no allocation).
func foldRune(r rune, orig string) string {
	for i := range foldRanges {
		fr := &foldRanges[i]
		if r >= fr.lo && r < fr.hi {
			k := r - fr.lo
			return fr.data[fr.off[k]:fr.off[k+1]]
		}
	}
	if r == utf8.RuneError {
		return "\uFFFD"
	}
	if unicode.IsUpper(r) {
		return string(unicode.ToLower(r))
	}
	return orig
}

// foldString folds a whole string the way the scanner folds text.
func foldString(s string) string {
	initFold()
	if foldsToItself(s) {
		return s // most words: no copy
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		b.WriteString(foldRune(r, s[i:i+size]))
		i += size
	}
	return b.String()
}

// foldsToItself: s is ASCII without upper-case letters or white space
// other than the space, which is what folding changes in ASCII.
func foldsToItself(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' || c != ' ' && isSpaceByte(c) {
			return false
		}
	}
	return true
}
