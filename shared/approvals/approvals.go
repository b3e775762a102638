// Package approvals holds the human approvals that agent autonomy rests
// on: approval requests (an agent's side effect held back until a human
// reviews it), their review, and the autonomy level an agent key earns by
// them.
//
// Invariants, each kept by a conditional write in one transaction:
//
//   - at most one open request (pending, or approved and not yet used) per
//     action and resource: a slot item APPROVALSLOT#<slot> is put with a
//     not-exists condition in the transaction that creates the request;
//   - a request is reviewed once (the review is conditional on the request
//     still pending);
//   - an approval authorizes exactly one action: consuming it deletes its
//     slot on the condition that the slot still names it approved, in the
//     transaction that creates the job it authorizes;
//   - an agent key's counts of approved and rejected requests change in the
//     review's transaction, and so does its autonomy level when they earn a
//     promotion (L0 → L1 at 3 approved; L1 → L2 at 20 approved with an
//     approval rate of at least 95%).
package approvals

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/auth"
	"github.com/brandlens/brandlens/shared/ids"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/timeline"
)

// Statuses of a request.
const (
	StatusPending  = "pending"
	StatusApproved = "approved"
	StatusRejected = "rejected"
)

// Statuses lists them (the API's enum).
var Statuses = []string{StatusPending, StatusApproved, StatusRejected}

// How a held-back job resumes once its request is reviewed.
const (
	// GateWorkflow: the job's workflow waits on a task token (publishing):
	// the review answers the token.
	GateWorkflow = "workflow"
	// GateEnqueue: the job is stored but not enqueued: approval enqueues
	// it, rejection settles it failed at 0 credits.
	GateEnqueue = "enqueue"
	// GateNone: no job; approval applies Payload (webhook changes).
	GateNone = "none"
)

// Audit actions.
const (
	ActionRequest = "approval.request"
	ActionApprove = "approval.approve"
	ActionReject  = "approval.reject"
	ActionPromote = "autonomy.promote"
)

// MaxReason caps a reviewer's reason.
const MaxReason = 1000

// Subject is what a reviewer is shown about the resource a request acts
// on, besides its summary (for a publish: the piece, its query and the
// destination); the API shows it as it is stored.
type Subject struct {
	ResourceTitle   *string `json:"resourceTitle"`
	QueryText       *string `json:"queryText"`
	DestinationName *string `json:"destinationName"`
	DestinationType *string `json:"destinationType"`
}

// Request is a stored approval request; its API shape is the spec's
// ApprovalRequestDto (built by the HTTP layer).
type Request struct {
	ID       string `json:"id"`
	TenantID int32  `json:"tenantId"`
	// Action is what the agent asked to do (publish, queries.run,
	// gaps.detect, content.generate_brief, …).
	Action      string `json:"action"`
	ResourceRef string `json:"resourceRef"`
	Status      string `json:"status"`
	// RequestedBy is the agent key's id; RequestedByLevel its level then.
	RequestedBy      string  `json:"requestedBy"`
	RequestedByLevel string  `json:"requestedByLevel"`
	ReviewedBy       *string `json:"reviewedBy"`
	Reason           *string `json:"reason"`
	Summary          string  `json:"summary"`
	Subject
	CreatedAt  time.Time  `json:"createdAt"`
	ReviewedAt *time.Time `json:"reviewedAt"`
	// Payload is exactly what will be done or sent (for publish, the
	// PublishPayload's bytes), as the reviewer is shown it.
	Payload json.RawMessage `json:"payload"`
	// ApplyData is what an approved job-less request (GateNone) is carried
	// out with, when it holds more than the reviewer is shown (a
	// write-only secret); never shown.
	ApplyData json.RawMessage `json:"applyData,omitempty"`
	// Slot names the action and resource the request holds open.
	Slot string `json:"slot"`
	// Gate says how JobID resumes; JobID is the job held back ("" for
	// GateNone).
	Gate  string `json:"gate"`
	JobID string `json:"jobId,omitempty"`
	// ConsumedBy is the job the approval was used by.
	ConsumedBy string `json:"consumedBy,omitempty"`
	// TaskToken answers the waiting workflow (GateWorkflow); never shown.
	TaskToken string `json:"taskToken,omitempty"`
}

// Errors callers branch on.
var (
	// ErrNotFound: no such request in the tenant.
	ErrNotFound = errors.New("approvals: not found")
	// ErrAlreadyReviewed: the request was approved or rejected before.
	ErrAlreadyReviewed = errors.New("approvals: already reviewed")
	// ErrPending: an open request for the same action and resource is
	// waiting for review.
	ErrPending = errors.New("approvals: a request is pending")
	// ErrRequired: the action needs an approved request and none exists.
	ErrRequired = errors.New("approvals: approval required")
	// ErrRequesterRevoked: the agent key that asked was revoked since;
	// its request can only be rejected.
	ErrRequesterRevoked = errors.New("approvals: the requesting key was revoked")
)

// ReviewedError reports a second review (409 approval_already_reviewed).
type ReviewedError struct{ Status string }

func (e *ReviewedError) Error() string   { return "approvals: the request is already " + e.Status }
func (e *ReviewedError) Is(t error) bool { return t == ErrAlreadyReviewed }

const (
	skPrefix   = "APPROVAL#"
	slotPrefix = "APPROVALSLOT#"
	attrStatus = "status"
	attrID     = "approvalId"
	idPrefix   = "apr_"
)

// Key is the item key of a request.
func Key(tenantID int32, id string) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: skPrefix + id}
}

func slotKey(tenantID int32, slot string) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: slotPrefix + slot}
}

func pendingKey(tenantID int32) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: "APPROVALPENDING"}
}

func statsKey(tenantID int32, keyID string) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: "AUTONOMY#" + keyID}
}

// SlotOf names the open-request slot of an action on a resource; qualifier
// narrows it (publishing: the destination).
func SlotOf(action, resourceRef, qualifier string) string {
	s := action + "#" + resourceRef
	if qualifier != "" {
		s += "#" + qualifier
	}
	return s
}

func docs(tbl store.Table) store.Collection[Request] {
	return store.Collection[Request]{
		Table: tbl, Name: "approvals: request", NotFound: ErrNotFound,
		Key:   func(r Request) store.Key { return Key(r.TenantID, r.ID) },
		Attrs: func(r Request) store.Item { return store.Item{attrStatus: r.Status} },
	}
}

// Callbacks answer a workflow waiting on a task token (Step Functions'
// SendTaskSuccess / SendTaskFailure, or the local runner's).
type Callbacks interface {
	SendTaskSuccess(ctx context.Context, token string, output json.RawMessage) error
	SendTaskFailure(ctx context.Context, token, errName, cause string) error
}

// HeldJobs resumes jobs held back with GateEnqueue: Release enqueues an
// approved one, Fail settles a rejected one as failed at 0 credits.
type HeldJobs interface {
	Release(ctx context.Context, tenantID int32, jobID string) error
	Fail(ctx context.Context, tenantID int32, jobID, reason string) error
}

// Applier prepares an approved request without a job (GateNone) for the
// review's transaction (appliers are kept by action); an error leaves the
// request pending. For a request whose held job waits (GateEnqueue) it
// gives what the job's acceptance records, when the job uses the approval.
type Applier func(ctx context.Context, r Request) (Applied, error)

// Applied is a held change ready to commit with the review that approves
// it, so that the approval, the change and its audit entry are all written
// or none is.
type Applied struct {
	Ops []store.Op
	// ResourceRef names the resource changed (a create's new one), which
	// the applied entry names.
	ResourceRef string
	// Refused is the error a failed condition of Ops[i] answers (a cap
	// reached, the resource gone); nil when the resource changed meanwhile
	// and the change is prepared again.
	Refused func(i int) error
}

// ApplyError: an approved change could not be applied. Err is the change's
// own error (a *validation.LimitError, a *validation.Error, its resource
// not found) or the failure to prepare it. Nothing was written: the
// request is still pending, for a reviewer to reject or to approve once
// the change can apply.
type ApplyError struct{ Err error }

func (e *ApplyError) Error() string {
	return "approvals: the approved change cannot be applied: " + e.Err.Error()
}
func (e *ApplyError) Unwrap() error { return e.Err }

// Service creates, lists and reviews requests.
type Service struct {
	tbl       store.Table
	callbacks Callbacks
	held      HeldJobs
	appliers  map[string]Applier
	now       func() time.Time
}

// NewService returns the service. callbacks answer waiting workflows,
// held resumes held-back jobs, appliers carry out job-less requests.
func NewService(tbl store.Table, callbacks Callbacks, held HeldJobs, appliers map[string]Applier, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{tbl: tbl, callbacks: callbacks, held: held, appliers: appliers, now: now}
}

// New returns a pending request with a fresh id, stamped now.
func New(tenantID int32, p auth.Principal, action, resourceRef, slot, summary string, now time.Time) Request {
	now = now.UTC()
	return Request{ID: idPrefix + ids.ULID(now), TenantID: tenantID, Action: action, ResourceRef: resourceRef,
		Status: StatusPending, RequestedBy: p.KeyID, RequestedByLevel: string(p.Autonomy), Summary: summary,
		Slot: slot, CreatedAt: now}
}

// CreateOps are the ops that store r as pending (for the transaction that
// also stores the job it holds back). SlotIndex is the index, within the
// returned ops, of the slot's put: its condition fails when an open
// request for the same slot exists (Open tells which).
func CreateOps(r Request, actor audit.Actor) (ops []store.Op, slotIndex int, err error) {
	if r.Slot == "" || r.ID == "" {
		return nil, 0, errors.New("approvals: a request needs an id and a slot")
	}
	put, err := docs(nil).PutOp(r, store.NotExists())
	if err != nil {
		return nil, 0, err
	}
	sk := slotKey(r.TenantID, r.Slot)
	slot := store.PutOp(store.Item{store.AttrPK: sk.PK, store.AttrSK: sk.SK, attrID: r.ID, attrStatus: StatusPending}, store.NotExists())
	entry := audit.New(r.TenantID, actor, ActionRequest, audit.Resource("approval", r.ID), audit.OutcomeAccepted, r.CreatedAt)
	entry.JobID = r.JobID
	entry.Detail = r.Action + " on " + r.ResourceRef + ": " + r.Summary
	auditOp, err := audit.Op(entry)
	if err != nil {
		return nil, 0, err
	}
	pk := pendingKey(r.TenantID)
	return []store.Op{put, slot, store.UpdateOp(pk, store.Update{Add: map[string]int64{"n": 1}}, store.Cond{}), auditOp}, 1, nil
}

// Open is the open request of a slot, if any.
type Open struct {
	ApprovalID string
	Status     string // pending or approved (not yet used)
}

// OpenIn returns the slot's open request; ok is false when there is none.
func OpenIn(ctx context.Context, tbl store.Table, tenantID int32, slot string) (o Open, ok bool, err error) {
	it, err := tbl.Get(ctx, slotKey(tenantID, slot))
	if errors.Is(err, store.ErrNotFound) {
		return Open{}, false, nil
	}
	if err != nil {
		return Open{}, false, fmt.Errorf("approvals: read slot: %w", err)
	}
	return Open{ApprovalID: it.String(attrID), Status: it.String(attrStatus)}, true, nil
}

// ConsumeOps use the slot's approved request for jobID: the slot goes
// (conditional on it naming approvalID, approved) and the request records
// the job. Of concurrent consumers exactly one commits.
func ConsumeOps(tenantID int32, slot, approvalID, jobID string) []store.Op {
	return []store.Op{
		store.DeleteOp(slotKey(tenantID, slot), store.And(store.Eq(attrID, approvalID), store.Eq(attrStatus, StatusApproved))),
		store.UpdateOp(Key(tenantID, approvalID), store.Update{Set: map[string]any{"consumedBy": jobID}},
			store.And(store.Eq(attrStatus, StatusApproved), store.AttrNotExists("consumedBy"))),
	}
}

// Create stores a pending request of an action that has no job (GateNone:
// approval applies it), in one transaction with the ops of with (the
// idempotency record of the answer), placed first: a failed condition of
// with[i] is a *store.TxConditionError of Index i. A pending request for
// the same slot is a *PendingError naming it.
func (s *Service) Create(ctx context.Context, r Request, actor audit.Actor, with ...store.Op) (Request, error) {
	ops, slotAt, err := CreateOps(r, actor)
	if err != nil {
		return Request{}, err
	}
	slotAt += len(with)
	err = s.tbl.TransactWrite(ctx, append(with, ops...)...)
	var txe *store.TxConditionError
	switch {
	case errors.As(err, &txe) && txe.Index == slotAt:
		open, _, oerr := OpenIn(ctx, s.tbl, r.TenantID, r.Slot)
		if oerr != nil {
			return Request{}, oerr
		}
		return Request{}, &PendingError{ApprovalID: open.ApprovalID}
	case err != nil:
		return Request{}, fmt.Errorf("approvals: create request: %w", err)
	}
	return r, nil
}

// Table is the table the service keeps requests in.
func (s *Service) Table() store.Table { return s.tbl }

// Get returns one request of the tenant.
func (s *Service) Get(ctx context.Context, tenantID int32, id string) (Request, error) {
	snap, err := s.read(ctx, tenantID, id)
	if err != nil {
		return Request{}, err
	}
	r := snap.Value
	if it, err := s.tbl.Get(ctx, Key(tenantID, id)); err == nil && it.String("consumedBy") != "" {
		r.ConsumedBy = it.String("consumedBy")
	}
	return r, nil
}

func (s *Service) read(ctx context.Context, tenantID int32, id string) (store.Snapshot[Request], error) {
	if !strings.HasPrefix(id, idPrefix) || len(id) > 64 {
		return store.Snapshot[Request]{}, ErrNotFound
	}
	return docs(s.tbl).Read(ctx, Key(tenantID, id))
}

// ListPending returns a page of the tenant's pending requests, newest
// first, and the cursor of the next page. The cursor is the ULID after the
// id's "apr_", the timeline's cursor shape, so that it pages like the
// other timelines.
func (s *Service) ListPending(ctx context.Context, tenantID int32, limit int, cursor string) ([]Request, string, error) {
	return timeline.Page[Request](ctx, s.tbl, timeline.Query{PK: tenants.PK(tenantID), Prefix: skPrefix + idPrefix,
		Filter: timeline.StatusFilter(attrStatus, StatusPending), Limit: limit, Cursor: cursor})
}

// PendingCount is the number of the tenant's requests awaiting review
// (GET /api/v1/me's pending_approvals), kept by the transactions that
// create and review them.
func PendingCount(ctx context.Context, tbl store.Table, tenantID int32) (int64, error) {
	it, err := tbl.Get(ctx, pendingKey(tenantID))
	if errors.Is(err, store.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("approvals: count pending: %w", err)
	}
	return max(it.Int("n"), 0), nil
}

// SetTaskToken records the token the request's waiting workflow answers
// to, while the request is pending. When it was reviewed meanwhile, the
// returned request says how (the caller answers the token itself).
func (s *Service) SetTaskToken(ctx context.Context, tenantID int32, id, token string) (Request, error) {
	for {
		snap, err := s.read(ctx, tenantID, id)
		if err != nil {
			return Request{}, err
		}
		r := snap.Value
		if r.Status != StatusPending || r.TaskToken == token {
			return s.Get(ctx, tenantID, id)
		}
		r.TaskToken = token
		op, err := docs(nil).ReplaceOp(snap, r)
		if err != nil {
			return Request{}, err
		}
		op.Cond = store.And(op.Cond, store.Eq(attrStatus, StatusPending))
		err = s.tbl.Put(ctx, op.Item, op.Cond)
		if errors.Is(err, store.ErrConditionFailed) {
			continue
		}
		if err != nil {
			return Request{}, fmt.Errorf("approvals: record task token: %w", err)
		}
		return r, nil
	}
}

// Consume uses the request for jobID when it is approved and unused, or
// was already used by jobID; ok is false otherwise (used by another job).
func (s *Service) Consume(ctx context.Context, tenantID int32, id, jobID string) (ok bool, err error) {
	r, err := s.Get(ctx, tenantID, id)
	if err != nil {
		return false, err
	}
	switch {
	case r.ConsumedBy == jobID:
		return true, nil
	case r.Status != StatusApproved || r.ConsumedBy != "":
		return false, nil
	}
	err = s.tbl.TransactWrite(ctx, ConsumeOps(tenantID, r.Slot, id, jobID)...)
	if errors.Is(err, store.ErrConditionFailed) {
		r, gerr := s.Get(ctx, tenantID, id)
		return gerr == nil && r.ConsumedBy == jobID, gerr
	}
	if err != nil {
		return false, fmt.Errorf("approvals: consume: %w", err)
	}
	return true, nil
}
