package providers

import (
	"strings"
	"unicode/utf8"
)

// TextBuilder concatenates answer pieces while tracking the rune offset of
// each, so citation spans can be expressed in code points of the result.
// Every adapter assembles its answer text with it.
type TextBuilder struct {
	b     strings.Builder
	runes int
}

// Add appends s and returns its [start, end) span in runes.
func (t *TextBuilder) Add(s string) (start, end int) {
	start = t.runes
	t.b.WriteString(s)
	t.runes += utf8.RuneCountInString(s)
	return start, t.runes
}

// Sep appends s unless nothing has been written yet.
func (t *TextBuilder) Sep(s string) {
	if t.runes > 0 {
		t.Add(s)
	}
}

func (t *TextBuilder) String() string { return t.b.String() }

// AppendUnique appends v unless empty or already present.
func AppendUnique(list []string, v string) []string {
	if v == "" {
		return list
	}
	for _, x := range list {
		if x == v {
			return list
		}
	}
	return append(list, v)
}
