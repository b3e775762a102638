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

// platformsTaskTimeout reads the RunPlatforms task's TimeoutSeconds.
func platformsTaskTimeout(t *testing.T) time.Duration {
	t.Helper()
	var def struct {
		States map[string]struct {
			Type           string
			Resource       string
			TimeoutSeconds int
		}
	}
	if err := json.Unmarshal(statemachines.QueryExecution, &def); err != nil {
		t.Fatal(err)
	}
	st, ok := def.States[runs.PlatformsState]
	if !ok || st.Type != "Task" || st.Resource != "${StepRunPlatformsArn}" {
		t.Fatalf("state %s: %+v", runs.PlatformsState, st)
	}
	return time.Duration(st.TimeoutSeconds) * time.Second
}

// The deadline follows providers.Timeouts' derivation with the retry
// policy RunPlatforms applies, capped by the step's task timeout.
func TestDeadlineDerivesFromTimeoutsAndRetryPolicy(t *testing.T) {
	if got := platformsTaskTimeout(t); got != runs.PlatformsTaskTimeout {
		t.Fatalf("the ASL's RunPlatforms TimeoutSeconds is %s, runs.PlatformsTaskTimeout %s", got, runs.PlatformsTaskTimeout)
	}
	p := runs.TransientRetry
	// The figures of the ASL retrier this policy replaced.
	if p.Retries != 3 || p.Interval != 2*time.Second || p.Rate != 2 || p.MaxDelay != 30*time.Second {
		t.Fatalf("transient policy %+v", p)
	}
	item := func(timeout time.Duration) time.Duration {
		d := timeout*time.Duration(1+p.Retries) + time.Duration(p.Retries)*20*time.Second
		wait := p.Interval
		for range p.Retries {
			d += min(wait, p.MaxDelay)
			wait = time.Duration(float64(wait) * p.Rate)
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
		{"the slowest platform sets the item, capped by the step's timeout", platforms.All, 1, defaults, runs.PlatformsTaskTimeout + steps},
		{"25 items at once, not in rounds", platforms.All, 5, defaults, runs.PlatformsTaskTimeout + steps},
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
	// The documented figures (README, Deadline's comment): an item of the
	// slowest platform would take 1,034 s, the step ends by 890 s.
	if got := item(240 * time.Second); got != 1034*time.Second {
		t.Errorf("an item of 240 s calls: %s", got)
	}
	if got := runs.Deadline(jobs.Job{Platforms: platforms.All, Samples: 1}, defaults, 0); got != 890*time.Second {
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
