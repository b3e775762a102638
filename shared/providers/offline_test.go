package providers_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/providers/providerstest"
)

var simHints = providers.Hints{Brand: "Acme CRM", BrandDomain: "acme.com", Competitors: []string{"Zoë CRM", "Pipedrive", "HubSpot"}}

func simAnswer(t *testing.T, platform string, req providers.Request) providers.Answer {
	t.Helper()
	ans, err := providers.NewSimulated(platform).Answer(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	ans.Latency = 0
	return ans
}

func TestSimulatedDeterministic(t *testing.T) {
	for _, pf := range platforms.All {
		t.Run(pf, func(t *testing.T) {
			for sample := range 5 {
				req := providers.Request{Platform: pf, Query: "Best CRM for small agencies", Sample: sample, Hints: simHints}
				a := simAnswer(t, pf, req)
				// Same query up to case and spacing: same answer.
				req.Query = "  best crm   FOR small agencies"
				b := simAnswer(t, pf, req)
				if !reflect.DeepEqual(a, b) {
					t.Fatalf("sample %d differs:\n%+v\n%+v", sample, a, b)
				}
				if a.Platform != pf || a.Model != providers.SimulatedModel || a.CostUSD != 0 {
					t.Errorf("answer = %+v", a)
				}
				providerstest.CheckSpans(t, a)
			}
		})
	}
}

// Across samples the brand is sometimes first, sometimes later, sometimes
// absent, sometimes criticised or unknown, and its domain sometimes cited.
func TestSimulatedVariesBySample(t *testing.T) {
	const n = 200
	for _, pf := range []string{platforms.ChatGPT, platforms.Perplexity, platforms.Gemini, platforms.Claude} {
		t.Run(pf, func(t *testing.T) {
			seen := map[string]int{}
			texts := map[string]bool{}
			for sample := range n {
				a := simAnswer(t, pf, providers.Request{Query: "best crm for small agencies", Sample: sample, Hints: simHints})
				texts[a.Text] = true
				if a.Text == "" || len(a.Citations) == 0 || len(a.Citations) > 4 {
					t.Fatalf("sample %d: %+v", sample, a)
				}
				providerstest.CheckSpans(t, a)
				for _, c := range a.Citations {
					if c.Start < 0 || providerstest.SpanOf(a.Text, c) == "" {
						t.Errorf("sample %d: citation without span %+v", sample, c)
					}
					if c.URL == "https://acme.com/" {
						seen["own domain cited"]++
						if !strings.Contains(providerstest.SpanOf(a.Text, c), "Acme CRM") {
							t.Errorf("brand citation spans %q", providerstest.SpanOf(a.Text, c))
						}
					}
				}
				brand := strings.Index(a.Text, "Acme CRM")
				comp := -1
				for _, c := range simHints.Competitors {
					if i := strings.Index(a.Text, c); i >= 0 && (comp < 0 || i < comp) {
						comp = i
					}
				}
				switch {
				case strings.Contains(a.Text, "I don't have reliable information about Acme CRM"):
					seen["unknown"]++
				case strings.Contains(a.Text, "reviewers complain"):
					seen["negative"]++
				case brand < 0:
					seen["absent"]++
				case comp < 0 || brand < comp:
					seen["first"]++
				default:
					seen["later"]++
				}
			}
			for _, k := range []string{"first", "later", "absent", "negative", "unknown", "own domain cited"} {
				if seen[k] == 0 {
					t.Errorf("never saw %q in %d samples: %v", k, n, seen)
				}
			}
			mentioned := seen["first"] + seen["later"]
			if mentioned == 0 || mentioned == n {
				t.Errorf("mention rate %d/%d does not vary", mentioned, n)
			}
			if len(texts) < 20 {
				t.Errorf("only %d distinct texts", len(texts))
			}
		})
	}
}

func TestSimulatedGoogleAIOverview(t *testing.T) {
	present, absent, ownRanked := 0, 0, 0
	for sample := range 100 {
		a := simAnswer(t, platforms.GoogleAIOverview, providers.Request{Query: "best crm", Sample: sample, Hints: simHints})
		if len(a.OrganicResults) < 6 {
			t.Fatalf("organic = %+v", a.OrganicResults)
		}
		for i, o := range a.OrganicResults {
			if o.Position != i+1 || o.URL == "" {
				t.Errorf("organic %d = %+v", i, o)
			}
			if o.URL == "https://acme.com/" {
				ownRanked++
			}
		}
		switch a.AIOverviewState {
		case providers.OverviewPresent:
			present++
			if a.Text == "" {
				t.Error("present overview without text")
			}
		case providers.OverviewAbsent:
			absent++
			if a.Text != "" || len(a.Citations) != 0 {
				t.Errorf("absent overview with text %q", a.Text)
			}
		default:
			t.Errorf("state %q", a.AIOverviewState)
		}
		providerstest.CheckSpans(t, a)
	}
	if present == 0 || absent == 0 || ownRanked == 0 || ownRanked == 100 {
		t.Errorf("present %d absent %d own domain ranked %d", present, absent, ownRanked)
	}
}

func TestSimulatedEdgeHints(t *testing.T) {
	cases := []struct {
		name  string
		hints providers.Hints
	}{
		{"no hints", providers.Hints{}},
		{"brand only", providers.Hints{Brand: "Acme"}},
		{"competitors only", providers.Hints{Competitors: []string{"Zoë", " ", "Zoë"}}},
		{"brand listed as competitor", providers.Hints{Brand: "Acme", Competitors: []string{"acme"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, pf := range platforms.All {
				for sample := range 20 {
					a := simAnswer(t, pf, providers.Request{Query: "crm", Sample: sample, Hints: tc.hints})
					providerstest.CheckSpans(t, a)
					if pf != platforms.GoogleAIOverview && a.Text == "" {
						t.Fatalf("%s sample %d: empty text", pf, sample)
					}
					if strings.Contains(a.Text, "  ") || strings.Contains(a.Text, " .") {
						t.Errorf("%s sample %d: untidy text %q", pf, sample, a.Text)
					}
				}
			}
		})
	}
}

// TestSimulatedInventsRivals: without competitor hints the answers name
// rivals from the fictional pool, the same three for every platform and
// query about one brand, and different brands get different sets.
func TestSimulatedInventsRivals(t *testing.T) {
	named := func(brand string) map[string]bool {
		seen := map[string]bool{}
		for _, pf := range platforms.All {
			for _, q := range []string{"best crm tools", brand + " alternatives", "what is " + brand} {
				for sample := range 10 {
					a := simAnswer(t, pf, providers.Request{Query: q, Sample: sample, Hints: providers.Hints{Brand: brand, BrandDomain: "acme.com"}})
					text := a.Text
					for _, o := range a.OrganicResults {
						text += " " + o.Title
					}
					for _, r := range providers.RivalPool {
						if strings.Contains(text, r) {
							seen[r] = true
						}
					}
				}
			}
		}
		return seen
	}
	cases := []struct{ brand string }{{"Acme CRM"}, {"Zeta Notes"}}
	sets := map[string]string{}
	for _, tc := range cases {
		t.Run(tc.brand, func(t *testing.T) {
			seen := named(tc.brand)
			if len(seen) != 3 {
				t.Fatalf("rivals named: %v, want exactly three", seen)
			}
			var names []string
			for _, r := range providers.RivalPool {
				if seen[r] {
					names = append(names, r)
				}
			}
			sets[tc.brand] = strings.Join(names, ",")
		})
	}
	if sets["Acme CRM"] == sets["Zeta Notes"] {
		t.Errorf("both brands got the rivals %s", sets["Acme CRM"])
	}
}

func TestSimulatedCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := providers.NewSimulated(platforms.Claude).Answer(ctx, providers.Request{Query: "q"})
	if !providers.IsRetryable(err) {
		t.Fatalf("err = %v", err)
	}
}

func TestReplay(t *testing.T) {
	r, err := providers.LoadReplay(filepath.Join("testdata", "replay.json"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		platform string
		query    string
		sample   int
		text     string
		state    string
		organic  int
		noAnswer bool
	}{
		{name: "exact", platform: "chatgpt", query: "Best CRM for small agencies", text: "Acme CRM is a common pick."},
		{name: "case and spaces folded", platform: "chatgpt", query: "  BEST crm\tfor small   agencies", text: "Acme CRM is a common pick."},
		{name: "second sample cycles", platform: "chatgpt", query: "best crm for small agencies", sample: 1, text: "Zoë CRM is a common pick."},
		{name: "third sample wraps", platform: "chatgpt", query: "best crm for small agencies", sample: 2, text: "Acme CRM is a common pick."},
		{name: "other platform", platform: "perplexity", query: "best crm for small agencies", sample: 3, text: "Acme CRM is popular [1]."},
		{name: "overview present", platform: "google_ai_overview", query: "best crm for small agencies", text: "Acme CRM is a popular choice.", state: providers.OverviewPresent, organic: 2},
		{name: "overview absent", platform: "google_ai_overview", query: "crm pricing", state: providers.OverviewAbsent, organic: 1},
		{name: "no answer for platform", platform: "gemini", query: "best crm for small agencies", noAnswer: true},
		{name: "no answer for query", platform: "chatgpt", query: "best crm for large agencies", noAnswer: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := r.Provider(tc.platform)
			ans, err := p.Answer(context.Background(), providers.Request{Query: tc.query, Sample: tc.sample})
			if tc.noAnswer {
				var pe *providers.Error
				if !errors.As(err, &pe) || pe.Kind != providers.KindNoAnswer || providers.IsRetryable(err) {
					t.Fatalf("err = %v", err)
				}
				for _, want := range []string{tc.platform, tc.query, "replay.json"} {
					if !strings.Contains(pe.Message, want) {
						t.Errorf("message %q does not name %q", pe.Message, want)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ans.Platform != tc.platform || ans.Text != tc.text || ans.AIOverviewState != tc.state || len(ans.OrganicResults) != tc.organic {
				t.Errorf("answer = %+v", ans)
			}
			for _, c := range ans.Citations {
				if c.Start != -1 || c.End != -1 || c.URL == "" {
					t.Errorf("citation = %+v", c)
				}
			}
		})
	}
}

// The README's members at their zero values ("organicResults": [],
// "aiOverview": false, "citations": []) are accepted on every platform: a
// file written as documented never stops serve at start.
func TestParseReplayAcceptsZeroValuesOnEveryPlatform(t *testing.T) {
	for _, pf := range platforms.All {
		t.Run(pf, func(t *testing.T) {
			text := `"Acme CRM is a common pick."`
			if pf == platforms.GoogleAIOverview {
				text = `""` // aiOverview false: no Overview, so no text
			}
			data := `{"answers":[{"platform":"` + pf + `","query":"best crm","text":` + text +
				`,"citations":[],"organicResults":[],"aiOverview":false}]}`
			r, err := providers.ParseReplay([]byte(data))
			if err != nil {
				t.Fatalf("refused %s: %v", data, err)
			}
			ans, err := r.Provider(pf).Answer(context.Background(), providers.Request{Query: "best crm"})
			if err != nil || len(ans.OrganicResults) != 0 || len(ans.Citations) != 0 {
				t.Fatalf("answer %+v, %v", ans, err)
			}
			if pf == platforms.GoogleAIOverview && ans.AIOverviewState != providers.OverviewAbsent {
				t.Errorf("overview state %q", ans.AIOverviewState)
			}
		})
	}
}

func TestParseReplayErrors(t *testing.T) {
	cases := []struct {
		name, data, want string
	}{
		{"not JSON", `{"answers":`, "invalid JSON"},
		{"unknown member", `{"answers":[],"extra":1}`, `unknown field "extra"`},
		{"unknown answer member", `{"answers":[{"platform":"chatgpt","query":"q","text":"t","model":"x"}]}`, `unknown field "model"`},
		{"trailing data", `{"answers":[]} {}`, "after the top-level object"},
		{"missing answers", `{}`, `missing "answers"`},
		{"null answers", `{"answers":null}`, `missing "answers"`},
		{"unknown platform", `{"answers":[{"platform":"copilot","query":"q","text":"t"}]}`, `answers[0]: platform "copilot"`},
		{"missing query", `{"answers":[{"platform":"chatgpt","query":" ","text":"t"}]}`, `answers[0]: "query" is required`},
		{"missing text", `{"answers":[{"platform":"chatgpt","query":"q","text":"t"},{"platform":"claude","query":"q"}]}`, `answers[1]: "text" is required`},
		{"overview shown without text", `{"answers":[{"platform":"google_ai_overview","query":"q","aiOverview":true}]}`, `"text" is required`},
		{"overview absent with text", `{"answers":[{"platform":"google_ai_overview","query":"q","aiOverview":false,"text":"t"}]}`, `must be empty`},
		{"overview shown on chatgpt", `{"answers":[{"platform":"chatgpt","query":"q","text":"t","aiOverview":true}]}`, `answers[0]: the chatgpt answer to "q" has "aiOverview": true, which applies only to google_ai_overview`},
		{"organic results on claude", `{"answers":[{"platform":"claude","query":"q","text":"t","organicResults":[{"url":"https://a.example/","title":"a"}]}]}`, `answers[0]: the claude answer to "q" has "organicResults", which apply only to google_ai_overview`},
		{"relative citation url", `{"answers":[{"platform":"chatgpt","query":"q","text":"t","citations":[{"url":"/x","title":"t"}]}]}`, `citations[0]: url "/x"`},
		{"bad organic url", `{"answers":[{"platform":"google_ai_overview","query":"q","aiOverview":false,"organicResults":[{"url":"ftp://x"}]}]}`, `organicResults[0]`},
		{"wrong type", `{"answers":[{"platform":"chatgpt","query":1,"text":"t"}]}`, "invalid JSON"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := providers.ParseReplay([]byte(tc.data))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
	if _, err := providers.LoadReplay(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("missing file accepted")
	}
}

func FuzzParseReplay(f *testing.F) {
	b, err := os.ReadFile(filepath.Join("testdata", "replay.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte(`{"answers":[{"platform":"google_ai_overview","query":"q","text":"t"}]}`))
	f.Add([]byte(`{"answers":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := providers.ParseReplay(data)
		if err != nil {
			return
		}
		for _, pf := range platforms.All {
			for sample := -1; sample < 2; sample++ {
				_, _ = r.Provider(pf).Answer(context.Background(), providers.Request{Query: "q", Sample: sample})
			}
		}
	})
}
