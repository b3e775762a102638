package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/citations"
	"github.com/brandlens/brandlens/shared/competitors"
	"github.com/brandlens/brandlens/shared/credits"
	"github.com/brandlens/brandlens/shared/gaps"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/opportunities"
	"github.com/brandlens/brandlens/shared/publish"
	"github.com/brandlens/brandlens/shared/queries"
)

// Entitlement is the entitlement record of GET /api/v1/me. Credit amounts
// are integers (credits are indivisible).
type Entitlement struct {
	TenantID       int32    `json:"tenant_id"`
	KeyID          string   `json:"key_id"`
	IsAgent        bool     `json:"is_agent"`
	Scopes         []string `json:"scopes"`
	CreditsBalance int64    `json:"credits_balance"`
	// SpentToday is what was charged (captured) this UTC day; credits held
	// by running jobs are Held until their job settles.
	SpentToday         int64  `json:"spent_today"`
	Held               int64  `json:"held"`
	DailyCreditCeiling int64  `json:"daily_credit_ceiling"`
	RPMLimit           int64  `json:"rpm_limit"`
	AutonomyLevel      string `json:"autonomy_level"`
	PendingApprovals   int32  `json:"pending_approvals"`
	// Capabilities lists, sorted, what this key may do: the capability of
	// every route its scopes and agent flag admit.
	Capabilities []string `json:"capabilities"`
}

// CreditInfo is the answer of GET /api/v1/me/credits.
type CreditInfo struct {
	CreditsBalance     int64     `json:"credits_balance"`
	Held               int64     `json:"held"`
	Captured           int64     `json:"captured"`
	Granted            int64     `json:"granted"`
	SpentToday         int64     `json:"spent_today"`
	CommittedToday     int64     `json:"committed_today"`
	DailyCreditCeiling int64     `json:"daily_credit_ceiling"`
	RemainingToday     int64     `json:"remaining_today"`
	ResetsAt           time.Time `json:"resets_at"`
}

// NewCreditInfo is the credit ledger bal of a tenant whose daily ceiling
// is ceiling, at now, as GET /api/v1/me/credits (and the admin CLI) show it.
func NewCreditInfo(bal credits.Balance, ceiling int64, now time.Time) CreditInfo {
	now = now.UTC()
	return CreditInfo{
		CreditsBalance: bal.Available, Held: bal.Held, Captured: bal.Captured, Granted: bal.Granted,
		SpentToday: bal.SpentToday, CommittedToday: bal.CommittedToday, DailyCreditCeiling: ceiling,
		RemainingToday: max(0, min(bal.Available, ceiling-bal.CommittedToday)),
		ResetsAt:       now.Add(time.Duration(credits.SecondsToUTCMidnight(now)) * time.Second).Truncate(time.Second),
	}
}

// QueryList is the answer of GET /api/v1/queries.
type QueryList struct {
	Items []queries.Query `json:"items"`
}

// CompetitorList is the answer of GET /api/v1/competitors.
type CompetitorList struct {
	Items []competitors.Competitor `json:"items"`
}

// CitationPage is the answer of GET /api/v1/citations.
type CitationPage struct {
	Items []citations.Citation `json:"items"`
	// Page is null when the page was addressed by cursor.
	Page     *int `json:"page"`
	PageSize int  `json:"pageSize"`
	HasMore  bool `json:"hasMore"`
	// NextCursor continues after this page; null after the last one.
	NextCursor *string `json:"nextCursor"`
	// stored are the items as the store keeps them (the CitationDto
	// JSON), written out as they are instead of Items.
	stored []string
}

// MarshalJSON writes the stored items without decoding them.
func (p CitationPage) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := p.WriteJSON(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WriteJSON writes the page into b, the stored items as they are.
func (p CitationPage) WriteJSON(b *bytes.Buffer) error {
	type plain CitationPage // without this method
	if p.stored == nil {
		if p.Items == nil {
			p.Items = []citations.Citation{}
		}
		meta, err := json.Marshal(plain(p))
		b.Write(meta)
		return err
	}
	p.Items = nil
	meta, err := json.Marshal(plain(p))
	if err != nil {
		return err
	}
	const head = `{"items":null`
	if !bytes.HasPrefix(meta, []byte(head)) {
		return fmt.Errorf("httpapi: citation page encodes as %.40s…", meta)
	}
	n := len(meta) + 2
	for _, d := range p.stored {
		n += len(d) + 1
	}
	b.Grow(n)
	b.WriteString(`{"items":[`)
	for i, d := range p.stored {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(d)
	}
	b.WriteByte(']')
	b.Write(meta[len(head):])
	return nil
}

// JobList is the answer of GET /api/v1/jobs.
type JobList struct {
	Items []jobs.Job `json:"items"`
	// NextCursor continues after this page; null after the last one.
	NextCursor *string `json:"nextCursor"`
}

// JobAccepted is the 202 answer of every write that creates a job.
type JobAccepted struct {
	JobID  string `json:"jobId"`
	Status string `json:"status"`
	// CreditsBalance is the tenant's available credits after the job's
	// hold (the spec: "responses carry credits_balance").
	CreditsBalance int64 `json:"credits_balance"`
	// ApprovalID names the approval request the job waits for (an L0
	// agent's write, or a proposed publish); null when it runs at once.
	ApprovalID *string `json:"approvalId"`
}

// RunRequest is the PublicRunRequest body of POST /api/v1/queries/{id}/run.
type RunRequest struct {
	// Platforms is a subset of the query's platforms; absent (nil) runs them
	// all, and an empty list is refused.
	Platforms []string `json:"platforms"`
	// Samples per platform, 1..5 (default 1).
	Samples *int32 `json:"samples"`
}

// GapList is the answer of GET /api/v1/gaps.
type GapList struct {
	Items []gaps.Gap `json:"items"`
	// NextCursor continues after this page; null after the last one.
	NextCursor *string `json:"nextCursor"`
}

// OpportunityList is the answer of GET /api/v1/opportunities.
type OpportunityList struct {
	Items      []opportunities.Opportunity `json:"items"`
	NextCursor *string                     `json:"nextCursor"`
}

// AuditPage is the answer of GET /api/v1/audit.
type AuditPage struct {
	Items      []audit.Entry `json:"items"`
	NextCursor *string       `json:"nextCursor"`
}

// BrandProfile is a brand profile on the API.
type BrandProfile struct {
	ID        int32     `json:"id"`
	Name      string    `json:"name"`
	Aliases   []string  `json:"aliases"`
	Domains   []string  `json:"domains"`
	CreatedAt time.Time `json:"createdAt"`
	// UpdatedAt is createdAt until aliases or domains change.
	UpdatedAt time.Time `json:"updatedAt"`
}

// BrandProfileList is the answer of GET /api/v1/brand-profiles.
type BrandProfileList struct {
	Items []BrandProfile `json:"items"`
}

// UpdateBrandProfileRequest is the body of PUT /api/v1/brand-profiles/{id}:
// the members sent replace the profile's; absent ones stay.
type UpdateBrandProfileRequest struct {
	Aliases *[]string `json:"aliases" nullable:"false"`
	Domains *[]string `json:"domains" nullable:"false"`
}

// CreateQueryRequest is the body of POST /api/v1/queries.
type CreateQueryRequest struct {
	Text      string   `json:"text"`
	Platforms []string `json:"platforms"`
	Schedule  *string  `json:"schedule"`
	// BrandProfileID defaults to the tenant's first brand profile.
	BrandProfileID *int32 `json:"brandProfileId"`
}

// UpdateQueryRequest is the body of PUT /api/v1/queries/{id}: the members
// sent change; absent ones stay (schedule null clears the schedule).
type UpdateQueryRequest struct {
	Text      *string   `json:"text" nullable:"false"`
	Platforms *[]string `json:"platforms" nullable:"false"`
	Schedule  *string   `json:"schedule"`
	IsActive  *bool     `json:"isActive" nullable:"false"`
}

// CreateCompetitorRequest is the body of POST /api/v1/competitors.
type CreateCompetitorRequest struct {
	Name        string   `json:"name"`
	Aliases     []string `json:"aliases"`
	Domains     []string `json:"domains"`
	Description *string  `json:"description"`
}

// UpdateCompetitorRequest is the body of PUT /api/v1/competitors/{id}: the
// members sent change; absent ones stay.
type UpdateCompetitorRequest struct {
	Name        *string   `json:"name" nullable:"false"`
	Aliases     *[]string `json:"aliases" nullable:"false"`
	Domains     *[]string `json:"domains" nullable:"false"`
	Description *string   `json:"description" nullable:"false"`
}

// GapDetectRequest is the body of POST /api/v1/gaps/detect.
type GapDetectRequest struct {
	BrandProfileID int32 `json:"brandProfileId"`
}

// BriefRequest is the body of POST /api/v1/opportunities/{id}/generate-brief.
type BriefRequest struct {
	ContentFormat *string `json:"contentFormat"`
}

// ContentRequest is the body of POST /api/v1/opportunities/{id}/generate-content.
type ContentRequest struct {
	Persona *string `json:"persona"`
}

// PublishRequest is the body of POST /api/v1/opportunities/{id}/publish.
type PublishRequest struct {
	DestinationID string `json:"destinationId"`
	Mode          string `json:"mode" doc:"propose (an approval request; the job waits for the review) or execute (publishes now: a human key, an L2 agent, or an agent with an approved request)"`
	// Author overrides the destination's default author (extension).
	Author *string `json:"author" doc:"the article's author (at most 200 characters); default: the destination's defaultAuthor; never invented"`
}

// BrandCheckRequest is the body of POST /api/v1/brand-check.
type BrandCheckRequest struct {
	BrandName      *string `json:"brandName"`
	WebsiteURL     *string `json:"websiteUrl"`
	RecaptchaToken *string `json:"recaptchaToken"`
}

// PublishPayload is what a publish destination receives (PascalCase wire
// names, as the spec fixes them): the type publish sends, which parses
// itself as a receiver must (publish.ParsePayload: any casing of the
// names, SchemaVersion's major checked).
type PublishPayload = publish.Payload
