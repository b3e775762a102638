package httpapi

import (
	"net/http"

	"github.com/brandlens/brandlens/shared/auth"
	"github.com/brandlens/brandlens/shared/citations"
	"github.com/brandlens/brandlens/shared/competitors"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/queries"
	"github.com/brandlens/brandlens/shared/webhooks"
)

// Guard is how a route authenticates its caller.
type Guard int

// Guards.
const (
	// GuardAPIKey: X-API-Key with at least the route's Scope.
	GuardAPIKey Guard = iota + 1
	// GuardReviewer: X-API-Key of a human (non-agent) key with the publish
	// scope; agent keys can never review approvals.
	GuardReviewer
	// GuardAnonymous: no key (the brand check; protected by reCAPTCHA and a
	// daily limit instead).
	GuardAnonymous
	// GuardSignedBody: X-Service-Signature over the raw body with the site
	// content secret (the service's own publish receiver).
	GuardSignedBody
	// GuardPublic: open documents such as /openapi.json.
	GuardPublic
)

// ParamType is the type of a path or query parameter.
type ParamType int

// Parameter types.
const (
	TypeString ParamType = iota + 1
	TypeInt32
	TypeBool
	TypeDateTime
)

// Param declares a path or query parameter; the router parses and checks
// every request against these declarations, and /openapi.json shows them.
type Param struct {
	Name        string
	InPath      bool
	Type        ParamType
	Enum        []string
	Default     any // int, string
	Min, Max    int // bounds of TypeInt32 (Max 0 means none)
	Description string
}

// Route is one row of the route table: the single definition that the
// router, the Lambda functions, template.yaml and /openapi.json follow.
type Route struct {
	Method string
	Path   string
	// Function is the Lambda function (directory under functions/) serving it.
	Function string
	Guard    Guard
	Scope    auth.Scope // for GuardAPIKey
	// Capability names what the route lets a key do, listed by GET /api/v1/me.
	Capability string
	Summary    string
	Tag        string
	Params     []Param
	// Request and Response are zero values of the body types (nil: none).
	Request  any
	Response any
	Status   int
	// Errors lists the error codes the route may answer besides the ones
	// its guard implies.
	Errors []string
	Handle func(s *Server, rq *Request) (any, error)
}

// Limits of list endpoints.
const (
	DefaultPageSize = 20
	MaxPageSize     = 100
	DefaultJobLimit = 50
	MaxJobLimit     = 200
)

func idParam() Param    { return Param{Name: "id", InPath: true, Type: TypeInt32, Min: 1} }
func strIDParam() Param { return Param{Name: "id", InPath: true, Type: TypeString} }

// Routes is the route table. It is filled in init because handlers such as
// the OpenAPI document read the table, which a package-level initializer
// could not do without an initialization cycle.
var Routes []Route

func init() { Routes = routeTable() }

func routeTable() []Route {
	return []Route{
		{Method: http.MethodGet, Path: "/api/v1/me", Function: "api-get-me", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "account:read", Tag: "Account", Summary: "Entitlements of the calling key",
			Response: Entitlement{}, Status: http.StatusOK, Handle: (*Server).getMe},
		{Method: http.MethodGet, Path: "/api/v1/me/credits", Function: "api-get-me-credits", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "credits:read", Tag: "Account", Summary: "Credit ledger of the caller's tenant",
			Response: CreditInfo{}, Status: http.StatusOK, Handle: (*Server).getCredits},
		{Method: http.MethodGet, Path: "/api/v1/queries", Function: "api-list-queries", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "queries:read", Tag: "Queries", Summary: "Monitoring queries of the tenant",
			Response: QueryList{}, Status: http.StatusOK, Handle: (*Server).listQueries},
		{Method: http.MethodGet, Path: "/api/v1/queries/{id}", Function: "api-get-query", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "queries:read", Tag: "Queries", Summary: "One monitoring query", Params: []Param{idParam()},
			Response: queries.Query{}, Status: http.StatusOK, Errors: []string{CodeNotFound}, Handle: (*Server).getQuery},
		{Method: http.MethodPost, Path: "/api/v1/queries/{id}/run", Function: "api-post-query-run", Guard: GuardAPIKey, Scope: auth.ScopeReadWrite,
			Capability: "queries:run", Tag: "Queries", Summary: "Run a query across AI platforms (credit-metered, asynchronous)",
			Params: []Param{idParam()}, Request: RunRequest{}, Response: JobAccepted{}, Status: http.StatusAccepted,
			Errors: writeErrors, Handle: (*Server).postQueryRun},
		{Method: http.MethodGet, Path: "/api/v1/citations", Function: "api-list-citations", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "citations:read", Tag: "Citations", Summary: "Page of citations, newest first",
			Params: []Param{
				{Name: "platform", Type: TypeString, Enum: platforms.All},
				{Name: "sentiment", Type: TypeString, Enum: []string{citations.SentimentPositive, citations.SentimentNeutral, citations.SentimentNegative, citations.SentimentMixed}},
				{Name: "sourceType", Type: TypeString, Enum: []string{citations.SourceAIResponse, citations.SourceOrganicSearch, citations.SourceInfoSite}},
				{Name: "hasMention", Type: TypeBool, Description: "true: only citations from answers that mention the brand; false: only those that do not"},
				{Name: "searchQuery", Type: TypeString, Description: "case-insensitive substring of the monitoring query text"},
				{Name: "dateFrom", Type: TypeDateTime, Description: "inclusive lower bound of the citation date"},
				{Name: "dateTo", Type: TypeDateTime, Description: "inclusive upper bound of the citation date"},
				{Name: "page", Type: TypeInt32, Default: 1, Min: 1, Max: 100000},
				{Name: "pageSize", Type: TypeInt32, Default: DefaultPageSize, Min: 1, Max: MaxPageSize},
			},
			Response: CitationPage{}, Status: http.StatusOK, Handle: (*Server).listCitations},
		{Method: http.MethodGet, Path: "/api/v1/citations/{id}", Function: "api-get-citation", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "citations:read", Tag: "Citations", Summary: "One citation", Params: []Param{idParam()},
			Response: citations.Citation{}, Status: http.StatusOK, Errors: []string{CodeNotFound}, Handle: (*Server).getCitation},
		{Method: http.MethodGet, Path: "/api/v1/competitors", Function: "api-list-competitors", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "competitors:read", Tag: "Competitors", Summary: "Tracked competitors",
			Response: CompetitorList{}, Status: http.StatusOK, Handle: (*Server).listCompetitors},
		{Method: http.MethodGet, Path: "/api/v1/competitors/{id}", Function: "api-get-competitor", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "competitors:read", Tag: "Competitors", Summary: "One competitor", Params: []Param{idParam()},
			Response: competitors.Competitor{}, Status: http.StatusOK, Errors: []string{CodeNotFound}, Handle: (*Server).getCompetitor},
		{Method: http.MethodGet, Path: "/api/v1/gaps", Function: "api-list-gaps", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "gaps:read", Tag: "Gaps", Summary: "Visibility gaps (four tiers) as content opportunities",
			Params: []Param{{Name: "status", Type: TypeString}}, Status: http.StatusOK, Handle: (*Server).notImplemented},
		{Method: http.MethodPost, Path: "/api/v1/gaps/detect", Function: "api-post-gaps-detect", Guard: GuardAPIKey, Scope: auth.ScopeReadWrite,
			Capability: "gaps:detect", Tag: "Gaps", Summary: "Start four-tier gap detection (credit-metered, asynchronous)",
			Request: GapDetectRequest{}, Response: JobAccepted{}, Status: http.StatusAccepted, Errors: writeErrors, Handle: (*Server).notImplemented},
		{Method: http.MethodGet, Path: "/api/v1/opportunities", Function: "api-list-opportunities", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "opportunities:read", Tag: "Opportunities", Summary: "Content opportunities",
			Params: []Param{{Name: "status", Type: TypeString}}, Status: http.StatusOK, Handle: (*Server).notImplemented},
		{Method: http.MethodGet, Path: "/api/v1/opportunities/{id}", Function: "api-get-opportunity", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "opportunities:read", Tag: "Opportunities", Summary: "One opportunity with brief, content and publish status",
			Params: []Param{strIDParam()}, Status: http.StatusOK, Errors: []string{CodeNotFound}, Handle: (*Server).notImplemented},
		{Method: http.MethodPost, Path: "/api/v1/opportunities/{id}/generate-brief", Function: "api-post-opportunity-brief", Guard: GuardAPIKey, Scope: auth.ScopeReadWrite,
			Capability: "content:generate", Tag: "Opportunities", Summary: "Generate a content brief (asynchronous)",
			Params: []Param{strIDParam()}, Request: BriefRequest{}, Response: JobAccepted{}, Status: http.StatusAccepted,
			Errors: writeErrors, Handle: (*Server).notImplemented},
		{Method: http.MethodPost, Path: "/api/v1/opportunities/{id}/generate-content", Function: "api-post-opportunity-content", Guard: GuardAPIKey, Scope: auth.ScopeReadWrite,
			Capability: "content:generate", Tag: "Opportunities", Summary: "Generate the article (asynchronous)",
			Params: []Param{strIDParam()}, Request: ContentRequest{}, Response: JobAccepted{}, Status: http.StatusAccepted,
			Errors: writeErrors, Handle: (*Server).notImplemented},
		{Method: http.MethodPost, Path: "/api/v1/opportunities/{id}/publish", Function: "api-post-opportunity-publish", Guard: GuardAPIKey, Scope: auth.ScopePublish,
			Capability: "content:publish", Tag: "Opportunities", Summary: "Publish (propose or execute) to a destination",
			Params: []Param{strIDParam()}, Request: PublishRequest{}, Response: JobAccepted{}, Status: http.StatusAccepted,
			Errors: append([]string{CodeApprovalRequired, CodeApprovalPending}, writeErrors...), Handle: (*Server).notImplemented},
		{Method: http.MethodGet, Path: "/api/v1/jobs", Function: "api-list-jobs", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "jobs:read", Tag: "Jobs", Summary: "Jobs of the tenant, newest first",
			Params: []Param{
				{Name: "limit", Type: TypeInt32, Default: DefaultJobLimit, Min: 1, Max: MaxJobLimit},
				{Name: "status", Type: TypeString, Enum: jobs.Statuses},
			},
			Response: JobList{}, Status: http.StatusOK, Handle: (*Server).listJobs},
		{Method: http.MethodGet, Path: "/api/v1/jobs/{id}", Function: "api-get-job", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "jobs:read", Tag: "Jobs", Summary: "One job", Params: []Param{strIDParam()},
			Response: jobs.Job{}, Status: http.StatusOK, Errors: []string{CodeNotFound}, Handle: (*Server).getJob},
		{Method: http.MethodGet, Path: "/api/v1/webhooks", Function: "api-list-webhooks", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "webhooks:read", Tag: "Webhooks", Summary: "Webhook subscriptions",
			Response: WebhookSubscriptionList{}, Status: http.StatusOK, Handle: (*Server).listWebhooks},
		{Method: http.MethodPost, Path: "/api/v1/webhooks", Function: "api-post-webhook", Guard: GuardAPIKey, Scope: auth.ScopeReadWrite,
			Capability: "webhooks:manage", Tag: "Webhooks", Summary: "Create a webhook subscription",
			Request: CreateWebhookSubscriptionRequest{}, Response: WebhookSubscriptionCreated{}, Status: http.StatusCreated,
			Errors: []string{CodeValidation}, Handle: (*Server).createWebhook},
		{Method: http.MethodGet, Path: "/api/v1/webhooks/{id}", Function: "api-get-webhook", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "webhooks:read", Tag: "Webhooks", Summary: "One webhook subscription", Params: []Param{strIDParam()},
			Response: WebhookSubscription{}, Status: http.StatusOK, Errors: []string{CodeNotFound}, Handle: (*Server).getWebhook},
		{Method: http.MethodPut, Path: "/api/v1/webhooks/{id}", Function: "api-put-webhook", Guard: GuardAPIKey, Scope: auth.ScopeReadWrite,
			Capability: "webhooks:manage", Tag: "Webhooks", Summary: "Update a webhook subscription", Params: []Param{strIDParam()},
			Request: UpdateWebhookSubscriptionRequest{}, Response: WebhookSubscription{}, Status: http.StatusOK,
			Errors: []string{CodeNotFound, CodeValidation}, Handle: (*Server).updateWebhook},
		{Method: http.MethodDelete, Path: "/api/v1/webhooks/{id}", Function: "api-delete-webhook", Guard: GuardAPIKey, Scope: auth.ScopeReadWrite,
			Capability: "webhooks:manage", Tag: "Webhooks", Summary: "Delete a webhook subscription", Params: []Param{strIDParam()},
			Response: WebhookDeleted{}, Status: http.StatusOK, Errors: []string{CodeNotFound}, Handle: (*Server).deleteWebhook},
		{Method: http.MethodPost, Path: "/api/v1/webhooks/{id}/ping", Function: "api-post-webhook-ping", Guard: GuardAPIKey, Scope: auth.ScopeReadWrite,
			Capability: "webhooks:manage", Tag: "Webhooks", Summary: "Send a webhook.ping event", Params: []Param{strIDParam()},
			Response: WebhookPingAccepted{}, Status: http.StatusAccepted, Errors: []string{CodeNotFound}, Handle: (*Server).pingWebhook},
		{Method: http.MethodGet, Path: "/api/v1/webhooks/{id}/deliveries", Function: "api-list-webhook-deliveries", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "webhooks:read", Tag: "Webhooks", Summary: "Deliveries of a subscription, with attempts (extension)",
			Params: []Param{strIDParam(),
				{Name: "limit", Type: TypeInt32, Default: DefaultDeliveryLimit, Min: 1, Max: MaxDeliveryLimit},
				{Name: "status", Type: TypeString, Enum: webhooks.Statuses},
			},
			Response: WebhookDeliveryList{}, Status: http.StatusOK, Errors: []string{CodeNotFound}, Handle: (*Server).listWebhookDeliveries},
		{Method: http.MethodPost, Path: "/api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver", Function: "api-post-webhook-redeliver", Guard: GuardAPIKey, Scope: auth.ScopeReadWrite,
			Capability: "webhooks:manage", Tag: "Webhooks", Summary: "Send a delivery again with the same event_id (extension)",
			Params:   []Param{strIDParam(), {Name: "deliveryId", InPath: true, Type: TypeString}},
			Response: WebhookRedeliveryAccepted{}, Status: http.StatusAccepted, Errors: []string{CodeNotFound}, Handle: (*Server).redeliverWebhook},
		{Method: http.MethodGet, Path: "/api/v1/destinations", Function: "api-list-destinations", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "destinations:read", Tag: "Destinations", Summary: "Publish destinations (extension)", Status: http.StatusOK, Handle: (*Server).notImplemented},
		{Method: http.MethodPost, Path: "/api/v1/destinations", Function: "api-post-destination", Guard: GuardAPIKey, Scope: auth.ScopePublish,
			Capability: "destinations:manage", Tag: "Destinations", Summary: "Create a publish destination (extension)", Status: http.StatusCreated,
			Errors: []string{CodeValidation}, Handle: (*Server).notImplemented},
		{Method: http.MethodGet, Path: "/api/v1/destinations/{id}", Function: "api-get-destination", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "destinations:read", Tag: "Destinations", Summary: "One publish destination (extension)", Params: []Param{strIDParam()},
			Status: http.StatusOK, Errors: []string{CodeNotFound}, Handle: (*Server).notImplemented},
		{Method: http.MethodPut, Path: "/api/v1/destinations/{id}", Function: "api-put-destination", Guard: GuardAPIKey, Scope: auth.ScopePublish,
			Capability: "destinations:manage", Tag: "Destinations", Summary: "Update a publish destination (extension)", Params: []Param{strIDParam()},
			Status: http.StatusOK, Errors: []string{CodeNotFound, CodeValidation}, Handle: (*Server).notImplemented},
		{Method: http.MethodDelete, Path: "/api/v1/destinations/{id}", Function: "api-delete-destination", Guard: GuardAPIKey, Scope: auth.ScopePublish,
			Capability: "destinations:manage", Tag: "Destinations", Summary: "Delete a publish destination (extension)", Params: []Param{strIDParam()},
			Status: http.StatusOK, Errors: []string{CodeNotFound}, Handle: (*Server).notImplemented},
		{Method: http.MethodGet, Path: "/api/v1/audit", Function: "api-list-audit", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "audit:read", Tag: "Audit", Summary: "Audit log with exact LLM prompts (extension)", Status: http.StatusOK, Handle: (*Server).notImplemented},
		{Method: http.MethodPost, Path: "/api/v1/brand-check", Function: "brand-check", Guard: GuardAnonymous,
			Tag: "Brand check", Summary: "Anonymous brand check: visibility score and grade (reCAPTCHA, 3 per day)",
			Request: BrandCheckRequest{}, Status: http.StatusOK, Errors: []string{CodeValidation, CodeRateLimitExceeded}, Handle: (*Server).notImplemented},
		{Method: http.MethodGet, Path: "/api/tracker/approvals/pending", Function: "api-list-approvals-pending", Guard: GuardReviewer,
			Capability: "approvals:review", Tag: "Approvals", Summary: "Pending approval requests", Status: http.StatusOK, Handle: (*Server).notImplemented},
		{Method: http.MethodPost, Path: "/api/tracker/approvals/{id}/approve", Function: "api-post-approval-approve", Guard: GuardReviewer,
			Capability: "approvals:review", Tag: "Approvals", Summary: "Approve a request", Params: []Param{strIDParam()},
			Status: http.StatusOK, Errors: []string{CodeNotFound}, Handle: (*Server).notImplemented},
		{Method: http.MethodPost, Path: "/api/tracker/approvals/{id}/reject", Function: "api-post-approval-reject", Guard: GuardReviewer,
			Capability: "approvals:review", Tag: "Approvals", Summary: "Reject a request", Params: []Param{strIDParam()},
			Status: http.StatusOK, Errors: []string{CodeNotFound}, Handle: (*Server).notImplemented},
		{Method: http.MethodPost, Path: "/api/site-content/webhooks/{type}", Function: "api-post-site-content", Guard: GuardSignedBody,
			Tag: "Site content", Summary: "The service's own publish receiver (PublishPayload, signed)",
			Params:  []Param{{Name: "type", InPath: true, Type: TypeString, Enum: []string{"news", "research", "knowledge"}}},
			Request: PublishPayload{}, Status: http.StatusOK, Errors: []string{CodeValidation}, Handle: (*Server).notImplemented},
		{Method: http.MethodGet, Path: "/openapi.json", Function: "api-get-openapi", Guard: GuardPublic,
			Tag: "Meta", Summary: "This API's OpenAPI 3 document", Status: http.StatusOK, Handle: (*Server).getOpenAPI},
	}
}

// CatchAll is API Gateway's $default route. Requests that match no route of
// the table reach its function, which answers them with the error envelope:
// 405 with Allow when the path exists under other methods, else 404.
var CatchAll = Route{Method: "ANY", Path: "$default", Function: "api-default", Guard: GuardPublic,
	Tag: "Meta", Summary: "Unknown routes and methods (API Gateway $default route)", Status: http.StatusNotFound,
	Handle: func(*Server, *Request) (any, error) { return nil, &Error{Code: CodeNotFound, Message: "no such route"} }}

// NeedsKeys reports whether any route of the function authenticates API
// keys (and so its Lambda must read the key secret).
func NeedsKeys(function string) bool {
	for _, r := range RoutesOf(function) {
		if r.Guard == GuardAPIKey || r.Guard == GuardReviewer {
			return true
		}
	}
	return false
}

// writeErrors are the errors every credit-metered write may answer.
var writeErrors = []string{CodeNotFound, CodeValidation, CodeIdempotencyConflict, CodeInsufficientCredits, CodeCreditCeilingReached}
