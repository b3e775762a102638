package httpapi_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/httpapi/apitest"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
)

type queryView struct {
	ID             int32
	Text           string
	Platforms      []string
	Schedule       *string
	IsActive       bool
	BrandProfileID int32
	DeletedAt      *time.Time
}

// Brand profiles: listed and read with any key; aliases and domains
// changed with the publish scope, checked member by member.
func TestBrandProfilesAPI(t *testing.T) {
	api := apitest.New(t, apitest.Options{})
	var list httpapi.BrandProfileList
	api.Do(t, "GET", "/api/v1/brand-profiles", apitest.KeyARead, "").Decode(t, 200, &list)
	if len(list.Items) != 1 || list.Items[0].Name != "Acme Notes" || !slices.Equal(list.Items[0].Aliases, []string{"AcmeNotes"}) ||
		!slices.Equal(list.Items[0].Domains, []string{"acmenotes.com"}) || !list.Items[0].UpdatedAt.Equal(list.Items[0].CreatedAt) {
		t.Fatalf("profiles %+v", list.Items)
	}
	id := list.Items[0].ID
	path := fmt.Sprintf("/api/v1/brand-profiles/%d", id)
	if r := api.Do(t, "GET", fmt.Sprintf("/api/v1/brand-profiles/%d", id+1), apitest.KeyAPublish, ""); r.Status != 404 || r.ErrorCode(t) != "not_found" {
		t.Errorf("unknown profile: %d", r.Status)
	}
	if r := api.Do(t, "PUT", path, apitest.KeyARead, `{"aliases":[]}`); r.Status != 403 {
		t.Errorf("read key: %d", r.Status)
	}
	var p httpapi.BrandProfile
	api.Do(t, "PUT", path, apitest.KeyAPublish, `{"aliases":["AcmeNotes","Acme Jotter","acme  jotter","Acme Notes"],"domains":["AcmeNotes.com","blog.acmenotes.com."]}`).Decode(t, 200, &p)
	if !slices.Equal(p.Aliases, []string{"AcmeNotes", "Acme Jotter"}) || !slices.Equal(p.Domains, []string{"acmenotes.com", "blog.acmenotes.com"}) || !p.UpdatedAt.After(p.CreatedAt) {
		t.Fatalf("updated profile %+v", p)
	}
	api.Do(t, "PUT", path, apitest.KeyAPublish, `{"domains":["acmenotes.com"]}`).Decode(t, 200, &p)
	if !slices.Equal(p.Aliases, []string{"AcmeNotes", "Acme Jotter"}) {
		t.Errorf("a member not sent changed: %+v", p)
	}
	for _, c := range []struct{ body, field string }{
		{`{"domains":["https://acmenotes.com/"]}`, "domains"},
		{`{"domains":["localhost"]}`, "domains"},
		{`{"aliases":[""]}`, "aliases"},
		{`{"aliases":"Acme"}`, "aliases"},
		{`{"name":"Other"}`, "name"},
	} {
		if r := api.Do(t, "PUT", path, apitest.KeyAPublish, c.body); r.Status != 422 || !slices.Equal(r.Fields(t), []string{c.field}) {
			t.Errorf("PUT %s: %d %s", c.body, r.Status, r.Body)
		}
	}
}

// Queries: added, changed and deleted over the API. Texts are unique per
// tenant (ignoring case and spacing), held by a claim that a rename moves
// and a delete frees in the same transaction; a deleted query stays
// readable with its history but is no longer listed, run or changed.
func TestQueriesAPI(t *testing.T) {
	api := apitest.New(t, apitest.Options{})
	var q queryView
	api.Do(t, "POST", "/api/v1/queries", apitest.KeyAPublish, `{"text":"  best   wiki for startups ","platforms":["chatgpt","chatgpt","claude"],"schedule":"weekly"}`).Decode(t, 201, &q)
	if q.Text != "best wiki for startups" || !slices.Equal(q.Platforms, []string{"chatgpt", "claude"}) || q.Schedule == nil || *q.Schedule != "weekly" || !q.IsActive || q.BrandProfileID != 1 || q.DeletedAt != nil {
		t.Fatalf("created %+v", q)
	}
	path := fmt.Sprintf("/api/v1/queries/%d", q.ID)
	if r := api.Do(t, "POST", "/api/v1/queries", apitest.KeyAPublish, `{"text":"Best Wiki for startups"}`); r.Status != 409 || r.ErrorCode(t) != "already_exists" || r.JSON(t)["error"].(map[string]any)["details"].(map[string]any)["id"] != float64(q.ID) {
		t.Errorf("same text again: %d %s", r.Status, r.Body)
	}
	for _, c := range []struct {
		body   string
		fields []string
	}{
		{`{"text":""}`, []string{"text"}},
		{`{"text":"x","platforms":["altavista"],"schedule":"monthly"}`, []string{"platforms", "schedule"}},
		{`{"text":"x","brandProfileId":9}`, []string{"brandProfileId"}},
		{`{"text":"x","color":"red"}`, []string{"color"}},
	} {
		if r := api.Do(t, "POST", "/api/v1/queries", apitest.KeyAPublish, c.body); r.Status != 422 || !slices.Equal(r.Fields(t), c.fields) {
			t.Errorf("POST %s: %d %s", c.body, r.Status, r.Body)
		}
	}
	if r := api.Do(t, "POST", "/api/v1/queries", apitest.KeyARead, `{"text":"x"}`); r.Status != 403 {
		t.Errorf("read key: %d", r.Status)
	}

	// Rename: onto another query's text is refused; to a free text moves the claim.
	if r := api.Do(t, "PUT", path, apitest.KeyAPublish, `{"text":"NOTES for teams"}`); r.Status != 409 || r.ErrorCode(t) != "already_exists" {
		t.Errorf("rename onto query 2's text: %d %s", r.Status, r.Body)
	}
	api.Do(t, "PUT", path, apitest.KeyAPublish, `{"text":"best wiki for small startups","schedule":null,"isActive":false}`).Decode(t, 200, &q)
	if q.Text != "best wiki for small startups" || q.Schedule != nil || q.IsActive || !slices.Equal(q.Platforms, []string{"chatgpt", "claude"}) {
		t.Fatalf("renamed %+v", q)
	}
	var taken queryView // the old text is free again
	api.Do(t, "POST", "/api/v1/queries", apitest.KeyAPublish, `{"text":"best wiki for startups"}`).Decode(t, 201, &taken)
	if taken.ID == q.ID || len(taken.Platforms) != 5 {
		t.Fatalf("query with the freed text %+v", taken)
	}
	if r := api.Do(t, "POST", path+"/run", apitest.KeyAPublish, `{}`); r.Status != 422 {
		t.Errorf("run of a paused query: %d %s", r.Status, r.Body)
	}

	// Delete: the record stays readable, the text is free, the query is gone from lists and runs.
	var del queryView
	api.Do(t, "DELETE", path, apitest.KeyAPublish, "").Decode(t, 200, &del)
	if del.DeletedAt == nil || del.IsActive {
		t.Fatalf("deleted %+v", del)
	}
	var got queryView
	api.Do(t, "GET", path, apitest.KeyARead, "").Decode(t, 200, &got)
	if got.DeletedAt == nil || got.Text != "best wiki for small startups" {
		t.Errorf("deleted query read back %+v", got)
	}
	var list struct{ Items []queryView }
	api.Do(t, "GET", "/api/v1/queries", apitest.KeyARead, "").Decode(t, 200, &list)
	for _, it := range list.Items {
		if it.ID == q.ID {
			t.Errorf("a deleted query is listed")
		}
	}
	for _, c := range []struct{ method, path, body string }{
		{"DELETE", path, ""}, {"PUT", path, `{"isActive":true}`}, {"POST", path + "/run", `{}`},
		{"GET", "/api/v1/queries/2", ""}, // tenant B (one query) asks for tenant A's second
	} {
		key := apitest.KeyAPublish
		if c.path == "/api/v1/queries/2" {
			key = apitest.KeyBPublish
		}
		if r := api.Do(t, c.method, c.path, key, c.body); r.Status != 404 {
			t.Errorf("%s %s: %d %s", c.method, c.path, r.Status, r.Body)
		}
	}
	var again queryView
	api.Do(t, "POST", "/api/v1/queries", apitest.KeyAPublish, `{"text":"Best wiki for small startups"}`).Decode(t, 201, &again)
	if again.ID == q.ID {
		t.Errorf("the deleted query's text was not freed: %+v", again)
	}
}

// Competitors: tracked by hand (unique names), renamed with the same
// claim rule, dismissed and restored.
func TestCompetitorsAPI(t *testing.T) {
	api := apitest.New(t, apitest.Options{})
	type competitor struct {
		ID                    int32
		Name                  string
		WebsiteURL            *string
		Description           *string
		IsActive, IsDismissed bool
		DismissedAt           *time.Time
		DataSource            string
		Aliases, Domains      []string
		TotalMentions         int32
		VisibilityRank        *int32
	}
	var c competitor
	api.Do(t, "POST", "/api/v1/competitors", apitest.KeyAPublish, `{"name":" Craft  Docs ","aliases":["Craft"],"domains":["craft.do"],"description":"Docs app"}`).Decode(t, 201, &c)
	if c.Name != "Craft Docs" || c.WebsiteURL == nil || *c.WebsiteURL != "https://craft.do" || c.DataSource != "manual" || c.Description == nil || c.IsDismissed {
		t.Fatalf("created %+v", c)
	}
	path := fmt.Sprintf("/api/v1/competitors/%d", c.ID)
	if r := api.Do(t, "POST", "/api/v1/competitors", apitest.KeyAPublish, `{"name":"notion"}`); r.Status != 409 || r.ErrorCode(t) != "already_exists" {
		t.Errorf("a tracked name again: %d %s", r.Status, r.Body)
	}
	if r := api.Do(t, "POST", "/api/v1/competitors", apitest.KeyAPublish, `{"name":"","domains":["not a domain"]}`); r.Status != 422 || !slices.Equal(r.Fields(t), []string{"domains", "name"}) {
		t.Errorf("invalid competitor: %d %s", r.Status, r.Body)
	}
	if r := api.Do(t, "PUT", path, apitest.KeyAPublish, `{"name":"EVERNOTE"}`); r.Status != 409 || r.ErrorCode(t) != "already_exists" {
		t.Errorf("rename onto Evernote: %d %s", r.Status, r.Body)
	}
	api.Do(t, "PUT", path, apitest.KeyAPublish, `{"name":"Craft"}`).Decode(t, 200, &c)
	if c.Name != "Craft" {
		t.Fatalf("renamed %+v", c)
	}
	var freed competitor
	api.Do(t, "POST", "/api/v1/competitors", apitest.KeyAPublish, `{"name":"craft docs"}`).Decode(t, 201, &freed)

	api.Do(t, "POST", path+"/dismiss", apitest.KeyAPublish, "").Decode(t, 200, &c)
	if !c.IsDismissed || c.DismissedAt == nil || c.IsActive {
		t.Fatalf("dismissed %+v", c)
	}
	at := *c.DismissedAt
	api.Do(t, "POST", path+"/dismiss", apitest.KeyAPublish, "").Decode(t, 200, &c)
	if !c.DismissedAt.Equal(at) {
		t.Errorf("dismissing again moved dismissedAt")
	}
	api.Do(t, "POST", path+"/restore", apitest.KeyAPublish, "").Decode(t, 200, &c)
	if c.IsDismissed || c.DismissedAt != nil || !c.IsActive {
		t.Fatalf("restored %+v", c)
	}
	if r := api.Do(t, "POST", path+"/dismiss", apitest.KeyBPublish, ""); r.Status != 404 {
		t.Errorf("another tenant's competitor: %d", r.Status)
	}
	if r := api.Do(t, "POST", path+"/dismiss", apitest.KeyARead, ""); r.Status != 403 {
		t.Errorf("read key: %d", r.Status)
	}
}

// Re-scoring (issue 11): answers that name the brand only by an alias the
// profile lacked become mentions once the alias is added and the profile
// re-scored — in the citation list, by hasMention and by detectionVerdict
// — and re-scoring again changes nothing more.
func TestRescoreThroughTheAPI(t *testing.T) {
	dir := t.TempDir()
	replay := dir + "/jotter.json"
	writeFile(t, replay, `{"answers":[
	 {"platform":"chatgpt","query":"quickest app for class notes","text":"Acme Jotter is the quickest way to take class notes; Notion is heavier but better for shared study guides."},
	 {"platform":"perplexity","query":"quickest app for class notes","text":"Students often pick Acme Jotter for speed [1]; Evernote suits clipping.","citations":[{"url":"https://example.org/notes","title":"Note apps"}]}]}`)
	e := newContentEnv(t, replay)
	var q queryView
	e.do(t, "POST", "/api/v1/queries", `{"text":"quickest app for class notes","platforms":["chatgpt","perplexity"]}`).Decode(t, 201, &q)
	e.run(t, q.ID)
	mentions := func(filter string) int {
		t.Helper()
		var page httpapi.CitationPage
		e.do(t, "GET", "/api/v1/citations?pageSize=100&searchQuery=class+notes&"+filter, "").Decode(t, 200, &page)
		return len(page.Items)
	}
	if n := mentions("hasMention=true"); n != 0 {
		t.Fatalf("%d mention citations before the alias", n)
	}
	if n := mentions("detectionVerdict=not_mentioned"); n != 2 { // the two citations of the perplexity answers
		t.Fatalf("%d not_mentioned citations before the alias", n)
	}
	e.do(t, "PUT", "/api/v1/brand-profiles/1", `{"aliases":["AcmeNotes","Acme Jotter"]}`).Decode(t, 200, &httpapi.BrandProfile{})

	if r := e.do(t, "POST", "/api/v1/brand-profiles/9/rescore", ""); r.Status != 404 {
		t.Errorf("unknown profile: %d %s", r.Status, r.Body)
	}
	before := e.credits(t)
	j := e.job(t, e.accepted(t, "/api/v1/brand-profiles/1/rescore", "", "Idempotency-Key", "rescore-1"))
	if j.Status != jobs.StatusSucceeded || j.CreditsCharged != 5 || j.Type != jobs.TypeRescore || *j.BrandProfileID != 1 {
		t.Fatalf("re-scoring job %+v", j)
	}
	if c := e.credits(t); c.Captured-before.Captured != 5 {
		t.Errorf("re-scoring captured %d credits", c.Captured-before.Captured)
	}
	res := j.Result.(map[string]any)
	if res["newMentions"] != float64(4) || res["detectorVersion"] == "" {
		t.Errorf("result %v", res)
	}
	// 4 new mention citations, and the 2 cited-page citations now of answers naming the brand.
	if n := mentions("hasMention=true"); n != 6 {
		t.Errorf("%d citations with a mention after re-scoring, want 6", n)
	}
	if n := mentions("detectionVerdict=mentioned"); n != 6 {
		t.Errorf("%d mentioned citations after re-scoring, want 6", n)
	}
	if n := mentions("detectionVerdict=not_mentioned"); n != 0 {
		t.Errorf("%d not_mentioned citations left", n)
	}
	if r := e.do(t, "GET", "/api/v1/citations?detectionVerdict=maybe", ""); r.Status != 422 || !slices.Equal(r.Fields(t), []string{"detectionVerdict"}) {
		t.Errorf("unknown verdict: %d %s", r.Status, r.Body)
	}
	j2 := e.job(t, e.accepted(t, "/api/v1/brand-profiles/1/rescore", "", "Idempotency-Key", "rescore-2"))
	if res2 := j2.Result.(map[string]any); res2["changed"] != float64(0) || res2["citationsAdded"] != float64(0) || mentions("hasMention=true") != 6 {
		t.Errorf("second re-scoring %v", res2)
	}
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestUpdatesRefuseNullAndEmptyPlatforms: an empty platform list is 422 on
// create and update alike (omitted means all), a null for an update member
// that has no null value is 422 naming it, and an update that changes
// nothing writes nothing: updatedAt stays.
func TestUpdatesRefuseNullAndEmptyPlatforms(t *testing.T) {
	api := apitest.New(t, apitest.Options{RPM: 6000})
	var q queryView
	api.Do(t, "POST", "/api/v1/queries", apitest.KeyAPublish, `{"text":"null checks","schedule":"daily"}`).Decode(t, 201, &q)
	var sub httpapi.WebhookSubscriptionCreated
	api.Do(t, "POST", "/api/v1/webhooks", apitest.KeyAPublish, `{"url":"https://hooks.acmenotes.com/in"}`).Decode(t, 201, &sub)
	query, webhook := fmt.Sprintf("/api/v1/queries/%d", q.ID), "/api/v1/webhooks/"+sub.ID
	for _, c := range []struct{ method, path, body, field string }{
		{"POST", "/api/v1/queries", `{"text":"no platforms","platforms":[]}`, "platforms"},
		{"PUT", query, `{"platforms":[]}`, "platforms"},
		{"PUT", query, `{"text":null}`, "text"},
		{"PUT", query, `{"platforms":null}`, "platforms"},
		{"PUT", query, `{"isActive":null}`, "isActive"},
		{"PUT", webhook, `{"secret":null}`, "secret"},
		{"PUT", webhook, `{"events":null}`, "events"},
		{"PUT", webhook, `{"url":null}`, "url"},
		{"PUT", webhook, `{"active":null}`, "active"},
		{"PUT", webhook, `{"description":null}`, "description"},
		{"PUT", "/api/v1/competitors/1", `{"name":null}`, "name"},
		{"PUT", "/api/v1/brand-profiles/1", `{"domains":null}`, "domains"},
	} {
		t.Run(c.method+" "+c.path+" "+c.body, func(t *testing.T) {
			if r := api.Do(t, c.method, c.path, apitest.KeyAPublish, c.body); r.Status != 422 || !slices.Equal(r.Fields(t), []string{c.field}) {
				t.Fatalf("%d %s, want 422 naming %s", r.Status, r.Body, c.field)
			}
		})
	}
	for _, c := range []struct{ path, body string }{
		{query, `{}`}, {query, `{"schedule":"daily","text":" null  checks"}`}, {webhook, `{}`}, {webhook, `{"active":true}`},
	} {
		t.Run("no change "+c.path+" "+c.body, func(t *testing.T) {
			before := api.Do(t, "GET", c.path, apitest.KeyARead, "").JSON(t)["updatedAt"]
			r := api.Do(t, "PUT", c.path, apitest.KeyAPublish, c.body)
			if r.Status != 200 || r.JSON(t)["updatedAt"] != before {
				t.Fatalf("%d %s, want 200 with updatedAt %v", r.Status, r.Body, before)
			}
		})
	}
}

// A competitor dismissed before isActive followed the dismissal is stored
// with isActive true; its wire value follows the dismissal all the same,
// read alone and in the list, with no write in between.
func TestCompetitorDismissedBeforeIsActiveReadsInactive(t *testing.T) {
	api := apitest.New(t, apitest.Options{})
	ctx := context.Background()
	k := store.Key{PK: tenants.PK(api.A.ID), SK: "COMPETITOR#0000000999"}
	for _, c := range []struct {
		name, doc  string
		wantActive bool
	}{
		{"dismissed, stored active", `{"id":999,"tenantId":%d,"name":"Old Rival","isActive":true,"isDismissed":true,"dismissedAt":"2026-01-02T03:04:05Z","createdAt":"2025-12-01T00:00:00Z"}`, false},
		{"live, stored without isActive", `{"id":999,"tenantId":%d,"name":"Old Rival","isDismissed":false,"createdAt":"2025-12-01T00:00:00Z"}`, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := api.Table.Put(ctx, store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, store.AttrDoc: fmt.Sprintf(c.doc, api.A.ID)}, store.Cond{}); err != nil {
				t.Fatal(err)
			}
			type competitor struct {
				ID       int32
				IsActive bool
			}
			var one competitor
			api.Do(t, "GET", "/api/v1/competitors/999", apitest.KeyARead, "").Decode(t, 200, &one)
			if one.IsActive != c.wantActive {
				t.Errorf("GET one: isActive %v, want %v", one.IsActive, c.wantActive)
			}
			var list struct{ Items []competitor }
			api.Do(t, "GET", "/api/v1/competitors", apitest.KeyARead, "").Decode(t, 200, &list)
			i := slices.IndexFunc(list.Items, func(c competitor) bool { return c.ID == 999 })
			if i < 0 || list.Items[i].IsActive != c.wantActive {
				t.Errorf("list: %+v, want id 999 with isActive %v", list.Items, c.wantActive)
			}
		})
	}
}
