package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/brandlens/brandlens/shared/destinations"
	"github.com/brandlens/brandlens/shared/secrets"
	"github.com/brandlens/brandlens/shared/ssrf"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/webhooks"
)

// seal-secrets seals a webhook secret stored in plain text (by a version
// before secrets were sealed); rotate-secrets-key adds a key and reseals
// the webhook's and a publish destination's secrets under it; the secret opens with the data directory's keyring throughout.
func TestAdminSealsAndRotatesSecrets(t *testing.T) {
	t.Setenv("BRANDLENS_TABLE", "")
	t.Setenv("BRANDLENS_STORE", "")
	t.Setenv("BRANDLENS_KEY_SECRET", "")
	t.Setenv("BRANDLENS_SECRETS_KEY_ID", "")
	ctx := context.Background()
	dir := t.TempDir()
	runAdmin(t, dir, "create-tenant", "--create", "--name", "Sealed Co")
	const plain = "legacy-plain-signing-secret-0001"
	key := store.Key{PK: "TENANT#1", SK: "WEBHOOK#wh_legacy"}
	withTable := func(f func(store.Table)) {
		t.Helper()
		tbl, err := embedded.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer tbl.Close()
		f(tbl)
	}
	withTable(func(tbl store.Table) {
		doc := `{"id":"wh_legacy","tenantId":1,"url":"https://hooks.example.com/in","events":["*"],"description":"",` +
			`"active":true,"secret":"` + plain + `","createdAt":"2026-11-01T00:00:00Z","updatedAt":"2026-11-01T00:00:00Z"}`
		if err := tbl.Put(ctx, store.Item{store.AttrPK: key.PK, store.AttrSK: key.SK, store.AttrDoc: doc, "kind": "webhook", "active": true},
			store.NotExists()); err != nil {
			t.Fatal(err)
		}
	})
	// stored reads the subscription and opens its secret with the keyring.
	stored := func() (webhooks.Subscription, string) {
		t.Helper()
		var sub webhooks.Subscription
		withTable(func(tbl store.Table) {
			it, err := tbl.Get(ctx, key)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(it.String(store.AttrDoc), plain) {
				t.Fatalf("the stored item holds the secret: %s", it.String(store.AttrDoc))
			}
			if sub, err = store.Doc[webhooks.Subscription](it); err != nil {
				t.Fatal(err)
			}
		})
		if sub.SealedSecret == nil {
			t.Fatal("no sealed secret")
		}
		got, err := secrets.NewSealer(secrets.NewKeyring(dir)).Open(ctx, *sub.SealedSecret,
			secrets.Binding{Purpose: webhooks.SecretPurpose, TenantID: 1, RecordID: "wh_legacy"})
		if err != nil {
			t.Fatal(err)
		}
		return sub, got
	}

	if out := runAdmin(t, dir, "seal-secrets"); jsonNumber(out["sealed"]) != "1" {
		t.Fatalf("seal-secrets printed %v", out)
	}
	first, got := stored()
	if got != plain {
		t.Fatalf("sealed secret opens as %q", got)
	}
	if out := runAdmin(t, dir, "seal-secrets"); jsonNumber(out["sealed"]) != "0" {
		t.Errorf("second seal-secrets printed %v", out)
	}
	// A publish destination's secret, sealed under the first key.
	const destSecret = "destination-signing-secret-0001"
	var dst destinations.Destination
	withTable(func(tbl store.Table) {
		ds := destinations.NewService(tbl, ssrf.Guard{}, destinations.Sealed{Sealer: secrets.NewSealer(secrets.NewKeyring(dir))}, nil)
		var err error
		if dst, err = ds.Create(ctx, 1, destinations.New{Type: destinations.TypeWebhook, Name: "Blog",
			URL: "https://blog.example.com/in", Secret: new(destSecret)}); err != nil {
			t.Fatal(err)
		}
	})
	out := runAdmin(t, dir, "rotate-secrets-key")
	kid, _ := out["keyId"].(string)
	if jsonNumber(out["sealed"]) != "2" || kid == "" || kid == first.SealedSecret.KeyID {
		t.Fatalf("rotate-secrets-key printed %v (key before %s)", out, first.SealedSecret.KeyID)
	}
	rotated, got := stored()
	if got != plain || rotated.SealedSecret.KeyID != kid {
		t.Errorf("after rotation: key %s, secret %q", rotated.SealedSecret.KeyID, got)
	}
	withTable(func(tbl store.Table) {
		sb := destinations.Sealed{Sealer: secrets.NewSealer(secrets.NewKeyring(dir))}
		got, err := destinations.NewService(tbl, ssrf.Guard{}, sb, nil).Get(ctx, 1, dst.ID)
		if err != nil {
			t.Fatal(err)
		}
		var env secrets.Sealed
		if err := json.Unmarshal([]byte(got.SealedSecret), &env); err != nil || env.KeyID != kid {
			t.Errorf("the destination's secret is sealed under %q (%v), want the new key %s", env.KeyID, err, kid)
		}
		if sec, err := sb.Open(ctx, 1, dst.ID, got.SealedSecret); err != nil || sec != destSecret {
			t.Errorf("the destination's secret opens as %q, %v", sec, err)
		}
	})
	ids, err := secrets.NewKeyring(dir).KeyIDs()
	if err != nil || len(ids) != 2 {
		t.Errorf("keyring holds %v, %v; want the old key and the new", ids, err)
	}
}
