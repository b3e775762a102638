package detect

import "strings"

// A price the brand put up steeply (round s10b, issue 11): "Farmers has
// raised homeowners and auto premiums sharply", "repeatedly hiked its
// fees" — money taken from the reader, criticism stated as a fact
// (criticism.go). The writer grades the rise; "Ring raised these prices in
// 2024" is price history. Not "raised a round" or "raised its savings
// rates": only what the reader pays.

var (
	raiseVerbs = set(`raised raises raise raising hiked hikes hike hiking upped`)
	// paidNouns are what the reader pays; "rates" may be a saver's.
	paidNouns = set(`price prices premium premiums fee fees fares fare subscription subscriptions surcharge surcharges
charges commission commissions`)
)

// riseGrades grade a rise as steep or repeated.
var riseGrades = set(`sharply steeply significantly substantially dramatically drastically aggressively repeatedly again
twice hugely massively`)

// priceRaised: w, ending at pos, raises a price within the four words
// after it ("raised homeowners and auto premiums"), graded steep or
// repeated in the words around (before is the word before w).
func priceRaised(text, w, before string, pos, e int) bool {
	if !inSet(raiseVerbs, w) {
		return false
	}
	paid, graded := false, inSet(riseGrades, before)
	for k := 0; k < 7; k++ {
		x, np := wordAtAny(text[:e], pos)
		if x == "" || strings.ContainsAny(text[pos:np], ",;.:") {
			break
		}
		paid = paid || k < 4 && inSet(paidNouns, x)
		graded = graded || inSet(riseGrades, x)
		pos = np
	}
	return paid && graded
}
