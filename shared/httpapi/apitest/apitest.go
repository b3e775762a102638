// Package apitest is the test kit of the HTTP API: two seeded tenants behind
// a real HTTP server, a client whose every answer is validated against the
// service's own OpenAPI document (so the document cannot drift from what
// the service does), and helpers to read the error envelope.
package apitest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/recaptcha/recaptchatest"
	"github.com/brandlens/brandlens/shared/seed"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/validation"
)

// Keys of the seeded tenants.
const (
	// KeyAPublish: tenant A, human, publish scope, L0.
	KeyAPublish = "local-key-acme-publish-0001"
	// KeyARead: tenant A, read scope.
	KeyARead = "local-key-acme-read-000001"
	// KeyAAgent: tenant A, agent key, publish scope, L1.
	KeyAAgent = "local-key-acme-agent-00001"
	// KeyBPublish: tenant B, publish scope.
	KeyBPublish = "local-key-beta-publish-001"
)

// KeySecret is the secret API keys are HMAC-ed with in the kit.
var KeySecret = []byte("0123456789abcdef0123456789abcdef")

// Options change the seeded API.
type Options struct {
	// RPM is tenant A's rate limit (default 600).
	RPM int64
	// Now is the clock of every service (nil: the real one).
	Now func() time.Time
	// SiteContentSecret signs bodies for the site-content receiver.
	SiteContentSecret []byte
	// Local configures the rest of the local runtime (webhook guard, retry
	// scale, dispatch interval, the brand check's trust and tuning); its
	// table, secrets, clock and logger are set by the kit, and the brand
	// check's verifier is a siteverify client of the kit's fake siteverify
	// unless Local.BrandCheck.Verifier is set.
	Local app.LocalOptions
}

// API is the service over an in-memory store holding two tenants:
//
//   - A "Acme Notes": 1,000 credits, ceiling 500, brand with alias and
//     domain, competitors Notion (1) and Evernote (2), queries 1 "best note
//     taking app" (chatgpt, perplexity; daily) and 2 "notes for teams"
//     (gemini, claude, google_ai_overview), keys KeyAPublish, KeyARead and
//     KeyAAgent;
//   - B "Beta Docs": 50 credits, one query on all platforms, KeyBPublish.
type API struct {
	URL     string
	Handler http.Handler
	// Deps are the handler's dependencies (for Lambda handlers of the API).
	Deps httpapi.Deps
	Svc  *app.Services
	// Local is the runtime behind the API; tests that need jobs or
	// deliveries to run call Local.Run.
	Local *app.Local
	Table store.Table
	A, B  seed.TenantResult
	// Siteverify is the fake reCAPTCHA siteverify the brand check asks
	// (recaptchatest tokens: TokenBot, TokenReplayed, TokenDown fail; any
	// other passes).
	Siteverify *recaptchatest.Server
	client     *Client
}

// New serves the two tenants on a real HTTP server closed after tb.
func New(tb testing.TB, o Options) *API {
	tb.Helper()
	// The listener first: the own site's base URL (own_site publishes post
	// to its receiver) is the server's, as in brandlens serve.
	srv := httptest.NewUnstartedServer(nil)
	if o.Local.SiteBaseURL == "" {
		o.Local.SiteBaseURL = "http://" + srv.Listener.Addr().String()
	}
	api := NewHandler(tb, o)
	// The server `brandlens serve` runs: bounded headers, and net/http's
	// own refusals in the error envelope.
	srv.Config = httpapi.NewHTTPServer(api.Handler)
	srv.Listener = httpapi.Listener(srv.Listener, nil)
	srv.Start()
	tb.Cleanup(srv.Close)
	api.URL = srv.URL
	api.client = NewClient(tb, srv.URL)
	return api
}

// NewHandler is New without the HTTP server (benchmarks call the handler).
func NewHandler(tb testing.TB, o Options) *API {
	tb.Helper()
	if o.RPM == 0 {
		o.RPM = 600
	}
	var opts []embedded.Option
	if o.Now != nil {
		opts = append(opts, embedded.WithClock(o.Now))
	}
	tbl := embedded.NewMemory(opts...)
	// The local runtime's services, not run: queued jobs and deliveries
	// stay in its in-process queues.
	lo := o.Local
	lo.Table, lo.KeySecret, lo.SiteContentSecret, lo.Now = tbl, KeySecret, o.SiteContentSecret, o.Now
	lo.Logger = slog.New(slog.NewJSONHandler(io.Discard, nil))
	if lo.Providers == nil {
		// The simulated platforms (the brand check asks them in the request).
		lo.Providers = providers.Set{}
		for _, pf := range platforms.All {
			lo.Providers[pf] = providers.NewSimulated(pf)
		}
	}
	// A test that brings its own verifier gets no siteverify server (a
	// listener inside a synctest bubble would keep its clock from moving).
	var sv *recaptchatest.Server
	if lo.BrandCheck.Verifier == nil {
		sv = recaptchatest.New(tb)
		lo.BrandCheck.Verifier = sv.Client(tb)
		lo.Page.SiteKey = "apitest-site-key"
	}
	local, err := app.NewLocal(lo)
	if err != nil {
		tb.Fatal(err)
	}
	svc := local.Services
	res, err := seed.Apply(context.Background(), svc.Repos, seed.File{Tenants: []seed.Tenant{
		{
			Name: "Acme Notes", Credits: 1000, DailyCreditCeiling: 500, RPMLimit: o.RPM,
			Brand:       &seed.Brand{Name: "Acme Notes", Aliases: []string{"AcmeNotes"}, Domains: []string{"acmenotes.com"}},
			Competitors: []seed.Brand{{Name: "Notion", Aliases: []string{"Notion HQ"}, Domains: []string{"notion.so"}}, {Name: "Evernote"}},
			Queries: []seed.Query{
				{Text: "best note taking app", Platforms: []string{"chatgpt", "perplexity"}, Schedule: "daily"},
				{Text: "notes for teams", Platforms: []string{"gemini", "claude", "google_ai_overview"}},
			},
			APIKeys: []seed.APIKey{
				{Key: KeyAPublish, Scopes: []string{"publish"}, AutonomyLevel: "L0"},
				{Key: KeyARead, Scopes: []string{"read"}},
				{Key: KeyAAgent, Scopes: []string{"publish"}, IsAgent: true, AutonomyLevel: "L1"},
			},
		},
		{
			Name: "Beta Docs", Credits: 50,
			Brand:   &seed.Brand{Name: "Beta Docs", Domains: []string{"betadocs.io"}},
			Queries: []seed.Query{{Text: "docs tool"}},
			APIKeys: []seed.APIKey{{Key: KeyBPublish, Scopes: []string{"publish"}}},
		},
	}})
	if err != nil {
		tb.Fatal(err)
	}
	// What `brandlens serve` does at start.
	if err := app.Migrate(context.Background(), svc.Repos, nil); err != nil {
		tb.Fatal(err)
	}
	return &API{Handler: local.API, Deps: local.APIDeps, Svc: svc, Local: local, Table: tbl, A: res.Tenants[0], B: res.Tenants[1],
		Siteverify: sv}
}

// Do sends a request with the X-API-Key key (none when ""), a JSON body
// (none when "") and header name/value pairs, and validates the answer
// against the OpenAPI document.
func (api *API) Do(t testing.TB, method, path, key, body string, hdr ...string) Response {
	t.Helper()
	return api.client.Do(t, method, path, key, body, hdr...)
}

// Client sends requests to a server of the API and validates every answer
// against the OpenAPI document.
type Client struct {
	base string
	v    *Validator
}

// NewClient returns a client of the API served at base.
func NewClient(tb testing.TB, base string) *Client {
	tb.Helper()
	v, err := DocumentValidator()
	if err != nil {
		tb.Fatal(err)
	}
	return &Client{base: base, v: v}
}

// Do is API.Do.
func (c *Client) Do(t testing.TB, method, path, key, body string, hdr ...string) Response {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("X-API-Key", key)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	return c.Send(t, req)
}

// Send sends req as it is and validates the answer.
func (c *Client) Send(t testing.TB, req *http.Request) Response {
	t.Helper()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	// JSON, unless a negotiated answer was asked for in another media
	// type; the document check below holds it to the documented ones.
	if ct := res.Header.Get("Content-Type"); ct != "application/json" && req.Header.Get("Accept") == "" {
		t.Errorf("%s %s: Content-Type %q", req.Method, req.URL.Path, ct)
	}
	if res.Header.Get("X-Request-Id") == "" {
		t.Errorf("%s %s: no X-Request-Id", req.Method, req.URL.Path)
	}
	if err := c.v.Check(req, res.StatusCode, res.Header, b); err != nil {
		t.Errorf("%s %s answered %d outside the OpenAPI document: %v\n%s", req.Method, req.URL.Path, res.StatusCode, err, b)
	}
	return Response{Status: res.StatusCode, Header: res.Header, Body: b}
}

// Response is an answer of the API.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body as an object.
func (r Response) JSON(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v\n%s", err, r.Body)
	}
	return m
}

// Decode checks the status and decodes the body into v.
func (r Response) Decode(t testing.TB, status int, v any) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d: %s", r.Status, status, r.Body)
	}
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode: %v: %s", err, r.Body)
	}
}

// ErrorCode checks the envelope {"error":{"code","message","details"}} and
// returns its code.
func (r Response) ErrorCode(t testing.TB) string {
	t.Helper()
	var env struct {
		Error *struct {
			Code    string         `json:"code"`
			Message *string        `json:"message"`
			Details map[string]any `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal(r.Body, &env); err != nil || env.Error == nil || env.Error.Message == nil || env.Error.Details == nil {
		t.Fatalf("no error envelope with message and details object: %s", r.Body)
	}
	return env.Error.Code
}

// Fields lists details.fields[].field of a validation error.
func (r Response) Fields(t testing.TB) []string {
	t.Helper()
	var env struct {
		Error struct {
			Details struct {
				Fields []validation.FieldError `json:"fields"`
			} `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal(r.Body, &env); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range env.Error.Details.Fields {
		out = append(out, f.Field)
	}
	return out
}

// text/json answers are JSON; kin-openapi knows the media type only when
// told.
// The own site's pages and sitemap are documents, read as text.
func init() {
	openapi3filter.RegisterBodyDecoder("text/json", openapi3filter.JSONBodyDecoder)
	text := func(body io.Reader, _ http.Header, _ *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
		b, err := io.ReadAll(body)
		return string(b), err
	}
	openapi3filter.RegisterBodyDecoder("text/html", text)
	openapi3filter.RegisterBodyDecoder("application/xml", text)
}

// Validator checks answers against the served OpenAPI document.
type Validator struct {
	doc    *openapi3.T
	router routers.Router
}

var docValidator struct {
	once sync.Once
	v    *Validator
	err  error
}

// DocumentValidator returns the validator of the document GET /openapi.json
// serves, loaded as a client loads it (built once per test binary).
func DocumentValidator() (*Validator, error) {
	docValidator.once.Do(func() {
		rec := httptest.NewRecorder()
		httpapi.New(httpapi.Deps{}).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/openapi.json", nil))
		if rec.Code != http.StatusOK {
			docValidator.err = fmt.Errorf("apitest: GET /openapi.json = %d: %s", rec.Code, rec.Body)
			return
		}
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromData(rec.Body.Bytes())
		if err == nil {
			err = doc.Validate(loader.Context)
		}
		var router routers.Router
		if err == nil {
			router, err = gorillamux.NewRouter(doc)
		}
		docValidator.v, docValidator.err = &Validator{doc: doc, router: router}, err
	})
	return docValidator.v, docValidator.err
}

// Check validates one answer to req: its status must be documented for the
// operation, and its headers and body must match. Answers to requests the
// document has no operation for (404, 405) must be error envelopes.
func (v *Validator) Check(req *http.Request, status int, header http.Header, body []byte) error {
	route, params, err := v.router.FindRoute(req)
	if err != nil {
		if status != http.StatusNotFound && status != http.StatusMethodNotAllowed {
			return fmt.Errorf("no operation for %s %s, yet answered %d", req.Method, req.URL.Path, status)
		}
		var m any
		if err := json.Unmarshal(body, &m); err != nil {
			return err
		}
		return v.doc.Components.Schemas["ErrorBody"].Value.VisitJSON(m)
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
		Status:                 status,
		Header:                 header,
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	in.SetBodyBytes(bytes.Clone(body))
	return openapi3filter.ValidateResponse(req.Context(), in)
}
