package httpapi

import (
	"errors"
	"math"
	"strconv"
	"time"

	"github.com/brandlens/brandlens/shared/validation"
	"github.com/brandlens/brandlens/shared/webhooks"
)

// Webhook subscriptions (rows 19–24) and the delivery inspection extension.

// DefaultDeliveryLimit and MaxDeliveryLimit bound GET …/deliveries.
const (
	DefaultDeliveryLimit = 50
	MaxDeliveryLimit     = 200
)

// CreateWebhookSubscriptionRequest is the body of POST /api/v1/webhooks.
type CreateWebhookSubscriptionRequest struct {
	URL         string   `json:"url"`
	Events      []string `json:"events"`
	Description *string  `json:"description"`
	Active      *bool    `json:"active"`
	Secret      *string  `json:"secret"`
}

// UpdateWebhookSubscriptionRequest is the body of PUT /api/v1/webhooks/{id}:
// the members sent are changed, the others kept.
type UpdateWebhookSubscriptionRequest struct {
	URL         *string  `json:"url" nullable:"false"`
	Events      []string `json:"events" nullable:"false"`
	Description *string  `json:"description" nullable:"false"`
	Active      *bool    `json:"active" nullable:"false"`
	Secret      *string  `json:"secret" nullable:"false"`
}

// WebhookSubscription is a subscription as the API shows it: never its
// secret, only whether one is set.
type WebhookSubscription struct {
	ID          string    `json:"id"`
	URL         string    `json:"url"`
	Events      []string  `json:"events"`
	Description string    `json:"description"`
	Active      bool      `json:"active"`
	HasSecret   bool      `json:"hasSecret"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

// WebhookSubscriptionCreated is the 201 answer of POST /api/v1/webhooks,
// the only answer that carries the secret.
type WebhookSubscriptionCreated struct {
	WebhookSubscription
	Secret string `json:"secret"`
}

// withoutSecret is what an idempotency record keeps of the answer.
func (c WebhookSubscriptionCreated) withoutSecret() any { c.Secret = ""; return c }

// withSecret completes a replayed creation with the subscription's secret
// as it is now (rotated by a PUT since, the new one); a subscription deleted
// since is 404.
func (c WebhookSubscriptionCreated) withSecret(s *Server, rq *Request) (any, error) {
	secret, err := s.Webhooks.RevealSecret(rq.HTTP.Context(), rq.Principal.TenantID, c.ID)
	if err != nil {
		return nil, webhookError(err, "webhook subscription")
	}
	c.Secret = secret
	return c, nil
}

// WebhookSubscriptionList is the answer of GET /api/v1/webhooks.
type WebhookSubscriptionList struct {
	Items []WebhookSubscription `json:"items"`
}

// WebhookDeleted is the answer of DELETE /api/v1/webhooks/{id}.
type WebhookDeleted struct {
	ID      string `json:"id"`
	Deleted bool   `json:"deleted"`
}

// WebhookDeliveryAttempt is one POST of a delivery.
type WebhookDeliveryAttempt struct {
	N          int       `json:"n"`
	Cycle      int       `json:"cycle"`
	At         time.Time `json:"at"`
	HTTPStatus *int      `json:"httpStatus"`
	LatencyMS  int64     `json:"latencyMs"`
	Reason     *string   `json:"reason"`
	Error      *string   `json:"error"`
}

// WebhookDelivery is one event's delivery to a subscription.
type WebhookDelivery struct {
	ID             string                   `json:"id"`
	SubscriptionID string                   `json:"subscriptionId"`
	EventID        string                   `json:"eventId"`
	EventType      string                   `json:"eventType"`
	Status         string                   `json:"status"`
	Cycle          int                      `json:"cycle"`
	Attempts       []WebhookDeliveryAttempt `json:"attempts"`
	NextAttemptAt  *time.Time               `json:"nextAttemptAt"`
	DeadLettered   bool                     `json:"deadLettered"`
	CreatedAt      time.Time                `json:"createdAt"`
	UpdatedAt      time.Time                `json:"updatedAt"`
}

// WebhookDeliveryList is the answer of GET /api/v1/webhooks/{id}/deliveries.
type WebhookDeliveryList struct {
	Items []WebhookDelivery `json:"items"`
	// NextCursor continues after this page; null after the last one.
	NextCursor *string `json:"nextCursor"`
}

// WebhookPingAccepted is the 202 answer of POST /api/v1/webhooks/{id}/ping.
type WebhookPingAccepted struct {
	DeliveryID string `json:"deliveryId"`
	EventID    string `json:"eventId"`
}

// WebhookRedeliveryAccepted is the 202 answer of a redelivery.
type WebhookRedeliveryAccepted struct {
	DeliveryID string `json:"deliveryId"`
	EventID    string `json:"eventId"`
	Status     string `json:"status"`
}

func subscriptionDTO(s webhooks.Subscription) WebhookSubscription {
	return WebhookSubscription{ID: s.ID, URL: s.URL, Events: s.Events, Description: s.Description, Active: s.Active,
		HasSecret: s.HasSecret(), CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt}
}

func deliveryDTO(d webhooks.Delivery) WebhookDelivery {
	atts := make([]WebhookDeliveryAttempt, len(d.Attempts))
	for i, a := range d.Attempts {
		atts[i] = WebhookDeliveryAttempt{N: a.N, Cycle: a.Cycle, At: a.At, HTTPStatus: a.HTTPStatus, LatencyMS: a.LatencyMS, Reason: a.Reason, Error: a.Error}
	}
	return WebhookDelivery{ID: d.ID, SubscriptionID: d.SubscriptionID, EventID: d.EventID, EventType: d.EventType,
		Status: d.Status, Cycle: d.Cycle, Attempts: atts, NextAttemptAt: d.NextAttemptAt(),
		DeadLettered: d.Status == webhooks.StatusDeadLettered, CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt}
}

// webhookError maps the webhooks package's not-found to 404 (its
// validation errors are the service's one kind and pass as they are).
func webhookError(err error, what string) error {
	var le *webhooks.LimitError
	switch {
	case errors.Is(err, webhooks.ErrNotFound):
		return notFound(what)
	case errors.As(err, &le):
		return &Error{Code: CodeRateLimitExceeded,
			Message:    "at most " + strconv.Itoa(le.Limit) + " redeliveries and pings per hour per API key",
			Details:    map[string]any{"manualSendLimit": le.Limit},
			RetryAfter: int(math.Ceil(le.RetryAfter.Seconds()))}
	}
	return err
}

// Inputs of the webhook routes (StrID addresses a subscription).
type (
	deliveryIn struct {
		StrID
		DeliveryID string `path:"deliveryId"`
	}
	listDeliveriesIn struct {
		StrID
		Limit  int32  `query:"limit" default:"50" min:"1" max:"200"`
		Status string `query:"status" enum:"deliveryStatuses"`
		Cursor string `query:"cursor" maxLength:"200" doc:"the nextCursor of the previous page: continues right after it, however old the deliveries (the status filter still applies)"`
	}
	createWebhookIn struct {
		Body CreateWebhookSubscriptionRequest `body:"json"`
	}
	updateWebhookIn struct {
		StrID
		Body UpdateWebhookSubscriptionRequest `body:"json"`
	}
)

func (s *Server) listWebhooks(rq *Request, _ NoInput) (WebhookSubscriptionList, error) {
	subs, err := s.Webhooks.ListSubscriptions(rq.HTTP.Context(), rq.Principal.TenantID)
	out := WebhookSubscriptionList{Items: make([]WebhookSubscription, len(subs))}
	for i, sub := range subs {
		out.Items[i] = subscriptionDTO(sub)
	}
	return out, err
}

func (s *Server) createWebhook(rq *Request, in createWebhookIn) (WebhookSubscriptionCreated, error) {
	url := in.Body.URL
	if err := s.deferChange(rq, webhooks.Change{Action: webhooks.ChangeCreate, URL: &url, Events: in.Body.Events,
		Description: in.Body.Description, Active: in.Body.Active, Secret: in.Body.Secret}, "webhook:new"); err != nil {
		return WebhookSubscriptionCreated{}, err
	}
	sub, err := s.Webhooks.CreateSubscription(rq.HTTP.Context(), rq.Principal.TenantID, webhooks.NewSubscription{
		URL: in.Body.URL, Events: in.Body.Events, Description: in.Body.Description, Active: in.Body.Active, Secret: in.Body.Secret,
	})
	if err != nil {
		return WebhookSubscriptionCreated{}, webhookError(err, "webhook subscription")
	}
	return WebhookSubscriptionCreated{WebhookSubscription: subscriptionDTO(sub), Secret: sub.Secret}, nil
}

func (s *Server) getWebhook(rq *Request, in StrID) (WebhookSubscription, error) {
	sub, err := s.Webhooks.GetSubscription(rq.HTTP.Context(), rq.Principal.TenantID, in.ID)
	return subscriptionDTO(sub), webhookError(err, "webhook subscription")
}

func (s *Server) updateWebhook(rq *Request, in updateWebhookIn) (WebhookSubscription, error) {
	b := in.Body
	if err := s.deferChange(rq, webhooks.Change{Action: webhooks.ChangeUpdate, SubscriptionID: in.ID, URL: b.URL, Events: b.Events,
		Description: b.Description, Active: b.Active, Secret: b.Secret}, "webhook:"+in.ID); err != nil {
		return WebhookSubscription{}, err
	}
	sub, err := s.Webhooks.UpdateSubscription(rq.HTTP.Context(), rq.Principal.TenantID, in.ID, webhooks.Patch{
		URL: b.URL, Events: b.Events, Description: b.Description, Active: b.Active, Secret: b.Secret,
	})
	return subscriptionDTO(sub), webhookError(err, "webhook subscription")
}

func (s *Server) deleteWebhook(rq *Request, in StrID) (WebhookDeleted, error) {
	if err := s.deferChange(rq, webhooks.Change{Action: webhooks.ChangeDelete, SubscriptionID: in.ID}, "webhook:"+in.ID); err != nil {
		return WebhookDeleted{}, err
	}
	if err := s.Webhooks.DeleteSubscription(rq.HTTP.Context(), rq.Principal.TenantID, in.ID); err != nil {
		return WebhookDeleted{}, webhookError(err, "webhook subscription")
	}
	return WebhookDeleted{ID: in.ID, Deleted: true}, nil
}

func (s *Server) pingWebhook(rq *Request, in StrID) (WebhookPingAccepted, error) {
	d, err := s.Webhooks.Ping(rq.HTTP.Context(), rq.Principal.TenantID, rq.Principal.KeyID, in.ID)
	return WebhookPingAccepted{DeliveryID: d.ID, EventID: d.EventID}, webhookError(err, "webhook subscription")
}

func (s *Server) listWebhookDeliveries(rq *Request, in listDeliveriesIn) (WebhookDeliveryList, error) {
	ds, next, err := s.Webhooks.PageDeliveries(rq.HTTP.Context(), rq.Principal.TenantID, in.ID, in.Status, int(in.Limit), in.Cursor)
	if errors.Is(err, webhooks.ErrInvalidCursor) {
		return WebhookDeliveryList{}, validation.Field("cursor", "is not a cursor of this list; pass the nextCursor of a page unchanged")
	}
	out := WebhookDeliveryList{Items: make([]WebhookDelivery, len(ds))}
	for i, d := range ds {
		out.Items[i] = deliveryDTO(d)
	}
	if next != "" {
		out.NextCursor = &next
	}
	return out, webhookError(err, "webhook subscription")
}

func (s *Server) redeliverWebhook(rq *Request, in deliveryIn) (WebhookRedeliveryAccepted, error) {
	ctx := rq.HTTP.Context()
	if _, err := s.Webhooks.GetSubscription(ctx, rq.Principal.TenantID, in.ID); err != nil {
		return WebhookRedeliveryAccepted{}, webhookError(err, "webhook subscription")
	}
	d, err := s.Webhooks.Redeliver(ctx, rq.Principal.TenantID, rq.Principal.KeyID, in.ID, in.DeliveryID)
	return WebhookRedeliveryAccepted{DeliveryID: d.ID, EventID: d.EventID, Status: d.Status}, webhookError(err, "delivery")
}
