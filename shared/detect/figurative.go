package detect

import "strings"

// Words whose dictionary polarity their use turns (round s10b, issue 11):
// "the killer feature" and "overwhelmingly good" praise with words VADER
// scores negative; "is a gamble" and "would be generous" criticise with
// words it does not score, or scores as praise; "earns its keep" praises
// with none.

var (
	// killerHeads before "killer" used as an adjective: "the killer
	// feature", "a real killer app" — not "a weed killer".
	killerHeads = set(`a an the its their his her our your real absolute true genuine`)
	// riskNouns after an article call the brand a bet that may not pay:
	// "Dolly is a gamble", "a crapshoot", "a lottery", "a coin flip".
	riskNouns = set(`crapshoot lottery`)
	riskHeads = set(`a an real total bit big`)
	// kindWords after "would be" say a label overstates: "'Mixed reviews'
	// would be generous", "calling it average would be kind".
	kindWords = set(`generous charitable kind`)
	// earnVerbs before "its keep": "earns its keep", "justifies its
	// premium", "pays its way".
	earnVerbs = set(`earn earns earned earning justify justifies justified justifying`)
	earnNouns = set(`keep premium price place spot fee money cost`)
)

// figurative reads the word w (at [pos-len(w), pos) of text, the span
// ending at e; before and before2 the words before it) whose polarity f
// its use turns: ok with the flags it takes instead.
func figurative(text, w, before, before2 string, pos, e int, f uint8) (uint8, bool) {
	switch {
	case f&lexNegative != 0 && strings.EqualFold(w, "killer"):
		// "the killer feature", "a killer app": praise
		next := peekWord(text, pos, e)
		if inSet(killerHeads, before) && next != "" && !hasUpper(next) && lexLookup(next) == 0 && !inSet(clauseOpeners, next) {
			return lexPositive, true
		}
	case f&lexNegative != 0 && len(w) > 4 && strings.HasSuffix(strings.ToLower(w), "ly"):
		// "overwhelmingly good", "ridiculously easy", "stupidly fast": an
		// adverb of a negative word before praise only intensifies it
		next := peekWord(text, pos, e)
		if lexLookup(next)&lexPositive != 0 || lexLookup(next) == 0 && vaderValence(next) > 0 {
			return lexBooster, true
		}
	case f == 0 && inSet(riskNouns, w) && inSet(riskHeads, before):
		return lexNegative, true // "Dolly is a gamble"
	case f&lexPositive != 0 && inSet(kindWords, w) && strings.EqualFold(before, "be") &&
		(strings.EqualFold(before2, "would") || strings.EqualFold(before2, "might")):
		return lexNegative, true // "'Mixed reviews' would be generous"
	case f == 0 && inSet(earnNouns, w) && (strings.EqualFold(before, "its") || strings.EqualFold(before, "their")) && inSet(earnVerbs, before2):
		return lexPositive, true // "EE earns its premium", "justifies its price"
	}
	return f, false
}
