package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/httpapi/apitest"
)

// The sample API Gateway v2 events in events/ are replayed through the
// real Lambda handlers (httpapi.NewLambdaHandler over an embedded store),
// so that they stay valid for `sam local invoke` and so that the
// event → http.Request → envelope path is exercised per function.

// eventWant is what replaying one sample event must answer.
type eventWant struct {
	status int
	// code is the error envelope's code (error answers only).
	code string
	// keys are members the JSON object of a success must have.
	keys []string
	// check, if set, looks further into a decoded success body.
	check func(t *testing.T, body map[string]any)
}

// eventExpectations covers every API event file; a file missing here fails.
var eventExpectations = map[string]eventWant{
	"api-get-me.json": {status: http.StatusOK,
		keys: []string{"tenant_id", "key_id", "scopes", "credits_balance", "daily_credit_ceiling", "rpm_limit", "capabilities"},
		check: func(t *testing.T, b map[string]any) {
			if b["credits_balance"] != float64(eventSeedCredits) {
				t.Errorf("credits_balance = %v, want %d", b["credits_balance"], eventSeedCredits)
			}
			if scopes, _ := b["scopes"].([]any); !slices.Equal(scopes, []any{"publish"}) {
				t.Errorf("scopes = %v, want [publish]", b["scopes"])
			}
		}},
	"api-get-me-credits.json": {status: http.StatusOK,
		keys: []string{"credits_balance", "held", "granted", "spent_today", "remaining_today", "resets_at"},
		check: func(t *testing.T, b map[string]any) {
			if b["granted"] != float64(eventSeedCredits) {
				t.Errorf("granted = %v, want %d", b["granted"], eventSeedCredits)
			}
		}},
	"api-list-queries.json": {status: http.StatusOK, keys: []string{"items"},
		check: func(t *testing.T, b map[string]any) {
			if items, _ := b["items"].([]any); len(items) != 2 {
				t.Errorf("items = %v, want the two seeded queries", b["items"])
			}
		}},
	"api-get-query.json": {status: http.StatusOK, keys: []string{"id", "tenantId", "brandProfileId", "text", "platforms", "isActive"},
		check: func(t *testing.T, b map[string]any) {
			if b["id"] != float64(1) || b["text"] != eventSeedQuery {
				t.Errorf("query = %v, want id 1 %q", b, eventSeedQuery)
			}
		}},
	"api-list-citations.json": {status: http.StatusOK, keys: []string{"items", "page", "pageSize", "hasMore"},
		check: func(t *testing.T, b map[string]any) {
			// The query string of the event reaches the handler.
			if b["pageSize"] != float64(10) || b["page"] != float64(1) {
				t.Errorf("page %v pageSize %v, want 1 and 10 from rawQueryString", b["page"], b["pageSize"])
			}
		}},
	"api-post-query-run.json":         {status: http.StatusAccepted, keys: []string{"jobId", "status"}},
	"api-list-approvals-pending.json": {status: http.StatusOK},
	"api-delete-webhook.json":         {status: http.StatusNotFound, code: httpapi.CodeNotFound}, // no such subscription in the tenant
	"brand-check.json": {status: http.StatusOK,
		keys: []string{"brandName", "visibilityScore", "grade", "platforms", "topCompetitors", "topCompetitorCitedPages", "summary", "hasUpsell", "requestId", "completedAt"},
		check: func(t *testing.T, b map[string]any) {
			if ps, _ := b["platforms"].([]any); b["brandName"] != "Acme Notes" || len(ps) != 5 {
				t.Errorf("brand %v, %d platforms", b["brandName"], len(ps))
			}
		}},
	"api-post-site-content.json": {status: http.StatusUnauthorized, code: httpapi.CodeInvalidSignature},
	"api-get-openapi.json": {status: http.StatusOK, keys: []string{"openapi", "info"},
		check: func(t *testing.T, b map[string]any) {
			if v, _ := b["openapi"].(string); !strings.HasPrefix(v, "3.") {
				t.Errorf("openapi = %v, want 3.x", b["openapi"])
			}
		}},
	"api-post-webhook.json": {status: http.StatusCreated, keys: []string{"id", "url", "events", "active", "hasSecret", "secret", "createdAt"},
		check: func(t *testing.T, b map[string]any) {
			if s, _ := b["secret"].(string); !strings.HasPrefix(s, "whsec_") || b["hasSecret"] != true {
				t.Errorf("secret %v hasSecret %v, want a generated whsec_ secret shown once", b["secret"], b["hasSecret"])
			}
			if id, _ := b["id"].(string); !strings.HasPrefix(id, "wh_") {
				t.Errorf("id = %v, want wh_…", b["id"])
			}
		}},
	"api-list-webhooks.json": {status: http.StatusOK, keys: []string{"items"}},
}

const (
	eventSeedCredits = 1000
	eventSeedQuery   = "best note taking app"
)

// eventFiles lists the API Gateway events of events/ (other files there are
// SQS, EventBridge and Step Functions samples).
func eventFiles(t *testing.T) []string {
	t.Helper()
	dir := filepath.Join(tplRepoRoot(t), "events")
	var out []string
	for _, pat := range []string{"api-*.json", "brand-check.json"} {
		m, err := filepath.Glob(filepath.Join(dir, pat))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m...)
	}
	if len(out) == 0 {
		t.Fatal("no API Gateway events in events/")
	}
	slices.Sort(out)
	return out
}

// newEventDeps serves the kit's two tenants; the events act as tenant A
// ("Acme Notes", query 1 "best note taking app") with its publish key.
func newEventDeps(t *testing.T) httpapi.Deps {
	t.Helper()
	// A site content secret is configured, so the receiver's 401 below is
	// about the event's signature, not a missing secret.
	return apitest.NewHandler(t, apitest.Options{SiteContentSecret: []byte("site-content-secret-for-event-tests")}).Deps
}

// loadSampleEvent reads one sample event and checks that it is shaped like what
// API Gateway sends for a route of its function (the file's name).
func loadSampleEvent(t *testing.T, path string) (function string, ev events.APIGatewayV2HTTPRequest) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ev); err != nil {
		t.Fatalf("%s is not an APIGatewayV2HTTPRequest: %v", filepath.Base(path), err)
	}
	function = strings.TrimSuffix(filepath.Base(path), ".json")
	routes := httpapi.RoutesOf(function)
	if len(routes) == 0 {
		t.Fatalf("event %s: no route of httpapi.Routes is served by function %s (name event files after their function)", filepath.Base(path), function)
	}
	var rt *httpapi.Route
	for i := range routes {
		if routes[i].Method+" "+routes[i].Path == ev.RouteKey {
			rt = &routes[i]
		}
	}
	switch {
	case rt == nil:
		t.Errorf("routeKey %q is not a route of function %s", ev.RouteKey, function)
	case !eventPathMatches(rt.Path, ev.RawPath):
		t.Errorf("rawPath %q does not match route path %s", ev.RawPath, rt.Path)
	case ev.RequestContext.HTTP.Method != rt.Method:
		t.Errorf("requestContext.http.method %q, want %s", ev.RequestContext.HTTP.Method, rt.Method)
	}
	if ev.Version != "2.0" {
		t.Errorf("version %q, want 2.0", ev.Version)
	}
	if ev.RequestContext.RouteKey != ev.RouteKey || ev.RequestContext.HTTP.Path != ev.RawPath {
		t.Errorf("requestContext disagrees with routeKey/rawPath")
	}
	if ev.RequestContext.Stage != "$default" || ev.RequestContext.RequestID == "" || ev.RequestContext.TimeEpoch == 0 ||
		ev.RequestContext.DomainName == "" || ev.RequestContext.APIID == "" || ev.RequestContext.AccountID == "" ||
		ev.RequestContext.HTTP.SourceIP == "" || ev.RequestContext.HTTP.Protocol == "" || ev.RequestContext.HTTP.UserAgent == "" {
		t.Errorf("requestContext lacks fields API Gateway always sends: %+v", ev.RequestContext)
	}
	for h := range ev.Headers {
		if h != strings.ToLower(h) {
			t.Errorf("header %q: API Gateway v2 lower-cases header names", h)
		}
	}
	if ev.IsBase64Encoded {
		t.Errorf("isBase64Encoded: the samples carry plain JSON bodies")
	}
	return function, ev
}

// eventPathMatches matches a concrete path against a route path with
// {param} segments.
func eventPathMatches(pattern, path string) bool {
	ps, xs := strings.Split(strings.Trim(pattern, "/"), "/"), strings.Split(strings.Trim(path, "/"), "/")
	if len(ps) != len(xs) {
		return false
	}
	for i := range ps {
		if strings.HasPrefix(ps[i], "{") {
			if xs[i] == "" {
				return false
			}
		} else if ps[i] != xs[i] {
			return false
		}
	}
	return true
}

// lambdaInvoke calls the function's Lambda handler with the event, checks
// the answer against the OpenAPI document and decodes it.
func lambdaInvoke(t *testing.T, d httpapi.Deps, function string, ev events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, map[string]any) {
	t.Helper()
	h, err := httpapi.NewLambdaHandler(d, function)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := h(context.Background(), ev)
	if err != nil {
		t.Fatalf("handler error: %v", err)
	}
	if ct := resp.Headers["Content-Type"]; !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type = %q, want application/json", ct)
	}
	if resp.IsBase64Encoded {
		t.Errorf("a JSON answer must not be base64-encoded")
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(resp.Body), &body); err != nil {
		t.Fatalf("body is not a JSON object: %v\n%s", err, resp.Body)
	}
	v, err := apitest.DocumentValidator()
	if err != nil {
		t.Fatal(err)
	}
	target := ev.RawPath
	if ev.RawQueryString != "" {
		target += "?" + ev.RawQueryString
	}
	req := httptest.NewRequest(ev.RequestContext.HTTP.Method, target, nil)
	header := http.Header{}
	for k, val := range resp.Headers {
		header.Set(k, val)
	}
	if err := v.Check(req, resp.StatusCode, header, []byte(resp.Body)); err != nil {
		t.Errorf("%s %s answered %d outside the OpenAPI document: %v", req.Method, target, resp.StatusCode, err)
	}
	return resp, body
}

var lambdaErrorCodePattern = regexp.MustCompile(`^[a-z]+(_[a-z]+)*$`)

// lambdaEnvelopeCode checks {"error":{"code","message","details"}} and returns
// the code.
func lambdaEnvelopeCode(t *testing.T, body map[string]any) string {
	t.Helper()
	e, ok := body["error"].(map[string]any)
	if !ok || len(body) != 1 {
		t.Fatalf("not an error envelope: %v", body)
	}
	code, _ := e["code"].(string)
	msg, _ := e["message"].(string)
	_, isObj := e["details"].(map[string]any)
	if !lambdaErrorCodePattern.MatchString(code) || msg == "" || !isObj || len(e) != 3 {
		t.Errorf("error envelope must be {code, message, details{}}: %v", e)
	}
	return code
}

func TestLambdaSampleEvents(t *testing.T) {
	d := newEventDeps(t)
	for _, path := range eventFiles(t) {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			want, ok := eventExpectations[name]
			if !ok {
				t.Fatalf("events/%s has no expectation in eventExpectations", name)
			}
			function, ev := loadSampleEvent(t, path)
			resp, body := lambdaInvoke(t, d, function, ev)
			if resp.StatusCode != want.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, want.status, resp.Body)
			}
			if want.code != "" {
				if code := lambdaEnvelopeCode(t, body); code != want.code {
					t.Errorf("error code %q, want %q", code, want.code)
				}
				return
			}
			if _, isErr := body["error"]; isErr {
				t.Fatalf("success answered with an error member: %s", resp.Body)
			}
			for _, k := range want.keys {
				if _, ok := body[k]; !ok {
					t.Errorf("answer lacks %q: %s", k, resp.Body)
				}
			}
			if want.check != nil {
				want.check(t, body)
			}
		})
	}
	// Every expectation names an existing file, so that a renamed event
	// cannot silently drop out of the test.
	for name := range eventExpectations {
		if _, err := os.Stat(filepath.Join(tplRepoRoot(t), "events", name)); err != nil {
			t.Errorf("eventExpectations names events/%s, which does not exist", name)
		}
	}
}

// A Lambda function serves only its own routes: an event for another
// function's route answers 404 not_found (405 when only the method differs),
// whatever route API Gateway would have sent it to.
func TestLambdaServesOnlyItsOwnRoutes(t *testing.T) {
	d := newEventDeps(t)
	for _, path := range eventFiles(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			own, ev := loadSampleEvent(t, path)
			for _, fn := range tplRouteFunctions() {
				if fn == own {
					continue
				}
				var sameMethod, samePath bool
				for _, r := range httpapi.RoutesOf(fn) {
					if eventPathMatches(r.Path, ev.RawPath) {
						samePath = true
						sameMethod = sameMethod || r.Method == ev.RequestContext.HTTP.Method
					}
				}
				if sameMethod {
					t.Errorf("functions %s and %s both serve %s %s", own, fn, ev.RequestContext.HTTP.Method, ev.RawPath)
					continue
				}
				t.Run(fn, func(t *testing.T) {
					resp, body := lambdaInvoke(t, d, fn, ev)
					wantStatus, wantCode := http.StatusNotFound, httpapi.CodeNotFound
					if samePath {
						wantStatus, wantCode = http.StatusMethodNotAllowed, httpapi.CodeMethodNotAllowed
					}
					if resp.StatusCode != wantStatus {
						t.Fatalf("status %d, want %d: %s", resp.StatusCode, wantStatus, resp.Body)
					}
					if code := lambdaEnvelopeCode(t, body); code != wantCode {
						t.Errorf("error code %q, want %q", code, wantCode)
					}
				})
			}
		})
	}
}

// TestCatchAllAnswersInTheEnvelope: API Gateway's $default route reaches
// api-default for unknown routes and for known paths under other methods.
func TestCatchAllAnswersInTheEnvelope(t *testing.T) {
	d := newEventDeps(t)
	_, ev := loadSampleEvent(t, filepath.Join(tplRepoRoot(t), "events", "api-get-me.json"))
	cases := []struct {
		method, path string
		status       int
		code, allow  string
	}{
		{"DELETE", "/api/v1/me", 405, httpapi.CodeMethodNotAllowed, "GET"},
		{"PATCH", "/api/v1/webhooks/abc", 405, httpapi.CodeMethodNotAllowed, "GET, PUT, DELETE"},
		{"GET", "/api/v2/me", 404, httpapi.CodeNotFound, ""},
		{"GET", "/", 404, httpapi.CodeNotFound, ""},
	}
	for _, c := range cases {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			e := ev
			e.RouteKey = "$default"
			e.RawPath = c.path
			e.RequestContext.HTTP.Method = c.method
			e.RequestContext.HTTP.Path = c.path
			resp, body := lambdaInvoke(t, d, httpapi.CatchAll.Function, e)
			errObj, _ := body["error"].(map[string]any)
			if resp.StatusCode != c.status || errObj["code"] != c.code {
				t.Fatalf("got %d %v", resp.StatusCode, body)
			}
			if resp.Headers["Allow"] != c.allow {
				t.Errorf("Allow %q, want %q", resp.Headers["Allow"], c.allow)
			}
		})
	}
}
