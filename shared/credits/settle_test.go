package credits_test

import (
	"context"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/credits"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamotest"
	"github.com/brandlens/brandlens/shared/store/storetest"
)

func TestMain(m *testing.M) { dynamotest.Main(m) }

// A hold is committed on the day it is made (the ceiling counts it) and
// spent on the day it is captured; the released part goes back to the
// allowance of the day it was made. Held credits are never counted as
// spent.
func TestSpentTodayCountsCapturedCreditsOnly(t *testing.T) {
	day1 := time.Date(2026, 11, 3, 23, 50, 0, 0, time.UTC)
	day2 := day1.Add(20 * time.Minute) // 00:10 the next UTC day
	cases := []struct {
		name      string
		settleAt  time.Time
		reserve   int64
		capture   int64
		day1      credits.Balance // SpentToday and CommittedToday read on day 1 after the settle
		day2      credits.Balance // the same, read on day 2
		ledgerAft credits.Balance // Available, Held, Captured after the settle
	}{
		{name: "same day, partial", settleAt: day1, reserve: 10, capture: 4,
			day1: credits.Balance{SpentToday: 4, CommittedToday: 4}, day2: credits.Balance{},
			ledgerAft: credits.Balance{Available: 96, Held: 0, Captured: 4}},
		{name: "same day, all", settleAt: day1, reserve: 10, capture: 10,
			day1:      credits.Balance{SpentToday: 10, CommittedToday: 10},
			ledgerAft: credits.Balance{Available: 90, Captured: 10}},
		{name: "same day, nothing", settleAt: day1, reserve: 10, capture: 0,
			day1: credits.Balance{}, ledgerAft: credits.Balance{Available: 100}},
		{name: "next day, partial", settleAt: day2, reserve: 10, capture: 4,
			day1: credits.Balance{CommittedToday: 4}, day2: credits.Balance{SpentToday: 4},
			ledgerAft: credits.Balance{Available: 96, Captured: 4}},
		{name: "next day, all", settleAt: day2, reserve: 10, capture: 10,
			day1: credits.Balance{CommittedToday: 10}, day2: credits.Balance{SpentToday: 10},
			ledgerAft: credits.Balance{Available: 90, Captured: 10}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dynamotest.Backends(t, day1, func(t *testing.T, tbl store.Table, _ *storetest.Clock) {
				ctx := context.Background()
				now := day1
				l := credits.NewLedger(tbl, func() time.Time { return now })
				if err := l.Grant(ctx, tenant, 100, "test"); err != nil {
					t.Fatal(err)
				}
				if err := tbl.TransactWrite(ctx, credits.ReserveOps(tenant, "job1", tc.reserve, 500, day1)...); err != nil {
					t.Fatal(err)
				}
				b, err := l.Balance(ctx, tenant)
				if err != nil {
					t.Fatal(err)
				}
				if b.Held != tc.reserve || b.SpentToday != 0 || b.CommittedToday != tc.reserve {
					t.Fatalf("after the reservation: %+v (held credits are not spent)", b)
				}
				h, err := l.GetHold(ctx, tenant, "job1")
				if err != nil {
					t.Fatal(err)
				}
				ops, err := credits.SettleOps(tenant, "job1", h, tc.capture, tc.settleAt)
				if err != nil {
					t.Fatal(err)
				}
				if err := tbl.TransactWrite(ctx, ops...); err != nil {
					t.Fatal(err)
				}
				for _, at := range []struct {
					now  time.Time
					want credits.Balance
				}{{day1, tc.day1}, {day2, tc.day2}} {
					now = at.now
					b, err := l.Balance(ctx, tenant)
					if err != nil {
						t.Fatal(err)
					}
					if b.SpentToday != at.want.SpentToday || b.CommittedToday != at.want.CommittedToday {
						t.Errorf("on %s: spent %d committed %d, want %d and %d", at.now.Format(time.DateOnly),
							b.SpentToday, b.CommittedToday, at.want.SpentToday, at.want.CommittedToday)
					}
					if b.Available != tc.ledgerAft.Available || b.Held != 0 || b.Captured != tc.ledgerAft.Captured ||
						b.Available+b.Held+b.Captured != b.Granted {
						t.Errorf("ledger %+v", b)
					}
				}
			})
		})
	}
}
