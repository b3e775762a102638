package brandcheck_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/brandlens/brandlens/shared/brandcheck"
	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/recaptcha"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamo"
	"github.com/brandlens/brandlens/shared/store/dynamotest"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/validation"
)

func TestMain(m *testing.M) { os.Exit(dynamotest.Main(m)) }

// t0 is 18:00 UTC: six hours before the day's checks reset.
var t0 = time.Date(2026, 11, 22, 18, 0, 0, 0, time.UTC)

const sixHours = 6 * 3600

// fakeVerifier passes "ok", refuses "bad" and is unreachable for "down".
type fakeVerifier struct{ calls atomic.Int64 }

func (f *fakeVerifier) Verify(_ context.Context, token, remoteIP string) (recaptcha.Verdict, error) {
	f.calls.Add(1)
	switch token {
	case "ok":
		return recaptcha.Verdict{V3: true, Score: 0.9, Action: recaptcha.DefaultAction}, nil
	case "down":
		return recaptcha.Verdict{}, &recaptcha.UnavailableError{Reason: "siteverify answered HTTP 503"}
	}
	return recaptcha.Verdict{}, &recaptcha.FailedError{Codes: []string{recaptcha.CodeTimeoutOrDuplicate}}
}

// countingProvider counts the calls that reach a platform.
type countingProvider struct {
	providers.Provider
	calls *atomic.Int64
}

func (c countingProvider) Answer(ctx context.Context, r providers.Request) (providers.Answer, error) {
	c.calls.Add(1)
	return c.Provider.Answer(ctx, r)
}

// hangingProvider answers only when its context ends.
type hangingProvider struct{ platform string }

func (h hangingProvider) Platform() string { return h.platform }
func (h hangingProvider) Answer(ctx context.Context, _ providers.Request) (providers.Answer, error) {
	<-ctx.Done()
	return providers.Answer{}, &providers.Error{Platform: h.platform, Kind: providers.KindTransient, Code: "timeout", Message: "deadline"}
}

type recordingAuditor struct {
	mu     sync.Mutex
	audits []brandcheck.PromptAudit
	fail   bool
}

func (r *recordingAuditor) AuditPrompts(_ context.Context, a brandcheck.PromptAudit) error {
	if r.fail {
		return errors.New("audit store down")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.audits = append(r.audits, a)
	return nil
}

type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

type fixture struct {
	svc      *brandcheck.Service
	tbl      store.Table
	clock    *clock
	verifier *fakeVerifier
	calls    *atomic.Int64
	audit    *recordingAuditor
}

type fixtureOpts struct {
	tbl       func(now func() time.Time) store.Table
	providers providers.Set
	cfg       brandcheck.Config
}

var clientKey = []byte("brand-check-client-key-0123456789abcdef")

func newFixture(t testing.TB, o fixtureOpts) *fixture {
	t.Helper()
	c := &clock{now: t0}
	var tbl store.Table
	if o.tbl != nil {
		tbl = o.tbl(c.Now)
	} else {
		tbl = embedded.NewMemory(embedded.WithClock(c.Now))
	}
	calls := &atomic.Int64{}
	set := providers.Set{}
	src := o.providers
	if src == nil {
		src = providers.Set{}
		for _, pf := range platforms.All {
			src[pf] = providers.NewSimulated(pf)
		}
	}
	for pf, p := range src {
		set[pf] = countingProvider{Provider: p, calls: calls}
	}
	cfg := o.cfg
	cfg.ClientKey = clientKey
	v, a := &fakeVerifier{}, &recordingAuditor{}
	svc, err := brandcheck.New(brandcheck.Deps{Table: tbl, Providers: set, Verifier: v, Auditor: a,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: c.Now}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{svc: svc, tbl: tbl, clock: c, verifier: v, calls: calls, audit: a}
}

func input(brand, site, token string) brandcheck.Input {
	return brandcheck.Input{BrandName: &brand, WebsiteURL: &site, RecaptchaToken: &token}
}

var visitor = brandcheck.Caller{Addr: netip.MustParseAddr("203.0.113.7")}

func TestCheckResponse(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	resp, err := f.svc.Check(context.Background(), input("Acme Notes", "https://www.acmenotes.com/", "ok"), visitor)
	if err != nil {
		t.Fatal(err)
	}
	if resp.BrandName != "Acme Notes" || resp.RequestID == "" || !resp.CompletedAt.Equal(t0) {
		t.Errorf("header members: %+v", resp)
	}
	if resp.VisibilityScore < 0 || resp.VisibilityScore > 100 || resp.Grade == nil || *resp.Grade != brandcheck.Grade(resp.VisibilityScore) {
		t.Errorf("score %d grade %v", resp.VisibilityScore, resp.Grade)
	}
	if len(resp.Platforms) != len(platforms.All) {
		t.Fatalf("%d platforms", len(resp.Platforms))
	}
	mentions := int32(0)
	for i, p := range resp.Platforms {
		if p.Platform != platforms.All[i] || p.Status != brandcheck.StatusSucceeded || p.ErrorMessage != "" {
			t.Errorf("platform %d: %+v", i, p)
		}
		if p.ModelUsed != providers.SimulatedModel || p.CostIncurred != 0 {
			t.Errorf("%s: model %q cost %v", p.Platform, p.ModelUsed, p.CostIncurred)
		}
		if p.MentionCount > 0 && !strings.Contains(p.EvidenceSnippet, "Acme Notes") {
			t.Errorf("%s: %d mentions but evidence %q", p.Platform, p.MentionCount, p.EvidenceSnippet)
		}
		for name, u := range p.CompetitorCitedURLs {
			if !slices.Contains(p.Competitors, name) || !strings.HasPrefix(u, "https://") {
				t.Errorf("%s: cited %s for %s, competitors %v", p.Platform, u, name, p.Competitors)
			}
		}
		mentions += p.MentionCount
	}
	if mentions == 0 {
		t.Error("the brand was never mentioned in 15 simulated answers")
	}
	// The simulated platforms name three invented rivals for a brand without
	// hinted competitors; the check must find them without being told.
	if len(resp.TopCompetitors) == 0 || len(resp.TopCompetitors) > 5 {
		t.Fatalf("top competitors %v", resp.TopCompetitors)
	}
	for _, c := range resp.TopCompetitors {
		if c == "Acme Notes" || strings.Contains(strings.ToLower(c), "wikipedia") {
			t.Errorf("%q is no competitor", c)
		}
	}
	for _, c := range resp.TopCompetitorCitedPages {
		if !slices.Contains(resp.TopCompetitors, c.Name) || c.CitedURL == "" {
			t.Errorf("cited page %+v", c)
		}
	}
	if n := strings.Count(resp.Summary, ". "); n < 1 || n > 2 || !strings.Contains(resp.Summary, "Acme Notes") {
		t.Errorf("summary %q", resp.Summary)
	}
	// Every member of the spec is on the wire, never null where it is a list.
	raw, _ := json.Marshal(resp)
	var m map[string]any
	json.Unmarshal(raw, &m)
	for _, k := range []string{"brandName", "visibilityScore", "grade", "platforms", "topCompetitors",
		"topCompetitorCitedPages", "summary", "hasUpsell", "requestId", "completedAt"} {
		if _, ok := m[k]; !ok {
			t.Errorf("member %s missing", k)
		}
	}
	for _, k := range []string{"platforms", "topCompetitors", "topCompetitorCitedPages"} {
		if m[k] == nil {
			t.Errorf("list %s is null (the OpenAPI document promises it never is)", k)
		}
	}
	p0 := m["platforms"].([]any)[0].(map[string]any)
	for _, k := range []string{"platform", "status", "mentionCount", "evidenceSnippet", "competitors",
		"competitorCitedUrls", "errorMessage", "costIncurred", "modelUsed"} {
		if v, ok := p0[k]; !ok || v == nil {
			t.Errorf("platform member %s missing or null", k)
		}
	}
	text := resp.Text()
	for _, want := range []string{"Brand check: Acme Notes", "Grade: " + *resp.Grade, "ChatGPT", "Google AI Overviews", resp.RequestID} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	// The prompts were audited before they were sent.
	if len(f.audit.audits) != 1 || len(f.audit.audits[0].Prompts) != 15 || f.audit.audits[0].Prompts[0].Text != "best note-taking tools" {
		t.Errorf("audits %+v", f.audit.audits)
	}
}

// TestCheckDailyLimit: refused requests (422, 403, 503) do not count; three
// checks pass and the fourth is refused until the UTC day ends.
func TestCheckDailyLimit(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	ctx := context.Background()
	var ve *validation.Error
	var vf *brandcheck.VerificationError
	var ue *brandcheck.UnavailableError
	if _, err := f.svc.Check(ctx, input("", "https://acme.com", "ok"), visitor); !errors.As(err, &ve) {
		t.Fatalf("422: %v", err)
	}
	if _, err := f.svc.Check(ctx, input("Acme", "https://acme.com", "bad"), visitor); !errors.As(err, &vf) {
		t.Fatalf("403: %v", err)
	}
	if _, err := f.svc.Check(ctx, input("Acme", "https://acme.com", "down"), visitor); !errors.As(err, &ue) || ue.Reason != brandcheck.ReasonVerifier || ue.RetryAfterSeconds() <= 0 {
		t.Fatalf("503: %v", err)
	}
	for i, brand := range []string{"Acme", "Beta", "Gamma"} {
		if _, err := f.svc.Check(ctx, input(brand, "https://"+strings.ToLower(brand)+".com", "ok"), visitor); err != nil {
			t.Fatalf("check %d: %v", i+1, err)
		}
	}
	calls := f.calls.Load()
	_, err := f.svc.Check(ctx, input("Delta", "https://delta.com", "ok"), visitor)
	var rl *brandcheck.RateLimitError
	if !errors.As(err, &rl) || rl.RetryAfterSeconds() != sixHours || rl.Code() != "rate_limit_exceeded" {
		t.Fatalf("4th: %v", err)
	}
	if !strings.Contains(rl.Error(), "6 h 0 min") {
		t.Errorf("message %q", rl.Error())
	}
	if f.calls.Load() != calls {
		t.Error("the refused check called the platforms")
	}
	// Another client is not affected; the same client is again tomorrow.
	if _, err := f.svc.Check(ctx, input("Delta", "https://delta.com", "ok"), brandcheck.Caller{Addr: netip.MustParseAddr("198.51.100.2")}); err != nil {
		t.Fatalf("other client: %v", err)
	}
	f.clock.Set(t0.Add(6*time.Hour + time.Second))
	if _, err := f.svc.Check(ctx, input("Delta", "https://delta.com", "ok"), visitor); err != nil {
		t.Fatalf("next day: %v", err)
	}
}

// TestCheckIPv6Prefix: addresses in one /64 are one client.
func TestCheckIPv6Prefix(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	for i, a := range []string{"2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:ffff::3", "2001:db8:1:2::4"} {
		_, err := f.svc.Check(context.Background(), input("Acme", "https://acme.com", "ok"), brandcheck.Caller{Addr: netip.MustParseAddr(a)})
		var rl *brandcheck.RateLimitError
		if (i < 3) != (err == nil) || (i == 3 && !errors.As(err, &rl)) {
			t.Fatalf("check %d from %s: %v", i+1, a, err)
		}
	}
}

// TestCheckCache: the same brand and host the same day is answered from
// the stored result without calling a platform or spending the budget,
// and still counts as one of the client's checks.
func TestCheckCache(t *testing.T) {
	f := newFixture(t, fixtureOpts{cfg: brandcheck.Config{DailyBudget: 1}})
	ctx := context.Background()
	first, err := f.svc.Check(ctx, input("Acme Notes", "https://acmenotes.com", "ok"), visitor)
	if err != nil {
		t.Fatal(err)
	}
	calls := f.calls.Load()
	other := brandcheck.Caller{Addr: netip.MustParseAddr("198.51.100.9")}
	for i, variant := range []brandcheck.Input{
		input("acme  notes", "https://www.ACMENOTES.com/pricing", "ok"),
		input("ACME NOTES", "http://acmenotes.com", "ok"),
		input("Acme Notes", "https://acmenotes.com", "ok"),
	} {
		again, err := f.svc.Check(ctx, variant, other)
		if err != nil {
			t.Fatalf("cached check %d: %v", i+1, err)
		}
		if again.VisibilityScore != first.VisibilityScore || again.Summary != first.Summary || again.RequestID == first.RequestID {
			t.Errorf("cached answer differs: %+v", again)
		}
	}
	if f.calls.Load() != calls {
		t.Errorf("cached checks called the platforms %d times", f.calls.Load()-calls)
	}
	var rl *brandcheck.RateLimitError
	if _, err := f.svc.Check(ctx, input("Acme Notes", "https://acmenotes.com", "ok"), other); !errors.As(err, &rl) {
		t.Fatalf("a 4th cached check: %v", err)
	}
	// The budget of 1 went to the first check: a new brand is refused.
	var ue *brandcheck.UnavailableError
	_, err = f.svc.Check(ctx, input("Beta", "https://beta.com", "ok"), visitor)
	if !errors.As(err, &ue) || ue.Reason != brandcheck.ReasonBudget || ue.RetryAfterSeconds() != sixHours {
		t.Fatalf("over budget: %v", err)
	}
	// The refusal took none of the client's checks: two remain.
	for i := range 2 {
		if _, err := f.svc.Check(ctx, input("Acme Notes", "https://acmenotes.com", "ok"), visitor); err != nil {
			t.Fatalf("remaining check %d: %v", i+1, err)
		}
	}
	// Tomorrow the cache is cold again.
	f.clock.Set(t0.Add(7 * time.Hour))
	if _, err := f.svc.Check(ctx, input("Acme Notes", "https://acmenotes.com", "ok"), visitor); err != nil {
		t.Fatal(err)
	}
	if f.calls.Load() == calls {
		t.Error("a new day's check was served from yesterday's cache")
	}
}

// TestCheckStoresNoAddress: the stored check names the client only by a
// keyed hash.
func TestCheckStoresNoAddress(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	resp, err := f.svc.Check(context.Background(), input("Acme", "https://acme.com", "ok"), visitor)
	if err != nil {
		t.Fatal(err)
	}
	items, err := store.All(context.Background(), f.tbl, store.Query{PK: "BRANDCHECK#DAY#2026-11-22"})
	if err != nil || len(items) != 1 {
		t.Fatalf("%d items, %v", len(items), err)
	}
	rec, err := store.Doc[brandcheck.Record](items[0])
	if err != nil {
		t.Fatal(err)
	}
	if rec.RequestID != resp.RequestID || rec.ClientHash == "" || rec.Response.VisibilityScore != resp.VisibilityScore || len(rec.Questions) != 3 {
		t.Errorf("record %+v", rec)
	}
	for _, it := range items {
		for k, v := range it {
			if s, ok := v.(string); ok && strings.Contains(s, visitor.Addr.String()) {
				t.Errorf("attribute %s holds the client address", k)
			}
		}
	}
}

func TestCheckAuditFailureSendsNothing(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	f.audit.fail = true
	_, err := f.svc.Check(context.Background(), input("Acme", "https://acme.com", "ok"), visitor)
	var ue *brandcheck.UnavailableError
	if !errors.As(err, &ue) || ue.Reason != brandcheck.ReasonAudit {
		t.Fatalf("err = %v", err)
	}
	if f.calls.Load() != 0 {
		t.Error("unaudited prompts were sent")
	}
}

// TestCheckTimeBudget: a platform that never answers is reported timeout
// when the budget ends; the others still count.
func TestCheckTimeBudget(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		set := providers.Set{}
		for _, pf := range platforms.All {
			set[pf] = providers.NewSimulated(pf)
		}
		set[platforms.Gemini] = hangingProvider{platforms.Gemini}
		f := newFixture(t, fixtureOpts{providers: set, cfg: brandcheck.Config{Budget: 20 * time.Second}})
		f.clock.Set(time.Now()) // the bubble's clock
		start := time.Now()
		resp, err := f.svc.Check(context.Background(), input("Acme", "https://acme.com", "ok"), visitor)
		if err != nil {
			t.Fatal(err)
		}
		if waited := time.Since(start); waited != 20*time.Second {
			t.Errorf("the check took %s of fake time, want the 20 s budget", waited)
		}
		for _, p := range resp.Platforms {
			want := brandcheck.StatusSucceeded
			if p.Platform == platforms.Gemini {
				want = brandcheck.StatusTimeout
			}
			if p.Status != want {
				t.Errorf("%s: status %s, want %s", p.Platform, p.Status, want)
			}
			if p.Platform == platforms.Gemini && (!strings.Contains(p.ErrorMessage, "within 20s") || p.VisibilityScore != 0) {
				t.Errorf("gemini: %+v", p)
			}
		}
		if resp.Grade == nil || !strings.Contains(resp.Summary, "Gemini did not answer") {
			t.Errorf("grade %v summary %q", resp.Grade, resp.Summary)
		}
	})
}

// TestCheckReplayFailure: with one platform failing in replay, the check
// still answers, with that platform's status and message.
func TestCheckReplayFailure(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "replay.json")
	var answers []map[string]any
	for _, q := range brandcheck.Questions("Acme Notes", "acmenotes.com") {
		answers = append(answers,
			map[string]any{"platform": "chatgpt", "query": q.Text,
				"text":      "Popular picks include Acme Notes, Contoso Notes and Fabrikam. Acme Notes is praised for its speed.",
				"citations": []map[string]string{{"url": "https://contoso.com/notes", "title": "Contoso Notes"}}},
			map[string]any{"platform": "claude", "query": q.Text,
				"text": "I don't have reliable information about Acme Notes. Contoso Notes and Fabrikam are widely used."})
	}
	raw, _ := json.Marshal(map[string]any{"answers": answers})
	if err := os.WriteFile(file, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := providers.LoadReplay(file)
	if err != nil {
		t.Fatal(err)
	}
	set := providers.Set{}
	for _, pf := range []string{platforms.ChatGPT, platforms.Perplexity, platforms.Claude} {
		set[pf] = r.Provider(pf)
	}
	f := newFixture(t, fixtureOpts{providers: set, cfg: brandcheck.Config{Platforms: []string{platforms.ChatGPT, platforms.Perplexity, platforms.Claude}}})
	resp, err := f.svc.Check(context.Background(), input("Acme Notes", "https://acmenotes.com", "ok"), visitor)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]brandcheck.PlatformResult{}
	for _, p := range resp.Platforms {
		byName[p.Platform] = p
	}
	gpt, pplx, cl := byName[platforms.ChatGPT], byName[platforms.Perplexity], byName[platforms.Claude]
	if gpt.Status != brandcheck.StatusSucceeded || gpt.MentionCount != 6 || !slices.Contains(gpt.Competitors, "Contoso Notes") ||
		!slices.Contains(gpt.Competitors, "Fabrikam") || gpt.CompetitorCitedURLs["Contoso Notes"] != "https://contoso.com/notes" {
		t.Errorf("chatgpt: %+v", gpt)
	}
	if pplx.Status != brandcheck.StatusFailed || !strings.Contains(pplx.ErrorMessage, "Perplexity has no answer") || pplx.MentionCount != 0 {
		t.Errorf("perplexity: %+v", pplx)
	}
	// "I don't have information about X" is not a mention.
	if cl.Status != brandcheck.StatusSucceeded || cl.MentionCount != 0 || !strings.Contains(cl.EvidenceSnippet, "don't have reliable information") {
		t.Errorf("claude: %+v", cl)
	}
	if len(resp.TopCompetitors) < 2 || resp.TopCompetitors[0] != "Contoso Notes" {
		t.Errorf("top competitors %v", resp.TopCompetitors)
	}
	if want := []brandcheck.CompetitorPage{{Name: "Contoso Notes", CitedURL: "https://contoso.com/notes"}}; !slices.Equal(resp.TopCompetitorCitedPages, want) {
		t.Errorf("cited pages %+v", resp.TopCompetitorCitedPages)
	}
	if !strings.Contains(resp.Summary, "Perplexity did not answer") {
		t.Errorf("summary %q", resp.Summary)
	}
	// A check with a failed platform is not cached: the next one asks again.
	calls := f.calls.Load()
	if _, err := f.svc.Check(context.Background(), input("Acme Notes", "https://acmenotes.com", "ok"), visitor); err != nil {
		t.Fatal(err)
	}
	if f.calls.Load() == calls {
		t.Error("a partial result was cached")
	}
}

// TestCheckConcurrentLimit: 20 concurrent checks from one address admit
// exactly 3, on both backends.
func TestCheckConcurrentLimit(t *testing.T) {
	backends := []struct {
		name string
		tbl  func(t *testing.T) func(now func() time.Time) store.Table
	}{
		{"embedded", func(*testing.T) func(now func() time.Time) store.Table { return nil }},
		{"dynamodb", func(t *testing.T) func(now func() time.Time) store.Table {
			client := dynamotest.Start(t)
			name := dynamotest.NewTable(t, client)
			return func(now func() time.Time) store.Table { return dynamo.New(client, name, dynamo.WithClock(now)) }
		}},
	}
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			f := newFixture(t, fixtureOpts{tbl: b.tbl(t)})
			var ok, limited, other atomic.Int64
			var wg sync.WaitGroup
			for i := range 20 {
				wg.Go(func() {
					brand := []string{"Acme", "Beta", "Gamma", "Delta"}[i%4]
					_, err := f.svc.Check(context.Background(), input(brand, "https://"+strings.ToLower(brand)+".com", "ok"), visitor)
					var rl *brandcheck.RateLimitError
					switch {
					case err == nil:
						ok.Add(1)
					case errors.As(err, &rl):
						limited.Add(1)
					default:
						other.Add(1)
						t.Errorf("unexpected: %v", err)
					}
				})
			}
			wg.Wait()
			if ok.Load() != 3 || limited.Load() != 17 {
				t.Fatalf("admitted %d, limited %d, other %d", ok.Load(), limited.Load(), other.Load())
			}
		})
	}
}

func TestGrade(t *testing.T) {
	cases := []struct {
		score int32
		want  string
	}{{100, "A"}, {80, "A"}, {79, "B"}, {60, "B"}, {59, "C"}, {40, "C"}, {39, "D"}, {20, "D"}, {19, "F"}, {0, "F"}}
	for _, tc := range cases {
		if got := brandcheck.Grade(tc.score); got != tc.want {
			t.Errorf("Grade(%d) = %s, want %s", tc.score, got, tc.want)
		}
	}
}

func TestConfigFromEnv(t *testing.T) {
	cases := []struct {
		name    string
		env     map[string]string
		wantErr bool
		check   func(brandcheck.Config) bool
	}{
		{name: "defaults", env: map[string]string{}, check: func(c brandcheck.Config) bool {
			return c.Budget == 20*time.Second && c.ClientDailyLimit == 3 && c.DailyBudget == brandcheck.DefaultDailyBudget && c.Platforms == nil
		}},
		{name: "set", env: map[string]string{brandcheck.EnvPlatforms: "chatgpt, claude,chatgpt", brandcheck.EnvBudget: "15s", brandcheck.EnvDailyBudget: "50"},
			check: func(c brandcheck.Config) bool {
				return slices.Equal(c.Platforms, []string{"chatgpt", "claude"}) && c.Budget == 15*time.Second && c.DailyBudget == 50
			}},
		{name: "copilot", env: map[string]string{brandcheck.EnvPlatforms: "copilot"}, wantErr: true},
		{name: "budget beyond API Gateway", env: map[string]string{brandcheck.EnvBudget: "30s"}, wantErr: true},
		{name: "budget not a number", env: map[string]string{brandcheck.EnvDailyBudget: "many"}, wantErr: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := brandcheck.ConfigFromEnv(func(k string) string { return tc.env[k] })
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v", err)
			}
			if err == nil && !tc.check(c) {
				t.Errorf("config %+v", c)
			}
		})
	}
}
