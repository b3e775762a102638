package webhooks_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/brandlens/brandlens/shared/logtest"
	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/secrets"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamotest"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/store/storetest"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/webhooks"
)

// rawItem is the stored item as a backup or an export would show it.
func rawItem(t *testing.T, tbl store.Table, tenant int32, id string) string {
	t.Helper()
	it, err := tbl.Get(context.Background(), store.Key{PK: tenants.PK(tenant), SK: "WEBHOOK#" + id})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for k, v := range it {
		b.WriteString(k + "=")
		if s, ok := v.(string); ok {
			b.WriteString(s)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// Subscription secrets are sealed at rest: the stored item — every
// attribute of it — holds neither a given secret nor a generated one, on
// both backends; a rotation through PUT stores the new one sealed too.
func TestSecretsAreSealedAtRest(t *testing.T) {
	dynamotest.Backends(t, time.Now(), func(t *testing.T, tbl store.Table, clock *storetest.Clock) {
		ctx := context.Background()
		svc := webhooks.New(tbl, webhooks.Options{Now: clock.Now})
		const given = "my-receiver-signing-secret-0042"
		sub, err := svc.CreateSubscription(ctx, 1, webhooks.NewSubscription{URL: "https://hooks.example.com/in", Secret: ptr(given)})
		if err != nil {
			t.Fatal(err)
		}
		gen, err := svc.CreateSubscription(ctx, 1, webhooks.NewSubscription{URL: "https://hooks.example.com/in"})
		if err != nil || !strings.HasPrefix(gen.Secret, webhooks.SecretPrefix) {
			t.Fatalf("generated %q, %v", gen.Secret, err)
		}
		for id, secret := range map[string]string{sub.ID: given, gen.ID: gen.Secret} {
			raw := rawItem(t, tbl, 1, id)
			if strings.Contains(raw, secret) || strings.Contains(raw, secret[len(secret)/2:]) {
				t.Errorf("stored item of %s holds its secret:\n%s", id, raw)
			}
			if !strings.Contains(raw, `"sealedSecret":{"v":1,"kid":`) {
				t.Errorf("stored item of %s has no sealed secret:\n%s", id, raw)
			}
		}
		const rotated = "a-rotated-signing-secret-0043"
		if _, err := svc.UpdateSubscription(ctx, 1, sub.ID, webhooks.Patch{Secret: ptr(rotated)}); err != nil {
			t.Fatal(err)
		}
		if raw := rawItem(t, tbl, 1, sub.ID); strings.Contains(raw, rotated) || strings.Contains(raw, given) {
			t.Errorf("after rotation the item holds a secret:\n%s", raw)
		}
	})
}

// A subscription stored with its secret in plain text (before secrets
// were sealed) still receives signed deliveries; ResealSecrets (run by
// `brandlens serve` at start and `brandlens admin seal-secrets`), or the
// subscription's next write, seals it, and deliveries go on with the same
// secret. Neither the logs nor the stored item show it afterwards.
func TestPlainSecretsFromBeforeStillWorkAndGetSealed(t *testing.T) {
	ctx := context.Background()
	tbl := embedded.NewMemory()
	var logs logtest.Buffer
	keys := secrets.NewSealer(secrets.NewMemoryKeyring())
	h := newHarness(t, tbl, webhooks.Options{Guard: loopback, Secrets: keys, Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	rc := newReceiver(t, secret, nil)
	legacy := func(id string) {
		// The document as the service stored it before: "secret" in plain text.
		doc := `{"id":"` + id + `","tenantId":1,"url":"` + rc.url + `","events":["*"],"description":"","active":true,"secret":"` + secret +
			`","createdAt":"2026-11-01T00:00:00Z","updatedAt":"2026-11-01T00:00:00Z"}`
		if err := tbl.Put(ctx, store.Item{store.AttrPK: "TENANT#1", store.AttrSK: "WEBHOOK#" + id, store.AttrDoc: doc,
			"kind": "webhook", "active": true}, store.NotExists()); err != nil {
			t.Fatal(err)
		}
	}
	legacy("wh_legacy1")
	legacy("wh_legacy2")
	deliver := func(want int) {
		t.Helper()
		ev := emit(t, tbl, 1, outbox.CreditLow, outbox.CreditLowData{Balance: 1, Threshold: 10, Granted: 100})
		for _, id := range []string{"wh_legacy1", "wh_legacy2"} {
			h.waitStatus(t, 1, id, ev.ID, webhooks.StatusSucceeded, 5*time.Second)
		}
		for _, p := range rc.waitPosts(t, want, 5*time.Second) {
			if !p.sigOK {
				t.Fatal("a delivery was not signed with the subscription's secret")
			}
		}
	}
	deliver(2)
	if sub, err := h.svc.GetSubscription(ctx, 1, "wh_legacy1"); err != nil || !sub.HasSecret() {
		t.Fatalf("legacy subscription %+v, %v", sub, err)
	}

	// The next write seals the one; the sweep of ResealSecrets the other.
	if _, err := h.svc.UpdateSubscription(ctx, 1, "wh_legacy1", webhooks.Patch{Description: ptr("sealed by this write")}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(rawItem(t, tbl, 1, "wh_legacy1"), secret) {
		t.Error("the write left the secret in plain text")
	}
	if n, err := h.svc.ResealSecrets(ctx, 1); err != nil || n != 1 {
		t.Fatalf("resealed %d, %v; want 1", n, err)
	}
	if n, err := h.svc.ResealSecrets(ctx, 1); err != nil || n != 0 {
		t.Fatalf("second reseal %d, %v; want 0", n, err)
	}
	for _, id := range []string{"wh_legacy1", "wh_legacy2"} {
		if raw := rawItem(t, tbl, 1, id); strings.Contains(raw, secret) || !strings.Contains(raw, "sealedSecret") {
			t.Errorf("%s after sealing:\n%s", id, raw)
		}
	}
	deliver(4) // the same secret, now opened from its envelope
	if strings.Contains(logs.String(), secret) {
		t.Error("a log line holds the secret")
	}
}

// A sealed secret the service cannot open (its keyring lost, or KMS
// refusing) sends nothing: the attempt fails as secret_unavailable with a
// message that names no key, the cause goes to the logs, and a new secret
// set meanwhile signs the next attempt.
func TestUnopenableSecretSendsNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		mem := newMemNet(t)
		tbl := embedded.NewMemory()
		rc := mem.receiver(secret, nil)
		// Created under keys this process no longer holds.
		lost := webhooks.New(tbl, webhooks.Options{Guard: loopback, Secrets: secrets.NewSealer(secrets.NewMemoryKeyring())})
		sub, err := lost.CreateSubscription(ctx, 1, webhooks.NewSubscription{URL: rc.url, Secret: ptr("a-secret-sealed-under-a-lost-key")})
		if err != nil {
			t.Fatal(err)
		}
		var logs logtest.Buffer
		h := mem.harness(tbl, webhooks.Options{Guard: loopback, Secrets: secrets.NewSealer(secrets.NewMemoryKeyring()),
			Logger: slog.New(slog.NewJSONHandler(&logs, nil))}, 8)
		ev := emit(t, tbl, 1, outbox.CreditLow, outbox.CreditLowData{Balance: 1, Threshold: 10, Granted: 100})
		d := h.waitAttempts(t, 1, sub.ID, webhooks.DeliveryID(ev.ID, sub.ID), 1, 10*time.Second)
		a := d.Attempts[0]
		if a.Reason == nil || *a.Reason != webhooks.ReasonSecretUnavailable || a.Error == nil || a.HTTPStatus != nil {
			t.Fatalf("attempt %+v", a)
		}
		if strings.Contains(*a.Error, "local:") || strings.Contains(*a.Error, sub.SealedSecret.KeyID) {
			t.Errorf("the tenant-visible error names the key: %q", *a.Error)
		}
		if len(rc.posts()) != 0 {
			t.Fatal("a POST was made without the secret")
		}
		if !strings.Contains(logs.String(), "unknown key") {
			t.Errorf("the cause is not in the logs: %s", logs.String())
		}
		// Resealing at start leaves it as it is, without failing.
		if n, err := h.svc.ResealSecrets(ctx, 1); err != nil || n != 0 {
			t.Errorf("reseal with an unopenable secret: %d, %v", n, err)
		}
		// Setting a new secret recovers: the retry is signed with it.
		if _, err := h.svc.UpdateSubscription(ctx, 1, sub.ID, webhooks.Patch{Secret: ptr(secret)}); err != nil {
			t.Fatal(err)
		}
		h.waitStatus(t, 1, sub.ID, ev.ID, webhooks.StatusSucceeded, 10*time.Second)
		if p := rc.posts(); len(p) != 1 || !p[0].sigOK {
			t.Errorf("posts after the new secret: %d", len(p))
		}
	})
}
