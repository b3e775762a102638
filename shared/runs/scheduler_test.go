package runs_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/queries"
	"github.com/brandlens/brandlens/shared/queue"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/seed"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/validation"
)

// scheduled adds a query with schedule to tenant 1's brand 1.
func (e *env) scheduled(t *testing.T, text, schedule string) queries.Query {
	t.Helper()
	q, _, err := e.svc.Queries.Create(context.Background(), queries.Query{TenantID: 1, BrandProfileID: 1, Text: text,
		Platforms: []string{"chatgpt"}, Schedule: &schedule, IsActive: true})
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// pass runs one scheduler pass and compares what it did with want.
func (e *env) pass(t *testing.T, name string, want runs.ScheduleReport) {
	t.Helper()
	rep, err := e.svc.Runs.RunSchedules(context.Background())
	if err != nil || rep != want {
		t.Fatalf("%s: %+v %v, want %+v", name, rep, err, want)
	}
}

// Each scheduled query of a tenant runs once per period, under a key of its
// own: a second query with the same schedule is no conflict. A pass reads
// only the due queries: a second pass in the same period finds none.
func TestSchedulerRunsEveryScheduledQueryOncePerPeriod(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		q1 := e.scheduled(t, "note apps for teams", queries.ScheduleDaily)
		q2 := e.scheduled(t, "best markdown notes", queries.ScheduleDaily)
		e.pass(t, "first pass", runs.ScheduleReport{Started: 2})
		e.pass(t, "second pass in the same day", runs.ScheduleReport{})
		// Each falls due at its own time of the next day.
		first := runs.NextDue(queries.ScheduleDaily, 1, q1.ID, e.clock.Now())
		last := runs.NextDue(queries.ScheduleDaily, 1, q2.ID, e.clock.Now())
		if last.Before(first) {
			first, last = last, first
		}
		if first.Equal(last) {
			t.Fatalf("both queries fall due at %s", first)
		}
		e.clock.Advance(first.Sub(e.clock.Now()) - time.Second)
		e.pass(t, "the next day, a second before the first is due", runs.ScheduleReport{})
		e.clock.Advance(time.Second)
		e.pass(t, "the first", runs.ScheduleReport{Started: 1})
		e.clock.Advance(last.Sub(e.clock.Now()))
		e.pass(t, "the second", runs.ScheduleReport{Started: 1})
		if c := e.jobCount(t); c != 4 {
			t.Fatalf("%d jobs", c)
		}
	})
}

// A write of a scheduled query makes it due at once; the pass finds its
// period's run made and starts none. Pausing, unscheduling or deleting it
// takes it out of the index.
func TestSchedulerAfterQueryWrites(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		q := e.scheduled(t, "note apps for teams", queries.ScheduleHourly)
		e.pass(t, "first pass", runs.ScheduleReport{Started: 1})
		text := "note apps for small teams"
		if _, err := e.svc.Queries.Update(ctx, 1, q.ID, queries.Change{Text: &text}); err != nil {
			t.Fatal(err)
		}
		e.pass(t, "after a rename", runs.ScheduleReport{AlreadyRun: 1})
		daily := queries.ScheduleDaily
		sched := &daily
		if _, err := e.svc.Queries.Update(ctx, 1, q.ID, queries.Change{Schedule: &sched}); err != nil {
			t.Fatal(err)
		}
		e.pass(t, "hourly → daily: another period's key", runs.ScheduleReport{Started: 1})
		off := false
		if _, err := e.svc.Queries.Update(ctx, 1, q.ID, queries.Change{IsActive: &off}); err != nil {
			t.Fatal(err)
		}
		e.clock.Advance(24 * time.Hour)
		e.pass(t, "paused", runs.ScheduleReport{})
		on := true
		if _, err := e.svc.Queries.Update(ctx, 1, q.ID, queries.Change{IsActive: &on}); err != nil {
			t.Fatal(err)
		}
		var none *string
		q2 := e.scheduled(t, "another one", queries.ScheduleWeekly)
		if _, err := e.svc.Queries.Update(ctx, 1, q2.ID, queries.Change{Schedule: &none}); err != nil {
			t.Fatal(err)
		}
		q3 := e.scheduled(t, "a third one", queries.ScheduleWeekly)
		if _, err := e.svc.Queries.Delete(ctx, 1, q3.ID); err != nil {
			t.Fatal(err)
		}
		e.pass(t, "resumed; unscheduled and deleted ones", runs.ScheduleReport{Started: 1})
		if c := e.jobCount(t); c != 3 {
			t.Fatalf("%d jobs", c)
		}
	})
}

// Scheduler passes running at once start each due run once: every pass
// reads the same due queries, the period's idempotency record (written in
// the job's transaction) lets one start it, and the entry moves once.
func TestConcurrentSchedulerPassesStartEachRunOnce(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		const tenants, perTenant, passes = 4, 5, 6
		f := seed.File{}
		for i := range tenants {
			st := seed.Tenant{Name: fmt.Sprintf("Tenant %d", i), Credits: 100, Brand: &seed.Brand{Name: fmt.Sprintf("Brand %d", i)}}
			for q := range perTenant {
				st.Queries = append(st.Queries, seed.Query{Text: fmt.Sprintf("tools %d", q), Platforms: []string{"chatgpt"}, Schedule: "daily"})
			}
			f.Tenants = append(f.Tenants, st)
		}
		res, err := seed.Apply(ctx, e.svc.Repos, f)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		reps := make([]runs.ScheduleReport, passes)
		errs := make([]error, passes)
		for i := range passes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				reps[i], errs[i] = e.svc.Runs.RunSchedules(ctx)
			}()
		}
		wg.Wait()
		started := 0
		for i := range passes {
			if errs[i] != nil {
				t.Fatalf("pass %d: %v", i, errs[i])
			}
			started += reps[i].Started
		}
		// A pass that lost a transaction conflict leaves its run due (Failed):
		// one more pass settles what the racing ones left.
		last, err := e.svc.Runs.RunSchedules(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if started+last.Started != tenants*perTenant {
			t.Fatalf("passes started %d runs (+%d after), want %d: %+v %+v", started, last.Started, tenants*perTenant, reps, last)
		}
		for _, tr := range res.Tenants {
			js, _, err := e.svc.Jobs.Page(ctx, tr.ID, "", 200, "")
			if err != nil || len(js) != perTenant {
				t.Fatalf("tenant %d: %d jobs %v", tr.ID, len(js), err)
			}
			b, err := e.svc.Ledger.Balance(ctx, tr.ID)
			if err != nil || b.Held != perTenant || b.Available+b.Held+b.Captured != b.Granted {
				t.Fatalf("tenant %d: %+v %v", tr.ID, b, err)
			}
		}
		e.pass(t, "afterwards", runs.ScheduleReport{})
	})
}

// A tenant out of credits does not hold up the others; its run is asked
// for again RefusedRetry later, not at every pass, and starts once the
// tenant has credits.
func TestSchedulerRefusedTenantDoesNotBlockOthers(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		res, err := seed.Apply(ctx, e.svc.Repos, seed.File{Tenants: []seed.Tenant{
			{Name: "Broke", Credits: 0, Brand: &seed.Brand{Name: "Broke Co"},
				Queries: []seed.Query{{Text: "broke tools", Platforms: []string{"chatgpt"}, Schedule: "hourly"}}},
			{Name: "Rich", Credits: 50, Brand: &seed.Brand{Name: "Rich Co"},
				Queries: []seed.Query{{Text: "rich tools", Platforms: []string{"chatgpt"}, Schedule: "daily"},
					{Text: "more rich tools", Platforms: []string{"chatgpt"}, Schedule: "daily"}}},
		}})
		if err != nil {
			t.Fatal(err)
		}
		e.clock.Advance(10 * time.Minute)
		e.pass(t, "first pass", runs.ScheduleReport{Started: 2, Refused: 1})
		e.clock.Advance(30 * time.Minute)
		e.pass(t, "30 minutes later", runs.ScheduleReport{})
		if err := e.svc.Ledger.Grant(ctx, res.Tenants[0].ID, 5, "test"); err != nil {
			t.Fatal(err)
		}
		// RefusedRetry reaches past the hour: asked again at the query's
		// time in the next hour.
		broke, err := e.svc.Queries.Get(ctx, res.Tenants[0].ID, 1)
		if err != nil {
			t.Fatal(err)
		}
		e.clock.Advance(runs.NextDue(queries.ScheduleHourly, broke.TenantID, broke.ID, e.clock.Now()).Sub(e.clock.Now()))
		e.pass(t, "with credits", runs.ScheduleReport{Started: 1})
	})
}

// Scheduled queries stored before the due index are added to it once, by
// the first pass.
func TestSchedulerIndexesQueriesStoredBeforeTheIndex(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		res, err := seed.Apply(ctx, e.svc.Repos, seed.File{Tenants: []seed.Tenant{{Name: "Other", Credits: 10,
			Brand: &seed.Brand{Name: "Other Co"}, Queries: []seed.Query{
				{Text: "other legacy query", Platforms: []string{"chatgpt"}, Schedule: "weekly"},
				{Text: "unscheduled legacy query", Platforms: []string{"chatgpt"}}}}}})
		if err != nil {
			t.Fatal(err)
		}
		q := e.scheduled(t, "legacy query", queries.ScheduleDaily)
		for _, k := range []store.Key{queries.Key(1, q.ID), queries.Key(res.Tenants[0].ID, 1)} {
			if _, err := e.svc.Repos.Table.Update(ctx, k,
				store.Update{Remove: []string{store.AttrGSI1PK, store.AttrGSI1SK}}, store.Cond{}); err != nil {
				t.Fatal(err)
			}
		}
		e.pass(t, "first pass", runs.ScheduleReport{Started: 2, Indexed: 2})
		e.pass(t, "second pass", runs.ScheduleReport{})
		e.clock.Advance(8 * 24 * time.Hour) // past each one's time in the next day and ISO week
		e.pass(t, "eight days later", runs.ScheduleReport{Started: 2})
	})
}

// In AWS the scheduler sends one message per shard; the schedules queue's
// handler starts a page of its shard and sends the next page on.
func TestScheduleShardMessages(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		for i := range 3 {
			e.scheduled(t, fmt.Sprintf("query %d", i), queries.ScheduleDaily)
		}
		q := &recordingSender{}
		_, sent, err := e.svc.Runs.FanOutSchedules(ctx, q)
		if err != nil || sent != queries.DueShards || len(q.msgs) != queries.DueShards {
			t.Fatalf("fan-out: %d sent, %d messages, %v", sent, len(q.msgs), err)
		}
		h := e.svc.Runs.ScheduleShard(q)
		for i := 0; i < len(q.msgs); i++ { // the handler appends next pages
			if err := h(ctx, queue.Message{ID: "m", Body: []byte(q.msgs[i])}); err != nil {
				t.Fatal(err)
			}
		}
		if c := e.jobCount(t); c != 3 {
			t.Fatalf("%d jobs", c)
		}
		for _, body := range []string{`{`, `{"shard":16}`, `{"shard":-1}`} {
			if err := h(ctx, queue.Message{ID: "bad", Body: []byte(body)}); err != nil {
				t.Fatalf("%s: %v", body, err)
			}
		}
	})
}

func TestNextPeriod(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range []struct{ schedule, now, want string }{
		{queries.ScheduleHourly, "2026-11-22T10:59:59Z", "2026-11-22T11:00:00Z"},
		{queries.ScheduleHourly, "2026-12-31T23:00:00Z", "2027-01-01T00:00:00Z"},
		{queries.ScheduleDaily, "2026-11-22T00:00:00Z", "2026-11-23T00:00:00Z"},
		{queries.ScheduleDaily, "2026-11-30T23:59:59+02:00", "2026-12-01T00:00:00Z"},
		{queries.ScheduleWeekly, "2026-11-22T10:00:00Z", "2026-11-23T00:00:00Z"}, // a Sunday
		{queries.ScheduleWeekly, "2026-11-23T00:00:00Z", "2026-11-30T00:00:00Z"}, // a Monday
		{queries.ScheduleWeekly, "2026-12-31T12:00:00Z", "2027-01-04T00:00:00Z"},
	} {
		t.Run(c.schedule+" "+c.now, func(t *testing.T) {
			now := at(c.now)
			got := runs.NextPeriod(c.schedule, now)
			if !got.Equal(at(c.want)) {
				t.Fatalf("got %s, want %s", got, c.want)
			}
			// The next period is another period, and the instant before it
			// is in this one.
			if runs.Period(c.schedule, got) == runs.Period(c.schedule, now) ||
				runs.Period(c.schedule, got.Add(-time.Nanosecond)) != runs.Period(c.schedule, now) {
				t.Fatalf("periods: %s %s %s", runs.Period(c.schedule, now), runs.Period(c.schedule, got.Add(-time.Nanosecond)), runs.Period(c.schedule, got))
			}
		})
	}
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

// A shard with more due queries than a page holds is read page after page:
// locally by the pass, in AWS by one message per further page.
func TestSchedulePagesContinue(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		const n = 20 // the tenant's daily ceiling is 30 credits
		for i := range n {
			e.scheduled(t, fmt.Sprintf("query %d", i), queries.ScheduleDaily)
		}
		r := e.svc.Repos
		svc, err := runs.New(runs.Deps{Table: r.Table, Tenants: r.Tenants, Queries: r.Queries, Ledger: r.Ledger, Jobs: r.Jobs,
			Competitors: r.Competitors, Sender: e.sender, Now: e.clock.Now, SchedulePage: 1, ScheduleWorkers: 3,
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			t.Fatal(err)
		}
		q := &recordingSender{}
		if _, _, err := svc.FanOutSchedules(ctx, q); err != nil {
			t.Fatal(err)
		}
		h := svc.ScheduleShard(q)
		for i := 0; i < len(q.msgs); i++ {
			if err := h(ctx, queue.Message{ID: "m", Body: []byte(q.msgs[i])}); err != nil {
				t.Fatal(err)
			}
		}
		// A message per page of one query; DynamoDB may hand out a cursor
		// after a shard's last query too (its page is empty).
		if c := e.jobCount(t); c != n || len(q.msgs) < n || len(q.msgs) > n+queries.DueShards {
			t.Fatalf("%d jobs from %d messages, want %d from %d to %d", c, len(q.msgs), n, n, n+queries.DueShards)
		}
		e.clock.Advance(38 * time.Hour) // past each one's time of the next day
		rep, err := svc.RunSchedules(ctx)
		if err != nil || rep != (runs.ScheduleReport{Started: n}) {
			t.Fatalf("the next day's pass: %+v %v", rep, err)
		}
	})
}

// A query's next run falls due inside the next period, at the same offset
// into it every period, and the queries of many tenants spread over the
// period instead of all falling due at its start.
func TestNextDue(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 30, 0, 0, time.UTC) // a Sunday
	for _, schedule := range []string{queries.ScheduleHourly, queries.ScheduleDaily, queries.ScheduleWeekly} {
		t.Run(schedule, func(t *testing.T) {
			start := runs.NextPeriod(schedule, now)
			length := runs.NextPeriod(schedule, start).Sub(start)
			const n = 2000
			buckets := make([]int, 8)
			for i := range n {
				tenant, query := int32(1+i%97), int32(1+i)
				due := runs.NextDue(schedule, tenant, query, now)
				if runs.Period(schedule, due) != runs.Period(schedule, start) {
					t.Fatalf("query %d/%d falls due at %s, outside the next period", tenant, query, due)
				}
				later := runs.NextDue(schedule, tenant, query, due)
				if later.Sub(runs.NextPeriod(schedule, due)) != due.Sub(start) {
					t.Fatalf("query %d/%d: offset %s, then %s", tenant, query, due.Sub(start), later.Sub(runs.NextPeriod(schedule, due)))
				}
				buckets[int(due.Sub(start)*8/length)]++
			}
			for i, b := range buckets { // n/8 = 250 each if spread evenly
				if b < 150 || b > 350 {
					t.Fatalf("eighth %d of the period holds %d of %d due times: %v", i, b, n, buckets)
				}
			}
		})
	}
}

// Runs record their query's last run beside the query, never in its
// document: scheduler passes and manual runs at once leave the schedule as
// the passes alone would (one scheduled run a period, its entry moved once,
// nothing due again in the period), the query's document unwritten, and
// the last run one of the period's jobs, at its acceptance.
func TestLastRunWithSchedulerAndManualRuns(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		q := e.scheduled(t, "note apps for teams", queries.ScheduleHourly)
		if got, err := e.svc.Queries.Shown(ctx, 1, q.ID); err != nil || got.LastRunAt != nil || got.LastJobID != nil {
			t.Fatalf("before any run: %+v %v", got, err)
		}
		seen := map[string]bool{}
		const passes, manual = 3, 3
		for period := range 3 {
			var wg sync.WaitGroup
			reps := make([]runs.ScheduleReport, passes)
			errs := make([]error, passes+manual)
			for i := range passes {
				wg.Go(func() { reps[i], errs[i] = e.svc.Runs.RunSchedules(ctx) })
			}
			for i := range manual {
				wg.Go(func() {
					_, errs[passes+i] = e.svc.Runs.Start(ctx, runs.Request{TenantID: 1, QueryID: q.ID, Samples: 1})
				})
			}
			wg.Wait()
			var sum runs.ScheduleReport
			for i := range passes {
				sum.Started += reps[i].Started
				sum.Failed += reps[i].Failed
			}
			if err := errors.Join(errs...); err != nil || sum.Started != 1 || sum.Failed != 0 {
				t.Fatalf("period %d: passes %+v, %v", period, reps, err)
			}
			e.pass(t, fmt.Sprintf("period %d again", period), runs.ScheduleReport{})
			js, _, err := e.svc.Jobs.Page(ctx, 1, "", 200, "")
			if err != nil {
				t.Fatal(err)
			}
			made := map[string]bool{}
			for _, j := range js {
				if !seen[j.ID] {
					made[j.ID], seen[j.ID] = true, true
				}
			}
			got, err := e.svc.Queries.Shown(ctx, 1, q.ID)
			if err != nil || len(made) != 1+manual || got.LastJobID == nil || !made[*got.LastJobID] ||
				got.LastRunAt == nil || !got.LastRunAt.Equal(e.clock.Now()) || got.UpdatedAt != nil {
				t.Fatalf("period %d: %d jobs made, query %+v %v", period, len(made), got, err)
			}
			e.clock.Advance(runs.NextDue(queries.ScheduleHourly, 1, q.ID, e.clock.Now()).Sub(e.clock.Now()))
		}
	})
}
