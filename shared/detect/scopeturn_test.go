package detect

import "testing"

// Praise fenced off by the writer: a sentence that steps past it ("Beyond
// that, …") to criticism, and praise called the only upside. Answers
// written for this test, not taken from any batch.
func TestScopeTurn(t *testing.T) {
	varnel := Entity{Name: "Varnel"}
	runSentimentCases(t, []sentimentCase{
		{name: "beyond that, criticism", brand: varnel, query: "are varnel kettles good",
			text: "Varnel kettles are cheap and come in nice colours. Beyond that, they're flimsy and unreliable. The lids stick and the switches fail within a year.",
			want: Negative},
		{name: "past its looks, criticism", brand: varnel, query: "varnel blender review",
			text: "The Varnel blender is gorgeous on a counter and easy to clean. Past its looks, it's weak: it stalls on ice and the jug cracks.",
			want: Negative},
		{name: "apart from the price, criticism", brand: varnel, query: "varnel headphones any good",
			text: "Varnel headphones are affordable and light. Apart from the price, they're a letdown: the sound is poor and the hinges break.",
			want: Negative},
		{name: "the only point in its favour", brand: varnel, query: "varnel router reliability",
			text: "Varnel's router is inexpensive, and that's about the only point in its favour. Connections drop every evening and firmware updates are rare.",
			want: Negative},
		{name: "the only thing going for it", brand: varnel, query: "varnel vacuum review",
			text: "The Varnel vacuum is quiet, which is the only thing going for it. Suction is weak and the battery dies in ten minutes.",
			want: Negative},
		// controls: no fence, or praise after it
		{name: "beyond that, more praise", brand: varnel, query: "are varnel kettles good",
			text: "Varnel kettles boil fast and look great. Beyond that, they're remarkably quiet and reliable.",
			want: Positive},
		{name: "not only adds", brand: varnel, query: "varnel kettle review",
			text: "Varnel's kettle is not only the cheapest option, it's also the most reliable one we tested.",
			want: Positive},
		{name: "a single fault beside praise stays two-sided", brand: varnel, query: "varnel kettle review",
			text: "Varnel kettles are excellent and quiet. The lid, however, is flimsy.",
			want: Mixed},
		{name: "a few dollars more is a quantity", brand: varnel, query: "varnel kettle review",
			text: "Varnel kettles leak and the switches fail. For a few dollars more you get a steel body.",
			want: Negative},
	})
}

// A labelled verdict that sets out two cases, and a fault the writer calls
// the design's intent. Answers written for this test.
func TestVerdictCasesAndIntent(t *testing.T) {
	varnel := Entity{Name: "Varnel"}
	runSentimentCases(t, []sentimentCase{
		{name: "a verdict of two cases", brand: varnel, query: "varnel tiller any good",
			text: "Varnel tillers are light and great at weeding raised beds. In heavy clay they bounce, and the engine can be finicky to start.\n\n" +
				"**Verdict:** great for keeping beds tidy; if you're breaking new ground, rent a bigger tiller instead.",
			want: Mixed},
		{name: "that's the point", brand: varnel, query: "best touring bike",
			text: "Varnel is the brand touring cyclists recommend to each other. Its frame has every mount you could want. It's heavy and it won't win beauty contests, but that's kind of the point.",
			want: Positive},
		// controls
		{name: "a verdict that sends the reader elsewhere", brand: varnel, query: "varnel tiller any good",
			text: "Varnel tillers are light. In heavy clay they bounce, and the engine is finicky and unreliable.\n\n" +
				"**Verdict:** rent a bigger tiller instead.",
			want: Negative},
		{name: "a fault with no intent", brand: varnel, query: "varnel touring bike review",
			text: "Varnel's frame has every mount you could want. It's flimsy and unreliable, but that's the price you pay for a cheap frame.",
			want: Negative},
	})
}
