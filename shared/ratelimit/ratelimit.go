// Package ratelimit enforces the per-key requests-per-minute limit with a
// fixed one-minute window, through one of two adapters of the same rule:
//
//   - Table counts in the store: one counter item per key per minute,
//     incremented under the condition that it is still below the limit, so
//     concurrent requests of many processes (the API's Lambda functions)
//     never pass more than the limit together;
//   - Memory counts in the process: exact when one process sees every
//     request of a key, as `brandlens serve` does, and free of a durable
//     store write per request.
package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/brandlens/brandlens/shared/store"
)

// Exceeded reports a refused request and when to retry.
type Exceeded struct {
	Limit      int64
	RetryAfter int // seconds to the end of the window, 1..60
}

func (e *Exceeded) Error() string {
	return fmt.Sprintf("ratelimit: %d requests per minute exceeded; retry after %d s", e.Limit, e.RetryAfter)
}

// window is the fixed window of now: its number (unix minute) and its end
// (unix seconds).
func window(now time.Time) (minute, end int64) {
	minute = now.Unix() / 60
	return minute, (minute + 1) * 60
}

func exceeded(limit, end int64, now time.Time) *Exceeded {
	return &Exceeded{Limit: limit, RetryAfter: int(max(1, end-now.Unix()))}
}

// Table counts requests in the table.
type Table struct {
	tbl store.Table
	now func() time.Time
}

// NewTable returns the limiter that counts in tbl (now nil: time.Now).
func NewTable(tbl store.Table, now func() time.Time) *Table {
	if now == nil {
		now = time.Now
	}
	return &Table{tbl: tbl, now: now}
}

// Allow counts one request of the key against limit per minute. It returns
// *Exceeded when the window is full; limit <= 0 means unlimited.
func (l *Table) Allow(ctx context.Context, keyID string, limit int64) error {
	if limit <= 0 {
		return nil
	}
	now := l.now()
	minute, end := window(now)
	k := store.Key{PK: "RATE#" + keyID, SK: strconv.FormatInt(minute, 10)}
	_, err := l.tbl.Update(ctx, k,
		store.Update{Add: map[string]int64{"n": 1}, Set: map[string]any{store.AttrExpiresAt: end + 60}},
		store.Or(store.AttrNotExists("n"), store.Lt("n", limit)))
	if errors.Is(err, store.ErrConditionFailed) {
		return exceeded(limit, end, now)
	}
	if err != nil {
		return fmt.Errorf("ratelimit: count request: %w", err)
	}
	return nil
}

// Memory counts requests in this process. It is exact only when this
// process sees every request of the keys it counts.
type Memory struct {
	now func() time.Time

	mu      sync.Mutex
	windows map[string]count // key id → its count in the current window
	swept   int64            // the window of the last sweep
}

type count struct{ minute, n int64 }

// NewMemory returns the in-process limiter (now nil: time.Now).
func NewMemory(now func() time.Time) *Memory {
	if now == nil {
		now = time.Now
	}
	return &Memory{now: now, windows: map[string]count{}}
}

// Allow counts one request of the key against limit per minute, like
// Table.Allow.
func (m *Memory) Allow(_ context.Context, keyID string, limit int64) error {
	if limit <= 0 {
		return nil
	}
	now := m.now()
	minute, end := window(now)
	m.mu.Lock()
	defer m.mu.Unlock()
	if minute != m.swept {
		// Once per window, forget the keys not seen in it: the map holds
		// only the keys of the current minute.
		for k, c := range m.windows {
			if c.minute != minute {
				delete(m.windows, k)
			}
		}
		m.swept = minute
	}
	c := m.windows[keyID]
	if c.minute != minute {
		c = count{minute: minute}
	}
	if c.n >= limit {
		return exceeded(limit, end, now)
	}
	c.n++
	m.windows[keyID] = c
	return nil
}
