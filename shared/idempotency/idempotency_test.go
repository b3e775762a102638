package idempotency_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/idempotency"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamotest"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/store/storetest"
)

func TestMain(m *testing.M) { dynamotest.Main(m) }

var start = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func key(k, fp string) idempotency.Key {
	return idempotency.Key{TenantID: 1, APIKeyID: "key_1", Key: k, Fingerprint: fp}
}

func TestValidate(t *testing.T) {
	for _, c := range []struct {
		key string
		ok  bool
	}{
		{"", false}, {"k", true}, {strings.Repeat("k", 255), true}, {strings.Repeat("k", 256), false},
		{strings.Repeat("é", 255), true}, {strings.Repeat("é", 256), false}, {"\xff", false},
	} {
		if err := idempotency.Validate(c.key); (err == nil) != c.ok {
			t.Errorf("Validate(%.20q…) = %v", c.key, err)
		}
	}
}

func TestFingerprintComparesTheCanonicalBody(t *testing.T) {
	base := idempotency.Fingerprint("POST", "/api/v1/queries/1/run", []byte(`{"platforms":["chatgpt"],"samples":2}`))
	same := []string{
		`{"samples":2,"platforms":["chatgpt"]}`,
		"{ \"samples\" : 2,\n\t\"platforms\": [ \"chatgpt\" ] }",
		`{"samples":2.0,"platforms":["\u0063hatgpt"]}`,
		`{"samples":2e0,"platforms":["chatgpt"]}`,
	}
	for _, b := range same {
		if got := idempotency.Fingerprint("POST", "/api/v1/queries/1/run", []byte(b)); got != base {
			t.Errorf("%s is another request", b)
		}
	}
	other := []struct{ method, path, body string }{
		{"POST", "/api/v1/queries/1/run", `{"samples":3,"platforms":["chatgpt"]}`},
		{"POST", "/api/v1/queries/1/run", `{"platforms":["chatgpt","gemini"],"samples":2}`},
		{"POST", "/api/v1/queries/2/run", `{"platforms":["chatgpt"],"samples":2}`},
		{"PUT", "/api/v1/queries/1/run", `{"platforms":["chatgpt"],"samples":2}`},
	}
	for _, o := range other {
		if idempotency.Fingerprint(o.method, o.path, []byte(o.body)) == base {
			t.Errorf("%s %s %s is the same request", o.method, o.path, o.body)
		}
	}
	if idempotency.Fingerprint("POST", "/x", nil) != idempotency.Fingerprint("POST", "/x", []byte(" {} ")) {
		t.Error("an empty body is not {}")
	}
}

func TestBeginCompleteReplay(t *testing.T) {
	dynamotest.Backends(t, start, func(t *testing.T, tbl store.Table, clock *storetest.Clock) {
		ctx := context.Background()
		recs := idempotency.NewRecords(tbl, clock.Now)
		k, rec, err := recs.Begin(ctx, key("a", "fp"))
		if err != nil || rec != nil || !k.Claimed() {
			t.Fatalf("first Begin: %+v %+v %v", k, rec, err)
		}
		if _, _, err := recs.Begin(ctx, key("a", "fp")); !errors.Is(err, idempotency.ErrInProgress) {
			t.Fatalf("while it runs: %v", err)
		}
		if _, _, err := recs.Begin(ctx, key("a", "other")); !errors.Is(err, idempotency.ErrConflict) {
			t.Fatalf("other request while it runs: %v", err)
		}
		if err := recs.Complete(ctx, k, 201, []byte(`{"id":"wh_1"}`)); err != nil {
			t.Fatal(err)
		}
		_, rec, err = recs.Begin(ctx, key("a", "fp"))
		if err != nil || rec == nil || rec.Status != 201 || string(rec.Body) != `{"id":"wh_1"}` {
			t.Fatalf("replay: %+v %v", rec, err)
		}
		if _, _, err := recs.Begin(ctx, key("a", "other")); !errors.Is(err, idempotency.ErrConflict) {
			t.Fatalf("other request after it: %v", err)
		}
		other := key("a", "fp")
		other.APIKeyID = "key_2"
		if k2, rec, err := recs.Begin(ctx, other); err != nil || rec != nil || !k2.Claimed() {
			t.Fatalf("another API key has its own keys: %+v %v", rec, err)
		}
		clock.Advance(idempotency.TTL)
		if k3, rec, err := recs.Begin(ctx, key("a", "other")); err != nil || rec != nil || !k3.Claimed() {
			t.Fatalf("after 24 h the key is new: %+v %v", rec, err)
		}
	})
}

func TestReleaseFreesTheKeyUnlessAJobExists(t *testing.T) {
	dynamotest.Backends(t, start, func(t *testing.T, tbl store.Table, clock *storetest.Clock) {
		ctx := context.Background()
		recs := idempotency.NewRecords(tbl, clock.Now)
		k, _, err := recs.Begin(ctx, key("r", "fp"))
		if err != nil {
			t.Fatal(err)
		}
		if err := recs.Release(ctx, k); err != nil {
			t.Fatal(err)
		}
		if _, err := recs.Get(ctx, k); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("released key still recorded: %v", err)
		}
		// A write that created its job, then failed: the record stays.
		k, _, err = recs.Begin(ctx, key("r", "fp2"))
		if err != nil {
			t.Fatal(err)
		}
		if err := tbl.TransactWrite(ctx, idempotency.JobOp(k, "job_1", clock.Now())); err != nil {
			t.Fatal(err)
		}
		if err := recs.Release(ctx, k); err != nil {
			t.Fatal(err)
		}
		if id, ok, err := recs.Job(ctx, k); err != nil || !ok || id != "job_1" {
			t.Fatalf("job of the key: %q %v %v", id, ok, err)
		}
	})
}

// A claimant that dies leaves its claim; after Lock the next request takes
// it over, and a job the dead one created is found, never made again.
func TestStaleClaimIsTakenOver(t *testing.T) {
	dynamotest.Backends(t, start, func(t *testing.T, tbl store.Table, clock *storetest.Clock) {
		ctx := context.Background()
		recs := idempotency.NewRecords(tbl, clock.Now)
		dead, _, err := recs.Begin(ctx, key("s", "fp"))
		if err != nil {
			t.Fatal(err)
		}
		if err := tbl.TransactWrite(ctx, idempotency.JobOp(dead, "job_dead", clock.Now())); err != nil {
			t.Fatal(err)
		}
		clock.Advance(idempotency.Lock - time.Second)
		if _, _, err := recs.Begin(ctx, key("s", "fp")); !errors.Is(err, idempotency.ErrInProgress) {
			t.Fatalf("within the lock: %v", err)
		}
		clock.Advance(2 * time.Second)
		next, rec, err := recs.Begin(ctx, key("s", "fp"))
		if err != nil || rec != nil || !next.Claimed() {
			t.Fatalf("take over: %+v %v", rec, err)
		}
		// The new claimant's job transaction fails on the record …
		err = tbl.TransactWrite(ctx, idempotency.JobOp(next, "job_second", clock.Now()))
		var txe *store.TxConditionError
		if !errors.As(err, &txe) {
			t.Fatalf("second job op: %v", err)
		}
		// … which names the dead claimant's job.
		if id, ok, err := recs.Job(ctx, next); err != nil || !ok || id != "job_dead" {
			t.Fatalf("job: %q %v %v", id, ok, err)
		}
		// The dead claimant can no longer complete.
		if err := recs.Complete(ctx, dead, 202, []byte(`{}`)); err == nil {
			t.Fatal("a taken-over claim completed")
		}
		if err := recs.Complete(ctx, next, 202, []byte(`{"jobId":"job_dead"}`)); err != nil {
			t.Fatal(err)
		}
	})
}

func TestConcurrentBeginsClaimOnce(t *testing.T) {
	dynamotest.Backends(t, start, func(t *testing.T, tbl store.Table, clock *storetest.Clock) {
		recs := idempotency.NewRecords(tbl, clock.Now)
		const n = 30
		var wg sync.WaitGroup
		var mu sync.Mutex
		claimed, busy := 0, 0
		for range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				k, _, err := recs.Begin(context.Background(), key("c", "fp"))
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil && k.Claimed():
					claimed++
				case errors.Is(err, idempotency.ErrInProgress):
					busy++
				default:
					t.Errorf("Begin: %v", err)
				}
			}()
		}
		wg.Wait()
		if claimed != 1 || busy != n-1 {
			t.Fatalf("%d claimed, %d in progress", claimed, busy)
		}
	})
}

func TestUnclaimedJobOp(t *testing.T) {
	dynamotest.Backends(t, start, func(t *testing.T, tbl store.Table, clock *storetest.Clock) {
		ctx := context.Background()
		recs := idempotency.NewRecords(tbl, clock.Now)
		k := key("schedule:1:2026-11-22", "schedule")
		if _, ok, err := recs.Job(ctx, k); ok || err != nil {
			t.Fatalf("before: %v %v", ok, err)
		}
		if err := tbl.TransactWrite(ctx, idempotency.JobOp(k, "job_1", clock.Now())); err != nil {
			t.Fatal(err)
		}
		if err := tbl.TransactWrite(ctx, idempotency.JobOp(k, "job_2", clock.Now())); !errors.Is(err, store.ErrConditionFailed) {
			t.Fatalf("second job for the key: %v", err)
		}
		if id, ok, err := recs.Job(ctx, k); id != "job_1" || !ok || err != nil {
			t.Fatalf("job %q %v %v", id, ok, err)
		}
		if _, _, err := recs.Job(ctx, key("schedule:1:2026-11-22", "other")); !errors.Is(err, idempotency.ErrConflict) {
			t.Fatalf("other fingerprint: %v", err)
		}
	})
}

func TestLargeAnswersAreNotKept(t *testing.T) {
	tbl := storetestTable(t)
	ctx := context.Background()
	recs := idempotency.NewRecords(tbl, func() time.Time { return start })
	k, _, err := recs.Begin(ctx, key("big", "fp"))
	if err != nil {
		t.Fatal(err)
	}
	if err := recs.Complete(ctx, k, 200, make([]byte, idempotency.MaxStoredBody+1)); err != nil {
		t.Fatal(err)
	}
	_, rec, err := recs.Begin(ctx, key("big", "fp"))
	if err != nil || rec == nil || !rec.BodyOmitted || rec.Body != nil || rec.Status != 200 {
		t.Fatalf("%+v %v", rec, err)
	}
}

func storetestTable(t *testing.T) store.Table {
	t.Helper()
	return embedded.NewMemory(embedded.WithClock(func() time.Time { return start }))
}
