// Package ctxtime holds waits that end early when their context does.
package ctxtime

import (
	"context"
	"time"
)

// Sleep pauses for d or until ctx is done, whichever comes first, and
// returns ctx.Err() in the second case. A d of zero or less does not wait
// but still reports a context that is already done, so a loop of retries
// stops once its caller has gone.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
