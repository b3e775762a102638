package runs_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/secrets"
	"github.com/brandlens/brandlens/shared/seed"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamotest"
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
	dynamotest.BenchBackends(b, func(b *testing.B, tbl store.Table) { schedulerTick(b, tbl, n) })
}

// countingTable counts the round trips of the measured pass (a
// transaction counts one).
type countingTable struct {
	store.Table
	n atomic.Int64
}

func (c *countingTable) Get(ctx context.Context, k store.Key) (store.Item, error) {
	c.n.Add(1)
	return c.Table.Get(ctx, k)
}

func (c *countingTable) Put(ctx context.Context, it store.Item, cond store.Cond) error {
	c.n.Add(1)
	return c.Table.Put(ctx, it, cond)
}

func (c *countingTable) Update(ctx context.Context, k store.Key, u store.Update, cond store.Cond) (store.Item, error) {
	c.n.Add(1)
	return c.Table.Update(ctx, k, u, cond)
}

func (c *countingTable) Delete(ctx context.Context, k store.Key, cond store.Cond) error {
	c.n.Add(1)
	return c.Table.Delete(ctx, k, cond)
}

func (c *countingTable) Query(ctx context.Context, q store.Query) (store.Page, error) {
	c.n.Add(1)
	return c.Table.Query(ctx, q)
}

func (c *countingTable) GetMany(ctx context.Context, keys []store.Key) ([]store.Item, error) {
	c.n.Add(1)
	return store.GetMany(ctx, c.Table, keys...)
}

func (c *countingTable) TransactWrite(ctx context.Context, ops ...store.Op) error {
	c.n.Add(1)
	return c.Table.TransactWrite(ctx, ops...)
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

func schedulerTick(b *testing.B, raw store.Table, tenants int) {
	b.StopTimer()
	tbl := &countingTable{Table: raw}
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
	tbl.n.Store(0)
	cpu0 := cpuTime()
	start := time.Now()
	rep, err := svc.Runs.RunSchedules(ctx)
	tick := time.Since(start)
	cpu := cpuTime() - cpu0
	calls := tbl.n.Load()
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
	b.ReportMetric(float64(calls)/float64(rep.Started), "calls/run")
	// The test process's CPU time over the pass's wall time: near the
	// cores the process gets, the pass is bound by its own CPU (the
	// embedded store runs in it); far below, by waiting (DynamoDB Local
	// is another process).
	b.ReportMetric(cpu.Seconds()/tick.Seconds(), "cpu/wall")
	b.StartTimer()
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
