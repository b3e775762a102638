package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/brandlens/brandlens/shared/approvals"
	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/idempotency"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/meter"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/webhooks"
)

// Autonomy says how a route's side effect waits for a human when the
// caller's autonomy level requires it (approvals.Gated).
type Autonomy int

// How routes are gated.
const (
	// AutonomyFree: the route has no side effect an agent is held to.
	AutonomyFree Autonomy = iota
	// AutonomyHeldJob: at L0 the job is created queued and held: an
	// approval request is created with it (approvalId in the answer),
	// approval runs it, rejection fails it at 0 credits.
	AutonomyHeldJob
	// AutonomyHeldChange: at L0 nothing changes yet: the answer is 202
	// with the approval request; approval applies the change.
	AutonomyHeldChange
	// AutonomyPublish: at L0 and L1 execute needs an approved request
	// (403 approval_required); propose creates one.
	AutonomyPublish
)

// autonomyDocs describe each kind in the OpenAPI document.
var autonomyDocs = map[Autonomy]string{
	AutonomyHeldJob: "Agent autonomy: an L0 agent's call creates the job held back (queued) together with an approval request " +
		"(approvalId in the answer); a human's approval runs it, a rejection fails it at 0 credits. A second call of the same key " +
		"for the same resource while one waits is 409 approval_pending. L1 and L2 agents and human keys run at once.",
	AutonomyHeldChange: "Agent autonomy: an L0 agent's call changes nothing yet: it answers 202 with the approval request it created, " +
		"and a human's approval applies the change exactly as requested (a new subscription then needs its own secret). " +
		"A second call of the same key for the same resource while one waits is 409 approval_pending. L1 and L2 agents and human keys act at once.",
	AutonomyPublish: "Agent autonomy: propose creates an approval request at any level; execute runs at once for a human key or an L2 agent, " +
		"and for an L0 or L1 agent only with an approved, unused request for this opportunity and destination (else 403 approval_required; " +
		"409 approval_pending while one waits).",
}

// describeJob tells a reviewer what a held job is about: its one-line
// summary and its subject. It runs only for a held job, once the job is
// built (and the request's prechecks have found its resource).
type describeJob func(ctx context.Context, job *jobs.Job) (string, approvals.Subject, error)

// heldJob returns the Prepare of a job-creating write: for a caller that
// needs approval first (an L0 agent), the job is held back and the
// approval request, whose payload is what will run, joins the job's
// transaction; otherwise prev as it is.
func (s *Server) heldJob(rq *Request, action, resource string, describe describeJob, payload any,
	prev func(context.Context, *jobs.Job) (meter.Prepared, error)) func(context.Context, *jobs.Job) (meter.Prepared, error) {
	if rq.Route == nil || rq.Route.Autonomy != AutonomyHeldJob || !approvals.Gated(rq.Principal, action) {
		return prev
	}
	return func(ctx context.Context, job *jobs.Job) (meter.Prepared, error) {
		var prep meter.Prepared
		if prev != nil {
			var err error
			if prep, err = prev(ctx, job); err != nil {
				return prep, err
			}
		}
		summary, subj, err := describe(ctx, job)
		if err != nil {
			return prep, err
		}
		h, err := approvals.Hold(ctx, s.Approvals.Table(), rq.Principal, action, resource, summary, subj, payload, job)
		if err != nil {
			return prep, err
		}
		for i, op := range h.Ops {
			g := meter.Guard{Op: op}
			if i == h.SlotAt {
				g.Err = &approvals.PendingError{} // a concurrent request of the key took the slot
			}
			prep.Guards = append(prep.Guards, g)
		}
		prep.Hold = true
		return prep, nil
	}
}

// jobSummary is the reviewer's one-line description of a held job.
func jobSummary(action, resource string, cost int64) string {
	return fmt.Sprintf("%s on %s (%d credits if it succeeds)", action, resource, cost)
}

// deferred is the answer of an L0 agent's change that waits for approval:
// 202 with the approval request (ServeHTTP writes it).
type deferred struct{ request ApprovalRequestDto }

func (d *deferred) Error() string { return "the change waits for approval " + *d.request.ID }

// deferChange holds an L0 agent's subscription change for a human: the
// change is checked now (as it would be applied), then an approval request
// shows it (its secret write-only) and keeps it for the approval to apply.
// It returns nil when the caller may act at once.
func (s *Server) deferChange(rq *Request, c webhooks.Change, resource string) error {
	if !approvals.Gated(rq.Principal, c.Action) {
		return nil
	}
	ctx := rq.HTTP.Context()
	url, err := s.Webhooks.CheckChange(ctx, rq.Principal.TenantID, c)
	if err != nil {
		return webhookError(err, "webhook subscription")
	}
	shown, err := json.Marshal(c.Shown())
	if err != nil {
		return err
	}
	p := rq.Principal
	r := approvals.New(p.TenantID, p, c.Action, resource, approvals.SlotOf(c.Action, resource, p.KeyID),
		fmt.Sprintf("%s on %s, requested by agent key %s", c.Action, resource, p.KeyID), s.Now())
	apply, err := s.Webhooks.Hold(ctx, p.TenantID, r.ID, c)
	if err != nil {
		return err
	}
	r.Gate, r.Payload, r.ApplyData = approvals.GateNone, shown, apply
	// A reviewer of an update or a delete sees which endpoint it touches,
	// not only the subscription's id.
	r.ResourceTitle = &url
	held := &deferred{request: approvalDto(r)}
	// The 202 is the key's answer from the moment the request exists: a
	// retry replays it, before the review and after it, and never holds
	// the change a second time.
	var with []store.Op
	if rq.Idempotency != nil {
		body, err := encodeJSON(held.request)
		if err != nil {
			return err
		}
		with = append(with, idempotency.AnswerOp(*rq.Idempotency, http.StatusAccepted, body))
	}
	_, err = s.Approvals.Create(ctx, r, audit.ActorOf(p), with...)
	var txe *store.TxConditionError
	if errors.As(err, &txe) && len(with) > 0 && txe.Index == 0 {
		return idempotencyInProgress() // a retry took the claim over
	}
	if err != nil {
		return jobError(err)
	}
	return held
}
