package live

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/providers/live/vendorfake"
)

var newTestClaude = testProvider(NewClaude)

type claudeBody struct {
	Model     string `json:"model"`
	MaxTokens int    `json:"max_tokens"`
	Messages  []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []map[string]any `json:"tools"`
}

func checkClaudeRequest(t *testing.T, rq recorded) claudeBody {
	t.Helper()
	if rq.method != http.MethodPost || rq.path != "/v1/messages" {
		t.Errorf("request %s %s", rq.method, rq.path)
	}
	if rq.header.Get("x-api-key") != testKey || rq.header.Get("anthropic-version") != "2023-06-01" {
		t.Errorf("headers x-api-key=%q anthropic-version=%q", rq.header.Get("x-api-key"), rq.header.Get("anthropic-version"))
	}
	var b claudeBody
	if err := json.Unmarshal(rq.body, &b); err != nil {
		t.Fatal(err)
	}
	if err := vendorfake.CheckAnthropicMessages(rq.body); err != nil {
		t.Errorf("request refused by the Messages schema: %v", err)
	}
	if b.Model != DefaultClaudeModel || b.MaxTokens != claudeMaxTokens || len(b.Messages) == 0 || b.Messages[0].Role != "user" ||
		!strings.Contains(string(b.Messages[0].Content), "best crm small agencies") {
		t.Errorf("body = %s", rq.body)
	}
	if len(b.Tools) != 1 || b.Tools[0]["type"] != "web_search_20250305" || b.Tools[0]["name"] != "web_search" || b.Tools[0]["max_uses"] != float64(3) {
		t.Errorf("tools = %v", b.Tools)
	}
	return b
}

func TestClaudeSuccess(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) {
		reply(w, 200, nil, fixture(t, "claude_response.json"))
	})
	ans, err := newTestClaude(f.srv.URL, time.Second).Answer(context.Background(), providers.Request{Query: "best crm small agencies"})
	if err != nil {
		t.Fatal(err)
	}
	checkClaudeRequest(t, f.requests()[0])
	want := 2100*3.0/1e6 + 120*15.0/1e6 + 0.01
	if ans.Text != "Acme CRM is popular with agencies." || ans.Model != "claude-sonnet-4-6" ||
		ans.InputTokens != 2100 || ans.OutputTokens != 120 || math.Abs(ans.CostUSD-want) > 1e-12 || ans.Latency <= 0 {
		t.Errorf("answer = %+v", ans)
	}
	if len(ans.Sources) != 1 || ans.Sources[0] != "https://acme.com/pricing" {
		t.Errorf("sources = %v", ans.Sources)
	}
	checkSpans(t, ans)
	if len(ans.Citations) != 1 || spanOf(ans.Text, ans.Citations[0]) != ans.Text ||
		ans.Citations[0].URL != "https://acme.com/pricing" || ans.Citations[0].Snippet != "Acme is built for agencies" {
		t.Errorf("citations = %+v", ans.Citations)
	}
}

func TestClaudePauseTurn(t *testing.T) {
	t.Run("continues", func(t *testing.T) {
		f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) {
			if n == 0 {
				reply(w, 200, nil, fixture(t, "claude_pause_turn.json"))
				return
			}
			reply(w, 200, nil, fixture(t, "claude_continued.json"))
		})
		ans, err := newTestClaude(f.srv.URL, time.Second).Answer(context.Background(), providers.Request{Query: "best crm small agencies"})
		if err != nil {
			t.Fatal(err)
		}
		reqs := f.requests()
		if len(reqs) != 2 {
			t.Fatalf("%d requests, want 2", len(reqs))
		}
		b := checkClaudeRequest(t, reqs[1])
		if len(b.Messages) != 2 || b.Messages[1].Role != "assistant" {
			t.Fatalf("continuation messages = %s", reqs[1].body)
		}
		cont := string(b.Messages[1].Content)
		for _, s := range []string{`"server_tool_use"`, `"web_search_tool_result"`, `"enc1"`, `Let me look that up.`} {
			if !strings.Contains(cont, s) {
				t.Errorf("continuation lacks %s: %s", s, cont)
			}
		}
		if ans.Text != "Let me look that up. Zoë CRM ☕ suits agencies. Acme is cheaper." {
			t.Errorf("text = %q", ans.Text)
		}
		if ans.InputTokens != 2500 || ans.OutputTokens != 120 {
			t.Errorf("tokens = %d/%d", ans.InputTokens, ans.OutputTokens)
		}
		want := 2500*3.0/1e6 + 120*15.0/1e6 + 0.01
		if math.Abs(ans.CostUSD-want) > 1e-12 {
			t.Errorf("cost = %v, want %v", ans.CostUSD, want)
		}
		checkSpans(t, ans)
		spans := []string{"Zoë CRM ☕ suits agencies.", " Acme is cheaper."}
		if len(ans.Citations) != 2 {
			t.Fatalf("citations = %+v", ans.Citations)
		}
		for i, s := range spans {
			if got := spanOf(ans.Text, ans.Citations[i]); got != s {
				t.Errorf("citation %d span = %q, want %q", i, got, s)
			}
		}
	})
	t.Run("bounded", func(t *testing.T) {
		f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) {
			reply(w, 200, nil, fixture(t, "claude_pause_turn.json"))
		})
		_, err := newTestClaude(f.srv.URL, time.Second).Answer(context.Background(), providers.Request{Query: "best crm small agencies"})
		var pe *providers.Error
		if !errors.As(err, &pe) || pe.Kind != providers.KindFailedAnswer || pe.Code != "pause_turn" {
			t.Fatalf("err = %v", err)
		}
		if n := len(f.requests()); n != 1+claudeMaxContinuations {
			t.Errorf("%d requests, want %d", n, 1+claudeMaxContinuations)
		}
	})
}

// stop_reason max_tokens (or the context window) marks the answer
// truncated; end_turn does not.
func TestClaudeTruncated(t *testing.T) {
	for _, tc := range []struct {
		stop      string
		truncated bool
	}{{"end_turn", false}, {"max_tokens", true}, {"model_context_window_exceeded", true}} {
		t.Run(tc.stop, func(t *testing.T) {
			body := `{"id":"m","type":"message","role":"assistant","model":"claude-sonnet-4-6","stop_reason":"` + tc.stop + `",
			 "content":[{"type":"text","text":"Acme is the pick because","citations":null}],"usage":{"input_tokens":10,"output_tokens":8192}}`
			f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) { reply(w, 200, nil, body) })
			a, err := newTestClaude(f.srv.URL, time.Second).Answer(context.Background(), providers.Request{Query: "q"})
			if err != nil {
				t.Fatal(err)
			}
			if a.Truncated != tc.truncated || a.Text != "Acme is the pick because" {
				t.Errorf("answer %+v", a)
			}
		})
	}
}

func TestClaudeMaxUsesAfterResults(t *testing.T) {
	body := `{"id":"m","type":"message","role":"assistant","model":"claude-sonnet-4-6","stop_reason":"end_turn","content":[
	 {"type":"web_search_tool_result","tool_use_id":"a","content":[{"type":"web_search_result","url":"https://acme.com/","title":"Acme"}]},
	 {"type":"web_search_tool_result","tool_use_id":"b","content":{"type":"web_search_tool_result_error","error_code":"max_uses_exceeded"}},
	 {"type":"text","text":"Acme is fine.","citations":null}],"usage":{"input_tokens":1,"output_tokens":1}}`
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) { reply(w, 200, nil, body) })
	ans, err := newTestClaude(f.srv.URL, time.Second).Answer(context.Background(), providers.Request{Query: "q"})
	if err != nil || ans.Text != "Acme is fine." {
		t.Fatalf("answer %+v err %v", ans, err)
	}
}

func TestClaudeErrors(t *testing.T) {
	envelope := func(typ, msg string) string {
		return `{"type":"error","error":{"type":"` + typ + `","message":"` + msg + `"},"request_id":"req_1"}`
	}
	cases := []errCase{
		{name: "429 retry-after seconds", status: 429, header: map[string]string{"retry-after": "12"}, body: envelope("rate_limit_error", "Number of requests has exceeded your rate limit"),
			kind: providers.KindTransient, code: "rate_limit_error", retryMin: 12 * time.Second, retryMax: 12 * time.Second},
		{name: "429 retry-after date", status: 429, header: map[string]string{"retry-after": httpDate(15 * time.Second)}, body: envelope("rate_limit_error", "slow down"),
			kind: providers.KindTransient, retryMin: 13 * time.Second, retryMax: 16 * time.Second},
		{name: "429 retry-after-ms", status: 429, header: map[string]string{"retry-after-ms": "800"}, body: envelope("rate_limit_error", "slow down"),
			kind: providers.KindTransient, retryMin: 800 * time.Millisecond, retryMax: 800 * time.Millisecond},
		{name: "529 overloaded", status: 529, body: envelope("overloaded_error", "Overloaded"), kind: providers.KindTransient, code: "overloaded_error"},
		{name: "500", status: 500, body: envelope("api_error", "Internal server error"), kind: providers.KindTransient, code: "api_error"},
		{name: "502 non-JSON", status: 502, body: `<html>bad gateway</html>`, kind: providers.KindTransient},
		{name: "402 billing", status: 402, body: envelope("billing_error", "Payment required"), kind: providers.KindQuota, code: "billing_error"},
		{name: "400 credit balance", status: 400, body: envelope("invalid_request_error", "Your credit balance is too low to access the Anthropic API."), kind: providers.KindQuota},
		{name: "401 echoes key", status: 401, body: envelope("authentication_error", "invalid x-api-key sk-test-SECRETKEY0123456789"), kind: providers.KindAuth, code: "authentication_error"},
		{name: "403", status: 403, body: envelope("permission_error", "Your API key does not have permission"), kind: providers.KindAuth},
		{name: "400", status: 400, body: envelope("invalid_request_error", "max_tokens: field required"), kind: providers.KindInvalid, code: "invalid_request_error"},
		{name: "404", status: 404, body: envelope("not_found_error", "model: claude-x"), kind: providers.KindInvalid},
		{name: "tool error inside 200", status: 200, body: fixture(t, "claude_tool_error.json"), kind: providers.KindFailedAnswer, code: "web_search_unavailable"},
		{name: "empty text inside 200", status: 200,
			body: `{"id":"m","type":"message","role":"assistant","model":"claude-sonnet-4-6","stop_reason":"end_turn","content":[{"type":"server_tool_use","id":"s","name":"web_search","input":{}}],"usage":{"input_tokens":1,"output_tokens":1}}`,
			kind: providers.KindFailedAnswer, code: "empty_answer"},
		{name: "refusal inside 200", status: 200,
			body: `{"id":"m","type":"message","role":"assistant","model":"claude-sonnet-4-6","stop_reason":"refusal","content":[{"type":"text","text":"I can't help."}],"usage":{"input_tokens":1,"output_tokens":1}}`,
			kind: providers.KindFailedAnswer, code: "refusal"},
		{name: "malformed JSON", status: 200, body: `{"id":"m","content":[`, kind: providers.KindTransient, code: "malformed_response"},
		{name: "timeout", handler: func(w http.ResponseWriter, r *http.Request, n int) { hang(r) }, kind: providers.KindTransient, code: "timeout"},
	}
	runErrCases(t, cases, newTestClaude)
}
