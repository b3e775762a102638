package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// clearStoreEnv keeps the developer's settings out of a test.
func clearStoreEnv(t *testing.T) {
	for _, k := range []string{"BRANDLENS_TABLE", "BRANDLENS_STORE", "BRANDLENS_KEY_SECRET", "BRANDLENS_DATA_DIR"} {
		t.Setenv(k, "")
	}
}

// --help is a request, not a mistake: the flags go to stdout and the exit
// status is 0; an unknown flag is an error naming it.
func TestHelpExitsZero(t *testing.T) {
	clearStoreEnv(t)
	for _, tc := range []struct {
		args       []string
		code       int
		stdout     string
		stderrPart string
	}{
		{[]string{"serve", "--help"}, 0, "-data-dir", ""},
		{[]string{"serve", "-h"}, 0, "-addr", ""},
		{[]string{"admin", "create-tenant", "--help"}, 0, "-credits", ""},
		{[]string{"admin", "help"}, 0, "create-tenant", ""},
		{[]string{"--help"}, 0, "brandlens serve", ""},
		{[]string{"serve", "--bogus"}, 1, "", "-bogus"},
		// 0 would read as "the default" further down; refused here instead.
		{[]string{"serve", "--shutdown-grace", "0s"}, 1, "", "--shutdown-grace must be positive"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(context.Background(), tc.args, &out, &errOut)
			if code != tc.code || !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errOut.String(), tc.stderrPart) {
				t.Fatalf("exit %d (want %d)\nstdout: %s\nstderr: %s", code, tc.code, out.String(), errOut.String())
			}
		})
	}
}

// The admin CLI works on an existing store: a --data-dir that holds none
// is refused (nothing is created there) unless --create asks for one.
func TestAdminRefusesADataDirWithoutAStore(t *testing.T) {
	clearStoreEnv(t)
	dir := filepath.Join(t.TempDir(), "typo")
	var out bytes.Buffer
	err := admin(context.Background(), []string{"list-tenants", "--data-dir", dir}, &out)
	if err == nil || !strings.Contains(err.Error(), "holds no brandlens store") || !strings.Contains(err.Error(), "--create") {
		t.Fatalf("err = %v, want a refusal that names --create", err)
	}
	if _, serr := os.Stat(dir); !os.IsNotExist(serr) {
		t.Fatalf("the refused directory was created: %v", serr)
	}
	if err := admin(context.Background(), []string{"list-tenants", "--data-dir", dir, "--create"}, &out); err != nil {
		t.Fatal(err)
	}
	if err := admin(context.Background(), []string{"list-tenants", "--data-dir", dir}, &out); err != nil {
		t.Fatalf("the created store is refused: %v", err)
	}
}

// The admin CLI prints the member names the API uses for the same facts.
func TestAdminPrintsTheAPINames(t *testing.T) {
	clearStoreEnv(t)
	dir := t.TempDir()
	keys := func(v any) []string {
		var out []string
		for k := range v.(map[string]any) {
			out = append(out, k)
		}
		slices.Sort(out)
		return out
	}
	tn := runAdmin(t, dir, "create-tenant", "--name", "Names Co", "--credits", "40", "--create")
	if got := keys(tn["tenant"]); !slices.Equal(got, []string{"created_at", "daily_credit_ceiling", "name", "rpm_limit", "tenant_id"}) {
		t.Errorf("tenant members %v", got)
	}
	tid := jsonNumber(tn["tenant"].(map[string]any)["tenant_id"])
	key := runAdmin(t, dir, "create-key", "--tenant", tid, "--scope", "read")
	if got := keys(key["record"]); !slices.Equal(got, []string{"autonomy_level", "created_at", "hint", "is_agent", "key_id", "name", "revoked_at", "scopes", "tenant_id"}) {
		t.Errorf("key members %v", got)
	}
	bal := runAdmin(t, dir, "grant-credits", "--tenant", tid, "--amount", "10")
	want := []string{"captured", "committed_today", "credits_balance", "daily_credit_ceiling", "granted", "held", "remaining_today", "resets_at", "spent_today"}
	if got := keys(bal); !slices.Equal(got, want) {
		t.Errorf("credit members %v, want %v", got, want)
	}
	if bal["credits_balance"] != float64(50) || bal["granted"] != float64(50) {
		t.Errorf("balance %v", bal)
	}
	var out bytes.Buffer
	if err := admin(context.Background(), []string{"list-keys", "--tenant", tid, "--data-dir", dir}, &out); err != nil {
		t.Fatal(err)
	}
	var list []map[string]any
	if err := json.Unmarshal(out.Bytes(), &list); err != nil || len(list) != 1 || list[0]["key_id"] == nil {
		t.Fatalf("list-keys printed %s", out.Bytes())
	}
}

// A brandlens built without the live tag (what `make run` builds unless
// asked) refuses the vendors' modes at start and says how to get a build
// that has them, instead of failing later or silently running offline.
func TestServeWithoutTheLiveTagRefusesVendors(t *testing.T) {
	clearStoreEnv(t)
	for _, env := range [][2]string{{"BRANDLENS_PROVIDERS", "live"}, {"BRANDLENS_MODELS", "openai"}} {
		t.Run(env[0]+"="+env[1], func(t *testing.T) {
			t.Setenv("BRANDLENS_PROVIDERS", "")
			t.Setenv("BRANDLENS_MODELS", "")
			t.Setenv(env[0], env[1])
			var out, errOut bytes.Buffer
			code := run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--data-dir", t.TempDir()}, &out, &errOut)
			if code != 1 || !strings.Contains(errOut.String(), env[0]) || !strings.Contains(errOut.String(), "-tags live") {
				t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out.String(), errOut.String())
			}
		})
	}
}
