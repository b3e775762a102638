package detect

import "testing"

// A foil (foil): praise of the brand's kind opening an answer that then
// sets the brand against it is not the brand's praise; praise of the
// brand's own product, or a kind praised beside a brand described at
// length, stays. Answers written for this test, not taken from any batch.
func TestFoil(t *testing.T) {
	kestrel := Entity{Name: "Kestrel"}
	cases := []sentimentCase{
		{name: "a marker turns the brand against its kind", brand: kestrel, query: "kestrel wool socks review",
			text: "Merino socks are brilliant — warm, soft and they rarely smell. Kestrel's, sadly, are not: owners say they wear through at the heel within a month.",
			want: Negative},
		{name: "a short verdict without a marker", brand: kestrel, query: "is kestrel a good bank",
			text: "Online banks are a great deal for most savers: high rates, no branches to pay for. Kestrel is the poor relation. Its rate is half the market's and transfers take days.",
			want: Negative},
		{name: "the brand's own product praised first", brand: kestrel, query: "kestrel e-bike reliability",
			text: "The Volt is light and fun to ride. Kestrel's motors, though, are unreliable and repairs take weeks.",
			want: Mixed},
		{name: "a weak side headed by a pronoun", brand: kestrel, comps: []Entity{{Name: "Vantor"}}, query: "kestrel or vantor for a company",
			text: "Vantor has the bigger community, Vantor's marketplace is huge and Vantor is cheaper.\n\n### Where Kestrel shines\nKestrel is an excellent all-in-one platform with superb pipelines.\n\n### Where it falls short\nThe web UI is busy, and the integration ecosystem is much smaller.\n",
			want: Mixed},
		{name: "a kind praised, then the brand described", brand: kestrel, query: "kestrel coffee",
			text: "Specialty coffee is a joy. Kestrel roasts small batches every week, sells them in compostable bags and offers a few excellent blends.",
			want: Positive},
	}
	runSentimentCases(t, cases)
}

// A product that decays with use (decayVerbs, wearVerbs): a fault as a
// predicate, not in an attribute or when resisted. Sentences written for
// this test.
func TestDecayCriticism(t *testing.T) {
	runSentimentCases(t, clauseCases([]clauseCase{
		{"colours fade", "Norvale", "Norvale towels are lovely and thick, but the colours fade after a few washes.", Mixed},
		{"pilling", "Norvale", "Norvale sweaters start pilling within weeks.", Negative},
		{"rusts", "Norvale", "The Norvale grill grate rusts after one wet season.", Negative},
		{"wears out", "Norvale", "The sole of Norvale's trail shoe wears out in about 300 miles.", Negative},
		{"wears down", "Norvale", "The tread on Norvale's hiking boot wears down quickly on asphalt.", Negative},
		{"seams give out", "Norvale", "On Norvale backpacks the seams give out under heavy loads.", Negative},
		{"falls apart", "Norvale", "Norvale's desk chair falls apart within a year.", Negative},
		{"resists fading", "Norvale", "Norvale's dye resists fading, even in full sun.", Neutral},
		{"a faded look", "Norvale", "Norvale sells jeans with a faded look.", Neutral},
		{"gives out samples", "Norvale", "Norvale gives out free samples in every store.", Neutral},
	}))
}

// A business in trouble (factDistress), a service that slipped, and advice
// to shop around (factElsewhere) are criticism; the same words as plain
// facts are not. Sentences written for this test.
func TestDistressCriticism(t *testing.T) {
	runSentimentCases(t, clauseCases([]clauseCase{
		{"layoffs", "Norvale", "Norvale went through two rounds of layoffs last year.", Negative},
		{"into administration", "Norvale", "Norvale went into administration in 2023.", Negative},
		{"a rough few years", "Norvale", "Norvale has had a rough few years.", Negative},
		{"a bumpy record", "Norvale", "Norvale has a bumpy delivery record.", Negative},
		{"years of losses", "Norvale", "Norvale was sold after years of losses.", Negative},
		{"a shadow of itself", "Norvale", "These days Norvale is a shadow of its former self.", Negative},
		{"a profit warning", "Norvale", "Norvale issued a profit warning in March.", Negative},
		{"a backlash", "Kestrel", "Kestrel's new fee drew a backlash from long-time customers.", Negative},
		{"the company shrank", "Norvale", "Norvale the company has shrunk considerably since 2020.", Negative},
		{"support slipped", "Kestrel", "Kestrel's support response times have slipped this year.", Negative},
		{"updates slowed", "Kestrel", "Kestrel's app updates have slowed to a trickle.", Negative},
		{"compare rates", "Kestrel", "Kestrel is easy to use and its tracking is excellent, but compare rates before you book.", Mixed},
		{"cheaper options exist", "Kestrel", "Kestrel's courses are superb. Paying yourself for one exam? Cheaper options exist.", Mixed},
		// plain facts
		{"the administration of a test", "Kestrel", "Kestrel handles the administration of exams for schools.", Neutral},
		{"prices slipped", "Kestrel", "Kestrel's prices slipped to $9 a month in the sale.", Neutral},
		{"rough as a texture", "Norvale", "Norvale's towels have a rough texture on one side for scrubbing.", Neutral},
		{"compare features", "Kestrel", "Kestrel lets you compare features side by side.", Neutral},
	}))
}

// Losses to the user stated without a polar word: advice to remove the
// brand ("best removed"), perks gone or thin, an offer that became
// smaller, a part that is "another story". Sentences written for this
// test.
func TestLossCriticism(t *testing.T) {
	runSentimentCases(t, clauseCases([]clauseCase{
		{"best avoided", "Kestrel", "Kestrel's bundled toolbar is best avoided.", Negative},
		{"best removed", "Kestrel", "The Kestrel trial that ships on new laptops is best uninstalled.", Negative},
		{"perks gone", "Kestrel", "The loyalty perks that made Kestrel special have largely disappeared.", Negative},
		{"perks thin", "Kestrel", "Kestrel's travel perks are thin outside the US.", Negative},
		{"became thinner", "Kestrel", "Kestrel's free tier has become noticeably stingier since the merger.", Negative},
		{"another story", "Norvale", "Norvale's new rooms are lovely; the older wing is another story.", Mixed},
		{"updated rarely", "Norvale", "Norvale's e-readers look lovely, but the lineup gets updated rarely.", Mixed},
		{"fees sting", "Norvale", "Norvale's cabins are lovely, but the cleaning fees can sting.", Mixed},
		{"pay less directly", "Norvale", "Norvale has a huge selection, but you often pay less by booking the hotel directly.", Mixed},
		{"pay less with the brand", "Norvale", "Norvale has a huge selection, and you often pay less by booking through Norvale.", Positive},
		{"rarely discounts", "Norvale", "Norvale rarely discounts its flagship model.", Neutral},
		{"stopped accepting", "Kestrel", "Kestrel stopped accepting new customers in three states last year.", Negative},
		{"stopped offering", "Kestrel", "Kestrel stopped offering phone support in 2024.", Negative},
		// plain facts
		{"a thin case", "Kestrel", "Kestrel's phone case is thin and light.", Neutral},
		{"gone to print", "Kestrel", "Kestrel's annual report has gone to print.", Neutral},
		{"a different story told", "Norvale", "Norvale's founder tells a different story in her memoir.", Neutral},
	}))
}
