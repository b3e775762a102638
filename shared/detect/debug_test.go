package detect

import (
	"context"
	"os"
	"testing"
)

// TestCorpusCaseDebug prints the mentions and evidence scores of the
// corpus case named by DETECT_EVAL_CASE (a tuning aid; does nothing
// without it).
func TestCorpusCaseDebug(t *testing.T) {
	id := os.Getenv("DETECT_EVAL_CASE")
	if id == "" {
		return
	}
	for _, half := range []string{"tune.jsonl", "holdout.jsonl"} {
		for _, c := range loadCorpus(t, half) {
			if c.ID != id {
				continue
			}
			d := New(c.Brand, c.Competitors)
			r, _ := d.Analyze(context.Background(), Input{Text: c.Text, Citations: c.Citations, Query: c.Query})
			t.Logf("verdict %s conf %.2f sentiment %s ambiguous %v", r.Verdict, r.Confidence, r.Sentiment, r.Ambiguous)
			for _, e := range append([]EntityResult{r.Brand}, r.Competitors...) {
				for _, m := range e.Mentions {
					t.Logf("  %s %q @%d score %.2f unknown %v link %v senti %s", e.Name, m.Text, m.Start, m.EvidenceScore, m.Unknown, m.Link, m.Sentiment)
				}
			}
			t.Logf("neg evidence %q pos evidence %q", r.Brand.NegativeEvidence, r.Brand.PositiveEvidence)
		}
	}
}
