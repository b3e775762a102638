package gaps_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/gaps"
	"github.com/brandlens/brandlens/shared/gaps/gapstest"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/meter"
	"github.com/brandlens/brandlens/shared/opportunities"
	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/queries"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/store/storetest"
	"github.com/brandlens/brandlens/statemachines"
)

func replayOf(t *testing.T, query string, texts ...string) string {
	t.Helper()
	var answers []map[string]any
	for _, p := range []string{"chatgpt", "perplexity"} {
		for _, text := range texts {
			answers = append(answers, map[string]any{"platform": p, "query": query, "text": text})
		}
	}
	b, err := json.Marshal(map[string]any{"answers": answers})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func newMemEnv(t *testing.T) *gapstest.Env {
	clock := storetest.NewClock(gapstest.Start)
	return gapstest.New(t, embedded.NewMemory(embedded.WithClock(clock.Now)), clock, 100)
}

// The window is the last 30 days and at most the latest 5 runs; a query
// with no answers in it is skipped, and its gaps are left as they are.
func TestWindow(t *testing.T) {
	ctx := context.Background()
	e := newMemEnv(t)
	q := e.AddQuery(t, "best team wiki")
	absent := replayOf(t, q.Text, "Notion is the usual choice for a team wiki.")
	present := replayOf(t, q.Text, "Acme Notes is the best team wiki: Acme Notes is fast, and Acme Notes is simple to set up for everyone.")
	var runs []jobs.Job
	for i := range 7 {
		r := absent
		if i >= 2 {
			r = present // the two oldest runs never name the brand
		}
		runs = append(runs, e.Record(t, r, q.ID, 2))
		e.Clock.Advance(time.Hour)
	}
	vrs, err := gaps.Defaults.ReadWindow(ctx, e.Table, e.TenantID, q.ID, e.Clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, vr := range vrs {
		seen[vr.JobID] = true
	}
	if len(vrs) != 5*4 || len(seen) != 5 || seen[runs[0].ID] || seen[runs[1].ID] || !seen[runs[6].ID] {
		t.Fatalf("window: %d answers of %d runs", len(vrs), len(seen))
	}
	_, res := e.Detect(t, statemachines.GapDetection)
	if res.Detected != 0 || len(res.Queries) != 1 || res.Queries[0].Answers != 20 {
		t.Errorf("detection over the latest five runs: %+v", res)
	}

	e.Clock.Advance(31 * 24 * time.Hour)
	j, res := e.Detect(t, statemachines.GapDetection)
	if j.Status != jobs.StatusSucceeded || len(res.Skipped) != 1 || res.Skipped[0].QueryID != q.ID || len(res.Queries) != 0 {
		t.Errorf("after 31 days: %s %+v", j.Status, res)
	}
}

// Dismissed competitors do not count: Obsidian named before the brand out-
// ranks it only while it is tracked.
func TestDismissedCompetitorDoesNotCount(t *testing.T) {
	ctx := context.Background()
	e := newMemEnv(t)
	q := e.AddQuery(t, "local-first notes")
	e.Record(t, replayOf(t, q.Text,
		"Obsidian is the classic local-first notes app. Acme Notes is the best local-first option for teams: Acme Notes syncs peer to peer and Acme Notes encrypts every note.",
	), q.ID, 2)
	if _, res := e.Detect(t, statemachines.GapDetection); res.Detected != 0 {
		t.Fatalf("with Obsidian dismissed: %+v", res.Queries)
	}
	e.SetDismissed(t, "Obsidian", false)
	_, res := e.Detect(t, statemachines.GapDetection)
	if res.Detected != 1 || *res.Queries[0].Tier != gaps.TierCompetitorDominated {
		t.Fatalf("with Obsidian tracked: %+v", res.Queries)
	}
	g, err := e.Gaps.Get(ctx, e.TenantID, res.Queries[0].GapID)
	if err != nil || g.Metrics.TopCompetitor.Name != "Obsidian" {
		t.Errorf("gap %+v %v", g.Metrics.TopCompetitor, err)
	}
	// Dismissed gaps stay dismissed, and no new gap opens for the same tier.
	if _, err := e.Gaps.Dismiss(ctx, e.TenantID, g.OpportunityID, e.Actor); err != nil {
		t.Fatal(err)
	}
	_, res = e.Detect(t, statemachines.GapDetection)
	if res.Detected != 0 || res.Updated != 1 {
		t.Errorf("after dismissal: %+v", res)
	}
	if g, _ := e.Gaps.Get(ctx, e.TenantID, g.ID); g.Status != gaps.StatusDismissed {
		t.Errorf("dismissed gap became %s", g.Status)
	}
	if o, err := e.Gaps.Dismiss(ctx, e.TenantID, g.OpportunityID, e.Actor); err != nil || o.Status != opportunities.StatusDismissed {
		t.Errorf("second dismissal: %s %v", o.Status, err)
	}
}

// A published opportunity's gap is addressed; re-detection keeps it
// addressed while the tier holds, and resolves it once it no longer does.
func TestAddressedGap(t *testing.T) {
	ctx := context.Background()
	e := newMemEnv(t)
	q := e.AddQuery(t, "best team wiki")
	e.Record(t, replayOf(t, q.Text, "Notion is the usual choice for a team wiki."), q.ID, 2)
	_, res := e.Detect(t, statemachines.GapDetection)
	id := res.Queries[0].GapID
	ops, err := e.Gaps.AddressOps(ctx, e.TenantID, id, e.Clock.Now())
	if err != nil || len(ops) != 1 {
		t.Fatalf("address ops %v %v", ops, err)
	}
	if err := e.Table.TransactWrite(ctx, ops...); err != nil {
		t.Fatal(err)
	}
	if ops, err := e.Gaps.AddressOps(ctx, e.TenantID, id, e.Clock.Now()); err != nil || len(ops) != 0 {
		t.Errorf("addressing an addressed gap: %v %v", ops, err)
	}
	for _, c := range []struct {
		name, answer, want string
	}{
		{"tier still holds", "Notion is still the usual choice for a team wiki.", gaps.StatusAddressed},
		{"tier no longer holds", "Acme Notes is the best team wiki: Acme Notes is fast, and Acme Notes is simple to set up for everyone.", gaps.StatusResolved},
	} {
		t.Run(c.name, func(t *testing.T) {
			e.Clock.Advance(time.Hour)
			e.Record(t, replayOf(t, q.Text, c.answer), q.ID, 5)
			e.Detect(t, statemachines.GapDetection)
			if g, err := e.Gaps.Get(ctx, e.TenantID, id); err != nil || g.Status != c.want {
				t.Errorf("gap %s %v, want %s", g.Status, err, c.want)
			}
		})
	}
}

// Concurrent detections never open the same (query, tier) twice: the
// slot's NotExists condition in the creating transaction decides.
func TestConcurrentDetections(t *testing.T) {
	t.Parallel() // waits on DynamoDB Local: overlap it with the other such tests
	gapstest.Backends(t, func(t *testing.T, tbl store.Table, clock *storetest.Clock) {
		ctx := context.Background()
		e := gapstest.New(t, tbl, clock, 100)
		replay := readFile(t, "testdata/five-queries.json")
		for _, fq := range fiveQueries[:2] {
			q := e.AddQuery(t, fq.Text)
			e.Record(t, replay, q.ID, 2)
		}
		var wg sync.WaitGroup
		errs := make([]error, 6)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = e.Detector.Run(ctx, fmt.Sprintf("01jobconcurrent%011d", i), e.TenantID, e.Brand.ID, e.Actor)
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		all, _, err := e.Gaps.List(ctx, e.TenantID, "", 200, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(all) != 2 {
			t.Errorf("%d gaps after concurrent detections, want 2", len(all))
		}
		if n := e.CountEvents(t, "gap.detected"); n != 2 {
			t.Errorf("%d gap.detected events, want 2", n)
		}
	})
}

// A detection's step delivered twice judges each query once.
func TestDetectionStepTwice(t *testing.T) {
	ctx := context.Background()
	e := newMemEnv(t)
	q := e.AddQuery(t, fiveQueries[0].Text)
	e.Record(t, readFile(t, "testdata/five-queries.json"), q.ID, 2)
	a, err := e.Meter.Create(ctx, e.Detector.Request(e.TenantID, e.Brand.ID, e.Actor))
	if err != nil {
		t.Fatal(err)
	}
	in := meter.Message{JobID: a.Job.ID, TenantID: e.TenantID}
	r1, err := e.Detector.Step(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := e.Detector.Step(ctx, in)
	if err != nil || r1.Detected != 1 || r2.Detected != 1 || r2.Queries[0].GapID != r1.Queries[0].GapID {
		t.Errorf("redelivery: %+v / %+v %v", r1, r2, err)
	}
	if n := e.CountEvents(t, "gap.detected"); n != 1 {
		t.Errorf("%d gap.detected events", n)
	}
	// An unknown brand profile is refused before anything is stored.
	if _, err := e.Meter.Create(ctx, e.Detector.Request(e.TenantID, 99, e.Actor)); err != gaps.ErrBrandProfileNotFound {
		t.Errorf("unknown profile: %v", err)
	}
}

// An answer with no text (Google showed no AI Overview) counts in the
// figures — the brand is not visible there — but is never quoted as
// evidence.
func TestAnswersWithoutTextAreNotQuoted(t *testing.T) {
	ctx := context.Background()
	e := newMemEnv(t)
	q, _, err := e.Queries.Create(ctx, queries.Query{TenantID: e.TenantID, BrandProfileID: e.Brand.ID, Text: "best team wiki",
		Platforms: []string{platforms.ChatGPT, platforms.GoogleAIOverview}})
	if err != nil {
		t.Fatal(err)
	}
	e.Record(t, `{"answers":[
	 {"platform":"google_ai_overview","query":"best team wiki","aiOverview":false,"text":"","organicResults":[{"url":"https://www.notion.so/wikis","title":"Notion wikis"}]},
	 {"platform":"chatgpt","query":"best team wiki","text":"Notion is the usual choice for a team wiki."}]}`, q.ID, 2)
	_, res := e.Detect(t, statemachines.GapDetection)
	if res.Detected != 1 || res.Queries[0].Answers != 4 {
		t.Fatalf("detection %+v", res)
	}
	g, err := e.Gaps.Get(ctx, e.TenantID, res.Queries[0].GapID)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Evidence.Snippets) == 0 {
		t.Fatal("no evidence quoted")
	}
	for _, s := range g.Evidence.Snippets {
		if s.Text == "" || s.Platform == platforms.GoogleAIOverview {
			t.Errorf("snippet %+v quotes an answer without text", s)
		}
	}
}
