package httpapi

import (
	"errors"
	"fmt"
	"strings"

	"github.com/brandlens/brandlens/shared/approvals"

	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/queries"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/validation"
)

// runIn is the input of POST /api/v1/queries/{id}/run.
type runIn struct {
	IntID
	Body RunRequest `body:"json"`
}

func (s *Server) postQueryRun(rq *Request, in runIn) (JobAccepted, error) {
	samples := runs.DefaultSamples
	if in.Body.Samples != nil {
		samples = int(*in.Body.Samples)
	}
	resource := audit.Resource("query", in.ID)
	summary, subj, err := s.runSubject(rq, in.ID, in.Body.Platforms, samples)
	if err != nil {
		return JobAccepted{}, err
	}
	acc, err := s.Runs.Start(rq.HTTP.Context(), runs.Request{
		TenantID: rq.Principal.TenantID, QueryID: in.ID, Platforms: in.Body.Platforms, Samples: samples,
		Idempotency: rq.Idempotency, Actor: audit.ActorOf(rq.Principal),
		Prepare: s.heldJob(rq, runs.ActionRun, resource, summary, subj, in.Body, nil),
	})
	if err != nil {
		return JobAccepted{}, runError(err)
	}
	return s.jobAccepted(rq, acc.Job)
}

// runSubject is what a reviewer is shown of a run an L0 agent asked for:
// the query's text, the platforms the request names (all the query's
// when it names none) and what it may cost. Keys that are not held read nothing; a query that
// does not exist is left to Start's 404.
func (s *Server) runSubject(rq *Request, id int32, pfs []string, samples int) (string, approvals.Subject, error) {
	if !approvals.Gated(rq.Principal, runs.ActionRun) {
		return "", approvals.Subject{}, nil
	}
	q, err := s.Queries.Get(rq.HTTP.Context(), rq.Principal.TenantID, id)
	if errors.Is(err, queries.ErrNotFound) {
		return "", approvals.Subject{}, nil
	} else if err != nil {
		return "", approvals.Subject{}, err
	}
	if pfs == nil {
		pfs = q.Platforms
	}
	// The price ceiling, as the other held jobs' summaries show theirs: a run
	// that is partial is charged only for the platforms that answered.
	cost := runs.Cost(pfs, samples)
	summary := fmt.Sprintf("run query:%d %q on %s, %d sample(s) each (up to %d credits)", id, q.Text, strings.Join(pfs, ", "), samples, cost)
	return summary, approvals.Subject{ResourceTitle: &q.Text, QueryText: &q.Text}, nil
}

// jobAccepted is the 202 answer of a write that created (or, for a key
// whose job exists, found) job: with the tenant's credits_balance read after
// the job's hold, so that a client knows what it has left without another
// call.
func (s *Server) jobAccepted(rq *Request, j jobs.Job) (JobAccepted, error) {
	bal, err := s.Ledger.Balance(rq.HTTP.Context(), rq.Principal.TenantID)
	if err != nil {
		return JobAccepted{}, err
	}
	a := JobAccepted{JobID: j.ID, Status: j.Status, CreditsBalance: bal.Available}
	if j.AwaitingApproval {
		a.ApprovalID = j.ApprovalID
	}
	return a, nil
}

// runError maps the run write path's typed errors to API errors.
func runError(err error) error {
	var pe *runs.PlatformError
	switch {
	case errors.Is(err, runs.ErrQueryNotFound):
		return notFound("query")
	case errors.Is(err, runs.ErrQueryInactive):
		return validation.Field("id", "the query is not active")
	case errors.As(err, &pe):
		return validation.Field("platforms", "%q is not one of the query's platforms", pe.Platform)
	}
	return jobError(err)
}
