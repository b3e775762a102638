package brandpage_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/brandlens/brandlens/shared/brandpage"
)

func TestHandler(t *testing.T) {
	h, err := brandpage.New(brandpage.Config{SiteKey: `key"</script><b>`, Version: "v2"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	cases := []struct {
		name, method, path string
		status             int
		ctype              string
		contains           []string
	}{
		{name: "root", method: "GET", path: "/", status: 200, ctype: "text/html; charset=utf-8",
			contains: []string{`<label for="brand">Brand name</label>`, `<label for="website">Website</label>`, `aria-live="polite"`, `role="alert"`}},
		{name: "page", method: "GET", path: "/brand-check", status: 200, ctype: "text/html; charset=utf-8"},
		{name: "head", method: "HEAD", path: "/brand-check", status: 200, ctype: "text/html; charset=utf-8"},
		{name: "script", method: "GET", path: brandpage.AssetBase + "/app.js", status: 200, ctype: "text/javascript; charset=utf-8", contains: []string{"textContent"}},
		{name: "stylesheet", method: "GET", path: brandpage.AssetBase + "/app.css", status: 200, ctype: "text/css; charset=utf-8"},
		{name: "post", method: "POST", path: "/", status: 405},
		{name: "unknown", method: "GET", path: "/brand-check/assets/nope.js", status: 404},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, srv.URL+tc.path, nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d", resp.StatusCode)
			}
			if tc.ctype != "" && resp.Header.Get("Content-Type") != tc.ctype {
				t.Errorf("content type %q", resp.Header.Get("Content-Type"))
			}
			if tc.status == 405 && resp.Header.Get("Allow") != "GET, HEAD" {
				t.Errorf("Allow %q", resp.Header.Get("Allow"))
			}
			for _, want := range tc.contains {
				if !strings.Contains(string(body), want) {
					t.Errorf("body lacks %q", want)
				}
			}
			if tc.method == "HEAD" && len(body) != 0 {
				t.Error("HEAD has a body")
			}
			if strings.HasPrefix(tc.ctype, "text/html") && !strings.Contains(resp.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
				t.Error("no CSP on the page")
			}
		})
	}
	// The config is JSON the script can read, and a hostile site key cannot
	// close the script element.
	resp, _ := http.Get(srv.URL + "/")
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := regexp.MustCompile(`(?s)<script type="application/json" id="bl-config">(.*?)</script>`).FindSubmatch(body)
	if m == nil {
		t.Fatal("no config")
	}
	var cfg struct {
		APIPath   string
		Bypass    bool
		Recaptcha struct{ SiteKey, Version, Action string }
		Platforms []string
	}
	if err := json.Unmarshal(m[1], &cfg); err != nil {
		t.Fatalf("config %s: %v", m[1], err)
	}
	if cfg.APIPath != "/api/v1/brand-check" || cfg.Bypass || cfg.Recaptcha.SiteKey != `key"</script><b>` || cfg.Recaptcha.Version != "v2" ||
		cfg.Recaptcha.Action != "brand_check" || len(cfg.Platforms) != 5 {
		t.Errorf("config %+v", cfg)
	}
	// Conditional GET.
	req, _ := http.NewRequest("GET", srv.URL+"/", nil)
	req.Header.Set("If-None-Match", resp.Header.Get("ETag"))
	r2, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	r2.Body.Close()
	if r2.StatusCode != http.StatusNotModified {
		t.Errorf("revalidation: %d", r2.StatusCode)
	}
}

func TestConfig(t *testing.T) {
	cases := []struct {
		name string
		cfg  brandpage.Config
		ok   bool
	}{
		{"bypass needs no key", brandpage.Config{Bypass: true}, true},
		{"site key", brandpage.Config{SiteKey: "k"}, true},
		{"no key, no bypass", brandpage.Config{}, false},
		{"unknown version", brandpage.Config{SiteKey: "k", Version: "v4"}, false},
		{"call to action elsewhere", brandpage.Config{Bypass: true, CTAURL: "https://example.com/try"}, true},
		{"call to action that is no web address", brandpage.Config{Bypass: true, CTAURL: "javascript:alert(1)"}, false},
		{"relative call to action", brandpage.Config{Bypass: true, CTAURL: "/signup"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			files, err := brandpage.Files(tc.cfg)
			if (err == nil) != tc.ok {
				t.Fatalf("err = %v", err)
			}
			if tc.ok && (len(files) != 3 || !strings.Contains(string(files["index.html"]), brandpage.AssetBase+"/app.js")) {
				t.Errorf("files %d", len(files))
			}
		})
	}
}

func TestConfigFromEnv(t *testing.T) {
	env := map[string]string{brandpage.EnvSiteKey: " site ", brandpage.EnvVersion: "v2", brandpage.EnvCTAURL: "https://example.com/go"}
	got := brandpage.ConfigFromEnv(func(k string) string { return env[k] })
	if got.SiteKey != "site" || got.Version != "v2" || got.CTAURL != "https://example.com/go" || got.Bypass {
		t.Errorf("%+v", got)
	}
}
