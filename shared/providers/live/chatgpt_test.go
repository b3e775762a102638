package live

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/providers/live/vendorfake"
)

func newTestChatGPT(base string, timeout time.Duration) providers.Provider {
	return NewChatGPT(Config{APIKey: testKey, BaseURL: base + "/v1/", Timeout: timeout})
}

func TestChatGPTSuccess(t *testing.T) {
	type cite = wantCite
	cases := []struct {
		answerCase
		sources   []string
		citations []cite
	}{
		{
			answerCase: answerCase{name: "reference example", fixture: "openai_response.json",
				text:  "Acme CRM is a common pick for agencies (acme.com).",
				model: "gpt-5.5-2026-04-23", in: 312, out: 148,
				cost: 312*5.0/1e6 + 148*30.0/1e6 + 0.01},
			sources:   []string{"https://acme.com/pricing"},
			citations: []cite{{URL: "https://acme.com/pricing", Span: "Acme CRM is a common pick for agencies (acme.com)"}},
		},
		{
			answerCase: answerCase{name: "code points, two parts, out-of-range index", fixture: "openai_response_unicode.json",
				text:  "Zoë Café CRM ☕ is loved.\n\nAcme is cheaper.",
				model: "gpt-5-2025-08-07", in: 1000, out: 100,
				cost: 1000*1.25/1e6 + 100*10.0/1e6 + 0.01},
			sources: []string{"https://zoe.example/", "https://acme.com/pricing"},
			citations: []cite{
				{URL: "https://zoe.example/", Span: "Zoë Café CRM"},
				{URL: "https://acme.com/pricing", Span: ""}, // 400 does not fit: -1/-1
				{URL: "https://acme.com/pricing", Span: "Acme"},
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, openAIStrict(func(w http.ResponseWriter) { reply(w, 200, nil, fixture(t, tc.fixture)) }))
			ans, err := newTestChatGPT(f.srv.URL, time.Second).Answer(context.Background(), providers.Request{Query: "best crm small agencies"})
			if err != nil {
				t.Fatal(err)
			}
			reqs := f.requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			rq := reqs[0]
			if rq.method != http.MethodPost || rq.path != "/v1/responses" {
				t.Errorf("request %s %s", rq.method, rq.path)
			}
			if got := rq.header.Get("Authorization"); got != "Bearer "+testKey {
				t.Errorf("Authorization = %q", got)
			}
			var body map[string]json.RawMessage
			if err := json.Unmarshal(rq.body, &body); err != nil {
				t.Fatal(err)
			}
			want := map[string]string{
				"model":   `"gpt-5.5"`,
				"input":   `"best crm small agencies"`,
				"tools":   `[{"type":"web_search"}]`,
				"include": `["web_search_call.action.sources"]`,
			}
			for k, v := range want {
				if string(body[k]) != v {
					t.Errorf("body.%s = %s, want %s", k, body[k], v)
				}
			}
			if len(body) != len(want) {
				t.Errorf("body has members %v, want exactly %v", keys(body), want)
			}

			if ans.Platform != "chatgpt" {
				t.Errorf("platform = %q", ans.Platform)
			}
			tc.check(t, ans)
			if !slices.Equal(ans.Sources, tc.sources) {
				t.Errorf("sources = %v", ans.Sources)
			}
			checkCitations(t, ans, tc.citations)
		})
	}
}

// openAIStrict answers like the Responses API: a member that the SDK's
// ResponseNewParams does not define is a 400 invalid_request_error.
func openAIStrict(answer func(w http.ResponseWriter)) func(w http.ResponseWriter, r *http.Request, n int) {
	return func(w http.ResponseWriter, r *http.Request, n int) {
		if err := vendorfake.CheckOpenAIResponses(mustBody(r)); err != nil {
			reply(w, 400, nil, `{"error":{"message":"`+err.Error()+`","type":"invalid_request_error","param":null,"code":"unknown_parameter"}}`)
			return
		}
		answer(w)
	}
}

// status incomplete with text is a truncated answer, kept and flagged;
// without text it fails.
func TestChatGPTIncomplete(t *testing.T) {
	body := `{"id":"resp_1","object":"response","status":"incomplete","model":"gpt-5.5","incomplete_details":{"reason":"max_output_tokens"},
	 "output":[{"type":"message","id":"m","status":"incomplete","role":"assistant","content":[{"type":"output_text","text":"Acme CRM is a common","annotations":[]}]}],
	 "usage":{"input_tokens":10,"output_tokens":128000,"total_tokens":128010}}`
	f := newFake(t, openAIStrict(func(w http.ResponseWriter) { reply(w, 200, nil, body) }))
	a, err := newTestChatGPT(f.srv.URL, time.Second).Answer(context.Background(), providers.Request{Query: "q"})
	if err != nil {
		t.Fatal(err)
	}
	if !a.Truncated || a.Text != "Acme CRM is a common" || a.CostUSD <= 0 {
		t.Errorf("answer %+v", a)
	}
}

func keys[M ~map[string]V, V any](m M) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func TestChatGPTErrors(t *testing.T) {
	rate := `{"error":{"message":"Rate limit reached for gpt-5.5","type":"requests","param":null,"code":"rate_limit_exceeded"}}`
	cases := []errCase{
		{name: "429 retry-after-ms", status: 429, header: map[string]string{"retry-after-ms": "1500", "retry-after": "9"}, body: rate,
			kind: providers.KindTransient, code: "rate_limit_exceeded", retryMin: 1500 * time.Millisecond, retryMax: 1500 * time.Millisecond},
		{name: "429 retry-after seconds", status: 429, header: map[string]string{"retry-after": "7"}, body: rate,
			kind: providers.KindTransient, retryMin: 7 * time.Second, retryMax: 7 * time.Second},
		{name: "429 retry-after date", status: 429, header: map[string]string{"retry-after": httpDate(30 * time.Second)}, body: rate,
			kind: providers.KindTransient, retryMin: 28 * time.Second, retryMax: 31 * time.Second},
		{name: "429 insufficient_quota", status: 429, header: map[string]string{"retry-after": "20"},
			body: `{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}`,
			kind: providers.KindQuota, code: "insufficient_quota"},
		{name: "500", status: 500, body: `{"error":{"message":"The server had an error","type":"server_error","param":null,"code":null}}`, kind: providers.KindTransient},
		{name: "503 html body", status: 503, body: `<html>upstream unavailable</html>`, kind: providers.KindTransient},
		{name: "401 echoes key", status: 401,
			body: `{"error":{"message":"Incorrect API key provided: sk-test-SECRETKEY0123456789. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`,
			kind: providers.KindAuth, code: "invalid_api_key"},
		{name: "403", status: 403, body: `{"error":{"message":"Country not supported","type":"invalid_request_error","code":"unsupported_country_region_territory"}}`, kind: providers.KindAuth},
		{name: "400", status: 400, body: `{"error":{"message":"Invalid value for 'include'","type":"invalid_request_error","param":"include","code":"invalid_value"}}`, kind: providers.KindInvalid, code: "invalid_value"},
		{name: "404", status: 404, body: `{"error":{"message":"The model does not exist","type":"invalid_request_error","code":"model_not_found"}}`, kind: providers.KindInvalid},
		{name: "422", status: 422, body: `{"error":{"message":"Unprocessable","type":"invalid_request_error","code":null}}`, kind: providers.KindInvalid},
		{name: "failed inside 200", status: 200,
			body: `{"id":"resp_1","object":"response","status":"failed","model":"gpt-5.5","error":{"code":"server_error","message":"The model failed"},"output":[]}`,
			kind: providers.KindFailedAnswer, code: "server_error"},
		{name: "incomplete inside 200", status: 200,
			body: `{"id":"resp_1","object":"response","status":"incomplete","model":"gpt-5.5","incomplete_details":{"reason":"max_output_tokens"},"output":[]}`,
			kind: providers.KindFailedAnswer, code: "incomplete"},
		{name: "cancelled inside 200", status: 200, body: `{"id":"resp_1","object":"response","status":"cancelled","output":[]}`,
			kind: providers.KindFailedAnswer, code: "cancelled"},
		{name: "empty text", status: 200,
			body: `{"id":"resp_1","object":"response","status":"completed","model":"gpt-5.5","output":[{"type":"web_search_call","id":"ws","status":"completed","action":{"type":"search","sources":[]}}],"usage":{"input_tokens":1,"output_tokens":0}}`,
			kind: providers.KindFailedAnswer, code: "empty_answer"},
		{name: "malformed JSON", status: 200, body: `{"id":"resp_1","output":[`, kind: providers.KindTransient, code: "malformed_response"},
		{name: "timeout", handler: func(w http.ResponseWriter, r *http.Request, n int) { hang(r) }, kind: providers.KindTransient, code: "timeout"},
	}
	runErrCases(t, cases, newTestChatGPT)
}

func TestChatGPTNetworkError(t *testing.T) {
	_, err := newTestChatGPT(closedURL(t), time.Second).Answer(context.Background(), providers.Request{Query: "q"})
	var pe *providers.Error
	if !errors.As(err, &pe) || pe.Kind != providers.KindTransient || pe.Code != "network" {
		t.Fatalf("err = %v", err)
	}
}

// A transport failure reaches the job record as a reason and a safe
// message: no address, resolver ("lookup x on 10.0.0.2:53") or URL. The raw
// cause stays in Detail, which only the logs get.
func TestNetworkErrorsNameNoInternals(t *testing.T) {
	cases := []struct{ name, url, reason, detail string }{
		{"refused", closedURL(t), "connection_refused", "127.0.0.1"},
		{"unresolvable", "http://brandlens-test.invalid", "dns_error", "lookup"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := newTestChatGPT(c.url, 5*time.Second).Answer(context.Background(), providers.Request{Query: "q"})
			var pe *providers.Error
			if !errors.As(err, &pe) || pe.Code != "network" {
				t.Fatalf("err = %v", err)
			}
			if !strings.Contains(pe.Message, "("+c.reason+")") {
				t.Errorf("message %q lacks reason %s", pe.Message, c.reason)
			}
			for _, leak := range []string{"127.0.0.1", "lookup", ":53", "dial tcp", "brandlens-test.invalid", "http://"} {
				if strings.Contains(err.Error(), leak) {
					t.Errorf("job-visible error %q holds %q", err.Error(), leak)
				}
			}
			if !strings.Contains(pe.Detail, c.detail) {
				t.Errorf("detail %q lacks %q", pe.Detail, c.detail)
			}
		})
	}
}
