package models

import (
	"fmt"
	"strings"
)

// EnvModels names the generator: offline (the default), openai, anthropic
// or gemini.
const EnvModels = "BRANDLENS_MODELS"

// The vendor generators' settings (read by models/live.FromEnv): the model
// and the per-call timeout.
const (
	EnvContentModel = "BRANDLENS_CONTENT_MODEL"
	EnvModelTimeout = "BRANDLENS_MODEL_TIMEOUT"
)

// Modes of BRANDLENS_MODELS.
const (
	ModeOffline   = VendorOffline
	ModeOpenAI    = VendorOpenAI
	ModeAnthropic = VendorAnthropic
	ModeGemini    = VendorGemini
)

// Mode reads BRANDLENS_MODELS through getenv, checked.
func Mode(getenv func(string) string) (string, error) {
	switch m := strings.ToLower(strings.TrimSpace(getenv(EnvModels))); m {
	case "", ModeOffline:
		return ModeOffline, nil
	case ModeOpenAI, ModeAnthropic, ModeGemini:
		return m, nil
	default:
		return "", fmt.Errorf("%s=%q: want %s, %s, %s or %s", EnvModels, m, ModeOffline, ModeOpenAI, ModeAnthropic, ModeGemini)
	}
}

// FromEnv returns offline — the caller's offline generator — when
// BRANDLENS_MODELS is offline or unset. The vendor modes need the adapters
// of package models/live (live.FromEnv), which binaries that never call a
// vendor do not link; here they are an error.
func FromEnv(getenv func(string) string, offline Generator) (Generator, error) {
	m, err := Mode(getenv)
	if err != nil {
		return nil, err
	}
	if m != ModeOffline {
		return nil, fmt.Errorf("%s=%s: this binary is built without the vendor adapters (models/live.FromEnv)", EnvModels, m)
	}
	return offline, nil
}
