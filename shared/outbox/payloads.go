package outbox

import "time"

// The data payload of every event type. An event's JSON envelope is
// {"event_id","type","created_at","tenant_id","data"}; data is one of the
// types below, chosen by type. Producers build events with
// New(tenantID, <type>, <Type>Data{…}, now); Payloads and Fires document
// them (README, /openapi.json x-webhooks). Members are camelCase like the
// rest of the API; nullable members are pointers.

// ExecutionData is the data of execution.started, execution.completed and
// execution.failed. Status is running (started), succeeded or partial
// (completed) or failed (failed); PerPlatformStatus summarises each
// platform's outcome (platform → status; GET /api/v1/jobs/{jobId} has the
// details); a failed job charges 0 credits and says why in error. JobType
// tells query runs from gap detection, generation and publish jobs, whose
// queryId is null (as on the job record) and platforms and samples empty.
type ExecutionData struct {
	JobID             string            `json:"jobId"`
	JobType           string            `json:"jobType"`
	QueryID           *int32            `json:"queryId"`
	Status            string            `json:"status"`
	Platforms         []string          `json:"platforms"`
	Samples           int               `json:"samples"`
	PerPlatformStatus map[string]string `json:"perPlatformStatus"`
	CreditsCharged    int64             `json:"creditsCharged"`
	Error             string            `json:"error,omitempty"`
}

// MentionDetectedData is the data of mention.detected: one sampled AI
// answer of a run names the tenant's brand.
type MentionDetectedData struct {
	JobID              string  `json:"jobId"`
	QueryID            int32   `json:"queryId"`
	Platform           string  `json:"platform"`
	Sample             int     `json:"sample"`
	VisibilityResultID int32   `json:"visibilityResultId"`
	CitationID         int32   `json:"citationId"` // 0 when the answer cited no source
	Brand              string  `json:"brand"`
	Verdict            string  `json:"verdict"`
	Sentiment          string  `json:"sentiment"` // positive | neutral | negative | mixed
	Confidence         float64 `json:"confidence"`
	Evidence           string  `json:"evidence"`
	VisibilityScore    int     `json:"visibilityScore"` // 0..100
}

// VisibilityDroppedData is the data of visibility.dropped: a query's
// average visibility score (0–100) on a platform fell below the previous
// run's.
type VisibilityDroppedData struct {
	JobID         string  `json:"jobId"`
	QueryID       int32   `json:"queryId"`
	Platform      string  `json:"platform"`
	PreviousScore float64 `json:"previousScore"`
	CurrentScore  float64 `json:"currentScore"`
	PreviousJobID string  `json:"previousJobId"`
}

// CompetitorEnteredData is the data of competitor.entered: a brand appeared
// in answers for the first time — a tracked competitor's first mention, or
// an untracked brand discovered beside the tracked ones (dataSource
// detected).
type CompetitorEnteredData struct {
	CompetitorID int32     `json:"competitorId"`
	Name         string    `json:"name"`
	DataSource   string    `json:"dataSource"`
	JobID        string    `json:"jobId"`
	QueryID      int32     `json:"queryId"`
	Platforms    []string  `json:"platforms"`
	DetectedAt   time.Time `json:"detectedAt"`
}

// GapDetectedData is the data of gap.detected: gap detection found a
// visibility gap (one of four tiers).
type GapDetectedData struct {
	GapID         string   `json:"gapId"`
	JobID         string   `json:"jobId"`
	Tier          string   `json:"tier"`
	Topic         string   `json:"topic"`
	QueryID       *int32   `json:"queryId"`
	Platforms     []string `json:"platforms"`
	Competitors   []string `json:"competitors"` // named where the brand is missing
	OpportunityID *string  `json:"opportunityId"`
}

// OpportunityCreatedData is the data of opportunity.created.
type OpportunityCreatedData struct {
	OpportunityID string  `json:"opportunityId"`
	Title         string  `json:"title"`
	Status        string  `json:"status"`
	Tier          string  `json:"tier"`
	GapID         *string `json:"gapId"`
	QueryID       *int32  `json:"queryId"`
	Priority      int     `json:"priority"` // 0..100
}

// ContentBriefGeneratedData is the data of content.brief_generated.
type ContentBriefGeneratedData struct {
	OpportunityID string `json:"opportunityId"`
	JobID         string `json:"jobId"`
	ContentFormat string `json:"contentFormat"`
	Title         string `json:"title"`
}

// ContentGeneratedData is the data of content.generated: an article was
// written for an opportunity.
type ContentGeneratedData struct {
	OpportunityID  string `json:"opportunityId"`
	JobID          string `json:"jobId"`
	ContentVersion string `json:"contentVersion"`
	Title          string `json:"title"`
	WordCount      int    `json:"wordCount"`
}

// ContentPublishedData is the data of content.published: a destination
// answered 2xx to the publish POST (spec: opportunityId, liveUrl,
// indexNowPinged).
type ContentPublishedData struct {
	OpportunityID  string    `json:"opportunityId"`
	LiveURL        string    `json:"liveUrl"`
	IndexNowPinged bool      `json:"indexNowPinged"`
	DestinationID  string    `json:"destinationId"`
	JobID          string    `json:"jobId"`
	PublishedAt    time.Time `json:"publishedAt"`
}

// ContentCitedData is the data of content.cited: an AI answer cites a page
// the service published for the tenant.
type ContentCitedData struct {
	OpportunityID string `json:"opportunityId"`
	LiveURL       string `json:"liveUrl"`
	CitationID    int32  `json:"citationId"`
	QueryID       int32  `json:"queryId"`
	Platform      string `json:"platform"`
	JobID         string `json:"jobId"`
}

// CreditLowData is the data of credit.low: the available balance fell
// below the low threshold, max(10, 10% of credits granted). It fires once
// per crossing; a grant re-arms it.
type CreditLowData struct {
	Balance   int64 `json:"balance"`
	Threshold int64 `json:"threshold"`
	Granted   int64 `json:"granted"`
}

// CreditCeilingReachedData is the data of credit.ceiling_reached: the
// credits committed today (UTC: held by running jobs or captured) reached
// the daily ceiling; credit-metered writes that would pass it answer 429
// credit_ceiling_reached until resetsAt. Once per UTC day. SpentToday is
// the captured part.
type CreditCeilingReachedData struct {
	Ceiling        int64     `json:"ceiling"`
	SpentToday     int64     `json:"spentToday"`
	CommittedToday int64     `json:"committedToday"`
	ResetsAt       time.Time `json:"resetsAt"`
}

// APIKeyRevokedData is the data of api_key.revoked.
type APIKeyRevokedData struct {
	KeyID     string    `json:"keyId"`
	Hint      string    `json:"hint"` // the key's first characters
	Name      string    `json:"name"`
	RevokedAt time.Time `json:"revokedAt"`
}

// WebhookPingData is the data of webhook.ping, sent to one subscription by
// POST /api/v1/webhooks/{id}/ping.
type WebhookPingData struct {
	SubscriptionID string `json:"subscriptionId"`
	Message        string `json:"message"`
}

// Payloads maps every event type to a zero value of its data type.
var Payloads = map[string]any{
	ExecutionStarted:      ExecutionData{},
	ExecutionCompleted:    ExecutionData{},
	ExecutionFailed:       ExecutionData{},
	MentionDetected:       MentionDetectedData{},
	VisibilityDropped:     VisibilityDroppedData{},
	GapDetected:           GapDetectedData{},
	CompetitorEntered:     CompetitorEnteredData{},
	OpportunityCreated:    OpportunityCreatedData{},
	ContentBriefGenerated: ContentBriefGeneratedData{},
	ContentGenerated:      ContentGeneratedData{},
	ContentPublished:      ContentPublishedData{},
	ContentCited:          ContentCitedData{},
	CreditLow:             CreditLowData{},
	CreditCeilingReached:  CreditCeilingReachedData{},
	APIKeyRevoked:         APIKeyRevokedData{},
	WebhookPing:           WebhookPingData{},
}

// Fires says when each event type is emitted.
var Fires = map[string]string{
	ExecutionStarted:      "a job leaves the queue and starts running (status running)",
	ExecutionCompleted:    "a job ends succeeded or partial; the way to learn a job has finished",
	ExecutionFailed:       "a job ends failed (0 credits charged)",
	MentionDetected:       "a sampled AI answer of a run names the tenant's brand, once per answer",
	VisibilityDropped:     "a query's average visibility score on a platform falls below the previous run's",
	GapDetected:           "gap detection finds a visibility gap, once per gap",
	CompetitorEntered:     "a brand appears in answers for the first time: a tracked competitor's first mention, or an untracked brand discovered beside the tracked ones",
	OpportunityCreated:    "a content opportunity is created (from a gap or by hand)",
	ContentBriefGenerated: "a brief was generated for an opportunity",
	ContentGenerated:      "an article was generated for an opportunity",
	ContentPublished:      "a destination answered 2xx to the publish POST; the live URL is recorded",
	ContentCited:          "an AI answer cites a page the service published for the tenant",
	CreditLow:             "the available credit balance falls below max(10, 10% of credits granted); once per crossing, re-armed by a grant",
	CreditCeilingReached:  "credits spent today (UTC) reach the daily credit ceiling; once per UTC day",
	APIKeyRevoked:         "an API key of the tenant is revoked",
	WebhookPing:           "POST /api/v1/webhooks/{id}/ping; delivered to that subscription only, whatever its event list",
}
