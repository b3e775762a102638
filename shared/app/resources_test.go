package app_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/auth"
	"github.com/brandlens/brandlens/shared/config"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
)

// openEmbedded opens the embedded store of a fresh data directory as
// `brandlens serve` does.
func openEmbedded(t *testing.T, dir string) (*app.Resources, store.Table) {
	t.Helper()
	res := app.NewResources(config.Config{Store: config.StoreEmbedded, DataDir: dir}, func(string) string { return "" })
	tbl, closeTable, err := res.OpenTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeTable() })
	return res, tbl
}

// The local key secret is created once, whole (temp file, fsync, rename),
// private, and never generated again once the store holds API keys hashed
// with it: a lost file must be restored, not silently replaced.
func TestLocalKeySecret(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "data")
	res, tbl := openEmbedded(t, dir)
	secret, err := res.KeySecret(ctx, tbl)
	if err != nil || len(secret) != 64 {
		t.Fatalf("secret %q, %v", secret, err)
	}
	path := filepath.Join(dir, "key-secret")
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key-secret: %v, %v", fi, err)
	}
	if _, err := os.Stat(path + ".tmp"); !os.IsNotExist(err) {
		t.Errorf("temporary file left: %v", err)
	}
	again, err := res.KeySecret(ctx, tbl)
	if err != nil || string(again) != string(secret) {
		t.Fatalf("second read %q, %v", again, err)
	}

	// A tenant without keys: a new secret locks nobody out.
	repos, err := app.NewRepos(tbl, secret, nil)
	if err != nil {
		t.Fatal(err)
	}
	tn, _, err := repos.Tenants.Create(ctx, tenants.Tenant{Name: "Acme"})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if secret, err = res.KeySecret(ctx, tbl); err != nil {
		t.Fatalf("no key yet: %v", err)
	}
	repos, _ = app.NewRepos(tbl, secret, nil)
	if _, _, err := repos.Keys.Create(ctx, auth.NewKey{TenantID: tn.ID, Scopes: []auth.Scope{auth.ScopeRead}}); err != nil {
		t.Fatal(err)
	}

	// Now a key is hashed with it: a missing file is an error, not a new secret.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if s, err := res.KeySecret(ctx, tbl); err == nil || !strings.Contains(err.Error(), "restore") {
		t.Fatalf("missing key-secret with keys stored: %q, %v; want an error asking to restore it", s, err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("a new key-secret was written: %v", err)
	}

	// A planted link or a file others can read is refused.
	if err := os.Symlink("/etc/hostname", path); err != nil {
		t.Fatal(err)
	}
	if _, err := res.KeySecret(ctx, tbl); err == nil {
		t.Error("key-secret read through a symbolic link")
	}
	os.Remove(path)
	if err := os.WriteFile(path, []byte(strings.Repeat("a", 64)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := res.KeySecret(ctx, tbl); err == nil {
		t.Error("a key-secret readable by others was used")
	}
}
