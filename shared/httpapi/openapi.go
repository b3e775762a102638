//go:build !brandlens.lambda

// The document is built from the route table with kin-openapi, whose
// package initialisation alone (JSON Schema meta-schemas compiled at init)
// took a third of the API bootstrap's: Lambda builds (tag brandlens.lambda,
// set by the Makefile) serve the generated openapi.json instead, which a
// test keeps equal to what this file builds.

package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/auth"
	"github.com/brandlens/brandlens/shared/brandcheck"
	"github.com/brandlens/brandlens/shared/citations"
	"github.com/brandlens/brandlens/shared/competitors"
	"github.com/brandlens/brandlens/shared/content"
	"github.com/brandlens/brandlens/shared/destinations"
	"github.com/brandlens/brandlens/shared/gaps"
	"github.com/brandlens/brandlens/shared/idempotency"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/models"
	"github.com/brandlens/brandlens/shared/openapi"
	"github.com/brandlens/brandlens/shared/opportunities"
	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/queries"
	"github.com/brandlens/brandlens/shared/validation"
)

// The OpenAPI document is built from the route table, the one definition
// the router also follows: paths, methods, parameters (from each handler's
// input type), guards, bodies and error codes cannot drift from what the
// service enforces. Schemas come from the Go types through package openapi
// (kin-openapi's model and openapi3gen).

// Component names, security schemes and shared parameters and headers.
const (
	responseRef  = "#/components/responses/"
	parameterRef = "#/components/parameters/"
	headerRef    = "#/components/headers/"

	secAPIKey           = "ApiKey"
	secServiceSignature = "ServiceSignature"

	paramRequestID = "RequestId"

	headerRequestID  = "X-Request-Id"
	headerRetryAfter = "Retry-After"
	headerAllow      = "Allow"
	headerLocation   = "Location"
)

// componentNames names the components of the spec's DTOs by the spec's
// names; other types are named by their Go type name.
var componentNames = map[reflect.Type]string{
	reflect.TypeFor[citations.Citation]():           "CitationDto",
	reflect.TypeFor[citations.AICitationMetrics]():  "AICitationMetricsDto",
	reflect.TypeFor[citations.EngagementMetrics]():  "EngagementMetricsDto",
	reflect.TypeFor[citations.EntityMention]():      "EntityMentionDto",
	reflect.TypeFor[competitors.Competitor]():       "CompetitorDto",
	reflect.TypeFor[queries.Query]():                "MonitoringQuery",
	reflect.TypeFor[RunRequest]():                   "PublicRunRequest",
	reflect.TypeFor[BrandCheckRequest]():            "BrandCheckRequest",
	reflect.TypeFor[PublishPayload]():               "PublishPayload",
	reflect.TypeFor[gaps.Gap]():                     "Gap",
	reflect.TypeFor[gaps.Metrics]():                 "GapFigures",
	reflect.TypeFor[gaps.GapMetrics]():              "GapMetrics",
	reflect.TypeFor[gaps.Evidence]():                "GapEvidence",
	reflect.TypeFor[gaps.Snippet]():                 "GapEvidenceSnippet",
	reflect.TypeFor[gaps.Lead]():                    "GapLeadingCompetitor",
	reflect.TypeFor[gaps.WindowInfo]():              "GapWindow",
	reflect.TypeFor[opportunities.Opportunity]():    "Opportunity",
	reflect.TypeFor[opportunities.Brief]():          "ContentBrief",
	reflect.TypeFor[opportunities.Content]():        "GeneratedContent",
	reflect.TypeFor[opportunities.Heading]():        "OutlineHeading",
	reflect.TypeFor[opportunities.CompetitorPage](): "CompetitorPage",
	reflect.TypeFor[audit.Entry]():                  "AuditEntry",
	reflect.TypeFor[audit.Actor]():                  "AuditActor",
	reflect.TypeFor[audit.ModelCall]():              "AuditModelCall",
	reflect.TypeFor[models.Message]():               "ModelMessage",
	reflect.TypeFor[brandcheck.Response]():          "BrandCheckResponse",
	reflect.TypeFor[brandcheck.PlatformResult]():    "BrandCheckPlatformResult",
	reflect.TypeFor[brandcheck.CompetitorPage]():    "BrandCheckCompetitor",
}

var (
	jobTypeValues  = []string{jobs.TypeQueryRun, jobs.TypeGapDetection, jobs.TypeBriefGeneration, jobs.TypeContentGeneration, jobs.TypePublish, jobs.TypeRescore}
	tierValues     = []string{string(gaps.TierNoMention), string(gaps.TierCompetitorDominated), string(gaps.TierLowVisibility), string(gaps.TierWeakMention)}
	scheduleValues = []string{queries.ScheduleHourly, queries.ScheduleDaily, queries.ScheduleWeekly}
	scopeValues    = []string{string(auth.ScopeRead), string(auth.ScopeReadWrite), string(auth.ScopePublish)}
	autonomyValues = []string{string(auth.L0), string(auth.L1), string(auth.L2)}
	publishModes   = []string{"propose", "execute"}
)

var fieldDocs = map[string]openapi.FieldDoc{
	"CitationDto.platform":           {Enum: platforms.All},
	"CitationDto.sentiment":          {Enum: citations.Sentiments},
	"CitationDto.citationSourceType": {Enum: citations.SourceTypes, Description: "ai_response: cited inside an AI answer; organic_search: a classic search result; info_site: a reference, review or encyclopedia site"},
	"CitationDto.relevanceScore":     {Description: "relevance of the citation to the brand, 0..1"},
	"EngagementMetricsDto.position":  {Description: "the brand's rank among the brands the answer names (1 is first); 0 when the brand is not named"},
	"EngagementMetricsDto.shareOfVoice": {
		Description: "the brand's share of all tracked-brand mentions in the answer, 0..1"},
	"EngagementMetricsDto.citationCount": {Description: "number of sources the answer cites"},
	"EntityMentionDto.kind":              {Description: "brand, competitor or detected"},
	"EntityMentionDto.start":             {Description: "character offset (Unicode code points) where the mention starts"},
	"EntityMentionDto.end":               {Description: "character offset (Unicode code points) where the mention ends"},
	"MonitoringQuery.platforms":          {Enum: platforms.All},
	"Job.status":                         {Enum: jobs.Statuses},
	"Job.type":                           {Enum: jobTypeValues},
	"Job.platforms":                      {Enum: platforms.All},
	"Job.perPlatformStatus":              {Description: "outcome of each platform, keyed by platform; partial success is expressed here"},
	"JobList.nextCursor":                 {Description: "opaque; pass it as cursor to read the page after this one (the same status filter applies); null after the last page"},
	"JobAccepted.status":                 {Enum: jobs.Statuses},
	"JobAccepted.jobId":                  {Description: "id of the job; poll GET /api/v1/jobs/{id} with it"},
	"JobAccepted.credits_balance":        {Description: "the tenant's available credits right after this job's hold (a replay with the same Idempotency-Key answers the original value)"},
	"PlatformStatus.cost":                {Description: "credits charged for this platform"},
	"PlatformStatus.mentionRate":         {Description: "share of samples naming the brand, with its 95% Wilson interval; null until the platform has finished"},
	"Entitlement.scopes":                 {Enum: scopeValues},
	"Entitlement.autonomy_level":         {Enum: autonomyValues, Description: "the level whose rules hold for the key: L0 manual, L1 auto-propose, L2 auto-publish; always L2 for a human key, which is never held"},
	"Entitlement.capabilities":           {Description: "sorted list of what this key may do: the capability of every route its scopes and agent flag admit"},
	"Entitlement.rpm_limit":              {Description: "requests per minute allowed for this key"},
	"CreditInfo.resets_at":               {Description: "next UTC midnight, when spent_today and committed_today start again from 0"},
	"CreditInfo.remaining_today":         {Description: "credits that can still be reserved today: the balance, capped by what the daily ceiling leaves after committed_today"},
	"CreditInfo.spent_today":             {Description: "credits charged (captured) this UTC day; credits reserved by running jobs are in held until they settle"},
	"CreditInfo.held":                    {Description: "credits reserved by jobs that have not settled yet; what a job does not use comes back to credits_balance"},
	"CreditInfo.committed_today":         {Description: "credits reserved by jobs created this UTC day that were not given back (held or captured): the count the daily ceiling is checked against, so that a burst of runs cannot pass it before any is charged"},
	"Entitlement.spent_today":            {Description: "credits charged (captured) this UTC day; credits reserved by running jobs are in held"},
	"Entitlement.held":                   {Description: "credits reserved by jobs that have not settled yet"},
	"PublicRunRequest.platforms":         {Enum: platforms.All, Description: "subset of the query's platforms; absent or null runs them all; an empty array is 422"},
	"PublicRunRequest.samples": {Min: openapi.Float(1), Max: openapi.Float(maxRunSamples), Default: 1,
		Description: "samples per platform (AI answers vary from run to run; more samples give a mention rate with a tighter interval)"},
	"CreateDestinationRequest.siteContentType": {Enum: destinations.SiteContentTypes,
		Description: "own_site only: the section of the own site its pages go to; absent, null or empty: knowledge"},
	"PublishRequest.mode": {Enum: publishModes,
		Description: "propose: create an approval request; execute: publish now (needs autonomy L2 or an approved request)"},
	"PublishPayload.SchemaVersion":   {Description: "currently 1.0"},
	"PublishPayload.ContentId":       {Description: "opportunity id; correlation key; same as the X-Service-Content-Id header"},
	"PublishPayload.ContentVersion":  {Description: "revision; a re-publish keeps ContentId and carries a new version"},
	"PublishPayload.Slug":            {Description: "already slugified; the upsert key of a receiver"},
	"PublishPayload.ContentType":     {Description: "informational; for the service's own-site destination one of knowledge, research, news"},
	"PublishPayload.BodyHtml":        {Description: "HTML fragment (not a full document)"},
	"PublishPayload.SchemaJsonLd":    {Optional: true, Description: "JSON-LD markup encoded as a JSON string"},
	"PublishPayload.MetaDescription": {Description: "about 160 characters"},
	"PublishPayload.Author":          {Description: "receivers should cap it at about 200 characters"},
	"PublishPayload.PublishDate":     {Description: "ISO 8601, UTC"},
	"PublishPayload.UpdatedDate":     {Description: "ISO 8601, UTC"},
	"PublishPayload.TargetEntities":  {Description: "entity names the article targets"},
	"PublishPayload.Headings":        {Description: "heading structure (H2 and below)"},
	"FieldError.field":               {Description: "the parameter, body member or header at fault"},
	"SiteContentReceived.status":     {Enum: []string{"created", "updated", "stale"}},
	"CitationDto.detectionVerdict": {Enum: detectionVerdicts(),
		Description: "why the brand is or is not in the answer: mentioned; unknown_to_model (the answer disclaims knowing it); cited_only (only its domain is cited or linked); ordinary_word (its name appears only as a word); not_mentioned"},
	"CitationDto.detectionConfidence":   {Description: "0..1; 0.55 to 0.69 marks the ambiguous band of ordinary-word names"},
	"MonitoringQuery.schedule":          {Enum: scheduleValues, Description: "null: run on demand only"},
	"CompetitorDto.isActive":            {Description: "whether detection and gaps count the competitor: false exactly while isDismissed is true"},
	"MonitoringQuery.deletedAt":         {Description: "set when the query was deleted: it no longer runs and is not listed, but it and its history stay readable"},
	"MonitoringQuery.isActive":          {Description: "false: paused (not scheduled, runs refused) or deleted"},
	"MonitoringQuery.lastRunAt":         {Description: "when the latest run of the query was accepted (a manual or scheduled run when it is created; an agent's held run when a reviewer approves it); null: never run"},
	"MonitoringQuery.lastJobId":         {Description: "the job of that run (GET /api/v1/jobs/{id}); null: never run"},
	"CreateQueryRequest.platforms":      {Enum: platforms.All, Description: "platforms to ask, at least one; absent or null: all of them ([] is refused: an empty subset is a mistake rather than all)"},
	"CreateQueryRequest.schedule":       {Enum: scheduleValues, Description: "hourly, daily or weekly; absent or null: on demand only"},
	"CreateQueryRequest.text":           {Description: "the phrase users type into AI platforms, 1 to 500 characters; unique within the tenant ignoring case and spacing"},
	"CreateQueryRequest.brandProfileId": {Description: "the brand profile the query monitors; default: the tenant's first brand profile"},
	"UpdateQueryRequest.platforms":      {Enum: platforms.All},
	"UpdateQueryRequest.schedule":       {Enum: scheduleValues, Description: "null clears the schedule; absent keeps it"},
	"UpdateQueryRequest.isActive":       {Description: "false pauses the query (no scheduled runs, runs refused); true resumes it"},
	"CreateCompetitorRequest.domains":   {Description: "host names such as notion.so (no scheme or path); the first gives websiteUrl"},
	"UpdateBrandProfileRequest.aliases": {Description: "other names of the brand detection matches (at most 20); replaces the list"},
	"UpdateBrandProfileRequest.domains": {Description: "host names such as acmenotes.com (at most 20); replaces the list. Re-score the profile (POST …/rescore) to apply a change to stored answers"},
	"Gap.tier":                          {Enum: tierValues, Description: "the first tier that holds, in the order no_mention, competitor_dominated, low_visibility, weak_mention"},
	"Gap.status":                        {Enum: gaps.Statuses, Description: "open; addressed (its content was published); resolved (the tier no longer holds); dismissed"},
	"Gap.platforms":                     {Enum: platforms.All, Description: "the platforms on whose answers alone the tier holds (all answered platforms when none does alone)"},
	"Gap.competitors":                   {Description: "competitors named ahead of the brand in the evidence answers, most often first"},
	"GapFigures.mentionRate":            {Description: "share of the answers naming the brand, with its 95% Wilson interval"},
	"GapFigures.meanRank":               {Description: "the brand's mean rank among the tracked brands an answer names (1 = first); null when never named"},
	"GapFigures.outrankedShare":         {Description: "of the answers naming any tracked brand, the share where a competitor is named before the brand (or the brand not at all)"},
	"GapFigures.meanVisibilityScore":    {Description: "mean visibility score (0..100) of the answers"},
	"GapFigures.passingShare":           {Description: "of the answers naming the brand, the share naming it only in passing: late (after the first half) or once"},
	"Opportunity.status": {Enum: opportunities.Statuses,
		Description: "open → brief_ready (generate-brief) → content_ready (generate-content) → published (publish), plus dismissed; a failed job leaves it where it was"},
	"Opportunity.tier":                 {Enum: tierValues},
	"Opportunity.priority":             {Min: openapi.Float(0), Max: openapi.Float(100), Description: "the severity of the gap's tier (no_mention 100, competitor_dominated 85, low_visibility 70, weak_mention 50) × the query's weight (schedule weight × reach), rounded"},
	"Opportunity.brief":                {Description: "null until a brief was generated"},
	"Opportunity.content":              {Description: "null until an article was generated"},
	"Opportunity.publish":              {Description: "null until the content is published"},
	"ContentBrief.contentFormat":       {Enum: content.Formats},
	"ContentBrief.wordCount":           {Description: "target length of the piece in words"},
	"GeneratedContent.bodyHtml":        {Description: "sanitized HTML fragment (no document, script or style elements, event handlers or javascript: URLs), humanized"},
	"GeneratedContent.schemaJsonLd":    {Description: "JSON-LD (Article, or FAQPage for the faq format) encoded as a JSON string"},
	"GeneratedContent.headings":        {Description: "the H2 and lower headings of bodyHtml, in order"},
	"GeneratedContent.metaDescription": {Description: "at most 160 characters"},
	"GeneratedContent.contentVersion":  {Description: "a new id per generation"},
	"BriefRequest.contentFormat":       {Enum: content.Formats, Default: content.DefaultFormat},
	"ContentRequest.persona":           {Description: "who the article is written as, 1 to 200 characters without control characters; default: " + content.DefaultPersona},
	"AuditEntry.outcome":               {Enum: []string{audit.OutcomeAccepted, audit.OutcomeSucceeded, audit.OutcomeFailed}},
	"AuditEntry.resource":              {Description: "type:id of what the action was done to"},
	"AuditActor.kind":                  {Enum: []string{audit.KindHuman, audit.KindAgent, audit.KindSystem}},
	"AuditModelCall.prompt":            {Description: "every message sent, in order, verbatim"},
	"AuditModelCall.vendor":            {Description: "openai, anthropic, gemini or offline for generation; the platform for a query run's answer"},
	"BrandCheckRequest.brandName":      {Description: "required; 1 to 100 characters after trimming (inner whitespace collapsed), no control characters"},
	"BrandCheckRequest.websiteUrl":     {Description: "required; an absolute http(s) URL of a public host (no address of a private, loopback or other special-purpose network, no user@, a name under a public suffix). It is never fetched"},
	"BrandCheckRequest.recaptchaToken": {Description: "required; the token of Google's reCAPTCHA (v3 action brand_check, or v2), at most 4,096 characters; verified with siteverify before anything is counted or run"},
	"BrandCheckResponse.visibilityScore": {Min: openapi.Float(0), Max: openapi.Float(100),
		Description: "0–100: the mean over the platforms that answered of each platform's weighted question scores (best <category> tools 0.5, <brand> alternatives 0.3, what is <brand> 0.2); 0 when none answered"},
	"BrandCheckResponse.grade":                   {Enum: brandcheckGrades, Description: "A 80–100, B 60–79, C 40–59, D 20–39, F 0–19; null when no platform answered"},
	"BrandCheckResponse.brandName":               {Nullable: openapi.Bool(true), Description: "the brand as checked (trimmed, inner whitespace collapsed); nullable in the spec, always sent"},
	"BrandCheckResponse.platforms":               {Nullable: openapi.Bool(false), Description: "one result per platform asked, in the configured order"},
	"BrandCheckResponse.topCompetitors":          {Nullable: openapi.Bool(false), Description: "at most 5 names the platforms gave instead of or beside the brand, ranked by the number of platforms naming them, then mentions"},
	"BrandCheckResponse.topCompetitorCitedPages": {Nullable: openapi.Bool(false), Description: "for the top competitors, a page the platforms cited for them"},
	"BrandCheckResponse.summary":                 {Nullable: openapi.Bool(true), Description: "two or three plain sentences; nullable in the spec, always sent"},
	"BrandCheckResponse.hasUpsell":               {Description: "true when some platform answered and the score is under 80 or a competitor appeared"},
	"BrandCheckResponse.requestId":               {Nullable: openapi.Bool(true), Description: "id of the stored check; nullable in the spec, always sent"},
	"BrandCheckResponse.completedAt":             {Description: "when the platforms were asked (a check answered from the day's cache keeps the time of the check it repeats)"},
	"BrandCheckPlatformResult.platform":          {Enum: platforms.All},
	"BrandCheckPlatformResult.status": {Enum: []string{brandcheck.StatusSucceeded, brandcheck.StatusPartial, brandcheck.StatusFailed, brandcheck.StatusTimeout},
		Description: "succeeded: every question answered; partial: some; failed: none, the platform refused or erred (errorMessage says why); timeout: none within the check's time budget"},
	"BrandCheckPlatformResult.mentionCount":        {Description: "mentions of the brand in the platform's answers (statements of ignorance are not mentions)"},
	"BrandCheckPlatformResult.evidenceSnippet":     {Description: "the sentence that decided the verdict, empty when none"},
	"BrandCheckPlatformResult.competitors":         {Nullable: openapi.Bool(false), Description: "brands the platform named beside or instead of the brand"},
	"BrandCheckPlatformResult.competitorCitedUrls": {Nullable: openapi.Bool(false), Description: "competitor name → a page the platform cited for it"},
	"BrandCheckPlatformResult.errorMessage":        {Description: "why the platform gave no (or not every) answer; empty when it answered all"},
	"BrandCheckPlatformResult.costIncurred":        {Description: "what asking the platform cost, in USD"},
	"BrandCheckPlatformResult.modelUsed":           {Description: "the model that answered"},
	"BrandCheckPlatformResult.visibilityScore":     {Min: openapi.Float(0), Max: openapi.Float(100), Description: "this platform's 0–100 score (an addition to the spec's members; the page draws it as the platform's bar)"},
}

var brandcheckGrades = []string{"A", "B", "C", "D", "F"}

// errorDoc documents one error code.
type errorDoc struct {
	Meaning string
	Example string
	Details map[string]any
	// Extension marks codes this service adds to the spec's list.
	Extension bool
}

var errorDocs = map[string]errorDoc{
	CodeMissingAPIKey: {Meaning: "the X-API-Key header is absent",
		Example: "the X-API-Key header is required"},
	CodeInvalidAPIKey: {Meaning: "the key is unknown, revoked or malformed, or was sent in the query string",
		Example: "the API key is not valid"},
	CodeInsufficientScope: {Meaning: "the key lacks the scope the route needs (details.requiredScope); reviewing approvals needs a human key with the publish scope",
		Example: "this route needs the read_write scope", Details: map[string]any{"requiredScope": "read_write"}},
	CodeApprovalRequired: {Meaning: "an agent below autonomy L2 asked to execute a side effect without an approved request",
		Example: "publishing needs an approved request at this autonomy level"},
	CodeNotFound: {Meaning: "no such resource in the caller's tenant, or no route for the path",
		Example: "query not found"},
	CodeIdempotencyConflict: {Meaning: "the Idempotency-Key was already used for a different request (details.reason different_request), or a request with it is still running (in_progress, with Retry-After)",
		Example: "this Idempotency-Key was used with a different request", Details: map[string]any{"header": "Idempotency-Key", "reason": "different_request"}},
	CodeApprovalPending: {Meaning: "an approval request for this action is still pending",
		Example: "an approval request for this opportunity is pending"},
	CodeValidation: {Meaning: "a parameter or body member is invalid, unknown or ill-typed, or the body is not JSON; details.fields names each one",
		Example: "invalid field pageSize: must be at most 100",
		Details: map[string]any{"fields": []validation.FieldError{{Field: "pageSize", Message: "must be at most 100"}}}},
	CodeRateLimitExceeded: {Meaning: "the key's requests-per-minute limit (rpm_limit), its hourly redeliveries and pings of webhooks, or the brand check's daily limit, is used up; Retry-After says when to retry",
		Example: "rate limit of 60 requests per minute exceeded", Details: map[string]any{"rpmLimit": 60}},
	CodeCreditCeilingReached: {Meaning: "the operation would pass the tenant's daily credit ceiling (daily_credit_ceiling), which counts the credits committed today — held by running jobs or charged (details.committedToday; details.spentToday is the charged part); Retry-After gives the seconds until it resets at UTC midnight",
		Example: "the daily credit ceiling is reached"},
	CodeInsufficientCredits: {Meaning: "the credit balance cannot cover the operation's price",
		Example: "not enough credits for this operation"},
	CodeInvalidState: {Meaning: "the record's state does not allow this action; nothing was stored or charged. On an opportunity: details.status is its status, details.allowed the statuses that would. On an approval's approve: the requesting key was revoked, details.allowed is [\"reject\"]",
		Example: "opportunity 01m8… is open; generate content needs it to be brief_ready or content_ready or published",
		Details: map[string]any{"status": "open", "allowed": []string{"brief_ready", "content_ready", "published"}}, Extension: true},
	CodeAlreadyExists: {Meaning: "another record of the tenant holds this unique value (a query's text, a competitor's name; case and spacing ignored); details.id names it",
		Example: "a query with this text exists already (ignoring case and spacing)", Details: map[string]any{"id": 3, "field": "text"}, Extension: true},
	CodeLimitExceeded: {Meaning: "the tenant has as many of these records as allowed (50 webhook subscriptions, destinations: see the route); details.limit is the cap; delete one first",
		Example: "the tenant already has 50 webhook subscriptions, the most allowed; delete one first", Details: map[string]any{"limit": 50}, Extension: true},
	CodeMethodNotAllowed: {Meaning: "the path exists, but not under this method; the Allow header and details.allow list the methods",
		Example: "method DELETE is not allowed on /api/v1/me", Details: map[string]any{"allow": []string{"GET"}}, Extension: true},
	CodePayloadTooLarge: {Meaning: "the request body exceeds 1 MiB (1048576 bytes)",
		Example: "request body exceeds 1048576 bytes", Details: map[string]any{"limit": DefaultMaxBody}, Extension: true},
	CodeInvalidSignature: {Meaning: "X-Service-Signature is missing or is not sha256=<hex> of the HMAC-SHA256 of the raw body",
		Example: "missing or invalid X-Service-Signature", Extension: true},
	CodeAlreadyReviewed: {Meaning: "the approval request was approved or rejected already; a request is reviewed once",
		Example: "the approval request is already approved", Details: map[string]any{"status": "approved"}, Extension: true},
	CodeSlugTaken: {Meaning: "the own site's page of this type and Slug was published by another piece (another ContentId); a receiver upserts by Slug within one piece only",
		Example: "the page /site/news/note-apps belongs to another piece: publish this one with another Slug", Details: map[string]any{"type": "news", "slug": "note-apps"}, Extension: true},
	CodeNotImplemented: {Meaning: "the endpoint is declared but its feature is not available in this deployment yet",
		Example: "GET /api/v1/gaps is not available yet", Extension: true},
	CodeBadRequest: {Meaning: "the HTTP request itself is malformed (request line, Host or a header name or value); answered before routing",
		Example: "malformed HTTP request: invalid header value", Extension: true},
	CodeHeadersTooLarge: {Meaning: fmt.Sprintf("the request line and headers exceed the limit (%d bytes of headers on brandlens serve; API Gateway refuses more than 10,240 bytes of request line and headers itself, in its own format); answered before routing", MaxHeaderBytes),
		Example: fmt.Sprintf("the request's headers exceed %d bytes", MaxHeaderBytes), Details: map[string]any{"limit": MaxHeaderBytes}, Extension: true},
	CodeInternal: {Meaning: "an unexpected failure; the X-Request-Id identifies it in the service's logs",
		Example: "internal error; the request id identifies it in our logs", Details: map[string]any{"requestId": "req_5f0c2a9e1b7d4c3a8e6f1d2b"}, Extension: true},
	CodeRecaptchaFailed: {Meaning: "the brand check's reCAPTCHA token was refused by Google (invalid, expired or already used, a v3 score under the threshold, another action); details.reasons lists Google's error codes. Get a new token and retry; the refused request was not counted",
		Example: "The reCAPTCHA check failed; please complete it again.", Details: map[string]any{"reasons": []string{"timeout-or-duplicate"}}, Extension: true},
	CodeServiceUnavailable: {Meaning: "the brand check cannot run now: reCAPTCHA could not be asked (never a free pass), the day's budget of anonymous checks is used up, or the prompts could not be audited; details.reason says which and Retry-After when to retry. The request was not counted",
		Example: "We could not verify that you are human just now; please try again in a minute.", Details: map[string]any{"reason": brandcheck.ReasonVerifier}, Extension: true},
}

// creditNotes tell what each credit-metered function costs (default
// prices; the price list is configurable).
var creditNotes = map[string]string{
	"api-post-query-run":             "Credit-metered: 1 credit per platform per sample, charged only for the platforms that succeeded; a failed run costs 0.",
	"api-post-gaps-detect":           "Credit-metered: 5 credits per gap detection, charged only on success or partial success.",
	"api-post-opportunity-brief":     "Credit-metered: 2 credits per brief, charged only on success.",
	"api-post-opportunity-content":   "Credit-metered: 10 credits per article, charged only on success.",
	"api-post-opportunity-publish":   "Publishing costs 0 credits.",
	"api-post-brand-profile-rescore": "Credit-metered: a flat 5 credits per re-scoring, whatever the number of stored answers, charged only on success.",
}

// OpenAPIJSON is the document of the route table as served (openapigen
// writes it for Lambda builds).
func OpenAPIJSON() ([]byte, error) { return openAPIDocument() }

// openAPIDocument builds the document of the route table, as served.
func openAPIDocument() ([]byte, error) {
	doc, err := OpenAPI(Routes)
	if err != nil {
		return nil, err
	}
	return json.Marshal(doc)
}

// maxRunSamples bounds PublicRunRequest.samples in the document.
const maxRunSamples = 5

// OpenAPI returns the OpenAPI 3.0.3 document of routes.
func OpenAPI(routes []Route) (*openapi3.T, error) {
	b := &docBuilder{
		gen:       openapi.NewGenerator(componentNames, fieldDocs),
		responses: openapi3.ResponseBodies{},
		doc: &openapi3.T{
			OpenAPI:  "3.0.3",
			Info:     &openapi3.Info{Title: "brandlens API", Version: "1.0", Description: apiDescription()},
			Servers:  openapi3.Servers{{URL: "/", Description: "the host serving this document"}},
			Security: openapi3.SecurityRequirements{{secAPIKey: {}}},
			Paths:    openapi3.NewPaths(),
		},
	}
	// Answers first: a type reached both ways is documented as returned
	// (every non-pointer member required).
	for i := range routes {
		if routes[i].ResponseBody().Implements(reflect.TypeFor[document]()) {
			continue // not JSON: no schema component
		}
		if _, err := b.gen.Response(routes[i].ResponseBody()); err != nil {
			return nil, err
		}
	}
	// Event payloads are sent, like answers: generated before requests.
	hooks, err := b.webhookEvents()
	if err != nil {
		return nil, err
	}
	if b.errorBody, err = b.gen.Response(reflect.TypeFor[ErrorBody]()); err != nil {
		return nil, err
	}
	if err := b.documentErrorObject(); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i := range routes {
		r := &routes[i]
		op, err := b.operation(r)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", r.Method, r.Path, err)
		}
		item := b.doc.Paths.Value(r.Path)
		if item == nil {
			item = &openapi3.PathItem{}
			b.doc.Paths.Set(r.Path, item)
		}
		item.SetOperation(r.Method, op)
		if r.Tag != "" && !seen[r.Tag] {
			seen[r.Tag] = true
			b.doc.Tags = append(b.doc.Tags, &openapi3.Tag{Name: r.Tag})
		}
	}
	b.doc.Extensions = map[string]any{openapi.WebhooksExtension: hooks}
	b.doc.Components = &openapi3.Components{
		Schemas:   b.gen.Components(),
		Responses: b.responses,
		Parameters: openapi3.ParametersMap{
			paramRequestID: {Value: &openapi3.Parameter{Name: headerRequestID, In: openapi3.ParameterInHeader,
				Description: "Optional correlation id of the caller, logged beside the service's own request id when it matches " +
					requestIDPattern.String() + " (a value of any other shape is ignored). The service never adopts it as the request's id.",
				Schema: openapi3.NewStringSchema().WithMaxLength(128).NewRef()}},
		},
		Headers: openapi3.Headers{
			headerRequestID: {Value: &openapi3.Header{Parameter: openapi3.Parameter{
				Description: "The request's id, generated by the service (API Gateway's request id in AWS); sent on every response and logged with the request. Quote it to find a request in the logs.",
				Schema:      openapi3.NewStringSchema().NewRef()}}},
			headerRetryAfter: {Value: &openapi3.Header{Parameter: openapi3.Parameter{Description: "Seconds to wait before retrying (on 409, only while a request with the same Idempotency-Key is in progress).",
				Schema: openapi3.NewInt32Schema().WithMin(0).NewRef()}}},
			HeaderIdempotentReplayed: {Value: &openapi3.Header{Parameter: openapi3.Parameter{
				Description: "true when the answer is the stored answer of an earlier request with the same Idempotency-Key (nothing ran again); absent otherwise.",
				Schema:      openapi3.NewStringSchema().WithEnum("true").NewRef()}}},
			headerAllow: {Value: &openapi3.Header{Parameter: openapi3.Parameter{Description: "Methods the path allows.",
				Schema: openapi3.NewStringSchema().NewRef()}}},
		},
		SecuritySchemes: openapi3.SecuritySchemes{
			secAPIKey: {Value: &openapi3.SecurityScheme{Type: "apiKey", In: "header", Name: "X-API-Key",
				Description: "API key created in the dashboard (Developer, API Keys); carries the scopes read, read_write or publish (publish implies read_write, which implies read). Never accepted in the query string."}},
			secServiceSignature: {Value: &openapi3.SecurityScheme{Type: "apiKey", In: "header", Name: "X-Service-Signature",
				Description: "HMAC-SHA256 signature of the exact raw request body, sent as sha256=<hex> (lowercase hex; the sha256= prefix is matched case-insensitively); the key is the site content secret as UTF-8 bytes."}},
		},
	}
	// openapi.Validate runs in the tests, not on every cold start.
	return b.doc, nil
}

type docBuilder struct {
	doc       *openapi3.T
	gen       *openapi.Generator
	errorBody *openapi3.SchemaRef
	responses openapi3.ResponseBodies
}

// jobWrite: the route creates a job and answers 202 {jobId, status}.
func jobWrite(r *Route) bool {
	return r.Method == http.MethodPost && r.ResponseBody() == reflect.TypeFor[JobAccepted]()
}

func (b *docBuilder) operation(r *Route) (*openapi3.Operation, error) {
	op := &openapi3.Operation{
		OperationID: lowerCamel(r.Function),
		Summary:     r.Summary,
		Responses:   openapi3.NewResponses(),
		Extensions:  map[string]any{},
	}
	if r.Tag != "" {
		op.Tags = []string{r.Tag}
	}
	var notes, codes []string
	keyed := openapi3.SecurityRequirements{{secAPIKey: {}}}
	switch r.Guard {
	case GuardAPIKey:
		op.Security = &keyed
		op.Extensions["x-required-scope"] = string(r.Scope)
		notes = append(notes, "Needs an API key (X-API-Key) with the "+string(r.Scope)+" scope or a higher one.")
		codes = append(codes, CodeMissingAPIKey, CodeInvalidAPIKey, CodeInsufficientScope, CodeRateLimitExceeded)
	case GuardReviewer:
		op.Security = &keyed
		op.Extensions["x-required-scope"] = string(auth.ScopePublish)
		notes = append(notes, "Needs the X-API-Key of a human (non-agent) key with the publish scope; agent keys can never review approvals.")
		codes = append(codes, CodeMissingAPIKey, CodeInvalidAPIKey, CodeInsufficientScope, CodeRateLimitExceeded)
	case GuardSignedBody:
		op.Security = &openapi3.SecurityRequirements{{secServiceSignature: {}}}
		notes = append(notes, "No API key: the body must be signed with X-Service-Signature: sha256=<hex>, the HMAC-SHA256 of the raw body under the site content secret; the signature is checked before the body is parsed.")
		codes = append(codes, CodeInvalidSignature)
	case GuardAnonymous:
		op.Security = &openapi3.SecurityRequirements{}
		notes = append(notes, "Anonymous: no API key.")
	default:
		op.Security = &openapi3.SecurityRequirements{}
		notes = append(notes, "Public: no authentication.")
	}
	if n := creditNotes[r.Function]; n != "" {
		notes = append(notes, n)
	}
	if n := routeNotes[r.Function]; n != "" {
		notes = append(notes, n)
	}
	if jobWrite(r) {
		notes = append(notes, "Asynchronous: answers 202 with jobId and the credits_balance left after the job's hold, at once; follow the job with GET /api/v1/jobs/{id} or the execution.completed webhook event.")
	}
	if n := autonomyDocs[r.Autonomy]; n != "" {
		notes = append(notes, n)
		op.Extensions["x-autonomy"] = []string{"", "held_job", "held_change", "publish"}[r.Autonomy]
	}
	if r.Idempotent() {
		notes = append(notes, "Idempotent: send Idempotency-Key to make retries safe; a retry with the same key and request replays the original answer (Idempotent-Replayed: true).")
	}
	if !r.Implemented() {
		notes = append(notes, "Not available yet: after its guard and the checks of its parameters and body, it answers 501 not_implemented.")
	}
	op.Description = strings.Join(notes, "\n\n")

	for _, p := range r.Params() {
		op.Parameters = append(op.Parameters, &openapi3.ParameterRef{Value: paramDoc(p)})
	}
	op.Parameters = append(op.Parameters, &openapi3.ParameterRef{Ref: parameterRef + paramRequestID})

	if bt := r.RequestBody(); bt != nil {
		s, err := b.gen.Request(bt)
		if err != nil {
			return nil, err
		}
		content := openapi3.Content{}
		for _, mt := range JSONMediaTypes {
			content[mt] = &openapi3.MediaType{Schema: s}
		}
		op.RequestBody = &openapi3.RequestBodyRef{Value: &openapi3.RequestBody{
			Description: "A JSON object; unknown or ill-typed members are 422 validation_error naming each one. An empty body counts as {}.",
			Content:     content,
		}}
	}

	ok, err := b.success(r)
	if err != nil {
		return nil, err
	}
	op.Responses.Set(strconv.Itoa(r.Status), &openapi3.ResponseRef{Value: ok})
	if r.Autonomy == AutonomyHeldChange {
		s, err := b.gen.Response(reflect.TypeFor[ApprovalRequestDto]())
		if err != nil {
			return nil, err
		}
		d := "Accepted: the caller is an L0 agent; nothing changed yet. The body is the approval request that holds the change; a human's approval applies it."
		op.Responses.Set(strconv.Itoa(http.StatusAccepted), &openapi3.ResponseRef{Value: &openapi3.Response{Description: &d,
			Headers: openapi3.Headers{headerRequestID: {Ref: headerRef + headerRequestID}}, Content: openapi3.NewContentWithJSONSchemaRef(s)}})
	}
	for _, st := range r.MoreStatuses {
		more := *ok
		d := http.StatusText(st) + *ok.Description
		d = strings.Replace(d, http.StatusText(r.Status), "", 1)
		more.Description = &d
		op.Responses.Set(strconv.Itoa(st), &openapi3.ResponseRef{Value: &more})
	}

	codes = append(codes, r.Errors...)
	// Unknown query parameters are refused on every route.
	codes = append(codes, CodeValidation)
	if r.RequestBody() != nil || r.Method == http.MethodPost || r.Method == http.MethodPut || r.Method == http.MethodPatch {
		codes = append(codes, CodePayloadTooLarge)
	}
	codes = append(codes, CodeNotFound, CodeMethodNotAllowed, CodeInternal, CodeBadRequest, CodeHeadersTooLarge)
	if r.Idempotent() {
		codes = append(codes, CodeIdempotencyConflict)
	}
	if !r.Implemented() {
		codes = append(codes, CodeNotImplemented)
	}
	byStatus := map[int][]string{}
	for _, c := range codes {
		st := errorStatus(c)
		if !slices.Contains(byStatus[st], c) {
			byStatus[st] = append(byStatus[st], c)
		}
	}
	for st, cs := range byStatus {
		op.Responses.Set(strconv.Itoa(st), &openapi3.ResponseRef{Ref: responseRef + b.errorResponse(st, cs)})
	}
	return op, nil
}

func (b *docBuilder) success(r *Route) (*openapi3.Response, error) {
	desc := http.StatusText(r.Status)
	resp := &openapi3.Response{
		Headers: openapi3.Headers{headerRequestID: {Ref: headerRef + headerRequestID}},
	}
	if r.Idempotent() {
		resp.Headers[HeaderIdempotentReplayed] = &openapi3.HeaderRef{Ref: headerRef + HeaderIdempotentReplayed}
	}
	if t := r.ResponseBody(); t.Implements(reflect.TypeFor[document]()) {
		mt := documentMedia[t.Name()]
		text := openapi3.NewStringSchema()
		text.Description = "the document (" + mt + ", UTF-8)"
		resp.Content = openapi3.Content{mt: &openapi3.MediaType{Schema: text.NewRef()}}
		resp.Description = &desc
		return resp, nil
	}
	if r.ResponseBody().Implements(reflect.TypeFor[chosenStatus]()) {
		resp.Headers[headerLocation] = &openapi3.HeaderRef{Value: &openapi3.Header{Parameter: openapi3.Parameter{
			Description: "the URL of the resource the request created or changed (the same as the answer's url)",
			Schema:      openapi3.NewStringSchema().WithFormat("uri").NewRef()}}}
	}
	var s *openapi3.SchemaRef
	switch t := r.ResponseBody(); t {
	case reflect.TypeFor[rawJSON]():
		s = openapi3.NewObjectSchema().WithAnyAdditionalProperties().NewRef()
		s.Value.Description = "an OpenAPI 3.0.3 document"
		desc += ": this document"
	case reflect.TypeFor[OpenObject]():
		s = openapi3.NewObjectSchema().WithAnyAdditionalProperties().NewRef()
		desc += ". The body is a JSON object whose shape this version of the document does not fix: it is defined by the issue that implements the endpoint (an open point of the spec)."
	default:
		var err error
		if s, err = b.gen.Response(t); err != nil {
			return nil, err
		}
		if t == reflect.TypeFor[JobAccepted]() {
			desc += ": the job is queued; nothing has run yet"
		}
	}
	resp.Content = openapi3.NewContentWithJSONSchemaRef(s)
	if hasTextReport(r.ResponseBody()) {
		desc += ". Content-negotiated by Accept (q-values and wildcards honoured): application/json (the default, also when Accept is absent or names none of these) or text/json, the same JSON under that Content-Type; text/plain, a readable text report. Errors are always JSON."
		resp.Content[mediaTextJSON] = &openapi3.MediaType{Schema: s}
		text := openapi3.NewStringSchema()
		text.Description = "the same result as a plain-text report (UTF-8)"
		resp.Content[mediaText] = &openapi3.MediaType{Schema: text.NewRef()}
	}
	resp.Description = &desc
	return resp, nil
}

// errorResponse registers (once) the component response of an error status
// with its codes and returns its name.
func (b *docBuilder) errorResponse(status int, codes []string) string {
	codes = slices.Clone(codes)
	sort.Strings(codes)
	parts := make([]string, len(codes))
	for i, c := range codes {
		parts[i] = upperCamel(c)
	}
	name := strings.Join(parts, "Or")
	if _, ok := b.responses[name]; ok {
		return name
	}
	lines := []string{strconv.Itoa(status) + " " + http.StatusText(status) + ". Error codes:"}
	examples := openapi3.Examples{}
	for _, c := range codes {
		d := errorDocs[c]
		lines = append(lines, "- "+c+": "+d.Meaning)
		details := d.Details
		if details == nil {
			details = map[string]any{}
		}
		examples[c] = &openapi3.ExampleRef{Value: &openapi3.Example{Summary: c,
			Value: ErrorBody{Error: ErrorObject{Code: c, Message: d.Example, Details: details}}}}
	}
	desc := strings.Join(lines, "\n")
	mt := &openapi3.MediaType{Schema: b.errorBody, Examples: examples}
	resp := &openapi3.Response{
		Description: &desc,
		Headers:     openapi3.Headers{headerRequestID: {Ref: headerRef + headerRequestID}},
		Content:     openapi3.Content{"application/json": mt},
		// x-error-codes lists, machine-readably, the codes of this answer.
		Extensions: map[string]any{"x-error-codes": codes},
	}
	switch status {
	case http.StatusTooManyRequests, http.StatusPaymentRequired, http.StatusConflict, http.StatusServiceUnavailable:
		resp.Headers[headerRetryAfter] = &openapi3.HeaderRef{Ref: headerRef + headerRetryAfter}
	case http.StatusMethodNotAllowed:
		resp.Headers[headerAllow] = &openapi3.HeaderRef{Ref: headerRef + headerAllow}
	}
	b.responses[name] = &openapi3.ResponseRef{Value: resp}
	return name
}

func errorStatus(code string) int {
	if st, ok := ErrorStatus[code]; ok {
		return st
	}
	return http.StatusInternalServerError
}

// paramDoc documents one parameter as the router checks it.
func paramDoc(p Param) *openapi3.Parameter {
	d := &openapi3.Parameter{Name: p.Name, In: string(p.In), Required: p.Required(), Description: p.Description}
	var s *openapi3.Schema
	switch p.Type {
	case reflect.TypeFor[int32]():
		s = openapi3.NewInt32Schema()
		s.Min, s.Max = floatPtr(p.Min), floatPtr(p.Max)
		if p.Default != "" {
			n, _ := strconv.Atoi(p.Default)
			s.Default = n
		}
	case reflect.TypeFor[bool](), reflect.TypeFor[*bool]():
		s = openapi3.NewBoolSchema()
	case timeType:
		s = openapi3.NewDateTimeSchema()
		d.Description = joinSentences(d.Description, "An RFC 3339 date-time; a plain date (YYYY-MM-DD) means that day's start, UTC.")
	default:
		s = openapi3.NewStringSchema()
		if len(p.Enum) > 0 {
			s.Enum = openapi.Strings(p.Enum)
		} else {
			s = s.WithMinLength(int64(p.MinLength)).WithMaxLength(int64(p.MaxLength))
		}
		if p.Default != "" {
			s.Default = p.Default
		}
	}
	d.Schema = s.NewRef()
	return d
}

func floatPtr(n *int64) *float64 {
	if n == nil {
		return nil
	}
	return openapi.Float(float64(*n))
}

func joinSentences(a, b string) string {
	if a == "" {
		return b
	}
	return strings.TrimSuffix(a, ".") + ". " + b
}

// lowerCamel turns a function name such as api-get-me into apiGetMe.
func lowerCamel(s string) string {
	u := []rune(upperCamel(s))
	if len(u) > 0 {
		u[0] = unicode.ToLower(u[0])
	}
	return string(u)
}

// upperCamel turns kebab or snake case into UpperCamel.
func upperCamel(s string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' || r == ' ' }) {
		r := []rune(part)
		r[0] = unicode.ToUpper(r[0])
		b.WriteString(string(r))
	}
	return b.String()
}

// documentErrorObject completes the envelope: the code is one of the
// error codes, and details is an object whose fields member lists the
// FieldErrors of a validation error.
func (b *docBuilder) documentErrorObject() error {
	fieldErr, err := b.gen.Response(reflect.TypeFor[validation.FieldError]())
	if err != nil {
		return err
	}
	obj := b.gen.Component("ErrorObject")
	codes := make([]string, 0, len(ErrorStatus))
	for c := range ErrorStatus {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	code := openapi3.NewStringSchema().WithEnum(openapi.Strings(codes)...)
	code.Description = "machine-readable error code; the HTTP status follows from it"
	obj.Properties["code"] = code.NewRef()
	msg := openapi3.NewStringSchema()
	msg.Description = "human-readable explanation"
	obj.Properties["message"] = msg.NewRef()
	fields := openapi3.NewArraySchema()
	fields.Items = fieldErr
	fields.Description = "with validation_error: one entry per invalid, unknown or ill-typed parameter, body member or header, sorted by field"
	fields.MaxItems = openapi3.Uint64Ptr(MaxListedFields)
	omitted := openapi3.NewIntegerSchema().WithMin(1)
	omitted.Description = fmt.Sprintf("with validation_error: how many more invalid fields there were beyond the %d listed", MaxListedFields)
	details := openapi3.NewObjectSchema().WithAnyAdditionalProperties().WithPropertyRef("fields", fields.NewRef()).
		WithPropertyRef(omittedFieldsKey, omitted.NewRef())
	details.Description = "always an object (empty when there is nothing to add); validation errors list every offending field under fields"
	obj.Properties["details"] = details.NewRef()
	return nil
}

// apiDescription is the document's description: the rules that hold across
// operations and the decisions this service takes on the spec's open points.
func apiDescription() string {
	q := func(ss []string) string { return "`" + strings.Join(ss, "`, `") + "`" }
	codes := make([]string, 0, len(ErrorStatus))
	for c := range ErrorStatus {
		codes = append(codes, c)
	}
	sort.Slice(codes, func(i, j int) bool {
		if ErrorStatus[codes[i]] != ErrorStatus[codes[j]] {
			return ErrorStatus[codes[i]] < ErrorStatus[codes[j]]
		}
		return codes[i] < codes[j]
	})
	var table strings.Builder
	table.WriteString("| code | status | meaning |\n|---|---|---|\n")
	var ext []string
	for _, c := range codes {
		d := errorDocs[c]
		fmt.Fprintf(&table, "| `%s` | %d | %s |\n", c, ErrorStatus[c], d.Meaning)
		if d.Extension {
			ext = append(ext, fmt.Sprintf("`%s` (%d)", c, ErrorStatus[c]))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, `brandlens measures how a brand appears in answers of AI platforms and turns what it finds into content work. This document is generated from the route table the router itself follows.

## Authentication
- Every /api/v1 request carries X-API-Key (never in the query string: ?api_key= is refused with 401 invalid_api_key), except the anonymous brand check. This document needs no key.
- Scopes are ordered: %s (publish implies read_write, which implies read). Each operation names the scope it needs in x-required-scope.
- Approval review (/api/tracker/approvals) needs a human (non-agent) key with the publish scope; agent keys can never approve.
- The site-content receiver takes no key: its body is signed with X-Service-Signature: sha256=<hex> (HMAC-SHA256 of the raw body).
- Every key has a requests-per-minute limit (rpm_limit on GET /api/v1/me), separate from credit ceilings.

## Errors
Every error body is {"error": {"code", "message", "details"}}; details is always an object.

%s
Added beyond the spec: %s. Answers with status 429 or 402 carry Retry-After (seconds). Every response carries X-Request-Id, the request's id: always the service's own (generated, or API Gateway's in AWS), so it names exactly one request. A caller's X-Request-Id matching %s is logged beside it as client_request_id; other values are ignored.

## Validation
- Unknown query parameters, parameters given more than once, ill-typed or out-of-range values, and unknown, ill-typed or repeated body members (at any depth: {"samples":1,"samples":5} is refused, naming samples) are 422 validation_error; details.fields names each one ({field, message}, sorted by field), so one answer lists every bad field — at most %d, with details.omittedFields counting the rest. Malformed JSON is named body, with the byte offset of the fault.
- Request bodies must be %s and hold one JSON object.
- Request bodies are capped at 1 MiB (%d bytes); larger ones are 413 payload_too_large.

## Asynchronous writes and idempotency
- Credit-metered writes answer 202 {jobId, status, credits_balance}: credits_balance is what the tenant has left after the job's hold. Follow the job with GET /api/v1/jobs/{id} or the execution.completed webhook event. Job statuses: %s; perPlatformStatus records each platform, so a run can partly succeed.
- Every write (POST, PUT, DELETE with an API key) takes Idempotency-Key (1 to %d characters; per tenant and API key; kept 24 hours). A retry with the same key and the same request (method, path and JSON body, whatever the order and spacing of its members) replays the original answer, status and body, with Idempotent-Replayed: true, and nothing runs twice, also under concurrent duplicates (they wait for the first one's answer). The same key with a different request is 409 idempotency_conflict; a retry while the first request still runs after 10 s is 409 with details.reason in_progress and Retry-After. Only successful answers are kept: after an error answer (a 422 included) the key is free for the corrected request. A replayed webhook creation shows the subscription's current secret: secrets are not copied into idempotency records.

## Credits
One credit ledger per tenant. Prices (defaults, configurable): 1 credit per platform per sample of a query run, charged only for the platforms that succeeded; 5 per gap detection; 2 per brief; 10 per article; 5 per re-scoring of a brand profile (flat); 0 per publish. Failed executions cost 0. A balance too small is 402 insufficient_credits; passing the daily ceiling (daily_credit_ceiling) is 429 credit_ceiling_reached.

## Content loop
- Gap detection (POST /api/v1/gaps/detect) judges each active query of a brand profile over its latest answers (the last 30 days, at most 5 runs) and gives it at most one tier, the first that holds: no_mention (never named), competitor_dominated (a competitor named first in most answers naming a tracked brand), low_visibility (named in fewer than half), weak_mention (named, but late or once in most answers, or a mean visibility score under 35). Each gap is one content opportunity; detecting again updates the gap of the same query and tier and resolves gaps that no longer hold.
- Opportunity lifecycle: open → brief_ready (generate-brief) → content_ready (generate-content) → published, plus dismissed. A write in a state that does not allow it is 409 invalid_state; a generation job that fails leaves the status where it was and costs 0.
- Brief formats: %s. Every model call (the exact prompt, the model, the answer, tokens and cost) and every platform call of a query run is in the audit log (GET /api/v1/audit).

## Pagination and limits
- GET /api/v1/citations: page default 1; pageSize default %d, maximum %d; newest first; hasMore tells whether another page follows. A numbered page reads every match before it, so page × pageSize may be at most %d (422 validation_error naming page beyond). Deeper reads go by cursor: every page answers nextCursor (null after the last page); pass it as cursor, instead of page, to get the page right after it, at any depth, with the same cost per page. A cursor is opaque (do not build or change one: a malformed cursor is 422 naming cursor), stays valid indefinitely, and only ever reads the caller's own citations; pages addressed by cursor answer page null.
- GET /api/v1/jobs: limit default %d, maximum %d; newest first.
- Brand check: 3 per day, plus a reCAPTCHA token.

## Values
- Platforms: %s.
- Sentiments: %s.
- Citation source types: %s (ai_response: cited inside an AI answer; organic_search: a classic search result; info_site: a reference, review or encyclopedia site).
- Autonomy levels of agent keys: %s (manual, auto-propose, auto-publish).
`,
		strings.Join(scopeValues, " < "), table.String(), strings.Join(ext, ", "), requestIDPattern.String(),
		MaxListedFields, q(JSONMediaTypes), DefaultMaxBody,
		q(jobs.Statuses), idempotency.MaxKeyLen, q(content.Formats),
		DefaultPageSize, MaxPageSize, MaxPageDepth, DefaultJobLimit, MaxJobLimit,
		q(platforms.All), q(citations.Sentiments), q(citations.SourceTypes), q(autonomyValues))
	return b.String()
}
