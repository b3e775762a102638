package webhooks

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/ssrf"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
)

// Delivery statuses.
const (
	StatusPending        = "pending"
	StatusDelivering     = "delivering"
	StatusSucceeded      = "succeeded"
	StatusFailedRetrying = "failed_retrying"
	StatusDeadLettered   = "dead_lettered"
)

// Statuses lists the delivery statuses.
var Statuses = []string{StatusPending, StatusDelivering, StatusSucceeded, StatusFailedRetrying, StatusDeadLettered}

// Retention of delivery records (refreshed on every change).
const deliveryTTL = 30 * 24 * time.Hour

// maxHistory caps the attempts kept per delivery (redeliveries add more).
const maxHistory = 50

// dueIndexPK is the sparse GSI1 partition key of the deliveries not yet
// final, written over store.WriteShards shards (by delivery id); readers
// read the key itself too (deliveries indexed before the sharding).
const dueIndexPK = "WHDELIVERY#due"

// Attempt is one POST of a delivery.
type Attempt struct {
	N          int       `json:"n"`     // 1..MaxAttempts within its cycle
	Cycle      int       `json:"cycle"` // 1, then +1 per redelivery
	At         time.Time `json:"at"`
	HTTPStatus *int      `json:"httpStatus"` // null when no answer came
	LatencyMS  int64     `json:"latencyMs"`
	// Reason classifies a failure (one of FailureReasons, or http_<status>)
	// and Error says it for the tenant, without addresses or internal
	// detail (the raw error is logged with the delivery id); both null on
	// success.
	Reason *string `json:"reason"`
	Error  *string `json:"error"`
}

// Reasons of attempts that sent nothing.
const (
	// ReasonSubscriptionDeleted: the subscription was gone when the
	// attempt was due.
	ReasonSubscriptionDeleted = "subscription_deleted"
	// ReasonSecretUnavailable: the subscription's sealed secret could not
	// be opened (its key lost or refused), so nothing could be signed.
	ReasonSecretUnavailable = "secret_unavailable"
)

// FailureReasons are the reasons of failed attempts besides http_<status>.
var FailureReasons = []string{ssrf.ReasonRefusedByPolicy, ssrf.ReasonDNS, ssrf.ReasonTimeout, ssrf.ReasonConnectionRefused,
	ssrf.ReasonTLS, ssrf.ReasonInvalidResponse, ssrf.ReasonNetwork, ReasonSubscriptionDeleted, ReasonSecretUnavailable}

// legacyAttempts gives attempts recorded before reasons were kept a
// reason, and replaces their raw error text (which could name resolved
// addresses or the resolver) with a generic one.
func legacyAttempts(as []Attempt) []Attempt {
	for i, a := range as {
		if a.Error == nil || a.Reason != nil {
			continue
		}
		reason, msg := ssrf.ReasonNetwork, "the attempt failed (recorded before failure reasons were kept)"
		switch {
		case a.HTTPStatus != nil:
			reason, msg = "http_"+strconv.Itoa(*a.HTTPStatus), "HTTP "+strconv.Itoa(*a.HTTPStatus)
		case strings.HasPrefix(*a.Error, "subscription deleted"):
			reason, msg = ReasonSubscriptionDeleted, *a.Error
		}
		as[i].Reason, as[i].Error = &reason, &msg
	}
	return as
}

// Delivery is one event for one subscription, with its state.
type Delivery struct {
	ID             string    `json:"id"`
	TenantID       int32     `json:"tenantId"`
	SubscriptionID string    `json:"subscriptionId"`
	EventID        string    `json:"eventId"`
	EventType      string    `json:"eventType"`
	Body           string    `json:"body"` // the exact bytes every attempt sends
	Status         string    `json:"status"`
	Cycle          int       `json:"cycle"`
	Next           int       `json:"next"`
	DueAt          time.Time `json:"dueAt"`
	Claim          string    `json:"claim,omitempty"`
	Attempts       []Attempt `json:"attempts"`
	CreatedAt      time.Time `json:"createdAt"`
	UpdatedAt      time.Time `json:"updatedAt"`
}

// Final reports whether nothing more will be sent without a redelivery.
func (d Delivery) Final() bool { return d.Status == StatusSucceeded || d.Status == StatusDeadLettered }

// NextAttemptAt is when the next attempt is due (nil once final, or while
// an attempt is in flight).
func (d Delivery) NextAttemptAt() *time.Time {
	if d.Status != StatusPending && d.Status != StatusFailedRetrying {
		return nil
	}
	t := d.DueAt
	return &t
}

// DeliveryID derives the id of the delivery of an event to a subscription:
// the same pair always gives the same id, which makes fan-out idempotent.
func DeliveryID(eventID, subscriptionID string) string {
	return "dlv_" + strings.TrimPrefix(eventID, "evt_") + "_" + strings.TrimPrefix(subscriptionID, subscriptionIDPre)
}

// deliveryKey sorts a subscription's deliveries by their id, whose first
// part is the event's ULID: by event time.
func deliveryKey(tenantID int32, subscriptionID, deliveryID string) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: "WHDELIVERY#" + subscriptionID + "#" + deliveryID}
}

// Message is the deliveries-queue message of one attempt.
type Message struct {
	TenantID       int32  `json:"tenantId"`
	SubscriptionID string `json:"subscriptionId"`
	DeliveryID     string `json:"deliveryId"`
	Cycle          int    `json:"cycle"`
	Attempt        int    `json:"attempt"`
}

func (d Delivery) message() Message {
	return Message{TenantID: d.TenantID, SubscriptionID: d.SubscriptionID, DeliveryID: d.ID, Cycle: d.Cycle, Attempt: d.Next}
}

// newDelivery is the first state of the delivery of ev to sub; body is the
// envelope's bytes.
func newDelivery(ev outbox.Event, subscriptionID string, body []byte, now time.Time) Delivery {
	return Delivery{
		ID: DeliveryID(ev.ID, subscriptionID), TenantID: ev.TenantID, SubscriptionID: subscriptionID,
		EventID: ev.ID, EventType: ev.Type, Body: string(body),
		Status: StatusPending, Cycle: 1, Next: 1, DueAt: now, Attempts: []Attempt{},
		CreatedAt: now, UpdatedAt: now,
	}
}

// Envelope is the exact body of every delivery of ev.
func Envelope(ev outbox.Event) ([]byte, error) {
	b, err := json.Marshal(ev)
	if err != nil {
		return nil, fmt.Errorf("webhooks: encode event %s: %w", ev.ID, err)
	}
	return b, nil
}

// stateAttrs are the attributes a delivery's state sets: the document, the
// status and TTL, and the due index while the delivery is not final.
func stateAttrs(d Delivery) (set map[string]any, remove []string, err error) {
	doc, err := store.EncodeDoc(d)
	if err != nil {
		return nil, nil, err
	}
	set = map[string]any{
		store.AttrDoc: doc, "status": d.Status, "kind": "webhook_delivery",
		store.AttrExpiresAt: d.UpdatedAt.Add(deliveryTTL).Unix(),
	}
	if d.Final() {
		return set, []string{store.AttrGSI1PK, store.AttrGSI1SK}, nil
	}
	set[store.AttrGSI1PK] = store.ShardedPK(dueIndexPK, d.ID)
	set[store.AttrGSI1SK] = fmt.Sprintf("%013d#%s", d.DueAt.UnixMilli(), d.ID)
	return set, nil, nil
}

// deliveryPutOp creates d (version 1) unless it exists.
func deliveryPutOp(d Delivery) (store.Op, error) {
	set, _, err := stateAttrs(d)
	if err != nil {
		return store.Op{}, err
	}
	k := deliveryKey(d.TenantID, d.SubscriptionID, d.ID)
	it := store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "ver": int64(1)}
	for a, v := range set {
		it[a] = v
	}
	return store.PutOp(it, store.NotExists()), nil
}

// loaded is a delivery with the version it was read at.
type loaded struct {
	Delivery
	ver int64
}

func (s *Service) loadDelivery(ctx context.Context, tenantID int32, subscriptionID, deliveryID string) (loaded, error) {
	it, err := s.tbl.Get(ctx, deliveryKey(tenantID, subscriptionID, deliveryID))
	if errors.Is(err, store.ErrNotFound) {
		return loaded{}, ErrNotFound
	}
	if err != nil {
		return loaded{}, fmt.Errorf("webhooks: read delivery %s: %w", deliveryID, err)
	}
	d, err := store.Doc[Delivery](it)
	if err != nil {
		return loaded{}, err
	}
	d.Attempts = legacyAttempts(d.Attempts)
	return loaded{Delivery: d, ver: it.Int("ver")}, nil
}

// errConflict: the record changed since it was read (the CAS lost).
var errConflict = errors.New("webhooks: delivery changed concurrently")

// save writes d if the record is still at version ver (compare-and-swap).
func (s *Service) save(ctx context.Context, d Delivery, ver int64) error {
	op, err := saveOp(d, ver)
	if err != nil {
		return err
	}
	_, err = s.tbl.Update(ctx, op.Key, op.Update, op.Cond)
	if errors.Is(err, store.ErrConditionFailed) {
		return errConflict
	}
	if err != nil {
		return fmt.Errorf("webhooks: save delivery %s: %w", d.ID, err)
	}
	return nil
}

// saveOp is save's write as a transaction op.
func saveOp(d Delivery, ver int64) (store.Op, error) {
	set, remove, err := stateAttrs(d)
	if err != nil {
		return store.Op{}, err
	}
	return store.UpdateOp(deliveryKey(d.TenantID, d.SubscriptionID, d.ID),
		store.Update{Set: set, Remove: remove, Add: map[string]int64{"ver": 1}}, store.Eq("ver", ver)), nil
}

// enqueue sends the message of d's next attempt after delay. Without a
// queue, or when the send fails, the sweep sends it once it is overdue.
func (s *Service) enqueue(ctx context.Context, d Delivery, delay time.Duration) error {
	if s.sender == nil {
		return nil
	}
	b, err := json.Marshal(d.message())
	if err != nil {
		return err
	}
	if err := s.sender.Send(ctx, b, delay); err != nil {
		return fmt.Errorf("webhooks: enqueue delivery %s: %w", d.ID, err)
	}
	return nil
}

// ListDeliveries returns the first limit deliveries of a subscription,
// newest first, optionally of one status (PageDeliveries reads further).
func (s *Service) ListDeliveries(ctx context.Context, tenantID int32, subscriptionID, status string, limit int) ([]Delivery, error) {
	ds, _, err := s.PageDeliveries(ctx, tenantID, subscriptionID, status, limit, "")
	return ds, err
}

// GetDelivery returns one delivery of a subscription.
func (s *Service) GetDelivery(ctx context.Context, tenantID int32, subscriptionID, deliveryID string) (Delivery, error) {
	if _, err := s.GetSubscription(ctx, tenantID, subscriptionID); err != nil {
		return Delivery{}, err
	}
	l, err := s.loadDelivery(ctx, tenantID, subscriptionID, deliveryID)
	return l.Delivery, err
}

// Redeliver starts a new attempt cycle of a delivery at once: the same
// stored bytes (and so the same event_id), up to MaxAttempts more attempts
// on the same schedule. An attempt in flight is overtaken; its result is
// kept in the history only. It counts as a manual send of keyID (the API
// key asking): past ManualSendLimit in the hour it is a *LimitError.
func (s *Service) Redeliver(ctx context.Context, tenantID int32, keyID, subscriptionID, deliveryID string) (Delivery, error) {
	if _, err := s.GetSubscription(ctx, tenantID, subscriptionID); err != nil {
		return Delivery{}, err
	}
	if !strings.HasPrefix(deliveryID, "dlv_") || len(deliveryID) > 128 {
		return Delivery{}, ErrNotFound
	}
	for {
		l, err := s.loadDelivery(ctx, tenantID, subscriptionID, deliveryID)
		if err != nil {
			return Delivery{}, err
		}
		d := l.Delivery
		now := s.now().UTC()
		d.Cycle++
		d.Next = 1
		d.Status = StatusPending
		d.DueAt = now
		d.Claim = ""
		d.UpdatedAt = now
		count, limited := manualSendOp(keyID, now)
		save, err := saveOp(d, l.ver)
		if err != nil {
			return Delivery{}, err
		}
		err = s.tbl.TransactWrite(ctx, count, save)
		var txe *store.TxConditionError
		switch {
		case errors.As(err, &txe) && txe.Index == 0:
			return Delivery{}, limited()
		case errors.As(err, &txe):
			continue // the delivery changed: read again
		case err != nil:
			return Delivery{}, fmt.Errorf("webhooks: redeliver %s: %w", d.ID, err)
		}
		if err := s.enqueue(ctx, d, 0); err != nil {
			// The record is due now; the sweep sends it.
			s.log.Warn("webhooks: redelivery not enqueued; the sweep will send it", "delivery_id", d.ID, "error", err.Error())
		}
		return d, nil
	}
}

func newClaim() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
