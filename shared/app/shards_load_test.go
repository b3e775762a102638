package app_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/ssrf"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamo"
	"github.com/brandlens/brandlens/shared/store/dynamotest"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/webhooks"
)

// The write-sharded index keys under many concurrent writers, on DynamoDB
// Local through the local runtime: 32 goroutines submit runs at once
// (BRANDLENS_SHARD_LOAD_RUNS per writer, default 2), every run's events go
// through the sharded pending outbox to a webhook subscription, whose
// deliveries go through the sharded due index, while the jobs pass through
// the sharded unfinished index. Afterwards the ledger balances, no job is
// left unfinished, no event is left pending nor delivery due, every event
// has exactly one delivery, succeeded, and the receiver got every event
// once per recorded attempt: more than once only when an attempt's answer
// came too late and was retried (at least once by design; on a loaded
// machine a 2-core CI runner sees it), never a send no attempt records.
func TestShardedKeysUnderConcurrentWriters(t *testing.T) {
	perWriter := 2
	if v, err := strconv.Atoi(os.Getenv("BRANDLENS_SHARD_LOAD_RUNS")); err == nil && v > 0 {
		perWriter = v
	}
	const writers = 32
	n := writers * perWriter
	c := dynamotest.Start(t)
	inner := dynamo.New(c, dynamotest.NewTable(t, c))

	var mu sync.Mutex
	received := map[string]int{}
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var ev struct {
			ID string `json:"event_id"`
		}
		body, _ := io.ReadAll(r.Body)
		if json.Unmarshal(body, &ev) != nil || ev.ID == "" {
			http.Error(w, "no event id", http.StatusBadRequest)
			return
		}
		mu.Lock()
		received[ev.ID]++
		mu.Unlock()
	}))
	t.Cleanup(rcv.Close)

	e := newLoadEnv(t, inner, n, ssrf.Guard{AllowLoopback: true})
	ctx := context.Background()
	sub, err := e.local.Services.Webhooks.CreateSubscription(ctx, e.tid, webhooks.NewSubscription{URL: rcv.URL})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	e.submit(t, n, writers)
	e.waitSettled(t)
	settled := time.Since(start)

	// Drained: nothing pending in any shard of the outbox or the due index.
	deadline := time.Now().Add(2 * time.Minute)
	for {
		pending, err := store.FirstShards(ctx, inner, outbox.PendingPK, store.Query{Index: store.IndexGSI1}, 1)
		if err != nil {
			t.Fatal(err)
		}
		due, err := store.FirstShards(ctx, inner, "WHDELIVERY#due", store.Query{Index: store.IndexGSI1}, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(pending)+len(due) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 2 minutes: pending %v, due %v", pending, due)
		}
		time.Sleep(50 * time.Millisecond)
	}
	e.checkSettled(t, n)

	evs, err := store.All(ctx, inner, store.Query{PK: tenants.PK(e.tid), SK: store.SKBeginsWith("EVENT#")})
	if err != nil {
		t.Fatal(err)
	}
	ds, err := store.All(ctx, inner, store.Query{PK: tenants.PK(e.tid), SK: store.SKBeginsWith("WHDELIVERY#" + sub.ID + "#")})
	if err != nil {
		t.Fatal(err)
	}
	deliveries := map[string][]string{} // event id → statuses
	attempts := map[string]int{}        // event id → attempts recorded
	for _, it := range ds {
		d, err := store.Doc[webhooks.Delivery](it)
		if err != nil {
			t.Fatal(err)
		}
		deliveries[d.EventID] = append(deliveries[d.EventID], d.Status)
		attempts[d.EventID] += len(d.Attempts)
		if d.Status != webhooks.StatusSucceeded && len(d.Attempts) > 0 {
			a := d.Attempts[len(d.Attempts)-1]
			t.Errorf("delivery %s %s after %d attempts: %s %s", d.ID, d.Status, len(d.Attempts), deref(a.Reason), deref(a.Error))
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(evs) < n {
		t.Fatalf("%d events for %d runs", len(evs), n)
	}
	retried := 0
	for _, it := range evs {
		ev, err := store.Doc[outbox.Event](it)
		if err != nil {
			t.Fatal(err)
		}
		if st := deliveries[ev.ID]; len(st) != 1 || st[0] != webhooks.StatusSucceeded {
			t.Errorf("event %s (%s): deliveries %v, want one succeeded", ev.ID, ev.Type, st)
		}
		if got := received[ev.ID]; got < 1 || got > attempts[ev.ID] {
			t.Errorf("event %s (%s) received %d times in %d recorded attempts", ev.ID, ev.Type, got, attempts[ev.ID])
		} else if got > 1 {
			retried++
		}
	}
	if len(received) != len(evs) {
		t.Errorf("%d events received, %d written", len(received), len(evs))
	}
	t.Logf("%d runs from %d writers settled in %v; %d events, %d deliveries, each one succeeded; %d received again after a late answer",
		n, writers, settled.Round(time.Millisecond), len(evs), len(ds), retried)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
