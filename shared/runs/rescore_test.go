package runs_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/citations"
	"github.com/brandlens/brandlens/shared/competitors"
	"github.com/brandlens/brandlens/shared/detect"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/meter"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/workflow"
	"github.com/brandlens/brandlens/statemachines"
)

// aliasOnly names the brand only by an alias the profile does not have yet.
type aliasOnly struct{ platform string }

func (a aliasOnly) Platform() string { return a.platform }

func (a aliasOnly) Answer(_ context.Context, r providers.Request) (providers.Answer, error) {
	return providers.Answer{Platform: a.platform, Model: "m-1",
		Text: "For a team wiki, AcmeNotes is the fastest to set up. Evernote is older, and Notion is popular with larger teams."}, nil
}

// rescore runs a re-scoring job of brand profile 1 through the
// brand-rescore workflow and returns the settled job and its result.
func rescore(t *testing.T, x *execEnv) (jobs.Job, runs.RescoreResult) {
	t.Helper()
	ctx := context.Background()
	m := meter.New(x.svc.Table, x.svc.Tenants, x.svc.Ledger, x.svc.Jobs, nil, x.clock.Now, nil)
	a, err := m.Create(ctx, x.svc.Runs.RescoreRequest(1, 1, audit.ActorOf(x.p)))
	if err != nil {
		t.Fatal(err)
	}
	def, err := workflow.Load(statemachines.BrandRescore, runs.RescoreSubstitutions)
	if err != nil {
		t.Fatal(err)
	}
	// Batches of 3 answers: the workflow loops over several invocations.
	small := *x.svc.Runs
	small.RescoreBatch = 3
	h := m.Handlers()
	calls := new(int)
	for k, v := range small.RescoreHandlers() {
		h[k] = func(ctx context.Context, in json.RawMessage) (json.RawMessage, error) {
			*calls++
			return v(ctx, in)
		}
	}
	wf := workflow.NewLocal(map[string]*workflow.Machine{"rescore": def}, h, workflow.WithRetryScale(0.001))
	defer wf.Close()
	in, _ := json.Marshal(meter.Message{JobID: a.Job.ID, TenantID: 1, Type: a.Job.Type})
	if err := wf.Start(ctx, "rescore", a.Job.ID, in); err != nil {
		t.Fatal(err)
	}
	if _, err := wf.Wait(ctx, "rescore", a.Job.ID); err != nil {
		t.Fatal(err)
	}
	if *calls != 2 {
		t.Fatalf("%d invocations of the re-scoring step for 4 answers in batches of 3", *calls)
	}
	j, err := x.svc.Jobs.Get(ctx, 1, a.Job.ID)
	if err != nil {
		t.Fatal(err)
	}
	var res runs.RescoreResult
	raw, _ := json.Marshal(j.Result)
	json.Unmarshal(raw, &res)
	return j, res
}

func mentionCitations(t *testing.T, x *execEnv, f citations.Filter) []citations.Citation {
	t.Helper()
	page, err := x.svc.Citations.List(context.Background(), 1, f, citations.PageRequest{Size: 100})
	if err != nil {
		t.Fatal(err)
	}
	var out []citations.Citation
	for _, raw := range page.Items {
		var c citations.Citation
		if err := json.Unmarshal([]byte(raw), &c); err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

// Re-scoring after an alias is added turns the answers that name only that
// alias into mentions — verdicts, a mention citation per answer, the
// filter attributes — and counts a competitor tracked since; running it
// again changes nothing more.
func TestRescoreAfterAnAliasIsAdded(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		x := newExecEnv(t, e, nil)
		ctx := context.Background()
		for _, p := range []string{"chatgpt", "perplexity"} {
			x.provs[p] = aliasOnly{p}
		}
		if j := x.run(t, 2); j.Status != jobs.StatusSucceeded {
			t.Fatalf("run %+v", j)
		}
		yes, no := true, false
		if got := mentionCitations(t, x, citations.Filter{HasMention: &yes}); len(got) != 0 {
			t.Fatalf("before: %d citations with a mention", len(got))
		}
		if _, _, err := x.svc.Competitors.Create(ctx, competitors.Spec{TenantID: 1, Name: "Evernote"}); err != nil {
			t.Fatal(err)
		}
		aliases := []string{"AcmeNotes"}
		if _, err := x.svc.Tenants.UpdateBrand(ctx, 1, 1, tenants.BrandChange{Aliases: &aliases}); err != nil {
			t.Fatal(err)
		}

		j, res := rescore(t, x)
		if j.Status != jobs.StatusSucceeded || j.CreditsCharged != meter.PriceRescore {
			t.Fatalf("re-scoring job %+v", j)
		}
		if res.Answers != 4 || res.Changed != 4 || res.NewMentions != 4 || res.CitationsAdded != 4 || res.DetectorVersion != detect.Version {
			t.Fatalf("result %+v", res)
		}
		got := mentionCitations(t, x, citations.Filter{HasMention: &yes, DetectionVerdict: string(detect.VerdictMentioned)})
		if len(got) != 4 {
			t.Fatalf("after: %d mentioned citations", len(got))
		}
		for _, c := range got {
			if c.Snippet == nil || c.AICitationMetrics.MentionCount != 1 || c.Tags[0] != "mention" || c.VisibilityResultID == nil {
				t.Fatalf("citation %+v", c)
			}
		}
		if rest := mentionCitations(t, x, citations.Filter{HasMention: &no}); len(rest) != 0 {
			t.Fatalf("%d citations still without a mention", len(rest))
		}
		ev := competitorNamed(t, x, "Evernote")
		if ev.TotalMentions != 4 || ev.VisibilityRank == nil {
			t.Fatalf("Evernote after re-scoring: %+v", ev)
		}
		notion := competitorNamed(t, x, "Notion").TotalMentions

		j2, res2 := rescore(t, x)
		if j2.Status != jobs.StatusSucceeded || res2.Answers != 4 || res2.Changed != 0 || res2.CitationsAdded != 0 || res2.CitationsUpdated != 0 {
			t.Fatalf("second re-scoring %+v %+v", j2, res2)
		}
		if n := len(mentionCitations(t, x, citations.Filter{HasMention: &yes})); n != 4 {
			t.Fatalf("%d mention citations after the second re-scoring", n)
		}
		if ev2 := competitorNamed(t, x, "Evernote"); ev2.TotalMentions != 4 || competitorNamed(t, x, "Notion").TotalMentions != notion {
			t.Fatalf("competitor totals moved on a second re-scoring: %+v", ev2)
		}

		// The alias removed again: the answers are no mention any more.
		none := []string{}
		if _, err := x.svc.Tenants.UpdateBrand(ctx, 1, 1, tenants.BrandChange{Aliases: &none}); err != nil {
			t.Fatal(err)
		}
		_, res3 := rescore(t, x)
		if res3.LostMentions != 4 || len(mentionCitations(t, x, citations.Filter{HasMention: &yes})) != 0 {
			t.Fatalf("after removing the alias: %+v", res3)
		}
	})
}

func competitorNamed(t *testing.T, x *execEnv, name string) competitors.Competitor {
	t.Helper()
	cs, err := x.svc.Competitors.List(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		if c.NameOrEmpty() == name {
			return c
		}
	}
	t.Fatalf("no competitor %s", name)
	return competitors.Competitor{}
}
