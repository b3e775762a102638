package detect

import "testing"

// A verdict split by the reader's case — praise for one case with its
// negation elided for another, or two cases side by side in an answer
// about the brand — is two-sided; a choice of the brand granted against
// the writer's advice ("If you go with X anyway") is a warning. Answers
// written for this test, not taken from any batch; controls included.
func TestCaseSplit(t *testing.T) {
	kestrel := Entity{Name: "Kestrel"}
	osprey := Entity{Name: "Osprey"}
	runSentimentCases(t, []sentimentCase{
		{name: "elided: less so", brand: kestrel, query: "kestrel hostel review",
			text: "Kestrel's hostels are friendly and spotless. Great for solo backpackers, less so for couples who want quiet.",
			want: Mixed},
		{name: "elided: not somewhere to", brand: kestrel, query: "kestrel card review",
			text: "Kestrel's card earns strong cashback on groceries and the app is tidy. Useful as a second card; not somewhere to keep your savings.",
			want: Mixed},
		{name: "elided: not so much, after a dash", brand: kestrel, query: "kestrel e-bike review",
			text: "Kestrel's e-bike is light and quick on flat city streets — not so much on long climbs.",
			want: Mixed},
		{name: "two cases: a rival for the other", brand: kestrel, comps: []Entity{osprey}, query: "is kestrel rail worth it",
			text: "Kestrel runs clean, punctual trains. If you live near one of its stations, it's worth it; if you'd need two changes, the Osprey coach is better.",
			want: Mixed},
		{name: "two cases: a kind of user outgrows it", brand: kestrel, query: "kestrel notes app review",
			text: "Kestrel is quick to open and syncs reliably. For a student it's a great fit; power users will hit its limits within a month.",
			want: Mixed},
		{name: "two cases: otherwise, a rival", brand: kestrel, comps: []Entity{osprey}, query: "is kestrel rail worth it",
			text: "Kestrel runs clean, punctual trains, but fares are high and the app is clumsy. It's worth it if you commute daily. Otherwise, Osprey coaches offer the same routes for less.",
			want: Mixed},
		{name: "grudging choice: anyway", brand: kestrel, comps: []Entity{osprey}, query: "is kestrel van hire any good",
			text: "Kestrel's vans are cheap, and that is about all. Renters describe long queues and surprise damage bills. If you go with Kestrel anyway, film the van before you drive off.",
			want: Negative},
		{name: "grudging choice: the emphatic do", brand: kestrel, query: "kestrel motels review",
			text: "Kestrel motels are cheap and near the highway. Many are tired, and guests mention noise and dirty bathrooms. If you do book Kestrel, read last month's reviews first.",
			want: Negative},
		// controls: no split, no grudge
		{name: "a best-of answer's two cases keep the brand's pick", brand: kestrel, comps: []Entity{osprey}, query: "best note app for students",
			text: "Kestrel is the cleanest note app around. If you want speed, Kestrel is the best pick; if you need handwriting, try Osprey.",
			want: Positive},
		{name: "not just: praise widened", brand: kestrel, query: "kestrel hostel review",
			text: "Kestrel's hostels are friendly and spotless, great for families, not just backpackers.",
			want: Positive},
		{name: "two praised cases", brand: kestrel, query: "kestrel notes app review",
			text: "Kestrel is quick and reliable. For a student it's a great fit; for a team it's even better.",
			want: Positive},
		{name: "an if without a grudge", brand: kestrel, query: "kestrel motels review",
			text: "Kestrel motels are clean, friendly and cheap. If you book Kestrel through its app, breakfast is free.",
			want: Positive},
	})
}

// A sentence that names a rival only as what the brand is compared with
// keeps the paragraph the brand's; praise cut before a turn to a rival's
// clause is granted, not the brand's last word. Written for this test.
func TestComparedRivalScope(t *testing.T) {
	kestrel := Entity{Name: "Kestrel"}
	osprey := Entity{Name: "Osprey"}
	runSentimentCases(t, []sentimentCase{
		{name: "the paragraph goes on past a compared rival", brand: kestrel, comps: []Entity{osprey}, query: "kestrel airline experience",
			text: "Kestrel is a sensible pick for short hops. Fares are competitive with Osprey, and the app is simple. Delays have been common this summer, and refunds take weeks of emails.",
			want: Mixed},
		{name: "praise cut before a rival's better offer", brand: kestrel, comps: []Entity{osprey}, query: "kestrel hatchback review",
			text: "Kestrel's hatchback costs as much as an Osprey while offering a shorter range. The seats are nice, but the Osprey gives you more range for the money.",
			want: Negative},
		// control: a rival as a subject still ends the brand's paragraph
		{name: "a rival's own sentence", brand: kestrel, comps: []Entity{osprey}, query: "best budget airline",
			text: "Kestrel is a sensible pick for short hops. Osprey is slow to refund and its delays are common.",
			want: Positive},
	})
}
