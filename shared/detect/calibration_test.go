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
// predicate, as a criticism anywhere, and anywhere at all (the turn's
// weights at their defaults).
var sentimentGrid = func() []sentParams {
	off := defaultSentParams
	off.vaderMin, off.vaderFree, off.vaderAny, off.vaderStrong = 0, 0, 0, 0
	g := []sentParams{off}
	for _, pred := range []float32{0.5, 1.0, 1.5} {
		for _, free := range []float32{0, 1.5, 2.0} {
			for _, anyV := range []float32{0, 2.5, 3.0} {
				p := defaultSentParams
				p.vaderMin, p.vaderFree, p.vaderAny, p.vaderStrong = pred, free, anyV, 3.0
				g = append(g, p)
			}
		}
	}
	return g
}()

// turnGrid is the calibration grid of how the balance of praise and
// criticism is read (VADER's thresholds at their defaults): the weight of
// a hedged concession and of a price conceded before "but" (contrastTurn),
// the reservation read into a "but" after praise, the weight of a
// criticism denied, whether a labelled verdict line and an announced
// caveat decide, whether a need answered by the brand recommends it, and
// the mixed ratio. The first point reads none of them.
var turnGrid = func() []sentParams {
	var g []sentParams
	for _, rules := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
		for _, inferred := range []float64{0, 1} {
			for _, concede := range []float64{1, 0.5} {
				for _, cost := range []float64{1, 0.5} {
					for _, denied := range []float64{0.8, 0.4} {
						for _, ratio := range []float64{0.34, 0.4} {
							p := defaultSentParams
							p.concede, p.concedeCost, p.inferred, p.denied = concede, cost, inferred, denied
							p.verdictLine, p.caveat, p.needAsked, p.mixedRatio = rules[0], rules[0], rules[1], ratio
							g = append(g, p)
						}
					}
				}
			}
		}
	}
	return g
}()

func (p sentParams) String() string {
	turn := fmt.Sprintf("concede×%.1f price×%.1f but+%.0f denied×%.1f verdict,caveat=%v need=%v mixed≥%.2f", p.concede, p.concedeCost,
		p.inferred, p.denied, p.verdictLine, p.needAsked, p.mixedRatio)
	if p.vaderMin <= 0 {
		return "vader off " + turn
	}
	return fmt.Sprintf("pred≥%.1f free≥%.1f any≥%.1f %s", p.vaderMin, p.vaderFree, p.vaderAny, turn)
}

// sentimentSet is one calibration set: a held-out batch or a corpus half,
// its answers that carry a sentiment label.
type sentimentSet struct {
	name  string
	cases []corpusCase
}

// measureOnly are the batches written blind and not tuned on: the
// calibration never sees them, so they keep measuring the weights it
// picks (TestHeldout reads them).
var measureOnly = map[string]bool{"batch-p.jsonl": true, "batch-q.jsonl": true, "batch-r.jsonl": true, "batch-s.jsonl": true, "batch-t.jsonl": true, "batch-u.jsonl": true, "batch-v.jsonl": true, "batch-w.jsonl": true,
	"batch-x.jsonl": true, "batch-y.jsonl": true, "batch-z.jsonl": true, "batch-o.jsonl": true, "batch-aa.jsonl": true,
	"batch-ab.jsonl": true, "batch-ac.jsonl": true, "batch-ad.jsonl": true, "batch-ae.jsonl": true, "batch-af.jsonl": true, "batch-ag.jsonl": true,
	"batch-ah.jsonl": true, "batch-ai.jsonl": true, "batch-aj.jsonl": true, "batch-ak.jsonl": true, "batch-al.jsonl": true,
	"batch-am.jsonl": true, "batch-an.jsonl": true, "batch-ao.jsonl": true,
	"batch-ap.jsonl": true, "batch-aq.jsonl": true, "batch-ar.jsonl": true, "batch-at.jsonl": true, "batch-au.jsonl": true,
	"batch-as.jsonl": true, "batch-av.jsonl": true, "batch-az.jsonl": true, "batch-aw.jsonl": true, "batch-ax.jsonl": true, "batch-ay.jsonl": true}

func loadSentimentSets(t *testing.T) []sentimentSet {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "heldout", "*.jsonl"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("held-out batches: %v (%d)", err, len(paths))
	}
	paths = append(paths, filepath.Join("testdata", "corpus", "tune.jsonl"), filepath.Join("testdata", "corpus", "holdout.jsonl"))
	var sets []sentimentSet
	for _, p := range paths {
		if measureOnly[filepath.Base(p)] {
			continue
		}
		var cs []corpusCase
		for _, c := range loadCases(t, p) {
			if c.Sentiment != "" {
				cs = append(cs, c)
			}
		}
		sets = append(sets, sentimentSet{name: strings.TrimSuffix(filepath.Base(p), ".jsonl"), cases: cs})
	}
	var cs []corpusCase
	for _, c := range sentimentClasses() {
		cs = append(cs, corpusCase{ID: c.name, Brand: c.brand, Competitors: c.comps, Query: c.query, Text: c.text, Sentiment: c.want})
	}
	return append(sets, sentimentSet{name: "classes", cases: cs})
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
// best on the other sets is scored on the set left out. Best: more
// negatives read negative or mixed, then more agreement; the hand rules
// were written for these sets, so many points tie on them, and the tie
// goes to the point that reads them best with the curated words VADER
// also knows taken out (TestSentimentAblation: words not yet listed stand
// for the next batch's), then to the middle of the tied points. It fails
// when the shipped defaults are not the point the whole data picks.
func TestSentimentCalibration(t *testing.T) {
	calibrate(t, loadSentimentSets(t), sentimentGrid, true)
}

// TestTurnCalibration calibrates how a sentence's turn at "but" is read,
// as TestSentimentCalibration does VADER's thresholds.
func TestTurnCalibration(t *testing.T) {
	calibrate(t, loadSentimentSets(t), turnGrid, false)
}

// calibrate scores every point of points on every set, reports the
// leave-one-set-out figures and fails unless the defaults are the point
// the whole data picks (ties: TestSentimentCalibration; without ablate,
// the ablated reading is not taken and ties go to the middle point).
func calibrate(t *testing.T, sets []sentimentSet, points []sentParams, ablate bool) {
	t.Helper()
	grid := make([][]tally, len(points)) // [point][set]
	ablated := make([][]tally, len(points))
	for i, pm := range points {
		grid[i], ablated[i] = make([]tally, len(sets)), make([]tally, len(sets))
		ab := pm
		ab.ablate = true
		for j, s := range sets {
			for _, c := range s.cases {
				grid[i][j].add(readCase(c, pm))
				if ablate {
					ablated[i][j].add(readCase(c, ab))
				}
			}
		}
	}
	sum := func(g []tally, skip int) (tl tally) {
		for j, x := range g {
			if j != skip {
				tl.plus(x)
			}
		}
		return tl
	}
	// choose picks the point best on the sets other than skip (-1: none).
	choose := func(skip int) int {
		var tied []int
		bt, ba := tally{ok: -1, negOK: -1}, tally{ok: -1, negOK: -1}
		for i := range grid {
			tl, ta := sum(grid[i], skip), sum(ablated[i], skip)
			switch {
			case tl.better(bt) || !bt.better(tl) && ta.better(ba):
				tied, bt, ba = []int{i}, tl, ta
			case !bt.better(tl) && !ba.better(ta):
				tied = append(tied, i)
			}
		}
		return tied[(len(tied)-1)/2]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-100s", "point")
	for _, s := range sets {
		fmt.Fprintf(&b, " %-8s", s.name)
	}
	b.WriteString(" all                       ablated\n")
	for i, pm := range points {
		fmt.Fprintf(&b, "%-100s", pm)
		for _, x := range grid[i] {
			fmt.Fprintf(&b, " %3d/%-4d", x.ok, x.n)
		}
		fmt.Fprintf(&b, " %s  %s\n", sum(grid[i], -1), sum(ablated[i], -1))
	}
	b.WriteString("leave one set out (the point chosen on the other sets, scored on the set left out; beside it, the first point):\n")
	var lo, base tally
	for j, s := range sets {
		i := choose(j)
		lo.plus(grid[i][j])
		base.plus(grid[0][j])
		fmt.Fprintf(&b, "  %-10s %-100s %s   first point %s\n", s.name, points[i], grid[i][j], grid[0][j])
	}
	fmt.Fprintf(&b, "  %-10s %-100s %s   first point %s\n", "all", "", lo, base)
	bi := choose(-1)
	fmt.Fprintf(&b, "chosen on every set: %s", points[bi])
	t.Logf("\n%s", b.String())
	if points[bi] != defaultSentParams {
		t.Errorf("defaultSentParams = %s, the calibration picks %s", defaultSentParams, points[bi])
	}
}

// TestSentimentAblation measures what VADER knows of the hand-kept
// lexicon: the curated polar words VADER also scores are taken out, and
// the sets are read without VADER and with it (defaults). The words a
// person added round after round are the ones fresh answers use; VADER
// finding them is the evidence that it finds the next ones.
func TestSentimentAblation(t *testing.T) {
	n := 0
	for w := range positiveWords {
		if vaderValence(w) != 0 {
			n++
		}
	}
	for w := range negativeWords {
		if vaderValence(w) != 0 {
			n++
		}
	}
	sets := loadSentimentSets(t)
	cut, cutVader := sentParams{ablate: true}, defaultSentParams
	cutVader.ablate = true
	var full, without, with tally
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d curated polar words are VADER's\n%-10s %-24s %-24s %s\n", n, len(positiveWords)+len(negativeWords),
		"set", "curated lexicon + VADER", "curated minus VADER's", "curated minus VADER's, + VADER")
	for _, s := range sets {
		var a, c, v tally
		for _, cs := range s.cases {
			a.add(readCase(cs, defaultSentParams))
			c.add(readCase(cs, cut))
			v.add(readCase(cs, cutVader))
		}
		full.plus(a)
		without.plus(c)
		with.plus(v)
		fmt.Fprintf(&b, "%-10s %-24s %-24s %s\n", s.name, a, c, v)
	}
	fmt.Fprintf(&b, "%-10s %-24s %-24s %s", "all", full, without, with)
	t.Logf("\n%s", b.String())
	if !with.better(without) {
		t.Errorf("VADER recovers nothing of the curated words: %s without it, %s with it", without, with)
	}
}

// oracle answers the sentiment questions as the labeller reads the answer.
type oracle struct {
	gold  Sentiment
	asked int
}

func (o *oracle) Adjudicate(_ context.Context, req AdjudicationRequest) (bool, error) {
	switch req.Question {
	case QuestionCriticism:
		o.asked++
		return o.gold == Negative || o.gold == Mixed, nil
	case QuestionPraise:
		o.asked++
		return o.gold == Positive || o.gold == Mixed, nil
	}
	return true, nil // a mention question: the labelled sets name the brand
}

// TestSentimentAdjudicationCeiling measures the sentiment adjudication's
// band on every set: how many answers it asks about, how many questions,
// and the agreement if the model read each answer as its labeller did —
// the most a model can add to the rules.
func TestSentimentAdjudicationCeiling(t *testing.T) {
	var rules, ceiling tally
	answers, asked, questions := 0, 0, 0
	for _, s := range loadSentimentSets(t) {
		for _, c := range s.cases {
			in := Input{Text: c.Text, Citations: c.Citations, Query: c.Query}
			r, _ := New(c.Brand, c.Competitors).Analyze(context.Background(), in)
			o := &oracle{gold: c.Sentiment}
			a, err := New(c.Brand, c.Competitors, WithAdjudicator(o)).Analyze(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != VerdictMentioned || a.Verdict != VerdictMentioned {
				continue
			}
			answers++
			if o.asked > 0 {
				asked++
				questions += o.asked
			}
			rules.add(reading{found: true, ok: r.Sentiment == c.Sentiment, neg: c.Sentiment == Negative,
				negOK: r.Sentiment == Negative || r.Sentiment == Mixed})
			ceiling.add(reading{found: true, ok: a.Sentiment == c.Sentiment, neg: c.Sentiment == Negative,
				negOK: a.Sentiment == Negative || a.Sentiment == Mixed})
		}
	}
	t.Logf("in doubt: %d of %d answers (%d questions); rules %s; with a model that reads as the labeller %s",
		asked, answers, questions, rules, ceiling)
	if !ceiling.better(rules) {
		t.Errorf("an adjudicator that agrees with the labels adds nothing: rules %s, with it %s", rules, ceiling)
	}
}
