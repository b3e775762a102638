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

// conceded weighs the praise p of the span t: conceded when the span opens
// with a concession.
func (an *analysis) conceded(t string, p float64) float64 {
	if p > 0 && concessionOpeners.opens(t) {
		return p * an.d.sent.concede
	}
	return p
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
	saved := an.sent
	pin, _, _ := an.valence(at, end)
	an.sent = saved
	return max(0, p-pin), max(n, sentClear)
}
