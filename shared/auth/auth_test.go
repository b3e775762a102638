package auth_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/brandlens/brandlens/shared/auth"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/embedded"
)

var secret = []byte("0123456789abcdef0123456789abcdef")

func newKeys(t testing.TB) (*auth.Keys, store.Table) {
	t.Helper()
	h, err := auth.NewHasher(secret)
	if err != nil {
		t.Fatal(err)
	}
	tbl := embedded.NewMemory()
	return auth.NewKeys(tbl, h, nil), tbl
}

func TestGeneratedKeys(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		k := auth.NewKeyPlaintext()
		if !strings.HasPrefix(k, auth.KeyPrefix) {
			t.Fatalf("no prefix: %s", k)
		}
		// 20 random bytes in base32 are 32 characters: 160 bits.
		if len(k) != len(auth.KeyPrefix)+32 {
			t.Fatalf("length %d: %s", len(k), k)
		}
		if seen[k] {
			t.Fatalf("duplicate key %s", k)
		}
		seen[k] = true
	}
}

func TestHasherNeedsALongSecret(t *testing.T) {
	if _, err := auth.NewHasher([]byte("short")); err == nil {
		t.Fatal("a 5-byte secret was accepted")
	}
}

func TestStoredOnlyAsHash(t *testing.T) {
	keys, tbl := newKeys(t)
	ctx := context.Background()
	plain, rec, err := keys.Create(ctx, auth.NewKey{TenantID: 1, Scopes: []auth.Scope{auth.ScopeRead}})
	if err != nil {
		t.Fatal(err)
	}
	items, err := store.All(ctx, tbl, store.Query{Index: store.IndexGSI1, PK: "TENANT#1#APIKEYS"})
	if err != nil || len(items) != 1 {
		t.Fatalf("items %v %v", items, err)
	}
	for name, v := range items[0] {
		if s, ok := v.(string); ok && strings.Contains(s, plain[len(auth.KeyPrefix)+4:]) {
			t.Fatalf("attribute %s holds the key's secret part", name)
		}
	}
	h, _ := auth.NewHasher(secret)
	if items[0].Key().PK != "APIKEY#"+h.Hash(plain) {
		t.Fatalf("not keyed by the HMAC: %s", items[0].Key().PK)
	}
	if rec.Hint != plain[:len(auth.KeyPrefix)+4] {
		t.Fatalf("hint %q", rec.Hint)
	}
	// Another server secret cannot find the key.
	other, _ := auth.NewHasher([]byte("fedcba9876543210fedcba9876543210"))
	if _, err := auth.NewKeys(tbl, other, nil).Authenticate(ctx, plain); !errors.Is(err, auth.ErrInvalidKey) {
		t.Fatalf("other secret: %v", err)
	}
}

func TestAuthenticateAndRevoke(t *testing.T) {
	keys, _ := newKeys(t)
	ctx := context.Background()
	plain, rec, err := keys.Create(ctx, auth.NewKey{TenantID: 3, Scopes: []auth.Scope{auth.ScopeReadWrite}, IsAgent: true, Autonomy: auth.L1})
	if err != nil {
		t.Fatal(err)
	}
	p, err := keys.Authenticate(ctx, plain)
	if err != nil {
		t.Fatal(err)
	}
	if p.TenantID != 3 || p.KeyID != rec.ID || !p.IsAgent || p.Autonomy != auth.L1 {
		t.Fatalf("principal %+v", p)
	}
	for _, bad := range []string{"", plain + "x", strings.ToUpper(plain), strings.Repeat("a", 300)} {
		if _, err := keys.Authenticate(ctx, bad); !errors.Is(err, auth.ErrInvalidKey) {
			t.Errorf("%q: %v", bad, err)
		}
	}
	ok, err := keys.Revoke(ctx, 3, rec.ID)
	if err != nil || !ok {
		t.Fatalf("revoke: %v %v", ok, err)
	}
	if _, err := keys.Authenticate(ctx, plain); !errors.Is(err, auth.ErrInvalidKey) {
		t.Fatalf("revoked key: %v", err)
	}
	if ok, err := keys.Revoke(ctx, 3, rec.ID); err != nil || ok {
		t.Fatalf("second revoke: %v %v", ok, err)
	}
	if _, err := keys.Revoke(ctx, 4, rec.ID); !errors.Is(err, auth.ErrKeyNotFound) {
		t.Fatalf("revoke from another tenant: %v", err)
	}
}

func TestConcurrentRevokeReportsOnce(t *testing.T) {
	keys, _ := newKeys(t)
	ctx := context.Background()
	_, rec, err := keys.Create(ctx, auth.NewKey{TenantID: 1, Scopes: []auth.Scope{auth.ScopeRead}})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	revoked := 0
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := keys.Revoke(ctx, 1, rec.ID)
			if err != nil {
				t.Error(err)
			}
			if ok {
				mu.Lock()
				revoked++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if revoked != 1 {
		t.Fatalf("%d revokes reported success", revoked)
	}
}

func TestSeededKeys(t *testing.T) {
	keys, _ := newKeys(t)
	ctx := context.Background()
	nk := auth.NewKey{TenantID: 1, Scopes: []auth.Scope{auth.ScopePublish}, Plaintext: "local-key-acme-publish-0001"}
	_, a, err := keys.Create(ctx, nk)
	if err != nil {
		t.Fatal(err)
	}
	_, b, err := keys.Create(ctx, nk)
	if err != nil || a.ID != b.ID {
		t.Fatalf("seeding twice made another key: %v %v %v", a.ID, b.ID, err)
	}
	nk.TenantID = 2
	if _, _, err := keys.Create(ctx, nk); !errors.Is(err, auth.ErrKeyExists) {
		t.Fatalf("same plaintext for another tenant: %v", err)
	}
	nk.Plaintext = "too-short"
	if _, _, err := keys.Create(ctx, nk); err == nil {
		t.Fatal("short seeded key accepted")
	}
}

func TestCreateRejects(t *testing.T) {
	keys, _ := newKeys(t)
	ctx := context.Background()
	for name, nk := range map[string]auth.NewKey{
		"no scope":      {TenantID: 1},
		"unknown scope": {TenantID: 1, Scopes: []auth.Scope{"admin"}},
		"unknown level": {TenantID: 1, Scopes: []auth.Scope{auth.ScopeRead}, Autonomy: "L3"},
	} {
		if _, _, err := keys.Create(ctx, nk); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestScopeOrder(t *testing.T) {
	cases := []struct {
		have []auth.Scope
		need auth.Scope
		want bool
	}{
		{[]auth.Scope{auth.ScopeRead}, auth.ScopeRead, true},
		{[]auth.Scope{auth.ScopeRead}, auth.ScopeReadWrite, false},
		{[]auth.Scope{auth.ScopeRead}, auth.ScopePublish, false},
		{[]auth.Scope{auth.ScopeReadWrite}, auth.ScopeRead, true},
		{[]auth.Scope{auth.ScopeReadWrite}, auth.ScopePublish, false},
		{[]auth.Scope{auth.ScopePublish}, auth.ScopeReadWrite, true},
		{[]auth.Scope{auth.ScopePublish}, auth.ScopeRead, true},
		{[]auth.Scope{auth.ScopeRead, auth.ScopePublish}, auth.ScopePublish, true},
		{nil, auth.ScopeRead, false},
	}
	for _, c := range cases {
		t.Run(string(c.need), func(t *testing.T) {
			if got := (auth.Principal{Scopes: c.have}).Allows(c.need); got != c.want {
				t.Fatalf("%v allows %s = %v", c.have, c.need, got)
			}
		})
	}
	if (auth.Principal{Scopes: []auth.Scope{auth.ScopePublish}, IsAgent: true}).CanReview() {
		t.Error("an agent key can review")
	}
	if !(auth.Principal{Scopes: []auth.Scope{auth.ScopePublish}}).CanReview() {
		t.Error("a human publish key cannot review")
	}
	if (auth.Principal{Scopes: []auth.Scope{auth.ScopeReadWrite}}).CanReview() {
		t.Error("a read_write key can review")
	}
}

// BenchmarkAuthenticate measures key lookup (HMAC + one table read) plus
// the scope check, as every keyed request pays it.
func BenchmarkAuthenticate(b *testing.B) {
	keys, _ := newKeys(b)
	ctx := context.Background()
	var plains []string
	for i := range 1000 {
		p, _, err := keys.Create(ctx, auth.NewKey{TenantID: int32(i%10 + 1), Scopes: []auth.Scope{auth.ScopeReadWrite}})
		if err != nil {
			b.Fatal(err)
		}
		plains = append(plains, p)
	}
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		p, err := keys.Authenticate(ctx, plains[i%len(plains)])
		if err != nil || !p.Allows(auth.ScopeRead) {
			b.Fatal("lookup failed")
		}
		i++
	}
}

func FuzzAuthenticate(f *testing.F) {
	keys, _ := newKeys(f)
	ctx := context.Background()
	plain, _, err := keys.Create(ctx, auth.NewKey{TenantID: 1, Scopes: []auth.Scope{auth.ScopeRead}})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(plain)
	f.Add("")
	f.Add("bl_live_\x00\xff")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := keys.Authenticate(ctx, s)
		if s == plain {
			if err != nil {
				t.Fatal(err)
			}
			return
		}
		if err == nil || p.TenantID != 0 {
			t.Fatalf("%q authenticated as %+v", s, p)
		}
	})
}

// laggingIndex answers index queries from a copy of the table taken
// earlier, as a DynamoDB global secondary index can just after a write.
type laggingIndex struct {
	store.Table
	index store.Table
}

func (l laggingIndex) Query(ctx context.Context, q store.Query) (store.Page, error) {
	if q.Index != "" {
		return l.index.Query(ctx, q)
	}
	return l.Table.Query(ctx, q)
}

// TestReadKeyReadsTheKeyNotItsIndexCopy: a key revoked a moment ago
// whose index copy still shows it live is read as revoked, and its
// unchanged-check holds against the table (a condition built on the stale copy
// failed every retry of an approve until the index caught up).
func TestReadKeyReadsTheKeyNotItsIndexCopy(t *testing.T) {
	ctx := context.Background()
	keys, tbl := newKeys(t)
	_, rec, err := keys.Create(ctx, auth.NewKey{TenantID: 3, Scopes: []auth.Scope{auth.ScopeReadWrite}, IsAgent: true, Autonomy: auth.L0})
	if err != nil {
		t.Fatal(err)
	}
	// The index as it stands before the revocation: a copy of the key's item.
	before := embedded.NewMemory()
	items, err := store.All(ctx, tbl, store.Query{Index: store.IndexGSI1, PK: "TENANT#3#APIKEYS"})
	if err != nil || len(items) != 1 {
		t.Fatalf("the tenant's keys: %v %d", err, len(items))
	}
	if err := before.Put(ctx, items[0], store.Cond{}); err != nil {
		t.Fatal(err)
	}
	if ok, err := keys.Revoke(ctx, 3, rec.ID); err != nil || !ok {
		t.Fatalf("revoke: %v %v", ok, err)
	}
	key, err := auth.ReadKey(ctx, laggingIndex{Table: tbl, index: before}, 3, rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	op := key.Unchanged()
	if key.RevokedAt == nil {
		t.Fatal("the key read through a lagging index is not revoked")
	}
	if err := tbl.TransactWrite(ctx, store.CheckOp(op.Key, op.Cond)); err != nil {
		t.Fatalf("the op's condition fails against the table: %v", err)
	}
}
