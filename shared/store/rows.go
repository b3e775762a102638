package store

import (
	"context"
	"errors"
)

// Rows is one page of a query read as strings: for each item, the string
// value of every attribute of the query's Attrs, in that order ("" where
// the item lacks it or holds another type). A list that keeps a few string
// attributes of many items — the stored document and the keys it pages by —
// reads them without an Item (a map) per item.
type Rows struct {
	Attrs []string
	// Values holds len(Attrs) values per item, item after item.
	Values []string
	// Cursor is as Page.Cursor.
	Cursor string
}

// Len is the number of items.
func (r Rows) Len() int {
	if len(r.Attrs) == 0 {
		return 0
	}
	return len(r.Values) / len(r.Attrs)
}

// Row returns the values of item i, in the order of Attrs.
func (r Rows) Row(i int) []string {
	n := len(r.Attrs)
	return r.Values[i*n : (i+1)*n : (i+1)*n]
}

// RowQuerier is a Table that reads rows without building items (the
// embedded store, whose stored items are encoded strings).
type RowQuerier interface {
	QueryRows(ctx context.Context, q Query) (Rows, error)
}

// ErrNoAttrs: a rows query names no attributes.
var ErrNoAttrs = errors.New("store: a rows query needs Attrs")

// QueryRows reads one page of q as rows of q.Attrs: through the table's
// own QueryRows when it has one, else from Query's items.
func QueryRows(ctx context.Context, tbl Table, q Query) (Rows, error) {
	if len(q.Attrs) == 0 {
		return Rows{}, ErrNoAttrs
	}
	if rq, ok := tbl.(RowQuerier); ok {
		return rq.QueryRows(ctx, q)
	}
	p, err := tbl.Query(ctx, q)
	if err != nil {
		return Rows{}, err
	}
	r := Rows{Attrs: q.Attrs, Values: make([]string, 0, len(p.Items)*len(q.Attrs)), Cursor: p.Cursor}
	for _, it := range p.Items {
		for _, a := range q.Attrs {
			r.Values = append(r.Values, it.String(a))
		}
	}
	return r, nil
}
