package queue_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/brandlens/brandlens/shared/queue"
)

// fixture is events/sqs-jobs.json, the sample that `sam local invoke` uses.
func fixture(t *testing.T) events.SQSEvent {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "events", "sqs-jobs.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ev events.SQSEvent
	if err := json.Unmarshal(raw, &ev); err != nil {
		t.Fatal(err)
	}
	if len(ev.Records) != 1 {
		t.Fatalf("fixture has %d records", len(ev.Records))
	}
	return ev
}

// batch copies the fixture's record n times with distinct ids and bodies.
func batch(t *testing.T, n int) events.SQSEvent {
	rec := fixture(t).Records[0]
	var ev events.SQSEvent
	for i := range n {
		r := rec
		r.MessageId = fmt.Sprintf("%s-%d", rec.MessageId[:8], i)
		r.Body = fmt.Sprintf(`{"jobId":"01jexample%d","tenantId":1}`, i)
		r.Attributes = map[string]string{"ApproximateReceiveCount": fmt.Sprint(i%3 + 1)}
		ev.Records = append(ev.Records, r)
	}
	return ev
}

// quiet swallows the failure logs of tests that do not read them.
var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func TestLambdaHandlerFixture(t *testing.T) {
	var got queue.Message
	h := queue.LambdaHandler(func(_ context.Context, m queue.Message) error {
		got = m
		var job struct {
			JobID    string `json:"jobId"`
			TenantID int    `json:"tenantId"`
		}
		if err := json.Unmarshal(m.Body, &job); err != nil {
			return err
		}
		if job.JobID != "01jexample" || job.TenantID != 1 {
			return fmt.Errorf("job %+v", job)
		}
		return nil
	}, quiet)
	resp, err := h(context.Background(), fixture(t))
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != "32cf97b3-e6f1-44a7-af33-ce789725ffc6" || got.ReceiveCount != 1 {
		t.Errorf("message %+v", got)
	}
	out, _ := json.Marshal(resp)
	if string(out) != `{"batchItemFailures":[]}` {
		t.Errorf("response %s", out)
	}
}

func TestLambdaHandlerReportsOnlyTheFailedRecord(t *testing.T) {
	ev := batch(t, 5)
	var logged bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&logged, nil))
	var counts sync.Map
	h := queue.LambdaHandler(func(_ context.Context, m queue.Message) error {
		counts.Store(m.ID, m.ReceiveCount)
		if string(m.Body) == `{"jobId":"01jexample3","tenantId":1}` {
			return errors.New("provider down")
		}
		return nil
	}, log)
	resp, err := h(context.Background(), ev)
	if err != nil {
		t.Fatalf("the function must not fail the whole batch: %v", err)
	}
	if len(resp.BatchItemFailures) != 1 || resp.BatchItemFailures[0].ItemIdentifier != ev.Records[3].MessageId {
		t.Errorf("failures %+v, want exactly %s", resp.BatchItemFailures, ev.Records[3].MessageId)
	}
	for i, r := range ev.Records {
		if n, ok := counts.Load(r.MessageId); !ok || n != i%3+1 {
			t.Errorf("record %d: receive count %v, want %d from ApproximateReceiveCount", i, n, i%3+1)
		}
	}
	// The failure goes to the logger the function was built with.
	if !strings.Contains(logged.String(), ev.Records[3].MessageId) || !strings.Contains(logged.String(), "provider down") {
		t.Errorf("the failure was not logged to the given logger: %q", logged.String())
	}
}

func TestLambdaHandlerReportsPanickedRecord(t *testing.T) {
	ev := batch(t, 3)
	h := queue.LambdaHandler(func(_ context.Context, m queue.Message) error {
		if string(m.Body) == `{"jobId":"01jexample0","tenantId":1}` {
			var seen map[string]int
			seen["boom"]++ // a nil-map write panics
		}
		return nil
	}, quiet)
	resp, err := h(context.Background(), ev)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.BatchItemFailures) != 1 || resp.BatchItemFailures[0].ItemIdentifier != ev.Records[0].MessageId {
		t.Errorf("failures %+v, want exactly %s", resp.BatchItemFailures, ev.Records[0].MessageId)
	}
}

func TestLambdaHandlerOneFailureInFixtureBatch(t *testing.T) {
	ev := fixture(t)
	h := queue.LambdaHandler(func(context.Context, queue.Message) error { return errors.New("store unavailable") }, quiet)
	resp, err := h(context.Background(), ev)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.BatchItemFailures) != 1 || resp.BatchItemFailures[0].ItemIdentifier != ev.Records[0].MessageId {
		t.Errorf("failures %+v", resp.BatchItemFailures)
	}
	out, _ := json.Marshal(resp)
	if string(out) != `{"batchItemFailures":[{"itemIdentifier":"32cf97b3-e6f1-44a7-af33-ce789725ffc6"}]}` {
		t.Errorf("wire form %s", out)
	}
}

func TestLambdaHandlerBoundsConcurrency(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ev := batch(t, 4*queue.LambdaConcurrency)
		var c concurrency
		h := queue.LambdaHandler(func(context.Context, queue.Message) error {
			defer c.enter()()
			time.Sleep(5 * time.Millisecond) // on the bubble's clock: every started handler overlaps
			return nil
		}, quiet)
		resp, err := h(context.Background(), ev)
		if err != nil || len(resp.BatchItemFailures) != 0 {
			t.Fatalf("resp %+v, err %v", resp, err)
		}
		if p := c.peak.Load(); p < 2 || p > queue.LambdaConcurrency {
			t.Errorf("peak concurrency %d, want between 2 and %d", p, queue.LambdaConcurrency)
		}
	})
}

// Records not started before the deadline come back rather than vanish.
func TestLambdaHandlerReportsUnstartedRecordsAtDeadline(t *testing.T) {
	ev := batch(t, 3)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var calls atomic.Int32
	h := queue.LambdaHandler(func(context.Context, queue.Message) error { calls.Add(1); return nil }, quiet)
	resp, err := h(ctx, ev)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.BatchItemFailures) != 3 || calls.Load() != 0 {
		t.Errorf("failures %v after %d calls", resp.BatchItemFailures, calls.Load())
	}
}
