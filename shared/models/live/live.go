// Package live holds the vendor adapters of models.Generator: OpenAI Chat
// Completions (openai-go), Anthropic Messages (anthropic-sdk-go) and the
// Gemini API's generateContent (genai). Each bounds a call by its timeout,
// turns off the SDK's own retries (the workflow retries), reports a
// response cut at the output cap as KindTruncated, prices the call from
// models.Prices, and classifies every failure into a models.Kind without
// ever echoing the API key.
package live

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/brandlens/brandlens/shared/models"
	providerslive "github.com/brandlens/brandlens/shared/providers/live"
	"github.com/brandlens/brandlens/shared/ssrf"
)

// DefaultTimeout bounds one generation when Config.Timeout is zero: an
// article of several thousand tokens takes well over a minute on the
// larger models.
const DefaultTimeout = 180 * time.Second

// Config configures one adapter.
type Config struct {
	APIKey string
	// BaseURL points the adapter at another host (tests use a fake server);
	// empty means the vendor's.
	BaseURL string
	// Model overrides the adapter's default model.
	Model      string
	HTTPClient *http.Client // nil: the capped client of the answer providers (providerslive.NewHTTPClient)
	Timeout    time.Duration
}

// timeout is the per-call bound.
func (c Config) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return DefaultTimeout
}

// orDefault is s trimmed, or def when s is blank.
func orDefault(s, def string) string {
	if s = strings.TrimSpace(s); s != "" {
		return s
	}
	return def
}

func (c Config) client() *http.Client {
	if c.HTTPClient != nil {
		return c.HTTPClient
	}
	// No ambient proxy, response headers capped in size and wait: the
	// same vendors' APIs as the answer providers, the same client.
	return providerslive.NewHTTPClient(c.timeout())
}

// failure builds the error of a failed call from its HTTP status (0 when
// there was no answer), the vendor's error code and message, and the
// response headers.
func failure(vendor, model string, status int, code, msg string, h http.Header, key string) *models.Error {
	e := &models.Error{Vendor: vendor, Model: model, Status: status, Code: redact(code, key), Message: redact(msg, key)}
	switch {
	case status == http.StatusTooManyRequests:
		e.Kind, e.RetryAfter = models.KindRateLimited, retryAfter(h)
	case status == http.StatusRequestTimeout:
		e.Kind = models.KindTimeout
	case status >= 500: // 529 is Anthropic's "overloaded"
		e.Kind, e.RetryAfter = models.KindOverloaded, retryAfter(h)
	case status == http.StatusPaymentRequired:
		e.Kind = models.KindQuota
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		e.Kind, e.Message = models.KindAuth, "the vendor refused the API key"
	default:
		e.Kind = models.KindInvalid
	}
	return e
}

// transport classifies a failure without a vendor error body.
func transport(ctx context.Context, vendor, model string, err error, timeout time.Duration, key string) *models.Error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) {
		return &models.Error{Vendor: vendor, Model: model, Kind: models.KindTimeout, Message: fmt.Sprintf("no answer within %s", timeout)}
	}
	// The message is recorded in the job and the audit log: the reason
	// only, never the raw error's URL, addresses or resolver.
	var ue *url.Error
	var ne net.Error
	if !errors.As(err, &ue) && !errors.As(err, &ne) {
		// Not the network's: an answer the SDK could not read.
		return &models.Error{Vendor: vendor, Model: model, Kind: models.KindNetwork, Message: "the answer could not be read: " + redact(err.Error(), key)}
	}
	f := ssrf.Classify(err)
	return &models.Error{Vendor: vendor, Model: model, Kind: models.KindNetwork, Message: "network error (" + f.Reason + "): " + f.Message}
}

func header(r *http.Response) http.Header {
	if r == nil {
		return nil
	}
	return r.Header
}

// retryAfter reads retry-after-ms, then retry-after in seconds.
func retryAfter(h http.Header) time.Duration {
	if h == nil {
		return 0
	}
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil && ms > 0 && ms < 1e9 {
		return time.Duration(ms * float64(time.Millisecond))
	}
	if s, err := strconv.ParseFloat(h.Get("Retry-After"), 64); err == nil && s > 0 && s < 1e6 {
		return time.Duration(s * float64(time.Second))
	}
	return 0
}

// redact removes the key from vendor text and caps its length.
func redact(s, key string) string {
	if key != "" {
		s = strings.ReplaceAll(s, key, "[redacted]")
	}
	if r := []rune(s); len(r) > 300 {
		s = string(r[:300]) + "…"
	}
	return s
}

// response completes a vendor's answer with its cost and latency.
func response(vendor, model, text string, in, out int, start time.Time) models.Response {
	cost, known := models.Cost(model, in, out)
	return models.Response{Text: text, Vendor: vendor, Model: model, InputTokens: in, OutputTokens: out,
		CostUSD: cost, CostKnown: known, Latency: time.Since(start)}
}

// truncated is the error of an answer cut at the output cap.
func truncated(vendor, model string, max int) *models.Error {
	return &models.Error{Vendor: vendor, Model: model, Kind: models.KindTruncated, Status: http.StatusOK,
		Message: fmt.Sprintf("the answer stopped at the cap of %d output tokens", max)}
}

// refused is the error of an answer withheld or empty.
func refused(vendor, model, why string) *models.Error {
	return &models.Error{Vendor: vendor, Model: model, Kind: models.KindRefused, Status: http.StatusOK, Message: why}
}
