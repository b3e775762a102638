package webhooks

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/brandlens/brandlens/shared/ids"
	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/secrets"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/validation"
)

// AllEvents subscribes to every event type.
const AllEvents = "*"

// Limits of subscriptions.
const (
	MaxSubscriptions  = 50 // per tenant: every event is fanned out to each
	MaxDescription    = 500
	MinSecretLength   = 16
	MaxSecretLength   = 256
	SecretPrefix      = "whsec_"
	subscriptionIDPre = "wh_"
)

// Subscription is a stored webhook subscription. Its signing secret is
// write-only on the API (shown once, at creation; afterwards only whether
// it is set) and sealed at rest (package secrets): the stored document
// holds SealedSecret, never the plain text.
type Subscription struct {
	ID          string   `json:"id"`
	TenantID    int32    `json:"tenantId"`
	URL         string   `json:"url"`
	Events      []string `json:"events"`
	Description string   `json:"description"`
	Active      bool     `json:"active"`
	// Secret is the plain text, set only on the value CreateSubscription
	// returns (for its one showing); never stored.
	Secret string `json:"-"`
	// SealedSecret is the secret as stored: AES-GCM under a data key of
	// its own, bound to the tenant and the subscription.
	SealedSecret *secrets.Sealed `json:"sealedSecret,omitempty"`
	// PlainSecret is a secret stored in plain text before secrets were
	// sealed. Such a subscription still works; the secret is sealed on its
	// next write, and by ResealSecrets (`brandlens serve` at start,
	// `brandlens admin seal-secrets`).
	PlainSecret string    `json:"secret,omitempty"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

// HasSecret reports whether a signing secret is set.
func (s Subscription) HasSecret() bool { return s.SealedSecret != nil || s.PlainSecret != "" }

// SecretPurpose binds sealed subscription secrets to what they are (the
// envelope's associated data and the KMS encryption context).
const SecretPurpose = "webhook-subscription-secret"

func secretBinding(tenantID int32, subscriptionID string) secrets.Binding {
	return secrets.Binding{Purpose: SecretPurpose, TenantID: tenantID, RecordID: subscriptionID}
}

// seal stores secret in sub, sealed.
func (s *Service) seal(ctx context.Context, sub *Subscription, secret string) error {
	sl, err := s.secrets.Seal(ctx, secret, secretBinding(sub.TenantID, sub.ID))
	if err != nil {
		return fmt.Errorf("webhooks: seal the secret of %s: %w", sub.ID, err)
	}
	sub.SealedSecret, sub.PlainSecret = &sl, ""
	return nil
}

// signingSecret returns the plain text of sub's secret.
func (s *Service) signingSecret(ctx context.Context, sub Subscription) (string, error) {
	if sub.PlainSecret != "" {
		return sub.PlainSecret, nil
	}
	if sub.SealedSecret == nil {
		return "", fmt.Errorf("webhooks: subscription %s has no secret", sub.ID)
	}
	return s.secrets.Open(ctx, *sub.SealedSecret, secretBinding(sub.TenantID, sub.ID))
}

// Matches reports whether the subscription selects events of type typ.
func (s Subscription) Matches(typ string) bool {
	return slices.Contains(s.Events, AllEvents) || slices.Contains(s.Events, typ)
}

// ErrNotFound: no such subscription or delivery in the tenant.
var ErrNotFound = errors.New("webhooks: not found")

// FieldError and ValidationError are the service's one shape of field
// errors; the HTTP edge answers them as 422 naming each field.
type (
	FieldError      = validation.FieldError
	ValidationError = validation.Error
)

// NewSubscription is a create request; nil members take their defaults
// (events ["*"], active true, a generated secret).
type NewSubscription struct {
	URL         string
	Events      []string
	Description *string
	Active      *bool
	Secret      *string
}

// Patch changes the members that are set.
type Patch struct {
	URL         *string
	Events      []string // nil: unchanged
	Description *string
	Active      *bool
	Secret      *string // a new secret (rotation)
}

func subscriptionKey(tenantID int32, id string) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: subscriptionPrefix + id}
}

const subscriptionPrefix = "WEBHOOK#"

// subscriptions is the subscriptions' documents.
func (s *Service) subscriptions() store.Collection[Subscription] {
	return store.Collection[Subscription]{
		Table: s.tbl, Name: "webhooks: subscription", NotFound: ErrNotFound,
		Key:   func(sub Subscription) store.Key { return subscriptionKey(sub.TenantID, sub.ID) },
		Attrs: func(sub Subscription) store.Item { return store.Item{"kind": "webhook", "active": sub.Active} },
	}
}

// countKey counts a tenant's subscriptions. Every create adds one under
// the condition that the count is below MaxSubscriptions, and every delete
// takes one off, each in the transaction that writes the subscription, so
// concurrent creates can never pass the cap.
func countKey(tenantID int32) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: "WEBHOOKCOUNT"}
}

const attrCount = "n"

// ensureCount creates the tenant's count from its subscriptions when it is
// missing (tenants whose subscriptions predate it). Until a count exists no
// subscription is written, so the listing cannot go stale before the count
// is put; of concurrent first puts one wins.
func (s *Service) ensureCount(ctx context.Context, tenantID int32) error {
	_, err := s.tbl.Get(ctx, countKey(tenantID))
	if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	subs, err := s.ListSubscriptions(ctx, tenantID)
	if err != nil {
		return err
	}
	k := countKey(tenantID)
	err = s.tbl.Put(ctx, store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, attrCount: int64(len(subs))}, store.NotExists())
	if err != nil && !errors.Is(err, store.ErrConditionFailed) {
		return fmt.Errorf("webhooks: count subscriptions: %w", err)
	}
	return nil
}

// GenerateSecret returns "whsec_" and 32 random bytes, base64url-encoded.
func GenerateSecret() string {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(fmt.Sprintf("webhooks: crypto/rand failed: %v", err)) // the OS RNG does not fail on supported platforms
	}
	return SecretPrefix + base64.RawURLEncoding.EncodeToString(b[:])
}

// normalizeEvents checks the event list: known types or "*"; a list naming
// "*" is just ["*"]; duplicates go.
func normalizeEvents(in []string, ve *ValidationError) []string {
	if len(in) == 0 {
		ve.Add("events", "must name at least one event type, or %q for all", AllEvents)
		return nil
	}
	var out, unknown []string
	for _, t := range in {
		switch {
		case t == AllEvents:
			return []string{AllEvents}
		case outbox.ValidType(t):
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		default:
			unknown = append(unknown, fmt.Sprintf("%q", t))
		}
	}
	if len(unknown) > 0 {
		ve.Add("events", "unknown event type %s; known types: %s, or %q for all", strings.Join(unknown, ", "), strings.Join(outbox.Types, ", "), AllEvents)
	}
	return out
}

func checkDescription(d string, ve *ValidationError) {
	if utf8.RuneCountInString(d) > MaxDescription {
		ve.Add("description", "must be at most %d characters", MaxDescription)
	}
}

func checkSecret(s string, ve *ValidationError) {
	n := utf8.RuneCountInString(s)
	if n < MinSecretLength || n > MaxSecretLength {
		ve.Add("secret", "must be %d to %d characters", MinSecretLength, MaxSecretLength)
		return
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			ve.Add("secret", "must not contain control characters")
			return
		}
	}
}

func (s *Service) checkURL(raw string, ve *ValidationError) string {
	u, err := s.guard.CheckURL(raw)
	if err != nil {
		ve.Add("url", "%s", err.Error())
		return ""
	}
	return u.String()
}

// CreateSubscription stores a new subscription and returns it with its
// secret (the only time the secret leaves the service).
func (s *Service) CreateSubscription(ctx context.Context, tenantID int32, ns NewSubscription) (Subscription, error) {
	sub, secret, c, err := s.createOps(ctx, tenantID, ns)
	if err != nil {
		return Subscription{}, err
	}
	if err := s.commit(ctx, c, "create subscription"); err != nil {
		return Subscription{}, err
	}
	sub.Secret = secret
	return sub, nil
}

// ChangeOps are the writes of a subscription change, for a caller that
// commits them in its own transaction (an approval's review), and what a
// failed condition among them means.
type ChangeOps struct {
	Ops []store.Op
	// ResourceRef names the subscription changed (a create's new id).
	ResourceRef string
	// Refused is the error a failed condition of Ops[i] answers; nil (or a
	// nil Refused) when the subscription changed meanwhile and the change
	// is prepared again.
	Refused func(i int) error
}

// commit writes c in a transaction of its own.
func (s *Service) commit(ctx context.Context, c ChangeOps, what string) error {
	if len(c.Ops) == 0 {
		return nil // an update that changes nothing
	}
	err := s.tbl.TransactWrite(ctx, c.Ops...)
	var txe *store.TxConditionError
	if errors.As(err, &txe) && c.Refused != nil {
		if refused := c.Refused(txe.Index); refused != nil {
			return refused
		}
	}
	if err != nil {
		return fmt.Errorf("webhooks: %s: %w", what, err)
	}
	return nil
}

// createOps validates ns and returns the subscription with its secret and
// the writes that store it. The count's condition keeps the tenant within
// MaxSubscriptions (a *validation.LimitError when it fails).
func (s *Service) createOps(ctx context.Context, tenantID int32, ns NewSubscription) (Subscription, string, ChangeOps, error) {
	sub, secret, err := s.newSubscription(tenantID, ns)
	if err != nil {
		return Subscription{}, "", ChangeOps{}, err
	}
	if err := s.ensureCount(ctx, tenantID); err != nil {
		return Subscription{}, "", ChangeOps{}, err
	}
	now := s.now().UTC()
	sub.ID = subscriptionIDPre + ids.ULID(now)
	sub.CreatedAt, sub.UpdatedAt = now, now
	if err := s.seal(ctx, &sub, secret); err != nil {
		return Subscription{}, "", ChangeOps{}, err
	}
	put, err := s.subscriptions().PutOp(sub, store.NotExists())
	if err != nil {
		return Subscription{}, "", ChangeOps{}, err
	}
	return sub, secret, ChangeOps{
		Ops: []store.Op{
			store.UpdateOp(countKey(tenantID), store.Update{Add: map[string]int64{attrCount: 1}}, store.Lt(attrCount, MaxSubscriptions)),
			put},
		ResourceRef: resourceRef(sub.ID),
		Refused: func(i int) error {
			if i == 0 {
				return &validation.LimitError{What: "webhook subscriptions", Max: MaxSubscriptions}
			}
			return nil
		},
	}, nil
}

// resourceRef names a subscription in the audit log and approval requests.
func resourceRef(id string) string { return "webhook:" + id }

// newSubscription validates ns and builds the subscription and its secret
// (given or generated); its id, times and sealed secret come when it is
// stored.
func (s *Service) newSubscription(tenantID int32, ns NewSubscription) (Subscription, string, error) {
	var ve ValidationError
	url := s.checkURL(ns.URL, &ve)
	evs := ns.Events
	if evs == nil {
		evs = []string{AllEvents}
	}
	evs = normalizeEvents(evs, &ve)
	sub := Subscription{TenantID: tenantID, URL: url, Events: evs, Active: true}
	if ns.Description != nil {
		checkDescription(*ns.Description, &ve)
		sub.Description = *ns.Description
	}
	if ns.Active != nil {
		sub.Active = *ns.Active
	}
	secret := GenerateSecret()
	if ns.Secret != nil {
		checkSecret(*ns.Secret, &ve)
		secret = *ns.Secret
	}
	return sub, secret, ve.Err()
}

// ListSubscriptions returns the tenant's subscriptions, oldest first.
func (s *Service) ListSubscriptions(ctx context.Context, tenantID int32) ([]Subscription, error) {
	return s.subscriptions().Query(ctx, store.Query{PK: tenants.PK(tenantID), SK: store.SKBeginsWith(subscriptionPrefix)})
}

// GetSubscription returns one subscription of the tenant, or ErrNotFound.
func (s *Service) GetSubscription(ctx context.Context, tenantID int32, id string) (Subscription, error) {
	snap, err := s.readSubscription(ctx, tenantID, id)
	return snap.Value, err
}

// RevealSecret returns the plain text of the subscription's current
// signing secret, for the replay of its creation (which shows it again);
// ErrNotFound when the subscription is gone.
func (s *Service) RevealSecret(ctx context.Context, tenantID int32, id string) (string, error) {
	sub, err := s.GetSubscription(ctx, tenantID, id)
	if err != nil {
		return "", err
	}
	return s.signingSecret(ctx, sub)
}

func (s *Service) readSubscription(ctx context.Context, tenantID int32, id string) (store.Snapshot[Subscription], error) {
	if !strings.HasPrefix(id, subscriptionIDPre) || len(id) > 64 {
		return store.Snapshot[Subscription]{}, ErrNotFound
	}
	return s.subscriptions().Read(ctx, subscriptionKey(tenantID, id))
}

// UpdateSubscription applies p. Concurrent updates do not lose each other's
// changes: the write is conditional on the document read.
func (s *Service) UpdateSubscription(ctx context.Context, tenantID int32, id string, p Patch) (Subscription, error) {
	for {
		sub, c, err := s.updateOps(ctx, tenantID, id, p)
		if err != nil {
			return Subscription{}, err
		}
		err = s.commit(ctx, c, "update subscription")
		if errors.Is(err, store.ErrConditionFailed) {
			continue // changed (or deleted) meanwhile: read again
		}
		if err != nil {
			return Subscription{}, err
		}
		return sub, nil
	}
}

// updateOps reads the subscription and returns it patched with the write
// that stores it, conditional on the document read; none when nothing
// changes, so that updatedAt says when something did.
func (s *Service) updateOps(ctx context.Context, tenantID int32, id string, p Patch) (Subscription, ChangeOps, error) {
	c := ChangeOps{ResourceRef: resourceRef(id)}
	snap, err := s.readSubscription(ctx, tenantID, id)
	if err != nil {
		return Subscription{}, ChangeOps{}, err
	}
	sub, err := s.patched(snap.Value, p)
	if err != nil {
		return Subscription{}, ChangeOps{}, err
	}
	if p.Secret == nil && sub.PlainSecret == "" && reflect.DeepEqual(sub, snap.Value) {
		return sub, c, nil
	}
	switch {
	case p.Secret != nil:
		if err := s.seal(ctx, &sub, *p.Secret); err != nil {
			return Subscription{}, ChangeOps{}, err
		}
	case sub.PlainSecret != "":
		// Stored before secrets were sealed: sealed on this write.
		if err := s.seal(ctx, &sub, sub.PlainSecret); err != nil {
			return Subscription{}, ChangeOps{}, err
		}
	}
	sub.UpdatedAt = s.now().UTC()
	put, err := s.subscriptions().ReplaceOp(snap, sub)
	if err != nil {
		return Subscription{}, ChangeOps{}, err
	}
	c.Ops = []store.Op{put}
	return sub, c, nil
}

// patched validates p and applies it to sub (all but the secret, which
// the caller seals).
func (s *Service) patched(sub Subscription, p Patch) (Subscription, error) {
	var ve ValidationError
	if p.URL != nil {
		sub.URL = s.checkURL(*p.URL, &ve)
	}
	if p.Events != nil {
		sub.Events = normalizeEvents(p.Events, &ve)
	}
	if p.Description != nil {
		checkDescription(*p.Description, &ve)
		sub.Description = *p.Description
	}
	if p.Active != nil {
		sub.Active = *p.Active
	}
	if p.Secret != nil {
		checkSecret(*p.Secret, &ve)
	}
	return sub, ve.Err()
}

// DeleteSubscription removes the subscription. Nothing is sent to it
// afterwards: attempts still due find it gone and dead-letter without a
// POST, and its delivery records expire with their TTL.
func (s *Service) DeleteSubscription(ctx context.Context, tenantID int32, id string) error {
	c, err := s.deleteOps(ctx, tenantID, id)
	if err != nil {
		return err
	}
	return s.commit(ctx, c, "delete subscription")
}

// deleteOps returns the writes that remove the subscription and take it
// off the count; ErrNotFound when it is gone (or goes meanwhile).
func (s *Service) deleteOps(ctx context.Context, tenantID int32, id string) (ChangeOps, error) {
	if _, err := s.readSubscription(ctx, tenantID, id); err != nil {
		return ChangeOps{}, err
	}
	if err := s.ensureCount(ctx, tenantID); err != nil {
		return ChangeOps{}, err
	}
	return ChangeOps{
		Ops: []store.Op{
			store.DeleteOp(subscriptionKey(tenantID, id), store.Exists()),
			store.UpdateOp(countKey(tenantID), store.Update{Add: map[string]int64{attrCount: -1}}, store.Ge(attrCount, 1))},
		ResourceRef: resourceRef(id),
		Refused: func(i int) error {
			if i == 0 {
				return ErrNotFound
			}
			return nil
		},
	}, nil
}

// ResealSecrets seals, under the current key, every secret of the tenant's
// subscriptions that is stored in plain text (from before secrets were
// sealed) or sealed under an older key (after a rotation). Each write is
// conditional on the document read, so a concurrent change is read again,
// never overwritten. It returns how many it sealed. A secret that cannot be
// opened (its key lost) is logged and left as it is — its deliveries fail
// as secret_unavailable until a new secret is set — so that one lost key
// does not keep the service from starting.
func (s *Service) ResealSecrets(ctx context.Context, tenantID int32) (int, error) {
	return s.subscriptions().UpdateEach(ctx, store.Query{PK: tenants.PK(tenantID), SK: store.SKBeginsWith(subscriptionPrefix)},
		func(ctx context.Context, sub Subscription) (Subscription, bool, error) {
			if sub.PlainSecret == "" && (sub.SealedSecret == nil || s.secrets.Current(*sub.SealedSecret)) {
				return sub, false, nil
			}
			secret, err := s.signingSecret(ctx, sub)
			if errors.Is(err, secrets.ErrOpen) {
				s.log.Warn("webhooks: a subscription's secret cannot be opened; its deliveries fail until a new secret is set",
					"tenant_id", tenantID, "subscription_id", sub.ID, "error", err.Error())
				return sub, false, nil
			}
			if err == nil {
				err = s.seal(ctx, &sub, secret)
			}
			return sub, err == nil, err
		})
}
