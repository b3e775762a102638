package live

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/brandlens/brandlens/shared/models"
)

// Defaults of the Anthropic adapter.
const (
	DefaultAnthropicModel   = "claude-sonnet-4-6"
	DefaultAnthropicBaseURL = "https://api.anthropic.com/"
)

// Anthropic generates with the Messages API.
type Anthropic struct {
	cfg    Config
	model  string
	client anthropic.Client
}

// NewAnthropic builds the adapter; the SDK's environment defaults and
// retries are off.
func NewAnthropic(cfg Config) *Anthropic {
	g := &Anthropic{cfg: cfg, model: orDefault(cfg.Model, DefaultAnthropicModel)}
	g.client = anthropic.NewClient(option.WithoutEnvironmentDefaults(), option.WithAPIKey(cfg.APIKey),
		option.WithBaseURL(orDefault(cfg.BaseURL, DefaultAnthropicBaseURL)), option.WithHTTPClient(cfg.client()), option.WithMaxRetries(0))
	return g
}

// Generate implements models.Generator.
func (g *Anthropic) Generate(ctx context.Context, req models.Request) (models.Response, error) {
	system, turns, err := req.Split()
	if err != nil {
		return models.Response{}, &models.Error{Vendor: models.VendorAnthropic, Model: g.model, Kind: models.KindInvalid, Message: err.Error()}
	}
	params := anthropic.MessageNewParams{Model: anthropic.Model(g.model), MaxTokens: int64(req.MaxTokens())}
	if system != "" {
		params.System = []anthropic.TextBlockParam{{Text: system}}
	}
	for _, m := range turns {
		if m.Role == models.RoleAssistant {
			params.Messages = append(params.Messages, anthropic.NewAssistantMessage(anthropic.NewTextBlock(m.Content)))
		} else {
			params.Messages = append(params.Messages, anthropic.NewUserMessage(anthropic.NewTextBlock(m.Content)))
		}
	}
	ctx, cancel := context.WithTimeout(ctx, g.cfg.timeout())
	defer cancel()
	start := time.Now()
	msg, err := g.client.Messages.New(ctx, params)
	if err != nil {
		var ae *anthropic.Error
		if !errors.As(err, &ae) {
			return models.Response{}, transport(ctx, models.VendorAnthropic, g.model, err, g.cfg.timeout(), g.cfg.APIKey)
		}
		var body struct {
			Error struct{ Type, Message string } `json:"error"`
		}
		_ = json.Unmarshal([]byte(ae.RawJSON()), &body)
		code := string(ae.Type())
		if code == "" {
			code = body.Error.Type
		}
		e := failure(models.VendorAnthropic, g.model, ae.StatusCode, code, body.Error.Message, header(ae.Response), g.cfg.APIKey)
		if code == "billing_error" || strings.Contains(strings.ToLower(body.Error.Message), "credit balance") {
			e.Kind, e.RetryAfter = models.KindQuota, 0
		}
		return models.Response{}, e
	}
	model := string(msg.Model)
	if model == "" {
		model = g.model
	}
	switch msg.StopReason {
	case anthropic.StopReasonMaxTokens:
		return models.Response{}, truncated(models.VendorAnthropic, model, req.MaxTokens())
	case anthropic.StopReasonRefusal:
		return models.Response{}, refused(models.VendorAnthropic, model, "the model refused to answer")
	}
	var text strings.Builder
	for _, b := range msg.Content {
		if b.Type == "text" {
			text.WriteString(b.Text)
		}
	}
	if strings.TrimSpace(text.String()) == "" {
		return models.Response{}, refused(models.VendorAnthropic, model, "the answer is empty")
	}
	return response(models.VendorAnthropic, model, text.String(), int(msg.Usage.InputTokens), int(msg.Usage.OutputTokens), start), nil
}
