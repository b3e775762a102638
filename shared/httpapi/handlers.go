package httpapi

import (
	"errors"
	"slices"
	"time"

	"github.com/brandlens/brandlens/shared/citations"
	"github.com/brandlens/brandlens/shared/competitors"
	"github.com/brandlens/brandlens/shared/credits"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/queries"
)

// notImplemented answers routes whose feature has not landed yet, after
// their guard has run.
func (s *Server) notImplemented(rq *Request) (any, error) {
	return nil, &Error{Code: CodeNotImplemented, Message: rq.Route.Method + " " + rq.Route.Path + " is not available yet"}
}

// capabilities lists the capability of every route of the whole table the
// principal may call (a Lambda's server knows only its own routes).
func (s *Server) capabilities(rq *Request) []string {
	var out []string
	for _, r := range Routes {
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

func (s *Server) getMe(rq *Request) (any, error) {
	ctx := rq.HTTP.Context()
	p := rq.Principal
	t, err := s.tenant(rq)
	if err != nil {
		return nil, err
	}
	bal, err := s.Ledger.Balance(ctx, p.TenantID)
	if err != nil {
		return nil, err
	}
	scopes := make([]string, len(p.Scopes))
	for i, sc := range p.Scopes {
		scopes[i] = string(sc)
	}
	return Entitlement{
		TenantID: p.TenantID, KeyID: p.KeyID, IsAgent: p.IsAgent, Scopes: scopes,
		CreditsBalance: bal.Available, SpentToday: bal.SpentToday,
		DailyCreditCeiling: t.DailyCreditCeiling, RPMLimit: t.RPMLimit,
		AutonomyLevel: string(p.Autonomy), PendingApprovals: 0,
		Capabilities: s.capabilities(rq),
	}, nil
}

func (s *Server) getCredits(rq *Request) (any, error) {
	ctx := rq.HTTP.Context()
	t, err := s.tenant(rq)
	if err != nil {
		return nil, err
	}
	bal, err := s.Ledger.Balance(ctx, rq.Principal.TenantID)
	if err != nil {
		return nil, err
	}
	now := s.Now().UTC()
	return CreditInfo{
		CreditsBalance: bal.Available, Held: bal.Held, Captured: bal.Captured, Granted: bal.Granted,
		SpentToday: bal.SpentToday, DailyCreditCeiling: t.DailyCreditCeiling,
		RemainingToday: max(0, min(bal.Available, t.DailyCreditCeiling-bal.SpentToday)),
		ResetsAt:       now.Add(time.Duration(credits.SecondsToUTCMidnight(now)) * time.Second).Truncate(time.Second),
	}, nil
}

func (s *Server) listQueries(rq *Request) (any, error) {
	qs, err := s.Queries.List(rq.HTTP.Context(), rq.Principal.TenantID)
	if err != nil {
		return nil, err
	}
	return QueryList{Items: qs}, nil
}

func (s *Server) getQuery(rq *Request) (any, error) {
	q, err := s.Queries.Get(rq.HTTP.Context(), rq.Principal.TenantID, rq.Int("id"))
	if errors.Is(err, queries.ErrNotFound) {
		return nil, notFound("query")
	}
	return q, err
}

func (s *Server) listCompetitors(rq *Request) (any, error) {
	cs, err := s.Competitors.List(rq.HTTP.Context(), rq.Principal.TenantID)
	if err != nil {
		return nil, err
	}
	return CompetitorList{Items: cs}, nil
}

func (s *Server) getCompetitor(rq *Request) (any, error) {
	c, err := s.Competitors.Get(rq.HTTP.Context(), rq.Principal.TenantID, rq.Int("id"))
	if errors.Is(err, competitors.ErrNotFound) {
		return nil, notFound("competitor")
	}
	return c, err
}

func (s *Server) listCitations(rq *Request) (any, error) {
	f := citations.Filter{
		Platform:    rq.Str("platform"),
		Sentiment:   rq.Str("sentiment"),
		SourceType:  rq.Str("sourceType"),
		HasMention:  rq.Bool("hasMention"),
		SearchQuery: rq.Str("searchQuery"),
		DateFrom:    rq.Time("dateFrom"),
		DateTo:      rq.Time("dateTo"),
	}
	if !f.DateFrom.IsZero() && !f.DateTo.IsZero() && f.DateTo.Before(f.DateFrom) {
		var fe fieldErrors
		fe.add("dateTo", "must not be before dateFrom")
		return nil, fe.err()
	}
	page, size := int(rq.Int("page")), int(rq.Int("pageSize"))
	res, err := s.Citations.List(rq.HTTP.Context(), rq.Principal.TenantID, f, page, size)
	if err != nil {
		return nil, err
	}
	items := res.Items
	if items == nil {
		items = []citations.Citation{}
	}
	return CitationPage{Items: items, Page: page, PageSize: size, HasMore: res.HasMore}, nil
}

func (s *Server) getCitation(rq *Request) (any, error) {
	c, err := s.Citations.Get(rq.HTTP.Context(), rq.Principal.TenantID, rq.Int("id"))
	if errors.Is(err, citations.ErrNotFound) {
		return nil, notFound("citation")
	}
	return c, err
}

func (s *Server) listJobs(rq *Request) (any, error) {
	js, err := s.Jobs.List(rq.HTTP.Context(), rq.Principal.TenantID, rq.Str("status"), int(rq.Int("limit")))
	if err != nil {
		return nil, err
	}
	if js == nil {
		js = []jobs.Job{}
	}
	return JobList{Items: js}, nil
}

func (s *Server) getJob(rq *Request) (any, error) {
	j, err := s.Jobs.Get(rq.HTTP.Context(), rq.Principal.TenantID, rq.Str("id"))
	if errors.Is(err, jobs.ErrNotFound) {
		return nil, notFound("job")
	}
	return j, err
}
