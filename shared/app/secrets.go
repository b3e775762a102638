package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/brandlens/brandlens/shared/providers"
)

// The AI platforms' keys live in one Secrets Manager secret that operators
// rotate while functions are warm (aws secretsmanager put-secret-value).
// A warm function keeps what it read for a TTL, then reads the secret
// again, and rebuilds the providers only when the keys changed. A
// platform refusing our key (providers.KindAuth) makes it read the secret
// at once — at most every authRefreshEvery — and, when the keys changed,
// ask once more with the new ones: the first call after a rotation
// succeeds instead of failing its sample.

// Timing of the reads after the first.
const (
	// authRefreshEvery bounds the reads an auth failure triggers.
	authRefreshEvery = 30 * time.Second
	// retryReadAfter is how soon a failed read is tried again (the keys
	// read before keep serving meanwhile).
	retryReadAfter = 30 * time.Second
)

// rotatingKeys is the provider keys secret and the providers built from it.
type rotatingKeys struct {
	read  func(ctx context.Context) ([]byte, error)
	build func(keys map[string]string) (providers.Set, error)
	ttl   time.Duration
	now   func() time.Time
	log   *slog.Logger

	mu     sync.Mutex
	raw    string
	set    providers.Set
	due    time.Time // next TTL read
	forced time.Time // last read an auth failure triggered
}

// newRotatingKeys reads the secret once (a failure fails the cold start)
// and returns the providers, one per platform, that follow its rotations.
func newRotatingKeys(ctx context.Context, k *rotatingKeys) (providers.Set, error) {
	raw, err := k.read(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := k.install(raw); err != nil {
		return nil, err
	}
	out := providers.Set{}
	for p := range k.set {
		out[p] = rotatingProvider{platform: p, keys: k}
	}
	return out, nil
}

// install builds the providers of raw when it differs from the keys in
// use; it reports whether it did. The caller holds mu (or has k alone).
func (k *rotatingKeys) install(raw []byte) (bool, error) {
	k.due = k.now().Add(k.ttl)
	if k.set != nil && string(raw) == k.raw {
		return false, nil
	}
	keys := map[string]string{}
	if err := json.Unmarshal(raw, &keys); err != nil {
		return false, fmt.Errorf("app: the provider keys secret must be a JSON object of strings: %w", err)
	}
	set, err := k.build(keys)
	if err != nil {
		return false, err
	}
	k.raw, k.set = string(raw), set
	return true, nil
}

// current is the providers in use, read again when the TTL has passed.
func (k *rotatingKeys) current(ctx context.Context) providers.Set {
	k.mu.Lock()
	defer k.mu.Unlock()
	if !k.now().Before(k.due) {
		k.reload(ctx)
	}
	return k.set
}

// afterAuthFailure reads the secret at once (unless it did within
// authRefreshEvery) and returns the providers when the keys changed.
func (k *rotatingKeys) afterAuthFailure(ctx context.Context) (providers.Set, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	now := k.now()
	if !k.forced.IsZero() && now.Sub(k.forced) < authRefreshEvery {
		return nil, false
	}
	k.forced = now
	return k.set, k.reload(ctx)
}

// reload reads the secret; on failure the keys in use keep serving and the
// read is tried again after retryReadAfter. The caller holds mu.
func (k *rotatingKeys) reload(ctx context.Context) bool {
	raw, err := k.read(ctx)
	if err == nil {
		var changed bool
		if changed, err = k.install(raw); err == nil {
			if changed {
				k.log.Info("provider keys: new keys read from Secrets Manager")
			}
			return changed
		}
	}
	k.due = k.now().Add(min(retryReadAfter, k.ttl))
	k.log.Error("provider keys: reading them again failed; the keys read before keep serving", "error", err.Error())
	return false
}

// rotatingProvider answers with the provider of the current keys.
type rotatingProvider struct {
	platform string
	keys     *rotatingKeys
}

func (p rotatingProvider) Platform() string { return p.platform }

func (p rotatingProvider) Answer(ctx context.Context, req providers.Request) (providers.Answer, error) {
	ans, err := p.ask(ctx, p.keys.current(ctx), req)
	var pe *providers.Error
	if !errors.As(err, &pe) || pe.Kind != providers.KindAuth {
		return ans, err
	}
	if set, changed := p.keys.afterAuthFailure(ctx); changed {
		return p.ask(ctx, set, req)
	}
	return ans, err
}

func (p rotatingProvider) ask(ctx context.Context, set providers.Set, req providers.Request) (providers.Answer, error) {
	prov, ok := set[p.platform]
	if !ok {
		return providers.Answer{}, &providers.Error{Platform: p.platform, Kind: providers.KindInvalid, Message: "no provider is configured for " + p.platform}
	}
	return prov.Answer(ctx, req)
}
