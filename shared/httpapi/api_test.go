package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/auth"
	"github.com/brandlens/brandlens/shared/citations"
	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/httpapi/apitest"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/seed"
)

func TestMeReturnsEveryEntitlementMember(t *testing.T) {
	api := apitest.New(t, apitest.Options{})
	r := api.Do(t, "GET", "/api/v1/me", apitest.KeyAPublish, "")
	if r.Status != 200 {
		t.Fatalf("status %d: %s", r.Status, r.Body)
	}
	m := r.JSON(t)
	for _, member := range []string{"scopes", "credits_balance", "spent_today", "daily_credit_ceiling", "rpm_limit", "autonomy_level", "pending_approvals", "capabilities"} {
		if _, ok := m[member]; !ok {
			t.Errorf("member %s missing: %s", member, r.Body)
		}
	}
	if m["credits_balance"] != float64(1000) || m["daily_credit_ceiling"] != float64(500) || m["rpm_limit"] != float64(600) || m["spent_today"] != float64(0) {
		t.Errorf("wrong numbers: %s", r.Body)
	}
	if m["autonomy_level"] != "L2" || m["is_agent"] != false { // a human key is never held
		t.Errorf("wrong autonomy: %s", r.Body)
	}

	caps := func(key string) []string {
		var e httpapi.Entitlement
		if err := json.Unmarshal(api.Do(t, "GET", "/api/v1/me", key, "").Body, &e); err != nil {
			t.Fatal(err)
		}
		if !sort.StringsAreSorted(e.Capabilities) {
			t.Errorf("capabilities not sorted: %v", e.Capabilities)
		}
		return e.Capabilities
	}
	full, read, agent := caps(apitest.KeyAPublish), caps(apitest.KeyARead), caps(apitest.KeyAAgent)
	if !slices.Equal(full, caps(apitest.KeyAPublish)) {
		t.Error("capabilities are not deterministic")
	}
	for _, c := range []string{"queries:run", "webhooks:manage", "citations:read", "jobs:read"} {
		if !slices.Contains(full, c) {
			t.Errorf("publish key lacks %s: %v", c, full)
		}
	}
	if slices.Contains(read, "queries:run") || !slices.Contains(read, "citations:read") {
		t.Errorf("read key capabilities wrong: %v", read)
	}
	if !slices.Contains(agent, "queries:run") || slices.Contains(agent, "approvals:review") {
		t.Errorf("agent key capabilities wrong: %v", agent)
	}
	// Only what works here: every capability listed is granted by a route
	// that does more than answer 501, and the publish key is offered every
	// such capability.
	working := map[string]bool{}
	for _, r := range httpapi.Routes {
		if r.Implemented() && r.Capability != "" && (r.Guard == httpapi.GuardAPIKey || r.Guard == httpapi.GuardReviewer) {
			working[r.Capability] = true
		}
	}
	for _, key := range []string{apitest.KeyAPublish, apitest.KeyARead, apitest.KeyAAgent} {
		for _, c := range caps(key) {
			if !working[c] {
				t.Errorf("%s is offered %s, which only routes answering 501 grant", key, c)
			}
		}
	}
	for c := range working {
		if !slices.Contains(full, c) {
			t.Errorf("publish key lacks working capability %s: %v", c, full)
		}
	}
}

func TestAuthErrors(t *testing.T) {
	api := apitest.New(t, apitest.Options{})
	revoked := "local-key-acme-revoked-0001"
	_, rec, err := api.Svc.Keys.Create(context.Background(), keyFor(api.A.ID, revoked))
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := api.Svc.Keys.Revoke(context.Background(), api.A.ID, rec.ID); err != nil || !ok {
		t.Fatalf("revoke: %v %v", ok, err)
	}
	cases := []struct {
		name, method, path, key, body string
		status                        int
		code                          string
	}{
		{"missing key", "GET", "/api/v1/me", "", "", 401, "missing_api_key"},
		{"wrong key", "GET", "/api/v1/me", "local-key-does-not-exist-01", "", 401, "invalid_api_key"},
		{"revoked key", "GET", "/api/v1/me", revoked, "", 401, "invalid_api_key"},
		{"key in query string", "GET", "/api/v1/me?api_key=" + apitest.KeyAPublish, "", "", 401, "invalid_api_key"},
		{"read key on write route", "POST", "/api/v1/queries/1/run", apitest.KeyARead, "{}", 403, "insufficient_scope"},
		{"read_write needed for webhooks", "POST", "/api/v1/webhooks", apitest.KeyARead, "", 403, "insufficient_scope"},
		{"agent key cannot review", "GET", "/api/tracker/approvals/pending", apitest.KeyAAgent, "", 403, "insufficient_scope"},
		{"read key cannot review", "GET", "/api/tracker/approvals/pending", apitest.KeyARead, "", 403, "insufficient_scope"},
		{"write route after its guard", "POST", "/api/v1/opportunities/01m82pxk3cp716pqtea60svpsr/publish", apitest.KeyAPublish, `{"destinationId":"d","mode":"propose"}`, 404, "not_found"},
		{"signed receiver without signature", "POST", "/api/site-content/webhooks/news", "", `{"Title":"x"}`, 401, "invalid_signature"},
		{"unknown route", "GET", "/api/v1/nothing", apitest.KeyAPublish, "", 404, "not_found"},
		{"unknown route without key", "GET", "/nothing", "", "", 404, "not_found"},
		{"wrong method", "DELETE", "/api/v1/me", apitest.KeyAPublish, "", 405, "method_not_allowed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := api.Do(t, c.method, c.path, c.key, c.body)
			if r.Status != c.status || r.ErrorCode(t) != c.code {
				t.Fatalf("got %d %s, want %d %s", r.Status, r.Body, c.status, c.code)
			}
			if c.status == 405 && r.Header.Get("Allow") != "GET" {
				t.Errorf("Allow = %q", r.Header.Get("Allow"))
			}
		})
	}
	t.Run("unknown and revoked keys answer identically", func(t *testing.T) {
		a := api.Do(t, "GET", "/api/v1/me", "local-key-does-not-exist-01", "").Body
		b := api.Do(t, "GET", "/api/v1/me", revoked, "").Body
		if string(a) != string(b) {
			t.Errorf("bodies differ:\n%s\n%s", a, b)
		}
	})
}

func TestValidation(t *testing.T) {
	api := apitest.New(t, apitest.Options{})
	cases := []struct {
		name, method, path, body, ctype string
		fields                          []string
	}{
		{"pageSize above max", "GET", "/api/v1/citations?pageSize=101", "", "", []string{"pageSize"}},
		{"page zero", "GET", "/api/v1/citations?page=0", "", "", []string{"page"}},
		{"ill-typed numbers", "GET", "/api/v1/citations?page=x&pageSize=1.5", "", "", []string{"page", "pageSize"}},
		{"unknown enum", "GET", "/api/v1/citations?platform=myspace&sourceType=blog", "", "", []string{"platform", "sourceType"}},
		{"bad bool and date", "GET", "/api/v1/citations?hasMention=yes&dateFrom=yesterday", "", "", []string{"dateFrom", "hasMention"}},
		{"dateTo before dateFrom", "GET", "/api/v1/citations?dateFrom=2026-11-02T00:00:00Z&dateTo=2026-11-01T00:00:00Z", "", "", []string{"dateTo"}},
		{"unknown query parameter", "GET", "/api/v1/citations?platfrom=chatgpt", "", "", []string{"platfrom"}},
		{"repeated parameter", "GET", "/api/v1/citations?page=1&page=2", "", "", []string{"page"}},
		{"jobs limit above max", "GET", "/api/v1/jobs?limit=201", "", "", []string{"limit"}},
		{"jobs unknown status", "GET", "/api/v1/jobs?status=done", "", "", []string{"status"}},
		{"non-numeric id", "GET", "/api/v1/queries/abc", "", "", []string{"id"}},
		{"unknown and ill-typed body members", "POST", "/api/v1/queries/1/run", `{"platforms":"chatgpt","samples":"two","colour":1}`, "application/json", []string{"colour", "platforms", "samples"}},
		{"body not an object", "POST", "/api/v1/queries/1/run", `[1,2]`, "application/json", []string{"body"}},
		{"malformed JSON", "POST", "/api/v1/queries/1/run", `{"samples":`, "application/json", []string{"body"}},
		{"trailing data", "POST", "/api/v1/queries/1/run", `{} {}`, "application/json", []string{"body"}},
		{"form body refused", "POST", "/api/v1/queries/1/run", `samples=2`, "application/x-www-form-urlencoded", []string{"Content-Type"}},
		{"text/plain refused", "POST", "/api/v1/queries/1/run", `{}`, "text/plain", []string{"Content-Type"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var hdr []string
			if c.ctype != "" {
				hdr = []string{"Content-Type", c.ctype}
			}
			r := api.Do(t, c.method, c.path, apitest.KeyAPublish, c.body, hdr...)
			if r.Status != 422 || r.ErrorCode(t) != "validation_error" {
				t.Fatalf("got %d %s", r.Status, r.Body)
			}
			if got := r.Fields(t); !slices.Equal(got, c.fields) {
				t.Errorf("fields %v, want %v", got, c.fields)
			}
		})
	}
	t.Run("accepted JSON media types", func(t *testing.T) {
		for _, ct := range []string{"application/json", "application/json; charset=utf-8", "text/json", "application/merge-patch+json", "application/vnd.brandlens+json"} {
			r := api.Do(t, "POST", "/api/v1/queries/1/run", apitest.KeyAPublish, `{"samples":2}`, "Content-Type", ct)
			if r.Status != 202 {
				t.Errorf("%s: got %d %s", ct, r.Status, r.Body)
			}
		}
	})
	t.Run("body over the cap", func(t *testing.T) {
		big := `{"platforms":["` + strings.Repeat("a", httpapi.DefaultMaxBody) + `"]}`
		r := api.Do(t, "POST", "/api/v1/queries/1/run", apitest.KeyAPublish, big)
		if r.Status != 413 || r.ErrorCode(t) != "payload_too_large" {
			t.Fatalf("got %d %s", r.Status, r.Body)
		}
	})
}

func keyFor(tenantID int32, plain string) auth.NewKey {
	return auth.NewKey{TenantID: tenantID, Plaintext: plain, Scopes: []auth.Scope{auth.ScopeRead}}
}

// newCitedAPI is an API whose tenant A has 250 synthetic citations and
// tenant B 3, for the read paths that must never mix tenants.
func newCitedAPI(t *testing.T) *apitest.API {
	t.Helper()
	api := apitest.New(t, apitest.Options{})
	ctx := context.Background()
	if _, err := seed.SyntheticCitations(ctx, api.Svc.Repos, api.A.ID, 250, 7); err != nil {
		t.Fatal(err)
	}
	if _, err := seed.SyntheticCitations(ctx, api.Svc.Repos, api.B.ID, 3, 8); err != nil {
		t.Fatal(err)
	}
	return api
}

func TestReadEndpoints(t *testing.T) {
	api := newCitedAPI(t)

	t.Run("queries", func(t *testing.T) {
		var l httpapi.QueryList
		api.Do(t, "GET", "/api/v1/queries", apitest.KeyARead, "").Decode(t, 200, &l)
		if len(l.Items) != 2 || l.Items[0].ID != 1 || l.Items[1].ID != 2 || l.Items[0].Text != "best note taking app" || l.Items[0].BrandProfileID != 1 {
			t.Fatalf("queries: %+v", l.Items)
		}
		r := api.Do(t, "GET", "/api/v1/queries/2", apitest.KeyARead, "")
		if r.Status != 200 || r.JSON(t)["text"] != "notes for teams" {
			t.Fatalf("query 2: %d %s", r.Status, r.Body)
		}
		if r := api.Do(t, "GET", "/api/v1/queries/2", apitest.KeyBPublish, ""); r.Status != 404 || r.ErrorCode(t) != "not_found" {
			t.Fatalf("tenant B read A's query 2: %d %s", r.Status, r.Body)
		}
	})
	t.Run("competitors", func(t *testing.T) {
		var l httpapi.CompetitorList
		api.Do(t, "GET", "/api/v1/competitors", apitest.KeyARead, "").Decode(t, 200, &l)
		if len(l.Items) != 2 || *l.Items[0].Name != "Notion" || l.Items[1].ID != 2 {
			t.Fatalf("competitors: %+v", l.Items)
		}
		m := api.Do(t, "GET", "/api/v1/competitors/1", apitest.KeyARead, "").JSON(t)
		for _, f := range []string{"id", "tenantId", "name", "websiteUrl", "description", "keywords", "isActive", "isDismissed", "dismissedAt", "createdAt", "updatedAt", "visibilityRank", "imageUrl", "detailedDescription", "detailedDescriptionUrl", "sameAsUrls", "totalMentions", "lastDetected", "dataSource"} {
			if _, ok := m[f]; !ok {
				t.Errorf("CompetitorDto member %s missing", f)
			}
		}
		if r := api.Do(t, "GET", "/api/v1/competitors/1", apitest.KeyBPublish, ""); r.Status != 404 {
			t.Fatalf("tenant B read A's competitor: %d", r.Status)
		}
	})
	t.Run("citation of another tenant is 404", func(t *testing.T) {
		if r := api.Do(t, "GET", "/api/v1/citations/200", apitest.KeyAPublish, ""); r.Status != 200 {
			t.Fatalf("own citation: %d %s", r.Status, r.Body)
		}
		r := api.Do(t, "GET", "/api/v1/citations/200", apitest.KeyBPublish, "")
		if r.Status != 404 || r.ErrorCode(t) != "not_found" {
			t.Fatalf("got %d %s", r.Status, r.Body)
		}
		var c citations.Citation
		api.Do(t, "GET", "/api/v1/citations/1", apitest.KeyBPublish, "").Decode(t, 200, &c)
		if c.TenantID != api.B.ID {
			t.Fatalf("B's citation 1 belongs to tenant %d", c.TenantID)
		}
	})

	all := allCitations(t, api, apitest.KeyARead, "")
	if len(all) != 250 {
		t.Fatalf("paged through %d citations, want 250", len(all))
	}
	t.Run("pages are disjoint, complete and newest first", func(t *testing.T) {
		seen := map[int32]bool{}
		for i, c := range all {
			if seen[c.ID] {
				t.Fatalf("citation %d twice", c.ID)
			}
			seen[c.ID] = true
			if i > 0 && c.Date.After(all[i-1].Date) {
				t.Fatalf("not newest first at %d", i)
			}
		}
		var p httpapi.CitationPage
		api.Do(t, "GET", "/api/v1/citations", apitest.KeyARead, "").Decode(t, 200, &p)
		if p.Page == nil || *p.Page != 1 || p.PageSize != 20 || len(p.Items) != 20 || !p.HasMore {
			t.Fatalf("defaults: page %d size %d items %d more %v", p.Page, p.PageSize, len(p.Items), p.HasMore)
		}
		api.Do(t, "GET", "/api/v1/citations?page=13&pageSize=20", apitest.KeyARead, "").Decode(t, 200, &p)
		if len(p.Items) != 10 || p.HasMore {
			t.Fatalf("last page: %d items, more %v", len(p.Items), p.HasMore)
		}
		api.Do(t, "GET", "/api/v1/citations?page=14", apitest.KeyARead, "").Decode(t, 200, &p)
		if len(p.Items) != 0 || p.Items == nil || p.HasMore {
			t.Fatalf("past the end: %+v", p)
		}
	})

	mid := all[len(all)/2].Date
	early := all[len(all)-30].Date
	filters := []struct {
		query string
		keep  func(c citations.Citation) bool
	}{
		{"platform=chatgpt", func(c citations.Citation) bool { return *c.Platform == "chatgpt" }},
		{"sentiment=negative", func(c citations.Citation) bool { return *c.Sentiment == "negative" }},
		{"sourceType=info_site", func(c citations.Citation) bool { return *c.CitationSourceType == "info_site" }},
		{"hasMention=true", func(c citations.Citation) bool { return c.AICitationMetrics.MentionCount > 0 }},
		{"hasMention=false", func(c citations.Citation) bool { return c.AICitationMetrics.MentionCount == 0 }},
		{"searchQuery=TEAMS", func(c citations.Citation) bool { return strings.Contains(*c.SearchQueryText, "teams") }},
		{"dateFrom=" + url.QueryEscape(mid.Format(time.RFC3339Nano)), func(c citations.Citation) bool { return !c.Date.Before(mid) }},
		{"dateTo=" + url.QueryEscape(mid.Format(time.RFC3339Nano)), func(c citations.Citation) bool { return !c.Date.After(mid) }},
		{"dateFrom=" + url.QueryEscape(early.Format(time.RFC3339Nano)) + "&dateTo=" + url.QueryEscape(mid.Format(time.RFC3339Nano)) + "&platform=perplexity&hasMention=true",
			func(c citations.Citation) bool {
				return !c.Date.Before(early) && !c.Date.After(mid) && *c.Platform == "perplexity" && c.AICitationMetrics.MentionCount > 0
			}},
	}
	for _, f := range filters {
		t.Run("filter "+f.query, func(t *testing.T) {
			var want []int32
			for _, c := range all {
				if f.keep(c) {
					want = append(want, c.ID)
				}
			}
			if len(want) == 0 || len(want) == len(all) {
				t.Fatalf("filter selects %d of %d: a useless test", len(want), len(all))
			}
			var got []int32
			for _, c := range allCitations(t, api, apitest.KeyARead, f.query) {
				got = append(got, c.ID)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("got %d ids, want %d", len(got), len(want))
			}
		})
	}
}

// allCitations pages through the citations by page number.
func allCitations(t *testing.T, api *apitest.API, key, query string) []citations.Citation {
	t.Helper()
	var out []citations.Citation
	for page := 1; ; page++ {
		var p httpapi.CitationPage
		path := fmt.Sprintf("/api/v1/citations?pageSize=17&page=%d", page)
		if query != "" {
			path += "&" + query
		}
		api.Do(t, "GET", path, key, "").Decode(t, 200, &p)
		out = append(out, p.Items...)
		if !p.HasMore {
			return out
		}
		if page > 1000 {
			t.Fatal("no end of pages")
		}
	}
}

func TestJobs(t *testing.T) {
	api := apitest.New(t, apitest.Options{RPM: 6000})
	ctx := context.Background()
	base := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	statuses := []string{"queued", "running", "succeeded", "partial", "failed"}
	for i := range 60 {
		j := jobs.Job{ID: fmt.Sprintf("01jobtest%04d", i), TenantID: api.A.ID, Type: jobs.TypeQueryRun,
			Status: statuses[i%5], CreatedAt: base.Add(time.Duration(i) * time.Minute), PerPlatformStatus: map[string]jobs.PlatformStatus{}}
		op, err := jobs.CreateOp(j)
		if err != nil {
			t.Fatal(err)
		}
		if err := api.Table.TransactWrite(ctx, op); err != nil {
			t.Fatal(err)
		}
	}
	var l httpapi.JobList
	api.Do(t, "GET", "/api/v1/jobs", apitest.KeyARead, "").Decode(t, 200, &l)
	if len(l.Items) != 50 || l.Items[0].ID != "01jobtest0059" {
		t.Fatalf("default limit: %d items, first %s", len(l.Items), l.Items[0].ID)
	}
	api.Do(t, "GET", "/api/v1/jobs?status=partial&limit=5", apitest.KeyARead, "").Decode(t, 200, &l)
	if len(l.Items) != 5 {
		t.Fatalf("status filter: %d items", len(l.Items))
	}
	for _, j := range l.Items {
		if j.Status != "partial" {
			t.Fatalf("status filter let %s through", j.Status)
		}
	}
	api.Do(t, "GET", "/api/v1/jobs?status=failed", apitest.KeyARead, "").Decode(t, 200, &l)
	if len(l.Items) != 12 {
		t.Fatalf("failed jobs: %d", len(l.Items))
	}
	// Every job is reachable by cursor, each once, newest first.
	seen := map[string]bool{}
	path := "/api/v1/jobs?limit=25"
	for pages := 1; ; pages++ {
		var p httpapi.JobList
		api.Do(t, "GET", path, apitest.KeyARead, "").Decode(t, 200, &p)
		for _, j := range p.Items {
			if seen[j.ID] {
				t.Fatalf("job %s twice", j.ID)
			}
			seen[j.ID] = true
		}
		if p.NextCursor == nil {
			if pages != 3 || len(seen) != 60 || !seen["01jobtest0000"] {
				t.Fatalf("%d pages reached %d jobs", pages, len(seen))
			}
			break
		}
		path = "/api/v1/jobs?limit=25&cursor=" + *p.NextCursor
	}
	if r := api.Do(t, "GET", "/api/v1/jobs?cursor=not-a-cursor!", apitest.KeyARead, ""); r.Status != 422 || !slices.Equal(r.Fields(t), []string{"cursor"}) {
		t.Fatalf("bad cursor: %d %s", r.Status, r.Body)
	}
	var j jobs.Job
	api.Do(t, "GET", "/api/v1/jobs/01jobtest0003", apitest.KeyARead, "").Decode(t, 200, &j)
	if j.Status != "partial" {
		t.Fatalf("job: %+v", j)
	}
	if r := api.Do(t, "GET", "/api/v1/jobs/01jobtest0003", apitest.KeyBPublish, ""); r.Status != 404 {
		t.Fatalf("tenant B read A's job: %d", r.Status)
	}
	api.Do(t, "GET", "/api/v1/jobs", apitest.KeyBPublish, "").Decode(t, 200, &l)
	if len(l.Items) != 0 || l.Items == nil {
		t.Fatalf("tenant B sees jobs: %+v", l.Items)
	}
}

func TestCredits(t *testing.T) {
	api := apitest.New(t, apitest.Options{})
	var c httpapi.CreditInfo
	api.Do(t, "GET", "/api/v1/me/credits", apitest.KeyARead, "").Decode(t, 200, &c)
	if c.CreditsBalance != 1000 || c.Granted != 1000 || c.Held != 0 || c.Captured != 0 || c.DailyCreditCeiling != 500 || c.RemainingToday != 500 {
		t.Fatalf("credits: %+v", c)
	}
	if d := time.Until(c.ResetsAt); d <= 0 || d > 24*time.Hour || c.ResetsAt.UTC().Hour() != 0 {
		t.Fatalf("resets_at %v", c.ResetsAt)
	}
	api.Do(t, "GET", "/api/v1/me/credits", apitest.KeyBPublish, "").Decode(t, 200, &c)
	if c.CreditsBalance != 50 || c.RemainingToday != 50 {
		t.Fatalf("tenant B credits: %+v", c)
	}
}

func TestRateLimitPassesExactlyTheLimit(t *testing.T) {
	const limit = 7
	// A fixed clock keeps every request in one window.
	at := time.Date(2026, 11, 22, 12, 0, 45, 0, time.UTC)
	api := apitest.New(t, apitest.Options{RPM: limit, Now: func() time.Time { return at }})
	var wg sync.WaitGroup
	statuses := make([]apitest.Response, limit+5)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = api.Do(t, "GET", "/api/v1/me", apitest.KeyARead, "")
		}()
	}
	wg.Wait()
	ok, limited := 0, 0
	for _, r := range statuses {
		switch r.Status {
		case 200:
			ok++
		case 429:
			limited++
			if r.ErrorCode(t) != "rate_limit_exceeded" {
				t.Errorf("429 code: %s", r.Body)
			}
			if ra := r.Header.Get("Retry-After"); ra != "15" {
				t.Errorf("Retry-After %q, want 15 (seconds to the window end)", ra)
			}
		default:
			t.Errorf("status %d", r.Status)
		}
	}
	if ok != limit || limited != 5 {
		t.Fatalf("%d passed, %d limited; want %d and 5", ok, limited, limit)
	}
}

func TestPanicBecomesEnvelope(t *testing.T) {
	routes := []httpapi.Route{{Method: "GET", Path: "/boom", Guard: httpapi.GuardPublic, Status: 200,
		Handler: httpapi.Handle(func(*httpapi.Server, *httpapi.Request, httpapi.NoInput) (struct{}, error) { panic("boom") })}}
	rec := httptest.NewRecorder()
	httpapi.NewFor(httpapi.Deps{}, routes).ServeHTTP(rec, httptest.NewRequest("GET", "/boom", nil))
	r := apitest.Response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
	if r.Status != 500 || r.ErrorCode(t) != "internal_error" {
		t.Fatalf("got %d %s", r.Status, r.Body)
	}
}

func TestRunWritePath(t *testing.T) {
	api := apitest.New(t, apitest.Options{RPM: 6000})
	run := func(key, idem, body string) apitest.Response {
		t.Helper()
		if idem == "" {
			return api.Do(t, "POST", "/api/v1/queries/1/run", key, body)
		}
		return api.Do(t, "POST", "/api/v1/queries/1/run", key, body, "Idempotency-Key", idem)
	}
	t.Run("a 422 stores nothing and the corrected retry is processed", func(t *testing.T) {
		r := run(apitest.KeyAPublish, "idem-a", `{"samples":9}`)
		if r.Status != 422 || !slices.Equal(r.Fields(t), []string{"samples"}) {
			t.Fatalf("got %d %s", r.Status, r.Body)
		}
		r = run(apitest.KeyAPublish, "idem-a", `{"samples":2}`)
		if r.Status != 202 || r.JSON(t)["status"] != "queued" {
			t.Fatalf("corrected retry: %d %s", r.Status, r.Body)
		}
		first := r.JSON(t)["jobId"]
		again := run(apitest.KeyAPublish, "idem-a", `{"samples":2}`)
		if again.Status != 202 || again.JSON(t)["jobId"] != first {
			t.Fatalf("replay: %d %s", again.Status, again.Body)
		}
		conflict := run(apitest.KeyAPublish, "idem-a", `{"samples":3}`)
		if conflict.Status != 409 || conflict.ErrorCode(t) != "idempotency_conflict" {
			t.Fatalf("conflict: %d %s", conflict.Status, conflict.Body)
		}
		var c httpapi.CreditInfo
		api.Do(t, "GET", "/api/v1/me/credits", apitest.KeyARead, "").Decode(t, 200, &c)
		if c.Held != 4 || c.CreditsBalance != 996 || c.CommittedToday != 4 || c.RemainingToday != 496 {
			t.Fatalf("one 2-platform × 2-sample run must hold 4 credits once: %+v", c)
		}
		// Held is not spent: nothing was charged yet.
		if c.SpentToday != 0 {
			t.Fatalf("spent_today counts held credits: %+v", c)
		}
		var me httpapi.Entitlement
		api.Do(t, "GET", "/api/v1/me", apitest.KeyARead, "").Decode(t, 200, &me)
		if me.SpentToday != 0 || me.Held != 4 || me.CreditsBalance != 996 {
			t.Fatalf("/me shows held credits as spent: %+v", me)
		}
	})
	t.Run("bad idempotency keys", func(t *testing.T) {
		for _, k := range []string{strings.Repeat("k", 256)} {
			r := run(apitest.KeyAPublish, k, `{}`)
			if r.Status != 422 || !slices.Equal(r.Fields(t), []string{"Idempotency-Key"}) {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
		}
		req, _ := http.NewRequest("POST", api.URL+"/api/v1/queries/1/run", nil)
		req.Header.Set("X-API-Key", apitest.KeyAPublish)
		req.Header["Idempotency-Key"] = []string{""}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 422 {
			t.Fatalf("empty key: %d", res.StatusCode)
		}
	})
	t.Run("platforms", func(t *testing.T) {
		if r := run(apitest.KeyAPublish, "", `{"platforms":["gemini"]}`); r.Status != 422 || !slices.Equal(r.Fields(t), []string{"platforms"}) {
			t.Fatalf("platform outside the query: %d %s", r.Status, r.Body)
		}
		if r := run(apitest.KeyAPublish, "", `{"platforms":["myspace"]}`); r.Status != 422 {
			t.Fatalf("unknown platform: %d %s", r.Status, r.Body)
		}
		r := run(apitest.KeyAPublish, "", `{"platforms":["perplexity"]}`)
		var j jobs.Job
		api.Do(t, "GET", "/api/v1/jobs/"+r.JSON(t)["jobId"].(string), apitest.KeyARead, "").Decode(t, 200, &j)
		if !slices.Equal(j.Platforms, []string{"perplexity"}) || j.CreditsReserved != 1 || j.Status != "queued" {
			t.Fatalf("job %+v", j)
		}
	})
	t.Run("another tenant's query is 404", func(t *testing.T) {
		if r := api.Do(t, "POST", "/api/v1/queries/2/run", apitest.KeyBPublish, `{}`); r.Status != 404 || r.ErrorCode(t) != "not_found" {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	})
	t.Run("credits and ceiling carry Retry-After", func(t *testing.T) {
		// Tenant B has 50 credits and the default ceiling of 500; its query
		// runs on all five platforms: ten runs use them up.
		for range 10 {
			if r := api.Do(t, "POST", "/api/v1/queries/1/run", apitest.KeyBPublish, `{}`); r.Status != 202 {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
		}
		r := api.Do(t, "POST", "/api/v1/queries/1/run", apitest.KeyBPublish, `{}`)
		if r.Status != 402 || r.ErrorCode(t) != "insufficient_credits" || r.Header.Get("Retry-After") == "" {
			t.Fatalf("%d %s %v", r.Status, r.Body, r.Header)
		}
		// Tenant A's ceiling is 500: 5 samples × 2 platforms = 10 a run.
		for i := 0; ; i++ {
			r := run(apitest.KeyAPublish, "", `{"samples":5}`)
			if r.Status == 202 {
				continue
			}
			ra, err := strconv.Atoi(r.Header.Get("Retry-After"))
			if r.Status != 429 || r.ErrorCode(t) != "credit_ceiling_reached" || err != nil || ra < 1 || ra > 86400 {
				t.Fatalf("after %d runs: %d %s Retry-After %q", i, r.Status, r.Body, r.Header.Get("Retry-After"))
			}
			break
		}
	})
}

// Deep reads go by cursor; numbered pages stop at page × pageSize = 10,000.
func TestCitationCursorsAndDepth(t *testing.T) {
	api := newCitedAPI(t)
	byPage := allCitations(t, api, apitest.KeyARead, "platform=chatgpt")

	type page struct {
		Items      []json.RawMessage `json:"items"`
		Page       *int              `json:"page"`
		HasMore    bool              `json:"hasMore"`
		NextCursor *string           `json:"nextCursor"`
	}
	t.Run("a cursor walk reads what the numbered pages read", func(t *testing.T) {
		var p page
		api.Do(t, "GET", "/api/v1/citations?platform=chatgpt&pageSize=17", apitest.KeyARead, "").Decode(t, 200, &p)
		var ids []int32
		for i := 0; ; i++ {
			if i > 0 && p.Page != nil {
				t.Fatalf("a page read by cursor answers page %d, want null", *p.Page)
			}
			if p.HasMore != (p.NextCursor != nil) {
				t.Fatalf("hasMore %v, nextCursor %v", p.HasMore, p.NextCursor)
			}
			for _, raw := range p.Items {
				var c citations.Citation
				if err := json.Unmarshal(raw, &c); err != nil {
					t.Fatal(err)
				}
				ids = append(ids, c.ID)
			}
			if p.NextCursor == nil {
				break
			}
			api.Do(t, "GET", "/api/v1/citations?platform=chatgpt&pageSize=17&cursor="+*p.NextCursor, apitest.KeyARead, "").Decode(t, 200, &p)
		}
		var want []int32
		for _, c := range byPage {
			want = append(want, c.ID)
		}
		if !slices.Equal(ids, want) {
			t.Fatalf("cursor walk %v\nnumbered pages %v", ids, want)
		}
	})
	t.Run("the list serves the stored bytes that GET one answers", func(t *testing.T) {
		var p page
		api.Do(t, "GET", "/api/v1/citations?pageSize=3", apitest.KeyARead, "").Decode(t, 200, &p)
		for _, raw := range p.Items {
			var c citations.Citation
			if err := json.Unmarshal(raw, &c); err != nil {
				t.Fatal(err)
			}
			one := api.Do(t, "GET", fmt.Sprintf("/api/v1/citations/%d", c.ID), apitest.KeyARead, "")
			if got := strings.TrimSuffix(string(one.Body), "\n"); got != string(raw) {
				t.Errorf("list item\n%s\nGET\n%s", raw, got)
			}
		}
	})
	t.Run("another tenant's cursor reads only the caller's citations", func(t *testing.T) {
		var p page
		api.Do(t, "GET", "/api/v1/citations?pageSize=2", apitest.KeyARead, "").Decode(t, 200, &p)
		api.Do(t, "GET", "/api/v1/citations?pageSize=100&cursor="+*p.NextCursor, apitest.KeyBPublish, "").Decode(t, 200, &p)
		for _, raw := range p.Items {
			var c citations.Citation
			if err := json.Unmarshal(raw, &c); err != nil || c.TenantID != api.B.ID {
				t.Fatalf("tenant B read %s (%v)", raw, err)
			}
		}
	})
	cases := []struct {
		query  string
		status int
		fields []string
	}{
		{"page=500&pageSize=20", 200, nil},
		{"page=501&pageSize=20", 422, []string{"page"}},
		{"page=101&pageSize=100", 422, []string{"page"}},
		{"page=10000&pageSize=1", 200, nil},
		{"page=10001", 422, []string{"page"}},
		{"cursor=bm90LWEtY3Vyc29y", 422, []string{"cursor"}},
		{"cursor=%25%25", 422, []string{"cursor"}},
		{"cursor=" + strings.Repeat("A", 201), 422, []string{"cursor"}},
		{"cursor=MjAyNi0xMS0wMVQwOTowMDowMC4wMDAwMDBaIzAwMDAwMDAwMDI&page=2", 422, []string{"cursor"}},
		{"cursor=MjAyNi0xMS0wMVQwOTowMDowMC4wMDAwMDBaIzAwMDAwMDAwMDI", 200, nil},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			r := api.Do(t, "GET", "/api/v1/citations?"+c.query, apitest.KeyARead, "")
			if r.Status != c.status {
				t.Fatalf("got %d %s", r.Status, r.Body)
			}
			if c.status == 422 && !slices.Equal(r.Fields(t), c.fields) {
				t.Errorf("fields %v, want %v", r.Fields(t), c.fields)
			}
		})
	}
}
