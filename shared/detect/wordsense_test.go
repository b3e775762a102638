package detect

import (
	"strings"
	"testing"
)

// Word senses blind batch AA showed (wordsense.go), with sentences written
// for the tests: each table holds the sense the rule reads and the product
// answers it must leave alone.

func TestClassQueryInflection(t *testing.T) {
	graze := Entity{Name: "Graze", Domains: []string{"graze.com"}}
	wander := Entity{Name: "Wander", Domains: []string{"wander.com"}}
	burrow := Entity{Name: "Burrow", Domains: []string{"burrow.com"}}
	zoom := Entity{Name: "Zoom", Domains: []string{"zoom.us"}}
	runVerdictCases(t, []verdictCase{
		{"e dropped before ing", graze, nil, "how to treat a knee I grazed falling off my bike",
			"Rinse it under cool running water first.\n\n## Clean the Graze Gently\n\nPat it dry and cover it with a breathable dressing.", VerdictOrdinaryWord},
		{"ing after a consonant", wander, nil, "why does my dog keep wandering off on walks",
			"Most dogs roam because they are bored or following a scent.\n\n## Curb the Wander Instinct\n\nWalk on a long line and reward every check-in.", VerdictOrdinaryWord},
		{"the name as written is the brand's", burrow, nil, "is the burrow nomad sofa worth it",
			"Burrow ships the Nomad in boxes that fit through narrow doors, and the frame bolts together without tools.", VerdictMentioned},
		{"a product cue outweighs the inflection", zoom, nil, "zooming in on a shared screen",
			"In the Zoom app, choose View Options and then Zoom Ratio to enlarge what the presenter shares.", VerdictMentioned},
	})
}

func TestClassPluralAgreement(t *testing.T) {
	sandals := Entity{Name: "Sandals", Domains: []string{"sandals.com"}}
	boots := Entity{Name: "Boots", Domains: []string{"boots.com"}}
	runVerdictCases(t, []verdictCase{
		{"headline with a plural copula", sandals, nil, "are sandals good for a cruise",
			"Deck shoes grip better on wet teak.\n\n## When Flat Sandals Are the Better Choice\n\nOn hot port days they dry fast and take no room.", VerdictOrdinaryWord},
		{"plural subject mid-sentence", boots, nil, "are boots necessary for a winter hike",
			"Layer wool over a synthetic base. In deep snow, Boots are essential, and gaiters keep the cuffs dry.", VerdictOrdinaryWord},
		{"singular agreement is the company", sandals, nil, "adults only resorts in jamaica",
			"Sandals is the adults-only chain most travel agents suggest: every property includes drinks, dining and water sports.", VerdictMentioned},
		{"a plural subject joined to another", sandals, []Entity{{Name: "Couples Resorts"}}, "adults only resorts in jamaica",
			"Sandals and Couples Resorts are the two adults-only chains on the north coast; both include drinks and water sports.", VerdictMentioned},
	})
}

func TestClassMenuLabel(t *testing.T) {
	warp := Entity{Name: "Warp", Domains: []string{"warp.dev"}}
	runVerdictCases(t, []verdictCase{
		{"a tool of the software whose menu the answer walks", warp, nil, "how to curve text in photoshop",
			"Select the layer and choose **Edit › Transform › Warp** to bend it along a preset arc.\n\nFor finer control, the Warp Tool in the toolbar lets you drag single points.", VerdictOrdinaryWord},
		{"the menu's root is the app", warp, nil, "best terminal for mac developers",
			"Warp is a Rust-based terminal with command search built in. Open **Warp › Settings › Appearance** to pick a theme.", VerdictMentioned},
		{"a lower-case cue is no label", warp, nil, "how to change the terminal font",
			"In the Warp app, fonts live under **Settings › Appearance › Text**.", VerdictMentioned},
		{"the word ends a step of several words", warp, nil, "how to bend a logo in illustrator",
			"Pick the **Warp Tool** in the toolbar, or go to **Effect > Distort Shape Warp** for an arc.", VerdictOrdinaryWord},
		{"a step of several words under the app", warp, nil, "best terminal for mac developers",
			"Warp is a Rust-based terminal with command search built in. Open **Warp Preview › Settings** to try new features.", VerdictMentioned},
	})
}

// A heading that opens with the word, the common words after it
// capitalised as any heading's are (styleTopic): the next word's capital is
// the heading's, no product line's name.
func TestClassHeadingTopic(t *testing.T) {
	patio := Entity{Name: "Patio", Domains: []string{"patio.com"}}
	cricut := Entity{Name: "Cricut", Domains: []string{"cricut.com"}}
	runVerdictCases(t, []verdictCase{
		{"a heading's topic", patio, nil, "how to lay a paver patio on a slope",
			"## Patio Layout Basics\n\nPatio slabs need a gentle fall away from the house so rain runs off.", VerdictOrdinaryWord},
		{"two words", patio, nil, "cheap patio ideas for a small garden",
			"### Patio Tips\n\nGravel and a few reclaimed slabs cost far less than new stone.", VerdictOrdinaryWord},
		{"a model's number is a product line", cricut, nil, "which cutting machine for vinyl",
			"**Cricut Maker 3**\n\nCuts smart vinyl without a mat, up to twelve feet at a time.", VerdictMentioned},
	})
}

// A query that asks which is reliable or cheap, or the best, in any
// language the package reads, asks about providers (queryProductWords).
func TestClassQueryEvaluation(t *testing.T) {
	crown := Entity{Name: "Crown", Domains: []string{"crown.example"}}
	runVerdictCases(t, []verdictCase{
		{"the adjective of reliability", crown, nil, "most reliable pressure washers",
			"For a machine that outlasts its warranty, start with Crown.", VerdictMentioned},
		{"German cheap", crown, nil, "paket nach spanien schicken günstig",
			"In Spanien stellt Crown die meisten Pakete zu.", VerdictMentioned},
		{"the most reliable way asks for no product", crown, nil, "most reliable way to fix a fence",
			"Set the posts in concrete and let them cure before you hang the Crown.", VerdictOrdinaryWord},
	})
}

func TestClassPlaceQuery(t *testing.T) {
	albert := Entity{Name: "Albert", Domains: []string{"albert.com"}}
	canary := Entity{Name: "Canary", Domains: []string{"canary.is"}}
	runVerdictCases(t, []verdictCase{
		{"things to do near", albert, nil, "things to do near albert park melbourne",
			"Albert Park Lake has a five-kilometre running loop, and the Grand Prix circuit runs along its edge.", VerdictOrdinaryWord},
		{"what to see", canary, nil, "what to see in canary wharf on a sunday",
			"Canary Wharf's Crossrail Place roof garden is free and rarely crowded at the weekend.", VerdictOrdinaryWord},
		{"at a venue is the business", Entity{Name: "Sandals", Domains: []string{"sandals.com"}}, nil, "things to do at sandals negril",
			"Sandals Negril runs free scuba dives for certified guests, and its seven restaurants take no reservations.", VerdictMentioned},
		{"a product query stays the product's", albert, nil, "albert app review",
			"Albert is a budgeting app that moves spare cash into savings automatically and charges a monthly fee for its Genius tier.", VerdictMentioned},
	})
}

func TestClassIgnoranceLineup(t *testing.T) {
	runVerdictCases(t, []verdictCase{
		{"current range", Entity{Name: "Thistle", Domains: []string{"thistle.com"}}, nil, "thistle meals nut free",
			"I have no dependable nutrition data for Thistle's winter range, so I can't say which of its meals are nut free.", VerdictUnknownToModel},
		{"menu", Entity{Name: "Orvanta"}, nil, "orvanta nut free options",
			"I don't have up-to-date details on Orvanta's menu, so ask the staff about nuts before you order.", VerdictUnknownToModel},
		{"a statement beside it wins", Entity{Name: "Graze", Domains: []string{"graze.com"}}, nil, "graze snack box",
			"I can't confirm Graze's current range. Graze is known for small, portioned snacks delivered by post.", VerdictMentioned},
	})
}

func TestClassKindSenses(t *testing.T) {
	osprey := Entity{Name: "Osprey", Domains: []string{"osprey.com"}}
	marathon := Entity{Name: "Marathon", Domains: []string{"marathon.com"}}
	harrier := Entity{Name: "Harrier", Domains: []string{"harrier.io"}}
	runVerdictCases(t, []verdictCase{
		{"a creature's verb", osprey, nil, "birds of prey in scotland",
			"Osprey hunts over lochs and plunges feet-first for trout; the best place to watch is Loch Garten in summer.", VerdictOrdinaryWord},
		{"an event's participle", marathon, nil, "famous ancient greek battles",
			"In 490 BC, Marathon was fought on the coast north of Athens, and the Athenians beat a larger Persian force there.", VerdictOrdinaryWord},
		{"defined by a craft heading its phrase", harrier, nil, "cold war jets",
			"Harrier is a British jump-jet aircraft that could take off vertically from small ships and clearings.", VerdictOrdinaryWord},
		{"a product's verbs stay the product's", osprey, nil, "best hiking backpack for beginners",
			"Osprey makes the packs most beginners end up with: the Atmos AG carries heavy loads comfortably and comes with a lifetime guarantee.", VerdictMentioned},
		{"a kind's noun modifying a product's", harrier, nil, "competitive intelligence tools for sales",
			"Harrier is a battle card tool for sales teams that keeps rival pricing current.", VerdictMentioned},
	})
}

func TestClassHeadlineOpeningVerb(t *testing.T) {
	anchor := Entity{Name: "Anchor", Domains: []string{"anchor.fm"}}
	runVerdictCases(t, []verdictCase{
		{"an imperative heading in headline style", anchor, nil, "how to pitch a tent in strong wind",
			"Stake the windward side first.\n\n## Secure the Anchor Points\n\nUse two pegs per guy line in loose soil.", VerdictOrdinaryWord},
		{"a product cue in the heading still counts", anchor, nil, "free podcast hosting",
			"## Open the Anchor App\n\nRecord an episode on your phone and publish it to every directory for free.", VerdictMentioned},
	})
}

func TestClassPluralSense(t *testing.T) {
	osprey := Entity{Name: "Osprey", Domains: []string{"osprey.com"}}
	runVerdictCases(t, []verdictCase{
		{"the answer writes the plural noun", osprey, nil, "birds to watch at loch garten",
			"The ospreys arrive in early April and stay until late August. Osprey chicks usually fledge in July, when the hide is busiest.", VerdictOrdinaryWord},
		{"a product's evidence outweighs it", osprey, nil, "best daypack for hiking",
			"Osprey makes the Talon 22, a light daypack with a hip belt; the ospreys on the logo are the only birds involved.", VerdictMentioned},
	})
}

func TestClassTitledKind(t *testing.T) {
	rise := Entity{Name: "Rise", Domains: []string{"risescience.com"}}
	digit := Entity{Name: "Digit", Domains: []string{"digit.co"}}
	runVerdictCases(t, []verdictCase{
		{"a possessive's film", rise, nil, "british films about coal miners",
			"Holloway's film Rise offers a rare look at three Welsh miners through the 1984 strike.", VerdictOrdinaryWord},
		{"the horse", digit, nil, "famous grand national winners",
			"In 1967 the horse Digit won at odds of 100 to 1 after a pile-up at the 23rd fence.", VerdictOrdinaryWord},
		{"the app before the name is a cue", rise, nil, "sleep debt tracker",
			"The app Rise tracks sleep debt from your phone's motion data and suggests when to rest.", VerdictMentioned},
	})
}

func TestClassHonorific(t *testing.T) {
	bird := Entity{Name: "Bird", Domains: []string{"bird.co"}}
	albert := Entity{Name: "Albert", Domains: []string{"albert.com"}}
	runVerdictCases(t, []verdictCase{
		{"a title before a word", bird, nil, "texas wildflower history",
			"Lady Bird Johnson pushed for wildflowers along Texas highways in the 1960s, and the state still seeds them.", VerdictOrdinaryWord},
		{"a title before a name", albert, nil, "great exhibition 1851 history",
			"The Great Exhibition owed much to Prince Albert, who chaired the royal commission that raised the money.", VerdictOrdinaryWord},
		{"the app without a title", albert, nil, "apps that save money automatically",
			"Albert moves small amounts into savings when it sees room in your budget, and its Genius tier adds human advice.", VerdictMentioned},
	})
}

// Word senses blind batch O showed, with sentences written for the tests.

func TestClassDesignationBefore(t *testing.T) {
	apache := Entity{Name: "Apache", Domains: []string{"apache.org"}}
	osprey := Entity{Name: "Osprey", Domains: []string{"osprey.com"}}
	runVerdictCases(t, []verdictCase{
		{"a helicopter's designation", apache, nil, "attack helicopters in service",
			"The Boeing AH-64 Apache remains the army's main attack helicopter, with a 30 mm chain gun under the nose.", VerdictOrdinaryWord},
		{"a designation with a variant letter", osprey, nil, "tiltrotor history",
			"The Marines flew the MV-22B Osprey on its first combat deployment in 2007.", VerdictOrdinaryWord},
		{"the brand's model follows its name", osprey, nil, "best daypack for hiking",
			"The Osprey Talon 22 carries well, and its hipbelt pockets fit a phone.", VerdictMentioned},
		{"a designation run together", Entity{Name: "Corsair", Domains: []string{"corsair.com"}}, nil, "",
			"Warbirds on the flight line: an F4U Corsair with its gull wings folded, then two trainers.", VerdictOrdinaryWord},
		{"a quarter is no designation", Entity{Name: "Square", Domains: []string{"squareup.com"}}, nil, "",
			"In Q3 Square processed more payments than a year earlier, and its seller fees held steady.", VerdictMentioned},
		{"a year is no designation", osprey, nil, "best daypack for hiking",
			"The 2024 Osprey Talon 22 gained a stiffer back panel; it carries well on long days.", VerdictMentioned},
	})
}

func TestClassPossessiveDefinition(t *testing.T) {
	etna := Entity{Name: "Etna", Domains: []string{"etna.com"}}
	runVerdictCases(t, []verdictCase{
		{"one of a country's volcanoes", etna, nil, "can you walk up etna",
			"Etna (3,357 m) is one of Europe's most active volcanoes, and the upper craters need a licensed guide.", VerdictOrdinaryWord},
		{"a country's largest product", Entity{Name: "Tide", Domains: []string{"tide.com"}}, nil, "best laundry detergent",
			"Tide is America's best-selling laundry detergent, and its pods dissolve well in cold water.", VerdictMentioned},
	})
}

func TestClassQueryKindAndEra(t *testing.T) {
	osprey := Entity{Name: "Osprey", Domains: []string{"osprey.com"}}
	reformation := Entity{Name: "Reformation", Domains: []string{"thereformation.com"}}
	runVerdictCases(t, []verdictCase{
		{"the word modifies a kind's noun", osprey, nil, "osprey helicopter range",
			"The Osprey can fly about 1,600 km on internal fuel, far beyond what a conventional helicopter manages.", VerdictOrdinaryWord},
		{"an era's event", reformation, nil, "how did the reformation change europe in the 16th century",
			"The Scandinavian Reformation came from the crown: kings seized church land and appointed bishops, and Reformation preachers followed with vernacular bibles.", VerdictOrdinaryWord},
		{"a product noun after the word stays the product's", osprey, nil, "osprey backpack warranty",
			"Osprey repairs or replaces any pack for life under its All Mighty Guarantee, whatever the damage.", VerdictMentioned},
		{"no era asked", reformation, nil, "is the reformation sizing true to size",
			"Reformation runs small in the hips, so size up in its wrap dresses; the jeans fit true.", VerdictMentioned},
	})
}

func TestClassPersonAnswer(t *testing.T) {
	kate := Entity{Name: "Kate Spade", Domains: []string{"katespade.com"}}
	helly := Entity{Name: "Helly Hansen", Domains: []string{"hellyhansen.com"}}
	runVerdictCases(t, []verdictCase{
		{"a who-question answered with the person", Entity{Name: "Stig Blomqvist", Domains: []string{"blomqvist.se"}}, nil,
			"who won the world rally championship in 1984",
			"**Stig Blomqvist** took the 1984 title in an Audi Quattro, winning five rounds that season.", VerdictOrdinaryWord},
		{"a maker asked for is the company", helly, nil, "who makes the warmest sailing gloves",
			"Helly Hansen and Musto both make insulated gloves with grippy palms for cold-water sailing.", VerdictMentioned},
		{"the query names the brand", kate, nil, "who owns kate spade now",
			"Kate Spade has belonged to Tapestry since 2017, alongside Coach and Stuart Weitzman.", VerdictMentioned},
	})
}

func TestClassWorkTitleYear(t *testing.T) {
	wag := Entity{Name: "Wag", Domains: []string{"wagwalking.com"}}
	runVerdictCases(t, []verdictCase{
		{"an italic title and its year", wag, nil, "",
			"The satire *Wag the Dog* (1997) imagines a staged war that hides a scandal; critics still cite it.", VerdictOrdinaryWord},
		{"a quoted title and its year", Entity{Name: "Rise", Domains: []string{"risescience.com"}}, nil, "",
			"Her debut single “Rise Again” (2019) topped the local charts for three weeks.", VerdictOrdinaryWord},
		{"a bold name with its founding year is the company", wag, nil, "",
			"**Wag** (2015) matches owners with vetted walkers; each walk is tracked on a live map in the app.", VerdictMentioned},
		{"an italic name without a year", wag, nil, "",
			"Book walks in *Wag* and pay per walk; the app tracks every walk on a map.", VerdictMentioned},
	})
}

// titleStyle reads a heading in capitals as a title line whatever word it
// opens with; only a heading in mixed case can be a topic's.
func TestTitleStyle(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       int
	}{
		{"topic heading", "## Patio Layout Basics\n\nText.", styleTopic},
		{"shouted heading", "## PATIO LAYOUT BASICS\n\nText.", styleTitle},
		{"prose", "Patio slabs need a gentle fall.", styleNone},
	} {
		t.Run(c.name, func(t *testing.T) {
			pos := strings.Index(strings.ToLower(c.text), "patio")
			if got := titleStyle(c.text, pos); got != c.want {
				t.Errorf("titleStyle(%q) = %d, want %d", c.text, got, c.want)
			}
		})
	}
}
