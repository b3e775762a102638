package httpapi

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/brandlens/brandlens/shared/brandcheck"
)

// BrandChecker runs anonymous brand checks (*brandcheck.Service).
type BrandChecker interface {
	Check(ctx context.Context, in brandcheck.Input, who brandcheck.Caller) (brandcheck.Response, error)
}

// routeNotes add what a route's operation must tell beyond its guard.
var routeNotes = map[string]string{
	"brand-check": "Protected by reCAPTCHA and a daily limit instead of a key. The token is verified with Google before anything is counted: a refused token is 403 recaptcha_failed, Google unreachable 503 service_unavailable (never a free pass). Each client gets 3 checks per UTC day, counted atomically before the platforms are asked (a check of a brand already checked today is answered from the day's cache and still counts); the 4th is 429 rate_limit_exceeded with Retry-After = seconds to the end of the UTC day. Requests refused with 422, 403 or 503 are not counted. The client is the TCP peer, or CloudFront's viewer address when the request came through the service's distribution. Anonymous checks run under a global daily budget (503 service_unavailable with Retry-After beyond it). The platforms are asked within 20 seconds; a platform that does not answer in time is reported timeout, one that fails is failed with its errorMessage, and the others still count.",
}

// brandCheckIn is the input of POST /api/v1/brand-check.
type brandCheckIn struct {
	Body BrandCheckRequest `body:"json"`
}

// postBrandCheck runs the check for the client the request comes from: the
// TCP peer (API Gateway's sourceIp in Lambda), or CloudFront's viewer
// address when the request carries the distribution's origin secret
// (brandcheck.ProxyTrust). The answer is negotiated (brandcheck.Response
// has a text report).
func (s *Server) postBrandCheck(rq *Request, in brandCheckIn) (brandcheck.Response, error) {
	if s.BrandCheck == nil {
		return brandcheck.Response{}, errors.New("httpapi: this server has no brand check")
	}
	addr, err := s.ProxyTrust.ClientAddress(rq.HTTP.RemoteAddr, rq.HTTP.Header.Get)
	if err != nil {
		return brandcheck.Response{}, fmt.Errorf("httpapi: brand check: peer %q: %w", rq.HTTP.RemoteAddr, err)
	}
	// The check makes its own id: the request id may be the caller's own
	// X-Request-Id, and a check is stored under its id exactly once.
	resp, err := s.BrandCheck.Check(rq.HTTP.Context(), brandcheck.Input{BrandName: in.Body.BrandName,
		WebsiteURL: in.Body.WebsiteURL, RecaptchaToken: in.Body.RecaptchaToken}, brandcheck.Caller{Addr: addr})
	if err != nil {
		return brandcheck.Response{}, s.brandCheckError(rq, err)
	}
	s.Logger.Info("brand check answered", "request_id", rq.RequestID, "check_id", resp.RequestID)
	return resp, nil
}

// brandCheckError maps the check's typed errors to API errors; a
// validation error (422 naming each member) and store failures (500) pass
// through.
func (s *Server) brandCheckError(rq *Request, err error) error {
	var (
		vf *brandcheck.VerificationError
		rl *brandcheck.RateLimitError
		ue *brandcheck.UnavailableError
	)
	switch {
	case errors.As(err, &vf):
		reasons := vf.Reasons
		if reasons == nil {
			reasons = []string{}
		}
		return &Error{Code: CodeRecaptchaFailed, Message: vf.Error(), Details: map[string]any{"reasons": reasons}}
	case errors.As(err, &rl):
		return &Error{Code: CodeRateLimitExceeded, Message: rl.Error(), RetryAfter: rl.RetryAfterSeconds(),
			Details: map[string]any{"dailyLimit": rl.Limit,
				"resetsAt": s.Now().UTC().Add(time.Duration(rl.RetryAfterSeconds()) * time.Second).Truncate(time.Second)}}
	case errors.As(err, &ue):
		// The cause (Google unreachable, the store refusing the audit) is
		// for the logs; the visitor gets the reason and when to retry.
		attrs := []any{"request_id", rq.RequestID, "reason", ue.Reason}
		if ue.Err != nil {
			attrs = append(attrs, "error", ue.Err.Error())
		}
		s.Logger.Warn("brand check unavailable", attrs...)
		return &Error{Code: CodeServiceUnavailable, Message: ue.Error(), RetryAfter: ue.RetryAfterSeconds(),
			Details: map[string]any{"reason": ue.Reason}}
	}
	return err
}
