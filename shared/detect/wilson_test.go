package detect

import (
	"math"
	"testing"
)

// Known values: Newcombe (1998), "Two-sided confidence intervals for the
// single proportion", Table II, method 3 (Wilson score, no continuity
// correction), plus textbook cases.
func TestWilsonInterval(t *testing.T) {
	for _, c := range []struct {
		s, n      int
		low, high float64
	}{
		{81, 263, 0.2553, 0.3662},
		{15, 148, 0.0624, 0.1605},
		{0, 20, 0, 0.1611},
		{1, 29, 0.0061, 0.1718},
		{29, 29, 0.8830, 1},
		{5, 10, 0.2366, 0.7634},
		{0, 10, 0, 0.2775},
		{1, 1, 0.2065, 1},
	} {
		lo, hi := WilsonInterval(c.s, c.n)
		if math.Abs(lo-c.low) > 5e-5 || math.Abs(hi-c.high) > 5e-5 {
			t.Errorf("WilsonInterval(%d, %d) = (%.4f, %.4f), want (%.4f, %.4f)", c.s, c.n, lo, hi, c.low, c.high)
		}
	}
	if lo, hi := WilsonInterval(0, 0); lo != 0 || hi != 1 {
		t.Errorf("n=0: (%v, %v)", lo, hi)
	}
	if lo, hi := WilsonInterval(12, 10); !(math.Abs(lo-0.7225) < 5e-5 && hi == 1) {
		t.Errorf("successes > n is not clamped: (%v, %v)", lo, hi)
	}
	// The interval contains the point estimate and narrows with n.
	for n := 1; n <= 200; n++ {
		for s := 0; s <= n; s++ {
			lo, hi := WilsonInterval(s, n)
			p := float64(s) / float64(n)
			if lo < 0 || hi > 1 || lo > p+1e-12 || hi < p-1e-12 {
				t.Fatalf("(%d,%d): (%v,%v) misses %v", s, n, lo, hi, p)
			}
		}
	}
	l1, h1 := WilsonInterval(5, 10)
	l2, h2 := WilsonInterval(50, 100)
	if h2-l2 >= h1-l1 {
		t.Errorf("interval does not narrow: %v vs %v", h2-l2, h1-l1)
	}
}
