package app_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/meter"
	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/recaptcha"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/seed"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/embedded"
)

// counting counts the calls a provider starts and the answers it gives.
type counting struct {
	providers.Provider
	started, answered *atomic.Int32
}

func (c counting) Answer(ctx context.Context, r providers.Request) (providers.Answer, error) {
	c.started.Add(1)
	if r.Sample == 2 {
		// The third sample answers 10 s after the others.
		select {
		case <-ctx.Done():
			return providers.Answer{}, ctx.Err()
		case <-time.After(10 * time.Second):
		}
	}
	a, err := c.Provider.Answer(ctx, r)
	if err == nil {
		c.answered.Add(1)
	}
	return a, err
}

// openRuntime is a local runtime over tbl: a scheduler pass a minute, a
// grace period of a second.
func openRuntime(t *testing.T, tbl store.Table, provs providers.Set) *app.Local {
	t.Helper()
	rt, err := app.NewLocal(app.LocalOptions{Table: tbl, KeySecret: []byte("0123456789abcdef0123456789abcdef"),
		Providers: provs, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)),
		SchedulerEvery: time.Minute, ShutdownGrace: time.Second, BrandCheck: app.BrandCheckOptions{Verifier: recaptcha.Bypass{}}})
	if err != nil {
		t.Fatal(err)
	}
	return rt
}

// seedRuntime seeds tenant 1 with 1,000 credits, brand profile 1 and a
// query on every platform.
func seedRuntime(t *testing.T, rt *app.Local) {
	t.Helper()
	f := seed.File{Tenants: []seed.Tenant{{Name: "Acme Notes", Credits: 1000, DailyCreditCeiling: 1000,
		Brand:   &seed.Brand{Name: "Acme Notes", Domains: []string{"acmenotes.com"}},
		Queries: []seed.Query{{Text: "best note taking app", Platforms: platforms.All}},
		APIKeys: []seed.APIKey{{Key: key, Scopes: []string{"publish"}}}}}}
	if _, err := seed.Apply(context.Background(), rt.Services.Repos, f); err != nil {
		t.Fatal(err)
	}
}

// The local runtime is as durable as Step Functions: stopped with steps
// in flight (the grace period too short for them), it starts again every
// job that was running, from the answers already recorded — no answer is
// asked for twice or charged twice — and a job found past its deadline is
// settled from what it recorded instead.
func TestLocalRecoversInFlightJobs(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var started, answered atomic.Int32
		provs := countingProviders(t, func(k string) string { return map[string]string{providers.EnvLatency: "10s"}[k] }, &started, &answered)
		tbl := embedded.NewMemory()
		open := func() *app.Local { return openRuntime(t, tbl, provs) }
		ctx := context.Background()
		rt1 := open()
		seedRuntime(t, rt1)
		start := func(rt *app.Local) jobs.Job {
			a, err := rt.Services.Runs.Start(ctx, runs.Request{TenantID: 1, QueryID: 1, Samples: 3})
			if err != nil {
				t.Fatal(err)
			}
			return a.Job
		}
		// A job marked running by a process that died two hours ago.
		stale := start(rt1)
		if _, err := rt1.Services.Runs.MarkRunning(ctx, runs.StepInput{JobID: stale.ID, TenantID: 1}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Hour)

		run1, stop1 := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- rt1.Run(run1) }()
		inFlight := []jobs.Job{start(rt1), start(rt1)}
		// 15 items a job, all at once, 10 s each and 20 s for the third
		// sample: at 15 s ten are recorded and the other five are being
		// asked.
		time.Sleep(15 * time.Second)
		stop1()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		recorded := answered.Load()
		if recorded != 20 {
			t.Fatalf("%d answers recorded before the stop, want 20", recorded)
		}
		get := func(id string) jobs.Job {
			j, err := rt1.Services.Jobs.Get(ctx, 1, id)
			if err != nil {
				t.Fatal(err)
			}
			return j
		}
		for _, j := range inFlight {
			if st := get(j.ID).Status; st != jobs.StatusRunning {
				t.Fatalf("job %s is %s after the stop", j.ID, st)
			}
		}
		if j := get(stale.ID); j.Status != jobs.StatusFailed || j.CreditsCharged != 0 {
			t.Fatalf("the job past its deadline: %+v", j)
		}

		// Restart on the same table.
		rt2 := open()
		runAMinute(t, ctx, rt2)
		for _, j := range inFlight {
			if j := get(j.ID); j.Status != jobs.StatusSucceeded || j.CreditsCharged != 15 {
				t.Fatalf("resumed job %+v", j)
			}
		}
		// The ten answers each job had recorded were not asked for again.
		if answered.Load() != 30 {
			t.Errorf("%d answers in all, want 30 (15 a job)", answered.Load())
		}
		b, err := rt2.Services.Ledger.Balance(ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		if b.Held != 0 || b.Captured != 30 || b.Available+b.Held+b.Captured != b.Granted {
			t.Fatalf("ledger %+v", b)
		}
		results, err := store.All(ctx, tbl, store.Query{PK: "TENANT#1", SK: store.SKBeginsWith("VISRESULT#")})
		if err != nil || len(results) != 30 {
			t.Fatalf("%d visibility results, %v", len(results), err)
		}
	})
}

// A run interrupted under the previous definition (its Map had asked some
// items through the one-item step-run-platform) is started again under the
// new one after an upgrade: the local runner keeps no execution state, so
// it starts at the new definition's StartAt — no state name of the old file
// is looked up — and RunPlatforms asks only the items the old step had not
// recorded.
func TestLocalResumesARunOfThePreviousDefinition(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var started, answered atomic.Int32
		provs := countingProviders(t, func(string) string { return "" }, &started, &answered)
		tbl := embedded.NewMemory()
		ctx := context.Background()
		rt1 := openRuntime(t, tbl, provs)
		seedRuntime(t, rt1)
		a, err := rt1.Services.Runs.Start(ctx, runs.Request{TenantID: 1, QueryID: 1, Samples: 1})
		if err != nil {
			t.Fatal(err)
		}
		m, err := rt1.Services.Runs.MarkRunning(ctx, runs.StepInput{JobID: a.Job.ID, TenantID: 1})
		if err != nil || len(m.Items) != 5 {
			t.Fatalf("items %+v, %v", m.Items, err)
		}
		for _, it := range m.Items[:2] {
			in, _ := json.Marshal(it)
			if _, err := rt1.Services.Runs.Invoke(ctx, runs.StepRunPlatform, in); err != nil {
				t.Fatal(err)
			}
		}

		rt2 := openRuntime(t, tbl, provs)
		runAMinute(t, ctx, rt2)
		j, err := rt2.Services.Jobs.Get(ctx, 1, a.Job.ID)
		if err != nil || j.Status != jobs.StatusSucceeded || j.CreditsCharged != 5 {
			t.Fatalf("job %+v, %v", j, err)
		}
		if started.Load() != 5 || answered.Load() != 5 {
			t.Errorf("%d calls started, %d answered; want 5 (2 by the old step, 3 after the restart)", started.Load(), answered.Load())
		}
	})
}

// Recovery goes by job records and their type: the metered jobs — gap
// detection, re-scoring — that a stopped process left queued (their start
// messages lost with its in-memory queue) are started again by the next
// process and settle, their holds released or captured.
func TestLocalRestartsMeteredJobs(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		offline, err := providers.FromEnv(func(string) string { return "" }, nil)
		if err != nil {
			t.Fatal(err)
		}
		tbl := embedded.NewMemory()
		open := func() *app.Local { return openRuntime(t, tbl, offline) }
		ctx := context.Background()
		rt1 := open()
		seedRuntime(t, rt1)
		// rt1 never runs: its queue, holding the start messages, is lost.
		var ids []string
		for _, req := range []meter.Request{rt1.Services.Detector.Request(1, 1, audit.System()), rt1.Services.Runs.RescoreRequest(1, 1, audit.System())} {
			a, err := rt1.Services.Meter.Create(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, a.Job.ID)
		}
		if b, err := rt1.Services.Ledger.Balance(ctx, 1); err != nil || b.Held != 10 {
			t.Fatalf("held before the restart: %+v %v", b, err)
		}

		rt2 := open()
		runAMinute(t, ctx, rt2)
		for _, id := range ids {
			j, err := rt2.Services.Jobs.Get(ctx, 1, id)
			if err != nil || !jobs.Terminal(j.Status) {
				t.Fatalf("%s job after the restart: %+v %v", j.Type, j, err)
			}
		}
		b, err := rt2.Services.Ledger.Balance(ctx, 1)
		if err != nil || b.Held != 0 || b.Available+b.Held+b.Captured != b.Granted {
			t.Fatalf("ledger %+v %v", b, err)
		}
	})
}

// countingProviders are the offline providers under env, counting the calls
// they start and answer.
func countingProviders(t *testing.T, env func(string) string, started, answered *atomic.Int32) providers.Set {
	t.Helper()
	offline, err := providers.FromEnv(env, nil)
	if err != nil {
		t.Fatal(err)
	}
	provs := providers.Set{}
	for pf, p := range offline {
		provs[pf] = counting{Provider: p, started: started, answered: answered}
	}
	return provs
}

// runAMinute runs rt for a minute of the bubble's time, until every
// goroutine waits, and stops it.
func runAMinute(t *testing.T, ctx context.Context, rt *app.Local) {
	t.Helper()
	run, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- rt.Run(run) }()
	time.Sleep(time.Minute)
	synctest.Wait()
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
