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
	} {
		f.Add(tc[0], tc[1])
	}
	d := New(propEntities[0], propEntities[1:])
	f.Fuzz(func(t *testing.T, text, query string) {
		r := d.Detect(text, []Citation{{URL: text}})
		checkInvariants(t, text, r)
		a, err := d.Analyze(context.Background(), Input{Text: text, Citations: []Citation{{URL: text}}, Query: query})
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, text, a)
	})
}
