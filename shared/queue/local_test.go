package queue_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/brandlens/brandlens/shared/queue"
)

// concurrency tracks how many handlers run at once, and the most ever.
type concurrency struct{ active, peak atomic.Int32 }

// enter counts a handler in; the returned func counts it out.
func (c *concurrency) enter() (leave func()) {
	n := c.active.Add(1)
	for {
		p := c.peak.Load()
		if n <= p || c.peak.CompareAndSwap(p, n) {
			return func() { c.active.Add(-1) }
		}
	}
}

// advance moves the fake clock of the test's bubble (testing/synctest) on
// by d and waits until every goroutine the timers due by then woke is
// blocked again: delays and visibility timeouts pass when the test says,
// not when the machine gets round to it.
func advance(d time.Duration) {
	time.Sleep(d)
	synctest.Wait()
}

// testLogger sends the queue's failure logs to the test's output.
func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(t.Output(), nil))
}

// recorder is a Handler that remembers deliveries and fails while fail says.
type recorder struct {
	mu   sync.Mutex
	got  []queue.Message
	fail func(m queue.Message) error
}

func (r *recorder) handle(_ context.Context, m queue.Message) error {
	r.mu.Lock()
	r.got = append(r.got, m)
	r.mu.Unlock()
	if r.fail != nil {
		return r.fail(m)
	}
	return nil
}

func (r *recorder) deliveries() []queue.Message {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]queue.Message(nil), r.got...)
}

func (r *recorder) bodies() []string {
	var out []string
	for _, m := range r.deliveries() {
		out = append(out, string(m.Body))
	}
	return out
}

// startRun runs q with h and stops it (checking it returned nil) after t.
func startRun(t *testing.T, q *queue.Local, h queue.Handler, concurrency int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- q.Run(ctx, h, concurrency) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Error("Run did not return after its context was cancelled")
		}
	})
}

func idle(t *testing.T, q *queue.Local) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := q.Idle(ctx); err != nil {
		t.Fatalf("Idle: %v (stats %+v)", err, q.Stats())
	}
}

func send(t *testing.T, q queue.Sender, body string, delay time.Duration) {
	t.Helper()
	if err := q.Send(context.Background(), []byte(body), delay); err != nil {
		t.Fatalf("Send(%q): %v", body, err)
	}
}

func TestLocalRedeliversAfterError(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := queue.NewLocal(queue.LocalOptions{Logger: testLogger(t)})
		defer q.Close()
		r := &recorder{fail: func(m queue.Message) error {
			if m.ReceiveCount < 3 {
				return errors.New("transient")
			}
			return nil
		}}
		startRun(t, q, r.handle, 2)

		send(t, q, `{"jobId":"a"}`, 0)
		idle(t, q)
		if n := len(r.deliveries()); n != 1 {
			t.Fatalf("after the first delivery: %d deliveries", n)
		}
		if s := q.Stats(); s.NotVisible != 1 || s.Visible != 0 {
			t.Fatalf("a failed message should wait out its visibility timeout: %+v", s)
		}
		advance(queue.DefaultVisibilityTimeout - time.Second)
		idle(t, q)
		if n := len(r.deliveries()); n != 1 {
			t.Fatalf("redelivered before the visibility timeout: %d deliveries", n)
		}
		advance(time.Second)
		idle(t, q)
		advance(queue.DefaultVisibilityTimeout)
		idle(t, q)

		got := r.deliveries()
		if len(got) != 3 {
			t.Fatalf("got %d deliveries, want 3", len(got))
		}
		for i, m := range got {
			if m.ReceiveCount != i+1 || m.ID != got[0].ID || string(m.Body) != `{"jobId":"a"}` {
				t.Errorf("delivery %d = %+v", i, m)
			}
		}
		if q.Len() != 0 || len(q.DeadLetters()) != 0 {
			t.Errorf("after success: len %d, dead %d", q.Len(), len(q.DeadLetters()))
		}
	})
}

func TestLocalDeadLettersAfterMaxReceives(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := queue.NewLocal(queue.LocalOptions{MaxReceives: 3, VisibilityTimeout: 10 * time.Second, Logger: testLogger(t)})
		defer q.Close()
		r := &recorder{fail: func(m queue.Message) error { return fmt.Errorf("attempt %d failed", m.ReceiveCount) }}
		startRun(t, q, r.handle, 1)

		send(t, q, "poison", 0)
		send(t, q, "delayed poison", 5*time.Second)
		for range 5 {
			idle(t, q)
			advance(10 * time.Second)
		}
		idle(t, q)

		var poison int
		for _, b := range r.bodies() {
			if b == "poison" {
				poison++
			}
		}
		if poison != 3 {
			t.Errorf("poison delivered %d times, want MaxReceives = 3", poison)
		}
		dead := q.DeadLetters()
		if len(dead) != 2 {
			t.Fatalf("dead letters: %+v", dead)
		}
		d := dead[0]
		if string(d.Body) != "poison" || d.ReceiveCount != 3 || d.Err == nil || d.Err.Error() != "attempt 3 failed" || d.At.IsZero() {
			t.Errorf("dead letter = %+v (err %v)", d, d.Err)
		}
		if q.Len() != 0 || q.Stats().Dead != 2 {
			t.Errorf("len %d, stats %+v", q.Len(), q.Stats())
		}
	})
}

func TestLocalDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := queue.NewLocal(queue.LocalOptions{})
		defer q.Close()
		r := &recorder{}
		startRun(t, q, r.handle, 1)

		send(t, q, "in 10s", 10*time.Second)
		send(t, q, "in 5s", 5*time.Second)
		send(t, q, "now", 0)
		send(t, q, "capped", 24*time.Hour)
		idle(t, q)
		if got := strings.Join(r.bodies(), ","); got != "now" {
			t.Fatalf("handled %q before any delay passed; the delayed ones held back the immediate one?", got)
		}
		if s := q.Stats(); s.Delayed != 3 {
			t.Fatalf("stats %+v, want 3 delayed", s)
		}
		advance(5*time.Second - time.Nanosecond)
		idle(t, q)
		if got := strings.Join(r.bodies(), ","); got != "now" {
			t.Fatalf("a delay was cut short: %q", got)
		}
		advance(time.Nanosecond)
		idle(t, q)
		advance(5 * time.Second)
		idle(t, q)
		if got := strings.Join(r.bodies(), ","); got != "now,in 5s,in 10s" {
			t.Fatalf("handled %q", got)
		}
		advance(queue.MaxDelay - 10*time.Second)
		idle(t, q)
		if got := strings.Join(r.bodies(), ","); got != "now,in 5s,in 10s,capped" {
			t.Fatalf("a delay over MaxDelay should be capped to it: handled %q", got)
		}
	})
}

// Delays are kept in time: each message is handled once its own delay has
// passed on the clock, however they were sent.
func TestLocalDelayTiming(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := queue.NewLocal(queue.LocalOptions{})
		defer q.Close()
		var mu sync.Mutex
		at := map[string]time.Duration{}
		start := time.Now()
		startRun(t, q, func(_ context.Context, m queue.Message) error {
			mu.Lock()
			at[string(m.Body)] = time.Since(start)
			mu.Unlock()
			return nil
		}, 2)

		send(t, q, "late", 300*time.Millisecond)
		send(t, q, "soon", 100*time.Millisecond)
		send(t, q, "now", 0)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := q.WaitEmpty(ctx); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		if at["now"] >= 100*time.Millisecond {
			t.Errorf("the immediate message waited %v", at["now"])
		}
		if at["soon"] < 100*time.Millisecond || at["soon"] >= at["late"] {
			t.Errorf("soon at %v, late at %v", at["soon"], at["late"])
		}
		if at["late"] < 300*time.Millisecond {
			t.Errorf("late delivered early, at %v", at["late"])
		}
	})
}

func TestLocalConcurrencyBound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const workers, messages = 4, 40
		q := queue.NewLocal(queue.LocalOptions{})
		defer q.Close()
		var c concurrency
		var handled atomic.Int32
		release := make(chan struct{})
		startRun(t, q, func(context.Context, queue.Message) error {
			defer c.enter()()
			<-release
			handled.Add(1)
			return nil
		}, workers)
		for i := range messages {
			send(t, q, fmt.Sprint(i), 0)
		}
		synctest.Wait() // every worker that can start has started and waits
		if n := c.active.Load(); n != workers {
			t.Fatalf("%d handlers started, want %d", n, workers)
		}
		if s := q.Stats(); s.Handling != workers || s.Visible != messages-workers {
			t.Errorf("stats %+v", s)
		}
		close(release)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := q.WaitEmpty(ctx); err != nil {
			t.Fatal(err)
		}
		if p := c.peak.Load(); p != workers {
			t.Errorf("peak concurrency %d, want %d", p, workers)
		}
		if h := handled.Load(); h != messages {
			t.Errorf("handled %d, want %d", h, messages)
		}
	})
}

func TestLocalThousandMessagesExactlyOnce(t *testing.T) {
	const senders, each = 10, 100
	q := queue.NewLocal(queue.LocalOptions{})
	defer q.Close()
	var mu sync.Mutex
	seen := map[string]int{}
	ids := map[string]bool{}
	startRun(t, q, func(_ context.Context, m queue.Message) error {
		mu.Lock()
		seen[string(m.Body)]++
		ids[m.ID] = true
		mu.Unlock()
		if m.ReceiveCount != 1 {
			return fmt.Errorf("receive count %d", m.ReceiveCount)
		}
		return nil
	}, 8)
	var wg sync.WaitGroup
	for s := range senders {
		wg.Go(func() {
			for i := range each {
				if err := q.Send(context.Background(), fmt.Appendf(nil, "%d-%d", s, i), 0); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := q.WaitEmpty(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != senders*each || len(ids) != senders*each {
		t.Fatalf("%d distinct bodies and %d ids handled, want %d", len(seen), len(ids), senders*each)
	}
	for b, n := range seen {
		if n != 1 {
			t.Errorf("%s handled %d times", b, n)
		}
	}
	if len(q.DeadLetters()) != 0 {
		t.Error("dead letters after all-successful handlers")
	}
}

func TestLocalPanicIsRecoveredAndRedelivered(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// The worker logs a failure before it lets go of the message, so
		// what it wrote is there once idle returns.
		var lw bytes.Buffer
		q := queue.NewLocal(queue.LocalOptions{Logger: slog.New(slog.NewTextHandler(&lw, nil))})
		defer q.Close()
		r := &recorder{}
		startRun(t, q, func(ctx context.Context, m queue.Message) error {
			r.handle(ctx, m)
			if m.ReceiveCount == 1 {
				panic("boom")
			}
			return nil
		}, 1)
		send(t, q, "x", 0)
		idle(t, q)
		advance(queue.DefaultVisibilityTimeout)
		idle(t, q)
		got := r.deliveries()
		if len(got) != 2 || got[1].ReceiveCount != 2 {
			t.Fatalf("deliveries %+v", got)
		}
		if q.Len() != 0 {
			t.Errorf("len %d after the retry succeeded", q.Len())
		}
		if s := lw.String(); !strings.Contains(s, "handler panicked: boom") || !strings.Contains(s, "stack=") {
			t.Errorf("the panic was not logged with its stack: %s", s)
		}
	})
}

func TestLocalVisibilityTimeoutCancelsHandler(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := queue.NewLocal(queue.LocalOptions{VisibilityTimeout: time.Minute, Logger: testLogger(t)})
		defer q.Close()
		started := make(chan struct{}, 2)
		causes := make(chan error, 2)
		startRun(t, q, func(ctx context.Context, m queue.Message) error {
			if m.ReceiveCount > 1 {
				return nil
			}
			started <- struct{}{}
			<-ctx.Done()
			causes <- context.Cause(ctx)
			return ctx.Err()
		}, 1)
		send(t, q, "slow", 0)
		<-started
		advance(time.Minute)
		if err := <-causes; !errors.Is(err, queue.ErrVisibilityTimeout) {
			t.Fatalf("cause %v, want ErrVisibilityTimeout", err)
		}
		// Its timeout has passed, so it is visible again at once.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := q.WaitEmpty(ctx); err != nil {
			t.Fatalf("not redelivered: %v (stats %+v)", err, q.Stats())
		}
	})
}

func TestLocalStopAndClose(t *testing.T) {
	q := queue.NewLocal(queue.LocalOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- q.Run(ctx, func(context.Context, queue.Message) error { return nil }, 3) }()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run after cancel: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not stop on cancel")
	}

	entered := make(chan struct{})
	var handlerCtxErr atomic.Value
	go func() {
		done <- q.Run(context.Background(), func(ctx context.Context, m queue.Message) error {
			close(entered)
			<-ctx.Done()
			handlerCtxErr.Store(ctx.Err())
			return ctx.Err()
		}, 1)
	}()
	send(t, q, "in flight at close", 0)
	send(t, q, "still queued at close", time.Minute)
	<-entered
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	// Close waits for Run, which waits for its handler.
	if handlerCtxErr.Load() == nil {
		t.Error("Close returned before the handler, or did not cancel its context")
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run after Close: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return")
	}
	if q.Len() != 0 {
		t.Errorf("len %d after Close", q.Len())
	}
	if err := q.Send(context.Background(), []byte("late"), 0); !errors.Is(err, queue.ErrClosed) {
		t.Errorf("Send after Close: %v", err)
	}
	if err := q.Run(context.Background(), func(context.Context, queue.Message) error { return nil }, 1); !errors.Is(err, queue.ErrClosed) {
		t.Errorf("Run after Close: %v", err)
	}
	if err := q.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestLocalSendRejectsWhatSQSRejects(t *testing.T) {
	q := queue.NewLocal(queue.LocalOptions{})
	defer q.Close()
	ctx := context.Background()
	for name, body := range map[string][]byte{
		"empty":         nil,
		"invalid UTF-8": {'{', 0xff, '}'},
		"NUL":           []byte("a\x00b"),
		"too large":     bytes.Repeat([]byte("a"), queue.MaxBodySize+1),
	} {
		if err := q.Send(ctx, body, 0); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if err := q.Send(ctx, []byte("emoji 🚀 (outside the BMP) and a tab\t"), -time.Second); err != nil {
		t.Errorf("valid body: %v", err)
	}
	if s := q.Stats(); s.Visible != 1 {
		t.Errorf("a negative delay should mean none: %+v", s)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := q.Send(cctx, []byte("x"), 0); !errors.Is(err, context.Canceled) {
		t.Errorf("Send with a cancelled context: %v", err)
	}
	if err := q.Run(ctx, nil, 1); err == nil {
		t.Error("Run with a nil handler")
	}
	if err := q.Run(ctx, func(context.Context, queue.Message) error { return nil }, 0); err == nil {
		t.Error("Run with concurrency 0")
	}
}
