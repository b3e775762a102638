package httpapi

import (
	"errors"

	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/idempotency"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/validation"
)

// runIn is the input of POST /api/v1/queries/{id}/run.
type runIn struct {
	IntID
	Idempotent
	Body RunRequest `body:"json"`
}

func (s *Server) postQueryRun(rq *Request, in runIn) (JobAccepted, error) {
	samples := runs.DefaultSamples
	if in.Body.Samples != nil {
		samples = int(*in.Body.Samples)
	}
	acc, err := s.Runs.Start(rq.HTTP.Context(), runs.Request{
		TenantID: rq.Principal.TenantID, QueryID: in.ID, Platforms: in.Body.Platforms, Samples: samples,
		IdempotencyKey: in.IdempotencyKey, APIKeyID: rq.Principal.KeyID,
		Fingerprint: idempotency.Fingerprint(rq.HTTP.Method, rq.HTTP.URL.Path, rq.Body),
		Actor:       audit.ActorOf(rq.Principal),
	})
	if err != nil {
		return JobAccepted{}, runError(err)
	}
	return JobAccepted{JobID: acc.Job.ID, Status: acc.Job.Status}, nil
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
