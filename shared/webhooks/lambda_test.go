package webhooks_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	awsevents "github.com/aws/aws-lambda-go/events"

	"github.com/brandlens/brandlens/shared/events"
	"github.com/brandlens/brandlens/shared/queue"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/webhooks"
)

// The sample events of events/ that `sam local invoke` uses for
// worker-fanout and worker-deliver, replayed through the real handlers.

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "events", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fixtureSubscription is the subscription the fixtures address.
const fixtureSubscription = "wh_01jpb7zq5k3v8n2m4x6c9d1f0h"

// putSubscription stores a subscription with a fixed id (the API always
// generates one), the way CreateSubscription stores it.
func putSubscription(t *testing.T, tbl store.Table, sub webhooks.Subscription) {
	t.Helper()
	doc, err := store.EncodeDoc(sub)
	if err != nil {
		t.Fatal(err)
	}
	err = tbl.Put(context.Background(), store.Item{store.AttrPK: "TENANT#1", store.AttrSK: "WEBHOOK#" + sub.ID,
		store.AttrDoc: doc, "kind": "webhook", "active": sub.Active}, store.NotExists())
	if err != nil {
		t.Fatal(err)
	}
}

func TestWorkerFixtures(t *testing.T) {
	ctx := context.Background()
	tbl := embedded.NewMemory()
	rc := newReceiver(t, secret, nil)
	putSubscription(t, tbl, webhooks.Subscription{ID: fixtureSubscription, TenantID: 1, URL: rc.url, Events: []string{"*"},
		Active: true, Secret: secret, CreatedAt: time.Now(), UpdatedAt: time.Now()})
	q := queue.NewLocal(queue.LocalOptions{})
	defer q.Close()
	svc := webhooks.New(tbl, webhooks.Options{Guard: loopback, Sender: q})

	// The stream batch: an INSERT of a pending event, and of a ping event
	// (not pending: the event source's filter would drop it; the handler
	// ignores it too).
	raw := fixture(t, "dynamodb-stream-outbox.json")
	var batch awsevents.DynamoDBEvent
	if err := json.Unmarshal(raw, &batch); err != nil {
		t.Fatal(err)
	}
	var ev events.Event
	if err := json.Unmarshal([]byte(batch.Records[0].Change.NewImage["doc"].String()), &ev); err != nil {
		t.Fatal(err)
	}
	if err := events.Append(ctx, tbl, ev); err != nil { // the item the stream record reports
		t.Fatal(err)
	}
	out, err := svc.FanoutLambdaHandler()(ctx, raw)
	if err != nil {
		t.Fatal(err)
	}
	if resp, ok := out.(awsevents.DynamoDBEventResponse); !ok || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("stream answer %#v", out)
	}
	if q.Len() != 1 {
		t.Fatalf("%d messages queued, want 1 (the ping record is not fanned out)", q.Len())
	}
	if p, _ := events.Pending(ctx, tbl, 10); len(p) != 0 {
		t.Errorf("still pending: %v", p)
	}

	// The deliveries message addresses exactly that delivery.
	var sqsEv awsevents.SQSEvent
	if err := json.Unmarshal(fixture(t, "sqs-deliveries.json"), &sqsEv); err != nil {
		t.Fatal(err)
	}
	var msg webhooks.Message
	if err := json.Unmarshal([]byte(sqsEv.Records[0].Body), &msg); err != nil {
		t.Fatal(err)
	}
	if msg.DeliveryID != webhooks.DeliveryID(ev.ID, fixtureSubscription) || msg.SubscriptionID != fixtureSubscription {
		t.Fatalf("fixture message %+v does not address the fixture's delivery", msg)
	}
	resp, err := queue.LambdaHandler(svc.Handle)(ctx, sqsEv)
	if err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("deliver: %+v %v", resp, err)
	}
	posts := rc.posts()
	want, _ := webhooks.Envelope(ev)
	if len(posts) != 1 || !bytes.Equal(posts[0].body, want) || !posts[0].sigOK {
		t.Fatalf("posts %d", len(posts))
	}
	// The queued copy of the same message is now a duplicate: handling it
	// sends nothing.
	qctx, cancel := context.WithCancel(ctx)
	go q.Run(qctx, svc.Handle, 1)
	if err := q.WaitEmpty(ctx); err != nil {
		t.Fatal(err)
	}
	cancel()
	if n := len(rc.posts()); n != 1 {
		t.Fatalf("%d POSTs after the duplicate, want 1", n)
	}

	// The schedule sweeps events the stream left pending for longer than
	// the grace period.
	old, _ := events.New(1, events.CreditLow, events.CreditLowData{Balance: 9, Threshold: 10}, time.Now().Add(-webhooks.SweepGrace-time.Minute))
	fresh, _ := events.New(1, events.CreditLow, events.CreditLowData{Balance: 8, Threshold: 10}, time.Now())
	events.Append(ctx, tbl, old)
	events.Append(ctx, tbl, fresh)
	res, err := svc.FanoutLambdaHandler()(ctx, fixture(t, "schedule-fanout-sweep.json"))
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := res.(map[string]int); m["fannedOut"] != 1 {
		t.Errorf("sweep %v, want the old event only", res)
	}
	if p, _ := events.Pending(ctx, tbl, 10); len(p) != 1 || p[0].ID != fresh.ID {
		t.Errorf("pending after the sweep: %v", p)
	}
}

// failingTable fails every query, as an unreachable table would.
type failingTable struct{ store.Table }

func (failingTable) Query(context.Context, store.Query) (store.Page, error) {
	return store.Page{}, errors.New("table unreachable")
}

// A failure reports its record, so that Lambda retries from there.
func TestStreamFailureReportsTheRecord(t *testing.T) {
	svc := webhooks.New(failingTable{embedded.NewMemory()}, webhooks.Options{})
	var batch awsevents.DynamoDBEvent
	if err := json.Unmarshal(fixture(t, "dynamodb-stream-outbox.json"), &batch); err != nil {
		t.Fatal(err)
	}
	resp := svc.HandleStream(context.Background(), batch)
	if len(resp.BatchItemFailures) != 1 || resp.BatchItemFailures[0].ItemIdentifier != batch.Records[0].Change.SequenceNumber {
		t.Errorf("failures %+v, want the first record's sequence number", resp.BatchItemFailures)
	}
}
