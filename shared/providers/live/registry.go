package live

import (
	"context"
	"net/http"
	"strings"

	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/ssrf"
)

// EnvGroundingRedirectPrefix names where Gemini's grounding redirect links
// start (default DefaultGroundingRedirectPrefix); tests and local fakes
// point it at a loopback server, which BRANDLENS_ALLOW_LOOPBACK_TARGETS=1
// must then admit.
const EnvGroundingRedirectPrefix = "GEMINI_GROUNDING_REDIRECT_PREFIX"

// liveEnv names the variables of one live platform.
var liveEnv = []struct {
	platform, key, base, model string
}{
	{platforms.ChatGPT, "OPENAI_API_KEY", "OPENAI_BASE_URL", "BRANDLENS_MODEL_CHATGPT"},
	{platforms.Perplexity, "PERPLEXITY_API_KEY", "PERPLEXITY_BASE_URL", "BRANDLENS_MODEL_PERPLEXITY"},
	{platforms.Gemini, "GEMINI_API_KEY", "GEMINI_BASE_URL", "BRANDLENS_MODEL_GEMINI"},
	{platforms.Claude, "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "BRANDLENS_MODEL_CLAUDE"},
	{platforms.GoogleAIOverview, "SERPAPI_API_KEY", "SERPAPI_BASE_URL", ""},
}

// FromEnv builds the provider set the environment asks for, live adapters
// included (providers.FromEnv builds the offline modes only). getenv is
// os.Getenv in production (a map lookup in tests); client carries every
// live call, except that nil and http.DefaultClient (which honours
// HTTP(S)_PROXY and caps nothing) get the dedicated NewHTTPClient.
//
// Variables:
//
//	BRANDLENS_PROVIDERS        simulated (default) | replay | live
//	BRANDLENS_REPLAY_FILE      replay mode: path of the replay JSON file (required)
//	BRANDLENS_PROVIDER_TIMEOUT live mode: every platform's per-call timeout, a Go duration
//	                           (defaults: providers.DefaultTimeout; _CHATGPT, _CLAUDE, … suffixes override one)
//	GEMINI_GROUNDING_REDIRECT_PREFIX  default https://vertexaisearch.cloud.google.com/grounding-api-redirect/
//	BRANDLENS_ALLOW_LOOPBACK_TARGETS  1: grounding redirects may be resolved on loopback (local fakes only)
//	OPENAI_API_KEY             live chatgpt key
//	PERPLEXITY_API_KEY         live perplexity key
//	GEMINI_API_KEY             live gemini key
//	ANTHROPIC_API_KEY          live claude key
//	SERPAPI_API_KEY            live google_ai_overview key
//	OPENAI_BASE_URL            default https://api.openai.com/v1/
//	PERPLEXITY_BASE_URL        default https://api.perplexity.ai (the adapter adds /v1/responses)
//	GEMINI_BASE_URL            default https://generativelanguage.googleapis.com/ (the SDK adds v1beta/models/…)
//	ANTHROPIC_BASE_URL         default https://api.anthropic.com/ (the SDK adds v1/messages)
//	SERPAPI_BASE_URL           default https://serpapi.com (the adapter adds /search.json)
//	BRANDLENS_MODEL_CHATGPT    default gpt-5.5
//	BRANDLENS_MODEL_PERPLEXITY default perplexity/sonar
//	BRANDLENS_MODEL_GEMINI     default gemini-3.5-flash
//	BRANDLENS_MODEL_CLAUDE     default claude-sonnet-4-6
//
// In live mode a platform whose key is unset gets a provider that fails
// every call with KindAuth naming the variable, so the other platforms
// still run. An unknown mode, a missing or invalid replay file and an
// invalid timeout are errors.
func FromEnv(getenv func(string) string, client *http.Client) (providers.Set, error) {
	env := func(k string) string { return strings.TrimSpace(getenv(k)) }
	if mode := strings.ToLower(env("BRANDLENS_PROVIDERS")); mode != providers.ModeLive {
		// simulated, replay, or an unknown mode (an error).
		return providers.FromEnv(getenv, client)
	}
	set := providers.Set{}
	timeouts, err := providers.Timeouts(getenv)
	if err != nil {
		return nil, err
	}
	prices := NewPriceBook(nil)
	redirects := NewRedirectResolver(ssrf.FromGetenv(getenv), env(EnvGroundingRedirectPrefix))
	for _, le := range liveEnv {
		timeout := timeouts[le.platform]
		hc := client
		if hc == nil || hc == http.DefaultClient {
			hc = NewHTTPClient(timeout)
		}
		cfg := Config{APIKey: env(le.key), BaseURL: env(le.base), HTTPClient: hc, Timeout: timeout,
			Prices: prices, GroundingRedirects: redirects}
		if le.model != "" {
			cfg.Model = env(le.model)
		}
		if cfg.APIKey == "" {
			set[le.platform] = missingKey{platform: le.platform, env: le.key}
			continue
		}
		set[le.platform] = NewLive(le.platform, cfg)
	}
	return set, nil
}

// NewLive returns the live adapter of platform, nil for an unknown one.
func NewLive(platform string, cfg Config) providers.Provider {
	switch platform {
	case platforms.ChatGPT:
		return NewChatGPT(cfg)
	case platforms.Perplexity:
		return NewPerplexity(cfg)
	case platforms.Gemini:
		return NewGemini(cfg)
	case platforms.Claude:
		return NewClaude(cfg)
	case platforms.GoogleAIOverview:
		return NewGoogleAIOverview(cfg)
	}
	return nil
}

// missingKey stands in for a live platform without a key.
type missingKey struct{ platform, env string }

func (m missingKey) Platform() string { return m.platform }

func (m missingKey) Answer(context.Context, providers.Request) (providers.Answer, error) {
	return providers.Answer{}, &providers.Error{Platform: m.platform, Kind: providers.KindAuth, Code: "missing_api_key",
		Message: m.env + " is not set, so " + m.platform + " cannot be asked in live mode"}
}
