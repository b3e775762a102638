package store

import (
	"context"
	"encoding/json"
	"errors"
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

// Collection is the repository of one entity kept as JSON documents: the
// entity gives its key builder, the attributes stored beside the document
// and its own not-found error; the collection does the encoding, decoding
// and error mapping every entity would otherwise repeat.
type Collection[T any] struct {
	Table Table
	// Name names the entity in errors ("competitor").
	Name string
	// NotFound is what Get returns for a missing item (the entity's
	// ErrNotFound, for callers that branch on it).
	NotFound error
	// Key is the item key of a document.
	Key func(T) Key
	// Attrs, when set, returns the attributes stored beside the document:
	// index keys and what conditions and filters read.
	Attrs func(T) Item
}

// item renders v as its table item.
func (c Collection[T]) item(v T) (Item, error) {
	doc, err := EncodeDoc(v)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Name, err)
	}
	k := c.Key(v)
	it := Item{AttrPK: k.PK, AttrSK: k.SK, AttrDoc: doc}
	if c.Attrs != nil {
		for name, val := range c.Attrs(v) {
			it[name] = val
		}
	}
	return it, nil
}

// Get returns the document at k, or c.NotFound.
func (c Collection[T]) Get(ctx context.Context, k Key) (T, error) {
	snap, err := c.Read(ctx, k)
	return snap.Value, err
}

// Snapshot is a document as read, with the stored form that a conditional
// replace compares against (re-encoding the value would not match a
// document stored before the type gained or lost a member).
type Snapshot[T any] struct {
	Value T
	doc   string
}

// Read returns the document at k as a snapshot, or c.NotFound.
func (c Collection[T]) Read(ctx context.Context, k Key) (Snapshot[T], error) {
	it, err := c.Table.Get(ctx, k)
	if errors.Is(err, ErrNotFound) {
		return Snapshot[T]{}, c.NotFound
	}
	if err != nil {
		return Snapshot[T]{}, fmt.Errorf("%s: get %s/%s: %w", c.Name, k.PK, k.SK, err)
	}
	return snapshot[T](it)
}

func snapshot[T any](it Item) (Snapshot[T], error) {
	v, err := Doc[T](it)
	return Snapshot[T]{Value: v, doc: it.String(AttrDoc)}, err
}

// Query returns the documents of every page of q.
func (c Collection[T]) Query(ctx context.Context, q Query) ([]T, error) {
	items, err := All(ctx, c.Table, q)
	if err != nil {
		return nil, fmt.Errorf("%s: list: %w", c.Name, err)
	}
	return Docs[T](items)
}

// ReadAll returns the documents of every page of q as snapshots.
func (c Collection[T]) ReadAll(ctx context.Context, q Query) ([]Snapshot[T], error) {
	items, err := All(ctx, c.Table, q)
	if err != nil {
		return nil, fmt.Errorf("%s: list: %w", c.Name, err)
	}
	out := make([]Snapshot[T], len(items))
	for i, it := range items {
		if out[i], err = snapshot[T](it); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// PutOp is the transaction op that writes v when cond holds.
func (c Collection[T]) PutOp(v T, cond Cond) (Op, error) {
	it, err := c.item(v)
	if err != nil {
		return Op{}, err
	}
	return PutOp(it, cond), nil
}

// ReplaceOp is the transaction op that replaces the document read as old
// with updated, on the condition that the stored document is still the one
// read (optimistic concurrency between writers that read the same
// version). It fails its condition when the document changed or is gone.
func (c Collection[T]) ReplaceOp(old Snapshot[T], updated T) (Op, error) {
	return c.PutOp(updated, Eq(AttrDoc, old.doc))
}

// Replace writes updated in place of the document read as old, unless it
// changed or went meanwhile: then the error is ErrConditionFailed, and the
// caller reads again.
func (c Collection[T]) Replace(ctx context.Context, old Snapshot[T], updated T) error {
	op, err := c.ReplaceOp(old, updated)
	if err != nil {
		return err
	}
	if err := c.Table.Put(ctx, op.Item, op.Cond); err != nil {
		return fmt.Errorf("%s: replace: %w", c.Name, err)
	}
	return nil
}

// UpdateEach applies change to every document of q and writes the ones it
// changes (change reports whether it did), each conditional on the
// document read: one changed meanwhile is read again and changed anew, one
// deleted meanwhile is skipped. It returns how many it wrote.
func (c Collection[T]) UpdateEach(ctx context.Context, q Query, change func(context.Context, T) (T, bool, error)) (int, error) {
	snaps, err := c.ReadAll(ctx, q)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, snap := range snaps {
		for {
			updated, changed, err := change(ctx, snap.Value)
			if err != nil {
				return n, err
			}
			if !changed {
				break
			}
			err = c.Replace(ctx, snap, updated)
			if errors.Is(err, ErrConditionFailed) {
				if snap, err = c.Read(ctx, c.Key(snap.Value)); errors.Is(err, c.NotFound) {
					break
				} else if err != nil {
					return n, err
				}
				continue
			}
			if err != nil {
				return n, err
			}
			n++
			break
		}
	}
	return n, nil
}
