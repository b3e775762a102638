package queue

import (
	"bytes"
	"container/heap"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// Defaults of LocalOptions.
const (
	DefaultVisibilityTimeout = 30 * time.Second
	DefaultMaxReceives       = 5
)

// ErrClosed is returned by a Local queue after Close.
var ErrClosed = errors.New("queue: closed")

// LocalOptions configure a Local queue; the zero value gives the defaults.
type LocalOptions struct {
	// VisibilityTimeout is how long a received message stays invisible
	// (0: DefaultVisibilityTimeout). A handler's context is cancelled with
	// cause ErrVisibilityTimeout when it runs out, as Lambda stops a function
	// at its timeout (which SAM keeps below the queue's visibility timeout).
	VisibilityTimeout time.Duration
	// MaxReceives is how many deliveries a message gets before it is moved
	// to the dead letters, like a redrive policy's maxReceiveCount
	// (0: DefaultMaxReceives; negative: never dead-letter).
	MaxReceives int
	// Logger receives handler failures and panics (nil: slog.Default()).
	Logger *slog.Logger
}

// Local is an in-process queue with the semantics of an SQS standard queue
// with a redrive policy: at-least-once delivery, per-message delay up to
// MaxDelay, a visibility timeout after each receive, and dead-lettering after
// MaxReceives failed deliveries. It serves `brandlens serve` and tests.
//
// Messages live in memory only: those not yet handled when the process
// exits (or Close is called) are lost. That is by design: the durable state
// is in the store, and the store's sweepers re-enqueue queued jobs and due
// webhook deliveries, so a lost message delays work but never loses it.
//
// Two deliberate differences from SQS, both to keep local runs and tests
// deterministic: a message is never handed to two handlers at once (when a
// handler overruns its visibility timeout its context is cancelled, and the
// message becomes visible again only when the handler returns); and a message
// whose last allowed delivery fails is dead-lettered at once rather than on
// the receive after its visibility timeout.
//
// A Local is safe for concurrent use; several Run calls may consume it.
type Local struct {
	vis         time.Duration
	maxReceives int
	log         *slog.Logger

	mu       sync.Mutex
	ready    []*entry  // visible, in arrival order
	waiting  entryHeap // delayed, or invisible after a failed delivery; by due time
	handling int       // in a handler right now
	dead     []DeadLetter
	timer    *time.Timer // fires at waiting[0].due
	timerAt  time.Time
	timerGen uint64
	sent     uint64        // messages sent so far
	signal   chan struct{} // closed (and replaced) on every change of state
	closed   bool
	stopped  bool          // Stop: no more deliveries
	done     chan struct{} // closed by Close
	runs     sync.WaitGroup
}

var _ Sender = (*Local)(nil)

type entry struct {
	id       string
	body     []byte
	receives int
	received time.Time // of the latest delivery
	due      time.Time // when it becomes visible, while in waiting
	seq      uint64    // send order, to break ties between equal due times
}

// DeadLetter is a message that failed its last allowed delivery.
type DeadLetter struct {
	Message // ReceiveCount is the number of deliveries it had
	// Err is the last handler error.
	Err error
	At  time.Time
}

// LocalStats counts a Local queue's messages, named after SQS's
// approximate counters.
type LocalStats struct {
	Visible    int // ready for a handler
	Delayed    int // sent with a delay that has not yet passed
	NotVisible int // received and not yet deleted: in a handler, or waiting out a visibility timeout
	Handling   int // the part of NotVisible in a handler now
	Dead       int
}

// NewLocal returns an empty in-process queue.
func NewLocal(opts LocalOptions) *Local {
	l := &Local{
		vis:         opts.VisibilityTimeout,
		maxReceives: opts.MaxReceives,
		log:         opts.Logger,
		signal:      make(chan struct{}),
		done:        make(chan struct{}),
	}
	if l.vis <= 0 {
		l.vis = DefaultVisibilityTimeout
	}
	if l.maxReceives == 0 {
		l.maxReceives = DefaultMaxReceives
	}
	if l.log == nil {
		l.log = slog.Default()
	}
	return l
}

// Send enqueues a copy of body, first visible after delay (capped at
// MaxDelay). It rejects bodies that SQS would reject.
func (l *Local) Send(ctx context.Context, body []byte, delay time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := checkBody(body); err != nil {
		return err
	}
	e := &entry{id: newID(), body: bytes.Clone(body)}
	delay = clampDelay(delay)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return ErrClosed
	}
	l.sent++
	e.seq = l.sent
	if delay > 0 {
		e.due = time.Now().Add(delay)
		l.wait(e)
	} else {
		l.ready = append(l.ready, e)
	}
	l.notify()
	return nil
}

// Run hands messages to h on concurrency worker goroutines until ctx is
// cancelled or the queue is closed, then waits for the handlers in progress
// and returns nil. Handlers' contexts derive from ctx, so shutting down
// cancels them; a message whose handler fails that way comes back like any
// other failure.
//
// A handler's nil error deletes the message; an error or a panic makes it
// visible again once the visibility timeout (counted from the receive) has
// passed, with ReceiveCount one higher, or dead-letters it after MaxReceives
// deliveries.
func (l *Local) Run(ctx context.Context, h Handler, concurrency int) error {
	if h == nil {
		return errors.New("queue: nil handler")
	}
	if concurrency < 1 {
		return fmt.Errorf("queue: concurrency %d, want at least 1", concurrency)
	}
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return ErrClosed
	}
	l.runs.Add(1)
	l.mu.Unlock()
	defer l.runs.Done()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-l.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	var wg sync.WaitGroup
	for range concurrency {
		wg.Go(func() {
			for {
				e := l.take(ctx)
				if e == nil {
					return
				}
				l.deliver(ctx, h, e)
			}
		})
	}
	wg.Wait()
	return nil
}

// take waits for a visible message and marks it received; nil means stop.
func (l *Local) take(ctx context.Context) *entry {
	for {
		l.mu.Lock()
		if l.closed || l.stopped || ctx.Err() != nil {
			l.mu.Unlock()
			return nil
		}
		if len(l.ready) > 0 {
			e := l.ready[0]
			l.ready[0] = nil
			l.ready = l.ready[1:]
			e.receives++
			e.received = time.Now()
			l.handling++
			l.mu.Unlock()
			return e
		}
		ch := l.signal
		l.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return nil
		}
	}
}

func (l *Local) deliver(ctx context.Context, h Handler, e *entry) {
	m := Message{ID: e.id, Body: bytes.Clone(e.body), ReceiveCount: e.receives}
	hctx, cancel := context.WithTimeoutCause(ctx, l.vis, ErrVisibilityTimeout)
	err := call(hctx, h, m)
	cancel()
	if err != nil {
		logFailure(l.log, m, err)
	}

	l.mu.Lock()
	defer l.mu.Unlock()
	l.handling--
	defer l.notify()
	if err == nil || l.closed {
		return
	}
	now := time.Now()
	if l.maxReceives > 0 && e.receives >= l.maxReceives {
		m.Body = e.body
		l.dead = append(l.dead, DeadLetter{Message: m, Err: err, At: now})
		return
	}
	e.due = e.received.Add(l.vis)
	if e.due.After(now) {
		l.wait(e)
	} else {
		l.ready = append(l.ready, e)
	}
}

// wait parks e until e.due; l.mu is held.
func (l *Local) wait(e *entry) {
	heap.Push(&l.waiting, e)
	l.arm()
}

// arm keeps one timer set for the earliest due message; l.mu is held.
func (l *Local) arm() {
	if len(l.waiting) == 0 {
		if l.timer != nil {
			l.timer.Stop()
			l.timer = nil
		}
		return
	}
	at := l.waiting[0].due
	if l.timer != nil && !l.timerAt.After(at) {
		return
	}
	if l.timer != nil {
		l.timer.Stop()
	}
	l.timerGen++
	gen := l.timerGen
	l.timerAt = at
	l.timer = time.AfterFunc(time.Until(at), func() { l.fire(gen) })
}

// fire makes the due messages visible and re-arms for the next.
func (l *Local) fire(gen uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if gen == l.timerGen {
		l.timer = nil
	}
	if l.closed {
		return
	}
	now := time.Now()
	moved := false
	for len(l.waiting) > 0 && !l.waiting[0].due.After(now) {
		l.ready = append(l.ready, heap.Pop(&l.waiting).(*entry))
		moved = true
	}
	l.arm()
	if moved {
		l.notify()
	}
}

// notify wakes everyone waiting for a change; l.mu is held.
func (l *Local) notify() {
	close(l.signal)
	l.signal = make(chan struct{})
}

// waitUntil blocks until cond (evaluated with l.mu held) is true.
func (l *Local) waitUntil(ctx context.Context, cond func() bool) error {
	for {
		l.mu.Lock()
		ok, ch := cond(), l.signal
		l.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	}
}

// Idle waits until no message is visible or in a handler. Messages that are
// delayed or waiting out a visibility timeout may remain: under a fake
// clock (testing/synctest), sleep past their time and then Idle to see them
// handled. Without a running Run, visible messages stay visible and Idle
// waits for ctx.
func (l *Local) Idle(ctx context.Context) error {
	return l.waitUntil(ctx, func() bool { return len(l.ready) == 0 && l.handling == 0 })
}

// WaitEmpty waits until the queue holds no message at all: every one was
// deleted after a successful delivery, or dead-lettered.
func (l *Local) WaitEmpty(ctx context.Context) error {
	return l.waitUntil(ctx, func() bool { return len(l.ready) == 0 && l.handling == 0 && len(l.waiting) == 0 })
}

// Len is the number of messages in the queue, dead letters excluded.
func (l *Local) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.ready) + len(l.waiting) + l.handling
}

// Stats counts the queue's messages by state.
func (l *Local) Stats() LocalStats {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := LocalStats{Visible: len(l.ready), Handling: l.handling, NotVisible: l.handling, Dead: len(l.dead)}
	for _, e := range l.waiting {
		if e.receives == 0 {
			s.Delayed++
		} else {
			s.NotVisible++
		}
	}
	return s
}

// DeadLetters returns the dead-lettered messages, oldest first.
func (l *Local) DeadLetters() []DeadLetter {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]DeadLetter, len(l.dead))
	for i, d := range l.dead {
		d.Body = bytes.Clone(d.Body)
		out[i] = d
	}
	return out
}

// Stop ends deliveries without cutting the handlers short: no message is
// handed out any more, and each Run returns once the handlers it has in
// progress return (their contexts stay as Run's ctx made them). Messages
// still queued stay where they are (and are lost with the process, see
// Local). It is the first half of a graceful shutdown: Stop, wait for Run
// up to a grace period, then cancel Run's ctx or Close.
func (l *Local) Stop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stopped = true
	l.notify()
}

// Close stops every Run (cancelling their handlers' contexts), waits for
// them to return, and drops the messages still queued; dead letters stay
// inspectable. Send and Run then return ErrClosed. Close must not be called
// from a handler, which it would wait for.
func (l *Local) Close() error {
	l.mu.Lock()
	if !l.closed {
		l.closed = true
		close(l.done)
		if l.timer != nil {
			l.timer.Stop()
			l.timer = nil
		}
		l.ready, l.waiting = nil, nil
		l.notify()
	}
	l.mu.Unlock()
	l.runs.Wait()
	return nil
}

// newID returns a random UUID, the shape of SQS message ids.
func newID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// entryHeap orders waiting messages by due time.
type entryHeap []*entry

func (h entryHeap) Len() int { return len(h) }

func (h entryHeap) Less(i, j int) bool {
	if !h[i].due.Equal(h[j].due) {
		return h[i].due.Before(h[j].due)
	}
	return h[i].seq < h[j].seq
}

func (h entryHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }

func (h *entryHeap) Push(x any) { *h = append(*h, x.(*entry)) }

func (h *entryHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return e
}
