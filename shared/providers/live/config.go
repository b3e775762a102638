package live

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/brandlens/brandlens/shared/providers"
)

// Config configures a live adapter.
type Config struct {
	APIKey string
	// BaseURL points the adapter at another host (tests use an httptest
	// server); empty means the vendor's production endpoint.
	BaseURL string
	// Model overrides the adapter's default model (ignored by
	// google_ai_overview).
	Model string
	// HTTPClient carries the requests; nil means NewHTTPClient with the
	// call timeout. Bodies are capped at MaxResponseBodyBytes either way.
	HTTPClient *http.Client
	// Timeout bounds one Answer call; 0 means providers.DefaultTimeout of
	// the adapter's platform.
	Timeout time.Duration
	// Prices estimates the cost of calls whose vendor reports none; nil
	// means the standard table (NewPriceBook) logging to slog.Default().
	Prices *PriceBook
	// GroundingRedirects resolves Gemini's grounding redirect links; nil
	// means the production prefix through a guard that denies loopback.
	GroundingRedirects *RedirectResolver
}

func (c Config) timeout(platform string) time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return providers.DefaultTimeout(platform)
}

func (c Config) prices() *PriceBook {
	if c.Prices != nil {
		return c.Prices
	}
	return NewPriceBook(nil)
}

func (c Config) model(def string) string {
	if m := strings.TrimSpace(c.Model); m != "" {
		return m
	}
	return def
}

func (c Config) baseURL(def string) string {
	if b := strings.TrimSpace(c.BaseURL); b != "" {
		return b
	}
	return def
}

// tracedClient returns a copy of the configured client whose transport
// records the status and headers of each response into the call's trace.
// The SDKs do not all expose headers on errors (genai drops them), and a
// body they cannot decode loses the status, so classification reads the
// trace instead.
func (c Config) tracedClient(platform string) *http.Client {
	base := c.HTTPClient
	if base == nil {
		base = NewHTTPClient(c.timeout(platform))
	}
	cl := *base
	next := cl.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	cl.Transport = traceTransport{next: next}
	return &cl
}

// httpTrace is the last HTTP response seen by one Answer call.
type httpTrace struct {
	status int
	header http.Header
	calls  int
	// tooLarge: a response body went past MaxResponseBodyBytes.
	tooLarge bool
}

type traceKey struct{}

type traceTransport struct{ next http.RoundTripper }

func (t traceTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(r)
	tr, _ := r.Context().Value(traceKey{}).(*httpTrace)
	if tr != nil {
		tr.calls++
		if resp != nil {
			tr.status = resp.StatusCode
			tr.header = resp.Header.Clone()
		}
	}
	if err != nil || resp == nil {
		return resp, err
	}
	if resp.ContentLength > MaxResponseBodyBytes {
		resp.Body.Close()
		if tr != nil {
			tr.tooLarge = true
		}
		return nil, errBodyTooLarge
	}
	resp.Body = &cappedBody{rc: resp.Body, left: MaxResponseBodyBytes, trace: tr}
	return resp, nil
}

// call is the per-Answer state shared by the adapters: the deadline-bound
// context, the HTTP trace and the start time.
type call struct {
	ctx      context.Context
	cancel   context.CancelFunc
	trace    *httpTrace
	start    time.Time
	timeout  time.Duration
	platform string
	key      string
}

func (c Config) begin(ctx context.Context, platform string) *call {
	tr := &httpTrace{}
	d := c.timeout(platform)
	cctx, cancel := context.WithTimeout(context.WithValue(ctx, traceKey{}, tr), d)
	return &call{ctx: cctx, cancel: cancel, trace: tr, start: time.Now(), timeout: d, platform: platform, key: c.APIKey}
}

func (cl *call) elapsed() time.Duration { return time.Since(cl.start) }

// transportError classifies an error that carries no vendor error body:
// a timeout, a cancelled context, an undecodable body or a network failure.
func (cl *call) transportError(err error) *providers.Error {
	switch {
	case cl.trace.tooLarge || errors.Is(err, errBodyTooLarge):
		// Not retried: the same question would most likely bring the same
		// oversized answer.
		return &providers.Error{Platform: cl.platform, Kind: providers.KindFailedAnswer, Status: cl.trace.status, Code: "response_too_large",
			Message: fmt.Sprintf("the response is larger than %d MiB", MaxResponseBodyBytes>>20)}
	case errors.Is(cl.ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded):
		return &providers.Error{Platform: cl.platform, Kind: providers.KindTransient, Code: "timeout",
			Message: fmt.Sprintf("no answer within %s", cl.timeout)}
	case errors.Is(err, context.Canceled):
		return &providers.Error{Platform: cl.platform, Kind: providers.KindTransient, Code: "cancelled", Message: "call cancelled"}
	}
	if cl.trace.status >= 400 {
		// The SDK could not decode the error body; the status still classifies it.
		return statusError(cl.platform, cl.trace.status, cl.trace.header, "", "unreadable error body")
	}
	if cl.trace.status >= 200 && cl.trace.status < 300 {
		// A 2xx we cannot decode is most often a body cut short in transit.
		return &providers.Error{Platform: cl.platform, Kind: providers.KindTransient, Status: cl.trace.status, Code: "malformed_response",
			Message: "response body is not the expected JSON"}
	}
	msg, detail := networkMessage(err, cl.key)
	return &providers.Error{Platform: cl.platform, Kind: providers.KindTransient, Code: "network", Message: msg, Detail: detail}
}
