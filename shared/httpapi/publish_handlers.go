package httpapi

import (
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/brandlens/brandlens/shared/approvals"
	"github.com/brandlens/brandlens/shared/auth"
	"github.com/brandlens/brandlens/shared/destinations"
	"github.com/brandlens/brandlens/shared/publish"
	"github.com/brandlens/brandlens/shared/validation"
)

// Publishing over the API: destinations, publish jobs and approvals.

// DestinationDto is a destination on the wire: the secret is write-only
// (hasSecret says whether deliveries are signed).
type DestinationDto struct {
	ID                  string    `json:"id"`
	Type                string    `json:"type"`
	Name                string    `json:"name"`
	URL                 *string   `json:"url"`
	SiteContentType     *string   `json:"siteContentType"`
	HasSecret           bool      `json:"hasSecret"`
	Signed              bool      `json:"signed"`
	DefaultAuthor       *string   `json:"defaultAuthor"`
	IndexNowKey         *string   `json:"indexNowKey"`
	IndexNowHost        *string   `json:"indexNowHost"`
	IndexNowKeyLocation *string   `json:"indexNowKeyLocation"`
	CreatedAt           time.Time `json:"createdAt"`
	UpdatedAt           time.Time `json:"updatedAt"`
}

func opt(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func destinationDto(d destinations.Destination) DestinationDto {
	return DestinationDto{ID: d.ID, Type: d.Type, Name: d.Name, URL: opt(d.URL), SiteContentType: opt(d.SiteContentType),
		HasSecret: d.HasSecret(), Signed: d.HasSecret() || d.Type == destinations.TypeOwnSite,
		DefaultAuthor: opt(d.DefaultAuthor), IndexNowKey: opt(d.IndexNowKey), IndexNowHost: opt(d.IndexNowHost),
		IndexNowKeyLocation: opt(d.IndexNowKeyLocation), CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt}
}

// DestinationList is the answer of GET /api/v1/destinations.
type DestinationList struct {
	Items []DestinationDto `json:"items"`
}

// CreateDestinationRequest is the body of POST /api/v1/destinations.
type CreateDestinationRequest struct {
	Type string `json:"type" doc:"webhook or own_site"`
	Name string `json:"name"`
	DestinationSettings
}

// UpdateDestinationRequest is the body of PUT /api/v1/destinations/{id}:
// members sent change, "" clears an optional one.
type UpdateDestinationRequest struct {
	Name *string `json:"name"`
	DestinationSettings
}

// DestinationSettings are the optional members of a destination's create
// and update bodies.
type DestinationSettings struct {
	URL                 *string `json:"url"`
	SiteContentType     *string `json:"siteContentType"`
	Secret              *string `json:"secret"`
	DefaultAuthor       *string `json:"defaultAuthor"`
	IndexNowKey         *string `json:"indexNowKey"`
	IndexNowHost        *string `json:"indexNowHost"`
	IndexNowKeyLocation *string `json:"indexNowKeyLocation"`
}

func (b DestinationSettings) settings() destinations.Settings {
	return destinations.Settings{SiteContentType: b.SiteContentType, Secret: b.Secret, DefaultAuthor: b.DefaultAuthor,
		IndexNowKey: b.IndexNowKey, IndexNowHost: b.IndexNowHost, IndexNowKeyLocation: b.IndexNowKeyLocation}
}

// DeletedDestination is the answer of DELETE /api/v1/destinations/{id}.
type DeletedDestination struct {
	ID      string `json:"id"`
	Deleted bool   `json:"deleted"`
}

type (
	createDestinationIn struct {
		Body CreateDestinationRequest `body:"json"`
	}
	updateDestinationIn struct {
		StrID
		Body UpdateDestinationRequest `body:"json"`
	}
)

func destinationError(err error) error {
	if errors.Is(err, destinations.ErrNotFound) {
		return notFound("destination")
	}
	return err
}

func (s *Server) listDestinations(rq *Request, _ NoInput) (DestinationList, error) {
	ds, err := s.Destinations.List(rq.HTTP.Context(), rq.Principal.TenantID)
	if err != nil {
		return DestinationList{}, err
	}
	out := DestinationList{Items: make([]DestinationDto, 0, len(ds))}
	for _, d := range ds {
		out.Items = append(out.Items, destinationDto(d))
	}
	return out, nil
}

func (s *Server) createDestination(rq *Request, in createDestinationIn) (DestinationDto, error) {
	b := in.Body
	url := ""
	if b.URL != nil {
		url = *b.URL
	}
	d, err := s.Destinations.Create(rq.HTTP.Context(), rq.Principal.TenantID, destinations.New{Type: b.Type, Name: b.Name, URL: url,
		Settings: b.settings()})
	if err != nil {
		return DestinationDto{}, err
	}
	return destinationDto(d), nil
}

func (s *Server) getDestination(rq *Request, in StrID) (DestinationDto, error) {
	d, err := s.Destinations.Get(rq.HTTP.Context(), rq.Principal.TenantID, in.ID)
	if err != nil {
		return DestinationDto{}, destinationError(err)
	}
	return destinationDto(d), nil
}

func (s *Server) updateDestination(rq *Request, in updateDestinationIn) (DestinationDto, error) {
	b := in.Body
	d, err := s.Destinations.Update(rq.HTTP.Context(), rq.Principal.TenantID, in.ID, destinations.Patch{Name: b.Name, URL: b.URL,
		Settings: b.settings()})
	if err != nil {
		return DestinationDto{}, destinationError(err)
	}
	return destinationDto(d), nil
}

func (s *Server) deleteDestination(rq *Request, in StrID) (DeletedDestination, error) {
	if err := s.Destinations.Delete(rq.HTTP.Context(), rq.Principal.TenantID, in.ID); err != nil {
		return DeletedDestination{}, destinationError(err)
	}
	return DeletedDestination{ID: in.ID, Deleted: true}, nil
}

// publishIn is the input of POST /api/v1/opportunities/{id}/publish.
type publishIn struct {
	StrID
	Body PublishRequest `body:"json"`
}

func (in publishIn) check(*Request) error {
	var ve validation.Error
	if in.Body.DestinationID == "" {
		ve.Add("destinationId", "is required: the id of one of GET /api/v1/destinations")
	}
	if !slices.Contains(publish.Modes, in.Body.Mode) {
		ve.Add("mode", "%s", validation.OneOf(in.Body.Mode, publish.Modes))
	}
	return ve.Err()
}

func (s *Server) postPublish(rq *Request, in publishIn) (JobAccepted, error) {
	req, err := s.Publish.Request(rq.HTTP.Context(), publish.Ask{Principal: rq.Principal, OpportunityID: in.ID,
		DestinationID: in.Body.DestinationID, Mode: in.Body.Mode, Author: in.Body.Author})
	if err != nil {
		return JobAccepted{}, publishError(err)
	}
	acc, err := s.createJob(rq, req)
	if err != nil {
		return JobAccepted{}, publishError(err)
	}
	return acc, nil
}

func publishError(err error) error {
	switch {
	case errors.Is(err, approvals.ErrRequired):
		return &Error{Code: CodeApprovalRequired, Message: "this agent key needs an approved request to publish: publish with mode propose, and have a human approve it",
			Details: map[string]any{"mode": publish.ModePropose}}
	case errors.Is(err, publish.ErrDestinationNotFound):
		return validation.Field("destinationId", "no such destination (GET /api/v1/destinations lists them)")
	}
	return jobError(err)
}

// ApprovalRequestDto is an approval request on the wire (the spec's
// members, plus jobId: the job it holds back).
type ApprovalRequestDto struct {
	ID          *string `json:"id"`
	Action      *string `json:"action"`
	ResourceRef *string `json:"resourceRef"`
	Status      *string `json:"status"`
	RequestedBy *string `json:"requestedBy"`
	ReviewedBy  *string `json:"reviewedBy"`
	Reason      *string `json:"reason"`
	Summary     *string `json:"summary"`
	approvals.Subject
	CreatedAt  time.Time  `json:"createdAt"`
	ReviewedAt *time.Time `json:"reviewedAt"`
	Payload    any        `json:"payload" doc:"what will be done: for publish, the exact PublishPayload that will be sent"`
	JobID      *string    `json:"jobId"`
}

func approvalDto(r approvals.Request) ApprovalRequestDto {
	var p any
	if len(r.Payload) > 0 {
		p = json.RawMessage(r.Payload)
	}
	return ApprovalRequestDto{ID: opt(r.ID), Action: opt(r.Action), ResourceRef: opt(r.ResourceRef), Status: opt(r.Status),
		RequestedBy: opt(r.RequestedBy), ReviewedBy: r.ReviewedBy, Reason: r.Reason, Summary: opt(r.Summary),
		Subject: r.Subject, CreatedAt: r.CreatedAt, ReviewedAt: r.ReviewedAt, Payload: p, JobID: opt(r.JobID)}
}

// ApprovalList is the answer of GET /api/tracker/approvals/pending.
type ApprovalList struct {
	Items      []ApprovalRequestDto `json:"items"`
	NextCursor *string              `json:"nextCursor"`
}

// ReviewRequest is the body of approve and reject.
type ReviewRequest struct {
	Reason *string `json:"reason" doc:"why (kept with the request and in the audit log); at most 1000 characters"`
}

// ReviewResult is the answer of approve and reject: the request as
// reviewed, and the requesting key's autonomy after it.
type ReviewResult struct {
	Request ApprovalRequestDto `json:"request"`
	// AutonomyLevel is the requesting key's level after the review;
	// Promoted is true when this review raised it.
	AutonomyLevel *string `json:"autonomyLevel"`
	Promoted      bool    `json:"promoted"`
	Approved      int64   `json:"approved"`
	Rejected      int64   `json:"rejected"`
}

type (
	listApprovalsIn struct {
		Page
	}
	reviewIn struct {
		StrID
		Body ReviewRequest `body:"json"`
	}
)

func (s *Server) listPendingApprovals(rq *Request, in listApprovalsIn) (ApprovalList, error) {
	items, next, err := s.Approvals.ListPending(rq.HTTP.Context(), rq.Principal.TenantID, int(in.Limit), in.Cursor)
	if err != nil {
		return ApprovalList{}, pageError(err)
	}
	out := ApprovalList{Items: make([]ApprovalRequestDto, 0, len(items)), NextCursor: nextCursor(next)}
	for _, r := range items {
		out.Items = append(out.Items, approvalDto(r))
	}
	return out, nil
}

func (s *Server) approve(rq *Request, in reviewIn) (ReviewResult, error) {
	return s.review(rq, in, true)
}
func (s *Server) reject(rq *Request, in reviewIn) (ReviewResult, error) {
	return s.review(rq, in, false)
}

func (s *Server) review(rq *Request, in reviewIn, approve bool) (ReviewResult, error) {
	out, err := s.Approvals.Review(rq.HTTP.Context(), rq.Principal.TenantID, in.ID,
		approvals.Decision{Approve: approve, Reason: in.Body.Reason, Reviewer: rq.Principal})
	var (
		re *approvals.ReviewedError
		ae *approvals.ApplyError
	)
	switch {
	case errors.Is(err, approvals.ErrNotFound):
		return ReviewResult{}, notFound("approval request")
	case errors.As(err, &ae):
		// Nothing was reviewed: the change's own error (webhook changes are
		// the only ones applied on approval), the request still pending.
		return ReviewResult{}, webhookError(ae.Err, "webhook subscription")
	case errors.Is(err, approvals.ErrRequesterRevoked):
		return ReviewResult{}, &Error{Code: CodeInvalidState,
			Message: "the agent key that made this request was revoked; it can no longer be approved, only rejected",
			Details: map[string]any{"status": approvals.StatusPending, "allowed": []string{"reject"}}}
	case errors.As(err, &re):
		return ReviewResult{}, &Error{Code: CodeAlreadyReviewed, Message: "the approval request is already " + re.Status,
			Details: map[string]any{"status": re.Status}}
	case err != nil && out.Request.ID == "":
		return ReviewResult{}, err
	case err != nil:
		// The review stands; resuming its job failed and is retried by the
		// job's own path (the waiting step, the sweep).
		s.Logger.Error("approvals: resume held job", "request_id", rq.RequestID, "approval_id", in.ID, "error", err.Error())
	}
	if out.Promoted != "" {
		s.forgetCaller(out.Request.RequestedBy)
	}
	level := out.Promoted
	if level == "" {
		level = auth.Autonomy(out.Request.RequestedByLevel)
		if keys, kerr := s.Keys.List(rq.HTTP.Context(), rq.Principal.TenantID); kerr == nil {
			for _, k := range keys {
				if k.ID == out.Request.RequestedBy {
					level = k.Autonomy
				}
			}
		}
	}
	lv := string(level)
	return ReviewResult{Request: approvalDto(out.Request), AutonomyLevel: opt(lv), Promoted: out.Promoted != "",
		Approved: out.Stats.Approved, Rejected: out.Stats.Rejected}, nil
}
