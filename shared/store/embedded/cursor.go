package embedded

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/brandlens/brandlens/shared/store"
)

// maxCursorLen bounds the work spent on a cursor that came from a client:
// four key attributes of at most 2 KB each, JSON-quoted, base64-encoded.
const maxCursorLen = 16 * 1024

var errBadCursor = errors.New("store: invalid cursor")

// A cursor is the last evaluated key, shaped like DynamoDB's
// LastEvaluatedKey (attribute name → string), as base64url JSON.
func encodeCursor(e entry, index string) string {
	m := map[string]string{store.AttrPK: e.h, store.AttrSK: e.r}
	if index == store.IndexGSI1 {
		m = map[string]string{store.AttrGSI1PK: e.h, store.AttrGSI1SK: e.r, store.AttrPK: e.pk, store.AttrSK: e.sk}
	}
	b, _ := json.Marshal(m)
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor returns the entry the cursor names in the tree of index; the
// cursor must belong to the partition hashKey.
func decodeCursor(s, index, hashKey string) (entry, error) {
	if len(s) > maxCursorLen {
		return entry{}, errBadCursor
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return entry{}, fmt.Errorf("%w: %v", errBadCursor, err)
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		return entry{}, fmt.Errorf("%w: %v", errBadCursor, err)
	}
	names := []string{store.AttrPK, store.AttrSK}
	if index == store.IndexGSI1 {
		names = append(names, store.AttrGSI1PK, store.AttrGSI1SK)
	}
	if len(m) != len(names) {
		return entry{}, errBadCursor
	}
	for _, n := range names {
		if v, ok := m[n]; !ok || v == "" {
			return entry{}, errBadCursor
		}
	}
	e := entry{h: m[store.AttrPK], r: m[store.AttrSK]}
	if index == store.IndexGSI1 {
		e = entry{h: m[store.AttrGSI1PK], r: m[store.AttrGSI1SK], pk: m[store.AttrPK], sk: m[store.AttrSK]}
	}
	if e.h != hashKey {
		return entry{}, fmt.Errorf("%w: it belongs to another partition", errBadCursor)
	}
	return e, nil
}
