package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Merged reads several partitions of one index as one sequence ordered by
// the index's sort key — descending when the queries are — as if they were
// one partition. A filter whose values key separate partitions (citations
// by platform and mention) is answered this way for any subset of its
// values: the partitions of the values asked for, merged, read only as far
// as the sequence is consumed. Items with the same sort key come in table
// key order.
type Merged struct{ m merge[Item] }

// Merge returns the merge of qs, which must all read the same index in the
// same direction; each page a partition reads evaluates at most its
// query's Limit items.
func Merge(tbl Table, qs ...Query) *Merged {
	sortBy := ""
	if len(qs) > 0 {
		_, sortBy = IndexKeyAttrs(qs[0].Index)
	}
	read := func(ctx context.Context, q Query) ([]Item, string, error) {
		p, err := tbl.Query(ctx, q)
		return p.Items, p.Cursor, err
	}
	return &Merged{m: newMerge(read, qs, func(it Item) string { return it.String(sortBy) },
		func(it Item) [2]string { return [2]string{it.String(AttrPK), it.String(AttrSK)} })}
}

// Next returns the next item of the sequence; ok is false after the last.
func (m *Merged) Next(ctx context.Context) (it Item, ok bool, err error) { return m.m.next(ctx) }

// MergedRows is Merged read as rows (QueryRows): each is the values of the
// queries' Attrs.
type MergedRows struct{ m merge[[]string] }

// MergeRows returns the merge of qs as rows; qs must be as for Merge, with
// the same Attrs, which must name the index's sort key and the table key.
func MergeRows(tbl Table, qs ...Query) (*MergedRows, error) {
	var at [3]int
	if len(qs) > 0 {
		_, sortBy := IndexKeyAttrs(qs[0].Index)
		for i, a := range []string{sortBy, AttrPK, AttrSK} {
			if at[i] = slices.Index(qs[0].Attrs, a); at[i] < 0 {
				return nil, fmt.Errorf("store: merged rows need attribute %s", a)
			}
		}
	}
	read := func(ctx context.Context, q Query) ([][]string, string, error) {
		r, err := QueryRows(ctx, tbl, q)
		if err != nil {
			return nil, "", err
		}
		rows := make([][]string, r.Len())
		for i := range rows {
			rows[i] = r.Row(i)
		}
		return rows, r.Cursor, nil
	}
	return &MergedRows{m: newMerge(read, qs, func(r []string) string { return r[at[0]] },
		func(r []string) [2]string { return [2]string{r[at[1]], r[at[2]]} })}, nil
}

// Next returns the next row of the sequence; ok is false after the last.
func (m *MergedRows) Next(ctx context.Context) (row []string, ok bool, err error) {
	return m.m.next(ctx)
}

// merge is the ordered merge of paged partitions of T (an item or a row),
// by sortKey, then tableKey.
type merge[T any] struct {
	read     func(ctx context.Context, q Query) ([]T, string, error)
	sortKey  func(T) string
	tableKey func(T) [2]string
	desc     bool
	srcs     []*mergeSource[T]
	primed   bool
}

type mergeSource[T any] struct {
	q     Query
	items []T
	done  bool // no page left to read
}

func newMerge[T any](read func(context.Context, Query) ([]T, string, error), qs []Query,
	sortKey func(T) string, tableKey func(T) [2]string) merge[T] {
	m := merge[T]{read: read, sortKey: sortKey, tableKey: tableKey}
	for _, q := range qs {
		m.srcs = append(m.srcs, &mergeSource[T]{q: q})
	}
	if len(qs) > 0 {
		m.desc = qs[0].Desc
	}
	return m
}

func (m *merge[T]) next(ctx context.Context) (it T, ok bool, err error) {
	if !m.primed {
		// The first page of every partition is needed to order the first
		// item: read them at once (one round trip's latency on DynamoDB).
		m.primed = true
		if err := m.fillAll(ctx); err != nil {
			return it, false, err
		}
	}
	var best *mergeSource[T]
	for _, s := range m.srcs {
		if err := m.fill(ctx, s); err != nil {
			return it, false, err
		}
		if len(s.items) > 0 && (best == nil || m.before(s.items[0], best.items[0])) {
			best = s
		}
	}
	if best == nil {
		return it, false, nil
	}
	it = best.items[0]
	best.items = best.items[1:]
	return it, true, nil
}

// before reports whether a comes before b in the sequence.
func (m *merge[T]) before(a, b T) bool {
	c := strings.Compare(m.sortKey(a), m.sortKey(b))
	if c == 0 {
		ta, tb := m.tableKey(a), m.tableKey(b)
		if c = strings.Compare(ta[0], tb[0]); c == 0 {
			c = strings.Compare(ta[1], tb[1])
		}
	}
	if m.desc {
		return c > 0
	}
	return c < 0
}

func (m *merge[T]) fillAll(ctx context.Context) error {
	if len(m.srcs) == 1 {
		return m.fill(ctx, m.srcs[0])
	}
	errs := make([]error, len(m.srcs))
	var wg sync.WaitGroup
	for i, s := range m.srcs {
		wg.Go(func() { errs[i] = m.fill(ctx, s) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// fill reads pages of the partition until it has an item or none is left
// (a filtered page may hold no item and still have a next one).
func (m *merge[T]) fill(ctx context.Context, s *mergeSource[T]) error {
	for len(s.items) == 0 && !s.done {
		items, cursor, err := m.read(ctx, s.q)
		if err != nil {
			return err
		}
		s.items = items
		s.q.Cursor = cursor
		s.done = cursor == ""
	}
	return nil
}
