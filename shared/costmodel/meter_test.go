package costmodel

import "testing"

// Without takes the kinds' work out of every total, and leaves the rest.
func TestWithout(t *testing.T) {
	u := Usage{RRU: 10, WRU: 20, Reads: 6, Writes: 4, Calls: 10, Items: map[string]ItemUse{
		"GSI1 OUTBOX": {Reads: 5, RRU: 2.5},
		"EVENT":       {Reads: 1, Writes: 4, RRU: 7.5, WRU: 20},
	}}
	got := u.Without("GSI1 OUTBOX", "ABSENT")
	if got.RRU != 7.5 || got.WRU != 20 || got.Reads != 1 || got.Writes != 4 || got.Calls != 5 {
		t.Errorf("without the outbox: %+v", got)
	}
	if _, ok := got.Items["GSI1 OUTBOX"]; ok || len(got.Items) != 1 {
		t.Errorf("items %v", got.Items)
	}
	if u.RRU != 10 || len(u.Items) != 2 {
		t.Errorf("the original changed: %+v", u)
	}
}
