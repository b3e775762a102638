package detect

import (
	"context"
	"testing"
)

// The answer-level weighing (sentiment_verdict.go): a person files an
// answer by what dominates it. The answers are written for these tests.
func TestSentimentDominance(t *testing.T) {
	zestora := Entity{Name: "Zestora"}
	cases := []struct {
		name, query, text string
		want              Sentiment
	}{
		// a verdict against the brand decides a two-sided reading
		{"a closing that sends the reader elsewhere", "is zestora worth it",
			"Zestora's first box is cheap and the recipes look great on the menu. After that, deliveries slip, ingredients arrive bruised and support takes days to answer.\n\n**Bottom line:** for weekly cooking you're better off at a local grocer.", Negative},
		{"a warning after a concession", "is zestora legit",
			"Zestora is a legitimate company with real chefs, but there are good reasons to be cautious. Boxes often arrive warm, and refunds take weeks.", Negative},
		{"harder to recommend now", "best meal kit 2026",
			"Zestora, once the easy pick, is harder to recommend now. Its recipes are still tasty, but prices rose twice this year and deliveries are often late.", Negative},
		{"a closing advice turned against the praise", "has zestora gotten worse",
			"Zestora's deliveries are often late and support is slow to answer. Zestora still has the widest menu. Most reviewers' advice, though: if a local kit delivers to you, go there.", Negative},
		{"a labelled verdict preferring something else", "zestora review",
			"Zestora's intro offer is generous. Boxes often arrive late, though, and support is slow.\n\n**Verdict:** a supermarket meal deal costs about the same and is far less hassle.", Negative},
		{"French: réfléchissez à deux fois", "zestora avis",
			"Zestora a de bonnes recettes, mais réfléchissez à deux fois avant de vous abonner : les livraisons arrivent souvent en retard et le service client est lent.", Negative},
		{"Spanish: piénsalo dos veces", "zestora opiniones",
			"Zestora tiene buenas recetas, pero piénsalo dos veces antes de suscribirte: las entregas llegan tarde y el soporte es lento.", Negative},
		{"a warning the clauses do not read", "is zestora legit",
			"Zestora is technically legit — boxes usually do arrive — but the produce rarely matches the photos. Unless you live far from a shop, buy it somewhere else.", Negative},
		{"a bare qualified no", "is zestora worth it",
			"Only if you cook every single night. Zestora's recipes repeat after a month, and the menu rarely changes.", Negative},
		{"better off with the brand's own plan", "zestora plans",
			"Zestora's recipes are excellent and delivery is reliable. If you cook for four, you're better off with Zestora's family plan.", Positive},
		{"go there for the brand", "zestora pop-up kitchen",
			"Zestora's pop-up kitchen in Leeds serves excellent versions of its recipes. Locals say to go there early, because queues get long.", Positive},
		{"a tip to be wary with a dish", "zestora spicy noodles",
			"Zestora's dan dan noodles are excellent and the sauce is rich. Be wary with the chilli oil, which is hotter than it looks.", Positive},
		// a conditional warning beside conditional praise sets out two cases
		{"two cases, one of them look elsewhere", "is zestora good",
			"If you cook twice a week, Zestora is a great choice with excellent recipes. If you want to feed a family of five, look elsewhere: portions are small, the boxes are expensive and support is slow.", Mixed},
		{"a warning in a case beside dominant praise marks a scope", "zestora vs freshbox",
			"Zestora has excellent recipes and reliable delivery. FreshBox is slower and its support is weak. If you want the cheapest possible kit, you're better off with a supermarket deal.", Positive},
		{"a verdict for the brand names no rival", "zestora review",
			"Zestora has excellent recipes, but support is slow.\n\n**Bottom line:** a great pick if you cook twice a week.", Mixed},
		{"a verdict that leaves a case to a rival", "zestora review",
			"## Zestora\n\n**Pros**\n- Excellent recipes\n- Reliable delivery\n\n**Cons**\n- Boxes cost $12 a serving\n- No points program\n\n**Summary:** Zestora is a great fit for weeknight cooks, but bigger households may prefer FreshBox.", Mixed},
		{"a verdict followed by the rival's case", "zestora avis",
			"**Points forts**\n- Des recettes excellentes\n- Une livraison fiable\n\n**Points faibles**\n- Des boîtes chères\n- Pas de programme de fidélité\n\nEn résumé, Zestora convient bien aux cuisiniers pressés. Si vous cuisinez pour cinq, FreshBox sera plus adapté.", Mixed},
		// a verdict restricted to one kind of reader or use judges a case
		{"hard to justify for one kind of reader", "zestora review",
			"Zestora's recipes are excellent and the sauces come ready. The catch is price, around $13 a serving. Worth it for a couple; hard to justify for a family of six.", Mixed},
		{"hard to justify for the price stays a verdict", "zestora review",
			"Zestora's recipes are excellent and the sauces come ready. The catch is price, around $13 a serving, and the menu repeats. Hard to justify for the money.", Negative},
		{"a labelled verdict for a rival in one case", "zestora or freshbox for a beginner",
			"Zestora's recipes are excellent and the sauces are a joy. The downsides: boxes cost $13 a serving and the menu repeats.\n\n**Verdict:** For a first kit, FreshBox is the safer buy. Move to Zestora once you cook often.", Mixed},
		{"a labelled verdict for a rival for most people", "zestora or freshbox for a beginner",
			"Zestora's recipes are excellent and the sauces are a joy. The downsides: boxes cost $13 a serving and the menu repeats.\n\n**Verdict:** For most people, FreshBox is the safer buy.", Negative},
		// the brand named the better choice without condition: a verdict for it
		{"the brand the better choice", "zestora or freshbox for a family",
			"| | Zestora | FreshBox |\n|---|---|---|\n| Recipes | Excellent | Good |\n| App | Limited and slow | Fast |\n\nFor a family of four, Zestora is the better choice. Portions are generous, and the recipes are excellent.", Positive},
		{"the better choice in a case stays two-sided", "zestora or freshbox for a family",
			"| | Zestora | FreshBox |\n|---|---|---|\n| Recipes | Excellent | Good |\n| App | Limited and slow | Fast |\n\nIf you cook vegetarian, Zestora is the better choice. Portions are generous, and the recipes are excellent.", Mixed},
		// the brand picked among the options a query asked for, closing on
		// its praise: the caveats were weighed into the pick
		{"the pick closes on praise after a caveat", "best meal kit for two",
			"**Zestora** has good recipes. The app is slow and portions are small. Try Zestora first: for two people it is a good kit.", Positive},
		{"the same answer to a question about the brand", "is zestora good for two",
			"**Zestora** has good recipes. The app is slow and portions are small. Try Zestora first: for two people it is a good kit.", Mixed},
		{"the pick closes on its caveat", "best meal kit for two",
			"**Zestora** has good recipes. Try Zestora first: for two people it is a good kit. The app is slow and portions are small.", Mixed},
		// a caveat the writer plays down leaves the praise one-sided
		{"the only real drawback", "zestora review",
			"Zestora has excellent recipes, fast delivery and friendly support. The only real drawback is that the boxes use a lot of packaging. For weeknight cooking, it's the one I'd pick.", Positive},
		{"a small price to pay", "zestora review",
			"Zestora's recipes are excellent and the ingredients are always fresh. The delivery app is a nightmare, but regulars call that a small price to pay.", Positive},
		{"reviewers' praise with the complaint left over", "zestora review",
			"Zestora delivers on time and the recipes change weekly. Subscribers generally rate it highly for freshness; the common gripe is the packaging.", Positive},
		{"the main drawback stays two-sided", "zestora review",
			"Zestora has excellent recipes and fast delivery. The main drawback is slow support when a box goes missing.", Mixed},
		// a frame that opens the other side makes praise two-sided
		{"a heading: where it falls short", "zestora vs freshbox",
			"## Zestora\n\n**Where it shines**\n- Excellent recipes\n- Reliable delivery\n\n**Where it falls short**\n- Portions run small for big families\n- The app logs you out every week", Mixed},
		{"on the other hand after praise", "is zestora worth it",
			"Zestora's recipes are excellent and the ingredients arrive fresh. On the other hand, each serving costs about twice what the groceries would, and every box comes with a pile of packaging.", Mixed},
		{"the problem is the price", "zestora review",
			"Zestora has excellent recipes and reliable delivery. The problem is the price: at $12 a serving it costs more than most kits.", Mixed},
		{"German: auf der anderen Seite", "zestora erfahrungen",
			"Zestora hat ausgezeichnete Rezepte und eine zuverlässige Lieferung. Auf der anderen Seite kostet jede Portion doppelt so viel wie im Supermarkt.", Mixed},
		// the brand's lists: faults that outnumber strengths two to one
		{"complaints outnumber strengths", "zestora review",
			"Zestora is one of the biggest meal kits, with an excellent menu and friendly drivers.\n\n### What works\n- An excellent, varied menu\n- Friendly, reliable drivers\n\n### What customers complain about\n- Boxes arrive late\n- Ingredients arrive bruised\n- Refunds take weeks\n- Support is slow to answer\n- Prices rise every year\n\nZestora can work if you live near a depot.", Negative},
		{"praise in prose, then a list of limitations", "zestora review",
			"Zestora is one of the nicest meal kits around. Its recipes are excellent and genuinely fun to cook, and the boxes arrive reliably on time.\n\nThe limitations are real, though:\n- Portions run small for big eaters.\n- The app logs you out every week.\n- Some subscribers find the price high for what arrives.", Mixed},
		{"a verdict that praises, then reserves a part", "zestora review",
			"**Positives**\n- Excellent recipes\n- Reliable delivery\n\n**Negatives**\n- Portions run small\n- The app is slow\n\nOverall, Zestora works well for weeknight cooks, but many subscribers feel the dessert add-on isn't great value.", Mixed},
		{"a verdict in a case", "zestora or freshbox",
			"Zestora has excellent recipes. Downsides: portions are small, the boxes are expensive and the app is slow.\n\n**Summary:** Zestora's recipes are tastier, but you pay more for boxes that run small. If value matters more, FreshBox is the safer choice.", Mixed},
		{"a verdict that turns against the brand itself", "zestora review",
			"Zestora is cheap and sold everywhere, but its recipes are bland and portions are tiny.\n\n**Bottom line:** Zestora will keep you fed, but it's hard to call it good food.", Negative},
		{"headings: what's good, what's not", "is zestora worth it",
			"Mostly yes.\n\n**What's good**\n- Zestora's recipes are excellent and change every week.\n- Delivery is reliable.\n- The app is tidy.\n\n**What's not**\n- Portions are small for big eaters.\n- Menus lean on chicken.\n- A few boxes arrive with a missing sauce.\n\nIf you cook twice a week, it's well worth the price.", Mixed},
		{"headings: where it works, where it falls short", "is zestora good",
			"Zestora is good at some things and weak at others.\n\n**Where it works**\n- Getting dinner on the table in twenty minutes.\n- Learning a few new dishes each month.\n- It's cheap in the first weeks.\n\n**Where it falls short**\n- Portions are small and the menu repeats.\n- Packaging is wasteful.\n- Many subscribers feel the price rose too fast.\n\n**Verdict:** use it as a supplement, not your only source of dinners.", Mixed},
		{"complaints, then a closing in its favour", "zestora complaints",
			"The most common complaints about Zestora are:\n- Boxes arrive late\n- Ingredients arrive bruised\n- Refunds take weeks\n\nZestora does have loyal fans who love its excellent recipes, so it's worth trying a box.", Mixed},
		{"pros and cons, then a verdict for it", "zestora review",
			"## Zestora\n\n**Pros**\n- Excellent recipes\n- Reliable delivery\n\n**Cons**\n- Boxes cost $12 a serving\n- No points program\n\n**Bottom line:** worth every penny for weeknight cooking.", Positive},
		// a question of fact answered with one stray judgement
		{"a price list with one stray word", "zestora plans and prices",
			"Zestora offers three plans:\n\n| Plan | Price | Meals |\n|---|---|---|\n| Two | $60/week | 3 |\n| Family | $90/week | 4 |\n| Large | $120/week | 5 |\n\nThe Large plan is pricey. Prices include delivery.", Neutral},
		{"how-to steps with one stray word", "how to pause zestora deliveries",
			"You can pause Zestora from the app or the website:\n1. Open **Account → Deliveries**.\n2. Pick the weeks to skip.\n3. Confirm before the Wednesday cutoff.\n\nChanges after the cutoff cost more.", Neutral},
		{"a lineup explained, one ranking word", "zestora meal tiers explained",
			"Zestora sells four tiers of box. Classic sits at the top of the range.\n\n- Classic: three meals a week\n- Veggie: meat-free recipes\n- Family: four portions\n- Lite: smaller servings", Neutral},
		{"the meaning of a lineup's names asked", "zestora tier names meaning",
			"Zestora sells four tiers of box. Classic sits at the top of the range.\n\n- Classic: three meals a week\n- Veggie: meat-free recipes\n- Family: four portions\n- Lite: smaller servings", Neutral},
		{"the same words to a question of judgement", "zestora complaints",
			"Zestora offers three plans:\n\n| Plan | Price | Meals |\n|---|---|---|\n| Two | $60/week | 3 |\n| Family | $90/week | 4 |\n| Large | $120/week | 5 |\n\nThe Large plan is pricey. Prices include delivery.", Negative},
		{"a comparison asked is no fact sheet", "how does zestora compare on price",
			"Zestora offers three plans:\n\n| Plan | Price | Meals |\n|---|---|---|\n| Two | $60/week | 3 |\n| Family | $90/week | 4 |\n| Large | $120/week | 5 |\n\nThe Large plan is pricey. Prices include delivery.", Negative},
		// the writer splits the answer by the reader's case
		{"it comes down to how you use it", "is zestora worth it",
			"Zestora is popular for a reason, but it isn't the cheapest choice. The recipes are tasty and the app is clean. The delivery fee is steep on small orders and portions can be small.\n\nIt comes down to how you cook: two big orders a month — Zestora is fine; daily small orders — look elsewhere.", Mixed},
		{"German: kommt darauf an", "zestora erfahrungen",
			"Zestora hat klare Stärken: Die Rezepte sind lecker und die App ist übersichtlich.\n\nEs gibt aber auch Schwächen: Der Kundenservice ist schwer erreichbar, Lieferungen kommen oft zu spät und die Preise sind gestiegen.\n\n**Fazit:** Für Familien top, für Singles weniger geeignet. Kommt darauf an, wie du kochst.", Mixed},
		{"worth it depending on how you use it", "is zestora plus worth it",
			"Zestora Plus is excellent for families: free delivery, great recipes and a superb app. The fee is steep for one person and the menus repeat. Worth it or not depending on how often you cook.", Mixed},
		{"opinions are split, then a verdict for it", "zestora review",
			"Opinions on Zestora are split:\n\n- **Good:** the recipes are excellent and delivery is reliable.\n- **Not so good:** portions are small and the price keeps rising.\n\n**Bottom line:** a great pick for weeknight cooks.", Mixed},
		{"German: die Erfahrungen sind gemischt", "zestora erfahrungen",
			"Die Erfahrungen mit Zestora sind gemischt:\n\n**Positiv**\n- Leckere Rezepte\n- Zuverlässige Lieferung\n\n**Negativ**\n- Kleine Portionen\n- Langsamer Kundenservice\n\n**Fazit:** eine gute Wahl für Berufstätige.", Mixed},
		{"some of the range good, others not", "is zestora good quality",
			"Zestora's wool coats still get good reviews. That said, long-time customers say quality has slipped: thinner fabrics and uneven sizing. Some pieces are great value; others aren't worth the price. Check recent reviews before buying.", Mixed},
		{"a case set aside by a turn", "zestora opiniones",
			"Depende de la zona, pero las quejas sobre Zestora se repiten: pedidos que llegan tarde, ingredientes en mal estado y un servicio al cliente muy difícil de contactar. Es cierto que las recetas tienen buena fama. Aun así, hay opciones que dan menos disgustos.", Negative},
		// an answer that tells the reader others share the trouble confirms it
		{"not alone, then workarounds", "zestora box arrived warm",
			"You're not alone. Zestora boxes often arrive warm in summer, and support is slow to reply. The ice packs are good, and a refund for spoiled items usually comes.", Negative},
		{"many people have run into it", "zestora charged after cancelling",
			"Many people have run into this with Zestora: cancelling is confusing and some were charged again after a cancelled plan. The app is otherwise easy to use.", Negative},
		{"the same answer without the consolation", "zestora box arrived warm",
			"Zestora boxes often arrive warm in summer, and support is slow to reply. The ice packs are good, and a refund for spoiled items usually comes.", Mixed},
		// all that follows is bad news: the praise before was a concession
		{"the problems start", "zestora review",
			"Zestora is convenient: meals arrive ready to heat in two minutes. The problems start after the first box. Portions shrink, deliveries slip and cancelling takes several emails.", Negative},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { checkBrandSentiment(t, zestora, tc.query, tc.text, tc.want) })
	}
}

func TestMinimisedCaveat(t *testing.T) {
	cases := []struct {
		text string
		want bool
	}{
		{"The only real drawback is the price.", true},
		{"One minor gripe: the lid sticks.", true},
		{"Signal's only weakness is its user base.", true},
		{"Fans say it is a small price to pay.", true},
		{"Le seul bémol : le prix.", true},
		{"El único inconveniente es el precio.", true},
		{"Der einzige Nachteil ist der Preis.", true},
		{"The main drawback is the price.", false},
		{"It only fixes the problem in part.", false},
		{"Works only with problem sets from the book.", false},
		{"Several drawbacks pile up.", false},
		// the complaint left over after what most reviewers say (reportedResidue)
		{"Buyers largely like the blender; the usual gripe is the noise.", true},
		{"Overall, owners rate it well, with most complaints about the lid.", true},
		{"Reviews are mostly warm, and the criticism centres on delivery.", true},
		{"It is generally quiet; the main drawback is the price.", false}, // the writer's own caveat
		{"Most complaints are about the noise.", false},                   // no majority report before it
	}
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			if got := minimisedCaveat(tc.text) || reportedResidue(tc.text); got != tc.want {
				t.Errorf("minimisedCaveat or reportedResidue(%q) = %v, want %v", tc.text, got, tc.want)
			}
		})
	}
}

func TestCounterFrame(t *testing.T) {
	cases := []struct {
		text        string
		afterPraise bool
		want        bool
	}{
		{"**Where it falls short**", false, true},
		{"Where Zestora struggles is support.", false, true},
		{"The problem is the price.", false, true},
		{"- The downside is the packaging.", false, true},
		{"On the other hand, it costs more.", true, true},
		{"On the other hand, it costs more.", false, false}, // after criticism it may open praise
		{"En revanche, le service client est lent.", true, true},
		{"Where to buy: online only.", false, false},
		{"The problem it solves is planning.", false, false},
	}
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			if got := counterFrame(tc.text, tc.afterPraise); got != tc.want {
				t.Errorf("counterFrame(%q, %v) = %v, want %v", tc.text, tc.afterPraise, got, tc.want)
			}
		})
	}
}

func TestWeakSideHeading(t *testing.T) {
	cases := []struct {
		text string
		want bool
	}{
		{"**What owners don't like**", true},
		{"### What makes families hesitate", true},
		{"**Lo que no termina de convencer**", true},
		{"**Cosa non funziona**", true},
		{"### O que não agrada", true},
		{"**What owners like**", false},
		{"**What you get**", false},
		{"### Not what you expect", false}, // no what-heading
		{"**What's not to like?**", false}, // rhetorical praise
		{"### What's Not To Love", false},
		{"**What not to expect**", true},
	}
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			if got := weakSideHeading(tc.text); got != tc.want {
				t.Errorf("weakSideHeading(%q) = %v, want %v", tc.text, got, tc.want)
			}
		})
	}
}

// The model's answer settles praise and criticism; the answer-level
// weighing still judges them: a minor caveat confirmed as criticism stays
// minor.
func TestSentimentAdjudicationKeepsDominance(t *testing.T) {
	in := Input{Text: "Evernote is excellent for wikis and fast to search; its one minor gripe is a slightly slow sync.", Query: "evernote review"}
	adj := &questionAdjudicator{t: t, answers: map[Question]bool{QuestionCriticism: true}}
	r, err := New(evernote, nil, WithAdjudicator(adj)).Analyze(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if len(adj.reqs) == 0 {
		t.Fatal("the adjudicator was not asked")
	}
	if r.Sentiment != Positive {
		rules, _ := New(evernote, nil).Analyze(context.Background(), in)
		t.Errorf("sentiment %s, want positive (rules alone %s, asked %v)", r.Sentiment, rules.Sentiment, adj.reqs[0].Question)
	}
}

func TestSomeOthers(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"Some pieces are great value; others aren't worth the price.", true},
		{"Some models last for years, others fail within months.", true},
		{"Some users report refunds that never arrive.", false},
		{"Some say it's fine; most disagree.", false},
		{"Others find it slow, some don't.", false},
	} {
		t.Run(tc.text, func(t *testing.T) {
			if got := someOthers(tc.text); got != tc.want {
				t.Errorf("someOthers(%q) = %v, want %v", tc.text, got, tc.want)
			}
		})
	}
}
