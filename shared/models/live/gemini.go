package live

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"google.golang.org/genai"

	"github.com/brandlens/brandlens/shared/models"
)

// Defaults of the Gemini adapter.
const (
	DefaultGeminiModel   = "gemini-3.5-flash"
	DefaultGeminiBaseURL = "https://generativelanguage.googleapis.com/"
)

// Gemini generates with the Gemini API's generateContent.
type Gemini struct {
	cfg     Config
	model   string
	client  *genai.Client
	initErr error
}

// NewGemini builds the adapter with one attempt per call (the workflow
// retries). A configuration the SDK refuses fails every call (its own
// message would print the whole configuration, key included).
func NewGemini(cfg Config) *Gemini {
	g := &Gemini{cfg: cfg, model: orDefault(cfg.Model, DefaultGeminiModel)}
	one := int32(1)
	c, err := genai.NewClient(context.Background(), &genai.ClientConfig{
		APIKey: cfg.APIKey, Backend: genai.BackendGeminiAPI, HTTPClient: cfg.client(),
		HTTPOptions: genai.HTTPOptions{BaseURL: orDefault(cfg.BaseURL, DefaultGeminiBaseURL), RetryOptions: &genai.HTTPRetryOptions{Attempts: &one}},
	})
	if err != nil {
		g.initErr = &models.Error{Vendor: models.VendorGemini, Model: g.model, Kind: models.KindInvalid,
			Message: "the Gemini client cannot be configured (check GEMINI_API_KEY and GEMINI_BASE_URL)"}
		return g
	}
	g.client = c
	return g
}

// Generate implements models.Generator.
func (g *Gemini) Generate(ctx context.Context, req models.Request) (models.Response, error) {
	if g.initErr != nil {
		return models.Response{}, g.initErr
	}
	system, turns, err := req.Split()
	if err != nil {
		return models.Response{}, &models.Error{Vendor: models.VendorGemini, Model: g.model, Kind: models.KindInvalid, Message: err.Error()}
	}
	cfg := &genai.GenerateContentConfig{MaxOutputTokens: int32(req.MaxTokens())}
	if system != "" {
		cfg.SystemInstruction = genai.NewContentFromText(system, genai.RoleUser)
	}
	var contents []*genai.Content
	for _, m := range turns {
		role := genai.Role(genai.RoleUser)
		if m.Role == models.RoleAssistant {
			role = genai.RoleModel
		}
		contents = append(contents, genai.NewContentFromText(m.Content, role))
	}
	ctx, cancel := context.WithTimeout(ctx, g.cfg.timeout())
	defer cancel()
	start := time.Now()
	resp, err := g.client.Models.GenerateContent(ctx, g.model, contents, cfg)
	if err != nil {
		var ae genai.APIError
		if !errors.As(err, &ae) {
			var pae *genai.APIError
			if !errors.As(err, &pae) {
				return models.Response{}, transport(ctx, models.VendorGemini, g.model, err, g.cfg.timeout(), g.cfg.APIKey)
			}
			ae = *pae
		}
		e := failure(models.VendorGemini, g.model, ae.Code, ae.Status, ae.Message, nil, g.cfg.APIKey)
		switch {
		case ae.Code == http.StatusBadRequest && reason(ae.Details) == "API_KEY_INVALID":
			// Gemini answers a bad key with 400 INVALID_ARGUMENT.
			e.Kind, e.Message = models.KindAuth, "the vendor refused the API key"
		case e.Kind == models.KindRateLimited:
			e.RetryAfter = retryDelay(ae.Details)
		}
		return models.Response{}, e
	}
	model := resp.ModelVersion
	if model == "" {
		model = g.model
	}
	if resp.PromptFeedback != nil && resp.PromptFeedback.BlockReason != "" {
		return models.Response{}, refused(models.VendorGemini, model, "the prompt was blocked: "+string(resp.PromptFeedback.BlockReason))
	}
	if len(resp.Candidates) == 0 {
		return models.Response{}, refused(models.VendorGemini, model, "the response has no candidates")
	}
	switch fr := resp.Candidates[0].FinishReason; fr {
	case genai.FinishReasonMaxTokens:
		return models.Response{}, truncated(models.VendorGemini, model, req.MaxTokens())
	case "", genai.FinishReasonStop:
	default:
		return models.Response{}, refused(models.VendorGemini, model, "the answer stopped: "+string(fr))
	}
	text := resp.Text()
	if strings.TrimSpace(text) == "" {
		return models.Response{}, refused(models.VendorGemini, model, "the answer is empty")
	}
	var in, out int
	if u := resp.UsageMetadata; u != nil {
		in, out = int(u.PromptTokenCount), int(u.CandidatesTokenCount+u.ThoughtsTokenCount)
	}
	return response(models.VendorGemini, model, text, in, out, start), nil
}

// reason is the ErrorInfo reason of a google.rpc error's details.
func reason(details []map[string]any) string {
	for _, d := range details {
		if d["@type"] == "type.googleapis.com/google.rpc.ErrorInfo" {
			r, _ := d["reason"].(string)
			return r
		}
	}
	return ""
}

// retryDelay is the RetryInfo delay ("41s") of a google.rpc error.
func retryDelay(details []map[string]any) time.Duration {
	for _, d := range details {
		if d["@type"] == "type.googleapis.com/google.rpc.RetryInfo" {
			s, _ := d["retryDelay"].(string)
			if v, err := time.ParseDuration(s); err == nil && v > 0 {
				return v
			}
		}
	}
	return 0
}
