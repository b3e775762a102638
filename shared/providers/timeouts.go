package providers

import (
	"fmt"
	"strings"
	"time"

	"github.com/brandlens/brandlens/shared/platforms"
)

// Per-call timeouts of the live platforms: one Answer call, every HTTP
// round trip of it included (Claude's pause_turn continuations, SerpApi's
// follow-up request, Gemini's grounding-redirect lookups). No vendor
// publishes a latency bound; the official SDKs default to 10 minutes
// (openai-go, anthropic-sdk-go: "we recommend 10 minutes" for non-streaming
// Messages), and web-search answers measured by third parties take 10–60 s
// (gpt-5.5 with ~8 searches ≈ 51 s). The defaults leave about 3× headroom
// over the slow end without holding a worker for the SDKs' 10 minutes.
const (
	// TimeoutChatGPT: reasoning models run several web searches per answer.
	TimeoutChatGPT = 180 * time.Second
	// TimeoutPerplexity: the Agent API runs a multi-step search loop.
	TimeoutPerplexity = 180 * time.Second
	// TimeoutGemini: one generateContent call with Google Search grounding.
	TimeoutGemini = 120 * time.Second
	// TimeoutClaude: up to max_uses searches, and pause_turn continuations
	// share the budget.
	TimeoutClaude = 240 * time.Second
	// TimeoutGoogleAIOverview: up to three SerpApi requests of a few seconds
	// each (search, uncached re-search, page_token follow-up).
	TimeoutGoogleAIOverview = 90 * time.Second
	// TimeoutOther applies to any other platform name.
	TimeoutOther = 60 * time.Second
)

// EnvProviderTimeout overrides every platform's timeout (a Go duration);
// EnvProviderTimeout + "_" + upper-case platform (for example
// BRANDLENS_PROVIDER_TIMEOUT_CLAUDE) overrides one platform and wins.
const EnvProviderTimeout = "BRANDLENS_PROVIDER_TIMEOUT"

// DefaultTimeout is platform's per-call timeout without overrides.
func DefaultTimeout(platform string) time.Duration {
	switch platform {
	case platforms.ChatGPT:
		return TimeoutChatGPT
	case platforms.Perplexity:
		return TimeoutPerplexity
	case platforms.Gemini:
		return TimeoutGemini
	case platforms.Claude:
		return TimeoutClaude
	case platforms.GoogleAIOverview:
		return TimeoutGoogleAIOverview
	}
	return TimeoutOther
}

// Timeouts returns the per-call timeout of every platform, defaults
// overridden by the environment (getenv is os.Getenv in production). It is
// the one place a deadline for a whole run is derived from; the expected
// derivation for one (platform, sample) item under the query-execution
// workflow's platform step's item retries (runs.TransientRetry: retries R,
// first wait I, growth B, longest wait D; the figures of the ASL Retry they
// replaced) is
//
//	timeout × (1 + R) + Σ_{k<R} min(I·B^k, D) + R × min(Retry-After, 20 s)
//
// (the last term is the step's own wait on a rate limit), and a job's
// deadline is that of its slowest platform, at most the RunPlatforms
// task's timeout, plus the bound of MarkRunning and Settle
// (runs.Deadline). An override that is
// not a positive duration is an error naming the variable.
func Timeouts(getenv func(string) string) (map[string]time.Duration, error) {
	parse := func(name string) (time.Duration, bool, error) {
		v := strings.TrimSpace(getenv(name))
		if v == "" {
			return 0, false, nil
		}
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return 0, false, fmt.Errorf("%s=%q is not a positive duration such as 90s", name, v)
		}
		return d, true, nil
	}
	all, allSet, err := parse(EnvProviderTimeout)
	if err != nil {
		return nil, err
	}
	out := make(map[string]time.Duration, len(platforms.All))
	for _, pf := range platforms.All {
		out[pf] = DefaultTimeout(pf)
		if allSet {
			out[pf] = all
		}
		d, ok, err := parse(EnvProviderTimeout + "_" + strings.ToUpper(pf))
		if err != nil {
			return nil, err
		}
		if ok {
			out[pf] = d
		}
	}
	return out, nil
}
