package store

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
)

// backfillWorkers bounds the tenants Backfill reads at once: one read
// each, which in turn would outlast a function's timeout on a table of
// many tenants.
const backfillWorkers = 16

// Backfill gives the documents stored before an index existed their
// entries, once per table. While the marker item is missing it reads the
// documents query(tenant) lists for every tenant tenantIDs returns (called
// only then, so a pass after the migration reads no tenant), rewrites
// unchanged those keep accepts — each conditional on the document read:
// one written meanwhile got its entry from that write — and then writes
// the marker. A run cut short runs again. It returns how many it rewrote.
func Backfill[T any](ctx context.Context, c Collection[T], marker Key, tenantIDs func(context.Context) ([]int32, error),
	query func(tenantID int32) Query, keep func(T) bool) (int, error) {
	if _, err := c.Table.Get(ctx, marker); err == nil {
		return 0, nil
	} else if !errors.Is(err, ErrNotFound) {
		return 0, fmt.Errorf("store: read the marker %s: %w", marker.SK, err)
	}
	ts, err := tenantIDs(ctx)
	if err != nil {
		return 0, err
	}
	var n atomic.Int64
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(backfillWorkers)
	for _, t := range ts {
		g.Go(func() error {
			snaps, err := c.ReadAll(gctx, query(t))
			if err != nil {
				return err
			}
			for _, sn := range snaps {
				if !keep(sn.Value) {
					continue
				}
				if err := c.Replace(gctx, sn, sn.Value); err == nil {
					n.Add(1)
				} else if !errors.Is(err, ErrConditionFailed) {
					return err
				}
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return int(n.Load()), err
	}
	if err := c.Table.Put(ctx, Item{AttrPK: marker.PK, AttrSK: marker.SK}, Cond{}); err != nil {
		return int(n.Load()), fmt.Errorf("store: write the marker %s: %w", marker.SK, err)
	}
	return int(n.Load()), nil
}
