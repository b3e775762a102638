package runs_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/citations"
	"github.com/brandlens/brandlens/shared/competitors"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/store/storetest"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/workflow"
	"github.com/brandlens/brandlens/shared/workflow/workflowtest"
	"github.com/brandlens/brandlens/statemachines"
)

// scripted answers per platform: "ok" names the brand and cites its
// domain, "plain" names only a competitor, "discover" recommends untracked
// brands beside the tracked ones, "fail" fails for good, "flaky" fails
// transiently twice per sample then answers.
type scripted struct {
	platform string
	mode     string
	sampleCalls
}

// sampleCalls counts a fake provider's calls per sample.
type sampleCalls struct {
	mu    sync.Mutex
	calls map[int]int
}

// next counts a call of sample and returns its number (from 1).
func (c *sampleCalls) next(sample int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.calls == nil {
		c.calls = map[int]int{}
	}
	c.calls[sample]++
	return c.calls[sample]
}

// count is how many calls sample got.
func (c *sampleCalls) count(sample int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls[sample]
}

func (s *scripted) Platform() string { return s.platform }

func (s *scripted) Answer(_ context.Context, r providers.Request) (providers.Answer, error) {
	n := s.next(r.Sample)
	switch s.mode {
	case "fail":
		return providers.Answer{}, &providers.Error{Platform: s.platform, Kind: providers.KindQuota, Status: 429, Code: "insufficient_quota", Message: "out of credit"}
	case "flaky":
		if n <= 2 {
			return providers.Answer{}, &providers.Error{Platform: s.platform, Kind: providers.KindTransient, Status: 503, Message: "overloaded"}
		}
	case "plain":
		return providers.Answer{Platform: s.platform, Text: "Teams usually pick Notion for this.", Model: "m-1"}, nil
	case "cut":
		// The second sample stops at the output limit, with a model the
		// price table does not know.
		if r.Sample == 1 {
			return providers.Answer{Platform: s.platform, Text: "Acme Notes is a strong choice because", Model: "m-2",
				Truncated: true, CostUnknown: true}, nil
		}
	case "ambiguous":
		// Notion (a tracked competitor, and an ordinary word) with only a
		// predicate and the query's topic for evidence: in the ambiguous band.
		return providers.Answer{Platform: s.platform, Text: "Notion is known for its flexibility.", Model: "m-1"}, nil
	case "discover":
		return providers.Answer{Platform: s.platform, Text: "Popular choices include Acme Notes, Notion, Obsidian and Logseq.", Model: "m-1"}, nil
	}
	text := fmt.Sprintf("For %s, Acme Notes is a strong choice (acmenotes.com). Many teams also use Notion.", r.Query)
	return providers.Answer{Platform: s.platform, Text: text, Model: "m-1",
		Citations: []providers.Citation{{URL: "https://acmenotes.com/pricing", Title: "Acme pricing", Start: -1, End: -1},
			{URL: "https://en.wikipedia.org/wiki/Note-taking", Title: "Note-taking", Start: -1, End: -1}}}, nil
}

// execEnv is an env whose runs execute through the local workflow runner.
type execEnv struct {
	*env
	wf *workflow.Local
}

func newExecEnv(t *testing.T, e *env, modes map[string]string) *execEnv {
	t.Helper()
	for p, m := range modes {
		e.provs[p] = &scripted{platform: p, mode: m}
	}
	m, err := workflow.Load(statemachines.QueryExecution, runs.Substitutions)
	if err != nil {
		t.Fatal(err)
	}
	wf := workflow.NewLocal(map[string]*workflow.Machine{runs.QueryExecution: m}, e.svc.Runs, workflow.WithRetryScale(0.001))
	t.Cleanup(func() { _ = wf.Close() })
	ctx := context.Background()
	if _, _, err := e.svc.Competitors.Create(ctx, competitors.Spec{TenantID: 1, Name: "Notion"}); err != nil {
		t.Fatal(err)
	}
	return &execEnv{env: e, wf: wf}
}

// run starts a job and waits for its workflow.
func (x *execEnv) run(t *testing.T, samples int) jobs.Job {
	t.Helper()
	r := x.req("", "")
	r.Samples = samples
	return x.runWith(t, r)
}

// runWith starts the job of r and waits for its workflow.
func (x *execEnv) runWith(t *testing.T, r runs.Request) jobs.Job {
	t.Helper()
	ctx := context.Background()
	a, err := x.svc.Runs.Start(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	in, _ := json.Marshal(runs.StepInput{JobID: a.Job.ID, TenantID: 1})
	if err := x.wf.Start(ctx, runs.QueryExecution, a.Job.ID, in); err != nil {
		t.Fatal(err)
	}
	if _, err := x.wf.Wait(ctx, runs.QueryExecution, a.Job.ID); err != nil {
		t.Fatalf("execution: %v", err)
	}
	j, err := x.svc.Jobs.Get(ctx, 1, a.Job.ID)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func (x *execEnv) events(t *testing.T) map[string]int {
	t.Helper()
	items, err := store.All(context.Background(), x.svc.Table, store.Query{PK: tenants.PK(1), SK: store.SKBeginsWith("EVENT#")})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, it := range items {
		ev, err := store.Doc[outbox.Event](it)
		if err != nil {
			t.Fatal(err)
		}
		out[ev.Type]++
	}
	return out
}

// A truncated answer and an unpriced one are recorded as such, on the
// visibility result and on the job's platform status, never as complete.
func TestRunRecordsTruncatedAndCostUnknown(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		x := newExecEnv(t, e, map[string]string{"chatgpt": "cut", "perplexity": "ok"})
		j := x.run(t, 2)
		if j.Status != jobs.StatusSucceeded {
			t.Fatalf("job %+v", j)
		}
		if st := j.PerPlatformStatus["chatgpt"]; !st.Truncated || !st.CostUnknown || st.Status != jobs.StatusSucceeded {
			t.Errorf("chatgpt status %+v", st)
		}
		if st := j.PerPlatformStatus["perplexity"]; st.Truncated || st.CostUnknown {
			t.Errorf("perplexity status %+v", st)
		}
		items, err := store.All(context.Background(), x.svc.Table, store.Query{PK: tenants.PK(1), SK: store.SKBeginsWith("VISRESULT#")})
		if err != nil {
			t.Fatal(err)
		}
		cut := 0
		for _, it := range items {
			vr, err := store.Doc[runs.VisibilityResult](it)
			if err != nil {
				t.Fatal(err)
			}
			want := vr.Platform == "chatgpt" && vr.Sample == 1
			if vr.Truncated != want || vr.CostUnknown != want {
				t.Errorf("visibility result %s/%d truncated %v costUnknown %v", vr.Platform, vr.Sample, vr.Truncated, vr.CostUnknown)
			}
			if vr.Truncated {
				cut++
			}
		}
		if len(items) != 4 || cut != 1 {
			t.Errorf("%d results, %d truncated", len(items), cut)
		}
	})
}

func TestRunSucceeds(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		x := newExecEnv(t, e, map[string]string{"chatgpt": "ok", "perplexity": "flaky"})
		j := x.run(t, 2)
		if j.Status != jobs.StatusSucceeded || j.CreditsCharged != 4 || j.StartedAt == nil || j.CompletedAt == nil {
			t.Fatalf("job %+v", j)
		}
		for _, p := range []string{"chatgpt", "perplexity"} {
			st := j.PerPlatformStatus[p]
			if st.Status != jobs.StatusSucceeded || st.Cost != 2 || st.Error != nil || st.Mentions != 2 || st.MentionRate == nil || st.MentionRate.Value != 1 {
				t.Fatalf("%s: %+v", p, st)
			}
			if st.MentionRate.Low <= 0 || st.MentionRate.Low >= 1 || st.MentionRate.High != 1 {
				t.Fatalf("%s: Wilson interval %+v", p, st.MentionRate)
			}
		}
		b := x.balance(t)
		if b.Captured != 4 || b.Held != 0 || b.Available != 36 {
			t.Fatalf("balance %+v", b)
		}
		page, err := x.svc.Citations.List(context.Background(), 1, citations.Filter{}, citations.PageRequest{Size: 100})
		if err != nil {
			t.Fatal(err)
		}
		// 4 answers × (1 mention + 2 cited sources).
		if len(page.Items) != 12 {
			t.Fatalf("%d citations", len(page.Items))
		}
		var info, own int
		for _, raw := range page.Items {
			var c citations.Citation
			if err := json.Unmarshal([]byte(raw), &c); err != nil {
				t.Fatal(err)
			}
			if *c.CitationSourceType == citations.SourceInfoSite {
				info++
			}
			if slices.Contains(c.Tags, "own_domain") {
				own++
			}
			if c.VisibilityResultID == nil || c.DetectionVerdict == nil || *c.DetectionVerdict != "mentioned" || c.AICitationMetrics.MentionCount != 2 || !c.AICitationMetrics.CompetitorMentioned {
				t.Fatalf("citation %+v", c)
			}
		}
		if info != 4 || own != 4 {
			t.Fatalf("%d info_site, %d own-domain citations", info, own)
		}
		evs := x.events(t)
		if evs[outbox.ExecutionStarted] != 1 || evs[outbox.ExecutionCompleted] != 1 || evs[outbox.MentionDetected] != 4 || evs[outbox.CompetitorEntered] != 1 {
			t.Fatalf("events %v", evs)
		}
		comp, err := x.svc.Competitors.List(context.Background(), 1)
		if err != nil {
			t.Fatal(err)
		}
		if comp[0].TotalMentions != 4 || comp[0].LastDetected == nil || comp[0].VisibilityRank == nil || *comp[0].VisibilityRank != 1 {
			t.Fatalf("competitor %+v", comp[0])
		}
	})
}

func TestRunPartialAndFailed(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		x := newExecEnv(t, e, map[string]string{"chatgpt": "plain", "perplexity": "fail"})
		j := x.run(t, 1)
		if j.Status != jobs.StatusPartial || j.CreditsCharged != 1 {
			t.Fatalf("job %+v", j)
		}
		pf := j.PerPlatformStatus["perplexity"]
		if pf.Status != jobs.StatusFailed || pf.Error == nil || pf.Cost != 0 {
			t.Fatalf("perplexity %+v", pf)
		}
		if c := j.PerPlatformStatus["chatgpt"]; c.Status != jobs.StatusSucceeded || c.Mentions != 0 || c.MentionRate.Value != 0 {
			t.Fatalf("chatgpt %+v", c)
		}
		if b := x.balance(t); b.Captured != 1 || b.Held != 0 || b.Available != 39 || b.SpentToday != 1 || b.CommittedToday != 1 {
			t.Fatalf("partial balance %+v", b)
		}

		x.provs["chatgpt"] = &scripted{platform: "chatgpt", mode: "fail"}
		j = x.run(t, 1)
		if j.Status != jobs.StatusFailed || j.CreditsCharged != 0 || j.Error == nil {
			t.Fatalf("failed job %+v", j)
		}
		if b := x.balance(t); b.Captured != 1 || b.Held != 0 || b.Available != 39 {
			t.Fatalf("a failed run must cost 0: %+v", b)
		}
		if evs := x.events(t); evs[outbox.ExecutionFailed] != 1 || evs[outbox.ExecutionCompleted] != 1 {
			t.Fatalf("events %v", evs)
		}
	})
}

func TestVisibilityDropped(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		x := newExecEnv(t, e, map[string]string{"chatgpt": "ok", "perplexity": "ok"})
		x.run(t, 1)
		x.provs["chatgpt"] = &scripted{platform: "chatgpt", mode: "plain"}
		x.run(t, 1)
		if evs := x.events(t); evs[outbox.VisibilityDropped] != 1 {
			t.Fatalf("events %v", evs)
		}
	})
}

// TestDuplicateDeliveries: every step delivered twice (concurrently for
// RunPlatform) records once and charges once.
func TestDuplicateDeliveries(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		x := newExecEnv(t, e, map[string]string{"chatgpt": "ok", "perplexity": "ok"})
		ctx := context.Background()
		a, err := x.svc.Runs.Start(ctx, x.req("", ""))
		if err != nil {
			t.Fatal(err)
		}
		in := runs.StepInput{JobID: a.Job.ID, TenantID: 1}
		m1, err := x.svc.Runs.MarkRunning(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := x.svc.Runs.MarkRunning(ctx, in)
		if err != nil || len(m2.Items) != len(m1.Items) {
			t.Fatalf("second mark: %v %v", m2, err)
		}
		var results []runs.PlatformOutput
		var mu sync.Mutex
		var wg sync.WaitGroup
		for _, it := range m1.Items {
			for range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					o, err := x.svc.Runs.RunPlatform(ctx, it)
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					results = append(results, o)
					mu.Unlock()
				}()
			}
		}
		wg.Wait()
		for range 2 {
			out, err := x.svc.Runs.Settle(ctx, runs.SettleInput{JobID: a.Job.ID, TenantID: 1, Results: results})
			if err != nil || out.Status != jobs.StatusSucceeded || out.CreditsCharged != 2 {
				t.Fatalf("settle: %+v %v", out, err)
			}
		}
		if b := x.balance(t); b.Captured != 2 || b.Held != 0 {
			t.Fatalf("balance %+v", b)
		}
		cs, _ := x.svc.Citations.List(ctx, 1, citations.Filter{}, citations.PageRequest{Size: 100})
		if len(cs.Items) != 6 {
			t.Fatalf("%d citations, want 6", len(cs.Items))
		}
		if evs := x.events(t); evs[outbox.ExecutionStarted] != 1 || evs[outbox.ExecutionCompleted] != 1 || evs[outbox.MentionDetected] != 2 {
			t.Fatalf("events %v", evs)
		}
	})
}

// TestConcurrentSettlesEnterCompetitorsOnce: two jobs whose answers name a
// tracked competitor for the first time and recommend the same two
// untracked brands settle at once, each delivered three times: the brands
// become one competitor each, and each competitor enters once.
func TestConcurrentSettlesEnterCompetitorsOnce(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		x := newExecEnv(t, e, map[string]string{"chatgpt": "discover", "perplexity": "discover"})
		ctx := context.Background()
		settles := map[string]runs.SettleInput{}
		for range 2 {
			a, err := x.svc.Runs.Start(ctx, x.req("", ""))
			if err != nil {
				t.Fatal(err)
			}
			in := runs.SettleInput{JobID: a.Job.ID, TenantID: 1}
			m, err := x.svc.Runs.MarkRunning(ctx, runs.StepInput{JobID: a.Job.ID, TenantID: 1})
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range m.Items {
				o, err := x.svc.Runs.RunPlatform(ctx, it)
				if err != nil {
					t.Fatal(err)
				}
				in.Results = append(in.Results, o)
			}
			settles[a.Job.ID] = in
		}
		var wg sync.WaitGroup
		for _, in := range settles {
			for range 3 {
				wg.Go(func() {
					if out, err := x.svc.Runs.Settle(ctx, in); err != nil || out.Status != jobs.StatusSucceeded {
						t.Errorf("settle %s: %+v %v", in.JobID, out, err)
					}
				})
			}
		}
		wg.Wait()
		comps, err := x.svc.Competitors.List(ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, c := range comps {
			names = append(names, c.NameOrEmpty())
		}
		if slices.Sort(names); !slices.Equal(names, []string{"Logseq", "Notion", "Obsidian"}) {
			t.Fatalf("competitors %q, want Logseq, Notion and Obsidian once each", names)
		}
		if evs := x.events(t); evs[outbox.CompetitorEntered] != 3 || evs[outbox.ExecutionCompleted] != 2 {
			t.Fatalf("events %v, want 3 competitor.entered and 2 execution.completed", evs)
		}
	})
}

// TestDetectedCompetitorEntersOnce: a brand detected in one run and named
// again in the next (now as a tracked competitor) entered in the first.
func TestDetectedCompetitorEntersOnce(t *testing.T) {
	x := newExecEnv(t, newClockEnv(t), map[string]string{"chatgpt": "discover", "perplexity": "discover"})
	x.run(t, 1)
	comps, err := x.svc.Competitors.List(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range comps {
		if c.NameOrEmpty() == "Obsidian" && (c.TotalMentions != 2 || c.LastDetected == nil) {
			t.Errorf("detected in both answers: totalMentions %d, lastDetected %v", c.TotalMentions, c.LastDetected)
		}
	}
	x.run(t, 1)
	if n := x.events(t)[outbox.CompetitorEntered]; n != 3 {
		t.Fatalf("%d competitor.entered after two runs, want 3 (Notion, Obsidian, Logseq once each)", n)
	}
}

// TestLedgerInvariantUnderRandomRuns: random runs with random provider
// failures, duplicate step deliveries and refusals; the ledger sums hold
// after every step and nothing stays held at the end.
func TestLedgerInvariantUnderRandomRuns(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		x := newExecEnv(t, e, map[string]string{"chatgpt": "ok", "perplexity": "ok"})
		ctx := context.Background()
		rng := rand.New(rand.NewPCG(7, 11))
		modes := []string{"ok", "plain", "fail", "flaky"}
		charged := int64(0)
		for i := range 25 {
			for _, p := range []string{"chatgpt", "perplexity"} {
				x.provs[p] = &scripted{platform: p, mode: modes[rng.IntN(len(modes))]}
			}
			r := x.req("", "")
			r.Samples = 1 + rng.IntN(2)
			a, err := x.svc.Runs.Start(ctx, r)
			if err != nil {
				x.balance(t)
				continue // refused: ceiling or credits
			}
			in := runs.StepInput{JobID: a.Job.ID, TenantID: 1}
			m, err := x.svc.Runs.MarkRunning(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			var results []runs.PlatformOutput
			for _, it := range m.Items {
				for attempt := 0; attempt < 4; attempt++ {
					o, err := x.svc.Runs.RunPlatform(ctx, it)
					if err == nil {
						results = append(results, o)
						if rng.IntN(3) == 0 { // duplicate delivery
							if _, err := x.svc.Runs.RunPlatform(ctx, it); err != nil {
								t.Fatal(err)
							}
						}
						break
					}
					if _, ok := err.(*runs.TransientProviderError); ok && attempt < 3 {
						continue
					}
					results = append(results, runs.PlatformOutput{Platform: it.Platform, Sample: it.Sample, Status: "failed",
						Error: &runs.StateError{Error: workflow.ErrorName(err), Cause: err.Error()}})
					break
				}
				x.balance(t)
			}
			for range 1 + rng.IntN(2) {
				out, err := x.svc.Runs.Settle(ctx, runs.SettleInput{JobID: a.Job.ID, TenantID: 1, Results: results})
				if err != nil {
					t.Fatalf("run %d settle: %v", i, err)
				}
				if out.CreditsCharged > a.Job.CreditsReserved {
					t.Fatalf("charged %d of %d reserved", out.CreditsCharged, a.Job.CreditsReserved)
				}
			}
			j, _ := x.svc.Jobs.Get(ctx, 1, a.Job.ID)
			charged += j.CreditsCharged
			x.balance(t)
		}
		b := x.balance(t)
		if b.Held != 0 || b.Captured != charged {
			t.Fatalf("end: %+v, charged by jobs %d", b, charged)
		}
	})
}

// TestASLDifferential runs the same job through the local runner and the
// aws-local-stepfunctions interpreter with the same Go step handlers, on two
// stores seeded alike, and compares what each run decided.
func TestASLDifferential(t *testing.T) {
	cases := map[string]map[string]string{
		"all succeed":      {"chatgpt": "ok", "perplexity": "flaky"},
		"partial":          {"chatgpt": "plain", "perplexity": "fail"},
		"every one failed": {"chatgpt": "fail", "perplexity": "fail"},
	}
	for name, modes := range cases {
		t.Run(name, func(t *testing.T) {
			outcome := func(viaJS bool) (jobs.Job, *invokeCounter) {
				clock := newClockEnv(t)
				x := newExecEnv(t, clock, modes)
				counter := &invokeCounter{inner: x.svc.Runs, n: map[string]*atomic.Int64{}}
				ctx := context.Background()
				a, err := x.svc.Runs.Start(ctx, x.req("", ""))
				if err != nil {
					t.Fatal(err)
				}
				in, _ := json.Marshal(runs.StepInput{JobID: a.Job.ID, TenantID: 1})
				if viaJS {
					workflowtest.RunInAWSLocal(t, statemachines.QueryExecution, runs.Substitutions, in, counter)
				} else {
					m, err := workflow.Load(statemachines.QueryExecution, runs.Substitutions)
					if err != nil {
						t.Fatal(err)
					}
					if _, err := m.Execute(ctx, a.Job.ID, in, counter, workflow.WithRetryScale(0.001)); err != nil {
						t.Fatal(err)
					}
				}
				j, err := x.svc.Jobs.Get(ctx, 1, a.Job.ID)
				if err != nil {
					t.Fatal(err)
				}
				return j, counter
			}
			local, lc := outcome(false)
			js, jc := outcome(true)
			if local.Status != js.Status || local.CreditsCharged != js.CreditsCharged {
				t.Fatalf("local %s/%d, aws-local-stepfunctions %s/%d", local.Status, local.CreditsCharged, js.Status, js.CreditsCharged)
			}
			for p, st := range local.PerPlatformStatus {
				o := js.PerPlatformStatus[p]
				if st.Status != o.Status || st.Cost != o.Cost || st.Mentions != o.Mentions || (st.Error == nil) != (o.Error == nil) {
					t.Fatalf("%s: local %+v, js %+v", p, st, o)
				}
			}
			if !lc.equal(jc) {
				t.Fatalf("step invocations differ: local %v, js %v", lc.counts(), jc.counts())
			}
		})
	}
}

type invokeCounter struct {
	inner workflow.Invoker
	mu    sync.Mutex
	n     map[string]*atomic.Int64
}

func (c *invokeCounter) Invoke(ctx context.Context, resource string, input json.RawMessage) (json.RawMessage, error) {
	c.mu.Lock()
	if c.n[resource] == nil {
		c.n[resource] = &atomic.Int64{}
	}
	c.n[resource].Add(1)
	c.mu.Unlock()
	return c.inner.Invoke(ctx, resource, input)
}

func (c *invokeCounter) counts() map[string]int64 {
	out := map[string]int64{}
	for k, v := range c.n {
		out[k] = v.Load()
	}
	return out
}

func (c *invokeCounter) equal(o *invokeCounter) bool {
	a, b := c.counts(), o.counts()
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// newClockEnv is a fresh env on the embedded store.
func newClockEnv(t *testing.T) *env {
	clock := storetest.NewClock(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC))
	return newEnv(t, embedded.NewMemory(embedded.WithClock(clock.Now)), clock, nil)
}
