package queue_test

import (
	"context"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/brandlens/brandlens/shared/queue"
)

// Stop hands out no more messages but lets the handlers in progress finish
// with their contexts intact; Run returns when they have.
func TestLocalStopLetsHandlersFinish(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := queue.NewLocal(queue.LocalOptions{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		defer q.Close()
		ctx := context.Background()
		var finished, cancelled, started atomic.Int32
		h := func(ctx context.Context, m queue.Message) error {
			started.Add(1)
			select {
			case <-time.After(5 * time.Second):
				finished.Add(1)
			case <-ctx.Done():
				cancelled.Add(1)
			}
			return nil
		}
		for range 3 {
			if err := q.Send(ctx, []byte("job"), 0); err != nil {
				t.Fatal(err)
			}
		}
		done := make(chan error, 1)
		go func() { done <- q.Run(ctx, h, 2) }()
		advance(time.Second)
		q.Stop()
		start := time.Now()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if took := time.Since(start); took != 4*time.Second {
			t.Errorf("Run returned %s after Stop; want when the handlers in progress finished (4s)", took)
		}
		if started.Load() != 2 || finished.Load() != 2 || cancelled.Load() != 0 {
			t.Errorf("started %d finished %d cancelled %d", started.Load(), finished.Load(), cancelled.Load())
		}
		if st := q.Stats(); st.Visible != 1 {
			t.Errorf("the message never handed out: %+v", st)
		}
	})
}
