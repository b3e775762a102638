// Package models is the one way brandlens asks a chat model to write:
// messages in, text out, with the tokens, cost and model of the call. The
// content packages (briefs, articles) depend only on Generator; the vendor
// adapters (OpenAI, Anthropic, Gemini) are in package models/live so that
// binaries which never generate do not link the vendor SDKs, and the
// offline generator here writes deterministic, readable text for `make
// run` and tests.
package models

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/brandlens/brandlens/shared/vendorerr"
)

// Role of a message.
type Role string

// Message roles.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// Message is one chat message, sent verbatim.
type Message struct {
	Role    Role   `json:"role"`
	Content string `json:"content"`
}

// Request is one generation.
type Request struct {
	// Messages: at most one system message, first; then user (and
	// assistant) turns.
	Messages []Message
	// MaxOutputTokens caps the answer; 0 means DefaultMaxOutputTokens. An
	// answer cut at the cap is a KindTruncated error, never a result.
	MaxOutputTokens int
}

// DefaultMaxOutputTokens fits a long article (about 3,000 words) with room.
const DefaultMaxOutputTokens = 8192

// Vendors.
const (
	VendorOpenAI    = "openai"
	VendorAnthropic = "anthropic"
	VendorGemini    = "gemini"
	VendorOffline   = "offline"
)

// Response is what the model wrote.
type Response struct {
	Text         string
	Vendor       string
	Model        string // the model id the vendor reports (or the one asked)
	InputTokens  int
	OutputTokens int
	// CostUSD is estimated from the price table (Prices); CostKnown is false
	// when the model is not in it (then CostUSD is 0).
	CostUSD   float64
	CostKnown bool
	Latency   time.Duration
}

// Generator writes text from messages. Implementations are safe for
// concurrent use and bound each call by their own timeout.
type Generator interface {
	Generate(ctx context.Context, req Request) (Response, error)
}

// Split returns the system message (or "") and the other messages.
func (r Request) Split() (system string, turns []Message, err error) {
	for i, m := range r.Messages {
		switch m.Role {
		case RoleSystem:
			if i != 0 {
				return "", nil, errors.New("models: the system message must come first")
			}
			system = m.Content
		case RoleUser, RoleAssistant:
			turns = append(turns, m)
		default:
			return "", nil, fmt.Errorf("models: unknown role %q", m.Role)
		}
	}
	if len(turns) == 0 || turns[0].Role != RoleUser {
		return "", nil, errors.New("models: a request needs a user message after the system message")
	}
	return system, turns, nil
}

// MaxTokens is the request's output cap with the default applied.
func (r Request) MaxTokens() int {
	if r.MaxOutputTokens > 0 {
		return r.MaxOutputTokens
	}
	return DefaultMaxOutputTokens
}

// Kind classifies a failed generation.
type Kind string

// Failure kinds. Only rate_limited, overloaded, timeout and network are
// worth retrying.
const (
	KindRateLimited Kind = "rate_limited" // 429 rate limit; RetryAfter when the vendor says
	KindOverloaded  Kind = "overloaded"   // 5xx, Anthropic 529
	KindTimeout     Kind = "timeout"      // no answer within the per-call timeout
	KindNetwork     Kind = "network"      // connection failure or a body cut short
	KindAuth        Kind = "auth"         // 401/403, or no key configured
	KindQuota       Kind = "quota"        // out of money or daily quota
	KindInvalid     Kind = "invalid"      // the vendor refused the request (400, 404, 422)
	KindTruncated   Kind = "truncated"    // the answer stopped at the output cap
	KindRefused     Kind = "refused"      // content filter, refusal or an empty answer
)

// Error is a failed generation. Its message never contains an API key.
type Error struct {
	Vendor     string
	Model      string
	Kind       Kind
	Status     int    // HTTP status, 0 when none
	Code       string // vendor error type or code
	Message    string
	RetryAfter time.Duration
}

func (e *Error) Error() string {
	return vendorerr.Message(e.Vendor+" "+e.Model, string(e.Kind), e.Status, e.Code, e.Message)
}

// Retryable reports whether asking again may succeed.
func (e *Error) Retryable() bool {
	switch e.Kind {
	case KindRateLimited, KindOverloaded, KindTimeout, KindNetwork:
		return true
	}
	return false
}

// IsRetryable reports whether err is a generation failure worth retrying.
func IsRetryable(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Retryable()
}
