package live

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/providers"
)

// Defaults of the perplexity adapter.
const (
	DefaultPerplexityModel   = "perplexity/sonar"
	DefaultPerplexityBaseURL = "https://api.perplexity.ai"
	perplexityKeyEnv         = "PERPLEXITY_API_KEY"
	// pplxMaxOutputTokens bounds the answer (Perplexity's Response has no
	// "incomplete" status, so an answer that used the whole budget is the
	// only sign it was cut) while fitting a full answer several times over.
	pplxMaxOutputTokens = 8192
)

// Perplexity asks Perplexity's Agent API (POST /v1/responses) with the
// web_search tool offered. The request carries only members of the
// official SDKs' ResponseCreateParams (perplexity-node, perplexity-py):
// there is no tool_choice, and the API refuses unknown members with 400.
type Perplexity struct {
	cfg    Config
	model  string
	client *http.Client
	url    string
}

// NewPerplexity builds the perplexity adapter.
func NewPerplexity(cfg Config) *Perplexity {
	return &Perplexity{
		cfg:    cfg,
		model:  cfg.model(DefaultPerplexityModel),
		client: cfg.tracedClient(platforms.Perplexity),
		url:    strings.TrimRight(cfg.baseURL(DefaultPerplexityBaseURL), "/") + "/v1/responses",
	}
}

// Platform implements Provider.
func (p *Perplexity) Platform() string { return platforms.Perplexity }

// pplxRequest is the part of the documented body we send: the API rejects
// unknown fields.
type pplxRequest struct {
	Model           string   `json:"model"`
	Input           string   `json:"input"`
	Tools           []pplxTy `json:"tools"`
	MaxOutputTokens int      `json:"max_output_tokens"`
}

type pplxTy struct {
	Type string `json:"type"`
}

type pplxResponse struct {
	Model  string `json:"model"`
	Status string `json:"status"`
	Error  *struct {
		Message string `json:"message"`
		Type    string `json:"type"`
	} `json:"error"`
	// IncompleteDetails is not in the SDKs' Response; it is read in case
	// the API answers as OpenAI's Responses API does.
	IncompleteDetails *struct {
		Reason string `json:"reason"`
	} `json:"incomplete_details"`
	Output []struct {
		Type    string `json:"type"`
		Results []struct {
			ID      json.RawMessage `json:"id"`
			URL     string          `json:"url"`
			Title   string          `json:"title"`
			Snippet string          `json:"snippet"`
		} `json:"results"`
		Content []struct {
			Type        string           `json:"type"`
			Text        string           `json:"text"`
			Annotations []pplxAnnotation `json:"annotations"`
		} `json:"content"`
	} `json:"output"`
	Usage struct {
		InputTokens  int `json:"input_tokens"`
		OutputTokens int `json:"output_tokens"`
		Cost         *struct {
			TotalCost float64 `json:"total_cost"`
		} `json:"cost"`
	} `json:"usage"`
}

type pplxAnnotation struct {
	Type       string `json:"type"`
	URL        string `json:"url"`
	Title      string `json:"title"`
	StartIndex int64  `json:"start_index"`
	EndIndex   int64  `json:"end_index"`
}

// pplxError is the SDKs' ErrorInfo under "error": {message, type?, code?}
// with code a string; it is kept raw because older answers sent a number.
type pplxError struct {
	Error struct {
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
	} `json:"error"`
}

// Answer implements Provider.
func (p *Perplexity) Answer(ctx context.Context, req providers.Request) (providers.Answer, error) {
	cl := p.cfg.begin(ctx, platforms.Perplexity)
	defer cl.cancel()
	body, _ := json.Marshal(pplxRequest{
		Model:           p.model,
		Input:           req.Query,
		Tools:           []pplxTy{{Type: "web_search"}},
		MaxOutputTokens: pplxMaxOutputTokens,
	})
	hreq, err := http.NewRequestWithContext(cl.ctx, http.MethodPost, p.url, bytes.NewReader(body))
	if err != nil {
		return providers.Answer{}, &providers.Error{Platform: platforms.Perplexity, Kind: providers.KindInvalid, Message: "bad base URL"}
	}
	hreq.Header.Set("Authorization", "Bearer "+p.cfg.APIKey)
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/json")
	resp, err := p.client.Do(hreq)
	if err != nil {
		return providers.Answer{}, cl.transportError(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return providers.Answer{}, cl.transportError(err)
	}
	if resp.StatusCode >= 300 {
		return providers.Answer{}, p.statusError(resp, raw)
	}
	ans, perr := parsePerplexity(raw)
	if perr != nil {
		return providers.Answer{}, perr
	}
	ans.Latency = cl.elapsed()
	return ans, nil
}

func (p *Perplexity) statusError(resp *http.Response, raw []byte) *providers.Error {
	var pe pplxError
	_ = json.Unmarshal(raw, &pe)
	code := ""
	if len(pe.Error.Code) > 0 && string(pe.Error.Code) != "null" {
		code = strings.Trim(string(pe.Error.Code), `"`)
	}
	if code == "" || strings.Trim(code, "0123456789") == "" {
		code = pe.Error.Type // a numeric code only repeats the status
	}
	e := statusError(platforms.Perplexity, resp.StatusCode, resp.Header, safeText(code, p.cfg.APIKey), safeText(pe.Error.Message, p.cfg.APIKey))
	switch {
	case e.Kind == providers.KindAuth:
		e.Message = authMessage(perplexityKeyEnv)
	case resp.StatusCode == http.StatusTooManyRequests && (strings.Contains(pe.Error.Type, "quota") || strings.Contains(code, "quota")):
		e.Kind, e.RetryAfter = providers.KindQuota, 0
	}
	return e
}

var pplxMarker = regexp.MustCompile(`\[(\d{1,4})\]`)

// parsePerplexity decodes a 2xx body. [n] markers in the text become
// citations of search result n, spanning the marker itself.
func parsePerplexity(raw []byte) (providers.Answer, error) {
	const pf = platforms.Perplexity
	var r pplxResponse
	if err := json.Unmarshal(raw, &r); err != nil {
		return providers.Answer{}, &providers.Error{Platform: pf, Kind: providers.KindTransient, Status: http.StatusOK, Code: "malformed_response",
			Message: "response body is not the expected JSON"}
	}
	truncated := false
	switch r.Status {
	case "", "completed":
	case "incomplete":
		truncated = true
	case "failed", "cancelled":
		msg := "response " + r.Status
		if r.Error != nil && r.Error.Message != "" {
			msg += ": " + safeText(r.Error.Message, "")
		}
		return providers.Answer{}, failed(pf, r.Status, msg)
	default:
		// queued, in_progress (background runs, which we never ask for) and
		// requires_action (function calls, which we never offer).
		return providers.Answer{}, failed(pf, safeText(r.Status, ""), fmt.Sprintf("response status %q", safeText(r.Status, "")))
	}
	type result struct{ url, title, snippet string }
	byID := map[string]result{}
	ans := providers.Answer{Platform: pf, Model: r.Model, InputTokens: r.Usage.InputTokens, OutputTokens: r.Usage.OutputTokens,
		Truncated: truncated || r.Usage.OutputTokens >= pplxMaxOutputTokens}
	if r.Usage.Cost != nil {
		ans.CostUSD = r.Usage.Cost.TotalCost
	} else {
		ans.CostUnknown = true
	}
	var tb providers.TextBuilder
	for _, item := range r.Output {
		switch item.Type {
		case "search_results":
			for _, res := range item.Results {
				byID[normID(string(res.ID))] = result{res.URL, res.Title, res.Snippet}
				ans.Sources = providers.AppendUnique(ans.Sources, res.URL)
			}
		case "message":
			for _, c := range item.Content {
				if c.Type != "output_text" || c.Text == "" {
					continue
				}
				addOutputText(&ans, &tb, c.Text, c.Annotations, func(a pplxAnnotation) (string, string, int64, int64, bool) {
					return a.URL, a.Title, a.StartIndex, a.EndIndex, a.Type == "url_citation" && a.URL != ""
				})
			}
		}
	}
	ans.Text = tb.String()
	if strings.TrimSpace(ans.Text) == "" {
		if truncated {
			return providers.Answer{}, failed(pf, "incomplete", "response incomplete before any text")
		}
		return providers.Answer{}, failed(pf, "empty_answer", "the response has no output text")
	}
	// Markers are resolved after all items are read: search_results may
	// follow the message.
	for _, m := range pplxMarker.FindAllStringSubmatchIndex(ans.Text, -1) {
		res, ok := byID[normID(ans.Text[m[2]:m[3]])]
		if !ok {
			continue
		}
		start, _ := byteToRune(ans.Text, m[0])
		end, _ := byteToRune(ans.Text, m[1])
		ans.Citations = append(ans.Citations, providers.Citation{URL: res.url, Title: res.title, Snippet: res.snippet, Start: start, End: end})
	}
	return ans, nil
}

// normID makes 1, "1", "01" and 1.0 the same result id.
func normID(s string) string {
	s = strings.Trim(strings.TrimSpace(s), `"`)
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return s
}
