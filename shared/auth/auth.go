// Package auth holds API keys: their format, the keyed hash they are stored
// and looked up by, scopes, the agent flag with its autonomy level, and
// revocation.
package auth

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/brandlens/brandlens/shared/ids"
	"github.com/brandlens/brandlens/shared/store"
)

// Scope is a permission level of a key. Scopes are ordered: publish implies
// read_write, which implies read.
type Scope string

// Scopes.
const (
	ScopeRead      Scope = "read"
	ScopeReadWrite Scope = "read_write"
	ScopePublish   Scope = "publish"
)

func (s Scope) rank() int {
	switch s {
	case ScopeRead:
		return 1
	case ScopeReadWrite:
		return 2
	case ScopePublish:
		return 3
	}
	return 0
}

// Valid reports whether s is a known scope.
func (s Scope) Valid() bool { return s.rank() > 0 }

// Autonomy is the trust level an agent key acts under.
type Autonomy string

// Autonomy levels: L0 manual, L1 auto-propose, L2 auto-publish.
const (
	L0 Autonomy = "L0"
	L1 Autonomy = "L1"
	L2 Autonomy = "L2"
)

// Valid reports whether a is a known level.
func (a Autonomy) Valid() bool { return a == L0 || a == L1 || a == L2 }

// KeyPrefix starts every generated key, so that leaked keys are easy to
// recognise (secret scanners, logs) and to tell from other tokens.
const KeyPrefix = "bl_live_"

// MinSeedKeyLen is the shortest plaintext accepted for a seeded key.
const MinSeedKeyLen = 24

var b32 = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// NewKeyPlaintext returns a new key: the prefix and 160 bits from crypto/rand.
func NewKeyPlaintext() string {
	var b [20]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(fmt.Sprintf("auth: crypto/rand failed: %v", err)) // the OS RNG never fails on supported platforms
	}
	return KeyPrefix + b32.EncodeToString(b[:])
}

// Hasher derives the stored lookup hash of a key: HMAC-SHA-256 under a
// server secret. Keys are high-entropy, so a slow hash adds nothing and
// would make lookup by hash impossible.
type Hasher struct {
	// macs keyed with the secret are reused: keying one costs more than
	// hashing a key.
	macs sync.Pool
}

// NewHasher returns a hasher for the secret (at least 32 bytes).
func NewHasher(secret []byte) (*Hasher, error) {
	if len(secret) < 32 {
		return nil, errors.New("auth: key secret must be at least 32 bytes")
	}
	secret = slices.Clone(secret)
	return &Hasher{macs: sync.Pool{New: func() any { return hmac.New(sha256.New, secret) }}}, nil
}

// Hash returns the lowercase hex HMAC of the plaintext key.
func (h *Hasher) Hash(plaintext string) string {
	m := h.macs.Get().(hash.Hash)
	m.Reset()
	m.Write([]byte(plaintext))
	var sum [sha256.Size]byte
	s := hex.EncodeToString(m.Sum(sum[:0]))
	h.macs.Put(m)
	return s
}

// Key is the stored record of an API key (never the plaintext).
type Key struct {
	ID        string     `json:"id"`
	TenantID  int32      `json:"tenantId"`
	Name      string     `json:"name"`
	Hint      string     `json:"hint"` // the first characters, to tell keys apart
	Scopes    []Scope    `json:"scopes"`
	IsAgent   bool       `json:"isAgent"`
	Autonomy  Autonomy   `json:"autonomyLevel"`
	CreatedAt time.Time  `json:"createdAt"`
	RevokedAt *time.Time `json:"revokedAt,omitempty"`
}

// Principal is who a request acts as, after authentication.
type Principal struct {
	TenantID int32
	KeyID    string
	Scopes   []Scope
	IsAgent  bool
	Autonomy Autonomy
}

// Level is the autonomy level whose rules hold for the principal: its
// key's for an agent; L2 for a human key, which is never held for
// approval whatever level its record carries.
func (p Principal) Level() Autonomy {
	if !p.IsAgent {
		return L2
	}
	return p.Autonomy
}

// Allows reports whether any of the principal's scopes implies need.
func (p Principal) Allows(need Scope) bool {
	for _, s := range p.Scopes {
		if s.rank() >= need.rank() {
			return true
		}
	}
	return false
}

// CanReview reports whether the principal may approve or reject approval
// requests: a human (non-agent) key with the publish scope.
func (p Principal) CanReview() bool { return !p.IsAgent && p.Allows(ScopePublish) }

var (
	// ErrInvalidKey covers unknown and revoked keys alike, so that callers
	// cannot tell them apart.
	ErrInvalidKey = errors.New("auth: invalid api key")
	// ErrKeyExists: the same plaintext is already stored.
	ErrKeyExists = errors.New("auth: key already exists")
)

// Keys stores and looks up API keys.
type Keys struct {
	tbl    store.Table
	hasher *Hasher
	now    func() time.Time
}

// NewKeys returns the key repository.
func NewKeys(tbl store.Table, hasher *Hasher, now func() time.Time) *Keys {
	if now == nil {
		now = time.Now
	}
	return &Keys{tbl: tbl, hasher: hasher, now: now}
}

func hashKey(hash string) store.Key { return store.Key{PK: "APIKEY#" + hash, SK: "APIKEY"} }

func tenantKeysPK(tenantID int32) string {
	return "TENANT#" + strconv.Itoa(int(tenantID)) + "#APIKEYS"
}

// NewKey describes a key to create.
type NewKey struct {
	TenantID int32
	Name     string
	Scopes   []Scope
	IsAgent  bool
	Autonomy Autonomy
	// Plaintext, when set, is stored instead of a generated key (seeds).
	Plaintext string
}

// Create stores a key and returns its plaintext (shown once) and record.
// A given plaintext is stored idempotently: creating it again for the same
// tenant returns the existing record.
func (k *Keys) Create(ctx context.Context, nk NewKey) (string, Key, error) {
	if len(nk.Scopes) == 0 {
		return "", Key{}, errors.New("auth: a key needs at least one scope")
	}
	for _, s := range nk.Scopes {
		if !s.Valid() {
			return "", Key{}, fmt.Errorf("auth: unknown scope %q", s)
		}
	}
	if nk.Autonomy == "" {
		nk.Autonomy = L0
	}
	if !nk.Autonomy.Valid() {
		return "", Key{}, fmt.Errorf("auth: unknown autonomy level %q", nk.Autonomy)
	}
	plain := nk.Plaintext
	if plain == "" {
		plain = NewKeyPlaintext()
	} else if len(plain) < MinSeedKeyLen {
		return "", Key{}, fmt.Errorf("auth: a given key must be at least %d characters", MinSeedKeyLen)
	}
	now := k.now().UTC()
	rec := Key{
		ID:        "key_" + ids.ULID(now),
		TenantID:  nk.TenantID,
		Name:      nk.Name,
		Hint:      plain[:min(len(plain), len(KeyPrefix)+4)],
		Scopes:    slices.Clone(nk.Scopes),
		IsAgent:   nk.IsAgent,
		Autonomy:  nk.Autonomy,
		CreatedAt: now,
	}
	doc, err := store.EncodeDoc(rec)
	if err != nil {
		return "", Key{}, err
	}
	hk := hashKey(k.hasher.Hash(plain))
	item := store.Item{
		store.AttrPK: hk.PK, store.AttrSK: hk.SK,
		store.AttrGSI1PK: tenantKeysPK(nk.TenantID), store.AttrGSI1SK: rec.ID,
		store.AttrDoc: doc,
	}
	err = k.tbl.Put(ctx, item, store.NotExists())
	if errors.Is(err, store.ErrConditionFailed) {
		existing, gerr := k.byHash(ctx, hk)
		if gerr == nil && existing.TenantID == nk.TenantID {
			return plain, existing, nil
		}
		return "", Key{}, ErrKeyExists
	}
	if err != nil {
		return "", Key{}, fmt.Errorf("auth: store key: %w", err)
	}
	return plain, rec, nil
}

func (k *Keys) byHash(ctx context.Context, hk store.Key) (Key, error) {
	it, err := k.tbl.Get(ctx, hk)
	if err != nil {
		return Key{}, err
	}
	return store.Doc[Key](it)
}

// Authenticate returns the principal of a plaintext key, or ErrInvalidKey
// for unknown and revoked keys alike.
func (k *Keys) Authenticate(ctx context.Context, plaintext string) (Principal, error) {
	if plaintext == "" || len(plaintext) > MaxKeyLen {
		return Principal{}, ErrInvalidKey
	}
	return k.AuthenticateHash(ctx, k.hasher.Hash(plaintext))
}

// MaxKeyLen is the longest plaintext key looked up; longer ones are invalid.
const MaxKeyLen = 256

// Hash is the keyed hash a plaintext key is stored and looked up by (a
// cache of principals keys its entries by it rather than by the key).
func (k *Keys) Hash(plaintext string) string { return k.hasher.Hash(plaintext) }

// AuthenticateHash is Authenticate of the key whose Hash is hash.
func (k *Keys) AuthenticateHash(ctx context.Context, hash string) (Principal, error) {
	rec, err := k.byHash(ctx, hashKey(hash))
	if errors.Is(err, store.ErrNotFound) {
		return Principal{}, ErrInvalidKey
	}
	if err != nil {
		return Principal{}, fmt.Errorf("auth: look up key: %w", err)
	}
	if rec.RevokedAt != nil {
		return Principal{}, ErrInvalidKey
	}
	return Principal{TenantID: rec.TenantID, KeyID: rec.ID, Scopes: rec.Scopes, IsAgent: rec.IsAgent, Autonomy: rec.Autonomy}, nil
}

// List returns the tenant's keys, oldest first.
func (k *Keys) List(ctx context.Context, tenantID int32) ([]Key, error) {
	items, err := k.listItems(ctx, tenantID)
	if err != nil {
		return nil, err
	}
	return store.Docs[Key](items)
}

func (k *Keys) listItems(ctx context.Context, tenantID int32) ([]store.Item, error) {
	items, err := store.All(ctx, k.tbl, store.Query{Index: store.IndexGSI1, PK: tenantKeysPK(tenantID)})
	if err != nil {
		return nil, fmt.Errorf("auth: list keys: %w", err)
	}
	return items, nil
}

// AnyKey reports whether any of the tenants holds an API key (revoked
// ones count: they were hashed with the same secret).
func AnyKey(ctx context.Context, tbl store.Table, tenantIDs []int32) (bool, error) {
	for _, id := range tenantIDs {
		page, err := tbl.Query(ctx, store.Query{Index: store.IndexGSI1, PK: tenantKeysPK(id), Limit: 1})
		if err != nil {
			return false, fmt.Errorf("auth: list keys: %w", err)
		}
		if len(page.Items) > 0 {
			return true, nil
		}
	}
	return false, nil
}

// ErrKeyNotFound: no key of that id in the tenant.
var ErrKeyNotFound = errors.New("auth: key not found")

// Revoke marks the key revoked; revoking a revoked key is a no-op that
// reports revoked=false.
func (k *Keys) Revoke(ctx context.Context, tenantID int32, keyID string) (revoked bool, err error) {
	return k.RevokeWith(ctx, tenantID, keyID, nil)
}

// RevokeWith revokes the key like Revoke and, in the same transaction,
// applies the ops that extra returns for the revoked record (such as the
// outbox event api_key.revoked), so that they happen exactly when the
// revocation does.
func (k *Keys) RevokeWith(ctx context.Context, tenantID int32, keyID string, extra func(Key) ([]store.Op, error)) (revoked bool, err error) {
	sk, err := ReadKey(ctx, k.tbl, tenantID, keyID)
	if err != nil {
		return false, err
	}
	if sk.RevokedAt != nil {
		return false, nil
	}
	rec := sk.Key
	now := k.now().UTC()
	rec.RevokedAt = &now
	// The equality guard makes a concurrent second revoke lose cleanly.
	op, err := sk.replaceOp(rec)
	if err != nil {
		return false, err
	}
	ops := []store.Op{op}
	if extra != nil {
		more, err := extra(rec)
		if err != nil {
			return false, err
		}
		ops = append(ops, more...)
	}
	err = k.tbl.TransactWrite(ctx, ops...)
	var tce *store.TxConditionError
	if errors.As(err, &tce) && tce.Index == 0 {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("auth: revoke key: %w", err)
	}
	return true, nil
}

// StoredKey is a key's record as read from the table, with what a write
// conditional on it being unchanged since needs.
type StoredKey struct {
	Key
	item store.Item
}

// ReadKey reads the tenant's key of that id, without its secret: it is
// found through the tenant's index, then read from the table, consistently
// — the index's copy lags the table in DynamoDB, and a condition built on
// a stale copy (just after a revocation) would fail every retry until the
// index caught up.
func ReadKey(ctx context.Context, tbl store.Table, tenantID int32, keyID string) (StoredKey, error) {
	items, err := store.All(ctx, tbl, store.Query{Index: store.IndexGSI1, PK: tenantKeysPK(tenantID), SK: store.SKEq(keyID)})
	if err != nil {
		return StoredKey{}, fmt.Errorf("auth: find key: %w", err)
	}
	if len(items) == 0 {
		return StoredKey{}, ErrKeyNotFound
	}
	it, err := tbl.Get(ctx, items[0].Key())
	if errors.Is(err, store.ErrNotFound) {
		return StoredKey{}, ErrKeyNotFound
	} else if err != nil {
		return StoredKey{}, fmt.Errorf("auth: read key: %w", err)
	}
	rec, err := store.Doc[Key](it)
	if err != nil {
		return StoredKey{}, err
	}
	return StoredKey{Key: rec, item: it}, nil
}

// unchanged is the condition that the key's record is still as read.
func (k StoredKey) unchanged() store.Cond {
	return store.Eq(store.AttrDoc, k.item.String(store.AttrDoc))
}

// Unchanged is the transaction check that the key's record is still as
// read (not revoked nor promoted since).
func (k StoredKey) Unchanged() store.Op { return store.CheckOp(k.item.Key(), k.unchanged()) }

// AutonomyOp is the transaction op that sets the key's autonomy level to
// to, conditional on the record being unchanged since it was read (so a
// promotion joins the transaction that earned it, and a concurrent
// revocation or promotion makes it fail instead of being lost).
func (k StoredKey) AutonomyOp(to Autonomy) (store.Op, error) {
	if !to.Valid() {
		return store.Op{}, fmt.Errorf("auth: unknown autonomy level %q", to)
	}
	rec := k.Key
	rec.Autonomy = to
	return k.replaceOp(rec)
}

// replaceOp replaces the key's record by rec if it is unchanged since read.
func (k StoredKey) replaceOp(rec Key) (store.Op, error) {
	doc, err := store.EncodeDoc(rec)
	if err != nil {
		return store.Op{}, err
	}
	return store.UpdateOp(k.item.Key(), store.Update{Set: map[string]any{store.AttrDoc: doc}}, k.unchanged()), nil
}
