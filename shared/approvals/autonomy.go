package approvals

import (
	"context"
	"encoding/json"

	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/auth"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/store"
)

// ActionPublish is the action of a publish request (the one action L1
// agents still need approval for).
const ActionPublish = "publish"

// Gated reports whether an action of p needs a human's approval before it
// happens (the autonomy rules):
//
//   - L0 (manual): every side effect — query runs, gap detection, brief
//     and article generation, re-scoring, publishing, webhook
//     subscription changes;
//   - L1 (auto-propose): publishing only (an L1 agent runs and generates
//     freely and proposes publishes);
//   - L2 (auto-publish) and human keys: nothing.
func Gated(p auth.Principal, action string) bool {
	switch p.Level() {
	case auth.L2:
		return false
	case auth.L1:
		return action == ActionPublish
	}
	return true // L0, and any level this code does not know
}

// PendingError: an open request for the same action and resource waits
// for review (409 approval_pending, naming it when known).
type PendingError struct{ ApprovalID string }

func (e *PendingError) Error() string {
	if e.ApprovalID == "" {
		return "approvals: a request for this action is pending review"
	}
	return "approvals: request " + e.ApprovalID + " for this action is pending review"
}

// Is makes the error match ErrPending.
func (e *PendingError) Is(t error) bool { return t == ErrPending }

// Held is an approval request that holds a job back until it is reviewed
// (GateEnqueue): Ops create it in the job's transaction; the op at SlotAt
// fails when a concurrent request took the slot first.
type Held struct {
	Request Request
	Ops     []store.Op
	SlotAt  int
}

// Hold returns the request that holds job back for review: action by p on
// resourceRef, with payload (what will be done) shown to the reviewer. The
// slot is per action, resource and requesting key: a second request of the
// same key for the same thing while one is pending is a *PendingError.
// The job is marked awaiting approval (stored queued, not enqueued):
// approval enqueues it, rejection fails it at 0 credits.
func Hold(ctx context.Context, tbl store.Table, p auth.Principal, action, resourceRef, summary string, subj Subject, payload any, job *jobs.Job) (Held, error) {
	slot := SlotOf(action, resourceRef, p.KeyID)
	open, ok, err := OpenIn(ctx, tbl, p.TenantID, slot)
	if err != nil {
		return Held{}, err
	}
	if ok {
		return Held{}, &PendingError{ApprovalID: open.ApprovalID}
	}
	r := New(p.TenantID, p, action, resourceRef, slot, summary, job.CreatedAt)
	r.Subject = subj
	if payload != nil {
		b, err := json.Marshal(payload)
		if err != nil {
			return Held{}, err
		}
		r.Payload = b
	}
	r.Gate, r.JobID = GateEnqueue, job.ID
	ops, slotAt, err := CreateOps(r, audit.ActorOf(p))
	if err != nil {
		return Held{}, err
	}
	job.ApprovalID, job.AwaitingApproval = &r.ID, true
	return Held{Request: r, Ops: ops, SlotAt: slotAt}, nil
}
