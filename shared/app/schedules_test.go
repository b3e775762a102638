package app_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"testing/synctest"
	"time"

	"github.com/brandlens/brandlens/shared/app"
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
				provs, err := providers.FromEnv(func(string) string { return "" }, nil)
				if err != nil {
					t.Fatal(err)
				}
				rt, err := app.NewLocal(app.LocalOptions{Table: embedded.NewMemory(), KeySecret: []byte("0123456789abcdef0123456789abcdef"),
					Providers: provs, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)),
					SchedulerEvery: time.Minute, Schedules: tc.schedules, BrandCheck: app.BrandCheckOptions{Verifier: recaptcha.Bypass{}}})
				if err != nil {
					t.Fatal(err)
				}
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
