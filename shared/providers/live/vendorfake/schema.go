// Package vendorfake serves, on loopback, what the five AI platforms serve
// the live adapters, in the shapes their documentation and official SDK
// types define — and refuses, as they do, a request member they do not
// define. The request schemas are taken from the SDK types themselves
// (openai-go ResponseNewParams, anthropic-sdk-go MessageNewParams) or
// transcribed from the official SDKs that are not Go (perplexity-node
// ResponseCreateParamsBase) and from the REST references (Gemini
// GenerateContentRequest, SerpApi's search parameters), so a test against
// these fakes fails when an adapter sends what the real service refuses.
package vendorfake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/openai/openai-go/v3/responses"
)

// jsonMembers lists the JSON member names of struct type t's fields.
func jsonMembers(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		tag := t.Field(i).Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// Request members each API defines.
var (
	openAIResponseMembers  = jsonMembers(reflect.TypeFor[responses.ResponseNewParams]())
	openAIWebSearchMembers = jsonMembers(reflect.TypeFor[responses.WebSearchToolParam]())
	anthropicMembers       = jsonMembers(reflect.TypeFor[anthropic.MessageNewParams]())
	// perplexity-node src/resources/responses/responses.ts,
	// ResponseCreateParamsBase (there is no tool_choice).
	perplexityMembers = []string{"background", "input", "instructions", "language_preference", "max_output_tokens",
		"max_steps", "model", "models", "preset", "previous_response_id", "reasoning", "response_format", "skills",
		"store", "stream", "tools"}
	// ResponseCreateParams.WebSearchTool of the same file.
	perplexityWebSearchMembers = []string{"filters", "max_tokens", "max_tokens_per_page", "search_context_size", "type", "user_location"}
	perplexityToolTypes        = []string{"web_search", "fetch_url", "people_search", "function", "finance_search", "sandbox", "mcp"}
	// GenerateContentRequest of the Gemini REST reference (the SDK sends
	// camelCase; the API also accepts snake_case).
	geminiMembers = []string{"cachedContent", "cached_content", "contents", "generationConfig", "generation_config",
		"model", "safetySettings", "safety_settings", "systemInstruction", "system_instruction", "toolConfig",
		"tool_config", "tools"}
	// serpapi.com/search-api and /google-ai-overview-api parameters.
	serpAPIParams = []string{"api_key", "async", "device", "engine", "gl", "google_domain", "hl", "location", "lr",
		"no_cache", "num", "output", "page_token", "q", "safe", "start", "uule", "zero_trace"}
)

// unknownMembers returns the members of obj not in allowed.
func unknownMembers(obj map[string]json.RawMessage, allowed []string) []string {
	var bad []string
	for k := range obj {
		if !slices.Contains(allowed, k) {
			bad = append(bad, k)
		}
	}
	sort.Strings(bad)
	return bad
}

func decodeObject(body []byte) (map[string]json.RawMessage, error) {
	var obj map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&obj); err != nil {
		return nil, fmt.Errorf("body is not a JSON object: %v", err)
	}
	return obj, nil
}

func toolObjects(obj map[string]json.RawMessage) ([]map[string]json.RawMessage, error) {
	raw, ok := obj["tools"]
	if !ok {
		return nil, nil
	}
	var tools []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &tools); err != nil {
		return nil, fmt.Errorf("tools: %v", err)
	}
	return tools, nil
}

func toolType(t map[string]json.RawMessage) string {
	var s string
	_ = json.Unmarshal(t["type"], &s)
	return s
}

// CheckOpenAIResponses validates a POST /v1/responses body against the
// SDK's ResponseNewParams (and WebSearchToolParam for web_search tools).
func CheckOpenAIResponses(body []byte) error {
	obj, err := decodeObject(body)
	if err != nil {
		return err
	}
	if bad := unknownMembers(obj, openAIResponseMembers); len(bad) > 0 {
		return fmt.Errorf("unrecognized request argument supplied: %s", strings.Join(bad, ", "))
	}
	if _, ok := obj["model"]; !ok {
		return fmt.Errorf("missing required parameter: 'model'")
	}
	tools, err := toolObjects(obj)
	if err != nil {
		return err
	}
	for i, t := range tools {
		if toolType(t) == "web_search" {
			if bad := unknownMembers(t, openAIWebSearchMembers); len(bad) > 0 {
				return fmt.Errorf("unknown parameter: 'tools[%d].%s'", i, bad[0])
			}
		}
	}
	return nil
}

// CheckPerplexityResponses validates a POST /v1/responses body against
// perplexity-node's ResponseCreateParamsBase.
func CheckPerplexityResponses(body []byte) error {
	obj, err := decodeObject(body)
	if err != nil {
		return err
	}
	if bad := unknownMembers(obj, perplexityMembers); len(bad) > 0 {
		return fmt.Errorf("unknown field(s): %s", strings.Join(bad, ", "))
	}
	if _, ok := obj["input"]; !ok {
		return fmt.Errorf("input is required")
	}
	_, m := obj["model"]
	_, ms := obj["models"]
	_, p := obj["preset"]
	if !m && !ms && !p {
		return fmt.Errorf("one of model, models or preset is required")
	}
	tools, err := toolObjects(obj)
	if err != nil {
		return err
	}
	for i, t := range tools {
		typ := toolType(t)
		if !slices.Contains(perplexityToolTypes, typ) {
			return fmt.Errorf("tools[%d].type %q is not a tool", i, typ)
		}
		if typ == "web_search" {
			if bad := unknownMembers(t, perplexityWebSearchMembers); len(bad) > 0 {
				return fmt.Errorf("unknown field tools[%d].%s", i, bad[0])
			}
		}
	}
	return nil
}

// CheckAnthropicMessages validates a POST /v1/messages body against the
// SDK's MessageNewParams.
func CheckAnthropicMessages(body []byte) error {
	obj, err := decodeObject(body)
	if err != nil {
		return err
	}
	if bad := unknownMembers(obj, anthropicMembers); len(bad) > 0 {
		return fmt.Errorf("%s: Extra inputs are not permitted", bad[0])
	}
	for _, req := range []string{"model", "max_tokens", "messages"} {
		if _, ok := obj[req]; !ok {
			return fmt.Errorf("%s: Field required", req)
		}
	}
	return nil
}

// CheckGeminiGenerateContent validates a generateContent body against the
// REST GenerateContentRequest.
func CheckGeminiGenerateContent(body []byte) error {
	obj, err := decodeObject(body)
	if err != nil {
		return err
	}
	if bad := unknownMembers(obj, geminiMembers); len(bad) > 0 {
		return fmt.Errorf("Invalid JSON payload received. Unknown name %q: Cannot find field.", bad[0])
	}
	if _, ok := obj["contents"]; !ok {
		return fmt.Errorf("contents is not specified")
	}
	return nil
}

// CheckSerpAPI validates a GET /search.json query.
func CheckSerpAPI(q url.Values) error {
	for k := range q {
		if !slices.Contains(serpAPIParams, k) {
			return fmt.Errorf("Unsupported `%s` parameter.", k)
		}
	}
	if q.Get("api_key") == "" {
		return fmt.Errorf("Missing API key.")
	}
	switch q.Get("engine") {
	case "google":
		if q.Get("q") == "" {
			return fmt.Errorf("Missing query `q` parameter.")
		}
	case "google_ai_overview":
		if q.Get("page_token") == "" {
			return fmt.Errorf("Missing `page_token` parameter.")
		}
	default:
		return fmt.Errorf("Unsupported `%s` search engine.", q.Get("engine"))
	}
	if v := q.Get("no_cache"); v != "" && v != "true" && v != "false" {
		return fmt.Errorf("`no_cache` must be true or false.")
	}
	return nil
}
