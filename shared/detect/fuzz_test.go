package detect

import (
	"context"
	"testing"
)

func FuzzDetect(f *testing.F) {
	for _, s := range []string{
		"", "Acme", "Acme's CRM is great, but Betaflow isn't.", "on Monday morning", "you.com vs you",
		"I don't have information about Acme.", "1. **Acme** – x\n2. **HubSpot** – y\n",
		"Cafe\u0301 Zoe\u0308", "日本ではメルカリが人気です。", "🚀Acme🚀", "\xff\xfeAcme\xc3", "acme.com.evil.net",
		"[Acme](https://acme.com)", "Straße ﬁ ß ẞ İ", "Acme\u0301\u0301\u0301",
		"## The Slack Of Progress\nSettings > Slack", "You asked about Acme. I can't find anything on it.",
		"| Slack | $8 |\n| Acme | free |", "[acme.com/docs](https://acme.com/docs)", "Sources: acme.com",
		"Users report it loses edits. Acme is hard to recommend.",
		"Je n'ai pas d'informations sur Acme. Ich habe keine Informationen über Slack.",
		"Open Slack > Settings > Slack, then uncheck Slack. The Slack basin.",
		"Slack, by contrast, stores chats; Slack or Acme are cheaper for most teams.",
		"Slack was criticised, but has since improved. I wouldn't choose it; Acme is the better pick.",
		"- **Monday:** plan\n- **Friday:** review", "a high-slack chain. Slack can harm",
		"| | Acme | Slack |\n|---|---|---|\n| Weakness | slow | fast |", "| | Acme | Slack |", "|Acme|\n|", "||\n||Acme",
		"**Verdict:** easy to start, but Acme is hard to find a reason to pick.", "Acme still works. However",
		"Acme's main drawback is price. The catch", "Acme costs twice as much as Slack, and", "Acme is a step", "Booking", "Acme is fine for", "Using it is safer. Acme",
		// criticism stated as facts, cut off mid-phrase (criticism.go)
		"Acme bills of", "Acme paid to settle", "Acme routes have been cut", "Acme is still not", "Acme runs few",
		"Acme lines of", "Nothing free does", "Acme sits at the bottom of", "Acme is lighter on", "Acme, whose",
		"Acme froze", "Acme is a Limited and", "If Acme breaks", "Acme went",
		// V's classes cut off mid-phrase (sentiment.go, s7)
		"Acme is good, but now $9, up from", "Acme is good, but up from $", "Acme shrugs off", "difficile de faire",
		"Kits like Slack are good, but they", "Kits like Slack are good, but", ",but they", "Acme recommends", "for a stronger",
		// s8a's classes cut off mid-phrase (alternative.go, foil.go, concession.go, criticism.go)
		"Acme is slow. For the same", "Acme is slow, but Slack gives you", "Acme is slow. Slack will serve you",
		"Acme is slow. A spreadsheet does the", "Acme is slow. Most people would do", "For most hobby sites, Slack is the better",
		"Slack is the safer", "Slack offers it at a", "Acme is slow. Slack will take you", "Sheets are great. Acme, sadly",
		"To be fair,", "Users dislike that", "questioned whether", "Acme colours fade", "Acme seams give out",
		"Acme wears", "Acme went into", "a rough", "a shadow of", "Acme has shrunk", "Acme is best", "Acme perks have",
		"Acme perks are thin", "Acme has become", "Acme is another", "Acme fees can sting", "you pay less by",
		"Acme gets updated rarely", "do the maths", "Cheaper options", "compare", "Acme stopped accepting",
		"Acme se queda", "Les frais sont plus élevés", "Die Verspätungen", "esperas largas", "tardan semanas",
		// praise.go's constructions cut off mid-phrase (s8b)
		"Acme is a 4.8-star", "4.8-star", "-star", ".5-stars", "Acme: 4.", "rated 4.6 out of", "rated 4.6 out of 5", "/5",
		"1.9/5", "99999.9/5", "Acme is hard to go", "to go wrong", "Acme beats", "Acme outperforms the",
		"**Verdict:** get", "**Verdict:** get Acme", "Bottom line:", "Acme punches above its", "Acme is a",
		"Acme kills", "Acme kills background", "Acme blocks", "blocks disappearing", "Acme's blocks", "scans for",
		"stiff at first but", "at first but softens", "out of the", "Acme is the most", "by far the", "the gentlest",
		"no-", "-free", "low-", "Acme has no", "Still,", "For everyone else", "One caveat: a poor fit for a",
		"**What buyers like**\n-", "What", "Acme finally", "Acme now matches", "but that's about",
	} {
		f.Add(s, "best crm for acme users")
	}
	// The query's word sense, word forms, namesakes and replies
	// (detect/2026.11-8).
	for _, tc := range [][2]string{
		{"Slack lasts. Good slack helps.", "how to slack off"},
		{"Slacks are loose. The slacks.", "what does a slack do"},
		{"Slack (1801–1858) was a surveyor.", "slack meaning"},
		{"Acme Acmes acmes ACMES a-c-m-e", "visit acme"},
		{"No. Acme covers it. No, Slack. No. 3", "do i need acme"},
		{"A whole slack is the better choice. Sur name Acme", "the acme character"},
		{"(", "a"}, {"Acme (b. ", "to"}, {"Acme (1", "how to"}, {"Acme (12345)", "how to acme"},
		// a phrase the query holds the word in, an aside, a hedge (d9)
		{"The Magna Acme-", "magna acme"}, {"acme sheet -", "acme sheet"}, {"Acme French's. French she", "acme french"},
		{"Acme-les-Bains", "acme les bains"}, {"Acme | Acmeless", "acme vs acmeless"}, {"-Acme", "x acme"},
		{"a soap —Acme", ""}, {"soap:Acme", ""}, {"—Acme", ""}, {"(Acme", ""},
		{"Acme hasn't announced it that I know of, but users", "acme"}, {"Acme: no idea, but", ""},
		// a query's compound at a start, kinds compared, derived forms,
		// German nouns, quotations, anaphora, hedges (d10)
		{"Acme moments", "a acme moment"}, {"**Acme coffee** and pour-over", "pour over vs acme coffee"},
		{"Acme lasts. PEX", "acme vs pex plumbing"}, {"Acme", " vs "}, {"Acme", "vs"}, {"Acme", "acme versus"},
		{"## Acme Program\n\"Acme x", "terminated acmely"}, {"Acme", "acmly"}, {"Acme", "acmeness acme"},
		{"eine gut gedengelte Acme muss", "Acme dengeln"}, {"ein Acme", ""}, {"gut Acme x", ""},
		{"the message **\"Acme program", ""}, {"\"Acme", ""}, {"“Acme x", ""},
		{"Acme closed: the U.S. chain ran", ""}, {"U.S. x", ""}, {"Acme: the", ""}, {"Acme — this", ""},
		{"Hans Christian Acme", "who"}, {"the physicist Hans Acme", ""}, {"Acme was founded", ""}, {"Acme shut down", ""}, {"Acme shut", ""}, {"Acme shut ", ""},
		{"\"Acme\" isn't a name I can place", ""}, {"I can't place the", ""}, {"place name", ""},
		{"no coverage of Acme, but it's a", ""}, {"Acme, but it", ""}, {"a acme account. Acme accounts", "acme account"},
		{"Acme", "kuehne+nagel"}, {"Acme", "acme + "}, {"Acme", "+"},
		// word senses by grammar, cut off mid-phrase (wordsense.go)
		{"Slack", "how to stop slacking"}, {"Slacked. Slack", "slacked slackking slackeded"}, {"Slacks aren", ""},
		{"Slacks aren't", ""}, {"Slacks Are", ""}, {"Slack hunts", ""}, {"Slack was", ""}, {"Slack is a raptor", ""},
		{"Slack is a", ""}, {"Slack is the war", ""}, {"Edit › Slack. The Slack Tool", ""}, {"› Slack Tool", ""},
		{"Slack", "things to do near slack"}, {"I have no data for Slack's range", "x"}, {"Slack's range", ""},
		{"film Slack", ""}, {"s film Slack", ""}, {"'s film Slack", ""}, {"’s film Slack", ""}, {"1997 film Slack", ""},
		{"The ospreys. Slack slacks", ""}, {"Slackies. The slackies", ""},
		{"Lady Slack", ""}, {"Dr. Slack", ""}, {"Dr.Slack", ""}, {"Dr", ""}, {" Slack", ""},
		// batch O's classes cut off mid-phrase (wordsense.go, d12)
		{"V-22 Slack", ""}, {"-22 Slack", ""}, {"V- Slack", ""}, {"AH-64D Slack", ""}, {"Ö-22 Slack", ""}, {"V-22", ""},
		{"Slack is one of Peru's", ""}, {"Slack is Peru's", ""}, {"Slack is one of Peru’s volcanoes", ""}, {"Slack is one's", ""},
		{"Slack", "slack aircraft"}, {"Slack", "the slack century"}, {"Slack", "century the slack"},
		{"Acme Slack", "who won"}, {"Acme Slack", "who"}, {"Acme Slack", "who makes"},
		{"F4U Slack", ""}, {"FY24 Slack", ""}, {"B1 Slack", ""}, {"*Slack* (1997)", ""}, {"*Slack the Dog* (19", ""},
		{"“Slack”", ""}, {"\"Slack\" (2019", ""}, {"_Slack_ (abcd)", ""}, {"*Slack\n* (1997)", ""}, {"**Slack* (1997)", ""},
	} {
		f.Add(tc[0], tc[1])
	}
	// A name of two letters, ranked first at the very end of the answer:
	// rules that look a few bytes past a mention once read beyond the
	// text's end there ("The best TV brand is LG").
	for _, tc := range [][2]string{
		{"The best TV brand is LG", "best tv brand"}, {"Buy LG", "best tv brand"}, {"I recommend LG", "which tv to buy"},
		{"LG", "best tv"}, {"HP or LG", "best laptop brand for students"}, {"LG is one of", "best tv brand"},
	} {
		f.Add(tc[0], tc[1])
	}
	d := New(propEntities[0], propEntities[1:])
	short := New(Entity{Name: "LG", Domains: []string{"lg.com"}}, []Entity{{Name: "HP"}, {Name: "Acme"}})
	f.Fuzz(func(t *testing.T, text, query string) {
		r := d.Detect(text, []Citation{{URL: text}})
		checkInvariants(t, text, r)
		for _, d := range []*Detector{d, short} {
			a, err := d.Analyze(context.Background(), Input{Text: text, Citations: []Citation{{URL: text}}, Query: query})
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, text, a)
		}
	})
}
