package live

import (
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/ssrf"
)

// statusError maps an HTTP error status to a Kind. Vendor-specific rules
// (quota hidden in a 429, billing in a 400) are applied by the adapters on
// top of it. msg must already be safe (see safeText).
func statusError(platform string, status int, h http.Header, code, msg string) *providers.Error {
	e := &providers.Error{Platform: platform, Status: status, Code: code, Message: msg}
	switch {
	case status == http.StatusTooManyRequests, status == http.StatusRequestTimeout, status >= 500:
		// 529 (Anthropic overloaded) is covered by >= 500.
		e.Kind = providers.KindTransient
		e.RetryAfter = retryAfter(h)
	case status == http.StatusPaymentRequired:
		e.Kind = providers.KindQuota
	case status == http.StatusUnauthorized, status == http.StatusForbidden:
		e.Kind = providers.KindAuth
	default:
		e.Kind = providers.KindInvalid
	}
	return e
}

// authMessage replaces the vendor's text on auth failures: it is the text
// most likely to echo (part of) the key.
func authMessage(envName string) string {
	return "the platform refused the API key (check " + envName + ")"
}

// retryAfter reads retry-after-ms, then retry-after (seconds or HTTP date).
func retryAfter(h http.Header) time.Duration {
	if h == nil {
		return 0
	}
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 && ms < 1e12 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s > 0 && s < 1e9 {
			return time.Duration(s * float64(time.Second))
		}
		return 0
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := time.Until(t); d > 0 {
			return d.Round(time.Second)
		}
	}
	return 0
}

var keyLike = regexp.MustCompile(`(?i)\b(sk-[A-Za-z0-9_\-*.]{6,}|pplx-[A-Za-z0-9_\-*]{6,}|AIza[0-9A-Za-z_\-]{10,}|api_key=[^&\s"]+|key=[^&\s"]+)`)

// safeText makes vendor text fit for logs and job records: the key and
// anything shaped like a key or a key-bearing query string are redacted,
// control characters dropped, and the length capped.
func safeText(s, key string) string {
	if key != "" {
		s = strings.ReplaceAll(s, key, "[redacted]")
	}
	s = keyLike.ReplaceAllString(s, "[redacted]")
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return ' '
		}
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
	s = strings.TrimSpace(s)
	const max = 300
	if r := []rune(s); len(r) > max {
		s = string(r[:max]) + "…"
	}
	return s
}

// networkMessage describes a transport failure for the job record: its
// reason and a message naming no address, resolver or URL (which for
// SerpApi carries the key in its query string). detail is the raw error,
// redacted, for the logs only.
func networkMessage(err error, key string) (msg, detail string) {
	f := ssrf.Classify(err)
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if err != nil {
		detail = safeText(err.Error(), key)
	}
	return "network error (" + f.Reason + "): " + f.Message, detail
}

// failed builds a KindFailedAnswer error.
func failed(platform, code, msg string) *providers.Error {
	return &providers.Error{Platform: platform, Kind: providers.KindFailedAnswer, Status: http.StatusOK, Code: code, Message: msg}
}
