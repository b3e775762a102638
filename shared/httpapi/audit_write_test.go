package httpapi_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/httpapi/apitest"
)

// Every write of the route table that a key makes leaves an audit entry
// naming the key (agent or not, its level), the action and the resource:
// the script below calls each keyed write, and the test fails for a route
// it does not call, so a new route must be added here (and is then checked).
func TestEveryKeyedWriteIsAudited(t *testing.T) {
	e := newPublishEnv(t)
	api := e.api
	called := map[string]bool{}
	// do calls a route (its table path, with ids filled in by args) and
	// returns the answer, which must have status want.
	do := func(method, route, key, body string, want int, args ...any) apitest.Response {
		t.Helper()
		called[method+" "+route] = true
		path := route
		for _, a := range args {
			start, end := strings.Index(path, "{"), strings.Index(path, "}")
			path = path[:start] + fmt.Sprint(a) + path[end+1:]
		}
		r := api.Do(t, method, path, key, body)
		if r.Status != want {
			t.Fatalf("%s %s: %d %s", method, path, r.Status, r.Body)
		}
		return r
	}
	id := func(r apitest.Response) any { return r.JSON(t)["id"] }
	H := apitest.KeyAPublish

	q := id(do("POST", "/api/v1/queries", H, `{"text":"audit walk query","platforms":["chatgpt"]}`, 201))
	do("PUT", "/api/v1/queries/{id}", H, `{"schedule":"weekly"}`, 200, q)
	run := do("POST", "/api/v1/queries/{id}/run", H, `{}`, 202, q).JSON(t)["jobId"].(string)
	e.job(t, run) // settled: a query run's settle is audited too
	do("DELETE", "/api/v1/queries/{id}", H, ``, 200, q)
	c := id(do("POST", "/api/v1/competitors", H, `{"name":"Bear Notes"}`, 201))
	do("PUT", "/api/v1/competitors/{id}", H, `{"description":"a note app"}`, 200, c)
	do("POST", "/api/v1/competitors/{id}/dismiss", H, ``, 200, c)
	do("POST", "/api/v1/competitors/{id}/restore", H, ``, 200, c)
	do("POST", "/api/v1/gaps/detect", H, `{"brandProfileId":1}`, 202)
	do("PUT", "/api/v1/brand-profiles/{id}", H, `{"aliases":["AcmeNotes","Acme Jotter"]}`, 200, 1)
	do("POST", "/api/v1/brand-profiles/{id}/rescore", H, ``, 202, 1)
	wh := id(do("POST", "/api/v1/webhooks", H, `{"url":"https://hooks.acmenotes.com/audit","secret":"audit-walk-secret-0001"}`, 201))
	do("PUT", "/api/v1/webhooks/{id}", H, `{"active":true}`, 200, wh)
	do("POST", "/api/v1/webhooks/{id}/ping", H, ``, 202, wh)
	var dl httpapi.WebhookDeliveryList
	api.Do(t, "GET", fmt.Sprintf("/api/v1/webhooks/%v/deliveries", wh), H, "").Decode(t, 200, &dl)
	do("POST", "/api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver", H, ``, 202, wh, dl.Items[0].ID)
	do("DELETE", "/api/v1/webhooks/{id}", H, ``, 200, wh)
	d := e.destination(t, `{"type":"own_site","name":"Audit walk","siteContentType":"knowledge"}`).ID
	called["POST /api/v1/destinations"] = true
	do("PUT", "/api/v1/destinations/{id}", H, `{"name":"Audit walk 2"}`, 200, d)
	do("POST", "/api/v1/opportunities/{id}/publish", keyAgentL0, `{"destinationId":"`+d+`","mode":"propose"}`, 202, e.opp.ID)
	// The content loop's requests need an opportunity without content:
	// TestContentLoopThroughTheAPI checks their entries.
	for _, w := range []string{"generate-brief", "generate-content"} {
		called["POST /api/v1/opportunities/{id}/"+w] = true
	}
	apr := e.pending(t)[0]["id"]
	do("POST", "/api/tracker/approvals/{id}/reject", H, `{"reason":"audit walk"}`, 200, apr)
	do("DELETE", "/api/v1/destinations/{id}", H, ``, 200, d)
	do("POST", "/api/v1/opportunities/{id}/dismiss", H, ``, 200, e.opp.ID)
	// An L0 agent's held subscription change, approved: applied, and logged
	// as the agent's action.
	held := e.api.Do(t, "POST", "/api/v1/webhooks", keyAgentL0, `{"url":"https://hooks.acmenotes.com/agent","secret":"agent-walk-secret-0001"}`)
	do("POST", "/api/tracker/approvals/{id}/approve", H, `{}`, 200, held.JSON(t)["id"])

	var log struct{ Items []audit.Entry }
	api.Do(t, "GET", "/api/v1/audit?limit=200", H, "").Decode(t, 200, &log)
	got := map[string][]audit.Entry{}
	for _, en := range log.Items {
		got[en.Action] = append(got[en.Action], en)
		if strings.Contains(en.Detail, "secret") {
			t.Errorf("entry %s shows a secret: %s", en.Action, en.Detail)
		}
	}
	domain := map[string]string{ // the action the route's own transaction logs
		"POST /api/v1/queries/{id}/run":                    "queries.run",
		"POST /api/v1/gaps/detect":                         "gaps.detect",
		"POST /api/v1/brand-profiles/{id}/rescore":         "brand_profiles.rescore",
		"POST /api/v1/opportunities/{id}/generate-brief":   "", // TestContentLoopThroughTheAPI
		"POST /api/v1/opportunities/{id}/generate-content": "",
		"POST /api/v1/opportunities/{id}/publish":          "content.publish",
		"POST /api/tracker/approvals/{id}/approve":         "approval.approve",
		"POST /api/tracker/approvals/{id}/reject":          "approval.reject",
		"POST /api/v1/opportunities/{id}/dismiss":          "opportunity.dismiss",
	}
	for _, rt := range httpapi.Routes {
		if !rt.Idempotent() {
			continue
		}
		name := rt.Method + " " + rt.Path
		t.Run(name, func(t *testing.T) {
			if !called[name] {
				t.Fatalf("the script does not call %s: add it", name)
			}
			action := rt.AuditAction()
			if a, ok := domain[name]; ok {
				if a == "" {
					return
				}
				action = a
			}
			es := got[action]
			if len(es) == 0 {
				t.Fatalf("no %s entry in the audit log", action)
			}
			if a := es[0].Actor; a.KeyID == "" || a.Kind == "" || a.AutonomyLevel == "" || !namesResource(es[0].Resource) || es[0].Outcome == "" {
				t.Errorf("%s entry %+v", action, es[0])
			}
		})
	}
	if s := got["job.settle"]; len(s) == 0 || s[len(s)-1].Resource != "job:"+run || s[len(s)-1].Actor.KeyID == "" {
		t.Errorf("job.settle entries %+v, want the query run's", s)
	}
	applied := got["webhooks.create"]
	if len(applied) != 2 || applied[0].Actor.Kind != audit.KindAgent || !strings.HasPrefix(applied[0].Detail, "applied after approval") {
		t.Errorf("webhooks.create entries %+v, want the applied change by the agent, newest first", applied)
	}
	if d := got["opportunities.dismiss"]; len(d) != 0 {
		t.Errorf("dismissal logged again by the router: %+v", d) // its domain logs opportunity.dismiss
	}
	if h := got["webhooks.ping"]; len(h) != 1 || h[0].Actor.Kind != audit.KindHuman || h[0].Actor.AutonomyLevel != "L2" || h[0].Resource != fmt.Sprint("webhook:", wh) {
		t.Errorf("webhooks.ping entries %+v", h)
	}
}

// namesResource: an entry's resource names a kind and an id ("webhook:wh_…"),
// not an empty side (a collection missing from the router's kinds).
func namesResource(r string) bool {
	kind, id, ok := strings.Cut(r, ":")
	return ok && kind != "" && id != ""
}
