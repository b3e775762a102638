package detect

import "testing"

// A rival that wins against the brand, said of the rival: a win verb with
// the brand as object, a comparative of praise with no "than". Answers
// written for this test, not taken from any batch.
func TestRivalWins(t *testing.T) {
	varnel := Entity{Name: "Varnel"}
	corvid := Entity{Name: "Corvid"}
	halden := Entity{Name: "Halden"}
	runSentimentCases(t, []sentimentCase{
		{name: "a rival beats the brand", brand: varnel, comps: []Entity{corvid}, query: "varnel vs corvid cordless drill",
			text: "For a weekend DIYer, Corvid beats Varnel on nearly everything that matters. Corvid's drill has more torque and its batteries are shared across forty tools. Varnel's own drill is excellent, but its battery range is thin.",
			want: Negative},
		{name: "a rival edges it", brand: varnel, comps: []Entity{corvid}, query: "varnel phone review",
			text: "Varnel's phone has a lovely screen but a battery that struggles by evening. Corvid edges it on battery and camera.",
			want: Negative},
		{name: "a comparative with no than beside criticism", brand: varnel, comps: []Entity{corvid, halden}, query: "varnel audio interface reliability",
			text: "Varnel interfaces are cheap, but the drivers are buggy and unreliable. For a little more, a Corvid or a Halden is quieter and far more dependable.",
			want: Negative},
		// controls
		{name: "a hedged win is a trade-off", brand: varnel, comps: []Entity{corvid}, query: "where to buy a varnel kettle",
			text: "Varnel's own shop has the full range and fast delivery. Corvid often matches or beats Varnel on the basic models.",
			want: Positive},
		{name: "a cheaper rival is a trade", brand: varnel, comps: []Entity{corvid}, query: "best budget hotel chain",
			text: "Varnel hotels have excellent beds and quiet rooms. Corvid is often cheaper; Varnel is the better night.",
			want: Positive},
		{name: "a comparative in a neutral comparison describes", brand: varnel, comps: []Entity{corvid}, query: "varnel vs corvid for classes",
			text: "Varnel has breakout rooms and polling. Corvid is simpler and runs in the browser.",
			want: Neutral},
		{name: "a win in a case", brand: varnel, comps: []Entity{corvid}, query: "varnel vs corvid drill",
			text: "Varnel's drill is excellent for most jobs. If you drive long lag screws all day, Corvid beats it.",
			want: Positive},
	})
}

// An alternative that does the work better, with no "than" ("a $30 Corvid
// makes better toast", "does both jobs better", "will serve you much
// better"), and a labelled verdict that tells the reader to get something
// of a kind. Answers written for this test.
func TestAlternativeDoesBetter(t *testing.T) {
	varnel := Entity{Name: "Varnel"}
	runSentimentCases(t, []sentimentCase{
		{name: "makes better", brand: varnel, query: "varnel toaster worth it",
			text: "The Varnel toaster is a looker. As a toaster, though, it browns unevenly and the levers crack. A $30 Brisco makes better toast.",
			want: Negative},
		{name: "does both jobs better", brand: varnel, query: "varnel power stove worth it",
			text: "The Varnel stove is a clever idea and fun at camp. It is heavy and slow to boil. A small power bank plus a gas stove does both jobs better.",
			want: Negative},
		{name: "will serve you much better", brand: varnel, query: "varnel pruners review",
			text: "Varnel pruners are cheap and easy to find. The blades are flimsy and the spring is unreliable. A forged pair will serve you much better.",
			want: Negative},
		{name: "a verdict to get one of a kind", brand: varnel, query: "is a varnel pod machine worth it",
			text: "Varnel wins on convenience. Pods are expensive, the coffee tastes weak and scale kills machines after two years.\n\n**Verdict:** get a decent drip machine.",
			want: Negative},
		// controls
		{name: "makes better coffee than it did", brand: varnel, query: "varnel coffee maker review",
			text: "The new Varnel is excellent and makes better coffee than the old model did.",
			want: Positive},
		{name: "a verdict to get the brand", brand: varnel, query: "is a varnel pod machine worth it",
			text: "Varnel is fast, tidy and reliable.\n\n**Verdict:** get one if you value convenience.",
			want: Positive},
	})
}

// "elsewhere" in a relative clause describes what other products give
// ("without the lag you get elsewhere"), a comparison the brand wins; sent
// there, the reader is told to leave ("you should look elsewhere").
// Answers written for this test.
func TestElsewhereDescribed(t *testing.T) {
	varnel := Entity{Name: "Varnel"}
	runSentimentCases(t, []sentimentCase{
		{name: "the lag you get elsewhere", brand: varnel, query: "varnel watch review",
			text: "Varnel's sensor is accurate, unlike the ones you get elsewhere.",
			want: Positive},
		// controls
		{name: "advice to look elsewhere", brand: varnel, query: "varnel watch review",
			text: "Varnel's sensor is inaccurate and the strap breaks; you should look elsewhere.",
			want: Negative},
		{name: "get it elsewhere", brand: varnel, query: "varnel watch review",
			text: "Varnel's own store is slow and overpriced, so get it elsewhere.",
			want: Negative},
	})
}
