package runs_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/statemachines"
)

// aslPolicy is what a run's deadline derives from in the query-execution
// definition.
type aslPolicy struct {
	retries, interval, backoff, maxDelay, concurrency int
}

func readPolicy(t *testing.T) aslPolicy {
	t.Helper()
	type task struct {
		TimeoutSeconds int
		Retry          []struct {
			ErrorEquals                                                []string
			IntervalSeconds, MaxAttempts, BackoffRate, MaxDelaySeconds int
		}
	}
	var def struct {
		States struct {
			RunPlatforms struct {
				MaxConcurrency int
				ItemProcessor  struct{ States struct{ RunPlatform task } }
			}
		}
	}
	if err := json.Unmarshal(statemachines.QueryExecution, &def); err != nil {
		t.Fatal(err)
	}
	p := aslPolicy{concurrency: def.States.RunPlatforms.MaxConcurrency}
	for _, r := range def.States.RunPlatforms.ItemProcessor.States.RunPlatform.Retry {
		if len(r.ErrorEquals) == 1 && r.ErrorEquals[0] == "TransientProviderError" {
			p.retries, p.interval, p.backoff, p.maxDelay = r.MaxAttempts, r.IntervalSeconds, r.BackoffRate, r.MaxDelaySeconds
		}
	}
	return p
}

// The deadline follows providers.Timeouts' derivation with the policy the
// definition actually has.
func TestDeadlineDerivesFromTimeoutsAndRetryPolicy(t *testing.T) {
	p := readPolicy(t)
	if p.retries == 0 || p.concurrency == 0 || p.maxDelay == 0 {
		t.Fatalf("policy %+v", p)
	}
	item := func(timeout time.Duration) time.Duration {
		d := timeout*time.Duration(1+p.retries) + time.Duration(p.retries)*20*time.Second
		wait := time.Duration(p.interval) * time.Second
		for range p.retries {
			d += min(wait, time.Duration(p.maxDelay)*time.Second)
			wait *= time.Duration(p.backoff)
		}
		return d
	}
	// The other steps' bound is the caller's (app: from the definition).
	const steps = 75 * time.Second
	defaults, err := providers.Timeouts(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name      string
		platforms []string
		samples   int
		timeouts  map[string]time.Duration
		want      time.Duration
	}{
		{"one fast platform", []string{platforms.GoogleAIOverview}, 1, defaults, item(90*time.Second) + steps},
		{"the slowest platform sets the item", platforms.All, 1, defaults, item(240*time.Second) + steps},
		{"25 items run in 3 rounds of 10", platforms.All, 5, defaults, 3*item(240*time.Second) + steps},
		{"overridden timeouts", []string{platforms.ChatGPT}, 2, map[string]time.Duration{platforms.ChatGPT: 5 * time.Second}, item(5*time.Second) + steps},
		{"a platform missing from the map has its default", []string{platforms.Gemini}, 1, nil, item(120*time.Second) + steps},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := runs.Deadline(jobs.Job{Platforms: tc.platforms, Samples: tc.samples}, tc.timeouts, steps)
			if got != tc.want {
				t.Fatalf("Deadline = %s, want %s", got, tc.want)
			}
		})
	}
	// The documented figure (README, Deadline's comment).
	if got := runs.Deadline(jobs.Job{Platforms: platforms.All, Samples: 1}, defaults, 0); got != 1034*time.Second {
		t.Errorf("five platforms, one sample: %s", got)
	}
}

// Past its deadline a run is settled from what it recorded: the answers
// that were recorded are charged (partial), the rest of the hold comes
// back, the usual events are appended, and a platform step that arrives
// late asks no platform.
func TestReapedRunSettlesFromWhatWasRecorded(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		x := newExecEnv(t, e, map[string]string{"chatgpt": "ok", "perplexity": "ok"})
		ctx := context.Background()
		r := x.req("", "")
		r.Samples = 2
		a, err := x.svc.Runs.Start(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := x.svc.Runs.MarkRunning(ctx, runs.StepInput{JobID: a.Job.ID, TenantID: 1}); err != nil {
			t.Fatal(err)
		}
		for _, it := range []runs.Item{{Platform: "chatgpt", Sample: 0}, {Platform: "chatgpt", Sample: 1}, {Platform: "perplexity", Sample: 0}} {
			it.JobID, it.TenantID = a.Job.ID, 1
			if _, err := x.svc.Runs.RunPlatform(ctx, it); err != nil {
				t.Fatal(err)
			}
		}
		j, err := x.svc.Jobs.Get(ctx, 1, a.Job.ID)
		if err != nil {
			t.Fatal(err)
		}
		k := x.svc.Runs.Kind(nil, 0)
		if err := k.Settle(ctx, j, jobs.Failure{Error: jobs.ErrorDeadlineExceeded, Cause: "past its deadline"}); err != nil {
			t.Fatal(err)
		}
		j, err = x.svc.Jobs.Get(ctx, 1, a.Job.ID)
		if err != nil {
			t.Fatal(err)
		}
		pp := j.PerPlatformStatus["perplexity"]
		if j.Status != jobs.StatusPartial || j.CreditsCharged != 3 || j.PerPlatformStatus["chatgpt"].Status != jobs.StatusSucceeded ||
			pp.Status != jobs.StatusPartial || pp.Error == nil || *pp.Error != "DeadlineExceeded: past its deadline" {
			t.Fatalf("reaped job %+v", j)
		}
		if b := x.balance(t); b.Held != 0 || b.Captured != 3 || b.Available != 37 {
			t.Fatalf("balance %+v", b)
		}
		if ev := x.events(t); ev[outbox.ExecutionCompleted] != 1 || ev[outbox.ExecutionFailed] != 0 {
			t.Fatalf("events %v", ev)
		}
		calls := x.provs["perplexity"].(*scripted).calls[1]
		_, err = x.svc.Runs.RunPlatform(ctx, runs.Item{JobID: a.Job.ID, TenantID: 1, Platform: "perplexity", Sample: 1})
		var pf *runs.ProviderFailedError
		if !errors.As(err, &pf) || x.provs["perplexity"].(*scripted).calls[1] != calls {
			t.Fatalf("a late step after the settle: %v (calls %d → %d)", err, calls, x.provs["perplexity"].(*scripted).calls[1])
		}

		// Nothing recorded: failed, nothing charged.
		b, err := x.svc.Runs.Start(ctx, x.req("", ""))
		if err != nil {
			t.Fatal(err)
		}
		if err := k.Settle(ctx, b.Job, jobs.Failure{Error: jobs.ErrorDeadlineExceeded, Cause: "never started"}); err != nil {
			t.Fatal(err)
		}
		j, err = x.svc.Jobs.Get(ctx, 1, b.Job.ID)
		if err != nil || j.Status != jobs.StatusFailed || j.CreditsCharged != 0 || j.Error == nil {
			t.Fatalf("queued job reaped: %+v %v", j, err)
		}
		if bal := x.balance(t); bal.Held != 0 || bal.Captured != 3 {
			t.Fatalf("balance %+v", bal)
		}
		if ev := x.events(t); ev[outbox.ExecutionFailed] != 1 {
			t.Fatalf("events %v", ev)
		}
	})
}
