package detect

import "testing"

// An alternative offered in the brand's place (alternativeOffered): its
// praise is not the brand's, and the offer is the brand's criticism; the
// brand's own offers and the reader's choices are no alternative. Answers
// written for this test, not taken from any batch.
func TestAlternativeOffered(t *testing.T) {
	kestrel, corvid := Entity{Name: "Kestrel"}, Entity{Name: "Corvid"}
	cases := []sentimentCase{
		{name: "untracked names give more for the money", brand: kestrel, query: "kestrel blender review",
			text: "Kestrel's blender is loud and the jug scratches within weeks. For the same money, Vantor or Pellis give you a sturdier motor and a glass jug.",
			want: Negative},
		{name: "something of a kind does the same job for free", brand: kestrel, query: "is kestrel budgeting app worth it",
			text: "Kestrel charges $8 a month and its bank sync breaks every few weeks. A plain spreadsheet does the same job for free.",
			want: Negative},
		{name: "a concession before the turn stays the brand's", brand: kestrel, query: "kestrel phone plan review",
			text: "Kestrel's coverage drops out in half the towns I drove through and support replies days later. The price is attractive, but Ondra or Telvik give you a steadier network for similar money.",
			want: Negative},
		{name: "a tracked rival later in the paragraph", brand: kestrel, comps: []Entity{corvid}, query: "kestrel ebike review",
			text: "Kestrel's frame creaks and the motor overheats on long hills. Owners report flimsy spokes after a few months. The paint is lovely, but Corvid gives you more range and a lighter frame for the money.",
			want: Negative},
		{name: "an unnamed alternative found is the safer bet", brand: kestrel, query: "kestrel dog grooming reviews",
			text: "Kestrel grooming is convenient and you can book online. But owners report long waits and uneven cuts. If you can find a well-reviewed local groomer, that's the safer bet for your dog.",
			want: Negative},
		{name: "the brand's own case is no alternative", brand: kestrel, query: "kestrel dog grooming reviews",
			text: "Kestrel grooming is convenient and the groomers are gentle. If you can book Kestrel's mobile van, that's the better choice for nervous dogs.",
			want: Positive},
		{name: "will serve you better", brand: kestrel, query: "kestrel notes app review",
			text: "Kestrel's notes sync slowly and tags vanish after updates. Plain old Simplenote will serve you better.",
			want: Negative},
		{name: "the reader does better elsewhere", brand: kestrel, query: "is kestrel streaming worth keeping",
			text: "Kestrel keeps raising its price and its catalogue shrinks every quarter. Unless you watch its sports, most people would do better subscribing for one month a year.",
			want: Negative},
		{name: "an opening verdict for another", brand: kestrel, comps: []Entity{corvid}, query: "kestrel vs corvid for commuting",
			text: "For most commuters, Corvid is the safer bet. Kestrel's trains are comfortable when they run, but cancellations are common, fares keep rising and refunds take weeks.",
			want: Negative},
		{name: "a closing verdict with unless", brand: kestrel, query: "kestrel payroll review",
			text: "Kestrel's payroll runs late every few months and support replies days later. Unless you're tied into a contract, Vantor is the safer choice.",
			want: Negative},
		{name: "an offer at a fraction of the cost", brand: kestrel, query: "kestrel analytics pricing",
			text: "Kestrel's pricing has climbed every year and support has slipped. Pellis offers a compatible API at a fraction of the cost.",
			want: Negative},
		// no alternative
		{name: "a verdict for a narrower case", brand: kestrel, query: "kestrel vs vantor",
			text: "Kestrel is excellent for teams that want fine control over caching. That said, it's pricier for hobby sites. For most hobby sites, Vantor is the better option.",
			want: Mixed},
		{name: "two cases in one sentence", brand: kestrel, query: "is kestrel good for hiring",
			text: "Kestrel is the biggest job board, and posting is quick. For hourly roles it's great; for senior roles, Vantor will usually get you better candidates.",
			want: Positive},
		{name: "the brand's own product as the better pick", brand: kestrel, query: "kestrel e-bike which model",
			text: "Kestrel's e-bikes are excellent and reliable. For most riders, the Rover is the better pick.\n\nThe Kestrel Rover rides further on one charge.",
			want: Positive},
		{name: "a cheaper alternative named beside praise", brand: kestrel, query: "best kestrel chargers",
			text: "Kestrel's chargers are excellent and run cool. Vantor is a solid cheaper alternative.",
			want: Positive},
		{name: "the brand's own program gives more back", brand: kestrel, query: "kestrel rewards card",
			text: "Kestrel's card is excellent for travellers: the program gives you more back on flights and hotels than most cards.",
			want: Positive},
		{name: "the brand's own plan for the money", brand: kestrel, query: "kestrel plans",
			text: "Kestrel is a great pick for small teams, and the Pro plan gives you more storage for the same money as rivals' basic tiers.",
			want: Positive},
		{name: "a pronoun for the brand", brand: kestrel, query: "kestrel vacuum review",
			text: "Kestrel's vacuum is superb. It gives you more suction than most cordless models for the price.",
			want: Positive},
		{name: "the reader does the work", brand: kestrel, query: "kestrel meal kit review",
			text: "Kestrel's recipes are delicious and quick. You do the same job as a chef for a fraction of a restaurant's price.",
			want: Positive},
	}
	runSentimentCases(t, cases)
}
