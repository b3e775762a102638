package queue_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/brandlens/brandlens/shared/queue"
	"github.com/brandlens/brandlens/shared/queue/sqstest"
)

func TestMain(m *testing.M) { sqstest.Main(m) }

// runSQS runs q.Run with h until the returned stop is called (or t ends);
// stop cancels Run and returns its error.
func runSQS(t *testing.T, q *queue.SQS, h queue.Handler, concurrency int) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- q.Run(ctx, h, concurrency) }()
	var once sync.Once
	var err error
	stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				err = errors.New("Run did not return within 10 s of cancel")
			}
		})
		return err
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	return stop
}

// counts reads a queue's visible, in-flight and delayed message counts.
func counts(t *testing.T, c *sqs.Client, url string) (visible, inFlight, delayed int) {
	t.Helper()
	out, err := c.GetQueueAttributes(context.Background(), &sqs.GetQueueAttributesInput{
		QueueUrl: aws.String(url),
		AttributeNames: []types.QueueAttributeName{
			types.QueueAttributeNameApproximateNumberOfMessages,
			types.QueueAttributeNameApproximateNumberOfMessagesNotVisible,
			types.QueueAttributeNameApproximateNumberOfMessagesDelayed,
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	n := func(a types.QueueAttributeName) int {
		v, _ := strconv.Atoi(out.Attributes[string(a)])
		return v
	}
	return n(types.QueueAttributeNameApproximateNumberOfMessages),
		n(types.QueueAttributeNameApproximateNumberOfMessagesNotVisible),
		n(types.QueueAttributeNameApproximateNumberOfMessagesDelayed)
}

func waitFor[T any](t *testing.T, ch <-chan T, within time.Duration, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(within):
		t.Fatalf("no %s within %v", what, within)
		panic("unreachable")
	}
}

func TestSQSRoundTrip(t *testing.T) {
	c := sqstest.Start(t)
	url := sqstest.NewQueue(t, c, sqstest.QueueOptions{}).URL
	q := queue.NewSQS(c, url, nil)
	q.Logger = testLogger(t)
	body := `{"jobId":"01jexample","tenantId":1}`
	send(t, q, body, 0)

	got := make(chan queue.Message, 1)
	stop := runSQS(t, q, func(_ context.Context, m queue.Message) error { got <- m; return nil }, 2)
	m := waitFor(t, got, 5*time.Second, "delivery")
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if string(m.Body) != body || m.ReceiveCount != 1 || m.ID == "" {
		t.Errorf("message %+v", m)
	}
	if v, f, d := counts(t, c, url); v+f+d != 0 {
		t.Errorf("not deleted after success: visible %d, in flight %d, delayed %d", v, f, d)
	}
}

func TestSQSDelaySeconds(t *testing.T) {
	c := sqstest.Start(t)
	q := queue.NewSQS(c, sqstest.NewQueue(t, c, sqstest.QueueOptions{}).URL, nil)
	q.Logger = testLogger(t)
	start := time.Now()
	send(t, q, "late", 1500*time.Millisecond) // rounds up to 2 s
	send(t, q, "now", 0)
	type arrival struct {
		body string
		at   time.Duration
	}
	got := make(chan arrival, 2)
	runSQS(t, q, func(_ context.Context, m queue.Message) error {
		got <- arrival{string(m.Body), time.Since(start)}
		return nil
	}, 1)
	first := waitFor(t, got, 5*time.Second, "first delivery")
	second := waitFor(t, got, 5*time.Second, "second delivery")
	if first.body != "now" || first.at > time.Second {
		t.Errorf("the undelayed message came %+v", first)
	}
	if second.body != "late" || second.at < 2*time.Second {
		t.Errorf("the delayed message came %+v, want after 2 s (1.5 s rounded up)", second)
	}
}

func TestSQSRedrivesToDeadLetterQueue(t *testing.T) {
	c := sqstest.Start(t)
	qs := sqstest.NewQueue(t, c, sqstest.QueueOptions{MaxReceiveCount: 2})
	q := queue.NewSQS(c, qs.URL, nil)
	q.Logger = testLogger(t)
	// The queue keeps SQS's 30 s visibility; RetryDelay brings failures back
	// after 1 s, which also shows that ChangeMessageVisibility is used.
	q.RetryDelay = time.Second
	send(t, q, "poison", 0)

	var mu sync.Mutex
	var receives []int
	runSQS(t, q, func(_ context.Context, m queue.Message) error {
		mu.Lock()
		receives = append(receives, m.ReceiveCount)
		mu.Unlock()
		return errors.New("always fails")
	}, 1)

	// SQS moves the message on the receive after its second.
	out, err := c.ReceiveMessage(context.Background(), &sqs.ReceiveMessageInput{
		QueueUrl:        aws.String(qs.DLQURL),
		WaitTimeSeconds: 10,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Messages) != 1 || aws.ToString(out.Messages[0].Body) != "poison" {
		t.Fatalf("dead-letter queue holds %+v", out.Messages)
	}
	mu.Lock()
	defer mu.Unlock()
	if fmt.Sprint(receives) != "[1 2]" {
		t.Errorf("receive counts %v, want [1 2]", receives)
	}
}

// Without RetryDelay a failed message waits out the queue's visibility
// timeout, as it does under Lambda.
func TestSQSRedeliversAfterVisibilityTimeout(t *testing.T) {
	c := sqstest.Start(t)
	qs := sqstest.NewQueue(t, c, sqstest.QueueOptions{VisibilityTimeout: time.Second})
	q := queue.NewSQS(c, qs.URL, nil)
	q.Logger = testLogger(t)
	send(t, q, "flaky", 0)
	type delivery struct {
		count int
		at    time.Time
	}
	got := make(chan delivery, 3)
	stop := runSQS(t, q, func(_ context.Context, m queue.Message) error {
		got <- delivery{m.ReceiveCount, time.Now()}
		if m.ReceiveCount == 1 {
			panic("first try")
		}
		return nil
	}, 1)
	a := waitFor(t, got, 5*time.Second, "first delivery")
	b := waitFor(t, got, 5*time.Second, "redelivery")
	if a.count != 1 || b.count != 2 || b.at.Sub(a.at) < 900*time.Millisecond {
		t.Errorf("deliveries %+v then %+v, want counts 1, 2 a visibility timeout apart", a, b)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if v, f, d := counts(t, c, qs.URL); v+f+d != 0 {
		t.Errorf("left: visible %d, in flight %d, delayed %d", v, f, d)
	}
}

// receiveSignal is the HTTP client of an SQS client that reports each
// ReceiveMessage call as it goes out.
type receiveSignal struct {
	next aws.HTTPClient
	sent chan struct{}
}

func (r receiveSignal) Do(req *http.Request) (*http.Response, error) {
	if req.Header.Get("X-Amz-Target") == "AmazonSQS.ReceiveMessage" {
		select {
		case r.sent <- struct{}{}:
		default:
		}
	}
	return r.next.Do(req)
}

// fauxqs is another process, so the test waits (with a deadline) for the
// long poll to have gone out rather than for a fixed time.
func TestSQSRunStopsOnCancel(t *testing.T) {
	c := sqstest.Start(t)
	url := sqstest.NewQueue(t, c, sqstest.QueueOptions{}).URL
	polls := make(chan struct{}, 1)
	c = sqs.New(c.Options(), func(o *sqs.Options) { o.HTTPClient = receiveSignal{next: o.HTTPClient, sent: polls} })
	q := queue.NewSQS(c, url, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- q.Run(ctx, func(context.Context, queue.Message) error { return nil }, 4) }()
	waitFor(t, polls, 5*time.Second, "long poll") // inside the 20 s long poll now
	start := time.Now()
	cancel()
	if err := waitFor(t, done, 5*time.Second, "return from Run"); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("Run took %v to stop", d)
	}
}

// A handler that finishes its work as Run is being stopped still gets its
// message deleted: the work is not redone.
func TestSQSDeletesAfterSuccessDuringShutdown(t *testing.T) {
	c := sqstest.Start(t)
	qs := sqstest.NewQueue(t, c, sqstest.QueueOptions{})
	q := queue.NewSQS(c, qs.URL, nil)
	q.Logger = testLogger(t)
	send(t, q, "x", 0)
	entered := make(chan struct{})
	stop := runSQS(t, q, func(ctx context.Context, _ queue.Message) error {
		close(entered)
		<-ctx.Done() // shutdown reaches the handler…
		return nil   // …which completes anyway
	}, 1)
	waitFor(t, entered, 5*time.Second, "delivery")
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if v, f, d := counts(t, c, qs.URL); v+f+d != 0 {
		t.Errorf("left: visible %d, in flight %d, delayed %d", v, f, d)
	}
}

func TestSQSConcurrencyAndExactlyOnce(t *testing.T) {
	const n, workers = 60, 12 // two pollers
	c := sqstest.Start(t)
	q := queue.NewSQS(c, sqstest.NewQueue(t, c, sqstest.QueueOptions{}).URL, nil)
	q.Logger = testLogger(t)
	for i := range n {
		send(t, q, strconv.Itoa(i), 0)
	}
	var mu sync.Mutex
	seen := map[string]int{}
	var running concurrency
	all := make(chan struct{})
	runSQS(t, q, func(_ context.Context, m queue.Message) error {
		defer running.enter()()
		time.Sleep(20 * time.Millisecond) // work, so that handlers overlap
		mu.Lock()
		defer mu.Unlock()
		seen[string(m.Body)]++
		if len(seen) == n {
			close(all)
		}
		return nil
	}, workers)
	waitFor(t, all, 10*time.Second, "all messages")
	mu.Lock()
	defer mu.Unlock()
	for b, k := range seen {
		if k != 1 {
			t.Errorf("%s handled %d times", b, k)
		}
	}
	if p := running.peak.Load(); p > workers || p < 2 {
		t.Errorf("peak concurrency %d, want 2..%d", p, workers)
	}
}

func TestSQSRunEndsOnMissingQueue(t *testing.T) {
	c := sqstest.Start(t)
	good := sqstest.NewQueue(t, c, sqstest.QueueOptions{}).URL
	q := queue.NewSQS(c, good+"-missing", nil)
	q.Logger = testLogger(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := q.Run(ctx, func(context.Context, queue.Message) error { return nil }, 1)
	if _, ok := errors.AsType[*types.QueueDoesNotExist](err); !ok {
		t.Errorf("Run on a missing queue: %v", err)
	}
}
