package runs_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/brandlens/brandlens/shared/adjudication"
	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/detect"
	"github.com/brandlens/brandlens/shared/models"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
)

// answering is a chat model that answers every question with text and
// records the prompts it was sent.
type answering struct {
	text string
	mu   sync.Mutex
	sent []string
}

func (g *answering) Generate(_ context.Context, req models.Request) (models.Response, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, m := range req.Messages {
		g.sent = append(g.sent, m.Content)
	}
	return models.Response{Text: g.text, Vendor: "openai", Model: "gpt-5-mini", InputTokens: 150, OutputTokens: 1,
		CostUSD: 0.0000395, CostKnown: true}, nil
}

func (g *answering) reset() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.sent = nil
}

// A configured adjudicator decides the mentions the rules find ambiguous:
// a "no" drops the mention the rules accepted, an unclear answer leaves the
// rules' decision, and every question is audited with its exact prompt and
// answer on the visibility result it decided.
func TestAdjudicatorDecidesAmbiguousMentions(t *testing.T) {
	cases := []struct {
		name      string
		answer    string // "" : no adjudicator
		mentioned bool
		outcome   string
	}{
		{"no adjudicator: the rules accept", "", true, ""},
		{"the model says no", "No.", false, audit.OutcomeSucceeded},
		{"the model says yes", "yes", true, audit.OutcomeSucceeded},
		{"an unclear answer leaves the rules", "Probably the product.", true, audit.OutcomeFailed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			gen := &answering{text: tc.answer}
			var adj runs.Adjudicator
			if tc.answer != "" {
				adj = adjudication.New(gen, 0)
			}
			backendsWith(t, adj, func(t *testing.T, e *env) {
				gen.reset() // the backends run one after the other
				x := newExecEnv(t, e, map[string]string{"chatgpt": "ambiguous", "perplexity": "ambiguous"})
				ctx := context.Background()
				j := x.run(t, 1)
				items, err := store.All(ctx, x.svc.Table, store.Query{PK: tenants.PK(1), SK: store.SKBeginsWith("VISRESULT#")})
				if err != nil {
					t.Fatal(err)
				}
				var vrs []runs.VisibilityResult
				for _, it := range items {
					vr, err := store.Doc[runs.VisibilityResult](it)
					if err != nil {
						t.Fatal(err)
					}
					vrs = append(vrs, vr)
				}
				if len(vrs) != 2 {
					t.Fatalf("%d visibility results", len(vrs))
				}
				for _, vr := range vrs {
					if got := vr.CompetitorMentions["Notion"] > 0; got != tc.mentioned {
						t.Errorf("%s: Notion mentioned %v, want %v (%+v)", vr.Platform, got, tc.mentioned, vr.CompetitorMentions)
					}
				}
				page, err := audit.NewLog(x.svc.Table).List(ctx, 1, audit.Filter{Action: runs.ActionAdjudicate})
				if err != nil {
					t.Fatal(err)
				}
				if tc.answer == "" {
					if len(page.Items) != 0 {
						t.Fatalf("audited %d adjudications without an adjudicator", len(page.Items))
					}
					return
				}
				if len(page.Items) != 2 || len(gen.sent) != 2 {
					t.Fatalf("%d entries for %d prompts, want 2", len(page.Items), len(gen.sent))
				}
				byResource := map[string]bool{}
				for _, vr := range vrs {
					byResource[audit.Resource("visibility_result", vr.ID)] = true
				}
				for _, en := range page.Items {
					m := en.Model
					if m == nil || len(m.Prompt) != 1 || m.Prompt[0].Role != models.RoleUser || m.Prompt[0].Content != gen.sent[0] {
						t.Fatalf("entry prompt %+v, sent %q", m, gen.sent)
					}
					if !strings.Contains(m.Prompt[0].Content, `"Notion is known for its flexibility."`) ||
						!strings.Contains(m.Prompt[0].Content, `"best note taking app"`) ||
						!strings.HasPrefix(m.Prompt[0].Content, strings.SplitN(detect.AdjudicationPrompt, "\n", 2)[0]) {
						t.Errorf("prompt %q", m.Prompt[0].Content)
					}
					if m.Response != tc.answer || m.Model != "gpt-5-mini" || m.InputTokens != 150 || !m.CostKnown {
						t.Errorf("call %+v", m)
					}
					if en.Outcome != tc.outcome || (tc.outcome == audit.OutcomeFailed) != (m.Error != "") {
						t.Errorf("outcome %s, error %q", en.Outcome, m.Error)
					}
					if !byResource[en.Resource] || en.JobID != j.ID {
						t.Errorf("entry on %s of job %s", en.Resource, en.JobID)
					}
				}
			})
		})
	}
}
