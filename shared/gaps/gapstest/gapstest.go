// Package gapstest stages recorded answers the way production records them
// (a replay provider answering real query runs) and runs metered jobs
// through their state machines in the local workflow runner, for the tests
// of gap detection and of the content steps that follow it.
package gapstest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/competitors"
	"github.com/brandlens/brandlens/shared/credits"
	"github.com/brandlens/brandlens/shared/gaps"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/meter"
	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/queries"
	"github.com/brandlens/brandlens/shared/queue"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamo"
	"github.com/brandlens/brandlens/shared/store/dynamotest"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/store/storetest"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/workflow"
)

// FiveQueries are the queries of issue 10's staging, answered in
// shared/gaps/testdata/five-queries.json, in order, with the tier each
// must get ("" for no gap).
var FiveQueries = []struct {
	Text string
	Tier gaps.Tier
}{
	{"best markdown editor for developers", gaps.TierNoMention}, // brand absent everywhere
	{"best team wiki", gaps.TierCompetitorDominated},            // always out-ranked by Notion
	{"note app with offline sync", gaps.TierLowVisibility},      // named in one answer of four
	{"simple note app for students", gaps.TierWeakMention},      // everywhere, in passing at the end
	{"acme notes review", ""},                                   // first and often (Obsidian, ahead once, is dismissed)
}

// Start is when the staged clock starts.
var Start = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// Backends runs f against the embedded store and DynamoDB Local (the test
// binary's TestMain must call dynamotest.Main).
func Backends(t *testing.T, f func(t *testing.T, tbl store.Table, clock *storetest.Clock)) {
	for _, name := range []string{"embedded", "dynamodb"} {
		t.Run(name, func(t *testing.T) {
			clock := storetest.NewClock(Start)
			var tbl store.Table
			if name == "embedded" {
				tbl = embedded.NewMemory(embedded.WithClock(clock.Now))
			} else {
				c := dynamotest.Start(t)
				tbl = dynamo.New(c, dynamotest.NewTable(t, c), dynamo.WithClock(clock.Now))
			}
			f(t, tbl, clock)
		})
	}
}

// Env is a tenant "Acme Notes" (brand acmenotes.com) tracking Notion and
// Evernote, with Obsidian tracked but dismissed.
type Env struct {
	Table       store.Table
	Clock       *storetest.Clock
	TenantID    int32
	Brand       tenants.Brand
	Tenants     *tenants.Repo
	Queries     *queries.Repo
	Competitors *competitors.Repo
	Ledger      *credits.Ledger
	Jobs        *jobs.Repo
	Meter       *meter.Service
	Detector    *gaps.Detector
	Gaps        *gaps.Repo
	Audit       *audit.Log
	Actor       audit.Actor
	// Handlers serve the workflows' steps; tests add their own.
	Handlers workflow.Handlers
}

// New stages the tenant with credits and a daily ceiling of 500.
func New(t *testing.T, tbl store.Table, clock *storetest.Clock, credits int64) *Env {
	t.Helper()
	ctx := context.Background()
	e := &Env{Table: tbl, Clock: clock,
		Tenants: tenants.NewRepo(tbl, clock.Now), Queries: queries.NewRepo(tbl, clock.Now),
		Competitors: competitors.NewRepo(tbl, clock.Now), Ledger: newLedger(tbl, clock),
		Jobs: jobs.NewRepo(tbl), Audit: audit.NewLog(tbl),
		Actor: audit.Actor{KeyID: "key_test", Kind: audit.KindAgent, AutonomyLevel: "L1"},
	}
	ten, _, err := e.Tenants.Create(ctx, tenants.Tenant{Name: "Acme Notes", DailyCreditCeiling: 500})
	must(t, err)
	e.TenantID = ten.ID
	e.Brand, _, err = e.Tenants.CreateBrand(ctx, tenants.Brand{TenantID: ten.ID, Name: "Acme Notes", Aliases: []string{"AcmeNotes"}, Domains: []string{"acmenotes.com"}})
	must(t, err)
	for _, c := range []struct{ name, domain string }{{"Notion", "notion.so"}, {"Evernote", "evernote.com"}, {"Obsidian", "obsidian.md"}} {
		_, _, err := e.Competitors.Create(ctx, competitors.Spec{TenantID: ten.ID, Name: c.name, Domains: []string{c.domain}})
		must(t, err)
	}
	e.SetDismissed(t, "Obsidian", true)
	if credits > 0 {
		must(t, e.Ledger.Grant(ctx, ten.ID, credits, "test"))
	}
	e.Meter = meter.New(tbl, e.Tenants, e.Ledger, e.Jobs, nil, clock.Now, nil)
	e.Detector = gaps.NewDetector(tbl, e.Tenants, e.Queries, e.Competitors, gaps.Defaults, clock.Now)
	e.Gaps = gaps.NewRepo(tbl, clock.Now)
	e.Handlers = workflow.Handlers{}
	for k, h := range e.Meter.Handlers() {
		e.Handlers[k] = h
	}
	for k, h := range e.Detector.Handlers() {
		e.Handlers[k] = h
	}
	return e
}

func newLedger(tbl store.Table, clock *storetest.Clock) *credits.Ledger {
	return credits.NewLedger(tbl, clock.Now)
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// SetDismissed dismisses or restores a tracked competitor by name.
func (e *Env) SetDismissed(t *testing.T, name string, dismissed bool) {
	t.Helper()
	ctx := context.Background()
	snaps, err := e.Competitors.Snapshots(ctx, e.TenantID)
	must(t, err)
	for _, snap := range snaps {
		if snap.Value.NameOrEmpty() != name {
			continue
		}
		next := snap.Value
		next.IsDismissed = dismissed
		next.DismissedAt = nil
		if dismissed {
			at := e.Clock.Now()
			next.DismissedAt = &at
		}
		op, err := e.Competitors.ReplaceOp(snap, next)
		must(t, err)
		must(t, e.Table.TransactWrite(ctx, op))
		return
	}
	t.Fatalf("no competitor %q", name)
}

// AddQuery adds an active monitoring query of the brand on chatgpt and
// perplexity.
func (e *Env) AddQuery(t *testing.T, text string) queries.Query {
	t.Helper()
	daily := queries.ScheduleDaily
	q, _, err := e.Queries.Create(context.Background(), queries.Query{TenantID: e.TenantID, BrandProfileID: e.Brand.ID,
		Text: text, Platforms: []string{platforms.ChatGPT, platforms.Perplexity}, Schedule: &daily})
	must(t, err)
	return q
}

// Record runs the query once with samples answers per platform from the
// replay file, through the production write path and steps (runs.Start,
// MarkRunning, RunPlatform, Settle), and returns the settled run. The run's
// credits are granted first, so staging does not spend the test's credits.
func (e *Env) Record(t *testing.T, replay string, queryID int32, samples int) jobs.Job {
	t.Helper()
	ctx := context.Background()
	r, err := providers.ParseReplay([]byte(replay))
	must(t, err)
	set := providers.Set{}
	for _, p := range platforms.All {
		set[p] = r.Provider(p)
	}
	svc, err := runs.New(runs.Deps{Table: e.Table, Tenants: e.Tenants, Queries: e.Queries, Ledger: e.Ledger, Jobs: e.Jobs,
		Competitors: e.Competitors, Providers: set, Sender: queue.NewLocal(queue.LocalOptions{}), Now: e.Clock.Now})
	must(t, err)
	q, err := e.Queries.Get(ctx, e.TenantID, queryID)
	must(t, err)
	must(t, e.Ledger.Grant(ctx, e.TenantID, int64(len(q.Platforms)*samples), "staging"))
	a, err := svc.Start(ctx, runs.Request{TenantID: e.TenantID, QueryID: queryID, Samples: samples})
	must(t, err)
	mr, err := svc.MarkRunning(ctx, runs.StepInput{JobID: a.Job.ID, TenantID: e.TenantID})
	must(t, err)
	var results []runs.PlatformOutput
	for _, it := range mr.Items {
		out, err := svc.RunPlatform(ctx, it)
		if err != nil {
			t.Fatalf("staging %s sample %d of query %d: %v", it.Platform, it.Sample, queryID, err)
		}
		results = append(results, out)
		e.Clock.Advance(time.Second)
	}
	_, err = svc.Settle(ctx, runs.SettleInput{JobID: a.Job.ID, TenantID: e.TenantID, Results: results})
	must(t, err)
	j, err := e.Jobs.Get(ctx, e.TenantID, a.Job.ID)
	must(t, err)
	e.Clock.Advance(time.Minute)
	return j
}

// RunJob creates the metered job and runs it through the state machine def
// in the local workflow runner, returning the settled job.
func (e *Env) RunJob(t *testing.T, def []byte, subst map[string]string, req meter.Request) jobs.Job {
	t.Helper()
	ctx := context.Background()
	a, err := e.Meter.Create(ctx, req)
	must(t, err)
	return e.Execute(t, def, subst, a.Job)
}

// Execute runs an accepted job's workflow and returns the settled job.
func (e *Env) Execute(t *testing.T, def []byte, subst map[string]string, j jobs.Job) jobs.Job {
	t.Helper()
	ctx := context.Background()
	m, err := workflow.Load(def, subst)
	must(t, err)
	wf := workflow.NewLocal(map[string]*workflow.Machine{"job": m}, e.Handlers, workflow.WithRetryScale(0.001))
	defer wf.Close()
	in, err := json.Marshal(meter.Message{JobID: j.ID, TenantID: j.TenantID, Type: j.Type})
	must(t, err)
	must(t, wf.Start(ctx, "job", j.ID, in))
	if _, err := wf.Wait(ctx, "job", j.ID); err != nil {
		t.Fatalf("workflow of job %s: %v", j.ID, err)
	}
	out, err := e.Jobs.Get(ctx, e.TenantID, j.ID)
	must(t, err)
	return out
}

// Detect runs a gap detection of the brand profile as a metered job.
func (e *Env) Detect(t *testing.T, def []byte) (jobs.Job, gaps.Result) {
	t.Helper()
	j := e.RunJob(t, def, gaps.Substitutions, e.Detector.Request(e.TenantID, e.Brand.ID, e.Actor))
	var res gaps.Result
	if j.Status == jobs.StatusSucceeded {
		raw, err := json.Marshal(j.Result)
		must(t, err)
		must(t, json.Unmarshal(raw, &res))
	}
	e.Clock.Advance(time.Minute)
	return j, res
}

// Balance reads the tenant's ledger.
func (e *Env) Balance(t *testing.T) credits.Balance {
	t.Helper()
	b, err := e.Ledger.Balance(context.Background(), e.TenantID)
	must(t, err)
	return b
}

// CountEvents counts the tenant's outbox events of type typ.
func (e *Env) CountEvents(t *testing.T, typ string) int {
	t.Helper()
	items, err := store.All(context.Background(), e.Table, store.Query{PK: tenants.PK(e.TenantID), SK: store.SKBeginsWith("EVENT#")})
	must(t, err)
	n := 0
	for _, it := range items {
		if it.String("type") == typ {
			n++
		}
	}
	return n
}
