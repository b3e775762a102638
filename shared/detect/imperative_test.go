package detect

import "testing"

// Steps of a how-to (imperative.go), with sentences written for the test.

func TestClassImperativeStep(t *testing.T) {
	route := Entity{Name: "Route", Domains: []string{"route.com"}}
	bear := Entity{Name: "Bear", Domains: []string{"bear.app"}}
	thorne := Entity{Name: "Thorne", Domains: []string{"thorne.com"}}
	cite := []Citation{{URL: "https://route.com/blog/support-load"}}
	runVerdict := func(t *testing.T, name string, e Entity, cs []Citation, query, text string, want Verdict) {
		t.Run(name, func(t *testing.T) {
			r := New(e, nil).Detect(text, cs)
			if query != "" {
				r, _ = New(e, nil).Analyze(t.Context(), Input{Text: text, Citations: cs, Query: query})
			}
			if r.Verdict != want {
				t.Errorf("verdict %s, want %s (evidence %q)", r.Verdict, want, r.Evidence)
			}
		})
	}
	runVerdict(t, "a step among imperative steps", route, cite, "how to cut support tickets after launch",
		"Most tickets repeat a handful of questions [1].\n\n- **Publish a status page** before anyone asks.\n"+
			"- **Route billing questions to the help centre** so agents see only the hard ones.\n- **Answer the top ten** in a pinned post.\n", VerdictCitedOnly)
	runVerdict(t, "numbered steps without emphasis", bear, nil, "how to stay safe hiking in grizzly country",
		"1. Carry spray where you can reach it.\n2. Bear weight on your poles on steep descents.\n3. Make noise on blind corners.\n", VerdictOrdinaryWord)
	runVerdict(t, "a product list of names and predicates", bear, nil, "best markdown notes app for mac",
		"1. **Bear** keeps notes in tags and syncs through iCloud.\n2. **Drafts** captures text before you pick where it goes.\n"+
			"3. **Obsidian** stores plain files you own.\n", VerdictMentioned)
	runVerdict(t, "a product whose line goes on in capitals", thorne, nil, "best prenatal vitamins",
		"1. **Thorne Basic Prenatal** – methylated folate and third-party tested.\n2. **Nature Made Prenatal** – cheap and widely stocked.\n"+
			"3. **Garden of Life Prenatal** – whole-food based.\n", VerdictMentioned)
}
