package runs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/idempotency"
	"github.com/brandlens/brandlens/shared/queries"
	"github.com/brandlens/brandlens/shared/queue"
)

// Period names the schedule period that t falls in: the UTC hour, day or
// ISO week. One run per query per period is enqueued.
func Period(schedule string, t time.Time) string {
	t = t.UTC()
	switch schedule {
	case queries.ScheduleHourly:
		return t.Format("2006-01-02T15")
	case queries.ScheduleDaily:
		return t.Format("2006-01-02")
	case queries.ScheduleWeekly:
		y, w := t.ISOWeek()
		return fmt.Sprintf("%d-W%02d", y, w)
	}
	return ""
}

// NextPeriod is when the period after the one t falls in starts: the next
// UTC hour, day, or ISO week (Monday 00:00 UTC).
func NextPeriod(schedule string, t time.Time) time.Time {
	t = t.UTC()
	y, m, d := t.Date()
	switch schedule {
	case queries.ScheduleHourly:
		return t.Truncate(time.Hour).Add(time.Hour)
	case queries.ScheduleDaily:
		return time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC)
	case queries.ScheduleWeekly:
		sinceMonday := (int(t.Weekday()) + 6) % 7
		return time.Date(y, m, d-sinceMonday+7, 0, 0, 0, 0, time.UTC)
	}
	return t.Add(time.Hour)
}

// NextDue is when a query's next scheduled run falls due: at an offset
// into the next period that is fixed for the query (a hash of its tenant
// and id, to the minute), so it runs at the same time each period while the
// runs of all queries spread over the period rather than all falling due at
// its start — 00:00 UTC for every daily query, which would meet the AI
// platforms' rate limits and the workers at once.
func NextDue(schedule string, tenantID, queryID int32, now time.Time) time.Time {
	start := NextPeriod(schedule, now)
	minutes := uint64(NextPeriod(schedule, start).Sub(start) / time.Minute)
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%d", tenantID, queryID)
	return start.Add(time.Duration(h.Sum64()%minutes) * time.Minute)
}

// schedulerKeyID scopes the scheduler's idempotency keys apart from any
// API key's.
const schedulerKeyID = "scheduler"

// Scheduler bounds.
const (
	// DefaultScheduleWorkers is how many scheduled runs one pass (or, in
	// AWS, one shard's invocation) starts at once: each start is a few
	// sequential round trips (the period's idempotency record, the query,
	// the job's transaction, the queue), so 16 in flight keep a store
	// busy without queueing behind its connections (README "Scale model").
	DefaultScheduleWorkers = 16
	// DuePageSize is how many due queries one read of a shard returns; in
	// AWS one schedules-queue message starts one page's runs.
	DuePageSize = 200
	// RefusedRetry is how long a scheduled run refused for credits (the
	// balance or the daily ceiling) waits before the scheduler asks again
	// within its period, instead of asking at every pass.
	RefusedRetry = time.Hour
)

// ScheduleReport tells what one scheduler pass did.
type ScheduleReport struct {
	Started    int `json:"started"`
	AlreadyRun int `json:"alreadyRun"`
	Refused    int `json:"refused"`
	// Failed counts the due runs whose start failed on the store or the
	// queue: they stay due, for the next pass.
	Failed int `json:"failed"`
	// Indexed counts scheduled queries stored before the due index that
	// this pass added to it (once per table).
	Indexed int `json:"indexed,omitempty"`
}

func (r *ScheduleReport) add(o ScheduleReport) {
	r.Started += o.Started
	r.AlreadyRun += o.AlreadyRun
	r.Refused += o.Refused
	r.Failed += o.Failed
	r.Indexed += o.Indexed
}

// RunSchedules starts the due runs of every scheduled, active query of
// every tenant, idempotently per query per period (the period is the
// idempotency key), reading only the due ones (the due index,
// queries.DuePage): the index's shards are read concurrently and at most
// ScheduleWorkers runs are started at once. A run refused for credits,
// or whose start failed, never holds up the others. Jobs left queued, or
// past their deadline, are the jobs sweep's (jobs.Sweeper), which sees
// every job type. This is `brandlens serve`'s pass; in AWS the scheduler
// function sends one message per shard instead (FanOutSchedules) and
// worker-schedule starts each shard's runs (ScheduleShard).
func (s *Service) RunSchedules(ctx context.Context) (ScheduleReport, error) {
	var rep ScheduleReport
	var err error
	if rep.Indexed, err = s.Queries.IndexSchedules(ctx, s.Tenants.IDs); err != nil {
		return rep, err
	}
	now := s.Now()
	slots := make(chan struct{}, s.ScheduleWorkers)
	var mu sync.Mutex
	var g errgroup.Group
	for shard := range queries.DueShards {
		g.Go(func() error {
			cursor := ""
			for {
				r, next, err := s.startDuePage(ctx, shard, now, cursor, slots)
				mu.Lock()
				rep.add(r)
				mu.Unlock()
				if err != nil || next == "" {
					return err
				}
				cursor = next
			}
		})
	}
	return rep, g.Wait()
}

// ShardMessage is a schedules-queue message: start the due runs of one
// page of a shard of the due index, from Cursor ("": its first page).
type ShardMessage struct {
	Shard  int    `json:"shard"`
	Cursor string `json:"cursor,omitempty"`
}

// FanOutSchedules is the scheduler function's pass in AWS: it sends one
// message per shard of the due index to the schedules queue, whose
// consumer (ScheduleShard) starts the shard's due runs, so the shards'
// starts run in as many invocations at once (README "Scale model"). It
// returns how many messages it sent.
func (s *Service) FanOutSchedules(ctx context.Context, q queue.Sender) (ScheduleReport, int, error) {
	var rep ScheduleReport
	var err error
	if rep.Indexed, err = s.Queries.IndexSchedules(ctx, s.Tenants.IDs); err != nil {
		return rep, 0, err
	}
	for shard := range queries.DueShards {
		if err := sendShard(ctx, q, ShardMessage{Shard: shard}); err != nil {
			return rep, shard, err
		}
	}
	return rep, queries.DueShards, nil
}

func sendShard(ctx context.Context, q queue.Sender, m ShardMessage) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if err := q.Send(ctx, b, 0); err != nil {
		return fmt.Errorf("runs: send schedules shard %d: %w", m.Shard, err)
	}
	return nil
}

// ScheduleShard returns the schedules-queue handler: it starts the due
// runs of one page of its message's shard, at most ScheduleWorkers at
// once, and sends the shard's next page (if any) as a message of its own,
// so no invocation outlasts its timeout however many runs fall due. A
// message that names no shard is logged and dropped.
func (s *Service) ScheduleShard(q queue.Sender) queue.Handler {
	return func(ctx context.Context, m queue.Message) error {
		var msg ShardMessage
		if err := json.Unmarshal(m.Body, &msg); err != nil || msg.Shard < 0 || msg.Shard >= queries.DueShards {
			s.Logger.Error("schedules: dropped a message that names no shard", "message_id", m.ID, "body", fmt.Sprintf("%.200s", m.Body))
			return nil
		}
		rep, next, err := s.startDuePage(ctx, msg.Shard, s.Now(), msg.Cursor, make(chan struct{}, s.ScheduleWorkers))
		if err != nil {
			return err
		}
		if next != "" {
			if err := sendShard(ctx, q, ShardMessage{Shard: msg.Shard, Cursor: next}); err != nil {
				return err
			}
		}
		if rep != (ScheduleReport{}) {
			s.Logger.Info("schedules: shard page", "shard", msg.Shard, "started", rep.Started, "already_run", rep.AlreadyRun,
				"refused", rep.Refused, "failed", rep.Failed, "more", next != "")
		}
		return nil
	}
}

// startDuePage starts the due runs of one page of a shard, each holding
// one of slots while it starts, and returns the cursor of the next page.
func (s *Service) startDuePage(ctx context.Context, shard int, now time.Time, cursor string, slots chan struct{}) (ScheduleReport, string, error) {
	var rep ScheduleReport
	due, next, err := s.Queries.DuePage(ctx, shard, now, s.SchedulePage, cursor)
	if err != nil {
		return rep, "", err
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, d := range due {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			wg.Wait()
			return rep, "", ctx.Err()
		}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			r := s.startDue(ctx, d)
			mu.Lock()
			rep.add(r)
			mu.Unlock()
		}()
	}
	wg.Wait()
	return rep, next, nil
}

// startDue starts the run of one due query, then moves its index entry to
// when the next falls due: the next period, or for a run refused for
// credits RefusedRetry later (within the period). A start that fails
// leaves the entry due, for the next pass; the entry moves after the
// start, so a pass cut off between the two replays the run (its period's
// key) and moves it then.
func (s *Service) startDue(ctx context.Context, d queries.Due) ScheduleReport {
	var rep ScheduleReport
	q := d.Query
	now := s.Now().UTC()
	next := NextDue(*q.Schedule, q.TenantID, q.ID, now)
	// One key per query and period: the tenant's other scheduled
	// queries run in the same period under keys of their own.
	a, err := s.Start(ctx, Request{
		TenantID: q.TenantID, QueryID: q.ID, Samples: DefaultSamples,
		Idempotency: &idempotency.Key{TenantID: q.TenantID, APIKeyID: schedulerKeyID,
			Key: "schedule:" + strconv.Itoa(int(q.ID)) + ":" + Period(*q.Schedule, now), Fingerprint: "schedule"},
		Actor: audit.System(),
	})
	var ice *InsufficientCreditsError
	var ce *CeilingError
	switch {
	case errors.As(err, &ice), errors.As(err, &ce):
		rep.Refused++
		// Tried again within this period, else at the next one's time.
		if retry := now.Add(RefusedRetry); retry.Before(NextPeriod(*q.Schedule, now)) {
			next = retry
		}
		s.Logger.Warn("scheduled run refused", "tenant_id", q.TenantID, "query_id", q.ID, "reason", err.Error(),
			"next_attempt", next.Format(time.RFC3339))
	case errors.Is(err, ErrQueryNotFound), errors.Is(err, ErrQueryInactive):
		// Deleted or paused since the index listed it: that write took
		// the query out of the index.
		return rep
	case err != nil:
		rep.Failed++
		s.Logger.Error("scheduled run failed to start; it stays due", "tenant_id", q.TenantID, "query_id", q.ID,
			"error", err.Error())
		return rep
	case a.Replayed:
		rep.AlreadyRun++
	default:
		rep.Started++
	}
	if err := s.Queries.Advance(ctx, d, next); err != nil && !errors.Is(err, queries.ErrMoved) {
		// The next pass replays the run and moves it then.
		s.Logger.Warn("schedule not advanced", "tenant_id", q.TenantID, "query_id", q.ID, "error", err.Error())
	}
	return rep
}
