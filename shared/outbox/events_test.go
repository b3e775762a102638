package outbox_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/store/storetest"
)

// Events expire Retention after they were created, pending or not: the
// item carries the TTL attribute, and once it passes, reads no longer see
// the event.
func TestEventsExpire(t *testing.T) {
	ctx := context.Background()
	start := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	clock := storetest.NewClock(start)
	tbl := embedded.NewMemory(embedded.WithClock(clock.Now))
	ev, err := outbox.New(1, outbox.CreditLow, outbox.CreditLowData{Balance: 5, Threshold: 10, Granted: 100}, start)
	if err != nil {
		t.Fatal(err)
	}
	if err := outbox.Append(ctx, tbl, ev); err != nil {
		t.Fatal(err)
	}
	it, err := tbl.Get(ctx, outbox.Key(1, ev.ID))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := it.Int(store.AttrExpiresAt), start.Add(outbox.Retention).Unix(); got != want {
		t.Fatalf("expiresAt %d, want %d (created + %s)", got, want, outbox.Retention)
	}
	if outbox.Retention != 30*24*time.Hour {
		t.Errorf("retention %s, the README documents 30 days", outbox.Retention)
	}
	clock.Advance(outbox.Retention - time.Second)
	if evs, err := outbox.Pending(ctx, tbl, 10); err != nil || len(evs) != 1 {
		t.Fatalf("pending before expiry: %v, %v", evs, err)
	}
	clock.Advance(2 * time.Second)
	if _, err := tbl.Get(ctx, outbox.Key(1, ev.ID)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("event after its retention: %v", err)
	}
	if evs, err := outbox.Pending(ctx, tbl, 10); err != nil || len(evs) != 0 {
		t.Errorf("pending after expiry: %v, %v", evs, err)
	}
	// A fan-out that meets it afterwards (a late stream record) is done
	// with it, and brings nothing back.
	if err := outbox.MarkDone(ctx, tbl, ev); err != nil {
		t.Errorf("mark an expired event done: %v", err)
	}
	if _, err := tbl.Get(ctx, outbox.Key(1, ev.ID)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("event after MarkDone: %v", err)
	}
}

// Events are pending under a shard of the pending key; events written
// before the sharding (under the key itself) are still pending, and
// Pending returns them all oldest first.
func TestPendingReadsEveryShardAndTheUnshardedKey(t *testing.T) {
	ctx := context.Background()
	start := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	tbl := embedded.NewMemory()
	var want []string
	for i := range 50 {
		ev, err := outbox.New(1, outbox.CreditLow, outbox.CreditLowData{Balance: 5, Threshold: 10, Granted: 100}, start.Add(time.Duration(i)*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		op, err := outbox.Op(ev)
		if err != nil {
			t.Fatal(err)
		}
		if pk := op.Item.String(store.AttrGSI1PK); pk == outbox.PendingPK || !outbox.IsPendingPK(pk) {
			t.Fatalf("pending key %q is not a shard", pk)
		}
		if i%4 == 0 {
			op.Item[store.AttrGSI1PK] = outbox.PendingPK
		}
		if err := tbl.TransactWrite(ctx, op); err != nil {
			t.Fatal(err)
		}
		want = append(want, ev.ID)
	}
	for _, limit := range []int{7, 50, 100} {
		evs, err := outbox.Pending(ctx, tbl, limit)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, ev := range evs {
			got = append(got, ev.ID)
		}
		if w := want[:min(limit, len(want))]; !slices.Equal(got, w) {
			t.Fatalf("limit %d: pending %v, want %v", limit, got, w)
		}
	}
}
