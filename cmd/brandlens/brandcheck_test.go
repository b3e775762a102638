package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/brandcheck"
	"github.com/brandlens/brandlens/shared/emulator"
	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/recaptcha"
)

// The brand check as `brandlens serve` serves it: the same serve function
// as the command, on the embedded store in a temporary directory, without
// a reCAPTCHA secret (so with the local bypass), on a free loopback port.

// serveBrandCheck starts brandlens serve for one test; env adds settings
// (name, value pairs) to a clean environment.
func serveBrandCheck(t *testing.T, env ...string) served {
	t.Helper()
	clean := map[string]string{
		"BRANDLENS_TABLE": "", "BRANDLENS_STORE": "", "BRANDLENS_KEY_SECRET": "", "BRANDLENS_SEED_FILE": "",
		"BRANDLENS_SCHEDULER_INTERVAL": "0s", "BRANDLENS_PROVIDERS": "", "BRANDLENS_REPLAY_FILE": "",
		recaptcha.EnvSecret: "", recaptcha.EnvLambdaFunction: "", brandcheck.EnvPlatforms: "", brandcheck.EnvOriginSecret: "",
		"BRANDLENS_BRANDCHECK_SECRET": "",
	}
	for i := 0; i+1 < len(env); i += 2 {
		clean[env[i]] = env[i+1]
	}
	for k, v := range clean {
		t.Setenv(k, v)
	}
	return startServeArgs(t, "--data-dir", filepath.Join(t.TempDir(), "data"))
}

func postCheck(t *testing.T, base, body string, hdr ...string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+"/api/v1/brand-check", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, b
}

func bypassBody(brand, site string) string {
	b, _ := json.Marshal(map[string]string{"brandName": brand, "websiteUrl": site, "recaptchaToken": recaptcha.BypassToken})
	return string(b)
}

// TestServePage: / and /brand-check are the page, with the local bypass
// announced in its config; the API stays beside it.
func TestServePage(t *testing.T) {
	s := serveBrandCheck(t)
	for _, path := range []string{"/", "/brand-check"} {
		res, err := http.Get(s.base + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") ||
			res.Header.Get("Content-Security-Policy") == "" || !bytes.Contains(b, []byte(`"bypass":true`)) {
			t.Errorf("GET %s: %d %s", path, res.StatusCode, res.Header.Get("Content-Type"))
		}
	}
	res, err := http.Get(s.base + "/api/v1/nothing")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 404 || res.Header.Get("Content-Type") != "application/json" {
		t.Errorf("unknown API path: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	// Any other token than the bypass's is refused, not waved through.
	res, body := postCheck(t, s.base, `{"brandName":"Acme","websiteUrl":"https://acme.com","recaptchaToken":"03AFcWeA-real-looking"}`)
	if res.StatusCode != 403 || !bytes.Contains(body, []byte(`"recaptcha_failed"`)) {
		t.Errorf("a token other than the bypass's: %d %s", res.StatusCode, body)
	}
}

// TestServeConcurrentChecks: 20 checks at once from one address, through
// brandlens serve, admit exactly 3; the others are 429 with Retry-After.
func TestServeConcurrentChecks(t *testing.T) {
	s := serveBrandCheck(t)
	var wg sync.WaitGroup
	var mu sync.Mutex
	count := map[int]int{}
	for i := range 20 {
		wg.Go(func() {
			res, body := postCheck(t, s.base, bypassBody("Brand "+strconv.Itoa(i), "https://brand"+strconv.Itoa(i)+".com"))
			if res.StatusCode == 429 {
				if n, err := strconv.Atoi(res.Header.Get("Retry-After")); err != nil || n < 1 || n > 86400 {
					t.Errorf("429 with Retry-After %q: %s", res.Header.Get("Retry-After"), body)
				}
			}
			mu.Lock()
			count[res.StatusCode]++
			mu.Unlock()
		})
	}
	wg.Wait()
	if count[200] != 3 || count[429] != 17 {
		t.Fatalf("statuses %v, want 3×200 and 17×429", count)
	}
}

// TestServeReplayFailingPlatform: with one platform failing in replay
// (perplexity has no recorded answer), the check still answers, with that
// platform's status and errorMessage, scored on the others.
func TestServeReplayFailingPlatform(t *testing.T) {
	replay, err := emulator.RepoFile("", "shared/app/testdata/brandcheck-replay.json")
	if err != nil {
		t.Fatal(err)
	}
	s := serveBrandCheck(t, "BRANDLENS_PROVIDERS", "replay", "BRANDLENS_REPLAY_FILE", replay)
	res, body := postCheck(t, s.base, bypassBody("Acme Notes", "https://acmenotes.com"))
	var resp brandcheck.Response
	if err := json.Unmarshal(body, &resp); err != nil || res.StatusCode != 200 {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	by := map[string]brandcheck.PlatformResult{}
	for _, p := range resp.Platforms {
		by[p.Platform] = p
	}
	pplx := by[platforms.Perplexity]
	if pplx.Status != brandcheck.StatusFailed || !strings.Contains(pplx.ErrorMessage, "Perplexity has no answer") {
		t.Errorf("perplexity: %+v", pplx)
	}
	for _, pf := range []string{platforms.ChatGPT, platforms.Gemini, platforms.Claude, platforms.GoogleAIOverview} {
		if by[pf].Status != brandcheck.StatusSucceeded || by[pf].ErrorMessage != "" {
			t.Errorf("%s: %+v", pf, by[pf])
		}
	}
	if resp.Grade == nil || len(resp.TopCompetitors) == 0 || resp.TopCompetitors[0] != "Notion" || !strings.Contains(resp.Summary, "Perplexity did not answer") {
		t.Errorf("grade %v, competitors %v, summary %q", resp.Grade, resp.TopCompetitors, resp.Summary)
	}
	// The text report says the same.
	res, text := postCheck(t, s.base, bypassBody("Acme Notes", "https://acmenotes.com"), "Accept", "text/plain")
	if res.StatusCode != 200 || !bytes.Contains(text, []byte("Perplexity")) || !bytes.Contains(text, []byte("error: Perplexity has no answer")) {
		t.Errorf("%d %s", res.StatusCode, text)
	}
}

// browserTools finds node, Chromium and the driver script, skipping the
// test when one is missing — or failing it in CI, where .ci/run installs
// Chromium and make test installs playwright-core.
func browserTools(t *testing.T) (node, script string) {
	t.Helper()
	missing := func(format string, args ...any) {
		t.Helper()
		if os.Getenv("CI") != "" {
			t.Fatalf(format, args...)
		}
		t.Skipf(format, args...)
	}
	chromium := os.Getenv("BRANDLENS_CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	if _, err := os.Stat(chromium); err != nil {
		missing("Chromium is not at %s: apt-get install chromium (or set BRANDLENS_CHROMIUM)", chromium)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not installed")
	}
	script, err = emulator.RepoFile("", "tools/brand-check-browser.mjs")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(script), "node_modules", "playwright-core", "package.json")); err != nil {
		missing("playwright-core is not installed: npm ci --prefix tools")
	}
	return node, script
}

// runBrowser runs the driver script against base and returns what it
// printed.
func runBrowser(t *testing.T, base, scenario string) map[string]any {
	t.Helper()
	node, script := browserTools(t)
	// The screenshot lives in the test's temp dir, or where
	// BRANDLENS_SCREENSHOT_DIR says when a person wants to keep it.
	dir := os.Getenv("BRANDLENS_SCREENSHOT_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	shot := filepath.Join(dir, "brand-check-"+scenario+".png")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, script, base, scenario, shot)
	cmd.Dir = filepath.Dir(script)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	t.Logf("screenshot: %s", shot)
	if err != nil {
		t.Fatalf("browser %s: %v\n%s%s", scenario, err, stdout.String(), stderr.String())
	}
	var out map[string]any
	if err := json.Unmarshal(bytes.TrimSpace(stdout.Bytes()), &out); err != nil {
		t.Fatalf("browser printed %q: %v", stdout.String(), err)
	}
	if fi, err := os.Stat(shot); err != nil || fi.Size() == 0 {
		t.Errorf("no screenshot at %s", shot)
	}
	return out
}

// TestBrowserCheck: in headless Chromium, a visitor of brandlens serve's
// page submits a refused website (the error shows at the field), then
// checks a brand and sees a grade, a score and one bar per platform.
func TestBrowserCheck(t *testing.T) {
	s := serveBrandCheck(t)
	out := runBrowser(t, s.base, "check")
	t.Logf("browser saw grade %v, score %v, %v bars", out["grade"], out["score"], out["bars"])
	if out["bars"] != float64(len(platforms.All)) {
		t.Errorf("bars %v", out["bars"])
	}
}

// TestBrowserDailyLimit: the fourth check of the day gets the friendly
// limit message with the time until the next free check.
func TestBrowserDailyLimit(t *testing.T) {
	s := serveBrandCheck(t)
	out := runBrowser(t, s.base, "limit")
	t.Logf("browser saw: %v", out["message"])
}
