package providers

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/brandlens/brandlens/shared/platforms"
)

// Set holds one Provider per platform, keyed by platform wire name.
type Set map[string]Provider

// For returns the provider of platform. Copilot and any other name that is
// not a platform is KindInvalid: consumer Copilot has no official API.
func (s Set) For(platform string) (Provider, error) {
	if p, ok := s[platform]; ok {
		return p, nil
	}
	msg := fmt.Sprintf("%q is not a supported platform (supported: %s)", platform, strings.Join(platforms.All, ", "))
	if strings.EqualFold(platform, "copilot") {
		msg = "copilot is not supported: there is no official API for consumer Copilot answers"
	}
	return nil, &Error{Platform: platform, Kind: KindInvalid, Code: "unsupported_platform", Message: msg}
}

// Provider modes of BRANDLENS_PROVIDERS.
const (
	ModeSimulated = "simulated"
	ModeReplay    = "replay"
	ModeLive      = "live"
)

// FromEnv builds the offline provider set the environment asks for:
// simulated (the default) or replay. getenv is os.Getenv in production (a
// map lookup in tests); client is unused here and kept for the signature
// shared with live.FromEnv, which adds live mode. The live adapters live in
// package providers/live so that binaries that never call a platform do not
// link the vendor SDKs.
//
// Variables:
//
//	BRANDLENS_PROVIDERS   simulated (default) | replay | live (live.FromEnv only)
//	BRANDLENS_REPLAY_FILE replay mode: path of the replay JSON file (required)
//
// An unknown mode, live mode, and a missing or invalid replay file are
// errors.
func FromEnv(getenv func(string) string, client *http.Client) (Set, error) {
	env := func(k string) string { return strings.TrimSpace(getenv(k)) }
	set := Set{}
	switch mode := strings.ToLower(env("BRANDLENS_PROVIDERS")); mode {
	case "", ModeSimulated:
		for _, pf := range platforms.All {
			set[pf] = NewSimulated(pf)
		}
	case ModeReplay:
		path := env("BRANDLENS_REPLAY_FILE")
		if path == "" {
			return nil, fmt.Errorf("BRANDLENS_PROVIDERS=replay needs BRANDLENS_REPLAY_FILE")
		}
		r, err := LoadReplay(path)
		if err != nil {
			return nil, err
		}
		for _, pf := range platforms.All {
			set[pf] = r.Provider(pf)
		}
	case ModeLive:
		return nil, fmt.Errorf("BRANDLENS_PROVIDERS=live: this binary is built without the live providers (providers/live.FromEnv)")
	default:
		return nil, fmt.Errorf("BRANDLENS_PROVIDERS=%q: want %s, %s or %s", mode, ModeSimulated, ModeReplay, ModeLive)
	}
	return set, nil
}
