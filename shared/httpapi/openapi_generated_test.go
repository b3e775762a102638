package httpapi_test

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/brandlens/brandlens/shared/httpapi"
)

// TestGeneratedOpenAPIIsCurrent: Lambda builds serve openapi.json (see
// openapi.go), which must be the document the route table makes: run
// `make generate` after changing a route, a DTO or a documented error.
func TestGeneratedOpenAPIIsCurrent(t *testing.T) {
	live, err := httpapi.OpenAPIJSON()
	if err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, file); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(compact.Bytes(), live) {
		t.Fatal("shared/httpapi/openapi.json differs from the route table's document: run `make generate`")
	}
}
