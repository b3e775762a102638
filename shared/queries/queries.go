// Package queries holds monitoring queries: the phrases users type into AI
// platforms, which a tenant runs across platforms on demand or on a
// schedule.
package queries

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/brandlens/brandlens/shared/ids"
	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
)

// Schedules a query may carry.
const (
	ScheduleHourly = "hourly"
	ScheduleDaily  = "daily"
	ScheduleWeekly = "weekly"
)

// ValidSchedule reports whether s is a schedule ("" means none).
func ValidSchedule(s string) bool {
	return s == "" || s == ScheduleHourly || s == ScheduleDaily || s == ScheduleWeekly
}

// Query is a monitoring query (its wire shape on GET /api/v1/queries).
type Query struct {
	ID             int32      `json:"id"`
	TenantID       int32      `json:"tenantId"`
	BrandProfileID int32      `json:"brandProfileId"`
	Text           string     `json:"text"`
	Platforms      []string   `json:"platforms"`
	Schedule       *string    `json:"schedule"`
	IsActive       bool       `json:"isActive"`
	CreatedAt      time.Time  `json:"createdAt"`
	UpdatedAt      *time.Time `json:"updatedAt"`
	LastRunAt      *time.Time `json:"lastRunAt"`
	LastJobID      *string    `json:"lastJobId"`
}

// ErrNotFound: no such query in the tenant.
var ErrNotFound = errors.New("queries: not found")

// Key is the item key of a query (for reads batched with others).
func Key(tenantID, id int32) store.Key { return key(tenantID, id) }

func key(tenantID, id int32) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: prefix + ids.Pad(id)}
}

const prefix = "QUERY#"

// Repo reads and writes monitoring queries.
type Repo struct {
	tbl   store.Table
	docs  store.Collection[Query]
	texts store.Unique[Query]
	now   func() time.Time
}

// NewRepo returns the repository.
func NewRepo(tbl store.Table, now func() time.Time) *Repo {
	if now == nil {
		now = time.Now
	}
	docs := store.Collection[Query]{
		Table: tbl, Name: "queries", NotFound: ErrNotFound,
		Key: func(q Query) store.Key { return key(q.TenantID, q.ID) },
	}
	return &Repo{tbl: tbl, now: now, docs: docs, texts: store.Unique[Query]{
		Docs: docs, Kind: "QUERYTEXT", Value: func(q Query) string { return q.Text }, Prefix: prefix,
	}}
}

// Create adds a query with the tenant's next query id. A query with the
// same text (ignoring case and spacing) is returned as it is, with
// created=false, also when another writer creates it at the same moment.
func (r *Repo) Create(ctx context.Context, q Query) (Query, bool, error) {
	q.Text = strings.Join(strings.Fields(q.Text), " ")
	if q.Text == "" {
		return Query{}, false, errors.New("queries: a query needs text")
	}
	if len(q.Platforms) == 0 {
		q.Platforms = slices.Clone(platforms.All)
	}
	for _, p := range q.Platforms {
		if !platforms.Valid(p) {
			return Query{}, false, fmt.Errorf("queries: unknown platform %q", p)
		}
	}
	if q.Schedule != nil && (*q.Schedule == "" || !ValidSchedule(*q.Schedule)) {
		return Query{}, false, fmt.Errorf("queries: unknown schedule %q", *q.Schedule)
	}
	pk := tenants.PK(q.TenantID)
	return r.texts.Create(ctx, pk, q.Text, func() (Query, error) {
		id, err := ids.Next(ctx, r.tbl, pk, "query", 1)
		q.ID, q.IsActive, q.CreatedAt = id, true, r.now().UTC()
		return q, err
	})
}

// Get returns one query of the tenant.
func (r *Repo) Get(ctx context.Context, tenantID, id int32) (Query, error) {
	return r.docs.Get(ctx, key(tenantID, id))
}

// List returns the tenant's queries in id order.
func (r *Repo) List(ctx context.Context, tenantID int32) ([]Query, error) {
	return r.docs.Query(ctx, store.Query{PK: tenants.PK(tenantID), SK: store.SKBeginsWith(prefix)})
}
