package detect

import "testing"

// Praise conceded ("To be fair, …"), praise inside a reported complaint or
// doubt, and "outstanding" as pending. Answers written for this test, not
// taken from any batch.
func TestConcessionAndGrudge(t *testing.T) {
	kestrel := Entity{Name: "Kestrel"}
	cases := []sentimentCase{
		{name: "a concession among criticism", brand: kestrel, query: "is kestrel worth it",
			text: "Kestrel's payouts are tiny and processing drags on for weeks. To be fair, Kestrel is genuinely convenient. But the money is rarely worth the wait.",
			want: Negative},
		{name: "Spanish: es cierto que", brand: kestrel, query: "opiniones kestrel",
			text: "Los pedidos de Kestrel llegan con retraso y los reembolsos tardan semanas. Es cierto que la tienda física es excelente.",
			want: Negative},
		{name: "praise inside a complaint", brand: kestrel, query: "kestrel plans",
			text: "Kestrel charges a fee on every sale. Creators dislike that the cheapest plan caps how many products they can list.",
			want: Negative},
		{name: "praise inside a doubt", brand: kestrel, query: "kestrel data leak",
			text: "After the leak, customers questioned whether they could trust Kestrel with their records.",
			want: Negative},
		{name: "outstanding as pending", brand: kestrel, query: "kestrel transfer delay",
			text: "Kestrel transfers often take weeks. Ask which forms are still outstanding before you call again.",
			want: Negative},
		// no concession, no complaint
		{name: "to be fair opening praise alone", brand: kestrel, query: "kestrel review",
			text: "To be fair, Kestrel is excellent for beginners and its lessons are superb.",
			want: Positive},
		{name: "complaints about a rival", brand: kestrel, query: "kestrel review",
			text: "Kestrel is excellent. Reviewers who switched say they liked that it syncs instantly.",
			want: Positive},
		{name: "outstanding as excellent", brand: kestrel, query: "kestrel review",
			text: "Kestrel's customer service is outstanding.",
			want: Positive},
	}
	runSentimentCases(t, cases)
}

// "Unless …" keeps a warning against the brand: the brand is for the
// exception only. Answers written for this test.
func TestUnlessWarning(t *testing.T) {
	kestrel := Entity{Name: "Kestrel"}
	runSentimentCases(t, []sentimentCase{
		{name: "hard to recommend unless", brand: kestrel, query: "kestrel rowing machine review",
			text: "Kestrel's rower is beautifully made and whisper quiet. The problem is the subscription, and spare parts take weeks-long waits. Hard to recommend unless you love the classes.",
			want: Negative},
	})
}

// Praise granted to turn to the point: bounded ("that's about where its
// advantages end"), settled ("that part isn't in dispute") or cut at a turn
// to a rival ("…is easy to use, but if …, Osprey does better"). Answers
// written for this test.
func TestConcessionBounds(t *testing.T) {
	kestrel := Entity{Name: "Kestrel"}
	osprey := Entity{Name: "Osprey"}
	runSentimentCases(t, []sentimentCase{
		{name: "advantages end", brand: kestrel, query: "kestrel vs osprey scooters",
			text: "Kestrel has the lighter frame, but that's where its advantages end. The brakes fade on long hills and spare parts take weeks to arrive.",
			want: Negative},
		{name: "the good news stops there", brand: kestrel, query: "kestrel scooter review",
			text: "Kestrel's app is polished and the good news stops there. Batteries die within a year and support rarely answers.",
			want: Negative},
		{name: "not in dispute", brand: kestrel, query: "kestrel headphones durability",
			text: "Kestrel's headphones sound wonderful — that isn't in dispute. The trouble is durability: hinges crack within months and the ear pads peel badly.",
			want: Negative},
		{name: "closing concession cut at a turn to a rival", brand: kestrel, comps: []Entity{osprey}, query: "kestrel wallet problems",
			text: "Kestrel users report a few recurring problems:\n\n- Transfers that fail and still charge fees.\n- Scam pop-ups that the warnings miss.\n- No live support, and lost funds are gone for good.\n\nKestrel's interface is easy to use, but if these problems worry you, Osprey offers better support.",
			want: Negative},
		{name: "a turn that introduces a list of faults", brand: kestrel, query: "kestrel marketplace fees",
			text: "Kestrel used to be the simple, low-fee marketplace, but it has changed:\n\n- Fees rose three times in two years.\n- Payouts are held for days after delivery.\n- Search traffic is a fraction of what it was.",
			want: Negative},
		// the praise stands
		{name: "a turn that introduces notes", brand: kestrel, query: "kestrel marketplace review",
			text: "Kestrel is excellent and cheap, but note:\n\n- Orders ship on Mondays.\n- Returns are free within a month.",
			want: Positive},
		{name: "benefits that end a trip", brand: kestrel, query: "kestrel scooter review",
			text: "Kestrel's scooter is excellent: quick, light and comfortable from start to end.",
			want: Positive},
		{name: "praise that is beyond dispute", brand: kestrel, query: "kestrel headphones review",
			text: "Kestrel's headphones sound wonderful — that isn't in dispute — and they are comfortable all day.",
			want: Positive},
	})
}
