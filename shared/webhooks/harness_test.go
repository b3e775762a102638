package webhooks_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/queue"
	"github.com/brandlens/brandlens/shared/signing"
	"github.com/brandlens/brandlens/shared/ssrf"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamotest"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/webhooks"
)

// DynamoDB Local serves the claim-protocol test on the real wire.
func TestMain(m *testing.M) { dynamotest.Main(m) }

// testScale runs the retry schedule 100 times faster: waits of 50, 100,
// 300 and 600 ms.
const testScale = 0.01

// received is one POST a receiver got.
type received struct {
	at     time.Time
	body   []byte
	header http.Header
	sigOK  bool
}

// receiver is a webhook endpoint written the way the README tells
// subscribers to write one: it verifies X-Service-Signature over the raw
// body with the subscription secret before anything else.
type receiver struct {
	srv    *httptest.Server // nil on a memNet
	url    string
	secret []byte
	// respond decides the answer to the nth POST (1-based); it may block
	// until ctx (the request's) or release ends.
	respond func(ctx context.Context, n int) int
	release chan struct{}
	conns   atomic.Int64
	open    atomic.Int64 // requests in a handler right now
	mu      sync.Mutex
	got     []received
	notify  chan struct{}
}

// newReceiver serves on a loopback port: for the tests of the guarded
// client's connect-time checks and the benchmarks, which need the network.
func newReceiver(t testing.TB, secret string, respond func(ctx context.Context, n int) int) *receiver {
	t.Helper()
	rc := &receiver{secret: []byte(secret), respond: respond, release: make(chan struct{}), notify: make(chan struct{}, 1000)}
	rc.srv = httptest.NewUnstartedServer(http.HandlerFunc(rc.serve))
	rc.srv.Config.ConnState = rc.countConns
	rc.srv.Start()
	rc.url = rc.srv.URL
	t.Cleanup(func() {
		close(rc.release)
		rc.srv.Close()
	})
	return rc
}

func (rc *receiver) countConns(_ net.Conn, s http.ConnState) {
	if s == http.StateNew {
		rc.conns.Add(1)
	}
}

func (rc *receiver) serve(w http.ResponseWriter, r *http.Request) {
	rc.open.Add(1)
	defer rc.open.Add(-1)
	body, _ := io.ReadAll(r.Body)
	rec := received{at: time.Now(), body: body, header: r.Header.Clone(),
		sigOK: signing.Verify(rc.secret, body, r.Header.Get("X-Service-Signature"))}
	rc.mu.Lock()
	rc.got = append(rc.got, rec)
	n := len(rc.got)
	rc.mu.Unlock()
	rc.notify <- struct{}{}
	if !rec.sigOK {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	status := http.StatusNoContent
	if rc.respond != nil {
		ctx, cancel := context.WithCancel(r.Context())
		go func() {
			select {
			case <-rc.release:
				cancel()
			case <-ctx.Done():
			}
		}()
		status = rc.respond(ctx, n)
		cancel()
	}
	w.WriteHeader(status)
}

func (rc *receiver) posts() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.got...)
}

// waitPosts waits until the receiver has at least n POSTs.
func (rc *receiver) waitPosts(t testing.TB, n int, within time.Duration) []received {
	t.Helper()
	deadline := time.After(within)
	for {
		if got := rc.posts(); len(got) >= n {
			return got
		}
		select {
		case <-rc.notify:
		case <-deadline:
			t.Fatalf("receiver got %d POSTs within %s, want %d", len(rc.posts()), within, n)
		}
	}
}

func hang(ctx context.Context, _ int) int {
	<-ctx.Done()
	return http.StatusServiceUnavailable
}

// memNet is an in-memory network for tests in a synctest bubble: receivers
// listen on names, and connections are net.Pipe pairs, so every wait on the
// network is one the bubble sees and time moves only when all is waiting.
// Delivery schedules, timeouts and stalls then take no real time and
// happen the same way on every run.
type memNet struct {
	t         *testing.T
	mu        sync.Mutex
	listeners map[string]*memListener // host:port → its receiver's listener
}

func newMemNet(t *testing.T) *memNet { return &memNet{t: t, listeners: map[string]*memListener{}} }

type memListener struct {
	addr  string
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func (l *memListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *memListener) Close() error { l.once.Do(func() { close(l.done) }); return nil }

func (l *memListener) Addr() net.Addr { return memAddr(l.addr) }

type memAddr string

func (memAddr) Network() string  { return "mem" }
func (a memAddr) String() string { return string(a) }

func (n *memNet) dial(ctx context.Context, _, addr string) (net.Conn, error) {
	n.mu.Lock()
	l := n.listeners[addr]
	n.mu.Unlock()
	if l == nil {
		return nil, &net.OpError{Op: "dial", Net: "mem", Err: errors.New("connection refused")}
	}
	server, client := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.done:
		return nil, &net.OpError{Op: "dial", Net: "mem", Err: errors.New("connection refused")}
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// client is the engine's delivery client (its redirect policy) dialing on
// the memNet instead of through the connect-time guard.
func (n *memNet) client() *http.Client {
	tr := &http.Transport{DialContext: n.dial}
	n.t.Cleanup(tr.CloseIdleConnections)
	c := loopback.NewClient(ssrf.ClientOptions{})
	c.Transport = tr
	return c
}

// receiver serves a receiver on the memNet.
func (n *memNet) receiver(secret string, respond func(ctx context.Context, n int) int) *receiver {
	rc := &receiver{secret: []byte(secret), respond: respond, release: make(chan struct{}), notify: make(chan struct{}, 1000)}
	n.mu.Lock()
	host := fmt.Sprintf("r%d.hooks.test", len(n.listeners)+1)
	l := &memListener{addr: host + ":80", conns: make(chan net.Conn), done: make(chan struct{})}
	n.listeners[l.addr] = l
	n.mu.Unlock()
	srv := &http.Server{Handler: http.HandlerFunc(rc.serve), ConnState: rc.countConns}
	go srv.Serve(l)
	rc.url = "http://" + host
	n.t.Cleanup(func() {
		close(rc.release)
		srv.Close()
	})
	return rc
}

// harness runs the engine on the memNet, over tbl (nil: a new memory
// table) with o's other options.
func (n *memNet) harness(tbl store.Table, o webhooks.Options, workers int) *harness {
	o.Client = n.client()
	return newHarnessN(n.t, tbl, o, workers)
}

// harness runs the engine as `brandlens serve` does: a Local deliveries
// queue consumed by the Handle workers and a dispatcher polling the outbox.
type harness struct {
	tbl store.Table
	svc *webhooks.Service
	q   *queue.Local
}

func newHarness(t testing.TB, tbl store.Table, o webhooks.Options) *harness {
	t.Helper()
	return newHarnessN(t, tbl, o, 512)
}

// newHarnessN runs the queue with the given number of workers.
func newHarnessN(t testing.TB, tbl store.Table, o webhooks.Options, workers int) *harness {
	t.Helper()
	if tbl == nil {
		tbl = embedded.NewMemory()
	}
	if o.RetryScale == 0 {
		o.RetryScale = testScale
	}
	if o.Timeout == 0 {
		o.Timeout = 2 * time.Second
	}
	// Handlers cancelled at cleanup would log; nobody reads it.
	q := queue.NewLocal(queue.LocalOptions{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	o.Sender = q
	svc := webhooks.New(tbl, o)
	ctx, cancel := context.WithCancel(context.Background())
	runDone := make(chan struct{})
	go func() { defer close(runDone); q.Run(ctx, svc.Handle, workers) }()
	d := svc.NewDispatcher(webhooks.DispatcherOptions{Interval: 20 * time.Millisecond})
	dispDone := make(chan struct{})
	go func() { defer close(dispDone); d.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-dispDone
		<-runDone
		q.Close()
	})
	return &harness{tbl: tbl, svc: svc, q: q}
}

var loopback = ssrf.Guard{AllowLoopback: true}

func (h *harness) subscribe(t testing.TB, tenant int32, url, secret string, evs ...string) webhooks.Subscription {
	t.Helper()
	ns := webhooks.NewSubscription{URL: url, Events: evs}
	if secret != "" {
		ns.Secret = &secret
	}
	sub, err := h.svc.CreateSubscription(context.Background(), tenant, ns)
	if err != nil {
		t.Fatal(err)
	}
	return sub
}

// emit appends an event to the outbox and wakes the dispatcher, as a
// producer does.
func emit(t testing.TB, tbl store.Table, tenant int32, typ string, data any) outbox.Event {
	t.Helper()
	ev, err := outbox.New(tenant, typ, data, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := outbox.Append(context.Background(), tbl, ev); err != nil {
		t.Fatal(err)
	}
	outbox.Notify()
	return ev
}

// waitStatus waits for the delivery to reach status.
func (h *harness) waitStatus(t *testing.T, tenant int32, subID, eventID, status string, within time.Duration) webhooks.Delivery {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		d, err := h.svc.GetDelivery(context.Background(), tenant, subID, webhooks.DeliveryID(eventID, subID))
		if err == nil && d.Status == status {
			return d
		}
		if time.Now().After(deadline) {
			t.Fatalf("delivery status %q (err %v) after %s, want %s", d.Status, err, within, status)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// message is the queue message of a delivery's attempt.
func message(t *testing.T, d webhooks.Delivery, cycle, attempt int) queue.Message {
	t.Helper()
	b, err := json.Marshal(webhooks.Message{TenantID: d.TenantID, SubscriptionID: d.SubscriptionID, DeliveryID: d.ID, Cycle: cycle, Attempt: attempt})
	if err != nil {
		t.Fatal(err)
	}
	return queue.Message{ID: "m", Body: b, ReceiveCount: 1}
}

func ptr[T any](v T) *T { return &v }

// clock is a settable time source.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// waitAttempts waits for the delivery to have made n attempts.
func (h *harness) waitAttempts(t *testing.T, tenant int32, subID, deliveryID string, n int, within time.Duration) webhooks.Delivery {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		d, err := h.svc.GetDelivery(context.Background(), tenant, subID, deliveryID)
		if err == nil && len(d.Attempts) >= n {
			return d
		}
		if time.Now().After(deadline) {
			t.Fatalf("delivery has %d attempts (err %v) after %s, want %d", len(d.Attempts), err, within, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
