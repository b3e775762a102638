package gaps_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/brandlens/brandlens/shared/competitors"
	"github.com/brandlens/brandlens/shared/gaps"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/tenants"
)

// BenchmarkJudgeFullWindow measures what detection does per query besides
// I/O: re-detecting the largest window (5 runs × 5 platforms × 5 samples =
// 125 answers of about 1.5 KB, 10 tracked competitors) and measuring it.
func BenchmarkJudgeFullWindow(b *testing.B) {
	brand := tenants.Brand{Name: "Acme Notes", Domains: []string{"acmenotes.com"}}
	var comps []competitors.Competitor
	for i := range 10 {
		name := fmt.Sprintf("Rival%d", i)
		comps = append(comps, competitors.Competitor{Name: &name, IsActive: true, Domains: []string{strings.ToLower(name) + ".com"}})
	}
	para := "For a team wiki, Rival1 and Rival2 are common picks, while Acme Notes is often named for offline sync. " +
		"Reviewers compare pricing, search and sharing; Rival3 wins on templates. "
	text := strings.Repeat(para, 8)
	var vrs []runs.VisibilityResult
	for i := range 125 {
		vrs = append(vrs, runs.VisibilityResult{ID: int32(i), JobID: fmt.Sprintf("job%d", i/25), Platform: fmt.Sprintf("p%d", i%5),
			AnswerText: text, CitedPages: []runs.CitedPage{{URL: "https://rival1.com/wiki", Title: "Wiki"}}})
	}
	r := gaps.Defaults
	b.SetBytes(int64(len(text) * len(vrs)))
	b.ReportAllocs()
	for b.Loop() {
		an := gaps.NewAnalyzer(brand, comps)
		answers := make([]gaps.Answer, 0, len(vrs))
		for _, vr := range vrs {
			answers = append(answers, an.Analyze(vr))
		}
		m := r.Measure(answers)
		if _, ok := r.Classify(m); !ok && m.Mentions == 0 {
			b.Fatal("unexpected metrics")
		}
	}
}
