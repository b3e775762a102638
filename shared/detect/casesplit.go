package detect

import (
	"slices"
	"strings"
)

// Verdicts a writer splits by the reader's case, and choices granted
// grudgingly (round s10b, issue 11).
//
// "Good value on road trips, less so in big cities", "Handy for a
// fixed-term pot; not somewhere to run your everyday money": praise for
// one case with its negation elided for another is two-sided — the elided
// half is criticism no polar word carries. "If you live near a hub, it's
// worth it; if you'd need two connections, a nonstop is better" and "For
// a light user it's a steal; heavy users will outgrow it" set two cases
// side by side the same way. "If you go with X anyway", "If you do book
// X": a choice of the brand granted against the writer's advice is a
// warning against it.

// ellipsisHeads open the elided other half of a judgement: "less so",
// "not so much", "not for …", "not somewhere to …".
var (
	ellipsisLess = phrases(`less so|much less so|not as much|not nearly as much|not so|less for|less in|less on|
less when|less if`)
	// notElided follow "not" in an elided half: a case, a place, an
	// article or a degree — not "just", "only", "to mention", "bad".
	notElided = set(`for in on at when if somewhere something anywhere anything a an the as always much great ideal good
worth everyone everybody anyone ideal necessarily really quite`)
)

// elidedSplit: t holds praise before a comma, semicolon or dash and then
// the judgement's elided negation for another case ("…, less so in big
// cities", "…; not somewhere to run your everyday money"). Only the cheap
// check runs per span: a separator followed by "less" or "not".
func elidedSplit(t string) bool {
	for i := 0; i < len(t); i++ {
		after := i + 1
		switch t[i] {
		case ',', ';':
		case '-': // a spaced hyphen standing for a dash
			if i == 0 || t[i-1] != ' ' {
				continue
			}
		default:
			if !strings.HasPrefix(t[i:], "—") {
				continue
			}
			after = i + len("—")
		}
		w, np := wordAtAny(t, after)
		if !strings.EqualFold(w, "less") && !strings.EqualFold(w, "much") && !strings.EqualFold(w, "not") ||
			wordCount(t[:i]) < 2 {
			continue
		}
		if ellipsisLess.opens(t[after:]) {
			return true
		}
		if x, _ := wordAtAny(t, np); strings.EqualFold(w, "not") && inSet(notElided, x) {
			return true
		}
	}
	return false
}

// caseGroupNouns name a kind of reader as a case's subject: "heavy users",
// "frequent flyers", "anyone who …".
var caseGroupNouns = set(`users user buyers buyer travellers travelers traveller traveler flyers fliers drivers
customers families renters shoppers readers players riders commuters teams businesses beginners pros professionals
anyone everyone`)

// caseClauseAt: the clause that starts at pos in t opens a case — "if
// …", "for …", "when …", or a kind of reader named in its first three
// words ("heavy users will …").
func caseClauseAt(t string, pos int) bool {
	w, np := wordAtAny(t, pos)
	if inSet(forCaseOpeners, w) || inSet(warnConditions, w) && !strings.EqualFold(w, "unless") {
		return true
	}
	for k := 0; k < 3 && w != ""; k++ {
		if inSet(caseGroupNouns, w) {
			return true
		}
		w, np = wordAtAny(t, np)
	}
	return false
}

// twoCaseSplit: the span [s,e) opens with a case and praise of the brand
// for it, then after a semicolon opens another case that reads against it
// — a criticism, a limit reached, or another named in its place ("If you live near a hub,
// it's worth it; if you'd need two connections, a nonstop on JAL is
// better").
func (an *analysis) twoCaseSplit(s, e int) bool {
	if !caseClauseAt(an.text[s:e], 0) {
		return false
	}
	// the span may end at the semicolon when the other case names a rival
	e = max(e, sentenceRunEnd(an.text, e))
	t := an.text[s:e]
	i := strings.IndexByte(t, ';')
	if i < 0 || !caseClauseAt(t, i+1) {
		return false
	}
	saved := an.sent
	p1, n1, _ := an.valence(s, s+i)
	p2, n2, _ := an.valence(s+i+1, e)
	an.sent = saved
	return p1 > n1 && (n2 > p2 || an.otherIn(s+i+1, e) || hasWordIn(t[i+1:], limitNouns))
}

// limitNouns in the other case's clause say the brand runs out there:
// "heavy users will hit its limits", "power users outgrow it".
var limitNouns = set(`limits limit ceiling outgrow outgrows outgrown`)

// sentenceRunEnd is where the sentence holding position e ends: its
// closing stop or line break.
func sentenceRunEnd(text string, e int) int {
	if i := strings.IndexAny(text[e:], ".!?\n"); i >= 0 {
		return e + i
	}
	return len(text)
}

// caseSplit reads the span [s,e) for a verdict split by case, its praise
// p granted for one case and denied or bettered for another: elided, the
// denial is criticism in the span ("…, less so in big cities"); two cases
// side by side split an answer about the brand (the query names it) —
// to "best … for …" the brand is the pick for its case.
func (an *analysis) caseSplit(s, e int, p float64) (elided, cases bool) {
	if p < sentNeutral {
		return false, false
	}
	if elidedSplit(an.text[s:e]) {
		return true, false
	}
	return false, len(an.queryNames) > 0 && an.queryNames[0] && an.twoCaseSplit(s, e)
}

// grudgeMarkers in an "if" clause choosing the brand say the choice goes
// against the writer's advice: "If you go with X anyway", "If you still
// want X", "If you must use X", "If you're set on X".
var grudgeMarkers = set(`anyway anyways still must insist insists regardless nonetheless nevertheless`)

// choiceVerbs choose the brand in an "if" clause: "go with", "book",
// "pick", "use".
var choiceVerbs = set(`go going book booking pick picking choose choosing use using buy buying stick sticking try
trying sign signing rent renting fly flying stay staying get getting want prefer opt`)

// grudgingChoice: the span [s,e) opens with a condition on the reader
// choosing the brand against advice — "If you go with X anyway, …", "If
// you do book X, …" (the emphatic "do"), "If you still want X, …", "If
// you must use it, …" — a warning against the brand that then advises on
// damage control.
func (an *analysis) grudgingChoice(s, e int) bool {
	t := an.text[s:e]
	w, np := wordAtAny(t, 0)
	if !strings.EqualFold(w, "if") {
		return false
	}
	end := strings.IndexAny(t, ",;:—")
	if end < 0 {
		return false
	}
	grudge, chose, emphatic := false, false, false
	prev := ""
	for pos := np; pos < end; {
		w, np := wordAtAny(t[:end], pos)
		if w == "" {
			break
		}
		switch {
		case inSet(grudgeMarkers, w):
			grudge = true
		case strings.EqualFold(w, "do") && (strings.EqualFold(prev, "you") || strings.EqualFold(prev, "you've")):
			emphatic = true // "if you do book X"
		case inSet(choiceVerbs, w):
			chose = true
		}
		prev, pos = w, np
	}
	if !chose || !grudge && !emphatic {
		return false
	}
	// the choice is the brand's: it is named, or "it"/"them" stands for it
	return an.brandIn(s, s+end) || hasWordIn(t[:end], brandPronouns)
}

// pairedCase: the sentence [s,e) opens with a case and the sentence just
// before it, in the same paragraph, opens with another case and praises
// the brand ("If you travel a lot, EE earns its premium. If you're mostly
// in a city, Three gives you more data for less."): an alternative offered
// for the second case is the other side of a split, not a verdict against
// the brand. "Otherwise" opens the case left over by a condition anywhere
// in the sentence before ("It's worth it if your child reads a lot.
// Otherwise, Libby offers the same for free.").
func (an *analysis) pairedCase(s, e int) bool {
	text := an.text
	w, _ := wordAtAny(text[s:e], 0)
	rest := inSet(otherwiseWords, w)
	if !rest && !caseClauseAt(text[s:e], 0) {
		return false
	}
	ps, pe, found := 0, 0, false
	for st, en, ok := sentenceAfter(text, 0); ok && en <= s; st, en, ok = sentenceAfter(text, en) {
		ps, pe, found = st, en, true
	}
	if !found || strings.Contains(text[pe:s], "\n\n") ||
		!caseClauseAt(text[ps:pe], 0) && !(rest && hasWordIn(text[ps:pe], verdictConditions)) ||
		!an.brandIn(ps, pe) && !hasWordIn(text[ps:pe], brandPronouns) {
		return false
	}
	p, n := an.peekValence(ps, pe)
	return p > n
}

// otherwiseWords open the case a condition before leaves over.
var otherwiseWords = set(`otherwise else sinon sonst ansonsten`)

// worksWhenPhrases grant praise only on the condition that the product
// works: "when it works, it's cheap", "on a good day".
var worksWhenPhrases = phrases(`when it works|when they work|if it works|when it's working|when it is working|
when things go right|when all goes well|when everything goes right|when everything works|on a good day`)

// comparedOnly mark a comparison's object (comparisonMarkers and
// comparedPreps but "like", and "as" after "such"): "kits like X", "kits
// such as X" name examples of a kind, whose clause is theirs.
var comparedOnly = func() map[string]bool {
	m := map[string]bool{}
	for _, s := range []map[string]bool{comparisonMarkers, comparedPreps} {
		for w := range s {
			m[w] = true
		}
	}
	delete(m, "like") // "like Ryanair" names an example, not a comparison
	registerFilter(m)
	return m
}()

// onlyCompared: every other entity named in the sentence [s,e) is the
// object of a comparison ("competitive with Ryanair and easyJet",
// "cheaper than Osprey"), within three words of its marker (of markers:
// comparedOnly, or comparisonMarkers where a bare "to" or "with" could
// name where users go, "switching to YouTube TV"); the sentence still
// speaks of the brand.
func (an *analysis) onlyCompared(s, e int, markers map[string]bool) bool {
	text, cands := an.text, an.sc.cands
	found := false
	i, _ := slices.BinarySearchFunc(cands, s, func(c cand, t int) int { return c.start - t })
	for ; i < len(cands) && cands[i].start < e; i++ {
		c := &cands[i]
		if c.state != candAccepted {
			continue
		}
		if c.ent == 0 {
			return false // the brand named again: its own sentence
		}
		compared, at := false, c.start
		for k := 0; k < 3 && !compared && at > s; k++ {
			p := prevToken(text, s, at)
			if p.word == "" {
				break
			}
			compared = inSet(markers, p.word) && !strings.EqualFold(p.word, "like") &&
				!(strings.EqualFold(p.word, "as") && strings.EqualFold(prevToken(text, s, at-len(p.word)-1).word, "such"))
			at -= len(p.word) + 1
		}
		if !compared {
			return false
		}
		found = true
	}
	return found
}

// turnKept extends a clause cut at ce before another entity's clause to
// the turn word that opens that clause ("The cabin is nice — …, but the
// Model Y gives you more"): the praise is then read as granted before a
// turn (concession.go's turnEnds), not as the brand's last word.
func turnKept(text string, ce, e int) int {
	w, np := wordAtAny(text[:e], ce)
	if inSet(turnWords, w) && strings.TrimSpace(text[ce:np-len(w)]) == "" {
		return np
	}
	return ce
}
