package workflow_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/brandlens/brandlens/shared/workflow"
)

// steps is a set of step handlers that take a given time (on the bubble's
// fake clock, unless their context ends first) and record which ran to
// their end and which were cut off.
type steps struct {
	mu       sync.Mutex
	finished []string
	cut      []string
	fail     map[string]bool
}

func (s *steps) handler(name string, took time.Duration) workflow.Handler {
	return func(ctx context.Context, in json.RawMessage) (json.RawMessage, error) {
		t := time.NewTimer(took)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			s.mu.Lock()
			s.cut = append(s.cut, name)
			s.mu.Unlock()
			return nil, ctx.Err()
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		s.finished = append(s.finished, name)
		if s.fail[name] {
			return nil, errors.New(name + " failed")
		}
		return in, nil
	}
}

func (s *steps) record() (finished, cut []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, c := slices.Clone(s.finished), slices.Clone(s.cut)
	slices.Sort(f)
	slices.Sort(c)
	return f, c
}

const drainDef = `{"StartAt":"First","States":{
  "First":{"Type":"Task","Resource":"first","Next":"Fan"},
  "Fan":{"Type":"Map","ItemsPath":"$.items","MaxConcurrency":2,"ResultPath":"$.results",
    "ItemProcessor":{"StartAt":"Item","States":{"Item":{"Type":"Task","Resource":"item","End":true}}},"Next":"Last"},
  "Last":{"Type":"Task","Resource":"last","End":true}}}`

// Shutdown lets the tasks already running finish (a Map's iterations
// included) and starts nothing more: no further state, no new execution;
// past the grace period what still runs is cut off.
func TestLocalShutdownDrains(t *testing.T) {
	cases := []struct {
		name         string
		shutdownAt   time.Duration // after the start
		grace        time.Duration
		itemTakes    time.Duration
		wantFinished []string
		wantCut      []string
		wantErr      bool
	}{
		{name: "during the first task", shutdownAt: time.Second, grace: time.Minute, itemTakes: 5 * time.Second,
			wantFinished: []string{"first"}},
		{name: "during the map", shutdownAt: 3 * time.Second, grace: time.Minute, itemTakes: 5 * time.Second,
			wantFinished: []string{"first", "item", "item"}},
		{name: "grace runs out", shutdownAt: 3 * time.Second, grace: 2 * time.Second, itemTakes: time.Hour,
			wantFinished: []string{"first"}, wantCut: []string{"item", "item"}, wantErr: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := &steps{}
				l := workflow.NewLocal(map[string]*workflow.Machine{"m": mustLoad(t, drainDef)}, workflow.Handlers{
					"first": s.handler("first", 2*time.Second),
					"item":  s.handler("item", tc.itemTakes),
					"last":  s.handler("last", time.Second),
				})
				ctx := context.Background()
				if err := l.Start(ctx, "m", "job-1", json.RawMessage(`{"items":[1,2,3,4]}`)); err != nil {
					t.Fatal(err)
				}
				time.Sleep(tc.shutdownAt)
				gctx, cancel := context.WithTimeout(ctx, tc.grace)
				defer cancel()
				err := l.Shutdown(gctx)
				if (err != nil) != tc.wantErr {
					t.Fatalf("Shutdown: %v", err)
				}
				_, werr := l.Wait(ctx, "m", "job-1")
				var xe *workflow.ExecutionError
				if werr == nil || errors.As(werr, &xe) {
					t.Fatalf("a drained execution ended with %v; want an abort, not a result or a failure", werr)
				}
				synctest.Wait() // cut-off handlers return after their execution did
				finished, cut := s.record()
				if !slices.Equal(finished, tc.wantFinished) || !slices.Equal(cut, tc.wantCut) {
					t.Errorf("finished %v cut %v; want %v and %v", finished, cut, tc.wantFinished, tc.wantCut)
				}
				if err := l.Start(ctx, "m", "job-2", json.RawMessage(`{"items":[]}`)); !errors.Is(err, workflow.ErrClosed) {
					t.Errorf("Start after Shutdown: %v", err)
				}
				l.Close()
			})
		})
	}
}

// A retry's wait is not sat out during a drain.
func TestLocalShutdownInterruptsRetryWaits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &steps{fail: map[string]bool{"flaky": true}}
		def := `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"flaky","End":true,
		  "Retry":[{"ErrorEquals":["States.ALL"],"IntervalSeconds":600,"MaxAttempts":3}]}}}`
		l := workflow.NewLocal(map[string]*workflow.Machine{"m": mustLoad(t, def)}, workflow.Handlers{"flaky": s.handler("flaky", time.Second)})
		ctx := context.Background()
		if err := l.Start(ctx, "m", "job-1", json.RawMessage(`{}`)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Second) // failed once, waiting 600 s to retry
		start := time.Now()
		gctx, cancel := context.WithTimeout(ctx, time.Hour)
		defer cancel()
		if err := l.Shutdown(gctx); err != nil {
			t.Fatal(err)
		}
		if waited := time.Since(start); waited != 0 {
			t.Errorf("Shutdown waited %s on a retry interval", waited)
		}
		if finished, _ := s.record(); len(finished) != 1 {
			t.Errorf("attempts %v", finished)
		}
	})
}

// The failure handler hears of executions that fail — with their input, as
// EventBridge tells of a FAILED execution — and not of those that succeed
// or are stopped by a shutdown.
func TestLocalFailureHandler(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		type failed struct {
			machine, name, input, error string
		}
		var (
			mu  sync.Mutex
			got []failed
		)
		h := func(_ context.Context, machine, name string, input json.RawMessage, err *workflow.ExecutionError) {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, failed{machine, name, string(input), err.Name})
		}
		s := &steps{fail: map[string]bool{"bad": true}}
		one := func(res string) *workflow.Machine {
			return mustLoad(t, `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"`+res+`","End":true}}}`)
		}
		l := workflow.NewLocal(map[string]*workflow.Machine{"ok": one("good"), "bad": one("bad"), "slow": one("slow")},
			workflow.Handlers{"good": s.handler("good", time.Second), "bad": s.handler("bad", time.Second), "slow": s.handler("slow", time.Hour)},
			workflow.WithFailureHandler(h))
		ctx := context.Background()
		for _, m := range []string{"ok", "bad", "slow"} {
			if err := l.Start(ctx, m, "job-"+m, json.RawMessage(`{"jobId":"job-`+m+`","tenantId":3}`)); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(time.Minute)
		gctx, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		_ = l.Shutdown(gctx)
		mu.Lock()
		defer mu.Unlock()
		want := []failed{{"bad", "job-bad", `{"jobId":"job-bad","tenantId":3}`, "errorString"}}
		if !slices.Equal(got, want) {
			t.Errorf("failures heard: %+v, want %+v", got, want)
		}
	})
}
