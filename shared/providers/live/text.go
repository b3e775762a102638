package live

import (
	"strings"
	"unicode/utf8"

	"github.com/brandlens/brandlens/shared/providers"
)

// runeSpan checks that [start, end) is a span of code points within a text
// of n code points.
func runeSpan(start, end, n int64) bool {
	return start >= 0 && start <= end && end <= n
}

// pieceCitation cites url over [start, end), code points of an answer piece
// that TextBuilder.Add placed at [pieceStart, pieceEnd), as a span of the
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

// addOutputText adds one output_text piece of a Responses-style message
// (OpenAI's Responses API, Perplexity's Agent API) to the answer's text and
// cites the annotations cite accepts (url_citation) over its span.
func addOutputText[A any](ans *providers.Answer, tb *providers.TextBuilder, text string, anns []A,
	cite func(A) (url, title string, start, end int64, ok bool)) {
	tb.Sep("\n\n")
	base, end := tb.Add(text)
	for _, a := range anns {
		if url, title, s, e, ok := cite(a); ok {
			ans.Citations = append(ans.Citations, pieceCitation(url, title, s, e, base, end))
		}
	}
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
