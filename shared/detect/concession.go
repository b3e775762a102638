package detect

import "strings"

// What a writer grants before the point, and what a complaint holds.
// "To be fair, ThredUp is genuinely convenient", "Es cierto que la
// garantía es fiable": praise the writer concedes, not the answer's point.
// "Creators dislike that the cheapest plan limits …", "founders questioned
// whether they could trust Carta": the praise words inside a complaint or
// a doubt are what is complained of or doubted.

// concessionOpeners open a span with a concession.
var concessionOpeners = phrases(`to be fair|in fairness|in all fairness|admittedly|granted|to its credit|
to their credit|it's true that|it is true that|es cierto que|es verdad que|hay que reconocer que|il est vrai que|
certes|zugegeben|zugegebenermaßen|fairerweise`)

// concessionClosers grant the praise before them as settled, to turn to
// the point: "Its earbuds sound excellent — that part isn't in dispute."
var concessionClosers = phrases(`isn't in dispute|is not in dispute|isn't in question|is not in question|no one disputes|
nobody disputes|no one denies|nobody denies|no one doubts|nobody doubts|no argument there|no dispute there`)

var (
	// upsideNouns name the good side as a whole: "its advantages", "the
	// good news", "the praise".
	upsideNouns = set(`advantages advantage upside upsides strengths strength positives benefits perks praise news appeal
plus pluses merits`)
	// boundVerbs end that side: "… where its advantages end", "the good
	// news stops there".
	boundVerbs = set(`end ends ended stop stops stopped`)
)

// conceded weighs the praise p of the span t: conceded when the span opens
// with a concession or closes on one, and when it bounds its own praise
// ("Wag has the slicker booking flow, but that's about where its
// advantages end"), which then also reads as criticism: the rest is worse.
func (an *analysis) conceded(t string, p, n float64) (float64, float64) {
	if p == 0 {
		return p, n
	}
	if upsideBounded(t) || onlyUpside(t) { // scopeturn.go: "the only point in its favour"
		return p * an.d.sent.concede, max(n, sentClear)
	}
	if concessionOpeners.opens(t) || concessionClosers.in(t) || turnEnds(t) || turnIntroduces(t) {
		return p * an.d.sent.concede, n
	}
	return p, n
}

// upsideBounded: t says where the good side ends — an upside noun with an
// ending verb right after it ("where its advantages end", "the good news
// stops there").
func upsideBounded(t string) bool {
	prev := ""
	for pos := 0; ; {
		w, np := wordAtAny(t, pos)
		if w == "" {
			return false
		}
		if inSet(boundVerbs, w) && inSet(upsideNouns, prev) {
			return true
		}
		prev, pos = w, np
	}
}

// turnEnds: the span is a clause cut at a turn to what follows it ("Phantom's
// interface is easy to use, but" — a rival or a condition after it): its
// praise is what the writer grants before the point.
func turnEnds(t string) bool {
	t = strings.TrimRight(t, " ,—–-")
	i := strings.LastIndexAny(t, " ,")
	return i >= 0 && inSet(turnWords, t[i+1:])
}

var (
	// grudgeVerbs report a complaint whose object follows: "dislike that
	// …", "complain about …", "grumble that …".
	grudgeVerbs = set(`dislike dislikes disliked hate hates hated resent resents resented grumble grumbles grumbled
complain complains complained lament lament laments lamented`)
	// doubtVerbs before "whether"/"if": "questioned whether they could
	// trust it".
	doubtVerbs = set(`question questions questioned questioning doubt doubts doubted doubting wonder wonders wondered
wondering`)
	grudgeLinks = set(`that about how whether if`)
)

// grudged: in [s,e), a complaint or a doubt reported before what it is
// about ("Creators dislike that the cheapest plan limits …", "questioned
// whether they could trust Carta"); at is where its object starts. The
// praise from there to the clause's end is the object's, and the span
// holds at least a complaint.
func (an *analysis) grudged(s, e int) (at, end int, ok bool) {
	t := an.text[s:e]
	prev := ""
	for pos := 0; ; {
		w, np := wordAtAny(t, pos)
		if w == "" {
			return 0, 0, false
		}
		if inSet(grudgeLinks, w) && (inSet(grudgeVerbs, prev) || inSet(doubtVerbs, prev) && !strings.EqualFold(w, "that")) {
			end := len(t)
			if i := strings.IndexAny(t[np:], ";.!?—"); i >= 0 {
				end = np + i
			}
			return s + np, s + end, true
		}
		prev, pos = w, np
	}
}

// besideGrudge reweighs the span [s,e): praise inside a reported complaint
// or doubt is not the brand's, and the complaint counts.
func (an *analysis) besideGrudge(s, e int, p, n float64) (float64, float64) {
	at, end, ok := an.grudged(s, e)
	if !ok || p == 0 {
		return p, n
	}
	pin, _ := an.peekValence(at, end)
	return max(0, p-pin), max(n, sentClear)
}

// turnIntroduces: the span turns and introduces, by its closing colon,
// what follows ("Mercari used to be the easy, low-fee option, but it's
// drifted:", "eToro advertises zero-commission stocks, but the costs show
// up elsewhere:"): the praise before the turn sets up the list after it.
func turnIntroduces(t string) bool {
	t = strings.TrimRight(t, " *_")
	if !strings.HasSuffix(t, ":") {
		return false
	}
	return hasWordIn(t, turnWords)
}
