package signing_test

import (
	"strings"
	"testing"

	"github.com/brandlens/brandlens/shared/signing"
)

// The public test vector of reference/reliability.md (GitHub's
// documentation) passes through the signer and the verifier.
func TestPublicVector(t *testing.T) {
	secret := []byte("It's a Secret to Everybody")
	body := []byte("Hello, World!")
	const want = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"
	if got := signing.Sign(secret, body); got != want {
		t.Fatalf("Sign = %s, want %s", got, want)
	}
	for _, h := range []string{want, strings.ToUpper(want[:7]) + want[7:], "Sha256=" + want[7:]} {
		if !signing.Verify(secret, body, h) {
			t.Errorf("%s does not verify", h)
		}
	}
}

func TestVerifyRefuses(t *testing.T) {
	secret := []byte("s3cret")
	body := []byte(`{"a":1}`)
	good := signing.Sign(secret, body)
	for _, h := range []string{"", "sha256=", good[7:], "sha1=" + good[7:], good[:len(good)-1] + "0", good + "00", "sha256=zz"} {
		if h == good {
			continue
		}
		if signing.Verify(secret, body, h) {
			t.Errorf("%q verifies", h)
		}
	}
	if signing.Verify(secret, []byte(`{"a": 1}`), good) {
		t.Error("a re-serialised body verifies")
	}
	if signing.Verify([]byte("other"), body, good) {
		t.Error("another secret verifies")
	}
}

func FuzzSignVerify(f *testing.F) {
	f.Add([]byte("k"), []byte("Hello, World!"))
	f.Add([]byte{}, []byte{})
	f.Fuzz(func(t *testing.T, secret, body []byte) {
		h := signing.Sign(secret, body)
		if !signing.Verify(secret, body, h) {
			t.Fatal("own signature does not verify")
		}
		if signing.Verify(secret, append(body, 'x'), h) {
			t.Fatal("signature verifies a longer body")
		}
	})
}
