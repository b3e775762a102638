package brandcheck

import "fmt"

// Error codes of the brand check's refusals. rate_limit_exceeded is the
// spec's; recaptcha_failed (403) and service_unavailable (503) are added by
// this service. Invalid members are a *validation.Error (422
// validation_error naming each one).
const (
	CodeRecaptchaFailed   = "recaptcha_failed"
	CodeRateLimitExceeded = "rate_limit_exceeded"
	CodeUnavailable       = "service_unavailable"
)

// VerificationError (403 recaptcha_failed): the reCAPTCHA token was refused
// (invalid, expired or used twice, or a v3 score under the threshold).
type VerificationError struct{ Reasons []string }

func (e *VerificationError) Error() string {
	return "The reCAPTCHA check failed; please complete it again."
}

// Code is the API error code.
func (e *VerificationError) Code() string { return CodeRecaptchaFailed }

// RateLimitError (429 rate_limit_exceeded): the client used its checks of
// the UTC day. RetryAfter is the number of seconds to the day's end.
type RateLimitError struct {
	Limit      int
	RetryAfter int
}

func (e *RateLimitError) Error() string {
	return fmt.Sprintf("You have used your %d free brand checks for today; the next one is free in %s.",
		e.Limit, humanDuration(e.RetryAfter))
}

// Code is the API error code.
func (e *RateLimitError) Code() string { return CodeRateLimitExceeded }

// RetryAfterSeconds is the Retry-After value.
func (e *RateLimitError) RetryAfterSeconds() int { return e.RetryAfter }

// Reasons of an UnavailableError.
const (
	ReasonVerifier = "verifier_unavailable" // reCAPTCHA could not be asked
	ReasonBudget   = "daily_budget_reached" // the day's anonymous checks are used up
	ReasonAudit    = "audit_unavailable"    // the prompts could not be audited
)

// UnavailableError (503 service_unavailable): the check cannot run now.
// Its message is safe to show; Err holds the cause for logs.
type UnavailableError struct {
	Reason     string
	RetryAfter int
	Err        error
}

func (e *UnavailableError) Error() string {
	switch e.Reason {
	case ReasonBudget:
		return "Free brand checks are used up for today; please come back tomorrow."
	case ReasonVerifier:
		return "We could not verify that you are human just now; please try again in a minute."
	}
	return "The brand check is unavailable just now; please try again shortly."
}

func (e *UnavailableError) Unwrap() error { return e.Err }

// Code is the API error code.
func (e *UnavailableError) Code() string { return CodeUnavailable }

// RetryAfterSeconds is the Retry-After value.
func (e *UnavailableError) RetryAfterSeconds() int { return e.RetryAfter }

// humanDuration renders seconds as "5 h 12 min", "12 min" or "40 s".
func humanDuration(s int) string {
	h, m := s/3600, (s%3600)/60
	switch {
	case h > 0:
		return fmt.Sprintf("%d h %d min", h, m)
	case m > 0:
		return fmt.Sprintf("%d min", m)
	}
	return fmt.Sprintf("%d s", max(s, 0))
}
