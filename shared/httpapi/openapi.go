package httpapi

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/brandlens/brandlens/shared/auth"
	"github.com/brandlens/brandlens/shared/citations"
	"github.com/brandlens/brandlens/shared/competitors"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/queries"
)

// The OpenAPI document is generated from the route table, the one
// definition the router also follows: paths, methods, parameters, guards,
// bodies and error codes cannot drift from what the service enforces.

// OpenAPIDocument is an OpenAPI 3.0.3 document.
type OpenAPIDocument struct {
	OpenAPI    string                             `json:"openapi"`
	Info       oaInfo                             `json:"info"`
	Servers    []oaServer                         `json:"servers"`
	Security   []map[string][]string              `json:"security"`
	Tags       []oaTag                            `json:"tags"`
	Paths      map[string]map[string]*oaOperation `json:"paths"`
	Components oaComponents                       `json:"components"`
	// Webhooks documents the event deliveries subscribers receive, shaped
	// like OpenAPI 3.1's top-level webhooks.
	Webhooks map[string]map[string]*oaOperation `json:"x-webhooks,omitempty"`
}

type oaInfo struct {
	Title       string `json:"title"`
	Version     string `json:"version"`
	Description string `json:"description"`
}

type oaServer struct {
	URL         string `json:"url"`
	Description string `json:"description,omitempty"`
}

type oaTag struct {
	Name string `json:"name"`
}

type oaOperation struct {
	OperationID   string                 `json:"operationId"`
	Summary       string                 `json:"summary,omitempty"`
	Description   string                 `json:"description,omitempty"`
	Tags          []string               `json:"tags,omitempty"`
	Security      []map[string][]string  `json:"security"`
	Parameters    []*oaParameter         `json:"parameters,omitempty"`
	RequestBody   *oaRequestBody         `json:"requestBody,omitempty"`
	Responses     map[string]*oaResponse `json:"responses"`
	RequiredScope string                 `json:"x-required-scope,omitempty"`
}

type oaParameter struct {
	Ref         string    `json:"$ref,omitempty"`
	Name        string    `json:"name,omitempty"`
	In          string    `json:"in,omitempty"`
	Description string    `json:"description,omitempty"`
	Required    bool      `json:"required,omitempty"`
	Schema      *oaSchema `json:"schema,omitempty"`
}

type oaRequestBody struct {
	Description string                  `json:"description,omitempty"`
	Required    bool                    `json:"required"`
	Content     map[string]*oaMediaType `json:"content"`
}

type oaResponse struct {
	Ref         string                  `json:"$ref,omitempty"`
	Description string                  `json:"description,omitempty"`
	Headers     map[string]*oaHeader    `json:"headers,omitempty"`
	Content     map[string]*oaMediaType `json:"content,omitempty"`
	// ErrorCodes lists, machine-readably, the error codes of an error
	// response.
	ErrorCodes []string `json:"x-error-codes,omitempty"`
}

type oaHeader struct {
	Ref         string    `json:"$ref,omitempty"`
	Description string    `json:"description,omitempty"`
	Schema      *oaSchema `json:"schema,omitempty"`
}

type oaMediaType struct {
	Schema   *oaSchema             `json:"schema"`
	Examples map[string]*oaExample `json:"examples,omitempty"`
}

type oaExample struct {
	Summary string `json:"summary,omitempty"`
	Value   any    `json:"value"`
}

type oaSecurityScheme struct {
	Type        string `json:"type"`
	Name        string `json:"name"`
	In          string `json:"in"`
	Description string `json:"description,omitempty"`
}

type oaComponents struct {
	Schemas         map[string]*oaSchema         `json:"schemas"`
	Responses       map[string]*oaResponse       `json:"responses"`
	Parameters      map[string]*oaParameter      `json:"parameters"`
	Headers         map[string]*oaHeader         `json:"headers"`
	SecuritySchemes map[string]*oaSecurityScheme `json:"securitySchemes"`
}

// oaSchema is the subset of the OpenAPI 3.0 schema object the generator
// emits.
type oaSchema struct {
	Ref                  string      `json:"$ref,omitempty"`
	AllOf                []*oaSchema `json:"allOf,omitempty"`
	Type                 string      `json:"type,omitempty"`
	Format               string      `json:"format,omitempty"`
	Description          string      `json:"description,omitempty"`
	Nullable             bool        `json:"nullable,omitempty"`
	Enum                 []any       `json:"enum,omitempty"`
	Default              any         `json:"default,omitempty"`
	Minimum              *int64      `json:"minimum,omitempty"`
	Maximum              *int64      `json:"maximum,omitempty"`
	MaxLength            *int64      `json:"maxLength,omitempty"`
	Items                *oaSchema   `json:"items,omitempty"`
	Properties           *oaProps    `json:"properties,omitempty"`
	Required             []string    `json:"required,omitempty"`
	AdditionalProperties any         `json:"additionalProperties,omitempty"`
}

// oaProps are schema properties kept in Go field order.
type oaProps struct {
	keys []string
	m    map[string]*oaSchema
}

func (p *oaProps) set(name string, s *oaSchema) {
	if p.m == nil {
		p.m = map[string]*oaSchema{}
	}
	if _, ok := p.m[name]; !ok {
		p.keys = append(p.keys, name)
	}
	p.m[name] = s
}

func (p *oaProps) get(name string) *oaSchema { return p.m[name] }

// MarshalJSON writes the properties as an object in declaration order.
func (p *oaProps) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range p.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		vb, err := json.Marshal(p.m[k])
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func i64(n int) *int64 { v := int64(n); return &v }

// The document is static: it is built once, on first request.
var openAPICache struct {
	once sync.Once
	doc  *OpenAPIDocument
}

func (s *Server) getOpenAPI(rq *Request) (any, error) {
	openAPICache.once.Do(func() { openAPICache.doc = OpenAPI(Routes) })
	return openAPICache.doc, nil
}

// Component names, security schemes and shared parameters and headers.
const (
	oaSchemaRef    = "#/components/schemas/"
	oaResponseRef  = "#/components/responses/"
	oaParameterRef = "#/components/parameters/"
	oaHeaderRef    = "#/components/headers/"

	secAPIKey           = "ApiKey"
	secServiceSignature = "ServiceSignature"

	paramIdempotencyKey = "IdempotencyKey"
	paramRequestID      = "RequestId"

	headerRequestID  = "X-Request-Id"
	headerRetryAfter = "Retry-After"
	headerAllow      = "Allow"

	maxIdempotencyKey = 255
	maxStringParam    = 500 // what parseParams accepts
	maxRunSamples     = 5
)

// jsonMediaTypes are the request body media types the router accepts.
var jsonMediaTypes = []string{"application/json", "text/json", "application/*+json"}

// componentNames names the components of the spec's DTOs by the spec's
// names; other types are named by their Go type name.
var componentNames = map[reflect.Type]string{
	reflect.TypeFor[citations.Citation]():          "CitationDto",
	reflect.TypeFor[citations.AICitationMetrics](): "AICitationMetricsDto",
	reflect.TypeFor[citations.EngagementMetrics](): "EngagementMetricsDto",
	reflect.TypeFor[citations.EntityMention]():     "EntityMentionDto",
	reflect.TypeFor[competitors.Competitor]():      "CompetitorDto",
	reflect.TypeFor[queries.Query]():               "MonitoringQuery",
	reflect.TypeFor[RunRequest]():                  "PublicRunRequest",
	reflect.TypeFor[BrandCheckRequest]():           "BrandCheckRequest",
	reflect.TypeFor[PublishPayload]():              "PublishPayload",
}

// fieldDoc refines the schema of one member, keyed "Component.member":
// what the Go type cannot say (value sets, bounds, meaning).
type fieldDoc struct {
	Enum        []string // of the value, or of the items of an array
	Min, Max    *int64
	Default     any
	Description string
	// Optional marks a non-pointer member of a request body that clients
	// may leave out.
	Optional bool
}

var (
	sentimentValues  = []string{citations.SentimentPositive, citations.SentimentNeutral, citations.SentimentNegative, citations.SentimentMixed}
	sourceTypeValues = []string{citations.SourceAIResponse, citations.SourceOrganicSearch, citations.SourceInfoSite}
	jobTypeValues    = []string{jobs.TypeQueryRun, jobs.TypeGapDetection, jobs.TypeBriefGeneration, jobs.TypeContentGeneration, jobs.TypePublish}
	scopeValues      = []string{string(auth.ScopeRead), string(auth.ScopeReadWrite), string(auth.ScopePublish)}
	autonomyValues   = []string{string(auth.L0), string(auth.L1), string(auth.L2)}
	publishModes     = []string{"propose", "execute"}
)

var fieldDocs = map[string]fieldDoc{
	"CitationDto.platform":           {Enum: platforms.All},
	"CitationDto.sentiment":          {Enum: sentimentValues},
	"CitationDto.citationSourceType": {Enum: sourceTypeValues, Description: "ai_response: cited inside an AI answer; organic_search: a classic search result; info_site: a reference, review or encyclopedia site"},
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
	"JobAccepted.status":                 {Enum: jobs.Statuses},
	"JobAccepted.jobId":                  {Description: "id of the job; poll GET /api/v1/jobs/{id} with it"},
	"PlatformStatus.cost":                {Description: "credits charged for this platform"},
	"PlatformStatus.mentionRate":         {Description: "share of samples naming the brand, with its 95% Wilson interval; null until the platform has finished"},
	"Entitlement.scopes":                 {Enum: scopeValues},
	"Entitlement.autonomy_level":         {Enum: autonomyValues, Description: "L0 manual, L1 auto-propose, L2 auto-publish"},
	"Entitlement.capabilities":           {Description: "sorted list of what this key may do: the capability of every route its scopes and agent flag admit"},
	"Entitlement.rpm_limit":              {Description: "requests per minute allowed for this key"},
	"CreditInfo.resets_at":               {Description: "next UTC midnight, when spent_today starts again from 0"},
	"CreditInfo.remaining_today":         {Description: "credits still spendable today: the balance, capped by what the daily ceiling leaves"},
	"PublicRunRequest.platforms":         {Enum: platforms.All, Description: "subset of the query's platforms; empty or absent runs them all"},
	"PublicRunRequest.samples": {Min: i64(1), Max: i64(maxRunSamples), Default: 1,
		Description: "samples per platform (AI answers vary from run to run; more samples give a mention rate with a tighter interval)"},
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
}

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
	CodeIdempotencyConflict: {Meaning: "the Idempotency-Key was already used for a different request",
		Example: "the Idempotency-Key was used for a different request"},
	CodeApprovalPending: {Meaning: "an approval request for this action is still pending",
		Example: "an approval request for this opportunity is pending"},
	CodeValidation: {Meaning: "a parameter or body member is invalid, unknown or ill-typed, or the body is not JSON; details.fields names each one",
		Example: "invalid field pageSize: must be at most 100",
		Details: map[string]any{"fields": []FieldError{{Field: "pageSize", Message: "must be at most 100"}}}},
	CodeRateLimitExceeded: {Meaning: "the key's requests-per-minute limit (rpm_limit), or the brand check's daily limit, is used up; Retry-After says when to retry",
		Example: "rate limit of 60 requests per minute exceeded", Details: map[string]any{"rpmLimit": 60}},
	CodeCreditCeilingReached: {Meaning: "the operation would pass the tenant's daily credit ceiling (daily_credit_ceiling); Retry-After gives the seconds until it resets at UTC midnight",
		Example: "the daily credit ceiling is reached"},
	CodeInsufficientCredits: {Meaning: "the credit balance cannot cover the operation's price",
		Example: "not enough credits for this operation"},
	CodeMethodNotAllowed: {Meaning: "the path exists, but not under this method; the Allow header and details.allow list the methods",
		Example: "method DELETE is not allowed on /api/v1/me", Details: map[string]any{"allow": []string{"GET"}}, Extension: true},
	CodePayloadTooLarge: {Meaning: "the request body exceeds 1 MiB (1048576 bytes)",
		Example: "request body exceeds 1048576 bytes", Details: map[string]any{"limit": DefaultMaxBody}, Extension: true},
	CodeInvalidSignature: {Meaning: "X-Service-Signature is missing or is not sha256=<hex> of the HMAC-SHA256 of the raw body",
		Example: "missing or invalid X-Service-Signature", Extension: true},
	CodeNotImplemented: {Meaning: "the endpoint is declared but its feature is not available in this deployment yet",
		Example: "GET /api/v1/gaps is not available yet", Extension: true},
	CodeInternal: {Meaning: "an unexpected failure; the X-Request-Id identifies it in the service's logs",
		Example: "internal error; the request id identifies it in our logs", Details: map[string]any{"requestId": "req_5f0c2a9e1b7d4c3a8e6f1d2b"}, Extension: true},
}

// creditNotes tell what each credit-metered function costs (default
// prices; the price list is configurable).
var creditNotes = map[string]string{
	"api-post-query-run":           "Credit-metered: 1 credit per platform per sample, charged only for the platforms that succeeded; a failed run costs 0.",
	"api-post-gaps-detect":         "Credit-metered: 5 credits per gap detection, charged only on success or partial success.",
	"api-post-opportunity-brief":   "Credit-metered: 2 credits per brief, charged only on success.",
	"api-post-opportunity-content": "Credit-metered: 10 credits per article, charged only on success.",
	"api-post-opportunity-publish": "Publishing costs 0 credits.",
}

// OpenAPI returns the OpenAPI 3.0.3 document of routes.
func OpenAPI(routes []Route) *OpenAPIDocument {
	b := &docBuilder{
		gen: newSchemaGen(),
		doc: &OpenAPIDocument{
			OpenAPI:  "3.0.3",
			Info:     oaInfo{Title: "brandlens API", Version: "1.0", Description: apiDescription()},
			Servers:  []oaServer{{URL: "/", Description: "the host serving this document"}},
			Security: []map[string][]string{{secAPIKey: {}}},
			Paths:    map[string]map[string]*oaOperation{},
		},
	}
	// Response types first: a type reached both ways is documented as
	// returned (every non-pointer member required).
	for i := range routes {
		if routes[i].Response != nil {
			b.gen.schemaFor(reflect.TypeOf(routes[i].Response))
		}
	}
	// Event payloads are sent, like responses: generated before requests.
	b.doc.Webhooks = b.webhookEvents()
	b.errorBody = b.gen.schemaFor(reflect.TypeFor[ErrorBody]())
	b.gen.documentErrorObject()
	b.gen.request = true
	tags := map[string]bool{}
	for i := range routes {
		r := &routes[i]
		if b.doc.Paths[r.Path] == nil {
			b.doc.Paths[r.Path] = map[string]*oaOperation{}
		}
		b.doc.Paths[r.Path][strings.ToLower(r.Method)] = b.operation(r)
		if r.Tag != "" && !tags[r.Tag] {
			tags[r.Tag] = true
			b.doc.Tags = append(b.doc.Tags, oaTag{Name: r.Tag})
		}
	}
	b.doc.Components = oaComponents{
		Schemas:   b.gen.schemas,
		Responses: b.responses,
		Parameters: map[string]*oaParameter{
			paramIdempotencyKey: {Name: "Idempotency-Key", In: "header",
				Description: "Makes a write safe to retry: a retry with the same key returns the original job and nothing runs twice; " +
					"the same key with a different request is 409 idempotency_conflict.",
				Schema: &oaSchema{Type: "string", MaxLength: i64(maxIdempotencyKey)}},
			paramRequestID: {Name: headerRequestID, In: "header",
				Description: "Optional correlation id, echoed in the X-Request-Id response header; a value not matching " +
					requestIDPattern.String() + " is replaced by a generated id.",
				Schema: &oaSchema{Type: "string", MaxLength: i64(128)}},
		},
		Headers: map[string]*oaHeader{
			headerRequestID: {Description: "The request's id (the caller's X-Request-Id when valid, else generated); sent on every response.",
				Schema: &oaSchema{Type: "string"}},
			headerRetryAfter: {Description: "Seconds to wait before retrying.", Schema: &oaSchema{Type: "integer", Format: "int32", Minimum: i64(0)}},
			headerAllow:      {Description: "Methods the path allows.", Schema: &oaSchema{Type: "string"}},
		},
		SecuritySchemes: map[string]*oaSecurityScheme{
			secAPIKey: {Type: "apiKey", In: "header", Name: "X-API-Key",
				Description: "API key created in the dashboard (Developer, API Keys); carries the scopes read, read_write or publish (publish implies read_write, which implies read). Never accepted in the query string."},
			secServiceSignature: {Type: "apiKey", In: "header", Name: "X-Service-Signature",
				Description: "HMAC-SHA256 signature of the exact raw request body, sent as sha256=<hex> (lowercase hex; the sha256= prefix is matched case-insensitively); the key is the site content secret as UTF-8 bytes."},
		},
	}
	return b.doc
}

type docBuilder struct {
	doc       *OpenAPIDocument
	gen       *schemaGen
	errorBody *oaSchema
	responses map[string]*oaResponse
}

func (b *docBuilder) operation(r *Route) *oaOperation {
	op := &oaOperation{
		OperationID: lowerCamel(r.Function),
		Summary:     r.Summary,
		Responses:   map[string]*oaResponse{},
	}
	if r.Tag != "" {
		op.Tags = []string{r.Tag}
	}
	var notes []string
	var codes []string
	switch r.Guard {
	case GuardAPIKey:
		op.Security = []map[string][]string{{secAPIKey: {}}}
		op.RequiredScope = string(r.Scope)
		notes = append(notes, "Needs an API key (X-API-Key) with the "+string(r.Scope)+" scope or a higher one.")
		codes = append(codes, CodeMissingAPIKey, CodeInvalidAPIKey, CodeInsufficientScope, CodeRateLimitExceeded)
	case GuardReviewer:
		op.Security = []map[string][]string{{secAPIKey: {}}}
		op.RequiredScope = string(auth.ScopePublish)
		notes = append(notes, "Needs the X-API-Key of a human (non-agent) key with the publish scope; agent keys can never review approvals.")
		codes = append(codes, CodeMissingAPIKey, CodeInvalidAPIKey, CodeInsufficientScope, CodeRateLimitExceeded)
	case GuardSignedBody:
		op.Security = []map[string][]string{{secServiceSignature: {}}}
		notes = append(notes, "No API key: the body must be signed with X-Service-Signature: sha256=<hex>, the HMAC-SHA256 of the raw body under the site content secret; the signature is checked before the body is parsed.")
		codes = append(codes, CodeInvalidSignature)
	case GuardAnonymous:
		op.Security = []map[string][]string{}
		notes = append(notes, "Anonymous: no API key.")
	default:
		op.Security = []map[string][]string{}
		notes = append(notes, "Public: no authentication.")
	}
	if n := creditNotes[r.Function]; n != "" {
		notes = append(notes, n)
	}
	jobWrite := r.Method == http.MethodPost && reflect.TypeOf(r.Response) == reflect.TypeFor[JobAccepted]()
	if jobWrite {
		notes = append(notes, "Asynchronous: answers 202 with jobId at once; follow the job with GET /api/v1/jobs/{id} or the execution.completed webhook event. Send Idempotency-Key to make retries safe.")
	}
	op.Description = strings.Join(notes, "\n\n")

	for _, p := range r.Params {
		op.Parameters = append(op.Parameters, paramDoc(p))
	}
	if jobWrite {
		op.Parameters = append(op.Parameters, &oaParameter{Ref: oaParameterRef + paramIdempotencyKey})
	}
	op.Parameters = append(op.Parameters, &oaParameter{Ref: oaParameterRef + paramRequestID})

	if r.Request != nil {
		s := b.gen.schemaFor(reflect.TypeOf(r.Request))
		rb := &oaRequestBody{
			Description: "A JSON object; unknown or ill-typed members are 422 validation_error naming each one.",
			Required:    len(b.gen.resolve(s).Required) > 0,
			Content:     map[string]*oaMediaType{},
		}
		for _, mt := range jsonMediaTypes {
			rb.Content[mt] = &oaMediaType{Schema: s}
		}
		op.RequestBody = rb
	}

	op.Responses[strconv.Itoa(r.Status)] = b.success(r)

	codes = append(codes, r.Errors...)
	// Unknown query parameters are refused on every route.
	codes = append(codes, CodeValidation)
	if r.Request != nil || r.Method == http.MethodPost || r.Method == http.MethodPut || r.Method == http.MethodPatch {
		codes = append(codes, CodePayloadTooLarge)
	}
	codes = append(codes, CodeNotFound, CodeMethodNotAllowed, CodeInternal)
	if sameFunc(r.Handle, (*Server).notImplemented) {
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
		op.Responses[strconv.Itoa(st)] = &oaResponse{Ref: oaResponseRef + b.errorResponse(st, cs)}
	}
	return op
}

func (b *docBuilder) success(r *Route) *oaResponse {
	resp := &oaResponse{
		Description: http.StatusText(r.Status),
		Headers:     map[string]*oaHeader{headerRequestID: {Ref: oaHeaderRef + headerRequestID}},
	}
	var s *oaSchema
	switch {
	case r.Response != nil:
		s = b.gen.schemaFor(reflect.TypeOf(r.Response))
		if reflect.TypeOf(r.Response) == reflect.TypeFor[JobAccepted]() {
			resp.Description += ": the job is queued; nothing has run yet"
		}
	case sameFunc(r.Handle, (*Server).getOpenAPI):
		s = &oaSchema{Type: "object", AdditionalProperties: true, Description: "an OpenAPI 3.0.3 document"}
		resp.Description += ": this document"
	default:
		s = &oaSchema{Type: "object", AdditionalProperties: true}
		resp.Description += ". The body is a JSON object whose shape this version of the document does not fix: it is defined by the issue that implements the endpoint (an open point of the spec)."
	}
	resp.Content = map[string]*oaMediaType{"application/json": {Schema: s}}
	return resp
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
	if b.responses == nil {
		b.responses = map[string]*oaResponse{}
	}
	if _, ok := b.responses[name]; ok {
		return name
	}
	lines := []string{strconv.Itoa(status) + " " + http.StatusText(status) + ". Error codes:"}
	examples := map[string]*oaExample{}
	for _, c := range codes {
		d := errorDocs[c]
		lines = append(lines, "- "+c+": "+d.Meaning)
		details := d.Details
		if details == nil {
			details = map[string]any{}
		}
		examples[c] = &oaExample{Summary: c, Value: ErrorBody{Error: ErrorObject{Code: c, Message: d.Example, Details: details}}}
	}
	resp := &oaResponse{
		Description: strings.Join(lines, "\n"),
		Headers:     map[string]*oaHeader{headerRequestID: {Ref: oaHeaderRef + headerRequestID}},
		Content:     map[string]*oaMediaType{"application/json": {Schema: b.errorBody, Examples: examples}},
		ErrorCodes:  codes,
	}
	switch status {
	case http.StatusTooManyRequests, http.StatusPaymentRequired:
		resp.Headers[headerRetryAfter] = &oaHeader{Ref: oaHeaderRef + headerRetryAfter}
	case http.StatusMethodNotAllowed:
		resp.Headers[headerAllow] = &oaHeader{Ref: oaHeaderRef + headerAllow}
	}
	b.responses[name] = resp
	return name
}

func errorStatus(code string) int {
	if st, ok := ErrorStatus[code]; ok {
		return st
	}
	return http.StatusInternalServerError
}

func sameFunc(a, b func(*Server, *Request) (any, error)) bool {
	if a == nil || b == nil {
		return false
	}
	return reflect.ValueOf(a).Pointer() == reflect.ValueOf(b).Pointer()
}

func paramDoc(p Param) *oaParameter {
	d := &oaParameter{Name: p.Name, In: "query", Required: p.InPath, Description: p.Description}
	if p.InPath {
		d.In = "path"
	}
	s := &oaSchema{}
	switch p.Type {
	case TypeInt32:
		s.Type, s.Format = "integer", "int32"
		s.Minimum = i64(p.Min)
		if p.Max > 0 {
			s.Maximum = i64(p.Max)
		}
	case TypeBool:
		s.Type = "boolean"
	case TypeDateTime:
		s.Type, s.Format = "string", "date-time"
		d.Description = joinSentences(d.Description, "An RFC 3339 date-time; a plain date (YYYY-MM-DD) means that day's start, UTC.")
	default:
		s.Type = "string"
		if len(p.Enum) > 0 {
			s.Enum = stringsToAny(p.Enum)
		} else {
			s.MaxLength = i64(maxStringParam)
		}
	}
	if p.Default != nil {
		s.Default = p.Default
	}
	d.Schema = s
	return d
}

func joinSentences(a, b string) string {
	if a == "" {
		return b
	}
	return strings.TrimSuffix(a, ".") + ". " + b
}

func stringsToAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// lowerCamel turns a function name such as api-get-me into apiGetMe.
func lowerCamel(s string) string {
	u := upperCamel(s)
	if u == "" {
		return ""
	}
	r := []rune(u)
	r[0] = unicode.ToLower(r[0])
	return string(r)
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

// schemaGen builds component schemas from Go types the way encoding/json
// renders them.
type schemaGen struct {
	schemas map[string]*oaSchema
	names   map[reflect.Type]string
	// request: components created now describe request bodies, whose
	// slices, maps and documented optional members clients may omit.
	request bool
}

func newSchemaGen() *schemaGen {
	return &schemaGen{schemas: map[string]*oaSchema{}, names: map[reflect.Type]string{}}
}

var (
	timeType          = reflect.TypeFor[time.Time]()
	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	componentNameBad  = regexp.MustCompile(`[^A-Za-z0-9._-]`)
)

// schemaFor returns the schema of t: a $ref for named structs (registering
// their component), inline otherwise.
func (g *schemaGen) schemaFor(t reflect.Type) *oaSchema {
	switch {
	case t == timeType:
		return &oaSchema{Type: "string", Format: "date-time"}
	case t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface &&
		(t.Implements(jsonMarshalerType) || reflect.PointerTo(t).Implements(jsonMarshalerType)):
		return &oaSchema{Description: "any JSON value"}
	case t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface &&
		(t.Implements(textMarshalerType) || reflect.PointerTo(t).Implements(textMarshalerType)):
		return &oaSchema{Type: "string"}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return nullable(g.schemaFor(t.Elem()))
	case reflect.Struct:
		if t.Name() == "" {
			return g.object(t, "")
		}
		return &oaSchema{Ref: oaSchemaRef + g.component(t)}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return &oaSchema{Type: "string", Format: "byte", Nullable: true}
		}
		return &oaSchema{Type: "array", Items: g.schemaFor(t.Elem()), Nullable: true}
	case reflect.Array:
		return &oaSchema{Type: "array", Items: g.schemaFor(t.Elem())}
	case reflect.Map:
		return &oaSchema{Type: "object", AdditionalProperties: g.schemaFor(t.Elem()), Nullable: true}
	case reflect.Interface:
		return &oaSchema{Description: "any JSON value", Nullable: true}
	case reflect.String:
		return &oaSchema{Type: "string"}
	case reflect.Bool:
		return &oaSchema{Type: "boolean"}
	case reflect.Int8, reflect.Int16, reflect.Int32:
		return &oaSchema{Type: "integer", Format: "int32"}
	case reflect.Int, reflect.Int64:
		return &oaSchema{Type: "integer", Format: "int64"}
	case reflect.Uint8, reflect.Uint16:
		return &oaSchema{Type: "integer", Format: "int32", Minimum: i64(0)}
	case reflect.Uint, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return &oaSchema{Type: "integer", Format: "int64", Minimum: i64(0)}
	case reflect.Float32:
		return &oaSchema{Type: "number", Format: "float"}
	case reflect.Float64:
		return &oaSchema{Type: "number", Format: "double"}
	}
	return &oaSchema{Description: "any JSON value"}
}

func nullable(s *oaSchema) *oaSchema {
	if s.Ref != "" {
		return &oaSchema{AllOf: []*oaSchema{s}, Nullable: true}
	}
	s.Nullable = true
	return s
}

// component returns the component name of struct type t, generating its
// schema on first use.
func (g *schemaGen) component(t reflect.Type) string {
	if n, ok := g.names[t]; ok {
		return n
	}
	name := componentNames[t]
	if name == "" {
		name = componentNameBad.ReplaceAllString(t.Name(), "_")
	}
	if g.taken(name) {
		pkg := t.PkgPath()
		pkg = pkg[strings.LastIndex(pkg, "/")+1:]
		base := upperCamel(pkg) + name
		name = base
		for i := 2; g.taken(name); i++ {
			name = base + strconv.Itoa(i)
		}
	}
	g.names[t] = name
	g.schemas[name] = nil // reserved while its members are generated
	g.schemas[name] = g.object(t, name)
	return name
}

func (g *schemaGen) taken(name string) bool {
	_, ok := g.schemas[name]
	return ok
}

// resolve follows a $ref (or a nullable allOf wrapper) to its component.
func (g *schemaGen) resolve(s *oaSchema) *oaSchema {
	for s != nil {
		switch {
		case s.Ref != "":
			s = g.schemas[strings.TrimPrefix(s.Ref, oaSchemaRef)]
		case len(s.AllOf) == 1:
			s = s.AllOf[0]
		default:
			return s
		}
	}
	return &oaSchema{}
}

// jsonField is one member of a struct as encoding/json renders it.
type jsonField struct {
	name      string
	typ       reflect.Type
	omitEmpty bool
	asString  bool
}

// jsonFieldsOf lists the members of struct t in order, promoting the
// members of untagged embedded structs.
func jsonFieldsOf(t reflect.Type) []jsonField {
	var out []jsonField
	seen := map[string]bool{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				for _, ef := range jsonFieldsOf(et) {
					if !seen[ef.name] {
						seen[ef.name] = true
						out = append(out, ef)
					}
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if seen[name] {
			continue
		}
		seen[name] = true
		jf := jsonField{name: name, typ: f.Type}
		for o := range strings.SplitSeq(opts, ",") {
			switch o {
			case "omitempty", "omitzero":
				jf.omitEmpty = true
			case "string":
				jf.asString = true
			}
		}
		out = append(out, jf)
	}
	return out
}

// object builds the schema of struct t (component name comp, "" when
// inline).
func (g *schemaGen) object(t reflect.Type, comp string) *oaSchema {
	s := &oaSchema{Type: "object", Properties: &oaProps{}}
	for _, f := range jsonFieldsOf(t) {
		fs := g.schemaFor(f.typ)
		if f.asString {
			fs = &oaSchema{Type: "string", Nullable: f.typ.Kind() == reflect.Pointer}
		}
		doc := fieldDocs[comp+"."+f.name]
		fs = applyFieldDoc(fs, doc)
		s.Properties.set(f.name, fs)
		if g.required(f, doc) {
			s.Required = append(s.Required, f.name)
		}
	}
	return s
}

// required: a returned member is always present unless it is a pointer or
// omitted when empty; a request member must be sent when it is a plain
// value the spec does not call optional.
func (g *schemaGen) required(f jsonField, doc fieldDoc) bool {
	k := f.typ.Kind()
	if f.omitEmpty || k == reflect.Pointer || doc.Optional {
		return false
	}
	if g.request && (k == reflect.Slice || k == reflect.Map || k == reflect.Interface) {
		return false
	}
	return true
}

func applyFieldDoc(s *oaSchema, d fieldDoc) *oaSchema {
	if d.Description != "" {
		if s.Ref != "" {
			s = &oaSchema{AllOf: []*oaSchema{s}}
		}
		s.Description = d.Description
	}
	target := s
	if s.Type == "array" && s.Items != nil {
		target = s.Items
	}
	if len(d.Enum) > 0 {
		target.Enum = stringsToAny(d.Enum)
		if target.Nullable {
			target.Enum = append(target.Enum, nil)
		}
	}
	if d.Min != nil {
		target.Minimum = d.Min
	}
	if d.Max != nil {
		target.Maximum = d.Max
	}
	if d.Default != nil {
		target.Default = d.Default
	}
	return s
}

// documentErrorObject completes the envelope: the code is one of the
// error codes, and details is an object whose fields member lists the
// FieldErrors of a validation error.
func (g *schemaGen) documentErrorObject() {
	obj := g.schemas[g.component(reflect.TypeFor[ErrorObject]())]
	fieldErr := g.component(reflect.TypeFor[FieldError]())
	codes := make([]string, 0, len(ErrorStatus))
	for c := range ErrorStatus {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	if code := obj.Properties.get("code"); code != nil {
		code.Enum = stringsToAny(codes)
		code.Description = "machine-readable error code; the HTTP status follows from it"
	}
	if msg := obj.Properties.get("message"); msg != nil {
		msg.Description = "human-readable explanation"
	}
	details := &oaSchema{
		Type:                 "object",
		Description:          "always an object (empty when there is nothing to add); validation errors list every offending field under fields",
		Properties:           &oaProps{},
		AdditionalProperties: true,
	}
	details.Properties.set("fields", &oaSchema{Type: "array", Items: &oaSchema{Ref: oaSchemaRef + fieldErr},
		Description: "with validation_error: one entry per invalid, unknown or ill-typed parameter, body member or header, sorted by field"})
	obj.Properties.set("details", details)
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
Added beyond the spec: %s. Answers with status 429 or 402 carry Retry-After (seconds). Every response carries X-Request-Id: the caller's own X-Request-Id when it matches %s, otherwise a generated id.

## Validation
- Unknown query parameters, parameters given more than once, ill-typed or out-of-range values, and unknown or ill-typed body members are 422 validation_error; details.fields names each one ({field, message}), so one answer lists every bad field.
- Request bodies must be %s and hold one JSON object.
- Request bodies are capped at 1 MiB (%d bytes); larger ones are 413 payload_too_large.

## Asynchronous writes and idempotency
- Credit-metered writes answer 202 {jobId, status}. Follow the job with GET /api/v1/jobs/{id} or the execution.completed webhook event. Job statuses: %s; perPlatformStatus records each platform, so a run can partly succeed.
- Send Idempotency-Key (at most %d characters) with a write: a retry with the same key returns the original job and nothing runs twice; the same key with a different request is 409 idempotency_conflict.

## Credits
One credit ledger per tenant. Prices (defaults, configurable): 1 credit per platform per sample of a query run, charged only for the platforms that succeeded; 5 per gap detection; 2 per brief; 10 per article; 0 per publish. Failed executions cost 0. A balance too small is 402 insufficient_credits; passing the daily ceiling (daily_credit_ceiling) is 429 credit_ceiling_reached.

## Pagination and limits
- GET /api/v1/citations: page default 1; pageSize default %d, maximum %d; newest first; hasMore tells whether another page follows.
- GET /api/v1/jobs: limit default %d, maximum %d; newest first.
- Brand check: 3 per day, plus a reCAPTCHA token.

## Values
- Platforms: %s.
- Sentiments: %s.
- Citation source types: %s (ai_response: cited inside an AI answer; organic_search: a classic search result; info_site: a reference, review or encyclopedia site).
- Autonomy levels of agent keys: %s (manual, auto-propose, auto-publish).
`,
		strings.Join(scopeValues, " < "), table.String(), strings.Join(ext, ", "), requestIDPattern.String(),
		q(jsonMediaTypes), DefaultMaxBody,
		q(jobs.Statuses), maxIdempotencyKey,
		DefaultPageSize, MaxPageSize, DefaultJobLimit, MaxJobLimit,
		q(platforms.All), q(sentimentValues), q(sourceTypeValues), q(autonomyValues))
	return b.String()
}
