package httpapi_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/httpapi/apitest"
	"github.com/brandlens/brandlens/shared/webhooks"
)

// TestHeldChangeThatCannotApply: an L0 agent's held subscription change
// that can no longer be applied when it is approved (the tenant is full,
// its subscription is gone) answers the approve with the change's error;
// the request stays pending, unreviewed and unaudited, so a reviewer can
// reject it — or approve it again once it can apply, when the agent's entry
// names the subscription it created.
func TestHeldChangeThatCannotApply(t *testing.T) {
	for _, c := range []struct {
		name string
		// hold makes the held change and then what keeps it from applying.
		hold   func(t *testing.T, e *publishEnv) (approvalID string)
		status int
		code   string
		then   string
	}{
		{name: "create past the cap", status: 409, code: "limit_exceeded", then: "approve",
			hold: func(t *testing.T, e *publishEnv) string {
				id := heldChange(t, e, "POST", "/api/v1/webhooks", `{"url":"https://hooks.acmenotes.com/agent","secret":"agent-chosen-secret-0001"}`)
				for i := range webhooks.MaxSubscriptions {
					subscribe(t, e, fmt.Sprintf("https://hooks.acmenotes.com/in%d", i))
				}
				return id
			}},
		{name: "update of a deleted subscription", status: 404, code: "not_found", then: "reject",
			hold: func(t *testing.T, e *publishEnv) string {
				sub := subscribe(t, e, "https://hooks.acmenotes.com/gone")
				id := heldChange(t, e, "PUT", "/api/v1/webhooks/"+sub, `{"description":"renamed by the agent"}`)
				e.api.Do(t, "DELETE", "/api/v1/webhooks/"+sub, apitest.KeyAPublish, "").Decode(t, 200, &map[string]any{})
				return id
			}},
		{name: "delete of a deleted subscription", status: 404, code: "not_found", then: "reject",
			hold: func(t *testing.T, e *publishEnv) string {
				sub := subscribe(t, e, "https://hooks.acmenotes.com/gone")
				id := heldChange(t, e, "DELETE", "/api/v1/webhooks/"+sub, "")
				e.api.Do(t, "DELETE", "/api/v1/webhooks/"+sub, apitest.KeyAPublish, "").Decode(t, 200, &map[string]any{})
				return id
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newPublishEnv(t)
			id := c.hold(t, e)
			wantCode(t, "approve", e.review(t, apitest.KeyAPublish, id, "approve"), c.status, c.code)
			if p := e.pending(t); len(p) != 1 || p[0]["id"] != id || p[0]["status"] != "pending" {
				t.Fatalf("after the refused approve, pending %v", p)
			}
			if m := e.me(t, keyAgentL0); m.PendingApprovals != 1 {
				t.Fatalf("pending_approvals %d, want 1", m.PendingApprovals)
			}
			if got := auditOf(t, e, "approval.approve"); len(got) != 0 {
				t.Fatalf("a refused approve was audited: %+v", got)
			}
			if c.then == "approve" {
				// Room again: the same request applies, and its entry names
				// the subscription it made.
				var subs struct{ Items []struct{ ID, URL string } }
				e.api.Do(t, "GET", "/api/v1/webhooks", apitest.KeyAPublish, "").Decode(t, 200, &subs)
				e.api.Do(t, "DELETE", "/api/v1/webhooks/"+subs.Items[0].ID, apitest.KeyAPublish, "").Decode(t, 200, &map[string]any{})
			}
			e.review(t, apitest.KeyAPublish, id, c.then).Decode(t, 200, &map[string]any{})
			if c.then != "approve" {
				return
			}
			var subs struct{ Items []struct{ ID, URL string } }
			e.api.Do(t, "GET", "/api/v1/webhooks", apitest.KeyAPublish, "").Decode(t, 200, &subs)
			created := ""
			for _, s := range subs.Items {
				if s.URL == "https://hooks.acmenotes.com/agent" {
					created = s.ID
				}
			}
			applied := auditOf(t, e, webhooks.ChangeCreate)
			if created == "" || len(applied) != 1 || applied[0].Resource != "webhook:"+created ||
				applied[0].Actor.Kind != audit.KindAgent || !strings.Contains(applied[0].Detail, id) {
				t.Fatalf("applied change: subscription %q, entries %+v", created, applied)
			}
		})
	}
}

// heldChange makes an L0 agent's subscription change and returns the id of
// the approval request it waits on.
func heldChange(t *testing.T, e *publishEnv, method, path, body string) string {
	t.Helper()
	var r map[string]any
	e.api.Do(t, method, path, keyAgentL0, body).Decode(t, 202, &r)
	return r["id"].(string)
}

// subscribe creates a subscription with a human key and returns its id.
func subscribe(t *testing.T, e *publishEnv, url string) string {
	t.Helper()
	var s struct{ ID string }
	e.api.Do(t, "POST", "/api/v1/webhooks", apitest.KeyAPublish, `{"url":"`+url+`"}`).Decode(t, 201, &s)
	return s.ID
}

// auditOf is the tenant's audit entries of an action made by the agent's
// held changes and their reviews (the human's own writes are left out).
func auditOf(t *testing.T, e *publishEnv, action string) []audit.Entry {
	t.Helper()
	var log struct{ Items []audit.Entry }
	e.api.Do(t, "GET", "/api/v1/audit?limit=200&action="+action, apitest.KeyAPublish, "").Decode(t, 200, &log)
	var out []audit.Entry
	for _, en := range log.Items {
		if en.Actor.Kind == audit.KindAgent || strings.HasPrefix(en.Resource, "approval:") {
			out = append(out, en)
		}
	}
	return out
}

// TestHeldChangeReplays: a held subscription change sent again with its
// Idempotency-Key replays the 202 of the first — the same approval request,
// marked replayed — whether the copies come one after another, ten at once,
// or after a human approved it; the change is applied once.
func TestHeldChangeReplays(t *testing.T) {
	for _, c := range []struct {
		name, method, body string
		// path is the route, given the id of a subscription made first.
		path func(sub string) string
	}{
		{name: "create", method: "POST", body: `{"url":"https://hooks.acmenotes.com/agent","secret":"agent-chosen-secret-0001"}`,
			path: func(string) string { return "/api/v1/webhooks" }},
		{name: "update", method: "PUT", body: `{"description":"renamed by the agent"}`,
			path: func(sub string) string { return "/api/v1/webhooks/" + sub }},
		{name: "delete", method: "DELETE",
			path: func(sub string) string { return "/api/v1/webhooks/" + sub }},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newPublishEnv(t)
			path := c.path(subscribe(t, e, "https://hooks.acmenotes.com/first"))
			send := func() apitest.Response {
				return e.api.Do(t, c.method, path, keyAgentL0, c.body, "Idempotency-Key", "held-"+c.name)
			}
			first := send()
			var want struct{ ID string }
			first.Decode(t, 202, &want)
			check := func(when string, r apitest.Response) {
				t.Helper()
				var got struct{ ID string }
				r.Decode(t, 202, &got)
				if got.ID != want.ID || r.Header.Get("Idempotent-Replayed") != "true" || string(r.Body) != string(first.Body) {
					t.Fatalf("%s: %s (replayed %q), want the first answer %s", when, r.Body, r.Header.Get("Idempotent-Replayed"), first.Body)
				}
			}
			check("retry", send())
			var wg sync.WaitGroup
			answers := make([]apitest.Response, 10)
			for i := range answers {
				wg.Go(func() { answers[i] = send() })
			}
			wg.Wait()
			for _, r := range answers {
				check("concurrent retry", r)
			}
			e.review(t, apitest.KeyAPublish, want.ID, "approve").Decode(t, 200, &map[string]any{})
			check("retry after the approval", send())
			if p := e.pending(t); len(p) != 0 {
				t.Fatalf("pending after the approval: %v", p)
			}
			if got := auditOf(t, e, "webhooks."+c.name); len(got) != 1 {
				t.Fatalf("the change was applied %d times: %+v", len(got), got)
			}
		})
	}
}

// TestRevokedAgentsRequestsCannotBeApproved: once the agent key that asked
// is revoked, its pending request is refused approval (409 invalid_state,
// still pending, nothing applied) and can be rejected.
func TestRevokedAgentsRequestsCannotBeApproved(t *testing.T) {
	e := newPublishEnv(t)
	id := heldChange(t, e, "POST", "/api/v1/webhooks", `{"url":"https://hooks.acmenotes.com/agent","secret":"agent-chosen-secret-0001"}`)
	var agent string
	for _, p := range e.pending(t) {
		agent = p["requestedBy"].(string)
	}
	if ok, err := e.api.Svc.Keys.Revoke(t.Context(), e.api.A.ID, agent); !ok || err != nil {
		t.Fatalf("revoke %s: %v %v", agent, ok, err)
	}
	wantCode(t, "approve", e.review(t, apitest.KeyAPublish, id, "approve"), 409, "invalid_state")
	if p := e.pending(t); len(p) != 1 || auditOf(t, e, webhooks.ChangeCreate) != nil {
		t.Fatalf("after the refused approve: pending %v", p)
	}
	e.review(t, apitest.KeyAPublish, id, "reject").Decode(t, 200, &map[string]any{})
}

// TestHeldChangeShowsItsEndpoint: a reviewer of an L0 agent's held
// subscription change sees the endpoint it touches as resourceTitle — the
// new URL of a create, the current URL of the subscription an update or a
// delete acts on (an update that moves the URL still names the current
// one; the new one is in the payload).
func TestHeldChangeShowsItsEndpoint(t *testing.T) {
	for _, c := range []struct {
		name, method, path, body, want string
	}{
		{"create", "POST", "/api/v1/webhooks", `{"url":"https://hooks.acmenotes.com/new","secret":"agent-chosen-secret-0001"}`, "https://hooks.acmenotes.com/new"},
		{"update", "PUT", "/api/v1/webhooks/{sub}", `{"url":"https://hooks.acmenotes.com/moved"}`, "https://hooks.acmenotes.com/current"},
		{"delete", "DELETE", "/api/v1/webhooks/{sub}", "", "https://hooks.acmenotes.com/current"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newPublishEnv(t)
			sub := subscribe(t, e, "https://hooks.acmenotes.com/current")
			id := heldChange(t, e, c.method, strings.ReplaceAll(c.path, "{sub}", sub), c.body)
			p := e.pending(t)
			if len(p) != 1 || p[0]["id"] != id || p[0]["resourceTitle"] != c.want {
				t.Fatalf("pending %v: want resourceTitle %q", p, c.want)
			}
		})
	}
}
