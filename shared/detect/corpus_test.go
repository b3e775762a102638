package detect

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The labelled corpus (testdata/corpus): realistic AI answers, each with
// the brand profile, competitors, query, citations and the expected
// verdict, brand sentiment and mentioned competitors. tune.jsonl is the
// half the rules were tuned on; holdout.jsonl was not looked at while
// tuning (the split is by a hash of the case id). `make eval` prints the
// report; TestCorpus fails when a figure drops below its floor.

type corpusCase struct {
	ID                   string     `json:"id"`
	Brand                Entity     `json:"brand"`
	Competitors          []Entity   `json:"competitors"`
	Query                string     `json:"query"`
	Citations            []Citation `json:"citations"`
	Text                 string     `json:"text"`
	Verdict              Verdict    `json:"verdict"`
	Sentiment            Sentiment  `json:"sentiment"`
	MentionedCompetitors []string   `json:"mentionedCompetitors"`
	Tags                 []string   `json:"tags"`
}

// UnmarshalJSON reads entities as {"name","aliases","domains"} and
// citations as {"url","title"}.
func (e *Entity) UnmarshalJSON(b []byte) error {
	var v struct {
		Name    string   `json:"name"`
		Aliases []string `json:"aliases"`
		Domains []string `json:"domains"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*e = Entity{Name: v.Name, Aliases: v.Aliases, Domains: v.Domains}
	return nil
}

func (c *Citation) UnmarshalJSON(b []byte) error {
	var v struct {
		URL   string `json:"url"`
		Title string `json:"title"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*c = Citation{URL: v.URL, Title: v.Title}
	return nil
}

func loadCorpus(t testing.TB, name string) []corpusCase {
	t.Helper()
	return loadCases(t, filepath.Join("testdata", "corpus", name))
}

func loadCases(t testing.TB, path string) []corpusCase {
	t.Helper()
	name := filepath.Base(path)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var c corpusCase
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			t.Fatalf("%s line %d: %v", name, len(out)+1, err)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// prf accumulates a binary confusion matrix.
type prf struct{ tp, fp, fn, tn int }

func (p *prf) add(want, got bool) {
	switch {
	case want && got:
		p.tp++
	case !want && got:
		p.fp++
	case want && !got:
		p.fn++
	default:
		p.tn++
	}
}

func (p prf) precision() float64 { return ratio(p.tp, p.tp+p.fp) }
func (p prf) recall() float64    { return ratio(p.tp, p.tp+p.fn) }
func (p prf) f1() float64 {
	pr, rc := p.precision(), p.recall()
	if pr+rc == 0 {
		return 0
	}
	return 2 * pr * rc / (pr + rc)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// agree counts agreements.
type agree struct{ ok, n int }

func (a *agree) add(ok bool) {
	a.n++
	if ok {
		a.ok++
	}
}
func (a agree) rate() float64 { return ratio(a.ok, a.n) }

// evaluation is the scorecard of one detector over one half.
type evaluation struct {
	mention     prf               // brand mentioned, over all cases
	byTag       map[string]*prf   // brand mentioned, per class tag
	verdictTag  map[string]*agree // exact verdict, per class tag
	verdict     agree             // exact verdict
	verdictBy   map[Verdict]*prf  // per expected verdict: predicted that verdict
	sentiment   agree             // where a sentiment is labelled and the brand was found
	sentimentBy map[Sentiment]*agree
	sentTag     map[string]*agree // sentiment agreement, per class tag
	negatives   agree             // negative answers read negative or mixed
	startFound  agree             // ordinary-word brands stated at a sentence start: found
	competitors prf               // per (case, competitor)
	failures    []string
}

func newEvaluation() *evaluation {
	return &evaluation{byTag: map[string]*prf{}, verdictTag: map[string]*agree{}, verdictBy: map[Verdict]*prf{},
		sentimentBy: map[Sentiment]*agree{}, sentTag: map[string]*agree{}}
}

// prediction is what a detector says about one case.
type prediction struct {
	verdict     Verdict
	sentiment   Sentiment
	competitors map[string]bool
	evidence    string
}

func (ev *evaluation) add(c corpusCase, p prediction) {
	wantM, gotM := c.Verdict == VerdictMentioned, p.verdict == VerdictMentioned
	ev.mention.add(wantM, gotM)
	for _, tag := range c.Tags {
		if ev.byTag[tag] == nil {
			ev.byTag[tag] = &prf{}
		}
		ev.byTag[tag].add(wantM, gotM)
		if ev.verdictTag[tag] == nil {
			ev.verdictTag[tag] = &agree{}
		}
		ev.verdictTag[tag].add(c.Verdict == p.verdict)
	}
	ev.verdict.add(c.Verdict == p.verdict)
	for _, v := range Verdicts() {
		if ev.verdictBy[v] == nil {
			ev.verdictBy[v] = &prf{}
		}
		ev.verdictBy[v].add(c.Verdict == v, p.verdict == v)
	}
	if wantM && slices.Contains(c.Tags, "ordinary") && slices.Contains(c.Tags, "sentence_start") {
		ev.startFound.add(gotM)
	}
	var why []string
	if c.Verdict != p.verdict {
		why = append(why, fmt.Sprintf("verdict %s, want %s", p.verdict, c.Verdict))
	}
	if c.Sentiment != "" && gotM {
		ok := c.Sentiment == p.sentiment
		ev.sentiment.add(ok)
		if ev.sentimentBy[c.Sentiment] == nil {
			ev.sentimentBy[c.Sentiment] = &agree{}
		}
		ev.sentimentBy[c.Sentiment].add(ok)
		for _, tag := range c.Tags {
			if ev.sentTag[tag] == nil {
				ev.sentTag[tag] = &agree{}
			}
			ev.sentTag[tag].add(ok)
		}
		if c.Sentiment == Negative {
			ev.negatives.add(p.sentiment == Negative || p.sentiment == Mixed)
		}
		if !ok {
			why = append(why, fmt.Sprintf("sentiment %s, want %s (neg evidence %q)", p.sentiment, c.Sentiment, p.evidence))
		}
	}
	for _, comp := range c.Competitors {
		want := slices.Contains(c.MentionedCompetitors, comp.Name)
		got := p.competitors[comp.Name]
		ev.competitors.add(want, got)
		if want != got {
			why = append(why, fmt.Sprintf("competitor %s mentioned=%v, want %v", comp.Name, got, want))
		}
	}
	if len(why) > 0 {
		ev.failures = append(ev.failures, c.ID+": "+strings.Join(why, "; "))
	}
}

// detectCorpusCaseNoQuery runs Detect: the rules without the query, as a
// caller that has none would.
func detectCorpusCaseNoQuery(c corpusCase) prediction {
	r := New(c.Brand, c.Competitors).Detect(c.Text, c.Citations)
	p := prediction{verdict: r.Verdict, sentiment: r.Sentiment, competitors: map[string]bool{}, evidence: r.NegativeEvidence}
	for _, e := range r.Competitors {
		p.competitors[e.Name] = e.Mentioned
	}
	return p
}

// detectCase runs the detector (rules only, with the query).
func detectCorpusCase(c corpusCase) prediction {
	d := New(c.Brand, c.Competitors)
	r, _ := d.Analyze(context.Background(), Input{Text: c.Text, Citations: c.Citations, Query: c.Query})
	p := prediction{verdict: r.Verdict, sentiment: r.Sentiment, competitors: map[string]bool{}, evidence: r.NegativeEvidence}
	for _, e := range r.Competitors {
		p.competitors[e.Name] = e.Mentioned
	}
	return p
}

// naiveCase is the baseline: a case-insensitive word match of the name or
// an alias means mentioned (else not_mentioned), and the sentiment of the
// whole answer from the polar words of the lexicon.
func naiveCase(c corpusCase) prediction {
	found := func(e Entity) bool {
		for _, f := range append([]string{e.Name}, e.Aliases...) {
			if regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(f) + `\b`).MatchString(c.Text) {
				return true
			}
		}
		return false
	}
	p := prediction{verdict: VerdictNotMentioned, sentiment: Neutral, competitors: map[string]bool{}}
	if found(c.Brand) {
		p.verdict = VerdictMentioned
	}
	for _, e := range c.Competitors {
		p.competitors[e.Name] = found(e)
	}
	pos, neg := 0, 0
	for _, w := range regexp.MustCompile(`[A-Za-z'-]+`).FindAllString(c.Text, -1) {
		f := lexLookup(w)
		if f&lexPositive != 0 {
			pos++
		}
		if f&lexNegative != 0 {
			neg++
		}
	}
	p.sentiment = polarity(pos, neg)
	return p
}

func evaluate(cases []corpusCase, run func(corpusCase) prediction) *evaluation {
	ev := newEvaluation()
	for _, c := range cases {
		ev.add(c, run(c))
	}
	return ev
}

// Floors: the figures the rules reach on the corpus (make eval), rounded
// down. A change that drops below one fails the suite.
var corpusFloors = map[string]struct{ mentionF1, verdict, sentiment, competitorF1, noQueryF1 float64 }{
	"tune.jsonl":    {mentionF1: 1.00, verdict: 1.00, sentiment: 0.97, competitorF1: 1.00, noQueryF1: 0.98},
	"holdout.jsonl": {mentionF1: 1.00, verdict: 0.99, sentiment: 0.97, competitorF1: 1.00, noQueryF1: 0.98},
}

func TestCorpus(t *testing.T) {
	total := 0
	for _, half := range []string{"tune.jsonl", "holdout.jsonl"} {
		cases := loadCorpus(t, half)
		total += len(cases)
		ev := evaluate(cases, detectCorpusCase)
		naive := evaluate(cases, naiveCase)
		t.Logf("\n%s", report(half, len(cases), ev, naive))
		noq := evaluate(cases, detectCorpusCaseNoQuery)
		t.Logf("%s exact: mention F1 %.4f, verdict %.4f, sentiment %.4f, competitor F1 %.4f; "+
			"without the query (Detect): mention F1 %.4f, verdict %.4f, sentiment %.4f", half,
			ev.mention.f1(), ev.verdict.rate(), ev.sentiment.rate(), ev.competitors.f1(),
			noq.mention.f1(), noq.verdict.rate(), noq.sentiment.rate())
		if got := noq.mention.f1(); got < corpusFloors[half].noQueryF1 {
			t.Errorf("%s: mention F1 without the query %.3f below the floor %.3f", half, got, corpusFloors[half].noQueryF1)
		}
		if show := os.Getenv("DETECT_EVAL_FAILURES"); show != "" && strings.HasPrefix(half, show) {
			for _, f := range ev.failures {
				t.Logf("  FAIL %s", f)
			}
		}
		fl := corpusFloors[half]
		checkFloors(t, half, []floorCheck{
			{"mention F1", ev.mention.f1(), fl.mentionF1},
			{"verdict accuracy", ev.verdict.rate(), fl.verdict},
			{"sentiment agreement", ev.sentiment.rate(), fl.sentiment},
			{"competitor F1", ev.competitors.f1(), fl.competitorF1},
		})
	}
	if total < 250 {
		t.Errorf("corpus has %d answers, want at least 250", total)
	}
}

// floorCheck is one figure against its floor.
type floorCheck struct {
	what       string
	got, floor float64
}

func checkFloors(t *testing.T, set string, checks []floorCheck) {
	t.Helper()
	for _, c := range checks {
		if c.got < c.floor {
			t.Errorf("%s: %s %.3f below the floor %.3f", set, c.what, c.got, c.floor)
		}
	}
}

// report formats one half's scorecard beside the naive baseline.
func report(half string, n int, ev, naive *evaluation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "== %s: %d answers ==\n", half, n)
	fmt.Fprintf(&b, "%-28s %-27s %-22s\n", "", "detect P / R / F1 (n)  verdict", "naive P / R / F1  verdict")
	line := func(name string, a, z prf, va, vz float64) {
		fmt.Fprintf(&b, "%-28s %4.2f %4.2f %4.2f (%3d)  %4.2f   %4.2f %4.2f %4.2f  %4.2f\n", name,
			a.precision(), a.recall(), a.f1(), a.tp+a.fp+a.fn+a.tn, va, z.precision(), z.recall(), z.f1(), vz)
	}
	row := func(name string, a, z prf) {
		fmt.Fprintf(&b, "%-28s %4.2f %4.2f %4.2f (%3d)          %4.2f %4.2f %4.2f\n", name,
			a.precision(), a.recall(), a.f1(), a.tp+a.fp+a.fn+a.tn, z.precision(), z.recall(), z.f1())
	}
	line("mention (overall)", ev.mention, naive.mention, ev.verdict.rate(), naive.verdict.rate())
	tags := make([]string, 0, len(ev.byTag))
	for tag := range ev.byTag {
		tags = append(tags, tag)
	}
	sort.Strings(tags)
	for _, tag := range tags {
		line("  class "+tag, *ev.byTag[tag], *naive.byTag[tag], ev.verdictTag[tag].rate(), naive.verdictTag[tag].rate())
	}
	row("competitor mentions", ev.competitors, naive.competitors)
	for _, v := range Verdicts() {
		row("verdict "+string(v), *ev.verdictBy[v], *naive.verdictBy[v])
	}
	fmt.Fprintf(&b, "%-28s %4.2f (%d/%d)          %4.2f\n", "verdict accuracy", ev.verdict.rate(), ev.verdict.ok, ev.verdict.n, naive.verdict.rate())
	fmt.Fprintf(&b, "%-28s %4.2f (%d/%d)          %4.2f\n", "sentiment agreement", ev.sentiment.rate(), ev.sentiment.ok, ev.sentiment.n, naive.sentiment.rate())
	for _, s := range []Sentiment{Positive, Neutral, Negative, Mixed} {
		a, z := ev.sentimentBy[s], naive.sentimentBy[s]
		if a == nil {
			continue
		}
		zr := 0.0
		if z != nil {
			zr = z.rate()
		}
		fmt.Fprintf(&b, "%-28s %4.2f (%d/%d)          %4.2f\n", "  sentiment "+string(s), a.rate(), a.ok, a.n, zr)
	}
	for _, tag := range tags {
		a, z := ev.sentTag[tag], naive.sentTag[tag]
		if a == nil || strings.HasPrefix(tag, "sentiment_") {
			continue
		}
		zr := 0.0
		if z != nil {
			zr = z.rate()
		}
		fmt.Fprintf(&b, "%-28s %4.2f (%d/%d)          %4.2f\n", "  sentiment, class "+tag, a.rate(), a.ok, a.n, zr)
	}
	fmt.Fprintf(&b, "%-28s %4.2f (%d/%d)          %4.2f\n", "negatives read neg/mixed", ev.negatives.rate(), ev.negatives.ok, ev.negatives.n, naive.negatives.rate())
	fmt.Fprintf(&b, "%-28s %4.2f (%d/%d)          %4.2f\n", "word brand at start found", ev.startFound.rate(), ev.startFound.ok, ev.startFound.n, naive.startFound.rate())
	return b.String()
}

// The held-out batches (testdata/heldout) were each written and labelled
// before the detector was run on them: batch-a.jsonl against the rules of
// detect/2026.11-2, batch-b.jsonl after the rules batch A's misses led to,
// batch-c.jsonl after batch B's, batch-d.jsonl against detect/2026.11-3,
// batch-e.jsonl after batch D's fixes, batch-f.jsonl after batch E's,
// batch-g.jsonl after batch F's, batch-h.jsonl against detect/2026.11-4,
// batch-i.jsonl after batch H's fixes, batch-j.jsonl against
// detect/2026.11-5 (measured only: no rule was changed for it),
// batch-m.jsonl against detect/2026.11-5 (detection only, new brands),
// batch-n.jsonl after batch M's fixes (detect/2026.11-7; the sentiment
// reading of detect/2026.11-6, VADER under it, merged into it), and
// batch-k.jsonl / batch-l.jsonl, written blind by an engineer who never
// ran or read the detector, measured once on the merged detect/2026.11-7
// and never tuned on until detect/2026.11-8 fixed their misses by class
// (the query's word sense, the answer's own lower-case word, namesakes
// marked by life dates, surnames or a place visited, word forms read as
// ordinary_word, rivals' plural states and editions, "No." replies). Each
// was measured untouched first (shared/detect/README.md) and its misses then
// analysed by class, so all are now tuning data too; the next fresh batch
// is the honest measure. Floors are the figures reached, rounded down.
var heldoutFloors = map[string]struct{ mentionF1, verdict, sentiment, negatives, startFound float64 }{
	"batch-a.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 0.96, negatives: 1.00, startFound: 1.00},
	"batch-b.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 1.00, negatives: 1.00, startFound: 1.00},
	"batch-c.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 0.93, negatives: 1.00, startFound: 1.00},
	"batch-d.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 1.00, negatives: 1.00, startFound: 1.00},
	"batch-e.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 1.00, negatives: 1.00, startFound: 1.00},
	"batch-f.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 1.00, negatives: 1.00, startFound: 1.00},
	"batch-g.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 1.00, negatives: 1.00, startFound: 1.00},
	"batch-h.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 1.00, negatives: 1.00, startFound: 1.00},
	"batch-i.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 0.95, negatives: 1.00, startFound: 1.00},
	"batch-j.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 0.94, negatives: 1.00, startFound: 1.00},
	"batch-m.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 1.00, negatives: 1.00, startFound: 1.00},
	"batch-n.jsonl": {mentionF1: 0.97, verdict: 0.97, sentiment: 1.00, negatives: 1.00, startFound: 1.00},
	"batch-k.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 1.00, negatives: 1.00, startFound: 1.00},
	"batch-l.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 0.97, negatives: 1.00, startFound: 1.00},
	// Written blind (their authors never read or ran the detector), first
	// measured against detect/2026.11-7 and then once against -8. Their
	// detection misses (Q, S) were then fixed as classes, and their
	// sentiment misses read by class for the answer-level weighing
	// (sentiment_verdict.go) and the clause reading of criticism stated as
	// facts (criticism.go), so they are tuning data now: the floors are the
	// merged figures. The thresholds' calibration never sees them
	// (measureOnly).
	"batch-p.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 1.00, negatives: 1.00, startFound: 1.00},
	"batch-q.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 0.91, negatives: 1.00, startFound: 1.00},
	"batch-r.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 0.98, negatives: 1.00, startFound: 0.95},
	"batch-s.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 0.87, negatives: 0.75, startFound: 0.88},
	// U was written blind and measured once on d7 (mention F1 0.971,
	// verdict 0.961); its classes fixed since (ignorance of an aspect's
	// current prices, a foreign word's inflection, lower-case styled and
	// conjoined-predicate competitors), it is tuning material.
	"batch-u.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 0.85, negatives: 1.00, startFound: 1.00},
	// W was written blind and measured once on the merged d7+d8 (mention F1
	// 0.865, verdict 0.868); its classes fixed since (a phrase the query
	// holds the word in, a category's product in an aside, a hedge before
	// people's reports, a product name holding a natural kind's noun), it
	// is tuning material.
	"batch-w.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 0.76, negatives: 1.00, startFound: 1.00},
	// Written blind and measured once on the merged s6a+s6b reading (40/60,
	// negatives 12/15); then tuned on by class in issue 11's s7 round. Kept
	// out of the thresholds' calibration like P–S (measureOnly).
	// T was written blind this stop and never read by anyone tuning the
	// detector: measured once, on detect/2026.11-8 (mention F1 0.99,
	// verdict 0.98, sentiment 40/59, negatives 15/16) and once on -9
	// (44/59). Issue 11's round s8a then read its misses by class (criticism
	// without polar words, alternatives offered in the brand's place), and
	// s8b (praise found and weighed, facts kept neutral, caveats kept minor:
	// praise.go) those of P–W, so they are tuning data now; the sentiment
	// floors of L and P–Z are the merged s8a+s8b figures.
	"batch-t.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 0.98, negatives: 1.00, startFound: 0.95},
	"batch-v.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 0.96, negatives: 1.00, startFound: 0.96},
	// X (60 sentiment answers, written blind) arrived as issue 11's tuning
	// batch of round s8: measured once on main (detect/2026.11-9, 66cb8d6)
	// and on s8a's first two commits, 43/60 and negatives 13/16 both; s8a's
	// classes then lifted it to 53/60 and 15/16 (the floors). Out of the
	// calibration like P–W (measureOnly).
	"batch-x.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 0.91, negatives: 0.93, startFound: 1.00},
	// Z (76 detection answers, 15 new brands) was written blind and
	// measured once on main (66cb8d6, detect/2026.11-9) before any rule
	// was changed for it: mention F1 0.946, verdict 0.947 (72/76),
	// sentiment 17/35, negatives 3/5. It is round d10's tuning material;
	// kept out of the thresholds' calibration like P–W (measureOnly).
	// Its four verdict misses fixed as classes (a derived form in the
	// query, "a name I can't place", a full name with a middle name, a
	// German noun after an article and an adjective): 1.00 / 1.00.
	// Y (61 sentiment answers, 41 new brands) was written blind and
	// measured untouched on main before and after round s8 (35/58, then
	// 38/58 on 3febad7; negatives 14/14; mention F1 0.975, verdict 0.951).
	// It is issue 11's tuning batch of round s9; out of the thresholds'
	// calibration (measureOnly).
	// Round s10a (AD's classes, read as general rules) lifted Y 51 → 52/58.
	// Round d13 found hy-18 ("Beats are …" for "are beats headphones
	// good") and hy-54 ("kong toy colors meaning" asks a feature's
	// meaning): mention F1 0.975 → 0.992, verdict 0.951 → 0.984; the two
	// answers join the sentiment count read mixed and positive (labelled
	// negative and neutral: 51/58 → 51/60), so the sentiment floor is 0.85
	// — a detection gain, no reading lost. Then hy-20 ("is guess good
	// quality", Levi's the alternative): 1.00 / 1.00, 52/61.
	// Round d14 found hy-54 too. With rounds s10a, s10b, d13 and d14
	// merged: 1.00 / 1.00, 54/61.
	"batch-y.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 0.91, negatives: 1.00, startFound: 1.00},
	"batch-z.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 0.57, negatives: 0.60, startFound: 1.00},
	// AA was written blind (13 brands none of the batches had, most of
	// them ordinary words) and measured once, untouched, on 66cb8d6
	// (detect/2026.11-9): mention F1 0.930 (33 found, 5 false
	// positives, none missed), verdict 0.931 (67/72), sentiment 26/33,
	// negatives 8/8. Its classes fixed since by grammar (wordsense.go:
	// a query's inflected verb, plural agreement, a menu's tool label, a
	// place query, a range as an aspect), it is tuning material. Out of
	// the thresholds' calibration (measureOnly).
	"batch-aa.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 0.81, negatives: 1.00, startFound: 1.00},
	// O (75 detection answers, 13 new brands, most of them ordinary words)
	// was written blind and measured untouched on main before and after
	// rounds d10 and d11: mention F1 0.895 → 0.944, verdict 0.893 → 0.947
	// (3febad7), sentiment 19/34, negatives 4/5. It is round d12's tuning
	// material; out of the thresholds' calibration (measureOnly). Its four
	// verdict misses fixed as classes (wordsense.go: a model designation
	// before the word, a definition with a possessive for its article, a
	// query's kind noun or era, a who-question answered with a person's
	// full name): 1.00 / 1.00.
	"batch-o.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 0.55, negatives: 0.80, startFound: 1.00},
	// AB (60 sentiment answers, 50 brands) and AC (79 detection answers, 14
	// new brands) were written blind at the end of round s8 and shown to
	// nobody tuning: measured untouched on -9 (66cb8d6) and after every
	// round of detect/2026.11-10 (AB 44/58 → 45/58, negatives 14/15; AC
	// mention F1 0.886 → 0.883). AC's one regression (a rival of two words
	// plural in a compared query) was then fixed as a class: 0.897. They
	// are the next rounds' tuning material; out of the calibration.
	// Round s10a's classes (written from AD, then three read on AB's misses:
	// an alternative that does the work better, a verdict to get one of a
	// kind, "elsewhere" in a relative clause) lifted AB 45 → 49/58.
	// Round d13 found hab-54 and hab-25: mention F1 0.983 → 1.00, verdict
	// 0.967 → 1.00; hab-25 ("is risk a good game", labelled negative)
	// joins the sentiment count read mixed (45/58 → 46/60, negatives 14/15
	// → 15/16), so its sentiment floor is 0.76 — a detection gain.
	"batch-ab.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 0.86, negatives: 0.93, startFound: 1.00},
	// Round d13 (not tuned on AC) read hac-61 ("what does caffè nero
	// mean", a name of two words that is no word) as the phrase and found
	// hac-13 ("KIND bars are …", the owner's capitals): 0.923, verdict
	// 0.924; hac-13 joins the sentiment count read positive (labelled
	// neutral: 19/35 → 19/36), so the sentiment floor is 0.52.
	// Round d14 found hac-13 (the owner's capitals, "KIND bars") and read
	// hac-34 (kinds paired: "quartz vs granite countertops") and hac-58 (no
	// current phone number) right: 0.935 / 0.937; hac-13's sentiment reads positive for neutral, so agreement
	// went 19/35 -> 19/36 with no answer read worse, and that floor follows.
	"batch-ac.jsonl": {mentionF1: 0.98, verdict: 0.98, sentiment: 0.55, negatives: 1.00, startFound: 1.00},
	// AD (62 sentiment answers, new brands) was written blind and measured
	// untouched on 8406a60 (detect/2026.11-10): mention F1 0.984, verdict
	// 0.968, sentiment 43/60, negatives 16/17. It is round s10a's tuning
	// material; out of the thresholds' calibration (measureOnly). Its
	// classes fixed (praise fenced off, lists introduced by a colon,
	// imperative warnings, a rival that wins, two-sided frames, a verdict
	// of two cases, a fault called the design's intent): 56/60, 17/17.
	"batch-ad.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 0.93, negatives: 1.00, startFound: 1.00},
	// AE (63 sentiment answers, new brands) was written blind and measured
	// untouched on main (8406a60, detect/2026.11-10): mention F1 1.00,
	// verdict 1.00, sentiment 46/63, negatives 16/16; floors at those
	// figures. It is round s10b's tuning material; out of the calibration.
	// Round s10b's classes (casesplit.go, figurative.go, pricerise.go)
	// lifted it to 59/63; AB 45 → 46/58, X 53 → 54/60 and Y 51 → 52/58
	// with it (floors raised).
	"batch-ae.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 0.95, negatives: 1.00, startFound: 1.00},
	// AF (74 detection answers, new brands, most of them ordinary words) was
	// written blind and measured untouched on main (8406a60,
	// detect/2026.11-10): mention F1 0.930, verdict 0.932 (69/74),
	// sentiment 19/33, negatives 4/4, word brand at a sentence start found
	// 15/16. It is round d13's tuning material; out of the calibration.
	"batch-af.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 0.80, negatives: 1.00, startFound: 1.00},
	// AG (76 detection answers, 16 new brands, most of them ordinary words)
	// was written blind and measured untouched on main (8406a60,
	// detect/2026.11-10): mention F1 0.930, verdict 0.934 (71/76),
	// sentiment 20/33, negatives 5/6. Round d14's tuning material; out of
	// the thresholds' calibration (measureOnly).
	"batch-ag.jsonl": {mentionF1: 0.98, verdict: 0.98, sentiment: 0.61, negatives: 0.83, startFound: 1.00},
	// AH (60 sentiment answers, 60 new brands) and AI (75 detection answers,
	// 15 new brands) were written blind at the start of round 10 and shown
	// to nobody tuning: measured untouched on 8406a60 (detect/2026.11-10)
	// and again after rounds s10a, s10b, d13, d14 and perf10 had merged
	// (567f010): the same answers wrong on both — AH sentiment 45/60,
	// negatives 15/16; AI mention F1 0.930, verdict 0.933. The next rounds'
	// tuning material; out of the calibration.
	"batch-ah.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 0.76, negatives: 0.93, startFound: 1.00},
	"batch-ai.jsonl": {mentionF1: 0.98, verdict: 0.98, sentiment: 0.70, negatives: 0.50, startFound: 1.00},
	// AJ, AK (60 sentiment answers each) and AL, AM (75 detection answers
	// each) were written blind at the start of round 11 and measured
	// untouched on ba0b56b (detect/2026.11-11): AJ sentiment 46/60, AK
	// 45/58, AL mention F1 0.907, AM 0.943; after rounds s11a, s11b and
	// d15 (2531990) the same but hak-14 and hal-56 (sentiment), the floors.
	// The next round's tuning material; out of the calibration. Round s12
	// (two-sided answers read as one-sided) raised AF, AI, AJ, AK, AM and T;
	// round d16 (the query's own word) raised AL and AM.
	"batch-aj.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 0.85, negatives: 1.00, startFound: 1.00},
	"batch-ak.jsonl": {mentionF1: 0.98, verdict: 0.96, sentiment: 0.94, negatives: 1.00, startFound: 0.95},
	"batch-al.jsonl": {mentionF1: 0.94, verdict: 0.94, sentiment: 0.76, negatives: 0.80, startFound: 1.00},
	"batch-am.jsonl": {mentionF1: 0.97, verdict: 0.97, sentiment: 0.87, negatives: 1.00, startFound: 1.00},
	// AN (60 sentiment answers) and AO (75 detection answers) were written
	// blind during round 11 and measured untouched on f164e2a (before rounds
	// d16 and s12) and again after them (3887bc1, detect/2026.11-12): AN
	// sentiment 52/60 on both; AO mention F1 0.930 → 0.943 (hao-66),
	// sentiment 22/33 → 23/33 (hao-32), nothing read worse. Floors at the
	// second; the next round's tuning material; out of the calibration.
	// Round s13b (an answer that opens on the brand is about it) raised AN
	// to 54/60 (han-40, han-49) and AO to 24/33 (hao-08); a paragraph
	// opening on an announced caveat, AF to 25/35 (haf-64) and AL to 25/34
	// (hal-48). Round d17 (a predicate any noun takes) raised AL and AO's
	// mention F1 (hal-33, hao-14); round s13a (limits described, benefits
	// offered) AK, AN and AO's sentiment.
	"batch-an.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 0.91, negatives: 0.93, startFound: 1.00},
	"batch-ao.jsonl": {mentionF1: 0.97, verdict: 0.97, sentiment: 0.75, negatives: 1.00, startFound: 0.96},
	// AP (60 sentiment answers) and AQ (75 detection answers) were written
	// blind during round 12 and measured untouched on 17714a8 (before rounds
	// d17, s13a and s13b) and again after them (detect/2026.11-13): AP
	// sentiment 47/60 on both (hap-12 fixed, hap-05 broken: positive read
	// where mixed is wanted); AQ mention F1 0.917, verdict 0.920 on both.
	// The next stop's tuning material; out of the calibration.
	"batch-ap.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 0.81, negatives: 1.00, startFound: 1.00},
	"batch-aq.jsonl": {mentionF1: 0.94, verdict: 0.94, sentiment: 0.81, negatives: 1.00, startFound: 0.95},
	// AR and AT (60 sentiment answers each) and AU (75 detection answers)
	// were written blind in the next stop and measured untouched on
	// 98e9dec (detect/2026.11-13): AR sentiment 45/60, negatives 16/16; AT
	// 48/59, 15/16; AU mention F1 0.944, verdict 0.947. The lowered
	// multi-word name (evidence.go, loweredName) then fixed hau-22 (F1
	// 0.958); round s14 (a cons part within the brand's scope) raised AR
	// to 48/60, AT to 50/59 and AU to 25/34. Floors at detect/2026.11-14.
	"batch-ar.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 0.81, negatives: 1.00, startFound: 1.00},
	"batch-at.jsonl": {mentionF1: 0.99, verdict: 0.98, sentiment: 0.86, negatives: 0.93, startFound: 1.00},
	"batch-au.jsonl": {mentionF1: 0.95, verdict: 0.96, sentiment: 0.79, negatives: 1.00, startFound: 1.00},
	// AS (75 detection answers) and AV (60 sentiment) were written blind
	// during round 14 and shown to nobody tuning. AS measured untouched on
	// 98e9dec (mention F1 0.930, verdict 0.933, sentiment 27/33), after the
	// lowered multi-word name (0850123: 0.943, 0.947; has-34 fixed) and
	// after round 14 (2fdd910: the same). AV measured untouched on ab03939
	// (sentiment 50/60, negatives 15/16) and after round 14 (51/60: hav-27
	// fixed; nothing broken). Floors at -14; the next round's material.
	"batch-as.jsonl": {mentionF1: 0.94, verdict: 0.94, sentiment: 0.90, negatives: 1.00, startFound: 1.00},
	"batch-av.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 0.88, negatives: 0.93, startFound: 1.00},
	// Round s16 (the brand picked for a "best …" query, the answer closing
	// on its praise, decides a mixed reading) raised AB (hab-15), AF
	// (haf-01, haf-12, haf-69), AJ (haj-07), AL (hal-53), AR (har-43), AV
	// (hav-59) and X (hx-09); nothing read worse.
	// Round s17 (a harm a warranty, guarantee or insurance covers is its
	// terms, not a fault) raised AM (ham-12), AP (hap-38) and AV (hav-51);
	// nothing read worse.
	// AZ (75 detection answers) was written blind during round 15 and
	// measured untouched on 773e0e5 (detect/2026.11-14): mention F1 0.868,
	// verdict 0.867, sentiment 26/33; nine answers read mentioned where the
	// name is a place, a people, a language or a person. Round d20's
	// tuning material; out of the calibration. Round d20 (a name English
	// always capitalises after an article) raised it to 0.904 / 0.907
	// (haz-19, haz-32, haz-52) and AQ (haq-69).
	"batch-az.jsonl": {mentionF1: 0.90, verdict: 0.90, sentiment: 0.78, negatives: 1.00, startFound: 1.00},
	// AW, AY (60 sentiment answers each) and AX (75 detection answers) were
	// written blind during round 15 and shown to nobody tuning. Measured
	// untouched on 773e0e5 (detect/2026.11-14): AW sentiment 43/59,
	// negatives 16/16; AX mention F1 0.958, verdict 0.947, sentiment 26/34;
	// AY sentiment 51/60, negatives 14/16. After round 15 (-15): AW 43/59,
	// AX 0.958 / 0.947 / 27/34 (hax-45 fixed), AY 53/60 (hay-09, hay-21
	// fixed); nothing broken. The next round's material; out of the
	// calibration.
	"batch-aw.jsonl": {mentionF1: 0.99, verdict: 0.98, sentiment: 0.72, negatives: 1.00, startFound: 1.00},
	"batch-ax.jsonl": {mentionF1: 0.95, verdict: 0.94, sentiment: 0.79, negatives: 1.00, startFound: 1.00},
	"batch-ay.jsonl": {mentionF1: 1.00, verdict: 1.00, sentiment: 0.88, negatives: 0.87, startFound: 1.00},
}

func TestHeldout(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "heldout", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no held-out batches in testdata/heldout")
	}
	for _, path := range paths {
		name := filepath.Base(path)
		fl, ok := heldoutFloors[name]
		if !ok {
			t.Errorf("%s: no floors", name)
		}
		cases := loadCases(t, path)
		ev := evaluate(cases, detectCorpusCase)
		naive := evaluate(cases, naiveCase)
		t.Logf("\n%s", report("heldout/"+name, len(cases), ev, naive))
		// The hidden set's sentiment half: answers that all name the brand.
		var sent []corpusCase
		for _, c := range cases {
			if slices.Contains(c.Tags, "sentiment_set") {
				sent = append(sent, c)
			}
		}
		evs := evaluate(sent, detectCorpusCase)
		t.Logf("%s exact: mention F1 %.4f, verdict %.4f, sentiment %.4f (%d/%d), negatives neg/mixed %d/%d, "+
			"word brand at sentence start found %d/%d; sentiment set (%d answers): sentiment %d/%d, negatives %d/%d, found at start %d/%d",
			name, ev.mention.f1(), ev.verdict.rate(), ev.sentiment.rate(), ev.sentiment.ok, ev.sentiment.n,
			ev.negatives.ok, ev.negatives.n, ev.startFound.ok, ev.startFound.n, len(sent),
			evs.sentiment.ok, evs.sentiment.n, evs.negatives.ok, evs.negatives.n, evs.startFound.ok, evs.startFound.n)
		if os.Getenv("DETECT_EVAL_FAILURES") != "" {
			for _, f := range ev.failures {
				t.Logf("  FAIL %s", f)
			}
		}
		checkFloors(t, name, []floorCheck{
			{"mention F1", ev.mention.f1(), fl.mentionF1},
			{"verdict accuracy", ev.verdict.rate(), fl.verdict},
			{"sentiment agreement", ev.sentiment.rate(), fl.sentiment},
			{"negatives read negative or mixed", ev.negatives.rate(), fl.negatives},
			{"word brands at a sentence start found", ev.startFound.rate(), fl.startFound},
		})
	}
}
