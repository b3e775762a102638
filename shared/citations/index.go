package citations

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/brandlens/brandlens/shared/store"
)

// Citations written before GSI2 existed lack its keys. Until every one has
// them, lists filtered by platform or mention read GSI1 and filter (slower,
// but complete); the marker below says when the backfill is done, and is
// set by the migration (`brandlens admin migrate`, and `brandlens serve`
// at start), after which lists read GSI2.

// indexedKey is the table-wide marker: every citation is in GSI2.
var indexedKey = store.Key{PK: "GLOBAL", SK: "MIGRATED#citations-gsi2"}

// indexedRecheck is how long a process trusts a missing marker before it
// reads it again (a migration run elsewhere sets it).
const indexedRecheck = 10 * time.Second

// Indexed reports whether every citation of the table is in GSI2. Once
// true it stays true, so the process stops reading the marker.
func (r *Repo) Indexed(ctx context.Context) (bool, error) {
	if r.indexed.Load() {
		return true, nil
	}
	r.indexedMu.Lock()
	defer r.indexedMu.Unlock()
	if r.indexed.Load() {
		return true, nil
	}
	now := r.now()
	if !r.indexedChk.IsZero() && now.Sub(r.indexedChk) < indexedRecheck {
		return false, nil
	}
	_, err := r.tbl.Get(ctx, indexedKey)
	switch {
	case err == nil:
		r.indexed.Store(true)
		return true, nil
	case errors.Is(err, store.ErrNotFound):
		r.indexedChk = now
		return false, nil
	}
	return false, fmt.Errorf("citations: read the index marker: %w", err)
}

// BackfillIndex gives the tenant's citations that lack them their GSI2
// keys, and returns how many it changed. It is idempotent.
func (r *Repo) BackfillIndex(ctx context.Context, tenantID int32) (int, error) {
	q := store.Query{Index: store.IndexGSI1, PK: byDatePK(tenantID), Limit: 1000}
	changed := 0
	for {
		p, err := r.tbl.Query(ctx, q)
		if err != nil {
			return changed, fmt.Errorf("citations: backfill: %w", err)
		}
		var ops []store.Op
		for _, it := range p.Items {
			if it.String(store.AttrGSI2PK) != "" {
				continue
			}
			c, err := store.Doc[Citation](it)
			if err != nil {
				return changed, err
			}
			attrs := indexAttrs(c)
			ops = append(ops, store.UpdateOp(it.Key(), store.Update{Set: map[string]any{
				store.AttrGSI2PK: attrs[store.AttrGSI2PK], store.AttrGSI2SK: attrs[store.AttrGSI2SK],
			}}, store.AttrExists(store.AttrPK)))
		}
		for len(ops) > 0 {
			n := min(len(ops), store.MaxTxOps)
			if err := r.tbl.TransactWrite(ctx, ops[:n]...); err != nil {
				return changed, fmt.Errorf("citations: backfill: %w", err)
			}
			changed += n
			ops = ops[n:]
		}
		if p.Cursor == "" {
			return changed, nil
		}
		q.Cursor = p.Cursor
	}
}

// MarkIndexed records that every citation is in GSI2 (call it after
// BackfillIndex of every tenant, once no older release writes citations).
func (r *Repo) MarkIndexed(ctx context.Context) error {
	err := r.tbl.Put(ctx, store.Item{store.AttrPK: indexedKey.PK, store.AttrSK: indexedKey.SK,
		"at": r.now().UTC().Format(time.RFC3339)}, store.Cond{})
	if err != nil {
		return fmt.Errorf("citations: mark indexed: %w", err)
	}
	r.indexed.Store(true)
	return nil
}
