package detect

import "strings"

// Praise fenced off by the writer. "Corvid mugs are cheap and cute. Beyond
// that, they chip within weeks": a sentence that opens by stepping past
// what was said ("Beyond that", "Past its looks", "Apart from that") and
// reads criticism says the praise before it was all there is — the answer
// goes downhill from there. "It's cheap, and that's the only point in its
// favour": praise called the only upside bounds itself, like "that's
// where its advantages end".

var (
	// scopeOpeners step past what the previous sentences said.
	scopeOpeners = phrases(`beyond|past|outside|outside of|apart from|aside from|other than|au-delà|más allá|abgesehen`)
	// scopeObjects after a scope opener point back: "beyond that", "past
	// its looks", "apart from the price".
	scopeObjects = set(`that this those these it its their the de davon`)
	// favourWords end "the only point in its favour", one of the ways to
	// call praise the only upside (with "the only thing going for it",
	// "its only redeeming feature", "the only selling point").
	favourWords = set(`favour favor`)
)

// scopeTurn: t opens by stepping past what came before — "Beyond that,",
// "Past its good looks,", "Apart from the price," — a short phrase (at most
// four words after the opener) closed by a comma.
func scopeTurn(t string) bool {
	if !scopeOpeners.opens(t) {
		return false
	}
	comma := strings.IndexByte(t, ',')
	if comma < 0 {
		return false
	}
	w, pos := wordAtAny(t, 0)
	for k := 0; k < 2; k++ { // the opener's own words ("apart from", "outside of")
		if inSet(scopeObjects, w) {
			break
		}
		w, pos = wordAtAny(t, pos)
	}
	if !inSet(scopeObjects, w) || pos > comma {
		return false
	}
	return wordCount(t[pos:comma]) <= 3
}

// downhillTurn: the span t, reading praise p and criticism n, steps past
// the praise read so far (praised) to criticism: what came before was the
// good part ("Beyond that, they struggle").
func downhillTurn(t string, p, n float64, praised bool) bool {
	return praised && n >= sentNeutral && n > p && scopeTurn(t)
}

// onlyUpside: t calls its praise the only upside — "that's about the only
// point in their favour", "the only thing going for it", "its only
// redeeming quality", "the only advantage" (not "not only", which adds).
func onlyUpside(t string) bool {
	prev := ""
	for pos := 0; ; {
		w, np := wordAtAny(t, pos)
		if w == "" {
			return false
		}
		pos = np
		if !strings.EqualFold(w, "only") || strings.EqualFold(prev, "not") {
			prev = w
			continue
		}
		prev = w
		last := ""
		for k, q := 0, np; k < 5; k++ {
			x, xp := wordAtAny(t, q)
			if x == "" || strings.ContainsAny(t[q:xp-len(x)], ",;.:—") {
				break
			}
			switch {
			case k < 2 && inSet(upsideNouns, x),
				inSet(favourWords, x) && inSet(ownWords, last),
				strings.EqualFold(x, "redeeming"),
				strings.EqualFold(x, "for") && strings.EqualFold(last, "going"),
				strings.EqualFold(x, "point") && strings.EqualFold(last, "selling"):
				return true
			}
			last, q = x, xp
		}
	}
}

// verdictTwoCases: the labelled verdict [s,e) sets out two cases, praising
// the brand for one ("**Verdict:** great for existing beds; if you're
// breaking new ground, rent a bigger tiller instead"): what it prefers is
// for the other case only, no verdict against the brand.
func (an *analysis) verdictTwoCases(s, e int) bool {
	if !hasWordIn(an.text[s:e], caseWords) {
		return false
	}
	p, n := an.peekValence(s, e)
	return p >= sentNeutral && p > n
}

// pointNouns after "that's (kind of) the": a fault the writer calls the
// design's intent ("…, but that's the point", "that's the whole idea").
var pointNouns = set(`point idea intent`)

// faultIntended: t turns from its criticism to call it the design's intent
// — "It's heavy and plain, but that's kind of the point", "…, but that's
// by design": the fault is conceded, not held against the brand.
func faultIntended(t string) bool {
	turned, prev, prev2 := false, "", ""
	for pos := 0; ; {
		w, np := wordAtAny(t, pos)
		if w == "" {
			return false
		}
		pos = np
		if inSet(turnWords, w) {
			turned = true
		}
		if turned && (inSet(pointNouns, w) && (strings.EqualFold(prev, "the") || strings.EqualFold(prev, "whole")) ||
			strings.EqualFold(w, "design") && strings.EqualFold(prev, "by") && (strings.EqualFold(prev2, "that's") || strings.EqualFold(prev2, "is"))) {
			return true
		}
		prev2, prev = prev, w
	}
}
