package live

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"

	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/providers"
)

// Defaults of the chatgpt adapter.
const (
	DefaultChatGPTModel   = "gpt-5.5"
	DefaultOpenAIBaseURL  = "https://api.openai.com/v1/"
	openAIKeyEnv          = "OPENAI_API_KEY"
	openAIInsufficientQty = "insufficient_quota"
)

// ChatGPT asks OpenAI's Responses API with the web_search tool.
type ChatGPT struct {
	cfg    Config
	model  string
	client openai.Client
	prices *PriceBook
}

// NewChatGPT builds the chatgpt adapter. The SDK's own retries are off:
// the workflow owns retries.
func NewChatGPT(cfg Config) *ChatGPT {
	p := &ChatGPT{cfg: cfg, model: cfg.model(DefaultChatGPTModel), prices: cfg.prices()}
	p.client = openai.NewClient(
		option.WithAPIKey(cfg.APIKey),
		option.WithBaseURL(cfg.baseURL(DefaultOpenAIBaseURL)),
		option.WithHTTPClient(cfg.tracedClient(platforms.ChatGPT)),
		option.WithMaxRetries(0),
	)
	return p
}

// Platform implements Provider.
func (p *ChatGPT) Platform() string { return platforms.ChatGPT }

// Answer implements Provider.
func (p *ChatGPT) Answer(ctx context.Context, req providers.Request) (providers.Answer, error) {
	cl := p.cfg.begin(ctx, platforms.ChatGPT)
	defer cl.cancel()
	resp, err := p.client.Responses.New(cl.ctx, responses.ResponseNewParams{
		Model: p.model,
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String(req.Query)},
		Tools: []responses.ToolUnionParam{{
			OfWebSearch: &responses.WebSearchToolParam{Type: responses.WebSearchToolTypeWebSearch},
		}},
		Include: []responses.ResponseIncludable{responses.ResponseIncludableWebSearchCallActionSources},
	})
	if err != nil {
		return providers.Answer{}, p.classify(cl, err)
	}
	ans, searches, ferr := parseOpenAIResponse(resp)
	if ferr != nil {
		return providers.Answer{}, ferr
	}
	p.prices.Apply(&ans, Usage{Platform: platforms.ChatGPT, Model: ans.Model, Requested: p.model,
		InputTokens: ans.InputTokens, OutputTokens: ans.OutputTokens, Searches: searches})
	ans.Latency = cl.elapsed()
	return ans, nil
}

func (p *ChatGPT) classify(cl *call, err error) error {
	var ae *openai.Error
	if !errors.As(err, &ae) {
		return cl.transportError(err)
	}
	h := cl.trace.header
	if ae.Response != nil {
		h = ae.Response.Header
	}
	code := ae.Code
	if code == "" {
		code = ae.Type
	}
	e := statusError(platforms.ChatGPT, ae.StatusCode, h, code, safeText(ae.Message, p.cfg.APIKey))
	switch {
	case e.Kind == providers.KindAuth:
		e.Message = authMessage(openAIKeyEnv)
	case ae.StatusCode == http.StatusTooManyRequests && (ae.Type == openAIInsufficientQty || ae.Code == openAIInsufficientQty):
		// Out of money, not out of breath: waiting does not help.
		e.Kind, e.RetryAfter = providers.KindQuota, 0
	}
	return e
}

// parseOpenAIResponse turns a Responses API result into an Answer and the
// number of web searches it ran; a 200 that reports failure or carries no
// text is a KindFailedAnswer. status "incomplete" (incomplete_details.reason
// max_output_tokens or content_filter) with text is a truncated answer.
func parseOpenAIResponse(r *responses.Response) (providers.Answer, int, error) {
	const pf = platforms.ChatGPT
	truncated := false
	switch r.Status {
	case "", responses.ResponseStatusCompleted:
	case responses.ResponseStatusFailed:
		code := string(r.Error.Code)
		if code == "" {
			code = "failed"
		}
		return providers.Answer{}, 0, failed(pf, code, "response failed: "+safeText(r.Error.Message, ""))
	case responses.ResponseStatusIncomplete:
		truncated = true
	default:
		return providers.Answer{}, 0, failed(pf, string(r.Status), fmt.Sprintf("response status %q", r.Status))
	}
	ans := providers.Answer{Platform: pf, Model: r.Model, Truncated: truncated,
		InputTokens: int(r.Usage.InputTokens), OutputTokens: int(r.Usage.OutputTokens)}
	var tb providers.TextBuilder
	searches := 0
	for _, item := range r.Output {
		switch item.Type {
		case "web_search_call":
			searches++
			for _, s := range item.Action.Sources {
				ans.Sources = providers.AppendUnique(ans.Sources, s.URL)
			}
		case "message":
			for _, c := range item.Content {
				if c.Type != "output_text" || c.Text == "" {
					continue
				}
				addOutputText(&ans, &tb, c.Text, c.Annotations, func(a responses.ResponseOutputTextAnnotationUnion) (string, string, int64, int64, bool) {
					return a.URL, a.Title, a.StartIndex, a.EndIndex, a.Type == "url_citation"
				})
			}
		}
	}
	ans.Text = tb.String()
	if ans.Text == "" {
		if truncated {
			return providers.Answer{}, 0, failed(pf, "incomplete", "response incomplete before any text: "+safeText(r.IncompleteDetails.Reason, ""))
		}
		return providers.Answer{}, 0, failed(pf, "empty_answer", "the response has no output text")
	}
	return ans, searches, nil
}
