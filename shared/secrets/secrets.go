// Package secrets keeps the secrets tenants give the service — webhook
// signing secrets, and the publish destinations' to come — encrypted at
// rest, so that a table backup, a point-in-time export or a stray log
// line does not hand them out.
//
// Envelope encryption: each secret is sealed with AES-256-GCM under a data
// key of its own, and the data key is stored wrapped under a
// key-encryption key — an AWS KMS key in AWS (GenerateDataKey, Decrypt),
// or locally a key of the keyring file in the data directory. The Sealed
// envelope names the key-encryption key (kid), so keys can rotate: new
// secrets are sealed under the current key, and old envelopes still open
// under the key they name. Each envelope is bound to what it belongs to
// (purpose, tenant, record): the binding is the AES-GCM associated data
// and the KMS encryption context, so a ciphertext copied to another record
// or tenant does not open. Plain texts and data keys are never logged;
// unwrapped data keys are cached in memory for a few minutes, so a worker
// does not ask KMS once per delivery.
package secrets

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
)

// Version is the envelope format written by Seal.
const Version = 1

// DataKeySize is the size of data keys (AES-256).
const DataKeySize = 32

// Cache bounds of unwrapped data keys.
const (
	cacheSize = 4096
	cacheTTL  = 5 * time.Minute
)

// Binding names what a secret belongs to.
type Binding struct {
	Purpose  string // e.g. "webhook-subscription-secret"
	TenantID int32
	RecordID string
}

// Context is the binding as a KMS encryption context.
func (b Binding) Context() map[string]string {
	return map[string]string{"purpose": b.Purpose, "tenant": strconv.Itoa(int(b.TenantID)), "record": b.RecordID}
}

// Sealed is a secret as stored: the data key wrapped under key KeyID, and
// the secret under the data key.
type Sealed struct {
	Version    int    `json:"v"`
	KeyID      string `json:"kid"`
	WrappedKey []byte `json:"wk"`
	Nonce      []byte `json:"n"`
	Ciphertext []byte `json:"ct"`
}

// Keys are the key-encryption keys: they make and unwrap data keys.
type Keys interface {
	// DataKey returns a new data key of DataKeySize bytes and the same key
	// wrapped under the current key-encryption key, which kid names; ec is
	// bound to the wrapping.
	DataKey(ctx context.Context, ec map[string]string) (kid string, key, wrapped []byte, err error)
	// Unwrap returns the data key wrapped under kid with ec.
	Unwrap(ctx context.Context, kid string, wrapped []byte, ec map[string]string) ([]byte, error)
	// Current reports whether kid is the key new secrets are sealed under.
	Current(kid string) bool
}

// ErrOpen: the envelope does not open — wrong binding, tampered, or the
// key it names is unknown or refused.
var ErrOpen = errors.New("secrets: cannot open the sealed secret")

// Sealer seals and opens secrets with its keys.
type Sealer struct {
	keys Keys
	// cache holds unwrapped data keys until their expiry (checked on
	// read: no goroutine of its own).
	cache *lru.Cache[[32]byte, cachedKey]
}

type cachedKey struct {
	key   []byte
	until time.Time
}

// NewSealer returns a sealer over keys.
func NewSealer(keys Keys) *Sealer {
	c, err := lru.New[[32]byte, cachedKey](cacheSize)
	if err != nil {
		panic(err) // only for a size <= 0
	}
	return &Sealer{keys: keys, cache: c}
}

func (s *Sealer) remember(k [32]byte, key []byte) {
	s.cache.Add(k, cachedKey{key: key, until: time.Now().Add(cacheTTL)})
}

func (s *Sealer) recall(k [32]byte) ([]byte, bool) {
	c, ok := s.cache.Get(k)
	if !ok || time.Now().After(c.until) {
		return nil, false
	}
	return c.key, true
}

// aad is the associated data of an envelope: its format, key and binding.
func aad(version int, kid string, b Binding) []byte {
	out, _ := json.Marshal([]any{"brandlens-secret", version, kid, b.Purpose, b.TenantID, b.RecordID})
	return out
}

// Seal encrypts secret for b under a new data key.
func (s *Sealer) Seal(ctx context.Context, secret string, b Binding) (Sealed, error) {
	kid, key, wrapped, err := s.keys.DataKey(ctx, b.Context())
	if err != nil {
		return Sealed{}, fmt.Errorf("secrets: new data key: %w", err)
	}
	if len(key) != DataKeySize {
		return Sealed{}, fmt.Errorf("secrets: data key of %d bytes", len(key))
	}
	gcm, err := newGCM(key)
	if err != nil {
		return Sealed{}, err
	}
	nonce := make([]byte, gcm.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return Sealed{}, fmt.Errorf("secrets: nonce: %w", err)
	}
	ct := gcm.Seal(nil, nonce, []byte(secret), aad(Version, kid, b))
	s.remember(cacheKey(kid, wrapped), key)
	return Sealed{Version: Version, KeyID: kid, WrappedKey: wrapped, Nonce: nonce, Ciphertext: ct}, nil
}

// Open decrypts a secret sealed for b. Any mismatch — another binding, a
// changed byte, an unknown key — is ErrOpen (wrapping the cause).
func (s *Sealer) Open(ctx context.Context, sl Sealed, b Binding) (string, error) {
	if sl.Version != Version || sl.KeyID == "" || len(sl.WrappedKey) == 0 {
		return "", fmt.Errorf("%w: unknown envelope (version %d)", ErrOpen, sl.Version)
	}
	ck := cacheKey(sl.KeyID, sl.WrappedKey)
	key, ok := s.recall(ck)
	if !ok {
		var err error
		if key, err = s.keys.Unwrap(ctx, sl.KeyID, sl.WrappedKey, b.Context()); err != nil {
			return "", fmt.Errorf("%w: %w", ErrOpen, err)
		}
	}
	gcm, err := newGCM(key)
	if err != nil {
		return "", err
	}
	if len(sl.Nonce) != gcm.NonceSize() {
		return "", fmt.Errorf("%w: bad nonce", ErrOpen)
	}
	pt, err := gcm.Open(nil, sl.Nonce, sl.Ciphertext, aad(sl.Version, sl.KeyID, b))
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrOpen, err)
	}
	if !ok {
		// A cached key still opens only its own record: the binding is
		// checked by GCM above on every Open.
		s.remember(ck, key)
	}
	return string(pt), nil
}

// Current reports whether sl is sealed under the current key (a rotation
// leaves older envelopes to be sealed again).
func (s *Sealer) Current(sl Sealed) bool { return sl.Version == Version && s.keys.Current(sl.KeyID) }

// cacheKey identifies a wrapped data key; the key itself is bound to the
// record through the GCM check in Open.
func cacheKey(kid string, wrapped []byte) [32]byte {
	h := sha256.New()
	h.Write([]byte(kid))
	h.Write([]byte{0})
	h.Write(wrapped)
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}

func newGCM(key []byte) (cipher.AEAD, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("secrets: %w", err)
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("secrets: %w", err)
	}
	return gcm, nil
}

// Unavailable are the keys of a process that may neither seal nor open
// (in AWS, a function the secrets key's policy does not name).
type Unavailable struct{ Reason string }

// DataKey implements Keys.
func (u Unavailable) DataKey(context.Context, map[string]string) (string, []byte, []byte, error) {
	return "", nil, nil, errors.New(u.Reason)
}

// Unwrap implements Keys.
func (u Unavailable) Unwrap(context.Context, string, []byte, map[string]string) ([]byte, error) {
	return nil, errors.New(u.Reason)
}

// Current implements Keys.
func (Unavailable) Current(string) bool { return true }
