package brandpage_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/brandcheck"
	"github.com/brandlens/brandlens/shared/brandpage"
	"github.com/brandlens/brandlens/shared/emulator"
	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/recaptcha"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/validation"
)

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

// serve mounts the page and a minimal HTTP adapter of the brand check on a
// real local server, as `brandlens serve` will: simulated platforms, the
// embedded store and the local reCAPTCHA bypass.
func serve(t *testing.T) string {
	t.Helper()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	set := providers.Set{}
	for _, pf := range platforms.All {
		set[pf] = providers.NewSimulated(pf)
	}
	tbl := embedded.NewMemory()
	svc, err := brandcheck.New(brandcheck.Deps{Table: tbl, Providers: set, Verifier: recaptcha.Bypass{},
		Auditor: brandcheck.NewAuditTrail(audit.NewLog(tbl)), Logger: logger, Now: time.Now},
		brandcheck.Config{ClientKey: bytes.Repeat([]byte("k"), 32)})
	if err != nil {
		t.Fatal(err)
	}
	page, err := brandpage.New(brandpage.Config{Bypass: true, Platforms: platforms.All, Budget: brandcheck.DefaultBudget})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/", page)
	mux.Handle("POST /api/v1/brand-check", checkAdapter(svc, brandcheck.ProxyTrust{}))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

// checkAdapter is the thinnest HTTP face of the service: decode, call, map
// the typed errors to the spec's envelope. The API route replaces it.
func checkAdapter(svc *brandcheck.Service, trust brandcheck.ProxyTrust) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			BrandName      *string `json:"brandName"`
			WebsiteURL     *string `json:"websiteUrl"`
			RecaptchaToken *string `json:"recaptchaToken"`
		}
		fail := func(status int, code, msg string, details map[string]any, retry int) {
			if retry > 0 {
				w.Header().Set("Retry-After", strconv.Itoa(retry))
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"code": code, "message": msg, "details": details}})
		}
		if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&in); err != nil {
			fail(422, "validation_error", "the body is not a JSON object", map[string]any{}, 0)
			return
		}
		addr, err := trust.ClientAddress(r.RemoteAddr, r.Header.Get)
		if err != nil {
			fail(500, "internal_error", "no client address", map[string]any{}, 0)
			return
		}
		resp, err := svc.Check(r.Context(), brandcheck.Input{BrandName: in.BrandName, WebsiteURL: in.WebsiteURL,
			RecaptchaToken: in.RecaptchaToken}, brandcheck.Caller{Addr: addr})
		var ve *validation.Error
		var vf *brandcheck.VerificationError
		var rl *brandcheck.RateLimitError
		var ue *brandcheck.UnavailableError
		switch {
		case errors.As(err, &ve):
			fail(422, "validation_error", ve.Error(), map[string]any{"fields": ve.Fields}, 0)
		case errors.As(err, &vf):
			fail(403, vf.Code(), vf.Error(), map[string]any{}, 0)
		case errors.As(err, &rl):
			fail(429, rl.Code(), rl.Error(), map[string]any{}, rl.RetryAfterSeconds())
		case errors.As(err, &ue):
			fail(503, ue.Code(), ue.Error(), map[string]any{}, ue.RetryAfterSeconds())
		case err != nil:
			fail(500, "internal_error", "internal error", map[string]any{}, 0)
		case strings.Contains(r.Header.Get("Accept"), "text/plain"):
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			io.WriteString(w, resp.Text())
		default:
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(resp)
		}
	})
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

// TestBrowserCheck: a visitor fills the form, submits, and sees a grade,
// a score and one bar per platform.
func TestBrowserCheck(t *testing.T) {
	out := runBrowser(t, serve(t), "check")
	t.Logf("browser saw grade %v, score %v, %v bars", out["grade"], out["score"], out["bars"])
	if out["bars"] != float64(len(platforms.All)) {
		t.Errorf("bars %v", out["bars"])
	}
}

// TestBrowserDailyLimit: the fourth check of the day gets the friendly
// limit message with the time until the next free check.
func TestBrowserDailyLimit(t *testing.T) {
	out := runBrowser(t, serve(t), "limit")
	t.Logf("browser saw: %v", out["message"])
}
