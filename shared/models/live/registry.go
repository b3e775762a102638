package live

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/brandlens/brandlens/shared/models"
)

// Variables FromEnv reads (beside BRANDLENS_MODELS).
const (
	EnvContentModel = models.EnvContentModel
	EnvModelTimeout = models.EnvModelTimeout
)

// vendorEnv names the variables of each vendor (shared with the answer
// providers of the same vendors).
var vendorEnv = map[string]struct{ key, base string }{
	models.VendorOpenAI:    {"OPENAI_API_KEY", "OPENAI_BASE_URL"},
	models.VendorAnthropic: {"ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"},
	models.VendorGemini:    {"GEMINI_API_KEY", "GEMINI_BASE_URL"},
}

// FromEnv returns the generator the environment asks for. getenv is
// os.Getenv in production (a map lookup in tests); client carries every
// vendor call (nil: a plain http.Client); offline is returned for the
// offline mode.
//
//	BRANDLENS_MODELS         offline (default) | openai | anthropic | gemini
//	BRANDLENS_CONTENT_MODEL  the model (default gpt-5.5, claude-sonnet-4-6 or gemini-3.5-flash)
//	BRANDLENS_MODEL_TIMEOUT  per-call timeout, a Go duration (default 180s)
//	OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY      the vendor's key
//	OPENAI_BASE_URL, ANTHROPIC_BASE_URL, GEMINI_BASE_URL   its endpoint (tests point it at a fake)
//
// A vendor without a key still starts: each call fails with KindAuth
// naming the variable, so the job fails at 0 credits with the reason in
// its error and the audit log. An unknown mode or an invalid timeout is an
// error.
func FromEnv(getenv func(string) string, client *http.Client, offline models.Generator) (models.Generator, error) {
	mode, err := models.Mode(getenv)
	if err != nil {
		return nil, err
	}
	if mode == models.ModeOffline {
		return offline, nil
	}
	env := func(k string) string { return strings.TrimSpace(getenv(k)) }
	cfg := Config{BaseURL: env(vendorEnv[mode].base), Model: env(EnvContentModel), HTTPClient: client, Timeout: DefaultTimeout}
	if v := env(EnvModelTimeout); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("%s=%q is not a positive duration such as 180s", EnvModelTimeout, v)
		}
		cfg.Timeout = d
	}
	cfg.APIKey = env(vendorEnv[mode].key)
	if cfg.APIKey == "" {
		return missingKey{vendor: mode, env: vendorEnv[mode].key}, nil
	}
	switch mode {
	case models.ModeOpenAI:
		return NewOpenAI(cfg), nil
	case models.ModeAnthropic:
		return NewAnthropic(cfg), nil
	}
	return NewGemini(cfg), nil
}

// missingKey stands in for a vendor without a key.
type missingKey struct{ vendor, env string }

func (m missingKey) Generate(context.Context, models.Request) (models.Response, error) {
	return models.Response{}, &models.Error{Vendor: m.vendor, Kind: models.KindAuth, Code: "missing_api_key",
		Message: m.env + " is not set, so " + m.vendor + " cannot generate"}
}
