package detect

import (
	"context"
	"testing"
)

// One table per class of error the held-out batches showed (testdata/
// heldout; make eval). The answers are written for the tests, in other
// words than the batches', so that each case checks the rule, not a
// sentence the rule was fitted to.

type verdictCase struct {
	name  string
	brand Entity
	comps []Entity
	query string
	text  string
	want  Verdict
}

func runVerdictCases(t *testing.T, cases []verdictCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := New(tc.brand, tc.comps).Analyze(context.Background(), Input{Text: tc.text, Query: tc.query})
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != tc.want {
				t.Errorf("verdict %s, want %s (evidence %q)", r.Verdict, tc.want, r.Evidence)
			}
		})
	}
}

var (
	entNotion   = Entity{Name: "Notion", Domains: []string{"notion.so"}}
	entObsidian = Entity{Name: "Obsidian", Domains: []string{"obsidian.md"}}
	entZoom     = Entity{Name: "Zoom", Domains: []string{"zoom.us"}}
	entMercury  = Entity{Name: "Mercury", Domains: []string{"mercury.com"}}
	entNest     = Entity{Name: "Nest", Domains: []string{"nest.com"}}
	entEcobee   = Entity{Name: "Ecobee", Domains: []string{"ecobee.com"}}
	entSignal   = Entity{Name: "Signal", Domains: []string{"signal.org"}}
	entTelegram = Entity{Name: "Telegram", Domains: []string{"telegram.org"}}
	entLinear   = Entity{Name: "Linear", Domains: []string{"linear.app"}}
	entJira     = Entity{Name: "Jira", Domains: []string{"atlassian.com"}}
	entAmazon   = Entity{Name: "Amazon", Domains: []string{"amazon.com"}}
	entApple    = Entity{Name: "Apple", Domains: []string{"apple.com"}}
	entArc      = Entity{Name: "Arc", Domains: []string{"arc.net"}}
	entSlack    = Entity{Name: "Slack", Domains: []string{"slack.com"}}
	entTeams    = Entity{Name: "Microsoft Teams", Aliases: []string{"Teams"}}
	entCraft    = Entity{Name: "Craft", Domains: []string{"craft.do"}}
	entBear     = Entity{Name: "Bear", Domains: []string{"bear.app"}}
	entMonday   = Entity{Name: "monday.com", Aliases: []string{"Monday"}, Domains: []string{"monday.com"}}
	entConfl    = Entity{Name: "Confluence", Domains: []string{"atlassian.com"}}
)

// Class 1: statements of ignorance in other words and other languages.
func TestClassIgnorance(t *testing.T) {
	runVerdictCases(t, []verdictCase{
		{"French", Entity{Name: "Bravéo"}, nil, "bravéo avis",
			"Je n'ai pas d'informations fiables sur Bravéo. Vérifiez les avis clients avant de vous abonner.", VerdictUnknownToModel},
		{"German", Entity{Name: "Kestrova"}, nil, "kestrova erfahrungen",
			"Ich habe keine verlässlichen Informationen über Kestrova. Prüfen Sie die Bewertungen vor dem Kauf.", VerdictUnknownToModel},
		{"Spanish", Entity{Name: "Pluvia"}, nil, "pluvia opiniones",
			"No tengo información fiable sobre Pluvia, así que no puedo recomendarla.", VerdictUnknownToModel},
		{"not certain, then no information", Entity{Name: "Orvanta"}, nil, "orvanta crm",
			"I'm not certain Orvanta is a CRM at all; I don't have enough information to say.", VerdictUnknownToModel},
		{"nothing on the queried thing", Entity{Name: "Tessvik"}, nil, "tessvik payroll",
			"I have nothing reliable on Tessvik's payroll module. Compare tax filing support and integrations before choosing.", VerdictUnknownToModel},
		{"ordinary word introduced as a product", Entity{Name: "Harbor"}, nil, "harbor invoicing",
			"I don't know of an invoicing app called Harbor, so I can't describe its features.", VerdictUnknownToModel},
		{"a capability is no guess", Entity{Name: "Loom", Domains: []string{"loom.com"}}, nil, "loom ai features 2026",
			"I can't speak reliably about Loom's 2026 AI features. As of my last information, Loom could generate titles and summaries.", VerdictMentioned},
		{"ordinary word disclaimed at a sentence start", Entity{Name: "Lantern"}, nil, "lantern analytics",
			"Lantern isn't a tool I have any reliable knowledge of. Compare Mixpanel and Amplitude instead.", VerdictUnknownToModel},
		// Not ignorance: a privacy statement has an object of its own.
		{"no data about you is privacy", entSignal, []Entity{entTelegram}, "private messenger",
			"Signal keeps almost no data about you and encrypts every chat by default.", VerdictMentioned},
		// Batch D: figures are knowledge; "known to <verb>" is a statement.
		{"no figures on the brand", entMercury, nil, "mercury savings rate",
			"I don't have current figures for Mercury's savings rate, so I can't give you a number.", VerdictUnknownToModel},
		{"German: nothing reliable to say, verb last", Entity{Name: "Vernolt"}, nil, "vernolt erfahrungen",
			"Zu Vernolt kann ich nichts Zuverlässiges sagen.", VerdictUnknownToModel},
		{"not in what the model was trained on", Entity{Name: "Velquist"}, nil, "velquist",
			"Velquist isn't in anything I was trained on, so I can't describe it.", VerdictUnknownToModel},
		{"no numbers on the queried aspect", Entity{Name: "Quilvane"}, nil, "quilvane transfer fees",
			"I don't have reliable numbers on Quilvane's transfer fees.", VerdictUnknownToModel},
		{"known to misbehave is no ignorance", entNotion, nil, "notion offline",
			"Notion's offline mode is still limited, and it has been known to drop edits made on a plane.", VerdictMentioned},
	})
}

// Class 2: ordinary-word brands used as words — other senses, read once
// per answer.
func TestClassOrdinaryWord(t *testing.T) {
	runVerdictCases(t, []verdictCase{
		{"natural kind after the name", entAmazon, nil, "facts about brazil",
			"Brazil holds most of the Amazon basin. The Amazon River carries more water than any other.", VerdictOrdinaryWord},
		{"defined as a natural kind in a list", entAmazon, nil, "longest rivers",
			"1. **Nile** – about 6,650 km.\n2. **Amazon** – the largest river by discharge.\n\nThe Amazon's tributaries drain half a continent.", VerdictOrdinaryWord},
		{"a planet", entMercury, nil, "planets of the solar system",
			"Mercury is the smallest planet and the closest to the Sun. A year on Mercury lasts 88 days.", VerdictOrdinaryWord},
		{"a setting, read once per answer", entZoom, nil, "screen too big on iphone",
			"Your phone has Display Zoom turned on. Go to Settings > Display & Brightness > Zoom and choose Default, or uncheck Zoom in the accessibility settings.", VerdictOrdinaryWord},
		{"a substance in compounds, read once per answer", entMercury, nil, "is salmon safe in pregnancy",
			"Salmon is a low-mercury fish, unlike high-mercury swordfish. Mercury can build up in larger fish over time.", VerdictOrdinaryWord},
		{"a lower-case noun after an article", Entity{Name: "Coda", Domains: []string{"coda.io"}}, nil, "what is a coda",
			"A coda is the closing section of a piece. The coda often repeats the main theme.", VerdictOrdinaryWord},
		{"the tail of another name", entApple, nil, "weekend in new york",
			"The Big Apple is at its best in autumn: walk the High Line and see a show on Broadway.", VerdictOrdinaryWord},
		{"a plan by weekday", entMonday, nil, "how to plan a study week",
			"- **Monday:** outline the chapter.\n- **Wednesday:** practice problems.\n- **Friday:** review mistakes.", VerdictOrdinaryWord},
		// Batch D: the word's adjective or noun use elsewhere in the answer.
		{"a negated-prefix form beside the capital", entLinear, nil, "linear and nonlinear equations",
			"## Linear And Nonlinear Equations\n\nLinear equations graph as straight lines; nonlinear ones curve.", VerdictOrdinaryWord},
		{"a lower-case head noun beside a quoted capital", entNotion, nil, "meaning of notion in kant",
			"For Kant, a notion is a concept of the understanding. Translators sometimes write \"the Notion\" for Hegel's term.", VerdictOrdinaryWord},
		{"a capitalised name written in lower case", Entity{Name: "Headspace", Domains: []string{"headspace.com"}}, nil, "race day nerves",
			"Athletes talk about finding the right headspace before a race.", VerdictOrdinaryWord},
		// The app that opens a menu path is the product.
		{"the root of a menu path is the app", entZoom, []Entity{{Name: "Webex"}}, "zoom audio settings",
			"In the desktop client, open Zoom > Settings > Audio and pick your microphone. Zoom offers automatic volume adjustment.", VerdictMentioned},
	})
}

// Class 3: ordinary-word brands used as brands at a sentence start.
func TestClassSentenceStart(t *testing.T) {
	runVerdictCases(t, []verdictCase{
		{"verb with an object", entNest, []Entity{entEcobee}, "smart thermostat recommendations",
			"Nest adjusts the temperature when you leave the house. Ecobee ships with a room sensor.", VerdictMentioned},
		{"past tense with an object", Entity{Name: "Square", Domains: []string{"squareup.com"}}, nil, "history of mobile payments",
			"Square introduced the headphone-jack card reader in 2010. Contactless readers followed later.", VerdictMentioned},
		{"an auxiliary", entNotion, []Entity{entObsidian}, "team wiki tools",
			"Notion can host a wiki, a task board and meeting notes in one workspace.", VerdictMentioned},
		{"an evaluation", entBear, []Entity{entObsidian}, "bear notes sync",
			"Bear is delightful to write in, and tags replace folders.", VerdictMentioned},
		{"a definition past adverbs", entLinear, []Entity{entJira}, "linear for engineers",
			"Linear is arguably the quickest issue tracker around.", VerdictMentioned},
		{"defined by its category", entMercury, nil, "mercury banking for startups",
			"Mercury is an online bank for startups with no monthly fees.", VerdictMentioned},
		{"has been criticised", entArc, nil, "arc browser",
			"Arc has been criticised for a confusing onboarding.", VerdictMentioned},
		{"bare subject in German", entNotion, []Entity{entConfl}, "wiki software",
			"Notion ist flexibel und leicht zu bedienen.", VerdictMentioned},
		{"bare subject in French", entSignal, nil, "messagerie sécurisée",
			"Signal est chiffrée de bout en bout par défaut.", VerdictMentioned},
		{"bare subject before any verb in Spanish", entSlack, nil, "chat para equipos",
			"Slack organiza las conversaciones por canales y se integra con casi todo.", VerdictMentioned},
		{"bare subject before any verb in German", entLinear, nil, "issue tracker startup",
			"Linear verwaltet Tickets in Zyklen und lädt sehr schnell.", VerdictMentioned},
		{"another brand anywhere in the answer", entCraft, []Entity{entNotion}, "writing apps",
			"Craft has lovely typography and cards.\n\nFor databases and team wikis, most people use Notion.", VerdictMentioned},
		{"the next sentence's attributes", Entity{Name: "Buffer", Domains: []string{"buffer.com"}}, nil, "scheduler for a bakery",
			"Buffer keeps posting simple. The free plan covers three channels and a month of analytics.", VerdictMentioned},
		{"has + participle", Entity{Name: "Canvas"}, nil, "university lms",
			"Canvas has grown quickly in Europe. Its mobile app is well rated.", VerdictMentioned},
		{"a name written without its apostrophe", Entity{Name: "Arc'teryx"}, nil, "rain jacket",
			"The Arcteryx Beta LT is light and very waterproof.", VerdictMentioned},
		{"a troubleshooting query", entNotion, nil, "notion data loss",
			"Notion has had several outages, and some pages reverted after sync conflicts.", VerdictMentioned},
		{"ranked among its kind", Entity{Name: "Tide"}, nil, "what detergent removes stains",
			"Tide remains the best-selling detergent in the US and handles grass stains well.", VerdictMentioned},
		{"a company predicate", Entity{Name: "Gusto"}, nil, "gusto payroll company",
			"Gusto was founded in 2011 and is based in San Francisco.", VerdictMentioned},
		{"banking attributes", entMercury, nil, "mercury for a shop",
			"Mercury won't suit a cash-heavy shop. Mercury doesn't take cash deposits or coin.", VerdictMentioned},
		{"a good place to start", Entity{Name: "Medium", Domains: []string{"medium.com"}}, nil, "where to blog",
			"Medium is a good place to start blogging: posting is free and readers find you through tags.", VerdictMentioned},
		// A common noun starting a sentence stays a word.
		{"a query that only names the word", Entity{Name: "Honey", Domains: []string{"joinhoney.com"}}, nil, "is honey good for a sore throat",
			"Honey is soothing for a sore throat and can calm a cough. Mix a spoonful into warm water with lemon.", VerdictOrdinaryWord},
		{"a compound's head noun", entNest, nil, "attract birds to the garden",
			"Nest boxes in a quiet corner attract tits and robins. Put one up before spring.", VerdictOrdinaryWord},
		{"a mass noun with a plural head", entMercury, nil, "fish and health",
			"Mercury levels vary by species and size.", VerdictOrdinaryWord},
		{"an adjective in a compound", entLinear, nil, "statistics basics",
			"Linear models are simple to fit and easy to interpret.", VerdictOrdinaryWord},
	})
}

// Class 3 for competitors: their evidence comes from other competitors and
// their own predicates, never from the brand.
func TestClassCompetitorPredicates(t *testing.T) {
	runCompetitorCases(t, []competitorCase{
		{"parenthetical", entSignal, []Entity{entTelegram}, "private alternative to telegram",
			"Signal encrypts every chat. Telegram, by contrast, keeps regular chats on its servers.", "Telegram", true},
		{"comparative", entBear, []Entity{entCraft}, "minimal note app",
			"Bear has a focused editor. Craft is prettier for structured documents.", "Craft", true},
		{"enumerated subjects", Entity{Name: "PayPal"}, []Entity{{Name: "Stripe"}}, "paypal fees",
			"PayPal fees add up. Stripe or Wise are cheaper for regular invoicing.", "Stripe", true},
		// a plural state, a ranking, an edition's name
		{"the main alternatives", Entity{Name: "Gusto"}, []Entity{{Name: "Rippling"}, {Name: "Justworks"}, {Name: "Sage"}},
			"payroll for a small business",
			"Gusto runs payroll and benefits for most small US companies. Sage and Paychex are the usual alternatives.", "Sage", true},
		{"close behind", Entity{Name: "Emirates"}, []Entity{{Name: "United"}}, "best long haul business class",
			"Emirates has the most private suites on its A380s. United Polaris is close behind on comfort.", "United", true},
		{"an edition's name", Entity{Name: "Lightspeed"}, []Entity{{Name: "Square"}}, "pos for a retail shop",
			"Lightspeed handles large catalogues well. Square for Retail is cheaper to start with.", "Square", true},
		{"the step up", Entity{Name: "Things"}, []Entity{{Name: "Craft"}}, "simple todo app for mac",
			"Things keeps lists fast and tidy. Craft is the step up when notes need structure.", "Craft", true},
		{"the safer bet", Entity{Name: "Toast"}, []Entity{{Name: "Square"}}, "pos for a food truck",
			"Toast handles kitchen tickets well. Square is the safer bet for a truck that moves between events.", "Square", true},
		{"counted among firms", Entity{Name: "Gusto"}, []Entity{{Name: "Pilot"}}, "move payroll off zenefits",
			"Gusto imports past payroll runs for you. Pilot and other firms help with the year-end filings.", "Pilot", true},
	})
}

// competitorCase asks whether competitor is named as a brand in text.
type competitorCase struct {
	name       string
	brand      Entity
	comps      []Entity
	query      string
	text       string
	competitor string
	want       bool
}

func runCompetitorCases(t *testing.T, cases []competitorCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, _ := New(tc.brand, tc.comps).Analyze(context.Background(), Input{Text: tc.text, Query: tc.query})
			for _, c := range r.Competitors {
				if c.Name == tc.competitor && c.Mentioned != tc.want {
					t.Errorf("%s mentioned %v, want %v", tc.competitor, c.Mentioned, tc.want)
				}
			}
		})
	}
}

// Class 4: a domain or a name that appears only inside a link.
func TestClassLinkOnly(t *testing.T) {
	r := New(entNotion, []Entity{entConfl}).Detect("Keep one owner per page.\n\nTemplates: [atlassian.com/software/confluence/templates](https://www.atlassian.com/software/confluence/templates)", nil)
	if r.Competitors[0].Mentioned {
		t.Errorf("a name in a link's path is no mention: %+v", r.Competitors[0].Mentions)
	}
	if !r.Competitors[0].DomainCited {
		t.Errorf("the link cites the domain")
	}
	runVerdictCases(t, []verdictCase{
		{"a path without a scheme", entLinear, nil, "api pagination",
			"Use cursors. Walkthrough: [linear.app/developers/pagination](https://linear.app/developers/pagination)", VerdictCitedOnly},
	})
}

type sentimentCase struct {
	name  string
	brand Entity
	comps []Entity
	query string
	text  string
	want  Sentiment
}

// Sentiment classes: negation, contrast, reported complaints, intensity,
// mixed, hedged recommendations, comparisons where the competitor wins.
// sentimentClasses are the sentiment classes' table cases (also a set of
// TestSentimentCalibration).
func sentimentClasses() []sentimentCase {
	return []sentimentCase{
		// negation and first-person verdicts
		{"I wouldn't pick it", entSlack, nil, "slack for a club",
			"Slack works, but I wouldn't pick it for a volunteer club: the free plan hides old messages.", Negative},
		{"not something I'd rely on", entArc, nil, "arc browser future",
			"Arc still runs fine. Development has stopped, though, and it is not something I'd rely on for work.", Negative},
		{"less compelling", entZoom, nil, "zoom pro worth it",
			"Zoom Pro is less compelling than it used to be, and the desktop app keeps growing.", Negative},
		// contrast with a verdict
		{"conceded praise, verdict against", entNotion, nil, "notion for a law firm",
			"Notion is powerful, but it's rarely the right tool for a law firm. Permissions are coarse and audit logs are locked behind Enterprise.", Negative},
		{"conceded criticism and praise", entNotion, nil, "notion review",
			"Notion can feel slow on huge pages, but it is excellent for wikis.", Mixed},
		// reported complaints and defection
		{"reported complaints", entBear, nil, "bear sync problems",
			"Bear looks great. Users report it duplicates notes after sync conflicts, and a common complaint is lost tags.", Mixed},
		{"teams moving off it", Entity{Name: "Oracle"}, nil, "oracle database",
			"Many companies are moving off Oracle, mainly because of licence costs and aggressive audits.", Negative},
		{"discontinued development", entArc, nil, "arc browser",
			"Arc has stopped adding features, and support may end.", Negative},
		// a criticism negated or an incident remedied: facts, not praise
		{"no known outage and a bug fixed", entLinear, nil, "linear security incidents",
			"Linear has no known outage of its sync service this year. A researcher reported a bug in its importer in March, which Linear fixed the same week.", Neutral},
		// intensity
		{"superlative of a polar word", entLinear, nil, "linear review",
			"Engineers call Linear the cleanest tracker they have used.", Positive},
		{"works surprisingly well", entNotion, nil, "notion ai",
			"Notion AI works surprisingly well for summaries.", Positive},
		{"widest selection", entAmazon, nil, "where to buy usb cables",
			"Amazon has the widest selection of cables.", Positive},
		{"high fees", entAmazon, nil, "selling on amazon",
			"Amazon has the largest audience, but fees are high for cheap items.", Mixed},
		// ignorance is not criticism
		{"ignorance beside praise", Entity{Name: "Square"}, nil, "square kiosk",
			"I don't have reliable details on Square's newest kiosk. Square itself is easy to set up and has excellent support.", Positive},
		// hedged recommendations and requirements
		{"a requirement is not praise", entNotion, []Entity{entObsidian}, "notion offline",
			"Notion is excellent for shared wikis. It isn't the best choice if you need fast offline access, though: it's slow to load large pages compared with Obsidian.", Mixed},
		{"weak praise and a poor fit", Entity{Name: "Ring"}, nil, "doorbell without subscription",
			"Ring is popular, but without a plan there is no recorded history. That makes it a poor fit here.", Negative},
		// discontinuation, accusations, bare answers
		{"shut down", Entity{Name: "Pocket"}, nil, "read later app",
			"Pocket was the best-known read-later app, but Mozilla shut it down in 2025.", Negative},
		{"accused", Entity{Name: "Honey"}, nil, "coupon extension",
			"Honey was accused of replacing creators' affiliate links, and the claims hurt its reputation.", Negative},
		{"a bare no", Entity{Name: "Honey"}, nil, "should i keep using the honey extension",
			"I wouldn't. Honey has lost much of its users' trust.", Negative},
		{"a bare yes", Entity{Name: "Starling"}, nil, "is starling good for freelancers",
			"Yes. Starling has no monthly fee and sorts income into spaces.", Positive},
		{"no longer the obvious choice", Entity{Name: "Mailchimp"}, nil, "newsletter tool",
			"Mailchimp is no longer the obvious choice, and prices have risen sharply.", Negative},
		{"a bare no before the brand", Entity{Name: "Ring"}, nil, "ring plan worth it",
			"Honestly, no. Ring's cameras are decent, but most features now sit behind the plan and the price went up again.", Negative},
		{"rather than", entSignal, nil, "signal desktop",
			"Signal Desktop syncs new messages. It's functional rather than polished.", Negative},
		{"criticism denied", entZoom, nil, "zoom reliability",
			"Zoom is very reliable, and outages are rare.", Positive},
		{"a restricted recommendation", entCraft, nil, "craft for teams",
			"Craft falls short for teams: permissions are basic. I'd only pick it for a solo writer.", Negative},
		{"the brand loses a comparison", entCraft, []Entity{entNotion}, "craft for teams",
			"Craft is lovely for individuals, but for teams it falls short and lags behind Notion.", Mixed},
		{"a rival named only as the comparison object", entLinear, []Entity{entJira}, "linear enterprise",
			"Linear is fast and pleasant. Custom workflows remain limited compared with Jira, and enterprise add-ons are pricey.", Mixed},
		// comparisons where the competitor wins
		{"the rival is the better pick", entNest, []Entity{entEcobee}, "thermostat for a big house",
			"Nest looks good on the wall. For most people, Ecobee is the better pick because of its sensors.", Negative},
		{"a trade-off is not a verdict", entSlack, []Entity{entTeams}, "slack vs teams",
			"Slack is easier to adopt and people enjoy it. Teams is stronger for meetings.", Positive},
		{"a conditional rival is not a verdict", entSlack, []Entity{entTeams}, "slack vs teams",
			"Slack is excellent for fast-moving teams. If you already pay for Microsoft 365, Teams is the better fit.", Positive},
		// Batch D's classes (detect/2026.11-4).
		// the clause after a contrast carries the point
		{"praise conceded, the main clause criticises", entBear, nil, "bear for research notes",
			"Although Bear's editor is the nicest of the markdown apps, it can't handle PDFs and tables stay primitive.", Mixed},
		{"an afterthought 'though'", entLinear, nil, "linear for startups",
			"Linear is quick, polished and a pleasure for engineers, with excellent GitHub links. Its roadmap views are limited, though.", Mixed},
		{"a concession before the main praise", entSlack, nil, "slack in 2026",
			"Despite repeated price rises, Slack is still the most pleasant team chat to use every day.", Mixed},
		// a capability the product lacks
		{"negated capability", entMercury, nil, "mercury bank for a cafe",
			"Mercury is clean and fast to open, but it doesn't accept cash deposits, so a cafe would struggle.", Mixed},
		// the brand as the object of a comparison
		{"a rival better than the brand", entZoom, []Entity{Entity{Name: "Google Meet"}}, "meet or zoom for tutoring",
			"Google Meet is simpler than Zoom for one-off tutoring calls, but Zoom's whiteboard is excellent.", Mixed},
		// "too" before any word is a fault
		{"too with an unlisted adjective", entCraft, nil, "craft docs for teams",
			"Craft is beautiful for personal notes, but teams find it too terse for specs.", Mixed},
		// words of a proper name are not praise
		{"polar words inside a name", entMercury, nil, "who holds mercury deposits",
			"Mercury's deposits are held at partner banks such as Choice Financial Group and Column N.A., with sweep coverage through Best Custody Partners.", Neutral},
		// the praise of an alternative
		{"recommended instead", entZoom, nil, "zoom in schools",
			"Several school districts banned Zoom over privacy concerns and recommend Jitsi instead, which is excellent.", Negative},
		// French, German and Spanish answers
		{"French: contrast", entNotion, nil, "notion avis",
			"Notion est très complet et agréable pour les wikis, mais il devient lent avec de grosses bases et l'application mobile reste décevante.", Mixed},
		{"French: reported complaints", entSlack, nil, "slack avis association",
			"Beaucoup d'utilisateurs se plaignent que Slack est trop cher, et l'historique gratuit est limité à 90 jours.", Negative},
		{"German: advised against", entZoom, nil, "zoom schule datenschutz",
			"Von Zoom raten mehrere Landesdatenschützer ab, weil die Übermittlung in die USA problematisch ist.", Negative},
		{"German: contrast", entLinear, nil, "linear erfahrungen",
			"Linear ist schnell und übersichtlich, aber für Nicht-Entwickler umständlich, und Berichte fehlen weitgehend.", Mixed},
		{"Spanish: not recommended", entSlack, nil, "slack para una ong",
			"No recomendaría Slack a una ONG pequeña: es caro y muchos usuarios se quejan del límite de historial.", Negative},
		{"Spanish: praise", entZoom, nil, "zoom para reuniones",
			"Zoom es muy fiable y fácil de usar, y la calidad del audio es excelente.", Positive},
		{"French: a negated capability", entMercury, nil, "mercury banque avis",
			"Mercury est rapide à ouvrir et très clair, mais il n'accepte pas les chèques étrangers et le support est parfois lent.", Mixed},
		// Batch E's classes (detect/2026.11-4).
		{"service that never replies", Entity{Name: "Gusto"}, nil, "gusto support",
			"Support requests to Gusto often sit for a week without a reply.", Negative},
		{"years behind", Entity{Name: "Vanguard"}, nil, "vanguard mobile app",
			"Vanguard's funds are inexpensive, but its mobile app feels years behind.", Mixed},
		{"faint criticism after a copula", Entity{Name: "Discover"}, nil, "discover card perks",
			"Discover has excellent customer support, but its travel perks are ordinary.", Mixed},
		{"a UI step is no recommendation", Entity{Name: "Calm"}, nil, "how to stop calm renewing",
			"To stop the Calm app renewing, open Settings, tap Subscriptions and choose Calm, then tap Cancel.", Neutral},
		{"not my only card", Entity{Name: "Discover"}, nil, "discover abroad",
			"I wouldn't make Discover my main card abroad; acceptance is spotty.", Negative},
		{"Spanish: a high price", Entity{Name: "Rippling"}, nil, "rippling precio",
			"Rippling es potente, pero su precio es alto.", Mixed},
		{"German: quite expensive", Entity{Name: "Calm"}, nil, "calm abo",
			"Calm ist schön gestaltet, aber das Abo ist ziemlich teuer.", Mixed},
		{"French: advised against", entSlack, nil, "slack association",
			"Je déconseille Slack aux petites associations.", Negative},
		// Batch F's classes.
		{"a fault reduced is praise", Entity{Name: "Toast"}, nil, "toast pos review",
			"Toast is quick to learn, and its kitchen screens reduce missed orders.", Positive},
		{"French: the price went up", entSlack, nil, "slack prix",
			"Slack est pratique, mais son prix a nettement augmenté.", Mixed},
		{"clunky next to a rival", Entity{Name: "Box"}, []Entity{{Name: "Dropbox"}}, "box review",
			"Box is strong on compliance, yet it feels clunky next to Dropbox.", Mixed},
		// Batch G's classes.
		{"any comparative the rival wins", Entity{Name: "Octopus"}, []Entity{{Name: "British Gas"}}, "energy supplier",
			"British Gas is cheaper than Octopus this winter, but Octopus's support is far better.", Mixed},
		{"problems that get fixed", Entity{Name: "Octopus"}, nil, "octopus energy service",
			"Octopus has clear bills and an excellent app, and problems get resolved quickly.", Positive},
		{"a security capability it lacks", Entity{Name: "Opera"}, nil, "opera vpn",
			"Opera's built-in VPN is handy, but it doesn't encrypt traffic from other apps.", Mixed},
		// Batch H's classes (detect/2026.11-5).
		{"quality that drops", Entity{Name: "Otter"}, nil, "otter transcription",
			"Otter's transcripts are accurate and genuinely useful, but performance degrades badly on phone calls.", Mixed},
		{"a plan's allowance of faults", Entity{Name: "Sentry"}, nil, "sentry team plan",
			"Sentry's Team plan includes 50,000 errors per month and setup is quick.", Positive},
		{"better served elsewhere", Entity{Name: "Motion"}, nil, "motion for freelancers",
			"Motion's AI planner looks slick, but most freelancers are better served by a simple, cheaper planner.", Negative},
		{"a learning curve and a higher cost", Entity{Name: "Motion"}, nil, "motion vs todoist",
			"Motion is powerful, though it costs more and has a real learning curve.", Mixed},
		{"it pays for itself", Entity{Name: "Grammarly"}, nil, "grammarly business",
			"For a sales team sending hundreds of emails, Grammarly pays for itself within weeks.", Positive},
		{"lowered expectations", Entity{Name: "Coach"}, nil, "coach wallet",
			"Coach outlet wallets are made for the outlets, so don't expect the boutique leather.", Negative},
		{"a rival named in a later clause", Entity{Name: "Mastodon"}, []Entity{{Name: "Bluesky"}}, "mastodon growth",
			"Mastodon is open and pleasant. Growth has stalled, users complain that discovery is poor, and several journalists moved to Bluesky.", Mixed},
		{"cheap is the price", Entity{Name: "Dove"}, nil, "dove soap",
			"Dove's bar soap is gentle, and it's cheap.", Positive},
		{"a recall that hurt trust", Entity{Name: "Dove"}, nil, "dove recall",
			"Dove was among the brands that recalled aerosol products, which hurt trust in the line.", Negative},
		// Batch I's classes.
		{"a cons line counts its items", Entity{Name: "Garmin"}, nil, "garmin venu 3",
			"**Garmin Venu 3**\n\n- Pros: bright screen, fast charging, solid build\n- Cons: short battery life; heavy; few updates\n\nA good watch for the price.", Mixed},
		{"advice to book elsewhere", Entity{Name: "Expedia"}, nil, "expedia refunds",
			"Expedia is handy for bundles, but when plans change, travellers recommend calling the hotel directly instead.", Negative},
		{"the maker quit the business", Entity{Name: "Fossil"}, nil, "fossil smartwatch support",
			"Fossil's Gen 6 smartwatch is its last: Fossil quit the smartwatch market, so the watches get no further updates.", Negative},
		{"should buy", Entity{Name: "Kindle"}, nil, "which e-reader",
			"The basic Kindle is the one most readers should buy.", Positive},
		{"Spanish: too many ads", Entity{Name: "Hulu"}, nil, "hulu opiniones",
			"Hulu tiene buenas series, pero muestra demasiados anuncios.", Mixed},
		// detect/2026.11-6: words no curated list holds, read through VADER
		{"VADER: a predicate judgement", Entity{Name: "Wrike"}, nil, "wrike review",
			"Wrike's Gantt view is handy, but the mobile app is lousy.", Mixed},
		{"VADER: judgements listed after a copula", Entity{Name: "Wrike"}, nil, "wrike review",
			"Wrike's new reporting module is splendid and marvelous.", Positive},
		{"VADER: an -ed criticism anywhere", Entity{Name: "Plex"}, nil, "plex pass",
			"Plex added a paid remote-streaming tier, which infuriated long-time users.", Negative},
		{"VADER: nouns that name things are no judgement", Entity{Name: "Venmo"}, nil, "what is venmo",
			"Venmo lets friends split bills, and its debit card earns rewards at some merchants.", Neutral},
		// advice to go elsewhere
		{"reviewers suggest something else instead", Entity{Name: "Quicken"}, nil, "quicken review",
			"Quicken is powerful for investments. Many reviewers suggest other budgeting apps instead.", Negative},
		{"a conditional instead is no advice", Entity{Name: "Quicken"}, nil, "quicken review",
			"Quicken is powerful for investments. If you only budget, reviewers suggest another app instead.", Positive},
		{"users moving to a tracked rival", Entity{Name: "Zapier"}, []Entity{{Name: "Make"}}, "zapier pricing",
			"Zapier is the easiest automation tool to start with. Costs climb quickly with volume, so heavier users often move to Make.", Mixed},
		{"the rival preferred later in the paragraph", Entity{Name: "Fastly"}, []Entity{{Name: "Cloudflare"}}, "fastly vs cloudflare",
			"Fastly is excellent for fine-grained control and its purges are remarkably fast. That said, it's pricier for small sites. For most small sites, Cloudflare is the better option.", Mixed},
	}
}

func TestClassSentiment(t *testing.T) { runSentimentCases(t, sentimentClasses()) }

// runSentimentCases reads each answer for its brand and checks the class;
// a negative or mixed reading must cite criticism.
func runSentimentCases(t *testing.T, cases []sentimentCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := New(tc.brand, tc.comps).Analyze(context.Background(), Input{Text: tc.text, Query: tc.query})
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != VerdictMentioned {
				t.Fatalf("verdict %s", r.Verdict)
			}
			if r.Sentiment != tc.want {
				t.Errorf("sentiment %s, want %s (praise %q, criticism %q)", r.Sentiment, tc.want, r.Brand.PositiveEvidence, r.NegativeEvidence)
			}
			if (tc.want == Negative || tc.want == Mixed) && r.NegativeEvidence == "" {
				t.Errorf("no negative evidence")
			}
		})
	}
}

// Batch M's classes: a name the answer itself writes as a word, a name
// that is also a natural kind or a sign, a name inside another proper
// name, and names their owners write in lower case. Each class has a
// control that must stay a mention.
func TestClassNamesakes(t *testing.T) {
	entCafe := Entity{Name: "Patissier", Domains: []string{"patissier.fr"}}
	entVenus := Entity{Name: "Venus", Domains: []string{"venus.app"}}
	entOrion := Entity{Name: "Orion", Domains: []string{"orion.io"}}
	entFolk := Entity{Name: "folk", Domains: []string{"folk.app"}}
	entHarvest := Entity{Name: "Harvest", Domains: []string{"getharvest.com"}}
	runVerdictCases(t, []verdictCase{
		// the answer writes the name in lower case: its other
		// occurrences need evidence too
		{"written as a word, then in a title", entCafe, nil, "devenir patissier",
			"Pour devenir patissier, on prépare le CAP Patissier en deux ans. Un patissier travaille souvent le week-end.", VerdictOrdinaryWord},
		{"written as a word, then at a sentence start", Entity{Name: "Viajero"}, nil, "que significa viajero",
			"Un viajero es quien viaja con frecuencia. Viajero no es lo mismo que turista.", VerdictOrdinaryWord},
		{"control: the name only as the name", entCafe, []Entity{{Name: "Ladurée"}}, "meilleure patisserie en ligne",
			"Patissier et Ladurée livrent des macarons dans toute la France. Patissier propose aussi des ateliers.", VerdictMentioned},
		// a namesake of a natural kind or a sign
		{"counted among its kind", entVenus, nil, "hottest planet",
			"Venus is hotter than any other planet, even Mercury, because its thick atmosphere traps heat.", VerdictOrdinaryWord},
		{"a sign defined past a parenthesis", entOrion, nil, "orion facts",
			"Orion (the Hunter) is a constellation on the celestial equator, visible from most of the world.", VerdictOrdinaryWord},
		{"the query asks about the namesake", entVenus, nil, "venus in astrology",
			"Venus governs love, beauty and money, and your Venus placement shapes what you find attractive.", VerdictOrdinaryWord},
		{"control: the namesake's name as a product", entOrion, nil, "orion crm review",
			"Orion is a lightweight CRM for agencies: pipelines, email sync and a client portal for $15 per seat.", VerdictMentioned},
		// the middle of another proper name
		{"inside an event's name", entHarvest, nil, "harvest festivals in england",
			"Ludlow Harvest Festival in September is the best known, with a farmers' market and a parade.", VerdictOrdinaryWord},
		// a name its owner writes in lower case
		{"a lower-case name at a sentence start", entFolk, []Entity{{Name: "Attio"}}, "crm for agencies",
			"folk syncs contacts from Gmail and LinkedIn. Attio suits custom pipelines better.", VerdictMentioned},
	})
}

func TestClassLowerCaseCompetitor(t *testing.T) {
	brand := Entity{Name: "Rossmann", Domains: []string{"rossmann.de"}}
	dm := Entity{Name: "dm", Aliases: []string{"dm-drogerie markt"}, Domains: []string{"dm.de"}}
	for _, tc := range []struct {
		name, text string
		want       bool
	}{
		{"enumerated", "Drogerieartikel bestellt man online bei dm, Rossmann oder Budni.", true},
		{"the unit, not the shop", "Rossmann verkauft Zahnpasta; eine Tube wiegt rund 75 g und ist 2 dm lang.", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, _ := New(brand, []Entity{dm}).Analyze(context.Background(), Input{Text: tc.text, Query: "drogerie online"})
			if got := r.Competitors[0].Mentioned; got != tc.want {
				t.Errorf("dm mentioned %v, want %v", got, tc.want)
			}
		})
	}
}

// Batch M's classes, continued: a pointer to compare the product elsewhere
// after a statement of ignorance asserts nothing; an app picked from a
// store's list of subscriptions is the app, a toggle in a settings page is
// not.
func TestClassStoreListAndEchoes(t *testing.T) {
	entCalm := Entity{Name: "Calm", Domains: []string{"calm.com"}}
	entQuill := Entity{Name: "Quillmark", Domains: []string{"quillmark.io"}}
	runVerdictCases(t, []verdictCase{
		{"compare it elsewhere after ignorance", entQuill, []Entity{{Name: "Jotform"}}, "quillmark reviews",
			"I don't have reliable, current information on Quillmark, so I can't say how its users rate it. Compare Quillmark's listing with Jotform's on G2 before you buy.", VerdictUnknownToModel},
		{"picked from the subscriptions list", entCalm, nil, "cancel calm subscription android",
			"Open the Play Store, tap your profile icon, then Payments & subscriptions > Subscriptions. Select Calm and tap Cancel.", VerdictMentioned},
		{"control: a settings toggle", entCalm, nil, "how to make my phone less distracting",
			"Open Settings > Notifications and turn off badges. Select Calm mode if your phone has it, so only calls ring through.", VerdictOrdinaryWord},
	})
}

// An ordinary-word rival whose only evidence is its own predicate: a bare
// comparative, a verb with a bare plural object; and a negated auxiliary
// read whole ("doesn't take"), a negated copula read as a copula.
func TestClassRivalPredicates(t *testing.T) {
	runCompetitorCases(t, []competitorCase{
		{"bare comparative", Entity{Name: "Uber"}, []Entity{{Name: "Bolt"}}, "ride hailing app in tallinn",
			"Uber has the most drivers in the city centre. Bolt is smaller.", "Bolt", true},
		{"verb with a bare plural object", Entity{Name: "Firefox"}, []Entity{{Name: "Brave"}}, "browser for privacy",
			"Firefox has strict tracking protection. Brave strips cookies on every site.", "Brave", true},
		{"control: a comparative of the word", Entity{Name: "Hulu"}, []Entity{{Name: "Peacock"}}, "peacock feathers colour",
			"A peacock's train looks brighter in sunlight. The feathers are not pigmented blue; their structure scatters light.", "Peacock", false},
	})
	runVerdictCases(t, []verdictCase{
		{"a negated auxiliary", Entity{Name: "Current", Domains: []string{"current.com"}}, nil, "current for a market stall",
			"Skip it if your stall takes cash: Current doesn't take cash deposits at all.", VerdictMentioned},
		{"control: a negated copula of the word", Entity{Name: "Harmony", Domains: []string{"harmony.app"}}, nil, "finding harmony in life",
			"Harmony isn't a destination; it's a practice of small daily choices.", VerdictOrdinaryWord},
	})
}

// A brand phrase with a lower-case word in it ("Discover it Cash Back") is
// a product's name, not an imperative verb and its object; "Craft a
// reply" stays a verb.
func TestClassBrandPhrase(t *testing.T) {
	entDiscover := Entity{Name: "Discover", Domains: []string{"discover.com"}}
	runVerdictCases(t, []verdictCase{
		{"a product name with a lower-case word", entDiscover, nil, "first credit card for a student",
			"Discover it Secured reports to all three bureaus, so a student builds credit from the first month.", VerdictMentioned},
		{"control: an imperative and its object", entDiscover, nil, "things to do in lisbon",
			"Discover the city on foot: the Alfama's lanes are too narrow for cars.", VerdictOrdinaryWord},
	})
}

// A name right before "mode" or "variant" names a mode or a variant of
// something else ("Sentry Mode" on a car, "the Delta variant"); the
// predicate after it is the mode's.
func TestClassFeatureNames(t *testing.T) {
	runVerdictCases(t, []verdictCase{
		{"another product's mode", Entity{Name: "Guardian", Domains: []string{"guardian.app"}}, nil, "rivian guardian mode battery",
			"Guardian Mode records the cameras while the truck is parked and costs about a percent of battery per hour.", VerdictOrdinaryWord},
		{"a variant", Entity{Name: "Omega", Domains: []string{"omega.ai"}}, nil, "omega variant symptoms",
			"The Omega variant mostly caused a sore throat and a runny nose, and spread faster than earlier strains.", VerdictOrdinaryWord},
		{"control: the product's own feature named after it", Entity{Name: "Guardian", Domains: []string{"guardian.app"}}, nil, "guardian parental control app review",
			"Guardian is a parental control app: it filters sites, limits screen time and reports activity to parents.", VerdictMentioned},
	})
}

// Batch N's classes: a French subject before "a" (has) is no English
// imperative ("Orange a le réseau"); a name of several words written in
// lower case as a phrase needs evidence ("une ligne directe").
func TestClassBatchN(t *testing.T) {
	entLigne := Entity{Name: "Ligne Claire", Domains: []string{"ligneclaire.fr"}}
	runVerdictCases(t, []verdictCase{
		{"a French subject and 'a'", Entity{Name: "Bouquet", Domains: []string{"bouquet.fr"}}, nil, "livraison de fleurs",
			"Interflora livre partout en France. Bouquet a un réseau plus petit.", VerdictMentioned},
		{"a name of two words written as a phrase", entLigne, nil, "style ligne claire bande dessinée",
			"La ligne claire est un style de bande dessinée aux contours nets et aux aplats de couleur, popularisé par Hergé.", VerdictOrdinaryWord},
		{"control: the name capitalised", entLigne, nil, "ligne claire avis",
			"Ligne Claire vend des lampes design fabriquées en France, avec une garantie de cinq ans.", VerdictMentioned},
	})
}

// Class: the query uses the brand's word as a word — as a how-to's verb,
// asking its meaning, or about a place or a character — and the answer
// answers that sense; a query that names the product keeps it, and a noun
// after "a" says nothing either way ("do i need a nest").
func TestClassQueryWordSense(t *testing.T) {
	ember := Entity{Name: "Ember", Domains: []string{"ember.com"}}
	loom := Entity{Name: "Loom", Domains: []string{"loom.com"}}
	pebble := Entity{Name: "Pebble", Domains: []string{"pebble.com"}}
	lantern := Entity{Name: "Lantern", Domains: []string{"lantern.io"}}
	harvest := Entity{Name: "Harvest", Domains: []string{"getharvest.com"}}
	toggl := Entity{Name: "Toggl", Domains: []string{"toggl.com"}}
	runVerdictCases(t, []verdictCase{
		{"how-to verb", loom, nil, "how to loom knit a hat",
			"Loom works best with chunky yarn: wrap each peg, then lift the lower loop over the upper one.", VerdictOrdinaryWord},
		{"meaning asked", pebble, nil, "pebble in my shoe meaning",
			"Pebble stands for any small, persistent annoyance: it is an idiom, not a literal stone.", VerdictOrdinaryWord},
		{"its meaning", lantern, nil, "lantern jaw meaning",
			"Lantern, in this phrase, gets its sense from the hollow shape of old lanterns: a long, prominent lower jaw.", VerdictOrdinaryWord},
		{"a story's character", Entity{Name: "Joker", Domains: []string{"joker.app"}}, nil, "joker character origin story",
			"Joker keeps his origin deliberately vague: the 1988 comic gives one, the 2019 film another.", VerdictOrdinaryWord},
		// The same words asked about the product.
		{"product query naming the word", harvest, []Entity{toggl}, "harvest vs toggl for invoicing",
			"Harvest turns tracked hours into invoices directly, while Toggl needs an integration for billing.", VerdictMentioned},
		{"what a device's light means", Entity{Name: "Halo", Domains: []string{"halohome.com"}}, nil, "what does the halo light mean",
			"Halo shows a slow blue light while it installs a firmware update from the app; wait until it turns white.", VerdictMentioned},
		{"a device after a", Entity{Name: "Nest", Domains: []string{"nest.com"}}, nil, "do i need a nest",
			"Nest learns your schedule in a week, and its app shows what each setting saves.", VerdictMentioned},
		{"a modifier after a: the product's thing", Entity{Name: "Tally", Domains: []string{"tally.so"}}, nil, "how to embed a tally form",
			"In Tally, open the form, click Share and copy the embed code into your page.", VerdictMentioned},
		{"a name that is no word after a", Entity{Name: "Canva", Domains: []string{"canva.com"}}, nil, "how to share a canva design",
			"Open the design in Canva, click Share, and choose who can view or edit it.", VerdictMentioned},
		{"a before a product noun", ember, nil, "is an ember mug worth it",
			"Ember keeps coffee at the temperature you set for about 80 minutes, and most owners say it is worth the price.", VerdictMentioned},
	})
}

// Class: a name that is no English word but a person's or a place's —
// marked by life dates, a sentence about surnames, or a query about
// visiting — is read as the namesake; the product stays a mention.
func TestClassNamesakePersonPlace(t *testing.T) {
	vogel := Entity{Name: "Vogelsang", Domains: []string{"vogelsang.de"}}
	dolomiti := Entity{Name: "Dolomiti", Domains: []string{"dolomiti-outdoor.it"}}
	runVerdictCases(t, []verdictCase{
		{"life dates", vogel, nil, "",
			"Karl Friedrich Vogelsang (1790–1861) was a Prussian surveyor. Vogelsang mapped most of Westphalia.", VerdictOrdinaryWord},
		{"surname sentence", vogel, nil, "",
			"Vogelsang is a German surname meaning bird song, common in the Rhineland.", VerdictOrdinaryWord},
		{"visiting a place", dolomiti, nil, "best time to visit the dolomiti",
			"Dolomiti trails are best from late June to September, when the huts are open and the passes are clear of snow.", VerdictOrdinaryWord},
		{"the product", vogel, nil, "vogelsang pumps review",
			"Vogelsang builds rotary lobe pumps that farmers rate highly for slurry, and its service network covers most of Europe.", VerdictMentioned},
	})
}

// Class: a name English always capitalises — a place, a people, a
// language, a person (SCOWL's capitalised words) — after an article,
// heading its phrase or before a common noun no product is, is the
// namesake, and its other occurrences need the evidence an ordinary word
// does; before a product's noun, as a team's plural or without an article
// it stays the brand.
func TestClassProperNamesake(t *testing.T) {
	adriatic := Entity{Name: "Adriatic Air", Aliases: []string{"Adriatic"}, Domains: []string{"adriatic-air.example"}}
	finnish := Entity{Name: "Finnish", Domains: []string{"finnish.example"}}
	houdini := Entity{Name: "Houdini", Domains: []string{"houdini.example"}}
	celtics := Entity{Name: "Boston Celtics", Aliases: []string{"Celtics"}}
	runVerdictCases(t, []verdictCase{
		{"a sea after the", adriatic, nil, "overnight ferry split to ancona",
			"The ferry crosses the Adriatic in about eleven hours, so book a cabin. Adriatic crossings are calmer in June.", VerdictOrdinaryWord},
		{"a person's name in an idiom", houdini, nil, "my cat keeps escaping her harness",
			"Cats often do a Houdini when the harness is loose: fit it so two fingers slide under the strap.", VerdictOrdinaryWord},
		{"a language before a common noun", finnish, nil, "how to read street signs in helsinki",
			"Most signs give the Finnish spelling first and the Swedish one below it.", VerdictOrdinaryWord},
		{"control: a good's noun after the article", houdini, nil, "light wind jacket for running",
			"The Houdini jacket packs into its own chest pocket and blocks a cold breeze.", VerdictMentioned},
		{"control: no article", adriatic, nil, "flights from split to rome",
			"Adriatic flies the route twice a day, and its morning departure is usually the cheapest.", VerdictMentioned},
		{"control: a team's plural", celtics, nil, "nba finals recap",
			"They beat the Celtics in six games and lifted the trophy at home.", VerdictMentioned},
	})
}

// Class: the answer itself writes the name as a word — a rarer word in
// lower case other than as a verb ("a good quill"), or a common noun after
// an article and an adjective ("a fresh lime is the better choice") — so
// its capitalised occurrences without a cue of their own, and the lower-
// case one whatever defines it, are the word.
func TestClassAnswerWordSense(t *testing.T) {
	quill := Entity{Name: "Quill", Domains: []string{"quill.chat"}}
	mango := Entity{Name: "Mango", Domains: []string{"mango.com"}}
	lime := Entity{Name: "Lime", Domains: []string{"li.me"}}
	runVerdictCases(t, []verdictCase{
		{"rare word in lower case elsewhere", quill, nil, "quill vs reed pen",
			"Quill makes a finer line than a reed because the shaft holds ink in its hollow core. A good quill lasted a scribe only a few days.", VerdictOrdinaryWord},
		{"control: a path or an identifier names the product", Entity{Name: "Lantern", Domains: []string{"lantern.dev"}}, nil, "",
			"Lantern offers privacy-first analytics. Install it from github.com/lantern/lantern-js, then import lantern_js.", VerdictMentioned},
		{"control: only the product", quill, nil, "quill vs slack for small teams",
			"Quill makes threads the default, so conversations stay organised. Slack has more integrations.", VerdictMentioned},
	})
	for _, tc := range []struct {
		name, query, text string
		want              bool
	}{
		{"an article and an adjective", "is lime juice healthy",
			"Lime juice has vitamin C but little fibre. A fresh lime is the better choice for flavour.", false},
		{"control: the scooters", "scooter rental paris",
			"Lime is the better choice for short hops: its scooters are everywhere in Paris.", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, _ := New(mango, []Entity{lime}).Analyze(context.Background(), Input{Text: tc.text, Query: tc.query})
			if got := r.Competitors[0].Mentioned; got != tc.want {
				t.Errorf("Lime mentioned %v, want %v", got, tc.want)
			}
		})
	}
}

// Class: the answer holds the brand's word only in another form — a
// plural noun, or the two words a compound name joins — so the verdict is
// ordinary_word, not not_mentioned; a verb's "-s" or an unrelated answer
// stays not_mentioned.
func TestClassWordForms(t *testing.T) {
	runVerdictCases(t, []verdictCase{
		{"plural subject", Entity{Name: "Walrus", Domains: []string{"walrus.ai"}}, nil, "",
			"Walruses use their tusks to haul themselves onto the ice.", VerdictOrdinaryWord},
		{"plural after a determiner", Entity{Name: "Anchor", Domains: []string{"anchor.fm"}}, nil, "",
			"Most small boats carry two anchors, and the anchors should suit the seabed.", VerdictOrdinaryWord},
		{"plural in -ies", Entity{Name: "Daisy", Domains: []string{"daisy.so"}}, nil, "",
			"Daisies close at night and open again in the morning sun.", VerdictOrdinaryWord},
		{"a compound split", Entity{Name: "Dropbox", Domains: []string{"dropbox.com"}}, nil, "",
			"After hours, leave the keys in the drop box by the office door.", VerdictOrdinaryWord},
		{"a verb's -s", Entity{Name: "Loom", Domains: []string{"loom.com"}}, nil, "",
			"When a deadline looms, list the three tasks that matter and start with the hardest.", VerdictNotMentioned},
		{"nothing of it", Entity{Name: "Walrus", Domains: []string{"walrus.ai"}}, nil, "",
			"Seals rest on ice floes between dives.", VerdictNotMentioned},
	})
}

// Class: an answer that opens with a bare "No" and goes on to evaluate
// the brand is no statement of ignorance ("No. X already covers what Y
// does"): the "No" answers the question, it negates nothing in the
// clause; a "No" that governs knowledge still does.
func TestClassReplyIsNoIgnorance(t *testing.T) {
	vexor := Entity{Name: "Vexor Shield", Domains: []string{"vexor.com"}}
	runVerdictCases(t, []verdictCase{
		{"No. then a verdict", vexor, nil, "do i need vexor shield on windows 11",
			"No. The built-in Defender already covers what Vexor Shield does, and its renewal pop-ups are best avoided.", VerdictMentioned},
		{"No, then a verdict", vexor, nil, "do i need vexor shield on windows 11",
			"No, the built-in Defender covers what Vexor Shield does for most people.", VerdictMentioned},
		{"control: No governing knowledge", vexor, nil, "vexor shield review",
			"No reliable information covers Vexor Shield yet, so I can't rate it.", VerdictUnknownToModel},
		{"control: a number", vexor, nil, "vexor shield review",
			"Vexor Shield ranks No. 3 in the latest lab table, behind two suites that cost more.", VerdictMentioned},
	})
}

// A query about an activity, a medium, the weather or a character limit
// the product meets names the product, not a namesake.
func TestClassQueryActivityNamesProduct(t *testing.T) {
	runVerdictCases(t, []verdictCase{
		{"hiking gear", Entity{Name: "Patagonia", Domains: []string{"patagonia.com"}}, nil, "patagonia hiking pants",
			"Patagonia Quandary pants stretch well and dry fast, and the fit suits most hikers.", VerdictMentioned},
		{"song credits", Entity{Name: "Spotify", Domains: []string{"spotify.com"}}, nil, "spotify song credits wrong",
			"Spotify pulls the credits from the metadata the label delivers, so errors must be fixed by the distributor.", VerdictMentioned},
		{"range in the weather", Entity{Name: "Tesla", Domains: []string{"tesla.com"}}, nil, "tesla range in cold weather",
			"Tesla's range drops by 20 to 30 percent below freezing, less with the heat pump and preconditioning.", VerdictMentioned},
		{"a formula defined", Entity{Name: "Notion", Domains: []string{"notion.so"}}, nil, "how to define a formula in notion",
			"Add a Formula property to the database; Notion's formula editor checks the expression as you type.", VerdictMentioned},
		{"a character limit", Entity{Name: "Tally", Domains: []string{"tally.so"}}, nil, "tally character limit per answer",
			"Tally offers long-text answers with no character limit, and its free plan lets you set one.", VerdictMentioned},
	})
}

// Class: a company's people after its name ("Beacon agents", "Gale
// drivers") name the company, as its customers and users do.
func TestClassCompanyPeople(t *testing.T) {
	runVerdictCases(t, []verdictCase{
		{"agents", Entity{Name: "Beacon", Domains: []string{"beacon.com"}}, nil, "is beacon a good brokerage",
			"Beacon agents list homes with professional photos and a 3D tour included.", VerdictMentioned},
		{"drivers", Entity{Name: "Gale", Domains: []string{"gale.app"}}, nil, "is gale good for airport rides",
			"Gale drivers track your flight and wait up to an hour at no charge.", VerdictMentioned},
	})
}

// Class: a company's events after its name ("X shut down", "X folded",
// "X pivoted") are a company's, and "X and other firms" counts it among
// companies (not "Mercury and other metals").
func TestClassCompanyEvents(t *testing.T) {
	runVerdictCases(t, []verdictCase{
		{"shut down", Entity{Name: "Ledger", Domains: []string{"ledgerbooks.com"}}, nil, "ledger bookkeeping alternatives",
			"Ledger shut down in 2023, and its founders moved on.", VerdictMentioned},
		{"pivoted", Entity{Name: "Anchor", Domains: []string{"anchor.fm"}}, nil, "what happened to anchor podcasts",
			"Anchor pivoted to become part of Spotify's creator tools in 2023.", VerdictMentioned},
		{"other metals are no firms", Entity{Name: "Mercury", Domains: []string{"mercury.com"}}, nil, "toxic metals in fish",
			"Mercury and other metals build up in large predatory fish such as swordfish.", VerdictOrdinaryWord},
	})
}

// Class: a query about a natural kind with only an evaluation any thing
// takes ("good", "safe", "best") asks about the namesake; a product's word
// in it ("app", "bank") still asks about the product.
func TestClassNaturalQueryOutweighsEvaluation(t *testing.T) {
	kiwi := Entity{Name: "Kiwi", Domains: []string{"kiwi.com"}}
	runVerdictCases(t, []verdictCase{
		{"good for you", kiwi, nil, "is kiwi fruit good for you",
			"Kiwi provides more vitamin C per gram than an orange, plus fibre and potassium.", VerdictOrdinaryWord},
		{"a product's word", kiwi, nil, "is the kiwi app good for flights to island resorts",
			"Kiwi provides virtual interlining, combining airlines that don't cooperate, and its app shows the risk of each connection.", VerdictMentioned},
	})
}

// Ignorance about the very thing the query asks, named after a hyphen or a
// year ("X's per-seat price", "X's 2027 spring range"): the statement is
// about the entity.
func TestClassIgnoranceAskedAspect(t *testing.T) {
	harbor := Entity{Name: "Harbor", Domains: []string{"harborhr.com"}}
	runVerdictCases(t, []verdictCase{
		{"hyphenated aspect the query asks", harbor, nil, "harbor hr price per seat",
			"There isn't enough information available to me to quote Harbor's per-seat price with any confidence. Ask their sales team for a written quote.", VerdictUnknownToModel},
		{"a year before the aspect", Entity{Name: "Brindlewood"}, nil, "brindlewood spring menu 2027",
			"Nothing I was trained on covers Brindlewood's 2027 spring menu, so I can't list the dishes reliably.", VerdictUnknownToModel},
		// the aspect is not what the query asks: the statement is about it, not the entity
		{"unasked aspect after a year", Entity{Name: "Tessvik", Domains: []string{"tessvik.com"}}, nil, "tessvik payroll",
			"I have no details on Tessvik's 2024 office move. Tessvik runs payroll for about 4,000 small firms and files taxes in 30 states.", VerdictMentioned},
	})
}

// A person's full name beside the brand's word — a relative "who", a
// credit ("directed by"), a possessive work ("X's essay") — is a person,
// not the product; one sense per answer carries it to the surname alone.
func TestClassPersonNames(t *testing.T) {
	runVerdictCases(t, []verdictCase{
		{"surname with a possessive work", Entity{Name: "Baker", Domains: []string{"bakerapp.com"}}, nil, "the dawn of everything summary",
			"The book builds on Ruth Baker's essay about early cities. Baker argues that farming spread slowly and unevenly.", VerdictOrdinaryWord},
		{"first name credited", Entity{Name: "Amélie", Domains: []string{"amelie.fr"}}, nil, "who wrote the paper boats novel",
			"*Paper Boats* was written by **Amélie Droz**, who also illustrated the cover. Amélie Droz later taught in Lyon.", VerdictOrdinaryWord},
		{"a relative who after a surname", Entity{Name: "Fletcher", Domains: []string{"fletcher.io"}}, nil, "who designed the harbour bridge",
			"The bridge was designed by engineer Tomas Fletcher, who spent eleven years on it.", VerdictOrdinaryWord},
		{"a single name with an essay", Entity{Name: "Baker", Domains: []string{"bakerapp.com"}}, nil, "early cities theories",
			"Baker's essay on early cities argues that farming spread slowly; Baker draws on digs in Anatolia.", VerdictOrdinaryWord},
		{"a query asking who", Entity{Name: "Amélie", Domains: []string{"amelie.fr"}}, nil, "who won the lumen prize in 2031",
			"The prize went to Amélie Droz for her second collection. Amélie Droz had been shortlisted twice before.", VerdictOrdinaryWord},
		// products: a product line after the name is no person
		{"product with a line name", Entity{Name: "Baker", Domains: []string{"bakerapp.com"}}, []Entity{{Name: "Toast", Domains: []string{"toasttab.com"}}}, "best bakery pos",
			"Baker Studio's pricing starts at $29 a month, and Baker syncs orders with Toast.", VerdictMentioned},
		{"an acronym is no name", Entity{Name: "Cursor", Domains: []string{"cursor.com"}}, []Entity{{Name: "Windsurf", Domains: []string{"windsurf.com"}}},
			"cursor vs windsurf", "Cursor CEO, who spoke at the launch, said Cursor now writes most of its own code; Windsurf answered with a cheaper plan.", VerdictMentioned},
	})
}

// A heading in headline style — every word but the function words
// capitalised — says nothing by its capitals, as an all-capitalised title
// does not; a heading that lists names is no headline.
func TestClassHeadlineHeadings(t *testing.T) {
	entAnchor := Entity{Name: "Anchor", Domains: []string{"anchor.fm"}}
	entCompass := Entity{Name: "Compass", Domains: []string{"compass.com"}}
	runVerdictCases(t, []verdictCase{
		{"headline with lower-case function words", entAnchor, nil, "sailing in bad weather",
			"## How the Anchor Holds in a Storm\n\nLet out five to seven times the water depth in chain, and back the engine gently to set it.", VerdictOrdinaryWord},
		{"headline with a contraction", entCompass, nil, "hiking navigation tips",
			"### The Compass Isn't Always Right\nMagnetic declination shifts a bearing by several degrees; correct for it before you walk.", VerdictOrdinaryWord},
		// a headline's capitals say nothing either way: its predicate still counts
		{"headline with a predicate", Entity{Name: "Harbor", Domains: []string{"harbor.io"}}, nil, "harbor vs gusto payroll",
			"### Harbor Is Cheaper for Small Teams\nIts per-seat price is lower, and setup takes an afternoon.", VerdictMentioned},
		{"a heading that opens with the name is its topic", Entity{Name: "Ladder", Domains: []string{"ladderlife.com"}}, nil, "ladder term life review",
			"**Ladder Life Review: Term Cover You Can Resize**\n\nCoverage goes up or down after you buy, without a new medical exam.", VerdictMentioned},
		{"a heading of names is no headline", entBear, []Entity{entNotion, entObsidian}, "note apps for students",
			"## Notion, Obsidian and Bear\n\nAll three sync across devices, and two of them have a free plan.", VerdictMentioned},
	})
}

// The query uses the word as a common noun: the head of a noun phrase
// after a determiner and a modifier, "a" thing a question asks about, or
// the thing whose taste or origin is asked. A product word after it, or a
// product's modifier before it, keeps the product.
func TestClassQueryNounSense(t *testing.T) {
	entSumac := Entity{Name: "Sumac", Domains: []string{"sumac.io"}}
	entKestrel := Entity{Name: "Kestrel", Domains: []string{"kestrel.io"}}
	entSextant := Entity{Name: "Sextant", Domains: []string{"sextant.app"}}
	entWise := Entity{Name: "Wise", Domains: []string{"wise.com"}}
	runVerdictCases(t, []verdictCase{
		{"taste asked", entSumac, nil, "what does sumac taste like",
			"Sumac berries have a tart, lemony flavour with a faint fruitiness. Sprinkle the ground spice over kebabs or fattoush.", VerdictOrdinaryWord},
		{"origin asked", entSumac, nil, "sumac origin",
			"Sumac comes from the dried berries of a shrub that grows wild around the Mediterranean and in the Middle East.", VerdictOrdinaryWord},
		{"a modified head noun", entKestrel, nil, "how does a hovering kestrel stay still",
			"Kestrel hovering works by facing into the wind and beating the wings just fast enough to hold position over the grass.", VerdictOrdinaryWord},
		{"a question about a thing", entSextant, nil, "how does a sextant work",
			"Sextant readings give the angle between a star and the horizon; the navigator then looks the position up in tables.", VerdictOrdinaryWord},
		{"the thing a how-to makes", Entity{Name: "Sourdough", Domains: []string{"sourdough.app"}}, nil, "how to bake sourdough at home",
			"Sourdough needs a lively starter, a long cold proof and a very hot oven. Sourdough keeps for three days wrapped in linen.", VerdictOrdinaryWord},
		{"a how-to that fixes an app", Entity{Name: "Discord", Domains: []string{"discord.com"}}, nil, "how to fix discord",
			"Discord may be down: check its status page, then restart the app and clear its cache.", VerdictMentioned},
		{"a noun the word modifies", Entity{Name: "Rover", Domains: []string{"rover.com"}}, nil, "how does a rover sitter get paid",
			"Rover pays sitters through the app two days after each stay, minus its service fee.", VerdictMentioned},
		{"a product word after the name", entWise, nil, "how does a wise transfer work",
			"Wise converts your money at the mid-market rate and shows its fee before you send.", VerdictMentioned},
		{"a product's modifier", entSextant, nil, "is the free sextant plan enough",
			"Sextant's free plan tracks three portfolios; the paid tier adds tax reports.", VerdictMentioned},
	})
}

// A feature named "X to Y" ("Tap to Pay", "Pinch to Zoom") is another
// thing's feature, not the product X; two products joined by "to" are not.
func TestClassFeaturePhrase(t *testing.T) {
	entTap := Entity{Name: "Tap", Domains: []string{"tap.company"}}
	runVerdictCases(t, []verdictCase{
		{"feature phrase", entTap, nil, "how to use tap to pay on iphone",
			"**Tap to Pay** turns the phone into a card reader. If the option is missing, check that Tap to Pay is switched on under Wallet.", VerdictOrdinaryWord},
		{"feature phrase mid-sentence", entTap, nil, "how to use tap to pay on iphone",
			"Open the seller app, then choose Tap to Pay and hold the customer's card near the top of the phone.", VerdictOrdinaryWord},
		{"two products joined by to", entSlack, []Entity{entTeams}, "migrate slack to teams",
			"Moving from Slack to Teams takes planning: Slack exports channels as JSON, and Teams imports them through a migration tool.", VerdictMentioned},
	})
}

// After another language's article, in an answer in that language, the
// word is that language's common noun ("un smoothie"); written so twice or
// more, its capitalised occurrences without a cue mean the same.
func TestClassForeignCommonNoun(t *testing.T) {
	runVerdictCases(t, []verdictCase{
		{"French", Entity{Name: "Smoothie", Domains: []string{"smoothie.io"}}, nil, "recette smoothie banane",
			"Pour un smoothie onctueux, mixez une banane congelée avec du lait d'avoine.\n\n### Smoothie vert ou smoothie classique ?\nUn smoothie vert ajoute des épinards sans changer beaucoup le goût.", VerdictOrdinaryWord},
		{"Spanish", Entity{Name: "Scooter", Domains: []string{"scooter.app"}}, nil, "mejor scooter eléctrico para la ciudad",
			"Un scooter eléctrico con ruedas de 10 pulgadas absorbe mejor los baches.\n\n**Scooter plegable o fijo:** el scooter plegable se guarda en la oficina.", VerdictOrdinaryWord},
		// once may be a pun on the name
		{"one common noun beside the name", entZoom, nil, "zoom avis",
			"Zoom fonctionne bien pour les réunions, mais le zoom numérique des webcams reste limité.", VerdictMentioned},
		{"a name in that language", entNotion, []Entity{entObsidian}, "notion ou obsidian",
			"Notion est un outil de prise de notes en ligne; Obsidian garde les fichiers sur votre disque.", VerdictMentioned},
	})
}

// The next sentence calls the subject a company or a product ("The
// company also …", "This app …"): the word at the start of the sentence
// before it is the name.
func TestClassCompanyAnaphora(t *testing.T) {
	entHabit := Entity{Name: "Habit", Domains: []string{"habit.com"}}
	runVerdictCases(t, []verdictCase{
		{"the company goes on", entHabit, nil, "habit protein shakes lab tested",
			"Habit has its shakes checked for lead and arsenic by an outside lab. The company posts each batch's results online.", VerdictMentioned},
		{"the habit goes on", entHabit, nil, "how to break a habit",
			"Habit loops run on a cue, a routine and a reward. The loop weakens when you change the cue.", VerdictOrdinaryWord},
	})
}

// A word that recommends, advises or warns is an agent — a company or a
// person — not a thing: "Cascade recommends one pod per load".
func TestClassAgentSpeechVerbs(t *testing.T) {
	entCascade := Entity{Name: "Cascade", Domains: []string{"cascadeclean.com"}}
	runVerdictCases(t, []verdictCase{
		{"recommends", entCascade, nil, "how many cascade pods per dishwasher load",
			"Cascade recommends one pod per load, dropped into the main dispenser, not loose in the tub.", VerdictMentioned},
		{"warns", entCascade, nil, "cascade pods on hand washed pans",
			"Cascade warns against using its pods on cast iron, aluminium and wooden handles.", VerdictMentioned},
		{"a thing does not advise", entCascade, nil, "what is a cascade waterfall",
			"A cascade falls in a series of small steps over rock rather than in one drop.", VerdictOrdinaryWord},
	})
}

// A rarer word before the name in the query names a company as often as a
// thing ("the google nest hub"): no noun phrase of the word.
func TestClassQueryCompanyModifier(t *testing.T) {
	runVerdictCases(t, []verdictCase{
		{"company modifier", entNest, nil, "is the google nest hub worth it",
			"The Nest Hub is worth it if you already use Google Home: the screen shows cameras, recipes and photos.", VerdictMentioned},
	})
}

// A plant's parts after the word ("Sumac berries", "Anise seeds") make it
// the plant or the spice.
func TestClassPlantParts(t *testing.T) {
	runVerdictCases(t, []verdictCase{
		{"seeds", Entity{Name: "Anise", Domains: []string{"anise.io"}}, nil, "anise in baking",
			"Anise seeds give biscotti and pfeffernüsse their liquorice note; grind them just before use.", VerdictOrdinaryWord},
		{"a product's line is no plant", Entity{Name: "Anise", Domains: []string{"anise.io"}}, nil, "anise invoicing app",
			"Anise Invoices sends reminders automatically, and Anise syncs payments with your bank.", VerdictMentioned},
	})
}

// Ignorance stated with a verb of giving or quoting and a qualifier
// ("can't give X's fees reliably", "beyond what I can reliably report");
// the same verbs in an opinion or a refusal to list are no ignorance.
func TestClassIgnoranceGiveQuote(t *testing.T) {
	harbor := Entity{Name: "Harbor", Domains: []string{"harbor.io"}}
	runVerdictCases(t, []verdictCase{
		{"give reliably", harbor, nil, "harbor fees", "I'm not able to give Harbor's fees reliably; check its pricing page.", VerdictUnknownToModel},
		{"beyond what I can report", harbor, nil, "harbor fees", "Harbor's current fee schedule is beyond what I can reliably report.", VerdictUnknownToModel},
		{"quote with any confidence", harbor, nil, "harbor fees 2026", "I can't quote Harbor's 2026 fees with any confidence.", VerdictUnknownToModel},
		{"a rating is an opinion", harbor, nil, "harbor review", "I wouldn't give Harbor more than three stars: payroll runs late too often.", VerdictMentioned},
		{"not listing everything", harbor, nil, "harbor features", "I won't list every feature, but Harbor covers payroll, benefits and time off.", VerdictMentioned},
	})
}

// Precision of the classes above on product answers: a feature "X to Y"
// of the product itself, "The company <Name>" introducing another company,
// a smell asked of a product's line.
func TestClassProductSenseKept(t *testing.T) {
	runVerdictCases(t, []verdictCase{
		{"the product's own feature", entZoom, nil, "zoom features",
			"Zoom lets hosts record meetings. Zoom to Fit resizes the gallery view.", VerdictMentioned},
		{"another company introduced", Entity{Name: "Honey", Domains: []string{"joinhoney.com"}}, nil, "honey health benefits",
			"Honey has mild antibacterial properties. The company Manuka Health sells a graded version.", VerdictOrdinaryWord},
		{"a smell asked of a product line", Entity{Name: "Tide", Domains: []string{"tide.com"}}, nil, "what do tide pods smell like",
			"Tide Pods Original smells like the classic Tide liquid: clean and citrusy.", VerdictMentioned},
	})
}

// The speaker disclaims current prices of the asked aspect ("I don't have
// up-to-date pricing for X's team plan") and says nothing else of the
// brand: unknown to the model. A brand's own pricing practice is a fact.
func TestClassPriceIgnorance(t *testing.T) {
	entBrindle := Entity{Name: "Brindle", Domains: []string{"brindle.io"}}
	runVerdictCases(t, []verdictCase{
		{"current pricing of the asked plan", entBrindle, nil, "brindle team plan cost",
			"I don't have current pricing for Brindle's team plan, so I won't guess a figure.\n\nMost team tools charge per seat, and yearly billing is usually cheaper.", VerdictUnknownToModel},
		{"up to date, the qualifier before", entBrindle, nil, "brindle premium tier price",
			"Sadly I can't give you up to date prices on Brindle's premium tier. They change often.\n\nCheck the vendor's site before you buy.", VerdictUnknownToModel},
		{"reliable prices, existential", Entity{Name: "Kovra"}, nil, "kovra annual subscription price",
			"There are no reliable prices available for Kovra's annual subscription that I could quote.", VerdictUnknownToModel},
		{"a product's tier the query does not name", entBrindle, nil, "how much does brindle cost",
			"I don't have up-to-date prices for Brindle's family sharing options.\n\nFamily plans usually cost less per person than separate accounts.", VerdictUnknownToModel},
		{"the brand hides its prices: a fact", entBrindle, nil, "brindle team plan cost",
			"Brindle doesn't show current prices until you book a demo, which makes comparing harder.", VerdictMentioned},
		{"no prices listed: a fact", entBrindle, nil, "brindle pricing",
			"Brindle doesn't publish prices online; the sales team quotes per seat.", VerdictMentioned},
		{"prices disclaimed, the product described", entBrindle, nil, "brindle team plan cost",
			"I don't have current pricing for Brindle's team plan. Brindle offers a free tier with three projects and unlimited guests.", VerdictMentioned},
		{"but it goes on about the brand", entBrindle, nil, "brindle pricing 2026",
			"I don't have current 2026 pricing for Brindle, but it's popular with agencies and bills per active seat.", VerdictMentioned},
		{"the brand's price list, then figures", entBrindle, nil, "brindle pricing",
			"I don't have Brindle's current price list. Buyers reported paying about $40 per seat per month in 2025.", VerdictMentioned},
	})
}

// In an answer in another language, the brand's word inflected after that
// language's article ("den Kumpeln", "las bicis") is the language's common
// noun: ordinary_word, as an English plural is.
func TestClassForeignInflection(t *testing.T) {
	entKumpel := Entity{Name: "Kumpel", Domains: []string{"kumpel.app"}}
	entBici := Entity{Name: "Bici", Domains: []string{"bici.es"}}
	runVerdictCases(t, []verdictCase{
		{"German dative plural", entKumpel, nil, "mit freunden ins stadion",
			"Mit den Kumpeln ins Stadion zu gehen macht mehr Spaß, wenn man die Karten früh kauft. Die Stehplätze sind am günstigsten.", VerdictOrdinaryWord},
		{"Spanish plural", entBici, nil, "moverse por sevilla barato",
			"Las bicis compartidas son la forma más barata de moverse por el centro, y hay estaciones en casi todos los barrios.", VerdictOrdinaryWord},
		{"an English word's plural in Spanish", Entity{Name: "Scooter", Domains: []string{"scooter.app"}}, nil, "patinete eléctrico para la ciudad",
			"Los scooters eléctricos con ruedas grandes absorben mejor los baches y se pliegan para el metro.", VerdictOrdinaryWord},
		{"English plural of a foreign name says nothing", entBici, nil, "bike share seville",
			"The Bicis of Seville are a popular sight, and the network of lanes keeps growing.", VerdictNotMentioned},
		{"the name itself in another language", entKumpel, nil, "kumpel app erfahrungen",
			"Kumpel ist eine App, mit der man Fahrgemeinschaften zum Stadion organisiert.", VerdictMentioned},
	})
}

// A competitor whose owner styles its name in lower case ("slow down" for
// "Slow Down") gets the evidence of a capitalised name when written so —
// list items of products, bold, product predicates — and its idiom stays
// a phrase.
func TestClassLowerStyledCompetitor(t *testing.T) {
	brand := Entity{Name: "Lumen", Domains: []string{"lumen.app"}}
	comps := []Entity{{Name: "Slow Down", Aliases: []string{"slow down"}, Domains: []string{"slowdown.app"}}, {Name: "Haven", Domains: []string{"haven.so"}}}
	runCompetitorCases(t, []competitorCase{
		{"a bold list item of apps", brand, comps, "apps to stop doomscrolling",
			"1. **Lumen** – schedules focus blocks and locks chosen apps.\n2. **slow down** – adds a ten-second pause before a feed loads, which breaks the reflex.\n3. **Haven** – blocks sites on every device at once.", "Slow Down", true},
		{"its own styling, compared", brand, comps, "lumen vs slow down",
			"**slow down** makes you wait a few seconds before an app opens. It's free and works well for habits.\n\n**Lumen** is a full blocker with schedules.", "Slow Down", true},
		{"the phrase in prose", brand, comps, "how to read more books",
			"Set a page goal, keep a book by the bed and slow down when a chapter gets dense.", "Slow Down", false},
		{"the phrase before a verb's object", brand, comps, "tips for eating mindfully",
			"Put the fork down between bites; it helps you slow down and notice when you're full.", "Slow Down", false},
		{"the phrase beside the brand's list", brand, comps, "apps to stop doomscrolling",
			"1. **Lumen** – locks chosen apps on a schedule.\n2. **Haven** – blocks sites everywhere.\n\nBoth work best if you also slow down and notice when you reach for the phone.", "Slow Down", false},
		{"the phrase as a bold tip", brand, comps, "how to focus better",
			"- **slow down** – read one page at a time.\n- **take breaks** – stand up every hour.", "Slow Down", false},
	})
}

// "X is established", and a product's verb conjoined after a state ("X is
// well established and works across devices"): a product predicate, for a
// competitor as for the brand.
func TestClassEstablishedAndWorks(t *testing.T) {
	brand := Entity{Name: "Lumen", Domains: []string{"lumen.app"}}
	comps := []Entity{{Name: "Haven", Domains: []string{"haven.so"}}}
	runCompetitorCases(t, []competitorCase{
		{"a state, then a product's verb", brand, comps, "lumen focus app review",
			"I can't verify Lumen's current features, so I won't review it.\n\nWhen you compare blockers, check scheduling and price.\n\nHaven is minimal and runs on phones and laptops, so it is a fair benchmark.", "Haven", true},
		{"long established", brand, comps, "best focus apps",
			"Lumen suits students. Haven is long established, which matters for a tool you will pay for yearly.", "Haven", true},
	})
	runVerdictCases(t, []verdictCase{
		{"an idea's state is no product's", Entity{Name: "Harmony", Domains: []string{"harmony.io"}}, nil, "how to write a chorale",
			"Harmony is well established by the bass line and moves in thirds and sixths above it.", VerdictOrdinaryWord},
	})
}

// The query holds the brand's word inside a phrase — a compound with a
// common noun, a person's, place's or another company's name, "X vs its
// antonym" — and the answer repeats it: the word is the phrase's. The
// brand's own product line ("the lantern pro", "zoom workplace") and a
// phrase the answer never repeats stay the brand's.
func TestClassQueryPhrase(t *testing.T) {
	entLantern := Entity{Name: "Lantern", Domains: []string{"lantern.io"}}
	entHarbor := Entity{Name: "Harbor", Domains: []string{"harbor.dev"}}
	entMeadow := Entity{Name: "Meadow", Domains: []string{"meadow.com"}}
	entCorsa := Entity{Name: "Corsa", Domains: []string{"corsa.app"}}
	entSmooth := Entity{Name: "Smooth", Domains: []string{"smooth.co"}}
	entQuill := Entity{Name: "Quill", Domains: []string{"quill.com"}}
	runVerdictCases(t, []verdictCase{
		{"a compound with a common noun, written in lower case", entLantern, nil, "what is a lantern festival",
			"A lantern festival marks the first full moon of the lunar year. Families hang paper lanterns over the streets, and Lantern Night ends with a riddle game.", VerdictOrdinaryWord},
		{"a compound whose labels the answer capitalises", entMeadow, nil, "how to plant a meadow border",
			"A meadow border wants poor soil and full sun. Sow in autumn, and in the planner pick **Meadow Editor** → **Seed Mix** to list the species.", VerdictOrdinaryWord},
		{"another company's product holding the word", entHarbor, nil, "is the lego harbor set worth it",
			"The Lego Harbor set has 1,200 pieces, a working crane and four minifigures. Harbor builds like this sell out before Christmas.", VerdictOrdinaryWord},
		{"a name holding the word as its head", entCorsa, nil, "history of the opel corsa",
			"The Opel Corsa launched in 1982 as a small hatchback. Later generations grew, and the Corsa is now also sold as an electric car.", VerdictOrdinaryWord},
		{"a person's first name", entMeadow, nil, "meadow walsh best songs",
			"Meadow Walsh's best-known songs come from her 2011 debut. Walsh wrote most of them alone, and she still closes her shows with the title track.", VerdictOrdinaryWord},
		{"a person's full name, a pronoun after it", entMeadow, nil, "tips for seeing a meadow lark show",
			"To see Meadow Lark live, book early: her tours sell out in a day. Meadow's sets run two hours.", VerdictOrdinaryWord},
		{"a person's surname alone, a possessive pronoun", entQuill, nil, "quill thornton novels ranked",
			"Quill Thornton wrote six novels. Thornton's first is his funniest, and readers still rank it above the rest.", VerdictOrdinaryWord},
		{"the brand's product line, no person", entLantern, nil, "lantern studio review",
			"Lantern Studio adds shared dashboards for $12 a month; its reports export to PDF. Lantern is worth it for teams.", VerdictMentioned},
		{"the brand's product line someone uses", entQuill, nil, "quill notebook pricing",
			"Quill Notebook costs $4 a month and syncs across devices. Quill suits students who take notes by hand.", VerdictMentioned},
		{"a place joined by hyphens", entCorsa, nil, "things to do in corsa sur mer",
			"Corsa-sur-Mer is a small fishing town with a long beach. From Corsa you can take a ferry to the islands.", VerdictOrdinaryWord},
		{"an adjective against its antonym", entSmooth, nil, "smooth vs unsmooth plaster finish",
			"Smooth plaster is the better base for paint. Unsmooth finishes hide dents but collect dust.", VerdictOrdinaryWord},
		{"an adjective against its antonym in -less", Entity{Name: "Corded", Domains: []string{"corded.com"}}, nil, "corded vs cordless drills for home use",
			"Corded drills are the better pick for long jobs: they never run flat.\n\n| | Corded | Cordless |\n|---|---|---|\n| Power | Constant | Fades with the battery |", VerdictOrdinaryWord},
		{"the brand's own product line", entLantern, nil, "is the lantern pro worth it",
			"Lantern Pro adds unlimited projects and shared dashboards for $12 a month. Lantern is worth it for teams of five or more.", VerdictMentioned},
		{"a phrase the answer does not repeat", entQuill, nil, "quill pen alternatives for note taking",
			"Quill is a note-taking app with handwriting support; it syncs across iPad and Mac and costs $4 a month.", VerdictMentioned},
		{"a preposition before the word", entHarbor, nil, "migrating off harbor registry",
			"To move off Harbor, export the images with its replication API and push them to the new registry.", VerdictMentioned},
	})
}

// A name that is no word, followed by its product's capitalised name that
// holds a natural kind's noun ("Mineral", "Stone", "Water"), is the brand,
// not a namesake of a natural kind; a lower-case kind after it still asks.
func TestClassProductNameHoldsKind(t *testing.T) {
	brand := Entity{Name: "Solvie", Domains: []string{"solvie.com"}}
	runCompetitorCases(t, []competitorCase{
		{"a product's name in a table", brand, []Entity{{Name: "Dermalux"}}, "gentle face sunscreen",
			"| Pick | Filter |\n|---|---|\n| Dermalux Daily Mineral Fluid SPF 40 | Zinc oxide |\n| Solvie Sheer SPF 30 | Chemical |", "Dermalux", true},
		{"a product's name in prose", brand, []Entity{{Name: "Quarzo"}}, "kitchen countertop sealer",
			"Quarzo Stone Guard Plus seals granite in one coat; reapply yearly.", "Quarzo", true},
	})
}

// A hedge that limits one claim ("hasn't announced a recall that I know
// of"), followed by what people report about the product, speaks of a
// known product: a mention. Ignorance followed by advice or a guess stays
// ignorance; a number the model won't give for a plan is ignorance too.
func TestClassHedgeThenReports(t *testing.T) {
	entPebble := Entity{Name: "Pebble", Domains: []string{"pebble.com"}}
	entTernly := Entity{Name: "Ternly", Domains: []string{"ternly.com"}}
	runVerdictCases(t, []verdictCase{
		{"a hedge, then owners' reports", entPebble, nil, "pebble kettle recall",
			"Pebble hasn't issued a recall that I'm aware of, but owners have been reporting for months that the lid hinge cracks after a year of daily use.", VerdictMentioned},
		{"a hedge, then users say", entTernly, nil, "ternly app shutting down?",
			"Ternly hasn't confirmed anything that I know of, but users say the app stopped syncing in March and support replies have slowed.", VerdictMentioned},
		{"ignorance, then advice", entTernly, nil, "is ternly any good",
			"I don't know of Ternly, but you could check its reviews on the app store before paying.", VerdictUnknownToModel},
		{"ignorance, then a guess", entTernly, nil, "ternly reviews",
			"I'm not familiar with Ternly, but it may be a small regional company.", VerdictUnknownToModel},
		{"figures the model won't give", entTernly, nil, "ternly subscription cost 2027",
			"I don't have reliable figures for Ternly's 2027 plans, so I can't give you numbers I'd trust. Check the pricing page.", VerdictUnknownToModel},
	})
}

// A capitalised word set off by a dash, a colon or a parenthesis right
// after a product category's noun names a product of it ("a mild dish
// soap — Fathom (the green one) …"); after another noun it says nothing.
func TestClassCategoryAside(t *testing.T) {
	entBloom := Entity{Name: "Bloom", Domains: []string{"bloom.com"}}
	entSpark := Entity{Name: "Spark", Domains: []string{"spark.co"}}
	runVerdictCases(t, []verdictCase{
		{"after a dash", entBloom, nil, "how to get wax out of a tablecloth",
			"Scrape off what you can, then work in a squeeze of a gentle dish soap — Bloom (the lemon one) is a favourite with caterers — and rinse in warm water.", VerdictMentioned},
		{"after a parenthesis", entSpark, nil, "how to clean a shower screen",
			"Wipe the glass with diluted vinegar and a drop of a mild shampoo (Spark works fine) before you squeegee it dry.", VerdictMentioned},
		{"after a colon", entBloom, nil, "what to pack for a beach day",
			"Bring one thing above all else, a sunscreen: Bloom rates well for reapplying over sweat.", VerdictMentioned},
	})
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"a mild dish soap — Bloom", true},
		{"a mild shampoo (Bloom", true},
		{"a sunscreen: Bloom", true},
		{"a sunny border — Bloom", false}, // no category
		{"a dish soap, Bloom", false},     // a comma lists as often as it names
		{"Bloom", false},
	} {
		t.Run(tc.text, func(t *testing.T) {
			if got := categoryAside(tc.text, 0, len(tc.text)-len("Bloom")); got != tc.want {
				t.Errorf("categoryAside = %v, want %v", got, tc.want)
			}
		})
	}
}

// A compound the query uses as a common noun ("a teachable moment", "pour
// over vs drip coffee"), repeated by the answer with the brand's word
// capitalised only by the sentence's start and the noun in lower case, is
// the compound; its other occurrences without a cue read as the word, and
// "the better pick" is no product's definition then. The brand's product
// line, capitalised ("Zoom Workplace"), or a query without a determiner
// before the name ("amazon return problems") stays the brand's.
func TestClassQueryCompoundAtStart(t *testing.T) {
	entActionable := Entity{Name: "Actionable", Domains: []string{"actionable.co"}}
	entFlat := Entity{Name: "Flat", Domains: []string{"flat.app"}}
	entCanvas := Entity{Name: "Canvas", Domains: []string{"canvas.com"}}
	entRelay := Entity{Name: "Relay", Domains: []string{"relay.app"}}
	runVerdictCases(t, []verdictCase{
		{"a compound after a determiner, plural in the answer", entActionable, nil, "how to turn survey results into an actionable insight",
			"Group the comments by theme before you count anything.\n\nActionable insights name an owner and a date; a finding nobody can act on is trivia.", VerdictOrdinaryWord},
		{"one side of a comparison of kinds, in bold at a line start", entFlat, nil, "matte vs flat paint for a hallway",
			"**Flat paint** hides wall flaws best, but it scuffs easily; matte is a little tougher.\n\n- **Flat finishes:** ceilings and low-traffic rooms.\n\nFlat is the better pick for a rented flat you will repaint anyway.", VerdictOrdinaryWord},
		{"the brand's product line, capitalised", entCanvas, nil, "is the canvas studio plan worth it",
			"Canvas Studio adds video quizzes to the course pages. Canvas is the better pick for schools that already use it.", VerdictMentioned},
		{"no determiner before the name in the query", entRelay, nil, "relay workflow limits",
			"Relay workflows run up to 500 steps a month on the free plan, and Relay charges per step after that.", VerdictMentioned},
		{"a comparison with an untracked product", entRelay, nil, "relay vs zapier",
			"Relay is the better pick for small teams: its workflows are cheaper and easier to review.", VerdictMentioned},
		{"a noun before the noun: the maker's name", Entity{Name: "Harbor", Domains: []string{"harborkayaks.com"}}, nil, "should i get a harbor kayak",
			"Harbor kayaks track straight and weigh under 20 kg, and the company ships them free to most of Europe.", VerdictMentioned},
		{"a review asked of a lower-case brand's product", Entity{Name: "Lumen", Domains: []string{"lumenlamps.com"}}, nil, "a lumen lamp review",
			"Lumen lamps dim smoothly to 1% and pair with most smart-home hubs; the shade scratches easily.", VerdictMentioned},
	})
}

// A comparison whose other side is a kind — written in lower case by the
// answer, or a compound headed by a common noun no product is ("copper vs
// pex plumbing") — asks about kinds: its "vs" makes no product query, so
// the brand's word named in it needs evidence of its own.
func TestClassKindsCompared(t *testing.T) {
	entBrass := Entity{Name: "Brass", Domains: []string{"brass.app"}}
	entMaple := Entity{Name: "Maple", Domains: []string{"maple.app"}}
	runVerdictCases(t, []verdictCase{
		{"a material against an acronym, headed by a trade", entBrass, nil, "brass vs cpvc fittings",
			"Brass holds up to heat and lasts decades. CPVC is cheaper and easier to glue. Brass is still preferred near the water heater.", VerdictOrdinaryWord},
		{"a kind the answer writes in lower case", entMaple, nil, "maple vs oak flooring",
			"Red oak hides scratches better. Maple takes stain unevenly, so oak suits a dark finish.", VerdictOrdinaryWord},
		{"a product against a kind the answer writes in lower case", Entity{Name: "Flat", Domains: []string{"flat.app"}}, nil, "flat vs email for a small team",
			"Flat keeps threads by topic, so questions don't get buried the way they do in email. Flat costs $4 a user.", VerdictMentioned},
		{"a product the answer capitalises", entMaple, nil, "maple vs copilot budgeting",
			"Maple syncs more banks and shares budgets with a partner; Copilot is prettier but Apple-only. Maple is $8 a month.", VerdictMentioned},
		{"a tracked rival of two words, plural in the query", Entity{Name: "Tidy", Domains: []string{"tidyhome.com"}},
			[]Entity{{Name: "Brisk Mop", Domains: []string{"briskmop.com"}}}, "tidy wipes vs brisk mops for a kitchen",
			"For greasy floors, **Brisk Mop** is usually better: the pad is washable and lasts a year.\n\nTidy wipes are quicker for spills but dry out once the pack is open.", VerdictMentioned},
	})
}

// A query that holds the brand's word only in a derived form — an adverb
// or an abstract noun ("terminated abnormally", "calmness") — asks about
// the word: the answer's uncued capitals (a heading, a quoted message) are
// the word's. The brand named in its own form stays the brand's.
func TestClassQueryDerivedForm(t *testing.T) {
	entSteady := Entity{Name: "Steady", Domains: []string{"steady.app"}}
	entNimble := Entity{Name: "Nimble", Domains: []string{"nimble.com"}}
	entHumble := Entity{Name: "Humble", Domains: []string{"humble.com"}}
	runVerdictCases(t, []verdictCase{
		{"an adverb of the word", entSteady, nil, "why does my fan speed not rise steadily",
			"## Steady Fan Curves\n\nThe warning **\"Steady state not reached\"** means the controller never settled. Update the BIOS and reset the curve.", VerdictOrdinaryWord},
		{"an abstract noun of the word", entNimble, nil, "exercises for nimbleness in older adults",
			"## Nimble Feet Drills\n\nStep over a rope ladder slowly, then faster. The cue **\"Nimble feet, quiet hands\"** reminds people to stay light on their toes.", VerdictOrdinaryWord},
		{"an adverb in -ly of a word in -le", entHumble, nil, "how to accept praise humbly",
			"## Humble Replies\n\nSay thank you and stop there. A reply like **\"Humble thanks, it was a team effort\"** credits others without waving the compliment away.", VerdictOrdinaryWord},
		{"the name itself beside the adverb", entSteady, nil, "does steady sync steadily across devices",
			"Steady syncs every few seconds on iOS and Android, and its web app shows the same data.", VerdictMentioned},
	})
}

// "A name I can't place" is ignorance of the name; placing an order is
// not.
func TestClassIgnorancePlaceName(t *testing.T) {
	entVantle := Entity{Name: "Vantle", Domains: []string{"vantle.io"}}
	runVerdictCases(t, []verdictCase{
		{"isn't a name I can place", entVantle, nil, "is vantle legit",
			"\"Vantle\" isn't a name I can place, so I can't vouch for it either way. Ask for a registration number before paying.", VerdictUnknownToModel},
		{"I can't place the name", entVantle, nil, "vantle reviews",
			"Honestly, I can't place the name Vantle. Check independent reviews before you sign up.", VerdictUnknownToModel},
		{"placing an order is no ignorance", entVantle, nil, "vantle ordering problems",
			"I can't place an order on Vantle's site either: the checkout button stays grey after the address step.", VerdictMentioned},
	})
}

// A full name with a middle name ("Hans Christian Ørsted") or after a
// person's calling ("the Danish physicist …") is a person's: a brand that
// shares the surname is not mentioned by it.
func TestClassPersonFullName(t *testing.T) {
	entVolta := Entity{Name: "Voltaro", Domains: []string{"voltaro.com"}}
	runVerdictCases(t, []verdictCase{
		{"a middle name that is a word", entVolta, nil, "who invented the battery",
			"The first battery was built in 1800 by **Ottavia Grace Voltaro**, who stacked zinc and copper discs.", VerdictOrdinaryWord},
		{"a calling before the full name", entVolta, nil, "history of the electric battery",
			"In 1800 the Italian physicist Lorenzo Voltaro stacked zinc and copper discs into the first battery.", VerdictOrdinaryWord},
		{"the company itself", entVolta, nil, "voltaro home battery review",
			"Voltaro's home battery stores 13 kWh and its app shows live solar charging.", VerdictMentioned},
	})
}

// In a German answer a capitalised word after an article and an adjective
// ("eine gut gedengelte Sense muss") is a German common noun: its capital
// says nothing, and the answer's other capitals of it without a cue lean
// to the noun. A brand after a bare article, before its product noun,
// stays the brand's.
func TestClassGermanNoun(t *testing.T) {
	entHammer := Entity{Name: "Hammer", Domains: []string{"hammer.de"}}
	entRing := Entity{Name: "Ring", Domains: []string{"ring.com"}}
	runVerdictCases(t, []verdictCase{
		{"a German noun after an article and an adjective", entHammer, nil, "Hammer Stiel wechseln",
			"**Hammer Stiel wechseln – so geht's:**\n\n1. Den alten Stiel heraussägen.\n2. Einen neuen Stiel einschlagen und verkeilen.\n\nEin gut verkeilter Hammer hält viele Jahre.", VerdictOrdinaryWord},
		{"a brand before its product noun", entRing, nil, "Ring Türklingel Test",
			"Die Ring Video Doorbell 4 nimmt in 1080p auf und meldet Besucher per App. Ring verlangt für gespeicherte Videos ein Abo.", VerdictMentioned},
	})
}

// The clause after a colon, a semicolon or a dash that calls the subject
// "the chain", "the U.S. airline" or "this Dutch bank" goes on about a
// company, as the next sentence's "The company" does; an initialism before
// a lower-case word ("the U.S. chain") ends no sentence.
func TestClassCompanyAnaphoraInClause(t *testing.T) {
	entBeacon := Entity{Name: "Beacon", Domains: []string{"beacon.com"}}
	entHarvest := Entity{Name: "Harvest", Domains: []string{"harvest.co.uk"}}
	runVerdictCases(t, []verdictCase{
		{"the U.S. chain after a colon", entBeacon, nil, "where to buy paint near me beacon",
			"**Beacon** has been shutting branches: the U.S. chain ran 600 stores in 2015 and fewer than 400 now.", VerdictMentioned},
		{"the British chain after a dash", entHarvest, nil, "harvest sunday hours",
			"Harvest keeps shorter hours on Sundays — the British chain opens most branches at ten.", VerdictMentioned},
		{"a field after a colon", entHarvest, nil, "when is the harvest season for apples",
			"Harvest in August: the orchard picks early kinds first and keepers in October.", VerdictOrdinaryWord},
	})
}

// "X is a safe bet", "X is a good starting point": a recommendation's
// definition, a product's unless the query uses the word as a word.
func TestClassRecommendationFrames(t *testing.T) {
	entCompass := Entity{Name: "Compass", Domains: []string{"compass.travel"}}
	runVerdictCases(t, []verdictCase{
		{"a good starting point", entCompass, nil, "quiet campsites in wales",
			"Compass is a good starting point if you want a campsite with a shop. Pitches are level and the showers are hot.", VerdictMentioned},
		{"a safe bet", entCompass, nil, "campsites in wales for families",
			"Compass is a safe bet for families, with a heated pool and a small playground.", VerdictMentioned},
		{"the word the query asks about", entCompass, nil, "moral compass meaning",
			"A moral compass is your inner sense of right and wrong.\n\nCompass is a good starting point for explaining it to children, who know that a needle points north.", VerdictOrdinaryWord},
	})
}

// A query that writes a name without its punctuation ("kuehne nagel" for
// "Kuehne+Nagel") names it: two names compared ask about products, so an
// ordinary-word rival beside a natural noun ("ocean freight") stays a
// rival, not a namesake of the kind.
func TestClassQueryNameWithoutPunctuation(t *testing.T) {
	brand := Entity{Name: "Berg+Sohn", Aliases: []string{"Berg + Sohn"}, Domains: []string{"bergsohn.com"}}
	runCompetitorCases(t, []competitorCase{
		{"a rival compared by a query that drops the plus", brand, []Entity{{Name: "Delta", Domains: []string{"deltaline.com"}}},
			"berg sohn vs delta for river freight",
			"- **Berg+Sohn** – strong on barge capacity along the Rhine.\n- **Delta** – cheaper for small loads, slower to quote.", "Delta", true},
	})
	if !looseName("kuehne nagel vs dsv", "kuehne+nagel") || !looseName("j crew sale", "j.crew") || looseName("kuehne and nagel", "kuehne+nagel") ||
		looseName("kuehne nagel", "kuehne nagel") {
		t.Error("looseName: a name's words in a row, without its punctuation")
	}
}

// What only an organisation does or undergoes — founded, headquartered,
// acquired, went public, shut down — is a second predicate of a company;
// a word defined as a word ("X is a strong word") is the word itself.
func TestClassCompanyFactsAndWordNouns(t *testing.T) {
	entDash := Entity{Name: "Dash", Domains: []string{"dash.ee"}}
	entFlourish := Entity{Name: "Flourish", Domains: []string{"flourish.com"}}
	runVerdictCases(t, []verdictCase{
		{"founded, after a colon", entDash, nil, "getting from riga airport to the old town",
			"Bus 22 runs every 15 minutes, and ride apps work well: Dash was founded in Latvia and has the most cars at the airport.", VerdictMentioned},
		{"went public", entDash, nil, "is it worth learning latvian before a trip",
			"A few phrases go a long way, though most people in Riga speak English. Dash went public last year and its app has an English menu too, which helps with taxis.", VerdictMentioned},
		{"a word defined as a word", entFlourish, nil, "best app to help a shy child open up",
			"No app replaces low-pressure time one-on-one.\n\nFlourish is the right word for what you want, and it takes months, not a subscription.", VerdictOrdinaryWord},
		{"founded as a city is", Entity{Name: "Harbour", Domains: []string{"harbour.io"}}, nil, "history of the old harbour in genoa",
			"The old harbour was rebuilt for the 1992 Expo. Harbour walls from the Middle Ages still stand near the aquarium.", VerdictOrdinaryWord},
	})
}

// Declining to give "a reliable, current review of X" is ignorance of X,
// as "can't describe X reliably" is; a hedge on one aspect followed by
// facts stays a mention.
func TestClassIgnoranceQualifiedObject(t *testing.T) {
	entTally := Entity{Name: "Tallyho", Domains: []string{"tallyho.io"}}
	runVerdictCases(t, []verdictCase{
		{"a reliable, current review declined", entTally, nil, "tallyho invoicing review",
			"I'm not able to give a reliable, current review of Tallyho's invoicing. My information may be out of date, so check recent reviews before you commit.", VerdictUnknownToModel},
		{"an accurate figure declined", entTally, nil, "tallyho user count",
			"I can't give an accurate figure for Tallyho's active users. Public estimates vary widely.", VerdictUnknownToModel},
		{"a hedge on prices, then facts", entTally, nil, "tallyho pricing",
			"My information on Tallyho's pricing may be out of date. The last plans I know of were Free for one user and Team at $9 per user a month, with recurring invoices on Team.", VerdictMentioned},
	})
}

// A query's phrase whose noun is a product's ("current account") is the
// phrase, not the brand's product line, when the answer writes it in lower
// case ("a current account"): its capitalised start ("Current accounts
// come with …") is the phrase too, and the phrase's noun is no cue.
func TestClassQueryPhraseWithProductNoun(t *testing.T) {
	entCurrent := Entity{Name: "Current", Domains: []string{"current.com"}}
	entZoom := Entity{Name: "Zoom", Domains: []string{"zoom.us"}}
	runVerdictCases(t, []verdictCase{
		{"the phrase in lower case, then at a start", entCurrent, nil, "current account vs savings account",
			"A **current account** is for everyday spending. A **savings account** pays interest.\n\nCurrent accounts in the UK often come with an overdraft; savings accounts don't.", VerdictOrdinaryWord},
		{"the brand's product noun, capitalised", entZoom, nil, "how to record a zoom call",
			"Zoom calls can be recorded by the host: click **Record** in the meeting controls. Zoom saves the file when the call ends.", VerdictMentioned},
	})
}

// A phrase its owner writes in lower case ("one sec", "hey pal"), as the
// subject of a verb with an object, is the name — the phrase itself takes
// no verb; the phrase in its ordinary use stays a phrase.
func TestClassLowerStyledPhraseSubject(t *testing.T) {
	brand := Entity{Name: "Focusly", Domains: []string{"focusly.app"}}
	pause := Entity{Name: "Just Wait", Aliases: []string{"just wait"}, Domains: []string{"justwait.app"}}
	runCompetitorCases(t, []competitorCase{
		{"a tip whose subject is the lower-case name", brand, []Entity{pause}, "how to stop doomscrolling",
			"1. **Move the apps**: bury them in a folder.\n2. **Add friction**: just wait shows a breathing prompt before the app opens.", "Just Wait", true},
		{"the phrase in its ordinary use", brand, []Entity{pause}, "how to stop doomscrolling",
			"When the urge hits, just wait ten seconds and ask whether you meant to open the app.", "Just Wait", false},
	})
}

// A capital that opens a quotation going on in lower case ("the message
// \"Fatal error in launcher\"") is the quotation's first letter, no
// name's; a quoted name alone stays a capital.
func TestClassQuotedPhraseCapital(t *testing.T) {
	entFatal := Entity{Name: "Fatal", Domains: []string{"fatal.io"}}
	entBeacon := Entity{Name: "Beacon", Domains: []string{"beacon.io"}}
	runVerdictCases(t, []verdictCase{
		{"a quoted error message", entFatal, nil, "fatal error in launcher pip",
			"The message **\"Fatal error in launcher\"** means pip points at a Python that was moved or removed. Reinstall pip with `python -m pip install --upgrade pip`.", VerdictOrdinaryWord},
		{"a quoted sign", entBeacon, nil, "what to write on a lighthouse sign",
			"Keep it short: a sign reading “Beacon of the north coast, lit 1874” says enough. Add the keeper's name below if you know it.", VerdictOrdinaryWord},
		{"a quoted name", entBeacon, nil, "status page tools",
			"Most teams pick “Beacon” or Statuspage; Beacon's free plan covers one page with email alerts.", VerdictMentioned},
	})
}

// A hedge before the name ("I haven't seen much coverage of X"), followed
// by a turn to what it is or does ("but it's a filing app that imports
// 1099s"), limits one claim: the sentence speaks of a known product. A
// hedge followed by a guess stays ignorance.
func TestClassHedgeThenDefinition(t *testing.T) {
	entQuire := Entity{Name: "Quire", Domains: []string{"quire.tax"}}
	runVerdictCases(t, []verdictCase{
		{"a hedge, then what it is", entQuire, nil, "quire tax app review",
			"I haven't seen much independent coverage of Quire, but it's a mobile filing app for freelancers with a flat $49 fee.", VerdictMentioned},
		{"a hedge, then what it does", entQuire, nil, "quire tax app review",
			"There's little independent information on Quire, but it imports 1099s from the major platforms and files both federal and state returns.", VerdictMentioned},
		{"a hedge, then a guess", entQuire, nil, "quire tax app review",
			"I don't have reliable information on Quire, but it's probably a small startup, so check it before sharing your SSN.", VerdictUnknownToModel},
	})
}

// In an English answer a name no word list holds, written in lower case
// ("use venmo or Zelle", "monzo doesn't charge"), is the name written
// casually; after an article it is a loanword's noun ("a boulangerie"), and
// in another language's answer that language's word.
func TestClassCasualLowerName(t *testing.T) {
	entPaylo := Entity{Name: "Paylo", Domains: []string{"paylo.com"}}
	entKrona := Entity{Name: "Kronbo", Domains: []string{"kronbo.se"}}
	runVerdictCases(t, []verdictCase{
		{"a name written in lower case beside a capitalised one", entPaylo, []Entity{{Name: "Splitwise"}}, "how to split rent with roommates",
			"Agree on a due date two days before rent is due. Most roommates just use paylo or Zelle for the transfer. Splitwise keeps a running tally if bills vary.", VerdictMentioned},
		{"a name written in lower case as a subject", entKrona, []Entity{{Name: "Revolut"}}, "kronbo vs revolut abroad",
			"Both work abroad. kronbo doesn't charge for card payments in other currencies, while Revolut's free plan caps weekend exchange.", VerdictMentioned},
		{"a loanword after an article", entKrona, nil, "what to eat in stockholm",
			"Try a kronbo — a cardamom bun sold in every café — with a coffee in the afternoon.", VerdictOrdinaryWord},
	})
}

// "it" or "which" later in the name's sentence that undergoes an
// organisation's event ("…, but it shut down in 2022", "…, which was
// acquired by …") speaks of a company.
func TestClassPronounCompanyFact(t *testing.T) {
	entSwift := Entity{Name: "Swiftly", Domains: []string{"swiftly.dev"}}
	entSpark := Entity{Name: "Sparrow", Domains: []string{"sparrowmail.com"}}
	runVerdictCases(t, []verdictCase{
		{"but it shut down", entSwift, nil, "offline code completion",
			"Local options are Tabby and Continue with a local model.\n\nSwiftly used to do this, but it shut down in 2022.", VerdictMentioned},
		{"which was acquired", entSpark, nil, "minimal mail client for mac",
			"Mimestream is the closest to the old minimal clients.\n\nSparrow, which was acquired by Google in 2012, set the style most of them copy.", VerdictMentioned},
		{"a bird that was not", entSpark, nil, "small brown birds in the garden",
			"Sparrow numbers fell sharply in cities, but it is still the commonest garden bird in many towns.", VerdictOrdinaryWord},
	})
}

// A predicate any noun takes is no product's: "comes" without what a
// product comes with or in ("dusk comes at nine"), and "have" after a
// plural word ("chestnuts have a spiny husk"), where a company has.
func TestClassCommonNounPredicate(t *testing.T) {
	entDusk := Entity{Name: "Dusk", Domains: []string{"dusk.app"}}
	entChestnuts := Entity{Name: "Chestnuts", Domains: []string{"chestnuts.com"}}
	runVerdictCases(t, []verdictCase{
		{"the evening comes", entDusk, nil, "best sunset walks in lisbon",
			"Try the Graça viewpoint or the riverside path to Belém.\n\nDusk comes around nine in June, so the viewpoints fill up early.", VerdictOrdinaryWord},
		{"a product comes with things", entDusk, nil, "dusk app review",
			"Dusk comes with a free plan, and the paid tier syncs your notes across devices.", VerdictMentioned},
		{"the plural noun's verb", entChestnuts, nil, "can dogs eat chestnuts",
			"Sweet ones are safe in small amounts, cooked and peeled. Chestnuts have a spiny husk and a tough skin, so never give them whole.", VerdictOrdinaryWord},
		{"a company has", entChestnuts, nil, "chestnuts savings app review",
			"Chestnuts has a round-up feature that moves spare change into a savings pot each week.", VerdictMentioned},
	})
}

// Class: a name of several words written with a later word in lower case
// where every form of the brand capitalises it ("The north face of the
// Eiger", "Cold turkey works") keeps only the sentence's capital: the
// words, not the brand. A form that writes the word in lower case itself
// ("Bank of America") is unaffected.
func TestClassLoweredName(t *testing.T) {
	tnf := Entity{Name: "The North Face", Aliases: []string{"North Face", "TNF"}, Domains: []string{"thenorthface.com"}}
	turkey := Entity{Name: "Cold Turkey", Aliases: []string{"Cold Turkey Blocker"}, Domains: []string{"getcoldturkey.com"}}
	bofa := Entity{Name: "Bank of America", Domains: []string{"bankofamerica.com"}}
	runVerdictCases(t, []verdictCase{
		{"a mountain's face", tnf, nil, "how hard is it to climb the eiger",
			"The north face of the Eiger is one of the most dangerous walls in the Alps.", VerdictOrdinaryWord},
		{"a heading's face", tnf, nil, "eiger routes",
			"**The north face (Nordwand)** – rockfall, ice fields and fast-changing weather.", VerdictOrdinaryWord},
		{"the brand", tnf, nil, "warm jackets for hiking",
			"The North Face makes warm, packable jackets for hiking.", VerdictMentioned},
		{"an idiom at a sentence start", turkey, nil, "how to quit social media",
			"Cold turkey works for some people, but most do better cutting down slowly.", VerdictOrdinaryWord},
		{"the blocker", turkey, nil, "website blocker for mac",
			"Cold Turkey blocks sites and apps on a schedule, and its locked mode can't be undone.", VerdictMentioned},
		{"its own lower-case word", bofa, nil, "bank fees",
			"Bank of America waives the monthly fee with a $1,500 balance.", VerdictMentioned},
	})
}
