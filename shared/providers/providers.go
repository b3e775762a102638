// Package providers asks AI platforms a monitoring query and returns their
// answers in one shape: chatgpt (OpenAI Responses + web search), perplexity
// (Agent API), gemini (generateContent + Google Search grounding), claude
// (Messages + web search) and google_ai_overview (SerpApi), plus the offline
// simulated and replay providers. The live adapters are in package
// providers/live, so that only the binaries that call the platforms link
// the vendor SDKs.
package providers

import (
	"context"
	"errors"
	"time"

	"github.com/brandlens/brandlens/shared/vendorerr"
)

// Request is one question to one platform.
type Request struct {
	Platform string
	Query    string
	// Sample numbers repeated asks of the same query (0-based); offline
	// providers vary their answers by it.
	Sample int
	// Hints describe the tenant's brand and competitors. Real platforms never
	// see them; the simulated provider builds plausible answers from them.
	Hints Hints
}

// Hints name the brands the simulated provider may mention.
type Hints struct {
	Brand       string
	BrandDomain string
	Competitors []string
}

// Citation is a source the AI answer cites. Start and End are offsets in
// Unicode code points into Answer.Text of the cited span, -1 when the
// platform does not say.
type Citation struct {
	URL     string
	Title   string
	Snippet string
	Start   int
	End     int
	// RedirectURL is the platform's redirect link the source was cited
	// through, when URL had to be derived from it (Gemini's grounding chunks
	// cite vertexaisearch.cloud.google.com/grounding-api-redirect/… links);
	// empty when the platform cited the page itself.
	RedirectURL string
}

// OrganicResult is a classic search result shown beside an AI Overview.
type OrganicResult struct {
	Position int
	URL      string
	Title    string
	Snippet  string
}

// AI Overview states (CitationDto.aiOverviewState).
const (
	OverviewPresent       = "present"  // an AI Overview was shown, text included
	OverviewDeferred      = "deferred" // shown, text fetched by a second call
	OverviewAbsent        = "absent"   // no AI Overview for this query
	OverviewNotApplicable = ""         // not a search platform
)

// Answer is what a platform answered.
type Answer struct {
	Platform string
	Text     string
	// Citations are the sources cited in the answer (ai_response).
	Citations []Citation
	// Sources are URLs consulted but not necessarily cited.
	Sources []string
	// OrganicResults are search results (google_ai_overview only).
	OrganicResults  []OrganicResult
	AIOverviewState string
	Model           string
	InputTokens     int
	OutputTokens    int
	// CostUSD is the vendor's cost of the call when it reports one, else an
	// estimate from the list-price table; 0 for offline providers.
	CostUSD float64
	// CostUnknown is set when the model is not in the price table and the
	// vendor reported no cost: CostUSD is then 0 because it is unknown, not
	// because the call was free.
	CostUnknown bool
	// Truncated is set when the platform stopped the answer at its output
	// limit (OpenAI status incomplete, Anthropic stop_reason max_tokens,
	// Gemini finishReason MAX_TOKENS, …): Text is the part it produced.
	Truncated bool
	Latency   time.Duration
}

// Provider answers queries for one platform.
type Provider interface {
	Platform() string
	Answer(ctx context.Context, req Request) (Answer, error)
}

// Kind classifies a provider failure; the workflow retries only transient ones.
type Kind string

// Failure kinds.
const (
	// KindTransient: rate limited (429 with a rate-limit type), overloaded
	// (5xx, 529), network error or timeout. Retry, honouring RetryAfter.
	KindTransient Kind = "transient"
	// KindQuota: out of money or quota (insufficient_quota, billing_error,
	// RESOURCE_EXHAUSTED with a quota violation). Fail fast.
	KindQuota Kind = "quota"
	// KindAuth: the platform refused our credentials (401/403). Fail fast.
	KindAuth Kind = "auth"
	// KindInvalid: the platform refused the request (400, 404). Fail fast.
	KindInvalid Kind = "invalid"
	// KindFailedAnswer: a 2xx whose body says the answer failed (status
	// failed/incomplete/cancelled, a tool error inside a 200, no text).
	KindFailedAnswer Kind = "failed_answer"
	// KindNoAnswer: an offline provider has no answer for the query.
	KindNoAnswer Kind = "no_answer"
)

// Error is a provider failure.
type Error struct {
	Platform   string
	Kind       Kind
	Status     int    // HTTP status, 0 when none
	Code       string // vendor error code or type
	Message    string
	RetryAfter time.Duration
	// Detail is the raw cause (redacted of keys) for the logs; it may name
	// addresses and internal hosts, so it never reaches a job record.
	Detail string
}

func (e *Error) Error() string {
	return vendorerr.Message(e.Platform, string(e.Kind), e.Status, e.Code, e.Message)
}

// Retryable reports whether trying again may succeed.
func (e *Error) Retryable() bool { return e.Kind == KindTransient }

// IsRetryable reports whether err is a provider error worth retrying.
func IsRetryable(err error) bool {
	var pe *Error
	return errors.As(err, &pe) && pe.Retryable()
}
