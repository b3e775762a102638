package meter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/brandlens/brandlens/shared/credits"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/workflow"
)

// Step resources of the metered jobs' workflows (the ASL's ${Step…Arn}
// substitutions name them; the work steps are in their domain packages).
const (
	StepJobStart  = "step-job-start"
	StepJobSettle = "step-job-settle"
)

// Errors the workflows branch on. Their Go type names are the ASL
// ErrorEquals values (aws-lambda-go and the local runner report the type
// name): steps return them unwrapped.

// StoreUnavailableError: the store failed in a way worth retrying.
type StoreUnavailableError struct{ Message string }

func (e *StoreUnavailableError) Error() string { return e.Message }

// RetryableError: the step may succeed if run again (a model rate limit,
// overload or timeout; output that did not parse).
type RetryableError struct{ Message string }

func (e *RetryableError) Error() string { return e.Message }

// PermanentError: running the step again cannot help (the opportunity left
// the state the job needs, the model refused the key, …). The job fails
// and costs 0.
type PermanentError struct{ Message string }

func (e *PermanentError) Error() string { return e.Message }

func storeErr(op string, err error) error {
	return &StoreUnavailableError{Message: fmt.Sprintf("%s: %v", op, err)}
}

// StoreErr wraps a store failure of a work step as the retryable step error.
func StoreErr(op string, err error) error { return storeErr(op, err) }

// SettleInput is the state when Settle runs: Failure is the {Error, Cause}
// object a Catch put there when a step failed for good (SettleAfterFailure).
type SettleInput struct {
	JobID    string                   `json:"jobId"`
	TenantID int32                    `json:"tenantId"`
	Type     string                   `json:"type"`
	Failure  *workflow.ExecutionError `json:"failure"`
}

// SettleOutput summarises the settled job.
type SettleOutput struct {
	JobID          string `json:"jobId"`
	Status         string `json:"status"`
	CreditsCharged int64  `json:"creditsCharged"`
}

// doneKey marks that a job's work took effect; it holds the job's result.
func doneKey(tenantID int32, jobID string) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: "JOBDONE#" + jobID}
}

// DoneOp is the put a work step adds to the transaction of its effects:
// it records the job's result and fails when the job already did its work,
// so that a redelivered step changes nothing twice.
func DoneOp(tenantID int32, jobID string, result any) (store.Op, error) {
	doc, err := store.EncodeDoc(result)
	if err != nil {
		return store.Op{}, err
	}
	k := doneKey(tenantID, jobID)
	return store.PutOp(store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, store.AttrDoc: doc}, store.NotExists()), nil
}

// Done returns the recorded result of a job whose work took effect.
func Done(ctx context.Context, tbl store.Table, tenantID int32, jobID string) (json.RawMessage, bool, error) {
	it, err := tbl.Get(ctx, doneKey(tenantID, jobID))
	if errors.Is(err, store.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, storeErr("read job outcome", err)
	}
	return json.RawMessage(it.String(store.AttrDoc)), true, nil
}

// Start moves the job from queued to running (event execution.started in
// the same transaction) and passes the workflow input on with the job's
// type. Delivered twice, it changes nothing the second time.
func (s *Service) Start(ctx context.Context, in Message) (Message, error) {
	j, err := s.jobs.Get(ctx, in.TenantID, in.JobID)
	if err != nil {
		if errors.Is(err, jobs.ErrNotFound) {
			return Message{}, &PermanentError{Message: fmt.Sprintf("job %s does not exist", in.JobID)}
		}
		return Message{}, storeErr("load job", err)
	}
	in.Type = j.Type
	if j.Status != jobs.StatusQueued {
		return in, nil
	}
	now := s.now().UTC()
	j.Status = jobs.StatusRunning
	j.StartedAt = &now
	j.AwaitingApproval = false
	if err := CommitStarted(ctx, s.tbl, j, executionData(j)); err != nil {
		return Message{}, err
	}
	return in, nil
}

// CommitStarted writes j, read queued and now running, with its
// execution.started event d, conditional on the job still being queued: a
// duplicate delivery that lost the race changes nothing. Query runs
// (runs.MarkRunning) start their jobs through it too.
func CommitStarted(ctx context.Context, tbl store.Table, j jobs.Job, d outbox.ExecutionData) error {
	op, err := jobs.UpdateOp(j, jobs.StatusQueued)
	if err != nil {
		return err
	}
	ev, err := outbox.New(j.TenantID, outbox.ExecutionStarted, d, *j.StartedAt)
	if err != nil {
		return err
	}
	evOp, err := outbox.Op(ev)
	if err != nil {
		return err
	}
	if err := tbl.TransactWrite(ctx, op, evOp); err != nil && !errors.Is(err, store.ErrConditionFailed) {
		return storeErr("mark running", err)
	}
	outbox.Notify()
	return nil
}

// Settle ends the job: succeeded with its price captured when its work
// step recorded an outcome (DoneOp), failed with the hold released
// otherwise. The job, the credits, the execution event and an audit entry
// commit together, conditional on the job not being settled yet, so a
// duplicate Settle is a no-op.
func (s *Service) Settle(ctx context.Context, in SettleInput) (SettleOutput, error) {
	j, err := s.jobs.Get(ctx, in.TenantID, in.JobID)
	if errors.Is(err, jobs.ErrNotFound) {
		return SettleOutput{JobID: in.JobID, Status: "missing"}, nil
	}
	if err != nil {
		return SettleOutput{}, storeErr("load job", err)
	}
	if jobs.Terminal(j.Status) {
		return SettleOutput{JobID: j.ID, Status: j.Status, CreditsCharged: j.CreditsCharged}, nil
	}
	from := j.Status // queued when the workflow failed before Start
	result, done, err := Done(ctx, s.tbl, j.TenantID, j.ID)
	if err != nil {
		return SettleOutput{}, err
	}
	now := s.now().UTC()
	j.CompletedAt = &now
	if j.StartedAt == nil {
		j.StartedAt = &now
	}
	hold, err := s.ledger.GetHold(ctx, j.TenantID, j.ID)
	if err != nil {
		return SettleOutput{}, storeErr("read hold", err)
	}
	typ := outbox.ExecutionCompleted
	var capture int64
	if done {
		j.Status, j.Result, capture = jobs.StatusSucceeded, result, hold.Amount
	} else {
		typ = outbox.ExecutionFailed
		msg := "the job did not complete"
		if in.Failure != nil {
			msg = failureText(in.Failure)
		}
		j.Status, j.Error = jobs.StatusFailed, &msg
		// A failed job lists no platform still to run (a held query run
		// rejected before it started has them all queued).
		for pf, ps := range j.PerPlatformStatus {
			if !jobs.Terminal(ps.Status) {
				ps.Status, ps.Error = jobs.StatusFailed, &msg
				j.PerPlatformStatus[pf] = ps
			}
		}
	}
	j.AwaitingApproval = false // settled: no review can run it any more
	j.CreditsCharged = capture
	jobOp, err := jobs.UpdateOp(j, from)
	if err != nil {
		return SettleOutput{}, err
	}
	ops := []store.Op{jobOp}
	if hold.Status == credits.HoldHeld {
		settleOps, err := credits.SettleOps(j.TenantID, j.ID, hold, capture, now)
		if err != nil {
			return SettleOutput{}, err
		}
		ops = append(ops, settleOps...)
	}
	evOp, err := eventOp(j, typ)
	if err != nil {
		return SettleOutput{}, err
	}
	auditOp, err := SettleAuditOp(ctx, s.tbl, j, now)
	if err != nil {
		return SettleOutput{}, err
	}
	ops = append(ops, evOp, auditOp)
	err = s.tbl.TransactWrite(ctx, ops...)
	var txe *store.TxConditionError
	switch {
	case errors.As(err, &txe) && txe.Index == 0:
		// Settled by a concurrent delivery: report what it decided.
		cur, gerr := s.jobs.Get(ctx, j.TenantID, j.ID)
		if gerr != nil {
			return SettleOutput{}, storeErr("reload job", gerr)
		}
		return SettleOutput{JobID: cur.ID, Status: cur.Status, CreditsCharged: cur.CreditsCharged}, nil
	case err != nil:
		return SettleOutput{}, storeErr("settle", err)
	}
	outbox.Notify()
	if t, err := s.tenants.Get(ctx, j.TenantID); err == nil {
		// Released credits may lift the balance back over the low threshold.
		if err := s.ledger.CheckThresholds(ctx, j.TenantID, t.DailyCreditCeiling); err != nil {
			s.logger.Error("credit threshold events", "tenant_id", j.TenantID, "error", err.Error())
		}
	}
	return SettleOutput{JobID: j.ID, Status: j.Status, CreditsCharged: capture}, nil
}

func failureText(e *workflow.ExecutionError) string {
	if e.Cause == "" {
		return e.Name
	}
	// A Lambda error's Cause is {"errorMessage","errorType"}; keep the message.
	return e.Name + ": " + workflow.CauseMessage(e.Cause)
}

func eventOp(j jobs.Job, typ string) (store.Op, error) {
	ev, err := outbox.New(j.TenantID, typ, executionData(j), lastTransition(j))
	if err != nil {
		return store.Op{}, err
	}
	return outbox.Op(ev)
}

// executionData is a metered job's execution event: no platforms.
func executionData(j jobs.Job) outbox.ExecutionData {
	d := outbox.ExecutionData{JobID: j.ID, JobType: j.Type, QueryID: j.QueryID, Status: j.Status, Platforms: []string{},
		PerPlatformStatus: map[string]string{}, CreditsCharged: j.CreditsCharged}
	if j.Error != nil {
		d.Error = *j.Error
	}
	return d
}

// lastTransition is the moment of the job's latest status change.
func lastTransition(j jobs.Job) time.Time {
	switch {
	case j.CompletedAt != nil:
		return *j.CompletedAt
	case j.StartedAt != nil:
		return *j.StartedAt
	}
	return j.CreatedAt
}

// Handler adapts a step method to a workflow handler: it decodes the
// input, runs fn, and encodes its output; fn's error is returned as it is,
// so that its type name reaches the ASL's ErrorEquals.
func Handler[In, Out any](fn func(context.Context, In) (Out, error)) workflow.Handler {
	return func(ctx context.Context, input json.RawMessage) (json.RawMessage, error) {
		var in In
		if err := json.Unmarshal(input, &in); err != nil {
			return nil, &PermanentError{Message: fmt.Sprintf("step input: %v", err)}
		}
		out, err := fn(ctx, in)
		if err != nil {
			return nil, err
		}
		return json.Marshal(out)
	}
}

// Handlers are the generic steps of every metered job's workflow.
func (s *Service) Handlers() workflow.Handlers {
	return workflow.Handlers{StepJobStart: Handler(s.Start), StepJobSettle: Handler(s.Settle)}
}
