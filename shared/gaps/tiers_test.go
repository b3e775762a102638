package gaps_test

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/brandlens/brandlens/shared/gaps"
	"github.com/brandlens/brandlens/shared/gaps/gapstest"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/meter"
	"github.com/brandlens/brandlens/shared/opportunities"
	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamotest"
	"github.com/brandlens/brandlens/shared/store/storetest"
	"github.com/brandlens/brandlens/statemachines"
)

func TestMain(m *testing.M) { dynamotest.Main(m) }

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The five staged queries, in the order of the issue.
var fiveQueries = gapstest.FiveQueries

// Replayed answers of five queries, recorded by real runs, give exactly the
// four tiers on the first four queries and no gap on the fifth; a second
// detection adds no duplicate; answers that name the brand resolve the
// no_mention gap. Each detection is a metered job through
// gap-detection.asl.json: 5 credits captured when it succeeds.
func TestFiveQueriesGiveTheFourTiers(t *testing.T) {
	t.Parallel() // waits on DynamoDB Local: overlap it with the other such tests
	gapstest.Backends(t, func(t *testing.T, tbl store.Table, clock *storetest.Clock) {
		ctx := context.Background()
		e := gapstest.New(t, tbl, clock, 100)
		replay := readFile(t, "testdata/five-queries.json")
		ids := make([]int32, len(fiveQueries))
		for i, fq := range fiveQueries {
			q := e.AddQuery(t, fq.Text)
			ids[i] = q.ID
			if j := e.Record(t, replay, q.ID, 2); j.Status != jobs.StatusSucceeded {
				t.Fatalf("staging run of %q: %s", fq.Text, j.Status)
			}
		}
		before := e.Balance(t)

		j, res := e.Detect(t, statemachines.GapDetection)
		if j.Status != jobs.StatusSucceeded || j.CreditsCharged != meter.PriceGapDetection {
			t.Fatalf("detection job: status %s, charged %d (error %v)", j.Status, j.CreditsCharged, j.Error)
		}
		after := e.Balance(t)
		if after.Captured-before.Captured != 5 || after.Available != before.Available-5 || after.Held != 0 {
			t.Errorf("credits: captured %d→%d, available %d→%d, held %d", before.Captured, after.Captured, before.Available, after.Available, after.Held)
		}
		if res.Detected != 4 || res.Updated != 0 || res.Resolved != 0 || len(res.Skipped) != 0 {
			t.Errorf("result: %+v", res)
		}
		open := openGaps(t, e)
		for i, fq := range fiveQueries {
			g, ok := open[ids[i]]
			switch {
			case fq.Tier == "" && ok:
				t.Errorf("%q: gap %s, want none (metrics %+v)", fq.Text, g.Tier, g.Metrics.Metrics)
			case fq.Tier != "" && !ok:
				t.Errorf("%q: no gap, want %s", fq.Text, fq.Tier)
			case ok && g.Tier != fq.Tier:
				t.Errorf("%q: tier %s, want %s (metrics %+v)", fq.Text, g.Tier, fq.Tier, g.Metrics.Metrics)
			}
		}
		if len(open) != 4 {
			t.Errorf("%d open gaps, want 4", len(open))
		}
		checkGapShapes(t, e, open, ids)
		if n := e.CountEvents(t, outbox.GapDetected); n != 4 {
			t.Errorf("%d gap.detected events, want 4", n)
		}
		if n := e.CountEvents(t, outbox.OpportunityCreated); n != 4 {
			t.Errorf("%d opportunity.created events, want 4", n)
		}

		// A second detection over the same answers updates, never duplicates.
		j2, res2 := e.Detect(t, statemachines.GapDetection)
		if j2.Status != jobs.StatusSucceeded || res2.Detected != 0 || res2.Updated != 4 || res2.Resolved != 0 {
			t.Fatalf("second detection: %s %+v", j2.Status, res2)
		}
		all, _, err := e.Gaps.List(ctx, e.TenantID, "", 200, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(all) != 4 {
			t.Errorf("%d gaps after the second detection, want 4", len(all))
		}
		opps, _, err := opportunities.NewRepo(tbl).List(ctx, e.TenantID, "", 200, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(opps) != 4 {
			t.Errorf("%d opportunities, want 4 (one per gap)", len(opps))
		}
		if n := e.CountEvents(t, outbox.GapDetected); n != 4 {
			t.Errorf("%d gap.detected events after re-detection, want still 4", n)
		}

		// The brand now appears in the answers of the first query.
		noMention := open[ids[0]]
		e.Record(t, readFile(t, "testdata/brand-appears.json"), ids[0], 2)
		_, res3 := e.Detect(t, statemachines.GapDetection)
		g, err := e.Gaps.Get(ctx, e.TenantID, noMention.ID)
		if err != nil {
			t.Fatal(err)
		}
		if g.Status != gaps.StatusResolved || g.ResolvedAt == nil {
			t.Errorf("no_mention gap after the brand appeared: status %s", g.Status)
		}
		if res3.Resolved != 1 || !slices.Contains(res3.Queries[0].Resolved, noMention.ID) {
			t.Errorf("third detection: %+v", res3)
		}
		if cur, ok := openGaps(t, e)[ids[0]]; ok && cur.Tier == gaps.TierNoMention {
			t.Errorf("query 1 still has a no_mention gap")
		}
		resolved, _, err := e.Gaps.List(ctx, e.TenantID, gaps.StatusResolved, 50, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(resolved) != 1 || resolved[0].ID != noMention.ID {
			t.Errorf("status=resolved lists %d gaps", len(resolved))
		}
	})
}

// openGaps maps query id → its open gap.
func openGaps(t *testing.T, e *gapstest.Env) map[int32]gaps.Gap {
	t.Helper()
	gs, _, err := e.Gaps.List(context.Background(), e.TenantID, gaps.StatusOpen, 200, "")
	if err != nil {
		t.Fatal(err)
	}
	out := map[int32]gaps.Gap{}
	for _, g := range gs {
		if prev, dup := out[g.QueryID]; dup {
			t.Errorf("query %d has two open gaps: %s and %s", g.QueryID, prev.Tier, g.Tier)
		}
		out[g.QueryID] = g
	}
	return out
}

// checkGapShapes checks what each staged gap records.
func checkGapShapes(t *testing.T, e *gapstest.Env, open map[int32]gaps.Gap, ids []int32) {
	t.Helper()
	ctx := context.Background()
	for _, g := range open {
		if g.OpportunityID == "" || g.QueryText == "" || len(g.Platforms) == 0 || g.Metrics.Answers != 4 ||
			len(g.Metrics.PerPlatform) != 2 || len(g.Evidence.Snippets) == 0 || g.Metrics.Window.Runs != 1 {
			t.Errorf("%s gap is incomplete: %+v", g.Tier, g)
		}
		o, err := opportunities.NewRepo(e.Table).Get(ctx, e.TenantID, g.OpportunityID)
		if err != nil {
			t.Fatal(err)
		}
		if o.GapID != g.ID || o.Tier != string(g.Tier) || o.Status != opportunities.StatusOpen || o.Priority < 1 || o.Priority > 100 {
			t.Errorf("opportunity of the %s gap: %+v", g.Tier, o)
		}
	}
	dom := open[ids[1]]
	if top := dom.Metrics.TopCompetitor; top == nil || top.Name != "Notion" || top.Answers != 4 || dom.Metrics.OutrankedShare != 1 {
		t.Errorf("competitor_dominated: top competitor %+v, outranked %v", top, dom.Metrics.OutrankedShare)
	}
	if mr := dom.Metrics.MeanRank; mr == nil || *mr < 2 {
		t.Errorf("competitor_dominated: mean rank %v", mr)
	}
	low := open[ids[2]]
	if r := low.Metrics.MentionRate; r.Value != 0.25 || r.Low <= 0 || r.High >= 1 || r.High <= 0.5 {
		t.Errorf("low_visibility: mention rate %+v", r)
	}
	weak := open[ids[3]]
	if weak.Metrics.MentionRate.Value != 1 || weak.Metrics.LateShare != 1 || weak.Metrics.OutrankedShare != 0 {
		t.Errorf("weak_mention metrics: %+v", weak.Metrics.Metrics)
	}
	nm := open[ids[0]]
	pages := nm.Evidence.CompetitorPages
	if len(pages) == 0 || !slices.ContainsFunc(pages, func(p opportunities.CompetitorPage) bool { return p.Name == "Notion" }) {
		t.Errorf("no_mention evidence pages: %+v", pages)
	}
}
