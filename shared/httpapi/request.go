package httpapi

import (
	"net/http"

	"github.com/brandlens/brandlens/shared/auth"
	"github.com/brandlens/brandlens/shared/tenants"
)

// Request is what a handler sees besides its typed input: the HTTP request
// and the authenticated caller.
type Request struct {
	HTTP      *http.Request
	Route     *Route
	Principal auth.Principal
	RequestID string
	// Body is the raw body, read once by the router (capped).
	Body   []byte
	tenant *tenants.Tenant // the caller's, once read
}
