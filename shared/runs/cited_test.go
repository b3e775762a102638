package runs_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/livepages"
	"github.com/brandlens/brandlens/shared/opportunities"
	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/store"
)

const liveURL = "https://blog.acmenotes.com/notes/researchers"

// publishedPiece stores an opportunity published at liveURL, indexed as
// the publish step indexes it.
func publishedPiece(t *testing.T, tbl store.Table) opportunities.Opportunity {
	t.Helper()
	now := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	o := opportunities.Opportunity{ID: "01jpublishedpiece000000000", TenantID: 1, GapID: "01jgap0000000000000000000", Tier: "no_mention",
		QueryID: 1, QueryText: "best note taking app", BrandProfileID: 1, Title: "Notes", Status: opportunities.StatusPublished,
		Publish: &opportunities.Publication{Status: opportunities.StatusPublished, DestinationID: "dst_1", DestinationType: "webhook",
			LiveURL: liveURL, ContentVersion: "01v1", PublishedAt: now, FirstPublishedAt: now}, CreatedAt: now, UpdatedAt: now}
	op, err := opportunities.CreateOp(o)
	if err != nil {
		t.Fatal(err)
	}
	if err := tbl.TransactWrite(context.Background(), append([]store.Op{op}, livepages.IndexOps(1, o.ID, liveURL)...)...); err != nil {
		t.Fatal(err)
	}
	return o
}

// replayCiting answers query 1 on chatgpt and perplexity with the live URL
// as the platforms write it (another scheme, host case, www., trailing
// slash, tracking parameters, a fragment).
func replayCiting(t *testing.T) *providers.Replay {
	t.Helper()
	r, err := providers.ParseReplay([]byte(`{"answers":[
		{"platform":"chatgpt","query":"best note taking app","text":"Acme Notes is a strong choice for researchers.",
		 "citations":[{"url":"http://WWW.Blog.AcmeNotes.com/notes/researchers/?utm_source=chatgpt.com","title":"Notes for researchers"},
		              {"url":"https://en.wikipedia.org/wiki/Note-taking","title":"Note-taking"}]},
		{"platform":"perplexity","query":"best note taking app","text":"Many researchers use Acme Notes.",
		 "citations":[{"url":"https://blog.acmenotes.com/notes/researchers#faq","title":"Notes"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func citedEvents(t *testing.T, tbl store.Table) []outbox.ContentCitedData {
	t.Helper()
	evs, err := outbox.Pending(context.Background(), tbl, 1000)
	if err != nil {
		t.Fatal(err)
	}
	var out []outbox.ContentCitedData
	for _, ev := range evs {
		if ev.Type != outbox.ContentCited {
			continue
		}
		var d outbox.ContentCitedData
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			t.Fatal(err)
		}
		out = append(out, d)
	}
	return out
}

// The loop closes: a later run whose replayed answers cite the published
// page's live URL (in any of its written forms) fires content.cited once
// per piece and platform — not again for a second sample or a second run —
// and the opportunity shows when and where it was first cited.
func TestReplayedAnswerCitingTheLiveURLFiresContentCitedOnce(t *testing.T) {
	e := newClockEnv(t)
	x := newExecEnv(t, e, map[string]string{})
	tbl := e.svc.Repos.Table
	o := publishedPiece(t, tbl)
	r := replayCiting(t)
	for _, p := range []string{"chatgpt", "perplexity"} {
		e.provs[p] = r.Provider(p)
	}
	x.run(t, 2) // chatgpt cites the page in both samples
	e.clock.Advance(time.Hour)
	x.run(t, 1)

	evs := citedEvents(t, tbl)
	var platforms []string
	for _, d := range evs {
		if d.OpportunityID != o.ID || d.LiveURL != liveURL || d.CitationID == 0 || d.QueryID != 1 || d.JobID == "" {
			t.Errorf("content.cited %+v", d)
		}
		platforms = append(platforms, d.Platform)
	}
	slices.Sort(platforms)
	if !slices.Equal(platforms, []string{"chatgpt", "perplexity"}) {
		t.Fatalf("content.cited on %v, want once on chatgpt and once on perplexity", platforms)
	}
	got, err := e.svc.Opportunities.Get(context.Background(), 1, o.ID)
	if err != nil {
		t.Fatal(err)
	}
	c := got.Publish.Cited
	if c == nil || c.FirstCitedAt.IsZero() || c.CitationID == 0 || len(c.Platforms) != 2 {
		t.Fatalf("opportunity cited %+v", c)
	}
}

// flakyCited fails its first Notice, as a process dying between recording
// an answer and noticing its citations would.
type flakyCited struct {
	w     *livepages.Watcher
	calls atomic.Int32
}

func (f *flakyCited) Notice(ctx context.Context, tenantID int32, cs []livepages.Citation) (int, error) {
	if f.calls.Add(1) == 1 {
		return 0, errors.New("connection reset")
	}
	return f.w.Notice(ctx, tenantID, cs)
}

// content.cited cannot be lost: when noticing fails after the answer was
// recorded, the step fails (and is retried); the retry finds the answer
// recorded and notices its citations from the stored records.
func TestContentCitedSurvivesAFailureAfterTheAnswerIsRecorded(t *testing.T) {
	e := newClockEnv(t)
	tbl := e.svc.Repos.Table
	publishedPiece(t, tbl)
	cited := &flakyCited{w: livepages.NewWatcher(tbl)}
	rs, err := runs.New(runs.Deps{Table: tbl, Tenants: e.svc.Tenants, Queries: e.svc.Queries, Ledger: e.svc.Ledger, Jobs: e.svc.Jobs,
		Competitors: e.svc.Competitors, Providers: providers.Set{"chatgpt": replayCiting(t).Provider("chatgpt")}, Sender: e.sender,
		Now: e.clock.Now, Cited: cited})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	req := e.req("", "")
	req.Platforms = []string{"chatgpt"}
	a, err := rs.Start(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	it := runs.Item{JobID: a.Job.ID, TenantID: 1, Platform: "chatgpt", Sample: 0}
	_, err = rs.RunPlatform(ctx, it)
	var sue *runs.StoreUnavailableError
	if !errors.As(err, &sue) {
		t.Fatalf("first attempt: %v, want a retryable StoreUnavailableError", err)
	}
	if n := len(citedEvents(t, tbl)); n != 0 {
		t.Fatalf("%d events before the retry", n)
	}
	for range 2 { // the retry, and a duplicate delivery of it
		out, err := rs.RunPlatform(ctx, it)
		if err != nil || out.VisibilityResultID == 0 {
			t.Fatalf("retry: %+v %v", out, err)
		}
	}
	if evs := citedEvents(t, tbl); len(evs) != 1 || evs[0].Platform != "chatgpt" {
		t.Fatalf("content.cited %+v, want exactly one", evs)
	}
}
