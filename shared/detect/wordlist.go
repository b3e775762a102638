package detect

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// scowlWords is the ordinary-word lexicon: SCOWL size levels 10–70
// (wordlist/README.md). A level ranks how common a word is: 10 holds the
// most common English words.
//
//go:embed wordlist/scowl-words.txt.gz
var scowlWords []byte

// scowlUpper is the proper-word lexicon: SCOWL's capitalised words at
// levels 10–70 that are no lower-case word (wordlist/README.md) — places,
// peoples, languages, persons ("Iceland", "Aegean", "Norwegian",
// "Houdini"). English always capitalises them, so a capital says nothing
// of whether such a name means the brand.
//
//go:embed wordlist/scowl-upper.txt.gz
var scowlUpper []byte

// wordLexicon is the decompressed lexicon, sorted for binary search. It is
// read once, on the first New: only compiling a Detector looks words up.
// The words are packed into one string with an offset table rather than
// kept as 115,000 strings: the lexicon stays alive for the whole process,
// and pointer-free memory is never scanned by the garbage collector, which
// otherwise marks every word at every cycle of a busy detector.
type wordLexicon struct {
	data   string   // the words, sorted, concatenated
	off    []uint32 // word i is data[off[i]:off[i+1]]
	levels []uint8
}

var (
	loadWordLexicon   = sync.OnceValue(func() *wordLexicon { return parseLexicon("word list", scowlWords) })
	loadProperLexicon = sync.OnceValue(func() *wordLexicon { return parseLexicon("proper-word list", scowlUpper) })
)

// parseLexicon reads a gzipped list of "#NN" level lines, each followed by
// the words first seen at that level.
func parseLexicon(what string, gz []byte) *wordLexicon {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		panic("detect: embedded " + what + ": " + err.Error())
	}
	var words []string
	var levels []uint8
	sc := bufio.NewScanner(zr)
	level := uint8(0)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			n, err := strconv.Atoi(line[1:])
			if err != nil {
				panic("detect: embedded " + what + ": bad level " + line)
			}
			level = uint8(n)
			continue
		}
		if line != "" {
			words = append(words, line)
			levels = append(levels, level)
		}
	}
	if err := sc.Err(); err != nil {
		panic("detect: embedded " + what + ": " + err.Error())
	}
	idx := make([]int, len(words))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return strings.Compare(words[a], words[b]) })
	lx := &wordLexicon{off: make([]uint32, 0, len(idx)+1), levels: make([]uint8, len(idx))}
	var b strings.Builder
	for i, j := range idx {
		lx.off = append(lx.off, uint32(b.Len()))
		b.WriteString(words[j])
		lx.levels[i] = levels[j]
	}
	lx.off = append(lx.off, uint32(b.Len()))
	lx.data = b.String()
	return lx
}

// level returns the SCOWL level of a lower-case word, 0 when it is not an
// ordinary word.
func (lx *wordLexicon) level(w string) uint8 {
	// A plain binary search: a closure (sort.Find) would make w escape,
	// and callers pass strings converted from scratch bytes.
	lo, hi := 0, len(lx.levels)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if lx.data[lx.off[m]:lx.off[m+1]] < w {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == len(lx.levels) || lx.data[lx.off[lo]:lx.off[lo+1]] != w {
		return 0
	}
	return lx.levels[lo]
}

// ordinaryLevel returns how common a folded name or alias is as an English
// word: its SCOWL level (10 = most common), levelCalendar for weekday and
// month names, levelShort for forms of at most two Latin letters or digits
// ("X", "HP"), and 0 for forms that are no ordinary word (including
// multi-word forms and forms with non-letters: "Monday.com", "Acme CRM").
func ordinaryLevel(f string) uint8 {
	if calendarWords[f] {
		return levelCalendar
	}
	n := 0
	for _, r := range f {
		if r >= 0x80 {
			return 0
		}
		n++
	}
	if n <= 2 {
		return levelShort
	}
	for i := 0; i < len(f); i++ {
		if f[i] < 'a' || f[i] > 'z' {
			return 0
		}
	}
	return loadWordLexicon().level(f)
}

// Pseudo-levels of forms guarded without being lexicon words.
const (
	levelShort    uint8 = 5 // at most two Latin letters or digits: as common as the commonest words
	levelCalendar uint8 = 10
)

// properLevel returns the SCOWL level of a folded one-word name that
// English always capitalises — a place, a people, a language, a person
// ("iceland", "quechua") — and 0 for any other form; the list holds no
// ordinary word.
func properLevel(f string) uint8 {
	for i := 0; i < len(f); i++ {
		if f[i] < 'a' || f[i] > 'z' {
			return 0
		}
	}
	return loadProperLexicon().level(f)
}
