package runs

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/idempotency"
	"github.com/brandlens/brandlens/shared/queries"
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

// schedulerKeyID scopes the scheduler's idempotency keys apart from any
// API key's.
const schedulerKeyID = "scheduler"

// ScheduleReport tells what one scheduler pass did.
type ScheduleReport struct {
	Started    int `json:"started"`
	AlreadyRun int `json:"alreadyRun"`
	Refused    int `json:"refused"`
}

// RunSchedules enqueues the due runs of every scheduled, active query of
// every tenant, idempotently per query per period (the period is the
// idempotency key). Jobs left queued, or past their deadline, are the jobs
// sweep's (jobs.Sweeper), which sees every job type.
func (s *Service) RunSchedules(ctx context.Context) (ScheduleReport, error) {
	var rep ScheduleReport
	now := s.Now()
	ts, err := s.Tenants.List(ctx)
	if err != nil {
		return rep, err
	}
	for _, t := range ts {
		qs, err := s.Queries.List(ctx, t.ID)
		if err != nil {
			return rep, err
		}
		for _, q := range qs {
			if q.Schedule == nil || !q.IsActive {
				continue
			}
			period := Period(*q.Schedule, now)
			// One key per query and period: the tenant's other scheduled
			// queries run in the same period under keys of their own.
			a, err := s.Start(ctx, Request{
				TenantID: t.ID, QueryID: q.ID, Samples: DefaultSamples,
				Idempotency: &idempotency.Key{TenantID: t.ID, APIKeyID: schedulerKeyID,
					Key: "schedule:" + strconv.Itoa(int(q.ID)) + ":" + period, Fingerprint: "schedule"},
				Actor: audit.System(),
			})
			var ice *InsufficientCreditsError
			var ce *CeilingError
			switch {
			case errors.As(err, &ice), errors.As(err, &ce):
				rep.Refused++
				s.Logger.Warn("scheduled run refused", "tenant_id", t.ID, "query_id", q.ID, "reason", err.Error())
			case err != nil:
				return rep, err
			case a.Replayed:
				rep.AlreadyRun++
			default:
				rep.Started++
			}
		}
	}
	return rep, nil
}
