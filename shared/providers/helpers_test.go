package providers

import (
	"testing"
	"unicode/utf8"
)

// spanOf returns the cited span of c in text, in code points.
func spanOf(text string, c Citation) string {
	r := []rune(text)
	if c.Start < 0 || c.End > len(r) || c.Start > c.End {
		return ""
	}
	return string(r[c.Start:c.End])
}

// checkSpans fails when a citation span does not fit the text.
func checkSpans(t testing.TB, a Answer) {
	t.Helper()
	n := utf8.RuneCountInString(a.Text)
	for i, c := range a.Citations {
		if c.Start == -1 && c.End == -1 {
			continue
		}
		if c.Start < 0 || c.Start > c.End || c.End > n {
			t.Errorf("citation %d span [%d,%d) does not fit text of %d code points", i, c.Start, c.End, n)
		}
	}
}
