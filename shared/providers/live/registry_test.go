package live

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"math"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/errtest"
	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/providers/live/vendorfake"
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
			if errtest.Want(t, err, tc.wantErr) {
				return
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

// Live mode pointed at fakes that follow the vendors' documented schemas
// (and refuse undocumented request members): every platform answers with
// its default model, cites the brand's own domain and costs something.
func TestFromEnvLiveAgainstStrictFakes(t *testing.T) {
	f := vendorfake.New(vendorfake.Answer{Brand: "Acme Notes", Domain: "acmenotes.com"})
	t.Cleanup(f.Close)
	s, err := FromEnv(envOf(f.Env()), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, pf := range platforms.All {
		t.Run(pf, func(t *testing.T) {
			a, err := s[pf].Answer(context.Background(), providers.Request{Query: "best note taking app"})
			if err != nil {
				t.Fatalf("err %v (refused: %v)", err, f.Refused())
			}
			if a.Platform != pf || !strings.Contains(a.Text, "Acme Notes") || a.Truncated {
				t.Errorf("answer %+v", a)
			}
			if a.CostUSD <= 0 || a.CostUnknown {
				t.Errorf("cost %v unknown %v (model %q)", a.CostUSD, a.CostUnknown, a.Model)
			}
			own := false
			for _, c := range a.Citations {
				if strings.HasPrefix(c.URL, "https://acmenotes.com/") {
					own = true
				}
			}
			if !own {
				t.Errorf("no citation of acmenotes.com: %+v", a.Citations)
			}
		})
	}
	if r := f.Refused(); len(r) > 0 {
		t.Errorf("the fakes refused: %v", r)
	}
	// SerpApi: the cached first search's token had expired, so the search
	// was run again uncached before the follow-up.
	if n := f.Count("/serpapi/search.json"); n != 3 {
		t.Errorf("%d SerpApi requests, want 3 (cached search, uncached search, follow-up)", n)
	}
	if n := f.Count("/grounding-api-redirect/AbC123"); n != 1 {
		t.Errorf("%d grounding redirect lookups, want 1", n)
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

func TestPriceLookup(t *testing.T) {
	b := NewPriceBook(nil)
	cases := []struct {
		model string
		in    float64
		ok    bool
	}{
		{"gpt-5.5", 5, true},
		{"gpt-5.5-2026-04-23", 5, true},
		{"gpt-5.5-pro", 30, true},
		{"gpt-5.6-sol", 0, false}, // newer model: unknown, never gpt-5's price
		{"gpt-5", 1.25, true},
		{"gpt-5-2025-08-07", 1.25, true},
		{"gpt-5-mini-2025-08-07", 0.25, true},
		{"gpt-5-codex", 0, false},
		{"claude-sonnet-4-6", 3, true},
		{"claude-opus-4-20250514", 15, true},
		{"claude-opus-4-1-20250805", 15, true},
		{"claude-opus-4-5-20251101", 5, true},
		{"claude-opus-4-7", 5, true},
		{"claude-opus-5-5", 0, false}, // not the old Opus rate
		{"claude-haiku-5-5", 0, false},
		{"models/gemini-2.5-flash-lite", 0.10, true},
		{"gemini-3.5-flash", 1.50, true},
		{"gemini-3.5-flash-lite", 0, false},
		{"gemini-2.5-flash-001", 0.30, true},
		{"perplexity/sonar", 0, false},
		{"", 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.model, func(t *testing.T) {
			p, ok := b.Lookup(tc.model)
			if ok != tc.ok || p.InputPerMTok != tc.in {
				t.Errorf("Lookup(%q) = %+v %v", tc.model, p, ok)
			}
		})
	}
}

// One case per vendor whose cost is estimated: every default model is
// priced, search fees counted in the vendor's unit.
func TestPriceApply(t *testing.T) {
	cases := []struct {
		name string
		u    Usage
		want float64
	}{
		{"openai gpt-5.5 snapshot, 3 searches", Usage{Model: "gpt-5.5-2026-04-23", Requested: DefaultChatGPTModel, InputTokens: 1000, OutputTokens: 500, Searches: 3},
			1000*5.0/1e6 + 500*30.0/1e6 + 3*0.01},
		{"anthropic sonnet 4.6, 2 searches", Usage{Model: "claude-sonnet-4-6", Requested: DefaultClaudeModel, InputTokens: 2100, OutputTokens: 120, Searches: 2},
			2100*3.0/1e6 + 120*15.0/1e6 + 2*0.01},
		{"gemini 3.5 flash bills each search query", Usage{Model: "gemini-3.5-flash", Requested: DefaultGeminiModel, InputTokens: 409, OutputTokens: 40, Searches: 2, GroundedPrompts: 1},
			409*1.5/1e6 + 40*9.0/1e6 + 2*0.014},
		{"gemini 2.5 bills the grounded prompt", Usage{Model: "gemini-2.5-flash", InputTokens: 100, OutputTokens: 10, Searches: 4, GroundedPrompts: 1},
			100*0.30/1e6 + 10*2.50/1e6 + 0.035},
		{"unknown response model, known request", Usage{Model: "gpt-5.5-2026-09-01-preview", Requested: "gpt-5.5", InputTokens: 1000},
			1000 * 5.0 / 1e6},
	}
	b := NewPriceBook(nil)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var a providers.Answer
			b.Apply(&a, tc.u)
			if a.CostUnknown || math.Abs(a.CostUSD-tc.want) > 1e-12 || a.CostUSD <= 0 {
				t.Errorf("cost %v unknown %v, want %v", a.CostUSD, a.CostUnknown, tc.want)
			}
		})
	}
}

// An unknown model is costUnknown (not $0 as if free) and logged once.
func TestPriceUnknownLoggedOnce(t *testing.T) {
	var buf bytes.Buffer
	b := NewPriceBook(slog.New(slog.NewJSONHandler(&buf, nil)))
	for range 3 {
		a := providers.Answer{CostUSD: 1}
		b.Apply(&a, Usage{Platform: "chatgpt", Model: "gpt-9", Requested: "gpt-9", InputTokens: 10})
		if !a.CostUnknown || a.CostUSD != 0 {
			t.Fatalf("answer %+v", a)
		}
	}
	if n := strings.Count(buf.String(), "not in the price table"); n != 1 {
		t.Errorf("%d log lines, want 1: %s", n, buf.String())
	}
}

// Every default model has a price, so no default call is ever free or
// unknown.
func TestDefaultModelsArePriced(t *testing.T) {
	b := NewPriceBook(nil)
	for _, m := range []string{DefaultChatGPTModel, DefaultClaudeModel, DefaultGeminiModel} {
		if _, ok := b.Lookup(m); !ok {
			t.Errorf("default model %s has no price", m)
		}
	}
}
