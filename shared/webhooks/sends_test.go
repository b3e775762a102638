package webhooks_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamotest"
	"github.com/brandlens/brandlens/shared/store/storetest"
	"github.com/brandlens/brandlens/shared/webhooks"
)

// Redeliveries and pings — each a new cycle of up to 5 POSTs at a URL the
// tenant chose — are limited per API key per hour, also under concurrent
// calls; a refused call changes nothing, another key has its own count,
// and the next hour starts afresh.
func TestManualSendLimit(t *testing.T) {
	start := time.Date(2026, 11, 22, 10, 40, 0, 0, time.UTC)
	dynamotest.Backends(t, start, func(t *testing.T, tbl store.Table, clock *storetest.Clock) {
		ctx := context.Background()
		svc := webhooks.New(tbl, webhooks.Options{Now: clock.Now})
		sub, err := svc.CreateSubscription(ctx, 1, webhooks.NewSubscription{URL: "https://hooks.example.com/in"})
		if err != nil {
			t.Fatal(err)
		}
		ping, err := svc.Ping(ctx, 1, "key_a", sub.ID)
		if err != nil {
			t.Fatal(err)
		}
		// The rest of the hour's sends and 10 more, concurrently: exactly
		// the limit pass.
		var mu sync.Mutex
		ok, limited := 1, 0
		var wg sync.WaitGroup
		for i := range webhooks.ManualSendLimit + 9 {
			wg.Go(func() {
				var err error
				if i%2 == 0 {
					_, err = svc.Redeliver(ctx, 1, "key_a", sub.ID, ping.ID)
				} else {
					_, err = svc.Ping(ctx, 1, "key_a", sub.ID)
				}
				var le *webhooks.LimitError
				mu.Lock()
				defer mu.Unlock()
				switch {
				case errors.As(err, &le):
					limited++
					if le.RetryAfter != 20*time.Minute {
						t.Errorf("retry after %s, want the 20 minutes left in the hour", le.RetryAfter)
					}
				case err != nil:
					t.Error(err)
				default:
					ok++
				}
			})
		}
		wg.Wait()
		if ok != webhooks.ManualSendLimit || limited != 10 {
			t.Fatalf("%d sends passed and %d were refused, want %d and 10", ok, limited, webhooks.ManualSendLimit)
		}
		d, err := svc.GetDelivery(ctx, 1, sub.ID, ping.ID)
		if err != nil {
			t.Fatal(err)
		}
		// What passed is what was stored: each redelivery one cycle more,
		// each ping one event — refused calls left nothing.
		if pings := countPings(t, tbl); pings+(d.Cycle-1) != webhooks.ManualSendLimit {
			t.Errorf("%d pings and %d redeliveries stored, want %d in all", pings, d.Cycle-1, webhooks.ManualSendLimit)
		}
		if _, err := svc.Ping(ctx, 1, "key_b", sub.ID); err != nil {
			t.Errorf("another key: %v", err)
		}
		clock.Advance(20 * time.Minute)
		if _, err := svc.Redeliver(ctx, 1, "key_a", sub.ID, ping.ID); err != nil {
			t.Errorf("next hour: %v", err)
		}
	})
}

func countPings(t *testing.T, tbl store.Table) int {
	t.Helper()
	items, err := store.All(context.Background(), tbl, store.Query{PK: "TENANT#1", SK: store.SKBeginsWith("EVENT#")})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, it := range items {
		if it.String("type") == outbox.WebhookPing {
			n++
		}
	}
	return n
}
