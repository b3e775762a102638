// Package ids hands out identifiers: per-tenant int32 sequences for the
// entities the spec types as integers, and ULIDs (time-sortable strings)
// for jobs, opportunities and other string ids.
package ids

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/brandlens/brandlens/shared/store"
)

// ErrExhausted is returned when a sequence would pass the int32 range.
var ErrExhausted = errors.New("ids: sequence exhausted")

// counterKey is the item holding one sequence: scope is a partition such as
// "TENANT#7" (or "GLOBAL"), name the entity ("citation").
func counterKey(scope, name string) store.Key {
	return store.Key{PK: scope, SK: "COUNTER#" + name}
}

// Next reserves n consecutive ids of the sequence and returns the first.
// The counter item is updated atomically, so concurrent callers never get
// overlapping ranges.
func Next(ctx context.Context, tbl store.Table, scope, name string, n int) (int32, error) {
	if n < 1 {
		return 0, fmt.Errorf("ids: reserve %d ids: need at least one", n)
	}
	it, err := tbl.Update(ctx, counterKey(scope, name), store.Update{Add: map[string]int64{"n": int64(n)}}, store.Cond{})
	if err != nil {
		return 0, fmt.Errorf("ids: next %s/%s: %w", scope, name, err)
	}
	last := it.Int("n")
	if last > math.MaxInt32 {
		return 0, fmt.Errorf("ids: %s/%s: %w", scope, name, ErrExhausted)
	}
	return int32(last - int64(n) + 1), nil
}

// ULID returns a new time-sortable id, lowercase for friendlier URLs.
func ULID(now time.Time) string {
	id := ulid.MustNew(ulid.Timestamp(now), rand.Reader)
	return strings.ToLower(id.String())
}

// Pad renders an int32 id fixed-width so that sort keys order numerically.
func Pad(id int32) string { return fmt.Sprintf("%010d", id) }
