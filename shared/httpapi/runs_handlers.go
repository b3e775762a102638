package httpapi

import (
	"errors"
	"strconv"
	"strings"

	"github.com/brandlens/brandlens/shared/credits"
	"github.com/brandlens/brandlens/shared/idempotency"
	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/runs"
)

// idempotencyKey reads the Idempotency-Key header; present but empty or
// over 255 characters is a validation error.
func idempotencyKey(rq *Request, fe *fieldErrors) string {
	vals := rq.HTTP.Header.Values("Idempotency-Key")
	if len(vals) == 0 {
		return ""
	}
	if len(vals) > 1 || idempotency.Validate(vals[0]) != nil {
		fe.add("Idempotency-Key", "must be given once, 1 to %d characters", idempotency.MaxKeyLen)
		return ""
	}
	return vals[0]
}

func (s *Server) postQueryRun(rq *Request) (any, error) {
	in := rq.Input.(*RunRequest)
	var fe fieldErrors
	samples := runs.DefaultSamples
	if in.Samples != nil {
		if *in.Samples < runs.MinSamples || *in.Samples > runs.MaxSamples {
			fe.add("samples", "must be between %d and %d", runs.MinSamples, runs.MaxSamples)
		} else {
			samples = int(*in.Samples)
		}
	}
	for _, p := range in.Platforms {
		if !platforms.Valid(p) {
			fe.add("platforms", "%q is not a platform; platforms are %s", p, strings.Join(platforms.All, ", "))
			break
		}
	}
	key := idempotencyKey(rq, &fe)
	if err := fe.err(); err != nil {
		return nil, err
	}
	acc, err := s.Runs.Start(rq.HTTP.Context(), runs.Request{
		TenantID: rq.Principal.TenantID, QueryID: rq.Int("id"), Platforms: in.Platforms, Samples: samples,
		IdempotencyKey: key, APIKeyID: rq.Principal.KeyID,
		Fingerprint: idempotency.Fingerprint(rq.HTTP.Method, rq.HTTP.URL.Path, rq.Body),
	})
	if err != nil {
		return nil, runError(err)
	}
	return JobAccepted{JobID: acc.Job.ID, Status: acc.Job.Status}, nil
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
		var fe fieldErrors
		fe.add("id", "the query is not active")
		return fe.err()
	case errors.As(err, &pe):
		var fe fieldErrors
		fe.add("platforms", "%q is not one of the query's platforms", pe.Platform)
		return fe.err()
	case errors.Is(err, idempotency.ErrConflict):
		return &Error{Code: CodeIdempotencyConflict, Message: "this Idempotency-Key was used with a different request",
			Details: map[string]any{"header": "Idempotency-Key"}}
	case errors.As(err, &ice):
		return &Error{Code: CodeInsufficientCredits, Message: "not enough credits: the run costs " + strconv.FormatInt(ice.Cost, 10) + ", " + strconv.FormatInt(ice.Available, 10) + " available",
			Details: map[string]any{"cost": ice.Cost, "available": ice.Available}, RetryAfter: credits.InsufficientCreditsRetryAfter}
	case errors.As(err, &ce):
		return &Error{Code: CodeCreditCeilingReached, Message: "the daily credit ceiling would be passed",
			Details: map[string]any{"cost": ce.Cost, "dailyCreditCeiling": ce.Ceiling, "spentToday": ce.SpentToday}, RetryAfter: ce.RetryAfter}
	}
	return err
}
