// Package adjudication asks a cheap chat model the detector's fixed yes/no
// questions: whether a mention the rules find ambiguous names the product
// (detect.AdjudicationPrompt), and whether the brand's text criticises or
// praises it when the rules leave its sentiment in doubt
// (detect.CriticismPrompt, detect.PraisePrompt). It adapts a
// models.Generator to detect.Adjudicator; detect itself knows no models. Query runs consult it only when a chat model is
// configured and BRANDLENS_DETECT_ADJUDICATOR=on; offline it is never used.
package adjudication

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/brandlens/brandlens/shared/detect"
	"github.com/brandlens/brandlens/shared/models"
)

// DefaultTimeout bounds one question: a yes/no answer from a small model
// takes a second or two, and a slow one must not hold the platform step.
const DefaultTimeout = 5 * time.Second

// AnswerBudget bounds all the questions about one answer together: the
// platform step's 270 s worst case (a 240 s call and a 20 s rate-limit
// wait) plus this stays under its task's 290 s timeout.
const AnswerBudget = 10 * time.Second

// maxOutputTokens caps the answer. One word is asked for; the room is for
// the reasoning tokens some models count against the cap (an answer cut
// there is an error, and the rule's decision stands).
const maxOutputTokens = 256

// CheapModels are the models asked per vendor (BRANDLENS_MODELS) unless
// BRANDLENS_ADJUDICATOR_MODEL names another: each vendor's smallest priced
// model (models.Prices).
var CheapModels = map[string]string{
	models.VendorOpenAI:    "gpt-5-mini",
	models.VendorAnthropic: "claude-haiku-4-5",
	models.VendorGemini:    "gemini-2.5-flash",
}

// EnvModel overrides the adjudicating model.
const EnvModel = "BRANDLENS_ADJUDICATOR_MODEL"

// ErrUnclear is the error of an answer that is neither yes nor no.
var ErrUnclear = errors.New("adjudication: the answer is neither yes nor no")

// Answer is one question asked: the model's decision, the messages sent
// (exactly) and what it answered, for the audit log.
type Answer struct {
	Yes      bool
	Messages []models.Message
	Response models.Response
}

// Model asks a Generator. Build it with New.
type Model struct {
	gen     models.Generator
	timeout time.Duration
}

// New returns a Model over gen; timeout bounds each question (0:
// DefaultTimeout).
func New(gen models.Generator, timeout time.Duration) *Model {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return &Model{gen: gen, timeout: timeout}
}

// Ask sends req.Prompt verbatim as the one user message and parses the
// answer strictly. The Answer carries the messages and the response even
// when err is set (a failed call has an empty response).
func (m *Model) Ask(ctx context.Context, req detect.AdjudicationRequest) (Answer, error) {
	a := Answer{Messages: []models.Message{{Role: models.RoleUser, Content: req.Prompt}}}
	ctx, cancel := context.WithTimeout(ctx, m.timeout)
	defer cancel()
	resp, err := m.gen.Generate(ctx, models.Request{Messages: a.Messages, MaxOutputTokens: maxOutputTokens})
	if err != nil {
		return a, fmt.Errorf("adjudication: %w", err)
	}
	a.Response = resp
	a.Yes, err = Parse(resp.Text)
	return a, err
}

// Adjudicate implements detect.Adjudicator.
func (m *Model) Adjudicate(ctx context.Context, req detect.AdjudicationRequest) (bool, error) {
	a, err := m.Ask(ctx, req)
	return a.Yes, err
}

// Parse reads a yes or a no: one word, any case, with at most a final full
// stop or exclamation mark. Anything else is ErrUnclear, so a hedged or
// chatty answer never overrides the rules.
func Parse(text string) (bool, error) {
	w := strings.ToLower(strings.TrimSpace(text))
	w = strings.TrimRight(w, ".!")
	switch w {
	case "yes":
		return true, nil
	case "no":
		return false, nil
	}
	return false, fmt.Errorf("%w: %.40q", ErrUnclear, text)
}
