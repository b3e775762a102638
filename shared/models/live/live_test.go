package live_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/models"
	"github.com/brandlens/brandlens/shared/models/live"
)

const key = "sk-test-SECRET-0123456789"

var prompt = []models.Message{
	{Role: models.RoleSystem, Content: "You are a content strategist. Answer with JSON."},
	{Role: models.RoleUser, Content: "Plan a page for \"best team wiki\".\n```json\n{\"task\":\"content_brief\"}\n```"},
}

// vendor describes one adapter and how its fake server speaks.
type vendor struct {
	name string
	new  func(cfg live.Config) models.Generator
	// path is the request path the adapter must call.
	path string
	// fields are the only request members the vendor documents for this call.
	fields []string
	// check verifies the request's authentication and body.
	check func(t *testing.T, r *http.Request, body map[string]any)
	// ok and cut answer with the text "ANSWER" (cut: stopped at the cap).
	ok, cut string
	// model and the tokens ok reports.
	model   string
	in, out int
	// errBody is the vendor's error body of a status, with its code.
	errBody func(status int, code, msg string) string
	// codes of a rate limit, an overload, bad auth, a bad request, quota.
	rateCode, overCode, authCode, badCode, quotaCode string
	overStatus, authStatus, quotaStatus              int
}

var vendors = []vendor{
	{
		name: "openai", new: func(c live.Config) models.Generator { return live.NewOpenAI(c) },
		path: "/v1/chat/completions", fields: []string{"model", "messages", "max_completion_tokens"},
		check: func(t *testing.T, r *http.Request, b map[string]any) {
			if r.Header.Get("Authorization") != "Bearer "+key {
				t.Errorf("authorization %q", r.Header.Get("Authorization"))
			}
			msgs, _ := b["messages"].([]any)
			if len(msgs) != 2 || msgs[0].(map[string]any)["role"] != "system" || msgs[0].(map[string]any)["content"] != prompt[0].Content ||
				msgs[1].(map[string]any)["role"] != "user" || msgs[1].(map[string]any)["content"] != prompt[1].Content {
				t.Errorf("messages %v", msgs)
			}
			if b["model"] != "gpt-5.5" || b["max_completion_tokens"] != float64(1000) {
				t.Errorf("model %v, cap %v", b["model"], b["max_completion_tokens"])
			}
		},
		ok:    `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-5.5-2026-04-23","choices":[{"index":0,"message":{"role":"assistant","content":"ANSWER","refusal":null},"finish_reason":"stop"}],"usage":{"prompt_tokens":1200,"completion_tokens":800,"total_tokens":2000}}`,
		cut:   `{"id":"chatcmpl-2","object":"chat.completion","created":1,"model":"gpt-5.5-2026-04-23","choices":[{"index":0,"message":{"role":"assistant","content":"ANSW","refusal":null},"finish_reason":"length"}],"usage":{"prompt_tokens":1200,"completion_tokens":1000,"total_tokens":2200}}`,
		model: "gpt-5.5-2026-04-23", in: 1200, out: 800,
		errBody: func(_ int, code, msg string) string {
			typ := code
			if code == "rate_limit_exceeded" {
				typ = "requests"
			}
			b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": code}})
			return string(b)
		},
		rateCode: "rate_limit_exceeded", overCode: "server_error", authCode: "invalid_api_key", badCode: "invalid_request_error", quotaCode: "insufficient_quota",
		overStatus: 503, authStatus: 401, quotaStatus: 429,
	},
	{
		name: "anthropic", new: func(c live.Config) models.Generator { return live.NewAnthropic(c) },
		path: "/v1/messages", fields: []string{"model", "max_tokens", "system", "messages"},
		check: func(t *testing.T, r *http.Request, b map[string]any) {
			if r.Header.Get("X-Api-Key") != key || r.Header.Get("Anthropic-Version") == "" {
				t.Errorf("headers %v", r.Header)
			}
			sys, _ := b["system"].([]any)
			msgs, _ := b["messages"].([]any)
			if len(sys) != 1 || sys[0].(map[string]any)["text"] != prompt[0].Content || len(msgs) != 1 || msgs[0].(map[string]any)["role"] != "user" {
				t.Errorf("system %v, messages %v", sys, msgs)
			} else if c := msgs[0].(map[string]any)["content"].([]any); c[0].(map[string]any)["text"] != prompt[1].Content {
				t.Errorf("user content %v", c)
			}
			if b["model"] != "claude-sonnet-4-6" || b["max_tokens"] != float64(1000) {
				t.Errorf("model %v, cap %v", b["model"], b["max_tokens"])
			}
		},
		ok:    `{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-6","content":[{"type":"text","text":"ANS"},{"type":"text","text":"WER"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1200,"output_tokens":800}}`,
		cut:   `{"id":"msg_2","type":"message","role":"assistant","model":"claude-sonnet-4-6","content":[{"type":"text","text":"ANSW"}],"stop_reason":"max_tokens","stop_sequence":null,"usage":{"input_tokens":1200,"output_tokens":1000}}`,
		model: "claude-sonnet-4-6", in: 1200, out: 800,
		errBody: func(_ int, code, msg string) string {
			b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]any{"type": code, "message": msg}})
			return string(b)
		},
		rateCode: "rate_limit_error", overCode: "overloaded_error", authCode: "authentication_error", badCode: "invalid_request_error", quotaCode: "billing_error",
		overStatus: 529, authStatus: 401, quotaStatus: 402,
	},
	{
		name: "gemini", new: func(c live.Config) models.Generator { return live.NewGemini(c) },
		path: "/v1beta/models/gemini-3.5-flash:generateContent", fields: []string{"contents", "systemInstruction", "generationConfig"},
		check: func(t *testing.T, r *http.Request, b map[string]any) {
			if r.Header.Get("X-Goog-Api-Key") != key {
				t.Errorf("x-goog-api-key %q", r.Header.Get("X-Goog-Api-Key"))
			}
			si, _ := b["systemInstruction"].(map[string]any)
			contents, _ := b["contents"].([]any)
			gc, _ := b["generationConfig"].(map[string]any)
			if si == nil || si["parts"].([]any)[0].(map[string]any)["text"] != prompt[0].Content || len(contents) != 1 ||
				contents[0].(map[string]any)["parts"].([]any)[0].(map[string]any)["text"] != prompt[1].Content {
				t.Errorf("systemInstruction %v, contents %v", si, contents)
			}
			if gc["maxOutputTokens"] != float64(1000) {
				t.Errorf("generationConfig %v", gc)
			}
		},
		ok:    `{"candidates":[{"content":{"role":"model","parts":[{"text":"ANSWER"}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":1200,"candidatesTokenCount":800,"totalTokenCount":2000},"modelVersion":"gemini-3.5-flash"}`,
		cut:   `{"candidates":[{"content":{"role":"model","parts":[{"text":"ANSW"}]},"finishReason":"MAX_TOKENS"}],"usageMetadata":{"promptTokenCount":1200,"candidatesTokenCount":1000,"totalTokenCount":2200},"modelVersion":"gemini-3.5-flash"}`,
		model: "gemini-3.5-flash", in: 1200, out: 800,
		errBody: func(status int, code, msg string) string {
			e := map[string]any{"code": status, "message": msg, "status": code}
			switch {
			case code == "RESOURCE_EXHAUSTED" && status == 429:
				e["details"] = []any{map[string]any{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "7s"}}
			case code == "INVALID_ARGUMENT" && strings.Contains(msg, "API key"):
				e["details"] = []any{map[string]any{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID", "domain": "googleapis.com"}}
			}
			b, _ := json.Marshal(map[string]any{"error": e})
			return string(b)
		},
		rateCode: "RESOURCE_EXHAUSTED", overCode: "UNAVAILABLE", authCode: "INVALID_ARGUMENT", badCode: "INVALID_ARGUMENT", quotaCode: "PERMISSION_DENIED",
		overStatus: 503, authStatus: 400, quotaStatus: 403,
	},
}

// answer is what one fake server says to one request.
type answer struct {
	status int
	body   string
	header map[string]string
	hang   bool // never answer: the client's timeout must end the call
}

// fake serves one vendor: it checks every request strictly, then answers.
func fake(t *testing.T, v vendor, a answer) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != v.path {
			t.Errorf("%s %s, want POST %s", r.Method, r.URL.Path, v.path)
			http.Error(w, "not found", 404)
			return
		}
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		if err := json.Unmarshal(raw, &body); err != nil {
			t.Errorf("request body: %v", err)
		}
		for k := range body {
			if !slices.Contains(v.fields, k) {
				t.Errorf("request member %q is not one the vendor documents here", k)
			}
		}
		v.check(t, r, body)
		if a.hang {
			<-r.Context().Done()
			return
		}
		for k, val := range a.header {
			w.Header().Set(k, val)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(a.status)
		io.WriteString(w, a.body)
	}))
	t.Cleanup(srv.Close)
	if v.name == "openai" {
		return srv.URL + "/v1/"
	}
	return srv.URL + "/"
}

// Every adapter, against a fake server of its vendor: success with tokens
// and cost, and each error kind.
func TestAdapters(t *testing.T) {
	for _, v := range vendors {
		t.Run(v.name, func(t *testing.T) {
			cases := []struct {
				name       string
				a          answer
				kind       models.Kind
				retryAfter time.Duration
			}{
				{"rate limit", answer{status: 429, body: v.errBody(429, v.rateCode, "slow down"), header: map[string]string{"Retry-After": "7"}}, models.KindRateLimited, 7 * time.Second},
				{"overload", answer{status: v.overStatus, body: v.errBody(v.overStatus, v.overCode, "overloaded")}, models.KindOverloaded, 0},
				{"auth", answer{status: v.authStatus, body: v.errBody(v.authStatus, v.authCode, "Incorrect API key provided: "+key)}, models.KindAuth, 0},
				{"bad request", answer{status: 400, body: v.errBody(400, v.badCode, "messages: too long")}, models.KindInvalid, 0},
				{"quota", answer{status: v.quotaStatus, body: v.errBody(v.quotaStatus, v.quotaCode, "You exceeded your current quota / credit balance is too low")}, models.KindQuota, 0},
				{"timeout", answer{hang: true}, models.KindTimeout, 0},
				{"truncated", answer{status: 200, body: v.cut}, models.KindTruncated, 0},
				{"unreadable body", answer{status: 200, body: `{"candidates": [`}, models.KindNetwork, 0},
			}
			if v.name == "gemini" {
				// Gemini's quota errors come as 429 too; a 403 is its auth refusal.
				cases[4].kind = models.KindAuth
			}
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					g := v.new(live.Config{APIKey: key, BaseURL: fake(t, v, tc.a), Timeout: 300 * time.Millisecond})
					_, err := g.Generate(context.Background(), models.Request{Messages: prompt, MaxOutputTokens: 1000})
					var me *models.Error
					if !errors.As(err, &me) {
						t.Fatalf("error %v (%T), want a models.Error", err, err)
					}
					if me.Kind != tc.kind || me.Vendor != v.name {
						t.Errorf("kind %s from %s, want %s (%v)", me.Kind, me.Vendor, tc.kind, err)
					}
					if tc.retryAfter > 0 && me.RetryAfter != tc.retryAfter {
						t.Errorf("retry after %s, want %s", me.RetryAfter, tc.retryAfter)
					}
					if strings.Contains(err.Error(), key) {
						t.Errorf("the error shows the key: %v", err)
					}
					retry := tc.kind == models.KindRateLimited || tc.kind == models.KindOverloaded || tc.kind == models.KindTimeout || tc.kind == models.KindNetwork
					if models.IsRetryable(err) != retry {
						t.Errorf("retryable %v, want %v", models.IsRetryable(err), retry)
					}
				})
			}
			t.Run("success", func(t *testing.T) {
				g := v.new(live.Config{APIKey: key, BaseURL: fake(t, v, answer{status: 200, body: v.ok}), Timeout: 5 * time.Second})
				resp, err := g.Generate(context.Background(), models.Request{Messages: prompt, MaxOutputTokens: 1000})
				if err != nil {
					t.Fatal(err)
				}
				want, known := models.Cost(v.model, v.in, v.out)
				if resp.Text != "ANSWER" || resp.Vendor != v.name || resp.Model != v.model || resp.InputTokens != v.in || resp.OutputTokens != v.out {
					t.Errorf("response %+v", resp)
				}
				if !known || !resp.CostKnown || math.Abs(resp.CostUSD-want) > 1e-12 || resp.CostUSD <= 0 {
					t.Errorf("cost %v (known %v), want %v", resp.CostUSD, resp.CostKnown, want)
				}
			})
		})
	}
}

// A vendor that cannot be reached fails with a reason and a message that
// names no address, resolver or URL: the message goes to the job and the
// audit log.
func TestNetworkFailureNamesNoInternals(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close()
	for _, v := range vendors {
		t.Run(v.name, func(t *testing.T) {
			g := v.new(live.Config{APIKey: key, BaseURL: closed, Timeout: 5 * time.Second})
			_, err := g.Generate(context.Background(), models.Request{Messages: prompt, MaxOutputTokens: 1000})
			var me *models.Error
			if !errors.As(err, &me) || me.Kind != models.KindNetwork || !strings.Contains(me.Message, "connection_refused") {
				t.Fatalf("error %v, want a network error naming connection_refused", err)
			}
			for _, leak := range []string{"127.0.0.1", "dial tcp", "http://"} {
				if strings.Contains(err.Error(), leak) {
					t.Errorf("error %q holds %q", err.Error(), leak)
				}
			}
		})
	}
}

func TestFromEnv(t *testing.T) {
	offline := models.Generator(nil)
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		name    string
		vars    map[string]string
		want    string // type of the generator, "" for the offline one
		wantErr bool
	}{
		{"default is offline", map[string]string{}, "", false},
		{"offline", map[string]string{"BRANDLENS_MODELS": "offline"}, "", false},
		{"openai", map[string]string{"BRANDLENS_MODELS": "openai", "OPENAI_API_KEY": key}, "*live.OpenAI", false},
		{"anthropic", map[string]string{"BRANDLENS_MODELS": "Anthropic", "ANTHROPIC_API_KEY": key}, "*live.Anthropic", false},
		{"gemini", map[string]string{"BRANDLENS_MODELS": "gemini", "GEMINI_API_KEY": key, "BRANDLENS_MODEL_TIMEOUT": "90s"}, "*live.Gemini", false},
		{"unknown mode", map[string]string{"BRANDLENS_MODELS": "llama"}, "", true},
		{"bad timeout", map[string]string{"BRANDLENS_MODELS": "openai", "OPENAI_API_KEY": key, "BRANDLENS_MODEL_TIMEOUT": "soon"}, "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g, err := live.FromEnv(env(tc.vars), nil, offline)
			if (err != nil) != tc.wantErr {
				t.Fatalf("error %v", err)
			}
			if got := typeName(g); err == nil && got != tc.want && !(tc.want == "" && g == nil) {
				t.Errorf("generator %s, want %s", got, tc.want)
			}
		})
	}
	// A vendor without a key starts, and each call names the variable.
	g, err := live.FromEnv(env(map[string]string{"BRANDLENS_MODELS": "anthropic"}), nil, offline)
	if err != nil {
		t.Fatal(err)
	}
	_, err = g.Generate(context.Background(), models.Request{Messages: prompt})
	var me *models.Error
	if !errors.As(err, &me) || me.Kind != models.KindAuth || !strings.Contains(me.Message, "ANTHROPIC_API_KEY") {
		t.Errorf("missing key: %v", err)
	}
	// Without the live adapters, only offline works.
	if _, err := models.FromEnv(env(map[string]string{"BRANDLENS_MODELS": "openai"}), offline); err == nil {
		t.Error("models.FromEnv accepted a vendor mode")
	}
}

func typeName(g models.Generator) string {
	if g == nil {
		return ""
	}
	return fmt.Sprintf("%T", g)
}
