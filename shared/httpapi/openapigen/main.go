// Command openapigen writes the API's OpenAPI document, as `brandlens
// serve` serves it, to the file Lambda builds embed (`make generate`; see
// shared/httpapi/openapi.go).
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"log"
	"os"

	"github.com/brandlens/brandlens/shared/httpapi"
)

func main() {
	out := flag.String("o", "openapi.json", "output file")
	flag.Parse()
	doc, err := httpapi.OpenAPIJSON()
	if err != nil {
		log.Fatal(err)
	}
	var b bytes.Buffer
	if err := json.Indent(&b, doc, "", "  "); err != nil {
		log.Fatal(err)
	}
	b.WriteByte('\n')
	if err := os.WriteFile(*out, b.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
}
