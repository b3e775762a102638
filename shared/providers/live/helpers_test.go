package live

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/providers/providerstest"
)

// answerCase is what a vendor's answer fixture reads as.
type answerCase struct {
	name, fixture string
	text, model   string // the answer's text and model
	in, out       int
	cost          float64
}

// check compares a successful answer with the case: text, model, tokens,
// a latency, and its cost (known, to 1e-12 USD), not truncated; its
// citation spans fit the text.
func (c answerCase) check(t *testing.T, ans providers.Answer) {
	t.Helper()
	checkSpans(t, ans)
	if ans.Text != c.text || ans.Model != c.model || ans.InputTokens != c.in || ans.OutputTokens != c.out || ans.Latency <= 0 {
		t.Errorf("answer = %+v", ans)
	}
	if math.Abs(ans.CostUSD-c.cost) > 1e-12 || ans.CostUnknown || ans.Truncated {
		t.Errorf("cost = %v, want %v", ans.CostUSD, c.cost)
	}
}

// testKey looks like a real key so leaks are easy to spot.
const testKey = "sk-test-SECRETKEY0123456789"

// recorded is one request the fake server received.
type recorded struct {
	method string
	path   string
	query  string
	header http.Header
	body   []byte
}

// fake is an httptest server that records requests and answers through
// handle (n is the 0-based request number).
type fake struct {
	srv  *httptest.Server
	mu   sync.Mutex
	reqs []recorded
}

func newFake(t *testing.T, handle func(w http.ResponseWriter, r *http.Request, n int)) *fake {
	t.Helper()
	f := &fake{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		n := len(f.reqs)
		f.reqs = append(f.reqs, recorded{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Clone(), body})
		f.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
		handle(w, r, n)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fake) requests() []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]recorded(nil), f.reqs...)
}

func reply(w http.ResponseWriter, status int, header map[string]string, body string) {
	w.Header().Set("Content-Type", "application/json")
	for k, v := range header {
		w.Header().Set(k, v)
	}
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

// hang blocks until the client gives up (or a safety limit passes).
func hang(r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-time.After(3 * time.Second):
	}
}

// fixture reads testdata/name. It reports with Errorf, not Fatal, because
// fake-server handlers call it off the test goroutine.
func fixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Errorf("fixture: %v", err)
	}
	return string(b)
}

// The answer checks shared with package providers' tests.
var (
	spanOf         = providerstest.SpanOf
	checkSpans     = providerstest.CheckSpans
	checkCitations = providerstest.CheckCitations
)

type wantCite = providerstest.Cite

// testProvider returns what runErrCases and the success tests build a
// provider with: newP with the test key, against a fake server at base.
func testProvider[P providers.Provider](newP func(Config) P) func(base string, timeout time.Duration) providers.Provider {
	return func(base string, timeout time.Duration) providers.Provider {
		return newP(Config{APIKey: testKey, BaseURL: base, Timeout: timeout})
	}
}

// errCase is one error path: what the fake answers and what the adapter
// must make of it.
type errCase struct {
	name     string
	status   int
	header   map[string]string
	body     string
	handler  func(w http.ResponseWriter, r *http.Request, n int) // overrides status/header/body
	kind     providers.Kind
	code     string
	retryMin time.Duration
	retryMax time.Duration
}

// runErrCases runs each case against a fresh fake server. build makes the
// provider from the server URL; timeout is short so the hang case is fast.
func runErrCases(t *testing.T, cases []errCase, build func(base string, timeout time.Duration) providers.Provider) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := tc.handler
			if h == nil {
				h = func(w http.ResponseWriter, r *http.Request, n int) { reply(w, tc.status, tc.header, tc.body) }
			}
			f := newFake(t, h)
			p := build(f.srv.URL, 300*time.Millisecond)
			start := time.Now()
			_, err := p.Answer(context.Background(), providers.Request{Platform: p.Platform(), Query: "best crm small agencies"})
			if time.Since(start) > 2*time.Second {
				t.Errorf("call took %s", time.Since(start))
			}
			var pe *providers.Error
			if !errors.As(err, &pe) {
				t.Fatalf("error = %v (%T), want *Error", err, err)
			}
			if pe.Kind != tc.kind {
				t.Errorf("kind = %s, want %s (%v)", pe.Kind, tc.kind, err)
			}
			if tc.code != "" && pe.Code != tc.code {
				t.Errorf("code = %q, want %q", pe.Code, tc.code)
			}
			if pe.RetryAfter < tc.retryMin || pe.RetryAfter > tc.retryMax {
				t.Errorf("RetryAfter = %s, want [%s, %s]", pe.RetryAfter, tc.retryMin, tc.retryMax)
			}
			if pe.Platform != p.Platform() {
				t.Errorf("platform = %q", pe.Platform)
			}
			if providers.IsRetryable(err) != (tc.kind == providers.KindTransient) {
				t.Errorf("IsRetryable = %v for %s", providers.IsRetryable(err), pe.Kind)
			}
			if strings.Contains(err.Error(), "SECRETKEY") {
				t.Errorf("error leaks the key: %v", err)
			}
			if tc.handler == nil && tc.kind != providers.KindFailedAnswer {
				// The workflow owns retries: the SDK must not retry.
				if n := len(f.requests()); n != 1 {
					t.Errorf("%d requests, want 1 (SDK retries must be off)", n)
				}
			}
		})
	}
}

// httpDate is a Retry-After HTTP date d from now.
func httpDate(d time.Duration) string { return time.Now().Add(d).UTC().Format(http.TimeFormat) }

// closedURL is the URL of a server that is no longer listening.
func closedURL(t *testing.T) string {
	srv := httptest.NewServer(http.NotFoundHandler())
	u := srv.URL
	srv.Close()
	return u
}
