package httpapi

import (
	"net/http"

	"github.com/brandlens/brandlens/shared/brandcheck"
	"github.com/brandlens/brandlens/shared/opportunities"
)

// Error codes of the spec, and those this service adds (documented in the
// OpenAPI document): invalid_state, already_exists, method_not_allowed,
// payload_too_large, invalid_signature, not_implemented, internal_error,
// bad_request, request_headers_too_large, and the brand check's
// recaptcha_failed and service_unavailable.
const (
	CodeMissingAPIKey        = "missing_api_key"
	CodeInvalidAPIKey        = "invalid_api_key"
	CodeInsufficientScope    = "insufficient_scope"
	CodeApprovalRequired     = "approval_required"
	CodeNotFound             = "not_found"
	CodeIdempotencyConflict  = "idempotency_conflict"
	CodeApprovalPending      = "approval_pending"
	CodeValidation           = "validation_error"
	CodeRateLimitExceeded    = "rate_limit_exceeded"
	CodeCreditCeilingReached = "credit_ceiling_reached"
	CodeInsufficientCredits  = "insufficient_credits"
	// CodeInvalidState: a write on an opportunity in a state that does not
	// allow it (opportunities.CodeInvalidState).
	CodeInvalidState = opportunities.CodeInvalidState
	// CodeAlreadyExists: a create or rename would take a unique value (a
	// query's text, a competitor's name) another record holds.
	CodeAlreadyExists    = "already_exists"
	CodeMethodNotAllowed = "method_not_allowed"
	CodePayloadTooLarge  = "payload_too_large"
	CodeInvalidSignature = "invalid_signature"
	CodeNotImplemented   = "not_implemented"
	CodeInternal         = "internal_error"
	// CodeAlreadyReviewed: an approval request is approved or rejected
	// already (a second review).
	CodeAlreadyReviewed = "already_reviewed"
	// CodeSlugTaken: the own site's page of that type and Slug is another
	// piece's (another ContentId).
	CodeSlugTaken  = "slug_taken"
	CodeBadRequest = "bad_request"
	// CodeLimitExceeded: a create would pass a per-tenant cap
	// (validation.LimitError).
	CodeLimitExceeded   = "limit_exceeded"
	CodeHeadersTooLarge = "request_headers_too_large"
	// The anonymous brand check's (package brandcheck names them).
	CodeRecaptchaFailed    = brandcheck.CodeRecaptchaFailed
	CodeServiceUnavailable = brandcheck.CodeUnavailable
)

// ErrorStatus maps each code to its HTTP status.
var ErrorStatus = map[string]int{
	CodeMissingAPIKey:        http.StatusUnauthorized,
	CodeInvalidAPIKey:        http.StatusUnauthorized,
	CodeInsufficientScope:    http.StatusForbidden,
	CodeApprovalRequired:     http.StatusForbidden,
	CodeNotFound:             http.StatusNotFound,
	CodeIdempotencyConflict:  http.StatusConflict,
	CodeApprovalPending:      http.StatusConflict,
	CodeValidation:           http.StatusUnprocessableEntity,
	CodeRateLimitExceeded:    http.StatusTooManyRequests,
	CodeCreditCeilingReached: http.StatusTooManyRequests,
	CodeInsufficientCredits:  http.StatusPaymentRequired,
	CodeInvalidState:         http.StatusConflict,
	CodeAlreadyExists:        http.StatusConflict,
	CodeMethodNotAllowed:     http.StatusMethodNotAllowed,
	CodePayloadTooLarge:      http.StatusRequestEntityTooLarge,
	CodeInvalidSignature:     http.StatusUnauthorized,
	CodeNotImplemented:       http.StatusNotImplemented,
	CodeInternal:             http.StatusInternalServerError,
	CodeAlreadyReviewed:      http.StatusConflict,
	CodeSlugTaken:            http.StatusConflict,
	CodeBadRequest:           http.StatusBadRequest,
	CodeLimitExceeded:        http.StatusConflict,
	CodeHeadersTooLarge:      http.StatusRequestHeaderFieldsTooLarge,
	CodeRecaptchaFailed:      http.StatusForbidden,
	CodeServiceUnavailable:   http.StatusServiceUnavailable,
}

// Error is an API error; it renders as the spec's envelope
// { "error": { "code", "message", "details" } }. Details is always an
// object; validation errors list the offending fields under "fields".
type Error struct {
	Code    string
	Message string
	Details map[string]any
	// RetryAfter, when positive, is sent as the Retry-After header.
	RetryAfter int
	// Allow lists the methods of a 405.
	Allow []string
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Status returns the HTTP status of the error's code.
func (e *Error) Status() int {
	if s, ok := ErrorStatus[e.Code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// ErrorBody is the envelope's wire shape.
type ErrorBody struct {
	Error ErrorObject `json:"error"`
}

// ErrorObject is the inside of the envelope.
type ErrorObject struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details"`
}

func (e *Error) body() ErrorBody {
	d := e.Details
	if d == nil {
		d = map[string]any{}
	}
	return ErrorBody{Error: ErrorObject{Code: e.Code, Message: e.Message, Details: d}}
}

func notFound(what string) *Error {
	return &Error{Code: CodeNotFound, Message: what + " not found"}
}
