package approvals

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/auth"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/validation"
)

// Promotion thresholds (spec, States: autonomy level).
const (
	ApprovalsForL1    = 3
	ApprovalsForL2    = 20
	MinApprovalRateL2 = 0.95
)

// Stats are an agent key's reviewed requests.
type Stats struct {
	Approved int64 `json:"approved"`
	Rejected int64 `json:"rejected"`
}

// Rate is the share of reviewed requests that were approved (1 when none).
func (st Stats) Rate() float64 {
	if st.Approved+st.Rejected == 0 {
		return 1
	}
	return float64(st.Approved) / float64(st.Approved+st.Rejected)
}

// Earned is the level the stats earn a key at level from: promotions
// only, one step at a time (L0 → L1 → L2); never a demotion.
func Earned(from auth.Autonomy, st Stats) auth.Autonomy {
	switch {
	case from == auth.L0 && st.Approved >= ApprovalsForL1:
		return auth.L1
	case from == auth.L1 && st.Approved >= ApprovalsForL2 && st.Rate() >= MinApprovalRateL2:
		return auth.L2
	}
	return from
}

// StatsOf returns an agent key's reviewed requests.
func StatsOf(ctx context.Context, tbl store.Table, tenantID int32, keyID string) (Stats, error) {
	st, _, err := readStats(ctx, tbl, tenantID, keyID)
	return st, err
}

func readStats(ctx context.Context, tbl store.Table, tenantID int32, keyID string) (Stats, store.Cond, error) {
	it, err := tbl.Get(ctx, statsKey(tenantID, keyID))
	if errors.Is(err, store.ErrNotFound) {
		return Stats{}, store.NotExists(), nil
	}
	if err != nil {
		return Stats{}, store.Cond{}, fmt.Errorf("approvals: read stats: %w", err)
	}
	return Stats{Approved: it.Int("approved"), Rejected: it.Int("rejected")},
		store.And(store.Eq("approved", it.Int("approved")), store.Eq("rejected", it.Int("rejected"))), nil
}

// Decision is a reviewer's verdict.
type Decision struct {
	Approve bool
	Reason  *string
	// Reviewer is the human key reviewing (never an agent: the HTTP guard
	// refuses agent keys, and Review checks again).
	Reviewer auth.Principal
}

// Outcome is what a review did.
type Outcome struct {
	Request Request
	// Promoted is the requesting key's new level when this review earned
	// it a promotion ("" otherwise).
	Promoted auth.Autonomy
	Stats    Stats
}

// CheckReason validates a reviewer's reason.
func CheckReason(reason *string) error {
	if reason == nil {
		return nil
	}
	if utf8.RuneCountInString(*reason) > MaxReason {
		return validation.Field("reason", "must be at most %d characters", MaxReason)
	}
	if strings.ContainsFunc(*reason, func(r rune) bool { return r < 0x20 && r != '\n' && r != '\t' }) {
		return validation.Field("reason", "must not contain control characters")
	}
	return nil
}

// Review approves or rejects a pending request. One transaction changes
// the request (conditional on it still pending), its slot, the pending
// count, the requesting key's stats and — when they earn it — its autonomy
// level, with the audit entries of the review and the promotion. An
// approval of a request whose job waits is used by that job in the same
// transaction; an approved change without a job (GateNone) is applied in
// it, with the requesting agent's entry, and one that cannot be applied is
// an *ApplyError with nothing written. Then the held job resumes: its
// workflow's token is answered, or it is enqueued, or failed at 0 credits.
func (s *Service) Review(ctx context.Context, tenantID int32, id string, d Decision) (Outcome, error) {
	if d.Reviewer.IsAgent || !d.Reviewer.Allows(auth.ScopePublish) {
		return Outcome{}, errors.New("approvals: only a human key with the publish scope reviews")
	}
	if err := CheckReason(d.Reason); err != nil {
		return Outcome{}, err
	}
	consume := true
	for {
		snap, err := s.read(ctx, tenantID, id)
		if err != nil {
			return Outcome{}, err
		}
		if snap.Value.Status != StatusPending {
			return Outcome{}, &ReviewedError{Status: snap.Value.Status}
		}
		out, jobCheck, ops, err := s.reviewOps(ctx, snap, d, consume)
		if err != nil {
			return Outcome{}, err
		}
		change, at, err := s.applyOps(ctx, out.Request, len(ops))
		if err != nil {
			return Outcome{}, err
		}
		ops = append(ops, change...)
		err = s.tbl.TransactWrite(ctx, ops...)
		var txe *store.TxConditionError
		var refused error
		if errors.As(err, &txe) {
			refused = at.refused(txe.Index)
		}
		switch {
		case refused != nil:
			return Outcome{}, &ApplyError{Err: refused}
		case errors.As(err, &txe) && txe.Index == jobCheck:
			consume = false // the job ended meanwhile: the approval stays for another
			continue
		case errors.As(err, &txe):
			continue // the request, its stats or the key changed: decide again
		case err != nil:
			return Outcome{}, fmt.Errorf("approvals: review: %w", err)
		}
		return out, s.resume(ctx, out.Request)
	}
}

func (s *Service) reviewOps(ctx context.Context, snap store.Snapshot[Request], d Decision, consume bool) (Outcome, int, []store.Op, error) {
	r := snap.Value
	now := s.now().UTC()
	reviewer := d.Reviewer.KeyID
	r.ReviewedBy, r.ReviewedAt, r.Reason = &reviewer, &now, d.Reason
	r.Status = StatusRejected
	if d.Approve {
		r.Status = StatusApproved
	}
	jobCheck := -1
	var ops []store.Op
	slot := slotKey(r.TenantID, r.Slot)
	own := store.Eq(attrID, r.ID)
	switch {
	case !d.Approve:
		ops = append(ops, store.DeleteOp(slot, own))
	case consume && r.JobID != "":
		// The job held back by this request uses it now.
		r.ConsumedBy = r.JobID
		ops = append(ops, store.DeleteOp(slot, own))
	case r.Gate == GateWorkflow:
		// A publish whose workflow ended meanwhile: the approval stays
		// open for one later execute of the same publish.
		ops = append(ops, store.UpdateOp(slot, store.Update{Set: map[string]any{attrStatus: StatusApproved}}, own))
	default:
		// Applied at once (GateNone), or its held job ended meanwhile:
		// nothing else may use it.
		ops = append(ops, store.DeleteOp(slot, own))
	}
	put, err := docs(nil).ReplaceOp(snap, r)
	if err != nil {
		return Outcome{}, 0, nil, err
	}
	put.Cond = store.And(put.Cond, store.Eq(attrStatus, StatusPending))
	if r.ConsumedBy != "" {
		put.Item["consumedBy"] = r.ConsumedBy
	}
	ops = append([]store.Op{put}, ops...)
	if r.ConsumedBy != "" {
		jobCheck = len(ops)
		ops = append(ops, store.CheckOp(jobs.Key(r.TenantID, r.JobID), store.Eq("status", jobs.StatusQueued)))
	}
	ops = append(ops, store.UpdateOp(pendingKey(r.TenantID), store.Update{Add: map[string]int64{"n": -1}}, store.Ge("n", 1)))

	// The requesting key's stats, and its level when they earn more.
	st, stCond, err := readStats(ctx, s.tbl, r.TenantID, r.RequestedBy)
	if err != nil {
		return Outcome{}, 0, nil, err
	}
	if d.Approve {
		st.Approved++
	} else {
		st.Rejected++
	}
	sk := statsKey(r.TenantID, r.RequestedBy)
	ops = append(ops, store.PutOp(store.Item{store.AttrPK: sk.PK, store.AttrSK: sk.SK, "approved": st.Approved, "rejected": st.Rejected}, stCond))
	actor := audit.ActorOf(d.Reviewer)
	verb := ActionReject
	if d.Approve {
		verb = ActionApprove
	}
	entry := audit.New(r.TenantID, actor, verb, audit.Resource("approval", r.ID), audit.OutcomeSucceeded, now)
	entry.JobID = r.JobID
	entry.Detail = fmt.Sprintf("%s on %s requested by %s", r.Action, r.ResourceRef, r.RequestedBy)
	if d.Reason != nil && *d.Reason != "" {
		entry.Detail += "; reason: " + *d.Reason
	}
	auditOp, err := audit.Op(entry)
	if err != nil {
		return Outcome{}, 0, nil, err
	}
	ops = append(ops, auditOp)
	out := Outcome{Request: r, Stats: st}
	key, err := auth.ReadKey(ctx, s.tbl, r.TenantID, r.RequestedBy)
	switch {
	case errors.Is(err, auth.ErrKeyNotFound):
		// A request of a key since removed: nothing to promote.
	case err != nil:
		return Outcome{}, 0, nil, err
	case key.RevokedAt != nil && d.Approve:
		// A revoked key's request never runs as it: reject it instead.
		return Outcome{}, 0, nil, ErrRequesterRevoked
	case d.Approve && Earned(key.Autonomy, st) == key.Autonomy:
		// Approved only if the key is not revoked meanwhile.
		ops = append(ops, key.Unchanged())
	case key.IsAgent && key.RevokedAt == nil:
		if to := Earned(key.Autonomy, st); to != key.Autonomy {
			keyOp, err := key.AutonomyOp(to)
			if err != nil {
				return Outcome{}, 0, nil, err
			}
			pe := audit.New(r.TenantID, actor, ActionPromote, audit.Resource("api_key", key.ID), audit.OutcomeSucceeded, now)
			pe.Detail = fmt.Sprintf("%s → %s after %d approved and %d rejected requests (approval rate %.2f)",
				key.Autonomy, to, st.Approved, st.Rejected, st.Rate())
			peOp, err := audit.Op(pe)
			if err != nil {
				return Outcome{}, 0, nil, err
			}
			ops = append(ops, keyOp, peOp)
			out.Promoted = to
		}
	}
	return out, jobCheck, ops, nil
}

// resume lets the held job go on after the review committed. A failure
// here leaves the review standing: a workflow that waits answers itself
// when it next looks (AwaitDecision), and held jobs are logged by the
// caller.
func (s *Service) resume(ctx context.Context, r Request) error {
	switch r.Gate {
	case GateWorkflow:
		if r.TaskToken == "" {
			return nil // the workflow has not registered yet; it reads the decision itself
		}
		return s.answer(ctx, r)
	case GateEnqueue:
		if r.JobID == "" || s.held == nil {
			return nil
		}
		if r.Status == StatusApproved && r.ConsumedBy == r.JobID {
			return s.held.Release(ctx, r.TenantID, r.JobID)
		}
		if r.Status == StatusRejected {
			return s.held.Fail(ctx, r.TenantID, r.JobID, rejection(r))
		}
	}
	return nil
}

// changeAt places a change's ops within the review's transaction.
type changeAt struct {
	first   int
	applied Applied
}

// refused is the change's error for a failed condition of op i of the
// transaction; nil when op i is not the change's, or the change is to be
// prepared again.
func (c changeAt) refused(i int) error {
	if c.applied.Refused == nil || i < c.first || i >= c.first+len(c.applied.Ops) {
		return nil
	}
	return c.applied.Refused(i - c.first)
}

// applyOps are the writes of an approved change without a job, and the
// requesting agent's entry of it (the API recorded only its request then),
// to follow the review's first ops in its transaction; for an approval its
// held job uses, what accepting the job records (no entry: the job's own
// entries record it).
func (s *Service) applyOps(ctx context.Context, r Request, first int) ([]store.Op, changeAt, error) {
	apply, ok := s.appliers[r.Action]
	if r.Status != StatusApproved || !ok {
		return nil, changeAt{}, nil
	}
	if r.Gate == GateEnqueue && r.JobID != "" && r.ConsumedBy == r.JobID {
		a, err := apply(ctx, r)
		return a.Ops, changeAt{first: first, applied: a}, err
	}
	if r.Gate != GateNone {
		return nil, changeAt{}, nil
	}
	a, err := apply(ctx, r)
	if err != nil {
		return nil, changeAt{}, &ApplyError{Err: err}
	}
	actor := audit.Actor{KeyID: r.RequestedBy, Kind: audit.KindAgent, AutonomyLevel: r.RequestedByLevel}
	e := audit.New(r.TenantID, actor, r.Action, a.ResourceRef, audit.OutcomeSucceeded, s.now())
	e.Detail = "applied after approval " + r.ID
	entry, err := audit.Op(e)
	if err != nil {
		return nil, changeAt{}, err
	}
	return append(a.Ops, entry), changeAt{first: first, applied: a}, nil
}

func rejection(r Request) string {
	msg := "the approval request " + r.ID + " was rejected"
	if r.Reason != nil && *r.Reason != "" {
		msg += ": " + *r.Reason
	}
	return msg
}

// Errors a waiting workflow fails with (ASL ErrorEquals names).
const (
	ErrNameRejected = "ApprovalRejected"
	ErrNameUsed     = "ApprovalUsedElsewhere"
)

// answer sends the workflow of r its decision: success once the approval
// is used by its job, failure when rejected or used by another job.
func (s *Service) answer(ctx context.Context, r Request) error {
	if s.callbacks == nil {
		return errors.New("approvals: no task callbacks to answer the waiting workflow")
	}
	switch {
	case r.Status == StatusRejected:
		return s.callbacks.SendTaskFailure(ctx, r.TaskToken, ErrNameRejected, rejection(r))
	case r.Status == StatusApproved && r.ConsumedBy == r.JobID:
		out, _ := json.Marshal(map[string]string{"approvalId": r.ID, "status": r.Status})
		return s.callbacks.SendTaskSuccess(ctx, r.TaskToken, out)
	case r.Status == StatusApproved:
		// Approved after the job ended, or used by an execute meanwhile.
		if ok, err := s.Consume(ctx, r.TenantID, r.ID, r.JobID); err != nil || ok {
			if err != nil {
				return err
			}
			r.ConsumedBy = r.JobID
			return s.answer(ctx, r)
		}
		return s.callbacks.SendTaskFailure(ctx, r.TaskToken, ErrNameUsed, "the approval "+r.ID+" was used by another publish")
	}
	return nil
}

// AwaitInput is the input of the approval step of a workflow: the job,
// its request, and the token its .waitForTaskToken task waits on.
type AwaitInput struct {
	JobID      string `json:"jobId"`
	TenantID   int32  `json:"tenantId"`
	ApprovalID string `json:"approvalId"`
	TaskToken  string `json:"taskToken"`
}

// AwaitDecision is the approval step: it records the token on the pending
// request, so that the review answers it; when the request was reviewed
// already (before the workflow got here, or before a restarted local
// runner ran it again) it answers the token at once.
func (s *Service) AwaitDecision(ctx context.Context, in AwaitInput) (struct{}, error) {
	if in.TaskToken == "" || in.ApprovalID == "" {
		return struct{}{}, errors.New("approvals: the approval step needs approvalId and taskToken")
	}
	r, err := s.SetTaskToken(ctx, in.TenantID, in.ApprovalID, in.TaskToken)
	if err != nil {
		return struct{}{}, err
	}
	if r.Status == StatusPending {
		return struct{}{}, nil
	}
	r.TaskToken = in.TaskToken
	return struct{}{}, s.answer(ctx, r)
}

// Proceed answers a waiting workflow whose job needs no approval.
func (s *Service) Proceed(ctx context.Context, token string) error {
	if s.callbacks == nil {
		return errors.New("approvals: no task callbacks to answer the waiting workflow")
	}
	return s.callbacks.SendTaskSuccess(ctx, token, json.RawMessage(`{"status":"not_required"}`))
}
