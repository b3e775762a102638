// Package providerstest checks the answers of providers in tests: that the
// citation spans fit the answer text and that an answer cites what it
// should, where.
package providerstest

import (
	"testing"
	"unicode/utf8"

	"github.com/brandlens/brandlens/shared/providers"
)

// SpanOf returns the cited span of c in text, in code points ("" when the
// citation has no span or one that does not fit).
func SpanOf(text string, c providers.Citation) string {
	r := []rune(text)
	if c.Start < 0 || c.End > len(r) || c.Start > c.End {
		return ""
	}
	return string(r[c.Start:c.End])
}

// CheckSpans fails when a citation span does not fit the text.
func CheckSpans(t testing.TB, a providers.Answer) {
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

// Cite is an expected citation: the page and the text it spans; an empty
// Span means the platform gave no span, so Start and End must be -1.
type Cite struct{ URL, Span string }

// CheckCitations fails unless a cites exactly want, in order, with spans
// that fit its text.
func CheckCitations(t testing.TB, a providers.Answer, want []Cite) {
	t.Helper()
	CheckSpans(t, a)
	if len(a.Citations) != len(want) {
		t.Fatalf("citations = %+v, want %d", a.Citations, len(want))
	}
	for i, c := range want {
		got := a.Citations[i]
		if got.URL != c.URL || SpanOf(a.Text, got) != c.Span {
			t.Errorf("citation %d = %+v (span %q), want %s %q", i, got, SpanOf(a.Text, got), c.URL, c.Span)
		}
		if c.Span == "" && (got.Start != -1 || got.End != -1) {
			t.Errorf("citation %d span = [%d,%d), want -1/-1", i, got.Start, got.End)
		}
	}
}
