package jobs_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamotest"
	"github.com/brandlens/brandlens/shared/store/storetest"
	"github.com/brandlens/brandlens/shared/tenants"
)

func TestMain(m *testing.M) { dynamotest.Main(m) }

var t0 = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

// put stores j as the write path does (CreateOp), or — legacy — as jobs
// were stored before the index of unfinished jobs existed.
func put(t *testing.T, tbl store.Table, j jobs.Job) {
	t.Helper()
	if j.PerPlatformStatus == nil {
		j.PerPlatformStatus = map[string]jobs.PlatformStatus{}
	}
	op, err := jobs.CreateOp(j)
	if err != nil {
		t.Fatal(err)
	}
	if err := tbl.TransactWrite(context.Background(), op); err != nil {
		t.Fatal(err)
	}
}

func putLegacy(t *testing.T, tbl store.Table, j jobs.Job) {
	t.Helper()
	op, err := jobs.CreateOp(j)
	if err != nil {
		t.Fatal(err)
	}
	delete(op.Item, store.AttrGSI1PK)
	delete(op.Item, store.AttrGSI1SK)
	if err := tbl.Put(context.Background(), op.Item, store.Cond{}); err != nil {
		t.Fatal(err)
	}
}

func jobID(i int) string { return fmt.Sprintf("01kaj%021d", i) } // sorts as creation order, like ULIDs

// Pages by cursor reach every job, however old, exactly once, in order —
// with and without a status filter.
func TestPageReachesEveryJob(t *testing.T) {
	dynamotest.Backends(t, t0, func(t *testing.T, tbl store.Table, _ *storetest.Clock) {
		ctx := context.Background()
		repo := jobs.NewRepo(tbl)
		statuses := []string{jobs.StatusSucceeded, jobs.StatusFailed, jobs.StatusPartial}
		for i := range 230 {
			put(t, tbl, jobs.Job{ID: jobID(i), TenantID: 1, Type: jobs.TypeQueryRun, Status: statuses[i%3], CreatedAt: t0.Add(time.Duration(i) * time.Second)})
		}
		put(t, tbl, jobs.Job{ID: jobID(0), TenantID: 2, Type: jobs.TypeQueryRun, Status: jobs.StatusFailed, CreatedAt: t0})
		for _, tc := range []struct {
			status string
			limit  int
			want   int
		}{{"", 200, 230}, {"", 7, 230}, {jobs.StatusFailed, 50, 77}, {jobs.StatusPartial, 200, 76}} {
			t.Run(fmt.Sprintf("%s/%d", tc.status, tc.limit), func(t *testing.T) {
				var got []string
				cursor := ""
				for pages := 0; ; pages++ {
					page, next, err := repo.Page(ctx, 1, tc.status, tc.limit, cursor)
					if err != nil {
						t.Fatal(err)
					}
					if len(page) > tc.limit || (next != "" && len(page) != tc.limit) {
						t.Fatalf("page of %d with next %q", len(page), next)
					}
					for _, j := range page {
						if j.TenantID != 1 || (tc.status != "" && j.Status != tc.status) {
							t.Fatalf("job %+v", j)
						}
						got = append(got, j.ID)
					}
					if next == "" {
						break
					}
					cursor = next
				}
				if len(got) != tc.want || !slices.IsSortedFunc(got, func(a, b string) int { return strings.Compare(b, a) }) || len(slices.Compact(slices.Clone(got))) != len(got) {
					t.Fatalf("%d jobs (want %d), newest first once each: %v", len(got), tc.want, got[:min(5, len(got))])
				}
			})
		}
		for _, bad := range []string{"!!", "a b", base64.RawURLEncoding.EncodeToString([]byte("JOB#x")), base64.RawURLEncoding.EncodeToString([]byte("01kaj#TENANT#2"))} {
			if _, _, err := repo.Page(ctx, 1, "", 10, bad); !errors.Is(err, jobs.ErrInvalidCursor) {
				t.Errorf("cursor %q: %v", bad, err)
			}
		}
	})
}

// The sparse index holds exactly the queued and running jobs of every
// tenant: settling a job takes it out.
func TestEachUnfinished(t *testing.T) {
	dynamotest.Backends(t, t0, func(t *testing.T, tbl store.Table, _ *storetest.Clock) {
		ctx := context.Background()
		repo := jobs.NewRepo(tbl)
		for i, st := range []string{jobs.StatusQueued, jobs.StatusRunning, jobs.StatusSucceeded, jobs.StatusQueued, jobs.StatusFailed} {
			put(t, tbl, jobs.Job{ID: jobID(i), TenantID: int32(1 + i%2), Type: jobs.TypeQueryRun, Status: st, CreatedAt: t0})
		}
		j, err := repo.Get(ctx, 1, jobID(0))
		if err != nil {
			t.Fatal(err)
		}
		j.Status = jobs.StatusPartial
		op, err := jobs.UpdateOp(j, jobs.StatusQueued)
		if err != nil {
			t.Fatal(err)
		}
		if err := tbl.TransactWrite(ctx, op); err != nil {
			t.Fatal(err)
		}
		var got []string
		if err := repo.EachUnfinished(ctx, func(j jobs.Job) error {
			got = append(got, fmt.Sprintf("%d/%s/%s", j.TenantID, j.ID[len(j.ID)-1:], j.Status))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if want := []string{"2/1/running", "2/3/queued"}; !slices.Equal(got, want) {
			t.Fatalf("unfinished %v, want %v (oldest first)", got, want)
		}
	})
}

// Jobs indexed before the index was write-sharded (under its unsharded
// key) are still walked, merged in order with the sharded ones.
func TestEachUnfinishedReadsTheUnshardedKey(t *testing.T) {
	dynamotest.Backends(t, t0, func(t *testing.T, tbl store.Table, _ *storetest.Clock) {
		ctx := context.Background()
		var want []string
		for i := range 40 {
			j := jobs.Job{ID: jobID(i), TenantID: 1, Type: jobs.TypeQueryRun, Status: jobs.StatusQueued, CreatedAt: t0,
				PerPlatformStatus: map[string]jobs.PlatformStatus{}}
			op, err := jobs.CreateOp(j)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(op.Item.String(store.AttrGSI1PK), "JOBS#unfinished#") {
				t.Fatalf("index key %q is not sharded", op.Item.String(store.AttrGSI1PK))
			}
			if i%3 == 0 {
				op.Item[store.AttrGSI1PK] = "JOBS#unfinished"
			}
			if err := tbl.TransactWrite(ctx, op); err != nil {
				t.Fatal(err)
			}
			want = append(want, j.ID)
		}
		var got []string
		if err := jobs.NewRepo(tbl).EachUnfinished(ctx, func(j jobs.Job) error {
			got = append(got, j.ID)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("unfinished %v,\nwant %v (oldest first)", got, want)
		}
	})
}

// Jobs stored before the index existed join it once.
func TestIndexUnfinishedAddsLegacyJobs(t *testing.T) {
	dynamotest.Backends(t, t0, func(t *testing.T, tbl store.Table, _ *storetest.Clock) {
		ctx := context.Background()
		repo := jobs.NewRepo(tbl)
		putLegacy(t, tbl, jobs.Job{ID: jobID(1), TenantID: 1, Type: jobs.TypeQueryRun, Status: jobs.StatusRunning, CreatedAt: t0})
		putLegacy(t, tbl, jobs.Job{ID: jobID(2), TenantID: 2, Type: jobs.TypeQueryRun, Status: jobs.StatusQueued, CreatedAt: t0})
		putLegacy(t, tbl, jobs.Job{ID: jobID(3), TenantID: 2, Type: jobs.TypeQueryRun, Status: jobs.StatusSucceeded, CreatedAt: t0})
		count := func() int {
			n := 0
			if err := repo.EachUnfinished(ctx, func(jobs.Job) error { n++; return nil }); err != nil {
				t.Fatal(err)
			}
			return n
		}
		if n := count(); n != 0 {
			t.Fatalf("%d legacy jobs indexed before the migration", n)
		}
		listed := 0
		tenantIDs := func(context.Context) ([]int32, error) { listed++; return []int32{1, 2}, nil }
		n, err := repo.IndexUnfinished(ctx, tenantIDs)
		if err != nil || n != 2 || count() != 2 {
			t.Fatalf("indexed %d, %v; index holds %d", n, err, count())
		}
		// Once done, the tenants are not read again.
		if n, err := repo.IndexUnfinished(ctx, tenantIDs); err != nil || n != 0 || listed != 1 {
			t.Fatalf("second run indexed %d, %v; tenants listed %d times", n, err, listed)
		}
	})
}

// fakeKind records the settles and sends the sweep asks for.
type fakeKind struct {
	mu      sync.Mutex
	settled map[string]jobs.Failure
}

func (f *fakeKind) kind(deadline time.Duration, tbl store.Table, now func() time.Time) jobs.Kind {
	return jobs.Kind{
		Deadline: func(jobs.Job) time.Duration { return deadline },
		Settle: func(ctx context.Context, j jobs.Job, fl jobs.Failure) error {
			f.mu.Lock()
			f.settled[j.ID] = fl
			f.mu.Unlock()
			from := j.Status
			j.Status = jobs.StatusFailed
			c := now()
			j.CompletedAt = &c
			op, err := jobs.UpdateOp(j, from)
			if err != nil {
				return err
			}
			return tbl.TransactWrite(ctx, op)
		},
	}
}

type sent struct {
	mu   sync.Mutex
	msgs []string
}

func (s *sent) Send(_ context.Context, body []byte, _ time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.msgs = append(s.msgs, string(body))
	return nil
}

// The sweep: jobs past their deadline are settled, jobs queued too long
// are sent again (every one of them, not the newest few hundred), a
// restart sends every unfinished job again, and types without a kind and
// jobs held for a human's review are left alone.
func TestSweep(t *testing.T) {
	dynamotest.Backends(t, t0, func(t *testing.T, tbl store.Table, _ *storetest.Clock) {
		ctx := context.Background()
		repo := jobs.NewRepo(tbl)
		trepo := tenants.NewRepo(tbl, func() time.Time { return t0 })
		tn, _, err := trepo.Create(ctx, tenants.Tenant{Name: "Sweep Co"})
		if err != nil {
			t.Fatal(err)
		}
		now := t0.Add(2 * time.Hour)
		started := now.Add(-90 * time.Minute)
		recent := now.Add(-10 * time.Minute)
		// 250 queued long ago (lost start messages), one queued just now,
		// one running past its 1 h deadline, one running within it, one
		// publish job waiting for an approval.
		for i := range 250 {
			put(t, tbl, jobs.Job{ID: jobID(i), TenantID: tn.ID, Type: jobs.TypeQueryRun, Status: jobs.StatusQueued, CreatedAt: now.Add(-30 * time.Minute)})
		}
		put(t, tbl, jobs.Job{ID: jobID(300), TenantID: tn.ID, Type: jobs.TypeQueryRun, Status: jobs.StatusQueued, CreatedAt: now.Add(-time.Minute)})
		put(t, tbl, jobs.Job{ID: jobID(301), TenantID: tn.ID, Type: jobs.TypeGapDetection, Status: jobs.StatusRunning, CreatedAt: started, StartedAt: &started})
		put(t, tbl, jobs.Job{ID: jobID(302), TenantID: tn.ID, Type: jobs.TypeGapDetection, Status: jobs.StatusRunning, CreatedAt: started, StartedAt: &recent})
		put(t, tbl, jobs.Job{ID: jobID(303), TenantID: tn.ID, Type: jobs.TypePublish, Status: jobs.StatusQueued, CreatedAt: started})
		// An L0 agent's run held for its review since long past its
		// deadline: neither sent again nor reaped (the review decides).
		apr := "apr_1"
		put(t, tbl, jobs.Job{ID: jobID(304), TenantID: tn.ID, Type: jobs.TypeQueryRun, Status: jobs.StatusQueued, CreatedAt: now.Add(-3 * time.Hour),
			AwaitingApproval: true, ApprovalID: &apr})

		fk := &fakeKind{settled: map[string]jobs.Failure{}}
		clock := func() time.Time { return now }
		kinds := map[string]jobs.Kind{
			jobs.TypeQueryRun:     fk.kind(time.Hour, tbl, clock),
			jobs.TypeGapDetection: fk.kind(time.Hour, tbl, clock),
		}
		q := &sent{}
		sw, err := jobs.NewSweeper(repo, trepo, kinds, q, clock, nil)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := sw.Sweep(ctx, false)
		if err != nil {
			t.Fatal(err)
		}
		want := jobs.SweepReport{Unfinished: 255, Reaped: 1, Requeued: 250, Skipped: 2}
		if rep != want {
			t.Fatalf("report %+v, want %+v", rep, want)
		}
		if f, ok := fk.settled[jobID(301)]; !ok || f.Error != jobs.ErrorDeadlineExceeded || len(fk.settled) != 1 {
			t.Fatalf("settled %+v", fk.settled)
		}
		if len(q.msgs) != 250 || q.msgs[0] != `{"jobId":"`+jobID(0)+`","tenantId":`+fmt.Sprint(tn.ID)+`,"type":"query_run"}` {
			t.Fatalf("%d messages, first %s", len(q.msgs), q.msgs[0])
		}

		// After a restart of an in-memory runtime: every unfinished job of a
		// kind, not past its deadline, starts again.
		q.msgs = nil
		rep, err = sw.Sweep(ctx, true)
		if err != nil {
			t.Fatal(err)
		}
		if want := (jobs.SweepReport{Unfinished: 254, Redriven: 252, Skipped: 2}); rep != want {
			t.Fatalf("redrive report %+v, want %+v", rep, want)
		}

		// A failed execution settles its job once.
		j, err := sw.SettleFailed(ctx, tn.ID, jobID(302), jobs.Failure{Error: "States.Timeout", Cause: "TIMED_OUT"})
		if err != nil || j.Status != jobs.StatusFailed || fk.settled[jobID(302)].Error != "States.Timeout" {
			t.Fatalf("SettleFailed: %+v %v", j, err)
		}
		delete(fk.settled, jobID(302))
		if _, err := sw.SettleFailed(ctx, tn.ID, jobID(302), jobs.Failure{Error: "again"}); err != nil || len(fk.settled) != 1 {
			t.Fatalf("a settled job was settled again: %v %+v", err, fk.settled)
		}
	})
}
