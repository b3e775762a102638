package detect

import "strings"

// A disclaimer of one aspect, then what the writer knows (round d14): "I
// can't confirm Osprey's current size range, but Osprey is known for
// adjustable harnesses". The sentence holds a hedge ("confirm") and an
// ignorance statement, yet the clause after the turn states a fact of the
// brand, as its subject: a person reads a mention, not ignorance. A turn to
// a pointer ("but check their site", "but you could ask them") or to
// another guess keeps its hedge.

// assertedAfterTurn: c lies in a clause after a turn ("but", "however",
// ";") that holds no hedge word and no ignorance statement, and c is its
// subject — a verb of what a brand does, a copula or an auxiliary follows
// it ("Osprey is known for", "X offers", "X has").
func (an *analysis) assertedAfterTurn(rec *sentRec, c *cand) bool {
	text := an.text
	turn := -1
	for pos := rec.start; pos < c.start; {
		w, np := wordAtAny(text[:c.start], pos)
		if w == "" {
			break
		}
		if inSet(contrastWords, w) {
			turn = np
		}
		pos = np
	}
	if k := strings.LastIndexByte(text[rec.start:c.start], ';'); k >= 0 && rec.start+k+1 > turn {
		turn = rec.start + k + 1
	}
	if turn < 0 {
		return false
	}
	next := nextToken(text, c.end, rec.end).word
	if !inSet(brandVerbs, next) && !inSet(subjectVerbs, next) && !inSet(auxiliaries, next) {
		return false
	}
	for pos := turn; pos < rec.end; {
		w, np := wordAtAny(text[:rec.end], pos)
		if w == "" {
			break
		}
		if inSet(hedgeWords, w) {
			return false
		}
		pos = np
	}
	for _, m := range an.sc.unk[rec.unkFrom:rec.unkTo] {
		if m[1] > turn {
			return false
		}
	}
	return true
}
