package approvals_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/approvals"
	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/auth"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamotest"
	"github.com/brandlens/brandlens/shared/store/storetest"
)

func TestMain(m *testing.M) { dynamotest.Main(m) }

type fixture struct {
	tbl      store.Table
	svc      *approvals.Service
	agent    auth.Principal
	reviewer auth.Principal
	keys     *auth.Keys
	cb       *recordingCallbacks
	clock    *storetest.Clock
}

type recordingCallbacks struct {
	mu        sync.Mutex
	successes []string
	failures  []string
}

func (r *recordingCallbacks) SendTaskSuccess(_ context.Context, token string, _ json.RawMessage) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.successes = append(r.successes, token)
	return nil
}

func (r *recordingCallbacks) SendTaskFailure(_ context.Context, token, name, _ string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failures = append(r.failures, token+":"+name)
	return nil
}

func newFixture(t *testing.T, tbl store.Table, clock *storetest.Clock) *fixture {
	t.Helper()
	ctx := context.Background()
	h, err := auth.NewHasher([]byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	keys := auth.NewKeys(tbl, h, clock.Now)
	agentPlain, _, err := keys.Create(ctx, auth.NewKey{TenantID: 1, Scopes: []auth.Scope{auth.ScopePublish}, IsAgent: true, Autonomy: auth.L0})
	if err != nil {
		t.Fatal(err)
	}
	humanPlain, _, err := keys.Create(ctx, auth.NewKey{TenantID: 1, Scopes: []auth.Scope{auth.ScopePublish}})
	if err != nil {
		t.Fatal(err)
	}
	agent, _ := keys.Authenticate(ctx, agentPlain)
	reviewer, _ := keys.Authenticate(ctx, humanPlain)
	cb := &recordingCallbacks{}
	return &fixture{tbl: tbl, svc: approvals.NewService(tbl, cb, nil, nil, clock.Now), agent: agent, reviewer: reviewer,
		keys: keys, cb: cb, clock: clock}
}

// propose stores a pending request without a job for resource ref.
func (f *fixture) propose(t *testing.T, ref string, gate ...string) approvals.Request {
	t.Helper()
	r := approvals.New(1, f.agent, "publish", ref, approvals.SlotOf("publish", ref, "dst_1"), "publish it", f.clock.Now())
	r.Gate = approvals.GateNone
	if len(gate) > 0 {
		r.Gate = gate[0]
	}
	ops, _, err := approvals.CreateOps(r, audit.ActorOf(f.agent))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.tbl.TransactWrite(context.Background(), ops...); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestReviewOnceAndPromotion(t *testing.T) {
	dynamotest.Backends(t, time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC), func(t *testing.T, tbl store.Table, clock *storetest.Clock) {
		ctx := context.Background()
		f := newFixture(t, tbl, clock)
		var last approvals.Outcome
		for i, ref := range []string{"opportunity:a", "opportunity:b", "opportunity:c"} {
			r := f.propose(t, ref)
			if n, _ := approvals.PendingCount(ctx, tbl, 1); n != 1 {
				t.Errorf("pending count %d, want 1", n)
			}
			out, err := f.svc.Review(ctx, 1, r.ID, approvals.Decision{Approve: true, Reviewer: f.reviewer})
			if err != nil {
				t.Fatal(err)
			}
			last = out
			if i < 2 && out.Promoted != "" {
				t.Errorf("promoted after %d approvals", i+1)
			}
			// A second review is refused, whatever its verdict.
			_, err = f.svc.Review(ctx, 1, r.ID, approvals.Decision{Approve: false, Reviewer: f.reviewer})
			if !errors.Is(err, approvals.ErrAlreadyReviewed) {
				t.Errorf("second review: %v", err)
			}
		}
		if last.Promoted != auth.L1 || last.Stats.Approved != 3 {
			t.Errorf("after 3 approvals: %+v", last)
		}
		keys, _ := f.keys.List(ctx, 1)
		for _, k := range keys {
			if k.ID == f.agent.KeyID && k.Autonomy != auth.L1 {
				t.Errorf("agent key level %s, want L1", k.Autonomy)
			}
		}
		if n, _ := approvals.PendingCount(ctx, tbl, 1); n != 0 {
			t.Errorf("pending count %d after reviews", n)
		}
		// Another tenant's request is not found; an agent cannot review.
		r := f.propose(t, "opportunity:d")
		if _, err := f.svc.Review(ctx, 2, r.ID, approvals.Decision{Approve: true, Reviewer: f.reviewer}); !errors.Is(err, approvals.ErrNotFound) {
			t.Errorf("other tenant: %v", err)
		}
		if _, err := f.svc.Review(ctx, 1, r.ID, approvals.Decision{Approve: true, Reviewer: f.agent}); err == nil {
			t.Error("an agent key reviewed")
		}
	})
}

func TestEarned(t *testing.T) {
	cases := []struct {
		from auth.Autonomy
		st   approvals.Stats
		want auth.Autonomy
	}{
		{auth.L0, approvals.Stats{Approved: 2}, auth.L0},
		{auth.L0, approvals.Stats{Approved: 3, Rejected: 10}, auth.L1},
		{auth.L1, approvals.Stats{Approved: 19}, auth.L1},
		{auth.L1, approvals.Stats{Approved: 20}, auth.L2},
		{auth.L1, approvals.Stats{Approved: 20, Rejected: 2}, auth.L1}, // 0.909
		{auth.L1, approvals.Stats{Approved: 38, Rejected: 2}, auth.L2}, // 0.95
		{auth.L0, approvals.Stats{Approved: 50}, auth.L1},              // one step at a time
		{auth.L2, approvals.Stats{Rejected: 50}, auth.L2},              // never demoted
	}
	for _, c := range cases {
		t.Run(string(c.from), func(t *testing.T) {
			if got := approvals.Earned(c.from, c.st); got != c.want {
				t.Errorf("Earned(%s, %+v) = %s, want %s", c.from, c.st, got, c.want)
			}
		})
	}
}

// One open request per slot; an approval is used by exactly one of many
// concurrent consumers.
func TestSlotAndConsumeOnce(t *testing.T) {
	dynamotest.Backends(t, time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC), func(t *testing.T, tbl store.Table, clock *storetest.Clock) {
		ctx := context.Background()
		f := newFixture(t, tbl, clock)
		// A publish approved after its workflow ended: the approval stays
		// open for one later execute.
		r := f.propose(t, "opportunity:x", approvals.GateWorkflow)
		dup := approvals.New(1, f.agent, "publish", "opportunity:x", r.Slot, "again", clock.Now())
		ops, slotAt, _ := approvals.CreateOps(dup, audit.ActorOf(f.agent))
		err := tbl.TransactWrite(ctx, ops...)
		var txe *store.TxConditionError
		if !errors.As(err, &txe) || txe.Index != slotAt {
			t.Fatalf("second request for the slot: %v", err)
		}
		if open, ok, _ := approvals.OpenIn(ctx, tbl, 1, r.Slot); !ok || open.Status != approvals.StatusPending {
			t.Fatalf("slot %+v %v", open, ok)
		}
		if _, err := f.svc.Review(ctx, 1, r.ID, approvals.Decision{Approve: true, Reviewer: f.reviewer}); err != nil {
			t.Fatal(err)
		}
		var wins atomic.Int32
		var wg sync.WaitGroup
		for i := 0; i < 8; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := tbl.TransactWrite(ctx, approvals.ConsumeOps(1, r.Slot, r.ID, "job"+string(rune('a'+i)))...); err == nil {
					wins.Add(1)
				}
			}()
		}
		wg.Wait()
		if wins.Load() != 1 {
			t.Errorf("%d consumers won; want exactly 1", wins.Load())
		}
		if _, ok, _ := approvals.OpenIn(ctx, tbl, 1, r.Slot); ok {
			t.Error("the slot is still open after its approval was used")
		}
	})
}

// The approval step answers a request reviewed before it registered, and
// the review answers a step that registered first.
func TestAwaitDecision(t *testing.T) {
	dynamotest.Backends(t, time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC), func(t *testing.T, tbl store.Table, clock *storetest.Clock) {
		ctx := context.Background()
		f := newFixture(t, tbl, clock)
		early := f.propose(t, "opportunity:early", approvals.GateWorkflow)
		if _, err := f.svc.Review(ctx, 1, early.ID, approvals.Decision{Approve: false, Reviewer: f.reviewer}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.AwaitDecision(ctx, approvals.AwaitInput{TenantID: 1, ApprovalID: early.ID, TaskToken: "tok-early"}); err != nil {
			t.Fatal(err)
		}
		late := f.propose(t, "opportunity:late", approvals.GateWorkflow)
		if _, err := f.svc.AwaitDecision(ctx, approvals.AwaitInput{TenantID: 1, ApprovalID: late.ID, TaskToken: "tok-late"}); err != nil {
			t.Fatal(err)
		}
		if len(f.cb.successes)+len(f.cb.failures) != 1 {
			t.Fatalf("answers before the review: %v %v", f.cb.successes, f.cb.failures)
		}
		// The review answers the token the step registered.
		if _, err := f.svc.Review(ctx, 1, late.ID, approvals.Decision{Approve: false, Reviewer: f.reviewer, Reason: ptr("off-brand")}); err != nil {
			t.Fatal(err)
		}
		want := []string{"tok-early:ApprovalRejected", "tok-late:ApprovalRejected"}
		if len(f.cb.failures) != 2 || f.cb.failures[0] != want[0] || f.cb.failures[1] != want[1] {
			t.Errorf("failures %v, want %v", f.cb.failures, want)
		}
	})
}

func ptr[T any](v T) *T { return &v }

// The autonomy rules: which actions of which keys wait for a human.
func TestGated(t *testing.T) {
	cases := []struct {
		name   string
		p      auth.Principal
		action string
		want   bool
	}{
		{"human", auth.Principal{Autonomy: auth.L0}, "queries.run", false},
		{"L0 run", auth.Principal{IsAgent: true, Autonomy: auth.L0}, "queries.run", true},
		{"L0 webhook change", auth.Principal{IsAgent: true, Autonomy: auth.L0}, "webhooks.create", true},
		{"L0 publish", auth.Principal{IsAgent: true, Autonomy: auth.L0}, approvals.ActionPublish, true},
		{"L1 run", auth.Principal{IsAgent: true, Autonomy: auth.L1}, "gaps.detect", false},
		{"L1 publish", auth.Principal{IsAgent: true, Autonomy: auth.L1}, approvals.ActionPublish, true},
		{"L2 publish", auth.Principal{IsAgent: true, Autonomy: auth.L2}, approvals.ActionPublish, false},
		{"unknown level", auth.Principal{IsAgent: true, Autonomy: "L9"}, "gaps.detect", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := approvals.Gated(c.p, c.action); got != c.want {
				t.Errorf("Gated = %v, want %v", got, c.want)
			}
		})
	}
}

// An approved change without a job commits with its review, with the
// agent's entry naming the resource the change made; one that cannot be
// applied (its condition fails, or it cannot be prepared) is an
// *ApplyError with nothing written, the request still pending.
func TestReviewAppliesTheChangeInItsTransaction(t *testing.T) {
	errFull := errors.New("the tenant is full")
	made := store.Key{PK: "TENANT#1", SK: "THING#t1"}
	cases := []struct {
		name    string
		applier approvals.Applier
		wantErr error // nil: applied
	}{
		{"applied", func(context.Context, approvals.Request) (approvals.Applied, error) {
			return approvals.Applied{Ops: []store.Op{store.PutOp(store.Item{store.AttrPK: made.PK, store.AttrSK: made.SK}, store.NotExists())},
				ResourceRef: "thing:t1", Refused: func(int) error { return errFull }}, nil
		}, nil},
		{"refused by its condition", func(context.Context, approvals.Request) (approvals.Applied, error) {
			return approvals.Applied{Ops: []store.Op{store.PutOp(store.Item{store.AttrPK: made.PK, store.AttrSK: made.SK}, store.Exists())},
				ResourceRef: "thing:t1", Refused: func(int) error { return errFull }}, nil
		}, errFull},
		{"not prepared", func(context.Context, approvals.Request) (approvals.Applied, error) {
			return approvals.Applied{}, errFull
		}, errFull},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dynamotest.Backends(t, time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC), func(t *testing.T, tbl store.Table, clock *storetest.Clock) {
				ctx := context.Background()
				f := newFixture(t, tbl, clock)
				svc := approvals.NewService(tbl, f.cb, nil, map[string]approvals.Applier{"things.create": c.applier}, clock.Now)
				r := approvals.New(1, f.agent, "things.create", "thing:new", "things.create#thing:new", "make a thing", clock.Now())
				r.Gate = approvals.GateNone
				if _, err := svc.Create(ctx, r, audit.ActorOf(f.agent)); err != nil {
					t.Fatal(err)
				}
				_, err := svc.Review(ctx, 1, r.ID, approvals.Decision{Approve: true, Reviewer: f.reviewer})
				log, lerr := audit.NewLog(tbl).List(ctx, 1, audit.Filter{Limit: 200})
				if lerr != nil {
					t.Fatal(lerr)
				}
				byAction := map[string][]audit.Entry{}
				for _, e := range log.Items {
					byAction[e.Action] = append(byAction[e.Action], e)
				}
				_, gerr := tbl.Get(ctx, made)
				got, _ := svc.Get(ctx, 1, r.ID)
				if c.wantErr != nil {
					var ae *approvals.ApplyError
					if !errors.As(err, &ae) || !errors.Is(err, c.wantErr) {
						t.Fatalf("review: %v, want an *ApplyError of %v", err, c.wantErr)
					}
					n, _ := approvals.PendingCount(ctx, tbl, 1)
					if got.Status != approvals.StatusPending || n != 1 || gerr == nil ||
						len(byAction[approvals.ActionApprove]) != 0 || len(byAction["things.create"]) != 0 {
						t.Fatalf("after a refused approval: %s, pending %d, thing %v, audit %v", got.Status, n, gerr, byAction)
					}
					return
				}
				if err != nil || got.Status != approvals.StatusApproved || gerr != nil {
					t.Fatalf("review: %v; request %s; thing %v", err, got.Status, gerr)
				}
				applied := byAction["things.create"]
				if len(applied) != 1 || applied[0].Resource != "thing:t1" || applied[0].Actor.KeyID != f.agent.KeyID ||
					applied[0].Detail != "applied after approval "+r.ID || len(byAction[approvals.ActionApprove]) != 1 {
					t.Fatalf("audit %+v", byAction)
				}
			})
		})
	}
}
