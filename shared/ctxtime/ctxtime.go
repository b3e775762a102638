// Package ctxtime holds waits that end early when their context does.
package ctxtime

import (
	"context"
	"errors"
	"time"
)

// ErrStopped is Sleep's answer when its stop channel closed first.
var ErrStopped = errors.New("ctxtime: stopped")

// Sleep pauses for d, unless ctx is done first (ctx.Err()) or stop is closed
// first (ErrStopped; a nil stop never is). A d of zero or less does not wait
// but still reports a context that is already done, so a loop of retries
// stops once its caller has gone.
func Sleep(ctx context.Context, d time.Duration, stop <-chan struct{}) error {
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
	case <-stop:
		return ErrStopped
	}
}
