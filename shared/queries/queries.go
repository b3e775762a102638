// Package queries holds monitoring queries: the phrases users type into AI
// platforms, which a tenant runs across platforms on demand or on a
// schedule.
package queries

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/brandlens/brandlens/shared/ids"
	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/validation"
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
	// DeletedAt is set when the query was deleted: it no longer runs, is
	// not listed and its text is free for a new query, but it and its
	// history (answers, citations, jobs, gaps) stay readable.
	DeletedAt *time.Time `json:"deletedAt"`
}

// MaxTextLen is the longest query text, in characters.
const MaxTextLen = 500

// ErrDeleted: the query was deleted (writes to it are refused).
var ErrDeleted = errors.New("queries: deleted")

// TextTakenError: another query of the tenant has this text (ignoring
// case and spacing).
type TextTakenError struct{ HolderID int32 }

func (e *TextTakenError) Error() string {
	return fmt.Sprintf("queries: query %d already has this text", e.HolderID)
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
		// The scheduled ones are in the due index (schedule.go).
		Attrs: dueAttrs,
	}
	return &Repo{tbl: tbl, now: now, docs: docs, texts: store.Unique[Query]{
		Docs: docs, Kind: "QUERYTEXT", Value: func(q Query) string { return q.Text }, Prefix: prefix,
		Holds: func(q Query) bool { return q.DeletedAt == nil },
	}}
}

// check normalizes q's text and refuses an empty or too long text, unknown
// platforms and an unknown schedule, naming the members text, platforms
// and schedule in a *validation.Error.
func check(q *Query) error {
	var ve validation.Error
	q.Text = strings.Join(strings.Fields(q.Text), " ")
	switch {
	case q.Text == "":
		ve.Add("text", "must not be empty")
	case utf8.RuneCountInString(q.Text) > MaxTextLen:
		ve.Add("text", "must be at most %d characters", MaxTextLen)
	case strings.ContainsFunc(q.Text, unicode.IsControl):
		ve.Add("text", "must not contain control characters")
	}
	// nil (omitted) means all platforms; an empty list is a mistake rather
	// than "all", as for runs.
	switch {
	case q.Platforms == nil:
		q.Platforms = slices.Clone(platforms.All)
	case len(q.Platforms) == 0:
		ve.Add("platforms", "must name at least one platform")
	}
	var plats []string
	for _, p := range q.Platforms {
		if !platforms.Valid(p) {
			ve.Add("platforms", "%q is not a platform; platforms are %s", p, strings.Join(platforms.All, ", "))
			break
		}
		if !slices.Contains(plats, p) {
			plats = append(plats, p)
		}
	}
	q.Platforms = plats
	if q.Schedule != nil && (*q.Schedule == "" || !ValidSchedule(*q.Schedule)) {
		ve.Add("schedule", "must be %s, %s or %s (or null for none)", ScheduleHourly, ScheduleDaily, ScheduleWeekly)
	}
	return ve.Err()
}

// Create adds a query with the tenant's next query id. A query with the
// same text (ignoring case and spacing) is returned as it is, with
// created=false, also when another writer creates it at the same moment.
//
// An invalid query is a *validation.Error naming text, platforms or
// schedule.
func (r *Repo) Create(ctx context.Context, q Query) (Query, bool, error) {
	if err := check(&q); err != nil {
		return Query{}, false, err
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

// Change is what Update may change; nil members stay as they are.
type Change struct {
	Text      *string
	Platforms *[]string
	// Schedule: nil keeps it; a pointer to nil clears it.
	Schedule **string
	IsActive *bool
}

// maxWriteAttempts bounds re-reads when a query changed between read and
// write.
const maxWriteAttempts = 5

// Update changes a live query. A new text moves the query's text claim in
// the same transaction (TextTakenError when another query holds it); an
// invalid change is a *validation.Error; a deleted query is ErrDeleted.
func (r *Repo) Update(ctx context.Context, tenantID, id int32, ch Change) (Query, error) {
	for attempt := 1; ; attempt++ {
		snap, err := r.docs.Read(ctx, key(tenantID, id))
		if err != nil {
			return Query{}, err
		}
		old := snap.Value
		if old.DeletedAt != nil {
			return Query{}, ErrDeleted
		}
		q := old
		if ch.Text != nil {
			q.Text = *ch.Text
		}
		if ch.Platforms != nil {
			q.Platforms = *ch.Platforms
		}
		if ch.Schedule != nil {
			q.Schedule = *ch.Schedule
		}
		if ch.IsActive != nil {
			q.IsActive = *ch.IsActive
		}
		if err := check(&q); err != nil {
			return Query{}, err
		}
		if reflect.DeepEqual(q, old) {
			return old, nil // nothing changes: no write, so updatedAt says when something did
		}
		now := r.now().UTC()
		q.UpdatedAt = &now
		err = r.texts.Replace(ctx, tenants.PK(tenantID), snap, q)
		var taken *store.TakenError[Query]
		switch {
		case err == nil:
			return q, nil
		case errors.As(err, &taken):
			return Query{}, &TextTakenError{HolderID: taken.Holder.ID}
		case !errors.Is(err, store.ErrConditionFailed) || attempt == maxWriteAttempts:
			return Query{}, fmt.Errorf("queries: update %d: %w", id, err)
		}
	}
}

// Delete deletes a live query: it stops running and being listed, and its
// text claim is freed in the same transaction, so a new query may take
// the text; the record and its history stay readable (DeletedAt is set).
// A query deleted already is ErrDeleted.
func (r *Repo) Delete(ctx context.Context, tenantID, id int32) (Query, error) {
	for attempt := 1; ; attempt++ {
		snap, err := r.docs.Read(ctx, key(tenantID, id))
		if err != nil {
			return Query{}, err
		}
		q := snap.Value
		if q.DeletedAt != nil {
			return Query{}, ErrDeleted
		}
		ops, err := r.texts.ReleaseOps(ctx, tenants.PK(tenantID), q.Text, q)
		if err != nil {
			return Query{}, err
		}
		now := r.now().UTC()
		q.DeletedAt, q.UpdatedAt, q.IsActive = &now, &now, false
		put, err := r.docs.ReplaceOp(snap, q)
		if err != nil {
			return Query{}, err
		}
		err = r.tbl.TransactWrite(ctx, append(ops, put)...)
		if err == nil {
			return q, nil
		}
		if !errors.Is(err, store.ErrConditionFailed) || attempt == maxWriteAttempts {
			return Query{}, fmt.Errorf("queries: delete %d: %w", id, err)
		}
	}
}

// lastRun is the item of a query's latest accepted run. It is an item of
// its own, not members of the query's document: the due index and the
// scheduler's Advance are conditional on that document, so a run that
// wrote it would move or race the query's schedule entry.
type lastRun struct {
	JobID string    `json:"jobId"`
	At    time.Time `json:"at"`
}

const lastRunPrefix = "QUERYRUN#"

func lastRunKey(tenantID, id int32) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: lastRunPrefix + ids.Pad(id)}
}

// LastRunOp records job jobID, accepted at at, as query id's last run, for
// the transaction that accepts the run (its creation, or the approval that
// releases a held one). Unconditional: of two runs accepted at once, the
// one committed last is the last run.
func LastRunOp(tenantID, id int32, jobID string, at time.Time) (store.Op, error) {
	doc, err := store.EncodeDoc(lastRun{JobID: jobID, At: at.UTC()})
	if err != nil {
		return store.Op{}, err
	}
	k := lastRunKey(tenantID, id)
	return store.PutOp(store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, store.AttrDoc: doc}, store.Cond{}), nil
}

// withLastRun sets q's lastRunAt and lastJobId from its last-run item (it
// == nil: never run).
func withLastRun(q Query, it store.Item) (Query, error) {
	if it == nil {
		return q, nil
	}
	lr, err := store.Doc[lastRun](it)
	if err != nil {
		return q, err
	}
	q.LastRunAt, q.LastJobID = &lr.At, &lr.JobID
	return q, nil
}

// Shown returns one query of the tenant as the API shows it: with its last
// run, read beside it in one round trip.
func (r *Repo) Shown(ctx context.Context, tenantID, id int32) (Query, error) {
	its, err := store.GetMany(ctx, r.tbl, key(tenantID, id), lastRunKey(tenantID, id))
	if err != nil {
		return Query{}, fmt.Errorf("queries: read %d: %w", id, err)
	}
	if its[0] == nil {
		return Query{}, ErrNotFound
	}
	q, err := store.Doc[Query](its[0])
	if err != nil {
		return Query{}, err
	}
	return withLastRun(q, its[1])
}

// WithLastRun returns q, as a write returned it, with its last run.
func (r *Repo) WithLastRun(ctx context.Context, q Query) (Query, error) {
	it, err := r.tbl.Get(ctx, lastRunKey(q.TenantID, q.ID))
	if errors.Is(err, store.ErrNotFound) {
		return q, nil
	}
	if err != nil {
		return q, fmt.Errorf("queries: read the last run of %d: %w", q.ID, err)
	}
	return withLastRun(q, it)
}

// ListShown returns the tenant's queries in id order as the API shows
// them: with their last runs, read in one more query of the partition.
func (r *Repo) ListShown(ctx context.Context, tenantID int32) ([]Query, error) {
	qs, err := r.List(ctx, tenantID)
	if err != nil {
		return nil, err
	}
	its, err := store.All(ctx, r.tbl, store.Query{PK: tenants.PK(tenantID), SK: store.SKBeginsWith(lastRunPrefix)})
	if err != nil {
		return nil, fmt.Errorf("queries: list last runs: %w", err)
	}
	byID := make(map[string]store.Item, len(its))
	for _, it := range its {
		byID[it.String(store.AttrSK)[len(lastRunPrefix):]] = it
	}
	for i, q := range qs {
		if qs[i], err = withLastRun(q, byID[ids.Pad(q.ID)]); err != nil {
			return nil, err
		}
	}
	return qs, nil
}
