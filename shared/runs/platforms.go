package runs

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/workflow"
)

// PlatformsInput is the RunPlatforms task's input: MarkRunning's items.
type PlatformsInput struct {
	Items []Item `json:"items"`
}

// Backoff is a retry policy of one item inside RunPlatforms, in the ASL
// retrier's terms: up to Retries more attempts, the k-th after a wait
// drawn uniformly from [0, min(Interval·Rate^k, MaxDelay)] (full jitter).
type Backoff struct {
	Retries  int
	Interval time.Duration
	Rate     float64
	MaxDelay time.Duration
}

// Cap is the longest wait before retry k (0-based).
func (b Backoff) Cap(k int) time.Duration {
	d := float64(b.Interval)
	for range k {
		d *= b.Rate
	}
	return min(time.Duration(d), b.MaxDelay)
}

// The item policies: the figures the query-execution ASL had on its Map's
// RunPlatform task, kept when the retries moved into Go (a test compares
// them with Deadline's).
var (
	// TransientRetry: rate limits, overload and timeouts of a platform.
	TransientRetry = Backoff{Retries: platformRetries, Interval: platformRetryInterval, Rate: platformRetryBackoff, MaxDelay: platformRetryMaxDelay}
	// StoreRetry: the store failed in a way worth retrying.
	StoreRetry = Backoff{Retries: 2, Interval: time.Second, Rate: 2, MaxDelay: 10 * time.Second}
)

// itemConcurrency bounds the items one RunPlatforms invocation asks at
// once: the largest run (5 platforms × MaxSamples) asks all of them at
// once, so the step waits for its slowest answer, not for rounds.
const itemConcurrency = 25

// stepReserve is the end of the step's time that asks no platform: the
// RunPlatforms task times out up to 10 s before its Lambda's deadline
// (890 s against 900 s), an answer's adjudication takes up to 10 s, and
// recording it and returning the results get the remaining 20 s.
const stepReserve = 40 * time.Second

// PlatformsState is the query-execution state that runs RunPlatforms.
const PlatformsState = "RunPlatforms"

// PlatformsTaskTimeout is the RunPlatforms task's TimeoutSeconds in
// statemachines/query-execution.asl.json (a test keeps them equal): a run's
// platform step never takes longer (Deadline).
const PlatformsTaskTimeout = 890 * time.Second

// ErrOutOfTime names an item the step had no time left to finish (the
// Error of its {Error, Cause}, as the Map's task timeout was).
const ErrOutOfTime = workflow.ErrorTimeout

// RunPlatforms asks every item of a run at once (at most itemConcurrency
// at a time), each through RunPlatform and so guarded by its result
// marker: a retried step asks again only the items that have none. It
// retries an item's TransientProviderError and StoreUnavailableError by
// TransientRetry and StoreRetry, and returns one output per item in the
// items' order; an item that failed for good is {platform, sample, status:
// failed, error: {Error, Cause}}, as the Map's PlatformFailed state made
// it, so Settle reads the same results. With a deadline on ctx (Lambda's,
// or the local runner's task timeout), the step starts no call that could
// not end stepReserve before it: an item whose retry would not fit fails
// with its last error, and a call still running then is cut off and fails
// with States.Timeout. When ctx itself ends first the step returns its
// error (the runtime is stopping; the job is started again).
func (s *Service) RunPlatforms(ctx context.Context, in PlatformsInput) ([]PlatformOutput, error) {
	askCtx, cancel := ctx, context.CancelFunc(func() {})
	if dl, ok := ctx.Deadline(); ok {
		askCtx, cancel = context.WithDeadline(ctx, dl.Add(-stepReserve))
	}
	defer cancel()
	out := make([]PlatformOutput, len(in.Items))
	var g errgroup.Group
	g.SetLimit(itemConcurrency)
	for i, it := range in.Items {
		g.Go(func() error {
			out[i] = s.runItem(ctx, askCtx, it)
			return nil
		})
	}
	_ = g.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("runs: the platform step stopped: %w", err)
	}
	return out, nil
}

// runItem runs one item to its output, retrying what its policies allow.
func (s *Service) runItem(ctx, askCtx context.Context, it Item) PlatformOutput {
	var transient, store int
	for {
		o, err := s.runPlatform(ctx, askCtx, it)
		if err == nil {
			return o
		}
		if askCtx.Err() != nil && ctx.Err() == nil {
			return failedItem(it, ErrOutOfTime, outOfTime(it))
		}
		var policy Backoff
		var k *int
		var te *TransientProviderError
		var se *StoreUnavailableError
		switch {
		case ctx.Err() != nil:
			return failedItem(it, workflow.ErrorName(err), workflow.ErrorCause(err))
		case errors.As(err, &te):
			policy, k = TransientRetry, &transient
		case errors.As(err, &se):
			policy, k = StoreRetry, &store
		default:
			return failedItem(it, workflow.ErrorName(err), workflow.ErrorCause(err))
		}
		if *k >= policy.Retries {
			return failedItem(it, workflow.ErrorName(err), workflow.ErrorCause(err))
		}
		wait := s.jitter(time.Duration(float64(policy.Cap(*k)) * s.retryScale()))
		*k++
		if !s.fits(askCtx, it.Platform, wait) {
			// Another whole call would not end in time: the item keeps
			// the error it has rather than pay for an answer cut off.
			s.Logger.Warn("platform item not retried: no time left for another call", "job_id", it.JobID,
				"platform", it.Platform, "sample", it.Sample, "error", err.Error())
			return failedItem(it, workflow.ErrorName(err), workflow.ErrorCause(err))
		}
		if serr := sleep(askCtx, wait); serr != nil {
			if ctx.Err() == nil {
				return failedItem(it, ErrOutOfTime, outOfTime(it))
			}
			return failedItem(it, workflow.ErrorName(err), workflow.ErrorCause(err))
		}
	}
}

// fits reports whether a call to platform, after wait, ends before
// askCtx's deadline (always, without one).
func (s *Service) fits(askCtx context.Context, platform string, wait time.Duration) bool {
	dl, ok := askCtx.Deadline()
	if !ok {
		return true
	}
	return time.Until(dl) >= wait+s.callTimeout(platform)
}

// callTimeout is the platform's per-call timeout (providers.Timeouts).
func (s *Service) callTimeout(platform string) time.Duration {
	if t, ok := s.Timeouts[platform]; ok {
		return t
	}
	return providers.DefaultTimeout(platform)
}

func (s *Service) retryScale() float64 {
	if s.RetryScale > 0 {
		return s.RetryScale
	}
	return 1
}

// jitter is a full-jitter wait in [0, d].
func (s *Service) jitter(d time.Duration) time.Duration { return s.Jitter(d) }

// fullJitter is uniform in [0, d].
func fullJitter(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return rand.N(d + 1)
}

func outOfTime(it Item) string {
	return fmt.Sprintf("the platform step ran out of time before %s answered sample %d", it.Platform, it.Sample)
}

func failedItem(it Item, name, cause string) PlatformOutput {
	return PlatformOutput{Platform: it.Platform, Sample: it.Sample, Status: jobs.StatusFailed, Error: &StateError{Error: name, Cause: cause}}
}

// sleep waits d unless ctx ends first.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
