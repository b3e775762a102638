package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	awsevents "github.com/aws/aws-lambda-go/events"

	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/webhooks"
)

// SweepGrace is how long the scheduled sweep in AWS leaves pending events
// and due deliveries to the stream and the queue before it steps in.
const SweepGrace = 2 * time.Minute

// fanoutHandler is worker-fanout's handler. It serves two triggers: the
// table's DynamoDB stream (batches of INSERTed pending events; the event
// source mapping's filter lets only those through) and an EventBridge
// schedule, which runs the sweep.
func fanoutHandler(wh *webhooks.Service, log *slog.Logger) func(ctx context.Context, raw json.RawMessage) (any, error) {
	return func(ctx context.Context, raw json.RawMessage) (any, error) {
		var probe struct {
			Records []json.RawMessage `json:"Records"`
		}
		if err := json.Unmarshal(raw, &probe); err != nil {
			return nil, fmt.Errorf("app: unreadable worker-fanout invocation: %w", err)
		}
		if len(probe.Records) > 0 {
			var ev awsevents.DynamoDBEvent
			if err := json.Unmarshal(raw, &ev); err != nil {
				return nil, fmt.Errorf("app: unreadable stream batch: %w", err)
			}
			return handleStream(ctx, wh, log, ev), nil
		}
		fanned, resent, err := wh.Sweep(ctx, SweepGrace)
		log.Info("webhooks: sweep", "fanned_out", fanned, "resent", resent)
		return map[string]int{"fannedOut": fanned, "resent": resent}, err
	}
}

// handleStream fans out the pending events of a stream batch in order. On
// the first failure it stops and reports that record, so that Lambda
// retries the batch from there (ReportBatchItemFailures); the events after
// it are still pending and idempotent to fan out again.
func handleStream(ctx context.Context, wh *webhooks.Service, log *slog.Logger, batch awsevents.DynamoDBEvent) awsevents.DynamoDBEventResponse {
	resp := awsevents.DynamoDBEventResponse{BatchItemFailures: []awsevents.DynamoDBBatchItemFailure{}}
	subs := map[int32][]webhooks.Subscription{}
	for _, r := range batch.Records {
		ev, ok, err := pendingEventOf(r)
		if err != nil {
			// A document that does not decode will not decode on a retry
			// either; the sweep logs it again while it stays pending.
			log.Error("webhooks: undecodable event in stream", "event_id", r.EventID, "error", err.Error())
			continue
		}
		if !ok {
			continue
		}
		if _, err := wh.FanOut(ctx, ev, subs); err != nil {
			log.Warn("webhooks: fan-out failed; the batch is retried from this record", "event_id", ev.ID, "error", err.Error())
			resp.BatchItemFailures = append(resp.BatchItemFailures,
				awsevents.DynamoDBBatchItemFailure{ItemIdentifier: r.Change.SequenceNumber})
			return resp
		}
	}
	return resp
}

// pendingEventOf reads the event of an INSERT of a pending outbox item.
func pendingEventOf(r awsevents.DynamoDBEventRecord) (outbox.Event, bool, error) {
	img := r.Change.NewImage
	str := func(name string) string {
		v, ok := img[name]
		if !ok || v.DataType() != awsevents.DataTypeString {
			return ""
		}
		return v.String()
	}
	if r.EventName != "INSERT" || str("kind") != "event" || !outbox.IsPendingPK(str(store.AttrGSI1PK)) {
		return outbox.Event{}, false, nil
	}
	var ev outbox.Event
	if err := json.Unmarshal([]byte(str(store.AttrDoc)), &ev); err != nil {
		return outbox.Event{}, false, err
	}
	if ev.ID == "" || ev.TenantID == 0 {
		return outbox.Event{}, false, errors.New("event without id or tenant")
	}
	return ev, true, nil
}
