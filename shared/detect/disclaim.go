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
	if hasWordIn(text[turn:rec.end], hedgeWords) {
		return false
	}
	for _, m := range an.sc.unk[rec.unkFrom:rec.unkTo] {
		if m[1] > turn {
			return false
		}
	}
	return true
}

// statedAfter: a sentence right after one naming the brand (up to two on,
// none naming another tracked entity) states what the brand is or does
// through a pronoun, with no hedge or ignorance of its own ("I don't have
// current pricing for Harness. It sells CI and CD as separate modules.",
// "… Its modules are sold separately"): whatever the answer disclaims, it
// knows the brand. A pointer ("Their site lists the prices", "Check …")
// states nothing of it.
func (an *analysis) statedAfter() bool {
	return an.afterBrandSentences(2, an.pronounStatement)
}

// afterBrandSentences: f holds for one of the n sentences (sentenceAfter)
// after a sentence holding an accepted mention of the brand, read up to one
// that names another tracked entity.
func (an *analysis) afterBrandSentences(n int, f func(s, e int) bool) bool {
	sc := an.sc
	seen := -1
	for i := range sc.cands {
		c := &sc.cands[i]
		if c.ent != 0 || c.state != candAccepted || c.link || c.srec == seen {
			continue
		}
		seen = c.srec
		end := sc.sents[c.srec].end
		for end < len(an.text) && strings.IndexByte(".!?", an.text[end]) >= 0 {
			end++ // the sentence's own terminator, which its trimmed end may leave out
		}
		for k := 0; k < n; k++ {
			s, e, ok := sentenceAfter(an.text, end)
			if !ok || an.namesOther(s, e) {
				break
			}
			if f(s, e) {
				return true
			}
			end = e
		}
	}
	return false
}

// pronounStatement: text[s:e] opens with "It" or "They" and a verb of what
// a brand does ("It sells …", "It's a …"), or with "Its"/"Their", up to
// three words and such a verb or a passive of one ("Its modules are sold
// separately"), and holds no hedge word nor ignorance statement.
func (an *analysis) pronounStatement(s, e int) bool {
	text := an.text
	w, np := wordAt(text, s, e)
	ok := false
	switch {
	case strings.EqualFold(w, "it") || strings.EqualFold(w, "they"):
		v, vp := wordAt(text, np, e)
		ok = inSet(brandVerbs, v) || (strings.EqualFold(v, "is") || strings.EqualFold(v, "are")) &&
			inSet(articles, peekWordAt(text, vp, e))
	case strings.EqualFold(w, "it's") || strings.EqualFold(w, "it’s"):
		ok = inSet(articles, peekWordAt(text, np, e))
	case strings.EqualFold(w, "its") || strings.EqualFold(w, "their"):
		for k := 0; k < 4 && !ok; k++ {
			v, vp := wordAt(text, np, e)
			if v == "" {
				break
			}
			ok = k > 0 && (inSet(brandVerbs, v) || inSet(pluralCopulas, v) && inSet(brandVerbs, peekWordAt(text, vp, e)))
			np = vp
		}
	}
	if !ok {
		return false
	}
	for pos := s; pos < e; {
		w, np := wordAt(text, pos, e)
		if w == "" {
			break
		}
		if inSet(hedgeWords, w) {
			return false
		}
		pos = np
	}
	return len(an.ignoranceSpans(s, e, nil)) == 0 && !an.unknownByRules(s, e)
}

// knownAfterAll clears the brand's mentions of the ignorance statements
// that named them: a later sentence states what the brand is or does
// (statedAfter), so the disclaimer limits one aspect, as a person reads it.
func (an *analysis) knownAfterAll() {
	for i := range an.sc.cands {
		if c := &an.sc.cands[i]; c.ent == 0 && c.state == candAccepted && !c.link {
			c.unknown = false
		}
	}
}
