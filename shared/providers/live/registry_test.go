package live

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/providers"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestFromEnvModes(t *testing.T) {
	replayPath := filepath.Join("testdata", "replay.json")
	cases := []struct {
		name    string
		env     map[string]string
		wantErr string
		check   func(t *testing.T, s providers.Set)
	}{
		{name: "default is simulated", env: map[string]string{}, check: func(t *testing.T, s providers.Set) {
			for _, pf := range platforms.All {
				if _, ok := s[pf].(*providers.Simulated); !ok {
					t.Errorf("%s: %T", pf, s[pf])
				}
			}
		}},
		{name: "simulated explicit", env: map[string]string{"BRANDLENS_PROVIDERS": " Simulated "}},
		{name: "replay", env: map[string]string{"BRANDLENS_PROVIDERS": "replay", "BRANDLENS_REPLAY_FILE": replayPath}, check: func(t *testing.T, s providers.Set) {
			a, err := s[platforms.ChatGPT].Answer(context.Background(), providers.Request{Query: "best crm for small agencies"})
			if err != nil || a.Text != "Acme CRM is a common pick." {
				t.Errorf("answer %+v err %v", a, err)
			}
			_, err = s[platforms.Gemini].Answer(context.Background(), providers.Request{Query: "best crm for small agencies"})
			var pe *providers.Error
			if !errors.As(err, &pe) || pe.Kind != providers.KindNoAnswer {
				t.Errorf("gemini err = %v", err)
			}
		}},
		{name: "replay without file", env: map[string]string{"BRANDLENS_PROVIDERS": "replay"}, wantErr: "BRANDLENS_REPLAY_FILE"},
		{name: "replay with bad file", env: map[string]string{"BRANDLENS_PROVIDERS": "replay", "BRANDLENS_REPLAY_FILE": "testdata/openai_response.json"}, wantErr: "unknown field"},
		{name: "unknown mode", env: map[string]string{"BRANDLENS_PROVIDERS": "copilot"}, wantErr: "want simulated, replay or live"},
		{name: "bad timeout", env: map[string]string{"BRANDLENS_PROVIDERS": "live", "BRANDLENS_PROVIDER_TIMEOUT": "soon"}, wantErr: "BRANDLENS_PROVIDER_TIMEOUT"},
		{name: "live without keys", env: map[string]string{"BRANDLENS_PROVIDERS": "live"}, check: func(t *testing.T, s providers.Set) {
			keys := map[string]string{platforms.ChatGPT: "OPENAI_API_KEY", platforms.Perplexity: "PERPLEXITY_API_KEY",
				platforms.Gemini: "GEMINI_API_KEY", platforms.Claude: "ANTHROPIC_API_KEY", platforms.GoogleAIOverview: "SERPAPI_API_KEY"}
			for _, pf := range platforms.All {
				_, err := s[pf].Answer(context.Background(), providers.Request{Query: "q"})
				var pe *providers.Error
				if !errors.As(err, &pe) || pe.Kind != providers.KindAuth || !strings.Contains(pe.Message, keys[pf]) || s[pf].Platform() != pf {
					t.Errorf("%s: err = %v", pf, err)
				}
			}
		}},
		{name: "live with keys", env: map[string]string{"BRANDLENS_PROVIDERS": "LIVE", "OPENAI_API_KEY": "k1", "PERPLEXITY_API_KEY": "k2",
			"GEMINI_API_KEY": "k3", "ANTHROPIC_API_KEY": "k4", "SERPAPI_API_KEY": "k5", "BRANDLENS_PROVIDER_TIMEOUT": "5s",
			"BRANDLENS_MODEL_CHATGPT": "gpt-5-mini", "BRANDLENS_MODEL_CLAUDE": "claude-haiku-4-5", "BRANDLENS_MODEL_GEMINI": "gemini-2.5-pro", "BRANDLENS_MODEL_PERPLEXITY": "perplexity/sonar-pro"},
			check: func(t *testing.T, s providers.Set) {
				if p := s[platforms.ChatGPT].(*ChatGPT); p.model != "gpt-5-mini" || p.cfg.Timeout != 5*time.Second {
					t.Errorf("chatgpt %q %s", p.model, p.cfg.Timeout)
				}
				if p := s[platforms.Claude].(*Claude); p.model != "claude-haiku-4-5" {
					t.Errorf("claude %q", p.model)
				}
				if p := s[platforms.Gemini].(*Gemini); p.model != "gemini-2.5-pro" || p.initErr != nil {
					t.Errorf("gemini %q %v", p.model, p.initErr)
				}
				if p := s[platforms.Perplexity].(*Perplexity); p.model != "perplexity/sonar-pro" || p.url != DefaultPerplexityBaseURL+"/v1/responses" {
					t.Errorf("perplexity %q %q", p.model, p.url)
				}
				if p := s[platforms.GoogleAIOverview].(*GoogleAIOverview); p.url != DefaultSerpAPIBaseURL+"/search.json" {
					t.Errorf("serpapi %q", p.url)
				}
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := FromEnv(envOf(tc.env), nil)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(s) != len(platforms.All) {
				t.Errorf("set has %d providers", len(s))
			}
			for pf, p := range s {
				if p.Platform() != pf {
					t.Errorf("%s provider reports %s", pf, p.Platform())
				}
			}
			if tc.check != nil {
				tc.check(t, s)
			}
		})
	}
}

// Base URL overrides reach the adapters: each live platform is pointed at
// a fake answering its documented shape.
func TestFromEnvLiveBaseURLs(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) {
		switch {
		case r.URL.Path == "/v1/responses" && strings.HasPrefix(r.Header.Get("Authorization"), "Bearer pplx"):
			reply(w, 200, nil, fixture(t, "perplexity_response.json"))
		case r.URL.Path == "/v1/responses":
			reply(w, 200, nil, fixture(t, "openai_response.json"))
		case strings.HasSuffix(r.URL.Path, ":generateContent"):
			reply(w, 200, nil, fixture(t, "gemini_response.json"))
		case r.URL.Path == "/v1/messages":
			reply(w, 200, nil, fixture(t, "claude_response.json"))
		case r.URL.Path == "/search.json":
			reply(w, 200, nil, fixture(t, "serpapi_present.json"))
		default:
			reply(w, 404, nil, `{}`)
		}
	})
	env := map[string]string{"BRANDLENS_PROVIDERS": "live",
		"OPENAI_API_KEY": "sk-o", "PERPLEXITY_API_KEY": "pplx-k", "GEMINI_API_KEY": "g", "ANTHROPIC_API_KEY": "a", "SERPAPI_API_KEY": "s",
		"OPENAI_BASE_URL": f.srv.URL + "/v1", "PERPLEXITY_BASE_URL": f.srv.URL, "GEMINI_BASE_URL": f.srv.URL,
		"ANTHROPIC_BASE_URL": f.srv.URL, "SERPAPI_BASE_URL": f.srv.URL}
	s, err := FromEnv(envOf(env), &http.Client{})
	if err != nil {
		t.Fatal(err)
	}
	for _, pf := range platforms.All {
		t.Run(pf, func(t *testing.T) {
			a, err := s[pf].Answer(context.Background(), providers.Request{Query: "best crm small agencies"})
			if err != nil || a.Text == "" || a.Platform != pf {
				t.Fatalf("answer %+v err %v", a, err)
			}
		})
	}
}

func TestRetryAfter(t *testing.T) {
	cases := []struct {
		name     string
		header   map[string]string
		min, max time.Duration
	}{
		{"none", nil, 0, 0},
		{"ms wins", map[string]string{"Retry-After-Ms": "1200", "Retry-After": "30"}, 1200 * time.Millisecond, 1200 * time.Millisecond},
		{"seconds", map[string]string{"Retry-After": "30"}, 30 * time.Second, 30 * time.Second},
		{"fractional seconds", map[string]string{"Retry-After": "0.5"}, 500 * time.Millisecond, 500 * time.Millisecond},
		{"date", map[string]string{"Retry-After": httpDate(90 * time.Second)}, 88 * time.Second, 91 * time.Second},
		{"past date", map[string]string{"Retry-After": httpDate(-time.Hour)}, 0, 0},
		{"garbage", map[string]string{"Retry-After": "soon", "Retry-After-Ms": "x"}, 0, 0},
		{"negative", map[string]string{"Retry-After": "-3"}, 0, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tc.header {
				h.Set(k, v)
			}
			if got := retryAfter(h); got < tc.min || got > tc.max {
				t.Errorf("retryAfter = %s, want [%s, %s]", got, tc.min, tc.max)
			}
		})
	}
}

func TestSafeText(t *testing.T) {
	cases := []struct{ in, key, notWant string }{
		{"Incorrect API key provided: mykey-123456", "mykey-123456", "mykey-123456"},
		{"Incorrect API key provided: sk-proj-abc123def456", "", "abc123def456"},
		{"bad key AIzaSyA1234567890abcdefghij", "", "AIzaSyA1234567890"},
		{"GET https://serpapi.com/search.json?q=x&api_key=0123456789abcdef failed", "", "0123456789abcdef"},
		{"key pplx-abcdef123456 rejected", "", "abcdef123456"},
	}
	for _, tc := range cases {
		got := safeText(tc.in, tc.key)
		if strings.Contains(got, tc.notWant) {
			t.Errorf("safeText(%q) = %q", tc.in, got)
		}
	}
	long := safeText(strings.Repeat("é", 1000)+"\x00\n", "")
	if n := len([]rune(long)); n > 301 || strings.ContainsRune(long, 0) {
		t.Errorf("long text kept %d runes", n)
	}
}

func TestPrices(t *testing.T) {
	cases := []struct {
		model string
		in    float64
		ok    bool
	}{
		{"gpt-5", 1.25, true},
		{"gpt-5-2025-08-07", 1.25, true},
		{"gpt-5-mini-2025-08-07", 0.25, true},
		{"gpt-5.5-2026-04-23", 0, false},
		{"claude-sonnet-4-6", 3, true},
		{"claude-opus-4-5-20251101", 5, true},
		{"claude-opus-4-1-20250805", 15, true},
		{"models/gemini-2.5-flash-lite", 0.10, true},
		{"gemini-2.5-flash", 0.30, true},
		{"gemini-3.5-flash", 0, false},
		{"", 0, false},
	}
	for _, tc := range cases {
		p, ok := priceFor(tc.model)
		if ok != tc.ok || p.InputPerMTok != tc.in {
			t.Errorf("priceFor(%q) = %+v %v", tc.model, p, ok)
		}
	}
	if c := estimateCost("unknown-model", 1000, 1000, 3); c != 0 {
		t.Errorf("unknown model cost %v", c)
	}
}
