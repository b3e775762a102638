package costmodel

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/brandlens/brandlens/shared/store"
)

// Table is a store.Table that counts what each call would consume in
// DynamoDB on-demand capacity, by DynamoDB's rules:
//
//   - GetItem (strongly consistent, as package dynamo reads): 1 RRU per 4 KB
//     of the item, at least 1;
//   - Query: the sizes of all items evaluated — before the filter, which
//     does not lower the bill — rounded up to 4 KB per page, 1 RRU per 4 KB
//     on the table (consistent reads), 0.5 on an index;
//   - PutItem, UpdateItem, DeleteItem: 1 WRU per KB of the larger of the
//     item before and after, at least 1 (also when the condition fails);
//   - TransactWriteItems: twice the table's units for every item; a
//     ConditionCheck 2 RRU per 4 KB;
//   - every write of an item that is (or was) in an index also writes the
//     index, asynchronously and at the standard rate (transaction or not):
//     1 WRU per KB of the item as projected (ALL), 2 writes when its index
//     key changes.
//
// It reads the items a write replaces to size them (those reads are not
// counted). Streams read by Lambda are free.
type Table struct {
	inner store.Table
	m     *Meter
	now   func() time.Time
}

// Table wraps inner; now decides which items have expired (nil: time.Now).
func (m *Meter) Table(inner store.Table, now func() time.Time) *Table {
	if now == nil {
		now = time.Now
	}
	return &Table{inner: inner, m: m, now: now}
}

var _ store.Table = (*Table)(nil)

// units is ceil(size/unit), at least 1.
func units(size, unit int) float64 { return float64(max(1, (size+unit-1)/unit)) }

// Get implements store.Table.
func (t *Table) Get(ctx context.Context, key store.Key) (store.Item, error) {
	it, err := t.inner.Get(ctx, key)
	size := 0
	if err == nil {
		size = it.Size()
	}
	rru := units(size, 4096)
	t.m.add(func(u *Usage) {
		u.Calls++
		u.Reads++
		u.RRU += rru
		u.ReadBytes += size
		u.item(key, func(i *ItemUse) { i.Reads++; i.RRU += rru })
	})
	return it, err
}

// GetMany implements store.BatchGetter: one BatchGetItem (per 100 keys),
// each item read 1 RRU per 4 KB, at least 1, strongly consistent.
func (t *Table) GetMany(ctx context.Context, keys []store.Key) ([]store.Item, error) {
	items, err := store.GetMany(ctx, t.inner, keys...)
	if err != nil {
		return nil, err
	}
	t.m.add(func(u *Usage) {
		u.Calls += (len(keys) + store.MaxBatchGet - 1) / store.MaxBatchGet
		for i, it := range items {
			size := 0
			if it != nil {
				size = it.Size()
			}
			rru := units(size, 4096)
			u.Reads++
			u.RRU += rru
			u.ReadBytes += size
			u.item(keys[i], func(i *ItemUse) { i.Reads++; i.RRU += rru })
		}
	})
	return items, nil
}

// Query implements store.Table: it reads the page unfiltered to size what
// DynamoDB would evaluate, then filters and projects as DynamoDB does.
func (t *Table) Query(ctx context.Context, q store.Query) (store.Page, error) {
	raw := q
	raw.Filter, raw.Attrs = store.Cond{}, nil
	p, err := t.inner.Query(ctx, raw)
	if err != nil {
		return p, err
	}
	size := 0
	now := t.now()
	kept := p.Items[:0]
	for _, it := range p.Items {
		size += it.Size()
		if q.Filter.Eval(it, now) {
			kept = append(kept, project(it, q.Attrs))
		}
	}
	p.Items = kept
	rru := units(size, 4096)
	if q.Index != "" {
		rru /= 2
	}
	t.m.add(func(u *Usage) {
		u.Calls++
		u.Reads++
		u.RRU += rru
		u.ReadBytes += size
		u.itemKind(queryKind(q), func(i *ItemUse) { i.Reads++; i.RRU += rru })
	})
	return p, nil
}

func project(it store.Item, attrs []string) store.Item {
	if attrs == nil {
		return it
	}
	out := make(store.Item, len(attrs))
	for _, a := range attrs {
		if v, ok := it[a]; ok {
			out[a] = v
		}
	}
	return out
}

// before reads the item a write at key replaces (nil when there is none).
func (t *Table) before(ctx context.Context, key store.Key) store.Item {
	it, err := t.inner.Get(ctx, key)
	if err != nil {
		return nil
	}
	return it
}

// writeUnits is the WRU of writing after over before (nil: none): on the
// table, and on the indexes.
func writeUnits(before, after store.Item) (table, indexes float64) {
	size := 0
	if before != nil {
		size = before.Size()
	}
	if after != nil {
		size = max(size, after.Size())
	}
	table = units(size, 1024)
	wru := 0.0
	for _, ix := range store.Indexes {
		h, r := store.IndexKeyAttrs(ix)
		key := func(it store.Item) (string, bool) {
			hv, ok1 := it[h].(string)
			rv, ok2 := it[r].(string)
			return hv + "\x00" + rv, it != nil && ok1 && ok2
		}
		kb, inB := key(before)
		ka, inA := key(after)
		switch {
		case inB && inA && kb == ka:
			wru += units(after.Size(), 1024)
		case inB && inA:
			wru += units(before.Size(), 1024) + units(after.Size(), 1024)
		case inA:
			wru += units(after.Size(), 1024)
		case inB:
			wru += units(before.Size(), 1024)
		}
	}
	return table, wru
}

func (t *Table) countWrite(key store.Key, table, indexes float64, tx bool) {
	t.m.add(func(u *Usage) {
		u.Writes++
		if tx {
			u.TxItems++
			table *= 2
		}
		wru := table + indexes
		u.WRU += wru
		u.item(key, func(i *ItemUse) { i.Writes++; i.WRU += wru })
	})
}

// item updates the use of the kind of item key is.
func (u *Usage) item(key store.Key, f func(i *ItemUse)) { u.itemKind(Kind(key), f) }

func (u *Usage) itemKind(k string, f func(i *ItemUse)) {
	i := u.Items[k]
	f(&i)
	u.Items[k] = i
}

// queryKind names what a query reads: the kind of its sort-key prefix on
// the table, the index and the first segment of its partition (past the
// tenant) on an index.
func queryKind(q store.Query) string {
	if q.Index == "" {
		return Kind(store.Key{PK: q.PK, SK: q.SK.Value})
	}
	pk := q.PK
	if rest, ok := strings.CutPrefix(pk, "TENANT#"); ok {
		if _, after, ok := strings.Cut(rest, "#"); ok {
			pk = after
		}
	}
	if i := strings.IndexByte(pk, '#'); i > 0 {
		pk = pk[:i]
	}
	return q.Index + " " + pk
}

// Kind names the kind of item of key: the first segment of its sort key
// (TENANT#1 / CITATION#… is CITATION), or of its partition key when the
// sort key has none (RATE#key / 29512345 is RATE).
func Kind(key store.Key) string {
	if i := strings.IndexByte(key.SK, '#'); i > 0 {
		return key.SK[:i]
	}
	if i := strings.IndexByte(key.PK, '#'); i > 0 && !strings.HasPrefix(key.PK, "TENANT#") {
		return key.PK[:i]
	}
	if key.SK != "" {
		return key.SK
	}
	return key.PK
}

// Put implements store.Table.
func (t *Table) Put(ctx context.Context, item store.Item, cond store.Cond) error {
	before := t.before(ctx, item.Key())
	err := t.inner.Put(ctx, item, cond)
	after := item
	if err != nil {
		after = nil
	}
	tb, ix := writeUnits(before, after)
	t.countWrite(item.Key(), tb, ix, false)
	t.m.add(func(u *Usage) { u.Calls++ })
	return err
}

// Update implements store.Table.
func (t *Table) Update(ctx context.Context, key store.Key, upd store.Update, cond store.Cond) (store.Item, error) {
	before := t.before(ctx, key)
	after, err := t.inner.Update(ctx, key, upd, cond)
	tb, ix := writeUnits(before, after)
	t.countWrite(key, tb, ix, false)
	t.m.add(func(u *Usage) { u.Calls++ })
	return after, err
}

// Delete implements store.Table.
func (t *Table) Delete(ctx context.Context, key store.Key, cond store.Cond) error {
	before := t.before(ctx, key)
	err := t.inner.Delete(ctx, key, cond)
	tb, ix := writeUnits(before, nil)
	t.countWrite(key, tb, ix, false)
	t.m.add(func(u *Usage) { u.Calls++ })
	return err
}

// TransactWrite implements store.Table.
func (t *Table) TransactWrite(ctx context.Context, ops ...store.Op) error {
	befores := make([]store.Item, len(ops))
	for i, op := range ops {
		befores[i] = t.before(ctx, op.OpKey())
	}
	err := t.inner.TransactWrite(ctx, ops...)
	t.m.add(func(u *Usage) { u.Calls++; u.Transactions++ })
	var tce *store.TxConditionError
	failed := err != nil && !errors.As(err, &tce)
	for i, op := range ops {
		if failed {
			break // not sent, or refused before any capacity was used
		}
		switch op.Kind {
		case store.OpCheck:
			size := 0
			if befores[i] != nil {
				size = befores[i].Size()
			}
			rru := 2 * units(size, 4096)
			t.m.add(func(u *Usage) {
				u.Reads++
				u.RRU += rru
				u.item(op.Key, func(i *ItemUse) { i.Reads++; i.RRU += rru })
			})
		case store.OpDelete:
			tb, ix := writeUnits(befores[i], nil)
			t.countWrite(op.Key, tb, ix, true)
		case store.OpPut:
			tb, ix := writeUnits(befores[i], op.Item)
			t.countWrite(op.Item.Key(), tb, ix, true)
		case store.OpUpdate:
			after := op.Update.Apply(op.Key, befores[i])
			tb, ix := writeUnits(befores[i], after)
			t.countWrite(op.Key, tb, ix, true)
		}
	}
	return err
}
