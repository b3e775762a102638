package httpapi

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"github.com/brandlens/brandlens/shared/audit"
)

// Every keyed write is audit-logged here, once it has taken effect (a
// replay of its Idempotency-Key runs nothing and logs nothing), so that no
// route can leave its entry out. Job-creating writes and reviews are the
// exception: their domain writes the entry in the same transaction as the
// job or the review (auditedByDomain).

// auditedByDomain reports whether the route's own transaction writes its
// audit entry: the writes that create jobs (meter and runs log the request
// with the job), approval reviews, and routes marked DomainAudit (an
// opportunity's dismissal, logged with the gap it sets aside).
func (r *Route) auditedByDomain() bool {
	return r.DomainAudit || r.Autonomy == AutonomyHeldJob || r.Autonomy == AutonomyPublish || r.Guard == GuardReviewer
}

// AuditAction is the audit action of a keyed write, from its path and
// method: <collection>.create for a POST on the collection, .update for a
// PUT, .delete for a DELETE, and the last path segment for an action on a
// resource (queries.run, competitors.dismiss, webhooks.ping). Only
// /api/v1 writes are logged by the router (auditedByDomain).
func (r *Route) AuditAction() string {
	coll, verb := r.auditAction()
	return coll + "." + verb
}

func (r *Route) auditAction() (coll, verb string) {
	segs := splitPath(strings.TrimPrefix(r.Path, "/api/v1/"))
	coll = strings.ReplaceAll(segs[0], "-", "_")
	last := segs[len(segs)-1]
	switch {
	case !strings.HasPrefix(last, "{") && len(segs) > 1:
		return coll, strings.ReplaceAll(last, "-", "_")
	case r.Method == "PUT":
		return coll, "update"
	case r.Method == "DELETE":
		return coll, "delete"
	}
	return coll, "create"
}

// auditKinds name a collection's resources in audit entries.
var auditKinds = map[string]string{"queries": "query", "competitors": "competitor", "webhooks": "webhook",
	"destinations": "destination", "brand_profiles": "brand_profile"}

// auditWrite appends the entry of a keyed write that took effect: who
// (the key, agent or not, its level), the action, the resource (its path
// id, or the id of what a create made) and the outcome. It records no
// body, so no secret. A failed append is logged, not answered: the write
// has happened, and an error answer would free its Idempotency-Key for a
// retry that would do it again.
func (s *Server) auditWrite(rq *Request, path map[string]string, out any) {
	if rq.Route.auditedByDomain() || s.Audit == nil {
		return
	}
	coll, verb := rq.Route.auditAction()
	action := coll + "." + verb
	id := path["id"]
	if id == "" {
		id = idOf(out)
	}
	e := audit.New(rq.Principal.TenantID, audit.ActorOf(rq.Principal), action, audit.Resource(auditKinds[coll], id),
		audit.OutcomeSucceeded, s.Now())
	if d := path["deliveryId"]; d != "" {
		e.Detail = "delivery " + d
	}
	// The write has happened: a client that hangs up now must not cost its
	// entry (as runClaimed finishes a claimed write).
	if err := s.Audit.Append(context.WithoutCancel(rq.HTTP.Context()), e); err != nil {
		s.Logger.Error("audit entry of a write", "action", action, "resource", e.Resource, "error", err.Error())
	}
}

// idOf is the ID member of an answer (the record a create made), "" when
// it has none.
func idOf(out any) string {
	v := reflect.Indirect(reflect.ValueOf(out))
	if v.Kind() != reflect.Struct {
		return ""
	}
	f := reflect.Indirect(v.FieldByName("ID"))
	if !f.IsValid() {
		return ""
	}
	return fmt.Sprint(f.Interface())
}
