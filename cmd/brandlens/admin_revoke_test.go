package main

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/store/embedded"
)

func runAdmin(t *testing.T, dir string, args ...string) map[string]any {
	t.Helper()
	var out bytes.Buffer
	if err := admin(context.Background(), append(args, "--data-dir", dir), &out); err != nil {
		t.Fatalf("admin %v: %v", args, err)
	}
	var m map[string]any
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		t.Fatalf("admin %v printed %s", args, out.Bytes())
	}
	return m
}

// revoke-key revokes the key and appends api_key.revoked in the same
// transaction, printing the event id; a second revoke emits nothing.
func TestAdminRevokeKeyEmitsEvent(t *testing.T) {
	t.Setenv("BRANDLENS_TABLE", "")
	t.Setenv("BRANDLENS_STORE", "")
	t.Setenv("BRANDLENS_KEY_SECRET", "")
	dir := t.TempDir()
	tn := runAdmin(t, dir, "create-tenant", "--name", "Revoke Co", "--create")["tenant"].(map[string]any)
	tid := jsonNumber(tn["tenant_id"])
	key := runAdmin(t, dir, "create-key", "--tenant", tid, "--scope", "read", "--name", "ci")
	rec := key["record"].(map[string]any)
	keyID := rec["key_id"].(string)

	out := runAdmin(t, dir, "revoke-key", "--tenant", tid, "--key-id", keyID)
	evID, _ := out["event_id"].(string)
	if out["revoked"] != true || evID == "" {
		t.Fatalf("revoke-key printed %v", out)
	}
	again := runAdmin(t, dir, "revoke-key", "--tenant", tid, "--key-id", keyID)
	if again["revoked"] != false || again["event_id"] != nil {
		t.Errorf("second revoke printed %v", again)
	}

	tbl, err := embedded.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	pending, err := outbox.Pending(context.Background(), tbl, 10)
	if err != nil || len(pending) != 1 {
		t.Fatalf("pending events %v %v, want the one api_key.revoked", pending, err)
	}
	ev := pending[0]
	var data outbox.APIKeyRevokedData
	if err := json.Unmarshal(ev.Data, &data); err != nil {
		t.Fatal(err)
	}
	if ev.ID != evID || ev.Type != outbox.APIKeyRevoked || data.KeyID != keyID || data.Hint != rec["hint"] || data.Name != "ci" || data.RevokedAt.IsZero() {
		t.Errorf("event %+v data %+v", ev, data)
	}
	log, err := audit.NewLog(tbl).List(context.Background(), int32(tn["tenant_id"].(float64)), audit.Filter{Resource: "api_key:" + keyID})
	if err != nil || len(log.Items) != 1 || log.Items[0].Action != "api_key.revoke" || log.Items[0].Actor != audit.System() {
		t.Errorf("audit of api_key:%s: %+v %v, want the one api_key.revoke by the system", keyID, log, err)
	}
}

func jsonNumber(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
