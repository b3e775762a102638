package apitest_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/brandlens/brandlens/shared/httpapi/apitest"
)

// The client's validation is what keeps the OpenAPI document honest: it
// must refuse answers that the document does not describe.
func TestValidatorRefusesUndocumentedAnswers(t *testing.T) {
	api := apitest.New(t, apitest.Options{})
	me := api.Do(t, "GET", "/api/v1/me", apitest.KeyARead, "")
	v, err := apitest.DocumentValidator()
	if err != nil {
		t.Fatal(err)
	}
	json := http.Header{"Content-Type": {"application/json"}}
	cases := []struct {
		name, method, path string
		status             int
		body               string
		ok                 bool
	}{
		{"the real answer", "GET", "/api/v1/me", 200, string(me.Body), true},
		{"a member missing", "GET", "/api/v1/me", 200, `{"scopes":["read"]}`, false},
		{"a member of another type", "GET", "/api/v1/jobs", 200, `{"items":[{"id":1}]}`, false},
		{"an undocumented status", "GET", "/api/v1/me", 418, `{"error":{"code":"internal_error","message":"x","details":{}}}`, false},
		{"an error outside the envelope", "GET", "/api/v1/me", 401, `{"message":"no"}`, false},
		{"an error code outside the list", "GET", "/api/v1/me", 401, `{"error":{"code":"nope","message":"x","details":{}}}`, false},
		{"a documented error", "GET", "/api/v1/me", 401, `{"error":{"code":"missing_api_key","message":"x","details":{}}}`, true},
		{"no operation, an envelope", "GET", "/api/v2/nothing", 404, `{"error":{"code":"not_found","message":"x","details":{}}}`, true},
		{"no operation, not an envelope", "GET", "/api/v2/nothing", 404, `{}`, false},
		{"no operation, a success", "GET", "/api/v2/nothing", 200, `{}`, false},
		{"a stored citation with a member renamed", "GET", "/api/v1/citations", 200,
			`{"items":[{"id":1}],"page":1,"pageSize":20,"hasMore":false,"nextCursor":null}`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := v.Check(httptest.NewRequest(c.method, c.path, nil), c.status, json, []byte(c.body))
			if (err == nil) != c.ok {
				t.Fatalf("Check = %v, want ok %v", err, c.ok)
			}
		})
	}
}
