package runs_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/auth"
	"github.com/brandlens/brandlens/shared/credits"
	"github.com/brandlens/brandlens/shared/idempotency"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/secrets"
	"github.com/brandlens/brandlens/shared/seed"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamotest"
	"github.com/brandlens/brandlens/shared/store/storetest"
	"github.com/brandlens/brandlens/shared/workflow"
)

func TestMain(m *testing.M) { dynamotest.Main(m) }

// recordingSender remembers the job messages sent.
type recordingSender struct {
	mu   sync.Mutex
	msgs []string
}

func (r *recordingSender) Send(_ context.Context, body []byte, _ time.Duration) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, string(body))
	return nil
}

type env struct {
	svc    *app.Services
	clock  *storetest.Clock
	sender *recordingSender
	// provs is the service's provider set, empty until a test scripts it.
	provs providers.Set
	p     auth.Principal
}

// backends runs f against the embedded store and DynamoDB Local.
func backends(t *testing.T, f func(t *testing.T, e *env)) {
	backendsWith(t, nil, f)
}

// backendsWith is backends with the detection adjudicator adj (nil: none).
func backendsWith(t *testing.T, adj runs.Adjudicator, f func(t *testing.T, e *env)) {
	dynamotest.Backends(t, time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC), func(t *testing.T, tbl store.Table, clock *storetest.Clock) {
		f(t, newEnv(t, tbl, clock, adj))
	})
}

// testRetryScale shortens the platform step's item retry waits (and the
// webhooks') as the runner's WithRetryScale shortens the ASL's.
const testRetryScale = 0.001

func newEnv(t *testing.T, tbl store.Table, clock *storetest.Clock, adj runs.Adjudicator) *env {
	t.Helper()
	return newEnvWith(t, tbl, clock, adj, testRetryScale)
}

// newEnvScaled is newEnv with retry waits multiplied by scale.
func newEnvScaled(t testing.TB, tbl store.Table, clock *storetest.Clock, scale float64) *env {
	t.Helper()
	return newEnvWith(t, tbl, clock, nil, scale)
}

func newEnvWith(t testing.TB, tbl store.Table, clock *storetest.Clock, adj runs.Adjudicator, scale float64) *env {
	t.Helper()
	repos, err := app.NewRepos(tbl, []byte("0123456789abcdef0123456789abcdef"), clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	rs, provs := &recordingSender{}, providers.Set{}
	svc, err := app.NewServices(repos, app.Deps{Callbacks: workflow.LocalCallbacks{Tokens: workflow.NewTaskTokens()}, Jobs: rs, Deliveries: &recordingSender{}, Providers: provs,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Secrets: secrets.NewSealer(secrets.NewMemoryKeyring()),
		Adjudicator: adj, RetryScale: scale})
	if err != nil {
		t.Fatal(err)
	}
	f := seed.File{Tenants: []seed.Tenant{{
		Name: "Acme Notes", Credits: 40, DailyCreditCeiling: 30,
		Brand:   &seed.Brand{Name: "Acme Notes", Domains: []string{"acmenotes.com"}},
		Queries: []seed.Query{{Text: "best note taking app", Platforms: []string{"chatgpt", "perplexity"}}},
		APIKeys: []seed.APIKey{{Key: "local-key-acme-publish-0001", Scopes: []string{"publish"}}},
	}}}
	if _, err := seed.Apply(context.Background(), repos, f); err != nil {
		t.Fatal(err)
	}
	p, err := svc.Keys.Authenticate(context.Background(), "local-key-acme-publish-0001")
	if err != nil {
		t.Fatal(err)
	}
	return &env{svc: svc, clock: clock, sender: rs, provs: provs, p: p}
}

func (e *env) req(key, body string) runs.Request {
	r := runs.Request{TenantID: 1, QueryID: 1, Samples: 1}
	if key != "" {
		r.Idempotency = &idempotency.Key{TenantID: 1, APIKeyID: e.p.KeyID, Key: key,
			Fingerprint: idempotency.Fingerprint("POST", "/api/v1/queries/1/run", []byte(body))}
	}
	return r
}

func (e *env) balance(t *testing.T) credits.Balance {
	t.Helper()
	b, err := e.svc.Ledger.Balance(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if b.Available+b.Held+b.Captured != b.Granted {
		t.Fatalf("ledger invariant broken: %+v", b)
	}
	return b
}

func (e *env) jobCount(t *testing.T) int {
	t.Helper()
	js, next, err := e.svc.Jobs.Page(context.Background(), 1, "", 200, "")
	if err != nil || next != "" {
		t.Fatal(err, next)
	}
	return len(js)
}

func TestConcurrentIdenticalRequestsMakeOneJob(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		const n = 50
		var wg sync.WaitGroup
		ids := make([]string, n)
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				a, err := e.svc.Runs.Start(context.Background(), e.req("key-1", `{}`))
				ids[i], errs[i] = a.Job.ID, err
			}()
		}
		wg.Wait()
		for i := range n {
			if errs[i] != nil {
				t.Fatalf("request %d: %v", i, errs[i])
			}
			if ids[i] != ids[0] {
				t.Fatalf("request %d got job %s, request 0 got %s", i, ids[i], ids[0])
			}
		}
		if c := e.jobCount(t); c != 1 {
			t.Fatalf("%d jobs", c)
		}
		if b := e.balance(t); b.Held != 2 || b.Available != 38 || b.CommittedToday != 2 || b.SpentToday != 0 {
			t.Fatalf("charged more than once: %+v", b)
		}
	})
}

func TestIdempotencyRules(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		a, err := e.svc.Runs.Start(ctx, e.req("key-2", `{}`))
		if err != nil || a.Replayed {
			t.Fatalf("first: %+v %v", a, err)
		}
		b, err := e.svc.Runs.Start(ctx, e.req("key-2", `{}`))
		if err != nil || !b.Replayed || b.Job.ID != a.Job.ID {
			t.Fatalf("replay: %+v %v", b, err)
		}
		if _, err := e.svc.Runs.Start(ctx, e.req("key-2", `{"samples":2}`)); !errors.Is(err, idempotency.ErrConflict) {
			t.Fatalf("other body: %v", err)
		}
		other := e.req("key-2", `{}`)
		other.Idempotency.APIKeyID = "key_other"
		if c, err := e.svc.Runs.Start(ctx, other); err != nil || c.Replayed || c.Job.ID == a.Job.ID {
			t.Fatalf("another API key shares the idempotency scope: %+v %v", c, err)
		}
		e.clock.Advance(idempotency.TTL + time.Second)
		d, err := e.svc.Runs.Start(ctx, e.req("key-2", `{}`))
		if err != nil || d.Replayed || d.Job.ID == a.Job.ID {
			t.Fatalf("after 24 h the key must be new: %+v %v", d, err)
		}
		if c := e.jobCount(t); c != 3 {
			t.Fatalf("%d jobs, want 3", c)
		}
		// Every accepted job (and the replay) was enqueued.
		if len(e.sender.msgs) != 4 {
			t.Fatalf("%d messages", len(e.sender.msgs))
		}
	})
}

func TestCreditLimits(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		r := e.req("", "")
		r.Samples = 5 // 2 platforms × 5 samples = 10 credits
		for i := range 3 {
			if _, err := e.svc.Runs.Start(ctx, r); err != nil {
				t.Fatalf("run %d: %v", i, err)
			}
		}
		// 30 spent today: the ceiling of 30 is reached.
		_, err := e.svc.Runs.Start(ctx, r)
		var ce *runs.CeilingError
		if !errors.As(err, &ce) || ce.RetryAfter != 14*3600 {
			t.Fatalf("ceiling: %v", err)
		}
		// Next day: 10 credits left of 40; a 10-credit run passes, then 402.
		e.clock.Advance(24 * time.Hour)
		if _, err := e.svc.Runs.Start(ctx, r); err != nil {
			t.Fatal(err)
		}
		_, err = e.svc.Runs.Start(ctx, r)
		var ice *runs.InsufficientCreditsError
		if !errors.As(err, &ice) || ice.Available != 0 {
			t.Fatalf("insufficient: %v", err)
		}
		if b := e.balance(t); b.Available != 0 || b.Held != 40 {
			t.Fatalf("balance %+v", b)
		}
		if c := e.jobCount(t); c != 4 {
			t.Fatalf("%d jobs", c)
		}
	})
}

func TestConcurrentRunsNeverOverdraw(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		// 40 credits, ceiling 30, 2 credits a run: exactly 15 runs fit.
		var wg sync.WaitGroup
		var mu sync.Mutex
		ok, refused := 0, 0
		for range 40 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := e.svc.Runs.Start(context.Background(), e.req("", ""))
				mu.Lock()
				defer mu.Unlock()
				var ce *runs.CeilingError
				switch {
				case err == nil:
					ok++
				case errors.As(err, &ce):
					refused++
				default:
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if ok != 15 || refused != 25 {
			t.Fatalf("%d accepted, %d refused", ok, refused)
		}
		if b := e.balance(t); b.Held != 30 || b.CommittedToday != 30 || b.SpentToday != 0 || b.Available != 10 {
			t.Fatalf("balance %+v", b)
		}
	})
}

func TestStartRejects(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		r := e.req("", "")
		r.QueryID = 9
		if _, err := e.svc.Runs.Start(ctx, r); !errors.Is(err, runs.ErrQueryNotFound) {
			t.Fatalf("missing query: %v", err)
		}
		r = e.req("", "")
		r.Platforms = []string{"gemini"}
		var pe *runs.PlatformError
		if _, err := e.svc.Runs.Start(ctx, r); !errors.As(err, &pe) {
			t.Fatalf("platform outside the query: %v", err)
		}
		r = e.req("", "")
		r.TenantID = 2
		if _, err := e.svc.Runs.Start(ctx, r); !errors.Is(err, runs.ErrQueryNotFound) {
			t.Fatalf("another tenant: %v", err)
		}
		if c := e.jobCount(t); c != 0 {
			t.Fatalf("%d jobs after refusals", c)
		}
		j, err := e.svc.Runs.Start(ctx, e.req("", ""))
		if err != nil || j.Job.Status != jobs.StatusQueued || j.Job.CreditsReserved != 2 || len(j.Job.Platforms) != 2 {
			t.Fatalf("job %+v %v", j.Job, err)
		}
	})
}

func countEvents(t *testing.T, e *env, typ string) int {
	t.Helper()
	items, err := store.All(context.Background(), e.svc.Table, store.Query{PK: "TENANT#1", SK: store.SKBeginsWith("EVENT#")})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, it := range items {
		if it.String("type") == typ {
			n++
		}
	}
	return n
}

// TestCreditThresholdEventsOnce: concurrent runs reaching the daily ceiling
// emit credit.ceiling_reached exactly once; the run that takes the balance
// below the low threshold emits credit.low once.
func TestCreditThresholdEventsOnce(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		var wg sync.WaitGroup
		for range 30 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, _ = e.svc.Runs.Start(context.Background(), e.req("", ""))
			}()
		}
		wg.Wait()
		if b := e.balance(t); b.CommittedToday != 30 {
			t.Fatalf("committed %d, want the ceiling of 30", b.CommittedToday)
		}
		if n := countEvents(t, e, outbox.CreditCeilingReached); n != 1 {
			t.Fatalf("%d credit.ceiling_reached events", n)
		}
		if n := countEvents(t, e, outbox.CreditLow); n != 0 {
			t.Fatalf("%d credit.low events at 10 available", n)
		}
		e.clock.Advance(24 * time.Hour)
		for range 2 {
			if _, err := e.svc.Runs.Start(context.Background(), e.req("", "")); err != nil {
				t.Fatal(err)
			}
		}
		if n := countEvents(t, e, outbox.CreditLow); n != 1 {
			t.Fatalf("%d credit.low events", n)
		}
	})
}

// TestCost: what a run may cost, as held and as a held run's summary
// shows it — a platform named twice runs (and costs) once.
func TestCost(t *testing.T) {
	for _, c := range []struct {
		platforms []string
		samples   int
		want      int64
	}{
		{[]string{"chatgpt"}, 1, 1},
		{[]string{"chatgpt", "perplexity", "gemini"}, 3, 9},
		{[]string{"chatgpt", "chatgpt"}, 2, 2},
		{nil, 5, 0},
	} {
		if got := runs.Cost(c.platforms, c.samples); got != c.want {
			t.Errorf("Cost(%v, %d) = %d, want %d", c.platforms, c.samples, got, c.want)
		}
	}
}
