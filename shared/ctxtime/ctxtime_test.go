package ctxtime_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/brandlens/brandlens/shared/ctxtime"
)

func TestSleep(t *testing.T) {
	cases := []struct {
		name     string
		d        time.Duration
		cancelAt time.Duration // 0: never
		stopAt   time.Duration // 0: never (a nil stop channel)
		want     error
		slept    time.Duration
	}{
		{name: "full pause", d: 3 * time.Second, slept: 3 * time.Second},
		{name: "cancelled mid-way", d: 3 * time.Second, cancelAt: time.Second, want: context.Canceled, slept: time.Second},
		{name: "stopped mid-way", d: 3 * time.Second, stopAt: 2 * time.Second, want: ctxtime.ErrStopped, slept: 2 * time.Second},
		{name: "stop after the pause", d: time.Second, stopAt: 2 * time.Second, slept: time.Second},
		{name: "zero on a live context", d: 0, slept: 0},
		{name: "negative on a live context", d: -time.Second, slept: 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				if tc.cancelAt > 0 {
					time.AfterFunc(tc.cancelAt, cancel)
				}
				var stop chan struct{}
				if tc.stopAt > 0 {
					stop = make(chan struct{})
					time.AfterFunc(tc.stopAt, func() { close(stop) })
				}
				start := time.Now()
				err := ctxtime.Sleep(ctx, tc.d, stop)
				if !errors.Is(err, tc.want) || (tc.want == nil && err != nil) {
					t.Errorf("Sleep = %v, want %v", err, tc.want)
				}
				if got := time.Since(start); got != tc.slept {
					t.Errorf("slept %s, want %s", got, tc.slept)
				}
			})
		})
	}
}

// A context already done stops even a pause of zero: retry loops end once
// their caller has gone.
func TestSleepDoneContext(t *testing.T) {
	for _, d := range []time.Duration{0, time.Hour} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := ctxtime.Sleep(ctx, d, nil); !errors.Is(err, context.Canceled) {
			t.Errorf("Sleep(%s) on a done context = %v, want context.Canceled", d, err)
		}
	}
}
