package detect

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// sentimentGrid is the calibration grid of the brand's sentiment: VADER
// off, and the valences from which a word only VADER knows counts in a
// predicate and, as an "-ed"/"-ing" criticism, anywhere.
var sentimentGrid = func() []sentParams {
	g := []sentParams{{}}
	for _, lo := range []float32{0.5, 1.0, 1.5, 2.0, 2.5} {
		for _, free := range []float32{0, 2.0, 2.5} {
			g = append(g, sentParams{vaderMin: lo, vaderFree: free, vaderStrong: 3.0})
		}
	}
	return g
}()

func (p sentParams) String() string {
	if p.vaderMin <= 0 {
		return "vader off"
	}
	return fmt.Sprintf("pred≥%.1f free≥%.1f", p.vaderMin, p.vaderFree)
}

// sentimentSet is one calibration set: a held-out batch or a corpus half,
// its answers that carry a sentiment label.
type sentimentSet struct {
	name  string
	cases []corpusCase
}

func loadSentimentSets(t *testing.T) []sentimentSet {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "heldout", "*.jsonl"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("held-out batches: %v (%d)", err, len(paths))
	}
	paths = append(paths, filepath.Join("testdata", "corpus", "tune.jsonl"), filepath.Join("testdata", "corpus", "holdout.jsonl"))
	var sets []sentimentSet
	for _, p := range paths {
		var cs []corpusCase
		for _, c := range loadCases(t, p) {
			if c.Sentiment != "" {
				cs = append(cs, c)
			}
		}
		sets = append(sets, sentimentSet{name: strings.TrimSuffix(filepath.Base(p), ".jsonl"), cases: cs})
	}
	return sets
}

// reading is one answer read at one grid point.
type reading struct {
	found, ok, neg, negOK bool
}

func readCase(c corpusCase, pm sentParams) reading {
	d := New(c.Brand, c.Competitors, withSentParams(pm))
	r, _ := d.Analyze(context.Background(), Input{Text: c.Text, Citations: c.Citations, Query: c.Query})
	rd := reading{found: r.Verdict == VerdictMentioned, neg: c.Sentiment == Negative}
	rd.ok = rd.found && r.Sentiment == c.Sentiment
	rd.negOK = rd.found && rd.neg && (r.Sentiment == Negative || r.Sentiment == Mixed)
	return rd
}

// tally sums readings: agreement over the answers whose brand is found,
// and negative answers read negative or mixed.
type tally struct{ ok, n, negOK, negN int }

func (t *tally) add(r reading) {
	if !r.found {
		return
	}
	t.n++
	if r.ok {
		t.ok++
	}
	if r.neg {
		t.negN++
		if r.negOK {
			t.negOK++
		}
	}
}

func (t *tally) plus(u tally) {
	t.ok, t.n, t.negOK, t.negN = t.ok+u.ok, t.n+u.n, t.negOK+u.negOK, t.negN+u.negN
}

func (t tally) String() string {
	return fmt.Sprintf("%4.2f %3d/%-3d neg %2d/%-2d", ratio(t.ok, t.n), t.ok, t.n, t.negOK, t.negN)
}

// better: more negatives read negative or mixed, then more agreement.
func (t tally) better(u tally) bool { return t.negOK > u.negOK || t.negOK == u.negOK && t.ok > u.ok }

// TestSentimentCalibration calibrates the brand's sentiment on every set
// (held-out batches and corpus halves: all tuning data now) and measures
// how it generalises by leave-one-set-out: for each set, the grid point
// best on the other sets is scored on the set left out. It fails when the
// shipped defaults are not the point the whole data picks.
func TestSentimentCalibration(t *testing.T) {
	sets := loadSentimentSets(t)
	grid := make([][]tally, len(sentimentGrid)) // [point][set]
	for i, pm := range sentimentGrid {
		grid[i] = make([]tally, len(sets))
		for j, s := range sets {
			for _, c := range s.cases {
				grid[i][j].add(readCase(c, pm))
			}
		}
	}
	// choose picks the point best on the sets other than skip (-1: none);
	// among tied points, the middle one of the grid's order — the data
	// cannot tell them apart, so the threshold furthest from both ends of
	// the tied range.
	choose := func(skip int) int {
		var tied []int
		bt := tally{ok: -1, negOK: -1}
		for i := range grid {
			var tl tally
			for j, x := range grid[i] {
				if j != skip {
					tl.plus(x)
				}
			}
			switch {
			case tl.better(bt):
				tied, bt = []int{i}, tl
			case !bt.better(tl):
				tied = append(tied, i)
			}
		}
		return tied[(len(tied)-1)/2]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-20s", "point")
	for _, s := range sets {
		fmt.Fprintf(&b, " %-9s", s.name)
	}
	b.WriteString(" all\n")
	for i, pm := range sentimentGrid {
		fmt.Fprintf(&b, "%-20s", pm)
		var tl tally
		for _, x := range grid[i] {
			tl.plus(x)
			fmt.Fprintf(&b, " %3d/%-5d", x.ok, x.n)
		}
		fmt.Fprintf(&b, " %s\n", tl)
	}
	b.WriteString("leave one set out (the point chosen on the other sets, scored on the set left out; beside it, VADER off):\n")
	var lo, base tally
	for j, s := range sets {
		i := choose(j)
		lo.plus(grid[i][j])
		base.plus(grid[0][j])
		fmt.Fprintf(&b, "  %-10s %-20s %s   off %s\n", s.name, sentimentGrid[i], grid[i][j], grid[0][j])
	}
	fmt.Fprintf(&b, "  %-10s %-20s %s   off %s\n", "all", "", lo, base)
	bi := choose(-1)
	fmt.Fprintf(&b, "chosen on every set: %s", sentimentGrid[bi])
	t.Logf("\n%s", b.String())
	if sentimentGrid[bi] != defaultSentParams {
		t.Errorf("defaultSentParams = %s, the calibration picks %s", defaultSentParams, sentimentGrid[bi])
	}
}
