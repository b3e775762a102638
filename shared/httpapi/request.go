package httpapi

import (
	"net/http"
	"net/url"

	"github.com/brandlens/brandlens/shared/auth"
	"github.com/brandlens/brandlens/shared/idempotency"
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
	Body []byte
	// Idempotency is the Idempotency-Key the router claimed for this write
	// (nil without one). Writes that create jobs pass it to the job's
	// transaction (runs.Request, meter.Request).
	Idempotency *idempotency.Key
	tenant      *tenants.Tenant // the caller's, once read
	query       url.Values      // the URL's query, once parsed
}

// Query is the request URL's query, parsed once.
func (rq *Request) Query() url.Values {
	if rq.query == nil && rq.HTTP.URL.RawQuery != "" {
		rq.query = rq.HTTP.URL.Query()
	}
	return rq.query
}
