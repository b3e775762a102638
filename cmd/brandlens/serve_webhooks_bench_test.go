package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/providers"
)

// Load harness of webhook delivery from `brandlens serve` itself: the real
// server (embedded store, local runtime) on a free port, a receiver on
// loopback (BRANDLENS_ALLOW_LOOPBACK_TARGETS=1), deliveries triggered
// through the API with POST /api/v1/webhooks/{id}/ping (the same engine as
// every event: event + delivery record, deliveries queue, signed POST).
//
//	go test ./cmd/brandlens -run '^$' -bench ServeWebhook -benchtime 3000x

const benchKey = "bench-key-publish-000000001"

type served struct {
	base string
	stop func()
}

func startServe(b testing.TB) served {
	b.Helper()
	b.Setenv("BRANDLENS_ALLOW_LOOPBACK_TARGETS", "1")
	b.Setenv("BRANDLENS_TABLE", "")
	b.Setenv("BRANDLENS_STORE", "")
	b.Setenv("BRANDLENS_KEY_SECRET", "")
	dir := b.TempDir()
	seedFile := filepath.Join(dir, "seed.json")
	seed := `{"tenants":[{"name":"Bench","credits":10,"rpmLimit":100000000,
		"apiKeys":[{"key":"` + benchKey + `","scopes":["publish"]}]}]}`
	if err := os.WriteFile(seedFile, []byte(seed), 0o600); err != nil {
		b.Fatal(err)
	}
	return startServeArgs(b, "--data-dir", filepath.Join(dir, "data"), "--seed", seedFile)
}

// startServeArgs runs `brandlens serve` with args on a free loopback port
// (simulated or replayed platforms, as the environment says) until the
// test ends or stop is called.
func startServeArgs(tb testing.TB, args ...string) served {
	tb.Helper()
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, append([]string{"--addr", "127.0.0.1:0"}, args...), providers.FromEnv, app.OfflineModels, pw, io.Discard)
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	var base string
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "brandlens serving "); ok {
			base = strings.Fields(rest)[0]
			break
		}
	}
	go io.Copy(io.Discard, pr)
	if base == "" {
		cancel()
		tb.Fatalf("serve did not start: %v", <-done)
	}
	var once sync.Once
	stop := func() { once.Do(func() { cancel(); <-done }) }
	tb.Cleanup(stop)
	return served{base: base, stop: stop}
}

func (s served) call(b *testing.B, method, path, body string) map[string]any {
	req, _ := http.NewRequest(method, s.base+path, strings.NewReader(body))
	req.Header.Set("X-API-Key", benchKey)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Error(err)
		return nil
	}
	defer res.Body.Close()
	var m map[string]any
	json.NewDecoder(res.Body).Decode(&m)
	if res.StatusCode >= 300 {
		b.Errorf("%s %s: %d %v", method, path, res.StatusCode, m)
	}
	return m
}

// benchReceiver records when each event id arrives.
type benchReceiver struct {
	srv  *httptest.Server
	mu   sync.Mutex
	at   map[string]time.Time
	n    atomic.Int64
	hang bool
	stop chan struct{}
}

func newBenchReceiver(hang bool) *benchReceiver {
	r := &benchReceiver{at: map[string]time.Time{}, hang: hang, stop: make(chan struct{})}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		io.Copy(io.Discard, req.Body)
		now := time.Now()
		r.mu.Lock()
		r.at[req.Header.Get("X-Service-Event-Id")] = now
		r.mu.Unlock()
		r.n.Add(1)
		if r.hang {
			select {
			case <-req.Context().Done():
			case <-r.stop:
			}
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	return r
}

func (r *benchReceiver) close() { close(r.stop); r.srv.Close() }

func (r *benchReceiver) arrived(eventID string) (time.Time, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t, ok := r.at[eventID]
	return t, ok
}

func subscribe(b *testing.B, s served, url string) string {
	m := s.call(b, "POST", "/api/v1/webhooks", `{"url":"`+url+`","events":["webhook.ping"]}`)
	id, _ := m["id"].(string)
	if id == "" {
		b.Fatalf("subscribe: %v", m)
	}
	return id
}

// BenchmarkServeWebhookThroughput: deliveries per second from `brandlens
// serve` to a local receiver, 16 clients pinging concurrently.
func BenchmarkServeWebhookThroughput(b *testing.B) {
	s := startServe(b)
	defer s.stop()
	rc := newBenchReceiver(false)
	defer rc.close()
	sub := subscribe(b, s, rc.srv.URL+"/hook")
	b.ResetTimer()
	start := time.Now()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for next.Add(1) <= int64(b.N) {
				s.call(b, "POST", "/api/v1/webhooks/"+sub+"/ping", "")
			}
		})
	}
	wg.Wait()
	for rc.n.Load() < int64(b.N) {
		if time.Since(start) > 2*time.Minute {
			b.Fatalf("%d of %d delivered", rc.n.Load(), b.N)
		}
		time.Sleep(time.Millisecond)
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "deliveries/s")
}

// BenchmarkServeWebhookHealthyDelay: the delay from the ping request to the
// delivery's arrival at a healthy endpoint, alone and while another
// subscription's endpoint hangs on every delivery and keeps being pinged.
func BenchmarkServeWebhookHealthyDelay(b *testing.B) {
	for _, withHang := range []bool{false, true} {
		name := "baseline"
		if withHang {
			name = "one-endpoint-hanging"
		}
		b.Run(name, func(b *testing.B) {
			s := startServe(b)
			defer s.stop()
			fast := newBenchReceiver(false)
			defer fast.close()
			fastSub := subscribe(b, s, fast.srv.URL+"/hook")
			stopHang := make(chan struct{})
			var hangDone sync.WaitGroup
			if withHang {
				slow := newBenchReceiver(true)
				defer slow.close()
				slowSub := subscribe(b, s, slow.srv.URL+"/hook")
				hangDone.Go(func() {
					t := time.NewTicker(5 * time.Millisecond)
					defer t.Stop()
					for {
						select {
						case <-stopHang:
							return
						case <-t.C:
							s.call(b, "POST", "/api/v1/webhooks/"+slowSub+"/ping", "")
						}
					}
				})
				time.Sleep(time.Second) // let it hang
			}
			delays := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				ev, _ := s.call(b, "POST", "/api/v1/webhooks/"+fastSub+"/ping", "")["eventId"].(string)
				for {
					if at, ok := fast.arrived(ev); ok {
						delays = append(delays, at.Sub(start))
						break
					}
					if time.Since(start) > time.Minute {
						b.Fatalf("event %s never arrived", ev)
					}
					time.Sleep(50 * time.Microsecond)
				}
			}
			b.StopTimer()
			close(stopHang)
			hangDone.Wait()
			slices.Sort(delays)
			pct := func(p float64) float64 {
				return float64(delays[min(len(delays)-1, int(p*float64(len(delays))))].Microseconds()) / 1000
			}
			b.ReportMetric(pct(0.50), "p50-ms")
			b.ReportMetric(pct(0.99), "p99-ms")
		})
	}
}
