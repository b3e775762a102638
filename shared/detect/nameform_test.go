package detect

import "testing"

// Names the query writes in a form only a name takes (nameform.go), with
// sentences written for the tests: the product answers the rules read and
// the common-word answers they must leave alone.

func TestClassQueryPluralName(t *testing.T) {
	beats := Entity{Name: "Beats", Domains: []string{"beatsbydre.com"}}
	vans := Entity{Name: "Vans", Domains: []string{"vans.com"}}
	boots := Entity{Name: "Boots", Domains: []string{"boots.com"}}
	runVerdictCases(t, []verdictCase{
		{"a plural before a good's noun", beats, nil, "do beats earbuds fall out when running",
			"Beats are held in by a wing tip on the Powerbeats line, so they stay put on most runs; the Studio Buds rely on the tips alone.", VerdictMentioned},
		{"a plural before a footwear noun", vans, nil, "are vans sneakers ok for long walks",
			"Vans are flat and thin-soled, fine for a city afternoon but tiring over ten miles; add a cushioned insole if you must.", VerdictMentioned},
		{"a plural the query predicates of stays the noun", boots, nil, "are boots necessary for a winter hike",
			"Layer wool over a synthetic base. In deep snow, Boots are essential, and gaiters keep the cuffs dry.", VerdictOrdinaryWord},
		{"a plural after the good's noun stays the noun", boots, nil, "hiking boots vs trail shoes",
			"Boots are heavier but support the ankle under a loaded pack; trail shoes dry faster and suit day hikes.", VerdictOrdinaryWord},
	})
}

func TestClassQueryPhraseCapitalised(t *testing.T) {
	polar := Entity{Name: "Polar", Domains: []string{"polar.com"}}
	plain := Entity{Name: "Plain", Domains: []string{"plain.com"}}
	golden := Entity{Name: "Golden", Domains: []string{"golden.com"}}
	runVerdictCases(t, []verdictCase{
		{"the query's model capitalised after the word", polar, nil, "polar vantage m3 battery life",
			"Polar Vantage M3 lasts about twelve days as a watch and forty hours with GPS on.", VerdictMentioned},
		{"a word English capitalises anyway", plain, nil, "plain english for legal letters",
			"Plain English means short sentences and everyday words. Cut the legalese and put the action first.", VerdictOrdinaryWord},
		{"the words written in lower case", golden, nil, "golden retriever shedding",
			"Golden retrievers shed all year and heavily twice a year; brush them every other day.", VerdictOrdinaryWord},
		{"a singular in the query is not the answer's plural", polar, nil, "how does a polar bear hunt seals",
			"Polar Bears wait at breathing holes in the sea ice and strike when a seal surfaces.", VerdictOrdinaryWord},
	})
}

func TestClassMiddleInitial(t *testing.T) {
	hunter := Entity{Name: "Hunter", Domains: []string{"hunterboots.com"}}
	ranger := Entity{Name: "Ranger", Domains: []string{"ranger.com"}}
	runVerdictCases(t, []verdictCase{
		{"a who-question answered with an initial", hunter, nil, "who painted the mural on the old mill",
			"The mural was painted by **Hunter J. Bellamy** in 1988. It shows the mill's workers on strike.", VerdictOrdinaryWord},
		{"a relative who after the surname", ranger, nil, "famous jazz drummers of the 60s",
			"Ranger T. Holloway, who played with every quartet in Detroit, rarely recorded under his own name.", VerdictOrdinaryWord},
		{"a model letter after the product is no initial", ranger, nil, "best budget bass boat",
			"Ranger Z. The Z-series hulls are the dealer favourite: Ranger builds them with foam-filled stringers.", VerdictMentioned},
	})
}

func TestClassMeaningOfAFeature(t *testing.T) {
	kong := Entity{Name: "Kong", Domains: []string{"kongcompany.com"}}
	netto := Entity{Name: "Netto", Domains: []string{"netto.de"}}
	runVerdictCases(t, []verdictCase{
		{"the meaning of a good's feature", kong, nil, "kong toy sizes meaning",
			"Kong sizes its toys by the dog's weight: Small is for dogs up to 9 kg, Large up to 30 kg.", VerdictMentioned},
		{"the meaning of the word itself", netto, nil, "netto meaning",
			"Netto is the net amount: what is left after tax and deductions.", VerdictOrdinaryWord},
	})
}

func TestClassRivalAnswersTheQuery(t *testing.T) {
	gather := Entity{Name: "Gather", Domains: []string{"gather.town"}}
	sorel := []Entity{{Name: "Sorel", Domains: []string{"sorel.com"}}}
	hunter := Entity{Name: "Hunter", Domains: []string{"hunterboots.com"}}
	runVerdictCases(t, []verdictCase{
		{"the query's subject with a rival later", Entity{Name: "Chance", Domains: []string{"chance.com"}},
			[]Entity{{Name: "Uniqlo", Domains: []string{"uniqlo.com"}}}, "is chance good quality",
			"Chance is mostly selling on its logo now. Buyers mention seams that split after a few washes. Colours fade fast too.\n\nFor basics that last, Uniqlo is the better buy.", VerdictMentioned},
		{"a query that uses the word as a word", hunter, sorel, "how to become a deer hunter",
			"Hunter education comes first: every state requires a course.\n\nWaterproof boots from Sorel help in the field.", VerdictOrdinaryWord},
		{"a query that does not name the word", gather, []Entity{{Name: "Teams", Domains: []string{"teams.microsoft.com"}}},
			"tips for a family reunion",
			"Gather everyone's dates early.\n\nA shared calendar or Microsoft Teams call helps the cousins abroad.", VerdictOrdinaryWord},
	})
}

func TestClassCountedHeadline(t *testing.T) {
	simple := Entity{Name: "Simple", Domains: []string{"simple.com"}}
	notion := Entity{Name: "Notion", Domains: []string{"notion.so"}}
	runVerdictCases(t, []verdictCase{
		{"a count before the word in a headline", simple, nil, "evening routine tips",
			"## 5 Simple Steps to a Calmer Evening\n\n1. Dim the lights an hour before bed.\n2. Put the phone in another room.", VerdictOrdinaryWord},
		{"a product's noun after the counted name", notion, nil, "notion templates for students",
			"## 5 Notion Templates for Students\n\n1. A weekly planner with a habit tracker.\n2. A reading list with ratings.", VerdictMentioned},
		{"a heading that opens with the name", simple, nil, "simple skincare review",
			"## Simple Moisturiser Review\n\nIt is fragrance-free and suits sensitive skin; the tube lasts about two months.", VerdictMentioned},
	})
}

func TestClassOwnerLowerCaseName(t *testing.T) {
	pure := Entity{Name: "Pure", Aliases: []string{"pure gym"}, Domains: []string{"puregym.com"}}
	rivals := []Entity{{Name: "The Gym Group", Domains: []string{"thegymgroup.com"}}}
	runVerdictCases(t, []verdictCase{
		{"the owner's lower case as a list head beside a rival", pure, rivals, "cheapest gym membership london",
			"Budget chains charge far less than the big clubs:\n\n- **pure** – no contract, open all hours, from £20 a month.\n- **The Gym Group** – similar prices, more sites outside zone 2.\n\nBoth charge a joining fee that is often waived online.", VerdictMentioned},
		{"the word in prose stays the word", pure, rivals, "is tap water safe in london",
			"London's tap water is safe and fairly hard; it is not pure, but the minerals do no harm. A jug filter helps with the taste.", VerdictOrdinaryWord},
		{"an alias that does not open with the name", Entity{Name: "Pure", Aliases: []string{"the pure app"}}, rivals, "is tap water safe in london",
			"London's tap water is safe.\n\n- **pure** water is not the goal; the minerals do no harm.", VerdictOrdinaryWord},
	})
}

func TestClassPhraseNamesake(t *testing.T) {
	mont := Entity{Name: "Mont Ventoux", Domains: []string{"montventoux-cycles.com"}}
	dolce := Entity{Name: "Dolce Vita", Domains: []string{"dolcevita.com"}}
	rivals := []Entity{{Name: "Specialized", Domains: []string{"specialized.com"}}}
	runVerdictCases(t, []verdictCase{
		{"defined in apposition by a landform", mont, rivals, "hardest cycling climbs in france",
			"Most riders rank the Mont Ventoux, the bare limestone ridge above Bédoin, first: 21 km at 7.5 %. The Alpe d'Huez is shorter but busier.", VerdictOrdinaryWord},
		{"its meaning asked", dolce, nil, "what does dolce vita mean",
			"**Dolce vita** is Italian for \"the sweet life\": an idle, pleasure-filled way of living, made famous by Fellini's 1960 film.", VerdictOrdinaryWord},
		{"a product's apposition is no namesake", mont, rivals, "best endurance road bike",
			"Mont Ventoux, the carbon endurance frame, is lighter than the Specialized Roubaix and takes 35 mm tyres.", VerdictMentioned},
		{"the name answered plainly", dolce, nil, "dolce vita sandals sizing",
			"Dolce Vita sandals run true to size; half sizes go up.", VerdictMentioned},
	})
}

func TestClassOwnerCapitals(t *testing.T) {
	keen := Entity{Name: "Keen", Aliases: []string{"KEEN"}, Domains: []string{"keenfootwear.com"}}
	runVerdictCases(t, []verdictCase{
		{"the owner's capitals at a sentence start", keen, nil, "are keen sandals good for hiking",
			"KEEN sandals grip well on wet rock, though the toe cap makes them warm in summer.", VerdictMentioned},
		{"the word in lower case stays the word", keen, nil, "how to stay motivated training for a marathon",
			"Keep a keen eye on recovery: sleep matters as much as mileage.", VerdictOrdinaryWord},
		{"a heading in capitals says nothing", keen, nil, "how to stay motivated training for a marathon",
			"## STAY KEEN ON EASY DAYS\n\nRun them slower than feels right.", VerdictOrdinaryWord},
	})
}
