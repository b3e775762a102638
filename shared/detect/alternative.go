package detect

import "strings"

// An alternative offered in the brand's place. Reviews close on what the
// reader should buy instead, naming things the brand is not — often none
// of them tracked: "For the same money, Rough Linen or Cultiver give you a
// heavier weave", "a tap filter and a SodaStream do the same job for
// pennies", "Spark or plain old Apple Mail will serve you better". The
// praise in such a clause is the alternative's, and a person reads the
// clause as the brand's criticism: the reader gets more elsewhere.

var (
	// offerVerbs head the predicate of an alternative's clause: "give you
	// more", "do the same job", "serve you better".
	offerVerbs = set(`give gives get gets do does make makes serve serves take takes offer offers is are es est ist`)
	// verdictCopulas: "Canvas is the safer choice", "Shopify es mejor opción".
	verdictCopulas = set(`is are es est ist`)
	// betterWords before a fit noun: "the safer choice", "mejor opción".
	betterWords = set(`better safer smarter wiser simpler easier sensible mejor meilleur meilleure besser bessere`)
	// verdictNouns after betterWords: "the better deal", "a safer bet".
	verdictNouns = set(`deal bet choice pick option opción choix wahl`)
	// furtherWords after "take you": "will take you further".
	furtherWords = set(`further farther`)
	// subjectSkips stand between the subject and the verb: "will serve",
	// "often give", "usually do".
	subjectSkips = set(`will would 'll can could often usually generally typically both all also may might`)
	// clauseBreaks end the clause before a subject: "…, but Visible or US
	// Mobile give you …", "otherwise a tap filter …".
	clauseBreaks = set(`but otherwise instead and while whereas though although yet so`)
	// comparativeGains after "give you": what the alternative gives more
	// of ("more range", "a steadier network", "better coverage").
	comparativeGains = set(`more better extra superior`)
	// sameWords after "do": "do the same job", "does the same thing".
	sameWords = set(`same`)
	// valueAnchors after "for": the alternative's price is no higher ("for
	// the same money", "for less", "for pennies", "for free").
	valueAnchors = set(`less free pennies nothing similar same fraction half cheaper the`)
	// selfSubjects are the reader or the writer, not an alternative.
	selfSubjects = set(`you i we you'll i'd we'd you'd one`)
)

// alternativeOffered: a clause of [s,e) whose subject names neither the
// brand nor a pronoun for it offers the reader more or the same for no more
// money — "Voxi or Smarty give you more for similar money", "your bank's
// own savings space does the same job for free", "Spark … will serve you
// better". at is where the clause starts: the span's praise from there on
// is the alternative's.
func (an *analysis) alternativeOffered(s, e int) (at int, ok bool) {
	at, offer, ok := an.alternativeClause(s, e)
	return at, ok && offer
}

// alternativeClause: a clause of [s,e) from at speaks of an alternative —
// offered in the brand's place (offer), or the better choice only in a case
// ("if you need …", "For most hobby sites, Vantor is the better option"):
// a trade-off, whose praise is still the alternative's.
func (an *analysis) alternativeClause(s, e int) (at int, offer, ok bool) {
	text := an.text[:e]
	sentValue, valueRead := false, false // valueAnchored(text[s:e]), read once an offer verb needs it
	clause := s                          // where the current clause starts
	subj := 0                            // words since the clause start
	pronoun, self := false, false
	for pos := s; ; {
		w, np := wordAtAny(text, pos)
		if w == "" {
			return 0, false, false
		}
		ws := np - len(w)
		brk := inSet(clauseBreaks, w)
		if brk || gapBreaks(text[pos:ws]) {
			clause, subj, pronoun, self = ws, 0, false, false
			if brk {
				clause = np
				pos = np
				continue
			}
		}
		offer := subj > 0 && !pronoun && inSet(offerVerbs, w)
		if offer && !valueRead {
			sentValue, valueRead = valueAnchored(text[s:e]), true
		}
		switch {
		case offer && !an.brandIn(clause, ws) && readerDoesBetter(text, w, np):
			// "most viewers would do better rotating it in", "you'll do
			// better selling the good pieces yourself": the reader gains by
			// leaving the brand
			return clause, true, true
		case offer && !self && !an.brandIn(clause, ws) &&
			otherSubject(text[clause:ws]) && !ownOffer(text[clause:ws]) && !an.brandsProduct(clause, ws) &&
			offerPredicate(text, w, np, sentValue):
			if inSet(verdictCopulas, w) && (hasWordIn(text[s:e], caseWords) || an.narrowCase(text[s:clause])) ||
				an.twoCases(s, clause) {
				return clause, false, true
			}
			return clause, true, true
		case subj > 0 && inSet(subjectSkips, w):
			// "will serve", "often give": the subject goes on to the verb
		case inSet(brandPronouns, w):
			pronoun = true
			subj++
		case subj == 0 && inSet(selfSubjects, w):
			self = true
			subj++
		default:
			subj++
		}
		if subj > 8 {
			pronoun = true // too far from a clause start to be a subject
		}
		pos = np
	}
}

// gapBreaks: the text between two words holds a clause break — what
// strings.ContainsAny(gap, ",;:—–(") reports, by bytes (a dash's first
// byte always starts a rune: it is no continuation byte).
func gapBreaks(gap string) bool {
	for i := 0; i < len(gap); i++ {
		switch gap[i] {
		case ',', ';', ':', '(':
			return true
		case "—"[0]:
			if strings.HasPrefix(gap[i:], "—") || strings.HasPrefix(gap[i:], "–") {
				return true
			}
		}
	}
	return false
}

// otherSubject: the subject names something — a name ("Spark or plain
// old Apple Mail", "the Model Y and Kia EV6") — or offers one of a kind
// ("a tap filter and a SodaStream", "your bank's own savings space"); "the
// program", "the Pro plan" are the brand's own.
func otherSubject(subject string) bool {
	for pos, k := 0, 0; ; k++ {
		w, np := wordAtAny(subject, pos)
		if w == "" {
			return false
		}
		if k == 0 && inSet(kindDeterminers, w) {
			return true
		}
		if r := w[0]; r >= 'A' && r <= 'Z' && !inSet(ownDeterminers, w) {
			return true
		}
		pos = np
	}
}

// narrowCase: the words before a verdict open a case narrower than the
// query's — "For most small sites, Cloudflare is the better option" to
// "fastly vs cloudflare" — not the query's own case ("For family photos"
// to "dropbox or google drive for family photos") nor a population ("For
// most travellers").
func (an *analysis) narrowCase(before string) bool {
	w, pos := wordAtAny(before, 0)
	if !inSet(forCaseOpeners, w) {
		return false
	}
	words, unasked := 0, false
	for {
		w, pos = wordAtAny(before, pos)
		if w == "" {
			break
		}
		if inSet(populationWords, w) {
			continue
		}
		words++
		unasked = unasked || !hasWordFold(an.query, w)
	}
	return words > 1 && unasked
}

// populationWords before a case's noun: "for most people", "for the
// average buyer".
var populationWords = set(`most the a an all many average typical everyday regular`)

// twoCases: the sentence praises the brand for one case before offering
// an alternative for another ("For hourly roles it's great; for senior
// roles, LinkedIn will get you better candidates"): two cases, no offer
// in its place.
func (an *analysis) twoCases(s, at int) bool {
	t := an.text[s:at]
	if !hasWordIn(t, forCaseOpeners) && !hasWordIn(t, warnConditions) ||
		!hasWordIn(t, brandPronouns) && !an.brandIn(s, at) {
		return false
	}
	p, n := an.peekValence(s, at)
	return p > n
}

// brandsProduct: a capitalised word of the subject [s,e) follows a mention
// of the brand elsewhere in the answer ("the Model Y is the better pick"
// beside "Tesla's Model Y", "Tesla Model 3"): the subject is one of the
// brand's products, not an alternative to it.
func (an *analysis) brandsProduct(s, e int) bool {
	text := an.text
	for pos := s; ; {
		w, np := wordAtAny(text[:e], pos)
		if w == "" {
			return false
		}
		pos = np
		if w[0] < 'A' || w[0] > 'Z' || inSet(ownDeterminers, w) {
			continue
		}
		if an.anyBrandMention(func(c *cand, _ *sentRec) bool {
			x, q := wordAtAny(text, c.end)
			if strings.EqualFold(x, "s") && q-len(x) <= c.end+len("’") { // "Tesla's", "Tesla’s"
				x, _ = wordAtAny(text, q)
			}
			return x == w
		}) {
			return true
		}
	}
}

// ownOffer: the subject is one of the brand's own offers ("the Pro plan",
// "its annual tier"): an offer noun in lower case.
func ownOffer(subject string) bool {
	for pos := 0; ; {
		w, np := wordAtAny(subject, pos)
		if w == "" {
			return false
		}
		if !hasUpper(w) && inSet(offerNouns, w) {
			return true
		}
		pos = np
	}
}

var (
	// kindDeterminers open a subject that offers one of a kind: "a tap
	// filter", "your bank's savings space".
	kindDeterminers = set(`a an your any another`)
	// ownDeterminers, capitalised at a sentence start, name no product.
	ownDeterminers = set(`the this that these those its their our my his her for if with at on in by`)
)

// offerPredicate: after the offer verb w (ending at np) comes what the
// alternative offers — "give you more/a steadier …", "do the same job",
// "serve you better" — and, for giving, more of something or a price no
// higher (sentValue: the sentence has "for the same money", "for less").
func offerPredicate(text, w string, np int, sentValue bool) bool {
	next, p := wordAtAny(text, np)
	var buf [8]byte
	lw := w
	if len(w) <= len(buf) && hasUpper(w) {
		for i := 0; i < len(w); i++ {
			buf[i] = lowerASCII(w[i])
		}
		lw = string(buf[:len(w)])
	}
	switch lw {
	case "give", "gives", "get", "gets":
		if !strings.EqualFold(next, "you") {
			return false
		}
		if sentValue {
			return true
		}
		for k := 0; k < 3; k++ {
			x, q := wordAtAny(text, p)
			if x == "" {
				return false
			}
			if inSet(comparativeGains, x) || comparativeAdjective(x) {
				return true
			}
			p = q
		}
	case "do", "does", "make", "makes":
		// "do the same job for pennies", "does the same thing for free"
		if strings.EqualFold(next, "the") {
			if x, _ := wordAtAny(text, p); inSet(sameWords, x) {
				return sentValue
			}
		}
		// "does both jobs better", "makes better toast": the comparative
		// of the work itself, no "than" (rivalwin.go reads the rest)
		return betterWithin(text, np, 3)
	case "serve", "serves":
		// "will serve you better", "will serve you much better"
		return strings.EqualFold(next, "you") && betterWithin(text, p, 2)
	case "take", "takes":
		// "The Odin Project or Codecademy will take you further"
		x, _ := wordAtAny(text, p)
		return strings.EqualFold(next, "you") && inSet(furtherWords, x)
	case "offer", "offers":
		// "RudderStack offers a compatible API at a fraction of the cost"
		return sentValue
	default:
		// "Canvas is the safer choice", "Google Photos is the better
		// deal", "Shopify es mejor opción": a verdict for the other
		return betterVerdictAt(text, np)
	}
	return false
}

// betterVerdictAt: within four words from pos, a better-word before a
// verdict noun ("the safer choice", "the better deal").
func betterVerdictAt(text string, pos int) bool {
	prev := ""
	for k := 0; k < 4; k++ {
		x, q := wordAtAny(text, pos)
		if x == "" {
			return false
		}
		if inSet(verdictNouns, x) && inSet(betterWords, prev) {
			return true
		}
		prev, pos = x, q
	}
	return false
}

// caseWords restrict a verdict to a case: "if you need X, Y is the better
// pick", "Slack is the safer choice there" set out a trade-off ("unless …"
// does not: the other is the default).
var caseWords = set(`if when whereas there si quand wenn falls cuando`)

// readerDoesBetter: the verb w (ending at np) is "do" before "better": the
// reader does better elsewhere.
func readerDoesBetter(text, w string, np int) bool {
	if !strings.EqualFold(w, "do") {
		return false
	}
	x, _ := wordAtAny(text, np)
	return strings.EqualFold(x, "better")
}

// comparativeAdjective: x is a comparative the alternative offers ("a
// steadier network", "a heavier weave", "faster charging").
func comparativeAdjective(x string) bool {
	if len(x) < 6 || !strings.HasSuffix(x, "er") {
		return false
	}
	return strings.HasSuffix(x, "ier") || lexLookup(x)&lexPositive != 0 || inSet(preferredComparatives, x) ||
		inSet(gainComparatives, x)
}

// gainComparatives: comparatives of more of a good thing that no lexicon
// scores.
var gainComparatives = set(`heavier faster stronger longer larger bigger wider quieter lighter thicker softer`)

// valueAnchored: t prices the alternative no higher than the brand — "for
// the same money", "for similar money", "for the money", "for less", "for
// pennies", "for free", "for a fraction of the price".
func valueAnchored(t string) bool {
	prevFor := false
	for pos := 0; ; {
		w, np := wordAtAny(t, pos)
		if w == "" {
			return false
		}
		if prevFor && strings.EqualFold(w, "a") {
			if x, _ := wordAtAny(t, np); strings.EqualFold(x, "fraction") {
				return true // "at a fraction of the cost"
			}
		}
		if prevFor && inSet(valueAnchors, w) {
			if !strings.EqualFold(w, "the") {
				return true
			}
			x, q := wordAtAny(t, np)
			if inSet(valueNouns, x) && !strings.EqualFold(x, "what") {
				return true
			}
			if strings.EqualFold(x, "same") {
				y, _ := wordAtAny(t, q)
				return inSet(valueNouns, y) && !strings.EqualFold(y, "what")
			}
		}
		prevFor = strings.EqualFold(w, "for") || strings.EqualFold(w, "at")
		pos = np
	}
}

// besideAlternative reweighs the span [s,e) that read praise p and
// criticism n when a clause of it offers an alternative: the praise from
// that clause on is the alternative's, and so is a purpose or case that
// opens the sentence ("For a simple pot, your bank's savings space does
// the same job for free"); praise before a turn to the alternative ("The
// price is tempting, but …") is conceded. The offer is the brand's
// criticism, of a verdict's weight: the reader is told to buy elsewhere.
func (an *analysis) besideAlternative(s, e int, p, n float64) (float64, float64, bool) {
	at, offer, ok := an.alternativeClause(s, e)
	if !ok && an.alternativeFound(s, e) {
		// "If you can find a well-reviewed independent groomer nearby,
		// that's the safer bet": the whole sentence praises the other
		return 0, n + sentRecommended, true
	}
	if !ok {
		return p, n, false
	}
	pb := 0.0
	if w, _ := wordAtAny(an.text[s:at], 0); at > s && !inSet(forCaseOpeners, w) && !inSet(warnConditions, w) {
		pb, _ = an.peekValence(s, at)
		if hasWordIn(an.text[s:at], turnWords) {
			pb *= an.d.sent.concede
		}
	}
	if !offer {
		return min(p, pb), n, false // a trade-off: its praise is the alternative's
	}
	return min(p, pb), n + sentRecommended, true
}

// demonstrativeCopulas open a clause whose subject points back at what the
// clause before named: "…, that's the safer bet".
var demonstrativeCopulas = set(`that's that’s that`)

// alternativeFound: [s,e) opens with a condition that names something of
// a kind and not the brand ("If you can find a well-reviewed independent
// groomer nearby"), then calls that — by a demonstrative — the better
// choice ("that's the safer bet"): an alternative offered in the brand's
// place, though no name is given.
func (an *analysis) alternativeFound(s, e int) bool {
	t := an.text[s:e]
	w, np := wordAtAny(t, 0)
	if !strings.EqualFold(w, "if") {
		return false
	}
	comma := strings.IndexByte(t, ',')
	if comma < 0 || an.brandIn(s, s+comma) || hasWordIn(t[:comma], brandPronouns) || !hasWordIn(t[np:comma], kindDeterminers) {
		return false
	}
	d, dp := wordAtAny(t, comma)
	if !inSet(demonstrativeCopulas, d) {
		return false
	}
	if strings.EqualFold(d, "that") {
		if c, cp := wordAtAny(t, dp); inSet(verdictCopulas, c) {
			dp = cp
		} else {
			return false
		}
	}
	return betterVerdictAt(t, dp)
}

// verdictSentenceOffers: in an answer to a query naming the brand, the
// opening or the closing sentence — where an answer gives its verdict —
// names none of it and offers something else in its place ("For most
// travellers, Delta is the safer bet.", "Unless you're locked into a
// contract, Canvas is the safer choice.").
func (an *analysis) verdictSentenceOffers() (s, e int, ok bool) {
	if len(an.queryNames) == 0 || !an.queryNames[0] {
		return 0, 0, false
	}
	text := an.text
	fs, fe, found := sentenceAfter(text, 0)
	if !found {
		return 0, 0, false
	}
	ls, le := fs, fe
	for st, en, more := sentenceAfter(text, fe); more && en > ls; st, en, more = sentenceAfter(text, en) {
		ls, le = st, en
	}
	rs, _, rok := an.rivalPreferred()
	for _, r := range [2][2]int{{fs, fe}, {ls, le}} {
		if an.brandIn(r[0], r[1]) || question(text[r[0]:r[1]]) || rok && rs == r[0] {
			continue // the brand's own sentence, or a rival preferred already
		}
		if r[0] == ls && an.pairedCase(ls, le) {
			continue // casesplit.go: "If …, EE earns its premium. If …, Three gives you more."
		}
		if _, found := an.alternativeOffered(r[0], r[1]); found {
			return r[0], r[1], true
		}
	}
	return 0, 0, false
}

// alternativeInParagraph: a sentence naming the brand, or one after it in
// its paragraph (however long), offers a tracked rival in its place ("… but
// the Model Y and Kia EV6 give you more range for the money"): the rival's
// clause is outside the brand's spans, the offer is still its criticism.
// verdict: the offer is the answer's opening or closing sentence (as
// "For most people, Ecobee is the better pick" is: rivalPreferred).
func (an *analysis) alternativeInParagraph() (s, e int, verdict, ok bool) {
	if s, e, ok = an.verdictSentenceOffers(); ok {
		return s, e, true, true
	}
	if !an.otherAccepted(0) {
		return 0, 0, false, false
	}
	text, seen := an.text, -1
	an.anyBrandMention(func(c *cand, rec *sentRec) bool {
		if c.srec == seen {
			return false
		}
		seen = c.srec
		for st, en, more := rec.start, rec.end, true; more; st, en, more = sentenceAfter(text, en) {
			if st > rec.start && (strings.IndexByte(text[rec.end:st], '\n') >= 0 || an.brandIn(st, en)) {
				return false // the paragraph ends, or the next sentence names the brand again
			}
			// a rival in the sentence first: the clause read is after
			// its start, and most sentences name none
			if !an.otherIn(st, en) {
				continue
			}
			if at, found := an.alternativeOffered(st, en); found && an.otherIn(at, en) {
				s, e, ok = st, en, true
				return true
			}
		}
		return false
	})
	return s, e, false, ok
}
