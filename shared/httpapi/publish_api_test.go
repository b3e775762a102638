package httpapi_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/auth"
	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/httpapi/apitest"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/opportunities"
	"github.com/brandlens/brandlens/shared/publish"
	"github.com/brandlens/brandlens/shared/signing"
	"github.com/brandlens/brandlens/shared/ssrf"
)

const (
	keyAgentL0     = "local-key-acme-agent-l0-0001"
	keyAgentL0Two  = "local-key-acme-agent-l0-0002"
	destSecret     = "cms-destination-secret-0001"
	siteTestSecret = "site-content-secret-for-tests-01"
)

// cms is a customer's publish receiver on loopback: it verifies each POST
// and keeps what it got; status is what it answers.
type cms struct {
	mu     sync.Mutex
	posts  []cmsPost
	status int
	srv    *httptest.Server
}

type cmsPost struct {
	body   []byte
	header http.Header
}

func newCMS(t *testing.T, status int) *cms {
	c := &cms{status: status}
	c.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		c.mu.Lock()
		c.posts = append(c.posts, cmsPost{body: b, header: r.Header.Clone()})
		st := c.status
		c.mu.Unlock()
		if st == http.StatusCreated {
			var p publish.Payload
			_ = json.Unmarshal(b, &p)
			w.Header().Set("Location", "https://blog.acmenotes.com/notes/"+p.Slug)
		}
		w.WriteHeader(st)
	}))
	t.Cleanup(c.srv.Close)
	return c
}

func (c *cms) got() []cmsPost {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]cmsPost(nil), c.posts...)
}

// indexNow is the search engine's IndexNow endpoint, counting pings.
type indexNow struct {
	mu    sync.Mutex
	pings []map[string]any
}

type publishEnv struct {
	api  *apitest.API
	opp  opportunities.Opportunity
	ping *indexNow
}

func newPublishEnv(t *testing.T) *publishEnv {
	t.Helper()
	ping := &indexNow{}
	in := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m map[string]any
		_ = json.NewDecoder(r.Body).Decode(&m)
		ping.mu.Lock()
		ping.pings = append(ping.pings, m)
		ping.mu.Unlock()
		w.WriteHeader(http.StatusAccepted)
	}))
	t.Cleanup(in.Close)
	api := apitest.New(t, apitest.Options{RPM: 100000, SiteContentSecret: []byte(siteTestSecret), Local: app.LocalOptions{
		Guard: ssrf.Guard{AllowLoopback: true}, RetryScale: 0.01, DispatchInterval: 20 * time.Millisecond, IndexNowEndpoint: in.URL}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- api.Local.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	for _, k := range []string{keyAgentL0, keyAgentL0Two} {
		if _, _, err := api.Svc.Keys.Create(ctx, auth.NewKey{TenantID: api.A.ID, Plaintext: k, Scopes: []auth.Scope{auth.ScopePublish},
			IsAgent: true, Autonomy: auth.L0}); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now().UTC()
	o := opportunities.Opportunity{ID: "01jpublishflow000000000000", TenantID: api.A.ID, GapID: "01jpublishflowgap000000000", Tier: "competitor_dominated",
		QueryID: 1, QueryText: "best note taking app", BrandProfileID: 1, Title: "Out-rank Notion", Status: opportunities.StatusContentReady,
		Content: &opportunities.Content{Title: "Note apps for researchers", Slug: "note-apps-for-researchers", BodyHTML: "<h2>Which app?</h2><p>Acme Notes.</p>",
			MetaDescription: "Which note app suits researchers.", SchemaJSONLD: `{"@context":"https://schema.org","@type":"FAQPage"}`,
			Headings: []string{"Which app?"}, TargetEntities: []string{"Acme Notes", "Notion"}, GeneratedAt: now},
		CreatedAt: now, UpdatedAt: now}
	op, err := opportunities.CreateOp(o)
	if err != nil {
		t.Fatal(err)
	}
	if err := api.Table.TransactWrite(ctx, op); err != nil {
		t.Fatal(err)
	}
	return &publishEnv{api: api, opp: o, ping: ping}
}

func (e *publishEnv) destination(t *testing.T, body string) httpapi.DestinationDto {
	t.Helper()
	var d httpapi.DestinationDto
	e.api.Do(t, "POST", "/api/v1/destinations", apitest.KeyAPublish, body).Decode(t, 201, &d)
	return d
}

func (e *publishEnv) publish(t *testing.T, key, destID, mode string) apitest.Response {
	t.Helper()
	return e.api.Do(t, "POST", "/api/v1/opportunities/"+e.opp.ID+"/publish", key, `{"destinationId":"`+destID+`","mode":"`+mode+`"}`)
}

func (e *publishEnv) job(t *testing.T, id string) jobs.Job {
	t.Helper()
	var j jobs.Job
	waitFor(t, 30*time.Second, func() bool {
		e.api.Do(t, "GET", "/api/v1/jobs/"+id, apitest.KeyAPublish, "").Decode(t, 200, &j)
		return jobs.Terminal(j.Status)
	})
	return j
}

func (e *publishEnv) me(t *testing.T, key string) httpapi.Entitlement {
	t.Helper()
	var m httpapi.Entitlement
	e.api.Do(t, "GET", "/api/v1/me", key, "").Decode(t, 200, &m)
	return m
}

func (e *publishEnv) pending(t *testing.T) []map[string]any {
	t.Helper()
	var list struct{ Items []map[string]any }
	e.api.Do(t, "GET", "/api/tracker/approvals/pending", apitest.KeyAPublish, "").Decode(t, 200, &list)
	return list.Items
}

func (e *publishEnv) review(t *testing.T, key, id, verdict string) apitest.Response {
	t.Helper()
	return e.api.Do(t, "POST", "/api/tracker/approvals/"+id+"/"+verdict, key, `{"reason":"checked by the editor"}`)
}

func wantCode(t *testing.T, what string, r apitest.Response, status int, code string) {
	t.Helper()
	if r.Status != status || r.ErrorCode(t) != code {
		t.Fatalf("%s: %d %s, want %d %s", what, r.Status, r.Body, status, code)
	}
}

// The approval-gated publish, end to end over real HTTP on the local
// runtime: an L0 agent cannot execute (403 approval_required), proposes
// (the pending request shows the exact payload), cannot propose or execute
// again while it waits (409 approval_pending), cannot approve (403);
// another tenant's reviewer gets 404; a human approves once (a second
// review is 409); the workflow resumes and the loopback receiver gets
// exactly one signed POST of those very bytes; the opportunity is
// published with the Location as live URL and IndexNow is pinged.
func TestPublishApprovalFlowThroughTheAPI(t *testing.T) {
	e := newPublishEnv(t)
	rc := newCMS(t, http.StatusCreated)
	dest := e.destination(t, `{"type":"webhook","name":"Acme blog","url":"`+rc.srv.URL+`/hooks/publish","secret":"`+destSecret+
		`","defaultAuthor":"Acme editors","indexNowKey":"0123456789abcdef","indexNowHost":"blog.acmenotes.com"}`)

	wantCode(t, "L0 agent executes", e.publish(t, keyAgentL0, dest.ID, "execute"), 403, httpapi.CodeApprovalRequired)
	var acc httpapi.JobAccepted
	e.publish(t, keyAgentL0, dest.ID, "propose").Decode(t, 202, &acc)
	if acc.ApprovalID == nil || acc.Status != jobs.StatusQueued || acc.CreditsBalance != 1000 {
		t.Fatalf("propose: %+v", acc)
	}
	wantCode(t, "execute while pending", e.publish(t, keyAgentL0, dest.ID, "execute"), 409, httpapi.CodeApprovalPending)
	wantCode(t, "propose while pending", e.publish(t, keyAgentL0, dest.ID, "propose"), 409, httpapi.CodeApprovalPending)
	if m := e.me(t, keyAgentL0); m.PendingApprovals != 1 || m.AutonomyLevel != "L0" {
		t.Fatalf("/me of the agent: pending %d, level %s", m.PendingApprovals, m.AutonomyLevel)
	}

	items := e.pending(t)
	if len(items) != 1 {
		t.Fatalf("pending %v", items)
	}
	req := items[0]
	for _, member := range []string{"id", "action", "resourceRef", "status", "requestedBy", "summary", "resourceTitle", "queryText",
		"destinationName", "destinationType", "createdAt", "payload", "jobId"} {
		if req[member] == nil {
			t.Errorf("pending request lacks %s: %v", member, req)
		}
	}
	if req["action"] != "publish" || req["resourceRef"] != "opportunity:"+e.opp.ID || req["destinationName"] != "Acme blog" ||
		req["queryText"] != "best note taking app" || req["resourceTitle"] != "Note apps for researchers" || req["jobId"] != acc.JobID {
		t.Errorf("pending request %v", req)
	}
	// The payload as the reviewer's list serves it, byte for byte.
	var raw struct {
		Items []struct{ Payload json.RawMessage }
	}
	e.api.Do(t, "GET", "/api/tracker/approvals/pending", apitest.KeyAPublish, "").Decode(t, 200, &raw)
	shownPayload := raw.Items[0].Payload

	wantCode(t, "the agent approves", e.review(t, keyAgentL0, *acc.ApprovalID, "approve"), 403, httpapi.CodeInsufficientScope)
	wantCode(t, "another tenant approves", e.review(t, apitest.KeyBPublish, *acc.ApprovalID, "approve"), 404, httpapi.CodeNotFound)
	if n := len(rc.got()); n != 0 {
		t.Fatalf("%d POSTs before the approval", n)
	}
	var rev httpapi.ReviewResult
	e.review(t, apitest.KeyAPublish, *acc.ApprovalID, "approve").Decode(t, 200, &rev)
	if rev.Approved != 1 || rev.Promoted || *rev.AutonomyLevel != "L0" || *rev.Request.Status != "approved" {
		t.Fatalf("review %+v", rev)
	}
	wantCode(t, "approve twice", e.review(t, apitest.KeyAPublish, *acc.ApprovalID, "approve"), 409, httpapi.CodeAlreadyReviewed)
	wantCode(t, "reject after approval", e.review(t, apitest.KeyAPublish, *acc.ApprovalID, "reject"), 409, httpapi.CodeAlreadyReviewed)

	j := e.job(t, acc.JobID)
	if j.Status != jobs.StatusSucceeded || j.CreditsCharged != 0 {
		t.Fatalf("publish job %+v", j)
	}
	posts := rc.got()
	if len(posts) != 1 {
		t.Fatalf("%d POSTs, want exactly one", len(posts))
	}
	p := posts[0]
	if !signing.Verify([]byte(destSecret), p.body, p.header.Get("X-Service-Signature")) ||
		p.header.Get("X-Service-Event") != "content.published" || p.header.Get("X-Service-Content-Id") != e.opp.ID ||
		p.header.Get("Content-Type") != "application/json" {
		t.Fatalf("POST headers %v", p.header)
	}
	if string(p.body) != string(shownPayload) {
		t.Errorf("sent  %s\nshown %s", p.body, shownPayload)
	}
	var sent publish.Payload
	if err := json.Unmarshal(p.body, &sent); err != nil || sent.SchemaVersion != "1.0" || *sent.ContentID != e.opp.ID ||
		*sent.Author != "Acme editors" || sent.Slug != "note-apps-for-researchers" {
		t.Fatalf("payload %s %v", p.body, err)
	}
	var got opportunities.Opportunity
	e.api.Do(t, "GET", "/api/v1/opportunities/"+e.opp.ID, apitest.KeyAPublish, "").Decode(t, 200, &got)
	pub := got.Publish
	if got.Status != opportunities.StatusPublished || pub == nil || pub.LiveURL != "https://blog.acmenotes.com/notes/note-apps-for-researchers" ||
		pub.ContentVersion != *sent.ContentVersion || !pub.IndexNowPinged || pub.DestinationID != dest.ID {
		t.Fatalf("opportunity %+v publish %+v", got, pub)
	}
	e.ping.mu.Lock()
	if len(e.ping.pings) != 1 || e.ping.pings[0]["host"] != "blog.acmenotes.com" {
		t.Errorf("IndexNow pings %v", e.ping.pings)
	}
	e.ping.mu.Unlock()
	var entries struct{ Items []audit.Entry }
	e.api.Do(t, "GET", "/api/v1/audit?action=publish.attempt", apitest.KeyAPublish, "").Decode(t, 200, &entries)
	if len(entries.Items) != 1 || !strings.Contains(entries.Items[0].Detail, "receiver status 201") {
		t.Errorf("audit of the attempt %+v", entries.Items)
	}
	// The approval was used by that publish: executing again needs another.
	wantCode(t, "execute after the approval was used", e.publish(t, keyAgentL0, dest.ID, "execute"), 403, httpapi.CodeApprovalRequired)
	if m := e.me(t, keyAgentL0); m.PendingApprovals != 0 {
		t.Errorf("pending_approvals %d after the review", m.PendingApprovals)
	}
}

// Channel B's failure and the own site: a 500 from the receiver fails the
// job with that status at 0 credits and leaves the piece unpublished; an
// own_site destination publishes through the service's own signed
// receiver, whose page then serves; a re-publish keeps the URL and sends a
// new ContentVersion.
func TestPublishFailureAndOwnSite(t *testing.T) {
	e := newPublishEnv(t)
	failing := newCMS(t, http.StatusInternalServerError)
	bad := e.destination(t, `{"type":"webhook","name":"Broken CMS","url":"`+failing.srv.URL+`","secret":"`+destSecret+`"}`)
	var acc httpapi.JobAccepted
	e.publish(t, apitest.KeyAPublish, bad.ID, "execute").Decode(t, 202, &acc)
	j := e.job(t, acc.JobID)
	if j.Status != jobs.StatusFailed || j.CreditsCharged != 0 || j.Error == nil || !strings.Contains(*j.Error, "HTTP 500") {
		t.Fatalf("job %+v", j)
	}
	if n := len(failing.got()); n != 1 {
		t.Fatalf("%d POSTs to the failing receiver, want one (no automatic retry)", n)
	}
	var got opportunities.Opportunity
	e.api.Do(t, "GET", "/api/v1/opportunities/"+e.opp.ID, apitest.KeyAPublish, "").Decode(t, 200, &got)
	if got.Status != opportunities.StatusContentReady || got.Publish != nil {
		t.Fatalf("after a failed publish: %s %+v", got.Status, got.Publish)
	}

	site := e.destination(t, `{"type":"own_site","name":"Our research","siteContentType":"research"}`)
	var versions []string
	for range 2 {
		e.publish(t, apitest.KeyAPublish, site.ID, "execute").Decode(t, 202, &acc)
		if j := e.job(t, acc.JobID); j.Status != jobs.StatusSucceeded {
			t.Fatalf("own-site publish %+v", j)
		}
		e.api.Do(t, "GET", "/api/v1/opportunities/"+e.opp.ID, apitest.KeyAPublish, "").Decode(t, 200, &got)
		if got.Publish == nil || got.Publish.LiveURL != e.api.URL+"/site/research/note-apps-for-researchers" {
			t.Fatalf("own-site live URL %+v", got.Publish)
		}
		versions = append(versions, got.Publish.ContentVersion)
	}
	if versions[0] == versions[1] || versions[0] == "" {
		t.Errorf("re-publish versions %v, want a new one", versions)
	}
	page := e.api.Do(t, "GET", "/site/research/note-apps-for-researchers", "", "", "Accept", "text/html")
	if page.Status != 200 || !strings.Contains(string(page.Body), "<title>Note apps for researchers</title>") {
		t.Fatalf("own-site page %d %s", page.Status, page.Body)
	}
}

// Agent autonomy beyond publishing: an L0 agent's job-creating write is
// held (queued, approvalId) and its webhook change waits (202 with the
// request); a rejected job fails at 0 credits with its hold released; an
// approved change is applied as requested; after 3 approvals the agent is
// L1 in /me, and at L1 its writes run at once.
func TestL0AgentSideEffectsWaitForApproval(t *testing.T) {
	e := newPublishEnv(t)
	// Human keys are never held: /me says L2 whatever their record holds.
	if m := e.me(t, apitest.KeyAPublish); m.AutonomyLevel != "L2" || m.IsAgent {
		t.Fatalf("/me of a human key: level %s, agent %v", m.AutonomyLevel, m.IsAgent)
	}
	// A held run of a subset of the query's platforms, rejected: failed, 0
	// credits, the hold released, no platform left queued.
	var run httpapi.JobAccepted
	e.api.Do(t, "POST", "/api/v1/queries/1/run", keyAgentL0Two, `{"platforms":["chatgpt"],"samples":1}`).Decode(t, 202, &run)
	if run.ApprovalID == nil || run.CreditsBalance != 1000-1 {
		t.Fatalf("held run %+v", run)
	}
	wantCode(t, "the same run again", e.api.Do(t, "POST", "/api/v1/queries/1/run", keyAgentL0Two, `{"samples":1}`), 409, httpapi.CodeApprovalPending)
	if j := jobOf(t, e, run.JobID); j.Status != jobs.StatusQueued || !j.AwaitingApproval {
		t.Fatalf("held job %+v", j)
	}
	if p := e.pending(t); len(p) != 1 || p[0]["queryText"] != "best note taking app" || p[0]["resourceTitle"] != "best note taking app" ||
		p[0]["summary"] != `run query:1 "best note taking app" on chatgpt, 1 sample(s) each (up to 1 credits)` {
		t.Fatalf("the held run's request %v", p)
	}
	var rev httpapi.ReviewResult
	e.review(t, apitest.KeyAPublish, *run.ApprovalID, "reject").Decode(t, 200, &rev)
	j := e.job(t, run.JobID)
	if j.Status != jobs.StatusFailed || j.CreditsCharged != 0 || !strings.Contains(*j.Error, "rejected") || j.AwaitingApproval {
		t.Fatalf("rejected run %+v", j)
	}
	if ps := j.PerPlatformStatus["chatgpt"]; len(j.PerPlatformStatus) != 1 || ps.Status != jobs.StatusFailed || ps.Error == nil || *ps.Error != *j.Error {
		t.Fatalf("rejected run's platforms %+v", j.PerPlatformStatus)
	}
	var credits httpapi.CreditInfo
	e.api.Do(t, "GET", "/api/v1/me/credits", apitest.KeyAPublish, "").Decode(t, 200, &credits)
	if credits.CreditsBalance != 1000 || credits.Held != 0 {
		t.Fatalf("credits after the rejection %+v", credits)
	}

	// Three approvals promote keyAgentL0 to L1.
	var held []string
	var det httpapi.JobAccepted
	e.api.Do(t, "POST", "/api/v1/gaps/detect", keyAgentL0, `{"brandProfileId":1}`).Decode(t, 202, &det)
	held = append(held, *det.ApprovalID)
	var change map[string]any
	e.api.Do(t, "POST", "/api/v1/webhooks", keyAgentL0, `{"url":"https://hooks.acmenotes.com/agent","secret":"agent-chosen-secret-0001"}`).Decode(t, 202, &change)
	if change["status"] != "pending" || change["action"] != "webhooks.create" || strings.Contains(string(mustJSON(t, change["payload"])), "agent-chosen-secret") {
		t.Fatalf("held change %v", change)
	}
	held = append(held, change["id"].(string))
	var subs struct{ Items []httpapi.WebhookSubscription }
	e.api.Do(t, "GET", "/api/v1/webhooks", apitest.KeyAPublish, "").Decode(t, 200, &subs)
	if len(subs.Items) != 0 {
		t.Fatalf("the change applied before its approval: %+v", subs.Items)
	}
	var rescore httpapi.JobAccepted
	e.api.Do(t, "POST", "/api/v1/brand-profiles/1/rescore", keyAgentL0, "").Decode(t, 202, &rescore)
	held = append(held, *rescore.ApprovalID)
	if m := e.me(t, keyAgentL0); m.PendingApprovals != 3 {
		t.Fatalf("pending_approvals %d, want 3", m.PendingApprovals)
	}
	for i, id := range held {
		e.review(t, apitest.KeyAPublish, id, "approve").Decode(t, 200, &rev)
		if want := i == 2; rev.Promoted != want {
			t.Fatalf("approval %d: promoted %v", i+1, rev.Promoted)
		}
	}
	if *rev.AutonomyLevel != "L1" {
		t.Fatalf("after 3 approvals: %s", *rev.AutonomyLevel)
	}
	if m := e.me(t, keyAgentL0); m.AutonomyLevel != "L1" || m.PendingApprovals != 0 {
		t.Fatalf("/me after 3 approvals: level %s, pending %d", m.AutonomyLevel, m.PendingApprovals)
	}
	if j := e.job(t, det.JobID); j.Status != jobs.StatusSucceeded {
		t.Fatalf("approved detection %+v", j)
	}
	e.api.Do(t, "GET", "/api/v1/webhooks", apitest.KeyAPublish, "").Decode(t, 200, &subs)
	if len(subs.Items) != 1 || subs.Items[0].URL != "https://hooks.acmenotes.com/agent" || !subs.Items[0].HasSecret {
		t.Fatalf("approved change %+v", subs.Items)
	}
	var promotions struct{ Items []audit.Entry }
	e.api.Do(t, "GET", "/api/v1/audit?action=autonomy.promote", apitest.KeyAPublish, "").Decode(t, 200, &promotions)
	if len(promotions.Items) != 1 || !strings.Contains(promotions.Items[0].Detail, "L0 → L1") {
		t.Errorf("promotion audit %+v", promotions.Items)
	}
	// At L1 runs go at once; publishing still needs an approval.
	e.api.Do(t, "POST", "/api/v1/queries/1/run", keyAgentL0, `{"samples":1}`).Decode(t, 202, &run)
	if run.ApprovalID != nil {
		t.Fatalf("an L1 agent's run was held: %+v", run)
	}
}

func jobOf(t *testing.T, e *publishEnv, id string) jobs.Job {
	t.Helper()
	j, err := e.api.Svc.Jobs.Get(context.Background(), e.api.A.ID, id)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// A held metered job shows the reviewer what it is about: the brand
// profile's name for detection and re-scoring, the opportunity's title and
// query for a brief and an article.
func TestHeldJobsShowTheirSubject(t *testing.T) {
	e := newPublishEnv(t)
	open := e.opp
	open.ID, open.GapID, open.Status, open.Content, open.Title = "01jheldsubjectopen00000000", "01jheldsubjectopengap00000", opportunities.StatusOpen, nil, "Win back researchers"
	op, err := opportunities.CreateOp(open)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.api.Table.TransactWrite(context.Background(), op); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		action, path, body string
		title, query       any
	}{
		{"gaps.detect", "/api/v1/gaps/detect", `{"brandProfileId":1}`, "Acme Notes", nil},
		{"brand_profiles.rescore", "/api/v1/brand-profiles/1/rescore", "", "Acme Notes", nil},
		{"content.generate_brief", "/api/v1/opportunities/" + open.ID + "/generate-brief", `{}`, "Win back researchers", "best note taking app"},
		{"content.generate_article", "/api/v1/opportunities/" + e.opp.ID + "/generate-content", `{}`, "Out-rank Notion", "best note taking app"},
	} {
		t.Run(c.action, func(t *testing.T) {
			var held httpapi.JobAccepted
			e.api.Do(t, "POST", c.path, keyAgentL0, c.body).Decode(t, 202, &held)
			if held.ApprovalID == nil {
				t.Fatalf("not held: %+v", held)
			}
			pending := e.pending(t)
			i := slices.IndexFunc(pending, func(p map[string]any) bool { return p["id"] == *held.ApprovalID })
			if i < 0 {
				t.Fatalf("request %s is not pending", *held.ApprovalID)
			}
			if p := pending[i]; p["action"] != c.action || p["resourceTitle"] != c.title || p["queryText"] != c.query {
				t.Errorf("pending request %v: want resourceTitle %v, queryText %v", p, c.title, c.query)
			}
		})
	}
}

// A query shows its latest accepted run (lastRunAt, lastJobId) on every
// read and write of it: a run when it is created, an agent's held run once
// approved, never a rejected one.
func TestQueryLastRunThroughTheAPI(t *testing.T) {
	e := newPublishEnv(t)
	type query struct {
		ID        int32
		LastRunAt *time.Time
		LastJobID *string
	}
	want := func(t *testing.T, what string, q query, jobID string, at time.Time) {
		t.Helper()
		if jobID == "" && (q.LastRunAt != nil || q.LastJobID != nil) ||
			jobID != "" && (q.LastJobID == nil || *q.LastJobID != jobID || q.LastRunAt == nil || !q.LastRunAt.Equal(at)) {
			t.Fatalf("%s: %+v, want last job %q at %s", what, q, jobID, at)
		}
	}
	read := func(t *testing.T, jobID string, at time.Time) {
		t.Helper()
		var one query
		e.api.Do(t, "GET", "/api/v1/queries/1", apitest.KeyARead, "").Decode(t, 200, &one)
		want(t, "GET one", one, jobID, at)
		var list struct{ Items []query }
		e.api.Do(t, "GET", "/api/v1/queries", apitest.KeyARead, "").Decode(t, 200, &list)
		i := slices.IndexFunc(list.Items, func(q query) bool { return q.ID == 1 })
		if i < 0 {
			t.Fatalf("query 1 is not listed: %+v", list.Items)
		}
		want(t, "the list", list.Items[i], jobID, at)
	}
	read(t, "", time.Time{})

	var run httpapi.JobAccepted
	e.api.Do(t, "POST", "/api/v1/queries/1/run", apitest.KeyAPublish, `{"samples":1}`).Decode(t, 202, &run)
	manual := jobOf(t, e, run.JobID)
	read(t, manual.ID, manual.CreatedAt)

	var held httpapi.JobAccepted
	e.api.Do(t, "POST", "/api/v1/queries/1/run", keyAgentL0, `{"samples":1}`).Decode(t, 202, &held)
	read(t, manual.ID, manual.CreatedAt) // held: not accepted yet
	e.review(t, apitest.KeyAPublish, *held.ApprovalID, "approve").Decode(t, 200, &httpapi.ReviewResult{})
	var one query
	e.api.Do(t, "GET", "/api/v1/queries/1", apitest.KeyARead, "").Decode(t, 200, &one)
	if one.LastJobID == nil || *one.LastJobID != held.JobID || one.LastRunAt == nil || one.LastRunAt.Before(jobOf(t, e, held.JobID).CreatedAt) {
		t.Fatalf("after the approval: %+v, want job %s", one, held.JobID)
	}
	approvedAt := *one.LastRunAt
	read(t, held.JobID, approvedAt)

	var rejected httpapi.JobAccepted
	e.api.Do(t, "POST", "/api/v1/queries/1/run", keyAgentL0Two, `{"samples":1}`).Decode(t, 202, &rejected)
	e.review(t, apitest.KeyAPublish, *rejected.ApprovalID, "reject").Decode(t, 200, &httpapi.ReviewResult{})
	read(t, held.JobID, approvedAt)

	var put query
	e.api.Do(t, "PUT", "/api/v1/queries/1", apitest.KeyAPublish, `{"schedule":"weekly"}`).Decode(t, 200, &put)
	want(t, "PUT", put, held.JobID, approvedAt)
}

// TestStaleProposalDoesNotGoOut: an L0 agent's proposal (ContentVersion
// v1) approved after a human published twice since (v2, v3) is not sent:
// its job fails at 0 credits saying a newer publish went out, the receiver
// got only v2 and v3, and the opportunity still shows v3 live.
func TestStaleProposalDoesNotGoOut(t *testing.T) {
	e := newPublishEnv(t)
	rc := newCMS(t, http.StatusCreated)
	dest := e.destination(t, `{"type":"webhook","name":"Acme blog","url":"`+rc.srv.URL+`/hooks/publish","secret":"`+destSecret+`"}`)
	var proposal httpapi.JobAccepted
	e.publish(t, keyAgentL0, dest.ID, "propose").Decode(t, 202, &proposal)
	for range 2 {
		var acc httpapi.JobAccepted
		e.publish(t, apitest.KeyAPublish, dest.ID, "execute").Decode(t, 202, &acc)
		if j := e.job(t, acc.JobID); j.Status != jobs.StatusSucceeded {
			t.Fatalf("execute: %+v", j)
		}
	}
	e.review(t, apitest.KeyAPublish, *proposal.ApprovalID, "approve").Decode(t, 200, &map[string]any{})
	j := e.job(t, proposal.JobID)
	if j.Status != jobs.StatusFailed || j.CreditsCharged != 0 || j.Error == nil || !strings.Contains(*j.Error, "newer publish") {
		t.Fatalf("the stale proposal's job: %s, %d credits, error %v", j.Status, j.CreditsCharged, j.Error)
	}
	posts := rc.got()
	if len(posts) != 2 {
		t.Fatalf("the receiver got %d POSTs, want the 2 newer ones", len(posts))
	}
	var last publish.Payload
	if err := json.Unmarshal(posts[1].body, &last); err != nil {
		t.Fatal(err)
	}
	var o struct {
		Publish struct{ ContentVersion string }
	}
	e.api.Do(t, "GET", "/api/v1/opportunities/"+e.opp.ID, apitest.KeyAPublish, "").Decode(t, 200, &o)
	if o.Publish.ContentVersion != *last.ContentVersion {
		t.Fatalf("live version %s, want the newest sent %s", o.Publish.ContentVersion, *last.ContentVersion)
	}
}
