// Package jobs holds asynchronous jobs: every paid or long operation (a
// query run, gap detection, brief and content generation, publishing) is a
// job whose status clients poll or receive by webhook.
package jobs

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
)

// Job statuses.
const (
	StatusQueued    = "queued"
	StatusRunning   = "running"
	StatusSucceeded = "succeeded"
	StatusPartial   = "partial"
	StatusFailed    = "failed"
)

// Statuses lists every status in lifecycle order.
var Statuses = []string{StatusQueued, StatusRunning, StatusSucceeded, StatusPartial, StatusFailed}

// Job types.
const (
	TypeQueryRun          = "query_run"
	TypeGapDetection      = "gap_detection"
	TypeBriefGeneration   = "brief_generation"
	TypeContentGeneration = "content_generation"
	TypePublish           = "publish"
	// TypeRescore re-runs detection over a brand profile's stored answers.
	TypeRescore = "rescore"
)

// PlatformStatus is one platform's outcome within a query run.
type PlatformStatus struct {
	Status    string  `json:"status"`
	Error     *string `json:"error"`
	LatencyMS int64   `json:"latencyMs"`
	Cost      int64   `json:"cost"` // credits charged for this platform
	Model     *string `json:"model"`
	Samples   int     `json:"samples"`
	Mentions  int     `json:"mentions"`
	// MentionRate is the share of samples naming the brand, with its 95%
	// Wilson interval; null until the platform has finished.
	MentionRate *Rate `json:"mentionRate"`
	// Truncated: at least one answer was cut at the platform's output limit
	// (recorded as far as it went, never as a complete answer).
	Truncated bool `json:"truncated"`
	// CostUnknown: at least one answer's provider cost could not be priced
	// (a model missing from the price table), so the run's cost is a floor.
	CostUnknown bool `json:"costUnknown"`
}

// Rate is a proportion with its 95% Wilson score interval.
type Rate struct {
	Value float64 `json:"value"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
}

// Job is the job record (its wire shape on GET /api/v1/jobs/{id}).
type Job struct {
	ID                string                    `json:"id"`
	TenantID          int32                     `json:"tenantId"`
	Type              string                    `json:"type"`
	Status            string                    `json:"status"`
	QueryID           *int32                    `json:"queryId"`
	Platforms         []string                  `json:"platforms"`
	Samples           int                       `json:"samples"`
	PerPlatformStatus map[string]PlatformStatus `json:"perPlatformStatus"`
	CreditsReserved   int64                     `json:"creditsReserved"`
	CreditsCharged    int64                     `json:"creditsCharged"`
	Error             *string                   `json:"error"`
	CreatedAt         time.Time                 `json:"createdAt"`
	StartedAt         *time.Time                `json:"startedAt"`
	CompletedAt       *time.Time                `json:"completedAt"`
	// BrandProfileID is the profile a gap detection ran for.
	BrandProfileID *int32 `json:"brandProfileId,omitempty"`
	// OpportunityID is the opportunity a brief or article was written for.
	OpportunityID *string `json:"opportunityId,omitempty"`
	// Result is what a finished gap detection or generation produced (any
	// JSON; its shape depends on Type); absent for query runs.
	Result any `json:"result,omitempty"`
}

// ErrNotFound: no such job in the tenant.
var ErrNotFound = errors.New("jobs: not found")

// Key is the item key of a job.
func Key(tenantID int32, id string) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: "JOB#" + id}
}

const attrStatus = "status"

// collection is the jobs' documents in tbl (nil: for building items).
func collection(tbl store.Table) store.Collection[Job] {
	return store.Collection[Job]{
		Table: tbl, Name: "jobs", NotFound: ErrNotFound,
		Key:   func(j Job) store.Key { return Key(j.TenantID, j.ID) },
		Attrs: func(j Job) store.Item { return store.Item{attrStatus: j.Status} },
	}
}

// Repo reads jobs.
type Repo struct {
	tbl  store.Table
	docs store.Collection[Job]
}

// NewRepo returns the repository.
func NewRepo(tbl store.Table) *Repo { return &Repo{tbl: tbl, docs: collection(tbl)} }

// Get returns one job of the tenant.
func (r *Repo) Get(ctx context.Context, tenantID int32, id string) (Job, error) {
	return r.docs.Get(ctx, Key(tenantID, id))
}

// List returns up to limit jobs of the tenant, newest first, optionally of
// one status. Job ids are ULIDs, so sort-key order is creation order.
func (r *Repo) List(ctx context.Context, tenantID int32, status string, limit int) ([]Job, error) {
	q := store.Query{PK: tenants.PK(tenantID), SK: store.SKBeginsWith("JOB#"), Desc: true, Limit: limit}
	if status != "" {
		q.Filter = store.Eq(attrStatus, status)
	}
	var out []store.Item
	for len(out) < limit {
		page, err := r.tbl.Query(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("jobs: list: %w", err)
		}
		out = append(out, page.Items...)
		if page.Cursor == "" {
			break
		}
		q.Cursor = page.Cursor
	}
	if len(out) > limit {
		out = out[:limit]
	}
	return store.Docs[Job](out)
}

// CreateOp is the transaction op that creates j (status queued).
func CreateOp(j Job) (store.Op, error) {
	return collection(nil).PutOp(j, store.NotExists())
}

// UpdateOp replaces the job's document with j when its status is still
// fromStatus, so that a transition happens once even when a step is
// delivered twice.
func UpdateOp(j Job, fromStatus string) (store.Op, error) {
	return collection(nil).PutOp(j, store.Eq(attrStatus, fromStatus))
}

// Terminal reports whether status is final.
func Terminal(status string) bool {
	return status == StatusSucceeded || status == StatusPartial || status == StatusFailed
}
