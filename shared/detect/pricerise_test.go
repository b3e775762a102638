package detect

import "testing"

// A price put up steeply is criticism; a rise told as history, and one
// offer of the brand priced against another, are facts; a limitation the
// writer calls the only one is minor. Answers written for this test, not
// taken from any batch; controls included.
func TestPriceRiseAndOffers(t *testing.T) {
	kestrel := Entity{Name: "Kestrel"}
	runSentimentCases(t, []sentimentCase{
		{name: "premiums raised sharply", brand: kestrel, query: "kestrel insurance renewal",
			text: "Kestrel has raised home and car premiums sharply in most regions this year.",
			want: Negative},
		{name: "fees hiked again", brand: kestrel, query: "kestrel bank account fees",
			text: "Kestrel hiked its overdraft fees again in March.",
			want: Negative},
		{name: "the only real limitation", brand: kestrel, query: "kestrel credit union review",
			text: "Kestrel is friendly and its loans are cheap. The only real limitation is reach: it has no branches outside the county.",
			want: Positive},
		{name: "cheaper when bought online", brand: kestrel, query: "kestrel ferry extra luggage",
			text: "Kestrel sells extra luggage by weight. It is cheaper when added online than at the port.",
			want: Neutral},
		// controls
		{name: "a rise told as history", brand: kestrel, query: "kestrel doorbell subscription price",
			text: "Kestrel raised its subscription prices in 2024.",
			want: Neutral},
		{name: "a round raised sharply", brand: kestrel, query: "kestrel startup funding",
			text: "Kestrel raised a round of funding at a sharply higher valuation.",
			want: Neutral},
		{name: "cheaper than a rival", brand: kestrel, query: "kestrel ferry review",
			text: "Kestrel is cheaper than the other ferry lines and the crossings are smooth.",
			want: Positive},
	})
}
