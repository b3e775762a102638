package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
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
	"github.com/brandlens/brandlens/shared/config"
	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/seed"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/embedded"
)

const (
	keyAPublish = "local-key-acme-publish-0001"
	keyARead    = "local-key-acme-read-000001"
	keyAAgent   = "local-key-acme-agent-00001"
	keyBPublish = "local-key-beta-publish-001"
)

var testSecret = []byte("0123456789abcdef0123456789abcdef")

type testAPI struct {
	url string
	svc *config.Services
	tbl store.Table
	a   seed.TenantResult
	b   seed.TenantResult
}

func newTestAPI(t *testing.T, rpm int64) *testAPI { return newTestAPIAt(t, rpm, nil) }

// newTestAPIAt serves two seeded tenants; now (nil: the real clock) is the
// clock of every service.
func newTestAPIAt(t *testing.T, rpm int64, now func() time.Time) *testAPI {
	t.Helper()
	var opts []embedded.Option
	if now != nil {
		opts = append(opts, embedded.WithClock(now))
	}
	tbl := embedded.NewMemory(opts...)
	svc, err := config.NewServices(tbl, testSecret, now)
	if err != nil {
		t.Fatal(err)
	}
	f := seed.File{Tenants: []seed.Tenant{
		{
			Name: "Acme Notes", Credits: 1000, DailyCreditCeiling: 500, RPMLimit: rpm,
			Brand:       &seed.Brand{Name: "Acme Notes", Aliases: []string{"AcmeNotes"}, Domains: []string{"acmenotes.com"}},
			Competitors: []seed.Brand{{Name: "Notion", Aliases: []string{"Notion HQ"}, Domains: []string{"notion.so"}}, {Name: "Evernote"}},
			Queries: []seed.Query{
				{Text: "best note taking app", Platforms: []string{"chatgpt", "perplexity"}, Schedule: "daily"},
				{Text: "notes for teams", Platforms: []string{"gemini", "claude", "google_ai_overview"}},
			},
			APIKeys: []seed.APIKey{
				{Key: keyAPublish, Scopes: []string{"publish"}, AutonomyLevel: "L0"},
				{Key: keyARead, Scopes: []string{"read"}},
				{Key: keyAAgent, Scopes: []string{"publish"}, IsAgent: true, AutonomyLevel: "L1"},
			},
		},
		{
			Name: "Beta Docs", Credits: 50,
			Brand:   &seed.Brand{Name: "Beta Docs", Domains: []string{"betadocs.io"}},
			Queries: []seed.Query{{Text: "docs tool"}},
			APIKeys: []seed.APIKey{{Key: keyBPublish, Scopes: []string{"publish"}}},
		},
	}}
	res, err := seed.Apply(context.Background(), svc, f)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(httpapi.New(svc.HTTPDeps(nil, nil)))
	t.Cleanup(srv.Close)
	return &testAPI{url: srv.URL, svc: svc, tbl: tbl, a: res.Tenants[0], b: res.Tenants[1]}
}

type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v\n%s", err, r.body)
	}
	return m
}

// errorCode checks the envelope and returns its code.
func (r response) errorCode(t *testing.T) string {
	t.Helper()
	m := r.json(t)
	e, ok := m["error"].(map[string]any)
	if !ok {
		t.Fatalf("no error envelope: %s", r.body)
	}
	if _, ok := e["message"].(string); !ok {
		t.Fatalf("envelope without message: %s", r.body)
	}
	if _, ok := e["details"].(map[string]any); !ok {
		t.Fatalf("envelope details is not an object: %s", r.body)
	}
	return e["code"].(string)
}

func (r response) fields(t *testing.T) []string {
	t.Helper()
	var env struct {
		Error struct {
			Details struct {
				Fields []httpapi.FieldError `json:"fields"`
			} `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal(r.body, &env); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range env.Error.Details.Fields {
		out = append(out, f.Field)
	}
	return out
}

func (api *testAPI) do(t *testing.T, method, path, key string, body string, hdr ...string) response {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, api.url+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("X-API-Key", key)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if ct := res.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s %s: Content-Type %q", method, path, ct)
	}
	if res.Header.Get("X-Request-Id") == "" {
		t.Errorf("%s %s: no X-Request-Id", method, path)
	}
	return response{status: res.StatusCode, header: res.Header, body: b}
}

func TestMeReturnsEveryEntitlementMember(t *testing.T) {
	api := newTestAPI(t, 600)
	r := api.do(t, "GET", "/api/v1/me", keyAPublish, "")
	if r.status != 200 {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	m := r.json(t)
	for _, member := range []string{"scopes", "credits_balance", "spent_today", "daily_credit_ceiling", "rpm_limit", "autonomy_level", "pending_approvals", "capabilities"} {
		if _, ok := m[member]; !ok {
			t.Errorf("member %s missing: %s", member, r.body)
		}
	}
	if m["credits_balance"] != float64(1000) || m["daily_credit_ceiling"] != float64(500) || m["rpm_limit"] != float64(600) || m["spent_today"] != float64(0) {
		t.Errorf("wrong numbers: %s", r.body)
	}
	if m["autonomy_level"] != "L0" || m["is_agent"] != false {
		t.Errorf("wrong autonomy: %s", r.body)
	}

	caps := func(key string) []string {
		var e httpapi.Entitlement
		if err := json.Unmarshal(api.do(t, "GET", "/api/v1/me", key, "").body, &e); err != nil {
			t.Fatal(err)
		}
		if !sort.StringsAreSorted(e.Capabilities) {
			t.Errorf("capabilities not sorted: %v", e.Capabilities)
		}
		return e.Capabilities
	}
	full, read, agent := caps(keyAPublish), caps(keyARead), caps(keyAAgent)
	if !slices.Equal(full, caps(keyAPublish)) {
		t.Error("capabilities are not deterministic")
	}
	for _, c := range []string{"queries:run", "content:publish", "approvals:review", "citations:read"} {
		if !slices.Contains(full, c) {
			t.Errorf("publish key lacks %s: %v", c, full)
		}
	}
	if slices.Contains(read, "queries:run") || !slices.Contains(read, "citations:read") {
		t.Errorf("read key capabilities wrong: %v", read)
	}
	if slices.Contains(agent, "approvals:review") || !slices.Contains(agent, "content:publish") {
		t.Errorf("agent key capabilities wrong: %v", agent)
	}
}

func TestAuthErrors(t *testing.T) {
	api := newTestAPI(t, 600)
	revoked := "local-key-acme-revoked-0001"
	_, rec, err := api.svc.Keys.Create(context.Background(), keyFor(api.a.ID, revoked))
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := api.svc.Keys.Revoke(context.Background(), api.a.ID, rec.ID); err != nil || !ok {
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
		{"key in query string", "GET", "/api/v1/me?api_key=" + keyAPublish, "", "", 401, "invalid_api_key"},
		{"read key on write route", "POST", "/api/v1/queries/1/run", keyARead, "{}", 403, "insufficient_scope"},
		{"read_write needed for webhooks", "POST", "/api/v1/webhooks", keyARead, "", 403, "insufficient_scope"},
		{"agent key cannot review", "GET", "/api/tracker/approvals/pending", keyAAgent, "", 403, "insufficient_scope"},
		{"read key cannot review", "GET", "/api/tracker/approvals/pending", keyARead, "", 403, "insufficient_scope"},
		{"human publish key may review (not built yet)", "GET", "/api/tracker/approvals/pending", keyAPublish, "", 501, "not_implemented"},
		{"write route after its guard", "POST", "/api/v1/gaps/detect", keyAPublish, `{"brandProfileId":1}`, 501, "not_implemented"},
		{"signed receiver without signature", "POST", "/api/site-content/webhooks/news", "", `{"Title":"x"}`, 401, "invalid_signature"},
		{"unknown route", "GET", "/api/v1/nothing", keyAPublish, "", 404, "not_found"},
		{"unknown route without key", "GET", "/nothing", "", "", 404, "not_found"},
		{"wrong method", "DELETE", "/api/v1/me", keyAPublish, "", 405, "method_not_allowed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := api.do(t, c.method, c.path, c.key, c.body)
			if r.status != c.status || r.errorCode(t) != c.code {
				t.Fatalf("got %d %s, want %d %s", r.status, r.body, c.status, c.code)
			}
			if c.status == 405 && r.header.Get("Allow") != "GET" {
				t.Errorf("Allow = %q", r.header.Get("Allow"))
			}
		})
	}
	t.Run("unknown and revoked keys answer identically", func(t *testing.T) {
		a := api.do(t, "GET", "/api/v1/me", "local-key-does-not-exist-01", "").body
		b := api.do(t, "GET", "/api/v1/me", revoked, "").body
		if string(a) != string(b) {
			t.Errorf("bodies differ:\n%s\n%s", a, b)
		}
	})
}

func TestValidation(t *testing.T) {
	api := newTestAPI(t, 600)
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
			r := api.do(t, c.method, c.path, keyAPublish, c.body, hdr...)
			if r.status != 422 || r.errorCode(t) != "validation_error" {
				t.Fatalf("got %d %s", r.status, r.body)
			}
			if got := r.fields(t); !slices.Equal(got, c.fields) {
				t.Errorf("fields %v, want %v", got, c.fields)
			}
		})
	}
	t.Run("accepted JSON media types", func(t *testing.T) {
		for _, ct := range []string{"application/json", "application/json; charset=utf-8", "text/json", "application/merge-patch+json", "application/vnd.brandlens+json"} {
			r := api.do(t, "POST", "/api/v1/queries/1/run", keyAPublish, `{"samples":2}`, "Content-Type", ct)
			if r.status != 202 {
				t.Errorf("%s: got %d %s", ct, r.status, r.body)
			}
		}
	})
	t.Run("body over the cap", func(t *testing.T) {
		big := `{"platforms":["` + strings.Repeat("a", httpapi.DefaultMaxBody) + `"]}`
		r := api.do(t, "POST", "/api/v1/queries/1/run", keyAPublish, big)
		if r.status != 413 || r.errorCode(t) != "payload_too_large" {
			t.Fatalf("got %d %s", r.status, r.body)
		}
	})
}

func keyFor(tenantID int32, plain string) auth.NewKey {
	return auth.NewKey{TenantID: tenantID, Plaintext: plain, Scopes: []auth.Scope{auth.ScopeRead}}
}

func TestReadEndpoints(t *testing.T) {
	api := newTestAPI(t, 600)
	ctx := context.Background()
	if _, err := seed.SyntheticCitations(ctx, api.svc, api.a.ID, 250, 7); err != nil {
		t.Fatal(err)
	}
	if _, err := seed.SyntheticCitations(ctx, api.svc, api.b.ID, 3, 8); err != nil {
		t.Fatal(err)
	}

	t.Run("queries", func(t *testing.T) {
		var l httpapi.QueryList
		mustJSON(t, api.do(t, "GET", "/api/v1/queries", keyARead, ""), 200, &l)
		if len(l.Items) != 2 || l.Items[0].ID != 1 || l.Items[1].ID != 2 || l.Items[0].Text != "best note taking app" || l.Items[0].BrandProfileID != 1 {
			t.Fatalf("queries: %+v", l.Items)
		}
		r := api.do(t, "GET", "/api/v1/queries/2", keyARead, "")
		if r.status != 200 || r.json(t)["text"] != "notes for teams" {
			t.Fatalf("query 2: %d %s", r.status, r.body)
		}
		if r := api.do(t, "GET", "/api/v1/queries/2", keyBPublish, ""); r.status != 404 || r.errorCode(t) != "not_found" {
			t.Fatalf("tenant B read A's query 2: %d %s", r.status, r.body)
		}
	})
	t.Run("competitors", func(t *testing.T) {
		var l httpapi.CompetitorList
		mustJSON(t, api.do(t, "GET", "/api/v1/competitors", keyARead, ""), 200, &l)
		if len(l.Items) != 2 || *l.Items[0].Name != "Notion" || l.Items[1].ID != 2 {
			t.Fatalf("competitors: %+v", l.Items)
		}
		m := api.do(t, "GET", "/api/v1/competitors/1", keyARead, "").json(t)
		for _, f := range []string{"id", "tenantId", "name", "websiteUrl", "description", "keywords", "isActive", "isDismissed", "dismissedAt", "createdAt", "updatedAt", "visibilityRank", "imageUrl", "detailedDescription", "detailedDescriptionUrl", "sameAsUrls", "totalMentions", "lastDetected", "dataSource"} {
			if _, ok := m[f]; !ok {
				t.Errorf("CompetitorDto member %s missing", f)
			}
		}
		if r := api.do(t, "GET", "/api/v1/competitors/1", keyBPublish, ""); r.status != 404 {
			t.Fatalf("tenant B read A's competitor: %d", r.status)
		}
	})
	t.Run("citation of another tenant is 404", func(t *testing.T) {
		if r := api.do(t, "GET", "/api/v1/citations/200", keyAPublish, ""); r.status != 200 {
			t.Fatalf("own citation: %d %s", r.status, r.body)
		}
		r := api.do(t, "GET", "/api/v1/citations/200", keyBPublish, "")
		if r.status != 404 || r.errorCode(t) != "not_found" {
			t.Fatalf("got %d %s", r.status, r.body)
		}
		var c citations.Citation
		mustJSON(t, api.do(t, "GET", "/api/v1/citations/1", keyBPublish, ""), 200, &c)
		if c.TenantID != api.b.ID {
			t.Fatalf("B's citation 1 belongs to tenant %d", c.TenantID)
		}
	})

	all := allCitations(t, api, keyARead, "")
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
		mustJSON(t, api.do(t, "GET", "/api/v1/citations", keyARead, ""), 200, &p)
		if p.Page != 1 || p.PageSize != 20 || len(p.Items) != 20 || !p.HasMore {
			t.Fatalf("defaults: page %d size %d items %d more %v", p.Page, p.PageSize, len(p.Items), p.HasMore)
		}
		mustJSON(t, api.do(t, "GET", "/api/v1/citations?page=13&pageSize=20", keyARead, ""), 200, &p)
		if len(p.Items) != 10 || p.HasMore {
			t.Fatalf("last page: %d items, more %v", len(p.Items), p.HasMore)
		}
		mustJSON(t, api.do(t, "GET", "/api/v1/citations?page=14", keyARead, ""), 200, &p)
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
			for _, c := range allCitations(t, api, keyARead, f.query) {
				got = append(got, c.ID)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("got %d ids, want %d", len(got), len(want))
			}
		})
	}
}

func allCitations(t *testing.T, api *testAPI, key, query string) []citations.Citation {
	t.Helper()
	var out []citations.Citation
	for page := 1; ; page++ {
		var p httpapi.CitationPage
		path := fmt.Sprintf("/api/v1/citations?pageSize=17&page=%d", page)
		if query != "" {
			path += "&" + query
		}
		mustJSON(t, api.do(t, "GET", path, key, ""), 200, &p)
		out = append(out, p.Items...)
		if !p.HasMore {
			return out
		}
		if page > 1000 {
			t.Fatal("no end of pages")
		}
	}
}

func mustJSON(t *testing.T, r response, status int, v any) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode: %v: %s", err, r.body)
	}
}

func TestJobs(t *testing.T) {
	api := newTestAPI(t, 6000)
	ctx := context.Background()
	base := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	statuses := []string{"queued", "running", "succeeded", "partial", "failed"}
	for i := range 60 {
		j := jobs.Job{ID: fmt.Sprintf("01jobtest%04d", i), TenantID: api.a.ID, Type: jobs.TypeQueryRun,
			Status: statuses[i%5], CreatedAt: base.Add(time.Duration(i) * time.Minute), PerPlatformStatus: map[string]jobs.PlatformStatus{}}
		op, err := jobs.CreateOp(j)
		if err != nil {
			t.Fatal(err)
		}
		if err := api.tbl.TransactWrite(ctx, op); err != nil {
			t.Fatal(err)
		}
	}
	var l httpapi.JobList
	mustJSON(t, api.do(t, "GET", "/api/v1/jobs", keyARead, ""), 200, &l)
	if len(l.Items) != 50 || l.Items[0].ID != "01jobtest0059" {
		t.Fatalf("default limit: %d items, first %s", len(l.Items), l.Items[0].ID)
	}
	mustJSON(t, api.do(t, "GET", "/api/v1/jobs?status=partial&limit=5", keyARead, ""), 200, &l)
	if len(l.Items) != 5 {
		t.Fatalf("status filter: %d items", len(l.Items))
	}
	for _, j := range l.Items {
		if j.Status != "partial" {
			t.Fatalf("status filter let %s through", j.Status)
		}
	}
	mustJSON(t, api.do(t, "GET", "/api/v1/jobs?status=failed", keyARead, ""), 200, &l)
	if len(l.Items) != 12 {
		t.Fatalf("failed jobs: %d", len(l.Items))
	}
	var j jobs.Job
	mustJSON(t, api.do(t, "GET", "/api/v1/jobs/01jobtest0003", keyARead, ""), 200, &j)
	if j.Status != "partial" {
		t.Fatalf("job: %+v", j)
	}
	if r := api.do(t, "GET", "/api/v1/jobs/01jobtest0003", keyBPublish, ""); r.status != 404 {
		t.Fatalf("tenant B read A's job: %d", r.status)
	}
	mustJSON(t, api.do(t, "GET", "/api/v1/jobs", keyBPublish, ""), 200, &l)
	if len(l.Items) != 0 || l.Items == nil {
		t.Fatalf("tenant B sees jobs: %+v", l.Items)
	}
}

func TestCredits(t *testing.T) {
	api := newTestAPI(t, 600)
	var c httpapi.CreditInfo
	mustJSON(t, api.do(t, "GET", "/api/v1/me/credits", keyARead, ""), 200, &c)
	if c.CreditsBalance != 1000 || c.Granted != 1000 || c.Held != 0 || c.Captured != 0 || c.DailyCreditCeiling != 500 || c.RemainingToday != 500 {
		t.Fatalf("credits: %+v", c)
	}
	if d := time.Until(c.ResetsAt); d <= 0 || d > 24*time.Hour || c.ResetsAt.UTC().Hour() != 0 {
		t.Fatalf("resets_at %v", c.ResetsAt)
	}
	mustJSON(t, api.do(t, "GET", "/api/v1/me/credits", keyBPublish, ""), 200, &c)
	if c.CreditsBalance != 50 || c.RemainingToday != 50 {
		t.Fatalf("tenant B credits: %+v", c)
	}
}

func TestRateLimitPassesExactlyTheLimit(t *testing.T) {
	const limit = 7
	// A fixed clock keeps every request in one window.
	at := time.Date(2026, 11, 22, 12, 0, 45, 0, time.UTC)
	api := newTestAPIAt(t, limit, func() time.Time { return at })
	var wg sync.WaitGroup
	statuses := make([]response, limit+5)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = api.do(t, "GET", "/api/v1/me", keyARead, "")
		}()
	}
	wg.Wait()
	ok, limited := 0, 0
	for _, r := range statuses {
		switch r.status {
		case 200:
			ok++
		case 429:
			limited++
			if r.errorCode(t) != "rate_limit_exceeded" {
				t.Errorf("429 code: %s", r.body)
			}
			if ra := r.header.Get("Retry-After"); ra != "15" {
				t.Errorf("Retry-After %q, want 15 (seconds to the window end)", ra)
			}
		default:
			t.Errorf("status %d", r.status)
		}
	}
	if ok != limit || limited != 5 {
		t.Fatalf("%d passed, %d limited; want %d and 5", ok, limited, limit)
	}
}

func TestPanicBecomesEnvelope(t *testing.T) {
	routes := []httpapi.Route{{Method: "GET", Path: "/boom", Guard: httpapi.GuardPublic, Status: 200,
		Handle: func(*httpapi.Server, *httpapi.Request) (any, error) { panic("boom") }}}
	srv := httptest.NewServer(httpapi.NewFor(httpapi.Deps{}, routes))
	defer srv.Close()
	api := &testAPI{url: srv.URL}
	r := api.do(t, "GET", "/boom", "", "")
	if r.status != 500 || r.errorCode(t) != "internal_error" {
		t.Fatalf("got %d %s", r.status, r.body)
	}
}

func TestRunWritePath(t *testing.T) {
	api := newTestAPI(t, 6000)
	run := func(key, idem, body string) response {
		t.Helper()
		if idem == "" {
			return api.do(t, "POST", "/api/v1/queries/1/run", key, body)
		}
		return api.do(t, "POST", "/api/v1/queries/1/run", key, body, "Idempotency-Key", idem)
	}
	t.Run("a 422 stores nothing and the corrected retry is processed", func(t *testing.T) {
		r := run(keyAPublish, "idem-a", `{"samples":9}`)
		if r.status != 422 || !slices.Equal(r.fields(t), []string{"samples"}) {
			t.Fatalf("got %d %s", r.status, r.body)
		}
		r = run(keyAPublish, "idem-a", `{"samples":2}`)
		if r.status != 202 || r.json(t)["status"] != "queued" {
			t.Fatalf("corrected retry: %d %s", r.status, r.body)
		}
		first := r.json(t)["jobId"]
		again := run(keyAPublish, "idem-a", `{"samples":2}`)
		if again.status != 202 || again.json(t)["jobId"] != first {
			t.Fatalf("replay: %d %s", again.status, again.body)
		}
		conflict := run(keyAPublish, "idem-a", `{"samples":3}`)
		if conflict.status != 409 || conflict.errorCode(t) != "idempotency_conflict" {
			t.Fatalf("conflict: %d %s", conflict.status, conflict.body)
		}
		var c httpapi.CreditInfo
		mustJSON(t, api.do(t, "GET", "/api/v1/me/credits", keyARead, ""), 200, &c)
		if c.Held != 4 || c.CreditsBalance != 996 || c.SpentToday != 4 {
			t.Fatalf("one 2-platform × 2-sample run must hold 4 credits once: %+v", c)
		}
	})
	t.Run("bad idempotency keys", func(t *testing.T) {
		for _, k := range []string{strings.Repeat("k", 256)} {
			r := run(keyAPublish, k, `{}`)
			if r.status != 422 || !slices.Equal(r.fields(t), []string{"Idempotency-Key"}) {
				t.Fatalf("%d %s", r.status, r.body)
			}
		}
		req, _ := http.NewRequest("POST", api.url+"/api/v1/queries/1/run", nil)
		req.Header.Set("X-API-Key", keyAPublish)
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
		if r := run(keyAPublish, "", `{"platforms":["gemini"]}`); r.status != 422 || !slices.Equal(r.fields(t), []string{"platforms"}) {
			t.Fatalf("platform outside the query: %d %s", r.status, r.body)
		}
		if r := run(keyAPublish, "", `{"platforms":["myspace"]}`); r.status != 422 {
			t.Fatalf("unknown platform: %d %s", r.status, r.body)
		}
		r := run(keyAPublish, "", `{"platforms":["perplexity"]}`)
		var j jobs.Job
		mustJSON(t, api.do(t, "GET", "/api/v1/jobs/"+r.json(t)["jobId"].(string), keyARead, ""), 200, &j)
		if !slices.Equal(j.Platforms, []string{"perplexity"}) || j.CreditsReserved != 1 || j.Status != "queued" {
			t.Fatalf("job %+v", j)
		}
	})
	t.Run("another tenant's query is 404", func(t *testing.T) {
		if r := api.do(t, "POST", "/api/v1/queries/2/run", keyBPublish, `{}`); r.status != 404 || r.errorCode(t) != "not_found" {
			t.Fatalf("%d %s", r.status, r.body)
		}
	})
	t.Run("credits and ceiling carry Retry-After", func(t *testing.T) {
		// Tenant B has 50 credits and the default ceiling of 500; its query
		// runs on all five platforms: ten runs use them up.
		for range 10 {
			if r := api.do(t, "POST", "/api/v1/queries/1/run", keyBPublish, `{}`); r.status != 202 {
				t.Fatalf("%d %s", r.status, r.body)
			}
		}
		r := api.do(t, "POST", "/api/v1/queries/1/run", keyBPublish, `{}`)
		if r.status != 402 || r.errorCode(t) != "insufficient_credits" || r.header.Get("Retry-After") == "" {
			t.Fatalf("%d %s %v", r.status, r.body, r.header)
		}
		// Tenant A's ceiling is 500: 5 samples × 2 platforms = 10 a run.
		for i := 0; ; i++ {
			r := run(keyAPublish, "", `{"samples":5}`)
			if r.status == 202 {
				continue
			}
			ra, err := strconv.Atoi(r.header.Get("Retry-After"))
			if r.status != 429 || r.errorCode(t) != "credit_ceiling_reached" || err != nil || ra < 1 || ra > 86400 {
				t.Fatalf("after %d runs: %d %s Retry-After %q", i, r.status, r.body, r.header.Get("Retry-After"))
			}
			break
		}
	})
}
