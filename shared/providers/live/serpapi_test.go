package live

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/providers/live/vendorfake"
)

var newTestSerp = testProvider(NewGoogleAIOverview)

func TestGoogleAIOverviewSuccess(t *testing.T) {
	type cite = wantCite
	cases := []struct {
		name      string
		first     string
		second    string
		state     string
		text      string
		organic   int
		citations []cite
		requests  int
	}{
		{
			name: "present", first: "serpapi_present.json", state: providers.OverviewPresent, organic: 2, requests: 1,
			text: "Acme CRM is a popular choice for small agencies.\n\n" +
				"- Acme CRM: affordable plans for agencies.\n" +
				"- Zoë CRM: strong pipelines ☕.\n\n" +
				"Pick based on team size.",
			citations: []cite{
				{URL: "https://acme.com/pricing", Span: "Acme CRM is a popular choice for small agencies."},
				{URL: "https://acme.com/pricing", Span: "Acme CRM: affordable plans for agencies."},
				{URL: "https://zoe.example/review", Span: "Acme CRM: affordable plans for agencies."},
				{URL: "https://zoe.example/review", Span: "Zoë CRM: strong pipelines ☕."},
				{URL: "https://uncited.example/", Span: ""},
			},
		},
		{
			name: "deferred via page_token", first: "serpapi_page_token.json", second: "serpapi_deferred.json",
			state: providers.OverviewDeferred, organic: 1, requests: 2,
			text:      "Acme CRM leads for agencies.",
			citations: []cite{{URL: "https://acme.com/pricing", Span: "Acme CRM leads for agencies."}},
		},
		{name: "absent", first: "serpapi_absent.json", state: providers.OverviewAbsent, organic: 2, requests: 1},
		{name: "no Google results", state: providers.OverviewAbsent, requests: 1,
			first: `{"search_metadata":{"status":"Success"},"error":"Google hasn't returned any results for this query."}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := func(s string) string {
				if strings.HasSuffix(s, ".json") {
					return fixture(t, s)
				}
				return s
			}
			f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) {
				if n == 0 {
					reply(w, 200, nil, body(tc.first))
					return
				}
				reply(w, 200, nil, body(tc.second))
			})
			ans, err := newTestSerp(f.srv.URL, time.Second).Answer(context.Background(), providers.Request{Query: "best crm small agencies"})
			if err != nil {
				t.Fatal(err)
			}
			reqs := f.requests()
			if len(reqs) != tc.requests {
				t.Fatalf("%d requests, want %d", len(reqs), tc.requests)
			}
			q, _ := url.ParseQuery(reqs[0].query)
			if reqs[0].method != http.MethodGet || reqs[0].path != "/search.json" || q.Get("engine") != "google" ||
				q.Get("q") != "best crm small agencies" || q.Get("hl") != "en" || q.Get("gl") != "us" || q.Get("api_key") != testKey {
				t.Errorf("first request %s %s?%s", reqs[0].method, reqs[0].path, reqs[0].query)
			}
			if tc.requests == 2 {
				q2, _ := url.ParseQuery(reqs[1].query)
				if reqs[1].path != "/search.json" || q2.Get("engine") != "google_ai_overview" || q2.Get("page_token") != "TOKEN-abc_123" || q2.Get("api_key") != testKey {
					t.Errorf("second request %s?%s", reqs[1].path, reqs[1].query)
				}
			}
			if ans.AIOverviewState != tc.state || ans.Text != tc.text || len(ans.OrganicResults) != tc.organic {
				t.Errorf("answer = state %q text %q organic %d", ans.AIOverviewState, ans.Text, len(ans.OrganicResults))
			}
			if tc.organic > 0 && (ans.OrganicResults[0].Position != 1 || ans.OrganicResults[0].URL != "https://acme.com/") {
				t.Errorf("organic = %+v", ans.OrganicResults)
			}
			if math.Abs(ans.CostUSD-float64(tc.requests)*serpAPICostPerRequest) > 1e-12 || ans.Latency <= 0 {
				t.Errorf("cost %v latency %v", ans.CostUSD, ans.Latency)
			}
			checkCitations(t, ans, tc.citations)
		})
	}
}

func TestGoogleAIOverviewErrors(t *testing.T) {
	cases := []errCase{
		{name: "429 throughput", status: 429, header: map[string]string{"Retry-After": "30"},
			body: `{"error":"Your account has exceeded the hourly throughput limit."}`, kind: providers.KindTransient, retryMin: 30 * time.Second, retryMax: 30 * time.Second},
		{name: "429 retry-after date", status: 429, header: map[string]string{"Retry-After": httpDate(40 * time.Second)},
			body: `{"error":"Your account has exceeded the hourly throughput limit."}`, kind: providers.KindTransient, retryMin: 38 * time.Second, retryMax: 41 * time.Second},
		{name: "429 retry-after-ms", status: 429, header: map[string]string{"Retry-After-Ms": "100"},
			body: `{"error":"Your account has exceeded the hourly throughput limit."}`, kind: providers.KindTransient, retryMin: 100 * time.Millisecond, retryMax: 100 * time.Millisecond},
		{name: "429 out of searches", status: 429, body: `{"error":"Your account has run out of searches."}`, kind: providers.KindQuota},
		{name: "401 echoes key", status: 401, body: `{"error":"Invalid API key sk-test-SECRETKEY0123456789. Your API key should be here: https://serpapi.com/manage-api-key"}`, kind: providers.KindAuth},
		{name: "403", status: 403, body: `{"error":"Account disabled"}`, kind: providers.KindAuth},
		{name: "400", status: 400, body: `{"error":"Missing query 'q' parameter."}`, kind: providers.KindInvalid},
		{name: "404", status: 404, body: `{"error":"Not found"}`, kind: providers.KindInvalid},
		{name: "500", status: 500, body: `{"error":"Internal error"}`, kind: providers.KindTransient},
		{name: "503 non-JSON", status: 503, body: `Service Unavailable`, kind: providers.KindTransient},
		{name: "status Error inside 200", status: 200, body: `{"search_metadata":{"status":"Error"},"error":"Something went wrong"}`, kind: providers.KindFailedAnswer, code: "search_error"},
		{name: "error member inside 200", status: 200, body: `{"error":"Unsupported location"}`, kind: providers.KindFailedAnswer, code: "search_error"},
		{name: "overview without text or token", status: 200, body: `{"search_metadata":{"status":"Success"},"ai_overview":{}}`, kind: providers.KindFailedAnswer, code: "empty_overview"},
		{name: "overview error", status: 200, body: `{"search_metadata":{"status":"Success"},"ai_overview":{"error":"parse failed"}}`, kind: providers.KindFailedAnswer, code: "overview_error"},
		{name: "deferred call fails", handler: func(w http.ResponseWriter, r *http.Request, n int) {
			if n == 0 {
				reply(w, 200, nil, fixture(t, "serpapi_page_token.json"))
				return
			}
			reply(w, 400, nil, `{"error":"page_token expired"}`)
		}, kind: providers.KindInvalid},
		{name: "deferred call without overview, also after a fresh search", handler: func(w http.ResponseWriter, r *http.Request, n int) {
			if r.URL.Query().Get("engine") == "google" {
				reply(w, 200, nil, fixture(t, "serpapi_page_token.json"))
				return
			}
			reply(w, 200, nil, `{"search_metadata":{"status":"Success"}}`)
		}, kind: providers.KindFailedAnswer, code: "deferred_overview_missing"},
		{name: "malformed JSON", status: 200, body: `{"organic_results":[`, kind: providers.KindTransient, code: "malformed_response"},
		{name: "timeout", handler: func(w http.ResponseWriter, r *http.Request, n int) { hang(r) }, kind: providers.KindTransient, code: "timeout"},
	}
	runErrCases(t, cases, newTestSerp)
}

// SerpApi may serve the first search from its cache (up to an hour old),
// with a page_token that has expired: the search is then run again with
// no_cache=true and the fresh token is used.
func TestGoogleAIOverviewCachedToken(t *testing.T) {
	old := time.Now().Add(-time.Hour).UTC().Format("2006-01-02 15:04:05 UTC")
	search := func(created, token string) string {
		return `{"search_metadata":{"id":"s","status":"Success","created_at":"` + created + `"},
		 "ai_overview":{"page_token":"` + token + `"},"organic_results":[{"position":1,"title":"Acme","link":"https://acme.com/","snippet":"x"}]}`
	}
	cases := []struct {
		name     string
		created  string
		requests []string // engine and token or no_cache of each request
	}{
		{"created_at says the token expired", old, []string{"google", "google no_cache", "google_ai_overview fresh"}},
		{"no created_at: the refused follow-up is retried after a fresh search", "", []string{"google", "google_ai_overview stale", "google no_cache", "google_ai_overview fresh"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) {
				q := r.URL.Query()
				if err := vendorfake.CheckSerpAPI(q); err != nil {
					reply(w, 400, nil, `{"error":"`+err.Error()+`"}`)
					return
				}
				switch {
				case q.Get("engine") == "google" && q.Get("no_cache") == "true":
					reply(w, 200, nil, search(time.Now().UTC().Format("2006-01-02 15:04:05 UTC"), "fresh"))
				case q.Get("engine") == "google":
					reply(w, 200, nil, search(tc.created, "stale"))
				case q.Get("page_token") == "fresh":
					reply(w, 200, nil, fixture(t, "serpapi_deferred.json"))
				default:
					reply(w, 400, nil, `{"search_metadata":{"status":"Error"},"error":"The page_token has expired."}`)
				}
			})
			a, err := newTestSerp(f.srv.URL, time.Second).Answer(context.Background(), providers.Request{Query: "best crm"})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, rq := range f.requests() {
				q, _ := url.ParseQuery(rq.query)
				d := q.Get("engine")
				if q.Get("no_cache") == "true" {
					d += " no_cache"
				}
				if tok := q.Get("page_token"); tok != "" {
					d += " " + tok
				}
				got = append(got, d)
			}
			if strings.Join(got, ", ") != strings.Join(tc.requests, ", ") {
				t.Errorf("requests %v, want %v", got, tc.requests)
			}
			if a.AIOverviewState != providers.OverviewDeferred || a.Text != "Acme CRM leads for agencies." || len(a.OrganicResults) != 1 {
				t.Errorf("answer %+v", a)
			}
			if want := float64(len(tc.requests)) * serpAPICostPerRequest; math.Abs(a.CostUSD-want) > 1e-12 {
				t.Errorf("cost %v, want %v", a.CostUSD, want)
			}
		})
	}
}

// Headings, tables, expandable sections and comparisons are part of the
// Overview's text, and their references cite the lines they produced.
func TestGoogleAIOverviewBlockTypes(t *testing.T) {
	body := `{"search_metadata":{"status":"Success"},"ai_overview":{"text_blocks":[
	 {"type":"heading","snippet":"Top picks"},
	 {"type":"table","table":[["App","Price"],["Acme",8],["Zoë","free"]],"reference_indexes":[0]},
	 {"type":"expandable","title":"Why Acme","text_blocks":[{"type":"paragraph","snippet":"Fast sync.","reference_indexes":[1]}]},
	 {"type":"comparison","product_labels":["Acme","Zoë"],"comparison":[{"feature":"Offline","values":["Yes","No"]}],"reference_indexes":[1]},
	 {"type":"paragraph","snippet":"Both are fine."}],
	 "references":[{"title":"Acme","link":"https://acme.com/","index":0},{"title":"Review","link":"https://review.example/","index":1}]}}`
	r := &serpResponse{}
	if err := json.Unmarshal([]byte(body), r); err != nil {
		t.Fatal(err)
	}
	a, _, err := parseSerp(r)
	if err != nil {
		t.Fatal(err)
	}
	want := "Top picks\n\nApp | Price\nAcme | 8\nZoë | free\n\nWhy Acme\n\nFast sync.\n\nAcme | Zoë\nOffline | Yes | No\n\nBoth are fine."
	if a.Text != want {
		t.Fatalf("text %q\nwant %q", a.Text, want)
	}
	checkSpans(t, a)
	spans := map[string]string{}
	for _, c := range a.Citations {
		spans[spanOf(a.Text, c)] += c.URL + " "
	}
	for span, url := range map[string]string{
		"App | Price\nAcme | 8\nZoë | free": "https://acme.com/ ",
		"Fast sync.":                        "https://review.example/ ",
		"Acme | Zoë\nOffline | Yes | No":    "https://review.example/ ",
	} {
		if spans[span] != url {
			t.Errorf("span %q cited by %q, want %q (all: %v)", span, spans[span], url, spans)
		}
	}
}

// The key travels in SerpApi's query string; a network error must not
// print the URL.
func TestGoogleAIOverviewNetworkErrorHidesKey(t *testing.T) {
	_, err := newTestSerp(closedURL(t), time.Second).Answer(context.Background(), providers.Request{Query: "q"})
	var pe *providers.Error
	if !errors.As(err, &pe) || pe.Kind != providers.KindTransient || pe.Code != "network" {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), "SECRETKEY") || strings.Contains(err.Error(), "api_key") {
		t.Errorf("error leaks the key: %v", err)
	}
}

func FuzzParseSerp(f *testing.F) {
	for _, name := range []string{"serpapi_present.json", "serpapi_page_token.json", "serpapi_deferred.json", "serpapi_absent.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"ai_overview":{"text_blocks":[{"type":"list","list":[{"list":[{"snippet":"é","reference_indexes":[-1,5,0]}]}]}],"references":[{"link":"x"}]}}`))
	f.Add([]byte(`{"ai_overview":{"text_blocks":[{"type":"table","table":[["a",1,null,{"x":1}],[]],"reference_indexes":[0]},{"type":"comparison","product_labels":["p",true],"comparison":[{"feature":"f","values":["v",2.5]}]}],"references":[{"link":"x","index":0}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var r serpResponse
		if json.Unmarshal(data, &r) != nil {
			return
		}
		ans, _, err := parseSerp(&r)
		if err == nil {
			checkSpans(t, ans)
		}
	})
}
