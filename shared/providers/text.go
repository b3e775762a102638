package providers

import (
	"strings"
	"unicode/utf8"
)

// textBuilder concatenates answer pieces while tracking the rune offset of
// each, so citation spans can be expressed in code points of the result.
type textBuilder struct {
	b     strings.Builder
	runes int
}

// add appends s and returns its [start, end) span in runes.
func (t *textBuilder) add(s string) (start, end int) {
	start = t.runes
	t.b.WriteString(s)
	t.runes += utf8.RuneCountInString(s)
	return start, t.runes
}

// sep appends s unless nothing has been written yet.
func (t *textBuilder) sep(s string) {
	if t.runes > 0 {
		t.add(s)
	}
}

func (t *textBuilder) String() string { return t.b.String() }

// appendUnique appends v unless empty or already present.
func appendUnique(list []string, v string) []string {
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
