package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/content"
	"github.com/brandlens/brandlens/shared/gaps"
	"github.com/brandlens/brandlens/shared/gaps/gapstest"
	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/httpapi/apitest"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/models"
	"github.com/brandlens/brandlens/shared/opportunities"
	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/signing"
	"github.com/brandlens/brandlens/shared/ssrf"
)

// replayed answers every platform from a replay file the test may swap.
type replayed struct {
	mu sync.Mutex
	r  *providers.Replay
}

func (rp *replayed) load(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := providers.ParseReplay(b)
	if err != nil {
		t.Fatal(err)
	}
	rp.mu.Lock()
	defer rp.mu.Unlock()
	rp.r = r
}

func (rp *replayed) set() providers.Set {
	s := providers.Set{}
	for _, p := range platforms.All {
		s[p] = replayedPlatform{rp, p}
	}
	return s
}

type replayedPlatform struct {
	rp       *replayed
	platform string
}

func (p replayedPlatform) Platform() string { return p.platform }

func (p replayedPlatform) Answer(ctx context.Context, req providers.Request) (providers.Answer, error) {
	p.rp.mu.Lock()
	r := p.rp.r
	p.rp.mu.Unlock()
	return r.Provider(p.platform).Answer(ctx, req)
}

// recordingWriter is the offline writer, recording every request; it can
// be told to fail the next call for good.
type recordingWriter struct {
	mu       sync.Mutex
	requests []models.Request
	failNext bool
	next     models.Generator
}

func (w *recordingWriter) Generate(ctx context.Context, req models.Request) (models.Response, error) {
	w.mu.Lock()
	w.requests = append(w.requests, req)
	fail := w.failNext
	w.failNext = false
	w.mu.Unlock()
	if fail {
		return models.Response{}, &models.Error{Vendor: models.VendorOffline, Model: content.OfflineModel, Kind: models.KindAuth, Message: "key refused"}
	}
	return w.next.Generate(ctx, req)
}

// contentEnv is the seeded API behind the whole local runtime.
type contentEnv struct {
	api    *apitest.API
	replay *replayed
	writer *recordingWriter
}

func newContentEnv(t *testing.T, replay string) *contentEnv {
	t.Helper()
	e := &contentEnv{replay: &replayed{}, writer: &recordingWriter{next: content.NewOffline()}}
	e.replay.load(t, replay)
	e.api = apitest.New(t, apitest.Options{RPM: 100000, Local: app.LocalOptions{Providers: e.replay.set(), Generator: e.writer,
		Guard: ssrf.Guard{AllowLoopback: true}, RetryScale: 0.01, DispatchInterval: 20 * time.Millisecond}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.api.Local.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return e
}

// do sends a request with the publish key of tenant A.
func (e *contentEnv) do(t *testing.T, method, path, body string, hdr ...string) apitest.Response {
	t.Helper()
	return e.api.Do(t, method, path, apitest.KeyAPublish, body, hdr...)
}

// accepted posts a job-creating write and returns its job id.
func (e *contentEnv) accepted(t *testing.T, path, body string, hdr ...string) string {
	t.Helper()
	var acc httpapi.JobAccepted
	e.do(t, "POST", path, body, hdr...).Decode(t, 202, &acc)
	if acc.JobID == "" || acc.Status != jobs.StatusQueued {
		t.Fatalf("POST %s: %+v", path, acc)
	}
	return acc.JobID
}

// job polls a job until it ends.
func (e *contentEnv) job(t *testing.T, id string) jobs.Job {
	t.Helper()
	var j jobs.Job
	waitFor(t, 30*time.Second, func() bool {
		e.do(t, "GET", "/api/v1/jobs/"+id, "").Decode(t, 200, &j)
		return jobs.Terminal(j.Status)
	})
	return j
}

// run runs a query with two samples on its platforms and waits for it.
func (e *contentEnv) run(t *testing.T, queryID int32) jobs.Job {
	t.Helper()
	j := e.job(t, e.accepted(t, fmt.Sprintf("/api/v1/queries/%d/run", queryID), `{"samples":2}`))
	if j.Status != jobs.StatusSucceeded {
		t.Fatalf("run of query %d: %+v", queryID, j)
	}
	return j
}

func (e *contentEnv) detect(t *testing.T, key string) jobs.Job {
	t.Helper()
	j := e.job(t, e.accepted(t, "/api/v1/gaps/detect", `{"brandProfileId":1}`, "Idempotency-Key", key))
	if j.Status != jobs.StatusSucceeded || j.CreditsCharged != 5 || j.Type != jobs.TypeGapDetection {
		t.Fatalf("detection %+v", j)
	}
	return j
}

func (e *contentEnv) gaps(t *testing.T, status string) []gaps.Gap {
	t.Helper()
	var list httpapi.GapList
	e.do(t, "GET", "/api/v1/gaps?limit=200&status="+status, "").Decode(t, 200, &list)
	return list.Items
}

func (e *contentEnv) credits(t *testing.T) httpapi.CreditInfo {
	t.Helper()
	var c httpapi.CreditInfo
	e.do(t, "GET", "/api/v1/me/credits", "").Decode(t, 200, &c)
	return c
}

func (e *contentEnv) opportunity(t *testing.T, id string) opportunities.Opportunity {
	t.Helper()
	var o opportunities.Opportunity
	e.do(t, "GET", "/api/v1/opportunities/"+id, "").Decode(t, 200, &o)
	return o
}

// receiver is a webhook endpoint counting the signed events it gets.
type receiver struct {
	mu    sync.Mutex
	types map[string]int
}

func (r *receiver) count(typ string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.types[typ]
}

func (e *contentEnv) subscribe(t *testing.T, events ...string) *receiver {
	t.Helper()
	const secret = "content-loop-receiver-secret-01"
	rc := &receiver{types: map[string]int{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if !signing.Verify([]byte(secret), b, r.Header.Get("X-Service-Signature")) {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		var env struct{ Type string }
		json.Unmarshal(b, &env)
		rc.mu.Lock()
		rc.types[env.Type]++
		rc.mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	ev, _ := json.Marshal(events)
	if r := e.do(t, "POST", "/api/v1/webhooks", `{"url":"`+srv.URL+`","events":`+string(ev)+`,"secret":"`+secret+`"}`); r.Status != 201 {
		t.Fatalf("subscribe: %d %s", r.Status, r.Body)
	}
	return rc
}

// The five staged queries of issue 10, with the tier each must get.
var stagedQueries = gapstest.FiveQueries

// The content loop end to end through the API on the local runtime: five
// queries added and run over replayed answers, gap detection gives
// exactly the four tiers (and no duplicate when run again, and resolves
// the no_mention gap once the brand appears), then brief → article on the
// offline writer with the shape rules, the exact prompts in the audit log,
// 5 + 2 + 10 credits captured, a failed generation at 0, idempotency on
// every write, and the events delivered by the webhook engine.
func TestContentLoopThroughTheAPI(t *testing.T) {
	e := newContentEnv(t, "../gaps/testdata/five-queries.json")
	rc := e.subscribe(t, "gap.detected", "opportunity.created", "content.brief_generated", "content.generated")

	// Obsidian tracked by hand, then dismissed: it no longer counts in gaps.
	var obsidian struct {
		ID          int32
		IsDismissed bool
		DismissedAt *time.Time
	}
	e.do(t, "POST", "/api/v1/competitors", `{"name":"Obsidian","domains":["obsidian.md"]}`).Decode(t, 201, &obsidian)
	e.do(t, "POST", fmt.Sprintf("/api/v1/competitors/%d/dismiss", obsidian.ID), "").Decode(t, 200, &obsidian)
	if !obsidian.IsDismissed || obsidian.DismissedAt == nil {
		t.Fatalf("dismissed competitor %+v", obsidian)
	}

	ids := make([]int32, len(stagedQueries))
	for i, sq := range stagedQueries {
		var q struct{ ID int32 }
		e.do(t, "POST", "/api/v1/queries", `{"text":"`+sq.Text+`","platforms":["chatgpt","perplexity"],"schedule":"daily","brandProfileId":1}`).Decode(t, 201, &q)
		ids[i] = q.ID
		e.run(t, q.ID)
	}
	before := e.credits(t)

	// Idempotency-Key: the same key and body give the same job; another body is a conflict.
	jobID := e.accepted(t, "/api/v1/gaps/detect", `{"brandProfileId":1}`, "Idempotency-Key", "detect-1")
	var again httpapi.JobAccepted // the original job, in whatever status it is now
	e.do(t, "POST", "/api/v1/gaps/detect", `{"brandProfileId":1}`, "Idempotency-Key", "detect-1").Decode(t, 202, &again)
	if again.JobID != jobID {
		t.Errorf("replayed detection: job %s, want %s", again.JobID, jobID)
	}
	if r := e.do(t, "POST", "/api/v1/gaps/detect", `{"brandProfileId":2}`, "Idempotency-Key", "detect-1"); r.Status != 409 || r.ErrorCode(t) != "idempotency_conflict" {
		t.Errorf("same key, other body: %d %s", r.Status, r.Body)
	}
	if j := e.job(t, jobID); j.Status != jobs.StatusSucceeded || j.CreditsCharged != 5 {
		t.Fatalf("detection %+v", j)
	}
	open := map[int32]gaps.Gap{}
	for _, g := range e.gaps(t, "open") {
		open[g.QueryID] = g
	}
	for i, sq := range stagedQueries {
		g, ok := open[ids[i]]
		if ok != (sq.Tier != "") || (ok && g.Tier != sq.Tier) {
			t.Errorf("%q: gap %v (%s), want tier %q", sq.Text, ok, g.Tier, sq.Tier)
		}
	}
	if len(open) != 4 {
		t.Fatalf("%d open gaps, want 4", len(open))
	}

	// A second detection updates the four gaps, adds none.
	e.detect(t, "detect-2")
	if all := e.gaps(t, ""); len(all) != 4 {
		t.Errorf("%d gaps after the second detection, want 4", len(all))
	}
	// The brand appears in the first query's answers: its no_mention gap resolves.
	e.replay.load(t, "../gaps/testdata/brand-appears.json")
	e.run(t, ids[0])
	e.detect(t, "detect-3")
	resolved := e.gaps(t, "resolved")
	if len(resolved) != 1 || resolved[0].ID != open[ids[0]].ID || resolved[0].ResolvedAt == nil {
		t.Errorf("resolved gaps %+v, want the no_mention gap of query %d", resolved, ids[0])
	}
	if r := e.do(t, "GET", "/api/v1/gaps?status=closed", ""); r.Status != 422 || !slices.Equal(r.Fields(t), []string{"status"}) {
		t.Errorf("unknown status filter: %d %s", r.Status, r.Body)
	}

	// brief → article on the competitor_dominated gap's opportunity.
	oppID := open[ids[1]].OpportunityID
	o := e.opportunity(t, oppID)
	if o.Status != opportunities.StatusOpen || o.Brief != nil || o.Content != nil || o.Publish != nil || o.Priority <= 0 || o.Priority > 100 {
		t.Fatalf("opportunity %+v", o)
	}
	if r := e.do(t, "POST", "/api/v1/opportunities/"+oppID+"/generate-content", `{}`); r.Status != 409 || r.ErrorCode(t) != "invalid_state" {
		t.Errorf("article before a brief: %d %s", r.Status, r.Body)
	}
	if r := e.do(t, "POST", "/api/v1/opportunities/"+oppID+"/generate-brief", `{"contentFormat":"poem"}`); r.Status != 422 || !slices.Equal(r.Fields(t), []string{"contentFormat"}) {
		t.Errorf("unknown format: %d %s", r.Status, r.Body)
	}
	if r := e.do(t, "POST", "/api/v1/opportunities/01zzzzzzzzzzzzzzzzzzzzzzzz/generate-brief", `{}`); r.Status != 404 {
		t.Errorf("unknown opportunity: %d %s", r.Status, r.Body)
	}
	mid := e.credits(t)
	if mid.Captured-before.Captured != 3*5+4 {
		t.Errorf("three detections and one run of 2 platforms × 2 samples captured %d credits, want 19", mid.Captured-before.Captured)
	}

	// A generation that fails costs nothing and leaves the opportunity as it was.
	e.writer.mu.Lock()
	e.writer.failNext = true
	e.writer.mu.Unlock()
	failed := e.job(t, e.accepted(t, "/api/v1/opportunities/"+oppID+"/generate-brief", `{}`))
	if failed.Status != jobs.StatusFailed || failed.CreditsCharged != 0 || failed.Error == nil {
		t.Fatalf("failed brief: %+v", failed)
	}
	if o := e.opportunity(t, oppID); o.Status != opportunities.StatusOpen || o.Brief != nil {
		t.Fatalf("after a failed brief: %+v", o)
	}
	if c := e.credits(t); c.Captured != mid.Captured || c.Held != 0 {
		t.Errorf("a failed generation moved credits: %+v, before %+v", c, mid)
	}

	briefJob := e.job(t, e.accepted(t, "/api/v1/opportunities/"+oppID+"/generate-brief", `{"contentFormat":"article"}`, "Idempotency-Key", "brief-1"))
	if briefJob.Status != jobs.StatusSucceeded || briefJob.CreditsCharged != 2 || briefJob.OpportunityID == nil || *briefJob.OpportunityID != oppID {
		t.Fatalf("brief job %+v", briefJob)
	}
	o = e.opportunity(t, oppID)
	if o.Status != opportunities.StatusBriefReady || o.Brief == nil || o.Brief.ContentFormat != "article" || len(o.Brief.Outline) < 2 ||
		len(o.Brief.Questions) == 0 || !slices.Contains(o.Brief.TargetEntities, "Notion") || o.Brief.TargetQueries[0] != stagedQueries[1].Text {
		t.Fatalf("brief %+v", o.Brief)
	}
	articleJob := e.job(t, e.accepted(t, "/api/v1/opportunities/"+oppID+"/generate-content", `{"persona":"a team lead who has run three wiki migrations"}`))
	if articleJob.Status != jobs.StatusSucceeded || articleJob.CreditsCharged != 10 {
		t.Fatalf("article job %+v", articleJob)
	}
	o = e.opportunity(t, oppID)
	if o.Status != opportunities.StatusContentReady || o.Content == nil {
		t.Fatalf("opportunity after the article %+v", o)
	}
	checkArticle(t, *o.Brief, *o.Content)
	if c := e.credits(t); c.Captured-mid.Captured != 12 || c.Held != 0 {
		t.Errorf("brief and article captured %d credits, want 2 + 10", c.Captured-mid.Captured)
	}

	// The requests are audited (TestEveryKeyedWriteIsAudited counts on it),
	// and the audit log holds the exact prompts of both generations (and
	// the failed one).
	var page httpapi.AuditPage
	for _, action := range []string{"content.generate_brief", "content.generate_article"} {
		e.do(t, "GET", "/api/v1/audit?action="+action+"&resource=opportunity:"+oppID, "").Decode(t, 200, &page)
		if len(page.Items) == 0 || page.Items[0].Actor.KeyID == "" {
			t.Errorf("%s entries %+v", action, page.Items)
		}
	}
	e.do(t, "GET", "/api/v1/audit?action=model.generate&resource=opportunity:"+oppID, "").Decode(t, 200, &page)
	e.writer.mu.Lock()
	sent := slices.Clone(e.writer.requests)
	e.writer.mu.Unlock()
	if len(page.Items) != 3 || len(sent) != 3 {
		t.Fatalf("%d model.generate entries, %d calls", len(page.Items), len(sent))
	}
	for i, entry := range page.Items { // newest first
		call := sent[len(sent)-1-i]
		if entry.Model == nil || !slices.Equal(entry.Model.Prompt, call.Messages) || entry.Actor.KeyID == "" || entry.Actor.Kind != audit.KindHuman {
			t.Errorf("entry %d: %+v does not hold the prompt sent", i, entry)
		}
	}
	if page.Items[2].Outcome != audit.OutcomeFailed || page.Items[2].Model.Error == "" || page.Items[0].Outcome != audit.OutcomeSucceeded ||
		page.Items[0].Model.Response == "" || page.Items[0].Model.Model != content.OfflineModel {
		t.Errorf("outcomes %s %s %s", page.Items[0].Outcome, page.Items[1].Outcome, page.Items[2].Outcome)
	}
	var runs httpapi.AuditPage
	e.do(t, "GET", "/api/v1/audit?action=platform.answer&limit=5", "").Decode(t, 200, &runs)
	if len(runs.Items) != 5 || runs.NextCursor == nil || runs.Items[0].Model == nil || runs.Items[0].Model.Prompt[0].Content != stagedQueries[0].Text {
		t.Errorf("platform calls of the last run: %+v", runs.Items)
	}
	if r := e.do(t, "GET", "/api/v1/audit?cursor=nope", ""); r.Status != 422 || !slices.Equal(r.Fields(t), []string{"cursor"}) {
		t.Errorf("bad cursor: %d %s", r.Status, r.Body)
	}

	// Events reach the subscriber through the webhook engine: one
	// gap.detected and one opportunity.created per gap opened (the third
	// detection may open another tier on the first query), one event per
	// generation.
	opened := len(e.gaps(t, ""))
	deadline := time.Now().Add(20 * time.Second)
	for rc.count("gap.detected") != opened || rc.count("opportunity.created") != opened ||
		rc.count("content.brief_generated") != 1 || rc.count("content.generated") != 1 {
		if time.Now().After(deadline) {
			rc.mu.Lock()
			t.Fatalf("events received %v", rc.types)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

var (
	tagPattern     = regexp.MustCompile(`(?i)<\s*/?\s*(html|head|body|script|style)\b|\son[a-z]+\s*=|javascript:`)
	headingPattern = regexp.MustCompile(`(?s)<h([2-6])[^>]*>(.*?)</h[2-6]>`)
)

// checkArticle holds the article to the shape rules of issue 10.
func checkArticle(t *testing.T, b opportunities.Brief, c opportunities.Content) {
	t.Helper()
	if c.Title == "" || c.Slug == "" || strings.ContainsAny(c.Slug, " /?#") || c.ContentVersion == "" || c.WordCount < 100 || c.Model != content.OfflineModel {
		t.Errorf("article %+v", c)
	}
	if tagPattern.MatchString(c.BodyHTML) {
		t.Errorf("bodyHtml holds a forbidden element, handler or URL")
	}
	if n := len([]rune(c.MetaDescription)); n == 0 || n > 160 {
		t.Errorf("metaDescription of %d characters", n)
	}
	var headings []string
	for _, m := range headingPattern.FindAllStringSubmatch(c.BodyHTML, -1) {
		headings = append(headings, strings.TrimSpace(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(m[2], "")))
	}
	if !slices.Equal(headings, c.Headings) {
		t.Errorf("headings %q, bodyHtml has %q", c.Headings, headings)
	}
	for _, h := range b.Outline {
		if !slices.Contains(c.Headings, h.Text) {
			t.Errorf("outline heading %q is not in the article", h.Text)
		}
	}
	for _, ent := range b.TargetEntities {
		if !strings.Contains(c.BodyHTML, ent) {
			t.Errorf("target entity %q is not in the article", ent)
		}
	}
	var ld map[string]any
	if err := json.Unmarshal([]byte(c.SchemaJSONLD), &ld); err != nil || ld["@context"] != "https://schema.org" || ld["@type"] != "Article" {
		t.Errorf("schemaJsonLd %s (%v)", c.SchemaJSONLD, err)
	}
}

// Publishing addresses the opportunity's gap, and re-detection keeps it
// addressed while the tier holds; an opportunity is dismissed with its gap
// (idempotent), a published one cannot be (409 invalid_state).
func TestPublishAddressesAndDismissThroughTheAPI(t *testing.T) {
	e := newContentEnv(t, "../gaps/testdata/five-queries.json")
	for _, sq := range stagedQueries[:2] {
		var q struct{ ID int32 }
		e.do(t, "POST", "/api/v1/queries", `{"text":"`+sq.Text+`","platforms":["chatgpt","perplexity"],"brandProfileId":1}`).Decode(t, 201, &q)
		e.run(t, q.ID)
	}
	e.detect(t, "detect-1")
	found := e.gaps(t, "open")
	if len(found) != 2 {
		t.Fatalf("%d open gaps, want 2", len(found))
	}
	published, dismissed := found[0], found[1]
	oppID := published.OpportunityID
	e.job(t, e.accepted(t, "/api/v1/opportunities/"+oppID+"/generate-brief", `{}`))
	e.job(t, e.accepted(t, "/api/v1/opportunities/"+oppID+"/generate-content", `{}`))
	rc := newCMS(t, http.StatusCreated)
	var dest httpapi.DestinationDto
	e.do(t, "POST", "/api/v1/destinations", `{"type":"webhook","name":"Acme blog","url":"`+rc.srv.URL+`"}`).Decode(t, 201, &dest)
	if j := e.job(t, e.accepted(t, "/api/v1/opportunities/"+oppID+"/publish", `{"destinationId":"`+dest.ID+`","mode":"execute"}`)); j.Status != jobs.StatusSucceeded {
		t.Fatalf("publish %+v", j)
	}
	for _, key := range []string{"", "detect-2"} {
		if key != "" {
			e.detect(t, key)
		}
		if got := e.gaps(t, "addressed"); len(got) != 1 || got[0].ID != published.ID {
			t.Fatalf("addressed gaps %+v (detection %q), want %s", got, key, published.ID)
		}
	}

	dismiss := func(id string) apitest.Response {
		return e.do(t, "POST", "/api/v1/opportunities/"+id+"/dismiss", "")
	}
	for i := range 2 {
		var o opportunities.Opportunity
		dismiss(dismissed.OpportunityID).Decode(t, 200, &o)
		if o.Status != opportunities.StatusDismissed {
			t.Fatalf("dismissal %d: %s", i, o.Status)
		}
	}
	if got := e.gaps(t, "dismissed"); len(got) != 1 || got[0].ID != dismissed.ID {
		t.Errorf("dismissed gaps %+v, want %s", got, dismissed.ID)
	}
	if r := dismiss(oppID); r.Status != 409 || r.ErrorCode(t) != httpapi.CodeInvalidState {
		t.Errorf("dismiss a published opportunity: %d %s", r.Status, r.Body)
	}
	if r := dismiss("01zzzzzzzzzzzzzzzzzzzzzzzz"); r.Status != 404 {
		t.Errorf("dismiss an unknown opportunity: %d %s", r.Status, r.Body)
	}
	if r := e.api.Do(t, "POST", "/api/v1/opportunities/"+oppID+"/dismiss", apitest.KeyARead, ""); r.Status != 403 {
		t.Errorf("dismiss with a read key: %d %s", r.Status, r.Body)
	}
}
