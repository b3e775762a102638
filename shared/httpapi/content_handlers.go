package httpapi

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/brandlens/brandlens/shared/approvals"
	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/content"
	"github.com/brandlens/brandlens/shared/credits"
	"github.com/brandlens/brandlens/shared/gaps"
	"github.com/brandlens/brandlens/shared/idempotency"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/meter"
	"github.com/brandlens/brandlens/shared/opportunities"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/timeline"
	"github.com/brandlens/brandlens/shared/validation"
)

// The content loop over the API: gap detection, gaps, opportunities, brief
// and article generation, re-scoring, and the audit log.

// Page is the input of the newest-first lists read by cursor (gaps,
// opportunities, audit entries).
type Page struct {
	Limit  int32  `query:"limit" default:"50" min:"1" max:"200"`
	Cursor string `query:"cursor" maxLength:"26" doc:"the nextCursor of the previous page: continues right after it"`
}

// listIn is the input of GET /api/v1/gaps and GET /api/v1/opportunities.
type (
	listGapsIn struct {
		Page
		Status string `query:"status" enum:"gapStatuses"`
	}
	listOpportunitiesIn struct {
		Page
		Status string `query:"status" enum:"opportunityStatuses"`
	}
)

// pageError maps the timeline's input errors to the parameters at fault.
func pageError(err error) error {
	switch {
	case errors.Is(err, timeline.ErrInvalidCursor):
		return validation.Field("cursor", "is not a cursor of this list; pass the nextCursor of a page unchanged")
	case errors.Is(err, timeline.ErrInvalidLimit):
		return validation.Field("limit", "%s", err.Error())
	}
	return err
}

func nextCursor(c string) *string {
	if c == "" {
		return nil
	}
	return &c
}

func (s *Server) listGaps(rq *Request, in listGapsIn) (GapList, error) {
	items, next, err := s.Gaps.List(rq.HTTP.Context(), rq.Principal.TenantID, in.Status, int(in.Limit), in.Cursor)
	if err != nil {
		return GapList{}, pageError(err)
	}
	return GapList{Items: items, NextCursor: nextCursor(next)}, nil
}

func (s *Server) listOpportunities(rq *Request, in listOpportunitiesIn) (OpportunityList, error) {
	items, next, err := s.Opportunities.List(rq.HTTP.Context(), rq.Principal.TenantID, in.Status, int(in.Limit), in.Cursor)
	if err != nil {
		return OpportunityList{}, pageError(err)
	}
	return OpportunityList{Items: items, NextCursor: nextCursor(next)}, nil
}

func (s *Server) getOpportunity(rq *Request, in StrID) (opportunities.Opportunity, error) {
	o, err := s.Opportunities.Get(rq.HTTP.Context(), rq.Principal.TenantID, in.ID)
	if errors.Is(err, opportunities.ErrNotFound) {
		return o, notFound("opportunity")
	}
	return o, err
}

// dismissOpportunity sets the opportunity aside with its gap (not gated by
// autonomy: like a competitor's dismissal it triggers nothing).
func (s *Server) dismissOpportunity(rq *Request, in StrID) (opportunities.Opportunity, error) {
	o, err := s.Gaps.Dismiss(rq.HTTP.Context(), rq.Principal.TenantID, in.ID, audit.ActorOf(rq.Principal))
	return o, jobError(err)
}

// Inputs of the writes that create metered jobs; the router claims their
// Idempotency-Key (rq.Idempotency).
type (
	gapDetectIn struct {
		Body GapDetectRequest `body:"json"`
	}
	briefIn struct {
		StrID
		Body BriefRequest `body:"json"`
	}
	contentIn struct {
		StrID
		Body ContentRequest `body:"json"`
	}
	rescoreIn struct {
		IntID
	}
)

func (s *Server) postGapsDetect(rq *Request, in gapDetectIn) (JobAccepted, error) {
	if in.Body.BrandProfileID < 1 {
		return JobAccepted{}, validation.Field("brandProfileId", "is required: the id of one of GET /api/v1/brand-profiles")
	}
	return s.createJob(rq, s.Detector.Request(rq.Principal.TenantID, in.Body.BrandProfileID, audit.ActorOf(rq.Principal)))
}

func (s *Server) postGenerateBrief(rq *Request, in briefIn) (JobAccepted, error) {
	format := ""
	if in.Body.ContentFormat != nil {
		format = *in.Body.ContentFormat
	}
	req, err := s.ContentJobs.BriefRequest(rq.Principal.TenantID, in.ID, format, audit.ActorOf(rq.Principal))
	if err != nil {
		return JobAccepted{}, jobError(err)
	}
	return s.createJob(rq, req)
}

func (s *Server) postGenerateContent(rq *Request, in contentIn) (JobAccepted, error) {
	req, err := s.ContentJobs.ArticleRequest(rq.Principal.TenantID, in.ID, in.Body.Persona, audit.ActorOf(rq.Principal))
	if err != nil {
		return JobAccepted{}, jobError(err)
	}
	return s.createJob(rq, req)
}

func (s *Server) postRescore(rq *Request, in rescoreIn) (JobAccepted, error) {
	return s.createJob(rq, s.Runs.RescoreRequest(rq.Principal.TenantID, in.ID, audit.ActorOf(rq.Principal)))
}

// createJob completes a metered job request with the Idempotency-Key the
// router claimed, and creates the job.
func (s *Server) createJob(rq *Request, req meter.Request) (JobAccepted, error) {
	req.Idempotency = rq.Idempotency
	req.Prepare = s.heldJob(rq, req.Action, req.Resource, s.describeMetered(rq, req.Action, req.Resource), req.Params, req.Prepare)
	acc, err := s.Meter.Create(rq.HTTP.Context(), req)
	if err != nil {
		return JobAccepted{}, jobError(err)
	}
	return s.jobAccepted(rq, acc.Job)
}

// describeMetered describes a held metered job: its price, and the
// opportunity's title and query (brief, article) or the brand profile's
// name (detection, re-scoring).
func (s *Server) describeMetered(rq *Request, action, resource string) describeJob {
	return func(ctx context.Context, job *jobs.Job) (string, approvals.Subject, error) {
		summary := jobSummary(action, resource, job.CreditsReserved)
		tid := rq.Principal.TenantID
		switch {
		case job.OpportunityID != nil:
			o, err := s.Opportunities.Get(ctx, tid, *job.OpportunityID)
			return summary, approvals.Subject{ResourceTitle: &o.Title, QueryText: &o.QueryText}, err
		case job.BrandProfileID != nil:
			b, err := s.Tenants.Brand(ctx, tid, *job.BrandProfileID)
			return summary, approvals.Subject{ResourceTitle: &b.Name}, err
		}
		return summary, approvals.Subject{}, nil
	}
}

// jobError maps the typed errors of the job-creating writes (runs and
// metered jobs alike) to API errors.
func jobError(err error) error {
	var (
		mice *meter.InsufficientCreditsError
		mce  *meter.CeilingError
		se   *opportunities.StateError
	)
	switch {
	case errors.Is(err, idempotency.ErrConflict):
		return idempotencyConflict()
	case errors.Is(err, approvals.ErrPending):
		d := map[string]any{}
		var pe *approvals.PendingError
		if errors.As(err, &pe) && pe.ApprovalID != "" {
			d["approvalId"] = pe.ApprovalID
		}
		return &Error{Code: CodeApprovalPending, Message: "an approval request for this action is waiting for review", Details: d}
	case errors.Is(err, idempotency.ErrInProgress):
		return idempotencyInProgress()
	case errors.As(err, &mice):
		return insufficientCredits(mice.Cost, mice.Available)
	case errors.As(err, &mce):
		return ceilingReached(mce.Cost, mce.Ceiling, mce.SpentToday, mce.CommittedToday, mce.RetryAfter)
	case errors.As(err, &se):
		return &Error{Code: CodeInvalidState, Message: se.Error(),
			Details: map[string]any{"status": se.Status, "allowed": se.Allowed}}
	case errors.Is(err, opportunities.ErrInvalidState):
		return &Error{Code: CodeInvalidState, Message: "the opportunity changed state while the job was being created; read it again"}
	case errors.Is(err, opportunities.ErrNotFound):
		return notFound("opportunity")
	case errors.Is(err, runs.ErrBrandProfileNotFound):
		return notFound("brand profile")
	case errors.Is(err, gaps.ErrBrandProfileNotFound):
		return validation.Field("brandProfileId", "no such brand profile (GET /api/v1/brand-profiles lists them)")
	case errors.Is(err, content.ErrInvalidFormat):
		return validation.Field("contentFormat", "%s", err.Error())
	case errors.Is(err, content.ErrInvalidPersona):
		return validation.Field("persona", "%s", err.Error())
	}
	return err
}

func insufficientCredits(cost, available int64) error {
	return &Error{Code: CodeInsufficientCredits, Message: "not enough credits: the job costs " + strconv.FormatInt(cost, 10) + ", " + strconv.FormatInt(available, 10) + " available",
		Details: map[string]any{"cost": cost, "available": available}, RetryAfter: credits.InsufficientCreditsRetryAfter}
}

// ceilingReached counts what today's jobs committed (held or captured),
// as the check does, so that a burst cannot pass the ceiling before any
// job is charged; spent is the captured part.
func ceilingReached(cost, ceiling, spent, committed int64, retryAfter int) error {
	return &Error{Code: CodeCreditCeilingReached, Message: "the daily credit ceiling would be passed: the job costs " +
		strconv.FormatInt(cost, 10) + ", " + strconv.FormatInt(committed, 10) + " of " + strconv.FormatInt(ceiling, 10) +
		" are committed today (held or spent)",
		Details: map[string]any{"cost": cost, "dailyCreditCeiling": ceiling, "spentToday": spent, "committedToday": committed}, RetryAfter: retryAfter}
}

// listAuditIn is the input of GET /api/v1/audit.
type listAuditIn struct {
	Page
	Resource string    `query:"resource" maxLength:"200" doc:"type:id of the resource, e.g. opportunity:01m8…, job:01m8…, gap:01m8…, brand_profile:1, query:3"`
	Actor    string    `query:"actor" maxLength:"100" doc:"an API key id (key_…), or system"`
	Action   string    `query:"action" maxLength:"100" doc:"e.g. gaps.detect, content.generate_brief, model.generate, platform.answer, job.settle"`
	From     time.Time `query:"from" doc:"inclusive lower bound of the entry time (millisecond precision)"`
	To       time.Time `query:"to" doc:"inclusive upper bound of the entry time (millisecond precision)"`
}

func (in listAuditIn) check(*Request) error {
	if !in.From.IsZero() && !in.To.IsZero() && in.To.Before(in.From) {
		return validation.Field("to", "must not be before from")
	}
	return nil
}

func (s *Server) listAudit(rq *Request, in listAuditIn) (AuditPage, error) {
	p, err := s.Audit.List(rq.HTTP.Context(), rq.Principal.TenantID, audit.Filter{
		Resource: in.Resource, Actor: in.Actor, Action: in.Action, From: in.From, To: in.To,
		Limit: int(in.Limit), Cursor: in.Cursor,
	})
	if err != nil {
		return AuditPage{}, pageError(err)
	}
	return AuditPage{Items: p.Items, NextCursor: nextCursor(p.Cursor)}, nil
}
