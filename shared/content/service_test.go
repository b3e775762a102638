package content_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/content"
	"github.com/brandlens/brandlens/shared/credits"
	"github.com/brandlens/brandlens/shared/gaps"
	"github.com/brandlens/brandlens/shared/gaps/gapstest"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/meter"
	"github.com/brandlens/brandlens/shared/models"
	"github.com/brandlens/brandlens/shared/opportunities"
	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamotest"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/store/storetest"
	"github.com/brandlens/brandlens/statemachines"
)

func TestMain(m *testing.M) { dynamotest.Main(m) }

// recorder passes calls to a generator and remembers every prompt.
type recorder struct {
	next models.Generator
	mu   sync.Mutex
	sent [][]models.Message
}

func (r *recorder) Generate(ctx context.Context, req models.Request) (models.Response, error) {
	r.mu.Lock()
	r.sent = append(r.sent, slices.Clone(req.Messages))
	r.mu.Unlock()
	return r.next.Generate(ctx, req)
}

// world is a tenant with detected gaps and a content service on gen.
type world struct {
	*gapstest.Env
	svc  *content.Service
	rec  *recorder
	opps map[gaps.Tier]opportunities.Opportunity
	// staged is the ledger before the detection (after the staging runs).
	staged credits.Balance
}

func newWorld(t *testing.T, tbl store.Table, clock *storetest.Clock, gen models.Generator) *world {
	t.Helper()
	e := gapstest.New(t, tbl, clock, 100)
	b, err := os.ReadFile("../gaps/testdata/five-queries.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"best markdown editor for developers", "best team wiki", "note app with offline sync"} {
		q := e.AddQuery(t, text)
		e.Record(t, string(b), q.ID, 2)
	}
	rec := &recorder{next: gen}
	w := &world{Env: e, rec: rec, opps: map[gaps.Tier]opportunities.Opportunity{}}
	w.svc = content.NewService(tbl, e.Tenants, e.Competitors, rec, gaps.Defaults, clock.Now)
	for k, h := range w.svc.Handlers() {
		e.Handlers[k] = h
	}
	w.staged = e.Balance(t)
	if j, _ := e.Detect(t, statemachines.GapDetection); j.Status != jobs.StatusSucceeded {
		t.Fatalf("detection: %s", j.Status)
	}
	os, _, err := opportunities.NewRepo(tbl).List(context.Background(), e.TenantID, "", 50, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range os {
		w.opps[gaps.Tier(o.Tier)] = o
	}
	return w
}

func (w *world) brief(t *testing.T, oppID, format string) jobs.Job {
	t.Helper()
	req, err := w.svc.BriefRequest(w.TenantID, oppID, format, w.Actor)
	if err != nil {
		t.Fatal(err)
	}
	return w.RunJob(t, statemachines.ContentGeneration, content.Substitutions, req)
}

func (w *world) article(t *testing.T, oppID string, persona *string) jobs.Job {
	t.Helper()
	req, err := w.svc.ArticleRequest(w.TenantID, oppID, persona, w.Actor)
	if err != nil {
		t.Fatal(err)
	}
	return w.RunJob(t, statemachines.ContentGeneration, content.Substitutions, req)
}

func (w *world) opportunity(t *testing.T, id string) opportunities.Opportunity {
	t.Helper()
	o, err := opportunities.NewRepo(w.Table).Get(context.Background(), w.TenantID, id)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// Brief then article on the offline generator, through the
// content-generation workflow: both are stored on the opportunity with the
// lifecycle moving open → brief_ready → content_ready, 2 + 10 credits are
// captured (5 for the detection before), the article keeps every shape
// rule, and the audit log holds the exact prompts of both generations.
func TestBriefThenArticleOffline(t *testing.T) {
	t.Parallel() // waits on DynamoDB Local: overlap it with the other such tests
	gapstest.Backends(t, func(t *testing.T, tbl store.Table, clock *storetest.Clock) {
		ctx := context.Background()
		w := newWorld(t, tbl, clock, content.NewOffline())
		opp := w.opps[gaps.TierCompetitorDominated]
		start := w.Balance(t)

		bj := w.brief(t, opp.ID, "")
		if bj.Status != jobs.StatusSucceeded || bj.CreditsCharged != meter.PriceBriefGeneration {
			t.Fatalf("brief job: %s, charged %d, error %v", bj.Status, bj.CreditsCharged, bj.Error)
		}
		o := w.opportunity(t, opp.ID)
		if o.Status != opportunities.StatusBriefReady || o.Brief == nil || o.Content != nil {
			t.Fatalf("after the brief: status %s, brief %v", o.Status, o.Brief != nil)
		}
		checkBrief(t, *o.Brief, opp)

		w.Clock.Advance(time.Second)
		persona := "a product manager who has rolled out wikis at three companies"
		aj := w.article(t, opp.ID, &persona)
		if aj.Status != jobs.StatusSucceeded || aj.CreditsCharged != meter.PriceContentGeneration {
			t.Fatalf("article job: %s, charged %d, error %v", aj.Status, aj.CreditsCharged, aj.Error)
		}
		o = w.opportunity(t, opp.ID)
		if o.Status != opportunities.StatusContentReady || o.Content == nil {
			t.Fatalf("after the article: status %s", o.Status)
		}
		checkArticle(t, *o.Brief, *o.Content, "Article")
		if o.Content.Persona != persona {
			t.Errorf("persona %q", o.Content.Persona)
		}
		end := w.Balance(t)
		if got := end.Captured - start.Captured; got != 12 || end.Held != 0 {
			t.Errorf("captured %d credits for brief + article, want 12 (held %d)", got, end.Held)
		}
		if got := end.Captured - w.staged.Captured; got != 5+2+10 {
			t.Errorf("captured %d since staging, want 5 + 2 + 10", got)
		}

		// The audit log holds the exact prompts sent, and the responses.
		page, err := w.Audit.List(ctx, w.TenantID, audit.Filter{Action: "model.generate", Resource: audit.Resource("opportunity", opp.ID)})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Items) != 2 || len(w.rec.sent) != 2 {
			t.Fatalf("%d model.generate entries for %d calls, want 2", len(page.Items), len(w.rec.sent))
		}
		for i, e := range page.Items {
			sent := w.rec.sent[len(w.rec.sent)-1-i] // entries are newest first (the clock moved between the jobs)
			if e.Model == nil || !slices.Equal(e.Model.Prompt, sent) || e.Outcome != audit.OutcomeSucceeded {
				t.Errorf("entry %d does not hold the prompt sent verbatim", i)
				continue
			}
			if e.Model.Model != content.OfflineModel || e.Model.Response == "" || e.Model.InputTokens == 0 || e.Model.OutputTokens == 0 ||
				e.Actor != w.Actor || e.JobID == "" {
				t.Errorf("entry %d: %+v", i, e.Model)
			}
			if e.Model.Prompt[0].Role != models.RoleSystem || e.Model.Prompt[1].Role != models.RoleUser {
				t.Errorf("entry %d: roles %s, %s", i, e.Model.Prompt[0].Role, e.Model.Prompt[1].Role)
			}
		}
		if n := w.CountEvents(t, outbox.ContentBriefGenerated); n != 1 {
			t.Errorf("%d content.brief_generated events", n)
		}
		if n := w.CountEvents(t, outbox.ContentGenerated); n != 1 {
			t.Errorf("%d content.generated events", n)
		}

		// A second article is a new version of the same opportunity.
		first := o.Content.ContentVersion
		w.Clock.Advance(time.Second)
		if j := w.article(t, opp.ID, nil); j.Status != jobs.StatusSucceeded {
			t.Fatalf("second article: %s", j.Status)
		}
		o = w.opportunity(t, opp.ID)
		if o.Content.ContentVersion == first || o.Content.Persona != content.DefaultPersona {
			t.Errorf("second article: version %s (first %s), persona %q", o.Content.ContentVersion, first, o.Content.Persona)
		}
	})
}

func checkBrief(t *testing.T, b opportunities.Brief, opp opportunities.Opportunity) {
	t.Helper()
	if b.ContentFormat != content.FormatArticle || b.Title == "" || b.Model != content.OfflineModel || b.GeneratedAt.IsZero() {
		t.Errorf("brief: %+v", b)
	}
	if !slices.Equal(b.TargetQueries, []string{opp.QueryText}) {
		t.Errorf("target queries %v", b.TargetQueries)
	}
	if !slices.Contains(b.TargetEntities, "Acme Notes") || !slices.Contains(b.TargetEntities, "Notion") {
		t.Errorf("target entities %v: want the brand and the competitor out-ranking it", b.TargetEntities)
	}
	if len(b.Outline) < 3 || b.Outline[0].Level != 2 || len(b.Questions) == 0 || len(b.Facts) == 0 ||
		b.WordCount < content.MinWordCount || b.WordCount > content.MaxWordCount {
		t.Errorf("brief plan: outline %v, questions %v, facts %v, words %d", b.Outline, b.Questions, b.Facts, b.WordCount)
	}
	for _, h := range b.Outline {
		if h.Level != 2 && h.Level != 3 {
			t.Errorf("outline level %d", h.Level)
		}
	}
	if !slices.ContainsFunc(b.CompetitorPages, func(p opportunities.CompetitorPage) bool {
		return p.Name == "Notion" && strings.HasPrefix(p.URL, "https://www.notion.so/") && p.Title != ""
	}) {
		t.Errorf("competitor pages %+v: want the Notion pages the answers cite", b.CompetitorPages)
	}
}

var slugShape = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// checkArticle checks every shape rule of an article.
func checkArticle(t *testing.T, b opportunities.Brief, c opportunities.Content, schemaType string) {
	t.Helper()
	lower := strings.ToLower(c.BodyHTML)
	for _, bad := range []string{"<html", "<head", "<body", "<script", "<style", "javascript:", " on"} {
		if strings.Contains(lower, bad) && !(bad == " on" && !regexp.MustCompile(`<[^>]+\son\w+=`).MatchString(lower)) {
			t.Errorf("body contains %q", bad)
		}
	}
	if got := headingsOf(t, c.BodyHTML); !slices.Equal(got, c.Headings) {
		t.Errorf("headings %q, body has %q", c.Headings, got)
	}
	for _, h := range b.Outline {
		if !slices.ContainsFunc(c.Headings, func(x string) bool { return strings.EqualFold(x, h.Text) }) {
			t.Errorf("outline heading %q missing from %q", h.Text, c.Headings)
		}
	}
	text := strings.ToLower(textOf(t, c.BodyHTML))
	for _, e := range b.TargetEntities {
		if !strings.Contains(text, strings.ToLower(e)) {
			t.Errorf("target entity %q not in the body", e)
		}
	}
	if n := utf8.RuneCountInString(c.MetaDescription); n == 0 || n > 160 {
		t.Errorf("meta description of %d characters", n)
	}
	var ld map[string]any
	if err := json.Unmarshal([]byte(c.SchemaJSONLD), &ld); err != nil {
		t.Fatalf("schemaJsonLd is not JSON: %v", err)
	}
	if ld["@context"] != "https://schema.org" || ld["@type"] != schemaType {
		t.Errorf("JSON-LD @context %v @type %v, want %s", ld["@context"], ld["@type"], schemaType)
	}
	if !slugShape.MatchString(c.Slug) || c.Title == "" || c.ContentVersion == "" || c.WordCount < 100 || !slices.Equal(c.TargetEntities, b.TargetEntities) {
		t.Errorf("content: slug %q, title %q, version %q, words %d", c.Slug, c.Title, c.ContentVersion, c.WordCount)
	}
}

// headingsOf lists the h2–h6 texts of a fragment with the HTML tokenizer.
func headingsOf(t *testing.T, fragment string) []string {
	t.Helper()
	z := html.NewTokenizer(strings.NewReader(fragment))
	var out []string
	depth := 0
	var cur strings.Builder
	for {
		switch z.Next() {
		case html.ErrorToken:
			return out
		case html.StartTagToken:
			if n, _ := z.TagName(); len(n) == 2 && n[0] == 'h' && n[1] >= '2' && n[1] <= '6' {
				depth++
				cur.Reset()
			}
		case html.EndTagToken:
			if n, _ := z.TagName(); len(n) == 2 && n[0] == 'h' && n[1] >= '2' && n[1] <= '6' && depth > 0 {
				depth--
				out = append(out, strings.Join(strings.Fields(cur.String()), " "))
			}
		case html.TextToken:
			if depth > 0 {
				cur.Write(z.Text())
			}
		}
	}
}

func textOf(t *testing.T, fragment string) string {
	t.Helper()
	z := html.NewTokenizer(strings.NewReader(fragment))
	var b strings.Builder
	for {
		switch z.Next() {
		case html.ErrorToken:
			return b.String()
		case html.TextToken:
			b.Write(z.Text())
			b.WriteByte(' ')
		}
	}
}

// Every format gives a brief and an article that keep the shape rules; faq
// pages carry FAQPage markup with one Question per question heading.
func TestEveryFormat(t *testing.T) {
	for _, f := range content.Formats {
		t.Run(f, func(t *testing.T) {
			clock := storetest.NewClock(gapstest.Start)
			w := newWorld(t, embedded.NewMemory(embedded.WithClock(clock.Now)), clock, content.NewOffline())
			opp := w.opps[gaps.TierNoMention]
			if j := w.brief(t, opp.ID, f); j.Status != jobs.StatusSucceeded {
				t.Fatalf("brief: %s %v", j.Status, j.Error)
			}
			if j := w.article(t, opp.ID, nil); j.Status != jobs.StatusSucceeded {
				t.Fatalf("article: %s %v", j.Status, j.Error)
			}
			o := w.opportunity(t, opp.ID)
			if o.Brief.ContentFormat != f {
				t.Errorf("format %s", o.Brief.ContentFormat)
			}
			want := "Article"
			if f == content.FormatFAQ {
				want = "FAQPage"
			}
			checkArticle(t, *o.Brief, *o.Content, want)
			if f == content.FormatFAQ {
				var ld struct {
					MainEntity []struct {
						Type           string `json:"@type"`
						Name           string `json:"name"`
						AcceptedAnswer struct {
							Text string `json:"text"`
						} `json:"acceptedAnswer"`
					} `json:"mainEntity"`
				}
				if err := json.Unmarshal([]byte(o.Content.SchemaJSONLD), &ld); err != nil {
					t.Fatal(err)
				}
				if len(ld.MainEntity) != len(o.Brief.Outline) {
					t.Errorf("%d questions in FAQPage for %d headings", len(ld.MainEntity), len(o.Brief.Outline))
				}
				for _, q := range ld.MainEntity {
					if q.Type != "Question" || !strings.HasSuffix(q.Name, "?") || q.AcceptedAnswer.Text == "" {
						t.Errorf("question %+v", q)
					}
				}
			}
		})
	}
}

// failing fails its first n calls with err, then asks next.
type failing struct {
	next models.Generator
	err  error
	mu   sync.Mutex
	n    int
}

func (f *failing) Generate(ctx context.Context, req models.Request) (models.Response, error) {
	f.mu.Lock()
	fail := f.n > 0
	f.n--
	f.mu.Unlock()
	if fail {
		return models.Response{}, f.err
	}
	return f.next.Generate(ctx, req)
}

// A generation that fails costs 0 and leaves the opportunity where it was;
// a retryable failure is retried by the workflow; each failed call is in
// the audit log.
func TestFailedGenerationCostsNothing(t *testing.T) {
	cases := []struct {
		name   string
		err    error
		fails  int
		status string
	}{
		{"auth fails for good", &models.Error{Vendor: "openai", Model: "gpt-5.5", Kind: models.KindAuth, Status: 401, Message: "bad key"}, 1, jobs.StatusFailed},
		{"truncated fails for good", &models.Error{Vendor: "anthropic", Model: "claude-sonnet-4-6", Kind: models.KindTruncated, Message: "max_tokens"}, 1, jobs.StatusFailed},
		{"rate limit is retried", &models.Error{Vendor: "gemini", Model: "gemini-3.5-flash", Kind: models.KindRateLimited, Status: 429}, 2, jobs.StatusSucceeded},
		{"overload exhausts the retries", &models.Error{Vendor: "anthropic", Model: "claude-sonnet-4-6", Kind: models.KindOverloaded, Status: 529}, 10, jobs.StatusFailed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			clock := storetest.NewClock(gapstest.Start)
			gen := &failing{next: content.NewOffline(), err: tc.err}
			w := newWorld(t, embedded.NewMemory(embedded.WithClock(clock.Now)), clock, gen)
			opp := w.opps[gaps.TierLowVisibility]
			before := w.Balance(t)
			gen.n = tc.fails
			j := w.brief(t, opp.ID, content.FormatHowTo)
			if j.Status != tc.status {
				t.Fatalf("job %s, want %s (error %v)", j.Status, tc.status, j.Error)
			}
			after := w.Balance(t)
			o := w.opportunity(t, opp.ID)
			failed, err := w.Audit.List(ctx, w.TenantID, audit.Filter{Action: "model.generate"})
			if err != nil {
				t.Fatal(err)
			}
			nFailed := 0
			for _, e := range failed.Items {
				if e.Outcome == audit.OutcomeFailed && e.Model != nil && e.Model.Error != "" && len(e.Model.Prompt) == 2 {
					nFailed++
				}
			}
			if tc.status == jobs.StatusFailed {
				if j.CreditsCharged != 0 || after.Captured != before.Captured || after.Available != before.Available || after.Held != 0 {
					t.Errorf("a failed brief charged %d (captured %d→%d, available %d→%d)", j.CreditsCharged, before.Captured, after.Captured, before.Available, after.Available)
				}
				if o.Status != opportunities.StatusOpen || o.Brief != nil {
					t.Errorf("opportunity after a failed brief: %s", o.Status)
				}
				if j.Error == nil || !strings.Contains(*j.Error, string(tc.err.(*models.Error).Kind)) {
					t.Errorf("job error %v", j.Error)
				}
			} else if o.Status != opportunities.StatusBriefReady || after.Captured-before.Captured != 2 {
				t.Errorf("retried brief: status %s, captured %d", o.Status, after.Captured-before.Captured)
			}
			if wantFailed := min(tc.fails, 4); nFailed != wantFailed {
				t.Errorf("%d failed model calls audited, want %d", nFailed, wantFailed)
			}
		})
	}
}

// A write on an opportunity in the wrong state is refused before anything
// is stored (409 invalid_state at the API); a job whose opportunity moves
// on before it runs fails at 0 credits.
func TestWrongState(t *testing.T) {
	ctx := context.Background()
	clock := storetest.NewClock(gapstest.Start)
	w := newWorld(t, embedded.NewMemory(embedded.WithClock(clock.Now)), clock, content.NewOffline())
	opp := w.opps[gaps.TierNoMention]

	req, err := w.svc.ArticleRequest(w.TenantID, opp.ID, nil, w.Actor)
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.Meter.Create(ctx, req)
	var se *opportunities.StateError
	if !errors.As(err, &se) || !errors.Is(err, opportunities.ErrInvalidState) || se.Status != opportunities.StatusOpen {
		t.Fatalf("article on an open opportunity: %v", err)
	}
	if _, err := w.svc.BriefRequest(w.TenantID, opp.ID, "poem", w.Actor); !errors.Is(err, content.ErrInvalidFormat) {
		t.Errorf("format poem: %v", err)
	}
	long := strings.Repeat("x", content.MaxPersona+1)
	if _, err := w.svc.ArticleRequest(w.TenantID, opp.ID, &long, w.Actor); !errors.Is(err, content.ErrInvalidPersona) {
		t.Errorf("long persona: %v", err)
	}
	req, _ = w.svc.BriefRequest(w.TenantID, "01zzzzzzzzzzzzzzzzzzzzzzzz", "", w.Actor)
	if _, err := w.Meter.Create(ctx, req); !errors.Is(err, opportunities.ErrNotFound) {
		t.Errorf("unknown opportunity: %v", err)
	}

	// Accepted, then the gap (and its opportunity) is dismissed before the job runs.
	req, _ = w.svc.BriefRequest(w.TenantID, opp.ID, "", w.Actor)
	a, err := w.Meter.Create(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Gaps.Dismiss(ctx, w.TenantID, opp.ID, w.Actor); err != nil {
		t.Fatal(err)
	}
	before := w.Balance(t)
	j := w.Execute(t, statemachines.ContentGeneration, content.Substitutions, a.Job)
	after := w.Balance(t)
	if j.Status != jobs.StatusFailed || j.CreditsCharged != 0 || after.Captured != before.Captured || after.Held != 0 {
		t.Errorf("brief of a dismissed opportunity: %s, charged %d", j.Status, j.CreditsCharged)
	}
	if o := w.opportunity(t, opp.ID); o.Status != opportunities.StatusDismissed || o.Brief != nil {
		t.Errorf("dismissed opportunity: %s", o.Status)
	}
	g, err := w.Gaps.Get(ctx, w.TenantID, opp.GapID)
	if err != nil || g.Status != gaps.StatusDismissed {
		t.Errorf("gap after dismissal: %v %v", g.Status, err)
	}
	// A new brief request is refused outright now.
	req, _ = w.svc.BriefRequest(w.TenantID, opp.ID, "", w.Actor)
	if _, err := w.Meter.Create(ctx, req); !errors.Is(err, opportunities.ErrInvalidState) {
		t.Errorf("brief of a dismissed opportunity: %v", err)
	}
}

// A step delivered twice asks the model once and writes once.
func TestDuplicateStepDelivery(t *testing.T) {
	ctx := context.Background()
	clock := storetest.NewClock(gapstest.Start)
	w := newWorld(t, embedded.NewMemory(embedded.WithClock(clock.Now)), clock, content.NewOffline())
	opp := w.opps[gaps.TierCompetitorDominated]
	req, _ := w.svc.BriefRequest(w.TenantID, opp.ID, "", w.Actor)
	a, err := w.Meter.Create(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	in := meter.Message{JobID: a.Job.ID, TenantID: w.TenantID, Type: a.Job.Type}
	r1, err := w.svc.BriefStep(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	calls := len(w.rec.sent)
	r2, err := w.svc.BriefStep(ctx, in)
	if err != nil || r1 != r2 || len(w.rec.sent) != calls {
		t.Errorf("second delivery: %+v vs %+v, %v; model calls %d → %d", r1, r2, err, calls, len(w.rec.sent))
	}
	if n := w.CountEvents(t, outbox.ContentBriefGenerated); n != 1 {
		t.Errorf("%d content.brief_generated events", n)
	}
}

// hook runs before passing a call on.
type hook struct {
	next   models.Generator
	before func()
}

func (h hook) Generate(ctx context.Context, req models.Request) (models.Response, error) {
	h.before()
	return h.next.Generate(ctx, req)
}

// The opportunity is dismissed while the model writes: the job fails at 0
// credits, nothing is stored on the opportunity, and the call that did
// answer is in the audit log.
func TestStateChangesDuringGeneration(t *testing.T) {
	ctx := context.Background()
	clock := storetest.NewClock(gapstest.Start)
	var dismiss func()
	w := newWorld(t, embedded.NewMemory(embedded.WithClock(clock.Now)), clock, hook{next: content.NewOffline(), before: func() { dismiss() }})
	opp := w.opps[gaps.TierNoMention]
	dismiss = func() {
		if _, err := w.Gaps.Dismiss(ctx, w.TenantID, opp.ID, w.Actor); err != nil {
			t.Error(err)
		}
	}
	before := w.Balance(t)
	j := w.brief(t, opp.ID, "")
	after := w.Balance(t)
	if j.Status != jobs.StatusFailed || j.CreditsCharged != 0 || after.Captured != before.Captured {
		t.Fatalf("job %s, charged %d", j.Status, j.CreditsCharged)
	}
	if o := w.opportunity(t, opp.ID); o.Status != opportunities.StatusDismissed || o.Brief != nil {
		t.Errorf("opportunity %s, brief %v", o.Status, o.Brief != nil)
	}
	page, err := w.Audit.List(ctx, w.TenantID, audit.Filter{Action: "model.generate"})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) != 1 || page.Items[0].Outcome != audit.OutcomeFailed || page.Items[0].Model.Response == "" ||
		!strings.Contains(page.Items[0].Detail, "dismissed") {
		t.Errorf("audit %+v", page.Items)
	}
}
