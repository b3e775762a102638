package detect

import (
	"slices"
	"strings"
)

// Criticism stated as a fact. Answers about airlines, banks and retailers
// criticise with no opinion word: "runs few daily flights", "refunds drag
// on for weeks", "accounts frozen", "has paid billions in fines", "seat
// selection is extra". A person reads each as a fault of the brand; the
// polar lexicon and VADER see none of them. factCriticism reads such
// predicates by kind, each with the context that makes it a fault (the
// offering that shrank, the wait that is long, the fee that surprises),
// so that the same words stated as plain facts ("a few minutes", "wait
// for the sync", "fees are listed") stay neutral. Its result is a polar
// word's flag: negation, contrast and the brand's scope apply as to any.

// The kinds of fact criticism (for the tests and the reader's switch).
const (
	factNone       uint8 = iota
	factService          // failure and delay: "hours on hold", "drag on", "still not ready", "went silent"
	factScarcity         // scarcity and shrinkage: "few daily flights", "closed hundreds of stores"
	factMoney            // money taken: "nickel-and-dimes", "is extra", "surprise fees", "bills of hundreds"
	factLegal            // legal and regulatory trouble: "fines", "bankruptcy", "to settle claims"
	factRegression       // regressions: "broke alarms", "removed offline mode", "downgraded"
	factComplaint        // complaints reported in French, German or Spanish: "klagen über", "reclaman"
	factFault            // a product's fault neither lexicon holds: "flimsy", "gimmicky", "finicky", "overheats"
	factElsewhere        // advice to shop elsewhere: "look elsewhere", "buy it somewhere else"
	factDistress         // a business in trouble: "layoffs", "went into administration", "years of losses"
)

// factWords: a word that is a fault whatever its context (its kind).
var factWords = func() map[string]uint8 {
	m := map[string]uint8{}
	for kind, words := range map[uint8]string{
		factService: `unanswered understaffed backlogged stranded strands runaround stonewalled
ghosted shortages shortage walkouts walkout`,
		factScarcity: `dwindling dwindled`,
		factMoney: `nickel-and-dimes nickel-and-dime nickel-and-diming upsell upsells upselling upsold upsellings
pay-to-win surcharge surcharges overcharge overcharged overcharges overcharging price-gouging gouging
shrinkflation junk-fees microtransactions`,
		factLegal: `fines bankruptcy bankruptcies antitrust indicted indictment misconduct review-bombed
review-bombing mis-sold mis-selling`,
		factRegression: `downgraded regressed nerfed enshittification`,
		factDistress: `layoffs layoff turmoil upheaval insolvency insolvent liquidation receivership downsizing
cutbacks bailout losses loss-making write-down write-downs writedown backlash outcry uproar boycott boycotts`,
		factFault: `soggy stale undercooked crowded overcrowded uneven stumbles stumble stumbled gimmick gimmicky gimmicks gremlins rattles squeaks creaks flimsy
gamble janky finicky fiddly hit-or-miss hit-and-miss overheats overheating underpowered shoddy half-baked unpolished grainy
tinny washed-out convoluted iffy inflexible brittle temperamental fussy faulty defects defective malfunction
malfunctions malfunctioning fraying wobbly overheat questionable dubious`,
	} {
		for _, w := range strings.Fields(words) {
			m[w] = kind
		}
	}
	return m
}()

// factTriggers are the words whose context factCriticism reads; with
// factWords, every word it looks at (one lookup skips the rest).
var factTriggers = func() map[string]bool {
	m := map[string]bool{}
	for w := range factWords {
		m[w] = true
	}
	for w := range foreignFaults {
		m[w] = true
	}
	for _, s := range []map[string]bool{dropVerbs, waitNouns, fewWords, shrinkVerbs, dragVerbs, takeVerbs, chargeVerbs,
		billNouns, settleWords, breakVerbs, fightNouns, silentWords, foreignComplaints, foreignHigh, shortWords, decayVerbs, wearVerbs, troubleAdjectives, slipVerbs,
		compareVerbs, goneWords, lossComparatives, raiseVerbs} {
		for w := range s {
			m[w] = true
		}
	}
	for _, w := range strings.Fields(`administration shadow warning options alternatives maths math best story rarely
seldom sting stings less
extra still bottom for elsewhere else should necessary needed behind light lighter
thin thinner short locked froze stop stops stopped stopping late downhill canned scripted unable careful removed scrapped
axed killed`) {
		m[w] = true
	}
	registerFilter(m)
	return m
}()

var (
	// waitNouns are a wait when long ("hour-long waits", "long hold
	// times") or "on hold".
	waitNouns = set(`wait waits hold holds queue queues queueing lines espera esperas attente attentes wartezeit
wartezeiten`)
	longWords = set(`long longer longest lengthy endless hour-long hours-long day-long days-long week-long weeks-long
months-long multi-day
multi-week excessive interminable largo larga largos largas longue longues longs lange langen langer langes`)
	// fewWords name scarcity before an offering: "few daily flights",
	// "fewer payment options".
	fewWords = set(`few fewer`)
	// shrinkVerbs before an offering shrink it: "closed hundreds of
	// locations", "cut routes", "removed offline mode".
	shrinkVerbs = set(`cut cuts cutting closed closes closing axed axes scrapped scraps dropped drops removed
removes removing pulled retired retires killed slashed trimmed shrank shrunk shrinking shrinks stripped
discontinues reduced`)
	// offeringNouns are what a brand offers its customers: fewer of them,
	// or fewer than before, is a fault.
	offeringNouns = set(`flight flights route routes destination destinations location locations store stores
branch branches outlet outlets shop shops restaurant restaurants counter counters service services feature
features option options perk perks benefit benefits channel channels title titles show shows app apps
integration integrations plugin plugins template templates model models size sizes colour colours color
colors choice choices update updates content catalogue catalog library libraries mode modes department
departments staff pharmacist pharmacists agents hours seat seats departures connections menu items
products jobs playback alarms controls support warranty extras tier tiers allowance allowances discounts`)
	// dragVerbs before "on" or "out": a process that does not end.
	dragVerbs = set(`drag drags dragged dragging`)
	// takeVerbs before weeks or months: a delay ("refunds take weeks",
	// "shipping can take a month or more").
	takeVerbs  = set(`take takes took taking tarda tardan tardó tardaron dauert dauern dauerte dauerten prend prennent`)
	delayUnits = set(`week weeks month months semanas meses wochen monate semaines mois`)
	// effortUnits after a count: "took three or four calls".
	effortUnits = set(`calls attempts tries emails chats visits complaints`)
	// dropVerbs beside a business metric: a decline ("falling traffic",
	// "sales slid").
	dropVerbs = set(`falling fell fallen dropping drops dropped sliding slid slumping slumped plunging plunged sinking
sank shrank tumbling tumbled`)
	metricNouns = set(`traffic sales revenue revenues users subscribers members customers visits visitors profits
profit ratings rating share bookings ridership downloads audience value values`)
	// arriveWords before "late": lateness of a service.
	arriveWords = set(`arrive arrives arrived arriving ship ships shipped deliver delivers delivered come comes came run
runs ran running often always frequently routinely consistently chronically`)
	replyNouns = set(`reply replies response responses answer answers message messages email emails`)
	// removeVerbs take away what the user had, unless it was unwelcome.
	removeVerbs     = set(`removed scrapped axed killed`)
	welcomeRemovals = set(`ads ad adverts limit limits cap caps fee fees bug bugs restriction restrictions paywall
watermark watermarks tracking trackers bloat clutter requirement`)
	payVerbs = set(`paid pay pays paying agreed`)
	ownWords = set(`its their his her`)
	// timeUnits after "lines of", "waits of": "check-in lines of an hour".
	timeUnits = set(`hour hours minutes days weeks`)
	// stopVerbs before workingWords: a product that fails.
	stopVerbs    = set(`stop stops stopped stopping`)
	workingWords = set(`working responding charging syncing loading connecting accepting offering issuing selling
renewing supporting`)
	// gateNouns after "behind": a feature gated ("behind a login").
	gateNouns = set(`paywall paywalls account login log-in sign-in signup sign-up subscription registration upgrade`)
	// lightWords before "on": a short supply ("light on features").
	lightWords = set(`light lighter thin thinner short`)
	// shopVerbs before "elsewhere": "look elsewhere", "shop somewhere else".
	shopVerbs = set(`look shop buy go book try get order rent bank fly stay`)
	someWords = set(`somewhere someplace anywhere`)
	// chargeVerbs before "for": money taken for what was part of the
	// service ("charges for seat selection", "being charged for returns").
	chargeVerbs = set(`charge charges charged charging bills billed`)
	// billNouns before "of hundreds": a bill that shocks.
	billNouns      = set(`bill bills charge charges fee fees invoice invoices`)
	magnitudeWords = set(`hundreds thousands`)
	// feeAdjectives before a cost make it money taken: "surprise fees",
	// "hidden charges".
	feeAdjectives = set(`surprise hidden junk unexpected sneaky excessive exorbitant punitive unexplained extra
additional mystery`)
	// costVerbs before "extra": "costs extra".
	costVerbs = set(`cost costs costing charge charges charged charging`)
	// pastAux before a shrink verb make it an event ("routes were cut"),
	// not a state ("stores are closed on holidays").
	pastAux = set(`were was been got`)
	// settleWords with a legal noun: "paid $168 million to settle claims".
	settleWords = set(`settle settles settled settling settlement settlements`)
	legalNouns  = set(`claims claim lawsuit lawsuits suit suits charges allegations case cases fines complaints
probe investigation accusations`)
	// breakVerbs with an object are a regression ("broke alarms and
	// playback"), not in "broke records", "broke even".
	breakVerbs   = set(`broke`)
	breakObjects = set(`record records ground even into through new out the-record`)
	// fightNouns after "is a": a service that must be fought ("refunds
	// are a fight", "support is an ordeal").
	fightNouns = set(`fight battle ordeal slog chore hassle struggle saga`)
	// silentWords after "went"/"goes": service that stopped answering.
	silentWords = set(`silent quiet dark`)
	goneVerbs   = set(`went go goes gone going`)
	// stillStates after "still not": a promise unkept ("still not ready",
	// "still not fixed"); stillFaults after "still": "still waiting".
	stillStates = set(`ready fixed resolved available working delivered shipped refunded back restored supported
answered processed`)
	stillFaults = set(`waiting pending unresolved unfixed unavailable down`)
	// durationUnits after "for" lengthen a fault already read in the
	// clause: "frozen … for weeks".
	durationUnits = set(`days weeks months hours`)
	// foreignComplaints: complaints reported in German, French and Spanish
	// that the foreign lexicon lacks ("klagen über", "reclaman").
	foreignComplaints = set(`klagen klagt klagten beanstanden bemängeln bemängelt reklamieren reklamationen
réclamations reclamations reclament réclament reclaman reclamaciones denuncian`)
	// foreignFaults: faults in German, French and Spanish answers that the
	// foreign lexicon lacks — delays ("llegan con retraso", "Verspätungen
	// sind häufig"), scarcity ("todavía escasa"), reviews called negative.
	foreignFaults = map[string]uint8{"retraso": factService, "retrasos": factService, "demora": factService,
		"demoras": factService, "verspätung": factService, "verspätungen": factService, "retard": factService,
		"retards": factService, "escasa": factScarcity, "escaso": factScarcity, "escasas": factScarcity,
		"escasos": factScarcity, "negativas": factFault, "negativos": factFault, "négatives": factFault,
		"négatifs": factFault, "negativ": factFault, "negative": factFault, "negativen": factFault}
	// foreignHigh: "high" or "higher" in German, French and Spanish; of a
	// cost or a loss ("les frais sont plus élevés", "der Wertverlust ist
	// höher") a fault.
	foreignHigh = set(`élevé élevés élevée élevées eleve eleves elevee elevees höher höhere höheren hoch hohe hohen
altos altas alto alta elevado elevados elevada elevadas`)
	// lossNouns are losses to the owner: higher is worse ("Wertverlust").
	lossNouns = set(`wertverlust verbrauch consumo consommation depreciation depreciación`)
	// decayVerbs: a product that decays with use ("colours fade", "the
	// fabric pills", "the frame rusts", "the mattress sags") — as a
	// predicate, not an attribute ("a faded look").
	decayVerbs = set(`fade fades faded fading pilling pilled rust rusts rusted rusting warp warps warped warping
peel peels peeled peeling tarnish tarnishes tarnished tarnishing sag sags sagged sagging`)
	// resistWords before a decay verb deny it: "resists fading", "to
	// prevent rust".
	resistWords = set(`resist resists resisted resistant prevent prevents prevented avoid avoids against anti
without no less little minimal stop stops protect protects protection to`)
	// wearVerbs with wearParticles: "wears out", "wore thin", "gives out",
	// "falls apart", "wears faster", "the tread wears down fast".
	wearVerbs     = set(`wear wears wore worn wearing give gives gave giving fall falls fell falling`)
	wearParticles = map[string]string{"out": "wear give", "thin": "wear", "through": "wear", "faster": "wear",
		"quickly": "wear", "quicker": "wear", "fast": "wear", "down": "wear", "apart": "fall"}
	// wearAfter follow an intransitive "wears out", "gives out": a time,
	// a cause or a degree, not an object.
	wearAfter = set(`after within in under at on when before quickly soon sooner early fast faster entirely completely
by and or but than long years months weeks`)
	// upkeepWords beside "rarely": upkeep that seldom comes ("updated
	// rarely", "rarely restocked").
	upkeepWords = set(`updated update updates patched restocked refreshed maintained serviced answered replied
responds`)
	// aroundWords after "pay less": by going around the brand ("by
	// booking directly", "elsewhere").
	aroundWords = set(`by directly elsewhere`)
	// avoidParticiples after "best": advice to stay away ("is best
	// avoided", "best removed", "best skipped", "best left alone").
	avoidParticiples = set(`avoided removed skipped uninstalled ignored left`)
	// goneWords after "have": what the brand offered is gone.
	goneWords = set(`gone disappeared vanished evaporated`)
	haveWords = set(`have has had largely mostly all quietly`)
	// lossComparatives after a verb of change: "has become thinner".
	lossComparatives = set(`thinner smaller stingier weaker worse pricier costlier slower fewer buggier clunkier`)
	changeVerbs      = set(`become became becoming got gotten grown grew getting gets`)
	degreeWords      = set(`much far even steadily noticeably considerably slightly`)
	// troubleAdjectives before a span of time or a record: "a rough few
	// years", "a bumpy operational record", "a rocky launch".
	troubleAdjectives = set(`rough bumpy rocky turbulent troubled patchy`)
	troubleSpans      = set(`year years patch stretch record ride start launch period time times months history`)
	// intoWords before "administration": a firm in insolvency ("went into
	// administration", "special administration").
	intoWords = set(`into special entered enters`)
	// slipVerbs after what the brand offers: a decline ("support response
	// times have slipped", "course updates have slowed").
	slipVerbs   = set(`slipped slipping slowed slowing stalled stalling worsened deteriorated`)
	serviceNoun = set(`support service updates update development response times quality reliability delivery
deliveries shipping releases`)
	// compareVerbs with compareObjects advise the reader to shop around:
	// "compare rates", "shop around", "get other quotes".
	compareVerbs   = set(`compare shop`)
	compareObjects = set(`rates prices quotes offers plans around`)
	formerWords    = set(`former old earlier`)
	// firmNouns shrink as a business: "the company has shrunk".
	firmNouns = set(`company business firm startup workforce team staff`)
	// shortWords after "se queda": "se queda corto", falls short.
	shortWords = set(`corto corta cortos cortas`)
	stayVerbs  = set(`queda quedan quedó quedaba`)
)

// factCriticism returns the kind of fact criticism the word w at
// text[:pos] states (factNone for none); before and before2 are the two
// words before it, faulted whether the clause already holds criticism
// (a duration lengthens it: "frozen … for weeks").
func (an *analysis) factCriticism(w, before, before2 string, pos, e int, faulted bool) uint8 {
	if !inSet(factTriggers, w) {
		return factNone
	}
	if k, ok := kindOf(factWords, w); ok {
		return k
	}
	text := an.text
	if k := an.foreignFault(w, before, pos, e); k != factNone {
		return k
	}
	next := peekWord(text, pos, e)
	switch {
	case priceRaised(text, w, before, pos, e):
		return factMoney // pricerise.go: "raised premiums sharply"
	case inSet(dropVerbs, w) && (wordBehind(text, pos-len(w), metricNouns) || wordAhead(text, pos, e, metricNouns)):
		// "franchisees report falling traffic", "sales have been sliding",
		// "resale values have fallen"
		return factScarcity
	case strings.EqualFold(w, "froze"):
		// "the app froze during the sell-off"; not "froze its prices"
		if !inSet(costNouns, next) && !inSet(ownWords, next) && !inSet(articles, next) {
			return factFault
		}
	case strings.EqualFold(w, "late"):
		// "orders arrive late", "routinely late", "30 minutes late"; not
		// "late 2024", "a late-night menu"
		if (inSet(arriveWords, before) || inSet(timeUnits, before)) && !startsWithDigit(next) {
			return factService
		}
	case strings.EqualFold(w, "downhill"):
		if inSet(goneVerbs, before) || inSet(goneVerbs, before2) {
			return factRegression // "has gone downhill"
		}
	case strings.EqualFold(w, "canned") || strings.EqualFold(w, "scripted"):
		if inSet(replyNouns, next) {
			return factService // "canned replies"
		}
	case strings.EqualFold(w, "unable"):
		if strings.EqualFold(next, "to") && !inSet(selfWords, before) && !strings.EqualFold(before, "am") {
			return factService // "leaving customers unable to close positions"
		}
	case strings.EqualFold(w, "careful"):
		if strings.EqualFold(before, "be") {
			return factFault // "I'd be careful": a warning
		}
	case inSet(removeVerbs, w):
		// "removed free e-filing", "scrapped the family plan"; not
		// "removed the ads", "removed the cap"
		if next != "" && !wordAhead(text, pos, e, welcomeRemovals) {
			return factRegression
		}
	case strings.EqualFold(w, "locked"):
		if strings.EqualFold(next, "out") {
			return factService // "customers were locked out of their accounts"
		}
	case inSet(stopVerbs, w):
		if inSet(workingWords, next) {
			return factService // "heaters stop working after two winters"
		}
	case strings.EqualFold(w, "behind"):
		// "moved its features behind a cloud account", "behind a
		// paywall": features gated
		if wordAhead(text, pos, e, gateNouns) {
			return factRegression
		}
	case inSet(lightWords, w):
		// "lighter on reporting", "thin on integrations", "short on
		// staff": less of what the reader needs; "roaming perks are thin"
		if strings.EqualFold(next, "on") && !inSet(articles, peekWord(text, pos+len(" on"), e)) ||
			inSet(copulaWords, before) && an.clauseHolds(pos-len(w), offeringNouns) {
			return factScarcity
		}
	case strings.EqualFold(w, "should") && strings.EqualFold(before2, "than") && inSet(brandPronouns, before),
		(strings.EqualFold(w, "necessary") || strings.EqualFold(w, "needed")) && strings.EqualFold(before, "than"):
		// "takes more effort than it should", "more steps than
		// necessary": an excess
		return factFault
	case strings.EqualFold(w, "elsewhere") || strings.EqualFold(w, "else") && inSet(someWords, before):
		// "look elsewhere", "buy it somewhere else": the reader is sent
		// away from the brand
		if wordBehind(text, pos-len(w), shopVerbs) && !elsewhereDescribed(text, pos-len(w)) {
			return factElsewhere // (not "the lag you get elsewhere": rivalwin.go)
		}
	case strings.EqualFold(w, "rarely") || strings.EqualFold(w, "seldom"):
		// "the lineup gets updated rarely", "is rarely restocked"
		if inSet(upkeepWords, before) || inSet(upkeepWords, next) {
			return factScarcity
		}
	case strings.EqualFold(w, "sting") || strings.EqualFold(w, "stings"):
		// "service and cleaning fees can still sting"
		if an.clauseHolds(pos-len(w), costNouns) {
			return factMoney
		}
	case strings.EqualFold(w, "less"):
		// "you often pay less by booking the hostel directly": the reader
		// saves by going around the brand
		if inSet(payVerbs, before) && inSet(aroundWords, next) && !an.brandIn(pos, e) {
			return factElsewhere
		}
	case strings.EqualFold(w, "best"):
		if inSet(avoidParticiples, next) {
			return factElsewhere // "the trial is best removed", "best avoided"
		}
	case inSet(goneWords, w):
		// "the loyalty extras that set it apart have largely gone"
		if (inSet(haveWords, before) || inSet(haveWords, before2)) && an.clauseHolds(pos-len(w), offeringNouns) {
			return factRegression
		}
	case inSet(lossComparatives, w):
		// "the free tier has become thinner", "support got worse"
		if inSet(changeVerbs, before) || inSet(changeVerbs, before2) && inSet(degreeWords, before) {
			return factRegression
		}
	case strings.EqualFold(w, "story"):
		// "The older rooms are another story", "support is a different
		// story": the other side of what came before
		if (strings.EqualFold(before, "another") || strings.EqualFold(before, "different") && strings.EqualFold(before2, "a")) &&
			wordBehind(text, pos-len(w), copulaWords) {
			return factFault
		}
	case inSet(troubleAdjectives, w):
		// "a rough few years", "a bumpy operational record"
		if wordAhead(text, pos, e, troubleSpans) {
			return factDistress
		}
	case strings.EqualFold(w, "administration"):
		if inSet(intoWords, before) || inSet(intoWords, before2) {
			return factDistress // "went into special administration"
		}
	case strings.EqualFold(w, "shadow"):
		// "a shadow of its former self"
		if strings.EqualFold(next, "of") && wordAhead(text, pos+len(" of"), e, formerWords) {
			return factRegression
		}
	case strings.EqualFold(w, "warning"):
		if strings.EqualFold(before, "profit") || strings.EqualFold(before, "earnings") {
			return factDistress // "a profit warning"
		}
	case inSet(slipVerbs, w):
		if wordBehind(text, pos-len(w), serviceNoun) || wordBehind(text, pos-len(w), offeringNouns) {
			return factRegression
		}
	case inSet(compareVerbs, w):
		// "compare rates", "shop around": the reader may do better
		if inSet(compareObjects, next) && (strings.EqualFold(w, "compare") || strings.EqualFold(next, "around")) {
			return factElsewhere
		}
	case strings.EqualFold(w, "maths") || strings.EqualFold(w, "math"):
		// "do the maths against Cloudflare": weigh it against another
		if strings.EqualFold(before, "the") && strings.EqualFold(before2, "do") && strings.EqualFold(next, "against") {
			return factElsewhere
		}
	case strings.EqualFold(w, "options") || strings.EqualFold(w, "alternatives"):
		// "Cheaper options exist."
		if inSet(preferredComparatives, before) && strings.HasPrefix(strings.ToLower(next), "exist") {
			return factElsewhere
		}
	case inSet(decayVerbs, w):
		// "colours fade after a few washes", "the blade rusts"; not "a
		// faded look", "resists fading"
		if !inSet(articles, before) && !inSet(resistWords, before) && !inSet(resistWords, before2) {
			return factFault
		}
	case inSet(wearVerbs, w):
		// "the soles wear out in a year", "seams give out", "it fell
		// apart"; not "wear it out to dinner", "give out free samples"
		if stem, ok := wearParticles[strings.ToLower(next)]; ok && strings.Contains(stem, wearStem(w)) {
			if after := peekWord(text, pos+1+len(next), e); after == "" || inSet(wearAfter, after) {
				return factFault // intransitive: nothing is given or worn out
			}
		}
	case inSet(foreignComplaints, w):
		if an.nonEnglish() {
			return factComplaint
		}
	case inSet(waitNouns, w):
		// "hour-long waits", "long hold times", "hours on hold"; not "wait
		// for the sync", "hold the button"
		if inSet(longWords, before) || inSet(longWords, before2) && strings.EqualFold(next, "times") ||
			inSet(longWords, next) && an.nonEnglish() || // "esperas largas"
			strings.EqualFold(next, "of") && wordAhead(text, pos+len(" of"), e, timeUnits) ||
			strings.EqualFold(w, "hold") && strings.EqualFold(before, "on") && !strings.EqualFold(next, "to") {
			return factService
		}
	case inSet(fewWords, w):
		// "runs few daily flights", "fewer payment options"; not "a few
		// minutes", "few apps match it"
		if inSet(articles, before) || strings.EqualFold(before, "quite") {
			return factNone
		}
		if n, ok := offeringAhead(text, pos, e); ok && !matchAhead(text, n, e) {
			return factScarcity
		}
		if strings.EqualFold(w, "fewer") && strings.EqualFold(next, "of") {
			return factScarcity // "fewer of your friends are on it"
		}
	case inSet(shrinkVerbs, w):
		// "closed hundreds of locations", "cut routes", "removed offline
		// mode"; "routes were cut"
		if _, ok := offeringAhead(text, pos, e); ok || inSet(pastAux, before) && wordBehind(text, pos-len(w), offeringNouns) {
			return factScarcity
		}
		if (strings.EqualFold(w, "shrunk") || strings.EqualFold(w, "shrank")) && wordBehind(text, pos-len(w), firmNouns) {
			return factDistress // "the company has shrunk considerably"
		}
	case inSet(dragVerbs, w):
		if strings.EqualFold(next, "on") || strings.EqualFold(next, "out") {
			return factService // "refunds drag on for weeks"
		}
	case inSet(takeVerbs, w):
		// "refunds take weeks", "can take a month or more"
		p := pos
		for k := 0; k < 3; k++ {
			nw, np := wordAtAny(text[:e], p)
			if nw == "" {
				break
			}
			if inSet(delayUnits, nw) || inSet(effortUnits, nw) {
				return factService
			}
			p = np
		}
	case inSet(chargeVerbs, w):
		// "charges for seat selection", "customers were charged for
		// returns"; not "charges $10 a month"
		if strings.EqualFold(next, "for") {
			return factMoney
		}
		if inSet(billNouns, w) && strings.EqualFold(next, "of") && inSet(magnitudeWords, peekWord(text, pos+len(" of"), e)) {
			return factMoney // "charges of thousands"
		}
	case inSet(billNouns, w):
		if strings.EqualFold(next, "of") && inSet(magnitudeWords, peekWord(text, pos+len(" of"), e)) {
			return factMoney // "bills of hundreds of dollars"
		}
	case strings.EqualFold(w, "extra"):
		// "seat selection is extra", "costs extra"; not "extra storage"
		if w == "extra" && (inSet(copulaWords, before) || inSet(costVerbs, before)) && (next == "" || inSet(listJoins, next) || strings.EqualFold(next, "too")) {
			return factMoney
		}
	case inSet(settleWords, w):
		// "paid $168 million to settle claims", "fines and settlements"
		if inSet(legalNouns, next) || inSet(articles, next) && inSet(legalNouns, peekWord(text, pos+1+len(next), e)) ||
			inSet(legalNouns, before) || inSet(legalNouns, before2) || inSet(payVerbs, before) || inSet(payVerbs, before2) {
			return factLegal
		}
	case inSet(breakVerbs, w):
		if next != "" && !inSet(breakObjects, next) {
			return factRegression // "the update broke alarms"
		}
	case inSet(fightNouns, w):
		if (strings.EqualFold(before, "a") || strings.EqualFold(before, "an")) && inSet(copulaWords, before2) {
			return factService // "refunds are a fight"
		}
	case inSet(silentWords, w):
		if inSet(goneVerbs, before) {
			return factService // "support went silent"
		}
	case strings.EqualFold(w, "still"):
		// "still not ready days later", "still waiting for a refund"
		if inSet(stillFaults, next) {
			return factService
		}
		if lexLookup(next)&lexNegator != 0 && inSet(stillStates, peekWord(text, pos+1+len(next), e)) {
			return factService
		}
	case strings.EqualFold(w, "bottom"):
		// "sits near the bottom of the rankings", "at the bottom for
		// on-time arrivals"
		if strings.EqualFold(before, "the") && (strings.EqualFold(before2, "near") || strings.EqualFold(before2, "at")) &&
			!(strings.EqualFold(next, "of") && wordAhead(text, pos+len(" of"), e, screenNouns)) {
			return factService
		}
	case strings.EqualFold(w, "for"):
		// "frozen without warning, sometimes for weeks"
		if faulted && inSet(durationUnits, next) {
			return factService
		}
	}
	return factNone
}

// clauseHolds: the clause before st (since the last sentence or clause
// mark, at most 120 bytes) holds a word of m — its subject, most often
// ("roaming perks outside Europe are thin").
func (an *analysis) clauseHolds(st int, m map[string]bool) bool {
	cl := an.text[max(0, st-120):st]
	if i := strings.LastIndexAny(cl, ".;:!?\n"); i >= 0 {
		cl = cl[i+1:]
	}
	return hasWordIn(cl, m)
}

// kindOf looks w up in m with its ASCII letters lower-cased, without
// allocating.
func kindOf(m map[string]uint8, w string) (uint8, bool) {
	var buf [40]byte
	if len(w) > len(buf) {
		return 0, false
	}
	for i := 0; i < len(w); i++ {
		buf[i] = lowerASCII(w[i])
	}
	k, ok := m[string(buf[:len(w)])]
	return k, ok
}

// wearStem: the verb of wearing, giving or falling that w inflects.
func wearStem(w string) string {
	switch lowerASCII(w[0]) {
	case 'w':
		return "wear"
	case 'g':
		return "give"
	}
	return "fall"
}

// foreignFault: the kind of fault the word w of a German, French or
// Spanish answer states: a delay, scarcity, reviews called negative
// (foreignFaults), a cost or a loss that is high ("les frais sont plus
// élevés"), "se queda corto".
func (an *analysis) foreignFault(w, before string, pos, e int) uint8 {
	if !an.nonEnglish() {
		return factNone
	}
	if k, ok := kindOf(foreignFaults, w); ok {
		return k
	}
	switch {
	case inSet(foreignHigh, w):
		// the clause's subject is a cost or a loss: "Les frais de tenue de
		// compte sont en revanche plus élevés"
		if an.clauseHolds(pos-len(w), costNouns) || an.clauseHolds(pos-len(w), lossNouns) {
			return factMoney
		}
	case inSet(shortWords, w):
		if inSet(stayVerbs, before) {
			return factFault
		}
	}
	return factNone
}

// offeringAhead: an offering noun within the next three words after pos
// ("few daily flights", "closed hundreds of locations"); n is the end of
// the noun.
func offeringAhead(text string, pos, e int) (n int, ok bool) {
	p := pos
	for k := 0; k < 3; k++ {
		w, np := wordAtAny(text[:e], p)
		if w == "" || strings.ContainsAny(text[p:np], ",;:.") {
			return 0, false
		}
		if inSet(offeringNouns, w) {
			return np, true
		}
		p = np
	}
	return 0, false
}

// matchAhead: a verb of matching follows the offering — "few apps match
// its sync", "few rivals can offer that": praise of the brand, not
// scarcity.
func matchAhead(text string, pos, e int) bool {
	w, np := wordAtAny(text[:e], pos)
	if inSet(modalWords, w) {
		w, _ = wordAtAny(text[:e], np)
	}
	return inSet(matchVerbs, w)
}

// wordAhead: a word of m within the three words after pos ("the bottom
// of the server list", "quit the smartwatch business").
func wordAhead(text string, pos, e int, m map[string]bool) bool {
	for k := 0; k < 3; k++ {
		w, np := wordAtAny(text[:e], pos)
		if w == "" {
			return false
		}
		if inSet(m, w) {
			return true
		}
		pos = np
	}
	return false
}

// wordBehind: a word of m within the four words before st, in the same
// clause ("sales have been sliding").
func wordBehind(text string, st int, m map[string]bool) bool {
	p := st
	for k := 0; k < 4; k++ {
		for p > 0 && text[p-1] == ' ' {
			p--
		}
		en := p
		for p > 0 && (asciiWord[text[p-1]] || text[p-1] == '\'' || text[p-1] == '-') {
			p--
		}
		if p == en {
			return false // punctuation: the clause ends
		}
		if inSet(m, text[p:en]) {
			return true
		}
	}
	return false
}

var (
	// screenNouns: "at the bottom of the screen" places a button.
	screenNouns = set(`screen page window list menu sidebar app display panel form feed email message card box`)
	matchVerbs  = set(`match matches rival rivals equal equals beat beats offer offers come comes compare compares
approach approaches`)
	modalWords = set(`can could will would`)
)

// No criticism where there is none: the words that read as criticism or
// praise in an opinion, stated in a plain fact or in advice.

var (
	// plainAdjectives before these nouns describe, not judge: "a negative
	// balance", "surprise fees" (the fee is the fault, read as a cost).
	accountingNouns = set(`balance balances equity amortization amortisation number numbers value values interest
rate rates cash cashflow cash-flow margin margins amount amounts result results test tests sign carry`)
	signWords = set(`negative positive`)
	// pendingNouns after "outstanding": what is still owed or open.
	pendingNouns = set(`debt debts loan loans payment payments invoice invoices bill bills forms requests issues tickets
orders claims shares warrant warrants`)
	// qualityTopics name a quality as a topic, not praise, before a copula
	// or a measure: "Reliability is its weak spot", "reliability
	// rankings".
	qualityTopics = set(`reliability stability flexibility security privacy performance quality`)
	// gradeNouns after "risk" name a setting or a grade of it: "risk
	// level", "risk tolerance", "risk profile".
	gradeNouns = set(`level levels tolerance tolerances profile profiles appetite score scores rating ratings setting
settings preference preferences category categories grade grades band bands questionnaire`)
	measureNouns = set(`ranking rankings rating ratings score scores survey surveys record records issues problems
concerns complaints study studies index`)
	// adviceDegree after a copula and before "to" gives advice: "it's best
	// to cancel a day early", "it's better to book direct".
	adviceDegree = set(`best better wise advisable smart`)
	// purposeVerbs after "to" state the reader's purpose: "cancel early to
	// avoid being charged" is how-to advice, not a charge against the brand.
	purposeVerbs = set(`avoid prevent dodge minimise minimize escape`)
	// remedyWords deny the failure before them, as a guarantee or remedy:
	// "a jacket that fails gets repaired or replaced", "if it breaks, they
	// replace it".
	remedyWords = set(`repaired replaced refunded reimbursed swapped credited repair repairs replace replaces refund
refunds reimburse reimburses replacement`)
	// offerNouns opening a sentence make a price comparison one between
	// offers of the brand ("Monthly billing costs more", "The Pro plan
	// costs more"), not a fault.
	offerNouns = set(`billing monthly annual yearly plan plans tier tiers option options version versions edition
editions trim trims package packages bundle bundles add-on add-ons model models`)
)

// plainAdjective: the polar word w is a plain description in its place —
// a quality named as the topic ("Reliability is its weak spot"),
// "negative"/"positive" before an accounting noun, a fee's adjective
// before the fee ("surprise fees": the fee reads as the fault), or the
// degree of advice after a copula ("it's best to cancel early"), or
// "risk" naming a setting ("a risk level").
func plainAdjective(text, w, before string, pos, e int) bool {
	next := peekWord(text, pos, e)
	switch {
	case inSet(qualityTopics, w):
		return inSet(measureNouns, next) || inSet(copulaWords, next) && !inSet(copulaWords, before)
	case inSet(signWords, w):
		return inSet(accountingNouns, next)
	case strings.EqualFold(w, "careful"):
		return strings.EqualFold(before, "be") // a warning, read by factCriticism
	case inSet(feeAdjectives, w):
		return inSet(costNouns, next)
	case inSet(adviceDegree, w):
		return strings.EqualFold(next, "to") && inSet(copulaWords, before) || inSet(avoidParticiples, next)
	case strings.EqualFold(w, "risk"):
		// "pick a risk level from 1 to 10", "your risk tolerance": a
		// setting the user chooses, named by what it grades
		return inSet(gradeNouns, next)
	case strings.EqualFold(w, "proper"):
		// "in proper rain", "with proper care": a preposition's "proper"
		// is "real", an intensifier of the setting, not praise
		return inSet(settingPrepositions, before)
	case strings.EqualFold(w, "outstanding"):
		// "which forms are still outstanding", "an outstanding balance":
		// pending, not excellent
		return strings.EqualFold(before, "still") || inSet(accountingNouns, next) || inSet(pendingNouns, next)
	}
	return false
}

// settingPrepositions before "proper" make it an intensifier: "in proper
// rain", "on a proper trail", "with proper care".
var settingPrepositions = set(`in on under during with without for through`)

// brandOrPronounAt: the word after pos names the brand or stands for it
// ("to avoid Zestora", "to avoid it"): advice against the brand itself.
func (an *analysis) brandOrPronounAt(pos, e int) bool {
	p := pos
	for p < e && (an.text[p] == ' ' || an.text[p] == '*') {
		p++
	}
	if inSet(brandPronouns, peekWord(an.text, p, e)) {
		return true
	}
	cands := an.sc.cands
	k, _ := slices.BinarySearchFunc(cands, p, func(c cand, t int) int { return c.start - t })
	return k < len(cands) && cands[k].start == p && cands[k].ent == 0 && cands[k].state == candAccepted
}

// serviceVerbs, negated, are service that failed: "callbacks that never
// happen", "engineers who don't show up", "the refund never arrived",
// "nobody called back".
var (
	// occurVerbs, negated after a criticism, deny it: "crashes never
	// happen".
	occurVerbs   = set(`happen happens happened occur occurs occurred`)
	serviceVerbs = set(`happen happens happened arrive arrives arrived show showed shows turn turned call called
calls respond responds responded reply replies replied deliver delivers delivered honor honors honored honour
honours honoured`)
	// particleVerbs fail only with their particle: "don't show up" (not
	// "doesn't show ads"), "never called back" (not "doesn't call home").
	particleVerbs = map[string]string{"show": "up", "showed": "up", "shows": "up", "turn": "up", "turned": "up",
		"call": "back", "called": "back", "calls": "back"}
)

// serviceFailed: the negated service verb w, before next, is service
// that did not come (serviceVerbs).
func serviceFailed(w, next string) bool {
	if p, ok := particleVerbs[strings.ToLower(w)]; ok {
		return strings.EqualFold(next, p)
	}
	return true
}

// Praise stated as a rival's absence: "nothing free does more", "few
// brands come close", "no other app matches it".
var (
	unmatchedWords = set(`nothing few none`)
	// unmatchedVerbs end the claim: the absent rival does more, comes
	// close, matches.
	unmatchedVerbs = set(`more better close closer beats beat match matches rivals rival equals compares compare
touches`)
)

// unmatched: after "nothing", "few" or "none" at pos, a verb or
// comparative of matching within four words, in the same clause.
func unmatched(text string, pos, e int) bool {
	p := pos
	for k := 0; k < 4; k++ {
		w, np := wordAtAny(text[:e], p)
		if w == "" || strings.ContainsAny(text[p:np-len(w)], ",;:.") {
			return false
		}
		if inSet(unmatchedVerbs, w) {
			return true
		}
		p = np
	}
	return false
}

// termsOfArt after "limited" name a term, not a fault: "a limited
// warranty", "a limited edition", "limited liability".
var termsOfArt = set(`warranty warranties edition editions liability partnership release releases run time-offer`)

var (
	// priceComparatives in a sentence about one offer of the brand
	// against another ("Annual billing is cheaper than monthly billing").
	priceComparatives = set(`cheaper cheapest pricier priciest costlier dearer`)
	// pastMarkers after "was"/"were" ("was once the go-to") or "used to
	// be" put the praise after them in the past.
	pastMarkers = set(`once be`)
	pastCopulas = set(`was were`)
	usedWords   = set(`used`)
	// sendVerbs before a remedy noun: "they shipped a replacement".
	sendVerbs = set(`shipped sent issued gave offered mailed ship ships send sends issue issues offer offers give gives`)
)

var (
	// clauseOpeners open a clause whose subject follows: "…, while
	// Corvid is slow", "and Halden is unreliable".
	clauseOpeners = set(`and or but while whereas unlike though although however yet`)
	// relativeWords open a relative clause about the word before the
	// comma: "Corvid, whose refunds drag on".
	relativeWords = set(`which whose who that`)
)

var (
	// appearVerbs after a modal make the praise after them an appearance:
	// "can look unbeatable on the search page", "may seem generous".
	appearVerbs = set(`look looks seem seems appear appears`)
	// reasonNouns after "good": "good reasons to be cautious" judges the
	// reasons, not the brand.
	reasonNouns = set(`reason reasons grounds`)
	endWords    = set(`ends stops end stop`)
)

// newsEnds: "good" before "news ends" ("that's where the good news
// ends") closes the praise.
func newsEnds(text string, pos, e int) bool {
	w := peekWord(text, pos, e)
	return strings.EqualFold(w, "news") && inSet(endWords, peekWord(text, pos+1+len(w), e))
}
