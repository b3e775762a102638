package httpapi

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"testing"

	"github.com/brandlens/brandlens/shared/validation"
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
			var ve *validation.Error
			if !errors.As(err, &ve) || len(ve.Fields) == 0 {
				t.Fatalf("error %T %v", err, err)
			}
		}
		var pp PublishPayload
		_ = decodeStrict(body, &pp)
	})
}

// FuzzBindParams: any query string is either accepted with typed values
// inside the declared bounds, or refused with a validation error.
func FuzzBindParams(f *testing.F) {
	b := newBinding(reflect.TypeFor[listCitationsIn]())
	for _, s := range []string{"page=1&pageSize=20", "pageSize=101", "platform=chatgpt&hasMention=true", "dateFrom=2026-01-01", "x=%zz", "page=99999999999", "cursor=abc&page=2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := url.Parse("/api/v1/citations?" + raw)
		if err != nil {
			return
		}
		rq := &Request{HTTP: httptest.NewRequest(http.MethodGet, "/", nil)}
		rq.HTTP.URL = u
		var in listCitationsIn
		err = b.bind(rq, nil, reflect.ValueOf(&in).Elem())
		if err == nil {
			err = in.check(rq)
		}
		if err != nil {
			var ve *validation.Error
			if !errors.As(err, &ve) {
				t.Fatalf("error %T %v", err, err)
			}
			return
		}
		if in.PageSize < 1 || in.PageSize > MaxPageSize || in.Page < 1 {
			t.Fatalf("page %d pageSize %d accepted", in.Page, in.PageSize)
		}
		if in.Cursor == "" && int(in.Page)*int(in.PageSize) > MaxPageDepth {
			t.Fatalf("page %d × pageSize %d accepted beyond the depth cap", in.Page, in.PageSize)
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
