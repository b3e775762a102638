package webhooks_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/webhooks"
)

type countingSender struct{ n atomic.Int64 }

func (c *countingSender) Send(context.Context, []byte, time.Duration) error {
	c.n.Add(1)
	return nil
}

// Deliveries are due under a shard of the due key; the sweep's Resend
// finds them there and under the key itself (deliveries indexed before
// the sharding).
func TestResendReadsEveryShardAndTheUnshardedKey(t *testing.T) {
	ctx := context.Background()
	tbl := embedded.NewMemory()
	sender := &countingSender{}
	svc := webhooks.New(tbl, webhooks.Options{Guard: loopback, Sender: sender})
	if _, err := svc.CreateSubscription(ctx, 1, webhooks.NewSubscription{URL: "https://hooks.example.com/in"}); err != nil {
		t.Fatal(err)
	}
	const n = 40
	for range n {
		ev, err := outbox.New(1, outbox.OpportunityCreated, outbox.OpportunityCreatedData{}, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.FanOut(ctx, ev, nil); err != nil {
			t.Fatal(err)
		}
	}
	ds, err := store.All(ctx, tbl, store.Query{PK: tenants.PK(1), SK: store.SKBeginsWith("WHDELIVERY#")})
	if err != nil || len(ds) != n {
		t.Fatalf("%d deliveries (%v)", len(ds), err)
	}
	for i, it := range ds {
		if pk := it.String(store.AttrGSI1PK); !strings.HasPrefix(pk, "WHDELIVERY#due#") {
			t.Fatalf("due key %q is not sharded", pk)
		}
		if i%3 == 0 {
			if _, err := tbl.Update(ctx, it.Key(), store.Update{Set: map[string]any{store.AttrGSI1PK: "WHDELIVERY#due"}}, store.Exists()); err != nil {
				t.Fatal(err)
			}
		}
	}
	sender.n.Store(0)
	sent, err := svc.Resend(ctx, time.Now().Add(time.Hour))
	if err != nil || sent != n || sender.n.Load() != n {
		t.Fatalf("resent %d, sent %d (%v), want %d", sent, sender.n.Load(), err, n)
	}
}
