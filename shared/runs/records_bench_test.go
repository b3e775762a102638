package runs

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/detect"
	"github.com/brandlens/brandlens/shared/providers"
)

// bigAnswer is a long answer with many sources: 12 KiB of prose naming the
// brand and three rivals, 20 inline citations and 10 organic results.
func bigAnswer(tb testing.TB) (providers.Answer, detect.Result) {
	tb.Helper()
	var b strings.Builder
	for i := range 60 {
		fmt.Fprintf(&b, "Acme Notes is fast and Quillpad syncs well, while Jotter and Scribly lag behind (%d). ", i)
		b.WriteString("Teams keep research tidy, search across notebooks and share pages with clients. ")
	}
	ans := providers.Answer{Platform: "perplexity", Text: b.String(), Model: "sonar"}
	var cites []detect.Citation
	for i := range 20 {
		u := fmt.Sprintf("https://site%d.example/review", i)
		ans.Citations = append(ans.Citations, providers.Citation{URL: u, Title: "Review " + fmt.Sprint(i), Start: 100 * i, End: 100*i + 80})
		cites = append(cites, detect.Citation{URL: u})
	}
	for i := range 10 {
		ans.OrganicResults = append(ans.OrganicResults, providers.OrganicResult{Position: i + 1, URL: fmt.Sprintf("https://result%d.example/", i), Title: "Result", Snippet: "A snippet."})
	}
	det := detect.New(detect.Entity{Name: "Acme Notes", Domains: []string{"acmenotes.com"}},
		[]detect.Entity{{Name: "Quillpad"}, {Name: "Jotter"}, {Name: "Scribly"}})
	return ans, det.Detect(ans.Text, cites)
}

// BenchmarkAnswerCitations measures building one answer's 31 citation
// records (the mention, 20 cited sources, 10 organic results).
func BenchmarkAnswerCitations(b *testing.B) {
	ans, res := bigAnswer(b)
	vr := VisibilityResult{ID: 7, ExecutedAt: time.Unix(1_800_000_000, 0).UTC()}
	q := queryInfo{ID: 3, Text: "best note app"}
	b.ReportAllocs()
	for b.Loop() {
		if cs := answerCitations("Acme Notes", []string{"acmenotes.com"}, q, ans, res, vr); len(cs) != 31 {
			b.Fatalf("%d citations", len(cs))
		}
	}
}
