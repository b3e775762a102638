package detect

import "strings"

// The answer-level weighing of praise and criticism: a person files the
// answer by what dominates it, not by the sum of its clauses. A verdict
// against the brand decides a two-sided reading; a caveat the writer
// minimises leaves praise one-sided; a frame announcing the other side
// ("Where it falls short", "On the other hand, …") makes praise two-sided.

// phraseList holds word sequences by their first word (lower case):
// a text is matched with one set probe per word.
type phraseList struct {
	first map[string]bool
	rest  map[string][][]string
}

// phrases splits on "|" into word sequences.
func phrases(s string) phraseList {
	pl := phraseList{first: map[string]bool{}, rest: map[string][][]string{}}
	for _, p := range strings.Split(s, "|") {
		if f := strings.Fields(strings.ToLower(p)); len(f) > 0 {
			pl.first[f[0]] = true
			pl.rest[f[0]] = append(pl.rest[f[0]], f[1:])
		}
	}
	registerFilter(pl.first) // inSet probes it for every word of a span
	return pl
}

// at reports whether a phrase starts with the word w that ends at np in t.
func (pl phraseList) at(t, w string, np int) bool {
	if !inSet(pl.first, w) {
		return false
	}
	for _, rest := range pl.rest[strings.ToLower(w)] {
		q, ok := np, true
		for _, want := range rest {
			var x string
			x, q = wordAtAny(t, q)
			if !strings.EqualFold(x, want) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// in reports whether a phrase of pl occurs in t.
func (pl phraseList) in(t string) bool { return pl.index(t) >= 0 }

// index returns where the first phrase of pl in t starts, or -1.
func (pl phraseList) index(t string) int {
	for pos := 0; ; {
		w, np := wordAtAny(t, pos)
		if w == "" {
			return -1
		}
		if pl.at(t, w, np) {
			return np - len(w)
		}
		pos = np
	}
}

// opens reports whether t opens (after markdown) with a phrase of pl.
func (pl phraseList) opens(t string) bool {
	w, np := wordAtAny(t, 0)
	return w != "" && pl.at(t, w, np) && strings.TrimLeft(t[:np-len(w)], " \t*_#>-0123456789.") == ""
}

var (
	// warnPhrases tell the reader to stay away from the brand or go
	// elsewhere: a verdict against it wherever the writer says it about
	// the brand ("there are good reasons to be cautious", "is harder to
	// recommend now") or closes an answer about the brand with it ("you're
	// better off on …", "most drivers suggest using another network").
	warnPhrases = phrases(`better off|look elsewhere|shop elsewhere|go elsewhere|went elsewhere|moved elsewhere|
move elsewhere|moving elsewhere|take your business elsewhere|go there instead|go there|think twice|steer clear|stay away|
be cautious|be wary|proceed with caution|reasons to be cautious|reasons for caution|hard to recommend|harder to recommend|
difficult to recommend|can't recommend|cannot recommend|wouldn't recommend|would not recommend|don't recommend|
do not recommend|use another|using another|try another|choose another|pick another|switch to another|
réfléchissez à deux fois|réfléchir à deux fois|passez votre chemin|allez voir ailleurs|voir ailleurs|mieux vaut éviter|
difficile à recommander|difficile de recommander|je ne recommande pas|piénsalo dos veces|piénsatelo dos veces|
mejor evitar|mejor buscar otra|busca otra|difícil de recomendar|no lo recomiendo|no la recomiendo|no recomiendo|
finger weg|besser dran|lieber woanders|woanders hin|schwer zu empfehlen|nicht empfehlen|zweimal überlegen|
buy it somewhere else|buy somewhere else|shop somewhere else|look somewhere else|go somewhere else|buy elsewhere|
buy it elsewhere|achetez ailleurs|acheter ailleurs|cómpralo en otro sitio|compra en otro sitio|woanders kaufen|
skip it|skip this one|avoid it|pass on it|give it a miss|spend a bit more on|spend a little more on|spend a few dollars more on|
mieux vaut se tourner|mieux vaut opter|mejor optar por`)
	// preferWords in a labelled verdict that does not name the brand point
	// to something else: "**Verdict:** Ally will treat your money better",
	// "a mainstream airline … is far less stressful".
	preferWords = set(`better safer cheaper smarter wiser simpler easier preferable less instead mejor mejores meilleur
meilleure mieux besser günstiger`)
	// counterFrames open the other side of a two-sided answer: what
	// follows is the brand's criticism, whatever words it uses.
	counterFrames = phrases(`the problem is|the problems start|the bad news|the downside is|on the downside|
that's where the good news ends|the trouble is|le problème|le hic|el problema es|lo malo|das problem ist|der haken|
die kehrseite|the case against|the flip side|the other side of the coin`)
	// downhillFrames say that all that follows is bad news: the praise
	// before them was a concession.
	downhillFrames = phrases(`the problems start|the problems begin|the trouble starts|the trouble begins|
that's where the good news ends|that is where the good news ends|that's where the praise ends|after that it gets worse|
les problèmes commencent|los problemas empiezan|los problemas comienzan|die probleme beginnen|danach wird es schlimmer`)
	// turnFrames open the other side only after praise ("On the other
	// hand, …"): after criticism they may as well open praise.
	turnFrames = phrases(`on the other hand|on the flip side|on the other side|en revanche|par contre|auf der anderen seite|andererseits|
por otro lado|en cambio|dagegen`)
	// shortfallVerbs after "where" frame the brand's weak side: "Where it
	// falls short", "Where Notion struggles is …".
	shortfallVerbs = set(`falls fall struggles struggle stumbles stumble lags lag disappoints disappoint trails trail
loses lose`)
	// minimisers before a caveat noun make it minor ("the only real
	// drawback", "one minor gripe", "le seul bémol", "el único
	// inconveniente", "der einzige Nachteil").
	minimisers = set(`only minor small slight seul seule único única einzige einziger einzigen kleine kleiner kleinen`)
	// minimiserHeads before a minimiser: "the only", "one minor", "its
	// only"; "only" alone restricts ("works only with …").
	minimiserHeads = set(`the a an one its their my our le la un une el una der die das ein eine einen`)
	definiteHeads  = set(`the my its their our his her`)
	minorCaveats   = set(`weakness weaknesses complaint complaints gripe gripes quibble quibbles flaw flaws issue problem limitation limitations bémol défaut problema pero manko kritikpunkt schwäche`)
	smallPricePay  = phrases(`small price to pay|petit prix à payer|pequeño precio a pagar|kleiner preis`)
)

// counterFrame: t opens with a frame announcing the brand's weak side —
// "The problem is …", "**Where it falls short**", "Where Notion
// struggles is …" — or, after praise (afterPraise), with a turn to the
// other side ("On the other hand, …").
func counterFrame(t string, afterPraise bool) bool {
	if counterFrames.opens(t) || afterPraise && turnFrames.opens(t) {
		return true
	}
	t = strings.TrimLeft(t, " \t*_#>-0123456789.")
	w, pos := wordAtAny(t, 0)
	if !strings.EqualFold(w, "where") {
		return false
	}
	for k := 0; k < 3; k++ {
		w, pos = wordAtAny(t, pos)
		if inSet(shortfallVerbs, w) {
			return true
		}
	}
	return false
}

// whatOpeners open a heading that names what it lists: "What …", "Where
// …", "Lo que …", "Ce qui …", "Was …", "Cosa …", "O que …".
var whatOpeners = set(`what what's where lo ce was cosa ciò quello o`)

// doubtWords in such a heading name the reader's second thoughts: "What
// gives people pause", "What owners complain about", "What to worry about".
var doubtWords = set(`pause hesitate hesitation doubts worry worries bother bothers complain complains`)

// weakSideHeading: t heads what the brand does not do well — a
// what-heading ("What users don't like", "Lo que no convence", "Cosa non
// convince", "O que não convence") whose first words hold a negator or a
// doubt word: the mirror of peopleLikeHeading.
func weakSideHeading(t string) bool {
	t = strings.TrimLeft(t, " \t*_#>-")
	w, np := wordAtAny(t, 0)
	if !inSet(whatOpeners, w) {
		return false
	}
	for k := 0; k < 4; k++ {
		if w, np = wordAtAny(t, np); w == "" {
			return false
		} else if foreignLookup(w)&lexNegator != 0 || inSet(romanceNegators, w) || inSet(doubtWords, w) {
			// "What's not to like": the question praises
			to, rest := wordAtAny(t, np)
			return !strings.EqualFold(to, "to") || !inSet(likingVerbs, peekWordAny(t, rest))
		}
	}
	return false
}

// likingVerbs after "what's not to" make the heading rhetorical praise.
var likingVerbs = set(`like love enjoy adore`)

// romanceNegators are the negators of Italian and Portuguese, which the
// foreign lexicon does not read.
var romanceNegators = set(`non não nao`)

// minimisedCaveat: t plays its criticism down — a caveat noun after a
// minimiser ("the only real drawback", "one minor gripe") or "a small
// price to pay".
func minimisedCaveat(t string) bool {
	if smallPricePay.in(t) {
		return true
	}
	minLeft, prev := 0, ""
	for pos := 0; ; {
		w, np := wordAtAny(t, pos)
		if w == "" {
			return false
		}
		switch {
		case inSet(minimisers, w) && (inSet(minimiserHeads, prev) || strings.HasSuffix(prev, "'s") || strings.HasSuffix(prev, "’s")),
			strings.EqualFold(w, "one") && inSet(definiteHeads, prev): // "the one consistent gripe", "my one complaint"
			minLeft = 3 // "the only real drawback": up to two words between
		case minLeft > 0 && (inSet(caveatNouns, w) || inSet(minorCaveats, w)):
			return true
		default:
			minLeft--
		}
		prev, pos = w, np
	}
}

// reportedResidue: t reports what most of the brand's reviewers think
// and then the complaint left over — "Customer reviews are generally
// positive, with most complaints about slow underwriting", "Owners mostly
// praise the meter; the common gripe is …" —: beside the praise it
// reports (the caller asks), the complaint is the minority's, a minor
// caveat.
func reportedResidue(t string) bool {
	reporter, most := false, false
	for pos := 0; ; {
		w, np := wordAtAny(t, pos)
		switch {
		case w == "":
			return false
		case inSet(reporterNouns, w) || inSet(reportNouns, w):
			reporter = true
		case inSet(majorityWords, w):
			most = true
		case reporter && most && (inSet(caveatNouns, w) || inSet(minorCaveats, w) || inSet(residueNouns, w)):
			return true
		}
		pos = np
	}
}

var (
	// reportNouns carry a verdict of the brand's reviewers ("reviews are
	// generally positive").
	reportNouns = set(`reviews ratings feedback`)
	// majorityWords say the report is most reviewers' ("overall,
	// reviewers rate it well").
	majorityWords = set(`generally mostly largely broadly overall overwhelmingly`)
	// residueNouns name the complaint left over.
	residueNouns = set(`criticism criticisms`) // "complaints": minorCaveats reads it first
)

var (
	// warnConditions open a case or an exception ("if you have a choice",
	// "unless you're on iPhone"); a warning is restricted to a case only by
	// caseWords — "unless …" leaves the brand the exception.
	warnConditions = set(`if unless when si sauf quand wenn falls außer ausser cuando`)
	// turnWords before a warning turn it against what precedes ("…, but
	// think twice", "Most reviewers' advice, though: …").
	turnWords = set(`but however though yet pero mais cependant toutefois aber jedoch doch`)
)

// warning is how a sentence warns against the brand.
type warning uint8

const (
	warnNone  warning = iota
	warnIf            // in a case: "If you have a choice, use another network"
	warnPlain         // "think twice", "you're better off on …"
)

// warnsAgainst: how the sentence [s,e) warns against the brand or sends
// the reader elsewhere. A conditional warning beside praise of the brand
// in its own sentence or the one before ("it's a strong choice for filter
// coffee. If you want one grinder for everything, look elsewhere") sets
// out two cases and is none, unless it turns against that praise ("Subway
// still wins on locations. Most reviewers' advice, though: if there's a
// Jersey Mike's nearby, go there").
func (an *analysis) warnsAgainst(s, e, prevS int) warning {
	t := an.text[s:e]
	at := warnPhrases.index(t)
	if at < 0 {
		return warnNone
	}
	switch w, np := wordAtAny(t, at); {
	case strings.EqualFold(w, "better") && an.brandIn(s+np, e):
		return warnNone // "you're better off with Zestora's family plan": the brand's own option
	case strings.EqualFold(w, "go") && (!an.otherIn(s, e) || an.brandIn(s, e)):
		return warnNone // "go there" sends to a rival named beside it, not "go there early"
	case strings.EqualFold(w, "be"):
		if _, np2 := wordAtAny(t, np); strings.EqualFold(peekWord(t, np2, len(t)), "with") {
			return warnNone // "be careful with the chilli oil": a tip, not a warning
		}
	}
	if !splitSaid(t[:at]) && (adversativeOpener(t) || hasWordIn(t[:at], turnWords) || !hasWordIn(t, caseWords) && !forCase(t[:at])) {
		// (after "it comes down to how you invest:" the warning is one
		// case's, like one after "if")
		return warnPlain
	}
	saved := an.sent
	defer func() { an.sent = saved }()
	if p, n, _ := an.valence(s, e); p > n {
		return warnNone
	}
	if prevS >= 0 && prevS < s {
		if p, n, _ := an.valence(prevS, s); p > n {
			return warnNone
		}
	}
	return warnIf
}

// forCase: the clause before a warning opens with a purpose the warning is
// limited to ("For a checked bag, look elsewhere"; "…; for hiking boots,
// shop somewhere else") — a case as much as an "if" is.
func forCase(before string) bool {
	if i := strings.LastIndexAny(before, ";:—"); i >= 0 {
		before = before[i+1:]
	}
	before = strings.TrimSpace(before)
	w, _ := wordAtAny(before, 0)
	return inSet(forCaseOpeners, strings.ToLower(w)) && strings.Contains(before, ",")
}

// forCaseOpeners open a purpose clause: "for", "pour", "para", "für".
var forCaseOpeners = set(`for pour para für`)

// kindArticles after a forCaseOpener make its purpose one kind of reader
// or use ("for a first pen"), not readers at large ("for most people").
var kindArticles = set(`a an un une una ein eine einen`)

// forKind: the words at pos in t open "for a …" — a verdict restricted so
// ("hard to justify for a family of five"; "**Verdict:** For a first pen,
// Platinum is the safer buy") judges one case, not the brand.
func forKind(t string, pos int) bool {
	w, np := wordAtAny(t, pos)
	if !inSet(forCaseOpeners, strings.ToLower(w)) {
		return false
	}
	a, _ := wordAtAny(t, np)
	return inSet(kindArticles, strings.ToLower(a))
}

// closingAgainst: the answer's closing — its last two sentences, or a
// labelled verdict anywhere ("**Bottom line:** …") — gives a verdict
// against the brand: it warns against it or sends the reader elsewhere
// (warnsAgainst; only where the answer is about the brand), or a labelled
// verdict that does not name the brand prefers something else ("**Verdict:**
// Ally or Capital One will treat your money better").
func (an *analysis) closingAgainst() (w warning, s, e int) {
	text := an.text
	topic := an.brandIsTopic()
	var ls, le, ps, pe = -1, -1, -1, -1 // the last sentence and the one before
	for pos := 0; pos < len(text); {
		st, en, found := sentenceAfter(text, pos)
		if !found {
			// past a heading or a run of blank lines: go on after them
			for pos < len(text) && isSpaceByte(text[pos]) {
				pos++
			}
			if st, en, found = sentenceAfter(text, pos); !found {
				break
			}
		}
		if en <= pos {
			break
		}
		pos = en
		if question(text[st:en]) {
			continue
		}
		if verdictLine(text[st:en]) && an.prefersOther(st, en) && !an.verdictTwoCases(st, en) && // scopeturn.go
			!(forCase(text[st:en]) && forKind(text[st:en], strings.LastIndexAny(text[st:en], ";:—")+1)) {
			return warnPlain, st, en
		}
		ps, pe, ls, le = ls, le, st, en
	}
	if !topic || ls < 0 {
		return warnNone, 0, 0
	}
	if ps >= 0 {
		if w := an.warnsAgainst(ps, pe, -1); w != warnNone {
			return w, ps, pe
		}
	}
	return an.warnsAgainst(ls, le, ps), ls, le
}

// prefersOther: the labelled verdict [s,e) names neither the brand nor a
// pronoun for it, and prefers something else.
func (an *analysis) prefersOther(s, e int) bool {
	t := an.text[s:e]
	if brand, _ := an.entitiesIn(s, e); brand || hasWordIn(t, brandPronouns) {
		return false
	}
	return hasWordIn(t, preferWords) || warnPhrases.in(t) || verdictToKind(t) // rivalwin.go: "get a decent drip machine"
}

var (
	// prosHeads open a section of the brand's strengths ("### What works",
	// "**Pros**", "Points forts").
	prosHeads = phrases(`pros|what works|where it works|what we like|what i like|what's good|strengths|upsides|advantages|the good|
ventajas|pros y contras|lo bueno|avantages|points forts|les plus|vorteile|stärken|positive|positiv|the positives|lo positivo|
lo que más se valora|points positifs|pluspunkte|the case for|positives|punti a favore|punti di forza|pregi|vantaggi|
pontos fortes|pontos positivos|vantagens|prós`)
	// consHeads open a section of its faults ("**Cons**", "Common
	// complaints"), besides the counterFrames.
	consHeads = phrases(`cons|what doesn't work|what's not|what’s not|what isn't|what isn’t|where it doesn't work|where it doesn’t work|what we don't like|weaknesses|downsides|drawbacks|the bad|common complaints|
complaints|desventajas|contras|lo malo|inconvénients|points faibles|les moins|nachteile|schwächen|negative|negativ|
the negatives|negatives|lo negativo|pegas|las pegas|points négatifs|kritikpunkte|minuspunkte|the case against|
weak point|weak points|weak spot|weak spots|the fine print|punti critici|punti deboli|difetti|svantaggi|contro|
pontos fracos|pontos negativos|desvantagens`)
)

// sectionSide classifies the span [s,e) when it is a heading (a markdown
// heading, a bold line or a line ending in a colon): +1 a section of the
// brand's strengths, -1 of its faults, 0 another heading; ok=false when
// it is no heading.
func sectionSide(text string, s, e int, p, n float64) (side int, ok bool) {
	le := strings.IndexByte(text[e:], '\n')
	if le < 0 {
		le = len(text) - e
	}
	if !lineStart(text, s) || strings.TrimSpace(text[e:e+le]) != "" {
		return 0, false // a heading is a whole line
	}
	t := strings.TrimSpace(text[s:e])
	bold := strings.HasPrefix(t, "**") && (strings.HasSuffix(t, "**") || strings.HasSuffix(t, "**:") || strings.HasSuffix(t, ":**"))
	if !strings.HasPrefix(t, "#") && !bold && !strings.HasSuffix(t, ":") {
		return 0, false
	}
	switch {
	case consHeads.opens(t) || counterFrame(t, false) || weakSideHeading(t) || n > p:
		return -1, true
	case prosHeads.opens(t) || p > n || peopleLikeHeading(t):
		return 1, true
	}
	return 0, true
}

// lineStart: s opens its line (after indentation).
func lineStart(text string, s int) bool {
	ls := strings.LastIndexByte(text[:s], '\n') + 1
	return strings.TrimLeft(text[ls:s], " \t") == ""
}

// listItem: the span at s opens a list line ("- …", "* …", "2. …").
func listItem(text string, s int) bool {
	return lineStart(text, s) && listMarkerLen(text[s:min(len(text), s+8)]) > 0
}

// sections tallies the list items under the brand's headings: items of
// its strengths (pros) and of its faults (cons).
type sections struct {
	side       int
	pros, cons int
	itemN      float64 // the criticism the items under the headings read
	weakHead   bool    // a heading set out the brand's weak side: "**What gives people pause**"
}

// add notes the span [s,e) that reads p and n.
func (sc *sections) add(text string, s, e int, p, n float64) {
	if side, ok := sectionSide(text, s, e, p, n); ok {
		sc.side = side
		sc.weakHead = sc.weakHead || side == -1 && weakSideHeading(text[s:e])
		return
	}
	if !listItem(text, s) {
		if strings.Contains(text[max(0, s-2):s], "\n\n") {
			sc.side = 0 // a paragraph after the list closes its section
		}
		return
	}
	switch sc.side {
	case 1:
		sc.pros++
	case -1:
		sc.cons++
	}
	if sc.side != 0 {
		sc.itemN += n
	}
}

// verdict reads the tally beside the answer's praise p and criticism n: a
// list of faults at least twice as long as the list of strengths (and at
// least three) is against the brand ("What works": two items; "What renters
// complain about": five); with no list of strengths, the praise in the prose
// stands for it, and the faults dominate only at twice its weight ("one of
// the nicest-looking apps … The limitations are significant, though:"
// and three items are not against it); lists of which neither is twice the other
// make it two-sided (four pros, four cons; not three pros and one con).
func (sc *sections) verdict(p, n float64) (against, twoSided bool) {
	against = sc.cons >= 3 && sc.cons >= 2*sc.pros && (sc.pros > 0 || n >= 2*p)
	return against, sc.pros > 0 && sc.cons > 0 && sc.cons < 2*sc.pros && sc.pros < 2*sc.cons
}

var (
	// factOpeners open a query that asks how something works or is done
	// ("how to cancel X", "how does X work", "what is X", "cómo", "comment",
	// "wie").
	factOpeners = set(`how what when where does do can cómo como qué cuándo dónde comment quand où wie was wann wo`)
	// factNouns ask for facts: "X plans and prices", "X specs"; so does a
	// request for an explanation ("X hotel brands explained", "X toy colours
	// meaning"): the answer describes, and a ranking word in it ("at the
	// top", "by chew strength") places, not praises.
	factNouns = set(`specs specifications spec price prices pricing plans cost costs fees hours policy requirements
steps tutorial setup install dimensions meaning explained precio precios tarifas prix tarif tarifs preis preise kosten`)
)

// factAsked: the query asks for facts ("how to make a discord server",
// "zoom plans and prices", "rav4 hybrid specs"), not a judgement.
func (an *analysis) factAsked() bool {
	if an.query == "" || an.judgementAsked() || placeAsked(an.query) {
		return false
	}
	w, next := wordAtAny(an.query, 0)
	if w2, _ := wordAtAny(an.query, next); strings.EqualFold(w, "how") && inSet(copulaWords, w2) ||
		hasWordIn(an.query, opinionNouns) {
		return false // "how is X's support", "X complaints": a judgement asked
	}
	return inSet(factOpeners, w) || hasWordIn(an.query, factNouns)
}

// opinionNouns ask what people think, whatever the query opens with.
var opinionNouns = set(`problems problem complaints complaint issues review reviews reputation opinion opinions
experience experiences think compare comparison vs versus better worse avis opiniones opinión erfahrungen meinung`)

// factSheet: the answer to a question of fact reads one mild judgement
// (at most a polar word's weight, in one of at least minFactSpans spans):
// a stray word in a how-to, a price list or a spec sheet ("Monthly
// billing costs more.", "Trims run from LE up to Limited") is no opinion
// of the brand.
func (an *analysis) factSheet(spans, judged int, p, n float64) bool {
	return spans >= minFactSpans && judged == 1 && max(p, n) <= 1 && an.factAsked()
}

// minFactSpans: an answer this long with a single judgement is a fact
// sheet.
const minFactSpans = 4

// consolers open an answer that tells the reader others share their
// trouble with the brand ("You're not alone — sagging is …", "Lots of
// people have run into this"): the writer confirms the complaint the
// query brings, a verdict against the brand whatever help follows (the
// steps that work around it are no praise of it).
var consolers = phrases(`you're not alone|you are not alone|you aren't alone|you’re not alone|you're not the only one|
you are not the only one|you’re not the only one|lots of people have run into|many people have run into|
plenty of people have run into|vous n'êtes pas seul|vous n'êtes pas le seul|
no eres el único|no estás solo|du bist nicht allein|sie sind nicht allein`)

// onlyIfOpeners open a bare answer that grants the brand a case only
// ("Is X worth it?" — "Only if Ultimate Team is your whole life."): a
// qualified no.
var onlyIfOpeners = phrases(`only if|not unless|solo si|sólo si|seulement si|uniquement si|nur wenn`)

// brandPreferred: a sentence names the brand the better choice without
// condition — "For a 20-person team, Linear is the better choice" (the
// query's own case), not "… if you live in Apple's ecosystem": the mirror
// of rivalPreferred, a verdict for the brand.
func (an *analysis) brandPreferred() bool {
	text := an.text
	return an.anyBrandMention(func(c *cand, rec *sentRec) bool {
		if hasWordIn(text[rec.start:rec.end], conditionWords) {
			return false
		}
		prev, prev2 := "", ""
		for pos := c.end; pos < rec.end; {
			w, np := wordAtAny(text[:rec.end], pos)
			if w == "" || an.otherIn(pos, np) {
				return false
			}
			if inSet(fitNouns, w) && (inSet(preferredComparatives, prev) || inSet(preferredComparatives, prev2)) {
				return true
			}
			prev, prev2, pos = w, prev, np
		}
		return false
	})
}

// otherIn: a counted mention of another entity lies in [s,e).
func (an *analysis) otherIn(s, e int) bool {
	_, other := an.entitiesIn(s, e)
	return other
}

// answerReading is what the answer-level weighing reads beside the
// clauses' praise and criticism (brandSentiment).
type answerReading struct {
	verdict   bool    // a verdict against the brand ("I wouldn't", "a poor fit")
	vp, vn    float64 // the labelled verdict line's praise and criticism
	vCond     bool    // the verdict line sets a condition
	against   warning
	minimised bool // a caveat played down
	framed    bool // a frame opening the other side, or two-sided lists
	downhill  bool // "The problems start …"
	pDownhill float64
	// secAgainst: lists of faults dominate; closingPraise: the last span
	// that judges praises
	secAgainst, closingPraise bool
	caveat                    bool // a caveat announced ("the catch is …")
	factSheet                 bool
	preferred                 bool    // brandPreferred
	picked                    bool    // the answer recommends the brand, which the query does not name ("best …")
	twoLists                  bool    // lists of strengths and faults, neither twice the other
	listN                     float64 // the criticism read in those lists
	split                     bool    // the writer says the answer depends ("It comes down to how you invest")
	cases                     bool    // casesplit.go: praise for one case beside a case against the brand
}

// splitFrames say the answer about the brand depends on the reader's case
// or is two-sided as a whole: "it depends on what you sell", "it comes down
// to how you invest", "a mixed picture", "opinions are split", "la qualité
// divise", "die Erfahrungen sind gemischt".
var splitFrames = phrases(`it depends|depends on what|depends on how|depends on your|comes down to how|comes down to what|
comes down to your|depending on how|depending on what|depending on your|weigh which|a mixed picture|a mixed bag|depende de|todo depende|ça dépend|cela dépend|tout dépend|
kommt darauf an|hängt davon ab|are split|is split|are divided|is divided|been divided|divise|divisent|sont partagés|
sind gemischt|ist gemischt|están divididas|están divididos`)

// someOthers: t divides the brand's range in two — "Some pieces are great
// value; others aren't worth the price", "Some models last, others don't":
// a split, whose negative half is no verdict on the brand as a whole.
func someOthers(t string) bool {
	w, np := wordAtAny(t, 0)
	if !strings.EqualFold(w, "some") {
		return false
	}
	i := strings.IndexAny(t[np:], ";,—")
	if i < 0 {
		return false
	}
	o, _ := wordAtAny(t, np+i)
	return strings.EqualFold(o, "others") || strings.EqualFold(o, "other")
}

// splitSaid: t says the answer depends, and does not turn from that in
// the same sentence ("Depende de la ruta, pero las quejas se repiten"
// sets the case aside).
func splitSaid(t string) bool {
	at := splitFrames.index(t)
	return at >= 0 && !hasWordIn(t[at:], turnWords)
}

// judge decides the class of praise p and criticism n (sentParams.decide)
// and weighs it by the answer's dominance; it returns the class, the
// criticism (at least clear when a frame made praise two-sided) and
// whether a verdict stands against the brand.
func (a *answerReading) judge(pm sentParams, p, n float64) (Sentiment, float64, bool) {
	s, verdict := pm.decide(p, n), a.verdict
	againstIt := (a.against == warnPlain || a.against == warnIf && n >= p) && n >= sentClear
	switch {
	case s != Mixed && a.factSheet:
		// "zoom plans and prices": a table and "Monthly billing costs
		// more." — a stray word in a fact sheet
		s = Neutral
	case a.secAgainst && !a.closingPraise && n >= sentClear && s == Mixed:
		// "### What works" (two items), "### What renters complain
		// about" (five): the faults dominate the answer, unless it closes
		// on praise ("Purple does have loyal fans, …")
		s = Negative
	case a.split && !verdict && a.against != warnPlain && (s == Mixed || s == Negative && p >= sentNeutral || s == Positive && n >= sentClear):
		// "It comes down to how you invest: a few larger trades — Stake
		// is fine; frequent small buys — look elsewhere": the writer
		// splits the answer by case, and a warning in one case is one side
		s = Mixed
	case a.cases && !verdict && a.against == warnNone && s == Positive:
		// casesplit.go: "If you live near a hub, it's worth it; if you'd
		// need two connections, a nonstop is better" — two cases, two sides
		s, n = Mixed, max(n, sentClear)
	case againstIt && (s == Mixed || s == Positive):
		// Criticism beside a verdict against the brand — a warning ("think
		// twice", "harder to recommend now") or a closing that sends the
		// reader elsewhere ("**Bottom line:** you're better off on …"):
		// the praise was a concession, the answer is negative.
		s, verdict = Negative, true
	case (s == Mixed || s == Positive) && a.downhill && p-a.pDownhill < sentNeutral && n >= sentClear:
		// "Factor is convenient. The problems start after the first box.
		// …": praise only before the writer says all that follows is bad
		s = Negative
	case s == Mixed && verdict && n >= p:
		// Praise beside a verdict against the brand ("powerful, but
		// rarely the right tool") reads as the verdict.
		s = Negative
	case s == Mixed && a.vp >= sentClear && a.vn < sentNeutral && !a.vCond && p >= n && pm.verdictLine:
		// "**Bottom line:** worth every penny": a one-sided verdict with
		// no condition ("a strong pick if …" stays two-sided)
		s = Positive
	case s == Mixed && !verdict && p >= n && (a.preferred || a.picked && a.closingPraise && a.against == warnNone && !a.vCond && a.vn < sentNeutral):
		// "For a 20-person team, Linear is the better choice": a verdict
		// for the brand decides a two-sided reading. So does the brand
		// picked among options the query asked for, when the answer
		// closes on its praise ("the case lock-in is the main drawback"
		// before "If you want one pump that lasts, get the Lezyne"): the
		// caveat is weighed into the pick. Asked about the brand itself
		// ("is X good"), naming it first is no pick, and an answer that
		// closes on the caveat or a case stays two-sided.
		s = Positive
	case s == Mixed && a.minimised && !verdict && p > n:
		// "The only real drawback is …" beside more praise: a minor
		// caveat, the answer is positive
		s = Positive
	case s == Positive && a.framed && !a.minimised && p >= sentClear:
		// "**Where it falls short**", "On the other hand, …": the writer
		// sets out a second side, whether or not its words read as
		// criticism
		s, n = Mixed, max(n, sentClear)
	case s == Negative && a.twoLists && !verdict && a.against == warnNone && a.vn < sentNeutral && n-a.listN < sentClear:
		// "**Lo que más se valora**" (three items), "**Las pegas**" (two):
		// the lists set out both sides, whatever words the rules read in
		// them — unless the prose around them outweighs them
		s = Mixed
	case a.caveat && !verdict && n >= sentNeutral && pm.caveat:
		// "The catch is …", "The downsides are real, though", "its main
		// drawbacks are practical": a caveat so announced presumes an
		// upside — the answer is two-sided.
		s = Mixed
	}
	return s, n, verdict
}
