package embedded

import "github.com/brandlens/brandlens/shared/store"

// encodeCursor renders entry e of the tree of index as a last evaluated key.
func encodeCursor(e entry, index string) string {
	m := map[string]string{store.AttrPK: e.h(), store.AttrSK: e.r()}
	if index != "" {
		h, r := store.IndexKeyAttrs(index)
		m = map[string]string{h: e.h(), r: e.r(), store.AttrPK: e.pk(), store.AttrSK: e.sk()}
	}
	return store.EncodeCursor(m)
}

// decodeCursor returns the entry the cursor names in the tree of index; the
// cursor must belong to the partition hashKey.
func decodeCursor(s, index, hashKey string) (entry, error) {
	m, err := store.DecodeCursor(s, index, hashKey)
	if err != nil {
		return entry{}, err
	}
	if index != "" {
		h, r := store.IndexKeyAttrs(index)
		return pivot(m[h], m[r], m[store.AttrPK], m[store.AttrSK], supNone), nil
	}
	return pivot(m[store.AttrPK], m[store.AttrSK], "", "", supNone), nil
}
