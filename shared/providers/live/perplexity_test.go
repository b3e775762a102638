package live

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/providers/live/vendorfake"
)

var newTestPerplexity = testProvider(NewPerplexity)

// pplxBody is what the adapter sends, read back.
type pplxBody struct {
	Model string `json:"model"`
	Input string `json:"input"`
	Tools []struct {
		Type string `json:"type"`
	} `json:"tools"`
	MaxOutputTokens int `json:"max_output_tokens"`
}

// pplxStrict answers like the Agent API: a member that perplexity-node's
// ResponseCreateParams does not define is a 400 with the SDKs' ErrorInfo
// shape (code a string).
func pplxStrict(t *testing.T, answer func(w http.ResponseWriter)) func(w http.ResponseWriter, r *http.Request, n int) {
	return func(w http.ResponseWriter, r *http.Request, n int) {
		if err := vendorfake.CheckPerplexityResponses(mustBody(r)); err != nil {
			reply(w, 400, nil, `{"error":{"message":"`+err.Error()+`","type":"invalid_request_error","code":"invalid_request"}}`)
			return
		}
		answer(w)
	}
}

func TestPerplexitySuccess(t *testing.T) {
	type cite struct{ url, span, snippet string }
	cases := []struct {
		answerCase
		reqModel  string // Config.Model ("": the default)
		citations []cite
	}{
		{
			answerCase: answerCase{name: "reference example", fixture: "perplexity_response.json",
				text: "Acme CRM is popular with agencies [1].", model: "perplexity/sonar",
				cost: 0.00511, in: 20, out: 90},
			citations: []cite{{"https://acme.com/pricing", "[1]", "..."}},
		},
		{
			answerCase: answerCase{name: "markers in code points, results after message, unknown marker", fixture: "perplexity_response_multi.json",
				text: "Zoë CRM — fast [2][1]. Beta has no source [7].", model: "perplexity/sonar-pro",
				cost: 0.006, in: 30, out: 50},
			reqModel:  "perplexity/sonar-pro",
			citations: []cite{{"https://zoe.example/", "[2]", "Zoë CRM"}, {"https://acme.com/pricing", "[1]", "Acme plans"}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, pplxStrict(t, func(w http.ResponseWriter) { reply(w, 200, nil, fixture(t, tc.fixture)) }))
			p := NewPerplexity(Config{APIKey: testKey, BaseURL: f.srv.URL + "/", Model: tc.reqModel, Timeout: time.Second})
			ans, err := p.Answer(context.Background(), providers.Request{Query: "best crm small agencies"})
			if err != nil {
				t.Fatal(err)
			}
			rq := f.requests()[0]
			if rq.method != http.MethodPost || rq.path != "/v1/responses" {
				t.Errorf("request %s %s", rq.method, rq.path)
			}
			if rq.header.Get("Authorization") != "Bearer "+testKey {
				t.Errorf("Authorization = %q", rq.header.Get("Authorization"))
			}
			var b pplxBody
			if err := json.Unmarshal(rq.body, &b); err != nil {
				t.Fatal(err)
			}
			wantModel := tc.reqModel
			if wantModel == "" {
				wantModel = DefaultPerplexityModel
			}
			if b.Model != wantModel || b.Input != "best crm small agencies" ||
				len(b.Tools) != 1 || b.Tools[0].Type != "web_search" || b.MaxOutputTokens != pplxMaxOutputTokens {
				t.Errorf("request body = %s", rq.body)
			}

			tc.check(t, ans)
			if len(ans.Citations) != len(tc.citations) {
				t.Fatalf("citations = %+v", ans.Citations)
			}
			for i, c := range tc.citations {
				got := ans.Citations[i]
				if got.URL != c.url || spanOf(ans.Text, got) != c.span || got.Snippet != c.snippet {
					t.Errorf("citation %d = %+v (span %q), want %s %q", i, got, spanOf(ans.Text, got), c.url, c.span)
				}
			}
			if !slices.Contains(ans.Sources, "https://acme.com/pricing") {
				t.Errorf("sources = %v", ans.Sources)
			}
		})
	}
}

// The adapter's own request passes the strict schema, and the old
// tool_choice member (which the SDKs do not define) is refused by it.
func TestPerplexityRequestSchema(t *testing.T) {
	f := newFake(t, pplxStrict(t, func(w http.ResponseWriter) { reply(w, 200, nil, fixture(t, "perplexity_response.json")) }))
	if _, err := newTestPerplexity(f.srv.URL, time.Second).Answer(context.Background(), providers.Request{Query: "q"}); err != nil {
		t.Fatal(err)
	}
	withToolChoice := `{"model":"perplexity/sonar","input":"q","tools":[{"type":"web_search"}],"tool_choice":{"type":"web_search"}}`
	if err := vendorfake.CheckPerplexityResponses([]byte(withToolChoice)); err == nil || !strings.Contains(err.Error(), "tool_choice") {
		t.Errorf("tool_choice accepted: %v", err)
	}
}

// A cut answer is recorded as such, never as complete; a missing cost is
// unknown, not free.
func TestPerplexityTruncatedAndCost(t *testing.T) {
	msg := `{"type":"message","id":"m","role":"assistant","status":"completed","content":[{"type":"output_text","text":"Acme is","annotations":[]}]}`
	cases := []struct {
		name        string
		body        string
		truncated   bool
		costUnknown bool
	}{
		{"whole budget used", `{"id":"r","object":"response","model":"perplexity/sonar","status":"completed","output":[` + msg + `],"usage":{"input_tokens":5,"output_tokens":8192,"total_tokens":8197,"cost":{"currency":"USD","total_cost":0.01}}}`, true, false},
		{"status incomplete", `{"id":"r","object":"response","model":"perplexity/sonar","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"output":[` + msg + `],"usage":{"input_tokens":5,"output_tokens":10,"total_tokens":15,"cost":{"currency":"USD","total_cost":0.01}}}`, true, false},
		{"complete without cost", `{"id":"r","object":"response","model":"perplexity/sonar","status":"completed","output":[` + msg + `],"usage":{"input_tokens":5,"output_tokens":10,"total_tokens":15}}`, false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, pplxStrict(t, func(w http.ResponseWriter) { reply(w, 200, nil, tc.body) }))
			a, err := newTestPerplexity(f.srv.URL, time.Second).Answer(context.Background(), providers.Request{Query: "q"})
			if err != nil {
				t.Fatal(err)
			}
			if a.Text != "Acme is" || a.Truncated != tc.truncated || a.CostUnknown != tc.costUnknown {
				t.Errorf("answer %+v", a)
			}
		})
	}
}

func mustBody(r *http.Request) []byte {
	var buf bytes.Buffer
	_, _ = buf.ReadFrom(r.Body)
	return buf.Bytes()
}

func TestPerplexityErrors(t *testing.T) {
	// ErrorInfo of perplexity-node: {message, type?, code?: string}.
	rate := `{"error":{"message":"Rate limit exceeded","type":"request_rate_limit_exceeded","code":"rate_limit_exceeded"}}`
	cases := []errCase{
		{name: "429 retry-after seconds", status: 429, header: map[string]string{"Retry-After": "3"}, body: rate,
			kind: providers.KindTransient, code: "rate_limit_exceeded", retryMin: 3 * time.Second, retryMax: 3 * time.Second},
		{name: "429 retry-after date", status: 429, header: map[string]string{"Retry-After": httpDate(20 * time.Second)}, body: rate,
			kind: providers.KindTransient, retryMin: 18 * time.Second, retryMax: 21 * time.Second},
		{name: "429 retry-after-ms", status: 429, header: map[string]string{"Retry-After-Ms": "250"}, body: rate,
			kind: providers.KindTransient, retryMin: 250 * time.Millisecond, retryMax: 250 * time.Millisecond},
		{name: "429 no hint", status: 429, body: rate, kind: providers.KindTransient},
		{name: "429 insufficient quota", status: 429, body: `{"error":{"message":"Out of credits","type":"insufficient_quota","code":"insufficient_quota"}}`, kind: providers.KindQuota},
		{name: "402", status: 402, body: `{"error":{"message":"Payment required","type":"payment_required","code":"payment_required"}}`, kind: providers.KindQuota},
		{name: "401 echoes key", status: 401, body: `{"error":{"message":"Invalid API key sk-test-SECRETKEY0123456789","type":"authentication_error","code":"invalid_api_key"}}`, kind: providers.KindAuth},
		{name: "403", status: 403, body: `{"error":{"message":"Forbidden","type":"permission_error","code":"forbidden"}}`, kind: providers.KindAuth},
		{name: "400 unknown field", status: 400, body: `{"error":{"message":"Unrecognized field 'foo'","type":"invalid_request_error","code":"invalid_request"}}`, kind: providers.KindInvalid, code: "invalid_request"},
		{name: "400 legacy numeric code", status: 400, body: `{"error":{"message":"bad","type":"invalid_request_error","code":400}}`, kind: providers.KindInvalid, code: "invalid_request_error"},
		{name: "404", status: 404, body: `{"error":{"message":"Not found","type":"not_found_error","code":"not_found"}}`, kind: providers.KindInvalid},
		{name: "422", status: 422, body: `{"error":{"message":"Invalid model","type":"invalid_request_error","code":"invalid_model"}}`, kind: providers.KindInvalid},
		{name: "500", status: 500, body: `{"error":{"message":"Internal","type":"api_error","code":"internal_error"}}`, kind: providers.KindTransient},
		{name: "503 non-JSON", status: 503, body: `Service Unavailable`, kind: providers.KindTransient},
		{name: "failed inside 200", status: 200, body: `{"id":"r","object":"response","status":"failed","error":{"message":"search backend failed"},"output":[]}`, kind: providers.KindFailedAnswer, code: "failed"},
		{name: "cancelled inside 200", status: 200, body: `{"id":"r","object":"response","status":"cancelled","output":[]}`, kind: providers.KindFailedAnswer, code: "cancelled"},
		{name: "requires_action inside 200", status: 200, body: `{"id":"r","object":"response","status":"requires_action","output":[]}`, kind: providers.KindFailedAnswer, code: "requires_action"},
		{name: "incomplete before any text", status: 200, body: `{"id":"r","object":"response","status":"incomplete","output":[]}`, kind: providers.KindFailedAnswer, code: "incomplete"},
		{name: "empty text", status: 200, body: `{"id":"r","object":"response","status":"completed","output":[{"type":"message","content":[{"type":"output_text","text":"  ","annotations":[]}]}]}`, kind: providers.KindFailedAnswer, code: "empty_answer"},
		{name: "malformed JSON", status: 200, body: `{"output":[{"type":`, kind: providers.KindTransient, code: "malformed_response"},
		{name: "timeout", handler: func(w http.ResponseWriter, r *http.Request, n int) { hang(r) }, kind: providers.KindTransient, code: "timeout"},
	}
	runErrCases(t, cases, newTestPerplexity)
}

func FuzzParsePerplexity(f *testing.F) {
	for _, name := range []string{"perplexity_response.json", "perplexity_response_multi.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"status":"completed","output":[{"type":"message","content":[{"type":"output_text","text":"é[1]","annotations":[{"type":"url_citation","url":"u","start_index":-5,"end_index":99}]}]},{"type":"search_results","results":[{"id":"1","url":"x"}]}]}`))
	f.Add([]byte(`{"output":[{"results":[{"id":{}}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ans, err := parsePerplexity(data)
		if err == nil {
			checkSpans(t, ans)
		}
	})
}
