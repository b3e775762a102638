package webhooks

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/brandlens/brandlens/shared/queue"
	"github.com/brandlens/brandlens/shared/secrets"
	"github.com/brandlens/brandlens/shared/ssrf"
	"github.com/brandlens/brandlens/shared/store"
)

// Delivery limits and the retry schedule (spec, Events, channel A).
const (
	MaxAttempts    = 5
	DefaultTimeout = 10 * time.Second
	// leaseMargin is added to the timeout to get the lease of a claimed
	// attempt: long enough that a live worker always finishes inside it.
	leaseMargin = 50 * time.Second
	// DefaultMaxInFlight caps the attempts one worker process makes to one
	// subscription at once, so that a slow or hanging endpoint cannot occupy
	// every worker. Another attempt waits up to slotWait for a slot (a
	// burst to a healthy endpoint), with at most maxWaitingFactor ×
	// MaxInFlight attempts waiting; when the waiters are full, or an attempt
	// in flight has been open for stalledAfter (the endpoint hangs), it is
	// postponed instead, without holding a worker.
	DefaultMaxInFlight = 8
	maxWaitingFactor   = 32
	slotWait           = 500 * time.Millisecond
	stalledAfter       = 500 * time.Millisecond
	postpone           = 250 * time.Millisecond
	// MaxResponseBody is how much of a receiver's answer is read.
	MaxResponseBody = 64 << 10
	// UserAgent names the service on every delivery.
	UserAgent = "brandlens-webhooks/1.0 (+https://brandlens.example/docs/webhooks)"
)

// RetryWaits are the waits taken in order after failed attempts 1, 2, ….
// With MaxAttempts = 5 the fifth wait is never reached.
var RetryWaits = []time.Duration{5 * time.Second, 10 * time.Second, 30 * time.Second, 60 * time.Second, 120 * time.Second}

// Options configure a Service; the zero value gives production behaviour
// without a queue. The assembly (package app) always gives a queue.
type Options struct {
	// Sender is the deliveries queue (SQS in AWS, queue.Local locally).
	// Without one, deliveries wait for Sweep to enqueue them.
	Sender queue.Sender
	// Guard decides which destinations may be reached (creation and connect).
	Guard ssrf.Guard
	// Lookup replaces DNS resolution of the delivery client (tests).
	Lookup ssrf.Lookup
	// Client, when set, replaces the guarded delivery client (tests, and
	// the Lambda assembly's traced guarded client).
	Client *http.Client
	// Secrets seals subscription secrets at rest and opens them to sign
	// (nil: an in-memory keyring, whose secrets open in this process only —
	// tests; the assembly always gives the configured keys).
	Secrets *secrets.Sealer
	// Timeout bounds one attempt (default DefaultTimeout).
	Timeout time.Duration
	// RetryScale multiplies RetryWaits (default 1; tests run the schedule
	// in about a second with 0.01).
	RetryScale float64
	// MaxInFlight caps concurrent attempts per subscription in this
	// process (default DefaultMaxInFlight).
	MaxInFlight int
	Now         func() time.Time
	// Logger (nil: slog.Default()).
	Logger *slog.Logger
}

// Service manages subscriptions and delivers events to them.
type Service struct {
	tbl     store.Table
	sender  queue.Sender
	guard   ssrf.Guard
	client  *http.Client
	secrets *secrets.Sealer
	// timeout is per attempt; lease bounds a claim.
	timeout, lease time.Duration
	scale          float64
	now            func() time.Time
	log            *slog.Logger

	maxInFlight int
	mu          sync.Mutex
	slots       map[string]*subSlots // subscription id → its in-flight attempts here
}

// New returns the service over tbl.
func New(tbl store.Table, o Options) *Service {
	s := &Service{tbl: tbl, sender: o.Sender, guard: o.Guard, timeout: o.Timeout, scale: o.RetryScale, now: o.Now, log: o.Logger,
		secrets: o.Secrets}
	if s.secrets == nil {
		s.secrets = secrets.NewSealer(secrets.NewMemoryKeyring())
	}
	if s.timeout <= 0 {
		s.timeout = DefaultTimeout
	}
	s.lease = s.timeout + leaseMargin
	if s.scale <= 0 {
		s.scale = 1
	}
	s.maxInFlight = o.MaxInFlight
	if s.maxInFlight <= 0 {
		s.maxInFlight = DefaultMaxInFlight
	}
	s.slots = map[string]*subSlots{}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	s.client = o.Client
	if s.client == nil {
		// The client has no overall timeout of its own: each attempt's
		// context carries it, so that a canceled worker is told apart.
		s.client = o.Guard.NewClient(ssrf.ClientOptions{Lookup: o.Lookup, ResponseHeaderTimeout: s.timeout})
	}
	return s
}

// Guard is the destination guard of the service.
func (s *Service) Guard() ssrf.Guard { return s.guard }

// subSlots are one subscription's in-flight attempts in this process.
type subSlots struct {
	sem     chan struct{}
	mu      sync.Mutex
	waiting int
	open    map[uint64]time.Time // start of each attempt in flight
	seq     uint64
}

// slotsOf returns the subscription's slots.
func (s *Service) slotsOf(subscriptionID string) *subSlots {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, ok := s.slots[subscriptionID]
	if !ok {
		ss = &subSlots{sem: make(chan struct{}, s.maxInFlight), open: map[uint64]time.Time{}}
		s.slots[subscriptionID] = ss
	}
	return ss
}

// acquire takes one of the subscription's in-flight slots. It returns the
// slot's release, or how long to postpone the attempt.
func (s *Service) acquire(ctx context.Context, subscriptionID string) (release func(), wait time.Duration) {
	ss := s.slotsOf(subscriptionID)
	enter := func() func() {
		ss.mu.Lock()
		ss.seq++
		id := ss.seq
		ss.open[id] = time.Now()
		ss.mu.Unlock()
		return func() {
			ss.mu.Lock()
			delete(ss.open, id)
			ss.mu.Unlock()
			<-ss.sem
		}
	}
	select {
	case ss.sem <- struct{}{}:
		return enter(), 0
	default:
	}
	ss.mu.Lock()
	stalled := false
	for _, t := range ss.open {
		if time.Since(t) >= stalledAfter {
			stalled = true
			break
		}
	}
	full := ss.waiting >= maxWaitingFactor*s.maxInFlight
	if !stalled && !full {
		ss.waiting++
	}
	ss.mu.Unlock()
	switch {
	case stalled:
		return nil, s.timeout // it hangs: come back when an attempt has timed out
	case full:
		return nil, postpone
	}
	defer func() { ss.mu.Lock(); ss.waiting--; ss.mu.Unlock() }()
	t := time.NewTimer(slotWait)
	defer t.Stop()
	select {
	case ss.sem <- struct{}{}:
		return enter(), 0
	case <-t.C:
	case <-ctx.Done():
	}
	return nil, postpone
}

// wait is the scaled wait after failed attempt n.
func (s *Service) wait(n int) time.Duration {
	w := RetryWaits[min(n, len(RetryWaits))-1]
	return time.Duration(float64(w) * s.scale)
}
