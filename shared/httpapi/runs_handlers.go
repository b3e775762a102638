package httpapi

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/brandlens/brandlens/shared/approvals"

	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/jobs"
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
	acc, err := s.Runs.Start(rq.HTTP.Context(), runs.Request{
		TenantID: rq.Principal.TenantID, QueryID: in.ID, Platforms: in.Body.Platforms, Samples: samples,
		Idempotency: rq.Idempotency, Actor: audit.ActorOf(rq.Principal),
		Prepare: s.heldJob(rq, runs.ActionRun, resource, s.describeRun(rq, in.ID), in.Body, nil),
	})
	if err != nil {
		return JobAccepted{}, runError(err)
	}
	return s.jobAccepted(rq, acc.Job)
}

// describeRun describes a held run for its reviewer: the query's text, the
// platforms and samples the job runs, and the most it may cost (a partial
// run is charged only for the platforms that answered).
func (s *Server) describeRun(rq *Request, id int32) describeJob {
	return func(ctx context.Context, job *jobs.Job) (string, approvals.Subject, error) {
		q, err := s.Queries.Get(ctx, rq.Principal.TenantID, id)
		if err != nil {
			return "", approvals.Subject{}, err
		}
		summary := fmt.Sprintf("run query:%d %q on %s, %d sample(s) each (up to %d credits)",
			id, q.Text, strings.Join(job.Platforms, ", "), job.Samples, job.CreditsReserved)
		return summary, approvals.Subject{ResourceTitle: &q.Text, QueryText: &q.Text}, nil
	}
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
