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

func key(tenantID, id int32) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: "QUERY#" + ids.Pad(id)}
}

// Repo reads and writes monitoring queries.
type Repo struct {
	tbl store.Table
	now func() time.Time
}

// NewRepo returns the repository.
func NewRepo(tbl store.Table, now func() time.Time) *Repo {
	if now == nil {
		now = time.Now
	}
	return &Repo{tbl: tbl, now: now}
}

// Create adds a query with the tenant's next query id. A query with the
// same text (case- and space-insensitive) is returned as it is.
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
	existing, err := r.List(ctx, q.TenantID)
	if err != nil {
		return Query{}, false, err
	}
	for _, x := range existing {
		if strings.EqualFold(x.Text, q.Text) {
			return x, false, nil
		}
	}
	id, err := ids.Next(ctx, r.tbl, tenants.PK(q.TenantID), "query", 1)
	if err != nil {
		return Query{}, false, err
	}
	q.ID = id
	q.IsActive = true
	q.CreatedAt = r.now().UTC()
	doc, err := store.EncodeDoc(q)
	if err != nil {
		return Query{}, false, err
	}
	k := key(q.TenantID, id)
	if err := r.tbl.Put(ctx, store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, store.AttrDoc: doc}, store.NotExists()); err != nil {
		return Query{}, false, fmt.Errorf("queries: create: %w", err)
	}
	return q, true, nil
}

// Get returns one query of the tenant.
func (r *Repo) Get(ctx context.Context, tenantID, id int32) (Query, error) {
	it, err := r.tbl.Get(ctx, key(tenantID, id))
	if errors.Is(err, store.ErrNotFound) {
		return Query{}, ErrNotFound
	}
	if err != nil {
		return Query{}, fmt.Errorf("queries: get: %w", err)
	}
	return store.Doc[Query](it)
}

// List returns the tenant's queries in id order.
func (r *Repo) List(ctx context.Context, tenantID int32) ([]Query, error) {
	items, err := store.All(ctx, r.tbl, store.Query{PK: tenants.PK(tenantID), SK: store.SKBeginsWith("QUERY#")})
	if err != nil {
		return nil, fmt.Errorf("queries: list: %w", err)
	}
	return store.Docs[Query](items)
}
