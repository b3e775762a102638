package publish

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/brandlens/brandlens/shared/approvals"
	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/auth"
	"github.com/brandlens/brandlens/shared/destinations"
	"github.com/brandlens/brandlens/shared/gaps"
	"github.com/brandlens/brandlens/shared/ids"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/meter"
	"github.com/brandlens/brandlens/shared/opportunities"
	"github.com/brandlens/brandlens/shared/ssrf"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/validation"
)

// Modes of a publish request.
const (
	ModePropose = "propose"
	ModeExecute = "execute"
)

// Modes lists them (the API's enum).
var Modes = []string{ModePropose, ModeExecute}

// Audit actions.
const (
	ActionPublish = approvals.ActionPublish
	ActionAttempt = "publish.attempt"
)

// Machine is the publish workflow (statemachines/publish.asl.json).
const Machine = meter.MachinePublish

// Step resources of the publish workflow.
const (
	StepAwaitApproval = "step-publish-await-approval"
	StepDeliver       = "step-publish-deliver"
)

// Substitutions are the publish workflow's step resources (its
// DefinitionSubstitutions in the local runner and in tests).
var Substitutions = map[string]string{
	"StepPublishAwaitApprovalArn": StepAwaitApproval,
	"StepJobStartArn":             meter.StepJobStart,
	"StepPublishDeliverArn":       StepDeliver,
	"StepJobSettleArn":            meter.StepJobSettle,
}

// Price of a publish: free (spec: 0 per publish).
const Price = 0

// ErrDestinationNotFound: the request names no destination of the tenant.
var ErrDestinationNotFound = errors.New("publish: destination not found")

// Params are kept beside a publish job for its steps: the payload bytes
// exactly as they will be signed and sent.
type Params struct {
	OpportunityID string `json:"opportunityId"`
	DestinationID string `json:"destinationId"`
	Mode          string `json:"mode"`
	ApprovalID    string `json:"approvalId,omitempty"`
	Payload       []byte `json:"payload"`
}

// Config is where the service's own site receives and what IndexNow is.
type Config struct {
	// SiteBaseURL is the base of the service's own receiver (own_site
	// destinations POST to <base>/api/site-content/webhooks/<type>), and
	// of the pages it serves.
	SiteBaseURL string
	// SiteSecret signs own_site deliveries (the receiver's secret).
	SiteContentSecret []byte
	// IndexNowEndpoint is the search engine's IndexNow endpoint.
	IndexNowEndpoint string
}

// DefaultIndexNowEndpoint is the shared IndexNow endpoint (it forwards to
// every participating engine).
const DefaultIndexNowEndpoint = "https://api.indexnow.org/indexnow"

// Service creates publish jobs and runs the delivery step.
type Service struct {
	tbl          store.Table
	dests        *destinations.Service
	opps         *opportunities.Repo
	gaps         *gaps.Repo
	approvals    *approvals.Service
	meter        *meter.Service
	webhook      *http.Client // guarded (SSRF): customers' endpoints
	trusted      *http.Client // the service's own receiver and IndexNow
	cfg          Config
	now          func() time.Time
	log          *slog.Logger
	deliveryWait time.Duration
}

// Deps are the service's dependencies.
type Deps struct {
	Table        store.Table
	Destinations *destinations.Service
	Approvals    *approvals.Service
	Meter        *meter.Service
	// Guard checks customers' endpoints (no redirects, no proxy,
	// connect-time address check); the service builds their client from
	// it so that the answer may take the whole DeliveryTimeout.
	Guard ssrf.Guard
	// Trusted reaches the service's own receiver and the IndexNow endpoint.
	Trusted *http.Client
	Config  Config
	Now     func() time.Time
	Logger  *slog.Logger
}

// DeliveryTimeout is channel B's single attempt (spec: 30 s).
const DeliveryTimeout = 30 * time.Second

// NewService returns the service.
func NewService(d Deps) *Service {
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	if d.Config.IndexNowEndpoint == "" {
		d.Config.IndexNowEndpoint = DefaultIndexNowEndpoint
	}
	// The receiver may take the whole attempt to answer (the guard's default
	// header wait, 10 s, is channel A's); the attempt's context bounds it.
	webhook := d.Guard.NewClient(ssrf.ClientOptions{ResponseHeaderTimeout: DeliveryTimeout})
	return &Service{tbl: d.Table, dests: d.Destinations, opps: opportunities.NewRepo(d.Table),
		gaps: gaps.NewRepo(d.Table, d.Now), approvals: d.Approvals,
		meter: d.Meter, webhook: webhook, trusted: d.Trusted, cfg: d.Config, now: d.Now, log: d.Logger,
		deliveryWait: DeliveryTimeout}
}

// Ask is a publish request.
type Ask struct {
	Principal     auth.Principal
	OpportunityID string
	DestinationID string
	Mode          string
	Author        *string
}

// Request validates a publish request and returns the metered job request
// that creates it (idempotency and the transaction are meter's). The
// modes (spec, Publish request modes; DESIGN, approvals):
//
//   - propose, at any level: an approval request (its payload the exact
//     bytes to be sent) is created with the job, which waits queued in its
//     workflow until the review;
//   - execute: runs at once for a human key or an L2 agent; an L0/L1 agent
//     needs an approved, unused request for this opportunity and
//     destination, which the job uses in its transaction (ErrRequired when
//     there is none, ErrPending while one waits for review).
func (s *Service) Request(ctx context.Context, a Ask) (meter.Request, error) {
	tenantID := a.Principal.TenantID
	if a.Author != nil {
		if err := checkAuthor(*a.Author); err != nil {
			return meter.Request{}, err
		}
	}
	o, err := s.opps.Get(ctx, tenantID, a.OpportunityID)
	if err != nil {
		return meter.Request{}, err
	}
	if err := opportunities.Check(o, opportunities.ActionPublish); err != nil {
		return meter.Request{}, err
	}
	d, err := s.dests.Get(ctx, tenantID, a.DestinationID)
	if errors.Is(err, destinations.ErrNotFound) {
		return meter.Request{}, ErrDestinationNotFound
	}
	if err != nil {
		return meter.Request{}, err
	}
	actor := audit.ActorOf(a.Principal)
	oppID, destID := o.ID, d.ID
	slot := approvals.SlotOf(ActionPublish, audit.Resource("opportunity", o.ID), d.ID)
	req := meter.Request{TenantID: tenantID, Type: jobs.TypePublish, Cost: Price, Actor: actor,
		Action: "content." + ActionPublish, Resource: audit.Resource("opportunity", o.ID), OpportunityID: &oppID,
		Guards: []meter.Guard{{Op: opportunities.RequireOp(tenantID, o.ID, opportunities.ActionPublish), Err: opportunities.ErrInvalidState}}}
	req.Prepare = func(ctx context.Context, job *jobs.Job) (meter.Prepared, error) {
		job.DestinationID = &destID
		_, body, err := Build(BuildInput{Opportunity: o, Destination: d, Author: a.Author, Version: ids.ULID(job.CreatedAt), Now: job.CreatedAt})
		if err != nil {
			return meter.Prepared{}, err
		}
		p := Params{OpportunityID: o.ID, DestinationID: d.ID, Mode: a.Mode, Payload: body}
		var guards []meter.Guard
		switch {
		case a.Mode == ModePropose:
			g, id, err := s.propose(ctx, a.Principal, o, d, slot, body, job)
			if err != nil {
				return meter.Prepared{}, err
			}
			guards, p.ApprovalID = g, id
		case a.Principal.Level() != auth.L2:
			g, id, err := s.useApproval(ctx, tenantID, slot, job.ID)
			if err != nil {
				return meter.Prepared{}, err
			}
			guards, p.ApprovalID = g, id
			job.ApprovalID = &p.ApprovalID
		}
		return meter.Prepared{Guards: guards, Params: p}, nil
	}
	return req, nil
}

// propose creates the approval request that holds the job back.
func (s *Service) propose(ctx context.Context, p auth.Principal, o opportunities.Opportunity, d destinations.Destination, slot string, body []byte, job *jobs.Job) ([]meter.Guard, string, error) {
	open, ok, err := approvals.OpenIn(ctx, s.tbl, p.TenantID, slot)
	if err != nil {
		return nil, "", err
	}
	if ok && open.Status == approvals.StatusPending {
		return nil, "", &PendingError{ApprovalID: open.ApprovalID}
	}
	if ok {
		// Approved already and not used: this publish uses it.
		g, id, err := s.useApproval(ctx, p.TenantID, slot, job.ID)
		job.ApprovalID = &id
		return g, id, err
	}
	summary := fmt.Sprintf("Publish %q (%s) to %s destination %q", o.Content.Title, o.Content.Slug, d.Type, d.Name)
	r := approvals.New(p.TenantID, p, ActionPublish, audit.Resource("opportunity", o.ID), slot, summary, job.CreatedAt)
	title, query, dname, dtype := o.Content.Title, o.QueryText, d.Name, d.Type
	r.ResourceTitle, r.QueryText, r.DestinationName, r.DestinationType = &title, &query, &dname, &dtype
	r.Payload = body
	r.Gate, r.JobID = approvals.GateWorkflow, job.ID
	ops, slotAt, err := approvals.CreateOps(r, audit.ActorOf(p))
	if err != nil {
		return nil, "", err
	}
	guards := make([]meter.Guard, len(ops))
	for i, op := range ops {
		guards[i] = meter.Guard{Op: op}
	}
	guards[slotAt].Err = &PendingError{} // a concurrent propose took the slot
	job.ApprovalID, job.AwaitingApproval = &r.ID, true
	return guards, r.ID, nil
}

// useApproval returns the guards that use the slot's approved request for
// jobID.
func (s *Service) useApproval(ctx context.Context, tenantID int32, slot, jobID string) ([]meter.Guard, string, error) {
	open, ok, err := approvals.OpenIn(ctx, s.tbl, tenantID, slot)
	switch {
	case err != nil:
		return nil, "", err
	case !ok:
		return nil, "", approvals.ErrRequired
	case open.Status == approvals.StatusPending:
		return nil, "", &PendingError{ApprovalID: open.ApprovalID}
	}
	var guards []meter.Guard
	for _, op := range approvals.ConsumeOps(tenantID, slot, open.ApprovalID, jobID) {
		guards = append(guards, meter.Guard{Op: op, Err: approvals.ErrRequired}) // used by a concurrent publish
	}
	return guards, open.ApprovalID, nil
}

// PendingError: an approval request for this publish waits for review
// (409 approval_pending, naming it when known).
type PendingError = approvals.PendingError

func checkAuthor(a string) error {
	if len([]rune(a)) > MaxAuthor {
		return validation.Field("author", "must be at most %d characters", MaxAuthor)
	}
	if strings.ContainsFunc(a, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return validation.Field("author", "must not contain control characters")
	}
	return nil
}
