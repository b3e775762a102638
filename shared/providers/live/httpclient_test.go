package live

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/providers"
)

// An oversized answer is refused as a provider error on every platform,
// whether the server announces its length or streams it chunked.
func TestOversizedBodyRefused(t *testing.T) {
	big := `{"pad":"` + strings.Repeat("a", MaxResponseBodyBytes+1024) + `"}`
	builders := map[string]func(base string) providers.Provider{
		platforms.ChatGPT:          func(b string) providers.Provider { return newTestChatGPT(b, 5*time.Second) },
		platforms.Perplexity:       func(b string) providers.Provider { return newTestPerplexity(b, 5*time.Second) },
		platforms.Gemini:           func(b string) providers.Provider { return newTestGemini(b, 5*time.Second) },
		platforms.Claude:           func(b string) providers.Provider { return newTestClaude(b, 5*time.Second) },
		platforms.GoogleAIOverview: func(b string) providers.Provider { return newTestSerp(b, 5*time.Second) },
	}
	for _, pf := range platforms.All {
		for _, chunked := range []bool{false, true} {
			t.Run(pf+"/chunked="+strconv.FormatBool(chunked), func(t *testing.T) {
				f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) {
					w.Header().Set("Content-Type", "application/json")
					if !chunked {
						w.Header().Set("Content-Length", strconv.Itoa(len(big)))
					}
					w.WriteHeader(http.StatusOK)
					for i := 0; i < len(big); i += 64 << 10 {
						_, _ = io.WriteString(w, big[i:min(i+64<<10, len(big))])
						if chunked {
							w.(http.Flusher).Flush()
						}
					}
				})
				_, err := builders[pf](f.srv.URL).Answer(context.Background(), providers.Request{Query: "q"})
				var pe *providers.Error
				if !errors.As(err, &pe) || pe.Code != "response_too_large" || pe.Kind != providers.KindFailedAnswer || pe.Platform != pf {
					t.Fatalf("err = %v", err)
				}
			})
		}
	}
}

func TestCappedBody(t *testing.T) {
	cases := []struct {
		name    string
		size    int
		limit   int64
		wantErr bool
	}{
		{"under", 10, 16, false},
		{"exactly the limit", 16, 16, false},
		{"one byte over", 17, 16, true},
		{"far over", 1000, 16, true},
		{"empty", 0, 16, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tr := &httpTrace{}
			b := &cappedBody{rc: io.NopCloser(bytes.NewReader(make([]byte, tc.size))), left: tc.limit, trace: tr}
			got, err := io.ReadAll(b)
			if (err != nil) != tc.wantErr || tr.tooLarge != tc.wantErr {
				t.Fatalf("err %v tooLarge %v", err, tr.tooLarge)
			}
			if !tc.wantErr && len(got) != tc.size {
				t.Errorf("read %d bytes, want %d", len(got), tc.size)
			}
		})
	}
}

// The dedicated client uses no proxy from HTTP(S)_PROXY (Go's own
// environment proxy never applies to loopback, so the transport is
// inspected) and refuses response headers past 64 KiB.
func TestHTTPClientCaps(t *testing.T) {
	tr, ok := NewHTTPClient(time.Minute).Transport.(*http.Transport)
	if !ok || tr.Proxy != nil || tr.MaxResponseHeaderBytes != MaxResponseHeaderBytes || tr.ResponseHeaderTimeout != time.Minute {
		t.Fatalf("transport %+v", tr)
	}
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if r.URL.Query().Get("big") != "" {
			w.Header().Set("X-Pad", strings.Repeat("b", MaxResponseHeaderBytes+1))
		}
		reply(w, 200, nil, fixture(t, "perplexity_response.json"))
	})
	// Perplexity with no client of its own gets NewHTTPClient.
	p := NewPerplexity(Config{APIKey: testKey, BaseURL: f.srv.URL, Timeout: 5 * time.Second})
	if _, err := p.Answer(context.Background(), providers.Request{Query: "q"}); err != nil {
		t.Fatal(err)
	}
	p.url += "?big=1"
	_, err := p.Answer(context.Background(), providers.Request{Query: "q"})
	var pe *providers.Error
	if !errors.As(err, &pe) || pe.Code != "network" {
		t.Fatalf("oversized headers: err = %v", err)
	}
}
