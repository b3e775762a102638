package detect

import "strings"

// Praise a person reads where no polar word stands, and harms a product
// names as its job (issue 11, s8b). Each rule reads a construction of
// meaning, not a phrase:
//   - a rank, a role or a verdict that praises without an adjective —
//     "a no-brainer", "a close second", "the default for most teams",
//     "far ahead", "it pays off", "the one to get", "the value pick",
//     "looks more expensive than it is"
//     (praiseIdiom);
//   - a harm named as what the product removes or watches for — "trims
//     dead air", "blocks trackers", "scans messages for signs of
//     bullying", "warns you about a delay" — is its function, not its
//     fault (harmHandled): removing one is praise, watching for one is
//     neither, and so is covering one (a warranty's, a guarantee's or
//     insurance's terms: "a guarantee covering plants that arrive
//     damaged", "damage from misuse is not covered"; round s17).

// praiseTriggers are the words praiseIdiom reads; every other word skips
// it with one filtered lookup.
var praiseTriggers = func() map[string]bool {
	m := set(`no-brainer no-brainers second runner-up runners-up default ahead off edge`)
	for _, s := range []map[string]bool{pickVerbs, everythingWords, arrivalVerbs, parityVerbs, priceLooks, choiceNouns, rateForms, rateGrades} {
		for w := range s {
			m[w] = true
		}
	}
	registerFilter(m)
	return m
}()

var (
	// closeWords before "second" make a rank just behind the winner: "a
	// close second", "a very strong second".
	closeWords = set(`close strong solid worthy`)
	// defaultNext after "the default" make the brand the usual choice:
	// "the default for most founders", "the default answer in snow
	// country"; not "the default settings".
	defaultNext = set(`for answer choice pick option recommendation among in`)
	// aheadBefore before "ahead" make it a lead: "far ahead", "is ahead",
	// "stays ahead"; not "go ahead", "plan ahead".
	aheadBefore = set(`far well way miles clearly comfortably still is are stays stay pulls pulled pulling remains
remain`)
	// aheadTime after "ahead of" is a schedule, not a rival: "ahead of
	// time", "ahead of launch".
	aheadTime = set(`time schedule launch release the a an its your their tomorrow`)
	// payForms before "off" make a cost recovered: "that depth starts to
	// pay off", "the membership pays off within a few trips".
	payForms = set(`pay pays paid paying`)
	// ownObjects after "pay off" make it a debt paid: "paid off its loan".
	ownObjects = set(`the a an its their his her your my our loans loan debt debts`)
	// pickVerbs after "the one to" make the brand the one recommended:
	// "the one to get", "the two to try"; countWords name the one.
	pickVerbs  = set(`try get buy pick choose install download grab`)
	countWords = set(`one ones two three`)
	// valueChoices before a choice noun name the brand a recommendation for
	// a kind of buyer: "the value pick", "the budget choice".
	valueChoices = set(`value budget upgrade editor's editors' staff`)
	// everythingWords after a do-verb or "almost" claim every capability:
	// "can do almost anything", "does everything a team needs".
	everythingWords = set(`anything everything`)
	nearlyWords     = set(`almost nearly virtually practically`)
	doVerbs         = set(`do does did handle handles handled`)
	// edgeHolders before "the edge" hold it: "has the edge on accuracy".
	edgeHolders = set(`has have holds hold gets get got had`)
	// arrivalVerbs after "finally" bring what users waited for: "finally
	// added lossless audio".
	arrivalVerbs = set(`added adds launched introduced rolled shipped gained`)
	// parityVerbs before a rival's name put the brand level with it: "now
	// matches Apple Music on quality" (a rival as the subject keeps its
	// clause: rivalSubj).
	parityVerbs = set(`matches match matched equals rivals`)
	// lookVerbs before a price word make it the look of quality: "looks
	// more expensive than it is"; a price felt ("feels expensive") is
	// paid, and stays criticism.
	lookVerbs  = set(`looks look looked looking`)
	priceLooks = set(`expensive pricey premium upscale high-end luxurious`)
	lookGrades = set(`more far much way`)
	// rateForms with a grade report praise: "reviewers rate it well",
	// "rated highly", "highly rated".
	rateForms  = set(`rate rates rated`)
	rateGrades = set(`highly well favourably favorably`)
)

// praiseIdiom returns lexPositive when the word w (ending at pos, before
// and before2 the words before it, f its lexicon flags) completes a construction that praises
// the brand without a polar word; 0 otherwise.
func (an *analysis) praiseIdiom(w, before, before2 string, pos, e int, f uint8) (uint8, int8) {
	text := an.text
	if inSet(praiseIdioms.first, w) && praiseIdioms.at(text[:e], w, pos) {
		return lexPositive, negNone // "punches above its weight", "a steal"
	}
	if strings.EqualFold(w, "wrong") && strings.EqualFold(before, "go") && (lexLookup(before2)&lexNegator != 0 ||
		strings.EqualFold(before2, "to") && inSet(hardWords, wordBeforeTo(text, pos-len(w)))) {
		return lexPositive, negClear // "you can't go wrong with it", "it's hard to go wrong"
	}
	if inSet(winVerbs, w) && an.beatsRivals(pos, e) {
		return lexPositive, negNone // "beats Dormo on price", "outperforms most rivals"
	}
	if k := starRating(text, w, pos-len(w), pos, e); k != 0 {
		return k, negPlain // "a 4.8-star average", "rated 4.7 out of 5"
	}
	if strings.EqualFold(w, "steal") && inSet(stealBefore, before) {
		return lexPositive, negPlain // "at $30 it's a steal": a bargain, not a theft
	}
	if f&lexNegative != 0 && (inSet(scarceWords, before) || inSet(scarceWords, before2) && inSet(scarceLinks, before)) {
		return lexNegative, negDeny // "few complaints", "little to dislike"
	}
	if inSet(costNouns, w) && (inSet(noneWords, before) || inSet(noneWords, before2) && !inSet(costNouns, before) && !inSet(feeAdjectives, before)) &&
		!an.factAsked() {
		// (in a how-to, "there's no cancellation fee" is a step's fact;
		// "no surprise fees" is a fault denied, read as such)
		return lexPositive, negClear // "no monthly fees", "zero commission"
	}
	if f&lexNegative != 0 && situationSubject(text, pos-len(w)) {
		return 0, negPlain // "in the US the picture is more complicated": the situation, not the product
	}
	if f&lexNegative != 0 && transientFault(text, pos, e) {
		return 0, negPlain // "slightly stiff at first, but softens within a week"
	}
	if inSet(settleVerbs, w) && earlyBefore(text, pos-len(w)) {
		return lexPositive, negPlain // "…, but softens within a week": it improves with use
	}
	if f&lexNegative != 0 && inSet(spareVerbs, w) {
		if k, ok := an.spareAhead(pos, e); ok {
			return k, negPlain // "kills background noise", "kills harsh echoes"
		}
	}
	if i := strings.IndexByte(w, '-'); i > 0 && f&(lexPositive|lexNegative) == 0 {
		if k := burdenCompound(w[:i], w[i+1:]); k != 0 {
			return k, negNone
		}
	}
	if f&(lexPositive|lexNegative) == 0 && an.rankedFirst(w, before, before2, pos, e) {
		return lexPositive, negNone
	}
	if !inSet(praiseTriggers, w) || f&(lexPositive|lexNegative) != 0 && !inSet(priceLooks, w) {
		return 0, negNone // a polar word speaks for itself, but for the look of a price
	}
	return an.praiseWord(w, before, before2, pos, e), negNone
}

// What praiseIdiom asks of the negation before the word.
const (
	negNone  int8 = iota
	negClear      // the negator belongs to the praise: "no fees"
	negDeny       // the word is a fault denied: "few complaints"
	negPlain      // the word judges nothing (when 0) or is read as returned
)

var (
	// praiseIdioms praise in a figure no polar word carries, read at
	// their first word.
	praiseIdioms = phrases(`punches above its weight|punch above its weight|punches above their weight|
cut above|league of its own|class of its own|second to none|sets the bar|set the bar|raises the bar|
raised the bar|comes out on top|came out on top|come out on top|leads the pack|leads the field|leads the market|
tops the charts|tops the rankings|tops most rankings|tops the list|tops most lists|ticks every box|ticks all the boxes|
checks every box|checks all the boxes|job done|delivers on its promise|
delivers on its promises|built like a tank|holds up well|held up well|hold up well|earns its keep|earns its price|
money well spent|loyal following|swear by|swears by|worth the splurge|
bang for your buck|bang for the buck|value for money|does exactly what|does what it says|does what it promises|
lives up to the hype|lives up to its|keeps improving|keeps getting better|edges out|edged out|comes out ahead|
came out ahead`)
	// scarceWords before a fault make it scarce: "few complaints",
	// "little to dislike", "hardly any downtime".
	scarceWords = set(`few little hardly barely scarcely seldom rarely`)
	scarceLinks = set(`a an the to any of`)
	// stealBefore before "steal" make it a bargain: "a steal", "an
	// absolute steal".
	stealBefore = set(`a real absolute total`)
	// noneWords before a cost deny it: "no fees", "zero commission",
	// "no monthly fee".
	noneWords = set(`no zero without`)
)

// spareAhead: the spare verb ending at pos ("kills", "fights", "blocks")
// takes a harm or a burden as its object within the next few words —
// "kills background noise", "fights spam" —: the verb is the product's
// work, praise when the object is a burden no lexicon faults, nothing
// when the object is itself a fault (read there as a harm removed,
// harmHandled); ok=false when no such object follows.
func (an *analysis) spareAhead(pos, e int) (uint8, bool) {
	text := an.text
	for k, q := 0, pos; k < 4; k++ {
		w, np := wordAtAny(text[:e], q)
		if w == "" || strings.ContainsAny(text[q:np-len(w)], ",;:.!?") {
			return 0, false
		}
		if lexLookup(w)&lexNegative != 0 || vaderValence(w) <= -an.d.sent.vaderFree {
			return 0, true // the harm is read where it stands
		}
		if inSet(burdenNouns, w) || vaderValence(w) <= -1 {
			return lexPositive, true // a burden the reader would not count
		}
		q = np
	}
	return 0, false
}

// praiseWord reads the single trigger words of praiseTriggers.
func (an *analysis) praiseWord(w, before, before2 string, pos, e int) uint8 {
	text := an.text
	next := peekWord(text, pos, e)
	switch {
	case strings.EqualFold(w, "no-brainer") || strings.EqualFold(w, "no-brainers"):
		return lexPositive | lexStrong // "the membership is a no-brainer"
	case strings.EqualFold(w, "second") && inSet(closeWords, before),
		strings.EqualFold(w, "runner-up") || strings.EqualFold(w, "runners-up"):
		return lexPositive // "a close second", "the runner-up"
	case strings.EqualFold(w, "default") && strings.EqualFold(before, "the") && (next == "" || inSet(defaultNext, next)):
		return lexPositive // "the default for most founders"
	case strings.EqualFold(w, "ahead") && inSet(aheadBefore, before) &&
		!(strings.EqualFold(next, "of") && inSet(aheadTime, peekWord(text, pos+len(" of"), e))):
		return lexPositive // "far ahead on collaboration"; not "ahead of time"
	case strings.EqualFold(w, "off") && inSet(payForms, before) && !inSet(ownObjects, next):
		return lexPositive // "that depth starts to pay off"
	case strings.EqualFold(w, "edge") && strings.EqualFold(before, "the") && inSet(edgeHolders, before2):
		return lexPositive // "Pellow has the edge on accuracy"
	case inSet(pickVerbs, w) && strings.EqualFold(before, "to") && inSet(countWords, before2):
		return lexPositive // "the one to get", "the two to try"
	case inSet(choiceNouns, w) && inSet(valueChoices, before):
		return lexPositive // "the value pick"
	case inSet(everythingWords, w) && (inSet(nearlyWords, before) || inSet(doVerbs, before)):
		return lexPositive // "can do almost anything a sales team asks for", "does everything"
	case inSet(arrivalVerbs, w) && strings.EqualFold(before, "finally"):
		return lexPositive // "finally added lossless audio": a long-awaited improvement
	case inSet(parityVerbs, w) && !strings.EqualFold(before, "to") && an.otherIn(pos, wordEndAfter(text, pos, e)):
		return lexPositive // "now matches Apple Music on quality": level with a rival
	case inSet(priceLooks, w) && (inSet(lookVerbs, before) || inSet(lookGrades, before) && inSet(lookVerbs, before2)):
		return lexPositive // "looks more expensive than the price"
	case inSet(rateGrades, w) && (inSet(rateForms, before) || inSet(rateForms, before2)),
		inSet(rateForms, w) && inSet(rateGrades, before):
		return lexPositive // "customers rate it highly", "highly rated": a reported grade
	}
	return 0
}

var (
	// spareVerbs take a harm away: what they name in their object is what
	// the product spares the user ("trims dead air", "blocks trackers",
	// "evens out badly mixed shows"), a guarantee's remedy among them in
	// its bare verb ("they'll repair or replace a pack for damage or
	// defects"; "repairs" is as often the noun: "repairs are expensive").
	spareVerbs = set(`trims trim trimmed filters filter filtered blocks block blocked strips strip stripped kills kill
killed suppresses suppress suppressed removes remove removed evens tames tame tamed clears clear fights fight
neutralises neutralizes repair replace`)
	// watchVerbs look out for a harm: "scans messages for signs of
	// bullying", "flags risky posts", "warns you about a delay", "shows
	// delay info", "solves the same problem".
	watchVerbs = set(`scans scan scanning flags flag flagging detects detect detecting spots spot spotting warns warn
warning alerts alert alerting monitors monitor monitoring notifies notify notifying watches tracks solves solve
solving addresses address shows show displays display covers covering insures`)
	// displayVerbs watch for a harm only when they show information about
	// it ("shows live delay info"); "shows errors" is the product failing.
	displayVerbs = set(`shows show displays display`)
	infoNouns    = set(`info information alerts alert warnings warning notifications updates status times estimates`)
	// reporterNouns as a watch verb's subject make it a report about the
	// brand, not the brand's work: "reviewers warn about hidden fees".
	reporterNouns = set(`users user reviewers reviewer critics critic experts expert customers customer people parents
owners owner buyers buyer analysts regulators researchers journalists employees staff drivers riders travellers
travelers shoppers members subscribers`)
	// A harm a warranty, a guarantee or insurance pays for is the cover's
	// terms, not the product's fault — a harm watched for: the object of
	// "covers", "covering", "insures" (watchVerbs: "a guarantee covering
	// plants that arrive damaged"), of a coverNoun and coverPrep ("the
	// Rover Guarantee for vet costs and property damage"), of "against"
	// just before it ("against defects in materials"), or the subject of
	// a passive of coverage (coveredWords: "damage from misuse is not
	// covered").
	coverNouns   = set(`guarantee guarantees warranty warranties insurance coverage cover protection claim claims`)
	coverPreps   = set(`for against`)
	coveredWords = set(`covered excluded insured`)
	// harmStops end the reach of a watch or remove verb backwards.
	harmStops = set(`but however though although while whereas yet unless except`)
)

// maxHarmWords bounds how far back from a harm its verb may stand ("scans
// texts, email and 30+ social apps for signs of bullying").
const maxHarmWords = 16

// harmHandled: the criticism word at text[st:] is the object of a verb
// by which the product removes a harm (praise: lexPositive) or watches
// for one (a fact: 0), in the same clause, with no negation or other
// subject between them; ok=false otherwise.
func (an *analysis) harmHandled(s, st int) (f uint8, ok bool) {
	text := an.text
	pos, words := st, 0
	for pos > s && words < maxHarmWords {
		c := text[pos-1]
		if c == '.' || c == ';' || c == ':' || c == '!' || c == '?' || c == '\n' || c == '(' || c == ')' {
			return 0, false
		}
		if c < 0x80 && !asciiWord[c] && c != '\'' && c != '-' {
			pos--
			continue
		}
		ws := pos
		for ws > s && (text[ws-1] >= 0x80 || asciiWord[text[ws-1]] || text[ws-1] == '\'' || text[ws-1] == '-') {
			ws--
		}
		w := text[ws:pos]
		pos, words = ws, words+1
		switch {
		case inSet(harmStops, w) || lexLookup(w)&lexNegator != 0:
			return 0, false
		case strings.EqualFold(w, "against") && words <= 2, inSet(coverPreps, w) && coverNounBefore(text, ws):
			return 0, true // "a warranty against defects", "the Rover Guarantee for … property damage"
		case inSet(spareVerbs, w) || inSet(watchVerbs, w):
			subj, ss := tokenBefore(text, ws)
			if inSet(reporterNouns, subj) {
				return 0, false // "reviewers warn about hidden fees": a report
			}
			if inSet(articles, subj) || inSet(harmDeterminers, subj) || strings.HasSuffix(subj, "'s") || strings.HasSuffix(subj, "’s") ||
				words == 1 && strings.HasSuffix(w, "s") && strings.HasSuffix(text[ws+len(w):st], " ") && ingForm(text, st) {
				// "Opal's blocks silently stop", "blocks disappearing": the
				// word is a noun, not the product's work
				return 0, false
			}
			if aux, _ := tokenBefore(text, ss); lexLookup(subj)&lexNegator != 0 || lexLookup(aux)&lexNegator != 0 {
				return 0, false // "doesn't block trackers": the harm stays
			}
			if inSet(spareVerbs, w) {
				return lexPositive, true
			}
			if inSet(displayVerbs, w) && !infoAhead(text, st) {
				return 0, false // "the app shows errors": a failure shown
			}
			return 0, true
		}
	}
	if coveredAhead(text, st) {
		return 0, true // "damage from misuse is not covered": the cover's terms
	}
	return 0, false
}

// coveredAhead: the clause of the harm at text[st:] ends its subject in a
// passive of coverage — "damage from misuse is not covered", "accidental
// damage is covered".
func coveredAhead(text string, st int) bool {
	e := len(text)
	if i := strings.IndexAny(text[st:], ".,;:!?\n"); i >= 0 {
		e = st + i
	}
	for pos, prev := st, ""; ; {
		w, np := wordAtAny(text[:e], pos)
		if w == "" {
			return false
		}
		if inSet(coveredWords, w) && (inSet(copulaWords, prev) || lexLookup(prev)&lexNegator != 0) {
			return true
		}
		pos, prev = np, w
	}
}

// coverNounBefore: the word before pos is a coverNoun ("warranty" in
// "warranty for").
func coverNounBefore(text string, pos int) bool {
	w, _ := tokenBefore(text, pos)
	return inSet(coverNouns, w)
}

// harmDeterminers before a verb form make it a noun: "its blocks", "these
// alerts".
var harmDeterminers = set(`its their your our my his her this these those some many several few`)

// ingForm: the word at text[st:] is a participle ending its phrase —
// "blocks disappearing after a sync", not "blocks annoying alarms".
func ingForm(text string, st int) bool {
	w := peekWord(text, st, len(text))
	if len(w) <= 4 || !strings.HasSuffix(w, "ing") && !strings.HasSuffix(w, "ed") {
		return false
	}
	next := peekWord(text, st+len(w), len(text))
	return next == "" || inSet(participleNext, next)
}

// participleNext after a participle end its phrase: the participle is a
// predicate ("blocks disappearing after sync conflicts").
var participleNext = set(`after before when while during on in at for from or and but with without again`)

// tokenBefore is the word (with its apostrophes and hyphens: "doesn't")
// ending before pos past spaces, and its start; "" at any other mark.
func tokenBefore(text string, pos int) (string, int) {
	for pos > 0 && text[pos-1] == ' ' {
		pos--
	}
	e := pos
	for pos > 0 && (text[pos-1] >= 0x80 || asciiWord[text[pos-1]] || text[pos-1] == '\'' || text[pos-1] == '-') {
		pos--
	}
	return text[pos:e], pos
}

// placeVerbs after "where to" ask for a place to buy: "where to buy pc
// games cheapest" asks for a recommendation, not a fact.
var placeVerbs = set(`buy get shop order purchase rent book find sell comprar acheter kaufen`)

// placeAsked: the query asks where to buy or get something ("where to buy
// shipping boxes in bulk", "where can I get cheap flights") — a request
// for a recommendation, which factAsked must not read as a question of
// fact.
func placeAsked(q string) bool {
	w, pos := wordAtAny(q, 0)
	if !strings.EqualFold(w, "where") && !strings.EqualFold(w, "dónde") && !strings.EqualFold(w, "où") {
		return false
	}
	for k := 0; k < 3; k++ {
		if w, pos = wordAtAny(q, pos); inSet(placeVerbs, w) {
			return true
		}
	}
	return false
}

// caseRelatives after "for a …" narrow the case a fit is judged for: "a
// poor fit for a shop that takes cash".
var caseRelatives = set(`that who which whose where with if`)

// caseFit: the fit noun ending at pos is judged for one kind of buyer — "a
// poor fit for a shop that takes cash", "the wrong choice for a team
// with strict audits" — a case the answer sets apart, not a verdict on
// the product.
func caseFit(text string, pos, e int) bool {
	w, np := wordAtAny(text[:e], pos)
	if !strings.EqualFold(w, "for") {
		return false
	}
	if w, np = wordAtAny(text[:e], np); !strings.EqualFold(w, "a") && !strings.EqualFold(w, "an") {
		return false // "a poor fit for most teams": the verdict stands
	}
	for k := 0; k < 4; k++ {
		if w, np = wordAtAny(text[:e], np); w == "" {
			return false
		} else if inSet(caseRelatives, w) {
			return true
		}
	}
	return false
}

// elseFrames open a sentence about everyone a caveat before it left out:
// "For everyone else it's close to a no-brainer".
var elseFrames = phrases(`for everyone else|for everybody else|for anyone else|for the rest of us|for most others|
everyone else|everybody else|pour tous les autres|para todos los demás|für alle anderen`)

// returnFrames, with their comma, turn back to praise after a caveat:
// "Still, if you shop there twice a month, it's a no-brainer".
var returnFrames = []string{"still,", "even so,", "that said,", "all the same,", "nonetheless,", "nevertheless,",
	"malgré tout,", "aun así,", "trotzdem,"}

// elseScoped: t turns, after a caveat, to everyone it does not concern,
// or back to praise ("Still, …") — praise so framed makes the caveat a
// niche's or a minor one, played down like "the only drawback"
// (minimisedCaveat).
func elseScoped(t string, p, n float64) bool {
	if p <= n {
		return false
	}
	t = strings.TrimLeft(t, " \t*_#>-")
	for _, f := range returnFrames {
		if len(t) >= len(f) && strings.EqualFold(t[:len(f)], f) {
			return true
		}
	}
	return elseFrames.opens(t)
}

// likeVerbs close a heading over what people praise: "What buyers like",
// "What employers love about it", "Why users love it".
var likeVerbs = set(`like likes love loves praise praises appreciate appreciates value values`)

// peopleLikeHeading: t heads the brand's strengths as what its users like
// — "What buyers like", "**What employers love**", "Why drivers love it"
// — the list under it is its pros, as under "What we like" (prosHeads).
func peopleLikeHeading(t string) bool {
	t = strings.TrimLeft(t, " \t*_#>-")
	w, np := wordAtAny(t, 0)
	if !strings.EqualFold(w, "what") && !strings.EqualFold(w, "why") {
		return false
	}
	for k := 0; k < 3; k++ {
		if w, np = wordAtAny(t, np); w == "" || lexLookup(w)&lexNegator != 0 {
			return false // "What users don't like"
		} else if inSet(likeVerbs, w) {
			return true
		}
	}
	return false
}

// sideItem is the reading of the list item at s under a heading of the
// brand's strengths ("**What buyers like**", "Pros") or faults ("Cons",
// "Common complaints"): an item that reads no judgement there still
// states one of its heading's side, half a polar word — as each item of
// a "Cons:" line is half a criticism (consItems).
func (sc *sections) sideItem(text string, s int, p, n float64) (float64, float64) {
	if p >= sentNeutral || n >= sentNeutral || !listItem(text, s) {
		return p, n
	}
	switch sc.side {
	case 1:
		return sentNeutral, n
	case -1, sideTurned:
		return p, sentNeutral
	}
	return p, n
}

// judgementDeferred: the praise word ending at pos heads the subject of
// "depends" within two words — "the right choice depends on how you
// sleep", "whether it's worth it depends on how you'll use it" —: the
// writer leaves the judgement to the reader's case and makes none.
func judgementDeferred(text string, pos, e int) bool {
	for k := 0; k < 2; k++ {
		w, np := wordAtAny(text[:e], pos)
		if w == "" || strings.ContainsAny(text[pos:np-len(w)], ",;:.!?") {
			return false
		}
		if strings.EqualFold(w, "depends") {
			return true
		}
		pos = np
	}
	return false
}

// userConditions open a case the user chooses: "if you book early", "when
// you pay yearly".
var userConditions = set(`if when unless once`)

// userCondition: the price word ending at pos is set by what the user
// does next — "the price is lower if you add bags before departure",
// "fees are higher when you pay monthly": one offer of the brand against
// another, a fact, not a judgement of its prices.
func userCondition(text string, pos, e int) bool {
	w, np := wordAtAny(text[:e], pos)
	if !inSet(userConditions, w) {
		return false
	}
	w, _ = wordAtAny(text[:e], np)
	return strings.EqualFold(w, "you") || strings.EqualFold(w, "you're") || strings.EqualFold(w, "your")
}

var (
	// burdenHeads lighten the burden after them: "low-risk", "low-cost",
	// "zero-fee"; burdenNouns are burdens no polar lexicon holds.
	burdenHeads = set(`low lower no zero`)
	burdenNouns = set(`maintenance effort hassle fuss cost fee fees commission ads ad noise`)
	// freeTails after a burden remove it: "risk-free", "hassle-free".
	freeTails = set(`free proof`)
)

// burdenCompound reads a hyphenated compound of a burden: lightened
// ("low-risk", "low-maintenance", "no-fee") or taken away ("risk-free",
// "hassle-free", "stress-free") it is praise, "high-risk" criticism; 0
// for any other compound.
func burdenCompound(head, tail string) uint8 {
	burden := func(w string) bool {
		return inSet(burdenNouns, w) || lexLookup(w)&lexNegative != 0 || vaderValence(w) <= -1
	}
	switch {
	case inSet(burdenHeads, head) && burden(tail):
		return lexPositive
	case inSet(freeTails, tail) && burden(head):
		return lexPositive
	case strings.EqualFold(head, "high") && burden(tail) && !inSet(burdenNouns, tail):
		return lexNegative
	}
	return 0
}

// praiseSheet: the answer to a question of fact praises in passing — at
// most two spans that judge, one strong word's worth of praise ("DC fast
// charging up to 205 kW" in a spec sheet) and no criticism: a fact sheet
// (factSheet), neutral. Criticism keeps factSheet's stricter bar, so no
// complaint about fees is read away.
func (an *analysis) praiseSheet(spans, judged int, p, n float64) bool {
	return spans >= minFactSpans && judged <= 2 && n == 0 && p <= sentStrong && an.factAsked()
}

// maxRankWords bounds how far after a superlative its rank frame may end
// ("the most precise control over context of the three").
const maxRankWords = 8

// rankFrames after a superlative rank the brand first among its rivals:
// "the most precise control of the three", "the longest warranty in the
// segment".
var rankFrames = phrases(`of the three|of the two|of the four|of the five|of the bunch|of the group|of any|of all|
in the segment|in its class|in class|in the category|on the market|in the industry|among them|among rivals|
among its rivals|among competitors`)

// rankedFirst: w (ending at pos) is a superlative that ranks the brand
// first — an adjective VADER calls positive ("the gentlest wake-up"), or
// any adjective no lexicon faults with a frame ranking it among rivals
// after it ("the most precise control of the three") or "by far" before
// it ("by far the largest pool of reviews"). A superlative the lexicons
// fault ("the slowest") is read by gradedLookup.
func (an *analysis) rankedFirst(w, before, before2 string, pos, e int) bool {
	var base string
	switch {
	case strings.EqualFold(before, "most") && len(w) > 3 && !sentimentRole(w):
		base = w // "most precise"
	case len(w) > 5 && strings.HasSuffix(w, "est") && !inSet(notSuperlatives, w):
		base = w[:len(w)-3] // "gentlest" → "gentl"; VADER is asked below for its forms
	default:
		return false
	}
	if gradedLookup(w)&lexNegative != 0 || lexLookup(base)&lexNegative != 0 || vaderValence(base) < 0 {
		return false
	}
	if next := peekWord(an.text, pos, e); lexLookup(next)&lexNegative != 0 || vaderValence(next) <= -2 {
		return false // "the gentlest criticism", "the most common problem": a fault ranked
	}
	if base != w && (vaderValence(base) >= 0.5 || vaderValence(base+"e") >= 0.5 || vaderValence(base+"le") >= 0.5) {
		return true // "the gentlest", "the finest"
	}
	if strings.EqualFold(before2, "far") && strings.EqualFold(before, "the") {
		return true // "by far the largest"
	}
	// a rank frame within the next few words of the clause
	text := an.text
	end := pos
	for k := 0; k < maxRankWords; k++ {
		end = wordEndAfter(text, end, e)
		if end >= e || strings.ContainsAny(text[pos:end], ",;:.!?") {
			break
		}
	}
	for q := pos; q < end; {
		w2, np := wordAtAny(text[:end], q)
		if w2 == "" {
			break
		}
		if rankFrames.at(text[:end], w2, np) {
			return true
		}
		q = np
	}
	return false
}

// notSuperlatives end in "est" and are no superlative: "interest",
// "request", "harvest".
var notSuperlatives = set(`interest interests request requests harvest forest contest protest honest modest
suggest digest invest manifest earnest arrest chest guest quest test latest west`)

// closers after a caveat say there is nothing more to fault: "Setup takes
// a minute too long, but that's about it", "…, and that's my only
// complaint".
var closers = phrases(`that's about it|that is about it|that's it|that's all|that is all|that's my only|
that is my only|that's the only|that is the only|that's a nitpick|that is a nitpick|that's a quibble|
that's a minor|that is a minor`)

// caveatClosed: t faults the brand and closes the list of its faults
// there ("but that's about it") — a caveat played down like "the only
// drawback" (minimisedCaveat).
func caveatClosed(t string) bool {
	// "my one complaint" is minimisedCaveat's (sentiment_verdict.go).
	return (strings.Contains(t, "that") || strings.Contains(t, "That")) && closers.in(t)
}

var (
	// earlyMarkers date a fault to the start of use: "at first", "out of
	// the box", "initially".
	earlyMarkers = phrases(`at first|out of the box|initially|early on|for the first few|for the first week|
in the first week|when new`)
	// settleVerbs undo such a fault with use: "softens within a week",
	// "smooths out with use", "breaks in".
	settleVerbs = set(`softens soften softened smooths smooth smoothed settles settle settled fades fade faded
disappears disappear disappeared loosens loosen loosened eases ease eased improves improve improved wears`)
)

// maxTransientWords bounds how far after a fault its early marker and
// the verb that undoes it may stand.
const maxTransientWords = 14

// transientFault: the fault ending at pos is dated to the start of use
// and undone by use later in the sentence — "slightly stiff at first but
// softens within a week", "a bit pebbly out of the box; it smooths out
// with use" —: a break-in, not a fault of the product.
func transientFault(text string, pos, e int) bool {
	early := false
	for k, q := 0, pos; k < maxTransientWords; k++ {
		w, np := wordAtAny(text[:e], q)
		if w == "" || strings.ContainsAny(text[q:np-len(w)], ".!?\n") {
			return false
		}
		switch {
		case earlyMarkers.at(text[:e], w, np):
			early = true
		case early && inSet(settleVerbs, w):
			return true
		}
		q = np
	}
	return false
}

// earlyBefore: an early marker ("at first", "out of the box") stands in
// the sentence before st, within maxTransientWords words.
func earlyBefore(text string, st int) bool {
	q := st
	for k := 0; k < maxTransientWords; k++ {
		w, ws := tokenBefore(text, q)
		if w == "" {
			// a mark: a clause mark goes on, a sentence end stops
			if q == 0 || strings.IndexByte(".!?\n", text[q-1]) >= 0 {
				return false
			}
			q--
			continue
		}
		if _, np := wordAtAny(text, ws); earlyMarkers.at(text[:st], w, np) {
			return true
		}
		q = ws
	}
	return false
}

// wordBeforeTo is the word before the "to" that ends before st: "hard"
// in "hard to go wrong".
func wordBeforeTo(text string, st int) string {
	_, gs := tokenBefore(text, st) // "go"
	_, ts := tokenBefore(text, gs) // "to"
	w, _ := tokenBefore(text, ts)
	return w
}

var (
	// winVerbs win a comparison: "beats Dormo on price", "outperforms most
	// rivals"; a rival as their subject keeps its clause (rivalSubj).
	winVerbs = set(`beats outperforms outperform outperformed outclasses outclass outclassed outshines outshine
trumps outsells outscores outscored`)
	// rivalWords name the rivals as a whole: "beats most rivals",
	// "outperforms the competition".
	rivalWords = set(`rivals rival competitors competitor competition others alternatives alternative peers`)
)

// beatsRivals: a tracked rival or the rivals as a whole follow the win
// verb ending at pos, within three words.
func (an *analysis) beatsRivals(pos, e int) bool {
	text := an.text
	q := pos
	for k := 0; k < 3; k++ {
		w, np := wordAtAny(text[:e], q)
		if w == "" {
			return false
		}
		if inSet(rivalWords, w) || an.otherIn(np-len(w), np) {
			return true
		}
		q = np
	}
	return false
}

// Star ratings on a five-point scale: at least ratingHigh is praise, at
// most ratingLow criticism; between them a rating judges little.
const (
	ratingHigh = 4.3
	ratingLow  = 2.5
)

// starRating reads a rating on a five-point scale at the word w
// (text[st:pos]): "4.8-star", "4.7 stars", "rated 4.6 out of 5", "1.9/5".
func starRating(text, w string, st, pos, e int) uint8 {
	if c := w[len(w)-1] | 0x20; c != 's' && c != 'r' && c != 't' && c != '5' {
		return 0 // "star(s)", "-star(s)", "out", "5" end so
	}
	var num string
	switch {
	case strings.EqualFold(w, "stars") || strings.EqualFold(w, "star"):
		num = numberBefore(text, st)
	case len(w) > 5 && (strings.HasSuffix(w, "-star") || strings.HasSuffix(w, "-stars")) && w[0] >= '0' && w[0] <= '9':
		num = numberBefore(text, st+strings.IndexByte(w, '-'))
	case strings.EqualFold(w, "out") && wordsFollow(text, pos, e, "of", "5") || strings.EqualFold(w, "5") && st > 0 && text[st-1] == '/':
		num = numberBefore(text, st)
		if strings.EqualFold(w, "5") {
			num = numberBefore(text, st-1)
		}
	default:
		return 0
	}
	v, ok := parseRating(num)
	switch {
	case !ok || v > 5:
		return 0
	case v >= ratingHigh:
		return lexPositive
	case v <= ratingLow:
		return lexNegative
	}
	return 0
}

// numberBefore is the decimal number ("4.8", "4") ending at end, past one
// space or hyphen; "" when none.
func numberBefore(text string, end int) string {
	if end > 0 && (text[end-1] == ' ' || text[end-1] == '-') {
		end--
	}
	st := end
	for st > 0 && (text[st-1] >= '0' && text[st-1] <= '9' || text[st-1] == '.') {
		st--
	}
	return strings.TrimLeft(text[st:end], ".")
}

// parseRating parses "4.8" or "4" (one decimal at most).
func parseRating(s string) (float64, bool) {
	if s == "" || len(s) > 4 {
		return 0, false
	}
	v, frac, dot := 0.0, 0.0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '.' && !dot:
			dot, frac = true, 1
		case c >= '0' && c <= '9':
			if dot {
				frac /= 10
				v += float64(c-'0') * frac
			} else {
				v = v*10 + float64(c-'0')
			}
		default:
			return 0, false
		}
	}
	return v, true
}

// verdictNamesBrand: the labelled verdict line [s,e) answers with the
// brand — its first words after the label are the brand, or an imperative
// to get it ("**Verdict:** get Pellow.", "Bottom line: Pellow, unless …").
func (an *analysis) verdictNamesBrand(s, e int) bool {
	text := an.text
	colon := strings.IndexAny(text[s:e], ":,—")
	if colon < 0 {
		return false
	}
	q := s + colon + 1
	for k := 0; k < 3; k++ {
		for q < e && (text[q] == ' ' || text[q] == '*' || text[q] == '_') {
			q++
		}
		if q >= e {
			return false
		}
		brand, other := an.entitiesIn(q, min(e, q+maxTokenBytes))
		w, np := wordAtAny(text[:e], q)
		switch {
		case other && !brand:
			return false
		case brand && an.brandAt(q):
			return true
		case inSet(verdictImperatives, w) || strings.EqualFold(w, "go") || strings.EqualFold(w, "with"):
			q = np
		default:
			return false
		}
	}
	return false
}

// verdictImperatives before the brand in a verdict line recommend it.
var verdictImperatives = set(`get buy pick choose try`)

// brandAt: a counted mention of the brand starts at q.
func (an *analysis) brandAt(q int) bool {
	brand, _ := an.entitiesIn(q, q+1)
	return brand
}

// situationNouns name a state of affairs, not the product: "the picture
// is more complicated", "the situation is murky".
var situationNouns = set(`picture situation story landscape outlook regulation regulations law laws rules weather`)

// situationSubject: the predicate whose word starts at st has a situation
// noun as its subject — "the picture is (more) complicated" — within
// three words before it, across a copula.
func situationSubject(text string, st int) bool {
	q := st
	cop := false
	for k := 0; k < 4; k++ {
		w, ws := tokenBefore(text, q)
		switch {
		case w == "":
			return false
		case inSet(copulaWords, w):
			cop = true
		case cop && inSet(situationNouns, w):
			return true
		case cop:
			return false
		}
		q = ws
	}
	return false
}

// infoAhead: an information noun follows the harm word at st within two
// words ("delay info", "outage status updates").
func infoAhead(text string, st int) bool {
	_, q := wordAtAny(text, st)
	for k := 0; k < 2; k++ {
		w, np := wordAtAny(text, q)
		if inSet(infoNouns, w) {
			return true
		}
		q = np
	}
	return false
}

// paidForTurn: the span grants a price and turns to what it buys with
// "you get what you pay for". A high price granted ("It's pricier than
// most fast food, but you're getting what you pay for") is justified:
// +1, praise of value. A low one ("About half the price, but you get what
// you pay for") buys little: -1, criticism. 0 without the idiom after a
// turn, or without a price before it.
func paidForTurn(t string) int {
	at := paidFor.index(t)
	if at <= 0 || !hasWordIn(t[:at], turnWords) {
		return 0
	}
	switch {
	case hasWordIn(t[:at], lowPriceWords):
		return -1
	case hasWordIn(t[:at], highPriceWords):
		return 1
	}
	return 0
}

var (
	// paidFor is the idiom of value for money, from its verb.
	paidFor = phrases(`get what you pay for|getting what you pay for|gets what you pay for|get what you paid for|
getting what you paid for`)
	// highPriceWords grant a high price; lowPriceWords a low one ("half
	// the price", "cheaper").
	highPriceWords = set(`pricier priciest pricey expensive costlier dearer premium steep`)
	lowPriceWords  = set(`cheap cheaper cheapest half less lower budget inexpensive`)
)

// offerCondition: the price comparative ending at pos is set by how the
// reader buys — one offer of the brand against another, a fact: "cheaper
// if you book early" (userCondition), "cheaper when added online",
// "pricier if bought at the airport".
func offerCondition(text string, pos, e int) bool {
	if userCondition(text, pos, e) {
		return true
	}
	w, np := wordAtAny(text[:e], pos)
	if !inSet(userConditions, w) {
		return false
	}
	w, _ = wordAtAny(text[:e], np)
	return len(w) > 4 && strings.HasSuffix(w, "ed") || strings.EqualFold(w, "bought") || strings.EqualFold(w, "paid")
}
