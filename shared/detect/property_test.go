package detect

import (
	"fmt"
	"math/rand"
	"strings"
	"sync"
	"testing"
)

var propEntities = []Entity{
	{Name: "Acme", Aliases: []string{"Acme CRM", "AcmeHQ"}, Domains: []string{"acme.com"}},
	{Name: "Betaflow", Aliases: []string{"Beta Flow"}, Domains: []string{"betaflow.io"}},
	{Name: "Monday.com", Aliases: []string{"Monday"}, Domains: []string{"monday.com"}},
	{Name: "Slack", Domains: []string{"slack.com"}},
	{Name: "Café Zoë"},
	{Name: "Яндекс"},
	{Name: "メルカリ"},
	{Name: "You.com", Aliases: []string{"You"}, Domains: []string{"you.com"}},
}

var propWords = []string{
	"Acme", "acme", "ACME", "Acme's", "Acme CRM", "AcmeHQ", "acme.com", "docs.acme.com", "Acmeology",
	"Betaflow", "Beta Flow", "betaflow.io", "Monday", "monday", "Monday.com", "on Monday morning",
	"Slack", "slack", "Cafe Zoe", "Café Zoë", "CAFÉ ZOË’s", "Яндекс", "メルカリ", "you", "You", "you.com",
	"is", "great", "not", "recommended", "but", "expensive", "the", "best", "tool", "app", "and", "or",
	"I don't have information about", "I'm not familiar with", "however", "HubSpot", "Pipedrive",
	",", ".", ";", ":", "!", "?", "\n", "\n\n", "- ", "1. ", "**", "[", "](https://acme.com)", "(", ")",
	"🚀", "👩\u200d💻", "\u0301", "é", "ß", "—", "’", "\"", "#", " ", " ", " ",
}

func randomText(rng *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		w := propWords[rng.Intn(len(propWords))]
		b.WriteString(w)
		if rng.Intn(3) > 0 {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// checkInvariants asserts what must hold for any input.
func checkInvariants(t *testing.T, text string, r Result) {
	t.Helper()
	checkSpans(t, text, r)
	all := append([]EntityResult{r.Brand}, r.Competitors...)
	var ranks []int
	total := 0
	for _, e := range all {
		counted, first, prevEnd := 0, -1, -1
		for _, m := range e.Mentions {
			if m.Start < prevEnd {
				t.Fatalf("%s: overlapping or unsorted mentions %+v", e.Name, e.Mentions)
			}
			prevEnd = m.End
			if !m.Unknown && !m.Link {
				if counted == 0 {
					first = m.Start
				}
				counted++
			}
			if m.Confidence <= 0 || m.Confidence > 1 {
				t.Fatalf("mention confidence %v", m.Confidence)
			}
		}
		if counted != e.Count || first != e.FirstPosition || e.Mentioned != (e.Count > 0) {
			t.Fatalf("%s: count %d/%d first %d/%d", e.Name, e.Count, counted, e.FirstPosition, first)
		}
		if e.Mentioned {
			ranks = append(ranks, e.Rank)
		} else if e.Rank != 0 {
			t.Fatalf("%s: rank %d without mention", e.Name, e.Rank)
		}
		total += e.Count
	}
	seen := make(map[int]bool)
	for _, rk := range ranks {
		if rk < 1 || rk > len(ranks) || seen[rk] {
			t.Fatalf("ranks %v are not a permutation of 1..%d", ranks, len(ranks))
		}
		seen[rk] = true
	}
	for _, a := range all {
		for _, b := range all {
			if a.Mentioned && b.Mentioned && a.FirstPosition < b.FirstPosition && a.Rank > b.Rank {
				t.Fatalf("rank order: %s(%d@%d) after %s(%d@%d)", a.Name, a.Rank, a.FirstPosition, b.Name, b.Rank, b.FirstPosition)
			}
		}
	}
	if r.VisibilityScore < 0 || r.VisibilityScore > 100 {
		t.Fatalf("score %d", r.VisibilityScore)
	}
	if r.Confidence < 0 || r.Confidence > 1 || r.ShareOfVoice < 0 || r.ShareOfVoice > 1 {
		t.Fatalf("confidence %v share %v", r.Confidence, r.ShareOfVoice)
	}
	if total > 0 && r.ShareOfVoice != float64(r.Brand.Count)/float64(total) {
		t.Fatalf("share of voice %v", r.ShareOfVoice)
	}
	switch r.Verdict {
	case VerdictMentioned:
		if !r.Brand.Mentioned {
			t.Fatal("mentioned without mention")
		}
	case VerdictNotMentioned, VerdictUnknownToModel, VerdictCitedOnly, VerdictOrdinaryWord:
		if r.Brand.Mentioned {
			t.Fatalf("verdict %s with %d mentions", r.Verdict, r.Brand.Count)
		}
	default:
		t.Fatalf("verdict %q", r.Verdict)
	}
}

func TestPropertiesRandomTexts(t *testing.T) {
	rng := rand.New(rand.NewSource(42))
	for round := 0; round < 400; round++ {
		perm := rng.Perm(len(propEntities))
		brand := propEntities[perm[0]]
		var comps []Entity
		for _, i := range perm[1 : 1+rng.Intn(len(perm)-1)] {
			comps = append(comps, propEntities[i])
		}
		d := New(brand, comps)
		text := randomText(rng, rng.Intn(120))
		var cits []Citation
		if rng.Intn(3) == 0 {
			cits = append(cits, Citation{URL: "https://blog.acme.com/x"})
		}
		r := d.Detect(text, cits)
		checkInvariants(t, text, r)
	}
}

// Prepending a neutral sentence that mentions the brand never lowers the
// visibility score: the prominence share gains a full-weight term while
// all other terms scale by the same factor, the rank can only improve and
// the first-mention sentence becomes 0, and a neutral mention does not
// change the overall sentiment class.
func TestScoreMonotoneWhenMentionAddedEarlier(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	brand := propEntities[0]
	d := New(brand, propEntities[1:4])
	for round := 0; round < 400; round++ {
		text := randomText(rng, rng.Intn(80))
		before := d.Detect(text, nil)
		after := d.Detect("Acme is an option.\n"+text, nil)
		if after.VisibilityScore < before.VisibilityScore {
			t.Fatalf("score fell %d → %d after prepending a mention\ntext %q\nbefore %+v\nafter %+v",
				before.VisibilityScore, after.VisibilityScore, text, before.Score, after.Score)
		}
		if after.Brand.Rank != 1 {
			t.Fatalf("rank %d after prepending", after.Brand.Rank)
		}
	}
	// A deterministic ladder: the earlier and more often, the higher.
	base := "Betaflow is a solid choice. Monday.com is popular. Many teams also use Acme."
	s0 := d.Detect(base, nil).VisibilityScore
	s1 := d.Detect("Acme is an option.\n"+base, nil).VisibilityScore
	s2 := d.Detect("Acme is an option.\nAcme has templates.\n"+base, nil).VisibilityScore
	if !(s0 < s1 && s1 <= s2) {
		t.Errorf("scores %d, %d, %d are not increasing", s0, s1, s2)
	}
}

func TestDetectConcurrent(t *testing.T) {
	d := New(propEntities[0], propEntities[1:])
	rng := rand.New(rand.NewSource(9))
	texts := make([]string, 64)
	want := make([]string, len(texts))
	for i := range texts {
		texts[i] = randomText(rng, 100)
		want[i] = fmt.Sprintf("%+v", d.Detect(texts[i], nil))
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for k := 0; k < 200; k++ {
				i := (g*31 + k) % len(texts)
				if got := fmt.Sprintf("%+v", d.Detect(texts[i], nil)); got != want[i] {
					t.Errorf("concurrent result differs for text %d", i)
					return
				}
			}
		}(g)
	}
	wg.Wait()
}

func TestNoEntitiesAndEmptyForms(t *testing.T) {
	d := New(Entity{}, []Entity{{Name: "  "}, {Name: "-", Domains: []string{"nodot"}}})
	r := d.Detect("Anything at all. Acme.", nil)
	if r.Verdict != VerdictNotMentioned || r.VisibilityScore != 0 || len(r.Competitors) != 2 {
		t.Fatalf("%+v", r)
	}
}

// Adversarial long inputs: thousands of mentions in one sentence, one list
// or one unbroken run of text. Every stage is linear or n·log n, so these
// finish quickly; the invariants must still hold.
func TestLongAdversarialInputs(t *testing.T) {
	d := New(Entity{Name: "Slack", Domains: []string{"slack.com"}},
		[]Entity{{Name: "Zoom"}, {Name: "Acme"}, {Name: "Box"}})
	for name, text := range map[string]string{
		"one long enumeration": strings.Repeat("Zoom, Slack, Acme and Box, ", 8000),
		"one long list":        strings.Repeat("- Slack\n- Acme is great\n", 8000),
		"no spaces":            strings.Repeat("日本語Box日本語Slack", 8000),
		"unknown statements":   strings.Repeat("I don't know Acme, Slack or Zoom, ", 6000),
		"same clause":          strings.Repeat("Acme great Acme slow Slack ", 8000),
	} {
		t.Run(name, func(t *testing.T) {
			r := d.Detect(text, nil)
			checkInvariants(t, text, r)
		})
	}
}
