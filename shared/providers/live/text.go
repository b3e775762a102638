package live

import (
	"strings"
	"unicode/utf8"

	"github.com/brandlens/brandlens/shared/providers"
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

// runeSpan checks that [start, end) is a span of code points within a text
// of n code points.
func runeSpan(start, end, n int64) bool {
	return start >= 0 && start <= end && end <= n
}

// pieceCitation cites url over [start, end), code points of an answer piece
// that textBuilder.add placed at [pieceStart, pieceEnd), as a span of the
// whole answer. The unit of the index in OpenAI-Responses-style annotations
// is undocumented: it is trusted only when it fits the piece as code
// points; otherwise the citation has no span (Start and End -1).
func pieceCitation(url, title string, start, end int64, pieceStart, pieceEnd int) providers.Citation {
	cit := providers.Citation{URL: url, Title: title, Start: -1, End: -1}
	if runeSpan(start, end, int64(pieceEnd-pieceStart)) {
		cit.Start, cit.End = pieceStart+int(start), pieceStart+int(end)
	}
	return cit
}

// byteToRune converts a byte offset within s to a code-point offset; false
// when the offset is outside s. An offset inside a multi-byte character
// counts that character as preceding it (rounding up), so a span never cuts
// a character in half.
func byteToRune(s string, b int) (int, bool) {
	if b < 0 || b > len(s) {
		return 0, false
	}
	for b < len(s) && !utf8.RuneStart(s[b]) {
		b++
	}
	return utf8.RuneCountInString(s[:b]), true
}

// runeIndex is strings.Index in code points; -1 when absent.
func runeIndex(s, sub string) int {
	i := strings.Index(s, sub)
	if i < 0 {
		return -1
	}
	return utf8.RuneCountInString(s[:i])
}

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
