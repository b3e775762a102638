// Package runs executes monitoring queries across AI platforms: the write
// path that creates a credit-reserved job, the three workflow steps (mark
// running, run one platform sample, settle) and the scheduler of recurring
// runs.
package runs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/brandlens/brandlens/shared/adjudication"
	"github.com/brandlens/brandlens/shared/approvals"
	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/citations"
	"github.com/brandlens/brandlens/shared/competitors"
	"github.com/brandlens/brandlens/shared/credits"
	"github.com/brandlens/brandlens/shared/detect"
	"github.com/brandlens/brandlens/shared/idempotency"
	"github.com/brandlens/brandlens/shared/ids"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/livepages"
	"github.com/brandlens/brandlens/shared/meter"
	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/queries"
	"github.com/brandlens/brandlens/shared/queue"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/validation"
)

// Sample bounds of a run request.
const (
	MinSamples     = 1
	MaxSamples     = 5
	DefaultSamples = 1
)

// PricePerPlatformSample is the credit price of one platform answering one
// sample; only samples that succeed are charged.
const PricePerPlatformSample = 1

// Message is the jobs-queue message that starts a job's workflow; Type
// (the job's) picks the workflow, so every sender — the write paths and
// the scheduler's sweep of jobs left queued — sends it.
type Message struct {
	JobID    string `json:"jobId"`
	TenantID int32  `json:"tenantId"`
	Type     string `json:"type,omitempty"`
}

// Request is a run request; Start checks it.
type Request struct {
	TenantID  int32
	QueryID   int32
	Platforms []string // nil: all of the query's platforms; empty: refused
	Samples   int
	// Idempotency, when set, makes the request safe to retry: its record
	// joins the job's transaction (idempotency.JobOp), so one key makes at
	// most one job. The HTTP router passes the key it claimed; the
	// scheduler an unclaimed one.
	Idempotency *idempotency.Key
	// Actor asked for the run (the scheduler: audit.System()); the audit
	// log names it on the run and on every platform call of the run.
	Actor audit.Actor
	// Prepare, when set, runs with the job about to be created: it may
	// mark the job (held for an approval) and return guards that join the
	// creating transaction (the approval request). Hold keeps the job out
	// of the queue until the review releases it.
	Prepare func(ctx context.Context, job *jobs.Job) (meter.Prepared, error)
}

// check refuses samples out of range and unknown platform names, naming the
// request members (samples, platforms) in a *validation.Error.
func (r Request) check() error {
	var ve validation.Error
	if r.Platforms != nil && len(r.Platforms) == 0 {
		// An empty subset is a mistake (a list built empty), not "all".
		ve.Add("platforms", "must name at least one platform; omit it to run all of the query's platforms")
	}
	if r.Samples < MinSamples || r.Samples > MaxSamples {
		ve.Add("samples", "must be between %d and %d", MinSamples, MaxSamples)
	}
	for _, p := range r.Platforms {
		if !platforms.Valid(p) {
			ve.Add("platforms", "%q is not a platform; platforms are %s", p, strings.Join(platforms.All, ", "))
			break
		}
	}
	return ve.Err()
}

// Typed errors of Start, for the HTTP layer to map.
var (
	ErrQueryNotFound = errors.New("runs: query not found")
	ErrQueryInactive = errors.New("runs: query is not active")
)

// PlatformError names a requested platform the query does not have.
type PlatformError struct{ Platform string }

func (e *PlatformError) Error() string {
	return fmt.Sprintf("runs: platform %q is not one of the query's platforms", e.Platform)
}

// InsufficientCreditsError and CeilingError are the metered write path's:
// a run is stored through it (meter.Service.CreateJob).
type (
	InsufficientCreditsError = meter.InsufficientCreditsError
	CeilingError             = meter.CeilingError
)

// Deps are what a Service uses; New checks them.
type Deps struct {
	Table       store.Table
	Tenants     *tenants.Repo
	Queries     *queries.Repo
	Ledger      *credits.Ledger
	Jobs        *jobs.Repo
	Competitors *competitors.Repo
	// Providers answer per platform. Only a process that runs the
	// run-platform step has them; without them that step fails every item.
	Providers providers.Set
	// Sender enqueues job messages (the jobs queue).
	Sender queue.Sender
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// Logger records what is not worth failing a request for (nil:
	// slog.Default()).
	Logger *slog.Logger
	// Metrics receives the figures of settled jobs (nil: none).
	Metrics Metrics
	// RescoreBatch is how many stored answers one invocation of the
	// re-scoring step reads (0: DefaultRescoreBatch).
	RescoreBatch int
	// Citations reads recorded citations back (nil: a store over Table).
	Citations *citations.Repo
	// Cited notices the citations of the tenant's published pages in each
	// recorded answer (content.cited); nil: nothing is noticed.
	Cited CitedPages
	// Adjudicator asks a chat model about the mentions the rules find
	// ambiguous (adjudication.Model); nil: detection is the rules alone.
	Adjudicator Adjudicator
	// Timeouts are the platforms' per-call timeouts (providers.Timeouts;
	// a platform missing has its default): RunPlatforms starts no retry
	// whose call could outlast the step.
	Timeouts map[string]time.Duration
	// RetryScale multiplies RunPlatforms' retry waits (0: 1; tests make
	// them short, as the local runner's retry scale does for the ASL's).
	RetryScale float64
	// Jitter draws a full-jitter wait in [0, d] (nil: uniformly at random).
	Jitter func(d time.Duration) time.Duration
	// ScheduleWorkers bounds the scheduled runs a scheduler pass starts at
	// once (0: DefaultScheduleWorkers); SchedulePage is how many due
	// queries one read of a due-index shard returns (0: DuePageSize).
	ScheduleWorkers int
	SchedulePage    int
}

// Adjudicator answers the detector's yes/no question with the call it
// made, which the platform step audits (adjudication.Model).
type Adjudicator interface {
	Ask(ctx context.Context, req detect.AdjudicationRequest) (adjudication.Answer, error)
}

// CitedPages notices citations of published pages (livepages.Watcher).
// Notice is idempotent: a piece cited on a platform is noticed once, however
// often it is told.
type CitedPages interface {
	Notice(ctx context.Context, tenantID int32, cs []livepages.Citation) (int, error)
}

// Service runs queries. Build it with New: every dependency is given at
// construction, none is patched in afterwards.
type Service struct {
	Deps
	meter *meter.Service
}

// ActionRun is a run's action (the audit log's, an approval request's).
const ActionRun = "queries.run"

// New returns the service over d.
func New(d Deps) (*Service, error) {
	if d.Table == nil || d.Tenants == nil || d.Queries == nil || d.Ledger == nil || d.Jobs == nil || d.Competitors == nil {
		return nil, errors.New("runs: New needs the table and the tenants, queries, ledger, jobs and competitors stores")
	}
	if d.Sender == nil {
		return nil, errors.New("runs: New needs the jobs queue (Sender)")
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	if d.Metrics == nil {
		d.Metrics = noMetrics{}
	}
	if d.ScheduleWorkers <= 0 {
		d.ScheduleWorkers = DefaultScheduleWorkers
	}
	if d.SchedulePage <= 0 {
		d.SchedulePage = DuePageSize
	}
	if d.RescoreBatch <= 0 {
		d.RescoreBatch = DefaultRescoreBatch
	}
	if d.Citations == nil {
		d.Citations = citations.NewRepo(d.Table, d.Now)
	}
	if d.Jitter == nil {
		d.Jitter = fullJitter
	}
	return &Service{Deps: d, meter: meter.New(d.Table, d.Tenants, d.Ledger, d.Jobs, d.Sender, d.Now, d.Logger)}, nil
}

// runParams are kept beside a run's job (meter.ParamsOp) with its actor,
// whom the audit entries of the run's platform calls name.
type runParams struct {
	QueryID   int32    `json:"queryId"`
	Platforms []string `json:"platforms"`
	Samples   int      `json:"samples"`
}

// Accepted is the outcome of Start.
type Accepted = meter.Accepted

// Start validates the request and, in ONE transaction, stores the
// idempotency record, reserves the credits and creates the job (queued);
// then it enqueues the job. A replay of an earlier request returns its job
// and enqueues it again (starting a workflow is idempotent by job id).
func (s *Service) Start(ctx context.Context, r Request) (Accepted, error) {
	if err := r.check(); err != nil {
		return Accepted{}, err
	}
	now := s.Now().UTC()
	// An unclaimed key (the scheduler's) that already made its job:
	// nothing to build.
	if a, ok, err := s.meter.Replay(ctx, meter.Request{TenantID: r.TenantID, Idempotency: r.Idempotency}); ok || err != nil {
		return a, err
	}
	q, err := s.Queries.Get(ctx, r.TenantID, r.QueryID)
	if errors.Is(err, queries.ErrNotFound) || (err == nil && q.DeletedAt != nil) {
		return Accepted{}, ErrQueryNotFound
	}
	if err != nil {
		return Accepted{}, err
	}
	if !q.IsActive {
		return Accepted{}, ErrQueryInactive
	}
	plats := r.Platforms
	if len(plats) == 0 {
		plats = q.Platforms
	}
	for _, pl := range plats {
		if !slices.Contains(q.Platforms, pl) {
			return Accepted{}, &PlatformError{Platform: pl}
		}
	}
	plats = dedupe(plats)
	if r.Samples == 0 {
		r.Samples = DefaultSamples
	}
	cost := Cost(plats, r.Samples)
	qid := q.ID
	job := jobs.Job{
		ID: ids.ULID(now), TenantID: r.TenantID, Type: jobs.TypeQueryRun, Status: jobs.StatusQueued,
		QueryID: &qid, Platforms: plats, Samples: r.Samples, PerPlatformStatus: map[string]jobs.PlatformStatus{},
		CreditsReserved: cost, CreatedAt: now,
	}
	for _, pl := range plats {
		job.PerPlatformStatus[pl] = jobs.PlatformStatus{Status: jobs.StatusQueued, Samples: r.Samples}
	}
	actor := r.Actor
	if actor.KeyID == "" {
		actor = audit.System()
	}
	return s.meter.CreateJob(ctx, meter.Request{
		TenantID: r.TenantID, Type: job.Type, Actor: actor, Action: ActionRun, Resource: audit.Resource("query", qid),
		Params:  runParams{QueryID: qid, Platforms: plats, Samples: r.Samples},
		Prepare: lastRun(r.Prepare), Idempotency: r.Idempotency,
	}, job)
}

// lastRun wraps a run's Prepare so that the job's transaction records it
// as its query's last run, unless it is held: a held run counts once the
// approval accepts it (LastRunOnApproval).
func lastRun(prepare func(context.Context, *jobs.Job) (meter.Prepared, error)) func(context.Context, *jobs.Job) (meter.Prepared, error) {
	return func(ctx context.Context, job *jobs.Job) (meter.Prepared, error) {
		var prep meter.Prepared
		if prepare != nil {
			var err error
			if prep, err = prepare(ctx, job); err != nil || prep.Hold {
				return prep, err
			}
		}
		op, err := queries.LastRunOp(job.TenantID, *job.QueryID, job.ID, job.CreatedAt)
		prep.Guards = append(prep.Guards, meter.Guard{Op: op})
		return prep, err
	}
}

// LastRunOnApproval is the approvals.Applier of a held run: the review
// that releases it records it as its query's last run, in its own
// transaction, at the time of the review.
func (s *Service) LastRunOnApproval(ctx context.Context, r approvals.Request) (approvals.Applied, error) {
	j, err := s.Jobs.Get(ctx, r.TenantID, r.JobID)
	if errors.Is(err, jobs.ErrNotFound) || err == nil && j.QueryID == nil {
		return approvals.Applied{}, nil // no run to record: the review's check of the job decides
	}
	if err != nil {
		return approvals.Applied{}, fmt.Errorf("runs: read the held job %s: %w", r.JobID, err)
	}
	op, err := queries.LastRunOp(r.TenantID, *j.QueryID, j.ID, s.Now())
	return approvals.Applied{Ops: []store.Op{op}, ResourceRef: r.ResourceRef}, err
}

// Cost is the most a run of samples on platforms may cost (the credits its
// job holds): a platform named twice runs once.
func Cost(platforms []string, samples int) int64 {
	return int64(len(dedupe(platforms)) * samples * PricePerPlatformSample)
}

func dedupe(in []string) []string {
	var out []string
	for _, s := range in {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
