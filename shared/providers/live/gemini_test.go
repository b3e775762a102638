package live

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/providers/live/vendorfake"
	"github.com/brandlens/brandlens/shared/ssrf"
)

var newTestGemini = testProvider(NewGemini)

// redirectServer stands in for vertexaisearch.cloud.google.com: each
// grounding link answers with a redirect to its page; an id not in pages
// answers 200 (no redirect to read).
func redirectServer(t *testing.T, pages map[string]string) (*fake, *RedirectResolver) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if loc, ok := pages[strings.TrimPrefix(r.URL.Path, "/grounding-api-redirect/")]; ok {
			w.Header().Set("Location", loc)
			w.WriteHeader(http.StatusFound)
			return
		}
		w.WriteHeader(http.StatusOK)
	})
	return f, NewRedirectResolver(ssrf.Guard{AllowLoopback: true}, f.srv.URL+"/grounding-api-redirect/")
}

func TestGeminiSuccess(t *testing.T) {
	type cite struct{ url, title, span, redirect string }
	redirects, resolver := redirectServer(t, map[string]string{
		"AbC": "https://acme.com/pricing", "Z": "https://zoe.example/review", "A": "https://acme.com/"})
	redirect := redirects.srv.URL + "/grounding-api-redirect/"
	cases := []struct {
		answerCase
		citations []cite
	}{
		{
			answerCase: answerCase{name: "reference example (omitted zero startIndex)", fixture: "gemini_response.json",
				text: "Acme CRM is popular with agencies.", model: "gemini-3.5-flash", in: 9, out: 12,
				cost: 9*1.50/1e6 + 12*9.0/1e6 + 1*0.014}, // Gemini 3: per search query
			citations: []cite{{"https://acme.com/pricing", "acme.com", "Acme CRM is popular with agencies.", redirect + "AbC"}},
		},
		{
			answerCase: answerCase{name: "byte offsets to code points across parts", fixture: "gemini_response_unicode.json",
				text: "Zoë Café is great. Acme ☕ wins.", model: "gemini-2.5-flash", in: 1200, out: 100,
				cost: 1200*0.30/1e6 + 100*2.50/1e6 + 0.035}, // Gemini 2.5: per grounded prompt
			citations: []cite{
				{"https://zoe.example/review", "zoe.example", "Zoë Café is great.", redirect + "Z"},
				{"https://acme.com/", "acme.com", "☕ wins.", redirect + "A"},
				{"https://zoe.example/review", "zoe.example", "☕ wins.", redirect + "Z"},
				{"https://acme.com/", "acme.com", "", redirect + "A"}, // partIndex 9 does not exist
				// no redirect to read: the title's domain stands in
				{"https://uncited.example/", "uncited.example", "", redirect + "U"},
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// The fixtures carry Google's redirect links; the fake serves
			// them on its own origin.
			answer := strings.ReplaceAll(fixture(t, tc.fixture), DefaultGroundingRedirectPrefix, redirect)
			f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) {
				if err := vendorfake.CheckGeminiGenerateContent(mustBody(r)); err != nil {
					reply(w, 400, nil, `{"error":{"code":400,"message":"`+err.Error()+`","status":"INVALID_ARGUMENT"}}`)
					return
				}
				reply(w, 200, nil, answer)
			})
			ans, err := NewGemini(Config{APIKey: testKey, BaseURL: f.srv.URL, Timeout: time.Second, GroundingRedirects: resolver}).
				Answer(context.Background(), providers.Request{Query: "best crm small agencies"})
			if err != nil {
				t.Fatal(err)
			}
			rq := f.requests()[0]
			if rq.method != http.MethodPost || rq.path != "/v1beta/models/gemini-3.5-flash:generateContent" {
				t.Errorf("request %s %s", rq.method, rq.path)
			}
			if rq.header.Get("x-goog-api-key") != testKey {
				t.Errorf("x-goog-api-key = %q", rq.header.Get("x-goog-api-key"))
			}
			var body struct {
				Contents []struct {
					Role  string `json:"role"`
					Parts []struct {
						Text string `json:"text"`
					} `json:"parts"`
				} `json:"contents"`
				Tools []map[string]json.RawMessage `json:"tools"`
			}
			if err := json.Unmarshal(rq.body, &body); err != nil {
				t.Fatal(err)
			}
			if len(body.Contents) != 1 || body.Contents[0].Role != "user" || len(body.Contents[0].Parts) != 1 ||
				body.Contents[0].Parts[0].Text != "best crm small agencies" {
				t.Errorf("contents = %s", rq.body)
			}
			// The SDK spells the tool googleSearch; the API also accepts google_search.
			if len(body.Tools) != 1 || (body.Tools[0]["googleSearch"] == nil && body.Tools[0]["google_search"] == nil) {
				t.Errorf("tools = %s", rq.body)
			}

			tc.check(t, ans)
			if len(ans.Citations) != len(tc.citations) {
				t.Fatalf("citations = %+v", ans.Citations)
			}
			for i, c := range tc.citations {
				got := ans.Citations[i]
				if got.URL != c.url || got.Title != c.title || spanOf(ans.Text, got) != c.span || got.RedirectURL != c.redirect {
					t.Errorf("citation %d = %+v (span %q), want %q", i, got, spanOf(ans.Text, got), c.span)
				}
				if c.span == "" && (got.Start != -1 || got.End != -1) {
					t.Errorf("citation %d = [%d,%d), want -1/-1", i, got.Start, got.End)
				}
			}
		})
	}
}

// finishReason MAX_TOKENS keeps the text and flags it truncated.
func TestGeminiTruncated(t *testing.T) {
	body := `{"candidates":[{"content":{"role":"model","parts":[{"text":"Acme is the pick because"}]},"finishReason":"MAX_TOKENS"}],
	 "usageMetadata":{"promptTokenCount":9,"candidatesTokenCount":65536},"modelVersion":"gemini-3.5-flash"}`
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) { reply(w, 200, nil, body) })
	a, err := newTestGemini(f.srv.URL, time.Second).Answer(context.Background(), providers.Request{Query: "q"})
	if err != nil {
		t.Fatal(err)
	}
	if !a.Truncated || a.Text != "Acme is the pick because" || a.CostUSD <= 0 {
		t.Errorf("answer %+v", a)
	}
}

// The redirect of a grounding link is read with one request that follows
// nothing; whatever cannot be read safely falls back to the chunk's domain.
func TestRedirectResolver(t *testing.T) {
	hangs := make(chan struct{})
	t.Cleanup(func() { close(hangs) })
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) {
		switch strings.TrimPrefix(r.URL.Path, "/grounding-api-redirect/") {
		case "ok":
			w.Header().Set("Location", "https://acme.com/pricing?ref=1")
			w.WriteHeader(http.StatusFound)
		case "moved":
			w.Header().Set("Location", "https://acme.com/")
			w.WriteHeader(http.StatusMovedPermanently)
		case "relative":
			w.Header().Set("Location", "/consent")
			w.WriteHeader(http.StatusFound)
		case "userinfo":
			w.Header().Set("Location", "https://user:pass@acme.com/")
			w.WriteHeader(http.StatusFound)
		case "script":
			w.Header().Set("Location", "javascript:alert(1)")
			w.WriteHeader(http.StatusFound)
		case "hang":
			select {
			case <-r.Context().Done():
			case <-hangs:
			}
		default:
			_, _ = io.WriteString(w, "<html>no redirect</html>")
		}
	})
	prefix := f.srv.URL + "/grounding-api-redirect/"
	cases := []struct {
		name  string
		guard ssrf.Guard
		uri   string
		want  string
		calls int
	}{
		{"302 to the page", ssrf.Guard{AllowLoopback: true}, prefix + "ok", "https://acme.com/pricing?ref=1", 1},
		{"301 to the page", ssrf.Guard{AllowLoopback: true}, prefix + "moved", "https://acme.com/", 1},
		{"relative Location stays on the redirect host", ssrf.Guard{AllowLoopback: true}, prefix + "relative", "", 1},
		{"user information refused", ssrf.Guard{AllowLoopback: true}, prefix + "userinfo", "", 1},
		{"non-http scheme refused", ssrf.Guard{AllowLoopback: true}, prefix + "script", "", 1},
		{"200 has no redirect to read", ssrf.Guard{AllowLoopback: true}, prefix + "plain", "", 1},
		{"timeout", ssrf.Guard{AllowLoopback: true}, prefix + "hang", "", 1},
		{"loopback denied by the guard: nothing is sent", ssrf.Guard{}, prefix + "ok", "", 0},
		{"not a redirect link: nothing is sent", ssrf.Guard{AllowLoopback: true}, f.srv.URL + "/elsewhere/ok", "", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := len(f.requests())
			r := NewRedirectResolver(tc.guard, prefix)
			// Only the hanging redirect waits out the timeout; the others
			// get time enough that a loaded machine's slow dial does not
			// end them before the fake server has seen the request.
			r.timeout = 10 * time.Second
			if strings.HasSuffix(tc.uri, "/hang") {
				r.timeout = 200 * time.Millisecond
			}
			got, ok := r.Resolve(context.Background(), tc.uri)
			if got != tc.want || ok != (tc.want != "") {
				t.Errorf("Resolve = %q %v, want %q", got, ok, tc.want)
			}
			if n := len(f.requests()) - before; n != tc.calls {
				t.Errorf("%d requests, want %d", n, tc.calls)
			}
			for _, rq := range f.requests()[before:] {
				if rq.method != http.MethodGet || len(rq.body) != 0 {
					t.Errorf("request %s with %d body bytes", rq.method, len(rq.body))
				}
			}
		})
	}
	t.Run("cached", func(t *testing.T) {
		r := NewRedirectResolver(ssrf.Guard{AllowLoopback: true}, prefix)
		before := len(f.requests())
		for range 3 {
			if got, ok := r.Resolve(context.Background(), prefix+"ok"); !ok || got != "https://acme.com/pricing?ref=1" {
				t.Fatalf("Resolve = %q %v", got, ok)
			}
		}
		if n := len(f.requests()) - before; n != 1 {
			t.Errorf("%d requests for 3 resolutions, want 1", n)
		}
	})
}

func TestDomainURL(t *testing.T) {
	cases := []struct{ in, want string }{
		{"acme.com", "https://acme.com/"},
		{"Zoë.example", "https://xn--zo-ija.example/"},
		{"www.g2.com.", "https://www.g2.com/"},
		{"Acme Pricing", ""},
		{"acme.com/pricing", ""},
		{"127.0.0.1", ""},
		{"localhost", ""},
		{"user@acme.com", ""},
		{"", ""},
	}
	for _, tc := range cases {
		got, ok := domainURL(tc.in)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("domainURL(%q) = %q %v, want %q", tc.in, got, ok, tc.want)
		}
	}
}

func TestGeminiErrors(t *testing.T) {
	cases := []errCase{
		{name: "429 RetryInfo", status: 429,
			body: `{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED","details":[
				{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaMetric":"generativelanguage.googleapis.com/generate_content_requests","quotaId":"GenerateRequestsPerMinutePerProjectPerModel"}]},
				{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"41s"}]}}`,
			kind: providers.KindTransient, code: "RESOURCE_EXHAUSTED", retryMin: 41 * time.Second, retryMax: 41 * time.Second},
		{name: "429 fractional RetryInfo", status: 429,
			body: `{"error":{"code":429,"message":"slow down","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"1.5s"}]}}`,
			kind: providers.KindTransient, retryMin: 1500 * time.Millisecond, retryMax: 1500 * time.Millisecond},
		{name: "429 retry-after header", status: 429, header: map[string]string{"Retry-After": "5"},
			body: `{"error":{"code":429,"message":"slow down","status":"RESOURCE_EXHAUSTED"}}`,
			kind: providers.KindTransient, retryMin: 5 * time.Second, retryMax: 5 * time.Second},
		{name: "429 retry-after date", status: 429, header: map[string]string{"Retry-After": httpDate(10 * time.Second)},
			body: `{"error":{"code":429,"message":"slow down","status":"RESOURCE_EXHAUSTED"}}`,
			kind: providers.KindTransient, retryMin: 8 * time.Second, retryMax: 11 * time.Second},
		{name: "429 daily quota", status: 429,
			body: `{"error":{"code":429,"message":"Quota exceeded","status":"RESOURCE_EXHAUSTED","details":[
				{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaId":"GenerateRequestsPerDayPerProjectPerModel-FreeTier"}]},
				{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"41s"}]}}`,
			kind: providers.KindQuota},
		{name: "429 quota without retry hint", status: 429,
			body: `{"error":{"code":429,"message":"Quota exceeded","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaId":"X"}]}]}}`,
			kind: providers.KindQuota},
		{name: "400 API_KEY_INVALID", status: 400,
			body: `{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com"}]}}`,
			kind: providers.KindAuth},
		{name: "401", status: 401, body: `{"error":{"code":401,"message":"Request had invalid authentication credentials.","status":"UNAUTHENTICATED"}}`, kind: providers.KindAuth},
		{name: "403", status: 403, body: `{"error":{"code":403,"message":"Permission denied","status":"PERMISSION_DENIED"}}`, kind: providers.KindAuth},
		{name: "400", status: 400, body: `{"error":{"code":400,"message":"Invalid JSON payload","status":"INVALID_ARGUMENT"}}`, kind: providers.KindInvalid, code: "INVALID_ARGUMENT"},
		{name: "400 billing precondition", status: 400, body: `{"error":{"code":400,"message":"Gemini API free tier is not available in your country. Please enable billing.","status":"FAILED_PRECONDITION"}}`, kind: providers.KindQuota},
		{name: "404", status: 404, body: `{"error":{"code":404,"message":"models/x is not found","status":"NOT_FOUND"}}`, kind: providers.KindInvalid},
		{name: "500", status: 500, body: `{"error":{"code":500,"message":"Internal error","status":"INTERNAL"}}`, kind: providers.KindTransient},
		{name: "503", status: 503, body: `{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}`, kind: providers.KindTransient},
		{name: "502 non-JSON", status: 502, body: `<html>Bad Gateway</html>`, kind: providers.KindTransient},
		{name: "prompt blocked inside 200", status: 200, body: `{"promptFeedback":{"blockReason":"SAFETY"},"modelVersion":"gemini-3.5-flash"}`, kind: providers.KindFailedAnswer, code: "no_candidates"},
		{name: "empty text inside 200", status: 200, body: `{"candidates":[{"content":{"role":"model","parts":[]},"finishReason":"SAFETY"}],"modelVersion":"gemini-3.5-flash"}`, kind: providers.KindFailedAnswer, code: "empty_answer"},
		{name: "malformed JSON", status: 200, body: `{"candidates":[{`, kind: providers.KindTransient, code: "malformed_response"},
		{name: "timeout", handler: func(w http.ResponseWriter, r *http.Request, n int) { hang(r) }, kind: providers.KindTransient, code: "timeout"},
	}
	runErrCases(t, cases, newTestGemini)
}

func TestGeminiNoKey(t *testing.T) {
	_, err := NewGemini(Config{BaseURL: "http://127.0.0.1:1"}).Answer(context.Background(), providers.Request{Query: "q"})
	var pe *providers.Error
	if !errors.As(err, &pe) || pe.Kind != providers.KindAuth {
		t.Fatalf("err = %v", err)
	}
}
