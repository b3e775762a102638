// Package httpapi is the HTTP edge of brandlens: the route table, the
// router with its guards (API key and scope, reviewer, anonymous, signed
// body), request validation, the error envelope, the handlers, the OpenAPI
// document and the Lambda adapter.
package httpapi

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/awslabs/aws-lambda-go-api-proxy/core"

	"github.com/brandlens/brandlens/shared/approvals"
	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/auth"
	"github.com/brandlens/brandlens/shared/brandcheck"
	"github.com/brandlens/brandlens/shared/content"
	"github.com/brandlens/brandlens/shared/destinations"
	"github.com/brandlens/brandlens/shared/gaps"
	"github.com/brandlens/brandlens/shared/meter"
	"github.com/brandlens/brandlens/shared/opportunities"
	"github.com/brandlens/brandlens/shared/publish"
	"github.com/brandlens/brandlens/shared/ratelimit"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/signing"
	"github.com/brandlens/brandlens/shared/sitecontent"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/ttlcache"
	"github.com/brandlens/brandlens/shared/validation"
	"github.com/brandlens/brandlens/shared/webhooks"
)

// DefaultMaxBody caps request bodies (PublishPayload articles included).
const DefaultMaxBody = 1 << 20

// Deps are what the handlers use.
type Deps struct {
	Stores
	Runs     *runs.Service
	Webhooks *webhooks.Service
	// The content loop: metered jobs, gap detection, gaps, opportunities,
	// brief and article job requests, and the audit log.
	Meter         *meter.Service
	Detector      *gaps.Detector
	Gaps          *gaps.Repo
	Opportunities *opportunities.Repo
	ContentJobs   *content.Jobs
	Audit         *audit.Log
	// Publishing: destinations, approvals and publish jobs.
	Destinations *destinations.Service
	Approvals    *approvals.Service
	Publish      *publish.Service
	Logger       *slog.Logger
	Now          func() time.Time
	// CallerTTL is how long a key's principal and tenant are reused (0:
	// DefaultCallerTTL).
	CallerTTL time.Duration
	// SiteContentSecret signs bodies sent to the site-content receiver;
	// SiteContent keeps the pages it receives; SiteBaseURL is the site's
	// public base URL ("": the host API Gateway answered on).
	SiteContentSecret []byte
	SiteContent       *sitecontent.Service
	SiteBaseURL       string
	MaxBody           int64
	// BrandCheck runs the anonymous brand check (nil in functions that do
	// not serve it); ProxyTrust says when CloudFront's viewer address is
	// believed (zero: never).
	BrandCheck BrandChecker
	ProxyTrust brandcheck.ProxyTrust
}

// RateLimiter counts one request of a key against its limit per minute; it
// returns *ratelimit.Exceeded when the key's window is full.
type RateLimiter interface {
	Allow(ctx context.Context, keyID string, limit int64) error
}

// Server routes requests of the route table.
type Server struct {
	Deps
	routes []*compiledRoute
	// exact holds the routes of each literal path that no route with a
	// placeholder also matches: matching such a path is one lookup.
	exact map[string][]*compiledRoute
	// callers are the keys seen lately (see DefaultCallerTTL); callerHash
	// maps a key id to its cache key, so that a change this server makes to
	// a key (an autonomy promotion by a review) applies at once here.
	callers    *ttlcache.Cache[string, caller]
	callerHash sync.Map
	// caps are the capabilities of each kind of principal, by its highest
	// scope (capScopes) and whether it is an agent: they depend on nothing
	// else, so /me lists them without walking the table.
	caps [len(capScopes)][2][]string
	// answers are buffers answers are encoded into, reused.
	answers sync.Pool
	// catchAll: answer 404/405 for everything (API Gateway's $default).
	catchAll bool
}

type compiledRoute struct {
	*Route
	segs []string // literal segments, or "{name}"
}

// New returns a server for all routes of the table.
func New(d Deps) *Server { return NewFor(d, Routes) }

// NewFor returns a server for the given routes only (a Lambda function
// serves its own route and nothing else).
func NewFor(d Deps, routes []Route) *Server {
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Logger == nil {
		d.Logger = slog.New(slog.NewJSONHandler(io.Discard, nil))
	}
	if d.MaxBody <= 0 {
		d.MaxBody = DefaultMaxBody
	}
	if d.CallerTTL <= 0 {
		d.CallerTTL = DefaultCallerTTL
	}
	s := &Server{Deps: d, callers: ttlcache.New[string, caller](d.CallerTTL, maxCallers, d.Now)}
	for i := range routes {
		s.routes = append(s.routes, &compiledRoute{Route: &routes[i], segs: splitPath(routes[i].Path)})
	}
	s.exact = map[string][]*compiledRoute{}
	for _, r := range s.routes {
		if !strings.Contains(r.Path, "{") && !s.placeholderMatches(r.segs) {
			s.exact[r.Path] = append(s.exact[r.Path], r)
		}
	}
	for i, sc := range capScopes {
		for agent := range 2 {
			p := auth.Principal{IsAgent: agent == 1}
			if sc != "" {
				p.Scopes = []auth.Scope{sc}
			}
			s.caps[i][agent] = s.capabilities(&Request{Principal: p})
		}
	}
	return s
}

// capScopes are the kinds of principal capabilities tell apart, highest
// scope first ("": none).
var capScopes = [...]auth.Scope{auth.ScopePublish, auth.ScopeReadWrite, auth.ScopeRead, ""}

// capabilitiesOf is capabilities of p, computed once per kind of principal.
func (s *Server) capabilitiesOf(p auth.Principal) []string {
	agent := 0
	if p.IsAgent {
		agent = 1
	}
	for i, sc := range capScopes {
		if sc == "" || p.Allows(sc) {
			return s.caps[i][agent]
		}
	}
	return nil
}

func splitPath(p string) []string { return strings.Split(strings.Trim(p, "/"), "/") }

// match finds the route for method and path; when the path matches only
// under other methods, allow lists them.
func (s *Server) match(method, path string) (rt *compiledRoute, vals map[string]string, allow []string) {
	if rs, ok := s.exact[path]; ok {
		for _, r := range rs {
			if r.Method == method || (method == http.MethodHead && r.Method == http.MethodGet) {
				return r, nil, nil
			}
			allow = append(allow, r.Method)
		}
		return nil, nil, allow
	}
	segs := splitPath(path)
	for _, r := range s.routes {
		v, ok := r.matchPath(segs)
		if !ok {
			continue
		}
		if r.Method == method || (method == http.MethodHead && r.Method == http.MethodGet) {
			return r, v, nil
		}
		allow = append(allow, r.Method)
	}
	return nil, nil, allow
}

// placeholderMatches reports whether a route with a placeholder matches the
// path of segs.
func (s *Server) placeholderMatches(segs []string) bool {
	for _, r := range s.routes {
		if strings.Contains(r.Path, "{") {
			if _, ok := r.matchPath(segs); ok {
				return true
			}
		}
	}
	return false
}

func (r *compiledRoute) matchPath(segs []string) (map[string]string, bool) {
	if len(segs) != len(r.segs) {
		return nil, false
	}
	var vals map[string]string
	for i, s := range r.segs {
		if strings.HasPrefix(s, "{") {
			if segs[i] == "" {
				return nil, false
			}
			if vals == nil {
				vals = map[string]string{}
			}
			vals[s[1:len(s)-1]] = segs[i]
			continue
		}
		if s != segs[i] {
			return nil, false
		}
	}
	return vals, true
}

// requestIDPattern is the bounded, safe shape of an X-Request-Id a client
// may send for correlation.
var requestIDPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,128}$`)

func newRequestID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "req_" + hex.EncodeToString(b[:])
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := s.Now()
	// The request id is always the service's own, so that it names one
	// request (errors send it to support; brand checks are stored under
	// it): generated here, or API Gateway's, which joins our logs to its
	// access log. A client's X-Request-Id of the safe shape is logged
	// beside it for correlation; any other value is dropped unread.
	rid := newRequestID()
	if gw, ok := core.GetAPIGatewayV2ContextFromContext(r.Context()); ok && requestIDPattern.MatchString(gw.RequestID) {
		rid = gw.RequestID
	}
	var clientRID string
	if vs := r.Header.Values("X-Request-Id"); len(vs) == 1 && requestIDPattern.MatchString(vs[0]) {
		clientRID = vs[0]
	}
	w.Header().Set("X-Request-Id", rid)
	sw := &statusWriter{ResponseWriter: w}
	rq := &Request{HTTP: r, RequestID: rid}
	defer func() {
		if p := recover(); p != nil {
			s.Logger.Error("panic", "request_id", rid, "panic", p)
			if sw.status == 0 {
				s.writeError(sw, &Error{Code: CodeInternal, Message: "internal error; the request id identifies it in our logs"})
			}
		}
		if !s.Logger.Enabled(r.Context(), slog.LevelInfo) {
			return
		}
		attrs := []any{"request_id", rid, "method", r.Method, "path", r.URL.Path, "status", sw.status,
			"duration_ms", float64(s.Now().Sub(start).Microseconds()) / 1000}
		if clientRID != "" {
			attrs = append(attrs, "client_request_id", clientRID)
		}
		if rq.Principal.KeyID != "" {
			attrs = append(attrs, "tenant_id", rq.Principal.TenantID, "key_id", rq.Principal.KeyID)
		}
		s.Logger.Info("request", attrs...)
	}()
	body, err := s.serve(sw, rq)
	var held *deferred
	if errors.As(err, &held) {
		s.writeJSON(sw, http.StatusAccepted, held.request)
		return
	}
	if err != nil {
		s.writeError(sw, s.apiError(rq, err))
		return
	}
	switch b := body.(type) {
	case answer:
		s.writeAnswer(sw, b)
		return
	case textReport:
		s.writeReport(sw, rq, rq.Route.Status, b)
		return
	case document:
		d := b.doc()
		sw.Header().Set("Content-Type", d.MediaType)
		sw.Header().Set("Content-Length", strconv.Itoa(len(d.Body)))
		sw.WriteHeader(rq.Route.Status)
		_, _ = sw.Write(d.Body)
		return
	case chosenStatus:
		if loc := b.location(); loc != "" {
			sw.Header().Set("Location", loc)
		}
		s.writeJSON(sw, b.httpStatus(rq.Route.Status), body)
		return
	}
	s.writeJSON(sw, rq.Route.Status, body)
}

func (s *Server) serve(w http.ResponseWriter, rq *Request) (any, error) {
	r := rq.HTTP
	rt, pathVals, allow := s.match(r.Method, r.URL.Path)
	if s.catchAll {
		rt = nil
	}
	if rt == nil {
		if len(allow) > 0 {
			return nil, &Error{Code: CodeMethodNotAllowed, Message: "method " + r.Method + " is not allowed on " + r.URL.Path,
				Details: map[string]any{"allow": allow}, Allow: allow}
		}
		return nil, &Error{Code: CodeNotFound, Message: "no route for " + r.URL.Path}
	}
	rq.Route = rt.Route
	if r.Body != nil && r.Body != http.NoBody {
		b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.MaxBody))
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, &Error{Code: CodePayloadTooLarge, Message: "request body exceeds " + strconv.FormatInt(s.MaxBody, 10) + " bytes",
				Details: map[string]any{"limit": s.MaxBody}}
		}
		if err != nil {
			return nil, &Error{Code: CodeValidation, Message: "could not read the request body"}
		}
		rq.Body = b
	}
	if err := s.guard(r.Context(), rq); err != nil {
		return nil, err
	}
	return rt.Handler.serve(s, rq, pathVals)
}

func (s *Server) guard(ctx context.Context, rq *Request) error {
	switch rq.Route.Guard {
	case GuardPublic, GuardAnonymous:
		return nil
	case GuardSignedBody:
		return s.checkSignature(rq)
	}
	if _, ok := rq.Query()["api_key"]; ok {
		return &Error{Code: CodeInvalidAPIKey, Message: "API keys are not accepted in the query string; send the X-API-Key header"}
	}
	keys := rq.HTTP.Header.Values("X-API-Key")
	if len(keys) > 1 {
		// Which one would count is the proxies' guess (the first? the
		// last? API Gateway joins them with a comma): refuse to pick.
		return &Error{Code: CodeInvalidAPIKey, Message: "send one X-API-Key header, not " + strconv.Itoa(len(keys))}
	}
	if len(keys) == 0 || keys[0] == "" {
		return &Error{Code: CodeMissingAPIKey, Message: "the X-API-Key header is required"}
	}
	c, err := s.caller(ctx, keys[0])
	if errors.Is(err, auth.ErrInvalidKey) {
		return &Error{Code: CodeInvalidAPIKey, Message: "the API key is not valid"}
	}
	if err != nil {
		return err
	}
	p := c.principal
	rq.Principal, rq.tenant = p, &c.tenant
	switch rq.Route.Guard {
	case GuardReviewer:
		if !p.CanReview() {
			return &Error{Code: CodeInsufficientScope, Message: "reviewing approvals needs a human (non-agent) key with the publish scope",
				Details: map[string]any{"requiredScope": string(auth.ScopePublish), "agentKeysAllowed": false}}
		}
	default:
		if !p.Allows(rq.Route.Scope) {
			return &Error{Code: CodeInsufficientScope, Message: "this route needs the " + string(rq.Route.Scope) + " scope",
				Details: map[string]any{"requiredScope": string(rq.Route.Scope)}}
		}
	}
	return s.rateLimit(ctx, rq)
}

// DefaultCallerTTL is how long a server reuses what a key authenticated as
// (its principal) and its tenant's settings (rate limit, daily ceiling)
// before reading them again: a revoked key stops working, and a changed
// limit applies, at most this long after the change. It saves the key and
// tenant reads of every request but the first of each period.
const DefaultCallerTTL = 10 * time.Second

// maxCallers bounds the callers a server keeps (only keys that
// authenticated enter, so unknown keys cannot fill it).
const maxCallers = 10_000

// caller is what a key authenticated as, with its tenant.
type caller struct {
	principal auth.Principal
	tenant    tenants.Tenant
}

// caller authenticates key, from the cache when the key was seen less than
// the TTL ago. The cache is keyed by the key's hash, never the key.
func (s *Server) caller(ctx context.Context, key string) (caller, error) {
	if len(key) > auth.MaxKeyLen {
		return caller{}, auth.ErrInvalidKey
	}
	hash := s.Keys.Hash(key)
	if c, ok := s.callers.Get(hash); ok {
		return c, nil
	}
	p, err := s.Keys.AuthenticateHash(ctx, hash)
	if err != nil {
		return caller{}, err
	}
	t, err := s.Tenants.Get(ctx, p.TenantID)
	if err != nil {
		return caller{}, err
	}
	c := caller{principal: p, tenant: t}
	s.callers.Put(hash, c)
	s.callerHash.Store(p.KeyID, hash)
	return c, nil
}

// forgetCaller drops what this server cached of a key, after it changed
// the key itself. Other servers (other Lambda containers) keep what they
// read for at most DefaultCallerTTL.
func (s *Server) forgetCaller(keyID string) {
	if h, ok := s.callerHash.Load(keyID); ok {
		s.callers.Delete(h.(string))
	}
}

// tenant returns the caller's tenant, read once per request.
func (s *Server) tenant(rq *Request) (tenants.Tenant, error) {
	if rq.tenant == nil {
		t, err := s.Tenants.Get(rq.HTTP.Context(), rq.Principal.TenantID)
		if err != nil {
			return tenants.Tenant{}, err
		}
		rq.tenant = &t
	}
	return *rq.tenant, nil
}

func (s *Server) rateLimit(ctx context.Context, rq *Request) error {
	if s.Limiter == nil {
		return nil
	}
	p := rq.Principal
	t, err := s.tenant(rq)
	if err != nil {
		return err
	}
	err = s.Limiter.Allow(ctx, p.KeyID, t.RPMLimit)
	var ex *ratelimit.Exceeded
	if errors.As(err, &ex) {
		return &Error{Code: CodeRateLimitExceeded, Message: "rate limit of " + strconv.FormatInt(ex.Limit, 10) + " requests per minute exceeded",
			Details: map[string]any{"rpmLimit": ex.Limit}, RetryAfter: ex.RetryAfter}
	}
	return err
}

// checkSignature verifies X-Service-Signature over the raw body before
// anything parses it.
func (s *Server) checkSignature(rq *Request) error {
	bad := &Error{Code: CodeInvalidSignature, Message: "missing or invalid X-Service-Signature"}
	if len(s.SiteContentSecret) == 0 {
		return bad
	}
	if !VerifySignature(s.SiteContentSecret, rq.Body, rq.HTTP.Header.Get("X-Service-Signature")) {
		return bad
	}
	return nil
}

// VerifySignature checks a "sha256=<hex>" header (prefix case-insensitive)
// against the HMAC-SHA256 of body, in constant time (the scheme of package
// signing, shared with outgoing webhook deliveries).
func VerifySignature(secret, body []byte, header string) bool {
	return signing.Verify(secret, body, header)
}

// apiError turns any handler error into an API error; unexpected ones are
// logged and answered as 500 without internals.
func (s *Server) apiError(rq *Request, err error) *Error {
	var ae *Error
	if errors.As(err, &ae) {
		return ae
	}
	var ve *validation.Error
	if errors.As(err, &ve) {
		return validationAnswer(ve)
	}
	var le *validation.LimitError
	if errors.As(err, &le) {
		return &Error{Code: CodeLimitExceeded, Message: le.Error(), Details: map[string]any{"limit": le.Max}}
	}
	if rq.HTTP.Context().Err() != nil && errors.Is(err, rq.HTTP.Context().Err()) {
		// The client went away; nobody reads this answer and nothing failed.
		s.Logger.Debug("request canceled", "request_id", rq.RequestID)
		return &Error{Code: CodeInternal, Message: "request canceled"}
	}
	s.Logger.Error("handler error", "request_id", rq.RequestID, "error", err.Error())
	return &Error{Code: CodeInternal, Message: "internal error; the request id identifies it in our logs",
		Details: map[string]any{"requestId": rq.RequestID}}
}

// Bounds of a 422 answer: one unauthenticated 1 MiB body of unknown members
// must not make a multi-megabyte answer. Names and messages echo the
// client's input, so they are clipped too.
const (
	MaxListedFields  = 50
	maxFieldNameLen  = 100 // characters
	maxFieldMsgLen   = 300
	omittedFieldsKey = "omittedFields"
)

// validationAnswer lists the first MaxListedFields invalid fields, sorted,
// and says how many more there were.
func validationAnswer(ve *validation.Error) *Error {
	all := ve.Sorted().Fields
	shown := make([]validation.FieldError, min(len(all), MaxListedFields))
	for i := range shown {
		shown[i] = validation.FieldError{Field: clip(all[i].Field, maxFieldNameLen), Message: clip(all[i].Message, maxFieldMsgLen)}
	}
	details := map[string]any{"fields": shown}
	msg := "invalid request"
	switch {
	case len(all) == 1:
		msg = "invalid field " + shown[0].Field + ": " + shown[0].Message
	case len(all) > 1:
		msg = strconv.Itoa(len(all)) + " invalid fields; first " + shown[0].Field + ": " + shown[0].Message
	}
	if n := len(all) - len(shown); n > 0 {
		details[omittedFieldsKey] = n
		msg += " (the first " + strconv.Itoa(len(shown)) + " are listed)"
	}
	return &Error{Code: CodeValidation, Message: msg, Details: details}
}

// clip cuts s to at most n characters, marking the cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

func (s *Server) writeError(w http.ResponseWriter, e *Error) {
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	if len(e.Allow) > 0 {
		w.Header().Set("Allow", strings.Join(e.Allow, ", "))
	}
	s.writeJSON(w, e.Status(), e.body())
}

// jsonWriter is an answer that writes its JSON into a buffer itself.
type jsonWriter interface{ WriteJSON(*bytes.Buffer) error }

// maxPooledAnswer bounds the answer buffers kept for reuse.
const maxPooledAnswer = 64 << 10

func (s *Server) writeJSON(w http.ResponseWriter, status int, body any) {
	s.writeJSONAs(w, status, body, mediaJSON)
}

// writeJSONAs writes body as JSON labelled contentType (application/json,
// or text/json when a report answer's caller asked for it).
func (s *Server) writeJSONAs(w http.ResponseWriter, status int, body any, contentType string) {
	buf, _ := s.answers.Get().(*bytes.Buffer)
	if buf == nil {
		buf = new(bytes.Buffer)
	}
	defer func() {
		if buf.Cap() <= maxPooledAnswer {
			buf.Reset()
			s.answers.Put(buf)
		}
	}()
	var err error
	if w, ok := body.(jsonWriter); ok {
		// Large answers of stored JSON write themselves in place.
		if err = w.WriteJSON(buf); err == nil {
			buf.WriteByte('\n')
		}
	} else if m, ok := body.(json.Marshaler); ok {
		// Answers that carry stored JSON write it as it is (encoding/json
		// would scan and copy it again).
		var b []byte
		if b, err = m.MarshalJSON(); err == nil {
			buf.Write(b)
			buf.WriteByte('\n')
		}
	} else {
		// Encode ends the value with a newline.
		err = json.NewEncoder(buf).Encode(body)
	}
	if err != nil {
		s.Logger.Error("encode response", "error", err.Error())
		status, contentType = http.StatusInternalServerError, mediaJSON
		buf.Reset()
		buf.WriteString(`{"error":{"code":"internal_error","message":"could not encode the response","details":{}}}` + "\n")
	}
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}
