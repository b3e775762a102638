package webhooks_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/secrets"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/webhooks"
)

const secret = "whsec_test-secret-for-the-receiver-0001"

// Every delivery is a signed JSON POST of the envelope, with the headers
// of the spec; the receiver verifies the signature over the raw body.
func TestDeliveryIsSignedEnvelope(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		mem := newMemNet(t)
		h := mem.harness(nil, webhooks.Options{Guard: loopback}, 512)
		rc := mem.receiver(secret, nil)
		sub := h.subscribe(t, 7, rc.url+"/hooks", secret, outbox.ContentPublished)
		ev := emit(t, h.tbl, 7, outbox.ContentPublished, outbox.ContentPublishedData{
			OpportunityID: "opp_1", LiveURL: "https://acmenotes.com/blog/x", IndexNowPinged: true})
		got := rc.waitPosts(t, 1, 5*time.Second)[0]

		if !got.sigOK {
			t.Fatalf("signature %q does not verify over the raw body", got.header.Get("X-Service-Signature"))
		}
		want, err := webhooks.Envelope(ev)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.body, want) {
			t.Errorf("body\n%s\nwant\n%s", got.body, want)
		}
		// Exactly the five members, in this order.
		dec := json.NewDecoder(bytes.NewReader(got.body))
		var keys []string
		dec.Token()
		for dec.More() {
			k, _ := dec.Token()
			keys = append(keys, k.(string))
			var skip json.RawMessage
			dec.Decode(&skip)
		}
		if strings.Join(keys, ",") != "event_id,type,created_at,tenant_id,data" {
			t.Errorf("envelope members %v", keys)
		}
		var env struct {
			EventID  string                      `json:"event_id"`
			Type     string                      `json:"type"`
			TenantID int32                       `json:"tenant_id"`
			Data     outbox.ContentPublishedData `json:"data"`
		}
		if err := json.Unmarshal(got.body, &env); err != nil {
			t.Fatal(err)
		}
		if env.EventID != ev.ID || env.Type != outbox.ContentPublished || env.TenantID != 7 ||
			env.Data.OpportunityID != "opp_1" || env.Data.LiveURL != "https://acmenotes.com/blog/x" || !env.Data.IndexNowPinged {
			t.Errorf("envelope %+v", env)
		}
		for hdr, v := range map[string]string{
			"Content-Type": "application/json", "X-Service-Event": outbox.ContentPublished, "X-Service-Event-Id": ev.ID,
			"User-Agent": webhooks.UserAgent, "X-Service-Delivery-Id": webhooks.DeliveryID(ev.ID, sub.ID), "X-Service-Delivery-Attempt": "1",
		} {
			if got.header.Get(hdr) != v {
				t.Errorf("%s = %q, want %q", hdr, got.header.Get(hdr), v)
			}
		}
		if !strings.HasPrefix(got.header.Get("X-Service-Signature"), "sha256=") {
			t.Errorf("X-Service-Signature = %q", got.header.Get("X-Service-Signature"))
		}
		d := h.waitStatus(t, 7, sub.ID, ev.ID, webhooks.StatusSucceeded, 5*time.Second)
		if len(d.Attempts) != 1 || *d.Attempts[0].HTTPStatus != http.StatusNoContent || d.Attempts[0].Error != nil {
			t.Errorf("attempts %+v", d.Attempts)
		}
	})
}

// A receiver failing three times then answering 200 gets exactly four
// POSTs of the same bytes (one event_id), spaced by the scaled schedule.
func TestRetriesFollowTheSchedule(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		mem := newMemNet(t)
		h := mem.harness(nil, webhooks.Options{Guard: loopback}, 512)
		rc := mem.receiver(secret, func(_ context.Context, n int) int {
			if n <= 3 {
				return http.StatusInternalServerError
			}
			return http.StatusOK
		})
		sub := h.subscribe(t, 1, rc.url, secret, webhooks.AllEvents)
		ev := emit(t, h.tbl, 1, outbox.ExecutionCompleted, outbox.ExecutionData{JobID: "job_1", Status: "succeeded"})
		d := h.waitStatus(t, 1, sub.ID, ev.ID, webhooks.StatusSucceeded, 10*time.Second)
		time.Sleep(2 * time.Duration(float64(webhooks.RetryWaits[3])*testScale)) // nothing more may come
		posts := rc.posts()
		if len(posts) != 4 {
			t.Fatalf("%d POSTs, want 4", len(posts))
		}
		for i, p := range posts {
			if !p.sigOK || !bytes.Equal(p.body, posts[0].body) || p.header.Get("X-Service-Event-Id") != ev.ID {
				t.Errorf("POST %d: signature ok %v, same bytes %v, event id %s", i+1, p.sigOK, bytes.Equal(p.body, posts[0].body), p.header.Get("X-Service-Event-Id"))
			}
			if p.header.Get("X-Service-Delivery-Attempt") != string(rune('1'+i)) {
				t.Errorf("POST %d: attempt header %q", i+1, p.header.Get("X-Service-Delivery-Attempt"))
			}
		}
		for i := 1; i < len(posts); i++ {
			gap, wait := posts[i].at.Sub(posts[i-1].at), time.Duration(float64(webhooks.RetryWaits[i-1])*testScale)
			if gap < wait {
				t.Errorf("gap before POST %d is %s, shorter than the scheduled %s", i+1, gap, wait)
			}
		}
		var statuses []int
		for _, a := range d.Attempts {
			statuses = append(statuses, *a.HTTPStatus)
		}
		if len(statuses) != 4 || statuses[0] != 500 || statuses[2] != 500 || statuses[3] != 200 {
			t.Errorf("attempt statuses %v", statuses)
		}
		if d.Attempts[0].Error == nil || *d.Attempts[0].Error != "HTTP 500" || d.Attempts[3].Error != nil {
			t.Errorf("attempt errors %v / %v", d.Attempts[0].Error, d.Attempts[3].Error)
		}
	})
}

// One that always fails gets exactly five POSTs and is dead-lettered;
// redelivery sends the same bytes and event_id again.
func TestDeadLetterThenRedeliver(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		mem := newMemNet(t)
		h := mem.harness(nil, webhooks.Options{Guard: loopback}, 512)
		var mu sync.Mutex
		healthy := false
		rc := mem.receiver(secret, func(_ context.Context, n int) int {
			mu.Lock()
			defer mu.Unlock()
			if healthy {
				return http.StatusOK
			}
			return http.StatusBadGateway
		})
		sub := h.subscribe(t, 1, rc.url, secret, outbox.MentionDetected)
		ev := emit(t, h.tbl, 1, outbox.MentionDetected, outbox.MentionDetectedData{JobID: "job_1", Brand: "Acme Notes"})
		d := h.waitStatus(t, 1, sub.ID, ev.ID, webhooks.StatusDeadLettered, 10*time.Second)
		time.Sleep(2 * time.Duration(float64(webhooks.RetryWaits[3])*testScale))
		if n := len(rc.posts()); n != webhooks.MaxAttempts {
			t.Fatalf("%d POSTs, want %d", n, webhooks.MaxAttempts)
		}
		if len(d.Attempts) != 5 || d.NextAttemptAt() != nil || d.Cycle != 1 {
			t.Errorf("dead letter: %d attempts, next %v, cycle %d", len(d.Attempts), d.NextAttemptAt(), d.Cycle)
		}

		mu.Lock()
		healthy = true
		mu.Unlock()
		if _, err := h.svc.Redeliver(context.Background(), 1, "key_1", sub.ID, d.ID); err != nil {
			t.Fatal(err)
		}
		d = h.waitStatus(t, 1, sub.ID, ev.ID, webhooks.StatusSucceeded, 5*time.Second)
		posts := rc.posts()
		if len(posts) != 6 {
			t.Fatalf("%d POSTs after redelivery, want 6", len(posts))
		}
		last := posts[5]
		if !bytes.Equal(last.body, posts[0].body) || last.header.Get("X-Service-Event-Id") != ev.ID || !last.sigOK {
			t.Error("the redelivery is not the same signed bytes with the same event_id")
		}
		if d.Cycle != 2 || len(d.Attempts) != 6 || d.Attempts[5].Cycle != 2 || d.Attempts[5].N != 1 {
			t.Errorf("after redelivery: cycle %d, attempts %+v", d.Cycle, d.Attempts)
		}
	})
}

// A second endpoint that hangs does not delay the first: each healthy
// delivery arrives promptly while the hanging requests are still open.
func TestHangingEndpointDoesNotDelayOthers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		mem := newMemNet(t)
		h := mem.harness(nil, webhooks.Options{Guard: loopback, Timeout: 5 * time.Second}, 512)
		slow := mem.receiver(secret, hang)
		fast := mem.receiver(secret, nil)
		h.subscribe(t, 1, slow.url, secret, webhooks.AllEvents)
		h.subscribe(t, 1, fast.url, secret, webhooks.AllEvents)
		// First the hanging endpoint is made to hang.
		emit(t, h.tbl, 1, outbox.GapDetected, outbox.GapDetectedData{GapID: "gap"})
		slow.waitPosts(t, 1, 5*time.Second)
		fast.waitPosts(t, 1, 5*time.Second)
		// More events than the queue has workers: the hanging endpoint may
		// hold only its in-flight share of them.
		const n = 40
		// Generous: the point is "not after the hanging one's 5 s timeout".
		const bound = 1500 * time.Millisecond
		for i := 2; i <= n+1; i++ {
			start := time.Now()
			emit(t, h.tbl, 1, outbox.GapDetected, outbox.GapDetectedData{GapID: "gap"})
			got := fast.waitPosts(t, i, 5*time.Second)
			if d := got[i-1].at.Sub(start); d > bound {
				t.Errorf("event %d reached the healthy endpoint after %s (bound %s)", i, d, bound)
			}
			if slow.open.Load() == 0 {
				t.Errorf("event %d: the hanging endpoint holds no open request; the test proves nothing", i)
			}
		}
	})
}

// With few workers, a hanging endpoint still holds at most its in-flight
// share of them (MaxInFlight); its other attempts are postponed without
// holding a worker, so the healthy endpoint is served at once.
func TestHangingEndpointHoldsFewWorkers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		mem := newMemNet(t)
		h := mem.harness(nil, webhooks.Options{Guard: loopback, Timeout: 5 * time.Second, MaxInFlight: 2}, 6)
		slow := mem.receiver(secret, hang)
		fast := mem.receiver(secret, nil)
		h.subscribe(t, 1, slow.url, secret, outbox.GapDetected)
		h.subscribe(t, 1, fast.url, secret, outbox.ContentCited)
		for range 30 {
			emit(t, h.tbl, 1, outbox.GapDetected, outbox.GapDetectedData{GapID: "gap"})
		}
		slow.waitPosts(t, 2, 5*time.Second)
		time.Sleep(700 * time.Millisecond) // the slow endpoint now counts as stalled
		if n := slow.open.Load(); n > 2 {
			t.Errorf("%d requests open to the hanging endpoint, want at most MaxInFlight = 2", n)
		}
		for i := 1; i <= 10; i++ {
			start := time.Now()
			emit(t, h.tbl, 1, outbox.ContentCited, outbox.ContentCitedData{OpportunityID: "o"})
			got := fast.waitPosts(t, i, 5*time.Second)
			if d := got[i-1].at.Sub(start); d > 1500*time.Millisecond {
				t.Errorf("healthy delivery %d took %s with 6 workers and a hanging endpoint", i, d)
			}
		}
	})
}

// Duplicate queue messages never produce a second POST, on the embedded
// store (the DynamoDB Local run is in dynamo_test.go).
func TestDuplicateMessagesPostOnce(t *testing.T) {
	testClaimProtocol(t, embedded.NewMemory())
}

// testClaimProtocol runs the delivery-claim protocol against tbl: many
// concurrent copies of one message, stale and early messages, redelivery
// overtaking and a held lease.
func testClaimProtocol(t *testing.T, tbl store.Table) {
	ctx := context.Background()
	clk := &clock{t: time.Now()}
	var mu sync.Mutex
	status := http.StatusOK
	gate := make(chan struct{}) // closed: answer at once
	close(gate)
	rc := newReceiver(t, secret, func(ctx context.Context, n int) int {
		mu.Lock()
		g, st := gate, status
		mu.Unlock()
		select {
		case <-g:
		case <-ctx.Done():
		}
		time.Sleep(20 * time.Millisecond) // widen the race window
		return st
	})
	// No queue: the test hands messages to Handle itself.
	svc := webhooks.New(tbl, webhooks.Options{Guard: loopback, RetryScale: 1, Timeout: 5 * time.Second, Now: clk.Now})
	sub, err := svc.CreateSubscription(ctx, 3, webhooks.NewSubscription{URL: rc.url, Secret: ptr(secret)})
	if err != nil {
		t.Fatal(err)
	}
	fanOut := func() webhooks.Delivery {
		ev, err := outbox.New(3, outbox.OpportunityCreated, outbox.OpportunityCreatedData{OpportunityID: "opp"}, clk.Now())
		if err != nil {
			t.Fatal(err)
		}
		if err := outbox.Append(ctx, tbl, ev); err != nil {
			t.Fatal(err)
		}
		if n, err := svc.FanOut(ctx, ev, nil); err != nil || n != 1 {
			t.Fatalf("fan-out: %d deliveries, %v", n, err)
		}
		d, err := svc.GetDelivery(ctx, 3, sub.ID, webhooks.DeliveryID(ev.ID, sub.ID))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	storm := func(m int, msg func() error) {
		var wg sync.WaitGroup
		for range m {
			wg.Go(func() {
				if err := msg(); err != nil {
					t.Errorf("Handle: %v", err)
				}
			})
		}
		wg.Wait()
	}
	get := func(d webhooks.Delivery) webhooks.Delivery {
		d, err := svc.GetDelivery(ctx, 3, sub.ID, d.ID)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}

	t.Run("concurrent copies of a message POST once", func(t *testing.T) {
		before := len(rc.posts())
		d := fanOut()
		storm(16, func() error { return svc.Handle(ctx, message(t, d, 1, 1)) })
		if n := len(rc.posts()) - before; n != 1 {
			t.Fatalf("%d POSTs, want 1", n)
		}
		if d = get(d); d.Status != webhooks.StatusSucceeded || len(d.Attempts) != 1 {
			t.Errorf("status %s, %d attempts", d.Status, len(d.Attempts))
		}
		// Late copies of the delivered message change nothing.
		storm(4, func() error { return svc.Handle(ctx, message(t, d, 1, 1)) })
		if n := len(rc.posts()) - before; n != 1 {
			t.Fatalf("%d POSTs after late duplicates, want 1", n)
		}
	})

	t.Run("failures: one POST per attempt, stale and early copies dropped", func(t *testing.T) {
		mu.Lock()
		status = http.StatusInternalServerError
		mu.Unlock()
		before := len(rc.posts())
		d := fanOut()
		storm(16, func() error { return svc.Handle(ctx, message(t, d, 1, 1)) })
		if n := len(rc.posts()) - before; n != 1 {
			t.Fatalf("%d POSTs for attempt 1, want 1", n)
		}
		d = get(d)
		if d.Status != webhooks.StatusFailedRetrying || d.Next != 2 || d.NextAttemptAt() == nil {
			t.Fatalf("after a failure: status %s next %d at %v", d.Status, d.Next, d.NextAttemptAt())
		}
		// Attempt 1 again: stale. Attempt 2 now: not due (and no queue to
		// postpone it on, so Handle asks for the message back).
		storm(4, func() error { return svc.Handle(ctx, message(t, d, 1, 1)) })
		if err := svc.Handle(ctx, message(t, d, 1, 2)); err == nil {
			t.Error("an early attempt was not handed back")
		}
		if n := len(rc.posts()) - before; n != 1 {
			t.Fatalf("%d POSTs after stale and early copies, want 1", n)
		}
		clk.Add(webhooks.RetryWaits[0])
		mu.Lock()
		status = http.StatusOK
		mu.Unlock()
		storm(16, func() error { return svc.Handle(ctx, message(t, d, 1, 2)) })
		if n := len(rc.posts()) - before; n != 2 {
			t.Fatalf("%d POSTs after attempt 2, want 2", n)
		}
		if d = get(d); d.Status != webhooks.StatusSucceeded || len(d.Attempts) != 2 {
			t.Errorf("status %s, %d attempts", d.Status, len(d.Attempts))
		}
	})

	t.Run("a redelivery overtakes the old cycle's messages", func(t *testing.T) {
		before := len(rc.posts())
		d := fanOut()
		if err := svc.Handle(ctx, message(t, d, 1, 1)); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Redeliver(ctx, 3, "key_1", sub.ID, d.ID); err != nil {
			t.Fatal(err)
		}
		storm(8, func() error { return svc.Handle(ctx, message(t, d, 1, 1)) }) // old cycle
		storm(8, func() error { return svc.Handle(ctx, message(t, d, 2, 1)) })
		if n := len(rc.posts()) - before; n != 2 {
			t.Fatalf("%d POSTs, want 2 (the first cycle's and the redelivery's)", n)
		}
		if d = get(d); d.Cycle != 2 || d.Status != webhooks.StatusSucceeded || len(d.Attempts) != 2 {
			t.Errorf("cycle %d status %s attempts %d", d.Cycle, d.Status, len(d.Attempts))
		}
	})

	t.Run("a held claim makes copies drop", func(t *testing.T) {
		before := len(rc.posts())
		hold := make(chan struct{})
		mu.Lock()
		gate = hold
		mu.Unlock()
		d := fanOut()
		done := make(chan error, 1)
		go func() { done <- svc.Handle(ctx, message(t, d, 1, 1)) }()
		rc.waitPosts(t, before+1, 5*time.Second)
		if got := get(d); got.Status != webhooks.StatusDelivering {
			t.Fatalf("status %s while the POST is in flight, want delivering", got.Status)
		}
		storm(8, func() error { return svc.Handle(ctx, message(t, d, 1, 1)) })
		close(hold)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if n := len(rc.posts()) - before; n != 1 {
			t.Fatalf("%d POSTs, want 1", n)
		}
		if d = get(d); d.Status != webhooks.StatusSucceeded {
			t.Errorf("status %s", d.Status)
		}
	})
}

// Fan-out is idempotent and selective: active subscriptions of the
// event's tenant whose list names the type (or "*"), once each.
func TestFanOutIsIdempotentAndSelective(t *testing.T) {
	ctx := context.Background()
	tbl := embedded.NewMemory()
	svc := webhooks.New(tbl, webhooks.Options{Guard: loopback})
	mk := func(tenant int32, active bool, evs ...string) webhooks.Subscription {
		sub, err := svc.CreateSubscription(ctx, tenant, webhooks.NewSubscription{URL: "https://hooks.example.com/x", Events: evs, Active: &active})
		if err != nil {
			t.Fatal(err)
		}
		return sub
	}
	all := mk(1, true, webhooks.AllEvents)
	named := mk(1, true, outbox.ContentGenerated, outbox.ContentPublished)
	mk(1, true, outbox.CreditLow)    // other type
	mk(1, false, webhooks.AllEvents) // inactive
	mk(2, true, webhooks.AllEvents)  // other tenant
	ev, _ := outbox.New(1, outbox.ContentGenerated, outbox.ContentGeneratedData{OpportunityID: "o"}, time.Now())
	if err := outbox.Append(ctx, tbl, ev); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		n, err := svc.FanOut(ctx, ev, nil)
		if err != nil || n != 2 {
			t.Fatalf("fan-out: %d, %v; want 2", n, err)
		}
	}
	for _, sub := range []webhooks.Subscription{all, named} {
		ds, err := svc.ListDeliveries(ctx, 1, sub.ID, "", 50)
		if err != nil || len(ds) != 1 || ds[0].EventID != ev.ID || ds[0].Status != webhooks.StatusPending {
			t.Errorf("%s: deliveries %+v %v", sub.ID, ds, err)
		}
	}
	if pending, _ := outbox.Pending(ctx, tbl, 10); len(pending) != 0 {
		t.Errorf("the event is still pending: %v", pending)
	}
	// Another tenant cannot see the deliveries.
	if _, err := svc.ListDeliveries(ctx, 2, all.ID, "", 50); err != webhooks.ErrNotFound {
		t.Errorf("other tenant: %v, want ErrNotFound", err)
	}
}

// Ping goes through the engine to the pinged subscription only, even when
// its list does not name webhook.ping and others take "*".
func TestPingReachesOnlyThatSubscription(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		mem := newMemNet(t)
		h := mem.harness(nil, webhooks.Options{Guard: loopback}, 512)
		a := mem.receiver(secret, nil)
		b := mem.receiver(secret, nil)
		subA := h.subscribe(t, 1, a.url, secret, outbox.CreditLow)
		h.subscribe(t, 1, b.url, secret, webhooks.AllEvents)
		d, err := h.svc.Ping(context.Background(), 1, "key_1", subA.ID)
		if err != nil {
			t.Fatal(err)
		}
		got := a.waitPosts(t, 1, 5*time.Second)[0]
		var env struct {
			EventID string                 `json:"event_id"`
			Type    string                 `json:"type"`
			Data    outbox.WebhookPingData `json:"data"`
		}
		if err := json.Unmarshal(got.body, &env); err != nil {
			t.Fatal(err)
		}
		if env.Type != outbox.WebhookPing || env.EventID != d.EventID || env.Data.SubscriptionID != subA.ID || !got.sigOK {
			t.Errorf("ping %+v", env)
		}
		h.waitStatus(t, 1, subA.ID, d.EventID, webhooks.StatusSucceeded, 5*time.Second)
		time.Sleep(200 * time.Millisecond) // several dispatcher polls
		if n := len(b.posts()); n != 0 {
			t.Errorf("the other subscription got %d POSTs", n)
		}
		if _, err := h.svc.Ping(context.Background(), 2, "key_1", subA.ID); err != webhooks.ErrNotFound {
			t.Errorf("ping from another tenant: %v", err)
		}
	})
}

// A redirect is an answer, not followed: the attempt fails and the
// redirect's target is never contacted.
func TestRedirectIsAFailure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		mem := newMemNet(t)
		h := mem.harness(nil, webhooks.Options{Guard: loopback}, 512)
		target := mem.receiver(secret, nil)
		rc := mem.receiver(secret, func(context.Context, int) int { return http.StatusFound })
		sub := h.subscribe(t, 1, rc.url, secret, webhooks.AllEvents)
		ev := emit(t, h.tbl, 1, outbox.ContentCited, outbox.ContentCitedData{OpportunityID: "o"})
		d := h.waitStatus(t, 1, sub.ID, ev.ID, webhooks.StatusDeadLettered, 10*time.Second)
		if *d.Attempts[0].HTTPStatus != http.StatusFound || !strings.Contains(*d.Attempts[0].Error, "redirects are not followed") {
			t.Errorf("attempt %+v", d.Attempts[0])
		}
		if target.conns.Load() != 0 {
			t.Error("the redirect target was contacted")
		}
	})
}

// A deleted subscription gets nothing: its due attempt dead-letters
// without a POST.
func TestDeletedSubscriptionGetsNothing(t *testing.T) {
	ctx := context.Background()
	tbl := embedded.NewMemory()
	rc := newReceiver(t, secret, nil)
	svc := webhooks.New(tbl, webhooks.Options{Guard: loopback})
	sub, _ := svc.CreateSubscription(ctx, 1, webhooks.NewSubscription{URL: rc.url, Secret: ptr(secret)})
	ev, _ := outbox.New(1, outbox.GapDetected, outbox.GapDetectedData{}, time.Now())
	outbox.Append(ctx, tbl, ev)
	if _, err := svc.FanOut(ctx, ev, nil); err != nil {
		t.Fatal(err)
	}
	d, _ := svc.GetDelivery(ctx, 1, sub.ID, webhooks.DeliveryID(ev.ID, sub.ID))
	if err := svc.DeleteSubscription(ctx, 1, sub.ID); err != nil {
		t.Fatal(err)
	}
	if err := svc.Handle(ctx, message(t, d, 1, 1)); err != nil {
		t.Fatal(err)
	}
	if rc.conns.Load() != 0 {
		t.Error("a deleted subscription was contacted")
	}
	// GetDelivery needs the subscription, so the record is read directly.
	page, err := tbl.Query(ctx, store.Query{PK: "TENANT#1", SK: store.SKBeginsWith("WHDELIVERY#")})
	if err != nil || len(page.Items) != 1 {
		t.Fatalf("%v %v", page.Items, err)
	}
	got, _ := store.Doc[webhooks.Delivery](page.Items[0])
	if got.Status != webhooks.StatusDeadLettered || got.Attempts[0].Error == nil || !strings.Contains(*got.Attempts[0].Error, "subscription deleted") {
		t.Errorf("delivery %+v", got)
	}
}

// Lost messages are recovered from the store: deliveries created while no
// queue was attached are delivered once the dispatcher starts (it re-sends
// every unfinished delivery), as after a restart of `brandlens serve`.
func TestRestartResendsUnfinishedDeliveries(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		mem := newMemNet(t)
		ctx := context.Background()
		tbl := embedded.NewMemory()
		rc := mem.receiver(secret, nil)
		// One process's keys across the restart, as the data directory's
		// keyring is.
		keys := secrets.NewSealer(secrets.NewMemoryKeyring())
		cold := webhooks.New(tbl, webhooks.Options{Guard: loopback, Secrets: keys})
		sub, _ := cold.CreateSubscription(ctx, 1, webhooks.NewSubscription{URL: rc.url, Secret: ptr(secret)})
		var evs []outbox.Event
		for range 3 {
			ev, _ := outbox.New(1, outbox.OpportunityCreated, outbox.OpportunityCreatedData{}, time.Now())
			outbox.Append(ctx, tbl, ev)
			if _, err := cold.FanOut(ctx, ev, nil); err != nil {
				t.Fatal(err)
			}
			evs = append(evs, ev)
		}
		h := mem.harness(tbl, webhooks.Options{Guard: loopback, Secrets: keys}, 512)
		rc.waitPosts(t, 3, 5*time.Second)
		for _, ev := range evs {
			h.waitStatus(t, 1, sub.ID, ev.ID, webhooks.StatusSucceeded, 5*time.Second)
		}
		if n := len(rc.posts()); n != 3 {
			t.Errorf("%d POSTs, want 3", n)
		}
	})
}
