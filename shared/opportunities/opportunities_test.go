package opportunities_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/opportunities"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/embedded"
)

// The lifecycle: which action may start from which status, and where it
// leads.
func TestLifecycle(t *testing.T) {
	allowed := map[string][]string{
		opportunities.ActionGenerateBrief:   {"open", "brief_ready"},
		opportunities.ActionGenerateContent: {"brief_ready", "content_ready", "published"},
		opportunities.ActionPublish:         {"content_ready", "published"},
		opportunities.ActionDismiss:         {"open", "brief_ready", "content_ready"},
	}
	now := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	for action, from := range allowed {
		for _, st := range opportunities.Statuses {
			o := opportunities.Opportunity{ID: "o1", Status: st}
			next, err := opportunities.Apply(o, action, now, nil)
			if slices.Contains(from, st) {
				if err != nil || next.Status != opportunities.To[action] || !next.UpdatedAt.Equal(now) {
					t.Errorf("%s from %s: %v %+v", action, st, err, next)
				}
				continue
			}
			var se *opportunities.StateError
			if !errors.As(err, &se) || !errors.Is(err, opportunities.ErrInvalidState) || se.Status != st || !slices.Equal(se.Allowed, from) {
				t.Errorf("%s from %s: %v", action, st, err)
			}
		}
	}
}

// Writes are conditional on the revision and status read: a stale writer
// fails and nothing is lost; RequireOp holds a status in a transaction.
func TestConditionalWrites(t *testing.T) {
	ctx := context.Background()
	tbl := embedded.NewMemory()
	repo := opportunities.NewRepo(tbl)
	now := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	o := opportunities.Opportunity{ID: "01m8z3k4q5r6s7t8v9w0x1y2z3", TenantID: 1, GapID: "g", Tier: "no_mention", Priority: 90, CreatedAt: now, UpdatedAt: now}
	op, err := opportunities.CreateOp(o)
	if err != nil {
		t.Fatal(err)
	}
	if err := tbl.TransactWrite(ctx, op); err != nil {
		t.Fatal(err)
	}
	if err := tbl.TransactWrite(ctx, op); !errors.Is(err, store.ErrConditionFailed) {
		t.Errorf("second create: %v", err)
	}
	read, err := repo.Get(ctx, 1, o.ID)
	if err != nil || read.Status != opportunities.StatusOpen || read.Brief != nil || read.Publish != nil {
		t.Fatalf("read %+v %v", read, err)
	}
	brief := opportunities.Brief{Title: "B"}
	next, _ := opportunities.Apply(read, opportunities.ActionGenerateBrief, now, func(x *opportunities.Opportunity) { x.Brief = &brief })
	w1, _ := opportunities.ReplaceOp(read, next)
	stale, _ := opportunities.Apply(read, opportunities.ActionDismiss, now, nil)
	w2, _ := opportunities.ReplaceOp(read, stale)
	if err := tbl.TransactWrite(ctx, w1); err != nil {
		t.Fatal(err)
	}
	if err := tbl.TransactWrite(ctx, w2); !errors.Is(err, store.ErrConditionFailed) {
		t.Errorf("stale write: %v", err)
	}
	if err := tbl.TransactWrite(ctx, opportunities.RequireOp(1, o.ID, opportunities.ActionGenerateContent)); err != nil {
		t.Errorf("content on brief_ready: %v", err)
	}
	for _, c := range []struct{ id, action string }{{o.ID, opportunities.ActionPublish}, {"01m8z3k4q5r6s7t8v9w0x1y2z4", opportunities.ActionGenerateBrief}} {
		if err := tbl.TransactWrite(ctx, opportunities.RequireOp(1, c.id, c.action)); !errors.Is(err, store.ErrConditionFailed) {
			t.Errorf("%s on %s: %v", c.action, c.id, err)
		}
	}
	list, next2, err := repo.List(ctx, 1, opportunities.StatusBriefReady, 0, "")
	if err != nil || len(list) != 1 || list[0].Brief.Title != "B" || next2 != "" {
		t.Errorf("list brief_ready: %+v %v", list, err)
	}
	if list, _, _ := repo.List(ctx, 1, opportunities.StatusOpen, 0, ""); len(list) != 0 {
		t.Errorf("list open: %d", len(list))
	}
	if _, _, err := repo.List(ctx, 1, "closed", 0, ""); err == nil {
		t.Error("unknown status accepted")
	}
	if _, err := repo.Get(ctx, 2, o.ID); !errors.Is(err, opportunities.ErrNotFound) {
		t.Errorf("another tenant's opportunity: %v", err)
	}
}
