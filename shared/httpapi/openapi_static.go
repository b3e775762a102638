//go:build brandlens.lambda

package httpapi

import (
	"bytes"
	_ "embed"
	"encoding/json"
)

// generatedOpenAPI is the document openapi.go builds, written (indented)
// by `make generate`; a test keeps it current.
//
//go:embed openapi.json
var generatedOpenAPI []byte

func openAPIDocument() ([]byte, error) {
	var b bytes.Buffer
	err := json.Compact(&b, generatedOpenAPI)
	return b.Bytes(), err
}
