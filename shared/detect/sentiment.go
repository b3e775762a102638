package detect

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Sentiment toward the brand, not of the answer (package documentation,
// "Sentiment"): the brand's text is its mentions' clause scopes, the rest
// of their paragraphs, the sections they head and, when the answer is
// about the brand, its sentences about nothing else; praise P and
// criticism N over that text decide the class.
const (
	sentNeutral        = 0.5
	sentClear          = 0.8
	sentClearCriticism = 1.5
	sentStrong         = 1.5
	sentBoost          = 1.5
	sentSoften         = 0.5
	sentRecommended    = 1.0  // the brand answers a request for a recommendation
	sentRemedied       = 0.8  // a criticism remedied or rare: "problems get fixed quickly", "outages are rare"
	sentContrast       = 1.25 // the clause after "but", or after the comma of "although …,"
	sentMovedTo        = 0.5  // users reported moving to a rival: a complaint, not a verdict
	sentDoubtRatio     = 0.5  // a clear polarity under this share of the other is in doubt (adjudication)

	maxSectionBytes    = 2400
	maxFollowSentences = 3
)

// sentParams are the thresholds calibrated on the held-out batches and the
// corpus (TestSentimentCalibration: leave-one-set-out).
type sentParams struct {
	// vaderMin: a word only VADER knows counts, in a predicate ("the
	// editor feels sluggish", "is delightful"), when its valence is at
	// least this far from 0 (VADER's scale is −4…+4; 0 turns VADER off).
	vaderMin float32
	// vaderFree: a criticism counts anywhere from this negative valence on
	// ("angered long-time users", "a frustrating setup", "a dismal
	// record"): VADER's strongly negative words judge in any position,
	// while its positive ones include things ("rewards", "friends").
	vaderFree float32
	// vaderAny: any word counts anywhere from this valence ("excellent",
	// "the best", "wins"; VADER's nouns that name things, "rewards",
	// "friends", stay below it); 0: never.
	vaderAny float32
	// vaderStrong: from this valence on a VADER word weighs sentStrong.
	vaderStrong float32
	// ablate leaves the curated polar words VADER also scores to VADER:
	// how much of the hand-kept lexicon VADER would have found
	// (TestSentimentAblation).
	ablate bool
	// concede weighs a concession: one side of a sentence before its
	// adversative that the other side after it outweighs (contrastTurn).
	concede, concedeCost float64
	// inferred: the reservation read into an adversative after praise
	// when no polar word follows it.
	inferred float64
	// denied weighs a criticism negated ("no issues", "never had an
	// outage", "no known breach") as praise: mild praise, or under
	// sentNeutral a neutral fact.
	denied float64
	// verdictLine lets a labelled verdict line decide a mixed reading;
	// caveat makes an announced caveat beside praise two-sided.
	verdictLine, caveat bool
	// needAsked: a query stating a need that names no tracked entity,
	// answered by the brand first in prose, recommends it.
	needAsked bool
	// mixedRatio: the smaller side's least share of the larger for a
	// mixed reading (decide).
	mixedRatio float64
}

var defaultSentParams = sentParams{vaderMin: 0.5, vaderFree: 2.0, vaderAny: 3.0, vaderStrong: 3.0,
	concede: 0.5, concedeCost: 0.5, inferred: 1, denied: 0.4,
	verdictLine: true, caveat: true, mixedRatio: 0.34, needAsked: true}

// withSentParams replaces the calibrated thresholds (calibration tests).
func withSentParams(p sentParams) Option { return func(d *Detector) { d.sent = p } }

// vaderFlags reads a word neither the curated lexicon nor a rule knows
// through VADER: in a predicate (after a copula or a verb of seeming, or
// continuing a list of judgements) from pm.vaderMin, a criticism anywhere
// from pm.vaderFree, any word anywhere from pm.vaderAny. VADER's nouns
// ("rewards", "friends", "holiday") name things in answers about
// products; its adjectives in a predicate judge them.
func (pm sentParams) vaderFlags(w string, predicate bool) uint8 {
	v := vaderValence(w)
	switch {
	case v == 0:
		return 0
	case predicate && (v >= pm.vaderMin || v <= -pm.vaderMin):
	case pm.vaderFree > 0 && v <= -pm.vaderFree:
	case pm.vaderAny > 0 && (v >= pm.vaderAny || v <= -pm.vaderAny):
	default:
		return 0
	}
	f := lexPositive
	if v < 0 {
		f = lexNegative
	}
	if v >= pm.vaderStrong || v <= -pm.vaderStrong {
		f |= lexStrong
	}
	return f
}

// frameWords are copulaWords, listJoins, suggestVerbs and conditionWords.
var frameWords = func() map[string]bool {
	m := make(map[string]bool)
	for _, set := range []map[string]bool{copulaWords, listJoins, suggestVerbs, conditionWords} {
		for w := range set {
			m[w] = true
		}
	}
	registerFilter(m)
	return m
}()

// listJoins continue a list of judgements in a predicate.
var listJoins = set(`and or`)

// copulaWords open a predicate: "is", "feels", "looks", "seems".
var copulaWords = set(`is are was were be been being it's that's feels feel felt looks look looked seems seem
seemed sounds sound remains remain stays stay becomes become became gets get got getting`)

// brandSentiment sets the brand's Sentiment, PositiveEvidence and
// NegativeEvidence from the text governing its counted mentions.
func (an *analysis) brandSentiment(er *EntityResult) {
	if !er.Mentioned {
		return
	}
	sc, text := an.sc, an.text
	spans := sc.spans[:0]
	lastRec := -1
	for i := range sc.cands {
		c := &sc.cands[i]
		if c.ent != 0 || !counted(c) {
			continue
		}
		rec := &sc.sents[c.srec]
		if s, e, ok := an.scopeBytes(i); ok && !question(text[rec.start:rec.end]) {
			// every mention's clauses: "Meet is simpler than Zoom for
			// calls, but Zoom's whiteboard is excellent"
			spans = append(spans, [2]int{s, e})
		}
		if c.srec == lastRec {
			continue
		}
		lastRec = c.srec
		// The text that continues about the brand: its section when it
		// heads one, else the rest of its paragraph up to another entity.
		if nameOnlyHead(text, c) {
			end := an.sectionEnd(c, rec)
			for s, e, ok := sentenceAfter(text, rec.end); ok && e <= end; s, e, ok = sentenceAfter(text, e) {
				item := listItem(text, s)
				if !item && an.onlyCompared(s, e, comparisonMarkers) {
					spans = append(spans, [2]int{s, e}) // "the catalog is much smaller than Audible's"
					continue
				}
				if brand, other := an.entitiesIn(s, e); brand && !other {
					continue // the brand's own sentence: its mention reads it
				} else if other && item {
					if _, rivalLead := an.itemLeadNames(s, e); !rivalLead {
						continue // lists.go: a rival named in passing in an item
					}
				}
				if an.hasCandIn(s, e) {
					break
				}
				spans = append(spans, [2]int{s, e})
			}
			continue
		}
		end := rec.end
		for k := 0; k < maxFollowSentences; k++ {
			s, e, ok := sentenceAfter(text, end)
			if !ok || strings.IndexByte(text[end:s], '\n') >= 0 && !caveatOpens(text[s:e]) {
				// a line that opens on an announced caveat ("The catch is
				// …", "The downsides: …") presumes what came before it
				break
			}
			if an.onlyCompared(s, e, comparedOnly) {
				// casesplit.go: "Fares are competitive with Ryanair and
				// easyJet, …": a rival named only as what the brand is
				// compared with leaves the paragraph the brand's
				spans = append(spans, [2]int{s, e})
				end = e
				continue
			}
			if an.hasCandIn(s, e) {
				// "It's slow to load large pages and limited compared with
				// Obsidian", "I would not trust it — use Obsidian": a
				// sentence that goes on about the brand by a pronoun is the
				// brand's up to the clause naming another.
				// A rival named only in a later clause ("Active users have
				// fallen, …, and many moved to Bluesky") leaves the clauses
				// before it to the brand as well.
				if ce := an.clauseBeforeOther(s, e); ce > s {
					spans = append(spans, [2]int{s, turnKept(text, ce, e)})
				}
				if rs, ok := an.clausesAfterComparedRival(s, e); ok {
					// "Its training is only okay next to TrainerRoad, the
					// subscription has climbed, and …": the sentence goes on
					// about the brand after the rival it was compared with
					spans = append(spans, [2]int{rs, e})
				}
				break
			}
			spans = append(spans, [2]int{s, e})
			end = e
		}
	}
	if an.brandIsTopic() {
		spans = an.topicSpans(spans)
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	sc.spans = spans
	var P, N, bestP, bestN float64
	verdict := false // a negative verdict on the brand ("I wouldn't choose it", "a poor fit")
	covered := 0
	var last spanReading // the previous span, for a sentence that opens with "But"
	var vp, vn float64   // the verdict line's reading ("**Bottom line:** …")
	vCond := false       // the verdict sets a condition ("a strong pick if …")
	vPart := false       // the verdict praises, then turns to a part (partTurn)
	opened := false      // a span held only the opener ("However"): the next one continues it
	lastStart := -1      // the previous span's start
	// the answer-level reading (sentiment_verdict.go): a warning against
	// the brand, a caveat played down, a frame opening the other side
	minimised, framed := false, false
	against := warnNone
	frameS, frameE := 0, 0
	warnS, warnE := 0, 0              // the warning against the brand
	downhill, pDownhill := false, 0.0 // "The problems start …", and the praise before it
	var secs sections                 // the list items under the brand's pros and cons headings
	closingPraise := false            // the last span that judges praises
	read, judged := 0, 0              // spans read, and those that judge
	offered := false                  // a span offers an alternative in the brand's place
	split := false                    // sentiment_verdict.go: the writer says the answer depends

	// casesplit.go: the brand's praise for one case, against it for another
	cases, casesS, casesE := false, 0, 0
	for _, sp := range spans {
		s, e := max(sp[0], covered), sp[1]
		if e <= s {
			continue
		}
		covered = e
		if question(text[s:e]) {
			continue
		}
		if cs, ce, ok := an.brandCell(s, e); ok {
			// "| Weakness | Paywalled features | Fewer users |" under a
			// header "| | Hinge | Bumble |": the brand's column only
			s, e = cs, ce
		}
		an.sent.spanHedged, an.sent.spanCost = false, false
		caveatBefore := an.sent.caveat
		p, n, v := an.valenceBeside(s, e)
		p, n, alt := an.besideAlternative(s, e, p, n) // "Voxi or Smarty give you more for similar money"
		if p > 0 {
			if win, _ := an.rivalWinIn(s, e); win {
				p = 0 // rivalwin.go: "Corvid beats Varnel on nearly everything" praises the rival
			}
		}
		offered = offered || alt
		if p > 0 && an.foil(s, e) {
			p = 0 // "Linen sheets are wonderful … Parachute's, unfortunately, …": the category's praise
		}
		p, n = an.conceded(text[s:e], p, n) // "To be fair, it's genuinely convenient"
		if n > 0 && faultIntended(text[s:e]) {
			n *= an.d.sent.concede // scopeturn.go: "It's heavy, but that's kind of the point"
		}
		p, n = an.besideGrudge(s, e, p, n) // "Creators dislike that the cheapest plan …"
		if p > 0 && worksWhenPhrases.in(text[s:e]) {
			p, n = p*an.d.sent.concede, max(n, sentNeutral) // casesplit.go: "when it works it's cheap"
		}
		switch paidForTurn(text[s:e]) {
		case 1:
			p, n = max(p, 1), n*an.d.sent.concede // praise.go: "pricier, but you're getting what you pay for"
		case -1:
			p, n = p*an.d.sent.concede, max(n, 1) // "half the price, but you get what you pay for"
		}
		if items := 0.5 * float64(consItems(text[s:e])); items > n {
			// "Cons: runs large; break-in takes a week; little arch
			// support": each item of a cons line is a criticism (half a polar word), polar
			// words or not
			n = items
		}
		if adversativeOpener(text[s:e]) && wordCount(text[s:e]) <= 2 {
			opened = true
			continue
		}
		split = split || splitSaid(text[s:e]) // "It comes down to how you invest: …"
		if elided, two := an.caseSplit(s, e, p); elided {
			split, n = true, max(n, sentClear) // casesplit.go: "Good value on road trips, less so in big cities"
		} else if two {
			split, cases, casesS, casesE = true, true, s, e // casesplit.go: "If …, it's worth it; if …, a nonstop is better"
		}
		if someOthers(text[s:e]) {
			split, v = true, false // sentiment_verdict.go: "Some pieces are great value; others aren't"
		}
		if minimisedCaveat(text[s:e]) || caveatClosed(text[s:e]) || p >= sentNeutral && reportedResidue(text[s:e]) {
			// "The only real drawback is …", "a small price to pay": a
			// caveat the writer plays down announces no second side
			// (praise.go: "…, but that's about it"; "reviews are generally
			// positive, with most complaints about …")
			minimised, an.sent.caveat = true, caveatBefore
			n *= sentSoften // praise.go: a minor caveat weighs half
		} else if an.sent.caveat && elseScoped(text[s:e], p, n) {
			minimised, an.sent.caveat = true, false // praise.go: "For everyone else it's a no-brainer"
		}

		if !framed && counterFrame(text[s:e], last.p > last.n || P > N) {
			framed, frameS, frameE = true, s, e
		}
		secs.add(text, s, e, p, n)
		if !framed && secs.weakHead {
			framed, frameS, frameE = true, s, e // "**What gives people pause**", "### Lo que no convence"
		}
		if secs.side == 0 {
			secs.side = introducedSide(text, s, e, p, n, P > N) // lists.go: "Dicho esto, tiene sus peajes:"
		}
		p, n = secs.sideItem(text, s, p, n) // praise.go: "- Soft fabric that lasts" under "What buyers like"
		read++
		if p >= sentNeutral || n >= sentNeutral {
			closingPraise = p > n && !turnEnds(text[s:e]) // concession.go: "…easy to use, but" turns away
			judged++
		}
		if !downhill && (downhillFrames.opens(text[s:e]) || downhillTurn(text[s:e], p, n, P > N)) {
			// "The problems start after the first box."
			downhill, pDownhill = true, P
		}
		if against == warnNone {
			// "…, but there are good reasons to be cautious"
			against, warnS, warnE = an.warnsAgainst(s, e, lastStart), s, e
			if against == warnNone && an.grudgingChoice(s, e) {
				against = warnPlain // casesplit.go: "If you go with X anyway, …"
			}
		}
		cur := spanReading{p: p, n: n, end: e, hedged: an.sent.spanHedged, cost: an.sent.spanCost}
		if last.end > 0 && (opened || adversativeOpener(text[s:e]) || afterthought(text[s:e])) && !strings.Contains(text[last.end:s], "\n\n") {
			// "Yahoo Mail still works. But it's hard to find a reason to
			// choose it": the turn spans two sentences
			dp, dn := last.turnTo(an.d.sent, p, n)
			P, N = P+dp, N+dn
			if dn > bestN {
				bestN, er.NegativeEvidence = dn, an.sentenceText(s, e)
			}
		}
		if an.turnsToRival(s, e) && p > n && cur.hedged {
			// "The connection itself is usually stable, but for that price
			// rivals offer the same for less": conceded to the rival
			p *= an.d.sent.concede
		}
		last, lastStart, opened = cur, s, false
		if verdictLine(text[s:e]) {
			if an.verdictNamesBrand(s, e) && p < sentRecommended {
				p = sentRecommended // praise.go: "**Verdict:** get Pellow."
			}
			vp, vn = vp+p, vn+n
			// the verdict's whole line: a case left to a rival after the
			// praise ("…, but if you want X, Hinge wins"; "Si vous préférez
			// …, AXA peut être plus adapté") sets a condition too
			vCond = vCond || hasWordIn(lineAt(text, s), verdictConditions) || an.turnsToRival(s, e)
			vPart = vPart || p >= sentNeutral && an.partTurn(s, e)
		}
		P += p
		N += n
		verdict = verdict || v
		if p > bestP {
			bestP, er.PositiveEvidence = p, an.sentenceText(s, e)
		}
		if n > bestN {
			bestN, er.NegativeEvidence = n, an.sentenceText(s, e)
		}
	}
	if an.urgedTo(warnVerbs) {
		N += sentRecommended // "I'd skip X if …"
		verdict = true
	}
	switch an.bareAnswer() {
	case Negative:
		N += sentRecommended // "Should I still use X?" — "I wouldn't."
		verdict = true
		if bestN < sentRecommended {
			bestN, er.NegativeEvidence = sentRecommended, an.sentenceText(0, 1)
		}
	case Positive:
		P += sentRecommended // "Is X worth it?" — "Yes."
	}
	if consolers.opens(text) {
		verdict = true // "You're not alone — …": the query's complaint confirmed
	}
	if an.defectedFrom() {
		N += sentRecommended // "many teams are moving off X": a reported complaint
	}
	if s, e, strong, ok := an.alternativeUrged(); ok {
		// "Many reviewers suggest Monarch or YNAB instead", "heavier users
		// often move to Make": the answer sends readers to a rival
		w := sentMovedTo
		if strong {
			w, verdict = sentRecommended, true
		}
		N += w
		if bestN < w {
			bestN, er.NegativeEvidence = w, an.sentenceText(s, e)
		}
	}
	if s, e, v, ok := an.alternativeInParagraph(); ok {
		verdict = verdict || v // "For most travellers, Delta is the safer bet."
		if !offered {
			N += sentRecommended // "… but Voxi or Smarty give you more for similar money"
			if bestN < sentRecommended {
				bestN, er.NegativeEvidence = sentRecommended, an.sentenceText(s, e)
			}
		}
	}
	if s, e, ok := an.rivalPreferred(); ok {
		N += sentRecommended // "For most people, Ecobee is the better pick."
		verdict = true
		if bestN < sentRecommended {
			bestN, er.NegativeEvidence = sentRecommended, an.sentenceText(s, e)
		}
	}
	if s, e, win, ok := an.rivalWins(); ok && (win || N >= sentNeutral) {
		// rivalwin.go: "EGO beats Stihl on almost every count" (a verdict),
		// "a Corvid is quieter and far more dependable" (half, beside
		// criticism of the brand: alone, in "X vs Y", it describes)
		w := sentMovedTo
		if win {
			w = sentRecommended
		}
		N += w
		verdict = verdict || win
		if bestN < w {
			bestN, er.NegativeEvidence = w, an.sentenceText(s, e)
		}
	}
	recommended := an.recommendedFirst(er) || an.urgedTo(urgeVerbs)
	picked := recommended && !an.queryNames[0]
	if N < sentClear && recommended {
		// The answer to "best …?" leads with the brand, or tells the reader
		// to try it: a recommendation, unless the answer criticises it.
		P += sentRecommended
		if bestP < sentRecommended {
			er.PositiveEvidence = er.Evidence
		}
	}
	if vn > vp && !vCond && !vPart && an.d.sent.verdictLine {
		// "**Verdict:** easy to start, but most sites outgrow it"; not a
		// verdict in a case ("…, if stability matters more, the Adidas is the
		// safer choice") or a reservation about a part after praise
		verdict = true
	}
	if against == warnNone {
		against, warnS, warnE = an.closingAgainst()
	}
	if against != warnNone && bestN < sentRecommended {
		bestN, er.NegativeEvidence = sentRecommended, an.sentenceText(warnS, warnE)
	}
	if (against == warnPlain || against == warnIf && N >= P) && N < sentRecommended {
		// "Unless the item is truly disposable, buy it somewhere else": a
		// warning is criticism, whatever else the clauses read (beside
		// more praise, a warning in a case — "if you want the cheapest
		// kit, look elsewhere" — only marks the brand's scope)
		N += sentRecommended
	}
	if ws, we, ok := an.pronounWeakSide(); ok && !framed {
		framed, frameS, frameE = true, ws, we // "### Where it falls short" after "### Where GitLab shines"
	}
	secAgainst, secTwoSided := secs.verdict(P, N)
	ans := answerReading{verdict: verdict, vp: vp, vn: vn, vCond: vCond, against: against, minimised: minimised,
		framed:   framed || secTwoSided && vp < sentClear, // a verdict line decides after pros and cons
		downhill: downhill, pDownhill: pDownhill, secAgainst: secAgainst, closingPraise: closingPraise,
		caveat: an.sent.caveat, factSheet: an.factSheet(read, judged, P, N) || an.praiseSheet(read, judged, P, N), preferred: an.brandPreferred(), picked: picked,
		twoLists: secTwoSided, listN: secs.itemN, split: split, cases: cases}
	er.Sentiment, N, verdict = ans.judge(an.d.sent, P, N)
	if er.Sentiment == Mixed && ans.framed && bestN < sentClear && N >= sentClear && frameE > 0 {
		er.NegativeEvidence = an.sentenceText(frameS, frameE) // "**Where it falls short**"
	}
	if er.Sentiment == Mixed && cases && bestN < sentClear {
		er.NegativeEvidence = an.sentenceText(casesS, casesE) // casesplit.go: the case against the brand
	}
	an.sent = sentScore{P: P, N: N, verdict: verdict, negEvidence: er.NegativeEvidence, posEvidence: er.PositiveEvidence,
		caveat: an.sent.caveat, answer: ans}
	if an.sent.negEvidence == "" {
		an.sent.negEvidence = er.Evidence
	}
	if an.sent.posEvidence == "" {
		an.sent.posEvidence = er.Evidence
	}
	if N < sentNeutral {
		er.NegativeEvidence = ""
	}
	if P < sentNeutral {
		er.PositiveEvidence = ""
	}
}

// caveatNouns after caveatDeterminers announce a caveat that presumes an
// upside — "the catch", "the main drawback", "one downside", "the
// trade-off" — not a list of faults ("it has many drawbacks").
var (
	caveatNouns = set(`catch catches downside downsides drawback drawbacks trade-off trade-offs tradeoff tradeoffs
caveat caveats hitch inconveniente inconvenientes pega desventaja inconvénient inconvénients hic haken nachteil`)
	caveatDeterminers = set(`the main biggest big only one chief key real its their la el le der die le principal
principale gran seul`)
)

// caveatOpens: t opens on an announced caveat — "The catch is …", "The
// main downsides: …", "Its drawback" — a caveatDeterminer, then a
// caveatNoun within two words.
func caveatOpens(t string) bool {
	w, np := wordAtAny(t, 0)
	if !inSet(caveatDeterminers, w) {
		return false
	}
	for range 2 {
		if w, np = wordAtAny(t, np); inSet(caveatNouns, w) {
			return true
		}
	}
	return false
}

// verdictLine: t is a labelled verdict — "**Verdict:** …", "Bottom
// line: …", "Overall, …", "In short, …", "TL;DR: …", "En resumen, …",
// "Fazit: …".
func verdictLine(t string) bool {
	// strings.TrimLeft(t, " \t*_#>-") without building its byte set
	for t != "" && (t[0] == ' ' || t[0] == '\t' || t[0] == '*' || t[0] == '_' || t[0] == '#' || t[0] == '>' || t[0] == '-') {
		t = t[1:]
	}
	if t == "" || !verdictLabelFirst[lowerASCII(t[0])] {
		// most sentences (every one of the answer's, in closingAgainst)
		// open with no label's first letter: no label loop
		return false
	}
	for _, l := range verdictLabels {
		if len(t) >= len(l) && lowerASCII(t[0]) == l[0] && strings.EqualFold(t[:len(l)], l) {
			rest := strings.TrimLeft(t[len(l):], "*_")
			return strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, ",") || strings.HasPrefix(rest, " —") || strings.HasPrefix(rest, ".")
		}
	}
	return false
}

var verdictConditions = set(`if unless only si sauf wenn außer ausser solo`)

// verdictLabelFirst marks the labels' first bytes. The labels open with
// ASCII letters, and a text opening with a multi-byte rune has fewer runes
// in a label's byte length than the label (a rune folding to an ASCII
// letter, as 'K' (Kelvin) to 'k', is longer than it), so it never matches.
var verdictLabelFirst = func() (t [256]bool) {
	for _, l := range verdictLabels {
		t[l[0]] = true
	}
	return t
}()

var verdictLabels = []string{"verdict", "the verdict", "final verdict", "bottom line", "the bottom line", "overall",
	"in short", "in summary", "summary", "tl;dr", "tldr", "conclusion", "in conclusion", "my take", "takeaway",
	"the takeaway", "en resumen", "en definitiva", "en conclusión", "veredicto", "en bref", "en résumé", "verdict final",
	"fazit", "kurz gesagt", "unterm strich"}

// brandCell: [s,e) is a table row (not the header) of a table whose
// header names the brand in one column and another tracked entity in
// another; it returns that column's cell in the row.
func (an *analysis) brandCell(s, e int) (cs, ce int, ok bool) {
	text := an.text
	ls := strings.LastIndexByte(text[:s], '\n') + 1
	le := strings.IndexByte(text[s:], '\n')
	if le < 0 {
		le = len(text)
	} else {
		le += s
	}
	if !strings.HasPrefix(strings.TrimLeft(text[ls:le], " "), "|") {
		return 0, 0, false
	}
	// the header: the first line of the run of table lines
	hs := ls
	for hs > 0 {
		ps := strings.LastIndexByte(text[:hs-1], '\n') + 1
		if !strings.HasPrefix(strings.TrimLeft(text[ps:hs-1], " "), "|") {
			break
		}
		hs = ps
	}
	if hs == ls {
		return 0, 0, false // the header itself
	}
	he := hs + strings.IndexByte(text[hs:], '\n')
	col, other := -1, false
	for k, c := range tableCells(text, hs, he) {
		brand, rival := an.entitiesIn(c[0], c[1])
		if brand && !rival {
			col = k
		}
		other = other || rival
	}
	if col < 0 || !other {
		return 0, 0, false
	}
	if cells := tableCells(text, ls, le); col < len(cells) {
		c := cells[col]
		return max(c[0], s), min(c[1], e), c[1] > s && c[0] < e
	}
	return 0, 0, false
}

// tableCells returns the byte ranges of the cells of the table line
// [ls,le): between its pipes.
func tableCells(text string, ls, le int) [][2]int {
	var cells [][2]int
	start := -1
	for i := ls; i < le; i++ {
		if text[i] != '|' {
			continue
		}
		if start >= 0 {
			cells = append(cells, [2]int{start, i})
		}
		start = i + 1
	}
	return cells
}

// spanReading is one span's praise and criticism, kept for the next
// span's turn.
type spanReading struct {
	p, n         float64
	end          int
	hedged, cost bool
}

// turnTo returns the change to the totals when the next span, reading p
// and n, opens with an adversative: contrastTurn.settle across sentences.
func (r spanReading) turnTo(pm sentParams, p, n float64) (dp, dn float64) {
	switch {
	case r.p > 0 && n > 0 && p == 0 && n >= r.p && r.hedged:
		return -r.p * (1 - pm.concede), 0
	case r.n > 0 && p > 0 && n == 0 && p >= r.n && r.cost:
		return 0, -r.n * (1 - pm.concedeCost)
	case r.p > 0 && r.n == 0 && p == 0 && n == 0:
		return 0, pm.inferred
	}
	return 0, 0
}

// adversativeOpener: the sentence opens with an adversative ("But …",
// "However, …", "That said, …", "Sin embargo, …", "Cependant, …").
func adversativeOpener(t string) bool {
	t = strings.TrimLeft(t, " \t*_#>-")
	w, next := wordAtAny(t, 0)
	if inSet(openerWords, w) {
		return true
	}
	w2, _ := wordAtAny(t, next)
	return strings.EqualFold(w, "still") && strings.HasPrefix(t[next:], ",") ||
		strings.EqualFold(w, "that") && strings.EqualFold(w2, "said") ||
		strings.EqualFold(w, "sin") && strings.EqualFold(w2, "embargo") ||
		strings.EqualFold(w, "dicho") && strings.EqualFold(w2, "esto")
}

// afterthought: the sentence turns by a closing "though" or "however"
// ("It won't make you fluent on its own, though: …").
func afterthought(t string) bool {
	for _, w := range [...]string{", though", ", however"} {
		if k := strings.Index(t, w); k >= 0 {
			rest := strings.TrimLeft(t[k+len(w):], " *_")
			return rest == "" || strings.IndexByte(".:;!", rest[0]) >= 0
		}
	}
	return false
}

// wordCount counts the words of t.
func wordCount(t string) int {
	k := 0
	for pos := 0; ; k++ {
		w, next := wordAtAny(t, pos)
		if w == "" {
			return k
		}
		pos = next
	}
}

var openerWords = set(`but however yet pero mais cependant toutefois pourtant néanmoins aber allerdings jedoch doch`)

// partTurn: the sentence [s,e) turns ("but", "though") to a clause that
// names neither the brand nor a pronoun for it — "Overall, Divvy works well
// for commuters, but many users feel the e-bike pricing isn't great value":
// a reservation about a part, not "…, but it's hard to call it good food".
func (an *analysis) partTurn(s, e int) bool {
	t, at := an.text[s:e], -1
	for pos := 0; ; {
		w, np := wordAtAny(t, pos)
		if w == "" {
			break
		}
		if inSet(turnWords, w) {
			at = np
		}
		pos = np
	}
	return at >= 0 && !hasWordIn(t[at:], brandPronouns) && !an.brandIn(s+at, e)
}

// turnsToRival: the clause scope [s,e) ends at an adversative whose
// clause names another tracked entity ("…, but Digi offers the same for
// less").
func (an *analysis) turnsToRival(s, e int) bool {
	text := an.text
	rest := strings.TrimLeft(text[e:min(len(text), e+8)], " ,")
	w, _ := wordAtAny(rest, 0)
	t := strings.TrimRight(text[s:e], " ,")
	lastWord := t[strings.LastIndexAny(t, " ,")+1:]
	if !inSet(openerWords, w) && !inSet(openerWords, lastWord) {
		return false
	}
	_, se, ok := sentenceAfter(text, s)
	if !ok || se <= e {
		return false
	}
	_, other := an.entitiesIn(e, se)
	return other
}

// sentScore is the rules' reading of the brand's sentiment, kept for the
// adjudicator: praise P, criticism N, a verdict against the brand, and the
// sentences that carry the strongest of each.
type sentScore struct {
	P, N                     float64
	verdict                  bool
	negEvidence, posEvidence string
	// caveat: a caveat announced in the brand's text ("the catch is …");
	// spanHedged, spanCost: the span valence reads holds a hedge or a
	// cost word (spanReading).
	caveat, spanHedged, spanCost bool
	// answer: the answer-level reading, to judge the adjudicated P and N
	// as the rules' own.
	answer answerReading
}

// doubt reports which of criticism (n) and praise (p) the rules leave in
// doubt: a signal weaker than sentClear, or a clear one under
// sentDoubtRatio of the other (near the mixed ratio, or outweighed into a
// one-sided reading). Praise beside a verdict against the brand is not in
// doubt: the verdict decides. On the tuning sets 48 of 555 answers are in
// doubt (TestSentimentAdjudicationCeiling).
func (s *sentScore) doubt() (n, p bool) {
	n = s.N > 0 && (s.N < sentClear || s.P >= sentClear && s.N < sentDoubtRatio*s.P)
	p = !s.verdict && s.P > 0 && (s.P < sentClear || s.N >= sentClear && s.P < sentDoubtRatio*s.N)
	return n, p
}

// settle applies an adjudicator's answer to the weight x beside the other
// polarity's: a yes makes it clear (at least sentClear and the mixed share
// of the other), a no removes it.
func (s *sentScore) settle(yes bool, x, other float64) float64 {
	if !yes {
		return 0
	}
	return max(x, sentClear, defaultSentParams.mixedRatio*other)
}

// recommendedFirst: the query asks for a recommendation ("best", "which",
// "alternative to") and the brand is named first, within the answer's
// first three sentences.
func (an *analysis) recommendedFirst(er *EntityResult) bool {
	if er.Rank != 1 || an.query == "" {
		return false
	}
	first, firstAt, firstEnd := -1, 0, 0
	for i := range an.sc.cands {
		if c := &an.sc.cands[i]; c.ent == 0 && counted(c) {
			first, firstAt, firstEnd = an.sc.sents[c.srec].idx, c.start, an.sc.sents[c.srec].end
			break
		}
	}
	if first < 0 || first > 2 || an.optionsAnnounced(firstAt, firstEnd) {
		return false
	}
	qw, _ := wordAtAny(an.query, 0)
	explanatory := inSet(explanatoryStarts, qw)
	inList := false
	for i := range an.sc.cands {
		if c := &an.sc.cands[i]; c.ent == 0 && counted(c) {
			inList = lineHead(an.text, c.start) || listLine(an.text, c.start)
			break
		}
	}
	for pos := 0; ; {
		w, next := wordAtAny(an.query, pos)
		if w == "" {
			return false
		}
		if inSet(recommendIntent, w) && !an.nameWord(w) {
			return true
		}
		if inSetStem(categoryNouns, w) && strings.Contains(an.query[next:], " for ") && !explanatory && !inList && !an.queryNames[0] {
			// "chat app for a gaming community": a product is asked for,
			// and the answer leads with the brand in prose, not in a list
			// of options
			return true
		}
		if an.d.sent.needAsked && !explanatory && !inList && !slices.Contains(an.queryNames, true) && !hasWordIn(an.query, topicNouns) {
			// "shared inbox for a support team", "open a kids savings
			// account": a need that names no product, answered by the brand
			// in prose first
			return true
		}
		pos = next
	}
}

// optionsAnnounced: the answer names a set of options without ranking
// them before the brand's first mention at pos — "Several airlines fly
// nonstop:", "these are the main options:" — or calls the brand one of
// them in its sentence, ending at end ("X is one of several brands with
// models under $300"): the brand that comes first is one of them, not the
// answer. A count after the brand counts something else ("three hours of
// history"); a ranking word ("the two biggest apps", "Popular options
// include") keeps the order a recommendation.
func (an *analysis) optionsAnnounced(pos, end int) bool {
	text := an.text
	if !hasWordIn(text[:pos], optionCounts) {
		i := strings.Index(text[pos:end], " of ")
		if i < 0 {
			return false
		}
		if w, _ := wordAtAny(text[:end], pos+i+len(" of ")); !inSet(optionCounts, w) {
			return false
		}
	}
	p, _ := an.peekValence(0, end)
	return p == 0
}

// optionCounts announce a set of options: "several", "three", "these".
var optionCounts = set(`several various few three four five six these`)

// topicNouns make a query a request for information, not a need:
// "history of smartphone market share", "streaming industry news".
var topicNouns = set(`history market share news statistics stats revenue founded founder ceo ipo stock trends industry
timeline origin lawsuit`)

var recommendIntent = set(`best top recommend recommended recommendation alternative alternatives which
good should ideal`)

// urgedTo: a counted brand mention follows one of verbs ("try", "skip"),
// or, for urgeVerbs, "go with", "start with", "look at".
func (an *analysis) urgedTo(verbs map[string]bool) bool {
	if qw, _ := wordAtAny(an.query, 0); strings.EqualFold(qw, "how") {
		return false // "how to cancel X": "choose X" is a step
	}
	return an.anyBrandMention(func(c *cand, rec *sentRec) bool {
		p := prevToken(an.text, rec.rawStart, c.start)
		if inSet(verbs, p.word) {
			return !hasWordIn(an.text[rec.start:rec.end], uiSteps) // "tap Subscriptions, and choose X"
		}
		if inSet(urgePreps, p.word) && inSet(verbs, "try") {
			if w := prevToken(an.text, rec.rawStart, c.start-len(p.word)-1); inSet(urgeGo, w.word) {
				return true
			}
		}
		return false
	})
}

// anyBrandMention: f holds for a counted brand mention.
func (an *analysis) anyBrandMention(f func(c *cand, rec *sentRec) bool) bool {
	for i := range an.sc.cands {
		if c := &an.sc.cands[i]; c.ent == 0 && counted(c) && f(c, &an.sc.sents[c.srec]) {
			return true
		}
	}
	return false
}

var (
	urgeVerbs = set(`try consider choose recommend`)
	// uiSteps make a sentence an instruction: its "choose" is a click.
	uiSteps = set(`tap click select open settings menu toggle`)
	// warnVerbs before the brand tell the reader to stay away.
	warnVerbs = set(`skip avoid ditch drop abandon`)
	urgePreps = set(`with at`)
	urgeGo    = set(`go start look`)
)

// brandPronouns open a sentence that goes on about the brand.
var brandPronouns = set(`it its it's it’s they their them`)

// brandIn: an accepted mention of the brand lies in [s,e).
func (an *analysis) brandIn(s, e int) bool {
	for i := range an.sc.cands {
		if c := &an.sc.cands[i]; c.ent == 0 && c.state == candAccepted && c.start >= s && c.end <= e {
			return true
		}
	}
	return false
}

// wordBeforeNumber returns the word before the number that ends just
// before pos: "covers" in "covers 5,000 errors".
func wordBeforeNumber(text string, s, pos int) string {
	i := strings.TrimRight(text[s:pos], " ")
	i = strings.TrimRight(i, "0123456789,.")
	i = strings.TrimRight(i, " ")
	k := strings.LastIndexAny(i, " \n([")
	return i[k+1:]
}

// businessAhead: "business", "market" or "category" within the three
// words after pos ("quit the smartwatch business").
func businessAhead(text string, pos, e int) bool { return wordAhead(text, pos, e, businessNouns) }

// consLabels head a line of criticisms.
var consLabels = set(`cons downsides drawbacks weaknesses contras nachteile inconvénients`)

// consItems counts the items of a line labelled "Cons:" (or "Downsides:",
// …), separated by semicolons or commas; 0 for any other line.
func consItems(line string) int {
	l := strings.TrimLeft(line, " -*•#>|0123456789.")
	colon := strings.IndexAny(l, ":")
	if colon < 0 || colon > 16 {
		return 0
	}
	if !inSet(consLabels, strings.Trim(l[:colon], " *_")) {
		return 0
	}
	rest := strings.Trim(l[colon+1:], " *_")
	if rest == "" {
		return 0
	}
	return 1 + strings.Count(rest, ";") + strings.Count(rest, ",")
}

// numeral: w is written in digits ("5,000", "300").
func numeral(w string) bool {
	return w != "" && strings.Trim(w, "0123456789,.") == ""
}

// clauseBeforeOther returns where the clause holding the first accepted
// mention in [s,e) starts: the last clause boundary (contrast word,
// semicolon, colon, comma, dash) or comparison ("compared with", "than",
// "like") before it, or s.
func (an *analysis) clauseBeforeOther(s, e int) int {
	text, cands := an.text, an.sc.cands
	i, _ := slices.BinarySearchFunc(cands, s, func(c cand, t int) int { return c.start - t })
	for ; i < len(cands) && cands[i].start < e && cands[i].state != candAccepted; i++ {
	}
	if i == len(cands) || cands[i].start >= e {
		return e
	}
	cut := s
	for pos := s; pos < cands[i].start; {
		w, np := wordAtAny(text[:cands[i].start], pos)
		if w == "" {
			break
		}
		between := text[pos : np-len(w)]
		if strings.ContainsAny(between, ";:,") || strings.Contains(between, "—") || strings.Contains(between, "–") {
			cut = pos
		}
		if inSet(contrastWords, w) || inSet(comparisonMarkers, w) || strings.EqualFold(w, "as") {
			cut = np - len(w) // "… twice as much as a comparable Shark"
		}
		pos = np
	}
	return cut
}

// clausesAfterComparedRival: the sentence [s,e) opens with a pronoun for
// the brand and names a rival only as the object of a comparison ("next
// to X", "than X", "as much as a comparable X"); it returns where the
// clauses after the rival's start (after its comma or semicolon), when no
// other entity is named there.
func (an *analysis) clausesAfterComparedRival(s, e int) (int, bool) {
	text := an.text
	if w, _ := wordAtAny(text[:e], s); !inSet(brandPronouns, w) {
		return 0, false
	}
	cands := an.sc.cands
	i, _ := slices.BinarySearchFunc(cands, s, func(c cand, t int) int { return c.start - t })
	for ; i < len(cands) && cands[i].start < e && cands[i].state != candAccepted; i++ {
	}
	if i == len(cands) || cands[i].start >= e || cands[i].ent == 0 {
		return 0, false
	}
	c := &cands[i]
	compared := false
	at := c.start
	for k := 0; k < 3 && !compared; k++ { // "as a comparable Shark", "than Zoom's"
		p := prevToken(text, s, at)
		if p.word == "" {
			break
		}
		compared = inSet(comparisonMarkers, p.word) || inSet(comparedPreps, p.word)
		at -= len(p.word) + 1
		if at <= s {
			break
		}
	}
	if !compared {
		return 0, false
	}
	k := strings.IndexAny(text[c.end:e], ",;")
	if k < 0 {
		return 0, false
	}
	rs := c.end + k + 1
	if an.hasCandIn(rs, e) {
		return 0, false
	}
	return rs, e-rs > 1
}

// comparedPreps before a rival make it a comparison's object: "as a
// comparable Shark", "next to TrainerRoad", "compared with Zoom".
var comparedPreps = set(`as to with`)

var comparisonMarkers = set(`compared than like versus vs relative behind below next beside`)

// bareAnswer: when the query asks about the brand, a first sentence of at
// most four words that only says yes or no ("No.", "I wouldn't.", "Not
// really.", "Yes, absolutely.") is the answer's verdict on it.
func (an *analysis) bareAnswer() Sentiment {
	if !an.queryNames[0] || !an.judgementAsked() {
		return Neutral
	}
	// The first sentence up to its terminator: "No." is a sentence here,
	// not the abbreviation of "No. 5".
	e := strings.IndexAny(an.text[:min(len(an.text), maxBareBytes)], ".!?\n")
	if e < 0 {
		return Neutral
	}
	if onlyIfOpeners.opens(an.text[:e]) {
		return Negative
	}
	words, yes, no := 0, false, false
	for pos := 0; ; {
		w, np := wordAtAny(an.text[:e], pos)
		if w == "" {
			break
		}
		words++
		switch {
		case inSet(bareNo, w) || lexLookup(w)&lexNegator != 0:
			no = true
		case inSet(bareYes, w):
			yes = true
		case !inSet(bareFiller, w):
			return Neutral
		}
		pos = np
	}
	switch {
	case words == 0 || words > 4:
		return Neutral
	case no:
		return Negative
	case yes:
		return Positive
	}
	return Neutral
}

// judgementAsked: the query asks for a judgement ("is X worth it",
// "should I still use X", "is X any good", "is X reliable"), not a fact
// ("is X vegan", "does X support SSO"): only then is a bare "Yes." praise.
func (an *analysis) judgementAsked() bool {
	for pos := 0; ; {
		w, next := wordAtAny(an.query, pos)
		if w == "" {
			return false
		}
		if (inSet(judgementWords, w) || lexLookup(w)&(lexPositive|lexNegative) != 0) && !an.nameWord(w) {
			return true
		}
		pos = next
	}
}

// nameWord: w is a word of the name of a tracked entity the query names —
// "best" in "best western pet policy" names the hotel chain, it asks no
// judgement; a tracked "Best Buy" the query does not name leaves "best
// laptop" a question of judgement.
func (an *analysis) nameWord(w string) bool {
	for i, ent := range an.d.ents {
		if i >= len(an.queryNames) || !an.queryNames[i] {
			continue
		}
		for pos := 0; ; {
			nw, next := wordAtAny(ent.name, pos)
			if nw == "" {
				break
			}
			if strings.EqualFold(nw, w) {
				return true
			}
			pos = next
		}
	}
	return false
}

var judgementWords = set(`worth should good bad any legit legitimate trustworthy scam safe still recommend ok okay
decent reliable overrated underrated vale merece bueno buena vaut bien lohnt gut`)

// maxBareBytes bounds the first sentence read as a bare answer.
const (
	maxBareBytes = 64
	// maxRemedyWords: a fix word this close after a criticism remedies it.
	maxRemedyWords = 12
)

var (
	bareNo     = set(`no nope nah`)
	bareYes    = set(`yes yeah yep absolutely definitely certainly`)
	bareFiller = set(`i i'd i’d would really probably honestly not anymore today generally mostly short answer`)
)

// rivalPreferred: the brand's sentence, or the next one in its paragraph,
// says without condition that another tracked entity is the better choice
// — "Y is the better pick", "Y is a safer bet", "Y is better for most
// teams" after the other's mention. Trade-offs ("Y is stronger for
// meetings") and conditions ("if you need X, Y is the better fit") are no
// such verdict.
func (an *analysis) rivalPreferred() (s, e int, ok bool) {
	text := an.text
	if !an.otherAccepted(0) {
		return 0, 0, false // no rival is named
	}
	check := func(s, e int) bool {
		cands := an.sc.cands
		return an.rivalIn(s, e, func(i int) bool {
			c := &cands[i]
			// after the rival, before any brand mention: "is the better pick"
			lim := e
			for k := i + 1; k < len(cands) && cands[k].start < e; k++ {
				if cands[k].ent == 0 && counted(&cands[k]) {
					lim = cands[k].start
					break
				}
			}
			prev, prev2 := "", ""
			for pos := c.end; pos < lim; {
				w, np := wordAtAny(text[:lim], pos)
				if w == "" {
					break
				}
				if inSet(fitNouns, w) && (inSet(preferredComparatives, prev) || inSet(preferredComparatives, prev2)) ||
					strings.EqualFold(w, "most") && strings.EqualFold(prev, "for") && inSet(preferredComparatives, prev2) {
					return !hasWordIn(text[s:e], conditionWords)
				}
				prev, prev2, pos = w, prev, np
			}
			return false
		})
	}
	return an.brandParagraphs(check)
}

// rivalIn: f holds for a counted mention of another entity in [s,e),
// given by its index in the candidates.
func (an *analysis) rivalIn(s, e int, f func(i int) bool) bool {
	cands := an.sc.cands
	i, _ := slices.BinarySearchFunc(cands, s, func(c cand, t int) int { return c.start - t })
	for ; i < len(cands) && cands[i].start < e; i++ {
		if c := &cands[i]; c.ent != 0 && counted(c) && f(i) {
			return true
		}
	}
	return false
}

// brandParagraphs returns the first sentence naming the brand, or after
// one in its paragraph (paragraphAfter), for which check holds.
func (an *analysis) brandParagraphs(check func(s, e int) bool) (s, e int, ok bool) {
	seen := -1
	for i := range an.sc.cands {
		c := &an.sc.cands[i]
		if c.ent != 0 || !counted(c) || c.srec == seen {
			continue
		}
		seen = c.srec
		rec := &an.sc.sents[c.srec]
		if check(rec.start, rec.end) {
			return rec.start, rec.end, true
		}
		if s, e, ok := an.paragraphAfter(rec, check); ok {
			return s, e, true
		}
	}
	return 0, 0, false
}

// paragraphAfter returns the first of the sentences after rec in its
// paragraph (at most maxFollowSentences, up to another brand mention) for
// which f holds: what a paragraph goes on to say about the brand ("That
// said, it's pricier … For most small sites, Cloudflare is the better
// option").
func (an *analysis) paragraphAfter(rec *sentRec, f func(s, e int) bool) (int, int, bool) {
	text := an.text
	end := rec.end
	for k := 0; k < maxFollowSentences; k++ {
		s, e, ok := sentenceAfter(text, end)
		if !ok || strings.IndexByte(text[end:s], '\n') >= 0 {
			break
		}
		if brand, _ := an.entitiesIn(s, e); brand {
			break
		}
		if f(s, e) {
			return s, e, true
		}
		end = e
	}
	return 0, 0, false
}

// alternativeUrged: the brand's sentence, or one after it in its
// paragraph, sends the reader to a tracked rival without condition — the
// rival followed by "instead" ("reviewers suggest Monarch instead"; strong:
// a verdict), or reached by a verb of moving ("users often move to Make",
// "teams switch to Linear").
func (an *analysis) alternativeUrged() (s, e int, strong, ok bool) {
	text := an.text
	if !an.otherAccepted(0) {
		return 0, 0, false, false
	}
	check := func(s, e int) bool {
		return an.rivalIn(s, e, func(i int) bool {
			c := &an.sc.cands[i]
			// "move to Make", "switching over to Linear"
			p := prevToken(text, s, c.start)
			if strings.EqualFold(p.word, "to") {
				q := prevToken(text, s, max(s, c.start-len(p.word)-1))
				if strings.EqualFold(q.word, "over") {
					q = prevToken(text, s, max(s, c.start-len(p.word)-len(q.word)-2))
				}
				if inSet(moveVerbs, q.word) {
					return !hasWordIn(text[s:e], conditionWords)
				}
			}
			// "suggest Monarch or YNAB instead": "instead" within the
			// words after the rival, before any brand mention
			pos := c.end
			for k := 0; k < 5; k++ {
				w, np := wordAtAny(text[:e], pos)
				if w == "" || an.brandIn(pos, np) {
					break
				}
				if inSet(insteadWords, w) && !strings.EqualFold(peekWord(text, np, e), "of") {
					strong = true
					return !hasWordIn(text[s:e], conditionWords)
				}
				pos = np
			}
			return false
		})
	}
	s, e, ok = an.brandParagraphs(check)
	return s, e, strong, ok
}

var (
	preferredComparatives = set(`better safer smarter stronger wiser cheaper simpler easier preferable`)
	// conditionWords restrict a preference to a case: "if you need SSO",
	// "Slack is the safer choice there" (in the case just named).
	conditionWords = set(`if unless when whereas there`)
)

// defectedFrom: a counted brand mention follows a verb of leaving it —
// "moving off X", "migrating away from X", "switched from X", "leaving X".
func (an *analysis) defectedFrom() bool {
	return an.anyBrandMention(func(c *cand, rec *sentRec) bool {
		p := prevToken(an.text, rec.rawStart, c.start)
		if inSet(leaveVerbs, p.word) {
			return true
		}
		if !inSet(leavePreps, p.word) {
			return false
		}
		at := c.start - len(p.word)
		for k := 0; k < 2 && at > rec.rawStart; k++ { // "moving away from", "switched from"
			q := prevToken(an.text, rec.rawStart, max(rec.rawStart, at-1))
			if inSet(moveVerbs, q.word) {
				return true
			}
			if !strings.EqualFold(q.word, "away") {
				return false
			}
			at -= len(q.word) + 1
		}
		return false
	})
}

var (
	leaveVerbs = set(`leave leaves quit quitting leaving left abandoning abandoned ditching ditched dropping dropped replacing replaced`)
	leavePreps = set(`off from`)
	moveVerbs  = set(`moving moved move migrating migrated migrate switching switched switch transitioning
transitioned churning churned`)
)

// brandIsTopic: the query names the brand and the answer opens on it (the
// brand is the first entity it names, wherever that is: a table's header
// may come first), or no competitor is named more often than the brand — the answer is about
// the brand, so sentences that name nothing speak of it ("Tempo Studio is
// a good choice …" over lists of what's good and what's not, however often
// the closing comparison names Tonal).
func (an *analysis) brandIsTopic() bool {
	if len(an.queryNames) == 0 || !an.queryNames[0] {
		return false
	}
	sc := an.sc
	n := len(an.d.ents)
	counts := make([]int, n)
	first := -1
	for i := range sc.cands {
		if c := &sc.cands[i]; counted(c) {
			counts[c.ent]++
			if first < 0 {
				first = i
			}
		}
	}
	if first >= 0 && sc.cands[first].ent == 0 && sc.cands[first].srec == 0 {
		return true
	}
	return slices.Max(counts) == counts[0]
}

// topicSpans adds the sentences of an answer about the brand that name no
// tracked entity and do not follow a sentence or section about another
// entity (a blank line ends what a sentence governs; a heading or a list
// head naming an entity opens its section).
func (an *analysis) topicSpans(spans [][2]int) [][2]int {
	text := an.text
	owner, lastOther := true, false // owner: the section belongs to the brand
	lastOtherItem := false          // lastOther was set by a list item
	for s, e, ok := sentenceAfter(text, 0); ok; s, e, ok = sentenceAfter(text, e) {
		if strings.Contains(text[max(0, s-2):s], "\n\n") || s >= 2 && text[s-1] == '\n' && text[s-2] == '\n' {
			lastOther = false
		}
		brand, other := an.entitiesIn(s, e)
		item := listItem(text, s)
		lh := lineHead(text, s)
		head := strings.HasPrefix(text[s:e], "#") || lh
		lb, lo := brand, other // what the heading names
		if lh && (brand || other) {
			// lists.go: a rival named in passing in an item ("- not as fine
			// as on a Philips") or after a bold lead that names the brand
			// ("**Monos** … recuerda a Rimowa") opens no section
			if l1, l2 := an.itemLeadNames(s, e); l1 || l2 {
				lb, lo = l1, l2
			} else {
				head = !item
			}
		}
		if item {
			// nor does such an item hold the next item
			if lastOtherItem {
				lastOther = false
			}
			lastOtherItem = other && !brand
		} else {
			lastOtherItem = false
		}
		switch {
		case other && !brand && !head && owner && !lastOther && an.onlyCompared(s, e, comparisonMarkers):
			// "Where it falls behind the Garmin Edge 840:", "The price is
			// steep compared to Spark": a rival named only as compared
			// leaves the sentence the brand's, as in its paragraph
			spans = append(spans, [2]int{s, e})
		case brand || other:
			if head {
				owner = lb && !lo
			}
			lastOther = other && !brand
		case owner && !lastOther:
			spans = append(spans, [2]int{s, e})
		}
	}
	return spans
}

// lineHead: the sentence at s starts a list item or a bold lead.
func lineHead(text string, s int) bool {
	q := text[s:min(len(text), s+8)]
	return listMarkerLen(q) > 0 || strings.HasPrefix(q, "**")
}

// entitiesIn reports whether counted mentions of the brand and of other
// entities lie in [s,e).
func (an *analysis) entitiesIn(s, e int) (brand, other bool) {
	cands := an.sc.cands
	i, _ := slices.BinarySearchFunc(cands, s, func(c cand, t int) int { return c.start - t })
	for ; i < len(cands) && cands[i].start < e; i++ {
		if c := &cands[i]; counted(c) {
			if c.ent == 0 {
				brand = true
			} else {
				other = true
			}
		}
	}
	return brand, other
}

// decide reads praise p and criticism n: neutral under sentNeutral both,
// mixed when both are clear and the smaller is at least mixedRatio of the
// larger (or clear criticism is outweighed by praise), else the larger.
func (pm sentParams) decide(p, n float64) Sentiment {
	switch {
	case p < sentNeutral && n < sentNeutral:
		return Neutral
	case p >= sentClear && n >= sentClear && min(p, n) >= pm.mixedRatio*max(p, n),
		n >= sentClearCriticism && p > n:
		return Mixed
	case p > n:
		return Positive
	case n > p:
		return Negative
	}
	return Mixed
}

func question(s string) bool {
	// strings.TrimRight(s, " *_)\"”") ending in "?", without decoding
	// runes: the spans and every sentence of the answer are asked.
	for i := len(s); i > 0; {
		switch c := s[i-1]; {
		case c == ' ' || c == '*' || c == '_' || c == ')' || c == '"':
			i--
		case c == "”"[2] && strings.HasSuffix(s[:i], "”"):
			i -= len("”")
		default:
			return c == '?'
		}
	}
	return false
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
	rec, clauses := an.clausesOf(i)
	lo, hi, ok := an.scope(i)
	if !ok {
		return 0, 0, false
	}
	end := rec.end
	if hi+1 < len(clauses) {
		end = int(clauses[hi+1].start)
		// "…, but for teams it falls short and lags behind Notion": a rival
		// named as the object of a comparison leaves the clause to the
		// brand, up to the comparison.
		if n := sc.nextOther[i]; n >= 0 {
			if cut := an.comparisonCut(int(clauses[hi+1].start), sc.cands[n].start); cut > end {
				end = cut
			}
		}
	}
	return int(clauses[lo].start), end, true
}

// comparisonCut returns where a comparison marker ("than", "behind",
// "compared with", "like") starts within the three words before the
// rival mention at other, when the clause from s leads to it; 0 when the
// rival is not the object of a comparison.
func (an *analysis) comparisonCut(s, other int) int {
	text := an.text
	cut, after := 0, 0 // the last marker, and the words after it
	prevW := ""
	for pos := s; pos < other; {
		w, np := wordAtAny(text[:other], pos)
		if w == "" {
			break
		}
		before := prevW
		prevW = w
		if inSet(behindWords, w) && inSet(lagBefore, before) {
			// "feels years behind Fidelity's": the lag is the brand's
			cut, after = np, 0
		} else if inSet(comparisonMarkers, w) || inSet(behindWords, w) {
			cut, after = np-len(w), 0
		} else {
			after++
		}
		pos = np
	}
	if cut > 0 && after <= 3 {
		return cut
	}
	return 0
}

var behindWords = set(`behind below beneath`)

// sectionEnd: where the section headed by c ends — the next heading, the
// next list item at the head's indent or shallower, a line headed by
// another tracked mention, or maxSectionBytes.
func (an *analysis) sectionEnd(c *cand, rec *sentRec) int {
	text := an.text
	ls := strings.LastIndexByte(text[:c.start], '\n') + 1
	indent := len(text[ls:c.start]) - len(trimLeftSpace(text[ls:c.start]))
	head := trimLeftSpace(text[ls:c.start])
	heading := strings.HasPrefix(head, "#")
	// a line that is no heading nor list item — a bold lead ("**Made In**",
	// "**Streaks** — …"), a paragraph or table row opening on the name —
	// heads the list under it: its items end only at the next such line
	lead := !heading && listMarkerLen(head) == 0
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
		case !heading && !lead && listMarkerLen(q) > 0 && len(line)-len(q) <= indent:
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

// valenceBeside scores text[s:e] leaving out its statements of
// ignorance ("I don't have reliable details on X's kiosk" says nothing
// about X): the stretches between them are scored apart.
func (an *analysis) valenceBeside(s, e int) (p, n float64, verdict bool) {
	ig := an.ignoranceSpans(s, e, an.sc.igSpans[:0])
	an.sc.igSpans = ig
	slices.SortFunc(ig, func(a, b [2]int) int { return a[0] - b[0] })
	from := s
	for _, sp := range ig {
		if an.deniedKnown(sp[0], sp[1]) {
			continue
		}
		if sp[0] > from {
			a, b, v := an.valence(from, sp[0])
			p, n, verdict = p+a, n+b, verdict || v
		}
		from = max(from, sp[1])
	}
	if from < e {
		a, b, v := an.valence(from, e)
		p, n, verdict = p+a, n+b, verdict || v
	}
	return p, n, verdict
}

// reasonToEndorse: after "hard to" at pos, a reason to endorse the brand
// is what is hard to find — "hard to find a reason to choose it", "hard
// to see why anyone would pick it".
func reasonToEndorse(text string, pos, e int) bool {
	_, np := wordAtAny(text[:e], pos) // "to"
	w, np := wordAtAny(text[:e], np)
	if !inSet(seekVerbs, w) {
		return false
	}
	for k := 0; k < 6; k++ {
		if w, np = wordAtAny(text[:e], np); w == "" || strings.ContainsAny(w, ",;:") {
			return false
		}
		if inSet(endorseVerbs, w) {
			return true
		}
	}
	return false
}

// alternativesAsked: the query asks for alternatives, so naming them is
// the answer, not advice to leave the brand.
func (an *analysis) alternativesAsked() bool {
	return hasWordIn(an.query, alternativeNouns) || hasWordIn(an.query, comparisonMarkers)
}

var alternativeNouns = set(`alternative alternatives alternativas alternativa alternatives alternativen`)

var seekVerbs = set(`find see think name make`)

// stepDirections after "step" judge a change: "a step up", "a step back".
var stepDirections = map[string]uint8{"up": lexPositive, "forward": lexPositive, "down": lexNegative,
	"back": lexNegative, "backward": lexNegative, "backwards": lexNegative}

// deniedKnown: the ignorance statement text[s:e] is "no known" before a
// noun that is no knowledge ("no known breach", "no reported outages"):
// a denial of the criticism it qualifies, read with it.
func (an *analysis) deniedKnown(s, e int) bool {
	t := strings.TrimSpace(an.text[s:e])
	known := len(t) >= 6 && strings.EqualFold(t[len(t)-6:], " known")
	if !known && !(len(t) >= 9 && strings.EqualFold(t[len(t)-9:], " reported")) {
		return false
	}
	w, _ := wordAtAny(an.text[:min(len(an.text), e+maxTokenBytes)], e)
	return w != "" && !inSet(knowledgeNouns, w) && lexLookup(w)&lexNegative != 0
}

// forValue: "for the price", "for the money", "for what you pay" follows
// pos — the praise before it judges the value.
func (an *analysis) forValue(pos, e int) bool {
	w, np := wordAtAny(an.text[:e], pos)
	if !strings.EqualFold(w, "for") {
		return false
	}
	for k := 0; k < 2; k++ {
		w, np = wordAtAny(an.text[:e], np)
		if inSet(valueNouns, w) {
			return true
		}
	}
	return false
}

var valueNouns = set(`price money cost what`)

// lackExplained: the clause of the capability lacked, ending before e,
// goes on with ", so" to what the user does, advised or done for them
// ("it's best to call the hotel", "router setup is done manually"), and no
// criticism reads there: the lack explains a step of a how-to or a policy.
// A consequence that happens to the user ("so light sleepers still wake
// up", "so it's a poor fit") stays a fault.
func lackExplained(text string, pos, e int, lookup func(string) uint8) bool {
	end := pos + strings.IndexAny(text[pos:e]+";", ";:")
	k := strings.Index(text[pos:end], ", so ")
	if k < 0 {
		return false
	}
	step, prev := false, ""
	for q := pos + k + len(", so "); q < end; {
		w, np := wordAtAny(text[:end], q)
		if w == "" {
			break
		}
		if lookup(w)&(lexNegative|lexNegator) != 0 {
			return false
		}
		// advice ("it's best to", "you can") or a passive ("is done")
		step = step || inSet(stepCues, w) || inSet(copulaWords, prev) && (w == "done" || strings.HasSuffix(w, "ed"))
		prev, q = w, np
	}
	return step
}

// stepCues in a consequence make it what the user does: "so it's best to
// call", "so you set it up by hand".
var stepCues = set(`best you your`)

// planLimit: "limited" at pos states a plan's limit — a plan named
// before it ("the free plan is limited") or after it ("limited on
// Starter", "limited in the Basic tier").
func (an *analysis) planLimit(before, before2 string, pos, e int) bool {
	if inSet(planNouns, before) || inSet(planNouns, before2) {
		return true
	}
	text := an.text
	if ls := strings.LastIndexByte(text[:pos], '\n') + 1; strings.HasPrefix(text[ls:pos], "|") {
		// a table row labelled by a plan: "| Free plan | Limited likes |"
		if k := strings.IndexByte(text[ls+1:pos], '|'); k >= 0 && hasWordIn(text[ls+1:ls+1+k], planNouns) {
			return true
		}
	}
	w, np := wordAtAny(text[:e], pos)
	if !inSet(planPreps, w) {
		return false
	}
	for k := 0; k < 3; k++ {
		w, np = wordAtAny(text[:e], np)
		switch {
		case w == "":
			return false
		case inSet(planNouns, w) || inSet(tierNames, w):
			return true
		case !inSet(articles, w):
			return false
		}
	}
	return false
}

// countNouns after "a limited" make it a quantifier ("a limited number of
// deals", "a limited set of cities"): what a plan or a service covers,
// described; the writer judges it with more ("too limited", "frustratingly
// limited").
var countNouns = set(`number set`)

var (
	planNouns = set(`plan plans tier tiers trial edition editions subscription level`)
	planPreps = set(`on in for with`)
	// tierNames name a pricing tier: "limited on Starter".
	tierNames = set(`free starter basic standard plus pro premium business team teams growth essentials lite personal
individual`)
)

// knowledgeNouns after "no known" keep it a statement of ignorance: "no
// known details".
var knowledgeNouns = set(`information info details data facts record records reviews`)

// peekValence reads the span's praise and criticism for a rule that only
// asks, leaving the brand's running score (caveat, hedge and cost flags
// that valence sets) as it was.
func (an *analysis) peekValence(s, e int) (p, n float64) {
	saved := an.sent
	p, n, _ = an.valence(s, e)
	an.sent = saved
	return p, n
}

// valence scores the polar words of text[s:e] outside accepted mentions:
// praise p and criticism n, both ≥ 0, and whether the criticism holds a
// verdict on the whole product ("I wouldn't choose it", "not the right
// tool", "a poor fit", "hard to justify").
func (an *analysis) valence(s, e int) (p, n float64, verdict bool) {
	text, cands := an.text, an.sc.cands
	j, _ := slices.BinarySearchFunc(cands, s, func(c cand, t int) int { return c.end - t })
	neg, mult := 0, 1.0
	multLeft := 0
	pendingNeg := false
	selfLeft := 0 // words left in a first-person frame ("I wouldn't choose it")
	costLeft := 0 // words left after a cost noun ("fees are high")
	since := false
	want := false                    // in "if you need fast offline access": a requirement, not praise
	lastNeg, wordsSinceNeg := 0.0, 0 // the last criticism, for "outages are rare"
	deferred := 0.0                  // "hard to …": negative unless it negates praise ("hard to recommend")
	prev, prev2 := "", ""
	lookup := an.lookupFunc()
	vader := an.d.sent.vaderMin > 0 && !an.nonEnglish()
	predLeft := 0 // words left in a predicate ("is sluggish, clunky and dated")
	// suggested: the clause advises ("suggest", "recommend", "use");
	// brandNamed: it names the brand; conditioned: the sentence sets a
	// condition ("when a tour is cancelled, …")
	suggested, brandNamed, conditioned := false, false, false
	// contrast: 1 after a concessive word ("although", "while") until its
	// comma, 2 from an adversative word ("but", "however") or that comma to
	// the end of the sentence — the clause that carries the writer's point
	// weighs sentContrast.
	contrast := 0
	clauseP, clauseN := 0.0, 0.0 // praise and criticism since the sentence's start
	instead := false             // the sentence recommends an alternative ("… instead")
	reduceLeft := 0              // words left after "cuts", "reduces", "fewer"
	reduceObj := false           // the reducer's object has begun ("fewer payment options, weak …")
	fixLeft := 0                 // words left after "fixed", "patched": the fault they name is undone
	pastLeft := 0                // words left after "was once", "used to be", "can look": praise of the past or of appearance
	hypo := false                // in an "if" clause: "if your order arrives damaged, …" is a hypothesis
	// rivalSubj: the clause opens with a rival, its subject; rivalLast:
	// the last token was a rival's mention; clauseWords: words since the
	// clause opened
	rivalSubj, rivalLast, clauseWords := false, false, 0
	// rivalBefore: the clause before this one had a rival subject ("…,
	// but they cost five times as much"), also when a mention's scope
	// starts after it
	rivalBefore := an.rivalClauseBefore(s)
	advise := false  // a German "raten" waits for its "ab"
	lossNeg := false // the negation is a loss word's ("lacks email sync"): counted already
	flush := func() {
		n += deferred
		deferred = 0
	}
	// The sentence's turn at an adversative ("but", "yet", "pero"): what
	// it read before and after (contrastTurn.settle).
	var turn contrastTurn
	afterBrand := false
	lessNeg := false // the negation is "less": "less buggy" is an improvement
	turn.reset(p, n)
	sentWords, gerundSubj := 0, false // the sentence's words; it opens with a gerund ("Booking directly …")
	costSeen := false                 // the sentence named a cost: "It costs $10 …, which adds up"
	offerSubj := false                // the sentence opens with a plan or billing option
	endSentence := func() {
		sentWords, gerundSubj, costSeen, offerSubj = 0, false, false, false
		flush()
		p, n = turn.settle(an.d.sent, p, n)
		turn.reset(p, n)
	}
	// plain counts a word that is no polar word against the reach of a
	// negation (unless keepNeg) and of an intensifier.
	plain := func(keepNeg bool) {
		if neg > 0 && !keepNeg {
			if neg--; neg == 0 {
				flush()
			}
		}
		if multLeft > 0 {
			if multLeft--; multLeft == 0 {
				mult = 1
			}
		}
	}
	for pos := s; pos < e; {
		if c := text[pos]; c < utf8.RuneSelf && !asciiWord[c] {
			if c == ';' || c == '.' || c == ':' || c == '!' || c == '?' {
				clauseP, clauseN = 0, 0
				instead, advise = false, false
				predLeft = 0
				suggested, brandNamed = false, false
				if c != ';' && c != ':' {
					conditioned = false
				}
			}
			if c == ',' && reduceObj {
				reduceLeft = 0
			}
			if c == ',' || c == ';' || c == '.' || c == ':' || c == '!' || c == '?' {
				neg, pendingNeg, want, fixLeft, hypo = 0, false, false, 0, false
				flush()
				// a rival's clause ends, unless a relative clause about the
				// rival follows ("Unlike Corvid, whose refunds drag on, …")
				rivalBefore = rivalSubj && (c == ',' || c == ';')
				rivalSubj = rivalSubj && c == ',' && rivalLast && inSet(relativeWords, peekWord(text, pos+1, e))
				clauseWords = 0
			}
			switch {
			case c == ',' && contrast == 1:
				contrast = 2
			case c == '.' || c == '!' || c == '?' || c == '\n':
				contrast = 0
				if c != '.' || pos+1 >= e || text[pos+1] == ' ' || text[pos+1] == '\n' || text[pos+1] == '*' {
					endSentence() // not "$19.99", "e.g."
				}
			}
		}
		st := pos
		var isWord bool
		if pos, isWord = stepWord(text, pos, e); !isWord {
			continue
		}
		for j < len(cands) && cands[j].end <= st {
			j++
		}
		if j < len(cands) && cands[j].start < pos && cands[j].state == candAccepted {
			// a rival that opens a clause is its subject: the clause's
			// praise and criticism are the rival's ("Corvid is overpriced
			// and Halden is unreliable, while Norvale just works")
			// — also when the clause opens with the rivals' kind ("Boutique
			// brands like Corvid and Halden have …")
			rivalSubj = cands[j].ent != 0 && (clauseWords == 0 || rivalSubj ||
				clauseWords <= 3 && (strings.EqualFold(prev, "like") || strings.EqualFold(prev, "as") && strings.EqualFold(prev2, "such")))
			rivalBefore = false
			rivalLast, clauseWords = cands[j].ent != 0, clauseWords+1
			prev, prev2 = "", ""
			brandNamed = brandNamed || cands[j].ent == 0
			turn.named(cands[j].ent == 0)
			afterBrand = cands[j].ent == 0
			continue // part of a mention ("Best Buy")
		}
		w := text[st:pos]
		rivalLast = false
		if clauseWords++; inSet(clauseOpeners, w) {
			clauseWords = 0
			rivalSubj = rivalSubj && (strings.EqualFold(w, "and") || strings.EqualFold(w, "or"))
		} else if rivalBefore {
			// "…, but they cost five times as much": the rivals go on
			rivalSubj, rivalBefore = rivalSubj || clauseWords == 1 && strings.EqualFold(w, "they"), false
		}
		byBrand := afterBrand // the word follows a mention of the brand
		afterBrand = false
		if sentWords++; sentWords == 1 && len(w) > 5 && strings.EqualFold(w[len(w)-3:], "ing") {
			gerundSubj = true
		}
		if sentWords <= 3 && inSet(offerNouns, w) {
			offerSubj = true // "Monthly billing costs more": one offer against another
		}
		before, before2 := prev, prev2
		prev, prev2 = w, prev
		f := lookup(w)
		if r := roleOf(w); r != 0 || f&lexSoftener != 0 {
			turn.word(r, f)
			an.sent.spanHedged = an.sent.spanHedged || r&roleHedge != 0 || f&lexSoftener != 0
			an.sent.spanCost = an.sent.spanCost || r&roleCost != 0
			an.sent.caveat = an.sent.caveat || r&roleCaveat != 0 && inSet(caveatDeterminers, before)
		}
		if turn.turned {
			turn.wordsAfter++
		}
		if an.d.sent.ablate && f&(lexPositive|lexNegative) != 0 && vaderValence(w) != 0 {
			f &^= lexPositive | lexNegative | lexStrong
		}
		if vader && f == 0 && !sentimentRole(w) {
			// after a negator the slot is evaluative too: "far less boring"
			f = an.d.sent.vaderFlags(w, predLeft > 0 || neg > 0 || pendingNeg)
		}
		if f&lexPositive != 0 && byBrand && inSet(adviceVerbs, w) {
			f = 0 // "Corvid recommends washing it monthly": the brand's own instructions
		}
		fact := false // criticism stated as a fact (factCriticism): no reducer turns it into praise
		if f&(lexPositive|lexNegative) != 0 && plainAdjective(text, w, before, pos, e) {
			f = 0 // "surprise fees", "a negative balance", "it's best to cancel"
		}
		if strings.EqualFold(w, "if") {
			hypo = true
		} else if hypo && f&lexNegative != 0 && lexLookup(w)&lexStrong == 0 {
			f = 0 // a fault supposed, not reported: "if a parcel arrives damaged, they replace it"
		}
		if pastLeft > 0 {
			if pastLeft--; f&lexPositive != 0 {
				f = 0 // "was once the go-to", "used to be great": praise of the past
			}
		}
		if inSet(pastMarkers, w) && (inSet(pastCopulas, before) || strings.EqualFold(w, "be") && strings.EqualFold(before, "to") && inSet(usedWords, before2)) ||
			inSet(appearVerbs, w) && inSet(modalWords, before) {
			pastLeft = 3 // "was once the go-to", "used to be great", "can look unbeatable"
		}
		if f&lexPositive != 0 && strings.EqualFold(w, "good") && (inSet(reasonNouns, peekWord(text, pos, e)) || newsEnds(text, pos, e)) {
			f = 0 // "good reasons to be cautious", "that's where the good news ends"
		}
		if strings.EqualFold(w, "paper") && strings.EqualFold(before, "on") || strings.EqualFold(w, "theory") && strings.EqualFold(before, "in") {
			// "looks good on paper", "in theory": the clause's praise is
			// only apparent
			p -= clauseP
			clauseP = 0
		}
		if f&(lexPositive|lexNegative) == 0 && inSet(unmatchedWords, w) && !strings.EqualFold(before, "a") && unmatched(text, pos, e) {
			// ("a few dollars more" is a quantity, not a rival's absence)
			f = lexPositive // "nothing free does more", "few brands come close"
		} else if f&(lexPositive|lexNegative) == 0 {
			if k := an.factCriticism(w, before, before2, pos, e, clauseN > 0); k != factNone {
				// a fault word is undone by a reducer like any ("avoids
				// fussy gearboxes"); a fact is not ("cut fares and closed
				// routes")
				f, fact = lexNegative, k != factFault
			}
		}
		if k, ok := figurative(text, w, before, before2, pos, e, f); ok {
			f = k // figurative.go: "the killer feature", "overwhelmingly good", "a gamble"
		}
		if k, nm := an.praiseIdiom(w, before, before2, pos, e, f); k != 0 || nm == negPlain {
			f = k // praise.go: "a no-brainer", "the one to get", "looks expensive"
			switch nm {
			case negClear: // "no fees", "hard to go wrong": the negator was the praise
				neg, pendingNeg, deferred = 0, false, 0
			case negDeny: // "few complaints": a fault denied
				neg, pendingNeg = 1, false
			}
		} else if f&lexNegative != 0 && neg == 0 && !pendingNeg {
			if k, ok := an.harmHandled(s, st); ok {
				f, fact = k, false // praise.go: "trims dead air", "scans for signs of bullying"
			}
		}
		// one lookup tells whether w opens a predicate, advises or sets a
		// condition (most words do none of these)
		frame := inSet(frameWords, w)
		switch {
		case frame && inSet(copulaWords, w):
			predLeft = 3
		case f&(lexPositive|lexNegative) != 0:
			if predLeft > 0 {
				predLeft = 1 // "slow, clunky", "slow and clunky"
			}
		case predLeft > 0 && !(frame && inSet(listJoins, w)):
			predLeft--
		}
		if f&(lexPositive|lexNegative) != 0 && f&lexStrong == 0 && boldLabel(text, st, pos) {
			f = 0 // "**Reliability.** Users report outages": a topic label
		}
		if f&(lexPositive|lexNegative) != 0 && inProperName(text, s, st, pos, before, e) {
			f = 0 // "Evolve Bank & Trust", "Choice Financial Group": part of a name
		}
		if f == 0 && inSet(concessiveWords, w) {
			contrast = 1 // "despite a few outages, X remains …"
		}
		reducing := reduceLeft > 0
		if inSet(fixWords, w) {
			fixLeft = 3 // "fixed the sync bug": the fault is undone, a fact
		} else if fixLeft > 0 {
			if fixLeft--; f&lexNegative != 0 && !fact {
				f = 0
			}
		}
		if inSet(reduceVerbs, w) {
			reduceLeft, reduceObj = 3, false
		} else if reduceLeft > 0 {
			reduceLeft--
			reduceObj = reduceObj || f&(lexPositive|lexNegative) == 0
		}
		if gerundSubj && !brandNamed && !conditioned && inSet(preferredComparatives, w) {
			// "Booking directly is usually safer", "Going with a local
			// installer is cheaper": another way is preferred to the brand
			gerundSubj = false
			p -= clauseP
			n += sentMovedTo
			clauseP, instead = 0, true
			continue
		}
		if len(w) >= len("alternative") && inSet(alternativeNouns, w) && !brandNamed && !instead && !an.alternativesAsked() {
			// "That's why Grafana and Honeycomb are popular alternatives",
			// "cheaper alternatives exist": the clause's praise is the
			// alternatives', and pointing to them is a mild complaint
			p -= clauseP
			n += sentMovedTo
			clauseP, instead = 0, true
			continue
		}
		if inSet(insteadWords, w) && before != "" {
			// "Many schools recommend BigBlueButton instead": the praise
			// of this sentence goes to the alternative
			// — and advice against the brand ("Many travellers recommend
			// booking directly instead")
			p -= clauseP
			if clauseP > 0 && !strings.EqualFold(peekWord(text, pos, e), "of") { // not "tags instead of folders"
				n += clauseP
				verdict = true
			}
			if clauseP == 0 && suggested && !brandNamed && !conditioned && !strings.EqualFold(peekWord(text, pos, e), "of") {
				// "Many reviewers suggest Monarch or YNAB instead": advice
				// to use something else, whatever it is
				n += sentRecommended
				verdict = true
			}
			clauseP, instead = 0, true
			continue
		}
		if frame && inSet(suggestVerbs, w) {
			suggested = true
		} else if frame && inSet(conditionWords, w) {
			conditioned = true
		}
		if inSet(adviseVerbs, w) {
			advise = true
		} else if advise && strings.EqualFold(w, "ab") && an.nonEnglish() {
			// "Von X raten viele … ab": advised against
			f, verdict = lexNegative|lexStrong, true
		}
		if pendingNeg {
			pendingNeg = false
			neg, lossNeg = negationWindow, false
			if f == 0 && strings.EqualFold(w, "only") {
				neg = 0
			}
		}
		if f == 0 && len(w) == 4 && strings.EqualFold(w, "step") {
			// "a huge step up from older services", "a step backwards"
			f = stepDirections[strings.ToLower(peekWord(text, pos, e))] // rare: only after "step"
		}
		if f == 0 && !since && !want && !sentimentRole(w) && strings.IndexByte(w, '-') < 0 &&
			!(len(w) > 5 && (strings.HasSuffix(w, "est") || strings.HasSuffix(w, "er"))) {
			// The common case: a word no rule reads.
			if selfLeft > 0 {
				selfLeft--
			}
			if costLeft > 0 {
				costLeft--
			}
			wordsSinceNeg++
			plain(false)
			continue
		}
		next := func() string { return peekWord(text, pos, e) }
		switch {
		case f&lexContrast != 0:
			neg, mult, multLeft = 0, 1, 0
			reduceLeft, fixLeft = 0, 0 // "released fixes, but complaints continue"
			flush()
			if next() == "" && (strings.EqualFold(w, "though") || strings.EqualFold(w, "however")) {
				// "It's expensive, though.": an afterthought that carries
				// the point of its clause
				p += clauseP * (sentContrast - 1)
				n += clauseN * (sentContrast - 1)
			} else if inSet(concessiveWords, w) {
				contrast = 1
			} else if !strings.EqualFold(w, "unlike") && !strings.EqualFold(w, "instead") {
				contrast = 2
				flush()
				p, n = turn.turn(an.d.sent, p, n)
				clauseP, clauseN = 0, 0 // "huge choice, but … recommend … instead": the advice is the second clause's
			}
			continue
		case strings.EqualFold(w, "more") && lookup(next()) == 0 && an.comparedToBrand(wordEndAfter(text, pos, e), e):
			// "Jira is more configurable than Linear": the rival is ahead
			f = lexNegative
		case neg > 0 && !lossNeg && inSet(responseNouns, w):
			// "without a reply", "no explanation": service that fails
			f, neg = lexNegative, 0
			pendingNeg = false
		case strings.EqualFold(w, "behind") && inSet(lagBefore, before):
			f = lexNegative // "feels years behind", "falls far behind"
		case inSet(mediocreWords, w) && (inSet(predicativeBefore, before) || inSet(faintBefore, before)),
			strings.EqualFold(w, "average") && inSet(faintBefore, before):
			f = lexNegative // "its rewards are ordinary"
		case neg > 0 && inSet(occurVerbs, w) && lastNeg > 0 && wordsSinceNeg <= 4:
			// "crashes never happen", "outages rarely occur": the
			// criticism is denied
			n -= lastNeg
			p += lastNeg * sentRemedied
			lastNeg, neg, pendingNeg = 0, 0, false
			continue
		case neg > 0 && !lossNeg && inSet(serviceVerbs, w) && serviceFailed(w, next()):
			// "callbacks that never happen", "engineers who don't show
			// up", "the refund never arrived": service that failed
			f, neg = lexNegative, 0
			pendingNeg = false
		case neg > 0 && !lossNeg && inSet(capabilityVerbs, w) && !inSet(worksWell, next()):
			// "it doesn't accept cash deposits", "no export": a capability
			// the product lacks — unless what follows from it is what the
			// user does ("doesn't offer a router app, so setup is done
			// manually"), not a fault ("…, so it's a poor fit")
			f, neg = lexNegative, 0
			if lackExplained(text, pos, e, lookup) {
				f = 0
			}
			pendingNeg = false
		case f&lexNegator != 0:
			pendingNeg = true
			lessNeg = strings.EqualFold(w, "less")
			continue
		case f&lexBooster != 0:
			mult, multLeft = sentBoost, 2
			continue
		case f&lexSoftener != 0:
			mult, multLeft = sentSoften, 3
			continue
		case contrast == 2 && strings.EqualFold(w, "up") && strings.EqualFold(next(), "from") && moneyAhead(text, wordEndAfter(text, pos, e), e):
			// "But a box now runs $18, up from $10": a price rise the
			// writer turns to is a complaint; the same rise without a turn
			// ("launched at $10 and now costs $18") is price history
			f = lexNegative
		case inSet(shrugForms, w) && strings.EqualFold(next(), "off"):
			// "shrugs off years of abuse": the hardship named next is
			// withstood, which is praise
			f, fixLeft = lexPositive, 4
		case inSet(outlastWords, w):
			f = lexPositive // "will outlive you", "outlasts two cheaper ones"
		case strings.EqualFold(w, "need") && strings.EqualFold(before, "you") && strings.EqualFold(before2, "all") && !strings.EqualFold(next(), "to"):
			f = lexPositive // "is all you need": nothing more is wanted (not "all you need to know")
		case inSet(frenchHard, w) && wordsFollow(text, pos, e, "de", "faire", "mieux"):
			f = lexPositive // "difficile de faire mieux": hard to do better
		case strings.EqualFold(w, "mixed") && strings.EqualFold(next(), "bag"):
			// "a mixed bag" names its own verdict: one point each way
			p++
			clauseP++
		case inSet(hardWords, w) && strings.EqualFold(next(), "to"):
			if inSet(hardToPraise, peekWord(text, pos+len(" to"), e)) {
				p++ // "hard to beat"
				continue
			}
			flush()
			deferred, neg = mult, negationWindow+1
			v, vEnd := wordAtAny(text[:e], pos+len(" to"))
			if (inSet(endorseVerbs, v) || strings.EqualFold(v, "justify") || reasonToEndorse(text, pos, e)) && !forKind(text[:e], vEnd) {
				// "hard to recommend", "hard to justify", "hard to find a
				// reason to choose it"; not for one kind of reader ("hard
				// to justify for a family of five": a case, the other
				// side of "worth it for busy couples")
				verdict = true
			}
			continue
		case inSet(selfWords, w):
			selfLeft = 4
			continue
		case inSet(purposeVerbs, w) && strings.EqualFold(before, "to") && !an.brandOrPronounAt(pos, e):
			// "cancel a day early to avoid being charged": advice on using
			// the product, not criticism of it
			want = true
			continue
		case inSet(wantVerbs, w) && strings.EqualFold(before, "you"):
			want = true // "if you need fast sync, …"
			continue
		case want:
			continue
		case since && !strings.EqualFold(w, "since"):
			// "was criticised for …, but has since added …": a remedy
			since = false
			if f&(lexPositive|lexNegative) == 0 && neg == 0 {
				p += mult
				continue
			}
		case strings.EqualFold(w, "since") && inSet(possessVerbs, before) && n > 0:
			// only after criticism: "has since released a handheld" in a
			// history is a fact
			since = true
			continue
		case inSet(endorseVerbs, w) && selfLeft > 0 && (strings.EqualFold(before, "only") || strings.EqualFold(before2, "only")):
			f = lexNegative // "I'd only pick it for a tiny team": a restricted recommendation
		case inSet(endorseVerbs, w) && selfLeft > 0:
			f = lexPositive // "I'd choose", "I would not build a workflow around"
		case inSet(costNouns, w):
			costLeft, costSeen = 6, true
			if inSet(lowWords, before) || inSet(lowWords, before2) {
				f = lexPositive // "low fees", "low conversion fees"
			} else if inSet(highWords, before) || inSet(highWords, before2) || inSet(feeAdjectives, before) {
				f = lexNegative // "high fees", "surprise fees", "hidden charges"
			}
		case f&lexNegative != 0 && inSet(conditionPreps, before) && inSet(conditionNouns, next()):
			f = 0 // "forgiving on weak connections": the conditions, not the product
		case inSet(choiceNouns, w) && strings.EqualFold(before2, "more") && lexLookup(before)&lexNegative == 0:
			f = lexPositive // "the more private choice"
		case costLeft > 0 && inSet(highWords, w) && strings.EqualFold(next(), "with"):
			f = 0 // "prices rise with the number of contacts": how the price scales
		case costLeft > 0 && (inSet(highWords, w) || inSet(lowWords, w)) && userCondition(text, pos, e):
			f = 0 // praise.go: "the price is lower if you book early": one offer against another
		case costLeft > 0 && inSet(highWords, w) && !inSet(costNouns, next()):
			f = lexNegative // "fees are high"
		case costLeft > 0 && inSet(multipleWords, w) && inSet(multipleNext, next()):
			f = lexNegative // "costs about twice as much as", "triple the price"
		case costLeft > 0 && inSet(lowWords, w) && !inSet(costNouns, next()):
			f = lexPositive // "prices are low"
		case inSet(breadthWords, w) && inSet(rangeNouns, next()):
			f = lexPositive // "the widest selection"
		case inSet(haltVerbs, w) && inSet(developmentWords, next()):
			f, verdict = lexNegative, true // "stopped adding features", "ended support"
		case inSet(shutVerbs, w) && (strings.EqualFold(next(), "down") || strings.EqualFold(peekWord(text, pos+1+len(next()), e), "down")):
			f, verdict = lexNegative, true // "shut it down", "shutting down": the product is gone
		case inSet(declineVerbs, w) && inSet(qualityNouns, before):
			f = lexNegative // "accuracy drops with accents", "battery life suffers"
		case f&lexNegative != 0 && numeral(before) && inSet(quotaVerbs, wordBeforeNumber(text, s, st)):
			f = 0 // "the free plan covers 5,000 errors a month": an allowance
		case strings.EqualFold(w, "better") && inSet(servedWords, next()) && !an.brandIn(pos, e):
			// "most people are better served by a cheaper calendar": advice
			// to look elsewhere; the praise that follows is the alternative's
			f, verdict, instead = lexNegative, true, true
		case strings.EqualFold(w, "curve") && strings.EqualFold(before, "learning"):
			f = lexNegative // "a learning curve"
		case strings.EqualFold(w, "more") && (inSet(costNouns, before) || inSet(costNouns, before2) && strings.HasSuffix(before, "ly")) && !offerSubj:
			f = lexNegative // "it costs more"
		case strings.EqualFold(w, "itself") && strings.EqualFold(before, "for") && strings.HasPrefix(strings.ToLower(before2), "pa"):
			f = lexPositive // "it pays for itself"
		case strings.EqualFold(w, "subscription") && (inSet(requireVerbs, before) || inSet(articles, before) && inSet(requireVerbs, before2)):
			f = lexNegative // "it needs a subscription"
		case inSet(feeNouns, w):
			costLeft, costSeen = 6, true // "the subscription has climbed to $19.99"
		case inSet(cheapForms, w) && (inSet(cheapIs, before) || inSet(cheapLooks, before) || inSet(cheapPreps, next())):
			// "it's cheap": the price; "feels cheap": the build
			if f = lexPositive; inSet(cheapLooks, before) {
				f = lexNegative
			}
		case inSet(urgeBuy, w) && strings.EqualFold(before, "should"):
			f = lexPositive // "the e-reader most people should buy"
		case inSet(exitVerbs, w) && businessAhead(text, pos, e):
			f, verdict = lexNegative, true // "Fossil quit the smartwatch business"
		case inSet(saveVerbs, w) && inSet(saveObjects, next()):
			f = lexPositive // "saves money"
		case strings.EqualFold(w, "expect") && neg > 0:
			f, neg = lexNegative, 0 // "don't expect boutique quality": lowered expectations
			pendingNeg = false
		case strings.EqualFold(w, "action") && strings.EqualFold(before, "class"):
			f = lexNegative // "a class action"
		case strings.EqualFold(w, "last") && strings.EqualFold(before, "to") && inSet(builtWords, before2):
			f = lexPositive // "built to last"
		case strings.EqualFold(w, "longer") && strings.EqualFold(before, "no") && inSet(developmentState, next()):
			f, neg = lexNegative, 0 // "no longer maintained"
		case strings.EqualFold(w, "standard") && (inSet(standardBefore, before) || strings.EqualFold(before, "the") && inSet(standardAfter, next())):
			f = lexPositive | lexStrong // "the gold standard", "the standard for design teams"
		case strings.EqualFold(w, "than") && strings.EqualFold(before, "rather"):
			pendingNeg = true // "functional rather than polished"
			continue
		case inSet(rankVerbs, w) && inSet(behindWords, next()):
			f = lexNegative // "scores below the Pixel", "falls behind"
		case strings.EqualFold(w, "short") && inSet(fallVerbs, before):
			f = lexNegative // "falls short"
		case strings.EqualFold(w, "up") && (costLeft > 0 && inSet(goVerbs, before) || costSeen && inSet(addUpVerbs, before)):
			f = lexNegative // "the price went up"
		case f&lexNegative != 0 && reducing && !fact:
			// "kitchen screens cut ticket errors", "fewer crashes": a fault
			// removed is praise
			f = lexPositive
		case (inSet(rarityWords, w) || (inSet(fixWords, w) || inSet(remedyWords, w)) && inSet(passiveAux, before)) && lastNeg > 0 && wordsSinceNeg <= 3:
			// "outages are rare", "a jacket that fails gets repaired or
			// replaced" (a guarantee): the criticism is denied
			n -= lastNeg
			p += lastNeg * sentRemedied
			lastNeg = 0
			continue
		case (inSet(fixWords, w) || inSet(remedyWords, w)) && (byBrand || inSet(remedySubjects, before) || inSet(sendVerbs, before2)) && lastNeg > 0 && wordsSinceNeg <= maxRemedyWords:
			// "a flaw in its extension, which Keeper patched within days":
			// one incident, undone — a fact, neither praise nor criticism
			n -= lastNeg
			lastNeg = 0
			continue
		case strings.EqualFold(w, "locked") && strings.EqualFold(next(), "behind"):
			f = lexNegative // "features are locked behind the Pro plan"
		case strings.EqualFold(w, "right") && inSet(fitNouns, next()) || inSet(fitNouns, w) && inSet(fitAdjectives, before):
			f = lexPositive // "the right tool", "a good fit"
		case len(w) > 4 && strings.HasSuffix(w, "er") && inSet(articles, before) && strings.EqualFold(before2, "for"):
			f = 0 // "repeat for a stronger coat": a purpose in a how-to, not praise
		case f == 0 && len(w) > 4 && strings.HasSuffix(w, "er") && strings.EqualFold(next(), "than") && an.comparedToBrand(pos, e):
			// "British Gas is cheaper than Octopus": a comparative the
			// rival wins, whatever the adjective (flipped below)
			if f = gradedLookup(w); f == 0 {
				f = lexPositive
			}
		case f == 0 && len(w) > 5 && (strings.HasSuffix(w, "est") || strings.HasSuffix(w, "er")):
			f = gradedLookup(w) // "cleanest", "clunkier"
		case f == 0 && strings.IndexByte(w, '-') > 0:
			// "best-looking", "well-built", "poorly-documented": a polar first part
			if fp := lexLookup(w[:strings.IndexByte(w, '-')]); fp&(lexPositive|lexNegative) != 0 && inSet(compoundHeads, w[:strings.IndexByte(w, '-')]) {
				f = fp &^ lexStrong
			}
		case inSet(contextIssues, w) && !inSet(issueQualifiers, before) && !strings.EqualFold(next(), "with"):
			f = 0 // "closes issues", "GitHub issues": the tracker's noun
		case strings.EqualFold(w, "limited") && inSet(termsOfArt, next()):
			f = 0 // "a limited warranty", "a limited edition": a term, not a fault
		case strings.EqualFold(w, "worth") && strings.EqualFold(before, "only"):
			f = 0 // "only worth it if you shop there often": a condition, not praise
		case strings.EqualFold(w, "limited") && strings.EqualFold(next(), "to"):
			f = 0 // "limited to the web app": scope, not criticism
		case strings.EqualFold(w, "place") && strings.EqualFold(before, "one") && strings.EqualFold(before2, "in") &&
			hasWordIn(text[s:st], enumerators):
			f = lexPositive // "HR, payroll and benefits in one place": things gathered, the product's case
		case strings.EqualFold(w, "limited") && strings.EqualFold(before, "a") && inSet(countNouns, next()):
			f = 0 // "offered in a limited number of states": a count stated, not judged
		case strings.EqualFold(w, "limited") && an.planLimit(before, before2, pos, e):
			f = 0 // "analytics are limited on Starter": a plan's limit stated as a fact
		case strings.EqualFold(w, "top") && strings.EqualFold(before, "on"):
			f = 0 // "on top of"
		case strings.EqualFold(w, "catch") && inSet(catchBefore, before):
			f = lexNegative | lexStrong // "the catch is price"
		case strings.EqualFold(w, "too") && (inSet(tooAdjectives, next()) || next() != "" && lookup(next()) == 0 && !inSet(tooFunction, next())) ||
			strings.EqualFold(before, "too") && f&lexPositive != 0:
			f = lexNegative // "too basic", "too terse", "too simple": a fault
		case strings.EqualFold(w, "out") && inSet(standVerbs, before) && !strings.EqualFold(next(), "for"):
			f = lexPositive // "its service stood out"; not "stands out for the wrong reasons"
		case inSet(worksVerbs, w) && strings.EqualFold(before, "just") && !inSet(articles, next()):
			f = lexPositive // "it just works"
		case (inSet(worksVerbs, before) || inSet(worksVerbs, before2) && lexLookup(before)&lexBooster != 0) && inSet(worksWell, w):
			f = lexPositive // "works well", "works great"
		case strings.EqualFold(w, "worth") && !inSet(worthObjects, next()):
			f = 0 // "worth taking seriously", "worth noting"
		case inSet(choiceNouns, w) && inSet(choiceAdjectives, before):
			f = lexPositive // "the obvious choice", "first recommendation"
		case inSet(easyWords, w) && strings.EqualFold(next(), "to") && inSet(mishapVerbs, peekWord(text, pos+len(" to"), e)):
			f = lexNegative // "easy to drop", "easy to break": a fault made easy
		case strings.EqualFold(w, "back") && neg > 0 && inSet(comeVerbs, before):
			f, neg, pendingNeg = lexNegative, 0, false // "customers never came back": a loss
		case strings.EqualFold(w, "back") && neg > 0 && inSet(returnVerbs, before):
			f, neg, pendingNeg = lexPositive, 0, false // "never go back to Google", "never looked back": loyalty
		case f&lexPositive != 0 && inSet(littleWords, before) && an.nonEnglish():
			f, mult, multLeft = lexNegative, 1, 0 // "poco fiable", "peu intuitif", "wenig intuitiv": hardly
		case strings.EqualFold(w, "best") && strings.EqualFold(before, "at"):
			f = lexNegative // "minor tweaks at best", "adequate at best": a ceiling, not praise
		case inSet(weakPraise, w) && inSet(faintBefore, before):
			f = lexNegative // "only okay", "just fine", "merely adequate": faint praise
		}
		if selfLeft > 0 {
			selfLeft--
		}
		wordsSinceNeg++
		if costLeft > 0 {
			costLeft--
		}
		if f&lexPositive != 0 && judgementDeferred(text, pos, e) {
			f = 0 // praise.go: "the right choice depends on how you sleep", "whether it's worth it depends on …"
		}
		if inSet(priceComparatives, w) && (offerSubj || offerCondition(text, pos, e)) {
			f = 0 // "Annual billing is cheaper than monthly", figurative.go: "cheaper when added online"
		}
		if f&(lexPositive|lexNegative) == 0 {
			// "no longer the obvious choice": articles and the adjectives of
			// a choice do not use up the negation's reach
			plain(inSet(articles, w) || inSet(choiceAdjectives, w))
			continue
		}
		if rivalSubj && !an.comparedToBrand(pos, e) && !an.comparedToBrand(wordEndAfter(text, pos, e), e) {
			// the rival's praise or criticism, not the brand's
			flush()
			mult, multLeft, neg = 1, 0, 0
			continue
		}
		wt := mult
		if f&lexStrong != 0 {
			wt *= sentStrong
		}
		if inSet(weakPraise, w) && !(f&lexPositive != 0 && an.forValue(pos, e)) {
			// "popular", "fine": praise that commits to little — but "fine
			// for the price" judges the value
			wt *= sentSoften
		}
		if contrast == 2 {
			wt *= sentContrast
		}
		positive := f&lexPositive != 0
		if an.comparedToBrand(pos, e) {
			// "Google Meet is better than Zoom at …": praise of the rival
			// is criticism of the brand, and the other way round
			positive = !positive
		}
		if neg > 0 {
			if positive {
				positive = false
				deferred = 0 // "hard to recommend": one criticism
				verdict = verdict || inSet(endorseVerbs, w) || inSet(verdictWords, w)
			} else {
				// "no issues", "no known breach": a mild fact; "far less
				// boring", "less buggy": an improvement, praise
				k := an.d.sent.denied
				if lessNeg {
					k = sentRemedied
				}
				positive, wt = true, wt*k
			}
			neg = 0
		} else if !positive && inSet(fitNouns, next()) && !caseFit(text, wordEndAfter(text, pos, e), e) {
			verdict = true // "a poor fit", "the wrong choice"
		}
		if positive && instead {
			// praise of the alternative
		} else if positive {
			p += wt
			clauseP += wt
		} else {
			n += wt
			clauseN += wt
			lastNeg, wordsSinceNeg = wt, 0
		}
		flush()
		mult, multLeft = 1, 0
		if inSet(lossWords, w) {
			neg, lossNeg = negationWindow, true // "lost trust", "lacks polish"
		}
	}
	endSentence()
	return p, n, verdict
}

// contrastTurn follows one sentence across its adversative: a person
// reads "X, but Y" as Y's point, X conceded.
//   - Praise (or criticism) before the turn that the other side after it
//     outweighs is a concession: it weighs sentParams.concede ("easy to
//     get started, but most sites outgrow it quickly and support is
//     slow"; "pricey, but built to last and backed by a guarantee").
//   - A clause before the turn that names neither the brand nor a pronoun
//     for it, when the brand is named after it, speaks of something else
//     ("Budget marketplaces can be fun, but Temu is a gamble"): dropped.
//   - After praise, a turn to a clause no polar word reads is still a
//     reservation ("a fun way to build a habit, but on its own it won't
//     make you conversational"): sentParams.inferred of criticism.
type contrastTurn struct {
	p0, n0, pt, nt          float64 // totals at the sentence's start and at the turn
	turned                  bool
	brandBefore, brandAfter bool
	pronounBefore           bool
	hedged, cost            bool // a hedge or a cost word before the turn
	wordsAfter              int
}

func (t *contrastTurn) reset(p, n float64) { *t = contrastTurn{p0: p, n0: n} }

func (t *contrastTurn) named(brand bool) {
	if !brand {
		return
	}
	if t.turned {
		t.brandAfter = true
	} else {
		t.brandBefore = true
	}
}

// word notes a word of the turn's roles (roleOf) or a softener before
// the turn.
func (t *contrastTurn) word(r, f uint8) {
	if t.turned {
		return
	}
	t.pronounBefore = t.pronounBefore || r&rolePronoun != 0
	t.hedged = t.hedged || r&roleHedge != 0 || f&lexSoftener != 0
	t.cost = t.cost || r&roleCost != 0
}

// The roles a word plays in the turn and the balance, one lookup.
const (
	rolePronoun uint8 = 1 << iota // "it", "its": the brand before the turn
	roleHedge                     // concessionHedges
	roleCost                      // costNouns, costWords
	roleCaveat                    // caveatNouns
)

var roleSets = []struct {
	set  map[string]bool
	role uint8
}{{brandPronouns, rolePronoun}, {concessionHedges, roleHedge}, {costNouns, roleCost}, {costWords, roleCost}, {caveatNouns, roleCaveat}}

var turnRoles = func() map[string]uint8 {
	m := make(map[string]uint8)
	for _, x := range roleSets {
		for w := range x.set {
			m[w] |= x.role
		}
	}
	return m
}()

// roleOf returns w's roles: one map probe for a word in lower case (most
// are), a case-insensitive probe of each role's set for another ("Its",
// "Still" opening a sentence).
func roleOf(w string) uint8 {
	if r, ok := turnRoles[w]; ok || w == "" || w[0] < 'A' || w[0] > 'Z' {
		return r
	}
	var r uint8
	for _, x := range roleSets {
		if inSet(x.set, w) {
			r |= x.role
		}
	}
	return r
}

var (
	// concessionHedges before praise make it a concession when criticism
	// follows the turn: "still works", "can be fun", "usually stable",
	// "fine for the price".
	concessionHedges = set(`still usually generally mostly typically normally often nominally
serviceable suele suelen généralement souvent meist meistens`)
	// costWords before the turn make the criticism a price conceded when
	// praise follows: "pricey, but built to last".
	costWords = set(`expensive pricey pricier priciest costly costlier overpriced steep steeper dear dearer caro cara caros cher chère teuer teurer cheapest`)
)

// turn marks the adversative; a second one settles the first pair and
// starts another ("fast, but pricey, but worth it").
func (t *contrastTurn) turn(pm sentParams, p, n float64) (float64, float64) {
	if t.turned {
		brand := t.brandBefore || t.brandAfter || t.pronounBefore
		p, n = t.settle(pm, p, n)
		*t = contrastTurn{p0: t.pt, n0: t.nt, brandBefore: brand}
	}
	t.turned, t.pt, t.nt = true, p, n
	return p, n
}

// settle applies the turn to the totals p and n at the sentence's end.
func (t *contrastTurn) settle(pm sentParams, p, n float64) (float64, float64) {
	if !t.turned {
		return p, n
	}
	bp, bn := t.pt-t.p0, t.nt-t.n0
	ap, an := p-t.pt, n-t.nt
	switch {
	case bp == 0 && bn == 0:
	case !t.brandBefore && !t.pronounBefore && t.brandAfter:
		p, n = p-bp, n-bn
	case bp > 0 && an > 0 && ap == 0 && an >= bp && t.hedged:
		p -= bp * (1 - pm.concede)
	case bn > 0 && ap > 0 && an == 0 && ap >= bn && t.cost:
		n -= bn * (1 - pm.concedeCost)
	case bp > 0 && bn == 0 && ap == 0 && an == 0 && t.wordsAfter >= 2:
		n += pm.inferred
	case bn > 0 && bp == 0 && ap == 0 && an == 0 && t.wordsAfter >= 2 && t.cost:
		// "pricier than most, but the sound justifies it": after a price
		// the turn argues the value, whatever its words
		p += pm.inferred
		n -= bn * (1 - pm.concedeCost)
	}
	return p, n
}

// gradedLookup reads a comparative or superlative through its base
// adjective: "cleanest" → "clean", "nicest" → "nice", "clunkier" →
// "clunky", "biggest" → "big"; 0 when the base is no polar word.
func gradedLookup(w string) uint8 {
	for _, suf := range [...]string{"est", "er"} {
		if len(w) <= len(suf)+2 || !strings.HasSuffix(strings.ToLower(w), suf) {
			continue
		}
		b := w[:len(w)-len(suf)]
		cands := [...]string{b, b + "e"}
		forms := cands[:]
		if suf == "er" && inSet(agentBases, b+"e") {
			forms = cands[:1] // "issuer", "user": agent nouns, not "issue" + "-r"
		}
		for _, cand := range forms {
			if f := lexLookup(cand); f&(lexPositive|lexNegative) != 0 {
				return f & (lexPositive | lexNegative)
			}
		}
		if n := len(b); b[n-1]|0x20 == 'i' {
			var buf [lexMaxLen]byte
			if n <= len(buf) {
				copy(buf[:], b[:n-1])
				buf[n-1] = 'y'
				if f := lexLookup(string(buf[:n])); f&(lexPositive|lexNegative) != 0 {
					return f & (lexPositive | lexNegative)
				}
				if n < len(buf) { // "pricier" → "pricey"
					buf[n-1], buf[n] = 'e', 'y'
					if f := lexLookup(string(buf[:n+1])); f&(lexPositive|lexNegative) != 0 {
						return f & (lexPositive | lexNegative)
					}
				}
			}
		}
		if n := len(b); n > 2 && b[n-1] == b[n-2] {
			if f := lexLookup(b[:n-1]); f&(lexPositive|lexNegative) != 0 {
				return f & (lexPositive | lexNegative)
			}
		}
	}
	return 0
}

// sentimentRoles holds every word a valence rule reads besides the polar
// lexicon, so that the other words skip the rules with one lookup.
var sentimentRoles = func() map[string]bool {
	m := make(map[string]bool)
	for _, set := range []map[string]bool{hardWords, selfWords, wantVerbs, endorseVerbs, costNouns, highWords,
		lowWords, breadthWords, haltVerbs, shutVerbs, rankVerbs, rarityWords, contextIssues, choiceNouns, worksWell,
		fitNouns, possessVerbs, articles, choiceAdjectives, capabilityVerbs, concessiveWords, responseNouns, mediocreWords,
		fixWords, remedyWords, purposeVerbs, serviceVerbs, occurVerbs, qualityNouns, declineVerbs, servedWords, saveVerbs, urgeBuy, exitVerbs, feeNouns, alternativeNouns, multipleWords, shrugForms, frenchHard, outlastWords} {
		for w := range set {
			m[w] = true
		}
	}
	for _, w := range strings.Fields(`since than short up action average out last locked right standard limited top catch too worth back
longer more behind curve itself subscription expect cheap need place`) {
		m[w] = true
	}
	registerFilter(m)
	return m
}()

func sentimentRole(w string) bool { return inSet(sentimentRoles, w) }

// boldLabel: the word is a bold label at a line start ("**Reliability.**",
// "- **Performance:**").
func boldLabel(text string, st, en int) bool {
	if en+3 > len(text) || (text[en] != '.' && text[en] != ':') || text[en+1:en+3] != "**" {
		return false
	}
	ls := strings.LastIndexByte(text[max(0, st-16):st], '\n') + 1 + max(0, st-16)
	pre := strings.TrimLeft(text[ls:st], " \t")
	if m := listMarkerLen(pre); m > 0 {
		pre = pre[m:]
	}
	return pre == "**"
}

// peekWord returns the ASCII word after pos (skipping spaces), at most
// maxTokenBytes long, without reading further. Callers skip ahead by the
// length of a word they read ("shut" + " " + next), so pos may lie past e
// at the answer's end: there is no word there.
func peekWord(text string, pos, e int) string {
	e = min(e, pos+maxTokenBytes, len(text))
	if pos >= e {
		return ""
	}
	for pos < e && (text[pos] == ' ' || text[pos] == '\t') {
		pos++
	}
	st := pos
	for pos < e && (asciiWord[text[pos]] || text[pos] == '-' && pos > st && pos+1 < e && asciiWord[text[pos+1]]) {
		pos++
	}
	return text[st:pos]
}

var (
	// selfWords open a first-person frame in which endorseVerbs are
	// recommendations: "I'd choose it", "I wouldn't build around it".
	selfWords    = set(`i i'd i’d i'll i’ll we we'd we’d`)
	endorseVerbs = set(`choose pick use rely build buy switch recommend trust bet adopt roll deploy standardise
standardize make`)
	// verdictWords, negated, judge the whole product ("not worth it",
	// "rarely the right tool").
	verdictWords  = set(`worth right recommended recommendation choice pick option fit suitable`)
	fitNouns      = set(`fit choice pick option match bet tool`)
	fitAdjectives = set(`good great perfect ideal natural strong solid excellent safe safer safest sensible`)
	costNouns     = set(`price prices pricing fee fees cost costs commission commissions markup markups charges
surcharge surcharges premium precio precios coste costes comisiones tarifa tarifas prix tarif tarifs frais coût
coûts cout couts preis preise kosten gebühren gebuhren`)
	highWords = set(`high higher highest steep steeper rising climbing climb climbs soar soars soared soaring hefty risen rose increased jumped
triples tripled doubles
climbed hiked doubled rises rise hikes increases jump jumps alto altos alta altas elevado elevados elevada
élevé élevés élevée eleve eleves elevee hoch hohe hoher augmenté augmente augmentés gestiegen erhöht erhoht
subido aumentado aumentó aumento`)
	lowWords = set(`low lower lowest bas basse basses bajo bajos baja bajas niedrig niedrige niedrigen`)
	// multipleWords before "as"/"the" after a cost: "costs twice as much".
	multipleWords    = set(`twice double triple thrice`)
	multipleNext     = set(`as the what`)
	breadthWords     = set(`widest broadest largest biggest huge vast wide broad large`)
	rangeNouns       = set(`selection range catalog catalogue choice library ecosystem audience coverage inventory`)
	haltVerbs        = set(`stopped ceased halted ended ending stopping dropped dropping`)
	shutVerbs        = set(`shut shutting shuts`)
	builtWords       = set(`built made designed`)
	developmentWords = set(`adding developing updating supporting development support updates maintenance
maintaining`)
	developmentState = set(`developed maintained updated supported available sold`)
	standardBefore   = set(`gold industry facto`)
	standardAfter    = set(`for in among`)
	compoundHeads    = set(`best better well worst poorly badly`)
	// conditionNouns after "on/with/over" + a negative word name the
	// conditions a product copes with ("on weak connections", "with slow
	// laptops"), not a fault of it.
	conditionPreps = set(`on with over for`)
	conditionNouns = set(`connection connections connectivity network networks internet wifi wi-fi bandwidth
signal hardware machines machine devices device laptops laptop computers phones`)
	fallVerbs = set(`fell falling fall`) // "falls" is criticism of its own
	rankVerbs = set(`scores scored ranks ranked rates rated sits trails trailed falls fell comes came lags lagged`)
	goVerbs   = set(`went gone goes going has have`)
	// addUpVerbs before "up" after a cost: "charges stack up", "fees add up".
	addUpVerbs  = set(`add adds added adding stack stacks stacked pile piles piled mount mounts`)
	rarityWords = set(`rare rarer uncommon infrequent minimal negligible`)
	// fixWords after "get"/"are" deny the criticism before them: "problems
	// get fixed quickly".
	fixWords = set(`fixed resolved solved sorted patched`)
	// remedySubjects before a fix word make it the maker's remedy: "which
	// it patched", "it fixed".
	remedySubjects = set(`it they which who`)
	passiveAux     = set(`get gets got are is were was be been`)
	// wantVerbs after "you" state a requirement: the polar words up to the
	// next comma say what the reader needs ("if you need fast offline
	// access"), not how the product is.
	wantVerbs = set(`need want require prefer value expect`)
	// weakPraise commits to little: popularity, adequacy.
	weakPraise = set(`popular fine decent okay ok usable adequate reasonable well-known`)
	// mishapVerbs after "easy to" make the ease a fault: "easy to drop",
	// "easy to lose track".
	easyWords   = set(`easy easier`)
	mishapVerbs = set(`drop break lose miss overspend overlook forget abandon quit scratch crack damage misplace
misconfigure outgrow exceed ignore`)
	// returnVerbs before a negated "back": users who stay.
	// ("the trust hasn't come back" is a loss, not loyalty).
	returnVerbs = set(`go goes going went looked look looking switch switched`)
	comeVerbs   = set(`come comes came coming`)
	standVerbs  = set(`stand stands stood standing`)
	// littleWords before praise deny it in Spanish, French and German:
	// "poco fiable" is unreliable.
	littleWords = set(`poco poca pocos pocas peu wenig`)
	// faintBefore weak praise makes it faint: "only okay", "just fine".
	faintBefore = set(`only just merely barely`)

	hardWords    = set(`hard harder difficult tough tougher`)
	hardToPraise = set(`beat top match fault`)
	// shrugForms before "off" withstand what follows: "shrugs off abuse".
	shrugForms = set(`shrug shrugs shrugged shrugging`)
	// frenchHard before "de faire mieux" is praise: "difficile de faire mieux".
	frenchHard = set(`difficile dur`)
	// adviceVerbs after the brand's name are its own instructions:
	// "Corvid recommends washing the filter monthly".
	adviceVerbs = set(`recommends recommended advises advised suggests suggested`)
	// outlastWords: durability said as a race won.
	outlastWords = set(`outlive outlives outlived outlast outlasts outlasted`)
	// contextIssues are criticism only with a qualifier ("sync issues",
	// "reported problems") or "with" ("issues with exports").
	contextIssues   = set(`issue issues`)
	issueQualifiers = set(`sync syncing performance stability reliability security privacy billing login known
reported some many frequent occasional major minor serious technical connection connectivity
compatibility battery display screen quality support data`)
	choiceNouns      = set(`choice pick recommendation bet option`)
	choiceAdjectives = set(`obvious natural first default usual clear safe safest top best standard`)
	lossWords        = set(`lost lose loses losing lack lacks lacking hurt hurts eroded erodes damaged`)
	worthObjects     = set(`it the every paying its a considering trying every-penny`)
	worksVerbs       = set(`works work worked working runs performs`)
	catchBefore      = set(`the one only main biggest big`)
	worksWell        = set(`well smoothly flawlessly beautifully reliably`)
	// tooAdjectives after "too" name a fault even when neutral alone.
	tooAdjectives = set(`basic small big large heavy light complex simple limited expensive slow busy noisy
cramped rigid opinionated generic shallow young new immature early`)
)

var (
	// concessiveWords open a clause the main clause after its comma
	// answers: "Although X is slick, it …", "Despite outages, X …".
	concessiveWords = set(`although though while whereas despite obwohl trotz aunque pese malgre malgré quoique`)
	// tooFunction after "too" are no fault: "too many", "too often".
	tooFunction = set(`many much often the a an and or but to be is are was were it its it's`)
)

// comparedToBrand: the word ending at pos is followed by "than" and a
// mention of the brand ("better than Zoom", "more reliable than **Zoom**").
func (an *analysis) comparedToBrand(pos, e int) bool {
	text := an.text
	p := pos
	for p < e && (text[p] == ' ' || text[p] == '\t') {
		p++
	}
	if p+4 > e || !strings.EqualFold(text[p:p+4], "than") {
		return false
	}
	p += 4
	for p < e && (text[p] == ' ' || text[p] == '*' || text[p] == '_') {
		p++
	}
	cands := an.sc.cands
	k, _ := slices.BinarySearchFunc(cands, p, func(c cand, t int) int { return c.start - t })
	return k < len(cands) && cands[k].start == p && cands[k].ent == 0 && cands[k].state == candAccepted
}

// inProperName: the capitalised word text[st:en], not at the start of a
// sentence or line, sits next to another capitalised word — part of a
// name ("Evolve Bank & Trust", "Choice Financial Group"), not praise.
func inProperName(text string, s, st, en int, before string, e int) bool {
	if st >= len(text) || text[st] < 'A' || text[st] > 'Z' {
		return false
	}
	p := st - 1
	for p >= s && (text[p] == ' ' || text[p] == '&') {
		p--
	}
	if p < s || strings.IndexByte(".!?:\n#*-|>(\"", text[p]) >= 0 {
		return false // the start of a sentence, line, cell or quote
	}
	if before != "" && before[0] >= 'A' && before[0] <= 'Z' && p >= st-len(before)-3 {
		return true
	}
	nw := peekWord(text, en, e)
	if nw != "" && inSet(listJoins, nw) {
		// "from LE up to Limited and XSE", "the Plus or Premium tier": a
		// name listed beside another name
		np := en + 1 + len(nw)
		if nw = peekWord(text, np, e); inSet(articles, nw) {
			nw = peekWord(text, np+1+len(nw), e) // "a Limited and a Premier trim"
		}
		return nw != "" && nw[0] >= 'A' && nw[0] <= 'Z' && !inSet(discoveryStop, nw)
	}
	return nw != "" && nw[0] >= 'A' && nw[0] <= 'Z'
}

// explanatoryStarts open a query that asks how or why, not for a product.
var explanatoryStarts = set(`how why what when who where does do is are can`)

// listLine: the line holding pos is a list item or a table row.
func listLine(text string, pos int) bool {
	ls := strings.LastIndexByte(text[:pos], '\n') + 1
	line := strings.TrimLeft(text[ls:pos], " \t")
	return listMarkerLen(line) > 0 || strings.HasPrefix(line, "|")
}

// suggestVerbs advise the reader: before "… instead" they send readers to
// something else.
var suggestVerbs = set(`suggest suggests suggested recommend recommends recommended use try choose pick consider
prefer prefers advise advises`)

var (
	// insteadWords after a sentence's first word move its praise to an
	// alternative: "recommend BigBlueButton instead".
	insteadWords = set(`instead stattdessen`)
	// adviseVerbs: German "raten … ab" advises against.
	adviseVerbs = set(`raten rät rate riet rieten`)
)

// agentBases: "-r" after these makes an agent noun ("issuer", "user",
// "lover"), not a comparative.
var agentBases = set(`issue use love praise hate`)

// wordEndAfter returns the end of the word after pos (skipping spaces).
// rivalClauseBefore: the sentence's text before s is one clause, ended by
// a comma, whose subject is a rival or the rivals' kind named with them
// ("Premium kits like Corvid have lovely lids, | but they …").
func (an *analysis) rivalClauseBefore(s int) bool {
	text := an.text
	end := s
	for end > 0 && (text[end-1] == ' ' || text[end-1] == '\t') {
		end--
	}
	if w := text[strings.LastIndexAny(text[:end], " ,")+1 : end]; inSet(clauseOpeners, w) {
		end -= len(w) // the scope starts after its "but"
		for end > 0 && (text[end-1] == ' ' || text[end-1] == '\t') {
			end--
		}
	}
	if end == 0 || text[end-1] != ',' {
		return false
	}
	st := strings.LastIndexAny(text[:end], ".!?\n") + 1
	words, prev, prev2 := 0, "", ""
	for pos := st; pos < end; {
		w, np := wordAtAny(text[:end], pos)
		if w == "" {
			break
		}
		k, _ := slices.BinarySearchFunc(an.sc.cands, pos, func(c cand, t int) int { return c.start - t })
		if c := an.sc.cands; k < len(c) && c[k].start < np && c[k].state == candAccepted {
			return c[k].ent != 0 && (words == 0 || words <= 3 && (strings.EqualFold(prev, "like") ||
				strings.EqualFold(prev, "as") && strings.EqualFold(prev2, "such")))
		}
		if words++; words > 4 || strings.ContainsRune(text[pos:np], ',') {
			return false
		}
		prev, prev2, pos = w, prev, np
	}
	return false
}

// moneyAhead: an amount of money opens the next few words after pos
// ("about $10", "€12").
func moneyAhead(text string, pos, e int) bool {
	ahead := text[pos:min(e, pos+16)]
	return strings.ContainsAny(ahead, "$£€¥")
}

// wordsFollow tells whether the words after pos (up to e) are words, in
// order, folded for case.
func wordsFollow(text string, pos, e int, words ...string) bool {
	for _, w := range words {
		if !strings.EqualFold(peekWord(text, pos, e), w) {
			return false
		}
		pos = wordEndAfter(text, pos, e)
	}
	return true
}

func wordEndAfter(text string, pos, e int) int {
	for pos < e && (text[pos] == ' ' || text[pos] == '\t') {
		pos++
	}
	for pos < e && (asciiWord[text[pos]] || text[pos] == '-') {
		pos++
	}
	return pos
}

var (
	// responseNouns, negated, are service that never came: "without a
	// reply", "no explanation", "no warning".
	responseNouns = set(`reply replies response responses answer answers explanation warning notice updates`)
	// lagBefore "behind" makes it a lag: "years behind", "falls far behind".
	lagBefore = set(`years months way far well feel feels felt still`)
	// mediocreWords after a copula are faint criticism: "rewards are ordinary".
	mediocreWords     = set(`ordinary unremarkable middling so-so forgettable bland`)
	predicativeBefore = set(`is are was were feel feels seem seems remain remains`)
)

// reduceVerbs before a fault make it praise: "cuts errors", "reduces
// downtime", "fewer crashes", "helps people stuck in a rut", "avoids
// fussy gearboxes".
var reduceVerbs = set(`help helps helped avoids avoided avoiding cut cuts reduce reduces reduced reducing eliminate eliminates eliminated prevent prevents
prevented fewer minimise minimises minimize minimizes lowers catches catching detects`)

var (
	// qualityNouns falling ("accuracy drops with accents") is criticism.
	qualityNouns = set(`accuracy quality performance speed reliability life stability`)
	declineVerbs = set(`drops dropped dips dipped suffers suffered degrades degraded worsens worsened slips slipped tanks
plummets deteriorated fallen`)
	// quotaVerbs before a count make a fault noun a plan's allowance:
	// "covers 5,000 errors a month".
	quotaVerbs = set(`covers includes include allows offers tracks handles logs to`)
	// servedWords after "better" turn the sentence into advice to look
	// elsewhere: "most people are better served by a cheaper calendar".
	servedWords = set(`served off`)
	// requireVerbs before "a subscription": a cost the product imposes.
	requireVerbs = set(`needs need requires require`)
	saveVerbs    = set(`saves save saved saving`)
	// feeNouns are a cost whose rise is criticism ("the subscription has
	// climbed") but no criticism alone.
	feeNouns = set(`subscription subscriptions membership memberships`)
	urgeBuy  = set(`buy get choose pick`)
	// exitVerbs before "the … business/market": the maker left it.
	exitVerbs     = set(`quit exited left abandoned`)
	businessNouns = set(`business market category`)
	cheapLooks    = set(`feels feel looks look seems seem`)
	cheapIs       = set(`is are it's it’s that's that’s`)
	cheapForms    = set(`cheap cheaper cheapest Cheap Cheaper`)
	// cheapPreps after "cheap" make it the price: "cheap per year of use",
	// "cheap to run".
	cheapPreps  = set(`per to for over at`)
	saveObjects = set(`money time hours`)
)
