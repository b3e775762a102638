// Package jobs holds asynchronous jobs: every paid or long operation (a
// query run, gap detection, brief and content generation, publishing) is a
// job whose status clients poll or receive by webhook.
package jobs

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/timeline"
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

// Types lists every job type (the jobs sweep treats each; a type missing
// here would never be reaped or restarted).
var Types = []string{TypeQueryRun, TypeGapDetection, TypeBriefGeneration, TypeContentGeneration, TypePublish, TypeRescore}

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
	// ApprovalID is the approval request the job waits for, or was
	// authorized by; AwaitingApproval holds while it is pending.
	ApprovalID       *string `json:"approvalId,omitempty"`
	AwaitingApproval bool    `json:"awaitingApproval,omitempty"`
	// DestinationID is where a publish job publishes.
	DestinationID *string `json:"destinationId,omitempty"`
}

// ErrNotFound: no such job in the tenant.
var ErrNotFound = errors.New("jobs: not found")

// Key is the item key of a job.
func Key(tenantID int32, id string) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: "JOB#" + id}
}

const attrStatus = "status"

// unfinishedPK is the GSI1 partition key of the sparse index of unfinished
// jobs: a job's item carries it while the job is queued or running, and
// loses it with the write that settles the job, so the sweep reads every
// unfinished job of every tenant, oldest first, and nothing else. It is
// written over store.WriteShards shards (by job id); jobs indexed before
// the sharding are under the key itself, which the sweep reads too.
const unfinishedPK = "JOBS#unfinished"

// collection is the jobs' documents in tbl (nil: for building items).
func collection(tbl store.Table) store.Collection[Job] {
	return store.Collection[Job]{
		Table: tbl, Name: "jobs", NotFound: ErrNotFound,
		Key: func(j Job) store.Key { return Key(j.TenantID, j.ID) },
		Attrs: func(j Job) store.Item {
			it := store.Item{attrStatus: j.Status}
			if !Terminal(j.Status) {
				it[store.AttrGSI1PK] = store.ShardedPK(unfinishedPK, j.ID)
				it[store.AttrGSI1SK] = j.ID + "#" + tenants.PK(j.TenantID)
			}
			return it
		},
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

// ErrInvalidCursor: a list cursor that no page of this list handed out.
var ErrInvalidCursor = errors.New("jobs: invalid cursor")

// jobIDRE is what a job id looks like (a lowercase ULID in practice).
var jobIDRE = regexp.MustCompile(`^[0-9A-Za-z]{1,64}$`)

// Page returns up to limit jobs of the tenant, newest first, optionally of
// one status, starting after the job the cursor names (the next cursor of
// an earlier page; "" for the first page). next is "" after the last page.
// The cursor is opaque to clients (base64url of the last job's id); it
// holds no tenant — the tenant is the caller's — so it can only move
// within the caller's own jobs. Job ids are ULIDs, so sort-key order is
// creation order, and a cursor stays valid however many jobs are added.
func (r *Repo) Page(ctx context.Context, tenantID int32, status string, limit int, cursor string) (page []Job, next string, err error) {
	after := ""
	if cursor != "" {
		if after, err = timeline.DecodeCursor(cursor, jobIDRE.MatchString); err != nil {
			return nil, "", ErrInvalidCursor
		}
	}
	js, last, err := timeline.PageAfter[Job](ctx, r.tbl, timeline.Query{PK: tenants.PK(tenantID), Prefix: "JOB#",
		Filter: timeline.StatusFilter(attrStatus, status), Limit: limit, Cursor: after})
	if err != nil {
		return nil, "", fmt.Errorf("jobs: list: %w", err)
	}
	if last != "" {
		next = timeline.EncodeCursor(last)
	}
	return js, next, nil
}

// EachUnfinished calls fn with every queued or running job of every
// tenant, oldest first, a page of the sparse index at a time; fn's error
// stops the walk. The shards are merged, so the order is the index's.
func (r *Repo) EachUnfinished(ctx context.Context, fn func(Job) error) error {
	m := store.MergeShards(r.tbl, unfinishedPK, store.Query{Index: store.IndexGSI1, Limit: 100})
	for {
		it, ok, err := m.Next(ctx)
		if err != nil {
			return fmt.Errorf("jobs: read unfinished jobs: %w", err)
		}
		if !ok {
			return nil
		}
		j, err := store.Doc[Job](it)
		if err != nil {
			return err
		}
		if Terminal(j.Status) {
			continue // an index entry not yet caught up (DynamoDB's GSIs are eventually consistent)
		}
		if err := fn(j); err != nil {
			return err
		}
	}
}

// indexedKey marks that the unfinished jobs stored before the sparse index
// existed were added to it (once per table).
var indexedKey = store.Key{PK: "GLOBAL", SK: "MIGRATION#unfinished-jobs-index"}

// IndexUnfinished adds to the sparse index the queued and running jobs
// stored before it existed, once per table (store.Backfill). tenantIDs
// lists every tenant of the table; it is called only while the migration
// has not run, so that a sweep after it reads no tenant.
func (r *Repo) IndexUnfinished(ctx context.Context, tenantIDs func(context.Context) ([]int32, error)) (indexed int, err error) {
	return store.Backfill(ctx, r.docs, indexedKey, tenantIDs, func(t int32) store.Query {
		return store.Query{PK: tenants.PK(t), SK: store.SKBeginsWith("JOB#"),
			Filter: store.And(store.Or(store.Eq(attrStatus, StatusQueued), store.Eq(attrStatus, StatusRunning)),
				store.AttrNotExists(store.AttrGSI1PK))}
	}, func(Job) bool { return true })
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

// Held reports whether j waits for a human's review before its workflow
// starts (an L0 agent's job, stored queued and not enqueued): the review
// enqueues or fails it, nothing else may start it. A publish awaiting
// approval is not held: it waits inside its workflow, on a task token.
func (j Job) Held() bool { return j.AwaitingApproval && j.Type != TypePublish }

// Terminal reports whether status is final.
func Terminal(status string) bool {
	return status == StatusSucceeded || status == StatusPartial || status == StatusFailed
}
