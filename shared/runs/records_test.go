package runs

import (
	"reflect"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/detect"
	"github.com/brandlens/brandlens/shared/providers"
)

// The records of one answer share what the answer and detection give them
// and nothing else: a cited span is cut by code points, a span that does
// not fit falls back to the platform's snippet, and each record's tags are
// its own.
func TestAnswerCitationsSpansAndSharing(t *testing.T) {
	text := "Über-fast: Acme Notes — café-grade sync. Quillpad is slower."
	ans := providers.Answer{Platform: "perplexity", Text: text, Citations: []providers.Citation{
		{URL: "https://a.example/", Start: 11, End: 21, Snippet: "unused"},
		{URL: "https://b.example/", Start: -1, End: -1, Snippet: "the platform's snippet"},
		{URL: "https://acmenotes.com/x", Start: 5, End: 500, Snippet: "too long a span"},
	}, OrganicResults: []providers.OrganicResult{{Position: 1, URL: "https://c.example/", Title: "C", Snippet: "organic"}}}
	det := detect.New(detect.Entity{Name: "Acme Notes", Domains: []string{"acmenotes.com"}}, []detect.Entity{{Name: "Quillpad"}})
	res := det.Detect(text, nil)
	vr := VisibilityResult{ID: 9, ExecutedAt: time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC)}
	cs := answerCitations("Acme Notes", []string{"acmenotes.com"}, queryInfo{ID: 1, Text: "q"}, ans, res, vr)
	if len(cs) != 5 {
		t.Fatalf("%d records, want 5 (mention, 3 cited, 1 organic)", len(cs))
	}
	for i, tc := range []struct {
		snippet string
		tags    []string
	}{
		{res.Evidence, []string{"mention"}},
		{"Acme Notes", []string{"cited"}},
		{"the platform's snippet", []string{"cited"}},
		{"too long a span", []string{"cited", "own_domain"}},
		{"organic", []string{"organic"}},
	} {
		c := cs[i]
		if c.Snippet == nil || *c.Snippet != tc.snippet || !reflect.DeepEqual(c.Tags, tc.tags) {
			t.Errorf("record %d: snippet %v tags %v, want %q %v", i, c.Snippet, c.Tags, tc.snippet, tc.tags)
		}
		if got := c.AICitationMetrics.ResponseLength; got != 60 {
			t.Errorf("record %d: responseLength %d, want 60 code points", i, got)
		}
		if !reflect.DeepEqual(c.AICitationMetrics, cs[0].AICitationMetrics) || *c.DetectionVerdict != "mentioned" {
			t.Errorf("record %d: detection members differ from the mention's", i)
		}
	}
	cs[1].Tags = append(cs[1].Tags, "rescored")
	if len(cs[2].Tags) != 1 || len(cs[4].Tags) != 1 {
		t.Errorf("tags shared between records: %v %v", cs[2].Tags, cs[4].Tags)
	}
}
