package runs

import (
	"context"
	"time"

	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/providers"
)

// The item retry policy of RunPlatforms on TransientProviderError
// (TransientRetry; until the Map was replaced, the RunPlatform task's ASL
// Retry, whose figures it keeps), which a run's deadline derives from.
const (
	// platformRetries, platformRetryInterval, platformRetryBackoff and
	// platformRetryMaxDelay: retries, first wait, its growth, the longest
	// wait (full jitter waits at most these).
	platformRetries       = 3
	platformRetryInterval = 2 * time.Second
	platformRetryBackoff  = 2
	platformRetryMaxDelay = 30 * time.Second
)

// Deadline is the longest a healthy run of j can take once started, from
// the per-platform call timeouts (providers.Timeouts; a platform missing
// from timeouts has its default) and RunPlatforms' retry policy — the
// derivation documented at providers.Timeouts: one (platform, sample) item
// takes at most
//
//	timeout × (1 + R) + Σ_{k<R} min(I·B^k, D) + R × min(Retry-After, 20 s)
//
// (R = 3 retries from I = 2 s, backoff B = 2, capped at D = 30 s; the last
// term is the step's own wait on a rate limit), the slowest of the job's
// platforms sets the item, and RunPlatforms asks up to itemConcurrency
// items at once (every item of the largest run), in ⌈items / 25⌉ rounds;
// the step ends within its task's timeout (PlatformsTaskTimeout) whatever
// that sum. steps is what the workflow's other states can take
// (MarkRunning and Settle with every retry: workflow.Machine.MaxDuration
// of the definition without RunPlatforms), added once. Five platforms,
// default timeouts: 240 s × 4 + 14 s + 60 s = 1,034 s, over the step's
// 890 s, so 890 s plus steps.
func Deadline(j jobs.Job, timeouts map[string]time.Duration, steps time.Duration) time.Duration {
	var slowest time.Duration
	for _, p := range j.Platforms {
		t, ok := timeouts[p]
		if !ok {
			t = providers.DefaultTimeout(p)
		}
		slowest = max(slowest, t)
	}
	item := slowest*(1+platformRetries) + platformRetries*maxRetryAfterWait
	for k, wait := 0, platformRetryInterval; k < platformRetries; k, wait = k+1, wait*platformRetryBackoff {
		item += min(wait, platformRetryMaxDelay)
	}
	items := max(len(j.Platforms)*max(j.Samples, 1), 1)
	rounds := (items + itemConcurrency - 1) / itemConcurrency
	return min(time.Duration(rounds)*item, PlatformsTaskTimeout) + steps
}

// Kind is how the jobs sweep treats query runs: their deadline from
// timeouts and steps (see Deadline), and Settle told the failure, which settles the run from the
// answers it recorded (partial or failed) and releases the rest of the
// hold.
func (s *Service) Kind(timeouts map[string]time.Duration, steps time.Duration) jobs.Kind {
	return jobs.Kind{
		Deadline: func(j jobs.Job) time.Duration { return Deadline(j, timeouts, steps) },
		Settle: func(ctx context.Context, j jobs.Job, f jobs.Failure) error {
			_, err := s.Settle(ctx, SettleInput{JobID: j.ID, TenantID: j.TenantID, Failure: &StateError{Error: f.Error, Cause: f.Cause}})
			return err
		},
	}
}
