package detect

import "strings"

// A rival that wins, said of the rival. "EGO beats Stihl on almost every
// count", "Corvid edges it on battery": the brand is the object of a
// rival's win, a verdict against it as "Corvid is the better pick" is.
// "For a few dollars more, a Corvid or a Halden is quieter and far more
// dependable": a rival's comparative praise with no "than" is measured
// against the brand the paragraph is about — half a criticism, like users
// moving to a rival (beside criticism of the brand). A condition ("if you need …", "… there") makes either
// a trade-off, which counts nothing.

var (
	// rivalWinVerbs: the rival wins with the brand as object.
	rivalWinVerbs = set(`beats beat outperforms outperform outclasses outclass outshines outshine trumps bests
edges outlasts outsells trounces`)
	// rivalDegrees stand between a copula and its comparative: "is far
	// more dependable", "are noticeably quieter".
	rivalDegrees = set(`much far even noticeably considerably slightly way a lot both also simply clearly`)
	// rivalHedges make the win partial: "often beats", "matches or beats",
	// "is sometimes quieter" — a trade-off, not a verdict.
	rivalHedges = set(`often sometimes usually occasionally can may might generally typically or matches match`)
)

// rivalWins: a sentence of the brand's paragraphs has a clause whose
// subject names another entity and not the brand that wins against the
// brand (win: a win verb before the brand or a pronoun for it) or praises
// the rival by a comparative with no "than" (win false). verdict: a win
// with no condition in its sentence.
func (an *analysis) rivalWins() (s, e int, win, ok bool) {
	if !an.otherAccepted(0) {
		return 0, 0, false, false
	}
	s, e, ok = an.brandParagraphs(func(s, e int) bool {
		var found bool
		win, found = an.rivalWinIn(s, e)
		return found
	})
	if !ok || hasWordIn(an.text[s:e], conditionWords) {
		return 0, 0, false, false
	}
	return s, e, win, true
}

// rivalWinIn reads the sentence [s,e) clause by clause (rivalWins).
func (an *analysis) rivalWinIn(s, e int) (win, ok bool) {
	if !an.otherIn(s, e) {
		return false, false // a win needs a rival in the clause
	}
	text := an.text[:e]
	clause := s
	for pos := s; ; {
		w, np := wordAtAny(text, pos)
		if w == "" {
			return false, false
		}
		ws := np - len(w)
		if brk := inSet(clauseBreaks, w); brk || gapBreaks(text[pos:ws]) {
			clause = ws
			if brk {
				clause = np
			}
		}
		pos = np
		if inSet(rivalHedges, w) {
			clause = np // a hedged win is none: read the clause after it afresh
			continue
		}
		verb := inSet(rivalWinVerbs, w)
		cop := !verb && inSet(verdictCopulas, w)
		if !verb && !cop || ws <= clause || !an.otherIn(clause, ws) || an.brandIn(clause, ws) ||
			hasWordIn(text[clause:ws], brandPronouns) {
			continue
		}
		if verb {
			// "beats Stihl", "edges it", "edges out the Stihl"
			for k, q := 0, np; k < 3; k++ {
				x, xp := wordAtAny(text, q)
				if x == "" {
					break
				}
				if an.brandIn(xp-len(x), xp) || k == 0 && (strings.EqualFold(x, "it") || strings.EqualFold(x, "them")) {
					return true, true
				}
				q = xp
			}
			continue
		}
		// "is quieter and far more dependable", "are better built": a
		// comparative of praise, and no "than" in the clause
		x, q := wordAtAny(text, np)
		for k := 0; k < 2 && inSet(rivalDegrees, x); k++ {
			x, q = wordAtAny(text, q)
		}
		if inSet(rivalHedges, x) {
			continue
		}
		// (a lower price is a trade, not a win: "Travelodge is cheaper")
		comp := strings.EqualFold(x, "better") || comparativeAdjective(x) && !inSet(priceComparatives, x)
		if strings.EqualFold(x, "more") {
			y, _ := wordAtAny(text, q)
			comp = lexLookup(y)&lexPositive != 0
		}
		if comp && !clauseHas(text, q, "than") {
			return false, true
		}
	}
}

// clauseHas: the word w occurs in text from pos to the clause's end.
func clauseHas(text string, pos int, w string) bool {
	end := len(text)
	if i := strings.IndexAny(text[pos:], ",;:.!?—"); i >= 0 {
		end = pos + i
	}
	return hasWordFold(text[pos:end], w)
}

// betterWithin: "better" follows pos within k words of the same clause,
// past degree words ("much better"), with no "than" after it ("does it
// better than X" compares with X, not with the brand).
func betterWithin(text string, pos, k int) bool {
	for ; k > 0; k-- {
		x, q := wordAtAny(text, pos)
		if x == "" || strings.ContainsAny(text[pos:q-len(x)], ",;:.!?—") {
			return false
		}
		if strings.EqualFold(x, "better") {
			return !clauseHas(text, q, "than")
		}
		if inSet(rivalDegrees, x) {
			k++ // "much", "far": no word of the count
		}
		pos = q
	}
	return false
}

// verdictToKind: the labelled verdict t tells the reader to get something
// (praise.go's verdictImperatives)
// of a kind ("get a decent drip machine", "buy any basic toaster") — no
// name, no pronoun for the brand: an alternative in its place.
func verdictToKind(t string) bool {
	i := strings.IndexAny(t, ":,—")
	if i < 0 {
		return false
	}
	w, np := wordAtAny(t, i)
	if !inSet(verdictImperatives, w) {
		return false
	}
	x, _ := wordAtAny(t, np)
	return inSet(kindDeterminers, x) && !strings.EqualFold(x, "your")
}

var (
	// relativeSubjects open a relative clause with no "that": "the lag
	// you get elsewhere".
	relativeSubjects = set(`you we they one people`)
	// adviceLeads before such a subject make it advice again: "you
	// should look elsewhere", "so you shop elsewhere".
	adviceLeads = set(`should could can might may would must will better rather so then if`)
)

// elsewhereDescribed: the verb before "elsewhere" (which starts at st)
// belongs to a relative clause that describes what other products give —
// "the lag you get elsewhere", "what you pay elsewhere" — a comparison
// the brand wins, not advice to leave it.
func elsewhereDescribed(text string, st int) bool {
	_, vs := tokenBefore(text, st)
	subj, ss := tokenBefore(text, vs)
	if !inSet(relativeSubjects, subj) {
		return false
	}
	lead, _ := tokenBefore(text, ss)
	return lead != "" && !inSet(adviceLeads, lead) // (a comma before the subject gives "")
}
