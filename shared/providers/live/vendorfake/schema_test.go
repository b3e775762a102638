package vendorfake

import (
	"net/url"
	"strings"
	"testing"
)

func TestSchemas(t *testing.T) {
	cases := []struct {
		name    string
		check   func([]byte) error
		body    string
		wantErr string
	}{
		{"openai minimal", CheckOpenAIResponses, `{"model":"gpt-5.5","input":"q","tools":[{"type":"web_search","search_context_size":"low"}],"include":["web_search_call.action.sources"]}`, ""},
		{"openai unknown member", CheckOpenAIResponses, `{"model":"gpt-5.5","input":"q","tool_choise":"auto"}`, "tool_choise"},
		{"openai unknown tool member", CheckOpenAIResponses, `{"model":"gpt-5.5","input":"q","tools":[{"type":"web_search","max_uses":3}]}`, "max_uses"},
		{"openai no model", CheckOpenAIResponses, `{"input":"q"}`, "model"},
		{"perplexity minimal", CheckPerplexityResponses, `{"model":"perplexity/sonar","input":"q","tools":[{"type":"web_search"}],"max_output_tokens":8192}`, ""},
		{"perplexity preset", CheckPerplexityResponses, `{"preset":"pro-search","input":"q"}`, ""},
		{"perplexity tool_choice", CheckPerplexityResponses, `{"model":"perplexity/sonar","input":"q","tool_choice":{"type":"web_search"}}`, "tool_choice"},
		{"perplexity no engine", CheckPerplexityResponses, `{"input":"q"}`, "model, models or preset"},
		{"perplexity unknown tool", CheckPerplexityResponses, `{"model":"m","input":"q","tools":[{"type":"browser"}]}`, "browser"},
		{"anthropic minimal", CheckAnthropicMessages, `{"model":"claude-sonnet-4-6","max_tokens":8192,"messages":[]}`, ""},
		{"anthropic unknown", CheckAnthropicMessages, `{"model":"m","max_tokens":1,"messages":[],"tool_choise":{}}`, "tool_choise"},
		{"anthropic no max_tokens", CheckAnthropicMessages, `{"model":"m","messages":[]}`, "max_tokens"},
		{"gemini minimal", CheckGeminiGenerateContent, `{"contents":[],"tools":[{"googleSearch":{}}]}`, ""},
		{"gemini unknown", CheckGeminiGenerateContent, `{"contents":[],"max_tokens":1}`, "max_tokens"},
		{"not an object", CheckGeminiGenerateContent, `[1]`, "JSON object"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.check([]byte(tc.body))
			if (err == nil) != (tc.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tc.wantErr)) {
				t.Errorf("err = %v, want %q", err, tc.wantErr)
			}
		})
	}
}

func TestSerpAPISchema(t *testing.T) {
	cases := []struct {
		q       string
		wantErr string
	}{
		{"engine=google&q=x&hl=en&gl=us&api_key=k", ""},
		{"engine=google&q=x&api_key=k&no_cache=true", ""},
		{"engine=google_ai_overview&page_token=t&api_key=k", ""},
		{"engine=google&api_key=k", "q"},
		{"engine=google_ai_overview&api_key=k", "page_token"},
		{"engine=google&q=x&api_key=k&nocache=1", "nocache"},
		{"engine=google&q=x", "API key"},
		{"engine=bing&q=x&api_key=k", "bing"},
	}
	for _, tc := range cases {
		q, _ := url.ParseQuery(tc.q)
		err := CheckSerpAPI(q)
		if (err == nil) != (tc.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("%s: err = %v, want %q", tc.q, err, tc.wantErr)
		}
	}
}
