package providers

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

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

// EnvLatency makes the offline providers answer after a delay, as a real
// platform does: demos, and tests that stop the service while answers are
// awaited.
const EnvLatency = "BRANDLENS_PROVIDER_LATENCY"

// delayed answers after latency, unless the call is cancelled first.
type delayed struct {
	Provider
	latency time.Duration
}

func (d *delayed) Answer(ctx context.Context, req Request) (Answer, error) {
	t := time.NewTimer(d.latency)
	defer t.Stop()
	select {
	case <-t.C:
		return d.Provider.Answer(ctx, req)
	case <-ctx.Done():
		return Answer{}, &Error{Platform: d.Platform(), Kind: KindTransient, Code: "cancelled", Message: "call cancelled"}
	}
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
//	BRANDLENS_PROVIDERS        simulated (default) | replay | live (live.FromEnv only)
//	BRANDLENS_REPLAY_FILE      replay mode: path of the replay JSON file (required)
//	BRANDLENS_PROVIDER_LATENCY simulated and replay answers take this long (a Go duration; default 0)
//
// An unknown mode, live mode, a missing or invalid replay file and a
// latency that is not a duration are errors.
func FromEnv(getenv func(string) string, client *http.Client) (Set, error) {
	env := func(k string) string { return strings.TrimSpace(getenv(k)) }
	set := Set{}
	var latency time.Duration
	if v := env(EnvLatency); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return nil, fmt.Errorf("%s=%q is not a duration such as 3s", EnvLatency, v)
		}
		latency = d
	}
	defer func() {
		if latency > 0 {
			for pf, p := range set {
				set[pf] = &delayed{Provider: p, latency: latency}
			}
		}
	}()
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
