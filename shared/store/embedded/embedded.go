// Package embedded is the in-process backend of the single table: ordered
// B-trees for the table and GSI1, persisted (when opened on a directory) as
// an append-only log of committed writes plus periodic snapshots. It backs
// `brandlens serve` and fast tests, with the same meaning as DynamoDB.
package embedded

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/btree"

	"github.com/brandlens/brandlens/shared/datadir"
	"github.com/brandlens/brandlens/shared/store"
)

// DefaultPageLimit is the page size of a query that sets no Limit.
const DefaultPageLimit = 1000

// defaultCompactAt is the least log size that triggers compaction; above
// it, the log is compacted once it outgrows the last snapshot.
const defaultCompactAt = 16 << 20

// ErrClosed is returned by every call after Close.
var ErrClosed = errors.New("store: embedded table is closed")

var _ store.Table = (*Table)(nil)

// Option configures a Table.
type Option func(*options)

type options struct {
	now       func() time.Time
	sync      bool
	compactAt int64
	// fsync makes a file's writes durable (tests inject failures).
	fsync func(*os.File) error
}

// WithClock sets the clock that decides TTL expiry (default time.Now).
func WithClock(now func() time.Time) Option { return func(o *options) { o.now = now } }

// WithSync chooses whether a write waits for its log record to reach the
// disk (fsync, the default; concurrent writers share one fsync). Without
// it a committed write survives a crash of the process but not of the
// machine, and writes are several times faster.
func WithSync(on bool) Option { return func(o *options) { o.sync = on } }

// WithCompactionThreshold sets the least log size in bytes that triggers
// compaction into a snapshot.
func WithCompactionThreshold(bytes int64) Option { return func(o *options) { o.compactAt = bytes } }

// Table is the embedded table. It is safe for concurrent use.
//
// Readers see only durable writes: with fsync on, a commit is written to
// the log at once but enters the trees — what Get and Query read — only
// after the fsync that covers it, so a failed fsync (or a crash before
// it) can never take back data a reader already saw. Writers evaluate
// their conditions against the newest state, pending commits included
// (the overlay), so the order of commits is the order of the log; a
// commit waits for the fsync of every commit before it, and once one
// fsync fails every later write fails too.
type Table struct {
	now func() time.Time

	mu     sync.RWMutex
	items  *btree.BTreeG[entry]
	gsi    *btree.BTreeG[entry]
	gsi2   *btree.BTreeG[entry]
	seq    uint64 // last commit
	closed bool

	// pending are the commits written to the log but not yet synced, in
	// order; overlay holds the newest pending version of each key they
	// write (nil item: deleted). Both are empty without fsync.
	pending []pendingCommit
	overlay map[store.Key]overlayEntry
	applied atomic.Uint64 // last commit the trees hold

	disk *disk // nil for a memory table
}

type pendingCommit struct {
	seq  uint64
	puts []record
	dels []store.Key
}

type overlayEntry struct {
	seq  uint64
	item store.Item
}

func newTable(o options) *Table {
	if o.now == nil {
		o.now = time.Now
	}
	return &Table{now: o.now, items: newTree(), gsi: newTree(), gsi2: newTree(), overlay: map[store.Key]overlayEntry{}}
}

func buildOptions(opts []Option) options {
	o := options{sync: true, compactAt: defaultCompactAt, fsync: (*os.File).Sync}
	for _, f := range opts {
		f(&o)
	}
	return o
}

// NewMemory returns a table that lives only in memory.
func NewMemory(opts ...Option) *Table { return newTable(buildOptions(opts)) }

// Open opens (creating it if needed) the table persisted in dir. One
// process at a time may hold a directory open.
func Open(dir string, opts ...Option) (*Table, error) {
	o := buildOptions(opts)
	t := newTable(o)
	// Whoever can write the directory can plant a snapshot: it must be
	// this user's alone.
	if err := datadir.Ensure(dir); err != nil {
		return nil, fmt.Errorf("store: open %s: %w", dir, err)
	}
	d, err := openDisk(dir, o, t)
	if err != nil {
		return nil, err
	}
	t.disk = d
	return t, nil
}

// Close waits for a running compaction, flushes the log and releases the
// directory. Later calls fail with ErrClosed.
func (t *Table) Close() error {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil
	}
	t.closed = true
	t.mu.Unlock()
	if t.disk == nil {
		return nil
	}
	return t.disk.close()
}

// Compact writes a snapshot of the table and drops the log it covers and
// the expired items. It runs by itself as the log grows; call it to force
// one. A memory table has nothing to compact.
func (t *Table) Compact() error {
	if t.disk == nil {
		return nil
	}
	return t.disk.compact()
}

// tree returns the tree of index ("": the table).
func (t *Table) tree(index string) *btree.BTreeG[entry] {
	switch index {
	case store.IndexGSI1:
		return t.gsi
	case store.IndexGSI2:
		return t.gsi2
	}
	return t.items
}

// insert stores rec, the record of an item written by commit seq.
func (t *Table) insert(rec record, seq uint64) {
	k := rec.keys()
	te, _ := k.indexEntry("", rec, seq)
	if old, had := t.items.ReplaceOrInsert(te); had {
		t.unindex(old.rec)
	}
	for _, index := range store.Indexes {
		if e, ok := k.indexEntry(index, rec, seq); ok {
			t.tree(index).ReplaceOrInsert(e)
		}
	}
}

// insertItem stores a validated item (loading a snapshot or log).
func (t *Table) insertItem(it store.Item, seq uint64) error {
	rec, err := encodeRecord(it)
	if err != nil {
		return err
	}
	t.insert(rec, seq)
	return nil
}

// unindex removes the index entries of a record leaving the table.
func (t *Table) unindex(rec record) {
	k := rec.keys()
	for _, index := range store.Indexes {
		if e, ok := k.indexEntry(index, rec, 0); ok {
			t.tree(index).Delete(e)
		}
	}
}

func (t *Table) remove(k store.Key) {
	if old, had := t.items.Delete(tableEntry(k)); had {
		t.unindex(old.rec)
	}
}

// lookup returns the durable item's entry, expired or not.
func (t *Table) lookup(k store.Key) (entry, bool) {
	return t.items.Get(tableEntry(k))
}

// latest returns the newest item, pending commits included, expired or
// not, or nil: what a writer's conditions see.
func (t *Table) latest(k store.Key) store.Item {
	if e, ok := t.overlay[k]; ok {
		return e.item
	}
	if e, ok := t.lookup(k); ok {
		return e.rec.item()
	}
	return nil
}

// commit logs one atomic write and applies it, or, when it waits for an
// fsync, adds it to the pending commits; t.mu is held. It returns the
// commit's sequence number for t.durable.
func (t *Table) commit(puts []store.Item, dels []store.Key) (uint64, error) {
	if len(puts)+len(dels) == 0 {
		return 0, nil
	}
	// Encoded before the log is written, so that nothing logged can fail
	// to apply.
	recs := make([]record, len(puts))
	for i, it := range puts {
		var err error
		if recs[i], err = encodeRecord(it); err != nil {
			return 0, err
		}
	}
	if t.disk != nil {
		if err := t.disk.append(puts, dels, t.seq+1); err != nil {
			return 0, err
		}
	}
	t.seq++
	if t.disk != nil && t.disk.sync {
		t.pending = append(t.pending, pendingCommit{seq: t.seq, puts: recs, dels: dels})
		for _, it := range puts {
			t.overlay[it.Key()] = overlayEntry{seq: t.seq, item: it}
		}
		for _, k := range dels {
			t.overlay[k] = overlayEntry{seq: t.seq}
		}
	} else {
		t.apply(recs, dels, t.seq)
	}
	if t.disk != nil {
		t.disk.maybeCompact()
	}
	return t.seq, nil
}

func (t *Table) apply(puts []record, dels []store.Key, seq uint64) {
	for _, rec := range puts {
		t.insert(rec, seq)
	}
	for _, k := range dels {
		t.remove(k)
	}
}

// applyPending moves the pending commits up to seq into the trees, where
// readers see them; t.mu is held.
func (t *Table) applyPending(seq uint64) {
	n := 0
	for _, c := range t.pending {
		if c.seq > seq {
			break
		}
		t.apply(c.puts, c.dels, c.seq)
		for _, rec := range c.puts {
			k := rec.keys()
			key := store.Key{PK: rec.str(k.pk), SK: rec.str(k.sk)}
			if e := t.overlay[key]; e.seq == c.seq {
				delete(t.overlay, key)
			}
		}
		for _, k := range c.dels {
			if e := t.overlay[k]; e.seq == c.seq {
				delete(t.overlay, k)
			}
		}
		n++
	}
	if n > 0 {
		t.applied.Store(t.pending[n-1].seq)
		t.pending = append(t.pending[:0:0], t.pending[n:]...)
	}
}

// durable waits until commit seq is on disk, then makes every synced
// commit visible to readers; call it without t.mu.
func (t *Table) durable(seq uint64) error {
	if t.disk == nil || seq == 0 {
		return nil
	}
	err := t.disk.waitSynced(seq)
	// The first writer back from a group fsync applies the whole group;
	// the others find it done without taking the lock.
	if synced := t.disk.syncedSeq(); synced > t.applied.Load() {
		t.mu.Lock()
		t.applyPending(synced)
		t.mu.Unlock()
	}
	return err
}

// pendingSeq is the commit a read of k must wait for: the newest pending
// write of k, or 0; t.mu is held.
func (t *Table) pendingSeq(k store.Key) uint64 {
	return t.overlay[k].seq
}

// Get implements store.Table.
func (t *Table) Get(ctx context.Context, key store.Key) (store.Item, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := key.Validate(); err != nil {
		return nil, err
	}
	t.mu.RLock()
	if pending := t.pendingSeq(key); pending > 0 && !t.closed {
		// A write of this key is on its way to the disk: answer once it
		// is durable (or failed), rather than a version about to change —
		// a compare-and-swap loop would only spin on it.
		t.mu.RUnlock()
		_ = t.durable(pending) // a failed fsync leaves the durable version
		t.mu.RLock()
	}
	defer t.mu.RUnlock()
	if t.closed {
		return nil, ErrClosed
	}
	e, ok := t.lookup(key)
	if !ok || e.expired(t.now()) {
		return nil, store.ErrNotFound
	}
	return e.rec.item(), nil
}

// GetMany implements store.BatchGetter: Get of each key, in one call (the
// embedded store has no round trip to save; it saves the goroutines of
// store.GetMany's fallback).
func (t *Table) GetMany(ctx context.Context, keys []store.Key) ([]store.Item, error) {
	out := make([]store.Item, len(keys))
	for i, k := range keys {
		it, err := t.Get(ctx, k)
		switch {
		case err == nil:
			out[i] = it
		case !errors.Is(err, store.ErrNotFound):
			return nil, err
		}
	}
	return out, nil
}

// Put implements store.Table.
func (t *Table) Put(ctx context.Context, item store.Item, cond store.Cond) error {
	_, err := t.writeOne(ctx, store.PutOp(item, cond))
	return err
}

// Update implements store.Table.
func (t *Table) Update(ctx context.Context, key store.Key, upd store.Update, cond store.Cond) (store.Item, error) {
	it, err := t.writeOne(ctx, store.UpdateOp(key, upd, cond))
	if err != nil {
		return nil, err
	}
	return it.Clone(), nil
}

// Delete implements store.Table.
func (t *Table) Delete(ctx context.Context, key store.Key, cond store.Cond) error {
	_, err := t.writeOne(ctx, store.DeleteOp(key, cond))
	return err
}

// writeOne applies a single-item write, whose failed condition is
// ErrConditionFailed rather than a transaction's error.
func (t *Table) writeOne(ctx context.Context, op store.Op) (store.Item, error) {
	op, err := op.Prepare()
	if err != nil {
		return nil, err
	}
	items, err := t.write(ctx, []store.Op{op})
	if _, ok := err.(*store.TxConditionError); ok {
		return nil, store.ErrConditionFailed
	}
	if err != nil {
		return nil, err
	}
	return items[0], nil
}

// TransactWrite implements store.Table.
func (t *Table) TransactWrite(ctx context.Context, ops ...store.Op) error {
	ops, err := store.PrepareTransaction(ops)
	if err != nil || len(ops) == 0 {
		return err
	}
	_, err = t.write(ctx, ops)
	return err
}

// write applies prepared ops atomically when every condition holds, and
// returns the item each put or update leaves (nil for deletes and checks).
// An update of an expired item starts afresh: for store.Table it is gone.
func (t *Table) write(ctx context.Context, ops []store.Op) ([]store.Item, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil, ErrClosed
	}
	now := t.now()
	for i, op := range ops {
		if !op.Cond.Eval(t.latest(op.OpKey()), now) {
			if pending := t.pendingSeq(op.OpKey()); pending > 0 {
				// The refusal rests on a write not yet durable: tell it
				// only once that write is (a failed fsync fails us too).
				t.mu.Unlock()
				if err := t.durable(pending); err != nil {
					return nil, err
				}
				return t.write(ctx, ops)
			}
			t.mu.Unlock()
			return nil, &store.TxConditionError{Index: i}
		}
	}
	out := make([]store.Item, len(ops))
	var puts []store.Item
	var dels []store.Key
	for i, op := range ops {
		switch op.Kind {
		case store.OpPut:
			out[i] = op.Item
		case store.OpUpdate:
			cur := t.latest(op.Key)
			if cur != nil && cur.Expired(now) {
				cur = nil
			}
			next, err := op.Update.ApplyChecked(op.Key, cur)
			if err != nil {
				t.mu.Unlock()
				return nil, err
			}
			out[i] = next
		case store.OpDelete:
			if t.latest(op.Key) != nil {
				dels = append(dels, op.Key)
			}
		}
		if out[i] != nil {
			puts = append(puts, out[i])
		}
	}
	seq, err := t.commit(puts, dels)
	t.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return out, t.durable(seq)
}

// Query implements store.Table.
func (t *Table) Query(ctx context.Context, q store.Query) (store.Page, error) {
	var page store.Page
	cursor, err := t.scan(ctx, q, func(e entry) { page.Items = append(page.Items, e.rec.project(q.Attrs)) })
	page.Cursor = cursor
	return page, err
}

// QueryRows implements store.RowQuerier: the values are substrings of the
// stored records, so a page costs one slice, not a map per item.
func (t *Table) QueryRows(ctx context.Context, q store.Query) (store.Rows, error) {
	if len(q.Attrs) == 0 {
		return store.Rows{}, store.ErrNoAttrs
	}
	rows := store.Rows{Attrs: q.Attrs}
	// The key attributes of the tree read are the entry's own strings;
	// only the others are looked for in the record.
	fromEntry := make([]int8, len(q.Attrs))
	rest := make([]string, len(q.Attrs))
	h, r := store.IndexKeyAttrs(q.Index)
	for i, a := range q.Attrs {
		switch {
		case a == h:
			fromEntry[i] = 1
		case a == r:
			fromEntry[i] = 2
		case q.Index != "" && a == store.AttrPK:
			fromEntry[i] = 3
		case q.Index != "" && a == store.AttrSK:
			fromEntry[i] = 4
		default:
			rest[i] = a
		}
	}
	cursor, err := t.scan(ctx, q, func(e entry) {
		if rows.Values == nil {
			rows.Values = make([]string, 0, min(q.Limit, 64)*len(q.Attrs))
		}
		base := len(rows.Values)
		rows.Values = e.rec.appendStrings(rows.Values, rest)
		for i, k := range fromEntry {
			switch k {
			case 1:
				rows.Values[base+i] = e.h()
			case 2:
				rows.Values[base+i] = e.r()
			case 3:
				rows.Values[base+i] = e.pk()
			case 4:
				rows.Values[base+i] = e.sk()
			}
		}
	})
	rows.Cursor = cursor
	return rows, err
}

// scan calls emit with each entry of the page of q that the filter keeps,
// in order, and returns the page's cursor.
func (t *Table) scan(ctx context.Context, q store.Query, emit func(entry)) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if err := q.Validate(); err != nil {
		return "", err
	}
	limit := q.Limit
	if limit == 0 {
		limit = DefaultPageLimit
	}
	var after entry
	hasCursor := q.Cursor != ""
	if hasCursor {
		var err error
		if after, err = decodeCursor(q.Cursor, q.Index, q.PK); err != nil {
			return "", err
		}
	}
	t.mu.RLock()
	defer t.mu.RUnlock()
	if t.closed {
		return "", ErrClosed
	}
	tree := t.tree(q.Index)
	start := startPivot(q.PK, q.SK, q.Desc)
	if hasCursor && (!q.Desc && less(start, after) || q.Desc && less(after, start)) {
		start = after
	}
	now := t.now()
	var (
		n     int
		last  entry
		more  bool
		visit = func(e entry) bool {
			if e.h() != q.PK || pastRange(q.SK, e.r(), q.Desc) {
				return false
			}
			if hasCursor && !(q.Desc && less(e, after) || !q.Desc && less(after, e)) {
				return true
			}
			if !q.SK.Match(e.r()) {
				return true
			}
			if n == limit {
				more = true
				return false
			}
			n++
			last = e
			if !e.expired(now) && (q.Filter.IsZero() || q.Filter.EvalPresent(e.rec, now)) {
				emit(e)
			}
			return true
		}
	)
	if q.Desc {
		tree.DescendLessOrEqual(start, visit)
	} else {
		tree.AscendGreaterOrEqual(start, visit)
	}
	if more {
		return encodeCursor(last, q.Index), nil
	}
	return "", nil
}
