package app_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/recaptcha"
	"github.com/brandlens/brandlens/shared/seed"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/embedded"
)

const key = "local-key-acme-publish-0001"

// serveLocal runs the whole local runtime (queues, workflow runner, steps,
// outbox) behind a real HTTP server, as `brandlens serve` does, with the
// providers of mode (simulated, or replay of testdata/replay.json).
func serveLocal(t *testing.T, mode string, platforms []string) string {
	t.Helper()
	env := map[string]string{"BRANDLENS_PROVIDERS": mode, "BRANDLENS_REPLAY_FILE": "testdata/replay.json"}
	provs, err := providers.FromEnv(func(k string) string { return env[k] }, nil)
	if err != nil {
		t.Fatal(err)
	}
	url, _ := serveLocalWith(t, provs, platforms)
	return url
}

// serveLocalWith is serveLocal with a given provider set; it also returns
// the table behind the server.
func serveLocalWith(t *testing.T, provs providers.Set, platforms []string) (string, store.Table) {
	t.Helper()
	tbl := embedded.NewMemory()
	rt, err := app.NewLocal(app.LocalOptions{Table: tbl, KeySecret: []byte("0123456789abcdef0123456789abcdef"),
		Providers: provs, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)), BrandCheck: app.BrandCheckOptions{Verifier: recaptcha.Bypass{}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	f := seed.File{Tenants: []seed.Tenant{{Name: "Acme Notes", Credits: 100,
		Brand:       &seed.Brand{Name: "Acme Notes", Domains: []string{"acmenotes.com"}},
		Competitors: []seed.Brand{{Name: "Notion"}, {Name: "Evernote"}},
		Queries:     []seed.Query{{Text: "best note taking app", Platforms: platforms}},
		APIKeys:     []seed.APIKey{{Key: key, Scopes: []string{"publish"}}}}}}
	if _, err := seed.Apply(ctx, rt.Services.Repos, f); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- rt.Run(ctx) }()
	srv := httptest.NewServer(rt.API)
	t.Cleanup(func() {
		srv.Close()
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	return srv.URL, tbl
}

func call(t *testing.T, method, url, body string, out any) int {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("X-API-Key", key)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if out != nil {
		if err := json.NewDecoder(res.Body).Decode(out); err != nil {
			t.Fatal(err)
		}
	}
	return res.StatusCode
}

// runJob posts a run and polls the job until it ends.
func runJob(t *testing.T, base, body string) jobs.Job {
	t.Helper()
	var acc httpapi.JobAccepted
	if s := call(t, "POST", base+"/api/v1/queries/1/run", body, &acc); s != 202 || acc.Status != "queued" {
		t.Fatalf("run: %d %+v", s, acc)
	}
	deadline := time.Now().Add(20 * time.Second)
	seen := map[string]bool{}
	for time.Now().Before(deadline) {
		var j jobs.Job
		call(t, "GET", base+"/api/v1/jobs/"+acc.JobID, "", &j)
		seen[j.Status] = true
		if jobs.Terminal(j.Status) {
			return j
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("job %s did not finish; statuses seen %v", acc.JobID, seen)
	return jobs.Job{}
}

func TestLocalRunWithSimulatedProviders(t *testing.T) {
	base := serveLocal(t, providers.ModeSimulated, []string{"chatgpt", "perplexity", "gemini", "claude", "google_ai_overview"})
	j := runJob(t, base, `{"samples":2}`)
	if j.Status != jobs.StatusSucceeded || j.CreditsCharged != 10 {
		t.Fatalf("job %+v", j)
	}
	var c httpapi.CreditInfo
	call(t, "GET", base+"/api/v1/me/credits", "", &c)
	if c.Captured != 10 || c.Held != 0 || c.CreditsBalance != 90 {
		t.Fatalf("credits %+v", c)
	}
	var page httpapi.CitationPage
	call(t, "GET", base+"/api/v1/citations?pageSize=100", "", &page)
	if len(page.Items) == 0 {
		t.Fatal("no citations recorded")
	}
}

func TestLocalRunPartialWithReplay(t *testing.T) {
	base := serveLocal(t, providers.ModeReplay, []string{"chatgpt", "perplexity", "google_ai_overview"})
	j := runJob(t, base, `{}`)
	if j.Status != jobs.StatusPartial || j.CreditsCharged != 2 {
		t.Fatalf("job %+v", j)
	}
	p := j.PerPlatformStatus["perplexity"]
	if p.Status != jobs.StatusFailed || p.Error == nil || !strings.Contains(*p.Error, "perplexity") || p.Cost != 0 {
		t.Fatalf("perplexity: %+v", p)
	}
	for _, pl := range []string{"chatgpt", "google_ai_overview"} {
		if s := j.PerPlatformStatus[pl]; s.Status != jobs.StatusSucceeded || s.Cost != 1 {
			t.Fatalf("%s: %+v", pl, s)
		}
	}
	if r := j.PerPlatformStatus["chatgpt"].MentionRate; r == nil || r.Value != 1 {
		t.Fatalf("chatgpt mention rate %+v", j.PerPlatformStatus["chatgpt"].MentionRate)
	}
	var c httpapi.CreditInfo
	call(t, "GET", base+"/api/v1/me/credits", "", &c)
	if c.Captured != 2 || c.Held != 0 || c.CreditsBalance != 98 {
		t.Fatalf("only the succeeded platforms are charged: %+v", c)
	}
	var page httpapi.CitationPage
	call(t, "GET", base+"/api/v1/citations?platform=google_ai_overview&sourceType=organic_search", "", &page)
	if len(page.Items) != 1 || *page.Items[0].URL != "https://acmenotes.com" || !page.Items[0].AIOverviewDetected {
		t.Fatalf("organic citation: %+v", page.Items)
	}
	call(t, "GET", base+"/api/v1/citations?platform=chatgpt&hasMention=true", "", &page)
	if len(page.Items) != 3 {
		t.Fatalf("chatgpt citations: %d", len(page.Items))
	}
}
