package httpapi_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"testing/synctest"
	"time"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/auth"
	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/httpapi/apitest"
	"github.com/brandlens/brandlens/shared/ratelimit"
	"github.com/brandlens/brandlens/shared/seed"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/embedded"
)

// A key's principal and its tenant's settings are reused for
// DefaultCallerTTL: a change made meanwhile (a revocation, a new rate
// limit) takes effect exactly when the TTL since the first request has
// passed, never later. The clock is synctest's, so the bound is checked to
// the nanosecond without waiting.
func TestCallerCacheBoundsTheDelayOfChanges(t *testing.T) {
	const ttl = httpapi.DefaultCallerTTL
	cases := []struct {
		name string
		// change alters the store behind the server's back.
		change func(t *testing.T, repos *app.Repos, keyID string)
		// before and after are the statuses of the request after the
		// change, within the TTL and once it has passed.
		before, after int
	}{
		{
			name: "revoked key",
			change: func(t *testing.T, repos *app.Repos, keyID string) {
				if ok, err := repos.Keys.Revoke(context.Background(), 1, keyID); err != nil || !ok {
					t.Fatalf("revoke: %v %v", ok, err)
				}
			},
			before: 200, after: 401,
		},
		{
			name: "rate limit lowered to 1 per minute",
			change: func(t *testing.T, repos *app.Repos, _ string) {
				ctx := context.Background()
				tn, err := repos.Tenants.Get(ctx, 1)
				if err != nil {
					t.Fatal(err)
				}
				tn.RPMLimit = 1
				doc, _ := store.EncodeDoc(tn)
				if _, err := repos.Table.Update(ctx, store.Key{PK: "TENANT#1", SK: "TENANT"},
					store.Update{Set: map[string]any{store.AttrDoc: doc}}, store.Cond{}); err != nil {
					t.Fatal(err)
				}
			},
			// The window already counts the first requests.
			before: 200, after: 429,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				// Start on a minute boundary: every request below falls
				// in one rate-limit window.
				time.Sleep(time.Until(time.Now().Truncate(time.Minute).Add(time.Minute)))
				tbl := embedded.NewMemory()
				repos, err := app.NewRepos(tbl, apitest.KeySecret, nil)
				if err != nil {
					t.Fatal(err)
				}
				res, err := seed.Apply(context.Background(), repos, seed.File{Tenants: []seed.Tenant{{Name: "Acme", Credits: 10,
					APIKeys: []seed.APIKey{{Key: apitest.KeyARead, Scopes: []string{"read"}}}}}})
				if err != nil {
					t.Fatal(err)
				}
				keys, err := repos.Keys.List(context.Background(), res.Tenants[0].ID)
				if err != nil || len(keys) != 1 {
					t.Fatal(keys, err)
				}
				keyID := keys[0].ID
				h := httpapi.New(httpapi.Deps{Stores: httpapi.Stores{Keys: repos.Keys, Tenants: repos.Tenants, Ledger: repos.Ledger,
					Limiter: ratelimit.NewMemory(nil)}})
				get := func() int {
					rec := httptest.NewRecorder()
					req := httptest.NewRequest("GET", "/api/v1/me", nil)
					req.Header.Set("X-API-Key", apitest.KeyARead)
					h.ServeHTTP(rec, req)
					return rec.Code
				}
				first := time.Now()
				if got := get(); got != 200 {
					t.Fatalf("first request: %d", got)
				}
				c.change(t, repos, keyID)
				for _, at := range []time.Duration{0, ttl / 2, ttl - time.Nanosecond} {
					time.Sleep(time.Until(first.Add(at)))
					if got := get(); got != c.before {
						t.Fatalf("%v after the first request (within the TTL): %d, want %d", at, got, c.before)
					}
				}
				time.Sleep(time.Until(first.Add(ttl)))
				if got := get(); got != c.after {
					t.Fatalf("the TTL after the first request: %d, want %d", got, c.after)
				}
			})
		})
	}
}

// Only keys that authenticate are kept: an unknown key is looked up (and
// refused) every time, and a key created after it was refused works at
// once.
func TestCallerCacheKeepsNoRefusal(t *testing.T) {
	api := apitest.New(t, apitest.Options{})
	const late = "local-key-acme-created-late-1"
	if r := api.Do(t, "GET", "/api/v1/me", late, ""); r.Status != 401 {
		t.Fatalf("unknown key: %d", r.Status)
	}
	if _, _, err := api.Svc.Keys.Create(context.Background(), auth.NewKey{TenantID: api.A.ID, Plaintext: late,
		Scopes: []auth.Scope{auth.ScopeRead}}); err != nil {
		t.Fatal(err)
	}
	if r := api.Do(t, "GET", "/api/v1/me", late, ""); r.Status != 200 {
		t.Fatalf("the key once created: %d %s", r.Status, r.Body)
	}
}
