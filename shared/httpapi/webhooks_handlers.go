package httpapi

import (
	"errors"
	"time"

	"github.com/brandlens/brandlens/shared/events"
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
	URL         *string  `json:"url"`
	Events      []string `json:"events"`
	Description *string  `json:"description"`
	Active      *bool    `json:"active"`
	Secret      *string  `json:"secret"`
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
	ID          string    `json:"id"`
	URL         string    `json:"url"`
	Events      []string  `json:"events"`
	Description string    `json:"description"`
	Active      bool      `json:"active"`
	HasSecret   bool      `json:"hasSecret"`
	Secret      string    `json:"secret"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
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

func init() {
	eventValues := append(append([]string{}, events.Types...), webhooks.AllEvents)
	urlDoc := "absolute http or https URL on a public host; user information, loopback, private, link-local, CGNAT and other special-purpose addresses are refused here (literal IPs in any notation) and again at connect time (names that resolve to them)"
	eventsDoc := "event types to receive, or [\"*\"] for every type; absent: [\"*\"]; an unknown type is 422 naming events"
	secretDoc := "signing secret of X-Service-Signature, 16 to 256 characters; write-only (never shown back, only hasSecret)"
	for k, v := range map[string]fieldDoc{
		"CreateWebhookSubscriptionRequest.url":         {Description: urlDoc},
		"CreateWebhookSubscriptionRequest.events":      {Enum: eventValues, Description: eventsDoc},
		"CreateWebhookSubscriptionRequest.description": {Description: "free text, at most 500 characters"},
		"CreateWebhookSubscriptionRequest.active":      {Default: true, Description: "inactive subscriptions receive no new events (ping and redelivery still work)"},
		"CreateWebhookSubscriptionRequest.secret":      {Description: secretDoc + "; absent: a random whsec_… secret (32 bytes) is generated and returned once in the answer"},
		"UpdateWebhookSubscriptionRequest.url":         {Description: urlDoc + "; absent: unchanged"},
		"UpdateWebhookSubscriptionRequest.events":      {Enum: eventValues, Description: "event types to receive, or [\"*\"]; absent: unchanged"},
		"UpdateWebhookSubscriptionRequest.description": {Description: "at most 500 characters; absent: unchanged"},
		"UpdateWebhookSubscriptionRequest.active":      {Description: "absent: unchanged"},
		"UpdateWebhookSubscriptionRequest.secret":      {Description: secretDoc + "; sending one rotates the secret (later attempts, retries included, are signed with it); absent: unchanged"},
		"WebhookSubscription.events":                   {Enum: eventValues},
		"WebhookSubscription.hasSecret":                {Description: "whether a signing secret is set (always true; the secret itself is never shown after creation)"},
		"WebhookSubscriptionCreated.events":            {Enum: eventValues},
		"WebhookSubscriptionCreated.secret":            {Description: "the signing secret; shown in this answer only: store it now"},
		"WebhookDelivery.id":                           {Description: "derived from (eventId, subscriptionId): one delivery per event and subscription"},
		"WebhookDelivery.status":                       {Enum: webhooks.Statuses, Description: "pending: waiting for its first attempt; delivering: an attempt is in flight; failed_retrying: the last attempt failed and another is scheduled at nextAttemptAt; succeeded: a 2xx answer; dead_lettered: 5 attempts failed (or the subscription is gone)"},
		"WebhookDelivery.eventType":                    {Enum: events.Types},
		"WebhookDelivery.cycle":                        {Description: "1, then one more per redelivery; each cycle makes up to 5 attempts"},
		"WebhookDelivery.attempts":                     {Description: "every attempt so far, oldest first (the latest 50)"},
		"WebhookDelivery.nextAttemptAt":                {Description: "when the next attempt is due; null while one is in flight and once the delivery is final"},
		"WebhookDelivery.deadLettered":                 {Description: "true when the last cycle's 5 attempts all failed; POST …/redeliver sends it again"},
		"WebhookDeliveryAttempt.n":                     {Description: "the attempt's number within its cycle, 1 to 5"},
		"WebhookDeliveryAttempt.httpStatus":            {Description: "the receiver's status; null when no answer came (timeout, refused or SSRF-denied connection)"},
		"WebhookDeliveryAttempt.latencyMs":             {Description: "time from sending to the end of the answer"},
		"WebhookDeliveryAttempt.error":                 {Description: "why the attempt failed; null on success"},
		"WebhookRedeliveryAccepted.status":             {Enum: webhooks.Statuses},
	} {
		fieldDocs[k] = v
	}
}

func subscriptionDTO(s webhooks.Subscription) WebhookSubscription {
	return WebhookSubscription{ID: s.ID, URL: s.URL, Events: s.Events, Description: s.Description, Active: s.Active,
		HasSecret: s.Secret != "", CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt}
}

func deliveryDTO(d webhooks.Delivery) WebhookDelivery {
	atts := make([]WebhookDeliveryAttempt, len(d.Attempts))
	for i, a := range d.Attempts {
		atts[i] = WebhookDeliveryAttempt{N: a.N, Cycle: a.Cycle, At: a.At, HTTPStatus: a.HTTPStatus, LatencyMS: a.LatencyMS, Error: a.Error}
	}
	return WebhookDelivery{ID: d.ID, SubscriptionID: d.SubscriptionID, EventID: d.EventID, EventType: d.EventType,
		Status: d.Status, Cycle: d.Cycle, Attempts: atts, NextAttemptAt: d.NextAttemptAt(),
		DeadLettered: d.Status == webhooks.StatusDeadLettered, CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt}
}

// webhookError maps the webhooks package's errors to API errors.
func webhookError(err error, what string) error {
	var ve *webhooks.ValidationError
	switch {
	case errors.Is(err, webhooks.ErrNotFound):
		return notFound(what)
	case errors.As(err, &ve):
		var fe fieldErrors
		for _, f := range ve.Fields {
			fe.add(f.Field, "%s", f.Message)
		}
		return fe.err()
	}
	return err
}

func (s *Server) listWebhooks(rq *Request) (any, error) {
	subs, err := s.Webhooks.ListSubscriptions(rq.HTTP.Context(), rq.Principal.TenantID)
	if err != nil {
		return nil, err
	}
	out := WebhookSubscriptionList{Items: make([]WebhookSubscription, len(subs))}
	for i, sub := range subs {
		out.Items[i] = subscriptionDTO(sub)
	}
	return out, nil
}

func (s *Server) createWebhook(rq *Request) (any, error) {
	in := rq.Input.(*CreateWebhookSubscriptionRequest)
	sub, err := s.Webhooks.CreateSubscription(rq.HTTP.Context(), rq.Principal.TenantID, webhooks.NewSubscription{
		URL: in.URL, Events: in.Events, Description: in.Description, Active: in.Active, Secret: in.Secret,
	})
	if err != nil {
		return nil, webhookError(err, "webhook subscription")
	}
	d := subscriptionDTO(sub)
	return WebhookSubscriptionCreated{ID: d.ID, URL: d.URL, Events: d.Events, Description: d.Description, Active: d.Active,
		HasSecret: d.HasSecret, Secret: sub.Secret, CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt}, nil
}

func (s *Server) getWebhook(rq *Request) (any, error) {
	sub, err := s.Webhooks.GetSubscription(rq.HTTP.Context(), rq.Principal.TenantID, rq.Str("id"))
	if err != nil {
		return nil, webhookError(err, "webhook subscription")
	}
	return subscriptionDTO(sub), nil
}

func (s *Server) updateWebhook(rq *Request) (any, error) {
	in := rq.Input.(*UpdateWebhookSubscriptionRequest)
	sub, err := s.Webhooks.UpdateSubscription(rq.HTTP.Context(), rq.Principal.TenantID, rq.Str("id"), webhooks.Patch{
		URL: in.URL, Events: in.Events, Description: in.Description, Active: in.Active, Secret: in.Secret,
	})
	if err != nil {
		return nil, webhookError(err, "webhook subscription")
	}
	return subscriptionDTO(sub), nil
}

func (s *Server) deleteWebhook(rq *Request) (any, error) {
	id := rq.Str("id")
	if err := s.Webhooks.DeleteSubscription(rq.HTTP.Context(), rq.Principal.TenantID, id); err != nil {
		return nil, webhookError(err, "webhook subscription")
	}
	return WebhookDeleted{ID: id, Deleted: true}, nil
}

func (s *Server) pingWebhook(rq *Request) (any, error) {
	d, err := s.Webhooks.Ping(rq.HTTP.Context(), rq.Principal.TenantID, rq.Str("id"))
	if err != nil {
		return nil, webhookError(err, "webhook subscription")
	}
	return WebhookPingAccepted{DeliveryID: d.ID, EventID: d.EventID}, nil
}

func (s *Server) listWebhookDeliveries(rq *Request) (any, error) {
	ds, err := s.Webhooks.ListDeliveries(rq.HTTP.Context(), rq.Principal.TenantID, rq.Str("id"), rq.Str("status"), int(rq.Int("limit")))
	if err != nil {
		return nil, webhookError(err, "webhook subscription")
	}
	out := WebhookDeliveryList{Items: make([]WebhookDelivery, len(ds))}
	for i, d := range ds {
		out.Items[i] = deliveryDTO(d)
	}
	return out, nil
}

func (s *Server) redeliverWebhook(rq *Request) (any, error) {
	ctx := rq.HTTP.Context()
	if _, err := s.Webhooks.GetSubscription(ctx, rq.Principal.TenantID, rq.Str("id")); err != nil {
		return nil, webhookError(err, "webhook subscription")
	}
	d, err := s.Webhooks.Redeliver(ctx, rq.Principal.TenantID, rq.Str("id"), rq.Str("deliveryId"))
	if err != nil {
		return nil, webhookError(err, "delivery")
	}
	return WebhookRedeliveryAccepted{DeliveryID: d.ID, EventID: d.EventID, Status: d.Status}, nil
}
