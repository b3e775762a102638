package detect

import (
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Ordinary-word evidence. A name or alias that is an ordinary English word
// (wordlist.go) counts only when the evidence that it names the product
// adds up to evidenceThreshold. The weights (package documentation) were
// set on the tuning half of the corpus in testdata/corpus.
const (
	evidenceThreshold = 1.0
	// ambiguousBand: scores within this distance of the threshold are
	// decided by the rules but reported as ambiguous, and are the ones an
	// Adjudicator is asked about.
	ambiguousBand = 0.4

	wCue            = 1.2  // "Slack app", "Notion's API", "Apple Inc"
	wTLD            = 2.0  // "Monday.com"
	wDefinition     = 1.5  // "Box is a cloud storage platform"
	wLinkAnchor     = 1.5  // "[Notion](…)"
	wDomainSeen     = 1.2  // capitalised, and the entity's domain is cited or in the text
	wCapital        = 0.8  // capitalised mid-sentence: a proper noun; the product only with some context
	wPossessive     = 1.0  // capitalised possessive: "Apple's"
	wEnumeration    = 1.2  // enumerated beside an accepted tracked entity
	wListContext    = 1.2  // heads a list item beside items headed by other tracked entities
	wNameHeading    = 0.7  // a heading or list head that is only the name
	wPredicate      = 0.6  // "X offers", "X is known for", "X was criticised"
	wAttribute      = 0.3  // per product attribute in the sentence (pricing, users, …), at most two
	wProductLine    = 0.5  // a product line or product noun follows: "Mercury Treasury", "Zoom calls"
	wQueryTopic     = 0.4  // the query asks about products, or names a tracked entity
	wQueryNames     = 0.5  // the query names this entity (instead of wQueryTopic)
	wQueryNamesBare = 0.2  // the query names this common word and nothing product-like
	wOtherSame      = 0.5  // another tracked entity accepted in the same sentence
	wOtherNear      = 0.5  // another tracked entity accepted in the previous or next sentence
	wSameEntity     = 0.5  // the entity is accepted elsewhere in the answer
	wVerbParticle   = -1.5 // "Zoom in on", "Bear in mind", "Craft a message": a verb, not a name
	wOf             = -0.8 // "Notion of progress"
	wUICommand      = -1.0 // "click Zoom", "select Square"
	wTitleCase      = -0.5 // every word of the line capitalised: capitals say nothing
	wSuffix         = -0.7 // "Mercury-free"
	wOtherAnswer    = 0.3  // another tracked entity accepted anywhere in the answer (no closer one)
	wNaturalKind    = -1.5 // "the Amazon basin", "Mercury is a planet": another sense of the word
	wSense          = -1.0 // another occurrence is that other sense (a menu item, a natural kind), no cue here
	wNounSense      = -0.5 // another occurrence is the common noun ("no notion of"), no cue here
	wDisclaimed     = 0.8  // capitalised, and its sentence says the model does not know it: a name
	wNameTail       = -0.8 // after another capitalised word mid-sentence: the end of another name ("The Big Apple")
)

// guardAll applies the ordinary-word rule: every guarded candidate gets a
// local score from its own sentence and the query; then passes add the
// context of other accepted mentions (same sentence, neighbouring
// sentences, enumerations, list blocks, the entity elsewhere) until nothing
// changes. Sentence and list-block summaries keep each pass linear.
func (an *analysis) guardAll() {
	sc := an.sc
	cands := sc.cands
	an.assignBlocks()
	an.prepareQuery()
	an.guardNamesakes()
	an.guardPersons() // "who won …": "Björn Borg" (wordsense.go)
	for i := range cands {
		if c := &cands[i]; c.state == candAccepted {
			an.accept(c, c.strength)
		}
	}
	for i := range cands {
		if c := &cands[i]; c.guarded && c.state == candPending {
			an.localEvidence(c)
		}
	}
	an.propagateSense()
	an.pluralSense() // "Ospreys return … Osprey nests" (wordsense.go)
	for i := range cands {
		if c := &cands[i]; c.guarded && c.state == candPending && c.local >= evidenceThreshold {
			c.score = c.local
			an.accept(c, guardConfidence(c.score))
		}
	}
	for pass, changed := 0, true; changed && pass < maxGuardPasses; pass++ {
		changed = false
		for i := range cands {
			c := &cands[i]
			if c.state != candPending {
				continue
			}
			c.score = c.local + an.contextEvidence(c)
			if c.score >= evidenceThreshold {
				an.accept(c, guardConfidence(c.score))
				changed = true
			}
		}
	}
	for i := range cands {
		if cands[i].state == candPending {
			cands[i].state = candRejected
		}
	}
}

// propagateSense applies one sense per answer (Gale, Church and Yarowsky,
// 1992): when an occurrence of a form is plainly another sense of the word
// — a step of a menu path, a natural kind ("the Amazon basin") — its other
// capitalised occurrences without a product cue of their own ("That's iOS
// Zoom", "uncheck Zoom") are read the same way. Verb uses do not count: a
// verb is another part of speech, not another sense of the name ("Zoom
// lets you zoom in").
func (an *analysis) propagateSense() {
	cands := an.sc.cands
	for i := range cands {
		c := &cands[i]
		if !c.otherSense && !c.nounSense {
			continue
		}
		w := wSense
		if !c.otherSense {
			w = wNounSense
		}
		for k := range cands {
			o := &cands[k]
			if k != i && o.guarded && o.state == candPending && !o.sensed && an.labelSense(o, c) {
				o.cued = false // "the Reflect Tool" beside a menu's "› Reflect…" (wordsense.go)
				o.local -= wCue
			}
			if k != i && o.pat == c.pat && o.guarded && o.state == candPending && !o.otherSense && !o.cued && !o.sensed {
				o.sensed = true
				o.local += w
			}
		}
	}
}

// maxGuardPasses bounds the context passes: each pass can accept names
// whose evidence is a name accepted in the previous pass.
const maxGuardPasses = 8

// guardConfidence maps an accepted evidence score to a mention confidence:
// 0.65 at the threshold, rising 0.1 per point of evidence to 0.85.
func guardConfidence(score float64) float64 {
	return math.Max(0.55, math.Min(0.85, 0.65+0.1*(score-evidenceThreshold)))
}

// ambiguous: the score lies in the band around the threshold.
func ambiguous(score float64) bool {
	return math.Abs(score-evidenceThreshold) < ambiguousBand
}

// prepareQuery reads the query once: whether it asks about products or
// names tracked entities.
func (an *analysis) prepareQuery() {
	q := an.query
	an.queryFolded = foldString(q)
	if strings.TrimSpace(q) == "" {
		return
	}
	fq := an.queryFolded
	meaning, place, what, strong, compared, most := false, false, false, false, false, false
	for pos := 0; ; {
		w, next := wordAtAny(q, pos)
		if w == "" {
			break
		}
		// "best time to visit", "most reliable way to": a superlative of a
		// time or a way, no product asked for
		best := (strings.EqualFold(w, "best") || most) && inSet(bestNotProduct, peekWordAny(q, next))
		most = strings.EqualFold(w, "most")
		product := !best && (inSetStem(queryProductWords, w) || inSetStem(categoryNouns, w))
		if vs := strings.EqualFold(w, "vs") || strings.EqualFold(w, "versus"); vs {
			// a comparison asks about products unless its sides are kinds
			// (kindsCompared, once the tracked names are known)
			compared = true
		} else {
			an.queryProduct = an.queryProduct || product
		}
		strong = strong || product && !inSet(weakProductWords, w)
		// a tracked name is no topic ("delta skymiles changes")
		an.queryNatural = an.queryNatural || inSetStem(naturalNouns, w) && !an.d.folded[foldString(w)]
		meaning = meaning || inSet(queryMeaningWords, w)
		what = what || strings.EqualFold(w, "what")
		// "the matrix oracle character", not "notion character limit"
		place = place || inSet(queryPlaceWords, w) && !inSet(characterOfText, peekWordAny(q, next))
		pos = next
	}
	for pi := range an.d.pats {
		p := &an.d.pats[pi]
		if containsWord(fq, p.folded) {
			// Its meaning asked ("what does netto mean", not "what does
			// the ring light mean": the word itself is what is meant), or
			// a how-to's verb; a name that is no word is no verb, and only
			// its meaning, a place or a story speak of its namesake.
			word := meaning && !an.meaningOfProduct(fq, p.folded) || what && meantWord(fq, p.folded) || p.common && (queryWordUse(fq, p.folded) || an.queryNounSense(fq, p.folded) ||
				an.queryWordSense(fq, p.folded)) // querysense.go
			for _, o := range p.owners {
				an.queryNames[o.ent] = true
				an.queryTopic = true
				an.queryWord[o.ent] = an.queryWord[o.ent] || word
			}
		} else if !p.domain && looseName(fq, p.folded) {
			// "kuehne nagel vs dsv": the name written without its
			// punctuation names it all the same
			for _, o := range p.owners {
				an.queryNames[o.ent] = true
				an.queryTopic = true
			}
		}
	}
	place = place || placeQuery(fq) // "things to do near albert dock"
	an.queryWordForms(fq)           // "terminated abnormally", "rabbits burrowing"
	named := 0
	for _, ok := range an.queryNames {
		if ok {
			named++
		}
	}
	an.queryNamed = named
	// Two tracked entities in one query ("signal vs whatsapp") ask about
	// products too; so does a comparison with an untracked product
	// ("motion vs todoist"), not one of kinds ("copper vs pex plumbing").
	an.queryProduct = an.queryProduct || named > 1 || compared && !an.kindsCompared(fq)
	if place && !an.queryProduct {
		for ei, named := range an.queryNames {
			an.queryWord[ei] = an.queryWord[ei] || named
		}
	}
	// A natural kind outweighs an evaluation any thing takes ("is mercury
	// in fish safe", "best apple for baking"), not a product's word
	an.queryNaturalOnly = an.queryNatural && !strong && named <= 1
	if !an.queryProduct && !an.queryNaturalOnly && named == 1 {
		an.queryOwnWord(fq) // querysense.go; a natural kind's query reads its namesake already
	}
	an.queryTopic = an.queryTopic || an.queryProduct
	an.queryPhrases(fq)
}

// queryPhrases marks the brand's candidates inside a phrase the query
// holds its word in, when the answer repeats that phrase: the query asks
// about the phrase, so the word is the phrase's, and the answer's other
// occurrences without a cue of their own likely too (queryWord).
//   - The word heads a phrase after another word ("magna carta", "sega
//     genesis", "payment method"): a name or a compound of its own.
//   - The word modifies the next one ("dawn chorus", "dawn french"): the
//     brand's product line reads so too ("zoom workplace", "kindle
//     paperwhite"), so only when the answer writes the phrase in lower
//     case ("the dawn chorus", a compound with a common noun), joins it by
//     hyphens (a place, "Avène-les-Bains"), or uses the next word alone
//     with a personal pronoun (a first name: "Dawn French … French's
//     impression … she").
//   - "X vs <its antonym>" ("wired vs wireless") asks about the adjective
//     when the answer writes the antonym.
func (an *analysis) queryPhrases(fq string) {
	cands := an.sc.cands
	for i := range cands {
		c := &cands[i]
		if c.ent != 0 || c.kind != KindName || c.guarded || !an.inQueryPhrase(c, fq) {
			continue
		}
		// A name that is no word ("Magna Carta", "Avène-les-Bains") needs
		// the evidence an ordinary word does in this answer, like one
		// written in lower case.
		for k := range cands {
			if o := &cands[k]; o.pat == c.pat && o.ent == 0 && o.kind == KindName && !o.guarded {
				o.guarded, o.state, o.strength = true, candPending, 0
			}
		}
	}
	for i := range cands {
		c := &cands[i]
		if c.ent == 0 && c.guarded && c.state == candPending && an.inQueryPhrase(c, fq) {
			c.phrase = true
			an.queryWord[c.ent] = true
			an.phraseAsked = true
		}
	}
}

// inQueryPhrase: the candidate of the brand, a single word, sits in the
// answer inside a phrase the query holds it in (queryPhrases).
func (an *analysis) inQueryPhrase(c *cand, fq string) bool {
	text := an.text
	form := an.d.pats[c.pat].folded
	if c.kind == KindDomain || strings.IndexByte(form, ' ') >= 0 || !containsWord(fq, form) {
		return false
	}
	left, right := phraseNeighbours(text, c.start, c.end)
	in := anyOccurrence(fq, form, func(st, en int) bool {
		// a phrase written in one case: "Magna Carta", "payment method";
		// not "like Sézane", "sur Calvéo", "2025 Toyota"
		if q, _ := wordBefore(fq, st); left != "" && phraseWord(q) && !an.d.folded[q] && strings.EqualFold(q, left) &&
			hasUpper(left) == hasUpper(text[c.start:c.end]) && !startsWithDigit(left) {
			return true
		}
		q := peekWordAny(fq, en)
		if right == "" || !phraseWord(q) || !sameNoun(q, right) || an.productWord(q) && !lowerPhrase(text, form, q) {
			// a product's noun after the word ("zoom call") makes the
			// brand's phrase unless the answer writes it all in lower
			// case somewhere ("a current account")
			return false
		}
		return !hasUpper(text[c.start:c.end]) || text[c.end] == '-' || an.personPhrase(c, right) ||
			an.commonNounPhrase(c, fq, st, right)
	})
	return in || anyOccurrence(fq, form, func(st, en int) bool {
		other := ""
		if q, np := wordAtAny(fq, en); q == "vs" || q == "versus" || q == "or" {
			other = peekWordAny(fq, np)
		} else if q, s := wordBefore(fq, st); q == "vs" || q == "versus" || q == "or" {
			other, _ = wordBefore(fq, s)
		}
		return other != "" && antonym(form, other) && indexFoldASCII(text, other) >= 0
	})
}

// commonNounPhrase: the query's phrase is a common noun's — an ordinary
// word modifying a noun after a determiner ("a teachable moment") or on
// one side of a comparison with no tracked name ("pour over vs drip
// coffee") — and the answer writes it capitalised only by the sentence's
// start, before the noun in lower case ("Teachable moments work best",
// "**Drip coffee** and pour-over"). A product line capitalises both
// ("Zoom Workplace"); "amazon return problems", "does mercury offer" put
// no determiner before the name. A query that shops ("should i buy a
// summit tent", "a lumen lamp review") writes the brand in lower case as
// any query does: its phrase is the product's; so is a noun's ("should i
// get a harbor kayak"), as only an adjective qualifies a common noun here.
func (an *analysis) commonNounPhrase(c *cand, fq string, st int, right string) bool {
	if !an.d.pats[c.pat].common || hasUpper(right) || !atSentenceStart(an.text, an.sc.sents[c.srec].rawStart, c.start) {
		return false
	}
	q, _ := wordBefore(fq, st)
	return inSet(queryDeterminers, q) && !an.queryProduct && adjectival(an.text[c.start:c.end]) || an.kindsCompared(fq)
}

// adjectival: w ends as English adjectives are derived ("teachable",
// "actionable", "mindful", "curious", "restless"). After a determiner such
// a word qualifies the noun; a noun there ("a canyon bike", "a harbor
// kayak") is more often the maker's name, as a query writes every name in
// lower case.
func adjectival(w string) bool {
	for _, suf := range [...]string{"able", "ible", "ful", "ous", "ive", "less", "ish"} {
		if len(w) > len(suf)+2 && strings.EqualFold(w[len(w)-len(suf):], suf) {
			return true
		}
	}
	return false
}

// kindsCompared: the query compares two things of which it names only
// one tracked entity, and the other side is a kind — the answer writes its
// first word in lower case ("pour over vs drip coffee" answered with
// "pour-over", "kayak vs canoe" with "a canoe"), or it is a compound whose
// head is a common noun that is no product's ("copper vs pex plumbing",
// "tandem bike vs two regular bikes"). "slack huddles vs discord voice"
// answered with "Slack", or "motion vs todoist", compare products.
func (an *analysis) kindsCompared(fq string) bool {
	if an.queryNamed != 1 {
		return false
	}
	for side := range strings.SplitSeq(strings.ReplaceAll(fq, " versus ", " vs "), " vs ") {
		if side == fq {
			return false // no comparison
		}
		first, last, words, tracked := "", "", 0, false
		for pos := 0; ; {
			w, np := wordAtAny(side, pos)
			if w == "" || w == "for" {
				break
			}
			tracked = tracked || an.d.folded[w]
			if first == "" && phraseWord(w) {
				first = w
			}
			last, words = w, words+1
			pos = np
		}
		if tracked || an.namesTracked(side) {
			continue
		}
		if first != "" && containsWord(an.text, first) {
			return true
		}
		if l := ordinaryLevel(last); words >= 2 && l > levelShort && l <= 35 && !an.productWord(last) && phraseWord(last) {
			return true
		}
	}
	return false
}

// derivedIn: the folded query holds an adverb or an abstract noun made
// from the form ("abnormally", "calmness", "simply" for "simple"): a
// word's derivation, which no product's name takes (queryWordForms asks
// only of queries without the form itself).
func derivedIn(fq, form string) bool {
	n := len(form)
	if n < 4 {
		return false
	}
	for pos := 0; ; {
		w, np := wordAtAny(fq, pos)
		if w == "" {
			return false
		}
		if len(w) >= n && w[:n-1] == form[:n-1] {
			switch rest := w[n-1:]; {
			case rest[0] == form[n-1] && (rest[1:] == "ly" || rest[1:] == "ness"):
				return true
			case strings.HasSuffix(form, "le") && rest == "y", // simple → simply
				form[n-1] == 'y' && (rest == "ily" || rest == "iness"): // happy → happily
				return true
			}
		}
		pos = np
	}
}

// looseName: form holds punctuation between its words ("kuehne+nagel",
// "kuehne + nagel", "j.crew") and fq holds the same words in a row without
// it ("kuehne nagel", "j crew").
func looseName(fq, form string) bool {
	first, rest := wordAtAny(form, 0)
	if first == "" || rest == len(form) || strings.IndexFunc(form, func(r rune) bool { return !isWordRune(r) && r != ' ' }) < 0 {
		return false
	}
	return anyOccurrence(fq, first, func(_, en int) bool {
		for fp, qp := rest, en; ; {
			w, np := wordAtAny(form, fp)
			if w == "" {
				return true
			}
			q, nq := wordAtAny(fq, qp)
			if q != w {
				return false
			}
			fp, qp = np, nq
		}
	})
}

// lowerPhrase: text holds the folded form and the noun n (or its plural)
// joined by a space, both in lower case: "a current account".
func lowerPhrase(text, form, n string) bool {
	return anyOccurrence(text, form, func(_, en int) bool {
		return en < len(text) && text[en] == ' ' && sameNoun(n, peekWordAny(text, en+1)) && !hasUpper(peekWordAny(text, en+1))
	})
}

// namesTracked: a side of a comparison names a tracked entity of several
// words, as a query writes it — in lower case, perhaps plural ("clif bars"
// for Clif Bar): that side is a product, not a kind.
func (an *analysis) namesTracked(side string) bool {
	for pi := range an.d.pats {
		p := &an.d.pats[pi]
		if !p.domain && strings.IndexByte(p.folded, ' ') > 0 && (containsWord(side, p.folded) || inflectedIn(side, p.folded, 0, "s")) {
			return true
		}
	}
	return false
}

// sameNoun: the answer's word a is the query's q or its plural ("a
// teachable moment" asked, "teachable moments" answered).
func sameNoun(q, a string) bool {
	if strings.EqualFold(q, a) {
		return true
	}
	for _, suf := range [...]string{"s", "es"} {
		if len(a) == len(q)+len(suf) && strings.EqualFold(a[:len(q)], q) && strings.EqualFold(a[len(q):], suf) {
			return true
		}
	}
	return false
}

// personPhrase: the candidate and the next word, w, name a person — the
// answer speaks of one with a personal pronoun, after the full name in its
// sentence ("Taylor Swift, … her concerts") or anywhere when it writes w
// capitalised by itself, not after or before another capitalised word
// ("French's impression … she's best known", "Adams's best writing … his
// scripts"): w is a surname. A product line takes "it", not "she".
func (an *analysis) personPhrase(c *cand, w string) bool {
	text := an.text
	if personalPronoun(text[c.end:an.sc.sents[c.srec].end]) {
		return true
	}
	if !personalPronoun(text) {
		return false
	}
	for from := 0; ; {
		k := indexFoldASCII(text[from:], w)
		if k < 0 {
			return false
		}
		at := from + k
		from = at + len(w)
		if !unicode.IsUpper(firstRune(text[at:])) || at > 0 && isWordRune(lastRune(text[:at])) ||
			from < len(text) && isWordRune(firstRune(text[from:])) {
			continue
		}
		if prev, ps := wordBefore(text, at); prev != "" && hasUpper(prev) && strings.TrimSpace(text[ps+len(prev):at]) == "" {
			continue // "Dawn French" itself
		}
		if next := peekWordAny(text, from); next != "" && hasUpper(next) {
			continue
		}
		return true
	}
}

// personalPronoun: s holds a pronoun only a person takes.
func personalPronoun(s string) bool {
	for _, p := range [...]string{"she", "he", "her", "his", "him"} {
		if hasWordFold(s, p) {
			return true
		}
	}
	return false
}

// phraseNeighbours returns the words joined to [start,end) in text by a
// single space or hyphen on either side ("" when there is none).
func phraseNeighbours(text string, start, end int) (left, right string) {
	if start > 1 && (text[start-1] == ' ' || text[start-1] == '-') && isWordRune(lastRune(text[:start-1])) {
		left, _ = wordBefore(text, start-1)
	}
	if end+1 < len(text) && (text[end] == ' ' || text[end] == '-') {
		right = peekWordAny(text, end+1)
		if !isWordRune(firstRune(text[end+1:])) {
			right = ""
		}
		for _, ps := range [...]string{"'s", "’s"} {
			right = strings.TrimSuffix(right, ps) // "Dawn French's"
		}
	}
	return left, right
}

// phraseWord: a query word that may make a phrase with the brand's word —
// not a function word, a question's word or one that asks about
// products ("free", "best", "vs").
func phraseWord(w string) bool {
	return len(w) >= 3 && !inSet(functionWords, w) && !inSet(queryDeterminers, w) && !inSet(questionWords, w) &&
		!inSet(questionAux, w) && !inSet(headFollowers, w) && !inSet(weakProductWords, w) && !inSet(productModifiers, w) &&
		!inSet(howTo, w) && !inSet(makingVerbs, w) && !inSet(verbParticles, w) && w != "vs" && w != "versus"
}

// antonym: other is form's opposite by affix — "un", "non", "in", "dis"
// before it, or its stem with "less" ("wired"/"wireless",
// "harmful"/"harmless").
func antonym(form, other string) bool {
	for _, pre := range [...]string{"un", "non", "non-", "in", "dis"} {
		if other == pre+form {
			return true
		}
	}
	for _, suf := range [...]string{"", "d", "ed", "ful"} {
		if stem, ok := strings.CutSuffix(form, suf); ok && len(stem) >= 3 && other == stem+"less" {
			return true
		}
	}
	return false
}

// queryWordUse: an occurrence of the folded form in the folded query is
// the verb of a how-to ("how to paddle a canoe", "how to sprout mung
// beans"). A noun after "a" says nothing either way: "what does a hopper
// do" asks about the word, "do i need a nest" about the thermostat.
func queryWordUse(fq, form string) bool {
	return anyOccurrence(fq, form, func(st, _ int) bool {
		before := strings.Fields(fq[:st])
		k := len(before)
		return k >= 2 && before[k-1] == "to" && inSet(howTo, before[k-2])
	})
}

// queryNounSense: the query uses the form as a common noun — the head of
// a noun phrase after a determiner and a modifier ("the career ladder", "a
// mars rover"), a thing a question asks about with "a" ("how does a
// rover drive", "what is a thimble for"), or the thing whose taste, smell
// or origin is asked ("what does caraway taste like") — and no product
// word follows it ("the free zoom plan", "how does a wise transfer work"
// ask about the product).
func (an *analysis) queryNounSense(fq, form string) bool {
	referent := false
	for pos := 0; !referent; {
		w, np := wordAtAny(fq, pos)
		if w == "" {
			break
		}
		referent = inSet(referentVerbs, w) && peekWordAny(fq, np) == "like" || inSet(referentNouns, w)
		pos = np
	}
	history := historyQuery(fq)
	return anyOccurrence(fq, form, func(st, en int) bool {
		next := peekWordAny(fq, en)
		if next != "" && an.productWord(next) {
			return false
		}
		// the word heads its phrase: what follows is no noun it modifies
		// ("how does a rover drive", not "how does a rover sitter get
		// paid", "what does caraway taste like", not "what do tide pods
		// smell like")
		head := next == "" || inSet(functionWords, next) || inSet(headFollowers, next) || inSet(referentNouns, next) ||
			strings.HasSuffix(next, "ly")
		if referent {
			return head
		}
		p1, s1 := wordBefore(fq, st)
		p2, s2 := wordBefore(fq, s1)
		p3, _ := wordBefore(fq, s2)
		// "osprey aircraft safety record": the word modifies a kind's
		// noun no product is ("aircraft", "volcano", "battle")
		if next != "" && inSetStem(senseKinds, next) {
			return true
		}
		// "what caused the reformation in the 16th century": an era's
		// event or institution
		if p1 == "the" && history {
			return true
		}
		return head && (inSet(queryDeterminers, p2) && nounModifier(p1) && !an.d.folded[p1] ||
			(p1 == "a" || p1 == "an") && inSet(questionWords, p3) && inSet(questionAux, p2) ||
			// the thing a how-to makes or grows ("how to make lemonade",
			// "how to bake a sourdough"), not one it uses or fixes
			inSet(makingVerbs, p1) || inSet(queryDeterminers, p1) && inSet(makingVerbs, p2))
	})
}

// wordBefore returns the word that ends before pos in s and its start
// ("" and 0 when there is none).
func wordBefore(s string, pos int) (string, int) {
	e := pos
	for e > 0 && !isWordRune(lastRune(s[:e])) {
		_, size := utf8.DecodeLastRuneInString(s[:e])
		e -= size
	}
	b := e
	for b > 0 && isWordRune(lastRune(s[:b])) {
		_, size := utf8.DecodeLastRuneInString(s[:b])
		b -= size
	}
	return s[b:e], b
}

// productWord: a folded query word that asks about products or names a
// tracked entity ("plan", "thermostat", "transfer", "notion").
func (an *analysis) productWord(w string) bool {
	return inSetStem(queryProductWords, w) || inSetStem(categoryNouns, w) || inSet(productNouns, w) ||
		inSet(productAttributes, w) || an.d.folded[w]
}

// nounModifier: w may modify a noun after a determiner ("career", "mars"):
// a common word, not a function word nor one that qualifies a product
// ("free", "new", "best").
func nounModifier(w string) bool {
	if len(w) < 3 || inSet(functionWords, w) || inSetStem(queryProductWords, w) || inSet(weakProductWords, w) ||
		inSet(productModifiers, w) {
		return false
	}
	// a common word: not a rarer one that names a company as often
	// ("google", "amazon": "the google nest hub")
	l := ordinaryLevel(w)
	return l > levelShort && l <= 35
}

var (
	// referentVerbs before "like" and referentNouns ask about the thing a
	// word names: its taste, smell or origin.
	referentVerbs = set(`taste tastes smell smells`)
	referentNouns = set(`origin origins`)
	// headFollowers after a noun in a query show it heads its phrase: a
	// verb of the question or an adverb ("how does a rover drive", "climb
	// the career ladder faster").
	headFollowers = set(`work works drive drives function do does help get make move fly stay look used made mean
taste smell faster fast better quicker last lasts cost costs need needs is are was`)
	// makingVerbs make, cook or grow their object: a thing, never an app
	// ("how to make lemonade"; "how to fix discord", "how to use notion"
	// ask about products).
	makingVerbs = set(`make cook bake brew grow plant prune knit sew carve roast grill boil steam ferment pickle
brine sprout harvest`)
	// queryDeterminers open a noun phrase in a query.
	queryDeterminers = set(`a an the my your our their his her this that`)
	// productModifiers qualify a product, not a kind of thing: "the free
	// zoom plan", "the new notion".
	productModifiers = set(`new old free paid latest premium basic pro plus business personal family student
enterprise team official same other current original cheap cheaper better good great top whole entire main
default standard mobile desktop online`)
	// questionWords and questionAux open a question about "a" thing: "how
	// does a rover drive", "what is a thimble for".
	questionWords = set(`how what why where when`)
	questionAux   = set(`does do did is are was`)
)

// meantWord: the form is followed by "mean" or "means" in the query.
func meantWord(fq, form string) bool {
	return anyOccurrence(fq, form, func(_, en int) bool {
		n := peekWordAny(fq, en)
		return n == "mean" || n == "means"
	})
}

// anyOccurrence: ok holds for one word-bounded occurrence [st,en) of form
// in s.
func anyOccurrence(s, form string, ok func(st, en int) bool) bool {
	for off := 0; ; {
		i := strings.Index(s[off:], form)
		if i < 0 {
			return false
		}
		st, en := off+i, off+i+len(form)
		off = st + 1
		if (st == 0 || !isWordRune(lastRune(s[:st]))) && (en == len(s) || !isWordRune(firstRune(s[en:]))) && ok(st, en) {
			return true
		}
	}
}

// peekWordAny returns the word at or after pos in s.
func peekWordAny(s string, pos int) string {
	w, _ := wordAtAny(s, pos)
	return w
}

// foreignEvalWords evaluate or compare in the other languages the package
// reads ("günstig", "meilleur", "mejor"); both query word sets hold them.
const foreignEvalWords = `günstig günstige günstigste billig beste besten vergleich meilleur meilleure meilleurs
comparatif mejor mejores barato barata comparativa migliore migliori economico melhor melhores`

var (
	// weakProductWords evaluate or compare anything, products or not
	// ("is honey good for", "best apple for baking", "safe to eat").
	weakProductWords = set(`best top good safe worth legit cheap cheapest buy deal deals compare comparison vs versus
review reviews recommend recommended recommendation options reliable ` + foreignEvalWords)
	// bestNotProduct after "best" or "most …" ask for a time, a way or a
	// place, not a product: "best time to visit patagonia", "best way to
	// paddle", "most reliable way to".
	bestNotProduct = set(`time times way ways season month months place places age day days`)
	// queryMeaningWords ask what a word means: the query uses the name as
	// a word ("canary in a coal mine meaning", "flink synonym", "qué
	// significa ser idealista").
	// Not "define" or "translate" ("how to define a formula in notion"),
	// nor "pronounce" (a brand's name is pronounced too).
	queryMeaningWords = set(`meaning meanings definition synonym synonyms antonym etymology idiom significa significado
signification signifie bedeutung bedeutet synonyme`)
	// queryPlaceWords ask about a place, or a story's character ("best
	// time to visit patagonia", "the matrix oracle character"): the name's
	// namesake, in a query that asks about no product. Activities
	// ("hiking") and media ("song", "movie") are left out: brands sell for
	// them ("patagonia hiking pants", "spotify song credits").
	// The weather is asked of products too ("tesla range in cold weather").
	queryPlaceWords = set(`visit visiting itinerary sightseeing character characters villain`)
	// characterOfText after "character" make it a letter of a text field.
	characterOfText = set(`limit limits count counts set sets encoding map maps length`)
	// howTo before "to" makes the next word a how-to's verb.
	howTo = set(`how ways way learn`)
)

// inSetStem looks w up as written and without a plural ending
// ("recommendations", "thermostats", "boxes").
func inSetStem(m map[string]bool, w string) bool {
	if inSet(m, w) {
		return true
	}
	n := len(w)
	if n < 4 || w[n-1]|0x20 != 's' {
		return false
	}
	return inSet(m, w[:n-1]) || n > 4 && w[n-2]|0x20 == 'e' && inSet(m, w[:n-2])
}

// answerAboutProducts stands in for the query's topic when there is no
// query: a tracked entity other than ent is named by a form that is no
// ordinary word, or cited (for a competitor, the brand's mentions do not
// count: naming the brand never adds competitor mentions), or the answer
// holds at least minAnswerAttributes distinct product attributes.
func (an *analysis) answerAboutProducts(ent int32) bool {
	if !an.namedReady {
		an.namedReady = true
		an.named, an.namedComp = entSet{first: -1}, entSet{first: -1}
		add := func(e int32) {
			an.named.add(e)
			if e != 0 {
				an.namedComp.add(e)
			}
		}
		for i := range an.sc.cands {
			if c := &an.sc.cands[i]; !c.guarded && c.state == candAccepted {
				add(c.ent)
			}
		}
		for ei, cited := range an.cited {
			if cited {
				add(int32(ei))
			}
		}
	}
	if ent == 0 && an.named.hasOther(0) || ent != 0 && an.namedComp.hasOther(ent) {
		return true
	}
	if an.textAttributes < 0 {
		an.textAttributes = an.countAttributes(0, len(an.text), minAnswerAttributes)
	}
	return an.textAttributes >= minAnswerAttributes
}

// minAnswerAttributes: distinct product attributes that make an answer
// about products.
const minAnswerAttributes = 4

// countAttributes counts distinct product attributes in text[s:e], up to
// limit.
func (an *analysis) countAttributes(s, e, limit int) int {
	var seen []string
	for pos := s; pos < e && len(seen) < limit; {
		w, np := wordAtAny(an.text[:e], pos)
		if w == "" {
			break
		}
		w = strings.TrimRight(w, "'’") // "users'"
		if inSet(productAttributes, w) && !slices.ContainsFunc(seen, func(x string) bool { return strings.EqualFold(x, w) }) {
			seen = append(seen, w)
		}
		pos = np
	}
	return len(seen)
}

// containsWord: w occurs in s between word boundaries.
func containsWord(s, w string) bool { return wordOccurs(s, w, strings.Index) }

// wordOccurs: w occurs in s between word boundaries, found by index
// (exact or case-folding).
func wordOccurs(s, w string, index func(s, sub string) int) bool {
	for off := 0; ; {
		i := index(s[off:], w)
		if i < 0 {
			return false
		}
		st, en := off+i, off+i+len(w)
		if (st == 0 || !isWordRune(lastRune(s[:st]))) && (en == len(s) || !isWordRune(firstRune(s[en:]))) {
			return true
		}
		off = st + 1
	}
}

// localEvidence scores a guarded candidate from its own surroundings and
// the query, or rejects it outright (a temporal weekday, a lower-case word
// without a product cue, a compound part).
func (an *analysis) localEvidence(c *cand) {
	text := an.text
	p := &an.d.pats[c.pat]
	rec := &an.sc.sents[c.srec]
	c.scored = true
	ownCase := an.ownCase(c)
	capital := ownCase || an.casualName(c) || an.capitalised(c)
	prev := prevToken(text, rec.rawStart, c.start)
	next := nextToken(text, c.end, rec.end)
	tld := tldFollows(text, c.end)
	// A platform before a name qualifies a feature ("iOS Zoom", "Android
	// Ring tones"); after it, the product ("Zoom iOS app").
	prevCue := inSet(productCues, prev.word) && !inSet(platformCues, prev.word)
	cue := prevCue || inSet(productCues, next.word)
	if cue && c.phrase && !prevCue {
		// "Current accounts …" beside the query's and the answer's
		// "current account": the phrase's own noun is no cue
		cue = false
	}
	if cue && an.queryNounCue(c, prev.word, next.word) {
		cue = false // "Workable plans" beside "a workable business plan" (querysense.go)
	}
	if cue && an.phraseAsked && c.ent == 0 && nameLike(next.word) && inSet(productCues, next.word) {
		// "Open the Sprite Editor" beside the query's "sprite sheet": a
		// capitalised label of the software the answer is about, no cue
		cue = false
	}
	def := an.definitional(c)
	if def == defChoice {
		// "Drip is the better pick" beside the query's "drip coffee":
		// the kind the query asks about is the pick
		def = defProduct
		if an.queryWord[c.ent] {
			def = defNone
		}
	}
	anchor := isLinkAnchor(text, c.start, c.end)
	reject := func() { c.state, c.local, c.verbUse = candRejected, -2, true }

	// A compound's second part ("high-mercury fish") is a word; after a
	// quantity ("high-", "low-", "non-") it names a substance or a kind,
	// and the answer's other occurrences mean the same.
	if c.start > 1 && text[c.start-1] == '-' && isWordRune(lastRune(text[:c.start-1])) {
		reject()
		if w := prevToken(text, rec.rawStart, c.start-1); inSet(quantityPrefixes, strings.TrimSuffix(w.word, "-")) {
			c.otherSense = true
		}
		return
	}
	if p.calendar && !inSet(productCues, next.word) && !tld && (inSet(temporalBefore, prev.word) || inSet(temporalAfter, next.word) ||
		startsWithDigit(next.word) || startsWithDigit(prev.word) ||
		(next.sep == ',' && (startsWithDigit(next.after) || inSet(calendarWords, next.after)))) {
		reject() // "on Monday morning", "May 5"
		return
	}
	score := 0.0
	switch {
	case tld:
		score += wTLD
	case cue:
		score += wCue
	}
	switch def {
	case defProduct:
		score += wDefinition
	case defNaturalKind:
		score += wNaturalKind
		c.otherSense = true
	}
	mode := !cue && def == defNone && next.sep == 0 && inSetStem(featureNouns, strings.ToLower(next.word))
	feature := mode || !cue && def == defNone && next.sep == 0 && capital && an.featurePhrase(c, next, rec)
	if feature {
		// "Sentry Mode keeps the car's cameras awake", "the Delta
		// variant": the name of another thing's mode or of a variant;
		// the predicate after it is the mode's. A feature "X to Y" may
		// be the product's own ("Zoom to Fit"): only that occurrence.
		score += wNaturalKind
		c.otherSense = mode
	} else if !cue && def == defNone && (an.naturalKindFollows(c, rec) || an.otherOfKind(rec)) {
		score += wNaturalKind // "Amazon basin", "Amazon River", "Apple pie", "more than any other planet"
		c.otherSense = true
	}
	if !cue && !tld && def == defNone && !feature && !c.otherSense && capital && (an.personName(c, rec) || an.properNamesake(c, rec)) {
		// "Neil Postman's argument", "directed by Chloé Zhao": a person;
		// "the Aegean in summer": a place
		score += wNaturalKind
		c.otherSense = true
	}
	if !cue && !tld && def == defNone && !c.otherSense && capital &&
		(an.pluralAgreement(c, rec) && !an.queryPluralName(c) || an.kindPredicate(c, rec) || an.titledKind(c, rec) ||
			designationBefore(text, rec.rawStart, c.start) || workTitleYear(text, rec.rawStart, c.start)) {
		// "Hiking Sandals Are a Bad Idea": the plural noun; "Osprey hunts
		// over water": a creature; "V-22 Osprey": a craft (wordsense.go)
		score += wNaturalKind
		c.otherSense = true
	}
	c.cued = cue || tld || def == defProduct || anchor
	if c.phrase && !c.cued {
		// "the dawn chorus" asked and answered: the phrase, not the brand
		reject()
		c.otherSense = true
		return
	}
	if anchor {
		score += wLinkAnchor
	}
	score += rarityPrior(p.level)
	if !capital {
		// A lower-case ordinary word is the word, unless it is rare, or a
		// product cue, a domain suffix, a definition or a link anchor says
		// otherwise; after an article it is a common noun ("a coda", "the
		// notion that") unless a cue or a domain suffix makes it a product.
		// "a current account", "the square root": a lower-case word
		// between an article and a product's noun modifies the noun as an
		// adjective does, the cue notwithstanding
		nounUse := (inSet(articles, prev.word) || inSet(nounDeterminers, prev.word)) && !tld
		// "un blender chauffant", "el scooter": after another language's
		// article, in an answer in that language, the word is that
		// language's common noun
		foreignNoun := !cue && !tld && inSet(foreignArticles, prev.word) && an.nonEnglish()
		// the head of its phrase ("a notion that", "no notion of"), not a
		// modifier ("a wise choice")
		nounHead := nounUse && (next.word == "" || inSet(nounHeadFollowers, next.word))
		verb := an.verbUse(c, rec, prev, next, true)
		// "a whole orange is the better choice": an article and an
		// adjective make a common noun's phrase, whatever defines it
		nounUse = nounUse || !cue && !tld && afterArticleAdjective(text, rec.rawStart, c.start, prev)
		if score < evidenceThreshold || verb || nounUse || foreignNoun {
			reject()
			// "a *notion*", "no notion": the answer uses the common noun,
			// and its capitalised occurrences without a cue likely too. So
			// does a rarer word written in lower case other than as a verb
			// ("good saffron costs more", "`:hover`"): a commoner one
			// ("free", "away", "public") turns up in any answer.
			c.nounSense = nounHead || p.level >= 35 && !verb && !cue && !tld && !c.cued && !identifierPart(text, c.start, c.end)
			// a name the word list lacks, written as a word at all
			// ("devenir boulanger"), shows the answer's language has that
			// word: plainly another sense than the product
			c.otherSense = p.level == 0 && !c.cued || foreignNoun && !c.cued && an.foreignNounUse(c.pat)
			return
		}
		c.local = score
		return
	}
	start := atSentenceStart(text, rec.rawStart, c.start)
	style := titleStyle(text, c.start)
	title := headingCaps(style)
	if inSet(nameIntroducers, prev.word) || categoryAside(text, rec.rawStart, c.start) || an.ownCaps(c, prev, next, style) { // capsform.go
		// "a product called Fathom", "an app named Ember", "a degreasing
		// dish soap — Fathom (the unscented one)": the name of a product
		// of the category just named
		score += wCue
		c.cued = true
	} else if an.disclaimed(c, rec) {
		score += wDisclaimed // "Lantern isn't a tool I have reliable knowledge of"
	}
	if !cue && def == defNone && !anchor && an.prefixedForm(c.pat) {
		// "Linear vs. nonlinear", "non-linear": the answer uses the
		// adjective, so an uncued capital is likely the sentence's
		score += wSense
		c.sensed = true
	}
	if !start && !title && prev.word != "" && nameLike(prev.word) && !cue && !inSet(productCues, prev.word) &&
		(!atSentenceStart(text, rec.rawStart, c.start-len(prev.word)-1) || properNoun(prev.word) && !an.nonEnglish()) {
		// "The Big Apple": the end of another name; at a sentence start
		// only after a word that is a name by itself ("Cambridge Folk
		// Festival"), not one capitalised by its place ("Try Notion")
		score += wNameTail
	}
	menu := uiPath(text, c.start, c.end)
	if an.verbUse(c, rec, prev, next, start || title) || start && an.imperativeStep(c) { // imperative.go
		c.verbUse = true
		score += wVerbParticle
	}
	switch {
	case menu && uiPathRoot(text, c.start) && !an.queryWord[c.ent]:
		// "Zoom > Settings > Audio": the application whose menus follow;
		// not in an answer to a query that uses the word as a word ("how
		// to make a sprite sheet": "Sprite Editor → Slice" is a window)
	case menu:
		c.verbUse = true
		score += 2 * wVerbParticle
		c.otherSense = true // "Settings > Accessibility > Zoom": a setting, not the app
	case inSet(uiCommands, prev.word) && an.appListBefore(c.start):
		// "open Subscriptions. Choose Balance": the item picked from a
		// store's list of apps or subscriptions is the app
		score += wProductLine
	case inSet(uiCommands, prev.word):
		score += wUICommand
	}
	if style == styleTitle {
		// a headline's capitals say nothing, but only a title that
		// capitalises its function words too counts against the name
		score += wTitleCase
	}
	if next.word != "" && strings.EqualFold(next.word, "of") {
		score += wOf
	}
	if next.sep == '-' {
		if w, _ := wordAt(text, c.end+1, rec.end); !inSet(brandSuffixes, w) {
			score += wSuffix
			title = true // "Mercury-free": its capital is the sentence's
		}
	}
	// Weekdays and months, places, peoples and languages are capitalised
	// in ordinary English: their capitals say nothing.
	capEvidence := !start && !title && !menu && !p.calendar && !p.proper && !ownCase && !quotedPhraseStart(text, rec.rawStart, c.start, next)
	if !start && !cue && !tld && def == defNone && an.nonEnglish() && germanNoun(text, rec.rawStart, c.start, next) {
		// "eine gut gedengelte Sense muss …": German capitalises its
		// common nouns, and an article with an adjective before the word
		// makes it one; the answer likely uses the word so elsewhere too
		capEvidence = false
		c.nounSense = true
	}
	// A bare capitalised subject of a French, Spanish, Italian, Portuguese
	// or German verb is a name: their common nouns take an article.
	capEvidence = capEvidence || start && !title && !ownCase && inSet(foreignPredicates, next.word)
	// In an answer in another language, an English word stated bare at a
	// sentence start, before a lower-case word, is a name ("Zoom funciona
	// muy bien"): the language would use its own word, with an article.
	// Not when the answer writes the word as that language's common noun
	// ("un blender … Blender chauffant ou classique ?").
	capEvidence = capEvidence || start && !title && !ownCase && next.sep == 0 && next.word != "" && !nameLike(next.word) &&
		!startsWithDigit(next.word) && an.nonEnglish() && !an.foreignNounUse(c.pat)
	switch {
	case an.domainSeen[c.ent] && !title && !menu:
		score += wDomainSeen
		c.cued = true
	case capEvidence:
		score += wCapital
	case next.possessive && !title && !p.calendar:
		score += wPossessive
	}
	if start && !title && nameOnlyHead(text, c) {
		if p.calendar && calendarSiblings(text, c.start) {
			reject() // "- **Monday:** review goals" beside "- **Friday:** …": a plan by day
			return
		}
		score += wNameHeading
	}
	if !title && !p.calendar && !feature && next.sep == 0 && (nameLike(next.word) && style != styleTopic && !inSet(functionWords, next.word) && !inSet(verbParticles, next.word) ||
		startsWithDigit(next.word) && len(next.word) <= 4) || // "Bear 2", "Things 3"
		!title && !p.calendar && !feature && next.sep == 0 && editionFollows(text, c.end, rec.end) ||
		!p.calendar && !cue && an.productNounFollows(c, rec) {
		score += wProductLine // "Square Register", "Zoom Webinars", "Discord voice channels"
	}

	if !feature && (companyFact(text, c.end, rec.end) || pronounFact(text, c.end, rec.end)) {
		// "Bolt was founded in Estonia", "X went public": what only an
		// organisation does, twice a predicate's weight
		score += 2 * wPredicate
	} else if !feature && an.predicateFollows(c, rec) {
		score += wPredicate
		if ownCase && !capEvidence && strings.IndexByte(p.folded, ' ') > 0 {
			// "one sec forces a short pause": a phrase its owner writes in
			// lower case, as the subject of a verb, is the name — the
			// phrase itself takes no verb — so it counts as a capital would
			score += wCapital
		}
	}
	if start && !title && !c.otherSense && an.companyFollows(rec) {
		// "Ritual has its multivitamins tested … The company also
		// publishes …": the next sentence calls the subject a company
		score += wPredicate
	}
	attrs := an.attributes(rec)
	if attrs < maxAttributes {
		// "Buffer keeps things simple. The free plan covers three
		// channels.": the next sentence goes on about it.
		attrs += an.followingAttributes(rec, maxAttributes-attrs)
	}
	score += wAttribute * float64(attrs)
	switch {
	case an.queryWord[c.ent] && !c.cued:
		// "how to paddle a canoe", "mint condition meaning": the query
		// uses the word as a word, and so, likely, does the answer
		score += wNaturalKind
	case an.queryNames[c.ent] && an.queryNaturalOnly:
		// "saturn return astrology": the query asks about the namesake
		score += wNaturalKind
		c.otherSense = true
	case an.queryNames[c.ent] && (an.queryProduct || p.level >= 35):
		score += wQueryNames
	case an.queryNames[c.ent]:
		// "is honey healthier than sugar": a query that names a common
		// word and asks about nothing product-like says little.
		score += wQueryNamesBare
	case an.queryTopic || an.query == "" && an.answerAboutProducts(c.ent):
		score += wQueryTopic
	}
	if !title && !c.otherSense && !c.cued && an.queryNameForm(c, rec) {
		score += wQueryNameForm // "are beats headphones good", "Vans Old Skool run …" (nameform.go)
	}
	c.local = score
}

// quotedPhraseStart: the word opens a quotation that goes on in lower
// case ("the message **\"Abnormal program termination\"**", "a sign
// saying “Beware of the dog”"): a quoted sentence's or title's first
// capital, the quotation's and not a name's.
func quotedPhraseStart(text string, lo, pos int, next tok) bool {
	if next.sep != 0 || next.word == "" || !unicode.IsLower(firstRune(next.word)) {
		return false
	}
	k := pos
	for k > lo && (text[k-1] == '*' || text[k-1] == '_') {
		k--
	}
	r, size := utf8.DecodeLastRuneInString(text[lo:k])
	if r != '"' && r != '“' {
		return false
	}
	k -= size
	for k > lo && (text[k-1] == '*' || text[k-1] == '_') {
		k--
	}
	return k > lo && (text[k-1] == ' ' || text[k-1] == '(')
}

// germanNoun: a German article and one or two lower-case words (an
// adjective, an adverb) stand right before pos, and a lower-case word, no
// product's name, follows: "eine gut gedengelte Sense muss", "den alten
// Rasen mähen". A brand after an article alone ("die Sense App", "der
// Ring zeigt") is left to its other evidence.
func germanNoun(text string, lo, pos int, next tok) bool {
	if next.sep != 0 || next.word == "" || !unicode.IsLower(firstRune(next.word)) {
		return false
	}
	at := pos
	for k := 0; k < 3; k++ {
		w, ws := wordBefore(text[:at], at)
		if w == "" || ws < lo || strings.TrimSpace(text[ws+len(w):at]) != "" {
			return false
		}
		if k > 0 && inSet(germanArticles, strings.ToLower(w)) {
			return true
		}
		if !unicode.IsLower(firstRune(w)) || inSet(germanArticles, w) {
			return false
		}
		at = ws
	}
	return false
}

// germanArticles open a German noun phrase.
var germanArticles = set(`der die das den dem ein eine einen einem einer eines`)

// categoryAside: a dash, a colon or an opening parenthesis right before
// pos follows a noun of a product category ("a dish soap — Dawn", "a
// sunscreen: Solvie"), so the capitalised word at pos names one of them.
func categoryAside(text string, lo, pos int) bool {
	k := pos
	for k > lo && text[k-1] == ' ' {
		k--
	}
	switch {
	case strings.HasSuffix(text[lo:k], "—"):
		k -= len("—")
	case strings.HasSuffix(text[lo:k], "–"):
		k -= len("–")
	case k > lo && (text[k-1] == ':' || text[k-1] == '('):
		k--
	default:
		return false
	}
	for k > lo && text[k-1] == ' ' {
		k--
	}
	w, _ := wordBefore(text[lo:k], k-lo)
	return w != "" && k-lo >= len(w) && strings.HasSuffix(text[lo:k], w) && inSetStem(categoryNouns, strings.ToLower(w))
}

// companyFollows: the next sentence opens with "The company", "This
// brand", "The app" — it goes on about the subject of this one as a
// company or a product.
func (an *analysis) companyFollows(rec *sentRec) bool {
	text := an.text
	// "Staples has been closing stores: the U.S. chain operated …": the
	// clause after a colon, a semicolon or a dash goes on the same way
	for _, sep := range [...]string{": ", "; ", " — ", " – "} {
		if k := strings.Index(text[rec.start:rec.end], sep); k > 0 && an.anaphoraAt(rec.start+k+len(sep), rec.end) {
			return true
		}
	}
	pos := rec.end
	for pos < len(text) && strings.IndexByte(".!?)*_\"", text[pos]) >= 0 {
		pos++
	}
	s, e, ok := sentenceAfter(text, pos)
	if !ok {
		return false
	}
	return an.anaphoraAt(s, e)
}

// companyFact: the words after the name state what only an organisation
// does or undergoes — founded, headquartered, acquired, rebranded, went
// public, raised a round, shut down, laid off — past an auxiliary ("was",
// "has been").
func companyFact(text string, pos, end int) bool {
	w, np := wordAt(text, pos, end)
	for k := 0; k < 2 && inSet(companyFactAux, w); k++ {
		w, np = wordAt(text, np, end)
	}
	if inSet(companyFacts, w) {
		return true
	}
	n := peekWordAt(text, np, end)
	is := strings.EqualFold
	return is(w, "shut") && is(n, "down") || is(w, "went") && (is(n, "public") || is(n, "bankrupt")) ||
		is(w, "laid") && is(n, "off") || is(w, "filed") && is(n, "for") || is(w, "spun") && is(n, "off")
}

// pronounFact: within the sentence after the name, "it" or "which"
// undergoes an organisation's event ("Kite used to do this, but it shut
// down in 2022", "X, which was acquired by Y in 2024").
func pronounFact(text string, pos, end int) bool {
	for k := 0; k < 14; k++ {
		w, np := wordAtAny(text[:end], pos) // past commas
		if w == "" {
			return false
		}
		if (strings.EqualFold(w, "it") || strings.EqualFold(w, "which")) && companyFact(text, np, end) {
			return true
		}
		pos = np
	}
	return false
}

var (
	companyFactAux = set(`was were is has had been`)
	companyFacts   = set(`founded headquartered acquired incorporated rebranded renamed merged ipoed co-founded`)
)

// anaphoraAt: text[s:e] opens with "the" or "this", at most two
// modifiers ("the U.S. chain", "this Dutch bank") and a noun that refers
// back to a company or a product, not before a name ("The company Manuka
// Health sells …" introduces another one).
func (an *analysis) anaphoraAt(s, e int) bool {
	text := an.text
	w, np := wordAt(text, s, e)
	if !strings.EqualFold(w, "the") && !strings.EqualFold(w, "this") {
		return false
	}
	for k := 0; k < 3; k++ {
		n, next := wordAtAny(text[:e], np) // past an initialism's dots: "the U.S. chain"
		if inSet(anaphoraNouns, n) {
			return !nameLike(peekWordAt(text, next, e))
		}
		// a modifier: a place's adjective or an abbreviation ("U.S.",
		// "Dutch", "online"), not a noun phrase of its own
		if n == "" || k == 2 || inSet(functionWords, n) {
			return false
		}
		np = next
	}
	return false
}

// anaphoraNouns after "The" or "This" refer back to a company or a
// product.
var anaphoraNouns = set(`company brand firm startup maker manufacturer retailer app service platform bank chain
airline carrier insurer lender brokerage operator marketplace`)

// foreignNounUse: the answer writes the pattern as its language's common
// noun — in lower case after an article of another language, twice or more
// ("un blender … un blender classique"); once may be a pun on the name ("Zoom
// fonctionne bien, mais le zoom numérique …").
func (an *analysis) foreignNounUse(pat int32) bool {
	text := an.text
	n := 0
	for i := range an.sc.cands {
		o := &an.sc.cands[i]
		if o.pat != pat || unicode.IsUpper(firstRune(text[o.start:o.end])) {
			continue
		}
		if inSet(foreignArticles, prevToken(text, an.sc.sents[o.srec].rawStart, o.start).word) {
			if n++; n >= 2 {
				return true
			}
		}
	}
	return false
}

// asksWho: the query asks who did something ("who directed nomadland").
func asksWho(q string) bool {
	q = strings.TrimSpace(q)
	return len(q) > 4 && strings.EqualFold(q[:4], "who ")
}

// featurePhrase: the name opens a feature's name of the form "X to Y" —
// "Circle to Search", "Tap to Pay", "Zoom to Fit" — whose last word is a
// common word capitalised as a name, not a tracked name nor a title's
// ("moving from Slack to Teams" names two products).
func (an *analysis) featurePhrase(c *cand, next tok, rec *sentRec) bool {
	if next.word != "to" || next.possessive {
		return false
	}
	k := strings.Index(an.text[c.end:rec.end], " to ")
	if k < 0 || k > 4 {
		return false
	}
	w, _ := wordAt(an.text, c.end+k+len(" to "), rec.end)
	return nameLike(w) && commonWord(w) && !an.d.folded[strings.ToLower(w)] && !titleCaseLine(an.text, c.start)
}

// identifierPart: the word is part of a path, a host, a handle or an
// identifier ("github.com/lantern/lantern-js", "lantern_js", "@lantern"),
// which name the product as often as the word.
func identifierPart(text string, start, end int) bool {
	if start > 0 {
		switch text[start-1] {
		case '/', '@', '_', '-', '.':
			return true
		}
	}
	if end < len(text) {
		switch text[end] {
		case '/', '_', '-', '@':
			return true
		case '.':
			return end+1 < len(text) && asciiWord[text[end+1]]
		}
	}
	return false
}

// afterArticleAdjective: the word follows an article and one lower-case
// word ("a whole orange", "the small yield"): a common noun's phrase.
func afterArticleAdjective(text string, lo, pos int, prev tok) bool {
	if prev.word == "" || !asciiWord[prev.word[0]] || prev.word[0] < 'a' || prev.word[0] > 'z' ||
		inSet(functionWords, prev.word) || inSet(verbBefore, prev.word) {
		return false
	}
	k := strings.LastIndex(text[max(lo, pos-maxTokenBytes-8):pos], prev.word)
	if k < 0 {
		return false
	}
	pp := prevToken(text, lo, max(lo, pos-maxTokenBytes-8)+k)
	return inSet(articles, pp.word)
}

// editionFollows: "for" and a capitalised word that is no function word
// follow the name outside a title-case line ("Square for Restaurants",
// "Notion for Teams"): an edition of a product, named as products are.
func editionFollows(text string, pos, end int) bool {
	w, np := wordAt(text, pos, end)
	if w != "for" {
		return false
	}
	n, _ := wordAt(text, np, end)
	return nameLike(n) && !inSet(functionWords, n) && !titleCaseLine(text, pos)
}

// productNounFollows: one of the next two words is a product noun ("Zoom
// calls", "Discord voice channels").
func (an *analysis) productNounFollows(c *cand, rec *sentRec) bool {
	return an.nounFollows(c, rec, false, func(w string) bool { return inSet(productNouns, w) || inSetStem(categoryNouns, w) })
}

// naturalKindFollows: a natural-kind noun follows, right after the name or
// after a second name ("the Amazon basin", "Amazon River basin",
// "Mercury levels"): the word names a place, a thing or a substance, not
// the product.
func (an *analysis) naturalKindFollows(c *cand, rec *sentRec) bool {
	return an.nounFollows(c, rec, true, func(w string) bool { return inSetStem(naturalNouns, w) })
}

// nounFollows: one of the next two words is a noun of the kind; with
// pastName, the second only after a capitalised word.
func (an *analysis) nounFollows(c *cand, rec *sentRec, pastName bool, kind func(string) bool) bool {
	pos := c.end
	for k := 0; k < 2; k++ {
		w, np := wordAt(an.text, pos, rec.end)
		switch {
		case w == "":
			return false
		case kind(w):
			return true
		case pastName && !nameLike(w):
			return false
		}
		pos = np
	}
	return false
}

// contextEvidence is the evidence other accepted mentions give a pending
// capitalised candidate.
func (an *analysis) contextEvidence(c *cand) float64 {
	text := an.text
	if c.verbUse && c.local < -1 || an.d.pats[c.pat].calendar && c.local < 0 {
		return 0
	}
	capital := an.ownCase(c) || an.casualName(c) || an.capitalised(c)
	sc := an.sc
	rec := &sc.sents[c.srec]
	var s float64
	if c.block >= 0 && sc.blocks[c.block].hasOther(c.ent) {
		s += wListContext
	}
	if !capital {
		return s
	}
	if rec.acc.hasOther(c.ent) {
		prev := prevToken(text, rec.rawStart, c.start)
		next := nextToken(text, c.end, rec.end)
		if isEnumSep(prev.sep) || isEnumSep(next.sep) || inSet(enumerators, prev.word) || inSet(enumerators, next.word) {
			s += wEnumeration
		} else {
			s += wOtherSame
		}
	}
	if an.d.pats[c.pat].calendar {
		return s // weekdays need an enumeration, a list or a cue
	}
	// Neighbouring sentences vouch for the brand with any tracked entity,
	// for a competitor only with other competitors: the brand's own
	// mentions never add competitor mentions, so naming the brand once more
	// cannot lower its share of voice.
	for _, k := range [2]int{c.srec - 1, c.srec + 1} {
		if k < 0 || k >= len(sc.sents) || abs(sc.sents[k].idx-rec.idx) != 1 {
			continue
		}
		if c.ent == 0 && sc.sents[k].acc.hasOther(0) || c.ent != 0 && sc.sents[k].accComp.hasOther(c.ent) {
			s += wOtherNear
			break
		}
	}
	if an.entAcc[c.ent] {
		s += wSameEntity
	}
	if s == 0 && an.otherAccepted(c.ent) {
		// The answer names another tracked entity somewhere: it is about
		// the products of the category (for a competitor, another
		// competitor must be named). In answer to a query that names the
		// entity, the rival is named as its alternative (nameform.go).
		s += an.rivalAnswers(c)
	}
	return s
}

// otherAccepted: an entity other than ent (for a competitor: another
// competitor) has an accepted mention.
func (an *analysis) otherAccepted(ent int32) bool {
	for e, ok := range an.entAcc {
		if ok && int32(e) != ent && (ent == 0 || e != 0) {
			return true
		}
	}
	return false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// verbUse: the word is used as a verb — followed by a particle ("Zoom in
// on", "Bear in mind") or, sentence-initially, by an object ("Craft a
// reply") — or preceded by "to" or a modal in lower case. initial says
// whether imperative readings apply (a sentence start or a title).
func (an *analysis) verbUse(c *cand, rec *sentRec, prev, next tok, initial bool) bool {
	text := an.text
	if inSet(verbParticles, next.word) {
		after := ""
		if k := strings.Index(text[c.end:min(rec.end, c.end+4*maxTokenBytes)], next.word); k >= 0 {
			after, _ = wordAt(text, c.end+k+len(next.word), rec.end)
		}
		// "Zoom in 2020", "Slack in Europe": a time or a place follows.
		if !(startsWithDigit(after) || nameLike(after) && !inSet(articles, after)) && (initial || inSet(verbBefore, prev.word)) {
			return true
		}
	}
	if inSet(verbParticles, next.word) && unicode.IsUpper(firstRune(next.word)) {
		return true // "Zoom In", "Zoom Out": a control's label
	}
	// "Craft a reply" is English: in a French answer "Orange a le réseau"
	// is a subject and its verb
	if initial && inSet(verbObjects, next.word) && !productNameGoesOn(text, c.end, rec.end) && !an.nonEnglish() {
		return true
	}
	// a name no word list holds is no verb ("use venmo")
	l := an.d.pats[c.pat].level
	return !unicode.IsUpper(firstRune(text[c.start:c.end])) && inSet(verbBefore, prev.word) && l > 0 && l < 50
}

// uiPath: the word is a step of a menu path ("Settings > Display > Zoom",
// "View → Zoom"): the nearest non-space character on either side, past
// markdown emphasis, is a path separator — on the left past the step's
// other capitalised words ("Layer > New Layer Based Slice").
func uiPath(text string, start, end int) bool {
	p := stepStart(text, start)
	for k := 0; p > 0 && k < 8; k++ {
		r, size := utf8.DecodeLastRuneInString(text[:p])
		if !pathPadding(r) {
			if isPathSep(r) {
				return true
			}
			break
		}
		p -= size
	}
	n := end
	for k := 0; n < len(text) && k < 8; k++ {
		r, size := utf8.DecodeRuneInString(text[n:])
		if !pathPadding(r) {
			return isPathSep(r)
		}
		n += size
	}
	return false
}

// stepStart: where the menu step holding the word at start begins, past
// up to three capitalised words a space apart before it ("New Layer Based
// Slice").
func stepStart(text string, start int) int {
	for k := 0; k < 3; k++ {
		w, ws := wordBefore(text, start)
		if w == "" || text[ws+len(w):start] != " " || !unicode.IsUpper(firstRune(w)) {
			break
		}
		start = ws
	}
	return start
}

func isPathSep(r rune) bool { return r == '>' || r == '→' || r == '›' || r == '»' || r == '➜' }

// pathPadding may stand between a menu step and its separator: spaces,
// emphasis, quotes ("„Bedienungshilfen“ > „Zoom“").
func pathPadding(r rune) bool {
	switch r {
	case ' ', '*', '_', '`', '"', '\'', '„', '“', '”', '‘', '’', '«':
		return true
	}
	return false
}

// uiPathRoot: the word opens its menu path ("Zoom > Settings > Audio"):
// the application whose menus follow, not one of its settings.
func uiPathRoot(text string, start int) bool {
	p := stepStart(text, start)
	for k := 0; p > 0 && k < 8; k++ {
		r, size := utf8.DecodeLastRuneInString(text[:p])
		if !pathPadding(r) {
			return !isPathSep(r)
		}
		p -= size
	}
	return true
}

// calendarSiblings: one of the two lines before or after the line at pos
// (within maxTitleBytes each way) starts with a weekday or month too.
func calendarSiblings(text string, pos int) bool {
	lo := max(0, pos-2*maxTitleBytes)
	hi := min(len(text), pos+2*maxTitleBytes)
	lines := strings.Split(text[lo:hi], "\n")
	cur := strings.Count(text[lo:pos], "\n")
	for _, k := range [...]int{cur - 2, cur - 1, cur + 1, cur + 2} {
		if k <= 0 && lo > 0 || k < 0 || k >= len(lines) || k == len(lines)-1 && hi < len(text) {
			continue // a line cut by the window
		}
		if w, _ := wordAtAny(lines[k], 0); inSet(calendarWords, w) {
			return true
		}
	}
	return false
}

// maxTitleBytes bounds the lines read as titles or heads.
const maxTitleBytes = 200

// titleCaseLine: the line holding pos is a title whose every word is
// capitalised, function words included ("## The Notion Of Progress"), is
// written in capitals, or is a heading in headline style (below):
// capitalisation there says nothing about names.
func titleCaseLine(text string, pos int) bool {
	return headingCaps(titleStyle(text, pos))
}

// headingCaps: a line of that style capitalises every word it holds, so
// its capitals say nothing of names (a topic heading's first word still
// may).
func headingCaps(style int) bool { return style == styleTitle || style == styleHeadline }

// Styles of a line's capitals (titleStyle).
const (
	styleNone     = iota
	styleTitle    // every word capitalised, function words included, or all capitals
	styleHeadline // a heading with every word but the function words capitalised
	styleTopic    // a heading that opens with the name, the common words after it capitalised
)

// titleStyle reads the capitals of the line holding pos.
func titleStyle(text string, pos int) int {
	lo := max(0, pos-maxTitleBytes)
	ls := strings.LastIndexByte(text[lo:pos], '\n') + 1 + lo
	hi := min(len(text), pos+maxTitleBytes)
	le := strings.IndexByte(text[pos:hi], '\n')
	if le < 0 {
		le = hi
	} else {
		le += pos
	}
	if le-ls >= maxTitleBytes || ls == lo && lo > 0 && text[lo-1] != '\n' {
		return styleNone
	}
	words, upper, lowerFn, upperFn, lowerContent, commonCaps := 0, 0, 0, 0, 0, 0
	first := false   // the word at pos opens the line
	counted := false // a number opens the line
	model := false   // a number follows a word ("Cricut Maker 3")
	firstCommon := false
	allCaps := true
	for p := ls; p < le; {
		w, np := wordAtAny(text[:le], p)
		if w == "" {
			break
		}
		st := np - len(w)
		p = np
		r := firstRune(w)
		if !unicode.IsLetter(r) {
			counted = counted || words == 0 && unicode.IsDigit(r)
			model = model || words > 0 && unicode.IsDigit(r)
			continue
		}
		words++
		if st == pos {
			// "## 8 Fabulous Ways to …": after a count the word qualifies
			// the counted noun, no topic's name
			first = words == 1 && !counted
		}
		if unicode.IsUpper(r) {
			upper++
			if words > 1 && inSet(functionWords, w) {
				upperFn++
			} else if words > 1 && st != pos && commonWord(w) {
				commonCaps++
			} else if words == 1 && st != pos && commonWord(w) {
				firstCommon = true
			}
		} else if inSet(functionWords, w) {
			lowerFn++
		} else {
			lowerContent++
		}
		if strings.ContainsFunc(w, unicode.IsLower) { // no allocation, unlike ToUpper
			allCaps = false
		}
	}
	if first && !model && !allCaps && words >= 2 && commonCaps+lowerFn == words-1 && headingLine(text[ls:le]) {
		// "## Picnic Spots", "## Porch Framing Basics": the heading's topic,
		// whose other words take capitals as any heading's do; they are
		// no product line's name ("Square Register"), unless a model's
		// number follows ("**Cricut Maker 3**")
		return styleTopic
	}
	if words < 3 {
		return styleNone
	}
	// A heading in headline style ("## How the Rover Drives on Mars", "###
	// The Ladder Isn't Always Vertical"): every word but the function
	// words capitalised, two of them common words a sentence would write
	// in lower case — not a line of names ("## Notion, Obsidian and Bear").
	switch {
	case allCaps || upper == words && upperFn > 0 && lowerFn == 0:
		return styleTitle
	case lowerContent == 0 && (commonCaps >= 2 || commonCaps == 1 && firstCommon && lowerFn > 0) && words >= 4 && !first && headingLine(text[ls:le]):
		// not a heading that opens with the name ("## Rover: Pros and
		// Cons", "**Ladder Life Insurance Review**"): its topic. An
		// opening common word counts beside one more when a function
		// word stays in lower case ("## Block the Burrow Entrance").
		return styleHeadline
	}
	return styleNone
}

// headingLine: the line is a markdown heading or wholly bold.
func headingLine(line string) bool {
	line = strings.TrimSpace(line)
	return strings.HasPrefix(line, "#") || len(line) > 4 && strings.HasPrefix(line, "**") && strings.HasSuffix(line, "**")
}

// commonWord: w, capitalised, is a common English word in lower case
// (SCOWL levels up to 35).
func commonWord(w string) bool {
	var buf [24]byte
	if len(w) > len(buf) {
		return false
	}
	for k := 0; k < len(w); k++ {
		c := w[k]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[k] = c
	}
	l := ordinaryLevel(string(buf[:len(w)]))
	return l > levelShort && l <= 35
}

// nameOnlyHead: the candidate is all of a heading, a list item's head or
// a line's bold lead, up to a colon, a dash, a parenthesis or the line end
// ("## Notion", "1. **Bear** – …", "**Craft:** …").
func nameOnlyHead(text string, c *cand) bool {
	lo := max(0, c.start-maxTitleBytes)
	ls := strings.LastIndexByte(text[lo:c.start], '\n') + 1 + lo
	pre := trimLeftSpace(text[ls:c.start])
	marked, cell := false, false
	switch {
	case strings.HasPrefix(pre, "#"):
		pre, marked = trimLeftSpace(strings.TrimLeft(pre, "#")), true
		if m := numberMarkerLen(pre); m > 0 {
			pre = pre[m:] // "### 2. Notion"
		}
	case strings.HasPrefix(pre, "|"):
		pre, marked, cell = pre[1:], true, true // a table row's first cell
	default:
		if m := listMarkerLen(pre); m > 0 {
			pre, marked = pre[m:], true
		}
	}
	for _, r := range pre {
		if r == '*' || r == '_' {
			marked = true
		} else if r != ' ' && r != '\t' && !isOpener(r) {
			return false
		}
	}
	if !marked {
		return false
	}
	rest := strings.TrimLeft(text[c.end:min(len(text), c.end+16)], "*_`")
	rest = strings.TrimLeft(rest, " \t")
	if rest == "" || rest[0] == '\n' || rest[0] == '\r' {
		return !cell
	}
	r := firstRune(rest)
	if cell {
		return r == '|'
	}
	return r == ':' || r == '-' || r == '–' || r == '—' || r == '(' || r == ','
}

// numberMarkerLen: the length of "2. " or "2) " at the start of s.
func numberMarkerLen(s string) int {
	if m := listMarkerLen(s); m > 0 && s[0] >= '0' && s[0] <= '9' {
		return m
	}
	return 0
}

// predicateFollows: a product predicate follows the name, after at most two
// adverbs: "X offers", "X is known for", "X was criticised", "X's free
// plan".
func (an *analysis) predicateFollows(c *cand, rec *sentRec) bool {
	text := an.text
	pos := c.end
	if hasPrefixFold(text[pos:rec.end], "'s") {
		pos += 2
	} else if strings.HasPrefix(text[pos:rec.end], "’s") {
		pos += len("’s")
	}
	// "Telegram, by contrast, stores …": past a short parenthetical.
	if strings.HasPrefix(text[pos:rec.end], ", ") {
		if k := strings.Index(text[pos+2:min(rec.end, pos+2+maxParenthetical)], ", "); k > 0 {
			pos += 2 + k + 1
		}
	}
	inner := false
	for k := 0; k < 4; k++ {
		w, np := wordAt(text, pos, rec.end)
		if n := contractionLen(text, w, np, rec.end); n > 0 {
			// "Mercury doesn't take cash": wordAt stops at the apostrophe;
			// "isn't" is a copula ("Balance isn't a 50/50 split")
			w, np = w+"'t", np+n
			if inSet(negatedCopulas, strings.ToLower(w)) {
				return an.stateFollows(np, rec.end)
			}
		}
		switch {
		case w == "":
			return false
		case k == 0 && inSet(verbObjects, w) && productNameGoesOn(text, c.end, rec.end):
			// "Discover it Cash Back gives …": a product name with a
			// lower-case word in it, two more words long
			inner = true
		case k == 0 && editionFollows(text, pos, rec.end):
			// "Square for Restaurants is cheaper": past the edition's name
			_, np = wordAt(text, np, rec.end)
		case k == 0 && strings.EqualFold(w, "and") && strings.EqualFold(peekWordAt(text, np, rec.end), "other"):
			// "Pilot and other firms offered …": counted among companies
			// or products, not among metals or fruits
			_, np2 := wordAt(text, np, rec.end)
			kind := peekWordAt(text, np2, rec.end)
			return inSet(kindNouns, kind) || inSetStem(categoryNouns, kind)
		case k == 0 && inSet(enumerators, w) && nameLike(peekWordAt(text, np, rec.end)):
			// "Stripe or Wise are cheaper": the predicate of both
			_, np = wordAt(text, np, rec.end)
		case (k < 2 || k == 2 && inner) && (nameLike(w) && !inSet(functionWords, w) || startsWithDigit(w) && len(w) <= 4) &&
			!titleCaseLine(text, c.start):
			// "Mercury Treasury lets …", "Bear 2 added …": a product line
			// or version (in a title, "Drip Is Better", a capital is none)
		case k == 0 && !inSet(brandVerbs, w) && (inSet(productNouns, w) || inSetStem(categoryNouns, w)):
			// "Nest thermostats are …", "Zoom calls drop …" (but "Telegram
			// stores chats")
		case inSet(predicateAdverbs, w):
		case inSet(possessVerbs, w) && strings.EqualFold(peekWordAt(text, np, rec.end), "been"):
			// "X has been criticised": the copula after "has been"
			_, np = wordAt(text, np, rec.end)
			return an.stateFollows(np, rec.end)
		case inSet(auxiliaries, w) && !inSet(possessVerbs, w):
			return true
		case inSet(comeVerbs, w):
			// "Dawn comes as early as 5:30": any noun comes; a product
			// comes with things or in sizes ("X comes with a free plan")
			return inSet(comeObjects, peekWordAt(text, np, rec.end))
		case inSet(brandVerbs, w) || k == 0 && inSet(foreignPredicates, w):
			// In French, Spanish, Italian, Portuguese and German a common
			// noun takes an article: a bare capitalised subject ("Signal
			// est", "Notion ist") is a name.
			return true
		case verbWithObject(text, w, np, rec.end):
			return true
		case k == 0 && strings.EqualFold(w, "have") && pluralForm(an.d.pats[c.pat].folded):
			// "Acorns have a hard shell": the plural noun's verb; a
			// company has ("Acorns has a round-up feature")
			return false
		case inSet(possessVerbs, w):
			// "X has a free plan", "X had no API": a product owns things;
			// "X has lost market share", "X has added tabs": it acts
			w2, _ := wordAt(text, np, rec.end)
			return inSet(articles, w2) || inSet(quantifiers, w2) || startsWithDigit(w2) || inSet(productAttributes, w2) ||
				inSet(brandVerbs, w2) || inSet(participles, w2) || len(w2) > 4 && strings.HasSuffix(w2, "ed")
		case inSet(copulas, w) || inSet(pluralCopulas, w) || inSet(linkingVerbs, w) || strings.EqualFold(w, "been"):
			return an.stateFollows(np, rec.end)
		default:
			return false
		}
		pos = np
	}
	return false
}

// maxParenthetical bounds a parenthetical between commas after a name.
const maxParenthetical = 32

// stateFollows: after a copula at pos, a product's state or an evaluation
// within three words ("X is known for", "X is pleasant to write in", "X is
// not flawless", "X is Mac-only and better suited").
func (an *analysis) stateFollows(pos, end int) bool {
	text := an.text
	w, np := wordAt(text, pos, end)
	for inSet(predicateAdverbs, w) || inSet(articles, w) {
		w, np = wordAt(text, np, end)
	}
	if strings.EqualFold(w, "among") || strings.EqualFold(w, "one") && strings.EqualFold(peekWordAt(text, np, end), "of") {
		// "Dove was among the brands that recalled …", "X is one of the
		// apps that …": counted among its kind
		for j := 0; j < 4 && w != ""; j++ {
			w, np = wordAt(text, np, end)
			if inSet(kindNouns, w) || inSet(productNouns, w) || inSetStem(categoryNouns, w) {
				return true
			}
		}
		return false
	}
	for j := 0; j < 3 && w != ""; j++ {
		// "X and Y are the main alternatives": a state's plural too; "X
		// is the step up": a choice among products
		if inSetStem(brandStates, w) || lexLookup(w)&(lexPositive|lexNegative|lexNegator) != 0 || gradedLookup(w) != 0 ||
			strings.EqualFold(w, "step") && strings.EqualFold(peekWordAt(text, np, end), "up") {
			return true
		}
		if strings.HasSuffix(w, "er") && inSet(comparedBy, peekWordAt(text, np, end)) {
			return true // "X is prettier for structured documents", "X is cheaper than Y"
		}
		if bareComparative(w, peekWordAt(text, np, end)) {
			return true // "Gain is cheaper.", "Vans Authentics are lighter and sit lower"
		}
		if inSet(functionWords, w) && !strings.EqualFold(w, "and") {
			return false
		}
		if strings.EqualFold(w, "and") && inSet(brandVerbs, peekWordAt(text, np, end)) {
			return true // "X is well established and works across devices": a second, a product's, predicate
		}
		w, np = wordAt(text, np, end)
	}
	return false
}

// kindNouns name what a product is counted among.
var kindNouns = set(`brands brand companies company firms makers manufacturers vendors providers products apps services
platforms tools labels retailers carriers airlines banks insurers`)

// comparedBy follows a comparative.
var comparedBy = set(`than for at`)

// peekWordAt returns the word at pos without its end.
func peekWordAt(text string, pos, end int) string {
	w, _ := wordAt(text, pos, end)
	return w
}

// disclaimed: the candidate's sentence holds a statement of ignorance
// that reaches it ("Lantern: no idea — it isn't in my knowledge base").
func (an *analysis) disclaimed(c *cand, rec *sentRec) bool {
	if !rec.analysed {
		an.tokenize(rec)
	}
	if !rec.anchor {
		return false
	}
	unknown, hedged := an.unknownRefs(c)
	return unknown || hedged
}

// verbWithObject: w, after a name, is a present-tense verb with an
// object — a lower-case word in -s followed by a determiner or a pronoun
// ("Nest learns your schedule", "Linear builds this in"). A plural noun of
// a compound is followed by its verb instead ("Mercury levels vary", "Nest
// boxes in the garden", "Signal drops that happen").
func verbWithObject(text, w string, pos, end int) bool {
	n := len(w)
	if n < 4 || !asciiWord[w[0]] || w[0] < 'a' || w[0] > 'z' {
		return false
	}
	past := n >= 5 && strings.HasSuffix(w, "ed") // "Square popularised the model"
	if !past && (w[n-1] != 's' || w[n-2] == 's' || w[n-2] == 'u' || w[n-2] == 'i') {
		return false
	}
	if inSet(productNouns, w) || inSetStem(categoryNouns, w) || inSetStem(naturalNouns, w) || inSet(productAttributes, w) {
		return false
	}
	o, _ := wordAt(text, pos, end)
	// "Brave blocks trackers": a bare plural object, a product noun of
	// the category ("Ring sends alerts")
	return inSet(objectStarts, o) || bareObject(o)
}

// bareObject: a lower-case plural noun with no determiner ("trackers",
// "ads"), as an object goes.
func bareObject(o string) bool {
	n := len(o)
	if n < 4 || o[0] < 'a' || o[0] > 'z' || o[n-1] != 's' || o[n-2] == 's' || o[n-2] == 'u' || o[n-2] == 'i' {
		return false
	}
	return ordinaryLevel(o) != 0 && !inSet(verbParticles, o)
}

// bareComparative: a comparative ending the predicate ("Gain is cheaper.",
// "Vans Authentics are lighter and sit lower"): the subject is weighed
// against another product. The word and its stem are both words of the
// lexicon ("cheaper", "cheap"; not "paper", "pap" is rare: level 50+).
func bareComparative(w, next string) bool {
	n := len(w)
	if n < 5 || !strings.HasSuffix(w, "er") || next != "" && !strings.EqualFold(next, "and") && !inSet(comparedBy, next) {
		return false
	}
	lw := strings.ToLower(w)
	if lv := ordinaryLevel(lw); lv == 0 || lv > 40 {
		return false
	}
	for _, stem := range [3]string{lw[:n-2], lw[:n-1], lw[:n-3] + "y"} {
		if lv := ordinaryLevel(stem); lv != 0 && lv <= 40 && len(stem) >= 3 {
			return true
		}
	}
	// "bigger", "hotter": a doubled consonant
	if n >= 6 && lw[n-3] == lw[n-4] {
		if lv := ordinaryLevel(lw[:n-3]); lv != 0 && lv <= 40 {
			return true
		}
	}
	return false
}

// maxAttributes caps the product attributes counted for a mention.
const maxAttributes = 2

// followingAttributes counts the product attributes (up to limit) of the
// sentence after rec when it continues the paragraph and names no tracked
// entity.
func (an *analysis) followingAttributes(rec *sentRec, limit int) int {
	s, e, ok := sentenceAfter(an.text, rec.end)
	if !ok || strings.IndexByte(an.text[rec.end:s], '\n') >= 0 || an.hasCandIn(s, e) || an.hasPendingIn(s, e) {
		return 0
	}
	return an.countAttributes(s, e, limit)
}

// hasPendingIn: a candidate of any state lies in [s,e).
func (an *analysis) hasPendingIn(s, e int) bool {
	cands := an.sc.cands
	i, _ := slices.BinarySearchFunc(cands, s, func(c cand, t int) int { return c.start - t })
	return i < len(cands) && cands[i].start < e
}

// attributes counts distinct product attributes ("pricing", "users",
// "integrations", "encryption", …) in the sentence, at most two; cached
// per sentence.
func (an *analysis) attributes(rec *sentRec) int {
	if rec.attrs > 0 {
		return int(rec.attrs - 1)
	}
	text := an.text
	n := 0
	seen := ""
	for pos := rec.start; pos < rec.end && n < 2; {
		w, np := wordAtAny(text[:rec.end], pos)
		if w == "" {
			break
		}
		w = strings.TrimRight(w, "'’") // "users'"
		if inSet(productAttributes, w) && !strings.EqualFold(w, seen) {
			seen = w
			n++
		}
		pos = np
	}
	rec.attrs = int8(n + 1)
	return n
}

// rarityPrior is the evidence a word's rarity gives: SCOWL levels 50 and
// above ("acme", "obsidian", "coda") are seldom meant as words in an answer,
// level 35–40 words ("slack", "loom") sometimes, the commonest ("apple",
// "notion", "zoom") often.
func rarityPrior(level uint8) float64 {
	switch {
	case level >= 50:
		return 1.0
	case level >= 35:
		return 0.3
	}
	return 0
}

var (
	// queryProductWords mark a query about products or services.
	queryProductWords = set(`app apps application applications tool tools software platform platforms service services
crm saas vs versus alternative alternatives best top compare comparison review reviews pricing price cheapest
recommend recommendation recommended options provider providers vendor vendors subscription plan plans
brand brands company companies product products manager editor browser bank card payment payments messenger
messaging camera doorbell laptop phone account startup startups solution solutions pos system systems store
stores shop shops retailer retailers supermarket bank banks banking browser browsers email client clients
messenger chat video call calls conferencing tracker trackers suv car cars smartphone fintech card cards
reviews review worth good legit safe features feature integration integrations buy deals deal cheap tv
note notes note-taking notebook messenger doorbell doorbells smartwatch watch laptop laptops money transfer
transfers send payment terminal reader wiki wikis docs documents tasks task todo to-do calendar scheduling
meetings meeting webinar webinars streaming music photos storage cloud backup password vpn antivirus
hosting domain analytics marketing seo ads invoicing accounting bookkeeping payroll hr hiring ecommerce e-commerce
settings install download update login export import sync offline shortcuts extension plugin
problems problem issues outage outages crash crashes bug bugs loss refund refunds support privacy security
fees fee reliability reliable uptime
marketplace delivery grocery groceries retailers shopping subscription subscriptions anbieter ` + foreignEvalWords)

	// platformCues qualify a feature when they come before a name ("iOS
	// Zoom") and a product after it ("Zoom iOS app").
	platformCues = set(`ios android desktop mobile web windows macos mac`)

	// foreignPredicates: copulas and common verbs of other languages, and
	// the French negation particle, which only a verb follows.
	foreignPredicates = set(`ist war hat bietet bleibt est offre propose permet reste ne es ofrece tiene permite sigue é
oferece tem permite è offre ha permette resta`)

	// objectStarts open the object of a verb ("learns your schedule").
	objectStarts = set(`your you the a an this it its these those them their our my his her users people teams
customers businesses every each all any some both`)

	// foreignArticles: articles of French, Spanish, Italian, Portuguese and
	// German (not those English also writes: "a", "as").
	foreignArticles = set(`un une le la les des du el los las una unos unas il lo gli uno um uma uns umas der die das
den dem ein eine einen einem einer`)

	// quantityPrefixes make a compound's second part a substance or a kind:
	// "high-mercury fish", "low-signal areas".
	quantityPrefixes = set(`high low non zero rich heavy light reduced added extra`)

	// nameIntroducers before a word make it a name: "a product called X".
	nameIntroducers = set(`called named dubbed titled`)

	// auxiliaries after a name make it the subject of a verb: "Notion can
	// do similar things", "Bear doesn't sync tags".
	auxiliaries = set(`can could will would may might should cannot can't won't doesn't didn't isn't wasn't
does did do has have had must`)

	// participles after "has" that are not in -ed: "has lost", "has grown".
	participles = set(`lost grown become built won made kept given taken shown begun fallen risen seen gone had been`)

	// pluralCopulas: "Nest thermostats are …".
	pluralCopulas = set(`are were`)

	// categoryNouns name kinds of products and services: a query asking
	// about one is about products, one after a name makes it a product
	// ("Nest thermostat"), and a definition by one defines a product.
	categoryNouns = set(`thermostat doorbell camera speaker phone smartphone laptop tablet watch headphone earbud
router printer tv television console vacuum bank neobank fintech card issuer lender broker exchange wallet
messenger browser tracker editor app platform tool service software suite client retailer store marketplace
airline carrier insurer network station chain brand database crm erp pos terminal reader notebook notetaker
recorder assistant chatbot detergent shampoo toothpaste deodorant moisturizer moisturiser sunscreen cleanser sneaker
mattress scooter ebike razor soap`)

	// naturalNouns after (or defining) a capitalised ordinary word make it
	// another sense of the word: a place, a body, a substance, a creature,
	// a food ("the Amazon basin", "Mercury is the smallest planet").
	naturalNouns = set(`river rivers rainforest rainforests basin delta tributary jungle forest forests region
planet planets moon star element metal metals mineral poisoning toxicity exposure levels fish species bird birds
tree trees fruit fruits pie cider juice sauce slices orchard animal animals mythology myth god goddess
priestess temple oracle sanctuary mountain mountains lake lakes ocean sea island islands valley desert tribe
volcano volcanoes glacier glaciers canyon waterfall
escarpment escarpments plateau ridge hillside hillsides peninsula headland gorge estuary coastline
tribes warrior warriors horse zodiac horoscope astrology constellation festival carnival parade museum
seed seeds berry berries spice spices herb herbs petals kernels`)

	// featureNouns right after a name make it the name of a mode or a
	// variant of something else: "Sentry Mode", "the Delta variant".
	featureNouns = set(`mode variant strain`)

	// productNouns after a name make it a product: "Zoom calls", "Slack
	// channels", "Discord servers".
	productNouns = set(`channels channel servers server calls call meetings huddles pages chats boards
workspaces subscribers reader readers terminal webinars rooms recordings bots templates databases notebooks
vaults sidebar tabs doorbell doorbells cameras camera alarm users customers plan plans subscription
membership account accounts card cards agents employees staff drivers members sellers branches`)

	// verbParticles after a word make it a phrasal verb: "zoom in",
	// "slack off", "bear with".
	verbParticles = set(`in out up down off into onto through over around back away with`)

	// verbObjects after a sentence-initial word make it an imperative verb
	// with an object: "Craft a reply", "Signal your intent".
	verbObjects = set(`a an the your my our their his her them it this that these those yourself some any every each`)

	// verbBefore: words before a lower-case verb ("to zoom", "can zoom").
	verbBefore = set(`to can could will would should might must please cannot don't doesn't didn't won't let's lets`)

	// uiCommands before a word make it a button or menu item.
	uiCommands = set(`click tap select choose press toggle hit uncheck untick tick enable disable`)

	// brandSuffixes: "Notion-like", "Slack-style" refer to the product.
	brandSuffixes = set(`like style based powered compatible native integrated friendly first only certified approved`)

	functionWords = set(`of the and a an in on for to with at by or from as into`)

	predicateAdverbs = set(`also now still generally widely often usually typically recently currently mostly
largely really particularly especially notably quickly clearly arguably broadly frequently even already
primarily mainly best most more`)

	possessVerbs = set(`has had have`)
	linkingVerbs = set(`remains remained stays stayed became becomes feels seems looks`)
	quantifiers  = set(`no some many more fewer its built-in native two three several plenty dozens hundreds
thousands millions`)

	// comeObjects: what a product comes with or in; any noun comes
	// (comeVerbs, "dawn comes early").
	comeObjects = set(`with in preinstalled pre-installed bundled standard`)

	// brandVerbs: what products and companies do.
	brandVerbs = set(`offers offer offered provides provide provided lets let allows allow supports supported
learns learned builds built produces produced operates operated pays paid work processes processed protects protected
detects detected notifies alerts streams streamed transcribes summarizes summarises generates generated imports
exports converts converted invests invested holds held accepts accepted issues issued hosts charges waives waived
bills billed ranks delivers delivered integrates replaced replaces adds
integrates integrated charges charged costs cost includes included ships shipped launched released added
introduced announced acquired raised encrypts encrypted syncs synced stores stored features featured focuses
focused excels excel shines stands dominates leads targets uses requires works runs handles delivers gives
bundles lacks lacked comes came starts started remains tends sells sold hosts hosted publishes updated
integrates competes rolled pioneered markets caters appeals limits restricts promises boasts emphasizes
emphasises prioritizes prioritises feels looks gets got makes made keeps kept helps helped saves automates
organizes organises connects scales shows displays tracks sends needs beats trails lags falls struggles fails
crashes hides locks stays became becomes introduced expanded dropped removed raised cut changed moved
partnered rebranded reported says said claims announced grew serves powers enables imports exports
recommends recommended advises advised warns warned instructs urges
shut folded collapsed pivoted merged relaunched discontinued ceased
syncs backs wins won ranks rated scores scored topped outperforms undercuts matches suits fits`)

	// brandStates after "X is/was/has been": "known for", "preferred by".
	brandStates = set(`consistent known preferred favored favoured used considered regarded praised criticised criticized
recommended popular designed built owned headquartered based available priced aimed geared focused loved cheap
trusted widely free cheaper pricier faster slower better worse best ideal great good solid strong weaker
stronger simpler easier harder beloved famous notable owned used adopted backed funded acquired criticized
blamed sued fined praised rated reviewed often one choice pick option alternative winner fit tool app
platform service favourite favorite standout leader default easy easier cheaper simpler fast faster
free open-source affordable expensive pricey reliable secure private founded made manufactured produced
launched renamed rebranded created developed sold marketed listed licensed regulated incorporated
behind ahead runner-up contender bet upgrade go-to established`)

	// productAttributes in a sentence mark talk about a product.
	productAttributes = set(`pricing price prices priced plan plans tier tiers subscription subscriptions free
users user customers teams team integrations integration encryption encrypted features feature templates
template interface ui ux mobile desktop ios android web browser sync syncing offline api apis workspace
workspaces collaboration collaborative databases database storage privacy security support onboarding
dashboard reports reporting notifications version versions release update updates app apps software
platform premium enterprise startups startup seats seat license licensing month monthly annual annually
per plugins plugin extensions markdown editor notes calls meetings video messaging messages payments
payment card cards account accounts fees fee transactions checking savings devices device camera cameras
browser tabs pos retail inventory checkout orders automations automation boards deposits deposit withdrawals
transfers wires loans apr cashback rewards refunds
customer customers company's founders subscribers downloads`)
)

// nounDeterminers before a lower-case ordinary word make it a common noun
// ("no notion of", "any slack").
var nounDeterminers = set(`no any every some this that such`)

// nounHeadFollowers after a lower-case word make it the head of its noun
// phrase.
var nounHeadFollowers = set(`of that is was are were has had captures means in as which`)

// prefixedForm: the answer (or the query) holds the pattern's word with a
// negating prefix — "nonlinear", "non-linear", "unwise" — so it uses the
// word as a word (cached per pattern).
func (an *analysis) prefixedForm(pat int32) bool {
	if an.prefixed == nil {
		if an.sc.prefixed == nil {
			an.sc.prefixed = map[int32]bool{}
		}
		an.prefixed = an.sc.prefixed // the pooled map, emptied: no map per answer
		clear(an.prefixed)
	}
	if v, ok := an.prefixed[pat]; ok {
		return v
	}
	form := an.d.pats[pat].folded
	found := false
	for _, src := range [2]string{an.text, an.query} {
		for _, pre := range [...]string{"non", "non-", "Non", "Non-", "un", "Un"} {
			if prefixedIn(src, pre, form) {
				found = true
			}
		}
	}
	an.prefixed[pat] = found
	return found
}

// prefixedIn: pre+form (form in lower case, or capitalised after pre)
// occurs in s as a whole word.
func prefixedIn(s, pre, form string) bool {
	if form == "" || form[0] >= utf8.RuneSelf {
		return false
	}
	for from := 0; from < len(s); {
		k := strings.Index(s[from:], pre)
		if k < 0 {
			return false
		}
		at := from + k
		from = at + len(pre)
		if at > 0 && isWordRune(lastRune(s[:at])) {
			continue
		}
		rest := s[from:]
		if len(rest) < len(form) || !strings.EqualFold(rest[:len(form)], form) {
			continue
		}
		if end := from + len(form); end == len(s) || !isWordRune(firstRune(s[end:])) {
			return true
		}
	}
	return false
}

// ownCase: the candidate is a name or alias its owner writes in lower case
// ("dm", "folk", a capitalised "One Sec" styled "one sec"), written so.
// Its case says nothing either way: it is read as a capitalised word
// without the evidence of its capital.
func (an *analysis) ownCase(c *cand) bool {
	surface := an.text[c.start:c.end]
	return c.kind != KindDomain && slices.Contains(an.d.ents[c.ent].lower, surface)
}

// capitalised: the candidate is written with a capital, and a name of
// several words with every capital its owner gives it past the first
// word: "The north face of the Eiger" keeps only the sentence's capital of
// The North Face, so it reads as lower case.
func (an *analysis) capitalised(c *cand) bool {
	surface := an.text[c.start:c.end]
	return unicode.IsUpper(firstRune(surface)) && !loweredName(surface, an.d.ents[c.ent].forms)
}

// loweredName: surface, a form of several words, writes in lower case a
// later word that every form of as many words capitalises there. It runs
// on every hit of a name, so it walks the words without splitting.
func loweredName(surface string, forms []string) bool {
	if strings.IndexByte(surface, ' ') < 0 {
		return false
	}
	compared := false
	for _, f := range forms {
		same, lowered := lowerAgainst(surface, f)
		if !same {
			continue
		}
		compared = true
		if !lowered {
			return false
		}
	}
	return compared
}

// lowerAgainst compares surface with form word by word: whether they have
// as many words, and whether surface writes in lower case a later word
// that form capitalises.
func lowerAgainst(surface, form string) (sameLength, lowered bool) {
	for i := 0; ; i++ {
		var sw, fw string
		sw, surface = cutField(surface)
		fw, form = cutField(form)
		if sw == "" || fw == "" {
			return sw == fw, lowered
		}
		if i > 0 && unicode.IsUpper(firstRune(fw)) && unicode.IsLower(firstRune(sw)) {
			lowered = true
		}
	}
}

// cutField returns the first run of non-space runes of s and what follows
// it.
func cutField(s string) (field, rest string) {
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	if i := strings.IndexFunc(s, unicode.IsSpace); i >= 0 {
		return s[:i], s[i:]
	}
	return s, ""
}

// casualName: in an English answer, a name no word list holds written in
// lower case ("use venmo or Zelle", "monzo doesn't charge") is the name
// written casually, read as a capitalised one; in another language it
// may be that language's word ("devenir boulanger").
func (an *analysis) casualName(c *cand) bool {
	if an.d.pats[c.pat].level != 0 || c.kind != KindName || c.phrase || unicode.IsUpper(firstRune(an.text[c.start:c.end])) ||
		an.ownCase(c) || identifierPart(an.text, c.start, c.end) {
		return false
	}
	// only where a name stands: a sentence's subject ("monzo doesn't
	// charge"), or beside a capitalised name in an enumeration ("venmo or
	// Zelle"); "the right headspace", "on headspace" are words the list
	// lacks
	text, rec := an.text, &an.sc.sents[c.srec]
	next := nextToken(text, c.end, rec.end)
	named := atSentenceStart(text, rec.rawStart, c.start) && next.word != "" && !inSet(functionWords, next.word)
	if k := strings.Index(text[c.end:rec.end], next.word); !named && k >= 0 && inSet(enumerators, next.word) {
		named = nameLike(peekWordAt(text, c.end+k+len(next.word), rec.end))
	}
	return named && !an.nonEnglish()
}

// hasUpper reports whether s has an upper-case letter.
func hasUpper(s string) bool {
	for _, r := range s {
		if unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

// properNoun: a capitalised word that is no ordinary English word in
// lower case nor a function word of another language ("Cambridge",
// "Johannes"), so a name by itself. German capitalises every noun: callers
// ask only of English answers.
func properNoun(w string) bool {
	if !unicode.IsUpper(firstRune(w)) || len(w) < 3 {
		return false
	}
	f := foldString(w)
	return ordinaryLevel(f) == 0 && !inSet(functionWords, f) && langWords[f] == 0
}

// guardNamesakes: a name that is no ordinary word but also names a natural
// kind — a planet, a sign, a region ("Saturn", "Gemini") — needs the
// evidence an ordinary word does in an answer that uses it so: one of its
// occurrences is defined as one ("Gemini is an air sign"), followed by one
// ("the Saturn system"), counted among them ("more than any other
// planet"), or the query that names it asks about such things ("how many
// moons does saturn have"). One sense per answer: all its occurrences.
func (an *analysis) guardNamesakes() {
	cands := an.sc.cands
	for i := range cands {
		c := &cands[i]
		proper := an.d.pats[c.pat].proper // an alias too: "Aegean" for Aegean Airlines
		if c.guarded || c.kind != KindName && !proper || an.d.pats[c.pat].domain ||
			strings.ContainsRune(an.d.pats[c.pat].folded, ' ') && !an.phraseNamesake(c) {
			continue
		}
		rec := &an.sc.sents[c.srec]
		if !(an.queryNaturalOnly && an.queryNames[c.ent]) && !an.queryWord[c.ent] &&
			an.definitional(c) != defNaturalKind && !an.namesakeKindFollows(c, rec) && !an.otherOfKind(rec) &&
			!lifeDatesFollow(an.text, c.end, rec.end) && !an.surnameSentence(rec) && !an.personName(c, rec) &&
			!an.properNamesake(c, rec) {
			continue
		}
		for k := range cands {
			if o := &cands[k]; o.pat == c.pat && !o.guarded && (o.kind == KindName || proper) {
				o.guarded, o.state = true, candPending
			}
		}
	}
}

// properNamesake: a name English always capitalises — a place, a people,
// a language, a person — after an article in an English answer, heading
// its phrase or before a common noun that is no product's ("the Aegean in
// summer", "pulling a Houdini", "the Norwegian coast"), is the namesake:
// a brand's name takes an article only before its product ("the Stanley
// Quencher", "a Cotopaxi tent"), or in an answer to a query comparing two
// tracked entities, whose article is the product compared's ("marmot
// precip vs patagonia torrentshell": "The Patagonia is heavier"); without
// a query (Detect) that is unknown, and the name stays the brand. Not its
// plural, a team's ("the Celtics").
func (an *analysis) properNamesake(c *cand, rec *sentRec) bool {
	if p := an.d.pats[c.pat]; !p.proper || p.properPlural ||
		an.query == "" || an.queryNamed > 1 ||
		!inSet(articles, prevToken(an.text, rec.rawStart, c.start).word) || an.nonEnglish() {
		return false
	}
	next := nextToken(an.text, c.end, rec.end)
	return !next.possessive && !nameLike(next.word) && !inSet(productCues, next.word) && !goodsNoun(next.word) &&
		!an.productNounFollows(c, rec) && an.definitional(c) != defProduct
}

// hasWordFold: the lower-case ASCII word w occurs in s as a whole word,
// in any case (no copy of s).
func hasWordFold(s, w string) bool { return wordOccurs(s, w, indexFoldASCII) }

// namesakeKindFollows: a natural kind follows the name ("Amazon River"),
// unless the name is no word at all and the kind's noun is capitalised
// inside a product's name ("CeraVe Hydrating Mineral SPF 30": the
// sunscreen's filter, not a namesake of the brand).
func (an *analysis) namesakeKindFollows(c *cand, rec *sentRec) bool {
	if !an.naturalKindFollows(c, rec) {
		return false
	}
	return an.d.pats[c.pat].level != 0 || !hasUpper(peekWordAny(an.text, c.end))
}

// lifeDatesFollow: a span of years follows the name in parentheses
// ("Johannes Peter Müller (1801–1858)"): a person's life, not a product.
func lifeDatesFollow(text string, pos, end int) bool {
	rest := strings.TrimLeft(text[pos:end], " *_")
	if !strings.HasPrefix(rest, "(") {
		return false
	}
	rest = rest[1:]
	for _, p := range [...]string{"b. ", "born ", "c. ", "ca. ", "geb. ", "né ", "née "} {
		rest = strings.TrimPrefix(rest, p)
	}
	digits := 0
	for digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9' {
		digits++
	}
	if digits < 3 || digits > 4 {
		return false
	}
	rest = rest[digits:]
	// "(1801–1858)", "(1801-1858)", "(1801 – 1858)", "(born 1947)"
	rest = strings.TrimLeft(rest, " ")
	return strings.HasPrefix(rest, ")") || strings.HasPrefix(rest, "–") || strings.HasPrefix(rest, "-") ||
		strings.HasPrefix(rest, "—")
}

// surnameSentence: the sentence speaks of surnames ("Der häufigste
// Nachname in Deutschland ist Müller, gefolgt von Schmidt"): the names in
// it are family names (read once per sentence).
func (an *analysis) surnameSentence(rec *sentRec) bool {
	if rec.surname == 0 {
		rec.surname = 2
		// every surname word holds one of these: skip the word scan
		// for the sentences (nearly all) that hold none — for every
		// sentence when the scan saw none in the answer (scanMarks)
		if an.sc.marks&markSurname == 0 || !surnameStems(an.text[rec.start:rec.end]) {
			return false
		}
		for pos := rec.start; pos < rec.end; {
			w, np := wordAtAny(an.text[:rec.end], pos)
			if w == "" {
				break
			}
			if inSetStem(surnameWords, w) {
				rec.surname = 1
				break
			}
			pos = np
		}
	}
	return rec.surname == 1
}

func surnameStems(s string) bool {
	return strings.Contains(s, "name") || strings.Contains(s, "pellid") || strings.Contains(s, "ognom") ||
		strings.Contains(s, "atronym")
}

// surnameWords name family names in English, German, French, Spanish and
// Italian.
var surnameWords = set(`surname surnames nachname nachnamen familienname familiennamen apellido apellidos cognome
cognomi patronymic`)

// otherOfKind: the sentence counts something among a natural kind ("more
// than any other planet", "unlike other rivers").
func (an *analysis) otherOfKind(rec *sentRec) bool {
	// read once per sentence: a long sentence may hold many names
	if rec.ofKind == 0 {
		rec.ofKind = 2
		if an.readOtherOfKind(rec) {
			rec.ofKind = 1
		}
	}
	return rec.ofKind == 1
}

func (an *analysis) readOtherOfKind(rec *sentRec) bool {
	text := an.text
	// nearly no sentence holds "other": skip the word walk when the scan
	// saw none in the answer (scanMarks), or this sentence holds none
	if an.sc.marks&markOther == 0 || indexFoldASCII(text[rec.start:rec.end], "other") < 0 {
		return false
	}
	for pos := rec.start; pos < rec.end; {
		w, np := wordAt(text, pos, rec.end)
		if w == "" {
			// wordAt stops at punctuation: step past it
			np = pos + 1
		} else if strings.EqualFold(w, "other") {
			if n, _ := wordAt(text, np, rec.end); inSetStem(naturalNouns, strings.ToLower(n)) {
				return true
			}
		}
		pos = np
	}
	return false
}

// appListBefore: a list of apps or subscriptions is opened shortly before
// pos ("tap your name, then Subscriptions. Choose …"), so a UI command
// picks an app from it.
func (an *analysis) appListBefore(pos int) bool {
	lo := max(0, pos-maxAppListBytes)
	for w := lo; w < pos; {
		word, np := wordAtAny(an.text[:pos], w)
		if word == "" {
			break
		}
		if inSet(appLists, strings.ToLower(word)) {
			return true
		}
		w = np
	}
	return false
}

// maxAppListBytes bounds how far back a UI step's list is looked for.
const maxAppListBytes = 120

// appLists name the lists of apps a settings path opens.
var appLists = set(`subscriptions apps applications`)

var negatedCopulas = set(`isn't aren't wasn't weren't`)

// contractionLen is the length of the "'t" after a word cut at its
// apostrophe ("doesn" + "'t"), 0 when none: the auxiliaries are listed
// whole.
func contractionLen(text, w string, np, end int) int {
	if !strings.HasSuffix(w, "n") {
		return 0
	}
	for _, t := range [2]string{"'t", "’t"} {
		if strings.HasPrefix(text[np:end], t) && (np+len(t) == end || !isWordRune(firstRune(text[np+len(t):end]))) {
			return len(t)
		}
	}
	return 0
}

// productNameGoesOn: after the name, a short lower-case word and then a
// capitalised word that is no function word ("Discover it Cash Back",
// "Amex Gold"), outside a title-case line: the name is part of a product's
// name, not a verb and its object ("Craft a reply").
func productNameGoesOn(text string, pos, end int) bool {
	w, np := wordAt(text, pos, end)
	if w == "" || len(w) > 3 || unicode.IsUpper(firstRune(w)) {
		return false
	}
	n, _ := wordAt(text, np, end)
	return nameLike(n) && !inSet(functionWords, strings.ToLower(n)) && !titleCaseLine(text, pos)
}

// brandWordForm: the answer writes the brand's name only as a word of
// another form — a plural noun ("Mastodons died out", "the sprouts are
// ready"; not a verb's "-s": "an interview looms") or, for a name joining
// two words, split ("the Everest base camp trek") — so it speaks of the
// word, not the product. Read only when the brand has no candidate.
func (an *analysis) brandWordForm() bool {
	for pi := range an.d.pats {
		p := &an.d.pats[pi]
		if p.domain || !slices.ContainsFunc(p.owners, func(o patOwner) bool { return o.ent == 0 }) {
			continue
		}
		f := p.folded
		n := len(f)
		lv := ordinaryLevel(f)
		word := lv != 0 && n > 2 && !calendarWords[f]
		if n >= 3 && !calendarWords[f] && an.nonEnglish() && an.foreignInflection(f) {
			return true
		}
		if n < 3 || !word && !compoundOfWords(f) {
			continue
		}
		if word {
			if an.pluralNoun(f, "s") || an.pluralNoun(f, "es") || f[n-1] == 'y' && an.pluralNoun(f[:n-1], "ies") {
				return true
			}
			continue
		}
		for k := 3; k <= n-3; k++ {
			if wordPart(f[:k]) && wordPart(f[k:]) && (an.splitCompound(f[:k], f[k:], ' ') || an.splitCompound(f[:k], f[k:], '-')) {
				return true
			}
		}
	}
	return false
}

// foreignInflections are the plural and case endings a noun of French,
// Spanish, Italian, Portuguese or German takes ("die Öffis", "den
// Kollegen", "les bistrots").
var foreignInflections = set(`s e en es n er ern ens`)

// foreignInflection: in an answer in another language, the brand's word f
// (folded) occurs only inflected, after that language's article ("die
// Öffis sind billiger") — a common noun of the language, as the English
// plural is one of English.
func (an *analysis) foreignInflection(f string) bool {
	text := an.text
	for pos := 0; pos < len(text); {
		st := pos
		var isWord bool
		if pos, isWord = stepWord(text, pos, len(text)); !isWord {
			continue
		}
		rest, ok := foldedPrefix(text[st:pos], f)
		if !ok || !inSet(foreignInflections, rest) {
			continue
		}
		if inSet(foreignArticles, prevToken(text, max(0, st-maxTokenBytes), st).word) {
			return true
		}
	}
	return false
}

// foldedPrefix: w folds to f followed by rest (ASCII lower case), compared
// rune by rune without allocating.
func foldedPrefix(w, f string) (rest string, ok bool) {
	for i := 0; i < len(w); {
		if f == "" {
			rest = w[i:]
			for k := 0; k < len(rest); k++ {
				if c := rest[k]; c < 'a' || c > 'z' {
					return "", false
				}
			}
			return rest, true
		}
		r, size := utf8.DecodeRuneInString(w[i:])
		fr := foldRune(r, w[i:i+size])
		if !strings.HasPrefix(f, fr) {
			return "", false
		}
		f = f[len(fr):]
		i += size
	}
	return "", false
}

// pluralNoun: stem+suffix occurs in the text (ASCII case-insensitively) as
// a noun — capitalised at a sentence's or a line's start, as a subject or a
// heading is (mid-sentence it is a family's name: "the Acmes"), or in lower
// case after a determiner ("the sprouts").
func (an *analysis) pluralNoun(stem, suffix string) bool {
	text := an.text
	return an.anyWordRun(stem, len(stem)+len(suffix), func(st, en int) bool {
		if !strings.EqualFold(text[st+len(stem):en], suffix) {
			return false
		}
		prev := prevToken(text, max(0, st-maxTokenBytes), st)
		if unicode.IsUpper(firstRune(text[st:])) {
			// capitalised by its place, not a family's name ("the Smiths")
			return prev.word == "" && (prev.sep == 0 || strings.ContainsRune(".!?:\n-–—|", prev.sep))
		}
		return inSet(articles, prev.word) || inSet(nounDeterminers, prev.word) || inSet(quantifiers, prev.word)
	})
}

// splitCompound: a, sep and b occur as one word-bounded run in the text
// (ASCII case-insensitively): "base camp", "drop-box".
func (an *analysis) splitCompound(a, b string, sep byte) bool {
	text := an.text
	return an.anyWordRun(a, len(a)+1+len(b), func(st, en int) bool {
		return text[st+len(a)] == sep && strings.EqualFold(text[st+len(a)+1:en], b)
	})
}

// anyWordRun reports whether f holds for a word-bounded run of n bytes of
// the text that starts with head (ASCII case-insensitively; head is lower
// case), trying each such run in turn.
func (an *analysis) anyWordRun(head string, n int, f func(st, en int) bool) bool {
	text := an.text
	for off := 0; off+n <= len(text); {
		i := indexFoldASCII(text[off:], head)
		if i < 0 {
			return false
		}
		st := off + i
		off = st + 1
		en := st + n
		if en > len(text) || st > 0 && isWordRune(lastRune(text[:st])) || en < len(text) && isWordRune(firstRune(text[en:])) {
			continue
		}
		if f(st, en) {
			return true
		}
	}
	return false
}

// indexFoldASCII is strings.Index with ASCII case folding; sub is lower
// case.
func indexFoldASCII(s, sub string) int {
	if sub == "" {
		return 0
	}
	c0, u0 := sub[0], sub[0]
	if 'a' <= c0 && c0 <= 'z' {
		u0 = c0 - 'a' + 'A'
	}
	for i := 0; i+len(sub) <= len(s); i++ {
		if (s[i] == c0 || s[i] == u0) && strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

// compoundOfWords: a lower-case ASCII name that is no word itself but
// joins two common words ("basecamp", "dropbox").
func compoundOfWords(f string) bool {
	for k := 3; k <= len(f)-3; k++ {
		if wordPart(f[:k]) && wordPart(f[k:]) {
			return true
		}
	}
	return false
}

// wordPart: a common English word (SCOWL up to level 35) of the letters
// a–z.
func wordPart(w string) bool {
	lv := ordinaryLevel(w)
	return lv != 0 && len(w) > 2 && !calendarWords[w] && lv <= 35
}

// personName: the name and a capitalised word beside it that is a name by
// itself ("Neil", "Zhao") form a person's full name, and the sentence
// speaks of a person: a relative "who" follows ("Chloé Zhao, who also
// wrote"), a credit precedes ("directed by …", "written by …"), or a
// possessive names a person's work ("Neil Postman's argument", "… 's
// book"). Products take none of these, and none is a product cue. An
// acronym beside the name is no given name or surname ("Cursor CEO").
func (an *analysis) personName(c *cand, rec *sentRec) bool {
	text := an.text
	if honorificBefore(text, rec.rawStart, c.start) {
		return true // "Prince Albert", "Dr. Reflect" (wordsense.go)
	}
	next := nextToken(text, c.end, rec.end)
	if next.possessive && inSet(authorWorks, next.word) && !titleCaseLine(text, c.start) {
		return true // "Postman's essay": only a person writes one
	}
	// The full name's span: the name and the capitalised word after or
	// before it (checked last, after the cheaper cues).
	s, e, other := c.start, c.end, ""
	if sur, se := initialThenName(text, c.end); se > 0 {
		e, other = se, sur // "Hunter S. Thompson" (nameform.go)
	} else if !next.possessive && next.sep == 0 && nameLike(next.word) &&
		c.end+1 < len(text) && text[c.end] == ' ' && strings.HasPrefix(text[c.end+1:], next.word) {
		e, other = c.end+1+len(next.word), next.word
	} else {
		prev := prevToken(text, rec.rawStart, c.start)
		if !nameLike(prev.word) || c.start < 1 || text[c.start-1] != ' ' || !strings.HasSuffix(text[:c.start-1], prev.word) {
			return false
		}
		s, other = c.start-1-len(prev.word), prev.word
		// a middle name before it ("Hans Christian Ørsted"): the first
		// name may be the one that is a name by itself
		if first := prevToken(text, rec.rawStart, s); nameLike(first.word) && s > 0 && text[s-1] == ' ' &&
			strings.HasSuffix(text[:s-1], first.word) && !atSentenceStart(text, rec.rawStart, s-1-len(first.word)) && !properNoun(other) {
			s, other = s-1-len(first.word), first.word
		}
	}
	// a query that asks who did something is answered with people's names
	person := asksWho(an.query)
	rest := strings.TrimLeft(text[min(e, rec.end):rec.end], "*_") // an initial's stop may end the sentence
	switch {
	case person:
	case strings.HasPrefix(rest, ", who ") || strings.HasPrefix(rest, " who "):
		person = true
	case strings.HasPrefix(rest, "'s ") || strings.HasPrefix(rest, "’s "):
		w, _ := wordAt(text, rec.end-len(rest)+strings.IndexByte(rest, ' '), rec.end)
		person = inSet(personWorks, strings.ToLower(w))
	}
	if !person {
		lo := max(rec.rawStart, s-maxTokenBytes)
		by := prevToken(text, lo, s)
		// "the Danish physicist Hans Christian Ørsted": a person's calling
		// in apposition before the full name
		person = inSetStem(personCallings, by.word)
		if by.word == "by" {
			if k := strings.LastIndex(text[lo:s], "by"); k >= 0 {
				person = inSet(personCredits, strings.ToLower(prevToken(text, lo, lo+k).word))
			}
		}
	}
	// the other word is a name by itself, not an acronym ("Cursor CEO")
	// nor a tracked name
	return person && strings.ContainsFunc(other, unicode.IsLower) && properNoun(other) && !an.d.folded[foldString(other)] &&
		!titleCaseLine(text, c.start)
}

var (
	// personWorks after a person's possessive name: what a person writes,
	// makes or argues.
	personWorks = set(`book books novel novels argument arguments essay essays theory theories thesis memoir memoirs
poem poems poetry film films painting paintings critique lectures speech speeches biography autobiography
philosophy ideas death birth childhood career`)
	// authorWorks after a single possessive name: what only a person
	// writes ("Postman's essay", not "Amazon's book sales").
	authorWorks = set(`novel novels memoir memoirs poem poems essay essays biography autobiography thesis`)
	// personCallings right before a full name are a person's: "the
	// physicist Hans Christian Ørsted", "the novelist Ann Patchett".
	personCallings = set(`physicist chemist biologist scientist mathematician astronomer engineer inventor explorer
philosopher economist historian novelist writer author poet playwright painter sculptor composer conductor
pianist violinist singer songwriter actor actress director filmmaker architect designer photographer
journalist politician senator chancellor emperor admiral professor physician surgeon footballer athlete`)
	// personCredits before "by" credit a person's work ("directed by").
	personCredits = set(`directed written authored composed painted narrated illustrated coined sung co-written
co-directed photographed choreographed`)
)
