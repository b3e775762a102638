package runs_test

import (
	"context"
	"errors"
	"testing"

	"github.com/brandlens/brandlens/shared/queries"
	"github.com/brandlens/brandlens/shared/validation"
)

// Each scheduled query of a tenant runs once per period, under a key of its
// own: a second query with the same schedule is no conflict.
func TestSchedulerRunsEveryScheduledQueryOncePerPeriod(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		daily := queries.ScheduleDaily
		for _, text := range []string{"note apps for teams", "best markdown notes"} {
			if _, _, err := e.svc.Queries.Create(ctx, queries.Query{TenantID: 1, BrandProfileID: 1, Text: text,
				Platforms: []string{"chatgpt"}, Schedule: &daily, IsActive: true}); err != nil {
				t.Fatal(err)
			}
		}
		rep, err := e.svc.Runs.RunSchedules(ctx)
		if err != nil || rep.Started != 2 || rep.AlreadyRun != 0 {
			t.Fatalf("first pass: %+v %v", rep, err)
		}
		rep, err = e.svc.Runs.RunSchedules(ctx)
		if err != nil || rep.Started != 0 || rep.AlreadyRun != 2 {
			t.Fatalf("second pass in the same day: %+v %v", rep, err)
		}
		if c := e.jobCount(t); c != 2 {
			t.Fatalf("%d jobs", c)
		}
	})
}

func TestEmptyPlatformSubsetIsRefused(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		r := e.req("", "")
		r.Platforms = []string{}
		_, err := e.svc.Runs.Start(context.Background(), r)
		var ve *validation.Error
		if !errors.As(err, &ve) || ve.Fields[0].Field != "platforms" {
			t.Fatalf("platforms []: %v", err)
		}
		r.Platforms = nil // absent: all of the query's platforms
		a, err := e.svc.Runs.Start(context.Background(), r)
		if err != nil || len(a.Job.Platforms) != 2 {
			t.Fatalf("platforms absent: %+v %v", a.Job, err)
		}
	})
}
