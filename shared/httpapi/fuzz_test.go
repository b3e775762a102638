package httpapi

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"testing"
)

// FuzzDecodeStrict: any body yields either a decoded value or a validation
// error naming fields, never a panic or another error kind.
func FuzzDecodeStrict(f *testing.F) {
	for _, s := range []string{`{}`, `{"platforms":["chatgpt"],"samples":2}`, `{"samples":"x","y":1}`, `[`, `null`, `{"platforms":null}`, "{\"a\":1} x", `{"samples":1e99}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var rr RunRequest
		if err := decodeStrict(body, &rr); err != nil {
			if err.Code != CodeValidation || err.Details["fields"] == nil {
				t.Fatalf("error %+v", err)
			}
		}
		var pp PublishPayload
		_ = decodeStrict(body, &pp)
	})
}

// FuzzParseParams: any query string is either accepted with typed values
// inside the declared bounds, or refused with a validation error.
func FuzzParseParams(f *testing.F) {
	var rt *Route
	for i := range Routes {
		if Routes[i].Path == "/api/v1/citations" {
			rt = &Routes[i]
		}
	}
	for _, s := range []string{"page=1&pageSize=20", "pageSize=101", "platform=chatgpt&hasMention=true", "dateFrom=2026-01-01", "x=%zz", "page=99999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		out, perr := parseParams(rt, nil, q)
		if perr != nil {
			if perr.Code != CodeValidation {
				t.Fatalf("code %s", perr.Code)
			}
			return
		}
		if ps, ok := out["pageSize"].(int32); !ok || ps < 1 || ps > MaxPageSize {
			t.Fatalf("pageSize %v accepted", out["pageSize"])
		}
		if p, ok := out["page"].(int32); !ok || p < 1 {
			t.Fatalf("page %v accepted", out["page"])
		}
	})
}

// FuzzVerifySignature: only the exact HMAC of the body verifies.
func FuzzVerifySignature(f *testing.F) {
	secret := []byte("It's a Secret to Everybody")
	f.Add([]byte("Hello, World!"), "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17")
	f.Add([]byte(`{"a":1}`), "SHA256=00")
	f.Add([]byte(""), "sha256=")
	f.Fuzz(func(t *testing.T, body []byte, header string) {
		m := hmac.New(sha256.New, secret)
		m.Write(body)
		want := m.Sum(nil)
		ok := VerifySignature(secret, body, header)
		if ok {
			got, err := hex.DecodeString(header[len("sha256="):])
			if err != nil || !hmac.Equal(got, want) {
				t.Fatalf("%q verified for %q", header, body)
			}
		}
		if !VerifySignature(secret, body, "sha256="+hex.EncodeToString(want)) {
			t.Fatal("the true signature does not verify")
		}
	})
}

func TestSignatureVector(t *testing.T) {
	secret := []byte("It's a Secret to Everybody")
	body := []byte("Hello, World!")
	for _, h := range []string{
		"sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
		"SHA256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
	} {
		if !VerifySignature(secret, body, h) {
			t.Errorf("%s does not verify", h)
		}
	}
	for _, h := range []string{"", "sha256=", "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
		"sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e18", "sha1=757107ea"} {
		if VerifySignature(secret, body, h) {
			t.Errorf("%q verifies", h)
		}
	}
	if VerifySignature(secret, []byte(`{"a": 1}`), "sha256="+sign(secret, []byte(`{"a":1}`))) {
		t.Error("a re-serialised body verifies")
	}
}

func sign(secret, body []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}
