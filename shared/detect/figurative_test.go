package detect

import "testing"

// Words whose use turns their dictionary polarity, and praise granted only
// when the product works. Answers written for this test, not taken from
// any batch; controls included.
func TestFigurative(t *testing.T) {
	kestrel := Entity{Name: "Kestrel"}
	runSentimentCases(t, []sentimentCase{
		{name: "the killer feature", brand: kestrel, query: "best budget airline app",
			text: "Kestrel is the one to try: offline boarding passes are the killer feature, and check-in takes seconds.",
			want: Positive},
		{name: "an adverb of a negative word before praise", brand: kestrel, query: "kestrel plumbers reviews",
			text: "Reviews of Kestrel are overwhelmingly positive, and its plumbers arrive on time.",
			want: Positive},
		{name: "stupidly easy", brand: kestrel, query: "kestrel budgeting app review",
			text: "Kestrel is stupidly easy to set up.",
			want: Positive},
		{name: "a gamble", brand: kestrel, query: "kestrel courier worth it",
			text: "Kestrel is cheap, but parcels go missing and refunds take weeks. Sending a parcel with Kestrel is a gamble.",
			want: Negative},
		{name: "would be generous", brand: kestrel, query: "kestrel gym reviews",
			text: "Calling Kestrel's reviews average would be generous. Members describe broken machines and contracts that are hard to cancel.",
			want: Negative},
		{name: "earns its premium", brand: kestrel, query: "kestrel stand mixer worth it",
			text: "Kestrel's mixer earns its premium.",
			want: Positive},
		{name: "praise only when it works", brand: kestrel, query: "kestrel delivery app worth it",
			text: "When it works, Kestrel is quick and cheap. But orders often arrive late and refunds take weeks.",
			want: Negative},
		// controls
		{name: "an adverb of a negative word before criticism", brand: kestrel, query: "kestrel broker fees",
			text: "Kestrel's fees are ridiculously high.",
			want: Negative},
		{name: "keeps as a verb", brand: kestrel, query: "kestrel stand mixer",
			text: "Kestrel's mixer keeps its bowl on a twist lock.",
			want: Neutral},
		{name: "an adverb before criticism", brand: kestrel, query: "kestrel courier reviews",
			text: "Kestrel's tracking is terribly slow.",
			want: Negative},
		{name: "generous as praise", brand: kestrel, query: "kestrel airline baggage",
			text: "Kestrel's baggage allowance is generous.",
			want: Positive},
	})
}

// Two sentences that set two cases side by side — the brand praised for
// one, a rival offered for the other — split the answer; the offer closing
// it is no verdict against the brand. Written for this test.
func TestPairedCases(t *testing.T) {
	kestrel := Entity{Name: "Kestrel"}
	osprey := Entity{Name: "Osprey"}
	runSentimentCases(t, []sentimentCase{
		{name: "two cases in two sentences", brand: kestrel, comps: []Entity{osprey}, query: "is kestrel broadband worth it",
			text: "Kestrel's fibre is fast and rarely drops. The catch is price: it costs more than most. If you work from home, Kestrel earns its premium. If you mostly stream, Osprey gives you the same for less.",
			want: Mixed},
		// control: an offer closing an answer of criticism stays a verdict
		{name: "an offer after criticism", brand: kestrel, comps: []Entity{osprey}, query: "is kestrel broadband worth it",
			text: "Kestrel's fibre drops every evening and support takes days to answer. If you work from home, Osprey gives you a steadier line for less.",
			want: Negative},
	})
}
