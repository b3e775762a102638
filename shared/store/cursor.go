package store

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
)

// maxCursorLen bounds the work spent on a cursor that came from a client:
// four key attributes of at most 2 KB each, JSON-quoted, base64-encoded.
const maxCursorLen = 16 * 1024

// ErrInvalidCursor: a query's cursor is not one the backend handed out for
// that partition and index.
var ErrInvalidCursor = errors.New("store: invalid cursor")

// A cursor is the last evaluated key, shaped like DynamoDB's
// LastEvaluatedKey (attribute name → string value), as base64url JSON; both
// backends hand out and accept the same form.

// CursorKeyNames are the attributes of a last evaluated key of index: the
// table's key, plus the index's own key on an index.
func CursorKeyNames(index string) []string {
	if index == "" {
		return []string{AttrPK, AttrSK}
	}
	h, r := IndexKeyAttrs(index)
	return []string{AttrPK, AttrSK, h, r}
}

// EncodeCursor renders a last evaluated key.
func EncodeCursor(lastKey map[string]string) string {
	b, _ := json.Marshal(lastKey) // a map of strings always marshals
	return base64.RawURLEncoding.EncodeToString(b)
}

// DecodeCursor returns the last evaluated key of cursor s, which must name
// exactly the key attributes of index, none empty, and belong to the
// partition hash of that index.
func DecodeCursor(s, index, hash string) (map[string]string, error) {
	if len(s) > maxCursorLen {
		return nil, ErrInvalidCursor
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidCursor, err)
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidCursor, err)
	}
	names := CursorKeyNames(index)
	if len(m) != len(names) {
		return nil, ErrInvalidCursor
	}
	for _, n := range names {
		if v, ok := m[n]; !ok || v == "" {
			return nil, ErrInvalidCursor
		}
	}
	hashAttr, _ := IndexKeyAttrs(index)
	if m[hashAttr] != hash {
		return nil, fmt.Errorf("%w: it belongs to another partition", ErrInvalidCursor)
	}
	return m, nil
}
