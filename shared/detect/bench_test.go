package detect

import (
	"context"
	"fmt"
	"math/rand"
	"regexp"
	"strings"
	"testing"
)

// benchEntities returns a brand and 50 competitors with three aliases each,
// named like real SaaS products.
func benchEntities() (Entity, []Entity) {
	pre := []string{"Bright", "Nova", "Zen", "Brisk", "Lumen", "Orbit", "Quanta", "Vertex", "Pulse",
		"Cobalt", "Harbor", "Summit", "Copper", "Atlas", "Echo", "Falcon", "Granite", "Helix", "Ion",
		"Juniper", "Kestrel", "Lattice", "Meridian", "Nimbus", "Onyx", "Prism", "Quill", "Radiant",
		"Sable", "Tandem", "Umber", "Vela", "Willow", "Xeno", "Yonder", "Zephyr", "Amber", "Beacon",
		"Cinder", "Delta", "Ember", "Flint", "Glide", "Hollow", "Indigo", "Jasper", "Kinetic", "Lyric",
		"Mosaic", "Nectar", "Oasis"}
	suf := []string{"desk", "flow", "hub", "stack", "base", "ly", "works", "sphere", "loop", "grid"}
	mk := func(i int) Entity {
		name := pre[i] + suf[i%len(suf)]
		low := strings.ToLower(name)
		return Entity{
			Name:    name,
			Aliases: []string{name + " CRM", name + "HQ", pre[i] + " " + strings.ToUpper(suf[i%len(suf)][:1]) + suf[i%len(suf)][1:] + " Suite"},
			Domains: []string{low + ".com"},
		}
	}
	brand := mk(0)
	comps := make([]Entity, 50)
	for i := range comps {
		comps[i] = mk(i + 1)
	}
	return brand, comps
}

// benchAnswers generates AI-answer-style texts (markdown lists, comparisons,
// hedges, citations, typographic punctuation) totalling about size bytes.
func benchAnswers(size int) []string {
	brand, comps := benchEntities()
	ents := append([]Entity{brand}, comps...)
	rng := rand.New(rand.NewSource(1))
	pick := func() string {
		e := ents[rng.Intn(len(ents))]
		switch rng.Intn(6) {
		case 0:
			return e.Aliases[rng.Intn(len(e.Aliases))]
		case 1:
			return e.Domains[0]
		}
		return e.Name
	}
	untracked := []string{"HubSpot", "Pipedrive", "Zoho CRM", "Salesforce", "Freshsales", "Close"}
	adj := []string{"intuitive", "powerful", "expensive", "reliable", "clunky", "affordable", "flexible", "slow"}
	var out []string
	total := 0
	for total < size {
		var b strings.Builder
		b.WriteString("Choosing a CRM for a small team depends on budget, integrations and how much automation you need. " +
			"Here’s an overview of the options most often recommended in 2025 — based on reviews, pricing pages and user reports.\n\n")
		n := 5 + rng.Intn(4)
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "%d. **%s** – %s pipeline management with a %s mobile app. Teams praise its reporting, "+
				"although some reviewers call the setup %s. Pricing starts at $%d per user per month.\n",
				i, pick(), adj[rng.Intn(len(adj))], adj[rng.Intn(len(adj))], adj[rng.Intn(len(adj))], 9+rng.Intn(60))
		}
		fmt.Fprintf(&b, "\n### How they compare\n\nIf you already live in Google Workspace, %s and %s integrate "+
			"seamlessly, while %s offers deeper automation. Alternatives such as %s, %s and %s are also worth a look. "+
			"%s isn’t great for enterprise reporting, but it is easy to adopt. Many users say %s is not recommended "+
			"for complex sales processes.\n\n", pick(), pick(), pick(), untracked[rng.Intn(len(untracked))], pick(),
			untracked[rng.Intn(len(untracked))], pick(), pick())
		b.WriteString("**Pros:** fast onboarding, clean interface, solid API.\n**Cons:** limited custom fields, " +
			"occasional sync issues.\n\n")
		if rng.Intn(4) == 0 {
			fmt.Fprintf(&b, "I don’t have reliable information about %s, so verify its current plans directly. ", pick())
		}
		fmt.Fprintf(&b, "Overall, for most small teams %s is the best starting point; see [pricing](https://%s/pricing) "+
			"and compare it with %s before you decide. Sources: https://www.g2.com/categories/crm, %s.\n",
			pick(), ents[rng.Intn(len(ents))].Domains[0], pick(), ents[rng.Intn(len(ents))].Domains[0])
		s := b.String()
		out = append(out, s)
		total += len(s)
	}
	return out
}

func benchTotal(ans []string) int64 {
	n := 0
	for _, a := range ans {
		n += len(a)
	}
	return int64(n)
}

func BenchmarkDetect(b *testing.B) {
	brand, comps := benchEntities()
	d := New(brand, comps)
	ans := benchAnswers(1 << 20)
	cits := []Citation{{URL: "https://www.g2.com/categories/crm"}, {URL: "https://blog.brightdesk.com/guide"}}
	b.SetBytes(benchTotal(ans))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, a := range ans {
			d.Detect(a, cits)
		}
	}
}

// BenchmarkNaiveRegexp is the baseline: one case-insensitive, word-bounded
// regexp per name and alias, each run over every answer.
func BenchmarkNaiveRegexp(b *testing.B) {
	brand, comps := benchEntities()
	var res []*regexp.Regexp
	for _, e := range append([]Entity{brand}, comps...) {
		for _, a := range append([]string{e.Name}, e.Aliases...) {
			res = append(res, regexp.MustCompile(`(?i)\b`+regexp.QuoteMeta(a)+`\b`))
		}
	}
	ans := benchAnswers(1 << 20)
	b.SetBytes(benchTotal(ans))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, a := range ans {
			for _, re := range res {
				re.FindAllStringIndex(a, -1)
			}
		}
	}
}

// TestBenchCorpusIsRealistic keeps the benchmark honest: the generated
// answers are found to mention many tracked entities.
func TestBenchCorpusIsRealistic(t *testing.T) {
	brand, comps := benchEntities()
	d := New(brand, comps)
	ans := benchAnswers(64 << 10)
	mentions := 0
	for _, a := range ans {
		r := d.Detect(a, nil)
		checkInvariants(t, a, r)
		for _, c := range append([]EntityResult{r.Brand}, r.Competitors...) {
			mentions += c.Count
		}
	}
	if mentions < 10*len(ans) {
		t.Fatalf("only %d mentions in %d answers", mentions, len(ans))
	}
}

// BenchmarkDetectCorpus analyses the labelled corpus (testdata/corpus):
// short answers full of ordinary-word brands, ignorance and sentiment, so
// the evidence, ignorance and sentiment rules run on nearly every answer.
// The detectors are compiled once, as a caller compiles one per profile.
func BenchmarkDetectCorpus(b *testing.B) {
	cases := append(loadCorpus(b, "tune.jsonl"), loadCorpus(b, "holdout.jsonl")...)
	ds := make([]*Detector, len(cases))
	total := int64(0)
	for i, c := range cases {
		ds[i] = New(c.Brand, c.Competitors)
		total += int64(len(c.Text))
	}
	b.SetBytes(total)
	b.ReportAllocs()
	ctx := context.Background()
	for b.Loop() {
		for i, c := range cases {
			ds[i].Analyze(ctx, Input{Text: c.Text, Citations: c.Citations, Query: c.Query})
		}
	}
}
