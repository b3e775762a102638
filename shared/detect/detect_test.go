package detect

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"
)

// Entities shared by the detection cases.
var (
	acme      = Entity{Name: "Acme", Aliases: []string{"Acme CRM", "AcmeHQ"}, Domains: []string{"https://www.acme.com/"}}
	beta      = Entity{Name: "Betaflow", Aliases: []string{"Beta Flow"}, Domains: []string{"betaflow.io"}}
	gamma     = Entity{Name: "Gammaly", Domains: []string{"gammaly.com"}}
	monday    = Entity{Name: "Monday.com", Aliases: []string{"Monday"}, Domains: []string{"monday.com"}}
	slack     = Entity{Name: "Slack", Domains: []string{"slack.com"}}
	apple     = Entity{Name: "Apple", Domains: []string{"apple.com"}}
	notion    = Entity{Name: "Notion", Domains: []string{"notion.so"}}
	youcom    = Entity{Name: "You.com", Aliases: []string{"You"}, Domains: []string{"you.com"}}
	cafe      = Entity{Name: "Café Zoë"}
	cafeplain = Entity{Name: "Cafe Zoe"}
	yandex    = Entity{Name: "Яндекс", Aliases: []string{"Yandex"}, Domains: []string{"yandex.ru"}}
	mercari   = Entity{Name: "メルカリ", Aliases: []string{"Mercari"}}
	asana     = Entity{Name: "Asana"}
	trello    = Entity{Name: "Trello"}
	zoom      = Entity{Name: "Zoom", Domains: []string{"zoom.us"}}
	linear    = Entity{Name: "Linear", Domains: []string{"linear.app"}}
	box       = Entity{Name: "Box", Domains: []string{"box.com"}}
	x         = Entity{Name: "X", Domains: []string{"x.com"}}
)

// span is an expected mention: code-point start and surface form.
type span struct {
	start int
	text  string
}

type compWant struct {
	count, rank int
	senti       Sentiment
	unknown     bool
}

type tri int

const (
	dontCare tri = iota
	yes
	no
)

type detectCase struct {
	name    string
	brand   Entity
	comps   []Entity
	text    string
	cits    []Citation
	verdict Verdict
	count   int
	spans   []span // the brand's counted mentions, in order
	rank    int    // checked when non-zero
	senti   Sentiment
	cited   tri
	kind    MatchKind // kind of the first counted mention, when set
	// unknownMention: the brand has a mention flagged Unknown.
	unknownMention bool
	disc           []string // checked when non-nil
	comp           map[int]compWant
	// query, when set, runs the case through Analyze with it.
	query string
	// negEvidence, when set, must occur in Result.NegativeEvidence.
	negEvidence string
	// ambiguous, when set, is the expected Result.Ambiguous.
	ambiguous tri
}

var detectCases = []detectCase{
	{
		name: "plain single mention", brand: acme, comps: nil,
		text:    "Acme is a CRM for small teams.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "Acme"}},
		rank: 1, kind: KindName,
	},
	{
		name: "plain two mentions", brand: acme, comps: nil,
		text:    "Acme helps sales teams. Many reviewers like Acme.",
		verdict: VerdictMentioned, count: 2, spans: []span{{0, "Acme"}, {44, "Acme"}},
	},
	{
		name: "absent", brand: acme, comps: nil,
		text:    "HubSpot and Salesforce are the usual picks.",
		verdict: VerdictNotMentioned, count: 0, spans: []span{},
	},
	{
		name: "alias multiword", brand: acme, comps: nil,
		text:    "Acme CRM has a free tier.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "Acme CRM"}},
		kind: KindAlias,
	},
	{
		name: "alias compact", brand: acme, comps: nil,
		text:    "Teams on AcmeHQ report faster onboarding.",
		verdict: VerdictMentioned, count: 1, spans: []span{{9, "AcmeHQ"}},
		kind: KindAlias,
	},
	{
		name: "domain in text", brand: acme, comps: nil,
		text:    "Pricing is listed on acme.com for every plan.",
		verdict: VerdictMentioned, count: 1, spans: []span{{21, "acme.com"}},
		cited: yes, kind: KindDomain,
	},
	{
		// A host on the domain is an address, like a URL (class 4).
		name: "subdomain in text", brand: acme, comps: nil,
		text:    "See docs.acme.com/api for the reference.",
		verdict: VerdictCitedOnly, count: 0, spans: []span{}, cited: yes,
	},
	{
		name: "email domain", brand: acme, comps: nil,
		text:    "Write to sales@acme.com for a quote.",
		verdict: VerdictMentioned, count: 1, spans: []span{{15, "acme.com"}},
	},
	{
		name: "lookalike domains", brand: acme, comps: nil,
		text:    "Deals at notacme.com, my-acme.com and acme.com.evil.net are scams.",
		verdict: VerdictNotMentioned, count: 0, spans: []span{},
	},
	{
		name: "possessive", brand: notion, comps: nil,
		text:    "Notion's databases are flexible.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "Notion"}},
	},
	{
		name: "possessive typographic", brand: notion, comps: nil,
		text:    "We like Notion’s API and its templates.",
		verdict: VerdictMentioned, count: 1, spans: []span{{8, "Notion"}},
	},
	{
		name: "upper case", brand: acme, comps: nil,
		text:    "ACME is listed first by most analysts.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "ACME"}},
	},
	{
		name: "lower case", brand: acme, comps: nil,
		text:    "we moved everything to acme last year.",
		verdict: VerdictMentioned, count: 1, spans: []span{{23, "acme"}},
	},
	{
		name: "folded diacritics in text", brand: cafe, comps: nil,
		text:    "We met at Cafe Zoe downtown.",
		verdict: VerdictMentioned, count: 1, spans: []span{{10, "Cafe Zoe"}},
	},
	{
		name: "upper diacritics possessive", brand: cafe, comps: nil,
		text:    "CAFÉ ZOË’s espresso is excellent.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "CAFÉ ZOË"}},
		senti: Positive,
	},
	{
		name: "decomposed diacritics", brand: cafe, comps: nil,
		text:    "Try Café Zoë today.",
		verdict: VerdictMentioned, count: 1, spans: []span{{4, "Café Zoë"}},
	},
	{
		name: "diacritics missing in config", brand: cafeplain, comps: nil,
		text:    "Breakfast at Café Zoë is popular.",
		verdict: VerdictMentioned, count: 1, spans: []span{{13, "Café Zoë"}},
	},
	{
		name: "monday morning", brand: monday, comps: nil,
		text:    "Let's meet on Monday morning to review the plan.",
		verdict: VerdictOrdinaryWord, count: 0, spans: []span{},
	},
	{
		name: "monday every", brand: monday, comps: nil,
		text:    "Every Monday we publish a report.",
		verdict: VerdictOrdinaryWord, count: 0, spans: []span{},
	},
	{
		name: "monday.com name", brand: monday, comps: nil,
		text:    "Monday.com is a work management platform.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "Monday.com"}}, ambiguous: no,
		kind: KindName,
	},
	{
		name: "monday app cue", brand: monday, comps: nil,
		text:    "Many teams plan sprints in the Monday app.",
		verdict: VerdictMentioned, count: 1, spans: []span{{31, "Monday"}},
	},
	{
		name: "monday domain cited", brand: monday, comps: nil,
		text:    "Monday is a favourite for project tracking.",
		cits:    []Citation{{URL: "https://monday.com/features", Title: "Features"}},
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "Monday"}},
		cited: yes,
	},
	{
		name: "monday enumerated", brand: monday, comps: []Entity{asana, trello},
		text:    "Top tools: Asana, Monday, and Trello.",
		verdict: VerdictMentioned, count: 1, spans: []span{{18, "Monday"}},
		disc: []string{}, comp: map[int]compWant{1: {count: 1, rank: 3}},
	},
	{
		name: "slack brand", brand: slack, comps: nil,
		text:    "Our team uses Slack for chat.",
		verdict: VerdictMentioned, count: 1, spans: []span{{14, "Slack"}},
	},
	{
		name: "slack in the rope", brand: slack, comps: nil,
		text:    "There is some slack in the rope.",
		verdict: VerdictOrdinaryWord, count: 0, spans: []span{},
	},
	{
		name: "slack sentence start without cue", brand: slack, comps: nil,
		text:    "Slack is what we left in the schedule.",
		verdict: VerdictOrdinaryWord, count: 0, spans: []span{},
	},
	{
		name: "slack sentence start with cue", brand: slack, comps: nil,
		text:    "Slack integrations cover most tools.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "Slack"}},
	},
	{
		name: "apple pie", brand: apple, comps: nil,
		text:    "Apple pie is a classic dessert.",
		verdict: VerdictOrdinaryWord, count: 0, spans: []span{},
	},
	{
		name: "apple lower", brand: apple, comps: nil,
		text:    "I baked an apple pie on Sunday.",
		verdict: VerdictOrdinaryWord, count: 0, spans: []span{},
	},
	{
		name: "apple company", brand: apple, comps: nil,
		text:    "The iPhone is designed by Apple Inc. in California.",
		verdict: VerdictMentioned, count: 1, spans: []span{{26, "Apple"}},
	},
	{
		name: "you as pronoun", brand: youcom, comps: nil,
		text:    "Thank you for asking! You can try several search engines.",
		verdict: VerdictOrdinaryWord, count: 0, spans: []span{},
	},
	{
		name: "you.com domain", brand: youcom, comps: nil,
		text:    "For private AI search, try you.com or Perplexity.",
		verdict: VerdictMentioned, count: 1, spans: []span{{27, "you.com"}},
	},
	{
		name: "notion lowercase noun", brand: notion, comps: nil,
		text:    "She had a notion of how to fix it.",
		verdict: VerdictOrdinaryWord, count: 0, spans: []span{},
	},
	{
		name: "notion capitalised", brand: notion, comps: nil,
		text:    "Teams document processes in Notion and Confluence.",
		verdict: VerdictMentioned, count: 1, spans: []span{{28, "Notion"}},
	},
	{
		name: "substring suffix", brand: acme, comps: nil,
		text:    "Acmeology is an unrelated field.",
		verdict: VerdictNotMentioned, count: 0, spans: []span{},
	},
	{
		name: "substring prefix", brand: acme, comps: nil,
		text:    "MegaAcme sells anvils and the Acmes are coyotes.",
		verdict: VerdictNotMentioned, count: 0, spans: []span{},
	},
	{
		name: "hyphen boundary", brand: acme, comps: nil,
		text:    "Acme-powered dashboards load fast.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "Acme"}},
	},
	{
		name: "punctuation boundaries", brand: acme, comps: nil,
		text:    "(Acme), [Acme]; 'Acme'!",
		verdict: VerdictMentioned, count: 3, spans: []span{{1, "Acme"}, {9, "Acme"}, {17, "Acme"}},
	},
	{
		name: "brand at end of text", brand: acme, comps: nil,
		text:    "The best choice for you is Acme",
		verdict: VerdictMentioned, count: 1, spans: []span{{27, "Acme"}},
	},
	{
		name: "markdown bold", brand: acme, comps: nil,
		text:    "**Acme** leads the pack.",
		verdict: VerdictMentioned, count: 1, spans: []span{{2, "Acme"}},
	},
	{
		name: "markdown link", brand: acme, comps: nil,
		text:    "[Acme](https://acme.com) is a CRM.",
		verdict: VerdictMentioned, count: 1, spans: []span{{1, "Acme"}},
		cited: yes,
	},
	{
		name: "list with competitors ranked", brand: acme, comps: []Entity{beta, gamma},
		text:    "Top CRMs:\n1. Betaflow\n2. Acme\n3. Gammaly\n",
		verdict: VerdictMentioned, count: 1, spans: []span{{25, "Acme"}},
		rank: 2, comp: map[int]compWant{0: {count: 1, rank: 1}, 1: {count: 1, rank: 3}},
	},
	{
		name: "competitor before brand", brand: acme, comps: []Entity{beta, gamma},
		text:    "Gammaly is cheaper than Acme.",
		verdict: VerdictMentioned, count: 1, spans: []span{{24, "Acme"}},
		rank: 2, comp: map[int]compWant{0: {count: 0, rank: 0}, 1: {count: 1, rank: 1}},
	},
	{
		name: "brand first", brand: acme, comps: []Entity{beta, gamma},
		text:    "Acme beats Betaflow on price.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "Acme"}},
		rank: 1, comp: map[int]compWant{0: {count: 1, rank: 2}},
	},
	{
		name: "enumeration ranks", brand: acme, comps: []Entity{beta, gamma},
		text:    "Gammaly, Betaflow and Acme are all solid options.",
		verdict: VerdictMentioned, count: 1, spans: []span{{22, "Acme"}},
		rank: 3, comp: map[int]compWant{0: {count: 1, rank: 2}, 1: {count: 1, rank: 1}},
	},
	{
		name: "unknown no information", brand: acme, comps: nil,
		text:    "I don't have information about Acme.",
		verdict: VerdictUnknownToModel, count: 0, spans: []span{},
		unknownMention: true,
	},
	{
		name: "unknown not familiar", brand: acme, comps: nil,
		text:    "I'm not familiar with Acme.",
		verdict: VerdictUnknownToModel, count: 0, spans: []span{},
		unknownMention: true,
	},
	{
		name: "unknown typographic apostrophe", brand: acme, comps: nil,
		text:    "I’m not familiar with a company called Acme.",
		verdict: VerdictUnknownToModel, count: 0, spans: []span{},
		unknownMention: true,
	},
	{
		name: "unknown not a product I know", brand: acme, comps: nil,
		text:    "Acme is not a product I know.",
		verdict: VerdictUnknownToModel, count: 0, spans: []span{},
		unknownMention: true,
	},
	{
		name: "unknown no reliable information", brand: acme, comps: nil,
		text:    "There is no reliable information on Acme.",
		verdict: VerdictUnknownToModel, count: 0, spans: []span{},
		unknownMention: true,
	},
	{
		name: "unknown could not find", brand: acme, comps: nil,
		text:    "I couldn't find any information about Acme; it may be a new startup.",
		verdict: VerdictUnknownToModel, count: 0, spans: []span{},
		unknownMention: true,
	},
	{
		name: "unknown not well known", brand: acme, comps: nil,
		text:    "Acme doesn't appear to be a well-known product.",
		verdict: VerdictUnknownToModel, count: 0, spans: []span{},
		unknownMention: true,
	},
	{
		name: "unknown never heard", brand: acme, comps: nil,
		text:    "I've never heard of Acme.",
		verdict: VerdictUnknownToModel, count: 0, spans: []span{},
		unknownMention: true,
	},
	{
		name: "unknown then recommended", brand: acme, comps: nil,
		text:    "I'm not familiar with Acme specifically. However, based on its website, Acme is a CRM that many small teams recommend.",
		verdict: VerdictMentioned, count: 1, spans: []span{{72, "Acme"}},
		senti: Positive, unknownMention: true,
	},
	{
		name: "unknown about competitor only", brand: acme, comps: []Entity{beta, gamma},
		text:    "I don't have details on Betaflow, but Acme is a popular choice.",
		verdict: VerdictMentioned, count: 1, spans: []span{{38, "Acme"}},
		senti: Positive, comp: map[int]compWant{0: {count: 0, rank: 0, unknown: true}},
	},
	{
		name: "unknown about detail not entity", brand: acme, comps: nil,
		text:    "I don't have specific information about Acme's 2025 roadmap.",
		verdict: VerdictMentioned, count: 1, spans: []span{{40, "Acme"}},
	},
	{
		name: "unknown with citation", brand: acme, comps: nil,
		text:    "I have no information about Acme.",
		cits:    []Citation{{URL: "https://acme.com", Title: "Acme"}},
		verdict: VerdictUnknownToModel, count: 0, spans: []span{},
		cited: yes, unknownMention: true,
	},
	{
		name: "sentiment positive", brand: acme, comps: nil,
		text:    "Acme is excellent and easy to use.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "Acme"}},
		senti: Positive,
	},
	{
		name: "sentiment negative", brand: acme, comps: nil,
		text:    "Acme is slow and overpriced.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "Acme"}},
		senti: Negative,
	},
	{
		name: "sentiment mixed", brand: acme, comps: nil,
		text:    "Acme is powerful, but expensive.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "Acme"}},
		senti: Mixed,
	},
	{
		name: "negation not recommended", brand: acme, comps: nil,
		text:    "Acme is not recommended for large teams.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "Acme"}},
		senti: Negative,
	},
	{
		name: "negation isn't great", brand: acme, comps: nil,
		text:    "Acme isn't great at reporting.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "Acme"}},
		senti: Negative,
	},
	{
		name: "negation no issues", brand: acme, comps: nil,
		text:    "Acme has no issues with uptime.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "Acme"}},
		senti: Positive,
	},
	{
		name: "negation not only", brand: acme, comps: nil,
		text:    "Acme is not only fast but also reliable.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "Acme"}},
		senti: Positive,
	},
	{
		name: "sentiment scoped per clause", brand: acme, comps: []Entity{beta, gamma},
		text:    "Acme is great but Betaflow is slow.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "Acme"}},
		senti: Positive, comp: map[int]compWant{0: {count: 1, rank: 2, senti: Negative}},
	},
	{
		name: "cited only", brand: acme, comps: nil,
		text:    "Several CRMs fit small teams.",
		cits:    []Citation{{URL: "https://www.acme.com/blog/crm", Title: "CRM guide"}},
		verdict: VerdictCitedOnly, count: 0, spans: []span{},
		cited: yes,
	},
	{
		name: "subdomain citation", brand: acme, comps: nil,
		text:    "Acme is popular with agencies.",
		cits:    []Citation{{URL: "https://blog.acme.com/post", Title: "Post"}, {URL: "https://notacme.com/x", Title: "Other"}},
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "Acme"}},
		cited: yes,
	},
	{
		name: "lookalike citations", brand: acme, comps: nil,
		text:    "Several CRMs fit small teams.",
		cits:    []Citation{{URL: "https://acme.com.evil.net/x", Title: ""}, {URL: "notacme.com/page", Title: ""}},
		verdict: VerdictNotMentioned, count: 0, spans: []span{},
		cited: no,
	},
	{
		name: "an alias that is the domain, in a sources line", brand: Entity{Name: "Acme", Aliases: []string{"Acme.com"}, Domains: []string{"acme.com"}},
		text:    "Most shops give you a month to send it back.\n\nSources: https://www.acme.com/help/returns",
		verdict: VerdictCitedOnly, count: 0, spans: []span{},
		cited: yes,
	},
	{
		name: "link target only", brand: acme, comps: nil,
		text:    "Read the [guide](https://acme.com/guide) first.",
		verdict: VerdictCitedOnly, count: 0, spans: []span{},
		cited: yes,
	},
	{
		name: "cyrillic", brand: yandex, comps: nil,
		text:    "Для поиска подойдёт Яндекс или Google.",
		verdict: VerdictMentioned, count: 1, spans: []span{{20, "Яндекс"}},
	},
	{
		name: "cyrillic case folded", brand: yandex, comps: nil,
		text:    "ЯНДЕКС и яндекс — одно и то же.",
		verdict: VerdictMentioned, count: 2, spans: []span{{0, "ЯНДЕКС"}, {9, "яндекс"}},
	},
	{
		name: "japanese", brand: mercari, comps: nil,
		text:    "日本ではメルカリが人気です。",
		verdict: VerdictMentioned, count: 1, spans: []span{{4, "メルカリ"}},
	},
	{
		name: "japanese alias latin", brand: mercari, comps: nil,
		text:    "Mercari is a marketplace app in Japan.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "Mercari"}},
	},
	{
		name: "emoji around", brand: acme, comps: nil,
		text:    "🚀Acme🚀 is trending 🔥",
		verdict: VerdictMentioned, count: 1, spans: []span{{1, "Acme"}},
	},
	{
		name: "emoji zwj sequence", brand: acme, comps: nil,
		text:    "👩‍💻 Acme for developers",
		verdict: VerdictMentioned, count: 1, spans: []span{{4, "Acme"}},
	},
	{
		name: "empty text", brand: acme, comps: nil,
		text:    "",
		verdict: VerdictNotMentioned, count: 0, spans: []span{},
	},
	{
		name: "whitespace only", brand: acme, comps: nil,
		text:    "   \n\n  \t",
		verdict: VerdictNotMentioned, count: 0, spans: []span{},
	},
	{
		name: "discovered from list", brand: acme, comps: nil,
		text:    "Best CRMs for startups:\n\n1. **Acme** – simple pipeline\n2. **HubSpot** – free tier\n3. **Pipedrive** – sales focus\n",
		verdict: VerdictMentioned, count: 1, spans: []span{{30, "Acme"}},
		disc: []string{"HubSpot", "Pipedrive"},
	},
	{
		name: "discovered from enumeration", brand: acme, comps: nil,
		text:    "Popular choices include Acme, HubSpot, Zoho CRM and Pipedrive.",
		verdict: VerdictMentioned, count: 1, spans: []span{{24, "Acme"}},
		disc: []string{"HubSpot", "Zoho CRM", "Pipedrive"},
	},
	{
		name: "discovered skips stop words", brand: acme, comps: []Entity{beta, gamma},
		text:    "Overall, Acme and Betaflow are solid. However, Trello is different.",
		verdict: VerdictMentioned, count: 1, spans: []span{{9, "Acme"}},
		disc: []string{},
	},
	{
		name: "no discovery without tracked", brand: acme, comps: nil,
		text:    "Try HubSpot, Zoho and Pipedrive.",
		verdict: VerdictNotMentioned, count: 0, spans: []span{},
		disc: []string{},
	},
	{
		name: "common words enumerated", brand: slack, comps: []Entity{{Name: "Zoom"}, {Name: "Loom"}},
		text:    "Zoom, Slack and Loom are staples for remote teams.",
		verdict: VerdictMentioned, count: 1, spans: []span{{6, "Slack"}},
		rank: 2, comp: map[int]compWant{0: {count: 1, rank: 1}, 1: {count: 1, rank: 3}},
	},
	{
		name: "zoom in", brand: zoom, comps: nil,
		text:    "Zoom in on the chart to see details.",
		verdict: VerdictOrdinaryWord, count: 0, spans: []span{},
	},
	{
		name: "linear adjective", brand: linear, comps: nil,
		text:    "The relationship is linear in x.",
		verdict: VerdictOrdinaryWord, count: 0, spans: []span{},
	},
	{
		name: "linear defined as product", brand: linear, comps: nil,
		text:    "Linear is a project tracking tool for software teams.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "Linear"}},
	},
	{
		name: "box defined as platform", brand: box, comps: nil,
		text:    "Box is a cloud storage platform for enterprises.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "Box"}},
	},
	{
		name: "box noun", brand: box, comps: nil,
		text:    "Put the old books in a box.",
		verdict: VerdictOrdinaryWord, count: 0, spans: []span{},
	},
	{
		name: "short name as letter", brand: x, comps: nil,
		text:    "Multiply 2 x 3 to get 6.",
		verdict: VerdictOrdinaryWord, count: 0, spans: []span{},
	},
	{
		name: "short name capitalised", brand: x, comps: nil,
		text:    "Brands post updates on X daily.",
		verdict: VerdictMentioned, count: 1, spans: []span{{23, "X"}},
	},
	{
		name: "calendar word for competitor", brand: acme, comps: []Entity{monday},
		text:    "Acme ships updates on Monday.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "Acme"}},
		comp: map[int]compWant{0: {count: 0, rank: 0}},
	},
	{
		name: "heading and body", brand: acme, comps: []Entity{beta, gamma},
		text:    "## Acme vs Betaflow\nAcme wins on price.",
		verdict: VerdictMentioned, count: 2, spans: []span{{3, "Acme"}, {20, "Acme"}},
		rank: 1,
	},
	{
		name: "shared alias counts for both", brand: Entity{Name: "Acme", Aliases: []string{"AcmeFlow"}}, comps: []Entity{{Name: "Flowly", Aliases: []string{"AcmeFlow"}}},
		text:    "AcmeFlow is used by both communities.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "AcmeFlow"}},
		comp: map[int]compWant{0: {count: 1, rank: 2}},
	},
	{
		name: "name in a URL path is not a mention", brand: acme, comps: nil,
		text:    "Compare reviews on https://www.g2.com/products/acme/reviews before buying.",
		verdict: VerdictNotMentioned, count: 0, spans: []span{},
	},
	{
		name: "common-word brand as link anchor", brand: notion, comps: nil,
		text:    "[Notion](https://notion.so) keeps wikis tidy.",
		verdict: VerdictMentioned, count: 1, spans: []span{{1, "Notion"}},
		cited: yes,
	},
	{
		name: "shared form ranks by input order", brand: Entity{Name: "Zeta", Aliases: []string{"ZetaSuite"}},
		comps:   []Entity{{Name: "Omega", Aliases: []string{"ZetaSuite"}}},
		text:    "ZetaSuite bundles both.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "ZetaSuite"}}, rank: 1,
		comp: map[int]compWant{0: {count: 1, rank: 2}},
	},
	{
		name: "clause-final name is not enumerated", brand: acme, comps: nil,
		text:    "If you already live in Google Workspace, Acme and HubSpot integrate well.",
		verdict: VerdictMentioned, count: 1, spans: []span{{41, "Acme"}},
		disc: []string{"HubSpot"},
	},

	// Class 1: statements of ignorance in other words.
	{
		name: "ignorance: not able to find reliable details", brand: acme, comps: nil,
		text:    "I'm not able to find reliable details on Acme, so I can't say what it offers.",
		verdict: VerdictUnknownToModel, count: 0, spans: []span{}, unknownMention: true,
	},
	{
		name: "ignorance: no specific current information about a product called", brand: acme, comps: nil,
		text:    "I don't have specific, current information about a product called Acme.",
		verdict: VerdictUnknownToModel, count: 0, spans: []span{}, unknownMention: true,
	},
	{
		name: "ignorance: not enough reliable information available to me", brand: acme, comps: nil,
		text:    "There isn't enough reliable information available to me about Acme to recommend it.",
		verdict: VerdictUnknownToModel, count: 0, spans: []span{}, unknownMention: true,
	},
	{
		name: "ignorance: not a widely known tool", brand: acme, comps: nil,
		text:    "Acme doesn't appear to be a widely known tool.",
		verdict: VerdictUnknownToModel, count: 0, spans: []span{}, unknownMention: true,
	},
	{
		name: "ignorance: cannot describe reliably", brand: acme, comps: nil,
		text:    "I can't describe Acme reliably.",
		verdict: VerdictUnknownToModel, count: 0, spans: []span{}, unknownMention: true,
	},
	{
		name: "ignorance: governed by the next sentence", brand: acme, comps: []Entity{beta},
		text:    "You asked about Acme. Unfortunately I wasn't able to find anything trustworthy on it.\n\nBetaflow is a well-known alternative.",
		verdict: VerdictUnknownToModel, count: 0, spans: []span{}, unknownMention: true,
		comp: map[int]compWant{0: {count: 1, rank: 1}},
	},
	{
		name: "ignorance: echo and hedge only", brand: acme, comps: nil,
		text:    "Details about Acme are scarce in my sources. It may be a new startup; if Acme is a CRM, compare it with HubSpot.",
		verdict: VerdictUnknownToModel, count: 0, spans: []span{}, unknownMention: true,
	},
	{
		name: "ignorance: generic possessive is about the brand", brand: acme, comps: nil,
		text:    "I don't have trustworthy details about Acme's features.",
		verdict: VerdictUnknownToModel, count: 0, spans: []span{}, unknownMention: true,
	},
	{
		name: "ignorance: a positive statement elsewhere wins", brand: acme, comps: nil,
		text:    "I couldn't find much documentation on Acme. What is known is that Acme is a CRM for agencies that reviewers praise.",
		verdict: VerdictMentioned, count: 1, spans: []span{{66, "Acme"}}, unknownMention: true, senti: Positive,
	},
	{
		name: "ignorance: knowledge of the user is no ignorance", brand: acme, comps: nil,
		text:    "Acme doesn't require any knowledge of SQL, and you don't need to know how to code.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "Acme"}},
	},
	{
		name: "ignorance: German, said with certainty", brand: acme, comps: nil,
		text:    "Wer Acme heute leitet, kann ich nicht mit Gewissheit sagen.",
		verdict: VerdictUnknownToModel, count: 0, spans: []span{},
		unknownMention: true,
	},
	{
		name: "ignorance: a negation in the name's own predicate", brand: acme, comps: nil,
		text:    "On my latest information, Acme charged sellers nothing to list their stock.",
		verdict: VerdictMentioned, count: 1, spans: []span{{26, "Acme"}},
	},
	{
		name: "ignorance: not known for is a product statement", brand: acme, comps: nil,
		text:    "Acme is not known for its speed.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "Acme"}},
	},

	// Class 2: ordinary-word brands used as words.
	{
		name: "word: to zoom in", brand: zoom, comps: nil, query: "how to read small print on a laptop",
		text:    "Hold Ctrl and scroll to zoom in on the page.",
		verdict: VerdictOrdinaryWord, count: 0, spans: []span{},
	},
	{
		name: "word: pinch to zoom", brand: zoom, comps: nil,
		text:    "On a phone, pinch to zoom.",
		verdict: VerdictOrdinaryWord, count: 0, spans: []span{},
	},
	{
		name: "word: title-case heading", brand: notion, comps: nil,
		text:    "## The Notion Of Progress\nThe notion that history improves is old.",
		verdict: VerdictOrdinaryWord, count: 0, spans: []span{},
	},
	{
		name: "word: menu path", brand: zoom, comps: nil, query: "make the screen bigger",
		text:    "Open Settings > Display > Zoom and pick 150%.",
		verdict: VerdictOrdinaryWord, count: 0, spans: []span{}, ambiguous: no,
	},
	{
		name: "word: compound", brand: Entity{Name: "Mercury", Domains: []string{"mercury.com"}}, comps: nil,
		text:    "Pregnant women should avoid high-mercury fish such as swordfish.",
		verdict: VerdictOrdinaryWord, count: 0, spans: []span{},
	},
	{
		name: "word: idiom at a sentence start", brand: Entity{Name: "Bear", Domains: []string{"bear.app"}}, comps: nil,
		query:   "should i buy stocks now",
		text:    "Bear in mind that nobody can time the market.",
		verdict: VerdictOrdinaryWord, count: 0, spans: []span{},
	},
	{
		name: "word: imperative with an object", brand: Entity{Name: "Craft", Domains: []string{"craft.do"}}, comps: nil,
		text:    "Craft a subject line that is short and specific.",
		verdict: VerdictOrdinaryWord, count: 0, spans: []span{},
	},
	{
		name: "word: a proper noun without product context", brand: Entity{Name: "Mercury", Domains: []string{"mercury.com"}}, comps: nil,
		text:    "The planets are Mercury, Venus and Mars.",
		verdict: VerdictOrdinaryWord, count: 0, spans: []span{},
	},

	// Class 3: ordinary-word brands used as brands at a sentence start.
	{
		name: "brand at start: competitor in the next sentence", brand: notion, comps: []Entity{{Name: "Obsidian", Domains: []string{"obsidian.md"}}},
		text:    "Notion is known for its flexibility. Obsidian offers deeper customisation.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "Notion"}}, ambiguous: yes,
		comp: map[int]compWant{0: {count: 1, rank: 2}},
	},
	{
		name: "brand at start: while a competitor", brand: slack, comps: []Entity{{Name: "Microsoft Teams"}},
		text:    "Slack is generally preferred by larger teams, while Microsoft Teams suits companies on Microsoft 365.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "Slack"}},
	},
	{
		name: "brand at start: criticised, in an answer about its category", brand: zoom, comps: nil,
		query:   "video conferencing security",
		text:    "Zoom was criticised in 2020 for its encryption claims.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "Zoom"}}, senti: Negative,
	},
	{
		name: "brand at start: product attributes", brand: Entity{Name: "Square", Domains: []string{"squareup.com"}}, comps: nil,
		text:    "Square charges 2.6% per tap and includes free POS software for every plan.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "Square"}},
	},
	{
		name: "brand at start: bold list head", brand: Entity{Name: "Bear", Domains: []string{"bear.app"}}, comps: nil,
		query:   "best markdown note app for mac",
		text:    "Options:\n\n- **Bear** – beautiful and fast.\n- **Simplenote** – free.",
		verdict: VerdictMentioned, count: 1, spans: []span{{14, "Bear"}}, senti: Positive,
	},
	{
		name: "brand at start: table row", brand: linear, comps: []Entity{{Name: "Jira"}},
		text:    "| Tool | Price |\n|---|---|\n| Linear | $8 per user |\n| Jira | $7.75 per user |",
		verdict: VerdictMentioned, count: 1, spans: []span{{29, "Linear"}},
	},

	// Class 4: a domain that appears only as a link is a citation.
	{
		name: "link: anchor is the address", brand: acme, comps: nil,
		text:    "Guides: [acme.com/docs](https://acme.com/docs) and the vendor blog.",
		verdict: VerdictCitedOnly, count: 0, spans: []span{}, cited: yes,
	},
	{
		name: "link: bare URL", brand: acme, comps: nil,
		text:    "Further reading: https://www.acme.com/blog/crm-guide",
		verdict: VerdictCitedOnly, count: 0, spans: []span{}, cited: yes,
	},
	{
		name: "link: host on the domain, no scheme", brand: acme, comps: nil,
		text:    "Look up your order status at orders.acme.com before calling support.",
		verdict: VerdictCitedOnly, count: 0, spans: []span{}, cited: yes,
	},
	{
		name: "link: domain with a path, no scheme", brand: acme, comps: nil,
		text:    "The changelog lives at acme.com/changelog and is updated weekly.",
		verdict: VerdictCitedOnly, count: 0, spans: []span{}, cited: yes,
	},
	{
		name: "link: www host", brand: acme, comps: nil,
		text:    "See www.acme.com/pricing for the numbers.",
		verdict: VerdictCitedOnly, count: 0, spans: []span{}, cited: yes,
	},
	{
		name: "link: footnote", brand: acme, comps: nil,
		text:    "CAC is spend divided by new customers.\n\n[1]: acme.com/blog/cac",
		verdict: VerdictCitedOnly, count: 0, spans: []span{}, cited: yes,
	},
	{
		name: "link: sources line", brand: acme, comps: nil,
		text:    "Keep the pipeline clean.\nSources: acme.com, g2.com",
		verdict: VerdictCitedOnly, count: 0, spans: []span{}, cited: yes,
	},

	// Sentiment toward the brand.
	{
		name: "sentiment: reported complaints and distrust", brand: acme, comps: nil,
		text:    "Acme syncs notes across devices. Users report it loses edits made offline, and support is slow. I would not trust it with anything important.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "Acme"}}, senti: Negative, negEvidence: "loses edits",
	},
	{
		name: "sentiment: praise and criticism", brand: acme, comps: nil,
		text:    "Acme is excellent for pipelines and teams love it. The main drawback is the price, which many find steep.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "Acme"}}, senti: Mixed, negEvidence: "drawback",
	},
	{
		name: "sentiment: hard to recommend", brand: acme, comps: nil,
		text:    "After the price rise, Acme is hard to recommend.",
		verdict: VerdictMentioned, count: 1, spans: []span{{22, "Acme"}}, senti: Negative,
	},
	{
		name: "sentiment: of the brand, not of the answer", brand: acme, comps: []Entity{beta},
		text:    "Acme is a reliable, well-designed CRM.\n\nBetaflow is buggy and slow, and its support is terrible.",
		verdict: VerdictMentioned, count: 1, spans: []span{{0, "Acme"}}, senti: Positive,
		comp: map[int]compWant{0: {count: 1, rank: 2, senti: Negative}},
	},
	{
		name: "sentiment: cons under the brand's heading", brand: acme, comps: []Entity{beta},
		text:    "## Acme\n- Fast setup\n- Cons: clunky reports and frequent outages\n## Betaflow\n- Excellent reports",
		verdict: VerdictMentioned, count: 1, spans: []span{{3, "Acme"}}, senti: Negative,
	},
}

// longCase: ~200 KB of filler with the brand once at the very end.
func longCase() detectCase {
	filler := strings.Repeat("Many teams compare CRMs by price, support and integrations. ", 3400)
	return detectCase{
		name: "very long text", brand: acme, text: filler + "In the end, Zoë chose Acme.",
		verdict: VerdictMentioned, count: 1,
		spans: []span{{utf8.RuneCountInString(filler) + len([]rune("In the end, Zoë chose ")), "Acme"}},
	}
}

func TestDetectCases(t *testing.T) {
	cases := append(append([]detectCase(nil), detectCases...), longCase())
	if len(cases) < 60 {
		t.Fatalf("only %d detection cases", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := New(tc.brand, tc.comps)
			r := d.Detect(tc.text, tc.cits)
			if tc.query != "" {
				var err error
				if r, err = d.Analyze(context.Background(), Input{Text: tc.text, Citations: tc.cits, Query: tc.query}); err != nil {
					t.Fatal(err)
				}
			}
			checkSpans(t, tc.text, r)
			if r.Version != Version {
				t.Errorf("version %q", r.Version)
			}
			if tc.negEvidence != "" && !strings.Contains(r.NegativeEvidence, tc.negEvidence) {
				t.Errorf("negative evidence %q, want it to hold %q", r.NegativeEvidence, tc.negEvidence)
			}
			if tc.ambiguous != dontCare && r.Ambiguous != (tc.ambiguous == yes) {
				t.Errorf("ambiguous = %v", r.Ambiguous)
			}
			b := r.Brand
			if r.Verdict != tc.verdict {
				t.Errorf("verdict = %s, want %s (evidence %q)", r.Verdict, tc.verdict, r.Evidence)
			}
			if b.Count != tc.count {
				t.Errorf("brand count = %d, want %d; mentions %+v", b.Count, tc.count, b.Mentions)
			}
			var got []Mention
			for _, m := range b.Mentions {
				if !m.Unknown && !m.Link {
					got = append(got, m)
				}
			}
			if len(got) == len(tc.spans) {
				runes := []rune(tc.text)
				for i, w := range tc.spans {
					if w.start+utf8.RuneCountInString(w.text) > len(runes) ||
						string(runes[w.start:w.start+utf8.RuneCountInString(w.text)]) != w.text {
						t.Fatalf("bad test data: %q is not at %d", w.text, w.start)
					}
					if got[i].Start != w.start || got[i].Text != w.text ||
						got[i].End != w.start+utf8.RuneCountInString(w.text) {
						t.Errorf("mention %d = [%d,%d) %q, want [%d,…) %q", i, got[i].Start, got[i].End, got[i].Text, w.start, w.text)
					}
				}
			} else {
				t.Errorf("counted mentions %+v, want spans %+v", got, tc.spans)
			}
			if tc.count > 0 {
				if !b.Mentioned || b.FirstPosition != tc.spans[0].start || b.Evidence == "" {
					t.Errorf("mentioned=%v first=%d evidence=%q", b.Mentioned, b.FirstPosition, b.Evidence)
				}
				if r.Confidence <= 0 || r.Confidence > 1 {
					t.Errorf("confidence %v", r.Confidence)
				}
			} else if b.Mentioned || b.Rank != 0 || b.FirstPosition != -1 {
				t.Errorf("unexpected mention state %+v", b)
			}
			if tc.rank != 0 && b.Rank != tc.rank {
				t.Errorf("brand rank = %d, want %d", b.Rank, tc.rank)
			}
			if tc.senti != "" && r.Sentiment != tc.senti {
				t.Errorf("sentiment = %s, want %s", r.Sentiment, tc.senti)
			}
			if tc.cited != dontCare && b.DomainCited != (tc.cited == yes) {
				t.Errorf("domain cited = %v", b.DomainCited)
			}
			if tc.kind != "" && (len(got) == 0 || got[0].Kind != tc.kind) {
				t.Errorf("kind: %+v, want %s", got, tc.kind)
			}
			hasUnknown := false
			for _, m := range b.Mentions {
				hasUnknown = hasUnknown || m.Unknown
			}
			if hasUnknown != tc.unknownMention {
				t.Errorf("unknown mention = %v, want %v (%+v)", hasUnknown, tc.unknownMention, b.Mentions)
			}
			if tc.disc != nil && strings.Join(r.Discovered, "|") != strings.Join(tc.disc, "|") {
				t.Errorf("discovered = %q, want %q", r.Discovered, tc.disc)
			}
			for i, w := range tc.comp {
				c := r.Competitors[i]
				if c.Count != w.count || c.Rank != w.rank {
					t.Errorf("competitor %s: count %d rank %d, want %d %d", c.Name, c.Count, c.Rank, w.count, w.rank)
				}
				if w.senti != "" && c.Sentiment != w.senti {
					t.Errorf("competitor %s sentiment %s, want %s", c.Name, c.Sentiment, w.senti)
				}
				if c.UnknownToModel != w.unknown {
					t.Errorf("competitor %s unknown %v", c.Name, c.UnknownToModel)
				}
			}
			if r.VisibilityScore < 0 || r.VisibilityScore > 100 {
				t.Errorf("score %d", r.VisibilityScore)
			}
			if r.Verdict == VerdictNotMentioned && r.VisibilityScore != 0 {
				t.Errorf("score %d without mention", r.VisibilityScore)
			}
		})
	}
}

// checkSpans: every mention's span lies in the text and holds its surface.
func checkSpans(t *testing.T, text string, r Result) {
	t.Helper()
	runes := []rune(text)
	for _, e := range append([]EntityResult{r.Brand}, r.Competitors...) {
		for _, m := range e.Mentions {
			if m.Start < 0 || m.End > len(runes) || m.Start >= m.End {
				t.Fatalf("%s: span [%d,%d) outside text of %d runes", e.Name, m.Start, m.End, len(runes))
			}
			if string(runes[m.Start:m.End]) != m.Text {
				t.Fatalf("%s: span [%d,%d) is %q, surface %q", e.Name, m.Start, m.End, string(runes[m.Start:m.End]), m.Text)
			}
		}
	}
}
