package queue

import (
	"context"
	"log/slog"
	"sync"

	"github.com/aws/aws-lambda-go/events"
)

// LambdaConcurrency bounds how many records of one batch LambdaHandler
// handles at once (a batch may hold up to 10,000 with a batching window).
const LambdaConcurrency = 10

// LambdaHandler adapts h to an SQS event source mapping with
// FunctionResponseTypes: [ReportBatchItemFailures]. It handles the batch's
// records concurrently (at most LambdaConcurrency at a time) and reports the
// messageId of every record whose handler failed or panicked, so that only
// those come back; the function itself never fails the batch. Records not
// started before ctx ends (the function's deadline) are reported too.
//
// Failures are logged to log (nil: slog.Default()). Records are handled out of order, which suits standard queues; a FIFO
// queue would need in-order handling and the failure of everything after a
// group's first failure.
func LambdaHandler(h Handler, log *slog.Logger) func(ctx context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
	if log == nil {
		log = slog.Default()
	}
	return func(ctx context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
		failed := make([]bool, len(ev.Records))
		sem := make(chan struct{}, LambdaConcurrency)
		var wg sync.WaitGroup
	records:
		for i, r := range ev.Records {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
			}
			// Checked even when a slot was free: select chooses at random
			// among ready cases.
			if ctx.Err() != nil {
				for j := i; j < len(ev.Records); j++ {
					failed[j] = true
				}
				break records
			}
			wg.Go(func() {
				defer func() { <-sem }()
				m := Message{ID: r.MessageId, Body: []byte(r.Body), ReceiveCount: receiveCount(r.Attributes)}
				if err := call(ctx, h, m); err != nil {
					logFailure(log, m, err)
					failed[i] = true
				}
			})
		}
		wg.Wait()
		// A non-nil empty list: Lambda reads both null and [] as "all done",
		// and [] is the clearer log line.
		resp := events.SQSEventResponse{BatchItemFailures: []events.SQSBatchItemFailure{}}
		for i, f := range failed {
			if f {
				// An empty ItemIdentifier makes Lambda retry the whole
				// batch, which is the safe reading of a record without one.
				resp.BatchItemFailures = append(resp.BatchItemFailures,
					events.SQSBatchItemFailure{ItemIdentifier: ev.Records[i].MessageId})
			}
		}
		return resp, nil
	}
}
