package store

import (
	"context"
	"sync"
)

// Merged reads several partitions of one index as one sequence ordered by
// the index's sort key — descending when the queries are — as if they were
// one partition. A filter whose values key separate partitions (citations
// by platform and mention) is answered this way for any subset of its
// values: the partitions of the values asked for, merged, read only as far
// as the sequence is consumed. Items with the same sort key come in table
// key order.
type Merged struct {
	tbl    Table
	desc   bool
	sortBy string
	srcs   []*mergeSource
	primed bool
}

type mergeSource struct {
	q     Query
	items []Item
	done  bool // no page left to read
}

// Merge returns the merge of qs, which must all read the same index in the
// same direction; each page a partition reads evaluates at most its
// query's Limit items.
func Merge(tbl Table, qs ...Query) *Merged {
	m := &Merged{tbl: tbl}
	for _, q := range qs {
		m.srcs = append(m.srcs, &mergeSource{q: q})
	}
	if len(qs) > 0 {
		m.desc = qs[0].Desc
		_, m.sortBy = IndexKeyAttrs(qs[0].Index)
	}
	return m
}

// Next returns the next item of the sequence; ok is false after the last.
func (m *Merged) Next(ctx context.Context) (it Item, ok bool, err error) {
	if !m.primed {
		// The first page of every partition is needed to order the first
		// item: read them at once (one round trip's latency on DynamoDB).
		m.primed = true
		if err := m.fillAll(ctx); err != nil {
			return nil, false, err
		}
	}
	var best *mergeSource
	for _, s := range m.srcs {
		if err := s.fill(ctx, m.tbl); err != nil {
			return nil, false, err
		}
		if len(s.items) > 0 && (best == nil || m.before(s.items[0], best.items[0])) {
			best = s
		}
	}
	if best == nil {
		return nil, false, nil
	}
	it = best.items[0]
	best.items = best.items[1:]
	return it, true, nil
}

// before reports whether a comes before b in the sequence.
func (m *Merged) before(a, b Item) bool {
	ka, kb := a.String(m.sortBy), b.String(m.sortBy)
	if ka == kb {
		ka, kb = a.String(AttrPK)+"\x00"+a.String(AttrSK), b.String(AttrPK)+"\x00"+b.String(AttrSK)
	}
	if m.desc {
		return ka > kb
	}
	return ka < kb
}

func (m *Merged) fillAll(ctx context.Context) error {
	if len(m.srcs) == 1 {
		return m.srcs[0].fill(ctx, m.tbl)
	}
	errs := make([]error, len(m.srcs))
	var wg sync.WaitGroup
	for i, s := range m.srcs {
		wg.Go(func() { errs[i] = s.fill(ctx, m.tbl) })
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
func (s *mergeSource) fill(ctx context.Context, tbl Table) error {
	for len(s.items) == 0 && !s.done {
		p, err := tbl.Query(ctx, s.q)
		if err != nil {
			return err
		}
		s.items = p.Items
		s.q.Cursor = p.Cursor
		s.done = p.Cursor == ""
	}
	return nil
}
