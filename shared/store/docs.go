package store

import (
	"context"
	"encoding/json"
	"fmt"
)

// AttrDoc holds an entity's JSON document; the other attributes of its item
// are keys and the few fields that conditions and filters need.
const AttrDoc = "doc"

// All reads every page of q.
func All(ctx context.Context, tbl Table, q Query) ([]Item, error) {
	var out []Item
	for {
		page, err := tbl.Query(ctx, q)
		if err != nil {
			return nil, err
		}
		out = append(out, page.Items...)
		if page.Cursor == "" {
			return out, nil
		}
		q.Cursor = page.Cursor
	}
}

// Doc decodes the item's JSON document into a T.
func Doc[T any](it Item) (T, error) {
	var v T
	if err := json.Unmarshal([]byte(it.String(AttrDoc)), &v); err != nil {
		return v, fmt.Errorf("store: decode %s/%s: %w", it.String(AttrPK), it.String(AttrSK), err)
	}
	return v, nil
}

// Docs decodes the documents of items.
func Docs[T any](items []Item) ([]T, error) {
	out := make([]T, 0, len(items))
	for _, it := range items {
		v, err := Doc[T](it)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// EncodeDoc renders v as the document attribute value.
func EncodeDoc(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("store: encode document: %w", err)
	}
	return string(b), nil
}
