package httpapi

import (
	"encoding/json"
	"errors"

	"github.com/brandlens/brandlens/shared/competitors"
	"github.com/brandlens/brandlens/shared/queries"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/validation"
)

// Management of what a tenant monitors: brand profiles, monitoring
// queries and tracked competitors (extensions of the spec).

func brandProfile(b tenants.Brand) BrandProfile {
	p := BrandProfile{ID: b.ID, Name: b.Name, Aliases: b.Aliases, Domains: b.Domains, CreatedAt: b.CreatedAt, UpdatedAt: b.CreatedAt}
	if b.UpdatedAt != nil {
		p.UpdatedAt = *b.UpdatedAt
	}
	if p.Aliases == nil {
		p.Aliases = []string{}
	}
	if p.Domains == nil {
		p.Domains = []string{}
	}
	return p
}

func (s *Server) listBrandProfiles(rq *Request, _ NoInput) (BrandProfileList, error) {
	bs, err := s.Tenants.Brands(rq.HTTP.Context(), rq.Principal.TenantID)
	out := BrandProfileList{Items: []BrandProfile{}}
	for _, b := range bs {
		out.Items = append(out.Items, brandProfile(b))
	}
	return out, err
}

func (s *Server) getBrandProfile(rq *Request, in IntID) (BrandProfile, error) {
	b, err := s.Tenants.Brand(rq.HTTP.Context(), rq.Principal.TenantID, in.ID)
	if errors.Is(err, tenants.ErrNotFound) {
		return BrandProfile{}, notFound("brand profile")
	}
	return brandProfile(b), err
}

type putBrandProfileIn struct {
	IntID
	Body UpdateBrandProfileRequest `body:"json"`
}

func (s *Server) putBrandProfile(rq *Request, in putBrandProfileIn) (BrandProfile, error) {
	b, err := s.Tenants.UpdateBrand(rq.HTTP.Context(), rq.Principal.TenantID, in.ID,
		tenants.BrandChange{Aliases: in.Body.Aliases, Domains: in.Body.Domains})
	if errors.Is(err, tenants.ErrNotFound) {
		return BrandProfile{}, notFound("brand profile")
	}
	return brandProfile(b), err
}

// listQueries lists the tenant's live queries (deleted ones stay readable
// by id).
func (s *Server) listQueries(rq *Request, _ NoInput) (QueryList, error) {
	qs, err := s.Queries.ListShown(rq.HTTP.Context(), rq.Principal.TenantID)
	live := []queries.Query{}
	for _, q := range qs {
		if q.DeletedAt == nil {
			live = append(live, q)
		}
	}
	return QueryList{Items: live}, err
}

type postQueryIn struct {
	Body CreateQueryRequest `body:"json"`
}

func (s *Server) postQuery(rq *Request, in postQueryIn) (queries.Query, error) {
	ctx := rq.HTTP.Context()
	tid := rq.Principal.TenantID
	bp := in.Body.BrandProfileID
	if bp == nil {
		// The tenant's first brand profile, the only one most tenants have.
		bs, err := s.Tenants.Brands(ctx, tid)
		if err != nil {
			return queries.Query{}, err
		}
		if len(bs) == 0 {
			return queries.Query{}, validation.Field("brandProfileId", "the tenant has no brand profile to monitor")
		}
		bp = &bs[0].ID
	} else if _, err := s.Tenants.Brand(ctx, tid, *bp); errors.Is(err, tenants.ErrNotFound) {
		return queries.Query{}, validation.Field("brandProfileId", "no such brand profile (GET /api/v1/brand-profiles lists them)")
	} else if err != nil {
		return queries.Query{}, err
	}
	q, created, err := s.Queries.Create(ctx, queries.Query{TenantID: tid, BrandProfileID: *bp, Text: in.Body.Text,
		Platforms: in.Body.Platforms, Schedule: in.Body.Schedule})
	if err == nil && !created {
		return queries.Query{}, alreadyExists("query", q.ID, "text")
	}
	return q, err
}

type putQueryIn struct {
	IntID
	Body UpdateQueryRequest `body:"json"`
}

func (s *Server) putQuery(rq *Request, in putQueryIn) (queries.Query, error) {
	ch := queries.Change{Text: in.Body.Text, Platforms: in.Body.Platforms, IsActive: in.Body.IsActive}
	// schedule: absent keeps it, null clears it (the decoder cannot tell
	// the two apart in a *string).
	var members map[string]json.RawMessage
	if err := json.Unmarshal(rq.Body, &members); err == nil {
		if raw, ok := members["schedule"]; ok {
			sched := in.Body.Schedule
			if string(raw) == "null" {
				sched = nil
			}
			ch.Schedule = &sched
		}
	}
	q, err := s.Queries.Update(rq.HTTP.Context(), rq.Principal.TenantID, in.ID, ch)
	var taken *queries.TextTakenError
	switch {
	case errors.Is(err, queries.ErrNotFound), errors.Is(err, queries.ErrDeleted):
		return q, notFound("query")
	case errors.As(err, &taken):
		return q, alreadyExists("query", taken.HolderID, "text")
	case err != nil:
		return q, err
	}
	return s.Queries.WithLastRun(rq.HTTP.Context(), q)
}

func (s *Server) deleteQuery(rq *Request, in IntID) (queries.Query, error) {
	q, err := s.Queries.Delete(rq.HTTP.Context(), rq.Principal.TenantID, in.ID)
	if errors.Is(err, queries.ErrNotFound) || errors.Is(err, queries.ErrDeleted) {
		return q, notFound("query")
	} else if err != nil {
		return q, err
	}
	return s.Queries.WithLastRun(rq.HTTP.Context(), q)
}

type postCompetitorIn struct {
	Body CreateCompetitorRequest `body:"json"`
}

func (s *Server) postCompetitor(rq *Request, in postCompetitorIn) (competitors.Competitor, error) {
	desc := ""
	if in.Body.Description != nil {
		desc = *in.Body.Description
	}
	c, err := s.Competitors.Track(rq.HTTP.Context(), competitors.Spec{TenantID: rq.Principal.TenantID,
		Name: in.Body.Name, Aliases: in.Body.Aliases, Domains: in.Body.Domains}, desc)
	return c, competitorError(err)
}

type putCompetitorIn struct {
	IntID
	Body UpdateCompetitorRequest `body:"json"`
}

func (s *Server) putCompetitor(rq *Request, in putCompetitorIn) (competitors.Competitor, error) {
	b := in.Body
	c, err := s.Competitors.Update(rq.HTTP.Context(), rq.Principal.TenantID, in.ID,
		competitors.Change{Name: b.Name, Aliases: b.Aliases, Domains: b.Domains, Description: b.Description})
	return c, competitorError(err)
}

func (s *Server) dismissCompetitor(rq *Request, in IntID) (competitors.Competitor, error) {
	return s.setDismissed(rq, in.ID, true)
}

func (s *Server) restoreCompetitor(rq *Request, in IntID) (competitors.Competitor, error) {
	return s.setDismissed(rq, in.ID, false)
}

func (s *Server) setDismissed(rq *Request, id int32, dismissed bool) (competitors.Competitor, error) {
	c, err := s.Competitors.Update(rq.HTTP.Context(), rq.Principal.TenantID, id, competitors.Change{Dismissed: &dismissed})
	return c, competitorError(err)
}

func competitorError(err error) error {
	var taken *competitors.NameTakenError
	switch {
	case errors.Is(err, competitors.ErrNotFound):
		return notFound("competitor")
	case errors.As(err, &taken):
		return alreadyExists("competitor", taken.HolderID, "name")
	}
	return err
}

// alreadyExists: another record of the tenant holds the unique value of
// member (a query's text, a competitor's name).
func alreadyExists(what string, id int32, member string) error {
	return &Error{Code: CodeAlreadyExists, Message: "a " + what + " with this " + member + " exists already (ignoring case and spacing)",
		Details: map[string]any{"id": id, "field": member}}
}
