// Package brandpage holds the brand check's web page — one HTML document,
// a stylesheet and a script, embedded in the binary — and serves it at
// GET / and GET /brand-check. The page calls POST /api/v1/brand-check; it
// needs no build step and loads nothing from a CDN (only Google's
// reCAPTCHA script, from Google, when the widget is on).
//
// The server tells the page how to prove the visitor is human through a
// JSON document rendered into the HTML (#bl-config): the reCAPTCHA site
// key, version and action, or bypass=true when the server runs with the
// local bypass. In AWS the same rendered files are uploaded to the S3
// origin of the CloudFront distribution (Files).
package brandpage

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/recaptcha"
)

//go:embed assets
var assets embed.FS

// Paths the handler serves.
const (
	PathRoot  = "/"
	PathPage  = "/brand-check"
	AssetBase = "/brand-check/assets"
)

// Config is what the page needs to know.
type Config struct {
	// APIPath is where the form posts (default /api/v1/brand-check).
	APIPath string
	// SiteKey is the reCAPTCHA site key; Version "v3" (default, invisible,
	// scored) or "v2" (the checkbox, e.g. with Google's test keys).
	SiteKey string
	Version string
	// Action is the v3 action (default brand_check).
	Action string
	// Bypass: the server admits recaptcha.BypassToken (local only).
	Bypass bool
	// Platforms and Budget are shown while the check runs.
	Platforms []string
	Budget    time.Duration
	// CTAURL is the call to action's target.
	CTAURL string
}

// DefaultCTAURL is where the call to action leads by default.
const DefaultCTAURL = "https://brandlens.example/signup"

// Settings read by ConfigFromEnv: what the page tells the browser. The
// secret that goes with the site key is the server's
// (BRANDLENS_RECAPTCHA_SECRET, package recaptcha).
const (
	EnvSiteKey = "BRANDLENS_RECAPTCHA_SITE_KEY"
	EnvVersion = "BRANDLENS_RECAPTCHA_VERSION" // v3 (default) or v2
	EnvCTAURL  = "BRANDLENS_BRANDCHECK_CTA_URL"
)

// ConfigFromEnv reads the page's settings; the platforms, the time budget
// and whether the local bypass is on are the caller's to fill from the
// check's own settings. The rendering (New, Files) checks the values.
func ConfigFromEnv(getenv func(string) string) Config {
	return Config{SiteKey: strings.TrimSpace(getenv(EnvSiteKey)), Version: strings.TrimSpace(getenv(EnvVersion)),
		CTAURL: strings.TrimSpace(getenv(EnvCTAURL))}
}

// pageConfig is #bl-config.
type pageConfig struct {
	APIPath       string          `json:"apiPath"`
	Bypass        bool            `json:"bypass"`
	BypassToken   string          `json:"bypassToken,omitempty"`
	Recaptcha     recaptchaConfig `json:"recaptcha"`
	Platforms     []string        `json:"platforms"`
	BudgetSeconds int             `json:"budgetSeconds"`
	CTAURL        string          `json:"ctaUrl"`
}

type recaptchaConfig struct {
	SiteKey string `json:"siteKey"`
	Version string `json:"version"`
	Action  string `json:"action"`
}

// file is one served file.
type file struct {
	body        []byte
	contentType string
	etag        string
	cache       string
}

// Handler serves the page and its assets.
type Handler struct {
	files map[string]file
}

// Cache-Control of the files: the page names the API and the site key, so
// it is always revalidated; the assets may be kept a few minutes.
const (
	cacheDocument = "no-cache"
	cacheAsset    = "public, max-age=300"
)

// New renders the page for cfg. Without Bypass a site key is required.
func New(cfg Config) (*Handler, error) {
	objs, err := Objects(cfg)
	if err != nil {
		return nil, err
	}
	h := &Handler{files: map[string]file{}}
	for _, o := range objs {
		sum := sha256.Sum256(o.Body)
		f := file{body: o.Body, contentType: o.ContentType, cache: o.CacheControl, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
		if o.Key == DocumentKey {
			h.files[PathRoot] = f
			h.files[PathPage] = f
			continue
		}
		h.files["/"+o.Key] = f
	}
	return h, nil
}

// DocumentKey is the page's document in the S3 origin; CloudFront serves it
// at / and /brand-check (a CloudFront Function rewrites both to it).
const DocumentKey = "index.html"

// Object is one file of the page as the S3 origin holds it.
type Object struct {
	// Key is the object key: DocumentKey, or the asset's path under
	// AssetBase without the leading slash — where the page links to it.
	Key          string
	ContentType  string
	CacheControl string
	Body         []byte
}

// Objects are the rendered files as uploaded to the page's bucket, in key
// order.
func Objects(cfg Config) ([]Object, error) {
	files, err := Files(cfg)
	if err != nil {
		return nil, err
	}
	out := make([]Object, 0, len(files))
	for name, body := range files {
		o := Object{Key: strings.TrimPrefix(AssetBase, "/") + "/" + name, ContentType: contentType(name), CacheControl: cacheAsset, Body: body}
		if name == DocumentKey {
			o.Key, o.CacheControl = DocumentKey, cacheDocument
		}
		out = append(out, o)
	}
	slices.SortFunc(out, func(a, b Object) int { return strings.Compare(a.Key, b.Key) })
	return out, nil
}

// Files returns the rendered files by name (index.html, app.css, app.js),
// as uploaded to the page's S3 bucket.
func Files(cfg Config) (map[string][]byte, error) {
	pc, err := cfg.page()
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	err = fs.WalkDir(assets, "assets", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := assets.ReadFile(path)
		if err != nil {
			return err
		}
		name := strings.TrimPrefix(path, "assets/")
		if name == "index.html" {
			t, err := template.New(name).Parse(string(body))
			if err != nil {
				return err
			}
			var b bytes.Buffer
			if err := t.Execute(&b, struct {
				AssetBase string
				Config    pageConfig
			}{AssetBase, pc}); err != nil {
				return err
			}
			body = b.Bytes()
		}
		out[name] = body
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("brandpage: render: %w", err)
	}
	return out, nil
}

func (cfg Config) page() (pageConfig, error) {
	pc := pageConfig{APIPath: cfg.APIPath, Bypass: cfg.Bypass, Platforms: cfg.Platforms, CTAURL: cfg.CTAURL,
		BudgetSeconds: int(cfg.Budget / time.Second),
		Recaptcha:     recaptchaConfig{SiteKey: cfg.SiteKey, Version: cfg.Version, Action: cfg.Action}}
	if pc.APIPath == "" {
		pc.APIPath = "/api/v1/brand-check"
	}
	if len(pc.Platforms) == 0 {
		pc.Platforms = platforms.All
	}
	if pc.BudgetSeconds <= 0 {
		pc.BudgetSeconds = 20
	}
	if pc.CTAURL == "" {
		pc.CTAURL = DefaultCTAURL
	}
	if pc.Recaptcha.Version == "" {
		pc.Recaptcha.Version = "v3"
	}
	if pc.Recaptcha.Action == "" {
		pc.Recaptcha.Action = recaptcha.DefaultAction
	}
	if u, err := url.Parse(pc.CTAURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return pc, fmt.Errorf("brandpage: call-to-action URL %q is not an absolute http(s) URL", pc.CTAURL)
	}
	switch {
	case pc.Recaptcha.Version != "v3" && pc.Recaptcha.Version != "v2":
		return pc, fmt.Errorf("brandpage: reCAPTCHA version %q: want v3 or v2", pc.Recaptcha.Version)
	case pc.Bypass:
		pc.BypassToken = recaptcha.BypassToken
	case pc.Recaptcha.SiteKey == "":
		return pc, errors.New("brandpage: a reCAPTCHA site key is required unless the local bypass is on")
	}
	return pc, nil
}

func contentType(name string) string {
	switch {
	case strings.HasSuffix(name, ".html"):
		return "text/html; charset=utf-8"
	case strings.HasSuffix(name, ".css"):
		return "text/css; charset=utf-8"
	case strings.HasSuffix(name, ".js"):
		return "text/javascript; charset=utf-8"
	}
	return "application/octet-stream"
}

// CSP is the page's Content-Security-Policy: its own files and Google's
// reCAPTCHA, nothing else. CloudFront sends the same one (template.yaml's
// response headers policy).
const CSP = "default-src 'self'; script-src 'self' https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/; " +
	"frame-src https://www.google.com/recaptcha/ https://recaptcha.google.com/recaptcha/; style-src 'self'; " +
	"img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// ServeHTTP serves GET and HEAD of the page and its assets.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f, ok := h.files[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", f.contentType)
	hd.Set("Cache-Control", f.cache)
	hd.Set("ETag", f.etag)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "strict-origin-when-cross-origin")
	if strings.HasPrefix(f.contentType, "text/html") {
		hd.Set("Content-Security-Policy", CSP)
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(f.body))
}
