package vendorfake

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// Keys the fake accepts (anything else is 401, as a wrong key is).
const (
	OpenAIKey     = "sk-fake-openai-0123456789"
	PerplexityKey = "pplx-fake-0123456789"
	GeminiKey     = "AIzaFakeGeminiKey0123456789"
	AnthropicKey  = "sk-ant-fake-0123456789"
	SerpAPIKey    = "serpapi-fake-0123456789"
)

// Answer is what every platform of the fake answers: Brand recommended,
// citing https://<Domain>/pricing.
type Answer struct {
	Brand  string
	Domain string
}

// Server is the fake, one loopback server for all five platforms: OpenAI
// under /openai, Perplexity under /perplexity, Gemini under /gemini,
// Anthropic under /anthropic, SerpApi under /serpapi, and Gemini's
// grounding redirects under /grounding-api-redirect/.
type Server struct {
	*httptest.Server
	answer Answer
	mu     sync.Mutex
	// Requests counts the requests each route received (path → n).
	requests map[string]int
	refused  []string
}

// New starts the fake; Close stops it.
func New(a Answer) *Server {
	s := &Server{answer: a, requests: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Env is the environment that points live mode at the fake.
func (s *Server) Env() map[string]string {
	return map[string]string{
		"BRANDLENS_PROVIDERS":              "live",
		"OPENAI_API_KEY":                   OpenAIKey,
		"PERPLEXITY_API_KEY":               PerplexityKey,
		"GEMINI_API_KEY":                   GeminiKey,
		"ANTHROPIC_API_KEY":                AnthropicKey,
		"SERPAPI_API_KEY":                  SerpAPIKey,
		"OPENAI_BASE_URL":                  s.URL + "/openai/v1/",
		"PERPLEXITY_BASE_URL":              s.URL + "/perplexity",
		"GEMINI_BASE_URL":                  s.URL + "/gemini/",
		"ANTHROPIC_BASE_URL":               s.URL + "/anthropic/",
		"SERPAPI_BASE_URL":                 s.URL + "/serpapi",
		"GEMINI_GROUNDING_REDIRECT_PREFIX": s.URL + "/grounding-api-redirect/",
		"BRANDLENS_ALLOW_LOOPBACK_TARGETS": "1",
	}
}

// Count is how many requests path received.
func (s *Server) Count(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests[path]
}

// Refused lists the requests refused for their schema, with the reason.
func (s *Server) Refused() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.refused...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests[r.URL.Path]++
	s.mu.Unlock()
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	p := r.URL.Path
	switch {
	case p == "/openai/v1/responses" && r.Method == http.MethodPost:
		s.openAI(w, r, body)
	case p == "/perplexity/v1/responses" && r.Method == http.MethodPost:
		s.perplexity(w, r, body)
	case strings.HasPrefix(p, "/gemini/v1beta/models/") && strings.HasSuffix(p, ":generateContent") && r.Method == http.MethodPost:
		s.gemini(w, r, body)
	case p == "/anthropic/v1/messages" && r.Method == http.MethodPost:
		s.anthropic(w, r, body)
	case p == "/serpapi/search.json" && r.Method == http.MethodGet:
		s.serpAPI(w, r)
	case strings.HasPrefix(p, "/grounding-api-redirect/") && (r.Method == http.MethodGet || r.Method == http.MethodHead):
		// Google answers a grounding link with a redirect to the page.
		w.Header().Set("Location", "https://"+s.answer.Domain+"/pricing")
		w.WriteHeader(http.StatusFound)
	default:
		http.NotFound(w, r)
	}
}

func (s *Server) refuse(w http.ResponseWriter, status int, why string, body any) {
	s.mu.Lock()
	s.refused = append(s.refused, why)
	s.mu.Unlock()
	writeJSON(w, status, body)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (s *Server) sentence() string {
	return fmt.Sprintf("%s is a popular pick for small teams.", s.answer.Brand)
}

func (s *Server) pricingURL() string { return "https://" + s.answer.Domain + "/pricing" }

func (s *Server) openAI(w http.ResponseWriter, r *http.Request, body []byte) {
	if r.Header.Get("Authorization") != "Bearer "+OpenAIKey {
		s.refuse(w, 401, "openai: key", map[string]any{"error": map[string]any{"message": "Incorrect API key provided.", "type": "invalid_request_error", "param": nil, "code": "invalid_api_key"}})
		return
	}
	if err := CheckOpenAIResponses(body); err != nil {
		s.refuse(w, 400, "openai: "+err.Error(), map[string]any{"error": map[string]any{"message": err.Error(), "type": "invalid_request_error", "param": nil, "code": "unknown_parameter"}})
		return
	}
	text := s.sentence()
	writeJSON(w, 200, map[string]any{
		"id": "resp_fake", "object": "response", "status": "completed", "model": "gpt-5.5-2026-04-23",
		"output": []any{
			map[string]any{"type": "web_search_call", "id": "ws_1", "status": "completed",
				"action": map[string]any{"type": "search", "queries": []string{"best app"}, "sources": []any{map[string]any{"type": "url", "url": s.pricingURL()}}}},
			map[string]any{"type": "message", "id": "msg_1", "status": "completed", "role": "assistant", "content": []any{
				map[string]any{"type": "output_text", "text": text, "annotations": []any{
					map[string]any{"type": "url_citation", "start_index": 0, "end_index": len([]rune(text)), "url": s.pricingURL(), "title": s.answer.Brand + " pricing"}}}}},
		},
		"usage": map[string]any{"input_tokens": 1200, "output_tokens": 300, "total_tokens": 1500},
	})
}

func (s *Server) perplexity(w http.ResponseWriter, r *http.Request, body []byte) {
	errBody := func(msg, typ, code string) map[string]any {
		// ErrorInfo of the SDKs: code is a string.
		return map[string]any{"error": map[string]any{"message": msg, "type": typ, "code": code}}
	}
	if r.Header.Get("Authorization") != "Bearer "+PerplexityKey {
		s.refuse(w, 401, "perplexity: key", errBody("Invalid API key", "authentication_error", "invalid_api_key"))
		return
	}
	if err := CheckPerplexityResponses(body); err != nil {
		s.refuse(w, 400, "perplexity: "+err.Error(), errBody(err.Error(), "invalid_request_error", "invalid_request"))
		return
	}
	writeJSON(w, 200, map[string]any{
		"id": "resp_fake", "object": "response", "created_at": time.Now().Unix(), "model": "perplexity/sonar", "status": "completed",
		"output": []any{
			map[string]any{"type": "search_results", "queries": []string{"best app"}, "results": []any{
				map[string]any{"id": 1, "url": s.pricingURL(), "title": s.answer.Brand + " pricing", "snippet": "Plans", "date": "2026-05-01", "source": "web"}}},
			map[string]any{"type": "message", "id": "msg_1", "role": "assistant", "status": "completed", "content": []any{
				map[string]any{"type": "output_text", "text": s.sentence() + " [1]", "annotations": []any{}}}},
		},
		"usage": map[string]any{"input_tokens": 20, "output_tokens": 90, "total_tokens": 110,
			"cost": map[string]any{"currency": "USD", "input_cost": 0.00002, "output_cost": 0.00009, "total_cost": 0.00511}},
	})
}

func (s *Server) gemini(w http.ResponseWriter, r *http.Request, body []byte) {
	if r.Header.Get("x-goog-api-key") != GeminiKey {
		s.refuse(w, 400, "gemini: key", map[string]any{"error": map[string]any{"code": 400, "message": "API key not valid. Please pass a valid API key.", "status": "INVALID_ARGUMENT",
			"details": []any{map[string]any{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID", "domain": "googleapis.com"}}}})
		return
	}
	if err := CheckGeminiGenerateContent(body); err != nil {
		s.refuse(w, 400, "gemini: "+err.Error(), map[string]any{"error": map[string]any{"code": 400, "message": err.Error(), "status": "INVALID_ARGUMENT"}})
		return
	}
	text := s.sentence()
	writeJSON(w, 200, map[string]any{
		"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": []any{map[string]any{"text": text}}},
			"finishReason": "STOP",
			"groundingMetadata": map[string]any{
				"webSearchQueries": []string{"best app", "best app for teams"},
				"groundingChunks": []any{map[string]any{"web": map[string]any{
					"uri": s.URL + "/grounding-api-redirect/AbC123", "title": s.answer.Domain}}},
				"groundingSupports": []any{map[string]any{
					"segment": map[string]any{"endIndex": len(text), "text": text}, "groundingChunkIndices": []int{0}}},
			}}},
		"usageMetadata": map[string]any{"promptTokenCount": 9, "candidatesTokenCount": 40, "toolUsePromptTokenCount": 400, "totalTokenCount": 449},
		"modelVersion":  "gemini-3.5-flash",
	})
}

func (s *Server) anthropic(w http.ResponseWriter, r *http.Request, body []byte) {
	errBody := func(typ, msg string) map[string]any {
		return map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}, "request_id": "req_fake"}
	}
	if r.Header.Get("x-api-key") != AnthropicKey || r.Header.Get("anthropic-version") == "" {
		s.refuse(w, 401, "anthropic: key", errBody("authentication_error", "invalid x-api-key"))
		return
	}
	if err := CheckAnthropicMessages(body); err != nil {
		s.refuse(w, 400, "anthropic: "+err.Error(), errBody("invalid_request_error", err.Error()))
		return
	}
	writeJSON(w, 200, map[string]any{
		"id": "msg_fake", "type": "message", "role": "assistant", "model": "claude-sonnet-4-6", "stop_reason": "end_turn",
		"content": []any{
			map[string]any{"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": map[string]any{"query": "best app"}},
			map[string]any{"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []any{
				map[string]any{"type": "web_search_result", "url": s.pricingURL(), "title": s.answer.Brand + " pricing", "page_age": "May 1, 2026", "encrypted_content": "enc"}}},
			map[string]any{"type": "text", "text": s.sentence(), "citations": []any{
				map[string]any{"type": "web_search_result_location", "url": s.pricingURL(), "title": s.answer.Brand + " pricing", "cited_text": "Plans for teams", "encrypted_index": "idx"}}},
		},
		"usage": map[string]any{"input_tokens": 2100, "output_tokens": 120, "server_tool_use": map[string]any{"web_search_requests": 1}},
	})
}

// serpAPI answers like SerpApi with its cache in play: a search without
// no_cache is served from a cache an hour old whose page_token has
// expired; an uncached search carries a fresh token, and the follow-up with
// it returns the Overview (paragraph, list and table blocks).
func (s *Server) serpAPI(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("api_key") != SerpAPIKey {
		s.refuse(w, 401, "serpapi: key", map[string]any{"error": "Invalid API key. Your API key should be here: https://serpapi.com/manage-api-key"})
		return
	}
	if err := CheckSerpAPI(q); err != nil {
		s.refuse(w, 400, "serpapi: "+err.Error(), map[string]any{"error": err.Error()})
		return
	}
	meta := func(age time.Duration) map[string]any {
		return map[string]any{"id": "s1", "status": "Success", "created_at": time.Now().Add(-age).UTC().Format("2006-01-02 15:04:05 UTC")}
	}
	organic := []any{map[string]any{"position": 1, "title": s.answer.Brand, "link": "https://" + s.answer.Domain + "/", "snippet": "The app for teams."}}
	if q.Get("engine") == "google" {
		token, age := "expired-token", time.Hour
		if q.Get("no_cache") == "true" {
			token, age = "fresh-token", 0
		}
		writeJSON(w, 200, map[string]any{"search_metadata": meta(age), "organic_results": organic,
			"ai_overview": map[string]any{"page_token": token, "serpapi_link": s.URL + "/serpapi/search.json?engine=google_ai_overview&page_token=" + token}})
		return
	}
	if q.Get("page_token") != "fresh-token" {
		s.refuse(w, 400, "serpapi: expired page_token", map[string]any{"search_metadata": map[string]any{"status": "Error"}, "error": "The page_token has expired."})
		return
	}
	writeJSON(w, 200, map[string]any{"search_metadata": meta(0), "ai_overview": map[string]any{
		"text_blocks": []any{
			map[string]any{"type": "paragraph", "snippet": s.sentence(), "reference_indexes": []int{0}},
			map[string]any{"type": "list", "list": []any{map[string]any{"title": s.answer.Brand, "snippet": "simple pricing.", "reference_indexes": []int{0}}}},
			map[string]any{"type": "table", "table": [][]string{{"App", "Price"}, {s.answer.Brand, "$8"}}, "reference_indexes": []int{0}},
		},
		"references": []any{map[string]any{"title": s.answer.Brand + " pricing", "link": s.pricingURL(), "snippet": "Plans", "source": s.answer.Brand, "index": 0}},
	}})
}
