package httpapi

import (
	"net/http"
	"reflect"

	"github.com/brandlens/brandlens/shared/auth"
	"github.com/brandlens/brandlens/shared/citations"
	"github.com/brandlens/brandlens/shared/detect"
	"github.com/brandlens/brandlens/shared/gaps"
	"github.com/brandlens/brandlens/shared/idempotency"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/opportunities"
	"github.com/brandlens/brandlens/shared/platforms"
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

// Route is one row of the route table: the single definition that the
// router, the Lambda functions, template.yaml, GET /api/v1/me's
// capabilities and /openapi.json follow. Its parameters and bodies come from
// its Handler's input and answer types.
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
	// Status is the status of a successful answer; MoreStatuses are other
	// success statuses its answer may choose (an answer with an
	// httpStatus method: the receiver's 201 for a page it created).
	Status       int
	MoreStatuses []int
	// Errors lists the error codes the route may answer besides the ones
	// its guard and its input imply.
	Errors []string
	// Autonomy says how the route's side effect waits for a human when an
	// agent's autonomy level requires it (approvals.Gated).
	Autonomy Autonomy
	// DomainAudit: the route's domain writes its audit entry in the
	// write's own transaction (auditedByDomain).
	DomainAudit bool
	Handler     Handler
}

// Limits of list endpoints (the inputs' tags repeat them; a test checks).
const (
	DefaultPageSize = 20
	MaxPageSize     = 100
	// MaxPageDepth caps page × pageSize: a numbered page reads every match
	// before it, so deeper reads go by cursor.
	MaxPageDepth    = 10_000
	DefaultJobLimit = 50
	MaxJobLimit     = 200
)

// enumSets are the value sets an input field may name with enum:"…".
var enumSets = map[string][]string{
	"platforms":           platforms.All,
	"sentiments":          citations.Sentiments,
	"sourceTypes":         citations.SourceTypes,
	"jobStatuses":         jobs.Statuses,
	"deliveryStatuses":    webhooks.Statuses,
	"siteContentTypes":    {"news", "research", "knowledge"},
	"gapStatuses":         gaps.Statuses,
	"opportunityStatuses": opportunities.Statuses,
	"detectionVerdicts":   detectionVerdicts(),
}

// detectionVerdicts are detect.Verdicts() as strings.
func detectionVerdicts() []string {
	var out []string
	for _, v := range detect.Verdicts() {
		out = append(out, string(v))
	}
	return out
}

// Inputs shared by several routes.
type (
	// IntID addresses a resource with a per-tenant integer id.
	IntID struct {
		ID int32 `path:"id" min:"1"`
	}
	// StrID addresses a resource with a string id (ULIDs, wh_…).
	StrID struct {
		ID string `path:"id"`
	}
	// OpenObject is an answer whose shape the route does not fix yet.
	OpenObject map[string]any
)

// Routes is the route table. It is filled in init because handlers such as
// the OpenAPI document read the table, which a package-level initializer
// could not do without an initialization cycle.
var Routes []Route

func init() { Routes = routeTable() }

func routeTable() []Route {
	rs := []Route{
		{Method: http.MethodGet, Path: "/api/v1/me", Function: "api-get-me", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "account:read", Tag: "Account", Summary: "Entitlements of the calling key",
			Status: http.StatusOK, Handler: Handle((*Server).getMe)},
		{Method: http.MethodGet, Path: "/api/v1/me/credits", Function: "api-get-me-credits", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "credits:read", Tag: "Account", Summary: "Credit ledger of the caller's tenant",
			Status: http.StatusOK, Handler: Handle((*Server).getCredits)},
		{Method: http.MethodGet, Path: "/api/v1/queries", Function: "api-list-queries", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "queries:read", Tag: "Queries", Summary: "Monitoring queries of the tenant",
			Status: http.StatusOK, Handler: Handle((*Server).listQueries)},
		{Method: http.MethodGet, Path: "/api/v1/queries/{id}", Function: "api-get-query", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "queries:read", Tag: "Queries", Summary: "One monitoring query",
			Status: http.StatusOK, Errors: []string{CodeNotFound}, Handler: Handle((*Server).getQuery)},
		{Method: http.MethodPost, Path: "/api/v1/queries", Function: "api-post-query", Guard: GuardAPIKey, Scope: auth.ScopeReadWrite,
			Capability: "queries:manage", Tag: "Queries", Summary: "Add a monitoring query (extension)",
			Status: http.StatusCreated, Errors: []string{CodeValidation, CodeAlreadyExists}, Handler: Handle((*Server).postQuery)},
		{Method: http.MethodPut, Path: "/api/v1/queries/{id}", Function: "api-put-query", Guard: GuardAPIKey, Scope: auth.ScopeReadWrite,
			Capability: "queries:manage", Tag: "Queries", Summary: "Change a monitoring query (extension)",
			Status: http.StatusOK, Errors: []string{CodeNotFound, CodeValidation, CodeAlreadyExists}, Handler: Handle((*Server).putQuery)},
		{Method: http.MethodDelete, Path: "/api/v1/queries/{id}", Function: "api-delete-query", Guard: GuardAPIKey, Scope: auth.ScopeReadWrite,
			Capability: "queries:manage", Tag: "Queries", Summary: "Delete a monitoring query; its history stays readable (extension)",
			Status: http.StatusOK, Errors: []string{CodeNotFound}, Handler: Handle((*Server).deleteQuery)},
		{Method: http.MethodPost, Path: "/api/v1/queries/{id}/run", Function: "api-post-query-run", Guard: GuardAPIKey, Scope: auth.ScopeReadWrite,
			Capability: "queries:run", Tag: "Queries", Summary: "Run a query across AI platforms (credit-metered, asynchronous)",
			Status: http.StatusAccepted, Errors: writeErrors, Autonomy: AutonomyHeldJob, Handler: Handle((*Server).postQueryRun)},
		{Method: http.MethodGet, Path: "/api/v1/citations", Function: "api-list-citations", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "citations:read", Tag: "Citations", Summary: "Page of citations, newest first",
			Status: http.StatusOK, Handler: Handle((*Server).listCitations)},
		{Method: http.MethodGet, Path: "/api/v1/citations/{id}", Function: "api-get-citation", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "citations:read", Tag: "Citations", Summary: "One citation",
			Status: http.StatusOK, Errors: []string{CodeNotFound}, Handler: Handle((*Server).getCitation)},
		{Method: http.MethodGet, Path: "/api/v1/competitors", Function: "api-list-competitors", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "competitors:read", Tag: "Competitors", Summary: "Tracked competitors",
			Status: http.StatusOK, Handler: Handle((*Server).listCompetitors)},
		{Method: http.MethodGet, Path: "/api/v1/competitors/{id}", Function: "api-get-competitor", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "competitors:read", Tag: "Competitors", Summary: "One competitor",
			Status: http.StatusOK, Errors: []string{CodeNotFound}, Handler: Handle((*Server).getCompetitor)},
		{Method: http.MethodPost, Path: "/api/v1/competitors", Function: "api-post-competitor", Guard: GuardAPIKey, Scope: auth.ScopeReadWrite,
			Capability: "competitors:manage", Tag: "Competitors", Summary: "Track a competitor by hand (extension)",
			Status: http.StatusCreated, Errors: []string{CodeValidation, CodeAlreadyExists}, Handler: Handle((*Server).postCompetitor)},
		{Method: http.MethodPut, Path: "/api/v1/competitors/{id}", Function: "api-put-competitor", Guard: GuardAPIKey, Scope: auth.ScopeReadWrite,
			Capability: "competitors:manage", Tag: "Competitors", Summary: "Rename a competitor or change its aliases, domains, description (extension)",
			Status: http.StatusOK, Errors: []string{CodeNotFound, CodeValidation, CodeAlreadyExists}, Handler: Handle((*Server).putCompetitor)},
		{Method: http.MethodPost, Path: "/api/v1/competitors/{id}/dismiss", Function: "api-post-competitor-dismiss", Guard: GuardAPIKey, Scope: auth.ScopeReadWrite,
			Capability: "competitors:manage", Tag: "Competitors", Summary: "Dismiss a competitor: it no longer counts in detection and gaps (extension)",
			Status: http.StatusOK, Errors: []string{CodeNotFound}, Handler: Handle((*Server).dismissCompetitor)},
		{Method: http.MethodPost, Path: "/api/v1/competitors/{id}/restore", Function: "api-post-competitor-restore", Guard: GuardAPIKey, Scope: auth.ScopeReadWrite,
			Capability: "competitors:manage", Tag: "Competitors", Summary: "Restore a dismissed competitor (extension)",
			Status: http.StatusOK, Errors: []string{CodeNotFound}, Handler: Handle((*Server).restoreCompetitor)},
		{Method: http.MethodGet, Path: "/api/v1/gaps", Function: "api-list-gaps", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "gaps:read", Tag: "Gaps", Summary: "Visibility gaps (four tiers), newest first",
			Status: http.StatusOK, Handler: Handle((*Server).listGaps)},
		{Method: http.MethodPost, Path: "/api/v1/gaps/detect", Function: "api-post-gaps-detect", Guard: GuardAPIKey, Scope: auth.ScopeReadWrite,
			Capability: "gaps:detect", Tag: "Gaps", Summary: "Start four-tier gap detection (credit-metered, asynchronous)",
			Status: http.StatusAccepted, Errors: writeErrors, Autonomy: AutonomyHeldJob, Handler: Handle((*Server).postGapsDetect)},
		{Method: http.MethodGet, Path: "/api/v1/opportunities", Function: "api-list-opportunities", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "opportunities:read", Tag: "Opportunities", Summary: "Content opportunities, newest first",
			Status: http.StatusOK, Handler: Handle((*Server).listOpportunities)},
		{Method: http.MethodGet, Path: "/api/v1/opportunities/{id}", Function: "api-get-opportunity", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "opportunities:read", Tag: "Opportunities", Summary: "One opportunity with brief, content and publish status",
			Status: http.StatusOK, Errors: []string{CodeNotFound}, Handler: Handle((*Server).getOpportunity)},
		{Method: http.MethodPost, Path: "/api/v1/opportunities/{id}/generate-brief", Function: "api-post-opportunity-brief", Guard: GuardAPIKey, Scope: auth.ScopeReadWrite,
			Capability: "content:generate", Tag: "Opportunities", Summary: "Generate a content brief (credit-metered, asynchronous)",
			Status: http.StatusAccepted, Errors: append([]string{CodeInvalidState}, writeErrors...), Autonomy: AutonomyHeldJob, Handler: Handle((*Server).postGenerateBrief)},
		{Method: http.MethodPost, Path: "/api/v1/opportunities/{id}/generate-content", Function: "api-post-opportunity-content", Guard: GuardAPIKey, Scope: auth.ScopeReadWrite,
			Capability: "content:generate", Tag: "Opportunities", Summary: "Generate the article from the brief (credit-metered, asynchronous)",
			Status: http.StatusAccepted, Errors: append([]string{CodeInvalidState}, writeErrors...), Autonomy: AutonomyHeldJob, Handler: Handle((*Server).postGenerateContent)},
		{Method: http.MethodPost, Path: "/api/v1/opportunities/{id}/publish", Function: "api-post-opportunity-publish", Guard: GuardAPIKey, Scope: auth.ScopePublish,
			Capability: "content:publish", Tag: "Opportunities", Summary: "Publish (propose or execute) to a destination",
			Status: http.StatusAccepted, Errors: append([]string{CodeApprovalRequired, CodeApprovalPending, CodeInvalidState}, writeErrors...),
			Autonomy: AutonomyPublish, Handler: Handle((*Server).postPublish)},
		{Method: http.MethodPost, Path: "/api/v1/opportunities/{id}/dismiss", Function: "api-post-opportunity-dismiss", Guard: GuardAPIKey, Scope: auth.ScopeReadWrite,
			Capability: "opportunities:dismiss", Tag: "Opportunities", Summary: "Dismiss an opportunity with its gap; repeated, it changes nothing (extension)",
			Status: http.StatusOK, Errors: []string{CodeNotFound, CodeInvalidState}, DomainAudit: true, Handler: Handle((*Server).dismissOpportunity)},
		{Method: http.MethodGet, Path: "/api/v1/jobs", Function: "api-list-jobs", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "jobs:read", Tag: "Jobs", Summary: "Jobs of the tenant, newest first",
			Status: http.StatusOK, Handler: Handle((*Server).listJobs)},
		{Method: http.MethodGet, Path: "/api/v1/jobs/{id}", Function: "api-get-job", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "jobs:read", Tag: "Jobs", Summary: "One job",
			Status: http.StatusOK, Errors: []string{CodeNotFound}, Handler: Handle((*Server).getJob)},
		{Method: http.MethodGet, Path: "/api/v1/webhooks", Function: "api-list-webhooks", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "webhooks:read", Tag: "Webhooks", Summary: "Webhook subscriptions",
			Status: http.StatusOK, Handler: Handle((*Server).listWebhooks)},
		{Method: http.MethodPost, Path: "/api/v1/webhooks", Function: "api-post-webhook", Guard: GuardAPIKey, Scope: auth.ScopeReadWrite,
			Capability: "webhooks:manage", Tag: "Webhooks", Summary: "Create a webhook subscription",
			Status: http.StatusCreated, Errors: []string{CodeValidation, CodeLimitExceeded, CodeApprovalPending}, Autonomy: AutonomyHeldChange, Handler: Handle((*Server).createWebhook)},
		{Method: http.MethodGet, Path: "/api/v1/webhooks/{id}", Function: "api-get-webhook", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "webhooks:read", Tag: "Webhooks", Summary: "One webhook subscription",
			Status: http.StatusOK, Errors: []string{CodeNotFound}, Handler: Handle((*Server).getWebhook)},
		{Method: http.MethodPut, Path: "/api/v1/webhooks/{id}", Function: "api-put-webhook", Guard: GuardAPIKey, Scope: auth.ScopeReadWrite,
			Capability: "webhooks:manage", Tag: "Webhooks", Summary: "Update a webhook subscription",
			Status: http.StatusOK, Errors: []string{CodeNotFound, CodeValidation, CodeApprovalPending}, Autonomy: AutonomyHeldChange, Handler: Handle((*Server).updateWebhook)},
		{Method: http.MethodDelete, Path: "/api/v1/webhooks/{id}", Function: "api-delete-webhook", Guard: GuardAPIKey, Scope: auth.ScopeReadWrite,
			Capability: "webhooks:manage", Tag: "Webhooks", Summary: "Delete a webhook subscription",
			Status: http.StatusOK, Errors: []string{CodeNotFound, CodeApprovalPending}, Autonomy: AutonomyHeldChange, Handler: Handle((*Server).deleteWebhook)},
		{Method: http.MethodPost, Path: "/api/v1/webhooks/{id}/ping", Function: "api-post-webhook-ping", Guard: GuardAPIKey, Scope: auth.ScopeReadWrite,
			Capability: "webhooks:manage", Tag: "Webhooks", Summary: "Send a webhook.ping event",
			Status: http.StatusAccepted, Errors: []string{CodeNotFound}, Handler: Handle((*Server).pingWebhook)},
		{Method: http.MethodGet, Path: "/api/v1/webhooks/{id}/deliveries", Function: "api-list-webhook-deliveries", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "webhooks:read", Tag: "Webhooks", Summary: "Deliveries of a subscription, with attempts (extension)",
			Status: http.StatusOK, Errors: []string{CodeNotFound}, Handler: Handle((*Server).listWebhookDeliveries)},
		{Method: http.MethodPost, Path: "/api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver", Function: "api-post-webhook-redeliver", Guard: GuardAPIKey, Scope: auth.ScopeReadWrite,
			Capability: "webhooks:manage", Tag: "Webhooks", Summary: "Send a delivery again with the same event_id (extension)",
			Status: http.StatusAccepted, Errors: []string{CodeNotFound}, Handler: Handle((*Server).redeliverWebhook)},
		{Method: http.MethodGet, Path: "/api/v1/destinations", Function: "api-list-destinations", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "destinations:read", Tag: "Destinations", Summary: "Publish destinations (extension)",
			Status: http.StatusOK, Handler: Handle((*Server).listDestinations)},
		{Method: http.MethodPost, Path: "/api/v1/destinations", Function: "api-post-destination", Guard: GuardAPIKey, Scope: auth.ScopePublish,
			Capability: "destinations:manage", Tag: "Destinations", Summary: "Create a publish destination (extension)",
			Status: http.StatusCreated, Errors: []string{CodeValidation, CodeLimitExceeded}, Handler: Handle((*Server).createDestination)},
		{Method: http.MethodGet, Path: "/api/v1/destinations/{id}", Function: "api-get-destination", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "destinations:read", Tag: "Destinations", Summary: "One publish destination (extension)",
			Status: http.StatusOK, Errors: []string{CodeNotFound}, Handler: Handle((*Server).getDestination)},
		{Method: http.MethodPut, Path: "/api/v1/destinations/{id}", Function: "api-put-destination", Guard: GuardAPIKey, Scope: auth.ScopePublish,
			Capability: "destinations:manage", Tag: "Destinations", Summary: "Update a publish destination (extension)",
			Status: http.StatusOK, Errors: []string{CodeNotFound, CodeValidation}, Handler: Handle((*Server).updateDestination)},
		{Method: http.MethodDelete, Path: "/api/v1/destinations/{id}", Function: "api-delete-destination", Guard: GuardAPIKey, Scope: auth.ScopePublish,
			Capability: "destinations:manage", Tag: "Destinations", Summary: "Delete a publish destination (extension)",
			Status: http.StatusOK, Errors: []string{CodeNotFound}, Handler: Handle((*Server).deleteDestination)},
		{Method: http.MethodGet, Path: "/api/v1/audit", Function: "api-list-audit", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "audit:read", Tag: "Audit", Summary: "Audit log with exact LLM prompts, newest first (extension)",
			Status: http.StatusOK, Handler: Handle((*Server).listAudit)},
		{Method: http.MethodGet, Path: "/api/v1/brand-profiles", Function: "api-list-brand-profiles", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "brand_profiles:read", Tag: "Brand profiles", Summary: "Brand profiles of the tenant (extension)",
			Status: http.StatusOK, Handler: Handle((*Server).listBrandProfiles)},
		{Method: http.MethodGet, Path: "/api/v1/brand-profiles/{id}", Function: "api-get-brand-profile", Guard: GuardAPIKey, Scope: auth.ScopeRead,
			Capability: "brand_profiles:read", Tag: "Brand profiles", Summary: "One brand profile (extension)",
			Status: http.StatusOK, Errors: []string{CodeNotFound}, Handler: Handle((*Server).getBrandProfile)},
		{Method: http.MethodPut, Path: "/api/v1/brand-profiles/{id}", Function: "api-put-brand-profile", Guard: GuardAPIKey, Scope: auth.ScopePublish,
			Capability: "brand_profiles:manage", Tag: "Brand profiles", Summary: "Change a brand profile's aliases and domains (extension)",
			Status: http.StatusOK, Errors: []string{CodeNotFound, CodeValidation}, Handler: Handle((*Server).putBrandProfile)},
		{Method: http.MethodPost, Path: "/api/v1/brand-profiles/{id}/rescore", Function: "api-post-brand-profile-rescore", Guard: GuardAPIKey, Scope: auth.ScopeReadWrite,
			Capability: "brand_profiles:rescore", Tag: "Brand profiles", Summary: "Re-run detection over the profile's stored answers (credit-metered, asynchronous; extension)",
			Status: http.StatusAccepted, Errors: writeErrors, Autonomy: AutonomyHeldJob, Handler: Handle((*Server).postRescore)},
		{Method: http.MethodPost, Path: "/api/v1/brand-check", Function: "brand-check", Guard: GuardAnonymous,
			Tag: "Brand check", Summary: "Anonymous brand check: visibility score and grade (reCAPTCHA, 3 per day)",
			Status: http.StatusOK, Errors: []string{CodeValidation, CodeRecaptchaFailed, CodeRateLimitExceeded, CodeServiceUnavailable},
			Handler: Handle((*Server).postBrandCheck)},
		{Method: http.MethodGet, Path: "/api/tracker/approvals/pending", Function: "api-list-approvals-pending", Guard: GuardReviewer,
			Capability: "approvals:review", Tag: "Approvals", Summary: "Pending approval requests",
			Status: http.StatusOK, Handler: Handle((*Server).listPendingApprovals)},
		{Method: http.MethodPost, Path: "/api/tracker/approvals/{id}/approve", Function: "api-post-approval-approve", Guard: GuardReviewer,
			Capability: "approvals:review", Tag: "Approvals", Summary: "Approve a request",
			Status: http.StatusOK, Errors: []string{CodeNotFound, CodeAlreadyReviewed, CodeInvalidState, CodeValidation}, Handler: Handle((*Server).approve)},
		{Method: http.MethodPost, Path: "/api/tracker/approvals/{id}/reject", Function: "api-post-approval-reject", Guard: GuardReviewer,
			Capability: "approvals:review", Tag: "Approvals", Summary: "Reject a request",
			Status: http.StatusOK, Errors: []string{CodeNotFound, CodeAlreadyReviewed, CodeValidation}, Handler: Handle((*Server).reject)},
		{Method: http.MethodPost, Path: "/api/site-content/webhooks/{type}", Function: "api-post-site-content", Guard: GuardSignedBody,
			Tag: "Site content", Summary: "The service's own publish receiver (PublishPayload, signed): upsert the page by Slug",
			Status: http.StatusOK, MoreStatuses: []int{http.StatusCreated}, Errors: []string{CodeValidation, CodeSlugTaken},
			Handler: Handle((*Server).postSiteContent)},
		{Method: http.MethodGet, Path: "/site/{type}/{slug}", Function: "api-get-site-page", Guard: GuardPublic,
			Tag: "Site content", Summary: "A page of the service's own site: a full HTML document",
			Status: http.StatusOK, Errors: []string{CodeNotFound}, Handler: Handle((*Server).getSitePage)},
		{Method: http.MethodGet, Path: "/site/sitemap.xml", Function: "api-get-site-sitemap", Guard: GuardPublic,
			Tag: "Site content", Summary: "The sitemap of the service's own site",
			Status: http.StatusOK, Handler: Handle((*Server).getSitemap)},
		{Method: http.MethodGet, Path: "/openapi.json", Function: "api-get-openapi", Guard: GuardPublic,
			Tag: "Meta", Summary: "This API's OpenAPI 3 document", Status: http.StatusOK, Handler: Handle((*Server).getOpenAPI)},
	}
	for i := range rs {
		if err := rs[i].check(); err != nil {
			panic(err) // a malformed table is a programming error that every test run reports
		}
	}
	return rs
}

// Idempotent reports whether the router applies Idempotency-Key to the
// route. It follows from the method and the guard, not from a field a row
// could forget: every write (POST, PUT, PATCH, DELETE) of a caller with an
// API key is idempotent. The anonymous brand check has no caller to scope a
// key to (its daily limit counts checks instead), and the signed site
// content receiver upserts by Slug, idempotent by itself.
func (r *Route) Idempotent() bool {
	switch r.Method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return r.Guard == GuardAPIKey || r.Guard == GuardReviewer
	}
	return false
}

// HeaderIdempotencyKey is the header of idempotent writes.
const HeaderIdempotencyKey = "Idempotency-Key"

// idempotencyKeyParam is the Idempotency-Key header the router reads on
// every idempotent route (inputs never declare it).
var idempotencyKeyParam = Param{Name: HeaderIdempotencyKey, In: InHeader, Type: reflect.TypeFor[string](),
	MinLength: 1, MaxLength: idempotency.MaxKeyLen,
	Description: "Makes the write safe to retry: a retry with the same key and the same request (method, path and JSON body; " +
		"the members' order and spacing do not matter) replays the original answer, status and body, and nothing runs twice; " +
		"the same key with a different request is 409 idempotency_conflict, and so is a retry while the first request still runs " +
		"(details.reason in_progress, with Retry-After). Only successful answers are kept: after an error the key is free " +
		"again. Kept 24 hours, per tenant and API key. 1 to 255 characters."}

// CatchAll is API Gateway's $default route. Requests that match no route of
// the table reach its function, which answers them with the error envelope:
// 405 with Allow when the path exists under other methods, else 404.
var CatchAll = Route{Method: "ANY", Path: "$default", Function: "api-default", Guard: GuardPublic,
	Tag: "Meta", Summary: "Unknown routes and methods (API Gateway $default route)", Status: http.StatusNotFound,
	Handler: NotImplemented[NoInput, OpenObject]()}

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
var writeErrors = []string{CodeNotFound, CodeValidation, CodeIdempotencyConflict, CodeInsufficientCredits, CodeCreditCeilingReached, CodeApprovalPending}
