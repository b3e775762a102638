package main

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/brandlens/brandlens/shared/httpapi"
)

// `brandlens serve` bounds request headers and answers the refusal in the
// error envelope (net/http would write plain text).
func TestServeRefusesLargeHeadersInTheEnvelope(t *testing.T) {
	s := startServe(t)
	defer s.stop()
	for _, c := range []struct {
		pad    int
		status int
	}{{httpapi.MaxHeaderBytes - 1024, 200}, {httpapi.MaxHeaderBytes + 8192, 431}} {
		req, _ := http.NewRequest("GET", s.base+"/api/v1/me", nil)
		req.Header.Set("X-API-Key", benchKey)
		req.Header.Set("X-Padding", strings.Repeat("p", c.pad))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		var env struct {
			Error *httpapi.ErrorObject `json:"error"`
		}
		_ = json.Unmarshal(body, &env)
		if res.StatusCode != c.status || res.Header.Get("Content-Type") != "application/json" {
			t.Fatalf("%d bytes of header: %d %s %s", c.pad, res.StatusCode, res.Header.Get("Content-Type"), body)
		}
		if c.status == 431 && (env.Error == nil || env.Error.Code != httpapi.CodeHeadersTooLarge) {
			t.Fatalf("431 body %s", body)
		}
	}
}
