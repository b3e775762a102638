package live

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/providers"
)

// Defaults of the claude adapter.
const (
	DefaultClaudeModel      = "claude-sonnet-4-6"
	DefaultAnthropicBaseURL = "https://api.anthropic.com/"
	anthropicKeyEnv         = "ANTHROPIC_API_KEY"
	// claudeMaxTokens fits a full answer (a long, sourced recommendation is
	// 1,500–3,000 tokens) with room to spare, and stays under the 21,333
	// tokens above which the SDK refuses a non-streaming request (its
	// estimate of a call passes 10 minutes). Only tokens produced are billed.
	claudeMaxTokens   = 8192
	claudeMaxSearches = 3
	// claudeMaxContinuations bounds pause_turn resends so a server that
	// keeps pausing cannot hold a call (and its credits) forever.
	claudeMaxContinuations = 3
)

// Claude asks Anthropic's Messages API with the web_search server tool.
type Claude struct {
	cfg    Config
	model  string
	client anthropic.Client
	prices *PriceBook
}

// NewClaude builds the claude adapter. Environment defaults of the SDK
// (ANTHROPIC_* variables, profiles) are ignored and its retries are off.
func NewClaude(cfg Config) *Claude {
	p := &Claude{cfg: cfg, model: cfg.model(DefaultClaudeModel), prices: cfg.prices()}
	p.client = anthropic.NewClient(
		option.WithoutEnvironmentDefaults(),
		option.WithAPIKey(cfg.APIKey),
		option.WithBaseURL(cfg.baseURL(DefaultAnthropicBaseURL)),
		option.WithHTTPClient(cfg.tracedClient(platforms.Claude)),
		option.WithMaxRetries(0),
	)
	return p
}

// Platform implements Provider.
func (p *Claude) Platform() string { return platforms.Claude }

// Answer implements Provider.
func (p *Claude) Answer(ctx context.Context, req providers.Request) (providers.Answer, error) {
	cl := p.cfg.begin(ctx, platforms.Claude)
	defer cl.cancel()
	user := anthropic.NewUserMessage(anthropic.NewTextBlock(req.Query))
	var (
		blocks   []anthropic.ContentBlockUnion
		in, out  int
		searches int
		model    string
		stop     anthropic.StopReason
	)
	for turn := 0; ; turn++ {
		msgs := []anthropic.MessageParam{user}
		if len(blocks) > 0 {
			// pause_turn: send the paused assistant turn back as is.
			prev := anthropic.Message{Role: "assistant", Content: blocks}
			msgs = append(msgs, prev.ToParam())
		}
		msg, err := p.client.Messages.New(cl.ctx, anthropic.MessageNewParams{
			Model:     anthropic.Model(p.model),
			MaxTokens: claudeMaxTokens,
			Messages:  msgs,
			Tools: []anthropic.ToolUnionParam{{
				OfWebSearchTool20250305: &anthropic.WebSearchTool20250305Param{MaxUses: anthropic.Int(claudeMaxSearches)},
			}},
		})
		if err != nil {
			return providers.Answer{}, p.classify(cl, err)
		}
		blocks = append(blocks, msg.Content...)
		in += int(msg.Usage.InputTokens)
		out += int(msg.Usage.OutputTokens)
		searches += int(msg.Usage.ServerToolUse.WebSearchRequests)
		if msg.Model != "" {
			model = string(msg.Model)
		}
		stop = msg.StopReason
		if msg.StopReason != anthropic.StopReasonPauseTurn {
			if msg.StopReason == anthropic.StopReasonRefusal {
				return providers.Answer{}, failed(platforms.Claude, "refusal", "the model refused to answer")
			}
			break
		}
		if turn >= claudeMaxContinuations {
			return providers.Answer{}, failed(platforms.Claude, "pause_turn",
				fmt.Sprintf("still paused after %d continuations", claudeMaxContinuations))
		}
	}
	ans, ferr := parseClaudeBlocks(blocks)
	if ferr != nil {
		return providers.Answer{}, ferr
	}
	ans.Model, ans.InputTokens, ans.OutputTokens = model, in, out
	// The answer stopped at max_tokens or at the context window, not at
	// its end.
	ans.Truncated = stop == anthropic.StopReasonMaxTokens || stop == anthropic.StopReasonModelContextWindowExceeded
	p.prices.Apply(&ans, Usage{Platform: platforms.Claude, Model: model, Requested: p.model,
		InputTokens: in, OutputTokens: out, Searches: searches})
	ans.Latency = cl.elapsed()
	return ans, nil
}

func (p *Claude) classify(cl *call, err error) error {
	var ae *anthropic.Error
	if !errors.As(err, &ae) {
		return cl.transportError(err)
	}
	h := cl.trace.header
	if ae.Response != nil {
		h = ae.Response.Header
	}
	var body struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	_ = json.Unmarshal([]byte(ae.RawJSON()), &body)
	code := string(ae.Type())
	if code == "" {
		code = body.Error.Type
	}
	e := statusError(platforms.Claude, ae.StatusCode, h, safeText(code, p.cfg.APIKey), safeText(body.Error.Message, p.cfg.APIKey))
	switch {
	case e.Kind == providers.KindAuth:
		e.Message = authMessage(anthropicKeyEnv)
	case code == "billing_error":
		e.Kind, e.RetryAfter = providers.KindQuota, 0
	case ae.StatusCode == http.StatusBadRequest && strings.Contains(strings.ToLower(body.Error.Message), "credit balance"):
		// An empty prepaid balance comes back as a 400 invalid_request_error.
		e.Kind = providers.KindQuota
	}
	return e
}

// parseClaudeBlocks concatenates the text blocks; each block's citations
// span that block. A web search error inside the 200 fails the answer,
// except max_uses_exceeded after searches that did return results.
func parseClaudeBlocks(blocks []anthropic.ContentBlockUnion) (providers.Answer, error) {
	const pf = platforms.Claude
	ans := providers.Answer{Platform: pf}
	var tb providers.TextBuilder
	var toolErr string
	gotResults := false
	for _, b := range blocks {
		switch b.Type {
		case "web_search_tool_result":
			if b.Content.JSON.OfWebSearchResultBlockArray.Valid() || strings.HasPrefix(strings.TrimSpace(b.Content.RawJSON()), "[") {
				for _, r := range b.Content.AsWebSearchResultBlockArray() {
					gotResults = true
					ans.Sources = providers.AppendUnique(ans.Sources, r.URL)
				}
				continue
			}
			code := string(b.Content.AsResponseWebSearchToolResultError().ErrorCode)
			if code == "" {
				code = "unknown"
			}
			if toolErr == "" || toolErr == "max_uses_exceeded" {
				toolErr = code
			}
		case "text":
			if b.Text == "" {
				continue
			}
			start, end := tb.Add(b.Text)
			for _, c := range b.Citations {
				if c.Type != "web_search_result_location" || c.URL == "" {
					continue
				}
				ans.Citations = append(ans.Citations, providers.Citation{URL: c.URL, Title: c.Title, Snippet: c.CitedText, Start: start, End: end})
			}
		}
	}
	if toolErr != "" && !(toolErr == "max_uses_exceeded" && gotResults) {
		return providers.Answer{}, failed(pf, "web_search_"+safeText(toolErr, ""), "web search failed inside the answer: "+safeText(toolErr, ""))
	}
	ans.Text = tb.String()
	if strings.TrimSpace(ans.Text) == "" {
		return providers.Answer{}, failed(pf, "empty_answer", "the response has no text")
	}
	return ans, nil
}
