package publish

import "testing"

// A failed condition in record's transaction is read by its op's index:
// the done record (0), the opportunity (1), the gap's ops (2…); the
// event, audit and page-index ops after them hold no condition a retry
// could meet.
func TestRecordConflict(t *testing.T) {
	cases := []struct {
		name              string
		index, gapOps     int
		recorded, changed bool
	}{
		{"done record", 0, 1, true, false},
		{"opportunity, no gap op", 1, 0, false, true},
		{"opportunity, one gap op", 1, 1, false, true},
		{"gap", 2, 1, false, true},
		{"past the gap", 3, 1, false, false},
		{"past the opportunity, no gap op", 2, 0, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			recorded, changed := recordConflict(c.index, c.gapOps)
			if recorded != c.recorded || changed != c.changed {
				t.Errorf("recordConflict(%d, %d) = %t, %t; want %t, %t", c.index, c.gapOps, recorded, changed, c.recorded, c.changed)
			}
		})
	}
}
