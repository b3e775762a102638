package detect

import (
	"context"
	"testing"
)

// Sentiment toward the brand on whole answers: each case is an answer a
// person reads as the given class.
func TestBrandSentiment(t *testing.T) {
	todoist, airtable, zestora := Entity{Name: "Todoist"}, Entity{Name: "Airtable"}, Entity{Name: "Zestora"}
	cases := []struct {
		name  string
		brand Entity
		query string
		text  string
		want  Sentiment
	}{
		{"praise with a caveat", todoist, "is todoist good", "Todoist is a solid task manager. It's fast and works everywhere, though the free plan lacks reminders.", Mixed},
		{"descriptive praise", todoist, "todoist review", "Todoist is one of the most popular to-do apps. It supports natural-language dates, labels and filters, and has apps for every platform.", Positive},
		{"reported complaints", todoist, "todoist problems", "Users report that Todoist's sync occasionally duplicates tasks, and several complain that support is slow. I wouldn't rely on it for critical deadlines.", Negative},
		{"facts only", todoist, "todoist pricing", "Todoist Pro costs $4 per month billed yearly. The Business plan is $6 per user per month.", Neutral},
		{"comparison of facts", todoist, "todoist vs things", "Todoist is cross-platform, while Things is only on Apple devices. Todoist has collaboration; Things doesn't.", Neutral},
		{"advice to skip it", todoist, "should i use todoist", "I'd skip Todoist if you need a calendar view. It feels cramped, the reminders cost extra, and the interface hasn't changed in years.", Negative},
		{"works well but too basic", todoist, "todoist for teams", "Todoist works well for small teams, with shared projects and comments. Larger teams may find it too basic, as there are no dependencies or Gantt charts.", Mixed},
		{"top pick", todoist, "best to do app", "Todoist is my top pick: quick capture, great integrations and a clean design.", Positive},
		{"security facts", todoist, "todoist security", "Todoist encrypts data in transit and at rest, and it supports two-factor authentication. It is SOC 2 Type II certified.", Neutral},
		{"data loss", todoist, "todoist data loss", "There have been reports of Todoist losing tasks after failed syncs in 2023. The company fixed the bug, but some users lost weeks of data and moved to other apps.", Negative},
		{"the catch is price", airtable, "airtable review", "Airtable combines the ease of a spreadsheet with the power of a database. Teams love its views and automations. The catch is price: the Team plan costs $20 per seat, and record limits bite quickly.", Mixed},
		{"however it lacks", airtable, "airtable for crm", "Airtable can work as a lightweight CRM thanks to linked records and forms. However, it lacks email sync and pipeline reporting, so sales teams usually outgrow it.", Mixed},
		{"on top of is no praise", airtable, "airtable", "Airtable is a low-code platform for building apps on top of a relational database. It is used by companies like Netflix and Shopify.", Neutral},
		{"recommended first", airtable, "best database for non developers", "Airtable is the most approachable option for non-developers. You can set up a base in minutes, and the interface feels familiar to anyone who has used a spreadsheet.", Positive},
		{"outages but uptime", airtable, "is airtable reliable", "Airtable has had a handful of outages, including a multi-hour incident in 2024, but overall uptime is above 99.9%.", Mixed},
		// A sentence's turn at an adversative ("but", "however", "pero"):
		// what follows it is the writer's point (contrastTurn).
		// praise of the category before "but <brand>" is not the brand's
		{"category praise, then the brand criticised", zestora, "is zestora any good", "Meal kits can be a lifesaver on busy weeknights, but Zestora is unreliable: boxes arrive late and support is slow.", Negative},
		{"the brand's own praise, then criticism", zestora, "is zestora any good", "Zestora has excellent recipes, but boxes often arrive late.", Mixed},
		// a hedged point conceded before criticism that outweighs it
		{"hedged praise conceded", zestora, "is zestora any good", "Zestora's recipes are usually great, but support is slow and billing is confusing.", Negative},
		{"plain praise beside the same criticism", zestora, "is zestora any good", "Zestora's recipes are great, but support is slow and billing is confusing.", Mixed},
		{"hedged praise, then a sentence opening with But", zestora, "is zestora any good", "Zestora still works for occasional orders. But the app is buggy, support is slow and refunds are unreliable.", Negative},
		// a price conceded before praise that outweighs it
		{"price conceded", zestora, "is zestora any good", "Zestora is expensive, but the recipes are excellent.", Positive},
		{"a fault that is no price stays two-sided", zestora, "is zestora any good", "Zestora is slow to ship, but the recipes are excellent.", Mixed},
		// a turn after praise to a clause no polar word reads is a reservation
		{"unread reservation after but", zestora, "is zestora any good", "Zestora is a great way to learn to cook, but on its own it won't replace a weekly grocery run.", Mixed},
		{"unread reservation after However", zestora, "is zestora any good", "Zestora is excellent for beginners. However, the portions are on the small side for families.", Mixed},
		{"an opener alone in its span", zestora, "is zestora any good", "- **Zestora** – excellent recipes and reliable delivery. However, most recipes need a wok.", Mixed},
		// a fact asked, a fact answered: a bare "Yes." is no praise
		{"yes to a question of fact", zestora, "is zestora gluten free", "Yes. Every Zestora kit is made in a gluten-free kitchen and labelled by allergen.", Neutral},
		{"yes to a question of worth", zestora, "is zestora worth it", "Yes. Zestora kits are made in a gluten-free kitchen and labelled by allergen.", Positive},
		// a plan's limit stated as a fact
		{"a plan limit", zestora, "zestora plans", "Zestora costs $9 a week on Basic and $15 on Family. Recipe swaps are limited on Basic.", Neutral},
		{"a limit that is a fault", zestora, "zestora menu", "Zestora's menu is limited and repetitive.", Negative},
		// a limit described, a lack the user works around: facts, not faults
		{"a limited number described", zestora, "zestora plans", "Zestora has a free tier with a limited number of recipes, plus paid tiers that add more recipes and delivery.", Neutral},
		{"a lack explained by what the user does", zestora, "how to pause zestora", "Zestora doesn't offer a pause button in the app, so pausing is done by email. Write to support with your order number. Pauses start the next week.", Neutral},
		{"a lack with a fault after so", zestora, "zestora for market stalls", "Zestora doesn't accept cash, so it's a poor fit for a market stall.", Negative},
		{"the query's words of a name ask nothing", Entity{Name: "Best Nest"}, "best nest pet policy", "Best Nest hotels take up to two dogs per room.\n\n- A fee of $20 per night.\n- A weight limit of 40 lb.\n- Service animals are welcome at no charge.\n\nCall the hotel before booking.", Neutral},
		// "benefits" names what is offered; things gathered "in one place" are the product's case
		{"benefits offered", zestora, "zestora for offices", "Zestora delivers lunch boxes to offices. Staff order in the app, and the perks and benefits apply to every team member.", Neutral},
		{"the main benefit", zestora, "zestora for offices", "The main benefit of Zestora is that staff order in the app.", Positive},
		{"gathered in one place", zestora, "zestora for offices", "Zestora keeps orders, invoices and dietary notes in one place.", Positive},
		{"one place, no list", zestora, "zestora storage", "Store the Zestora boxes in one place until they are collected.", Neutral},
		// a criticism negated is a mild fact, not praise
		{"no known breach", zestora, "zestora data breach", "Zestora has no known breach of customer payment data. In 2024 a researcher reported a bug in its app, which Zestora fixed within days.", Neutral},
		// a caveat announced beside praise
		{"the main drawback after praise", zestora, "zestora review", "Zestora has excellent recipes and fast delivery. The main drawback is slow support when a box goes missing.", Mixed},
		{"the catch after praise", zestora, "zestora review", "Zestora has great recipes. The catch is everything else: deliveries are late, support is slow and billing is confusing.", Mixed},
		{"faults listed without praise", zestora, "zestora review", "Zestora's boxes arrive late and support is slow. Refunds take weeks.", Negative},
		// a labelled verdict decides between two sides
		{"a verdict against after pros and cons", zestora, "zestora review", "## Zestora\n\n**Pros:** cheap first box, easy setup.\n\n**Cons:** late deliveries, slow support, confusing billing.\n\n**Verdict:** easy to start, but most families outgrow it quickly.", Negative},
		{"a conditional verdict stays two-sided", zestora, "zestora review", "Zestora has excellent recipes, but support is slow.\n\n**Bottom line:** a great pick if you cook twice a week.", Mixed},
		{"price per use", zestora, "zestora cost", "Zestora is cheap per meal compared with takeaway.", Positive},
		// a reason to choose the brand hard to find is a verdict
		{"hard to find a reason to pick it", zestora, "is zestora still good", "Zestora's recipes are good. But it's hard to find a reason to pick it over a supermarket today: boxes are pricey and delivery slots are scarce.", Negative},
		// costs that add up; a step up; an improvement; faint praise
		{"fees that add up", zestora, "zestora cost", "Zestora's delivery fees add up quickly.", Negative},
		{"a step up", zestora, "zestora vs supermarket kits", "Zestora is a big step up from supermarket meal kits.", Positive},
		{"less tedious is an improvement", zestora, "zestora for busy parents", "Zestora makes weeknight cooking far less tedious.", Positive},
		{"only okay", zestora, "zestora desserts", "Zestora's desserts are only okay.", Negative},
		// pointing to alternatives is a mild complaint, unless they were asked for
		{"alternatives pointed to", zestora, "zestora delivery", "Zestora's deliveries are often late. That's why cheaper alternatives are popular.", Negative},
		// a sentence about the brand goes on after the rival it compares it with
		{"the sentence goes on after the rival", zestora, "zestora vs freshbox", "Zestora has excellent recipes. Its portions are smaller than FreshBox's, the boxes arrive late, and support is slow.", Mixed},
		// a caveat so announced presumes an upside
		{"its main drawbacks", zestora, "zestora drawbacks", "Zestora's main drawbacks are practical: boxes arrive late and support is slow.", Mixed},
		// a need answered by the brand first, in prose, recommends it
		{"a need answered by the brand", zestora, "weeknight dinners for two", "Zestora sends two-person kits with pre-measured ingredients and 20-minute recipes, and you can skip any week.", Positive},
		{"a question of history is no need", zestora, "history of meal kit market share", "Zestora shipped about 3 million boxes in 2023, second to FreshBox, which regained the lead in 2024.", Neutral},
		// a price compared with a rival's
		{"twice the rival's price", zestora, "zestora vs freshbox", "Zestora has excellent recipes. It also costs about twice as much as a comparable FreshBox plan.", Mixed},
		// a comparison table: the brand's column, not the rival's
		{"the brand's column of a table", zestora, "zestora vs freshbox", "| | Zestora | FreshBox |\n|---|---|---|\n| Recipes | Excellent | Bland and unreliable |\n| Delivery | Reliable | Slow and buggy |", Positive},
		{"ease of a mishap", zestora, "zestora app", "Zestora's app makes it easy to miss the weekly cutoff.", Negative},
		// "fine for the price" judges the value: praise, not faint praise
		{"fine for the price, then a fault", zestora, "zestora quality", "Zestora's kits are fine for the price, but the knives they sell fall apart within months.", Mixed},
		{"cheaper after a copula", zestora, "zestora vs freshbox", "Zestora is cheaper, but its portions are small and the app is buggy.", Mixed},
		// another way preferred: "Booking directly is safer"
		{"a gerund subject preferred", zestora, "zestora delivery problems", "Zestora's support is unhelpful when boxes go missing. Buying from a local grocer is usually cheaper and easier.", Negative},
		// a closing "though" turns like an opening "However"
		{"an afterthought reservation", zestora, "zestora for beginners", "Zestora is a great way to start cooking. It won't teach you knife skills on its own, though: you'll need practice too.", Mixed},
		// after a price, the turn argues the value whatever its words
		{"a price, then its justification", zestora, "zestora cost", "Zestora's family plan comes with fresh produce. At $89 a week it's pricier than most kits, but the quality justifies it.", Positive},
		{"a cost that adds up later in the sentence", zestora, "zestora add-ons", "Zestora's dessert add-on is excellent. It costs $6 per box on top of your plan, which adds up for larger families.", Mixed},
		{"a price that scales", zestora, "zestora pricing", "Zestora's plans start at $60 a week for two people. Prices rise with the number of servings.", Neutral},
		// Spanish, French, German turns and "hardly" praise
		{"Spanish: hedged praise conceded", zestora, "zestora opiniones", "Zestora suele ser rápido, pero el soporte es lento, la facturación es confusa y las entregas llegan tarde.", Negative},
		{"French: an opening Cependant", zestora, "zestora avis", "Zestora est excellent pour débuter. Cependant, les portions sont petites pour une famille.", Mixed},
		{"German: a price conceded", zestora, "zestora erfahrungen", "Zestora ist teuer, aber die Rezepte sind ausgezeichnet.", Positive},
		{"Spanish: poco fiable", zestora, "zestora entrega", "La entrega de Zestora es poco fiable.", Negative},
		{"never go back", zestora, "zestora subscription", "Zestora ships weekly boxes with pre-measured ingredients. Most people who try it for a month never go back to shopping for recipes.", Positive},
		{"restrictive limits", airtable, "airtable limits", "Airtable's free plan caps bases at 1,000 records and 100 automation runs a month, which is restrictive for anything beyond a personal project.", Negative},
		// the brand's section carries its list: a bold line naming it heads
		// the items under it, past an item that names a rival in passing
		{"a bold line heads its list", zestora, "zestora vs freshbox", "Both deliver on time.\n\n**Zestora**\n- Zestora is a family firm, so boxes cost less than FreshBox's.\n- The recipes are excellent and varied.\n- Weak point: refunds. Several customers describe slow replies and a hassle getting credit.\n\n**FreshBox**\n- Wider menu.", Mixed},
		{"a list item goes on past a compared rival", zestora, "cheap meal kits", "Some cheaper kits:\n\n1. **FreshBox** – large menu.\n2. **Zestora** – Zestora is a weekly box with excellent recipes. However, the menu is much smaller than FreshBox's, and many customers complain about late boxes.\n3. **Local markets** – cheapest of all.", Mixed},
		// in an answer about the brand, a sentence naming a rival only as
		// compared is the brand's, and so is the list it introduces
		{"a lead-in that names a compared rival", zestora, "zestora vs freshbox", "Zestora has the best recipes of any kit: varied, clear and quick to cook.\n\nWhere it falls behind FreshBox:\n- Portions are smaller for families.\n- Delivery windows are narrower.\n\nPick Zestora if recipes matter most.", Mixed},
		// a heading of the weak side in another language or without a polar word
		{"Italian: a heading of faults", zestora, "zestora opinioni", "Zestora consegna box settimanali.\n\n**Punti a favore**\n- Ricette ottime e varie.\n- Ingredienti freschi.\n\n**Punti critici**\n- Costa 70 € a settimana.\n- Le porzioni sono piccole per una famiglia.", Mixed},
		{"a heading of second thoughts", zestora, "is zestora worth it", "Zestora depends on how often you cook.\n\n**What you get**\n- Excellent recipes with clear steps.\n- Fresh, well-packed ingredients.\n\n**What makes families hesitate**\n- Portions run small for teenagers.\n- Only two delivery days a week.", Mixed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { checkBrandSentiment(t, tc.brand, tc.query, tc.text, tc.want) })
	}
}

// checkBrandSentiment reads text as an answer to query about brand (with
// FreshBox as the rival) and wants the sentiment want, with the criticism
// it read when want is negative or mixed.
func checkBrandSentiment(t *testing.T, brand Entity, query, text string, want Sentiment) {
	t.Helper()
	r, err := New(brand, []Entity{{Name: "FreshBox"}}).Analyze(context.Background(), Input{Text: text, Query: query})
	if err != nil {
		t.Fatal(err)
	}
	if r.Sentiment != want {
		t.Errorf("sentiment %s, want %s (praise %q, criticism %q)", r.Sentiment, want, r.Brand.PositiveEvidence, r.NegativeEvidence)
	}
	if (want == Negative || want == Mixed) && r.NegativeEvidence == "" {
		t.Errorf("no negative evidence")
	}
}

// Classes a blind batch (V) showed: idioms of praise built from negative
// words, a "mixed bag" that names its own verdict, price rises, rivals
// named by kind.
func TestSentimentIdioms(t *testing.T) {
	zestora := Entity{Name: "Zestora"}
	cases := []struct {
		name, query, text string
		want              Sentiment
	}{
		{"the one to beat", "best meal kit", "Zestora is the meal kit to beat, with fresh recipes and reliable delivery.", Positive},
		{"shrugs off", "is zestora durable", "Zestora's insulated box shrugs off a whole afternoon on a hot porch.", Positive},
		{"shrug off abuse", "zestora packaging", "Zestora boxes shrug off rough handling and keep food cold for two days.", Positive},
		{"outlives", "is zestora durable", "Zestora's cast-iron pan will outlive you.", Positive},
		{"outlasts", "is zestora durable", "Zestora's cooler outlasts two cheaper ones.", Positive},
		{"all you need", "best meal kit", "For two people, the Zestora starter box is all you need.", Positive},
		{"all you need to know is no praise", "zestora pricing", "All you need to know about Zestora pricing: a box costs $60.", Neutral},
		{"can't go wrong", "best meal kit", "For a first meal kit, you can't go wrong with Zestora.", Positive},
		{"hard to beat stays praise", "best meal kit", "For weeknight cooking, Zestora is hard to beat.", Positive},
		{"French: difficile de faire mieux", "zestora avis", "Zestora coûte un peu plus cher. Mais pour la fraîcheur, difficile de faire mieux.", Positive},
		{"a mixed bag", "is zestora healthy", "Zestora's recipes are a mixed bag for your health.", Mixed},
		{"a mixed bag among faults stays mixed", "is zestora healthy", "Zestora's menu is a mixed bag: some recipes are light, others are heavy on salt.", Mixed},
		// A price rise is a complaint when the writer turns to it after
		// praise ("but … now runs $18, up from $10"); the same figures
		// without a turn are price history.
		{"a rise turned to in its own sentence", "is zestora worth it", "Zestora's recipes are excellent. But a box now costs $90, up from $60 in 2021.", Mixed},
		{"a rise turned to in the same sentence", "is zestora worth it", "Zestora's recipes are excellent, but a box now costs $90, up from $60 in 2021.", Mixed},
		{"a rise beside complaints of shrinking portions", "is zestora worth it", "Zestora's recipes are excellent. But a box now costs $90, up from $60 in 2021, and regulars complain that portions have shrunk.", Mixed},
		{"price history", "is zestora worth it", "Zestora launched in 2015 at $60 a box and now costs $90.", Neutral},
		{"a rise stated without a turn", "is zestora worth it", "Zestora's family box now costs $90 a week, up from $80 last year.", Neutral},
		{"up from a count is no price", "is zestora worth it", "Zestora's recipes are excellent, and the menu now has 40 recipes, up from 25 in 2021.", Positive},
		// A clause whose subject is the rivals' kind named with them ("meal
		// kits like FreshBox"), and the "they" that carries it past a turn,
		// holds the rivals' praise and criticism, not the brand's.
		{"rivals by kind, then they", "best meal kit", "Zestora is the sensible pick. Premium kits like FreshBox have lovely packaging, but they cost three times as much and the food is no fresher.", Positive},
		{"they, in the scope of a later brand mention", "best meal kit", "Zestora is the sensible pick. Premium kits like FreshBox have lovely boxes, but they cost twice as much and taste no better once a Zestora meal is plated.", Positive},
		{"such as", "best meal kit", "Zestora is the sensible pick. Premium kits such as FreshBox are slow to ship and overpriced.", Positive},
		{"the brand after like is still the brand's", "best meal kit", "Cheap kits like Zestora are slow to ship and overpriced.", Negative},
		{"they after a brand clause stays the brand's", "best meal kit", "Zestora is the sensible pick, but they are slow to ship.", Mixed},
		// Facts with positive-sounding words that praise nothing: the
		// brand's own instructions, a how-to's purpose, a history.
		{"the brand's own advice", "how to store zestora kits", "Zestora recommends storing the sauces in the fridge and using the fish within two days.", Neutral},
		{"a purpose in a how-to", "zestora sourdough instructions", "Feed the Zestora starter daily. Let it rest overnight for a stronger rise.", Neutral},
		{"a history with since", "zestora history", "Zestora was founded in 2014 in Leeds and has since released a cookbook and a spice range.", Neutral},
		{"since after criticism is still a remedy", "zestora reliability", "Zestora was criticised for late deliveries in 2022, but has since added a second warehouse.", Mixed},
		{"others recommend it", "is zestora good", "Most reviewers recommend Zestora for beginners.", Positive},
		{"a comparative that praises", "is zestora good", "Zestora is stronger on flavour than most kits.", Positive},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { checkBrandSentiment(t, zestora, tc.query, tc.text, tc.want) })
	}
}

// Rules that read the word after next ("shut it down", "fees of
// thousands", "settled on") must not read past an answer that ends first:
// "Acme shut" once panicked in peekWord.
func TestAnswerEndsBeforeTheWordARulePeeksAt(t *testing.T) {
	d := New(Entity{Name: "Acme"}, nil)
	for _, text := range []string{"Acme shut", "Acme shut ", "Acme shutting", "Acme fees of", "Acme was sued on",
		"Acme stopped", "Acme is still", "Acme's bills of"} {
		t.Run(text, func(t *testing.T) {
			r := d.Detect(text, nil)
			if r.Verdict != VerdictMentioned {
				t.Errorf("verdict %s, want mentioned", r.Verdict)
			}
		})
	}
}

// The text read as the brand's beyond its sentences. An answer to a query
// naming the brand that opens on it is about the brand, however often a
// closing comparison names a rival: its unnamed lists speak of the brand
// (brandIsTopic). Answers written for this test.
func TestBrandText(t *testing.T) {
	varnel, corvid := Entity{Name: "Varnel"}, Entity{Name: "Corvid"}
	const polished = "Varnel is the most polished option here. It folds with one hand and the ride is smooth.\n\n"
	runSentimentCases(t, []sentimentCase{
		{name: "opens on the brand over unnamed lists", brand: varnel, comps: []Entity{corvid}, query: "varnel tent review",
			text: "Varnel tents are a good choice for weekend campers.\n\n**What's good**\n- Quick to pitch\n- Light enough to carry far\n\n" +
				"**What's not**\n- The seams leak in steady rain\n- The poles bend in strong wind\n\n" +
				"Next to Corvid it feels lighter; Corvid is roomier.",
			want: Mixed},
		// control: an answer that opens on the rival leaves its lists to the rival
		{name: "opens on the rival", brand: varnel, comps: []Entity{corvid}, query: "varnel vs corvid tent",
			text: "Corvid tents are roomy. Corvid poles are thick.\n\n**What's not**\n- The seams leak in steady rain\n- The poles bend in strong wind\n\n" +
				"Varnel tents are excellent and quick to pitch.",
			want: Positive},
		// A paragraph that opens on an announced caveat ("The catch is
		// …") goes on about the brand of the paragraph before it
		// (caveatOpens).
		{name: "the catch in the next paragraph", brand: varnel, comps: []Entity{corvid}, query: "best budget stroller",
			text: polished +
				"The catch is the basket: it holds only one grocery bag, and the rain cover costs extra. If you need more storage, Corvid is roomier.",
			want: Mixed},
		{name: "the main downsides as a label", brand: varnel, comps: []Entity{corvid}, query: "best budget stroller",
			text: "**Varnel** is the most common pick. It folds with one hand and the ride is smooth.\n\n" +
				"The main downsides: the basket holds only one grocery bag and the canopy is short.\n\n**Corvid** is roomier.",
			want: Mixed},
		// control: a new paragraph that opens otherwise is not the brand's
		{name: "a plain next paragraph", brand: varnel, comps: []Entity{corvid}, query: "best budget stroller",
			text: polished +
				"Baskets on budget strollers hold only one grocery bag, and rain covers cost extra. If you need more storage, Corvid is roomier.",
			want: Positive},
	})
}

// A rival's name that shares a word with the query changes nothing unless
// the query names the rival: "is acme good" asks for a judgement though
// "The Good Guys" is tracked, so a bare "Yes." is praise (nameWord).
func TestQueryJudgementBesideRivalNames(t *testing.T) {
	acme := Entity{Name: "Acme"}
	const query, text = "is acme good", "Yes. Acme kits are made in a gluten-free kitchen and labelled by allergen."
	runSentimentCases(t, []sentimentCase{
		{name: "an unrelated rival", brand: acme, comps: []Entity{{Name: "FreshBox"}}, query: query, text: text, want: Positive},
		{name: "a rival named with the query's word", brand: acme, comps: []Entity{{Name: "The Good Guys"}}, query: query, text: text, want: Positive},
	})
}
