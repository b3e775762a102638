package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/approvals"
	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/auth"
	"github.com/brandlens/brandlens/shared/competitors"
	"github.com/brandlens/brandlens/shared/destinations"
	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/httpapi/apitest"
	"github.com/brandlens/brandlens/shared/opportunities"
	"github.com/brandlens/brandlens/shared/queries"
	"github.com/brandlens/brandlens/shared/seed"
	"github.com/brandlens/brandlens/shared/tenants"
)

// matrixCaller is one column of the matrix: a key of tenant B (or none).
type matrixCaller struct {
	name  string
	key   string
	scope auth.Scope
	agent bool
}

func (c matrixCaller) principal() auth.Principal {
	return auth.Principal{Scopes: []auth.Scope{c.scope}, IsAgent: c.agent}
}

// sampleBodies are valid bodies of the routes that take one and have no
// path id, and of the routes with a path id whose body has required
// members (so that the other tenant's id, not the body, decides). A route
// without a path id missing here fails the matrix once it is built.
// {caller} is replaced by the caller's name, for bodies that create a
// record with a unique name.
var sampleBodies = map[string]string{
	"POST /api/v1/webhooks":                   `{"url":"https://hooks.betadocs.io/in","secret":"matrix-secret-0123456789"}`,
	"POST /api/v1/queries":                    `{"text":"matrix {caller}","platforms":["chatgpt"],"brandProfileId":1}`,
	"POST /api/v1/competitors":                `{"name":"Matrix {caller}"}`,
	"POST /api/v1/gaps/detect":                `{"brandProfileId":1}`,
	"POST /api/v1/destinations":               `{"type":"webhook","name":"Matrix {caller}","url":"https://cms.betadocs.io/publish"}`,
	"POST /api/v1/opportunities/{id}/publish": `{"destinationId":"{destination}","mode":"execute"}`,
}

// TestRouteMatrix calls every route of the table as every kind of caller —
// no key, each scope, human and agent keys — with another tenant's ids, and
// checks each status: 401 without a key, 403 without the scope (or, for
// review, without a human publish key), 404 for another tenant's resource,
// the route's own status otherwise, 501 while a route is not built. The
// matrix is generated from the table: a route added tomorrow is in it.
func TestRouteMatrix(t *testing.T) {
	api := apitest.New(t, apitest.Options{RPM: 100000})
	ctx := context.Background()
	others := otherTenantIDs(t, api)

	callers := []matrixCaller{{name: "no key"}}
	for _, sc := range []auth.Scope{auth.ScopeRead, auth.ScopeReadWrite, auth.ScopePublish} {
		for _, agent := range []bool{false, true} {
			c := matrixCaller{name: string(sc), scope: sc, agent: agent,
				key: fmt.Sprintf("local-key-beta-matrix-%s-%v", sc, agent)}
			if agent {
				c.name += " agent"
			} else {
				c.name += " human"
			}
			if _, _, err := api.Svc.Keys.Create(ctx, auth.NewKey{TenantID: api.B.ID, Plaintext: c.key,
				Scopes: []auth.Scope{sc}, IsAgent: agent, Autonomy: auth.L0}); err != nil {
				t.Fatal(err)
			}
			callers = append(callers, c)
		}
	}

	for _, r := range httpapi.Routes {
		path, byID := fillPath(t, r, others)
		body := ""
		if r.RequestBody() != nil {
			body = strings.ReplaceAll(sampleBodies[r.Method+" "+r.Path], "{destination}", others["destinations"])
		}
		var anonymous int // the status of a route that checks no key, called without one
		for _, c := range callers {
			t.Run(r.Method+" "+r.Path+"/"+c.name, func(t *testing.T) {
				var hdr []string
				if strings.HasPrefix(r.Path, "/site/") {
					hdr = []string{"Accept", "text/html, application/xml"} // the own site's documents
				}
				res := api.Do(t, r.Method, path, c.key, strings.ReplaceAll(body, "{caller}", c.name), hdr...)
				want, code := expected(t, r, c, byID, body)
				switch r.Guard {
				case httpapi.GuardPublic, httpapi.GuardAnonymous, httpapi.GuardSignedBody:
					// A key adds nothing where none is checked.
					if c.key == "" {
						anonymous = res.Status
					}
					want = anonymous
				}
				if res.Status != want {
					t.Fatalf("%s %s as %s: %d %s, want %d", r.Method, path, c.name, res.Status, res.Body, want)
				}
				if code != "" && res.ErrorCode(t) != code {
					t.Fatalf("code %s, want %s", res.ErrorCode(t), code)
				}
			})
		}
	}
}

// expected is the status (and error code) of route r called by c.
func expected(t *testing.T, r httpapi.Route, c matrixCaller, byID bool, body string) (int, string) {
	switch r.Guard {
	case httpapi.GuardAPIKey, httpapi.GuardReviewer:
	case httpapi.GuardSignedBody:
		return http.StatusUnauthorized, httpapi.CodeInvalidSignature
	default:
		return 0, ""
	}
	switch {
	case c.key == "":
		return http.StatusUnauthorized, httpapi.CodeMissingAPIKey
	case r.Guard == httpapi.GuardReviewer && !c.principal().CanReview(),
		r.Guard == httpapi.GuardAPIKey && !c.principal().Allows(r.Scope):
		return http.StatusForbidden, httpapi.CodeInsufficientScope
	case !r.Implemented():
		return http.StatusNotImplemented, httpapi.CodeNotImplemented
	case byID:
		return http.StatusNotFound, httpapi.CodeNotFound
	case r.Autonomy == httpapi.AutonomyHeldChange && c.agent:
		// The matrix's agent keys are L0: their change waits for approval.
		return http.StatusAccepted, ""
	case r.RequestBody() != nil && body == "" && !byID:
		t.Errorf("%s %s: add a valid sample body to sampleBodies", r.Method, r.Path)
	}
	return r.Status, ""
}

// fillPath puts another tenant's ids into the route's path placeholders;
// byID reports whether it had any.
func fillPath(t *testing.T, r httpapi.Route, others map[string]string) (path string, byID bool) {
	segs := strings.Split(r.Path, "/")
	for i, s := range segs {
		if !strings.HasPrefix(s, "{") {
			continue
		}
		name := strings.Trim(s, "{}")
		resource := name
		if name == "id" {
			resource = segs[i-1] // the collection the id is of
		}
		if name == "type" { // an enum, not an id
			segs[i] = "news"
			continue
		}
		id, ok := others[resource]
		if !ok {
			if r.Implemented() {
				t.Errorf("%s %s: no id of another tenant's %s; add one to otherTenantIDs", r.Method, r.Path, resource)
			}
			id = "01jzzzzzzzzzzzzzzzzzzzzzzz"
		}
		segs[i], byID = id, true
	}
	return strings.Join(segs, "/"), byID
}

// otherTenantIDs are ids of tenant A's resources that tenant B (the caller
// of the matrix) does not have, by the collection of the path they go in.
func otherTenantIDs(t *testing.T, api *apitest.API) map[string]string {
	t.Helper()
	ctx := context.Background()
	if _, err := seed.SyntheticCitations(ctx, api.Svc.Repos, api.A.ID, 3, 1); err != nil {
		t.Fatal(err)
	}
	var job httpapi.JobAccepted
	api.Do(t, "POST", "/api/v1/queries/2/run", apitest.KeyAPublish, `{}`).Decode(t, 202, &job)
	var sub httpapi.WebhookSubscriptionCreated
	api.Do(t, "POST", "/api/v1/webhooks", apitest.KeyAPublish, `{"url":"https://hooks.acmenotes.com/in"}`).Decode(t, 201, &sub)
	var ping httpapi.WebhookPingAccepted
	api.Do(t, "POST", "/api/v1/webhooks/"+sub.ID+"/ping", apitest.KeyAPublish, "").Decode(t, 202, &ping)
	// A query and a competitor of A with ids past those B's own creations
	// in the matrix take (POST /queries and /competitors, 4 of each).
	var qid, cid int32
	for i := range 8 {
		q, _, err := api.Svc.Queries.Create(ctx, queries.Query{TenantID: api.A.ID, BrandProfileID: 1,
			Text: fmt.Sprintf("matrix query %d", i), Platforms: []string{"chatgpt"}})
		if err != nil {
			t.Fatal(err)
		}
		c, _, err := api.Svc.Competitors.Create(ctx, competitors.Spec{TenantID: api.A.ID, Name: fmt.Sprintf("Matrix competitor %d", i)})
		if err != nil {
			t.Fatal(err)
		}
		qid, cid = q.ID, c.ID
	}
	// A's second brand profile (B has 1 only) and an opportunity of A.
	profile, _, err := api.Svc.Tenants.CreateBrand(ctx, tenants.Brand{TenantID: api.A.ID, Name: "Acme Notes Pro"})
	if err != nil {
		t.Fatal(err)
	}
	opp := opportunities.Opportunity{ID: "01jmatrixopportunity000000", TenantID: api.A.ID, GapID: "01jmatrixgap00000000000000",
		Tier: "no_mention", QueryID: 2, QueryText: "notes for teams", BrandProfileID: 1, CreatedAt: time.Now(), UpdatedAt: time.Now()}
	op, err := opportunities.CreateOp(opp)
	if err != nil {
		t.Fatal(err)
	}
	if err := api.Table.TransactWrite(ctx, op); err != nil {
		t.Fatal(err)
	}
	// A destination and a (job-less) approval request of A.
	dest, err := api.Svc.Destinations.Create(ctx, api.A.ID, destinations.New{Type: destinations.TypeWebhook,
		Name: "Matrix CMS", URL: "https://cms.acmenotes.com/publish"})
	if err != nil {
		t.Fatal(err)
	}
	agent := auth.Principal{TenantID: api.A.ID, KeyID: "key_matrix_agent", IsAgent: true, Autonomy: auth.L0}
	req := approvals.New(api.A.ID, agent, "webhooks.create", "webhook:new", "webhooks.create#matrix", "matrix", time.Now())
	req.Gate = approvals.GateNone
	ops, _, err := approvals.CreateOps(req, audit.ActorOf(agent))
	if err != nil {
		t.Fatal(err)
	}
	if err := api.Table.TransactWrite(ctx, ops...); err != nil {
		t.Fatal(err)
	}
	return map[string]string{
		"destinations":   dest.ID,
		"slug":           "no-such-page", // the site is the service's: no tenant owns a page id
		"approvals":      req.ID,
		"brand-profiles": strconv.Itoa(int(profile.ID)),
		"opportunities":  opp.ID,
		"queries":        strconv.Itoa(int(qid)),
		"competitors":    strconv.Itoa(int(cid)),
		"citations":      "1",
		"jobs":           job.JobID,
		"webhooks":       sub.ID,
		"deliveryId":     ping.DeliveryID,
	}
}
