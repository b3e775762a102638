// Package outbox is the outbox of domain events. A state change that
// webhook subscribers may watch appends its event in the same store
// transaction as the change itself (Op), so an event exists exactly when
// its change does. Events wait in a sparse "pending" index until the
// fan-out turns each into one delivery per matching subscription.
package outbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/brandlens/brandlens/shared/ids"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
)

// Event types (the spec's list, exact).
const (
	ExecutionStarted      = "execution.started"
	ExecutionCompleted    = "execution.completed"
	ExecutionFailed       = "execution.failed"
	MentionDetected       = "mention.detected"
	VisibilityDropped     = "visibility.dropped"
	GapDetected           = "gap.detected"
	CompetitorEntered     = "competitor.entered"
	OpportunityCreated    = "opportunity.created"
	ContentBriefGenerated = "content.brief_generated"
	ContentGenerated      = "content.generated"
	ContentPublished      = "content.published"
	ContentCited          = "content.cited"
	CreditLow             = "credit.low"
	CreditCeilingReached  = "credit.ceiling_reached"
	APIKeyRevoked         = "api_key.revoked"
	WebhookPing           = "webhook.ping"
)

// Types lists every event type in the spec's order.
var Types = []string{
	ExecutionStarted, ExecutionCompleted, ExecutionFailed, MentionDetected, VisibilityDropped,
	GapDetected, CompetitorEntered, OpportunityCreated, ContentBriefGenerated, ContentGenerated,
	ContentPublished, ContentCited, CreditLow, CreditCeilingReached, APIKeyRevoked, WebhookPing,
}

// ValidType reports whether t is an event type.
func ValidType(t string) bool { return slices.Contains(Types, t) }

// Event is one domain event. ID is stable: every delivery of the event, and
// every retry of a delivery, carries it.
type Event struct {
	ID        string          `json:"event_id"`
	Type      string          `json:"type"`
	CreatedAt time.Time       `json:"created_at"`
	TenantID  int32           `json:"tenant_id"`
	Data      json.RawMessage `json:"data"`
}

// PendingPK is the GSI1 partition key of events not yet fanned out, written
// over store.WriteShards shards (PendingPK#NN by the event id); events
// written before the sharding are under PendingPK itself, which readers
// read too.
const PendingPK = "OUTBOX#pending"

// IsPendingPK reports whether a GSI1PK marks a pending event.
func IsPendingPK(pk string) bool { return store.IsShardOf(pk, PendingPK) }

// Retention is how long an event item is kept (TTL on expiresAt, counted
// from its creation). Deliveries carry their own copy of the envelope, so
// redelivery does not need the event; an event still pending after this
// long (a fan-out down for a month) is dropped rather than sent that late.
const Retention = 30 * 24 * time.Hour

// Key is the item key of an event.
func Key(tenantID int32, id string) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: "EVENT#" + id}
}

// New makes an event of typ with data (marshalled to JSON) at now.
func New(tenantID int32, typ string, data any, now time.Time) (Event, error) {
	if !ValidType(typ) {
		return Event{}, fmt.Errorf("events: unknown type %q", typ)
	}
	b, err := json.Marshal(data)
	if err != nil {
		return Event{}, fmt.Errorf("events: encode %s data: %w", typ, err)
	}
	now = now.UTC()
	return Event{ID: "evt_" + ids.ULID(now), Type: typ, CreatedAt: now, TenantID: tenantID, Data: b}, nil
}

// Op is the transaction op that appends ev to the outbox.
func Op(ev Event) (store.Op, error) {
	doc, err := store.EncodeDoc(ev)
	if err != nil {
		return store.Op{}, err
	}
	k := Key(ev.TenantID, ev.ID)
	return store.PutOp(store.Item{
		store.AttrPK: k.PK, store.AttrSK: k.SK,
		store.AttrGSI1PK: store.ShardedPK(PendingPK, ev.ID), store.AttrGSI1SK: ev.ID,
		"kind": "event", "type": ev.Type, store.AttrDoc: doc,
		store.AttrExpiresAt: ev.CreatedAt.Add(Retention).Unix(),
	}, store.NotExists()), nil
}

// Append writes ev on its own (for events that change nothing else).
func Append(ctx context.Context, tbl store.Table, ev Event) error {
	op, err := Op(ev)
	if err != nil {
		return err
	}
	if err := tbl.TransactWrite(ctx, op); err != nil {
		return fmt.Errorf("events: append %s: %w", ev.Type, err)
	}
	return nil
}

// Pending returns up to limit events waiting for fan-out, oldest first
// (merged over the shards: event ids are ULIDs).
func Pending(ctx context.Context, tbl store.Table, limit int) ([]Event, error) {
	items, err := store.FirstShards(ctx, tbl, PendingPK, store.Query{Index: store.IndexGSI1}, limit)
	if err != nil {
		return nil, fmt.Errorf("events: pending: %w", err)
	}
	return store.Docs[Event](items)
}

// MarkDone removes ev from the pending index; the event itself stays for
// inspection until its Retention ends. An event already gone (expired) has
// nothing left to mark: that is not an error, or a stream record of it
// would be retried for nothing.
func MarkDone(ctx context.Context, tbl store.Table, ev Event) error {
	_, err := tbl.Update(ctx, Key(ev.TenantID, ev.ID),
		store.Update{Remove: []string{store.AttrGSI1PK, store.AttrGSI1SK}}, store.Exists())
	if errors.Is(err, store.ErrConditionFailed) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("events: mark %s done: %w", ev.ID, err)
	}
	return nil
}
