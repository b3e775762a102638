package secrets_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brandlens/brandlens/shared/secrets"
	"github.com/brandlens/brandlens/shared/secrets/kmstest"
)

var bound = secrets.Binding{Purpose: "webhook-subscription-secret", TenantID: 7, RecordID: "wh_01abc"}

// backends are the two kinds of key-encryption keys, each fresh.
var backends = []struct {
	name string
	keys func(t *testing.T) secrets.Keys
}{
	{"keyring", func(t *testing.T) secrets.Keys { return secrets.NewKeyring(filepath.Join(t.TempDir(), "data")) }},
	{"kms", func(t *testing.T) secrets.Keys {
		srv, arn := kmstest.New(t)
		return secrets.NewKMS(srv.Client(), arn)
	}},
}

// A sealed secret opens for its own binding only, holds no trace of the
// plain text, and any change to the envelope makes it refuse to open.
func TestSealOpen(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			keys := b.keys(t)
			s := secrets.NewSealer(keys)
			const secret = "whsec_correct-horse-battery-staple"
			sl, err := s.Seal(ctx, secret, bound)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := json.Marshal(sl)
			if strings.Contains(string(raw), "correct-horse") {
				t.Fatalf("envelope shows the secret: %s", raw)
			}
			// The sealer (its data key cached) and a fresh one (unwrapping).
			for _, opener := range []*secrets.Sealer{s, secrets.NewSealer(keys)} {
				if got, err := opener.Open(ctx, sl, bound); err != nil || got != secret {
					t.Fatalf("open: %q, %v", got, err)
				}
			}
			for _, other := range []secrets.Binding{
				{Purpose: bound.Purpose, TenantID: 8, RecordID: bound.RecordID},
				{Purpose: bound.Purpose, TenantID: bound.TenantID, RecordID: "wh_01abd"},
				{Purpose: "destination-secret", TenantID: bound.TenantID, RecordID: bound.RecordID},
			} {
				// Neither through the cache nor by unwrapping afresh.
				for _, opener := range []*secrets.Sealer{s, secrets.NewSealer(keys)} {
					if _, err := opener.Open(ctx, sl, other); !errors.Is(err, secrets.ErrOpen) {
						t.Errorf("opened for %+v: %v", other, err)
					}
				}
			}
			flip := func(b []byte) []byte { c := append([]byte{}, b...); c[len(c)/2] ^= 1; return c }
			for name, bad := range map[string]secrets.Sealed{
				"ciphertext": {Version: sl.Version, KeyID: sl.KeyID, WrappedKey: sl.WrappedKey, Nonce: sl.Nonce, Ciphertext: flip(sl.Ciphertext)},
				"nonce":      {Version: sl.Version, KeyID: sl.KeyID, WrappedKey: sl.WrappedKey, Nonce: flip(sl.Nonce), Ciphertext: sl.Ciphertext},
				"wrapped":    {Version: sl.Version, KeyID: sl.KeyID, WrappedKey: flip(sl.WrappedKey), Nonce: sl.Nonce, Ciphertext: sl.Ciphertext},
				"key id":     {Version: sl.Version, KeyID: sl.KeyID + "x", WrappedKey: sl.WrappedKey, Nonce: sl.Nonce, Ciphertext: sl.Ciphertext},
				"version":    {Version: 2, KeyID: sl.KeyID, WrappedKey: sl.WrappedKey, Nonce: sl.Nonce, Ciphertext: sl.Ciphertext},
				"empty":      {},
			} {
				if _, err := secrets.NewSealer(keys).Open(ctx, bad, bound); !errors.Is(err, secrets.ErrOpen) {
					t.Errorf("%s changed: %v", name, err)
				}
			}
			if !s.Current(sl) {
				t.Error("a fresh envelope is not current")
			}
		})
	}
}

// Rotation: new secrets are sealed under the new key, envelopes of the old
// one still open (the envelope names its key) and are no longer current.
func TestRotation(t *testing.T) {
	ctx := context.Background()
	t.Run("keyring", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "data")
		kr := secrets.NewKeyring(dir)
		s := secrets.NewSealer(kr)
		old, err := s.Seal(ctx, "old-secret-0123456789", bound)
		if err != nil {
			t.Fatal(err)
		}
		kid, err := kr.Rotate()
		if err != nil || kid == old.KeyID {
			t.Fatalf("rotate: %s, %v", kid, err)
		}
		fresh, err := s.Seal(ctx, "new-secret-0123456789", bound)
		if err != nil || fresh.KeyID != kid {
			t.Fatalf("sealed under %s, %v; want %s", fresh.KeyID, err, kid)
		}
		// A new process reads both keys from the file.
		s2 := secrets.NewSealer(secrets.NewKeyring(dir))
		for sl, want := range map[*secrets.Sealed]string{&old: "old-secret-0123456789", &fresh: "new-secret-0123456789"} {
			if got, err := s2.Open(ctx, *sl, bound); err != nil || got != want {
				t.Errorf("open %s: %q, %v", sl.KeyID, got, err)
			}
		}
		if s2.Current(old) || !s2.Current(fresh) {
			t.Error("Current does not follow the rotation")
		}
		fi, err := os.Stat(filepath.Join(dir, secrets.KeyringFile))
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("keyring file: %v, %v", fi, err)
		}
		// Without the keyring file, nothing opens, and the error says why.
		if err := os.Remove(filepath.Join(dir, secrets.KeyringFile)); err != nil {
			t.Fatal(err)
		}
		if _, err := secrets.NewSealer(secrets.NewKeyring(dir)).Open(ctx, old, bound); !errors.Is(err, secrets.ErrUnknownKey) || !strings.Contains(err.Error(), "restore") {
			t.Errorf("open without the keyring: %v", err)
		}
	})
	t.Run("kms", func(t *testing.T) {
		srv, first := kmstest.New(t)
		s1 := secrets.NewSealer(secrets.NewKMS(srv.Client(), first))
		old, err := s1.Seal(ctx, "old-secret-0123456789", bound)
		if err != nil || old.KeyID != first {
			t.Fatalf("sealed under %s, %v", old.KeyID, err)
		}
		second := srv.AddKey("5678efgh-12ab-34cd-56ef-1234567890ab")
		s2 := secrets.NewSealer(secrets.NewKMS(srv.Client(), "5678efgh-12ab-34cd-56ef-1234567890ab"))
		fresh, err := s2.Seal(ctx, "new-secret-0123456789", bound)
		if err != nil || fresh.KeyID != second {
			t.Fatalf("sealed under %s, %v; want %s", fresh.KeyID, err, second)
		}
		if got, err := s2.Open(ctx, old, bound); err != nil || got != "old-secret-0123456789" {
			t.Errorf("the old envelope after the key changed: %q, %v", got, err)
		}
		if s2.Current(old) || !s2.Current(fresh) {
			t.Error("Current does not follow the configured key")
		}
	})
}

// KMS is asked once per data key, not once per open; a key policy that
// refuses Decrypt leaves the secret closed.
func TestKMSCacheAndRefusal(t *testing.T) {
	ctx := context.Background()
	srv, arn := kmstest.New(t)
	sealer := secrets.NewSealer(secrets.NewKMS(srv.Client(), arn))
	sl, err := sealer.Seal(ctx, "a-secret-0123456789", bound)
	if err != nil {
		t.Fatal(err)
	}
	opener := secrets.NewSealer(secrets.NewKMS(srv.Client(), arn))
	for range 5 {
		if _, err := opener.Open(ctx, sl, bound); err != nil {
			t.Fatal(err)
		}
	}
	if c := srv.Calls(); c["GenerateDataKey"] != 1 || c["Decrypt"] != 1 {
		t.Errorf("KMS calls %v, want one GenerateDataKey and one Decrypt", c)
	}
	srv.Deny("Decrypt")
	if _, err := secrets.NewSealer(secrets.NewKMS(srv.Client(), arn)).Open(ctx, sl, bound); !errors.Is(err, secrets.ErrOpen) ||
		!strings.Contains(err.Error(), "AccessDenied") {
		t.Errorf("open with Decrypt denied: %v", err)
	}
	if _, err := secrets.NewSealer(secrets.Unavailable{Reason: "no key here"}).Seal(ctx, "x", bound); err == nil {
		t.Error("Unavailable sealed")
	}
}
