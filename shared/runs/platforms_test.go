package runs_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/store/storetest"
)

// behaving is a provider whose answers a test scripts per call: answer is
// called with the call's number for its sample (from 1).
type behaving struct {
	platform string
	answer   func(ctx context.Context, r providers.Request, n int) (providers.Answer, error)
	sampleCalls
}

func (b *behaving) Platform() string { return b.platform }

func (b *behaving) Answer(ctx context.Context, r providers.Request) (providers.Answer, error) {
	return b.answer(ctx, r, b.next(r.Sample))
}

func answers(_ context.Context, r providers.Request, _ int) (providers.Answer, error) {
	return providers.Answer{Platform: r.Platform, Text: "Acme Notes is a strong choice (acmenotes.com).", Model: "m-1"}, nil
}

func transient(r providers.Request) error {
	return &providers.Error{Platform: r.Platform, Kind: providers.KindTransient, Status: 503, Message: "overloaded"}
}

func permanent(r providers.Request) error {
	return &providers.Error{Platform: r.Platform, Kind: providers.KindQuota, Status: 429, Code: "insufficient_quota", Message: "out of credit"}
}

// hangs answers when its context ends, with the context's error.
func hangs(ctx context.Context, r providers.Request, _ int) (providers.Answer, error) {
	<-ctx.Done()
	return providers.Answer{}, &providers.Error{Platform: r.Platform, Kind: providers.KindTransient, Message: "timed out"}
}

// failingTx fails the next fail transactions as an unavailable table would.
type failingTx struct {
	store.Table
	fail atomic.Int32
}

func (f *failingTx) TransactWrite(ctx context.Context, ops ...store.Op) error {
	if f.fail.Add(-1) >= 0 {
		return errors.New("ProvisionedThroughputExceededException: the table is busy")
	}
	return f.Table.TransactWrite(ctx, ops...)
}

// startedRun starts a run of the seeded query (chatgpt and perplexity)
// with samples and marks it running; it returns the job and its items.
func startedRun(t testing.TB, e *env, samples int) (jobs.Job, []runs.Item) {
	t.Helper()
	ctx := context.Background()
	r := e.req("", "")
	r.Samples = samples
	a, err := e.svc.Runs.Start(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	m, err := e.svc.Runs.MarkRunning(ctx, runs.StepInput{JobID: a.Job.ID, TenantID: 1})
	if err != nil {
		t.Fatal(err)
	}
	return a.Job, m.Items
}

func byItem(outs []runs.PlatformOutput) map[string]runs.PlatformOutput {
	m := map[string]runs.PlatformOutput{}
	for _, o := range outs {
		m[fmt.Sprintf("%s/%d", o.Platform, o.Sample)] = o
	}
	return m
}

// Each item retries by its own policy inside the step: transient platform
// errors up to 3 times, store unavailability up to 2, a permanent failure
// never; a failed item is the {status: failed, error} result the Map's
// PlatformFailed state made.
func TestRunPlatformsRetriesEachItem(t *testing.T) {
	cases := []struct {
		name      string
		answer    func(ctx context.Context, r providers.Request, n int) (providers.Answer, error)
		storeFail int32
		calls     int
		wantErr   string // "" : succeeded
	}{
		{"transient twice, then answers", func(ctx context.Context, r providers.Request, n int) (providers.Answer, error) {
			if n <= 2 {
				return providers.Answer{}, transient(r)
			}
			return answers(ctx, r, n)
		}, 0, 3, ""},
		{"transient on every attempt: 1 + 3 retries", func(_ context.Context, r providers.Request, _ int) (providers.Answer, error) {
			return providers.Answer{}, transient(r)
		}, 0, 4, "TransientProviderError"},
		{"permanent failure: no retry", func(_ context.Context, r providers.Request, _ int) (providers.Answer, error) {
			return providers.Answer{}, permanent(r)
		}, 0, 1, "ProviderFailedError"},
		{"store unavailable twice, then recorded", answers, 2, 3, ""},
		{"store unavailable on every attempt: 1 + 2 retries", answers, 3, 3, "StoreUnavailableError"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				clock := storetest.NewClock(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC))
				tbl := &failingTx{Table: embedded.NewMemory(embedded.WithClock(clock.Now))}
				e := newEnv(t, tbl, clock, nil)
				p := &behaving{platform: "chatgpt", answer: tc.answer}
				e.provs["chatgpt"] = p
				e.provs["perplexity"] = &behaving{platform: "perplexity", answer: answers}
				_, items := startedRun(t, e, 1)
				tbl.fail.Store(tc.storeFail)
				outs, err := e.svc.Runs.RunPlatforms(context.Background(), runs.PlatformsInput{Items: items[:1]})
				if err != nil {
					t.Fatal(err)
				}
				if len(outs) != 1 || outs[0].Platform != "chatgpt" || outs[0].Sample != 0 {
					t.Fatalf("outputs %+v", outs)
				}
				o := outs[0]
				switch {
				case tc.wantErr == "" && (o.Status != jobs.StatusSucceeded || o.Error != nil || o.VisibilityResultID == 0):
					t.Errorf("output %+v, want succeeded", o)
				case tc.wantErr != "" && (o.Status != jobs.StatusFailed || o.Error == nil || o.Error.Error != tc.wantErr ||
					!strings.Contains(o.Error.Cause, `"errorType":"`+tc.wantErr+`"`)):
					t.Errorf("output %+v (error %+v), want failed with %s", o, o.Error, tc.wantErr)
				}
				if got := p.count(0); got != tc.calls {
					t.Errorf("%d provider calls, want %d", got, tc.calls)
				}
			})
		})
	}
}

// The waits between an item's attempts follow the ASL policy it replaced:
// full jitter under 2 s, 4 s, 8 s (capped at 30 s) — never longer.
func TestRunPlatformsBackoffWaits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newClockEnvScaled(t, 1)
		var at []time.Time
		var mu sync.Mutex
		e.provs["chatgpt"] = &behaving{platform: "chatgpt", answer: func(_ context.Context, r providers.Request, _ int) (providers.Answer, error) {
			mu.Lock()
			at = append(at, time.Now())
			mu.Unlock()
			return providers.Answer{}, transient(r)
		}}
		_, items := startedRun(t, e, 1)
		if _, err := e.svc.Runs.RunPlatforms(context.Background(), runs.PlatformsInput{Items: items[:1]}); err != nil {
			t.Fatal(err)
		}
		if len(at) != 4 {
			t.Fatalf("%d attempts", len(at))
		}
		for k, limit := range []time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second} {
			if wait := at[k+1].Sub(at[k]); wait < 0 || wait > limit {
				t.Errorf("wait before retry %d: %s, over %s", k+1, wait, limit)
			}
		}
		for k := range 8 {
			if got, want := runs.TransientRetry.Cap(k), min(2*time.Second<<k, 30*time.Second); got != want {
				t.Errorf("cap of retry %d: %s, want %s", k, got, want)
			}
		}
	})
}

// One platform fails for good, the other transiently before answering:
// the run is partial and charges only the samples that answered.
func TestRunPartialWithPermanentAndTransientFailures(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		x := newExecEnv(t, e, map[string]string{"chatgpt": "fail", "perplexity": "flaky"})
		before := e.balance(t)
		j := x.run(t, 2)
		if j.Status != jobs.StatusPartial || j.CreditsCharged != 2 {
			t.Fatalf("job %s, %d credits charged", j.Status, j.CreditsCharged)
		}
		if st := j.PerPlatformStatus["chatgpt"]; st.Status != jobs.StatusFailed || st.Cost != 0 || st.Error == nil ||
			!strings.HasPrefix(*st.Error, "ProviderFailedError: ") {
			t.Errorf("chatgpt %+v", st)
		}
		if st := j.PerPlatformStatus["perplexity"]; st.Status != jobs.StatusSucceeded || st.Cost != 2 || st.Error != nil {
			t.Errorf("perplexity %+v", st)
		}
		for sample := range 2 {
			if n := e.provs["chatgpt"].(*scripted).count(sample); n != 1 {
				t.Errorf("chatgpt sample %d asked %d times, want once", sample, n)
			}
			if n := e.provs["perplexity"].(*scripted).count(sample); n != 3 {
				t.Errorf("perplexity sample %d asked %d times, want 3", sample, n)
			}
		}
		after := e.balance(t)
		if after.Held != 0 || after.Captured-before.Captured != 2 || before.Available-after.Available != 2 {
			t.Errorf("ledger before %+v, after %+v", before, after)
		}
	})
}

// A step that died midway (its context ended with some answers recorded)
// is run again: the items with a result marker are not asked again, the
// others are, and the run settles with every answer charged once.
func TestRetriedRunPlatformsAsksOnlyUnrecordedItems(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newClockEnv(t)
		var perplexityHangs atomic.Bool
		perplexityHangs.Store(true)
		chatgpt := &behaving{platform: "chatgpt", answer: answers}
		perplexity := &behaving{platform: "perplexity", answer: func(ctx context.Context, r providers.Request, n int) (providers.Answer, error) {
			if perplexityHangs.Load() {
				return hangs(ctx, r, n)
			}
			return answers(ctx, r, n)
		}}
		e.provs["chatgpt"], e.provs["perplexity"] = chatgpt, perplexity
		j, items := startedRun(t, e, 3)

		crash, die := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := e.svc.Runs.RunPlatforms(crash, runs.PlatformsInput{Items: items})
			done <- err
		}()
		synctest.Wait() // chatgpt's three answers recorded, perplexity's calls waiting
		die()
		if err := <-done; err == nil {
			t.Fatal("a step whose context ended returned results")
		}

		perplexityHangs.Store(false)
		outs, err := e.svc.Runs.RunPlatforms(context.Background(), runs.PlatformsInput{Items: items})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range outs {
			if o.Status != jobs.StatusSucceeded {
				t.Errorf("%s/%d: %+v", o.Platform, o.Sample, o)
			}
		}
		for sample := range 3 {
			if n := chatgpt.count(sample); n != 1 {
				t.Errorf("chatgpt sample %d asked %d times, want once (its marker was recorded)", sample, n)
			}
			if n := perplexity.count(sample); n != 2 {
				t.Errorf("perplexity sample %d asked %d times, want 2 (cut off, then asked again)", sample, n)
			}
		}
		s, err := e.svc.Runs.Settle(context.Background(), runs.SettleInput{JobID: j.ID, TenantID: 1, Results: outs})
		if err != nil || s.Status != jobs.StatusSucceeded || s.CreditsCharged != 6 {
			t.Fatalf("settle %+v, %v", s, err)
		}
		if b := e.balance(t); b.Held != 0 {
			t.Errorf("balance %+v", b)
		}
	})
}

// A step running out of time returns before its task would time out: the
// items that answered are results, a call still running when the step's
// time to ask ends is cut off (States.Timeout), and a retry whose call
// could not end in time is not started (the item keeps its error).
func TestRunPlatformsOutOfTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newClockEnv(t)
		chatgpt := &behaving{platform: "chatgpt", answer: func(ctx context.Context, r providers.Request, n int) (providers.Answer, error) {
			if r.Sample == 1 {
				return hangs(ctx, r, n)
			}
			return answers(ctx, r, n)
		}}
		// perplexity's calls take 120 s each and fail transiently; its
		// call timeout is 180 s (providers.TimeoutPerplexity).
		perplexity := &behaving{platform: "perplexity", answer: func(ctx context.Context, r providers.Request, _ int) (providers.Answer, error) {
			time.Sleep(120 * time.Second)
			return providers.Answer{}, transient(r)
		}}
		e.provs["chatgpt"], e.provs["perplexity"] = chatgpt, perplexity
		_, items := startedRun(t, e, 2)

		// 400 s for the step (the task's timeout): it asks for 360 s. Perplexity's
		// first calls end at 120 s, the retries (after at most 2 s) at 242 s;
		// a third call would need 180 s, and at most 118 s are left.
		const taskTimeout = 400 * time.Second
		ctx, cancel := context.WithTimeout(context.Background(), taskTimeout)
		defer cancel()
		start := time.Now()
		outs, err := e.svc.Runs.RunPlatforms(ctx, runs.PlatformsInput{Items: items})
		if err != nil {
			t.Fatal(err)
		}
		if took := time.Since(start); took >= taskTimeout-30*time.Second {
			t.Errorf("the step took %s of its %s", took, taskTimeout)
		}
		got := byItem(outs)
		if len(outs) != 4 {
			t.Fatalf("outputs %+v", outs)
		}
		if o := got["chatgpt/0"]; o.Status != jobs.StatusSucceeded {
			t.Errorf("chatgpt/0 %+v", o)
		}
		if o := got["chatgpt/1"]; o.Status != jobs.StatusFailed || o.Error == nil || o.Error.Error != runs.ErrOutOfTime {
			t.Errorf("chatgpt/1 %+v (error %+v), want failed with %s", o, o.Error, runs.ErrOutOfTime)
		}
		for _, k := range []string{"perplexity/0", "perplexity/1"} {
			if o := got[k]; o.Status != jobs.StatusFailed || o.Error == nil || o.Error.Error != "TransientProviderError" {
				t.Errorf("%s %+v (error %+v), want failed with TransientProviderError", k, o, o.Error)
			}
		}
		for sample := range 2 {
			if n := perplexity.count(sample); n != 2 {
				t.Errorf("perplexity sample %d asked %d times, want 2", sample, n)
			}
		}
	})
}

// newClockEnvScaled is newClockEnv with the platform step's retry waits
// multiplied by scale.
func newClockEnvScaled(t testing.TB, scale float64) *env {
	clock := storetest.NewClock(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC))
	return newEnvScaled(t, embedded.NewMemory(embedded.WithClock(clock.Now)), clock, scale)
}
