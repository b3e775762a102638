package ratelimit_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/ratelimit"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamotest"
	"github.com/brandlens/brandlens/shared/store/storetest"
)

func TestMain(m *testing.M) { dynamotest.Main(m) }

type limiter interface {
	Allow(ctx context.Context, keyID string, limit int64) error
}

// adapters runs f on every adapter: the in-memory one and the table one on
// both store backends, each with a clock f can move.
func adapters(t *testing.T, start time.Time, f func(t *testing.T, l limiter, clock *storetest.Clock)) {
	t.Run("memory", func(t *testing.T) {
		clock := storetest.NewClock(start)
		f(t, ratelimit.NewMemory(clock.Now), clock)
	})
	t.Run("table", func(t *testing.T) {
		dynamotest.Backends(t, start, func(t *testing.T, tbl store.Table, clock *storetest.Clock) {
			f(t, ratelimit.NewTable(tbl, clock.Now), clock)
		})
	})
}

// The reliability rule: limit N, N+5 at once → exactly N pass, 5 are
// refused with Retry-After ≤ 60 (the seconds to the window's end).
func TestExactlyTheLimitPassesUnderConcurrency(t *testing.T) {
	const limit = 7
	adapters(t, time.Date(2026, 11, 22, 12, 0, 45, 0, time.UTC), func(t *testing.T, l limiter, clock *storetest.Clock) {
		errs := make([]error, limit+5)
		var wg sync.WaitGroup
		for i := range errs {
			wg.Go(func() { errs[i] = l.Allow(context.Background(), "key_a", limit) })
		}
		wg.Wait()
		passed, refused := 0, 0
		for _, err := range errs {
			var ex *ratelimit.Exceeded
			switch {
			case err == nil:
				passed++
			case errors.As(err, &ex):
				refused++
				if ex.RetryAfter != 15 || ex.Limit != limit {
					t.Errorf("refusal %+v, want Retry-After 15 (to the window's end) and limit %d", ex, limit)
				}
			default:
				t.Fatal(err)
			}
		}
		if passed != limit || refused != 5 {
			t.Fatalf("%d passed, %d refused; want %d and 5", passed, refused, limit)
		}
	})
}

func TestWindowsAndKeys(t *testing.T) {
	adapters(t, time.Date(2026, 11, 22, 12, 0, 59, 500_000_000, time.UTC), func(t *testing.T, l limiter, clock *storetest.Clock) {
		ctx := context.Background()
		steps := []struct {
			name    string
			advance time.Duration
			key     string
			limit   int64
			ok      bool
			retry   int
		}{
			{"first of the window", 0, "key_a", 2, true, 0},
			{"second of the window", 0, "key_a", 2, true, 0},
			{"over the limit, half a second before the window ends", 0, "key_a", 2, false, 1},
			{"another key has its own window", 0, "key_b", 2, true, 0},
			{"no limit", 0, "key_a", 0, true, 0},
			{"the next window starts afresh", time.Second, "key_a", 2, true, 0},
			{"and counts again", 0, "key_a", 2, true, 0},
			{"until full", 0, "key_a", 2, false, 60},
			{"a raised limit admits more in the same window", 30 * time.Second, "key_a", 3, true, 0},
			{"then refuses", 0, "key_a", 3, false, 30},
		}
		for _, s := range steps {
			clock.Advance(s.advance)
			err := l.Allow(ctx, s.key, s.limit)
			var ex *ratelimit.Exceeded
			switch {
			case s.ok && err != nil:
				t.Fatalf("%s: %v", s.name, err)
			case !s.ok && !errors.As(err, &ex):
				t.Fatalf("%s: got %v, want a refusal", s.name, err)
			case !s.ok && ex.RetryAfter != s.retry:
				t.Fatalf("%s: Retry-After %d, want %d", s.name, ex.RetryAfter, s.retry)
			}
		}
	})
}
