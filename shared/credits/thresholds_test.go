package credits_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/credits"
	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/embedded"
)

func TestLowThreshold(t *testing.T) {
	for _, c := range []struct{ granted, want int64 }{
		{0, 10}, {50, 10}, {100, 10}, {101, 11}, {105, 11}, {1000, 100}, {1001, 101}, {25000, 2500},
	} {
		if got := credits.LowThreshold(c.granted); got != c.want {
			t.Errorf("LowThreshold(%d) = %d, want %d", c.granted, got, c.want)
		}
	}
	// 10% of 105 is 10.5: 10 credits are below it, 11 are not.
	if !credits.IsLow(credits.Balance{Available: 10, Granted: 105}) || credits.IsLow(credits.Balance{Available: 11, Granted: 105}) {
		t.Error("IsLow misreads 10% of 105")
	}
}

// ledgerAt is a tenant's ledger on a fresh table; set stores a state as
// the credit operations would leave it, and check runs CheckThresholds and
// returns the events it appended.
type ledgerAt struct {
	tbl    *embedded.Table
	ledger *credits.Ledger
	now    time.Time
}

const tenant = 7

func newLedgerAt(now time.Time) *ledgerAt {
	tbl := embedded.NewMemory(embedded.WithClock(func() time.Time { return now }))
	return &ledgerAt{tbl: tbl, ledger: credits.NewLedger(tbl, func() time.Time { return now }), now: now}
}

func (l *ledgerAt) set(t *testing.T, b credits.Balance) {
	t.Helper()
	ledger, day := credits.LedgerKey(tenant), credits.DayKey(tenant, l.now)
	for _, it := range []store.Item{
		{store.AttrPK: ledger.PK, store.AttrSK: ledger.SK, credits.AttrAvailable: b.Available, credits.AttrHeld: 0,
			credits.AttrCaptured: b.Granted - b.Available, credits.AttrGranted: b.Granted},
		{store.AttrPK: day.PK, store.AttrSK: day.SK, credits.AttrSpent: b.CommittedToday, credits.AttrCapturedToday: b.SpentToday},
	} {
		if err := l.tbl.Put(context.Background(), it, store.Cond{}); err != nil {
			t.Fatal(err)
		}
	}
}

func (l *ledgerAt) check(t *testing.T, ceiling int64) []outbox.Event {
	t.Helper()
	ctx := context.Background()
	if err := l.ledger.CheckThresholds(ctx, tenant, ceiling); err != nil {
		t.Fatal(err)
	}
	evs, err := outbox.Pending(ctx, l.tbl, 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range evs {
		if err := outbox.MarkDone(ctx, l.tbl, ev); err != nil {
			t.Fatal(err)
		}
	}
	return evs
}

// TestThresholdEvents: the events CheckThresholds emits when the ledger
// moves along a path of states, for the last step (what the earlier states
// called for was emitted already).
func TestThresholdEvents(t *testing.T) {
	now := time.Date(2026, 11, 3, 22, 15, 0, 0, time.UTC)
	bal := func(avail, granted, committed int64) credits.Balance {
		return credits.Balance{Available: avail, Granted: granted, CommittedToday: committed}
	}
	cases := []struct {
		name    string
		path    []credits.Balance
		ceiling int64
		want    []string
	}{
		{"no change", []credits.Balance{bal(500, 1000, 0), bal(500, 1000, 0)}, 500, nil},
		{"spend above the threshold", []credits.Balance{bal(500, 1000, 0), bal(400, 1000, 100)}, 500, nil},
		{"cross low (10% of 1000 = 100)", []credits.Balance{bal(105, 1000, 0), bal(99, 1000, 6)}, 500, []string{outbox.CreditLow}},
		{"land exactly on the threshold is not low", []credits.Balance{bal(105, 1000, 0), bal(100, 1000, 5)}, 500, nil},
		{"already low: once per crossing", []credits.Balance{bal(90, 1000, 0), bal(80, 1000, 10)}, 500, nil},
		{"minimum threshold 10 for small grants", []credits.Balance{bal(12, 50, 0), bal(9, 50, 3)}, 500, []string{outbox.CreditLow}},
		{"a grant lifts it back: no event", []credits.Balance{bal(5, 50, 0), bal(1005, 1050, 0)}, 500, nil},
		{"low again after a lift", []credits.Balance{bal(5, 50, 0), bal(1005, 1050, 0), bal(50, 1050, 0)}, 500, []string{outbox.CreditLow}},
		{"reach the ceiling", []credits.Balance{bal(900, 1000, 490), bal(890, 1000, 500)}, 500, []string{outbox.CreditCeilingReached}},
		{"pass the ceiling", []credits.Balance{bal(900, 1000, 499), bal(890, 1000, 509)}, 500, []string{outbox.CreditCeilingReached}},
		{"already at the ceiling", []credits.Balance{bal(900, 1000, 500), bal(899, 1000, 501)}, 500, nil},
		{"no ceiling", []credits.Balance{bal(900, 1000, 490), bal(890, 1000, 5000)}, 0, nil},
		{"both at once", []credits.Balance{bal(101, 1000, 495), bal(95, 1000, 501)}, 500, []string{outbox.CreditCeilingReached, outbox.CreditLow}},
		{"a release that lowers spend", []credits.Balance{bal(50, 1000, 500), bal(60, 1000, 490)}, 500, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := newLedgerAt(now)
			var evs []outbox.Event
			for _, b := range c.path {
				l.set(t, b)
				evs = l.check(t, c.ceiling)
			}
			got := make([]string, len(evs))
			for i, e := range evs {
				got[i] = e.Type
				if e.TenantID != tenant || e.ID == "" || !e.CreatedAt.Equal(now) {
					t.Errorf("event %+v", e)
				}
			}
			if slices.Sort(got); !slices.Equal(got, c.want) {
				t.Fatalf("events %v, want %v", got, c.want)
			}
		})
	}
}

func TestThresholdPayloads(t *testing.T) {
	now := time.Date(2026, 11, 3, 22, 15, 0, 0, time.UTC)
	l := newLedgerAt(now)
	l.set(t, credits.Balance{Available: 101, Granted: 1000, CommittedToday: 495})
	l.check(t, 500)
	l.set(t, credits.Balance{Available: 95, Granted: 1000, CommittedToday: 501, SpentToday: 120})
	evs := l.check(t, 500)
	if len(evs) != 2 {
		t.Fatalf("events %+v", evs)
	}
	for _, ev := range evs {
		switch ev.Type {
		case outbox.CreditLow:
			var low outbox.CreditLowData
			if err := json.Unmarshal(ev.Data, &low); err != nil {
				t.Fatal(err)
			}
			if low != (outbox.CreditLowData{Balance: 95, Threshold: 100, Granted: 1000}) {
				t.Errorf("credit.low data %+v", low)
			}
		case outbox.CreditCeilingReached:
			var ceil outbox.CreditCeilingReachedData
			if err := json.Unmarshal(ev.Data, &ceil); err != nil {
				t.Fatal(err)
			}
			if ceil.Ceiling != 500 || ceil.CommittedToday != 501 || ceil.SpentToday != 120 || !ceil.ResetsAt.Equal(time.Date(2026, 11, 4, 0, 0, 0, 0, time.UTC)) {
				t.Errorf("credit.ceiling_reached data %+v", ceil)
			}
		default:
			t.Errorf("unexpected %s", ev.Type)
		}
	}
}

// TestCeilingEventPerTenantAndDay: credit.ceiling_reached fires once per
// tenant per UTC day, and its event_id is unique across tenants and days
// (consumers dedupe on it) — a per-day id was once shared by every tenant.
func TestCeilingEventPerTenantAndDay(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 3, 22, 15, 0, 0, time.UTC)
	tbl := embedded.NewMemory(embedded.WithClock(func() time.Time { return now }))
	ledger := credits.NewLedger(tbl, func() time.Time { return now })
	reach := func(tenantID int32) {
		t.Helper()
		ledgerKey, day := credits.LedgerKey(tenantID), credits.DayKey(tenantID, now)
		for _, it := range []store.Item{
			{store.AttrPK: ledgerKey.PK, store.AttrSK: ledgerKey.SK, credits.AttrAvailable: int64(500), credits.AttrHeld: 0,
				credits.AttrCaptured: int64(500), credits.AttrGranted: int64(1000)},
			{store.AttrPK: day.PK, store.AttrSK: day.SK, credits.AttrSpent: int64(500), credits.AttrCapturedToday: int64(500)},
		} {
			if err := tbl.Put(ctx, it, store.Cond{}); err != nil {
				t.Fatal(err)
			}
		}
		for range 2 { // a second check the same day fires nothing more
			if err := ledger.CheckThresholds(ctx, tenantID, 500); err != nil {
				t.Fatal(err)
			}
		}
	}
	reach(1)
	reach(2)
	now = now.Add(24 * time.Hour)
	reach(1)
	evs, err := outbox.Pending(ctx, tbl, 100)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var tenants []int32
	for _, ev := range evs {
		if ev.Type != outbox.CreditCeilingReached {
			continue
		}
		if seen[ev.ID] || !strings.HasPrefix(ev.ID, "evt_") || len(ev.ID) != len("evt_")+26 {
			t.Errorf("event id %q: want a fresh evt_<ULID>", ev.ID)
		}
		seen[ev.ID] = true
		tenants = append(tenants, ev.TenantID)
	}
	if slices.Sort(tenants); !slices.Equal(tenants, []int32{1, 1, 2}) {
		t.Errorf("ceiling events for tenants %v, want [1 1 2] (once per tenant per day)", tenants)
	}
}
