package app_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/queue"
	"github.com/brandlens/brandlens/shared/recaptcha"
	"github.com/brandlens/brandlens/shared/seed"
	"github.com/brandlens/brandlens/shared/ssrf"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamotest"
	"github.com/brandlens/brandlens/shared/workflow"
)

// BenchmarkRunsAtOnce submits BRANDLENS_LOAD_RUNS query runs (default
// 1,000; 5 platforms, simulated providers, over 100 queries of one
// tenant) at once to the local runtime, on the embedded store (on disk, as
// `brandlens serve` keeps it) and on DynamoDB Local, and reports runs/s
// (first submit → last run settled) and the p50 and p99 of submit →
// settled. Afterwards no job may be unsettled and the ledger must balance.
// Run it alone: go test -run '^$' -bench RunsAtOnce -benchtime 1x ./shared/app
func BenchmarkRunsAtOnce(b *testing.B) {
	n := 1000
	if v, err := strconv.Atoi(os.Getenv("BRANDLENS_LOAD_RUNS")); err == nil && v > 0 {
		n = v
	}
	dynamotest.BenchBackends(b, func(b *testing.B, tbl store.Table) { runsAtOnce(b, tbl, n) })
}

// settledTable notes when each job's settle commits (its JOB# item gets a
// terminal status).
type settledTable struct {
	store.Table
	mu      sync.Mutex
	settled map[string]time.Time
	done    chan struct{}
	want    int
	// Transactions that failed: a condition, or anything else (a conflict
	// retried until the store gave up).
	txCondFailed, txFailed int
	// calls counts the store round trips by operation (a GetMany is one
	// BatchGetItem per 100 keys), from the first submit on.
	calls map[string]int
}

func (t *settledTable) count(op string, n int) {
	t.mu.Lock()
	t.calls[op] += n
	t.mu.Unlock()
}

func (t *settledTable) Get(ctx context.Context, key store.Key) (store.Item, error) {
	t.count("Get", 1)
	return t.Table.Get(ctx, key)
}

func (t *settledTable) Query(ctx context.Context, q store.Query) (store.Page, error) {
	t.count("Query", 1)
	return t.Table.Query(ctx, q)
}

func (t *settledTable) Delete(ctx context.Context, key store.Key, cond store.Cond) error {
	t.count("Delete", 1)
	return t.Table.Delete(ctx, key, cond)
}

// transitions counts the workflow's state transitions by state: beyond
// one per state of a run, they are retries.
type transitions struct {
	mu sync.Mutex
	n  map[string]int
}

func (t *transitions) Sender(_ string, s queue.Sender) queue.Sender       { return s }
func (t *transitions) Consumer(_ string, h queue.Handler) queue.Handler   { return h }
func (t *transitions) Step(_ string, h workflow.Handler) workflow.Handler { return h }
func (t *transitions) Transition(_, state string) {
	t.mu.Lock()
	t.n[state]++
	t.mu.Unlock()
}

func (t *settledTable) note(ops []store.Op) {
	now := time.Now()
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, op := range ops {
		k, status := op.OpKey(), ""
		if !strings.HasPrefix(k.SK, "JOB#") {
			continue
		}
		switch op.Kind {
		case store.OpPut:
			status = op.Item.String("status")
		case store.OpUpdate:
			status, _ = op.Update.Set["status"].(string)
		}
		id := strings.TrimPrefix(k.SK, "JOB#")
		if _, seen := t.settled[id]; jobs.Terminal(status) && !seen {
			t.settled[id] = now
			if len(t.settled) == t.want {
				close(t.done)
			}
		}
	}
}

func (t *settledTable) GetMany(ctx context.Context, keys []store.Key) ([]store.Item, error) {
	t.count("BatchGet", (len(keys)+store.MaxBatchGet-1)/store.MaxBatchGet)
	return store.GetMany(ctx, t.Table, keys...)
}

func (t *settledTable) TransactWrite(ctx context.Context, ops ...store.Op) error {
	t.count("TransactWrite", 1)
	err := t.Table.TransactWrite(ctx, ops...)
	switch {
	case err == nil:
		t.note(ops)
	case errors.Is(err, store.ErrConditionFailed):
		t.mu.Lock()
		t.txCondFailed++
		t.mu.Unlock()
	default:
		t.mu.Lock()
		t.txFailed++
		t.mu.Unlock()
	}
	return err
}

func (t *settledTable) Put(ctx context.Context, item store.Item, cond store.Cond) error {
	t.count("Put", 1)
	err := t.Table.Put(ctx, item, cond)
	if err == nil {
		t.note([]store.Op{store.PutOp(item, cond)})
	}
	return err
}

func (t *settledTable) Update(ctx context.Context, key store.Key, upd store.Update, cond store.Cond) (store.Item, error) {
	t.count("Update", 1)
	it, err := t.Table.Update(ctx, key, upd, cond)
	if err == nil {
		t.note([]store.Op{store.UpdateOp(key, upd, cond)})
	}
	return it, err
}

// loadTimeout bounds the wait for every run to settle.
const loadTimeout = 15 * time.Minute

// loadEnv is the local runtime over a counting table, with one tenant
// seeded for n runs (5 platforms, simulated providers, 100 queries).
type loadEnv struct {
	tbl    *settledTable
	trans  *transitions
	local  *app.Local
	tid    int32
	ctx    context.Context
	stop   func()
	runErr chan error
}

const loadKey, loadQueries = "local-key-load-publish-0001", 100

func newLoadEnv(tb testing.TB, inner store.Table, n int, guard ssrf.Guard) *loadEnv {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	tbl := &settledTable{Table: inner, settled: map[string]time.Time{}, done: make(chan struct{}), want: n, calls: map[string]int{}}
	provs, err := providers.FromEnv(func(string) string { return "" }, nil)
	if err != nil {
		tb.Fatal(err)
	}
	trans := &transitions{n: map[string]int{}}
	local, err := app.NewLocal(app.LocalOptions{Table: tbl, KeySecret: []byte(testKeySecret), Providers: provs,
		Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)), Observer: trans, Guard: guard,
		DispatchInterval: 20 * time.Millisecond, BrandCheck: app.BrandCheckOptions{Verifier: recaptcha.Bypass{}}})
	if err != nil {
		tb.Fatal(err)
	}
	qs := make([]seed.Query, loadQueries)
	for i := range qs {
		qs[i] = seed.Query{Text: fmt.Sprintf("best note taking app %d", i+1), Platforms: platforms.All}
	}
	res, err := seed.Apply(ctx, local.Services.Repos, seed.File{Tenants: []seed.Tenant{{Name: "Load", Credits: int64(n * 5),
		DailyCreditCeiling: int64(n * 5), RPMLimit: 1 << 30,
		Brand:       &seed.Brand{Name: "Acme Notes", Domains: []string{"acmenotes.com"}},
		Competitors: []seed.Brand{{Name: "Notion"}, {Name: "Evernote"}},
		Queries:     qs, APIKeys: []seed.APIKey{{Key: loadKey, Scopes: []string{"publish"}}}}}})
	if err != nil {
		tb.Fatal(err)
	}
	e := &loadEnv{tbl: tbl, trans: trans, local: local, tid: res.Tenants[0].ID, ctx: ctx, runErr: make(chan error, 1)}
	go func() { e.runErr <- local.Run(ctx) }()
	e.stop = func() { cancel(); <-e.runErr }
	tb.Cleanup(e.stop)
	tbl.mu.Lock()
	clear(tbl.calls) // seeding is not the runs' work
	tbl.mu.Unlock()
	return e
}

// submit posts n runs through the API from writers goroutines at once and
// returns when each job was accepted.
func (e *loadEnv) submit(tb testing.TB, n, writers int) map[string]time.Time {
	submitted := make(map[string]time.Time, n)
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := make(chan int)
	for range writers {
		wg.Go(func() {
			for i := range next {
				req := httptest.NewRequest("POST", fmt.Sprintf("/api/v1/queries/%d/run", i%loadQueries+1), strings.NewReader(`{"samples":1}`))
				req.Header.Set("X-API-Key", loadKey)
				req.Header.Set("Content-Type", "application/json")
				at := time.Now()
				rec := httptest.NewRecorder()
				e.local.API.ServeHTTP(rec, req)
				var acc struct{ JobID string }
				if rec.Code != 202 || json.Unmarshal(rec.Body.Bytes(), &acc) != nil {
					tb.Errorf("run %d: %d %s", i, rec.Code, rec.Body)
					continue
				}
				mu.Lock()
				submitted[acc.JobID] = at
				mu.Unlock()
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	return submitted
}

// waitSettled waits until every submitted run settled.
func (e *loadEnv) waitSettled(tb testing.TB) {
	select {
	case <-e.tbl.done:
		e.report(tb)
	case <-time.After(loadTimeout):
		e.report(tb)
		tb.Fatalf("%d of %d runs settled in %v", len(e.tbl.settled), e.tbl.want, loadTimeout)
	}
}

func (e *loadEnv) report(tb testing.TB) {
	e.tbl.mu.Lock()
	defer e.tbl.mu.Unlock()
	e.trans.mu.Lock()
	defer e.trans.mu.Unlock()
	tb.Logf("%d runs settled; transactions failed: %d on a condition, %d otherwise; transitions %v",
		len(e.tbl.settled), e.tbl.txCondFailed, e.tbl.txFailed, e.trans.n)
}

// checkSettled: nothing stuck, nothing lost — n jobs, every one terminal,
// none left in the unfinished index, and the ledger balances.
func (e *loadEnv) checkSettled(tb testing.TB, n int) {
	repos := e.local.Services.Repos
	var js []jobs.Job
	for cursor := ""; ; {
		page, next, err := repos.Jobs.Page(e.ctx, e.tid, "", 200, cursor)
		if err != nil {
			tb.Fatal(err)
		}
		js = append(js, page...)
		if cursor = next; cursor == "" {
			break
		}
	}
	for _, j := range js {
		if !jobs.Terminal(j.Status) {
			tb.Errorf("job %s is %s", j.ID, j.Status)
		}
	}
	stuck := 0
	if err := repos.Jobs.EachUnfinished(e.ctx, func(jobs.Job) error { stuck++; return nil }); err != nil || stuck > 0 {
		tb.Errorf("%d jobs left in the unfinished index (%v)", stuck, err)
	}
	bal, err := repos.Ledger.Balance(e.ctx, e.tid)
	if err != nil {
		tb.Fatal(err)
	}
	if len(js) != n || bal.Held != 0 || bal.Available+bal.Held+bal.Captured != bal.Granted {
		tb.Errorf("%d jobs, want %d; ledger %+v", len(js), n, bal)
	}
}

func runsAtOnce(b *testing.B, inner store.Table, n int) {
	e := newLoadEnv(b, inner, n, ssrf.Guard{})
	tbl := e.tbl
	b.ResetTimer()
	start := time.Now()
	submitted := e.submit(b, n, 32)
	e.waitSettled(b)
	elapsed := time.Since(start)
	b.StopTimer()

	tbl.mu.Lock()
	var lat []time.Duration
	for id, at := range submitted {
		lat = append(lat, tbl.settled[id].Sub(at))
	}
	tbl.mu.Unlock()
	slices.Sort(lat)
	b.ReportMetric(float64(n)/elapsed.Seconds(), "runs/s")
	b.ReportMetric(float64(lat[len(lat)/2].Milliseconds()), "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Milliseconds()), "p99-ms")
	// Round trips per platform run: every store call from the first submit
	// to the last settle (API, dispatch, steps, settle, outbox) over the
	// runs' platform runs.
	tbl.mu.Lock()
	total, platformRuns := 0, float64(n*len(platforms.All))
	for _, c := range tbl.calls {
		total += c
	}
	b.Logf("store calls per platform run: %.2f (%v over %d platform runs)", float64(total)/platformRuns, tbl.calls, n*len(platforms.All))
	b.ReportMetric(float64(total)/platformRuns, "calls/platform-run")
	b.ReportMetric(float64(tbl.calls["TransactWrite"])/platformRuns, "tx/platform-run")
	tbl.mu.Unlock()
	e.checkSettled(b, n)
}
