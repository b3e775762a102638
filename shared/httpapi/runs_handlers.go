package httpapi

import (
	"errors"
	"strconv"

	"github.com/brandlens/brandlens/shared/credits"
	"github.com/brandlens/brandlens/shared/idempotency"
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
	acc, err := s.Runs.Start(rq.HTTP.Context(), runs.Request{
		TenantID: rq.Principal.TenantID, QueryID: in.ID, Platforms: in.Body.Platforms, Samples: samples,
		Idempotency: rq.Idempotency,
	})
	if err != nil {
		return JobAccepted{}, runError(err)
	}
	return s.jobAccepted(rq, acc.Job)
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
	return JobAccepted{JobID: j.ID, Status: j.Status, CreditsBalance: bal.Available}, nil
}

// runError maps the write path's typed errors to API errors.
func runError(err error) error {
	var (
		pe  *runs.PlatformError
		ice *runs.InsufficientCreditsError
		ce  *runs.CeilingError
	)
	switch {
	case errors.Is(err, runs.ErrQueryNotFound):
		return notFound("query")
	case errors.Is(err, runs.ErrQueryInactive):
		return validation.Field("id", "the query is not active")
	case errors.As(err, &pe):
		return validation.Field("platforms", "%q is not one of the query's platforms", pe.Platform)
	case errors.Is(err, idempotency.ErrConflict):
		return idempotencyConflict()
	case errors.Is(err, idempotency.ErrInProgress):
		return idempotencyInProgress()
	case errors.As(err, &ice):
		return &Error{Code: CodeInsufficientCredits, Message: "not enough credits: the run costs " + strconv.FormatInt(ice.Cost, 10) + ", " + strconv.FormatInt(ice.Available, 10) + " available",
			Details: map[string]any{"cost": ice.Cost, "available": ice.Available}, RetryAfter: credits.InsufficientCreditsRetryAfter}
	case errors.As(err, &ce):
		return &Error{Code: CodeCreditCeilingReached, Message: "the daily credit ceiling would be passed: the run costs " + strconv.FormatInt(ce.Cost, 10) + ", " + strconv.FormatInt(ce.CommittedToday, 10) + " of " + strconv.FormatInt(ce.Ceiling, 10) + " are committed today (held or spent)",
			Details: map[string]any{"cost": ce.Cost, "dailyCreditCeiling": ce.Ceiling, "spentToday": ce.SpentToday, "committedToday": ce.CommittedToday}, RetryAfter: ce.RetryAfter}
	}
	return err
}
