package store

import (
	"context"
	"sync"
)

// BatchGetter is a Table that reads several items in one round trip
// (DynamoDB's BatchGetItem).
type BatchGetter interface {
	// GetMany returns the items of keys, in their order: nil for a key
	// with no (unexpired) item. Keys may repeat.
	GetMany(ctx context.Context, keys []Key) ([]Item, error)
}

// MaxBatchGet is DynamoDB's limit of keys in one BatchGetItem.
const MaxBatchGet = 100

// GetMany reads the items of keys — nil where there is none — in one round
// trip when tbl can (see BatchGetter), else with concurrent Gets (same
// latency, more requests: a wrapper that does not batch).
func GetMany(ctx context.Context, tbl Table, keys ...Key) ([]Item, error) {
	for _, k := range keys {
		if err := k.Validate(); err != nil {
			return nil, err
		}
	}
	if b, ok := tbl.(BatchGetter); ok {
		return b.GetMany(ctx, keys)
	}
	out := make([]Item, len(keys))
	errs := make([]error, len(keys))
	var wg sync.WaitGroup
	for i, k := range keys {
		wg.Go(func() {
			it, err := tbl.Get(ctx, k)
			if err == ErrNotFound {
				err = nil
			}
			out[i], errs[i] = it, err
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
