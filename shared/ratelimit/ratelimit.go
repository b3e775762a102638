// Package ratelimit enforces the per-key requests-per-minute limit with a
// fixed window: one counter item per key per minute, incremented under the
// condition that it is still below the limit, so concurrent requests can
// never pass more than the limit.
package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/brandlens/brandlens/shared/store"
)

// Limiter counts requests in the table.
type Limiter struct {
	tbl store.Table
	now func() time.Time
}

// New returns a limiter.
func New(tbl store.Table, now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	return &Limiter{tbl: tbl, now: now}
}

// Exceeded reports a refused request and when to retry.
type Exceeded struct {
	Limit      int64
	RetryAfter int // seconds to the end of the window, 1..60
}

func (e *Exceeded) Error() string {
	return fmt.Sprintf("ratelimit: %d requests per minute exceeded; retry after %d s", e.Limit, e.RetryAfter)
}

// Allow counts one request of the key against limit per minute. It returns
// *Exceeded when the window is full; limit <= 0 means unlimited.
func (l *Limiter) Allow(ctx context.Context, keyID string, limit int64) error {
	if limit <= 0 {
		return nil
	}
	now := l.now()
	window := now.Unix() / 60
	end := (window + 1) * 60
	k := store.Key{PK: "RATE#" + keyID, SK: strconv.FormatInt(window, 10)}
	_, err := l.tbl.Update(ctx, k,
		store.Update{Add: map[string]int64{"n": 1}, Set: map[string]any{store.AttrExpiresAt: end + 60}},
		store.Or(store.AttrNotExists("n"), store.Lt("n", limit)))
	if errors.Is(err, store.ErrConditionFailed) {
		retry := int(end - now.Unix())
		if retry < 1 {
			retry = 1
		}
		return &Exceeded{Limit: limit, RetryAfter: retry}
	}
	if err != nil {
		return fmt.Errorf("ratelimit: count request: %w", err)
	}
	return nil
}
