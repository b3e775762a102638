package workflow_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/workflow"
)

// failing answers with err for the first n calls, then echoes.
func failing(n int, err error) *recorder {
	return &recorder{answer: func(call int, in json.RawMessage) (json.RawMessage, error) {
		if call <= n {
			return nil, err
		}
		return in, nil
	}}
}

// timedRecorder stamps each call, to check the pauses between attempts.
type timedRecorder struct {
	mu    sync.Mutex
	times []time.Time
	fail  int
}

func (r *timedRecorder) Invoke(_ context.Context, _ string, in json.RawMessage) (json.RawMessage, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.times = append(r.times, time.Now())
	if len(r.times) <= r.fail {
		return nil, &TransientProviderError{"p"}
	}
	return in, nil
}

func (r *timedRecorder) gaps() []time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	var g []time.Duration
	for i := 1; i < len(r.times); i++ {
		g = append(g, r.times[i].Sub(r.times[i-1]))
	}
	return g
}

func TestRetry(t *testing.T) {
	task := func(retry string) string {
		return `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r","Retry":` + retry + `,"End":true}}}`
	}
	transient := &TransientProviderError{"p"}

	t.Run("backoff", func(t *testing.T) {
		t.Parallel()
		rec := &timedRecorder{fail: 3}
		// 10 ms, 20 ms, 40 ms at scale 0.01.
		_, ee := run(t, task(`[{"ErrorEquals":["TransientProviderError"],"IntervalSeconds":1,"MaxAttempts":3,"BackoffRate":2}]`), `{}`, rec, workflow.WithRetryScale(0.01))
		if ee != nil {
			t.Fatal(ee)
		}
		gaps := rec.gaps()
		if len(gaps) != 3 {
			t.Fatalf("%d attempts, want 4", len(gaps)+1)
		}
		for i, min := range []time.Duration{10 * time.Millisecond, 20 * time.Millisecond, 40 * time.Millisecond} {
			if gaps[i] < min {
				t.Errorf("pause %d was %s, want at least %s", i+1, gaps[i], min)
			}
		}
	})
	t.Run("MaxDelaySeconds caps the backoff", func(t *testing.T) {
		t.Parallel()
		rec := &timedRecorder{fail: 3}
		// Uncapped: 0.1 s, 1 s, 10 s; capped at 0.2 s.
		start := time.Now()
		_, ee := run(t, task(`[{"ErrorEquals":["TransientProviderError"],"IntervalSeconds":1,"MaxAttempts":3,"BackoffRate":10,"MaxDelaySeconds":2}]`), `{}`, rec, workflow.WithRetryScale(0.1))
		if ee != nil {
			t.Fatal(ee)
		}
		if d := time.Since(start); d < 500*time.Millisecond || d > 5*time.Second {
			t.Errorf("retries took %s, want about 0.5 s (capped), far below the uncapped 11.1 s", d)
		}
	})
	t.Run("jitter FULL never waits longer", func(t *testing.T) {
		t.Parallel()
		rec := &timedRecorder{fail: 2}
		start := time.Now()
		_, ee := run(t, task(`[{"ErrorEquals":["States.ALL"],"IntervalSeconds":1,"MaxAttempts":2,"JitterStrategy":"FULL"}]`), `{}`, rec, workflow.WithRetryScale(0.05))
		if ee != nil {
			t.Fatal(ee)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("took %s", d)
		}
	})

	cases := []struct {
		name      string
		retry     string
		fails     int
		err       error
		wantCalls int
		wantErr   string
	}{
		{"exhausted", `[{"ErrorEquals":["TransientProviderError"],"MaxAttempts":2}]`, 10, transient, 3, "TransientProviderError"},
		{"MaxAttempts 0 never retries", `[{"ErrorEquals":["TransientProviderError"],"MaxAttempts":0}]`, 10, transient, 1, "TransientProviderError"},
		{"default MaxAttempts is 3", `[{"ErrorEquals":["TransientProviderError"]}]`, 10, transient, 4, "TransientProviderError"},
		{"recovers", `[{"ErrorEquals":["TransientProviderError"],"MaxAttempts":3}]`, 2, transient, 3, ""},
		{"other names are not retried", `[{"ErrorEquals":["StoreUnavailableError"]}]`, 10, transient, 1, "TransientProviderError"},
		{"an exhausted retrier does not defer to later ones", `[{"ErrorEquals":["TransientProviderError"],"MaxAttempts":1},{"ErrorEquals":["States.ALL"],"MaxAttempts":5}]`, 10, transient, 2, "TransientProviderError"},
		{"States.TaskFailed matches task errors", `[{"ErrorEquals":["States.TaskFailed"],"MaxAttempts":1}]`, 10, transient, 2, "TransientProviderError"},
		{"States.ALL", `[{"ErrorEquals":["States.ALL"],"MaxAttempts":1}]`, 10, errors.New("x"), 2, "errorString"},
		{"retriers count separately", `[{"ErrorEquals":["TransientProviderError"],"MaxAttempts":1},{"ErrorEquals":["errorString"],"MaxAttempts":1}]`, 10, transient, 2, "TransientProviderError"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := failing(tc.fails, tc.err)
			_, ee := run(t, task(tc.retry), `{}`, rec, workflow.WithRetryScale(0.001))
			if rec.calls() != tc.wantCalls {
				t.Errorf("%d calls, want %d", rec.calls(), tc.wantCalls)
			}
			switch {
			case tc.wantErr == "" && ee != nil:
				t.Errorf("failed: %v", ee)
			case tc.wantErr != "" && (ee == nil || ee.Name != tc.wantErr):
				t.Errorf("error %v, want %s", ee, tc.wantErr)
			}
		})
	}

	t.Run("$$.State.RetryCount", func(t *testing.T) {
		rec := failing(2, transient)
		_, ee := run(t, `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r","Parameters":{"n.$":"$$.State.RetryCount"},"Retry":[{"ErrorEquals":["States.ALL"]}],"End":true}}}`, `{}`, rec, workflow.WithRetryScale(0.001))
		if ee != nil {
			t.Fatal(ee)
		}
		if fmt.Sprint(rec.inputs) != `[{"n":0} {"n":1} {"n":2}]` {
			t.Errorf("inputs %v", rec.inputs)
		}
	})
}

func TestCatch(t *testing.T) {
	def := func(catch string) string {
		return `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r","OutputPath":"$.never","Catch":` + catch + `,"End":true},` +
			`"A":{"Type":"Pass","End":true},"B":{"Type":"Pass","Result":"B","End":true}}}`
	}
	boom := &ProviderFailedError{"p"}
	cause := `{"errorMessage":"p: quota exhausted","errorType":"ProviderFailedError"}`
	cases := []struct {
		name, catch, want string
	}{
		{"ResultPath merges the error into the input", `[{"ErrorEquals":["ProviderFailedError"],"ResultPath":"$.err","Next":"A"}]`,
			`{"in":1,"err":{"Error":"ProviderFailedError","Cause":` + quote(cause) + `}}`},
		{"no ResultPath: the error is the output", `[{"ErrorEquals":["ProviderFailedError"],"Next":"A"}]`,
			`{"Error":"ProviderFailedError","Cause":` + quote(cause) + `}`},
		{"ResultPath null keeps the input", `[{"ErrorEquals":["ProviderFailedError"],"ResultPath":null,"Next":"A"}]`, `{"in":1}`},
		{"first matching catcher", `[{"ErrorEquals":["Other"],"Next":"A"},{"ErrorEquals":["States.TaskFailed"],"Next":"B"},{"ErrorEquals":["States.ALL"],"Next":"A"}]`, `"B"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, ee := run(t, def(`[{"ErrorEquals":["NeverRaised"],"Next":"B"},`+tc.catch[1:]), `{"in":1}`, failing(1, boom))
			if ee != nil {
				t.Fatal(ee)
			}
			wantJSON(t, out, tc.want)
		})
	}
	t.Run("retry before catch", func(t *testing.T) {
		rec := failing(10, boom)
		out, ee := run(t, `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r","Retry":[{"ErrorEquals":["States.ALL"],"MaxAttempts":2}],"Catch":[{"ErrorEquals":["States.ALL"],"ResultPath":null,"Next":"A"}],"End":true},"A":{"Type":"Pass","Result":"caught","End":true}}}`, `{}`, rec, workflow.WithRetryScale(0.001))
		if ee != nil {
			t.Fatal(ee)
		}
		wantJSON(t, out, `"caught"`)
		if rec.calls() != 3 {
			t.Errorf("%d calls, want 3", rec.calls())
		}
	})
	t.Run("uncaught", func(t *testing.T) {
		_, ee := run(t, def(`[{"ErrorEquals":["Other"],"Next":"A"},{"ErrorEquals":["NeverRaised"],"Next":"B"}]`), `{}`, failing(1, boom))
		wantError(t, ee, "ProviderFailedError", "quota exhausted")
	})
}

// blocker blocks every call until its ctx ends, and reports that it did.
type blocker struct{ cancelled atomic.Int32 }

func (b *blocker) Invoke(ctx context.Context, _ string, _ json.RawMessage) (json.RawMessage, error) {
	<-ctx.Done()
	b.cancelled.Add(1)
	return nil, ctx.Err()
}

func TestTaskTimeout(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, def, wantOut, wantErr string
	}{
		{"States.Timeout", `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r","TimeoutSeconds":1,"End":true}}}`, "", workflow.ErrorTimeout},
		{"TimeoutSecondsPath", `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r","TimeoutSecondsPath":"$.t","End":true}}}`, "", workflow.ErrorTimeout},
		{"States.TaskFailed does not catch a timeout", `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r","TimeoutSeconds":1,"Catch":[{"ErrorEquals":["States.TaskFailed"],"Next":"C"}],"End":true},"C":{"Type":"Pass","Result":"caught","End":true}}}`, "", workflow.ErrorTimeout},
		{"States.ALL catches it", `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r","TimeoutSeconds":1,"Catch":[{"ErrorEquals":["States.ALL"],"ResultPath":"$.e","Next":"C"}],"End":true},"C":{"Type":"Pass","OutputPath":"$.e.Error","End":true}}}`, `"States.Timeout"`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := &blocker{}
			start := time.Now()
			out, ee := run(t, tc.def, `{"t":1}`, b)
			if d := time.Since(start); d < time.Second || d > 10*time.Second {
				t.Errorf("took %s, want about 1 s", d)
			}
			if tc.wantErr != "" {
				wantError(t, ee, tc.wantErr, "did not finish within 1s")
			} else {
				if ee != nil {
					t.Fatal(ee)
				}
				wantJSON(t, out, tc.wantOut)
			}
			deadline := time.Now().Add(time.Second)
			for b.cancelled.Load() == 0 && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond)
			}
			if b.cancelled.Load() == 0 {
				t.Error("the timed-out invocation's context was not cancelled")
			}
		})
	}
	t.Run("bad TimeoutSecondsPath", func(t *testing.T) {
		_, ee := run(t, `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r","TimeoutSecondsPath":"$.t","End":true}}}`, `{"t":0}`, echo)
		wantError(t, ee, workflow.ErrorRuntime, "positive integer")
	})
}

func TestMap(t *testing.T) {
	t.Run("MaxConcurrency bounds the iterations in flight", func(t *testing.T) {
		t.Parallel()
		for _, tc := range []struct{ max, items, want int }{{3, 12, 3}, {0, 50, 40}, {1, 4, 1}} {
			var inFlight, peak atomic.Int32
			inv := workflow.InvokerFunc(func(_ context.Context, _ string, in json.RawMessage) (json.RawMessage, error) {
				n := inFlight.Add(1)
				for {
					p := peak.Load()
					if n <= p || peak.CompareAndSwap(p, n) {
						break
					}
				}
				time.Sleep(15 * time.Millisecond)
				inFlight.Add(-1)
				return in, nil
			})
			items := make([]int, tc.items)
			for i := range items {
				items[i] = i
			}
			input, _ := json.Marshal(map[string]any{"items": items})
			def := fmt.Sprintf(`{"StartAt":"M","States":{"M":{"Type":"Map","ItemsPath":"$.items","MaxConcurrency":%d,"ItemProcessor":{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r","End":true}}},"End":true}}}`, tc.max)
			out, ee := run(t, def, string(input), inv)
			if ee != nil {
				t.Fatal(ee)
			}
			want, _ := json.Marshal(items)
			wantJSON(t, out, string(want)) // results in item order
			if p := int(peak.Load()); p > tc.want || p < min(2, tc.want) {
				t.Errorf("MaxConcurrency %d over %d items: peak %d in flight, want at most %d (and real concurrency)", tc.max, tc.items, p, tc.want)
			}
		}
	})
	t.Run("ItemSelector and the Map context", func(t *testing.T) {
		def := `{"StartAt":"M","States":{"M":{"Type":"Map","InputPath":"$.job","ItemsPath":"$.platforms",
			"ItemSelector":{"i.$":"$$.Map.Item.Index","p.$":"$$.Map.Item.Value","job.$":"$.id","exec.$":"$$.Execution.Name"},
			"ItemProcessor":{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r","ResultSelector":{"ok.$":"$.p"},"End":true}}},
			"ResultSelector":{"n.$":"$[1].ok"},"ResultPath":"$.out","End":true}}}`
		rec := &recorder{}
		out, ee := run(t, def, `{"job":{"id":"j1","platforms":["a","b"]}}`, rec)
		if ee != nil {
			t.Fatal(ee)
		}
		wantJSON(t, out, `{"job":{"id":"j1","platforms":["a","b"]},"out":{"n":"b"}}`)
		got := map[string]bool{}
		for _, in := range rec.inputs {
			got[in] = true
		}
		if !got[`{"exec":"test-exec","i":0,"job":"j1","p":"a"}`] || !got[`{"exec":"test-exec","i":1,"job":"j1","p":"b"}`] {
			t.Errorf("iteration inputs %v", rec.inputs)
		}
	})
	t.Run("Iterator and Parameters (older names); $$.Execution.Input is the execution's", func(t *testing.T) {
		def := `{"StartAt":"M","States":{"M":{"Type":"Map","Parameters":{"v.$":"$$.Map.Item.Value"},
			"Iterator":{"StartAt":"P","States":{"P":{"Type":"Pass","Parameters":{"v.$":"$.v","all.$":"$$.Execution.Input.tag"},"End":true}}},"End":true}}}`
		m := mustLoad(t, def)
		out, err := m.Execute(context.Background(), "e", json.RawMessage(`[1,2]`), echo)
		if err == nil {
			t.Fatalf("a top-level array has no .tag, want States.Runtime; got %s", out)
		}
		out2, ee := run(t, `{"StartAt":"Wrap","States":{"Wrap":{"Type":"Pass","Parameters":{"items.$":"$.items"},"Next":"M"},"M":{"Type":"Map","ItemsPath":"$.items","Parameters":{"v.$":"$$.Map.Item.Value"},
			"Iterator":{"StartAt":"P","States":{"P":{"Type":"Pass","Parameters":{"v.$":"$.v","tag.$":"$$.Execution.Input.tag"},"End":true}}},"End":true}}}`, `{"items":[1,2],"tag":"t"}`, nil)
		if ee != nil {
			t.Fatal(ee)
		}
		wantJSON(t, out2, `[{"v":1,"tag":"t"},{"v":2,"tag":"t"}]`)
	})
	t.Run("empty items", func(t *testing.T) {
		out, ee := run(t, `{"StartAt":"M","States":{"M":{"Type":"Map","ItemProcessor":{"StartAt":"P","States":{"P":{"Type":"Pass","End":true}}},"End":true}}}`, `[]`, nil)
		if ee != nil {
			t.Fatal(ee)
		}
		wantJSON(t, out, `[]`)
	})
	t.Run("items that are not an array", func(t *testing.T) {
		_, ee := run(t, `{"StartAt":"M","States":{"M":{"Type":"Map","ItemsPath":"$.x","ItemProcessor":{"StartAt":"P","States":{"P":{"Type":"Pass","End":true}}},"End":true}}}`, `{"x":{}}`, nil)
		wantError(t, ee, workflow.ErrorRuntime, "must be an array")
	})
	t.Run("a failed iteration stops the others and fails the Map", func(t *testing.T) {
		b := &blocker{}
		slowStarted := make(chan struct{})
		var never atomic.Int32
		inv := workflow.InvokerFunc(func(ctx context.Context, r string, in json.RawMessage) (json.RawMessage, error) {
			switch string(in) {
			case `"bad"`:
				<-slowStarted // fail only once the other iteration is in flight
				return nil, &ProviderFailedError{"bad"}
			case `"slow"`:
				close(slowStarted)
				return b.Invoke(ctx, r, in)
			}
			never.Add(1)
			return in, nil
		})
		def := `{"StartAt":"M","States":{"M":{"Type":"Map","MaxConcurrency":2,"ItemProcessor":{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r","End":true}}},
			"Catch":[{"ErrorEquals":["ProviderFailedError"],"ResultPath":null,"Next":"C"}],"End":true},"C":{"Type":"Pass","Result":"caught","End":true}}}`
		start := time.Now()
		out, ee := run(t, def, `["slow","bad","never","never"]`, inv)
		if ee != nil {
			t.Fatal(ee)
		}
		wantJSON(t, out, `"caught"`)
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("took %s: the blocked iteration was not stopped", d)
		}
		deadline := time.Now().Add(2 * time.Second)
		for b.cancelled.Load() == 0 && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if b.cancelled.Load() != 1 {
			t.Error("the in-flight iteration's invocation was not cancelled")
		}
		if never.Load() != 0 {
			t.Errorf("%d iterations started after the failure", never.Load())
		}
	})
	t.Run("a Fail state inside an iteration fails the Map", func(t *testing.T) {
		_, ee := run(t, `{"StartAt":"M","States":{"M":{"Type":"Map","ItemProcessor":{"StartAt":"F","States":{"F":{"Type":"Fail","Error":"ItemBad","Cause":"c"}}},"End":true}}}`, `[1]`, nil)
		wantError(t, ee, "ItemBad", "c")
	})
}

// tokenSteps is the resource of a token task: it records the token the
// task hands over, as an approvals step would store it.
type tokenSteps struct {
	tokens chan string
	answer func(token string) // called inside Invoke when set
}

func (s *tokenSteps) Invoke(_ context.Context, _ string, in json.RawMessage) (json.RawMessage, error) {
	var msg struct{ Token, Item string }
	if err := json.Unmarshal(in, &msg); err != nil {
		return nil, err
	}
	if s.answer != nil {
		s.answer(msg.Token)
		return json.RawMessage(`{"ignored":true}`), nil
	}
	s.tokens <- msg.Token
	return json.RawMessage(`{"ignored":true}`), nil
}

func TestTaskTokens(t *testing.T) {
	t.Parallel()
	def := `{"StartAt":"Approve","States":{"Approve":{"Type":"Task","Resource":"arn:aws:states:::sqs:sendMessage.waitForTaskToken",
		"Parameters":{"Token.$":"$$.Task.Token","Item.$":"$.item"},"TimeoutSeconds":5,"ResultPath":"$.approval",
		"Catch":[{"ErrorEquals":["ApprovalRejected"],"ResultPath":"$.rejection","Next":"Rejected"}],"End":true},
		"Rejected":{"Type":"Pass","End":true}}}`
	m := mustLoad(t, def)
	start := func(t *testing.T, steps *tokenSteps, tt *workflow.TaskTokens) (func() (string, error), string) {
		t.Helper()
		type res struct {
			out json.RawMessage
			err error
		}
		done := make(chan res, 1)
		go func() {
			out, err := m.Execute(context.Background(), "approval", json.RawMessage(`{"item":"post-1"}`), steps, workflow.WithTaskTokens(tt))
			done <- res{out, err}
		}()
		var token string
		if steps.answer == nil {
			select {
			case token = <-steps.tokens:
			case <-time.After(5 * time.Second):
				t.Fatal("the token task never invoked its resource")
			}
		}
		return func() (string, error) {
			r := <-done
			return string(r.out), r.err
		}, token
	}

	t.Run("success", func(t *testing.T) {
		tt := workflow.NewTaskTokens()
		wait, token := start(t, &tokenSteps{tokens: make(chan string, 1)}, tt)
		if got := tt.Waiting(); len(got) != 1 || got[0] != token {
			t.Errorf("Waiting() = %v, want [%s]", got, token)
		}
		if err := tt.SendTaskSuccess(token, json.RawMessage(`{"by":"editor@example.com"}`)); err != nil {
			t.Fatal(err)
		}
		out, err := wait()
		if err != nil {
			t.Fatal(err)
		}
		wantJSON(t, out, `{"item":"post-1","approval":{"by":"editor@example.com"}}`)
		if err := tt.SendTaskSuccess(token, json.RawMessage(`{}`)); !errors.Is(err, workflow.ErrTaskDoesNotExist) {
			t.Errorf("second answer: %v, want ErrTaskDoesNotExist", err)
		}
		if len(tt.Waiting()) != 0 {
			t.Errorf("tokens still waiting: %v", tt.Waiting())
		}
	})
	t.Run("failure goes through Catch", func(t *testing.T) {
		tt := workflow.NewTaskTokens()
		wait, token := start(t, &tokenSteps{tokens: make(chan string, 1)}, tt)
		if err := tt.SendTaskFailure(token, "ApprovalRejected", "off-brand"); err != nil {
			t.Fatal(err)
		}
		out, err := wait()
		if err != nil {
			t.Fatal(err)
		}
		wantJSON(t, out, `{"item":"post-1","rejection":{"Error":"ApprovalRejected","Cause":"off-brand"}}`)
	})
	t.Run("answered inside the invocation", func(t *testing.T) {
		tt := workflow.NewTaskTokens()
		steps := &tokenSteps{answer: func(token string) {
			if err := tt.SendTaskSuccess(token, json.RawMessage(`"auto"`)); err != nil {
				t.Error(err)
			}
		}}
		wait, _ := start(t, steps, tt)
		out, err := wait()
		if err != nil {
			t.Fatal(err)
		}
		wantJSON(t, out, `{"item":"post-1","approval":"auto"}`)
	})
	t.Run("unknown token and invalid output", func(t *testing.T) {
		tt := workflow.NewTaskTokens()
		if err := tt.SendTaskFailure("nope", "E", "c"); !errors.Is(err, workflow.ErrTaskDoesNotExist) {
			t.Errorf("unknown token: %v", err)
		}
		if err := tt.SendTaskSuccess("nope", json.RawMessage(`{`)); err == nil {
			t.Error("invalid output accepted")
		}
	})
	t.Run("timeout while waiting", func(t *testing.T) {
		t.Parallel()
		tt := workflow.NewTaskTokens()
		short := mustLoad(t, `{"StartAt":"A","States":{"A":{"Type":"Task","Resource":"x.waitForTaskToken","Parameters":{"Token.$":"$$.Task.Token"},"TimeoutSeconds":1,"End":true}}}`)
		_, err := short.Execute(context.Background(), "t", json.RawMessage(`{}`), echo, workflow.WithTaskTokens(tt))
		var ee *workflow.ExecutionError
		if !errors.As(err, &ee) || ee.Name != workflow.ErrorTimeout {
			t.Errorf("err %v, want States.Timeout", err)
		}
		if len(tt.Waiting()) != 0 {
			t.Errorf("a timed-out token is still waiting")
		}
	})
	t.Run("without TaskTokens", func(t *testing.T) {
		_, err := m.Execute(context.Background(), "approval", json.RawMessage(`{"item":"x"}`), echo)
		var ee *workflow.ExecutionError
		if !errors.As(err, &ee) || ee.Name != workflow.ErrorRuntime {
			t.Errorf("err %v, want States.Runtime", err)
		}
	})
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// A task's resource sees the task's TimeoutSeconds as its context's
// deadline, as a Lambda handler sees its function's timeout, so that a
// step keeping its own time (runs.RunPlatforms) ends before the task
// times out; a task without a timeout gives none.
func TestTaskResourceSeesItsTimeoutAsDeadline(t *testing.T) {
	for _, tc := range []struct {
		name    string
		timeout string
		want    time.Duration // 0: no deadline
	}{
		{"with TimeoutSeconds", `"TimeoutSeconds": 890,`, 890 * time.Second},
		{"without", ``, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			def := `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r",` + tc.timeout + `"End":true}}}`
			m, err := workflow.Load([]byte(def), nil)
			if err != nil {
				t.Fatal(err)
			}
			var left time.Duration
			inv := workflow.InvokerFunc(func(ctx context.Context, _ string, in json.RawMessage) (json.RawMessage, error) {
				if dl, ok := ctx.Deadline(); ok {
					left = time.Until(dl)
				}
				return in, nil
			})
			if _, err := m.Execute(context.Background(), "deadline", json.RawMessage(`{}`), inv); err != nil {
				t.Fatal(err)
			}
			if tc.want == 0 && left != 0 || tc.want != 0 && (left > tc.want || left < tc.want-time.Minute) {
				t.Errorf("the resource had %s left, want about %s", left, tc.want)
			}
		})
	}
}
