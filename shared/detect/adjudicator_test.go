package detect

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// fakeAdjudicator answers every question with yes (or err) and records
// what it was asked.
type fakeAdjudicator struct {
	yes  bool
	err  error
	reqs []AdjudicationRequest
}

func (f *fakeAdjudicator) Adjudicate(_ context.Context, req AdjudicationRequest) (bool, error) {
	f.reqs = append(f.reqs, req)
	return f.yes, f.err
}

func TestAdjudicatorOnlyInTheAmbiguousBand(t *testing.T) {
	const query = "note taking app for students"
	cases := []struct {
		name        string
		text        string
		yes         bool
		wantAsked   int
		wantVerdict Verdict
	}{
		// predicate (0.5) + query topic (0.3) = 0.8: rejected by the rules, in the band
		{"ambiguous, adjudicator says yes", "Notion is known for its flexibility.", true, 1, VerdictMentioned},
		{"ambiguous, adjudicator says no", "Notion is known for its flexibility.", false, 1, VerdictOrdinaryWord},
		// cue + capital: far above the threshold
		{"clear product", "Students organise classes in the Notion app.", false, 0, VerdictMentioned},
		// lower case, no cue: rejected outright
		{"clear word", "She had a notion of how to fix it.", true, 0, VerdictOrdinaryWord},
		{"no candidate", "Obsidian keeps notes as Markdown files.", true, 0, VerdictNotMentioned},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			adj := &fakeAdjudicator{yes: tc.yes}
			d := New(notion, nil, WithAdjudicator(adj))
			r, err := d.Analyze(context.Background(), Input{Text: tc.text, Query: query})
			if err != nil {
				t.Fatal(err)
			}
			if len(adj.reqs) != tc.wantAsked {
				t.Fatalf("asked %d times, want %d: %+v", len(adj.reqs), tc.wantAsked, adj.reqs)
			}
			if r.Verdict != tc.wantVerdict {
				t.Errorf("verdict %s, want %s", r.Verdict, tc.wantVerdict)
			}
			for _, req := range adj.reqs {
				if req.Entity != "Notion" || req.Sentence != tc.text || req.Query != query || !ambiguous(req.Score) {
					t.Errorf("request %+v", req)
				}
				for _, part := range []string{`"Notion"`, `"` + query + `"`, `"` + tc.text + `"`, "yes or no"} {
					if !strings.Contains(req.Prompt, part) {
						t.Errorf("prompt lacks %s:\n%s", part, req.Prompt)
					}
				}
			}
			// Detect is the offline, rule-based path: never consulted.
			before := len(adj.reqs)
			d.Detect(tc.text, nil)
			if len(adj.reqs) != before {
				t.Errorf("Detect consulted the adjudicator")
			}
		})
	}
}

func TestAdjudicatorErrorKeepsTheRules(t *testing.T) {
	boom := errors.New("model unavailable")
	adj := &fakeAdjudicator{err: boom}
	d := New(notion, nil, WithAdjudicator(adj))
	in := Input{Text: "Notion is known for its flexibility.", Query: "note taking app for students"}
	r, err := d.Analyze(context.Background(), in)
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want it to wrap %v", err, boom)
	}
	rules, _ := New(notion, nil).Analyze(context.Background(), in)
	if r.Verdict != rules.Verdict || r.Confidence != rules.Confidence || !r.Ambiguous {
		t.Errorf("with a failing adjudicator %s/%.2f/%v, rules alone %s/%.2f", r.Verdict, r.Confidence, r.Ambiguous, rules.Verdict, rules.Confidence)
	}
}

func TestAnalyzeIsPureAndVersioned(t *testing.T) {
	d := New(notion, []Entity{{Name: "Obsidian", Domains: []string{"obsidian.md"}}})
	in := Input{Text: "Notion is known for its flexibility. Obsidian offers plugins.", Query: "notion or obsidian"}
	a, _ := d.Analyze(context.Background(), in)
	b, _ := New(notion, []Entity{{Name: "Obsidian", Domains: []string{"obsidian.md"}}}).Analyze(context.Background(), in)
	if a.Version != Version || a.Verdict != b.Verdict || a.VisibilityScore != b.VisibilityScore || a.Sentiment != b.Sentiment {
		t.Fatalf("re-running detection differs: %+v vs %+v", a, b)
	}
}

func TestVerdictsList(t *testing.T) {
	got := Verdicts()
	want := []Verdict{VerdictMentioned, VerdictUnknownToModel, VerdictCitedOnly, VerdictOrdinaryWord, VerdictNotMentioned}
	if len(got) != len(want) {
		t.Fatalf("%v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%v, want %v", got, want)
		}
	}
	got[0] = "changed" // the list is a fresh copy
	if Verdicts()[0] != VerdictMentioned {
		t.Fatal("Verdicts shares its backing array")
	}
}
