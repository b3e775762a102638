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
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamo"
	"github.com/brandlens/brandlens/shared/store/dynamotest"
	"github.com/brandlens/brandlens/shared/store/embedded"
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
				runsAtOnce(b, be.open(b), n)
			}
		})
	}
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

func runsAtOnce(b *testing.B, inner store.Table, n int) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tbl := &settledTable{Table: inner, settled: map[string]time.Time{}, done: make(chan struct{}), want: n, calls: map[string]int{}}
	provs, err := providers.FromEnv(func(string) string { return "" }, nil)
	if err != nil {
		b.Fatal(err)
	}
	trans := &transitions{n: map[string]int{}}
	local, err := app.NewLocal(app.LocalOptions{Table: tbl, KeySecret: []byte(testKeySecret), Providers: provs,
		Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)), Observer: trans,
		BrandCheck: app.BrandCheckOptions{Verifier: recaptcha.Bypass{}}})
	if err != nil {
		b.Fatal(err)
	}
	const key, nQueries = "local-key-load-publish-0001", 100
	qs := make([]seed.Query, nQueries)
	for i := range qs {
		qs[i] = seed.Query{Text: fmt.Sprintf("best note taking app %d", i+1), Platforms: platforms.All}
	}
	repos := local.Services.Repos
	res, err := seed.Apply(ctx, repos, seed.File{Tenants: []seed.Tenant{{Name: "Load", Credits: int64(n * 5),
		DailyCreditCeiling: int64(n * 5), RPMLimit: 1 << 30,
		Brand:       &seed.Brand{Name: "Acme Notes", Domains: []string{"acmenotes.com"}},
		Competitors: []seed.Brand{{Name: "Notion"}, {Name: "Evernote"}},
		Queries:     qs, APIKeys: []seed.APIKey{{Key: key, Scopes: []string{"publish"}}}}}})
	if err != nil {
		b.Fatal(err)
	}
	tid := res.Tenants[0].ID
	runDone := make(chan error, 1)
	go func() { runDone <- local.Run(ctx) }()

	tbl.mu.Lock()
	clear(tbl.calls) // seeding is not the runs' work
	tbl.mu.Unlock()
	b.ResetTimer()
	submitted := make(map[string]time.Time, n)
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := make(chan int)
	start := time.Now()
	for range 32 {
		wg.Go(func() {
			for i := range next {
				req := httptest.NewRequest("POST", fmt.Sprintf("/api/v1/queries/%d/run", i%nQueries+1), strings.NewReader(`{"samples":1}`))
				req.Header.Set("X-API-Key", key)
				req.Header.Set("Content-Type", "application/json")
				at := time.Now()
				rec := httptest.NewRecorder()
				local.API.ServeHTTP(rec, req)
				var acc struct{ JobID string }
				if rec.Code != 202 || json.Unmarshal(rec.Body.Bytes(), &acc) != nil {
					b.Errorf("run %d: %d %s", i, rec.Code, rec.Body)
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
	report := func() {
		tbl.mu.Lock()
		defer tbl.mu.Unlock()
		trans.mu.Lock()
		defer trans.mu.Unlock()
		b.Logf("%d runs settled; transactions failed: %d on a condition, %d otherwise; transitions %v",
			len(tbl.settled), tbl.txCondFailed, tbl.txFailed, trans.n)
	}
	select {
	case <-tbl.done:
	case <-time.After(loadTimeout):
		report()
		b.Fatalf("%d of %d runs settled in %v", len(tbl.settled), n, loadTimeout)
	}
	elapsed := time.Since(start)
	b.StopTimer()
	report()

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

	// Nothing stuck, nothing lost: every job settled, the ledger balances.
	var js []jobs.Job
	for cursor := ""; ; {
		page, next, err := repos.Jobs.Page(ctx, tid, "", 200, cursor)
		if err != nil {
			b.Fatal(err)
		}
		js = append(js, page...)
		if cursor = next; cursor == "" {
			break
		}
	}
	for _, j := range js {
		if !jobs.Terminal(j.Status) {
			b.Errorf("job %s is %s", j.ID, j.Status)
		}
	}
	stuck := 0
	if err := repos.Jobs.EachUnfinished(ctx, func(jobs.Job) error { stuck++; return nil }); err != nil || stuck > 0 {
		b.Errorf("%d jobs left in the unfinished index (%v)", stuck, err)
	}
	bal, err := repos.Ledger.Balance(ctx, tid)
	if err != nil {
		b.Fatal(err)
	}
	if len(js) != n || bal.Held != 0 || bal.Available+bal.Held+bal.Captured != bal.Granted {
		b.Errorf("%d jobs; ledger %+v", len(js), bal)
	}
	cancel()
	<-runDone
}
