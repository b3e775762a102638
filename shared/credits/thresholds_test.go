package credits_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/credits"
	"github.com/brandlens/brandlens/shared/events"
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

func types(evs []events.Event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.Type)
	}
	return out
}

func TestThresholdEvents(t *testing.T) {
	now := time.Date(2026, 11, 3, 22, 15, 0, 0, time.UTC)
	bal := func(avail, granted, spent int64) credits.Balance {
		return credits.Balance{Available: avail, Granted: granted, SpentToday: spent}
	}
	cases := []struct {
		name          string
		before, after credits.Balance
		ceiling       int64
		want          []string
	}{
		{"no change", bal(500, 1000, 0), bal(500, 1000, 0), 500, nil},
		{"spend above the threshold", bal(500, 1000, 0), bal(400, 1000, 100), 500, nil},
		{"cross low (10% of 1000 = 100)", bal(105, 1000, 0), bal(99, 1000, 6), 500, []string{events.CreditLow}},
		{"land exactly on the threshold is not low", bal(105, 1000, 0), bal(100, 1000, 5), 500, nil},
		{"already low: once per crossing", bal(90, 1000, 0), bal(80, 1000, 10), 500, nil},
		{"minimum threshold 10 for small grants", bal(12, 50, 0), bal(9, 50, 3), 500, []string{events.CreditLow}},
		{"a grant lifts it back: no event", bal(5, 50, 0), bal(1005, 1050, 0), 500, nil},
		{"reach the ceiling", bal(900, 1000, 490), bal(890, 1000, 500), 500, []string{events.CreditCeilingReached}},
		{"pass the ceiling", bal(900, 1000, 499), bal(890, 1000, 509), 500, []string{events.CreditCeilingReached}},
		{"already at the ceiling", bal(900, 1000, 500), bal(899, 1000, 501), 500, nil},
		{"no ceiling", bal(900, 1000, 490), bal(890, 1000, 5000), 0, nil},
		{"both at once", bal(101, 1000, 495), bal(95, 1000, 501), 500, []string{events.CreditLow, events.CreditCeilingReached}},
		{"a release that lowers spend", bal(50, 1000, 500), bal(60, 1000, 490), 500, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			evs, err := credits.ThresholdEvents(7, c.before, c.after, c.ceiling, now)
			if err != nil {
				t.Fatal(err)
			}
			got := types(evs)
			if len(got) != len(c.want) {
				t.Fatalf("events %v, want %v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Fatalf("events %v, want %v", got, c.want)
				}
			}
			for _, e := range evs {
				if e.TenantID != 7 || e.ID == "" || !e.CreatedAt.Equal(now) {
					t.Errorf("event %+v", e)
				}
			}
		})
	}
}

func TestThresholdPayloads(t *testing.T) {
	now := time.Date(2026, 11, 3, 22, 15, 0, 0, time.UTC)
	evs, err := credits.ThresholdEvents(3, credits.Balance{Available: 101, Granted: 1000, SpentToday: 495},
		credits.Balance{Available: 95, Granted: 1000, SpentToday: 501}, 500, now)
	if err != nil || len(evs) != 2 {
		t.Fatalf("%v %v", evs, err)
	}
	var low events.CreditLowData
	if err := json.Unmarshal(evs[0].Data, &low); err != nil {
		t.Fatal(err)
	}
	if low != (events.CreditLowData{Balance: 95, Threshold: 100, Granted: 1000}) {
		t.Errorf("credit.low data %+v", low)
	}
	var ceil events.CreditCeilingReachedData
	if err := json.Unmarshal(evs[1].Data, &ceil); err != nil {
		t.Fatal(err)
	}
	if ceil.Ceiling != 500 || ceil.SpentToday != 501 || !ceil.ResetsAt.Equal(time.Date(2026, 11, 4, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("credit.ceiling_reached data %+v", ceil)
	}
}
