package httpapi

import (
	"errors"
	"slices"
	"time"

	"github.com/brandlens/brandlens/shared/approvals"
	"github.com/brandlens/brandlens/shared/citations"
	"github.com/brandlens/brandlens/shared/competitors"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/queries"
	"github.com/brandlens/brandlens/shared/validation"
)

// capabilities lists the capability of every route of the whole table the
// principal may call (a Lambda's server knows only its own routes). Routes
// that answer 501 are left out: a capability is listed only once a route
// that grants it works in this deployment.
func (s *Server) capabilities(rq *Request) []string {
	var out []string
	for _, r := range Routes {
		if !r.Implemented() {
			continue
		}
		ok := false
		switch r.Guard {
		case GuardAPIKey:
			ok = rq.Principal.Allows(r.Scope)
		case GuardReviewer:
			ok = rq.Principal.CanReview()
		}
		if ok && r.Capability != "" {
			out = append(out, r.Capability)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func (s *Server) getMe(rq *Request, _ NoInput) (Entitlement, error) {
	ctx := rq.HTTP.Context()
	p := rq.Principal
	t, err := s.tenant(rq)
	if err != nil {
		return Entitlement{}, err
	}
	bal, err := s.Ledger.Balance(ctx, p.TenantID)
	if err != nil {
		return Entitlement{}, err
	}
	var pending int64
	if s.Approvals != nil { // nil in servers built without publishing
		if pending, err = approvals.PendingCount(ctx, s.Approvals.Table(), p.TenantID); err != nil {
			return Entitlement{}, err
		}
	}
	scopes := make([]string, len(p.Scopes))
	for i, sc := range p.Scopes {
		scopes[i] = string(sc)
	}
	return Entitlement{
		TenantID: p.TenantID, KeyID: p.KeyID, IsAgent: p.IsAgent, Scopes: scopes,
		CreditsBalance: bal.Available, SpentToday: bal.SpentToday, Held: bal.Held,
		DailyCreditCeiling: t.DailyCreditCeiling, RPMLimit: t.RPMLimit,
		AutonomyLevel: string(p.Level()), PendingApprovals: int32(pending),
		Capabilities: s.capabilitiesOf(p),
	}, nil
}

func (s *Server) getCredits(rq *Request, _ NoInput) (CreditInfo, error) {
	ctx := rq.HTTP.Context()
	t, err := s.tenant(rq)
	if err != nil {
		return CreditInfo{}, err
	}
	bal, err := s.Ledger.Balance(ctx, rq.Principal.TenantID)
	if err != nil {
		return CreditInfo{}, err
	}
	return NewCreditInfo(bal, t.DailyCreditCeiling, s.Now()), nil
}

func (s *Server) getQuery(rq *Request, in IntID) (queries.Query, error) {
	q, err := s.Queries.Shown(rq.HTTP.Context(), rq.Principal.TenantID, in.ID)
	if errors.Is(err, queries.ErrNotFound) {
		return q, notFound("query")
	}
	return q, err
}

func (s *Server) listCompetitors(rq *Request, _ NoInput) (CompetitorList, error) {
	cs, err := s.Competitors.List(rq.HTTP.Context(), rq.Principal.TenantID)
	return CompetitorList{Items: cs}, err
}

func (s *Server) getCompetitor(rq *Request, in IntID) (competitors.Competitor, error) {
	c, err := s.Competitors.Get(rq.HTTP.Context(), rq.Principal.TenantID, in.ID)
	if errors.Is(err, competitors.ErrNotFound) {
		return c, notFound("competitor")
	}
	return c, err
}

// listCitationsIn is the input of GET /api/v1/citations.
type listCitationsIn struct {
	Platform    string    `query:"platform" enum:"platforms"`
	Sentiment   string    `query:"sentiment" enum:"sentiments"`
	SourceType  string    `query:"sourceType" enum:"sourceTypes"`
	HasMention  *bool     `query:"hasMention" doc:"true: only citations from answers that mention the brand; false: only those that do not"`
	Verdict     string    `query:"detectionVerdict" enum:"detectionVerdicts" doc:"only citations of answers with this detection verdict (why the brand is or is not in the answer)"`
	SearchQuery string    `query:"searchQuery" doc:"case-insensitive substring of the monitoring query text"`
	DateFrom    time.Time `query:"dateFrom" doc:"inclusive lower bound of the citation date"`
	DateTo      time.Time `query:"dateTo" doc:"inclusive upper bound of the citation date"`
	Page        int32     `query:"page" default:"1" min:"1" max:"10000" doc:"page number, from 1; page × pageSize may be at most 10000 (read deeper with cursor)"`
	PageSize    int32     `query:"pageSize" default:"20" min:"1" max:"100"`
	Cursor      string    `query:"cursor" maxLength:"200" doc:"the nextCursor of the previous page: continues right after it, at any depth (instead of page); the filters still apply"`
}

// check holds the rules that join several parameters (the router runs it
// after the parameters have been read).
func (in listCitationsIn) check(rq *Request) error {
	var ve validation.Error
	if !in.DateFrom.IsZero() && !in.DateTo.IsZero() && in.DateTo.Before(in.DateFrom) {
		ve.Add("dateTo", "must not be before dateFrom")
	}
	if in.Cursor != "" && rq.HTTP.URL.Query().Has("page") {
		ve.Add("cursor", "give either cursor or page, not both")
	}
	if in.Cursor == "" && int64(in.Page)*int64(in.PageSize) > MaxPageDepth {
		ve.Add("page", "page × pageSize must be at most %d; read deeper pages with cursor (the nextCursor of the page before)", MaxPageDepth)
	}
	return ve.Err()
}

func (s *Server) listCitations(rq *Request, in listCitationsIn) (CitationPage, error) {
	f := citations.Filter{
		Platform: in.Platform, Sentiment: in.Sentiment, SourceType: in.SourceType, HasMention: in.HasMention,
		DetectionVerdict: in.Verdict, SearchQuery: in.SearchQuery, DateFrom: in.DateFrom, DateTo: in.DateTo,
	}
	pr := citations.PageRequest{Size: int(in.PageSize), Offset: int(in.Page-1) * int(in.PageSize), After: in.Cursor}
	res, err := s.Citations.List(rq.HTTP.Context(), rq.Principal.TenantID, f, pr)
	if errors.Is(err, citations.ErrBadCursor) {
		return CitationPage{}, validation.Field("cursor", "is not a cursor of this list; pass the nextCursor of a page unchanged")
	}
	if err != nil {
		return CitationPage{}, err
	}
	p := CitationPage{PageSize: int(in.PageSize), HasMore: res.HasMore, stored: res.Items}
	if in.Cursor == "" {
		page := int(in.Page)
		p.Page = &page
	}
	if res.Next != "" {
		p.NextCursor = &res.Next
	}
	return p, nil
}

func (s *Server) getCitation(rq *Request, in IntID) (citations.Citation, error) {
	c, err := s.Citations.Get(rq.HTTP.Context(), rq.Principal.TenantID, in.ID)
	if errors.Is(err, citations.ErrNotFound) {
		return c, notFound("citation")
	}
	return c, err
}

// listJobsIn is the input of GET /api/v1/jobs.
type listJobsIn struct {
	Limit  int32  `query:"limit" default:"50" min:"1" max:"200"`
	Status string `query:"status" enum:"jobStatuses"`
	Cursor string `query:"cursor" maxLength:"200" doc:"the nextCursor of the previous page: continues right after it, however old the jobs (the status filter still applies)"`
}

func (s *Server) listJobs(rq *Request, in listJobsIn) (JobList, error) {
	js, next, err := s.Jobs.Page(rq.HTTP.Context(), rq.Principal.TenantID, in.Status, int(in.Limit), in.Cursor)
	if errors.Is(err, jobs.ErrInvalidCursor) {
		return JobList{}, validation.Field("cursor", "is not a cursor of this list; pass the nextCursor of a page unchanged")
	}
	if err != nil {
		return JobList{}, err
	}
	l := JobList{Items: js}
	if l.Items == nil {
		l.Items = []jobs.Job{}
	}
	if next != "" {
		l.NextCursor = &next
	}
	return l, nil
}

func (s *Server) getJob(rq *Request, in StrID) (jobs.Job, error) {
	j, err := s.Jobs.Get(rq.HTTP.Context(), rq.Principal.TenantID, in.ID)
	if errors.Is(err, jobs.ErrNotFound) {
		return j, notFound("job")
	}
	return j, err
}
