package meter_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/credits"
	"github.com/brandlens/brandlens/shared/gaps/gapstest"
	"github.com/brandlens/brandlens/shared/idempotency"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/meter"
	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamotest"
	"github.com/brandlens/brandlens/shared/store/storetest"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/workflow"
)

func TestMain(m *testing.M) { dynamotest.Main(m) }

type sender struct {
	mu   sync.Mutex
	msgs []meter.Message
}

func (s *sender) Send(_ context.Context, body []byte, _ time.Duration) error {
	var m meter.Message
	if err := json.Unmarshal(body, &m); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.msgs = append(s.msgs, m)
	return nil
}

type env struct {
	tbl    store.Table
	clock  *storetest.Clock
	svc    *meter.Service
	ledger *credits.Ledger
	jobs   *jobs.Repo
	sent   *sender
	tenant int32
}

func newEnv(t *testing.T, tbl store.Table, clock *storetest.Clock, grant, ceiling int64) *env {
	t.Helper()
	ctx := context.Background()
	tr := tenants.NewRepo(tbl, clock.Now)
	ten, _, err := tr.Create(ctx, tenants.Tenant{Name: "Meter Co", DailyCreditCeiling: ceiling})
	if err != nil {
		t.Fatal(err)
	}
	e := &env{tbl: tbl, clock: clock, ledger: credits.NewLedger(tbl, clock.Now), jobs: jobs.NewRepo(tbl), sent: &sender{}, tenant: ten.ID}
	if err := e.ledger.Grant(ctx, ten.ID, grant, "test"); err != nil {
		t.Fatal(err)
	}
	e.svc = meter.New(tbl, tr, e.ledger, e.jobs, e.sent, clock.Now, nil)
	return e
}

func (e *env) req(key, fingerprint string) meter.Request {
	id := int32(1)
	r := meter.Request{TenantID: e.tenant, Type: jobs.TypeGapDetection, Cost: meter.PriceGapDetection,
		Actor: audit.Actor{KeyID: "key_1", Kind: audit.KindHuman}, Action: "gaps.detect", Resource: "brand_profile:1",
		Params: map[string]int{"brandProfileId": 1}, BrandProfileID: &id}
	if key != "" {
		r.Idempotency = &idempotency.Key{TenantID: e.tenant, APIKeyID: "key_1", Key: key, Fingerprint: fingerprint}
	}
	return r
}

func (e *env) balance(t *testing.T) credits.Balance {
	t.Helper()
	b, err := e.ledger.Balance(context.Background(), e.tenant)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func (e *env) count(t *testing.T, prefix string) int {
	t.Helper()
	items, err := store.All(context.Background(), e.tbl, store.Query{PK: tenants.PK(e.tenant), SK: store.SKBeginsWith(prefix)})
	if err != nil {
		t.Fatal(err)
	}
	return len(items)
}

// One transaction stores the job, its hold, its parameters and its audit
// entry; the same key returns the same job, another request under it is a
// conflict, and concurrent duplicates make one job.
func TestCreateIsIdempotent(t *testing.T) {
	t.Parallel() // waits on DynamoDB Local: overlap it with the other such tests
	gapstest.Backends(t, func(t *testing.T, tbl store.Table, clock *storetest.Clock) {
		ctx := context.Background()
		e := newEnv(t, tbl, clock, 100, 500)
		a, err := e.svc.Create(ctx, e.req("k-1", "fp-1"))
		if err != nil {
			t.Fatal(err)
		}
		j := a.Job
		if j.Status != jobs.StatusQueued || j.Type != jobs.TypeGapDetection || j.CreditsReserved != 5 || *j.BrandProfileID != 1 || a.Replayed {
			t.Errorf("job %+v", j)
		}
		if b := e.balance(t); b.Available != 95 || b.Held != 5 {
			t.Errorf("ledger %+v", b)
		}
		if len(e.sent.msgs) != 1 || e.sent.msgs[0] != (meter.Message{JobID: j.ID, TenantID: e.tenant, Type: jobs.TypeGapDetection}) {
			t.Errorf("messages %+v", e.sent.msgs)
		}
		p, actor, err := meter.Params[map[string]int](ctx, tbl, e.tenant, j.ID)
		if err != nil || p["brandProfileId"] != 1 || actor.KeyID != "key_1" {
			t.Errorf("params %v, actor %+v, %v", p, actor, err)
		}
		page, _ := audit.NewLog(tbl).List(ctx, e.tenant, audit.Filter{Action: "gaps.detect"})
		if len(page.Items) != 1 || page.Items[0].JobID != j.ID || page.Items[0].Outcome != audit.OutcomeAccepted {
			t.Errorf("audit %+v", page.Items)
		}

		again, err := e.svc.Create(ctx, e.req("k-1", "fp-1"))
		if err != nil || again.Job.ID != j.ID || !again.Replayed {
			t.Errorf("replay: %+v %v", again, err)
		}
		if _, err := e.svc.Create(ctx, e.req("k-1", "fp-other")); !errors.Is(err, idempotency.ErrConflict) {
			t.Errorf("same key, other request: %v", err)
		}

		var wg sync.WaitGroup
		got := make([]string, 12)
		for i := range got {
			wg.Add(1)
			go func() {
				defer wg.Done()
				a, err := e.svc.Create(ctx, e.req("k-2", "fp-2"))
				if err != nil {
					t.Error(err)
					return
				}
				got[i] = a.Job.ID
			}()
		}
		wg.Wait()
		for _, id := range got {
			if id != got[0] {
				t.Fatalf("concurrent duplicates made jobs %v", got)
			}
		}
		if n := e.count(t, "JOB#"); n != 2 {
			t.Errorf("%d jobs, want 2", n)
		}
		if b := e.balance(t); b.Held != 10 || b.Available+b.Held+b.Captured != b.Granted {
			t.Errorf("ledger %+v", b)
		}
	})
}

// Refusals store nothing: no credits, a passed ceiling, a precheck or a
// guard that fails.
func TestCreateRefusals(t *testing.T) {
	t.Parallel() // waits on DynamoDB Local: overlap it with the other such tests
	ctx := context.Background()
	gapstest.Backends(t, func(t *testing.T, tbl store.Table, clock *storetest.Clock) {
		e := newEnv(t, tbl, clock, 7, 8)
		if _, err := e.svc.Create(ctx, e.req("", "")); err != nil {
			t.Fatal(err)
		}
		_, err := e.svc.Create(ctx, e.req("", ""))
		var ie *meter.InsufficientCreditsError
		if !errors.As(err, &ie) || ie.Available != 2 || ie.Cost != 5 {
			t.Errorf("without credits: %v", err)
		}
		if err := e.ledger.Grant(ctx, e.tenant, 100, "more"); err != nil {
			t.Fatal(err)
		}
		_, err = e.svc.Create(ctx, e.req("", ""))
		var ce *meter.CeilingError
		if !errors.As(err, &ce) || ce.CommittedToday != 5 || ce.SpentToday != 0 || ce.Ceiling != 8 || ce.RetryAfter <= 0 {
			t.Errorf("over the ceiling: %v", err)
		}
		errGone := errors.New("gone")
		r := e.req("k-pre", "fp")
		r.Precheck = func(context.Context) error { return errGone }
		if _, err := e.svc.Create(ctx, r); !errors.Is(err, errGone) {
			t.Errorf("precheck: %v", err)
		}
		errState := errors.New("wrong state")
		r = e.req("k-guard", "fp")
		r.Cost = 1
		r.Guards = []meter.Guard{{Op: store.CheckOp(store.Key{PK: tenants.PK(e.tenant), SK: "OPP#none"}, store.Exists()), Err: errState}}
		if _, err := e.svc.Create(ctx, r); !errors.Is(err, errState) {
			t.Errorf("guard: %v", err)
		}
		// Nothing of the refused requests was stored: the guarded key is free.
		r.Guards = nil
		if _, err := e.svc.Create(ctx, r); err != nil {
			t.Errorf("retry after a refusal: %v", err)
		}
		if n := e.count(t, "JOB#"); n != 2 {
			t.Errorf("%d jobs, want 2", n)
		}
	})
}

// Settle charges a job whose work recorded its outcome and nothing
// otherwise; Start and Settle delivered twice change nothing twice.
func TestStartAndSettle(t *testing.T) {
	t.Parallel() // waits on DynamoDB Local: overlap it with the other such tests
	gapstest.Backends(t, func(t *testing.T, tbl store.Table, clock *storetest.Clock) {
		ctx := context.Background()
		e := newEnv(t, tbl, clock, 100, 500)
		ok, _ := e.svc.Create(ctx, e.req("", ""))
		bad, _ := e.svc.Create(ctx, e.req("", ""))
		for _, j := range []jobs.Job{ok.Job, bad.Job} {
			in := meter.Message{JobID: j.ID, TenantID: e.tenant}
			for range 2 {
				out, err := e.svc.Start(ctx, in)
				if err != nil || out.Type != jobs.TypeGapDetection {
					t.Fatalf("start: %+v %v", out, err)
				}
			}
		}
		done, err := meter.DoneOp(e.tenant, ok.Job.ID, map[string]int{"detected": 2})
		if err != nil {
			t.Fatal(err)
		}
		if err := tbl.TransactWrite(ctx, done); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			out, err := e.svc.Settle(ctx, meter.SettleInput{JobID: ok.Job.ID, TenantID: e.tenant})
			if err != nil || out.Status != jobs.StatusSucceeded || out.CreditsCharged != 5 {
				t.Errorf("settle ok: %+v %v", out, err)
			}
			out, err = e.svc.Settle(ctx, meter.SettleInput{JobID: bad.Job.ID, TenantID: e.tenant,
				Failure: &workflow.ExecutionError{Name: "PermanentError", Cause: `{"errorMessage":"model refused","errorType":"PermanentError"}`}})
			if err != nil || out.Status != jobs.StatusFailed || out.CreditsCharged != 0 {
				t.Errorf("settle failed: %+v %v", out, err)
			}
		}
		j, _ := e.jobs.Get(ctx, e.tenant, ok.Job.ID)
		if r, _ := json.Marshal(j.Result); string(r) != `{"detected":2}` || j.StartedAt == nil || j.CompletedAt == nil {
			t.Errorf("succeeded job %+v", j)
		}
		j, _ = e.jobs.Get(ctx, e.tenant, bad.Job.ID)
		if j.Error == nil || *j.Error != "PermanentError: model refused" || j.Result != nil {
			t.Errorf("failed job error %v", j.Error)
		}
		if b := e.balance(t); b.Captured != 5 || b.Held != 0 || b.Available != 95 {
			t.Errorf("ledger %+v", b)
		}
		types := map[string]int{}
		items, _ := store.All(ctx, tbl, store.Query{PK: tenants.PK(e.tenant), SK: store.SKBeginsWith("EVENT#")})
		for _, it := range items {
			ev, _ := store.Doc[outbox.Event](it)
			var d outbox.ExecutionData
			if err := json.Unmarshal(ev.Data, &d); err != nil || d.JobType != jobs.TypeGapDetection ||
				!strings.Contains(string(ev.Data), `"queryId":null`) {
				t.Errorf("%s data %s", ev.Type, ev.Data)
			}
			types[ev.Type]++
		}
		if types[outbox.ExecutionStarted] != 2 || types[outbox.ExecutionCompleted] != 1 || types[outbox.ExecutionFailed] != 1 {
			t.Errorf("events %v", types)
		}
		if page, _ := audit.NewLog(tbl).List(ctx, e.tenant, audit.Filter{Action: "job.settle"}); len(page.Items) != 2 {
			t.Errorf("%d job.settle entries", len(page.Items))
		}
	})
}

func TestMachine(t *testing.T) {
	for typ, want := range map[string]string{
		jobs.TypeGapDetection: "gap-detection", jobs.TypeBriefGeneration: "content-generation",
		jobs.TypeContentGeneration: "content-generation", jobs.TypeQueryRun: "",
	} {
		if got, ok := meter.Machine(typ); got != want || ok != (want != "") {
			t.Errorf("Machine(%s) = %q, %v", typ, got, ok)
		}
	}
}
