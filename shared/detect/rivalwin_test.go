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
