package audit

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/timeline"
)

// Work done for no tenant — the anonymous brand check — cannot be recorded
// in a tenant's partition, and must not be recorded in any tenant's: its
// entries go to a partition of the service itself, PK SERVICE#<scope>, with
// the same entry shape, the same append-only put and the same listing.
// Nothing in the tenant API reads it (GET /api/v1/audit lists a tenant's
// partition only); operators read it with ListService.

// KindAnonymous is the actor kind of a request made without a key.
const KindAnonymous = "anonymous"

// ScopeBrandCheck is the service partition of the anonymous brand check.
const ScopeBrandCheck = "brand_check"

// Anonymous is the actor of a request made without a key. ref tells one
// caller's entries apart without naming the caller (the brand check passes
// a prefix of its keyed, daily client hash, never an address).
func Anonymous(ref string) Actor {
	return Actor{KeyID: KindAnonymous + ":" + ref, Kind: KindAnonymous}
}

// ServicePK is the partition of a service scope's entries.
func ServicePK(scope string) string { return "SERVICE#" + scope }

func validScope(scope string) error {
	if scope == "" || strings.ContainsAny(scope, "#~") {
		return fmt.Errorf("audit: invalid service scope %q", scope)
	}
	return nil
}

// ServiceOp is the put of e in the partition of scope, conditional on no
// entry with its id existing. e belongs to no tenant (TenantID 0).
func ServiceOp(scope string, e Entry) (store.Op, error) {
	if err := validScope(scope); err != nil {
		return store.Op{}, err
	}
	if e.ID == "" || e.TenantID != 0 || e.Action == "" {
		return store.Op{}, errors.New("audit: a service entry needs an id and an action, and no tenant")
	}
	return entryOp(store.Key{PK: ServicePK(scope), SK: skPrefix + e.ID}, e)
}

// AppendService writes entries of scope in one transaction: all or none
// (at most store.MaxTxOps).
func (l *Log) AppendService(ctx context.Context, scope string, entries ...Entry) error {
	if len(entries) == 0 {
		return nil
	}
	ops := make([]store.Op, 0, len(entries))
	for _, e := range entries {
		op, err := ServiceOp(scope, e)
		if err != nil {
			return err
		}
		ops = append(ops, op)
	}
	if err := l.tbl.TransactWrite(ctx, ops...); err != nil {
		return fmt.Errorf("audit: append %d %s entries: %w", len(entries), scope, err)
	}
	return nil
}

// ListService returns a page of scope's entries, newest first, filtered as
// List filters a tenant's.
func (l *Log) ListService(ctx context.Context, scope string, f Filter) (Page, error) {
	if err := validScope(scope); err != nil {
		return Page{}, err
	}
	items, next, err := timeline.Page[Entry](ctx, l.tbl, timeline.Query{
		PK: ServicePK(scope), Prefix: skPrefix, From: f.From, To: f.To,
		Filter: filterCond(f), Limit: f.Limit, Cursor: f.Cursor,
	})
	return Page{Items: items, Cursor: next}, err
}
