package httpapi_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/httpapi/apitest"
)

// Requests net/http refuses before any handler runs are answered in the
// error envelope, not as net/http's plain text.
func TestRefusalsBeforeRoutingUseTheEnvelope(t *testing.T) {
	api := apitest.New(t, apitest.Options{})
	t.Run("headers over the limit", func(t *testing.T) {
		req, _ := http.NewRequest("GET", api.URL+"/api/v1/me", nil)
		req.Header.Set("X-API-Key", apitest.KeyARead)
		req.Header.Set("X-Padding", strings.Repeat("p", httpapi.MaxHeaderBytes+4096))
		r := apitest.NewClient(t, api.URL).Send(t, req)
		if r.Status != http.StatusRequestHeaderFieldsTooLarge || r.ErrorCode(t) != "request_headers_too_large" {
			t.Fatalf("got %d %s", r.Status, r.Body)
		}
		if !strings.HasPrefix(r.Header.Get("X-Request-Id"), "req_") {
			t.Errorf("X-Request-Id %q", r.Header.Get("X-Request-Id"))
		}
	})
	t.Run("headers within the limit", func(t *testing.T) {
		req, _ := http.NewRequest("GET", api.URL+"/api/v1/me", nil)
		req.Header.Set("X-API-Key", apitest.KeyARead)
		req.Header.Set("X-Padding", strings.Repeat("p", httpapi.MaxHeaderBytes-1024))
		if r := apitest.NewClient(t, api.URL).Send(t, req); r.Status != 200 {
			t.Fatalf("got %d %s", r.Status, r.Body)
		}
	})
	for name, raw := range map[string]string{
		"no Host":             "GET /api/v1/me HTTP/1.1\r\n\r\n",
		"invalid header name": "GET /api/v1/me HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n",
		"garbage":             "HELLO\r\n\r\n",
		"oversized, raw":      "GET /api/v1/me HTTP/1.1\r\nHost: x\r\nX-Padding: " + strings.Repeat("p", 3*httpapi.MaxHeaderBytes) + "\r\n\r\n",
	} {
		t.Run(name, func(t *testing.T) {
			res := rawRequest(t, api.URL, raw)
			body, _ := io.ReadAll(res.Body)
			if res.Header.Get("Content-Type") != "application/json" || res.Header.Get("X-Request-Id") == "" {
				t.Fatalf("%d %v %s", res.StatusCode, res.Header, body)
			}
			var env struct {
				Error httpapi.ErrorObject `json:"error"`
			}
			if err := json.Unmarshal(body, &env); err != nil || env.Error.Code == "" || env.Error.Details == nil {
				t.Fatalf("no envelope: %s", body)
			}
			if want := httpapi.ErrorStatus[env.Error.Code]; want != res.StatusCode {
				t.Fatalf("status %d for code %s", res.StatusCode, env.Error.Code)
			}
			if strings.Contains(string(body), "ppppp") {
				t.Fatalf("the answer echoes the request: %s", body)
			}
		})
	}
}

func rawRequest(t *testing.T, base, raw string) *http.Response {
	t.Helper()
	c, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	go func() { _, _ = io.WriteString(c, raw) }()
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The request id is the service's own; a client's X-Request-Id of the safe
// shape is only logged beside it, any other value not at all.
func TestRequestIDsAreTheServicesOwn(t *testing.T) {
	var logs bytes.Buffer
	api := apitest.NewHandler(t, apitest.Options{})
	d := api.Deps
	d.Logger = slog.New(slog.NewJSONHandler(&logs, nil))
	h := httpapi.New(d)
	send := func(values ...string) string {
		req := httptest.NewRequest("GET", "/api/v1/me", nil)
		req.Header.Set("X-API-Key", apitest.KeyARead)
		req.Header["X-Request-Id"] = values
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Header().Get("X-Request-Id")
	}
	logged := func() map[string]any {
		var m map[string]any
		lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	a, b := send("trace-42"), send("trace-42")
	if a == "trace-42" || a == b || !strings.HasPrefix(a, "req_") {
		t.Fatalf("request ids %q and %q for the client's trace-42", a, b)
	}
	if m := logged(); m["request_id"] != b || m["client_request_id"] != "trace-42" {
		t.Fatalf("log %v", m)
	}
	for _, bad := range [][]string{
		{strings.Repeat("a", 129)}, {"two words"}, {"ünïcode"}, {`{"json":1}`}, {"trace-44", "trace-45"}, {"x\u2028y"},
	} {
		rid := send(bad...)
		m := logged()
		if _, ok := m["client_request_id"]; ok || m["request_id"] != rid || strings.Contains(logs.String(), bad[0]) {
			t.Fatalf("%q: log %v", bad, m)
		}
	}

	// Behind API Gateway, its request id, never the client's.
	lh, err := httpapi.NewLambdaHandler(d, "api-get-me")
	if err != nil {
		t.Fatal(err)
	}
	ev := events.APIGatewayV2HTTPRequest{
		RawPath: "/api/v1/me", Headers: map[string]string{"x-api-key": apitest.KeyARead, "x-request-id": "trace-43"},
		RequestContext: events.APIGatewayV2HTTPRequestContext{RequestID: "Ab1Cd2Ef3Gh4",
			HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: "GET", Path: "/api/v1/me"}},
	}
	res, err := lh(context.Background(), ev)
	if err != nil || res.StatusCode != 200 || res.Headers["X-Request-Id"] != "Ab1Cd2Ef3Gh4" {
		t.Fatalf("lambda: %v %d %v", err, res.StatusCode, res.Headers)
	}
	if m := logged(); m["request_id"] != "Ab1Cd2Ef3Gh4" || m["client_request_id"] != "trace-43" {
		t.Fatalf("lambda log %v", m)
	}
}
