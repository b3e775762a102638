package detect

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Sentiment toward the brand, not of the answer: the brand's sentiment is
// read from the text that governs its mentions — each mention's clause
// scope (the clauses around it up to another entity's clause), the
// sentences that continue about it (in the same paragraph, with "it",
// "its", "users", "reviewers" … and no other entity), and, when the
// mention heads a heading or a list item, that section (so "Cons:" lines
// under "## Acme" count for Acme). Each polar word weighs 1 (1.5 for
// strong words: "excellent", "unusable", "avoid"), ×1.5 after an
// intensifier ("very"), ×0.5 after a softener ("slightly", "occasionally");
// a negation flips the next polar word within three words ("not great" −1,
// "would not trust" −1, "no issues" +0.8). Reported complaints are
// negative words ("complain", "complaint", "criticised", "gripe").
//
// The totals P (praise) and N (criticism) give: neutral when both are
// below sentNeutral; mixed when both reach sentClear and the smaller is at
// least sentMixedRatio of the larger, or when criticism is clear
// (N ≥ sentClearCriticism) and praise is present — a criticised brand is
// never read as positive; otherwise the larger side.
const (
	sentNeutral        = 0.5
	sentClear          = 0.8
	sentMixedRatio     = 0.25
	sentClearCriticism = 1.5
	sentStrong         = 1.5
	sentBoost          = 1.5
	sentSoften         = 0.5
	sentFlipToPositive = 0.8
	maxSectionBytes    = 2400
	maxFollowSentences = 3
)

// brandSentiment sets the brand's Sentiment, PositiveEvidence and
// NegativeEvidence from the text governing its counted mentions.
func (an *analysis) brandSentiment(er *EntityResult) {
	if !er.Mentioned {
		return
	}
	sc, text := an.sc, an.text
	var P, N, bestP, bestN float64
	lastRec := -1
	covered := -1 // text before this offset is already scored
	add := func(s, e int) {
		if e <= covered {
			return
		}
		s = max(s, covered)
		p, n := an.valence(s, e)
		P += p
		N += n
		if p > bestP {
			bestP, er.PositiveEvidence = p, an.sentenceText(s, e)
		}
		if n > bestN {
			bestN, er.NegativeEvidence = n, an.sentenceText(s, e)
		}
		covered = e
	}
	for i := range sc.cands {
		c := &sc.cands[i]
		if c.ent != 0 || !counted(c) || c.srec == lastRec {
			continue
		}
		lastRec = c.srec
		rec := &sc.sents[c.srec]
		if s, e, ok := an.scopeBytes(i); ok && !question(text[rec.start:rec.end]) {
			add(s, e)
		}
		// The text that continues about the brand.
		if nameOnlyHead(text, c) {
			end := an.sectionEnd(c, rec)
			for s, e, ok := sentenceAfter(text, rec.end); ok && e <= end; s, e, ok = sentenceAfter(text, e) {
				if an.hasCandIn(s, e) {
					break
				}
				add(s, e)
			}
			continue
		}
		end := rec.end
		for k := 0; k < maxFollowSentences; k++ {
			s, e, ok := sentenceAfter(text, end)
			if !ok || strings.IndexByte(text[end:s], '\n') >= 0 || an.hasCandIn(s, e) || !continuesAbout(text[s:e]) {
				break
			}
			add(s, e)
			end = e
		}
	}
	er.Sentiment = decideSentiment(P, N)
	if N < sentNeutral {
		er.NegativeEvidence = ""
	}
	if P < sentNeutral {
		er.PositiveEvidence = ""
	}
}

func decideSentiment(p, n float64) Sentiment {
	switch {
	case p < sentNeutral && n < sentNeutral:
		return Neutral
	case p >= sentClear && n >= sentClear && min(p, n) >= sentMixedRatio*max(p, n),
		n >= sentClearCriticism && p >= sentClear:
		return Mixed
	case p > n:
		return Positive
	case n > p:
		return Negative
	}
	return Mixed
}

func question(s string) bool {
	return strings.HasSuffix(strings.TrimRight(s, " *_)\"”"), "?")
}

// sentenceText returns the trimmed text of the sentence around [s,e),
// cut to maxEvidenceBytes.
func (an *analysis) sentenceText(s, e int) string {
	text := an.text
	for s > 0 && text[s-1] != '\n' && !(s >= 2 && isSpaceByte(text[s-1]) && strings.ContainsRune(".!?", rune(text[s-2]))) && e-s < maxEvidenceBytes {
		s--
	}
	for s < e && !utf8RuneStart(text[s]) {
		s++
	}
	return strings.TrimSpace(strings.Trim(strings.TrimSpace(text[s:e]), "*_#>-"))
}

// scopeBytes is the byte range of the clauses that govern candidate i (the
// scope the per-mention sentiment reads).
func (an *analysis) scopeBytes(i int) (int, int, bool) {
	sc := an.sc
	c := &sc.cands[i]
	rec := &sc.sents[c.srec]
	if !rec.analysed {
		an.tokenize(rec)
	}
	clauses := sc.clauses[rec.clauseFrom:rec.clauseTo]
	lo, hi, ok := an.scope(i)
	if !ok {
		return 0, 0, false
	}
	end := rec.end
	if hi+1 < len(clauses) {
		end = int(clauses[hi+1].start)
	}
	return int(clauses[lo].start), end, true
}

// sectionEnd: where the section headed by c ends — the next heading, the
// next list item at the head's indent or shallower, a line headed by
// another tracked mention, or maxSectionBytes.
func (an *analysis) sectionEnd(c *cand, rec *sentRec) int {
	text := an.text
	ls := strings.LastIndexByte(text[:c.start], '\n') + 1
	indent := len(text[ls:c.start]) - len(trimLeftSpace(text[ls:c.start]))
	heading := strings.HasPrefix(trimLeftSpace(text[ls:c.start]), "#")
	limit := min(len(text), rec.end+maxSectionBytes)
	pos := strings.IndexByte(text[rec.end:limit], '\n')
	if pos < 0 {
		return limit
	}
	pos += rec.end + 1
	for pos < limit {
		le := strings.IndexByte(text[pos:limit], '\n')
		if le < 0 {
			le = limit
		} else {
			le += pos
		}
		line := text[pos:le]
		q := trimLeftSpace(line)
		switch {
		case strings.HasPrefix(q, "#"):
			return pos
		case !heading && listMarkerLen(q) > 0 && len(line)-len(q) <= indent:
			return pos
		case !heading && q != "" && len(line)-len(q) <= indent && listMarkerLen(q) == 0 && !startsWithLabel(q):
			return pos // back to prose
		}
		pos = le + 1
	}
	return limit
}

// startsWithLabel: "**Cons:** …", "Pros: …" — a labelled line inside an
// item.
func startsWithLabel(q string) bool {
	q = strings.TrimLeft(q, "*_")
	i := strings.IndexByte(q, ':')
	return i > 0 && i < 30 && !strings.ContainsAny(q[:i], ".!?")
}

// hasCandIn: an accepted candidate lies in [s,e).
func (an *analysis) hasCandIn(s, e int) bool {
	cands := an.sc.cands
	i, _ := slices.BinarySearchFunc(cands, s, func(c cand, t int) int { return c.start - t })
	for ; i < len(cands) && cands[i].start < e; i++ {
		if cands[i].state == candAccepted {
			return true
		}
	}
	return false
}

// continuesAbout: a sentence without tracked names that is about the
// entity of the sentence before: a pronoun or a reporting subject.
func continuesAbout(s string) bool {
	if question(s) {
		return false
	}
	for pos, k := 0, 0; k < 8; k++ {
		w, np := wordAtAny(s, pos)
		if w == "" {
			return false
		}
		if inSet(anaphors, w) || inSet(anaphors, strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")) {
			return true
		}
		pos = np
	}
	return false
}

var anaphors = set(`it its it's itself they their them this that these the app tool platform product service
company software users user reviewers reviews customers critics people many some fans teams`)

// valence scores the polar words of text[s:e] outside accepted mentions:
// praise p and criticism n, both ≥ 0.
func (an *analysis) valence(s, e int) (p, n float64) {
	text, cands := an.text, an.sc.cands
	j, _ := slices.BinarySearchFunc(cands, s, func(c cand, t int) int { return c.end - t })
	neg, mult := 0, 1.0
	multLeft := 0
	pendingNeg := false
	for pos := s; pos < e; {
		c := text[pos]
		if c < utf8.RuneSelf && !asciiWord[c] {
			if c == ',' || c == ';' || c == '.' || c == ':' {
				neg, pendingNeg = 0, false
			}
			pos++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[pos:e])
		if !isWordRune(r) {
			pos += size
			continue
		}
		st := pos
		pos = wordEnd(text, pos+size, e)
		for j < len(cands) && cands[j].end <= st {
			j++
		}
		if j < len(cands) && cands[j].start < pos && cands[j].state == candAccepted {
			continue // part of a mention ("Best Buy")
		}
		w := text[st:pos]
		f := lexLookup(w)
		if pendingNeg {
			pendingNeg = false
			neg = negationWindow
			if f == 0 && strings.EqualFold(w, "only") {
				neg = 0
			}
		}
		switch {
		case f&lexContrast != 0:
			neg, mult, multLeft = 0, 1, 0
			continue
		case f&lexNegator != 0:
			pendingNeg = true
			continue
		case f&lexBooster != 0:
			mult, multLeft = sentBoost, 2
			continue
		case f&lexSoftener != 0:
			mult, multLeft = sentSoften, 3
			continue
		}
		if f&(lexPositive|lexNegative) == 0 {
			if neg > 0 {
				neg--
			}
			if multLeft > 0 {
				if multLeft--; multLeft == 0 {
					mult = 1
				}
			}
			continue
		}
		wt := mult
		if f&lexStrong != 0 {
			wt *= sentStrong
		}
		positive := f&lexPositive != 0
		if neg > 0 {
			if positive {
				positive = false
			} else {
				positive, wt = true, wt*sentFlipToPositive
			}
			neg = 0
		}
		if positive {
			p += wt
		} else {
			n += wt
		}
		mult, multLeft = 1, 0
	}
	return p, n
}
