package httpapi

import (
	"bufio"
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/brandlens/brandlens/shared/idempotency"
	"github.com/brandlens/brandlens/shared/validation"
)

// FuzzDecodeStrict: any body yields either a decoded value or a validation
// error naming fields, never a panic or another error kind.
func FuzzDecodeStrict(f *testing.F) {
	for _, s := range []string{`{}`, `{"platforms":["chatgpt"],"samples":2}`, `{"samples":"x","y":1}`, `[`, `null`, `{"platforms":null}`, "{\"a\":1} x", `{"samples":1e99}`,
		`{"samples":1.0}`, `{"samples":0.2e1}`, `{"samples":1.5}`, `{"samples":-0.0}`, `{"samples":2147483648.0}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var rr RunRequest
		if err := decodeStrict(body, &rr); err != nil {
			var ve *validation.Error
			if !errors.As(err, &ve) || len(ve.Fields) == 0 {
				t.Fatalf("error %T %v", err, err)
			}
		} else if rr.Samples != nil {
			// An accepted number is exactly the integer decoded.
			var m map[string]json.RawMessage
			if err := json.Unmarshal(body, &m); err != nil {
				t.Fatal(err)
			}
			sent, ok := new(big.Rat).SetString(string(m["samples"]))
			if !ok || sent.Cmp(big.NewRat(int64(*rr.Samples), 1)) != 0 {
				t.Fatalf("samples %s decoded as %d", m["samples"], *rr.Samples)
			}
		}
		var pp PublishPayload
		_ = decodeStrict(body, &pp)
	})
}

// TestIntegerMembersTakeIntegralNumbers: an integer member takes any JSON
// number whose value is an integer in its range, however it is written.
func TestIntegerMembersTakeIntegralNumbers(t *testing.T) {
	for _, c := range []struct {
		number  string
		want    int32
		refused bool
	}{
		{number: "2", want: 2}, {number: "2.0", want: 2}, {number: "2e0", want: 2}, {number: "0.2e1", want: 2},
		{number: "2E+0", want: 2}, {number: "200e-2", want: 2}, {number: "-0.0", want: 0},
		{number: "2147483647.0", want: 2147483647}, {number: "1.5", refused: true},
		{number: "1.0000000000000000001", refused: true}, {number: "2147483648.0", refused: true},
		{number: "1e99", refused: true}, {number: `"2"`, refused: true},
		{number: "2." + strings.Repeat("0", 100), refused: true}, // longer than integral reads
	} {
		t.Run(c.number, func(t *testing.T) {
			var rr RunRequest
			err := decodeStrict([]byte(`{"samples":`+c.number+`}`), &rr)
			if c.refused {
				var ve *validation.Error
				if !errors.As(err, &ve) || ve.Fields[0].Field != "samples" {
					t.Fatalf("err %v, want samples refused", err)
				}
				return
			}
			if err != nil || rr.Samples == nil || *rr.Samples != c.want {
				t.Fatalf("err %v, samples %v, want %d", err, rr.Samples, c.want)
			}
		})
	}
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

// FuzzDecodeStrictAcceptsOnlyStrictJSON: a body decodeStrict accepts is one
// well-formed UTF-8 JSON object whose members, at every depth, are named
// once — checked here with encoding/json's tokenizer, independently of the
// decoder's own.
func FuzzDecodeStrictAcceptsOnlyStrictJSON(f *testing.F) {
	for _, s := range []string{`{"samples":1,"samples":5}`, `{"platforms":[{"a":1,"a":2}]}`, `{"samples":2}`, `{"a":{"b":{"c":[1,{"d":1,"e":2}]}}}`,
		"{\"platforms\":[\"\xff\"]}", `{"samples":1} `, `{"\u0073amples":1,"samples":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var pp PublishPayload
		err := decodeStrict(body, &pp)
		var ve *validation.Error
		if err != nil && (!errors.As(err, &ve) || len(ve.Fields) == 0) {
			t.Fatalf("error %T %v", err, err)
		}
		var m map[string]json.RawMessage
		if ve != nil && ve.Fields[0].Field == "body" || json.Unmarshal(body, &m) != nil {
			return
		}
		if !utf8.Valid(body) {
			if err == nil || ve.Fields[0].Field != "body" {
				t.Fatalf("invalid UTF-8 accepted: %q (%v)", body, err)
			}
			return
		}
		if dup := duplicateMember(t, body); dup != "" && (err == nil || !strings.Contains(ve.Error(), "more than once")) {
			t.Fatalf("duplicate member %q of %q: %v", dup, body, err)
		}
	})
}

// duplicateMember returns a member named twice in one object of a valid
// JSON body, or "".
func duplicateMember(t *testing.T, body []byte) string {
	dec := json.NewDecoder(bytes.NewReader(body))
	type frame struct {
		obj  bool
		seen map[string]bool
		key  bool // next token of an object is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		top := (*frame)(nil)
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.obj && top.key {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				if len(stack) > 0 && stack[len(stack)-1].obj {
					stack[len(stack)-1].key = true
				}
				continue
			}
			k := tok.(string)
			if top.seen[k] {
				return k
			}
			top.seen[k] = true
			top.key = false
			continue
		}
		switch d := tok.(type) {
		case json.Delim:
			switch d {
			case '{':
				stack = append(stack, &frame{obj: true, seen: map[string]bool{}, key: true})
				continue
			case '[':
				stack = append(stack, &frame{})
				continue
			default:
				stack = stack[:len(stack)-1]
			}
		}
		if len(stack) > 0 && stack[len(stack)-1].obj {
			stack[len(stack)-1].key = true
		}
	}
}

// FuzzFingerprint: the same JSON object re-encoded (members sorted, other
// spacing and escapes, numbers written as Go writes them) is the same
// request; one more member is another.
func FuzzFingerprint(f *testing.F) {
	for _, s := range []string{`{"samples":2,"platforms":["chatgpt"]}`, `{"b":1.50,"a":"<&>"}`, `{"x":{"z":[1e2,{"y":null}],"a":true}}`, `{"\u00e9":"\u00e9"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var pp map[string]any
		if checkJSON(body) != nil {
			return
		}
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		if err := dec.Decode(&pp); err != nil {
			t.Fatalf("accepted body does not decode: %v", err)
		}
		again, err := json.MarshalIndent(pp, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		fp := idempotency.Fingerprint("POST", "/x", body)
		if idempotency.Fingerprint("POST", "/x", again) != fp {
			t.Fatalf("%s and %s differ", body, again)
		}
		pp["\x00extra"] = 1
		more, _ := json.Marshal(pp)
		if idempotency.Fingerprint("POST", "/x", more) == fp {
			t.Fatalf("%s and %s are the same request", body, more)
		}
	})
}

// FuzzIdempotencyKeyHeader: the router accepts exactly the keys the
// idempotency records accept (1 to 255 characters of UTF-8).
func FuzzIdempotencyKeyHeader(f *testing.F) {
	for _, s := range []string{"k", "", strings.Repeat("k", 256), strings.Repeat("é", 255), "\xff", "run-2026-11-22-a"} {
		f.Add(s)
	}
	rt := Route{Method: http.MethodPost, Path: "/x", Guard: GuardAPIKey,
		Handler: Handle(func(*Server, *Request, NoInput) (struct{}, error) { return struct{}{}, nil })}
	f.Fuzz(func(t *testing.T, key string) {
		req := httptest.NewRequest(http.MethodPost, "/x", nil)
		req.Header[HeaderIdempotencyKey] = []string{key}
		var in NoInput
		err := rt.Handler.bind.bind(&Request{HTTP: req, Route: &rt}, nil, reflect.ValueOf(&in).Elem())
		if (err == nil) != (idempotency.Validate(key) == nil) {
			t.Fatalf("key %q: router %v, records %v", key, err, idempotency.Validate(key))
		}
	})
}

// FuzzEnvelopeConn: whatever a connection is asked to write, it is written
// unchanged, or — net/http's own plain-text refusals only — replaced by one
// well-formed JSON error answer of the same kind.
func FuzzEnvelopeConn(f *testing.F) {
	const plain = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"
	for _, s := range []string{"HTTP/1.1 431 Request Header Fields Too Large" + plain + "431 Request Header Fields Too Large",
		"HTTP/1.1 400 Bad Request: missing required Host header" + plain + "400 Bad Request: missing required Host header",
		"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{}", "HTTP/1.1 505 HTTP Version Not Supported: unsupported protocol version" + plain + "505",
		"HTTP/1.1 999 x" + plain + "x"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		client, server := net.Pipe()
		defer client.Close()
		c := &envelopeConn{Conn: server, log: slog.New(slog.DiscardHandler)}
		got := make(chan []byte, 1)
		go func() { out, _ := io.ReadAll(client); got <- out }()
		n, err := c.Write(b)
		server.Close()
		out := <-got
		if err != nil || n != len(b) {
			t.Fatalf("Write = %d, %v", n, err)
		}
		if bytes.Equal(out, b) {
			return
		}
		res, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(out)), nil)
		if err != nil {
			t.Fatalf("rewritten %q into an unreadable answer %q: %v", b, out, err)
		}
		var env ErrorBody
		body, _ := io.ReadAll(res.Body)
		if err := json.Unmarshal(body, &env); err != nil || ErrorStatus[env.Error.Code] != res.StatusCode || res.Header.Get("X-Request-Id") == "" {
			t.Fatalf("rewritten %q into %q", b, out)
		}
		if !bytes.Contains(b, []byte(plain)) {
			t.Fatalf("rewrote a write that is no net/http refusal: %q", b)
		}
	})
}
