// Package meter runs credit-metered asynchronous jobs other than query runs
// (gap detection, brief and article generation) on the machinery query runs
// use: ONE store transaction writes the idempotency record, reserves the
// job's price and creates the job (queued) with its parameters and an audit
// entry; a message on the jobs queue starts the job's workflow; the
// workflow's work step records its outcome with a marker item in the same
// transaction as its effects; Settle captures the price when the marker is
// there and releases it otherwise, so a failed job costs 0.
//
// runs.Start prices a query run by its platforms and samples and stores it
// through the same write path (CreateJob).
package meter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/credits"
	"github.com/brandlens/brandlens/shared/idempotency"
	"github.com/brandlens/brandlens/shared/ids"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/queue"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/workflow"
)

// Prices of the metered jobs, in credits, charged only on success.
const (
	PriceGapDetection      = 5
	PriceBriefGeneration   = 2
	PriceContentGeneration = 10
	// PriceRescore is a flat price per re-scoring of a brand profile's
	// stored answers, whatever their number: the work is detection only, no
	// AI platform or model is called.
	PriceRescore = 5
)

// Message is the jobs-queue message that starts a metered job's workflow;
// Type picks the state machine. It is also the workflow's input.
type Message struct {
	JobID    string `json:"jobId"`
	TenantID int32  `json:"tenantId"`
	Type     string `json:"type"`
}

// Guard is a condition checked in the job-creating transaction, such as
// "the opportunity is still open". When Op's condition fails, Create
// returns Err and stores nothing.
type Guard struct {
	Op  store.Op
	Err error
}

// Request is a validated request for a metered job.
type Request struct {
	TenantID int32
	Type     string // jobs.Type…
	Cost     int64
	// Actor asked for the job; Action and Resource name the request in the
	// audit log (e.g. content.generate_brief on opportunity:01…).
	Actor    audit.Actor
	Action   string
	Resource string
	// Params are kept beside the job for its steps (JSON-encoded).
	Params any
	// BrandProfileID and OpportunityID are shown on the job record.
	BrandProfileID *int32
	OpportunityID  *string
	// Precheck, when set, runs after an idempotent replay was ruled out and
	// before anything is stored: its error (not found, wrong state) is
	// returned as it is.
	Precheck func(ctx context.Context) error
	Guards   []Guard
	// Prepare, when set, runs after Precheck with the job about to be
	// created: it may mark the job (an approval it waits for) and return
	// more guards for the transaction (the approval request it creates or
	// uses). Hold keeps the job out of the queue until its approval.
	Prepare func(ctx context.Context, job *jobs.Job) (Prepared, error)
	// Idempotency, when set, makes the request safe to retry: its record
	// joins the job's transaction (idempotency.JobOp), so one key makes at
	// most one job. The HTTP router passes the key it claimed
	// (Request.Idempotency of package httpapi).
	Idempotency *idempotency.Key
}

// Prepared is what Request.Prepare adds to the job's transaction.
type Prepared struct {
	Guards []Guard
	// Hold stores the job queued without enqueuing it: an approval
	// releases it (Release) or a rejection fails it (Fail).
	Hold bool
	// Params, when set, replace Request.Params (built with the job).
	Params any
}

// InsufficientCreditsError: the tenant's available credits are below cost
// (402 insufficient_credits).
type InsufficientCreditsError struct{ Cost, Available int64 }

func (e *InsufficientCreditsError) Error() string {
	return fmt.Sprintf("meter: the job costs %d credits; %d are available", e.Cost, e.Available)
}

// CeilingError: the job would pass the daily credit ceiling (429
// credit_ceiling_reached, Retry-After = RetryAfter seconds).
type CeilingError struct {
	Cost, Ceiling int64
	// SpentToday is what was captured today; CommittedToday what today's
	// reservations hold or captured, the count the ceiling is checked against.
	SpentToday, CommittedToday int64
	RetryAfter                 int
}

func (e *CeilingError) Error() string {
	return fmt.Sprintf("meter: the job costs %d credits; %d of the daily ceiling of %d are committed", e.Cost, e.CommittedToday, e.Ceiling)
}

// Service creates metered jobs and runs their generic steps.
type Service struct {
	tbl     store.Table
	tenants *tenants.Repo
	ledger  *credits.Ledger
	jobs    *jobs.Repo
	sender  queue.Sender
	idem    *idempotency.Records
	now     func() time.Time
	logger  *slog.Logger
}

// New returns the service. sender enqueues job messages (the jobs queue);
// a nil sender leaves jobs queued for the scheduler's sweep.
func New(tbl store.Table, tenantRepo *tenants.Repo, ledger *credits.Ledger, jobRepo *jobs.Repo, sender queue.Sender, now func() time.Time, logger *slog.Logger) *Service {
	if now == nil {
		now = time.Now
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Service{tbl: tbl, tenants: tenantRepo, ledger: ledger, jobs: jobRepo, sender: sender,
		idem: idempotency.NewRecords(tbl, now), now: now, logger: logger}
}

// Accepted is the outcome of Create.
type Accepted struct {
	Job jobs.Job
	// Replayed: an earlier request with the same idempotency key created it.
	Replayed bool
}

// params is the item a job's steps read: who asked and with what.
type params struct {
	Actor  audit.Actor     `json:"actor"`
	Params json.RawMessage `json:"params"`
}

func paramsKey(tenantID int32, jobID string) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: "JOBPARAMS#" + jobID}
}

// Create stores the job in one transaction — idempotency record, credit
// hold, job (queued), parameters, audit entry and the request's guards —
// then enqueues it. A replay of an earlier request returns its job (and
// enqueues it again while it is queued: starting a workflow is idempotent
// by job id). idempotency.ErrConflict reports a key reused for another
// request.
func (s *Service) Create(ctx context.Context, r Request) (Accepted, error) {
	if a, ok, err := s.Replay(ctx, r); ok || err != nil {
		return a, err
	}
	if r.Precheck != nil {
		if err := r.Precheck(ctx); err != nil {
			return Accepted{}, err
		}
	}
	now := s.now().UTC()
	return s.CreateJob(ctx, r, jobs.Job{
		ID: ids.ULID(now), TenantID: r.TenantID, Type: r.Type, Status: jobs.StatusQueued,
		Platforms: []string{}, PerPlatformStatus: map[string]jobs.PlatformStatus{},
		CreditsReserved: r.Cost, CreatedAt: now, BrandProfileID: r.BrandProfileID, OpportunityID: r.OpportunityID,
	})
}

// CreateJob is Create's write for a job the caller built and checked (a
// query run, priced by its platforms and samples): job is queued, its
// price in CreditsReserved (r.Cost is ignored) and CreatedAt the time of
// the transaction. The caller has already ruled out a replay (Replay);
// r.Precheck is not run.
func (s *Service) CreateJob(ctx context.Context, r Request, job jobs.Job) (Accepted, error) {
	r.Cost = job.CreditsReserved
	now := job.CreatedAt
	t, err := s.tenants.Get(ctx, r.TenantID)
	if err != nil {
		return Accepted{}, fmt.Errorf("meter: load tenant: %w", err)
	}
	if r.Cost > t.DailyCreditCeiling {
		return Accepted{}, s.ceilingError(ctx, r.TenantID, r.Cost, t.DailyCreditCeiling, now)
	}
	var prep Prepared
	if r.Prepare != nil {
		if prep, err = r.Prepare(ctx, &job); err != nil {
			return Accepted{}, err
		}
		r.Guards = append(append([]Guard(nil), r.Guards...), prep.Guards...)
		if prep.Params != nil {
			r.Params = prep.Params
		}
	}
	ops, at, err := s.createOps(r, job, t.DailyCreditCeiling, now)
	if err != nil {
		return Accepted{}, err
	}
	err = s.tbl.TransactWrite(ctx, ops...)
	var txe *store.TxConditionError
	switch {
	case errors.As(err, &txe) && txe.Index == at.idem:
		// The key already has its job: a concurrent request with it won
		// the race, or an earlier claimant died after creating it.
		a, ok, rerr := s.replay(ctx, r)
		if rerr != nil || ok {
			return a, rerr
		}
		return Accepted{}, fmt.Errorf("meter: idempotency record vanished: %w", err)
	case errors.As(err, &txe) && txe.Index == at.ledger:
		bal, berr := s.ledger.Balance(ctx, r.TenantID)
		if berr != nil {
			return Accepted{}, berr
		}
		return Accepted{}, &InsufficientCreditsError{Cost: r.Cost, Available: bal.Available}
	case errors.As(err, &txe) && txe.Index == at.day:
		return Accepted{}, s.ceilingError(ctx, r.TenantID, r.Cost, t.DailyCreditCeiling, now)
	case errors.As(err, &txe) && txe.Index >= at.guards && r.Guards[txe.Index-at.guards].Err != nil:
		return Accepted{}, r.Guards[txe.Index-at.guards].Err
	case err != nil:
		return Accepted{}, fmt.Errorf("meter: create job: %w", err)
	}
	if err := s.ledger.CheckThresholds(ctx, r.TenantID, t.DailyCreditCeiling); err != nil {
		// The job is accepted; a missed threshold event is not worth failing it.
		s.logger.Error("credit threshold events", "tenant_id", r.TenantID, "error", err.Error())
	}
	if !prep.Hold {
		s.enqueue(ctx, job)
	}
	return Accepted{Job: job}, nil
}

// Release enqueues a job held for its approval, once approved (the review
// already marked it no longer awaiting).
func (s *Service) Release(ctx context.Context, tenantID int32, jobID string) error {
	j, err := s.jobs.Get(ctx, tenantID, jobID)
	if err != nil {
		return err
	}
	if j.Status != jobs.StatusQueued {
		return nil
	}
	if j.AwaitingApproval {
		j.AwaitingApproval = false
		op, err := jobs.UpdateOp(j, jobs.StatusQueued)
		if err != nil {
			return err
		}
		if err := s.tbl.TransactWrite(ctx, op); err != nil && !errors.Is(err, store.ErrConditionFailed) {
			return fmt.Errorf("meter: release job: %w", err)
		}
	}
	s.enqueue(ctx, j)
	return nil
}

// Fail settles a held job whose approval was rejected: failed, 0 credits,
// its hold released.
func (s *Service) Fail(ctx context.Context, tenantID int32, jobID, reason string) error {
	_, err := s.Settle(ctx, SettleInput{JobID: jobID, TenantID: tenantID, Failure: &workflow.ExecutionError{Name: "ApprovalRejected", Cause: reason}})
	return err
}

// opIndex locates the ops of the creating transaction whose failure means
// something to the caller (-1: absent).
type opIndex struct{ idem, ledger, day, guards int }

func (s *Service) createOps(r Request, job jobs.Job, ceiling int64, now time.Time) ([]store.Op, opIndex, error) {
	at := opIndex{idem: -1}
	var ops []store.Op
	if r.Idempotency != nil {
		at.idem = len(ops)
		ops = append(ops, idempotency.JobOp(*r.Idempotency, job.ID, now))
	}
	at.ledger, at.day = len(ops)+credits.ReserveOpLedger, len(ops)+credits.ReserveOpDay
	ops = append(ops, credits.ReserveOps(r.TenantID, job.ID, r.Cost, ceiling, now)...)
	jobOp, err := jobs.CreateOp(job)
	if err != nil {
		return nil, at, err
	}
	paramsOp, err := ParamsOp(r.TenantID, job.ID, r.Actor, r.Params)
	if err != nil {
		return nil, at, err
	}
	entry := audit.New(r.TenantID, r.Actor, r.Action, r.Resource, audit.OutcomeAccepted, now)
	entry.JobID = job.ID
	auditOp, err := audit.Op(entry)
	if err != nil {
		return nil, at, err
	}
	ops = append(ops, jobOp, paramsOp, auditOp)
	at.guards = len(ops)
	for _, g := range r.Guards {
		ops = append(ops, g.Op)
	}
	return ops, at, nil
}

func (s *Service) ceilingError(ctx context.Context, tenantID int32, cost, ceiling int64, now time.Time) error {
	bal, err := s.ledger.Balance(ctx, tenantID)
	if err != nil {
		return err
	}
	return &CeilingError{Cost: cost, Ceiling: ceiling, SpentToday: bal.SpentToday, CommittedToday: bal.CommittedToday, RetryAfter: credits.SecondsToUTCMidnight(now)}
}

// Replay returns the job an earlier request with r's idempotency key
// created (ok), when the key is one nobody claimed for this request (the
// scheduler's; a key the HTTP router claimed has no job yet).
func (s *Service) Replay(ctx context.Context, r Request) (Accepted, bool, error) {
	if r.Idempotency == nil || r.Idempotency.Claimed() {
		return Accepted{}, false, nil
	}
	return s.replay(ctx, r)
}

// replay returns the job an earlier request with the same key created.
func (s *Service) replay(ctx context.Context, r Request) (Accepted, bool, error) {
	jobID, ok, err := s.idem.Job(ctx, *r.Idempotency)
	if !ok || err != nil {
		return Accepted{}, false, err
	}
	job, err := s.jobs.Get(ctx, r.TenantID, jobID)
	if err != nil {
		return Accepted{}, false, err
	}
	if job.Status == jobs.StatusQueued && !job.AwaitingApproval {
		s.enqueue(ctx, job)
	}
	return Accepted{Job: job, Replayed: true}, true, nil
}

// enqueue sends the job's start message; a failure is logged, not
// returned: the job is stored, and the scheduler's sweep re-enqueues jobs
// left queued.
func (s *Service) enqueue(ctx context.Context, j jobs.Job) {
	body, _ := json.Marshal(Message{JobID: j.ID, TenantID: j.TenantID, Type: j.Type})
	err := errors.New("no jobs queue configured")
	if s.sender != nil {
		err = s.sender.Send(ctx, body, 0)
	}
	if err != nil {
		s.logger.Error("enqueue job", "job_id", j.ID, "tenant_id", j.TenantID, "error", err.Error())
	}
}

// ParamsOp is the put of a job's parameters and the actor who asked for
// it (Params reads them), for the transaction that creates the job.
func ParamsOp(tenantID int32, jobID string, actor audit.Actor, p any) (store.Op, error) {
	raw, err := json.Marshal(p)
	if err != nil {
		return store.Op{}, fmt.Errorf("meter: encode params: %w", err)
	}
	doc, err := store.EncodeDoc(params{Actor: actor, Params: raw})
	if err != nil {
		return store.Op{}, err
	}
	k := paramsKey(tenantID, jobID)
	return store.PutOp(store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, store.AttrDoc: doc}, store.NotExists()), nil
}

// Params reads the parameters and the actor of a job, for its steps.
func Params[T any](ctx context.Context, tbl store.Table, tenantID int32, jobID string) (T, audit.Actor, error) {
	var v T
	it, err := tbl.Get(ctx, paramsKey(tenantID, jobID))
	if err != nil {
		return v, audit.Actor{}, storeErr("read job parameters", err)
	}
	p, err := store.Doc[params](it)
	if err != nil {
		return v, audit.Actor{}, err
	}
	if err := json.Unmarshal(p.Params, &v); err != nil {
		return v, audit.Actor{}, &PermanentError{Message: fmt.Sprintf("job %s: parameters: %v", jobID, err)}
	}
	return v, p.Actor, nil
}

// SettleAuditOp is the job.settle audit entry of settled job j, for its
// settling transaction: by who asked for the job (the system when the job
// has no parameters), failed unless the job succeeded or was partial.
func SettleAuditOp(ctx context.Context, tbl store.Table, j jobs.Job, now time.Time) (store.Op, error) {
	actor, ok, err := ActorOf(ctx, tbl, j.TenantID, j.ID)
	if err != nil {
		return store.Op{}, err
	}
	if !ok {
		actor = audit.System()
	}
	outcome := audit.OutcomeSucceeded
	if j.Status == jobs.StatusFailed {
		outcome = audit.OutcomeFailed
	}
	entry := audit.New(j.TenantID, actor, "job.settle", audit.Resource("job", j.ID), outcome, now)
	entry.JobID = j.ID
	entry.Detail = fmt.Sprintf("%s %s, %d credits charged", j.Type, j.Status, j.CreditsCharged)
	if j.Error != nil {
		entry.Detail += ": " + *j.Error
	}
	return audit.Op(entry)
}

// ActorOf returns who asked for the job; ok is false when the job has no
// parameters (query runs created before runs recorded their actor).
func ActorOf(ctx context.Context, tbl store.Table, tenantID int32, jobID string) (audit.Actor, bool, error) {
	it, err := tbl.Get(ctx, paramsKey(tenantID, jobID))
	if errors.Is(err, store.ErrNotFound) {
		return audit.Actor{}, false, nil
	}
	if err != nil {
		return audit.Actor{}, false, storeErr("read job parameters", err)
	}
	return ActorIn(it)
}

// ParamsKey is the key of a job's parameters, for reads batched with
// others (ActorIn decodes the item).
func ParamsKey(tenantID int32, jobID string) store.Key { return paramsKey(tenantID, jobID) }

// ActorIn returns who asked for the job from its parameters item (nil:
// none, ok false).
func ActorIn(it store.Item) (audit.Actor, bool, error) {
	if it == nil {
		return audit.Actor{}, false, nil
	}
	p, err := store.Doc[params](it)
	return p.Actor, err == nil, err
}

// State machines of the metered jobs (statemachines/<name>.asl.json).
const (
	MachineGapDetection      = "gap-detection"
	MachineContentGeneration = "content-generation"
	MachineRescore           = "brand-rescore"
	MachinePublish           = "publish"
)

// Machine names the state machine that runs a job of type jobType; ok is
// false for types this package does not run (query runs have their own).
func Machine(jobType string) (name string, ok bool) {
	switch jobType {
	case jobs.TypeGapDetection:
		return MachineGapDetection, true
	case jobs.TypeBriefGeneration, jobs.TypeContentGeneration:
		return MachineContentGeneration, true
	case jobs.TypeRescore:
		return MachineRescore, true
	case jobs.TypePublish:
		return MachinePublish, true
	}
	return "", false
}
