package queries

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/brandlens/brandlens/shared/ids"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
)

// The due index: a sparse GSI1 index of the scheduled, active queries of
// every tenant, sorted by when each next falls due, so that a scheduler
// pass reads the queries it has to start and nothing else (not every
// tenant's every query). A query's item carries its entry while it has a
// schedule and is active and not deleted; every write of the query
// (create, update, delete) rewrites the entry in its own put, due at the
// time of the write, and the scheduler moves it to the next period once
// that period's run is made. Entries are written over store.WriteShards
// partitions (by tenant and query), so that the moves of a midnight burst
// — every daily query at once — spread over 16 index partitions instead
// of one (README "Scale model").
const duePK = "SCHEDULES#due"

// DueShards is how many partitions the due index is written over; a
// scheduler pass reads each (0 to DueShards-1).
const DueShards = store.WriteShards

// dueLayout is the fixed-width form of a due time in the index's sort
// key, so that the keys sort by time.
const dueLayout = "2006-01-02T15:04:05.000000000Z"

// Scheduled reports whether q runs on a schedule now: it has one, is
// active and was not deleted.
func Scheduled(q Query) bool { return q.Schedule != nil && q.IsActive && q.DeletedAt == nil }

func dueShardID(tenantID, id int32) string {
	return strconv.Itoa(int(tenantID)) + "#" + strconv.Itoa(int(id))
}

func dueSK(at time.Time, tenantID, id int32) string {
	return at.UTC().Format(dueLayout) + "#" + ids.Pad(tenantID) + "#" + ids.Pad(id)
}

// dueAttrs are the index attributes of q's item: none unless it is
// scheduled; then due at its last write (its creation or update), so that
// a new or changed schedule is looked at by the next pass.
func dueAttrs(q Query) store.Item {
	if !Scheduled(q) {
		return nil
	}
	at := q.CreatedAt
	if q.UpdatedAt != nil {
		at = *q.UpdatedAt
	}
	return store.Item{store.AttrGSI1PK: store.ShardedPK(duePK, dueShardID(q.TenantID, q.ID)),
		store.AttrGSI1SK: dueSK(at, q.TenantID, q.ID)}
}

// Due is a scheduled query whose next run is due, as the index listed it.
type Due struct {
	Query Query
	// At is when it fell due.
	At time.Time
	// sk and doc are the entry and document as read: Advance moves the
	// entry only if neither changed since.
	sk, doc string
}

// DuePage returns up to limit queries of one shard of the due index whose
// next run is due at now, earliest first, starting after cursor (the
// next of the page before; "" for the first page). next is "" after the
// last page. The index is eventually consistent in DynamoDB: an entry may
// be listed just after it moved (Advance then reports ErrMoved).
func (r *Repo) DuePage(ctx context.Context, shard int, now time.Time, limit int, cursor string) (due []Due, next string, err error) {
	if shard < 0 || shard >= DueShards {
		return nil, "", fmt.Errorf("queries: due shard %d is not in [0, %d)", shard, DueShards)
	}
	// Every key of a time up to now sorts below "<now>$" ('$' follows '#').
	page, err := r.tbl.Query(ctx, store.Query{Index: store.IndexGSI1, PK: fmt.Sprintf("%s#%02d", duePK, shard),
		SK: store.KeyCond{Op: store.KeyLt, Value: now.UTC().Format(dueLayout) + "$"}, Limit: limit, Cursor: cursor})
	if err != nil {
		return nil, "", fmt.Errorf("queries: due shard %d: %w", shard, err)
	}
	for _, it := range page.Items {
		q, err := store.Doc[Query](it)
		if err != nil {
			return nil, "", err
		}
		sk := it.String(store.AttrGSI1SK)
		at, err := time.Parse(dueLayout, sk[:len(dueLayout)])
		if err != nil {
			return nil, "", fmt.Errorf("queries: due entry %q: %w", sk, err)
		}
		due = append(due, Due{Query: q, At: at, sk: sk, doc: it.String(store.AttrDoc)})
	}
	return due, page.Cursor, nil
}

// ErrMoved: the due entry changed since it was listed — another pass moved
// it, or the query was written (its new entry is due at once).
var ErrMoved = errors.New("queries: the due entry moved")

// Advance moves d's entry to next, when the next run falls due, if
// neither the entry nor the query changed since DuePage listed it
// (ErrMoved otherwise): of concurrent passes one moves it, and a query
// changed meanwhile keeps the entry its write gave it.
func (r *Repo) Advance(ctx context.Context, d Due, next time.Time) error {
	q := d.Query
	_, err := r.tbl.Update(ctx, key(q.TenantID, q.ID),
		store.Update{Set: map[string]any{store.AttrGSI1SK: dueSK(next, q.TenantID, q.ID)}},
		store.And(store.Eq(store.AttrGSI1SK, d.sk), store.Eq(store.AttrDoc, d.doc)))
	if errors.Is(err, store.ErrConditionFailed) {
		return ErrMoved
	}
	if err != nil {
		return fmt.Errorf("queries: advance the schedule of query %d: %w", q.ID, err)
	}
	return nil
}

// dueIndexedKey marks that the scheduled queries stored before the due
// index existed were added to it (once per table).
var dueIndexedKey = store.Key{PK: "GLOBAL", SK: "MIGRATION#schedules-due-index"}

// IndexSchedules adds to the due index the scheduled queries stored
// before it existed, once per table (store.Backfill: each is rewritten
// unchanged, which gives its item the entry). tenantIDs lists every tenant
// of the table; it is called only while the migration has not run.
func (r *Repo) IndexSchedules(ctx context.Context, tenantIDs func(context.Context) ([]int32, error)) (indexed int, err error) {
	return store.Backfill(ctx, r.docs, dueIndexedKey, tenantIDs, func(t int32) store.Query {
		return store.Query{PK: tenants.PK(t), SK: store.SKBeginsWith(prefix), Filter: store.AttrNotExists(store.AttrGSI1PK)}
	}, Scheduled)
}
