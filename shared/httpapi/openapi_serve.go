package httpapi

import "sync"

//go:generate go run ./openapigen -o openapi.json

// The document is static: it is made once, on first request, and served
// as bytes (built from the route table, or in Lambda builds the generated
// openapi.json; see openapi.go).
var openAPICache struct {
	once sync.Once
	doc  []byte
	err  error
}

// rawJSON is an answer that is already JSON.
type rawJSON []byte

// MarshalJSON returns the bytes as they are.
func (r rawJSON) MarshalJSON() ([]byte, error) { return r, nil }

func (s *Server) getOpenAPI(rq *Request, _ NoInput) (rawJSON, error) {
	openAPICache.once.Do(func() { openAPICache.doc, openAPICache.err = openAPIDocument() })
	return openAPICache.doc, openAPICache.err
}
