package live

import (
	"context"
	"errors"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/brandlens/brandlens/shared/models"
)

// Defaults of the OpenAI adapter.
const (
	DefaultOpenAIModel   = "gpt-5.5"
	DefaultOpenAIBaseURL = "https://api.openai.com/v1/"
)

// OpenAI generates with the Chat Completions API.
type OpenAI struct {
	cfg    Config
	model  string
	client openai.Client
}

// NewOpenAI builds the adapter; the SDK's retries are off.
func NewOpenAI(cfg Config) *OpenAI {
	g := &OpenAI{cfg: cfg, model: orDefault(cfg.Model, DefaultOpenAIModel)}
	g.client = openai.NewClient(option.WithAPIKey(cfg.APIKey), option.WithBaseURL(orDefault(cfg.BaseURL, DefaultOpenAIBaseURL)),
		option.WithHTTPClient(cfg.client()), option.WithMaxRetries(0))
	return g
}

// Generate implements models.Generator.
func (g *OpenAI) Generate(ctx context.Context, req models.Request) (models.Response, error) {
	system, turns, err := req.Split()
	if err != nil {
		return models.Response{}, &models.Error{Vendor: models.VendorOpenAI, Model: g.model, Kind: models.KindInvalid, Message: err.Error()}
	}
	var msgs []openai.ChatCompletionMessageParamUnion
	if system != "" {
		msgs = append(msgs, openai.SystemMessage(system))
	}
	for _, m := range turns {
		if m.Role == models.RoleAssistant {
			msgs = append(msgs, openai.AssistantMessage(m.Content))
		} else {
			msgs = append(msgs, openai.UserMessage(m.Content))
		}
	}
	ctx, cancel := context.WithTimeout(ctx, g.cfg.timeout())
	defer cancel()
	start := time.Now()
	resp, err := g.client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
		Model: g.model, Messages: msgs, MaxCompletionTokens: openai.Int(int64(req.MaxTokens())),
	})
	if err != nil {
		var ae *openai.Error
		if !errors.As(err, &ae) {
			return models.Response{}, transport(ctx, models.VendorOpenAI, g.model, err, g.cfg.timeout(), g.cfg.APIKey)
		}
		code := ae.Code
		if code == "" {
			code = ae.Type
		}
		e := failure(models.VendorOpenAI, g.model, ae.StatusCode, code, ae.Message, header(ae.Response), g.cfg.APIKey)
		if ae.Type == "insufficient_quota" || ae.Code == "insufficient_quota" {
			// Out of money, not out of breath: waiting does not help.
			e.Kind, e.RetryAfter = models.KindQuota, 0
		}
		return models.Response{}, e
	}
	model := resp.Model
	if model == "" {
		model = g.model
	}
	if len(resp.Choices) == 0 {
		return models.Response{}, refused(models.VendorOpenAI, model, "the response has no choices")
	}
	c := resp.Choices[0]
	switch {
	case c.FinishReason == "length":
		return models.Response{}, truncated(models.VendorOpenAI, model, req.MaxTokens())
	case c.FinishReason == "content_filter" || c.Message.Refusal != "":
		return models.Response{}, refused(models.VendorOpenAI, model, "the model refused: "+redact(c.Message.Refusal, ""))
	case c.Message.Content == "":
		return models.Response{}, refused(models.VendorOpenAI, model, "the answer is empty")
	}
	return response(models.VendorOpenAI, model, c.Message.Content, int(resp.Usage.PromptTokens), int(resp.Usage.CompletionTokens), start), nil
}
