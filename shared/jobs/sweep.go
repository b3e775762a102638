package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/brandlens/brandlens/shared/tenants"
)

// RequeueAfter is how long a job may stay queued before the sweep sends
// its start message again (a lost enqueue, a lost in-memory queue; starting
// a job's workflow is idempotent by job id).
const RequeueAfter = 5 * time.Minute

// ErrorDeadlineExceeded names the failure a job is settled with when the
// sweep finds it past its deadline.
const ErrorDeadlineExceeded = "DeadlineExceeded"

// Failure is why a job ended without its workflow's own settle: the
// {Error, Cause} pair a failed workflow execution reports.
type Failure struct {
	Error string `json:"Error"`
	Cause string `json:"Cause"`
}

// Kind is how the sweep treats the jobs of one type. Every type that can
// be created has one (the assembly checks it), so a new type is swept by
// construction.
type Kind struct {
	// Deadline is the longest a healthy job can take, counted from its
	// start (from its creation while it is still queued); past it the
	// job's workflow cannot be running any more. 0: the job is never
	// reaped (it waits for a human).
	Deadline func(Job) time.Duration
	// Settle ends an unfinished job from what it recorded — the type's own
	// settle step, told the failure — capturing the credits of the work
	// that took effect and releasing the rest of the hold, with the usual
	// events. It must be conditional on the job not being settled yet, so
	// that it cannot race the workflow's own settle into a second charge.
	Settle func(ctx context.Context, j Job, f Failure) error
}

// Sender puts a message on the jobs queue (queue.Sender).
type Sender interface {
	Send(ctx context.Context, body []byte, delay time.Duration) error
}

// StartMessage is the jobs-queue message that starts j's workflow: the
// dispatcher picks the state machine by type.
func StartMessage(j Job) []byte {
	b, _ := json.Marshal(struct {
		JobID    string `json:"jobId"`
		TenantID int32  `json:"tenantId"`
		Type     string `json:"type"`
	}{j.ID, j.TenantID, j.Type})
	return b
}

// Sweeper finds the jobs that nothing will finish: those queued whose
// start message was lost (sent again), those past their deadline (settled
// from what they recorded), and — when a process that ran the workflows in
// memory starts again — every job that was in flight (started again from
// the beginning; every step is idempotent, so the work already recorded
// is not done twice).
type Sweeper struct {
	repo    *Repo
	tenants *tenants.Repo
	kinds   map[string]Kind
	jobs    Sender
	now     func() time.Time
	log     *slog.Logger
}

// NewSweeper returns the sweeper of the jobs in repo (the tenants of
// tenantRepo), treating each type as kinds says and sending start messages
// to jobsQueue.
func NewSweeper(repo *Repo, tenantRepo *tenants.Repo, kinds map[string]Kind, jobsQueue Sender, now func() time.Time, log *slog.Logger) (*Sweeper, error) {
	if repo == nil || tenantRepo == nil || jobsQueue == nil || len(kinds) == 0 {
		return nil, errors.New("jobs: NewSweeper needs the jobs and tenants, the kinds and the jobs queue")
	}
	for typ, k := range kinds {
		if k.Deadline == nil || k.Settle == nil {
			return nil, fmt.Errorf("jobs: kind %s needs a deadline and a settle", typ)
		}
	}
	if now == nil {
		now = time.Now
	}
	if log == nil {
		log = slog.Default()
	}
	return &Sweeper{repo: repo, tenants: tenantRepo, kinds: kinds, jobs: jobsQueue, now: now, log: log}, nil
}

// SweepReport tells what one sweep did.
type SweepReport struct {
	// Unfinished jobs seen; of them, Reaped were settled past their
	// deadline, Requeued got their start message again, Redriven were
	// started again after a restart, and Skipped have no kind (never
	// reaped, such as publishing waiting for an approval).
	Unfinished int `json:"unfinished"`
	Reaped     int `json:"reaped"`
	Requeued   int `json:"requeued"`
	Redriven   int `json:"redriven"`
	Skipped    int `json:"skipped"`
	// Failed counts jobs whose settle or send failed (logged; the next
	// sweep tries again).
	Failed int `json:"failed"`
}

// Sweep walks every unfinished job. redrive is set by a runtime that keeps
// its workflows in memory, once, when it starts: every unfinished job not
// past its deadline is started again.
func (s *Sweeper) Sweep(ctx context.Context, redrive bool) (SweepReport, error) {
	var rep SweepReport
	if n, err := s.repo.IndexUnfinished(ctx, s.tenants.IDs); err != nil {
		return rep, err
	} else if n > 0 {
		s.log.Info("jobs: unfinished jobs stored before the index were added to it", "jobs", n)
	}
	now := s.now()
	err := s.repo.EachUnfinished(ctx, func(j Job) error {
		rep.Unfinished++
		k, ok := s.kinds[j.Type]
		if !ok || j.Held() {
			// No kind, or held back until a human reviews it: the review
			// starts it (or fails it), never the sweep.
			rep.Skipped++
			return nil
		}
		since := j.CreatedAt
		if j.Status == StatusRunning && j.StartedAt != nil {
			since = *j.StartedAt
		}
		elapsed := now.Sub(since)
		if d := k.Deadline(j); d > 0 && elapsed > d {
			f := Failure{Error: ErrorDeadlineExceeded, Cause: fmt.Sprintf("the job was %s for %s, past its deadline of %s; "+
				"it was settled from what it had recorded", j.Status, elapsed.Round(time.Second), d)}
			if err := k.Settle(ctx, j, f); err != nil {
				rep.Failed++
				s.log.Error("jobs: settle a job past its deadline", "job_id", j.ID, "tenant_id", j.TenantID, "error", err.Error())
				return nil
			}
			rep.Reaped++
			s.log.Warn("jobs: job settled past its deadline", "job_id", j.ID, "tenant_id", j.TenantID, "type", j.Type,
				"status", j.Status, "elapsed", elapsed.Round(time.Second).String(), "deadline", d.String())
			return nil
		}
		switch {
		case redrive:
			rep.Redriven++
		case j.Status == StatusQueued && now.Sub(j.CreatedAt) > RequeueAfter:
			rep.Requeued++
		default:
			return nil
		}
		if err := s.jobs.Send(ctx, StartMessage(j), 0); err != nil {
			rep.Failed++
			s.log.Error("jobs: send a start message", "job_id", j.ID, "tenant_id", j.TenantID, "error", err.Error())
		}
		return nil
	})
	return rep, err
}

// Deadline is j's deadline as the sweep applies it; ok is false for a type
// the sweep leaves alone.
func (s *Sweeper) Deadline(j Job) (d time.Duration, ok bool) {
	k, ok := s.kinds[j.Type]
	if !ok {
		return 0, false
	}
	return k.Deadline(j), true
}

// SettleFailed ends a job whose workflow execution failed, timed out or
// was aborted (the Step Functions status change EventBridge reports, or a
// failed local execution), as its kind settles it; a job already settled
// is left as it is.
func (s *Sweeper) SettleFailed(ctx context.Context, tenantID int32, jobID string, f Failure) (Job, error) {
	j, err := s.repo.Get(ctx, tenantID, jobID)
	if err != nil {
		return Job{}, err
	}
	if Terminal(j.Status) {
		return j, nil
	}
	k, ok := s.kinds[j.Type]
	if !ok {
		return j, fmt.Errorf("jobs: no settle for jobs of type %q", j.Type)
	}
	if err := k.Settle(ctx, j, f); err != nil {
		return j, err
	}
	return s.repo.Get(ctx, tenantID, jobID)
}
