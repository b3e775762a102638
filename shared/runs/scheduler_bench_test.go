package runs_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/secrets"
	"github.com/brandlens/brandlens/shared/seed"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamo"
	"github.com/brandlens/brandlens/shared/store/dynamotest"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/store/storetest"
	"github.com/brandlens/brandlens/shared/workflow"
)

// BenchmarkSchedulerTick measures one scheduler pass over
// BRANDLENS_SCHED_TENANTS tenants (default 2,000) with 5 daily queries
// each, all due: the pass's wall time and the runs it started per second
// (README "Scale model"). The second pass of the same period, which starts
// nothing, is reported as replay-s.
//
//	go test -run '^$' -bench SchedulerTick -benchtime 1x ./shared/runs
func BenchmarkSchedulerTick(b *testing.B) {
	n := 2000
	if v, err := strconv.Atoi(os.Getenv("BRANDLENS_SCHED_TENANTS")); err == nil && v > 0 {
		n = v
	}
	backends := []struct {
		name string
		open func(b *testing.B) store.Table
	}{
		{"embedded", func(b *testing.B) store.Table {
			t, err := embedded.Open(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { t.Close() })
			return t
		}},
		{"dynamodb", func(b *testing.B) store.Table {
			c := dynamotest.Start(b)
			return dynamo.New(c, dynamotest.NewTable(b, c))
		}},
	}
	for _, be := range backends {
		b.Run(be.name, func(b *testing.B) {
			for range b.N {
				schedulerTick(b, be.open(b), n)
			}
		})
	}
}

// countingSender counts the job messages a pass sends.
type countingSender struct {
	mu sync.Mutex
	n  int
}

func (c *countingSender) Send(context.Context, []byte, time.Duration) error {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	return nil
}

func schedulerTick(b *testing.B, tbl store.Table, tenants int) {
	b.StopTimer()
	ctx := context.Background()
	clock := storetest.NewClock(time.Date(2026, 11, 23, 0, 0, 30, 0, time.UTC))
	repos, err := app.NewRepos(tbl, []byte("0123456789abcdef0123456789abcdef"), clock.Now)
	if err != nil {
		b.Fatal(err)
	}
	jobsQ := &countingSender{}
	svc, err := app.NewServices(repos, app.Deps{Callbacks: workflow.LocalCallbacks{Tokens: workflow.NewTaskTokens()},
		Jobs: jobsQ, Deliveries: &countingSender{}, Providers: providers.Set{},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Secrets: secrets.NewSealer(secrets.NewMemoryKeyring())})
	if err != nil {
		b.Fatal(err)
	}
	// Seed from 16 goroutines: the set-up is not what is measured.
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for w := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < tenants; i += 16 {
				st := seed.Tenant{Name: fmt.Sprintf("Tenant %05d", i), Credits: 100,
					Brand: &seed.Brand{Name: fmt.Sprintf("Brand %05d", i)}}
				for q := range 5 {
					st.Queries = append(st.Queries, seed.Query{Text: fmt.Sprintf("best tools %d", q),
						Platforms: []string{"chatgpt", "perplexity"}, Schedule: "daily"})
				}
				if _, err := seed.Apply(ctx, repos, seed.File{Tenants: []seed.Tenant{st}}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		b.Fatal(err)
	}
	b.StartTimer()
	start := time.Now()
	rep, err := svc.Runs.RunSchedules(ctx)
	tick := time.Since(start)
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	if want := tenants * 5; rep.Started != want || jobsQ.n != want {
		b.Fatalf("started %d runs (%d messages), want %d: %+v", rep.Started, jobsQ.n, want, rep)
	}
	start = time.Now()
	again, err := svc.Runs.RunSchedules(ctx)
	replay := time.Since(start)
	if err != nil || again.Started != 0 {
		b.Fatalf("second pass: %+v %v", again, err)
	}
	b.ReportMetric(tick.Seconds(), "tick-s")
	b.ReportMetric(float64(rep.Started)/tick.Seconds(), "runs/s")
	b.ReportMetric(replay.Seconds(), "replay-s")
	b.StartTimer()
}
