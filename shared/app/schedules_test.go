package app_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"testing/synctest"
	"time"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/recaptcha"
	"github.com/brandlens/brandlens/shared/seed"
	"github.com/brandlens/brandlens/shared/store/embedded"
)

// The demo tenant's scheduled queries (daily, weekly) spend no credits on
// their own: with schedules off — the default — the local scheduler runs
// none of them; with schedules on it does.
func TestDemoSchedulesRunOnlyWhenTurnedOn(t *testing.T) {
	for _, tc := range []struct {
		name      string
		schedules bool
		wantJobs  int
	}{{"off by default", false, 0}, {"on", true, 2}} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				rt := newScheduledLocal(t, tc.schedules)
				ctx, cancel := context.WithCancel(context.Background())
				if _, err := seed.Demo(ctx, rt.Services.Repos, t.TempDir()); err != nil {
					t.Fatal(err)
				}
				done := make(chan error, 1)
				go func() { done <- rt.Run(ctx) }()
				time.Sleep(time.Hour) // sixty scheduler passes, on the bubble's clock
				synctest.Wait()
				cancel()
				if err := <-done; err != nil {
					t.Fatal(err)
				}
				js, _, err := rt.Services.Jobs.Page(context.Background(), 1, "", 200, "")
				if err != nil {
					t.Fatal(err)
				}
				b, err := rt.Services.Ledger.Balance(context.Background(), 1)
				if err != nil {
					t.Fatal(err)
				}
				if len(js) != tc.wantJobs || (tc.wantJobs == 0 && b.Available != 1000) {
					t.Fatalf("%d jobs, balance %+v; want %d jobs", len(js), b, tc.wantJobs)
				}
			})
		})
	}
}

// The local scheduler starts every tenant's due runs, a tenant out of
// credits holding up no other, and every job it starts reaches a terminal
// state with the ledger balanced.
func TestLocalSchedulerRunsEveryTenantToTheEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rt := newScheduledLocal(t, true)
		ctx, cancel := context.WithCancel(context.Background())
		const tenants, perTenant = 12, 3
		f := seed.File{Tenants: []seed.Tenant{{Name: "Broke", Credits: 0, Brand: &seed.Brand{Name: "Broke Co"},
			Queries: []seed.Query{{Text: "broke tools", Platforms: []string{"chatgpt"}, Schedule: "hourly"}}}}}
		for i := range tenants {
			st := seed.Tenant{Name: fmt.Sprintf("Tenant %d", i), Credits: 100, Brand: &seed.Brand{Name: fmt.Sprintf("Brand %d", i)}}
			for q := range perTenant {
				st.Queries = append(st.Queries, seed.Query{Text: fmt.Sprintf("best tools %d", q),
					Platforms: []string{"chatgpt", "perplexity"}, Schedule: "daily"})
			}
			f.Tenants = append(f.Tenants, st)
		}
		res, err := seed.Apply(ctx, rt.Services.Repos, f)
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- rt.Run(ctx) }()
		time.Sleep(10 * time.Minute) // ten scheduler passes, on the bubble's clock
		synctest.Wait()
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		for i, tr := range res.Tenants {
			js, _, err := rt.Services.Jobs.Page(context.Background(), tr.ID, "", 200, "")
			if err != nil {
				t.Fatal(err)
			}
			want := perTenant
			if i == 0 {
				want = 0
			}
			if len(js) != want {
				t.Fatalf("tenant %s: %d jobs, want %d", tr.Name, len(js), want)
			}
			for _, j := range js {
				if !jobs.Terminal(j.Status) {
					t.Errorf("tenant %s: job %s is %s", tr.Name, j.ID, j.Status)
				}
			}
			b, err := rt.Services.Ledger.Balance(context.Background(), tr.ID)
			if err != nil || b.Held != 0 || b.Available+b.Captured != b.Granted {
				t.Errorf("tenant %s: ledger %+v %v", tr.Name, b, err)
			}
		}
	})
}

// newScheduledLocal is a local runtime on an empty in-memory store with the
// offline providers, its scheduler ticking every minute when schedules is on.
func newScheduledLocal(t *testing.T, schedules bool) *app.Local {
	t.Helper()
	provs, err := providers.FromEnv(func(string) string { return "" }, nil)
	if err != nil {
		t.Fatal(err)
	}
	rt, err := app.NewLocal(app.LocalOptions{Table: embedded.NewMemory(), KeySecret: []byte("0123456789abcdef0123456789abcdef"),
		Providers: provs, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)),
		SchedulerEvery: time.Minute, Schedules: schedules, BrandCheck: app.BrandCheckOptions{Verifier: recaptcha.Bypass{}}})
	if err != nil {
		t.Fatal(err)
	}
	return rt
}
