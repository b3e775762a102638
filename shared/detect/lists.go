package detect

import "strings"

// Lists introduced by a sentence. A writer who closes a sentence on a colon
// and goes on with a list has said what the list is: "Dicho esto, tiene sus
// peajes:", "As a daily stove, though, it doesn't earn its place:", "The
// most common complaints:". Such a sentence heads its list as a "Cons:"
// line does — its items are the side it reads, or, when it turns after
// praise, the other side — whether or not it stands on a line of its own.
// A list item that names a rival in passing ("- the milk foam is not as
// fine as on a Philips") is still about the brand: only a rival named in
// the item's lead opens a section of its own.

// introducer: the span t ([s,e)) ends on a colon and a list item opens the
// next line.
func introducer(text string, s, e int) bool {
	t := strings.TrimRight(text[s:e], " *_")
	if !strings.HasSuffix(t, ":") {
		return false
	}
	nl := strings.IndexByte(text[e:], '\n')
	if nl < 0 || strings.TrimSpace(text[e:e+nl]) != "" {
		return false // the list starts on the next line
	}
	next := e + nl + 1
	for next < len(text) && (text[next] == '\n' || text[next] == ' ' || text[next] == '\t') {
		next++
	}
	return listMarkerLen(text[next:min(len(text), next+8)]) > 0
}

// introducedSide: the side of the list that the span [s,e) — reading
// praise p and criticism n, after praise (praised) or not — introduces:
// -1 its faults ("The most common complaints:"), sideTurned faults after
// a turn from praise ("That said, it has its costs:"), +1 its strengths, 0
// neither or when the span introduces no list.
func introducedSide(text string, s, e int, p, n float64, praised bool) int {
	if !introducer(text, s, e) {
		return 0
	}
	t := text[s:e]
	switch {
	case n > p && n >= sentNeutral || consHeads.in(t) && !prosHeads.in(t):
		return -1
	case praised && p < sentNeutral && (adversativeOpener(t) || hasWordIn(t, turnWords)):
		return sideTurned
	case p > n && p >= sentNeutral || prosHeads.opens(t):
		return 1
	}
	return 0
}

// sideTurned marks a list of faults introduced by a turn after praise
// ("That said, it has its quirks:"): its items are faults, but a caveat so
// announced presumes the praise stands, so they do not make the lists of
// faults dominate (sections.verdict).
const sideTurned = -2

// itemLeadWords: how many words open a list item's lead.
const itemLeadWords = 4

// itemLeadNames: the list item at s (its sentence [s,e)) names the brand
// or another entity in its lead — a bold lead ("**Corvid** — …") or its
// first words — and so opens a section about it.
func (an *analysis) itemLeadNames(s, e int) (brand, other bool) {
	text := an.text
	le := e
	q := s + listMarkerLen(text[s:min(len(text), s+8)])
	if strings.HasPrefix(text[q:e], "**") {
		if k := strings.Index(text[q+2:e], "**"); k >= 0 {
			le = q + 2 + k
		}
	} else {
		for k := 0; k < itemLeadWords; k++ {
			w, np := wordAtAny(text[:e], q)
			if w == "" {
				break
			}
			q = np
		}
		le = q
	}
	return an.entitiesIn(s, le)
}
