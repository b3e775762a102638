//go:build !brandlens.lambda

package httpapi

import (
	"reflect"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/brandlens/brandlens/shared/openapi"
	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/webhooks"
)

// webhookEvents documents what a subscriber receives, one entry per event
// type, in the shape of OpenAPI 3.1's top-level webhooks (served as the
// x-webhooks extension of this 3.0 document): the POST with its headers,
// the envelope, and the event's data payload as a component schema.
func (b *docBuilder) webhookEvents() (map[string]*openapi3.PathItem, error) {
	waits := make([]string, 0, webhooks.MaxAttempts-1)
	for _, w := range webhooks.RetryWaits[:webhooks.MaxAttempts-1] {
		waits = append(waits, w.String())
	}
	retry := "Any other answer (a redirect included: redirects are not followed), or no answer within " + webhooks.DefaultTimeout.String() +
		", fails the attempt. Attempt n+1 follows failed attempt n after " + strings.Join(waits, ", ") +
		" in turn; after " + strconv.Itoa(webhooks.MaxAttempts) + " failed attempts the delivery is dead-lettered " +
		"(GET /api/v1/webhooks/{id}/deliveries shows it; POST …/redeliver sends the same bytes again)."
	header := func(name, desc string, s *openapi3.Schema) *openapi3.ParameterRef {
		return &openapi3.ParameterRef{Value: &openapi3.Parameter{Name: name, In: openapi3.ParameterInHeader, Required: true, Description: desc, Schema: s.NewRef()}}
	}
	described := func(s *openapi3.Schema, d string) *openapi3.SchemaRef { s.Description = d; return s.NewRef() }
	out := map[string]*openapi3.PathItem{}
	for _, typ := range outbox.Types {
		data, err := b.gen.Response(reflect.TypeOf(outbox.Payloads[typ]))
		if err != nil {
			return nil, err
		}
		env := openapi3.NewObjectSchema().
			WithPropertyRef("event_id", described(openapi3.NewStringSchema(), "stable id of the event; the same on every retry and redelivery: dedupe on it")).
			WithProperty("type", openapi3.NewStringSchema().WithEnum(typ)).
			WithProperty("created_at", openapi3.NewDateTimeSchema()).
			WithProperty("tenant_id", openapi3.NewInt32Schema()).
			WithPropertyRef("data", data).
			WithRequired([]string{"event_id", "type", "created_at", "tenant_id", "data"})
		env.Description = "The delivery body, serialised once: every retry and redelivery sends the same bytes. Verify the signature on these raw bytes before parsing."
		to := "to every active subscription whose events list names " + typ + " or \"*\""
		if typ == outbox.WebhookPing {
			to = "to the pinged subscription only, whatever its events list"
		}
		received, failed := "Received: any 2xx ends the delivery; the answer's body is ignored.", retry
		responses := openapi3.NewResponses()
		responses.Set("2XX", &openapi3.ResponseRef{Value: &openapi3.Response{Description: &received}})
		responses.Set("default", &openapi3.ResponseRef{Value: &openapi3.Response{Description: &failed}})
		op := &openapi3.Operation{
			OperationID: "webhookEvent" + upperCamel(strings.NewReplacer(".", " ", "_", " ").Replace(typ)),
			Summary:     typ,
			Description: "Sent when " + outbox.Fires[typ] + "; " + to + ".",
			Tags:        []string{"Webhook events"},
			Security:    &openapi3.SecurityRequirements{},
			Parameters: openapi3.Parameters{
				header("X-Service-Signature", "sha256=<lowercase hex HMAC-SHA256 of the raw body, keyed with the subscription's secret>; compare in constant time", openapi3.NewStringSchema()),
				header("X-Service-Event", "the event type", openapi3.NewStringSchema().WithEnum(typ)),
				header("X-Service-Event-Id", "the envelope's event_id", openapi3.NewStringSchema()),
				header("X-Service-Delivery-Id", "the delivery (one per event and subscription)", openapi3.NewStringSchema()),
				header("X-Service-Delivery-Attempt", "1 to 5 within an attempt cycle", openapi3.NewInt32Schema().WithMin(1).WithMax(webhooks.MaxAttempts)),
				header("User-Agent", webhooks.UserAgent, openapi3.NewStringSchema()),
			},
			RequestBody: &openapi3.RequestBodyRef{Value: openapi3.NewRequestBody().WithRequired(true).WithJSONSchema(env)},
			Responses:   responses,
		}
		item := &openapi3.PathItem{}
		item.SetOperation("POST", op)
		out[typ] = item
	}
	return out, nil
}

// Member documentation of the webhook components.
func init() {
	eventValues := append(append([]string{}, outbox.Types...), webhooks.AllEvents)
	urlDoc := "absolute http or https URL on a public host; user information, loopback, private, link-local, CGNAT and other special-purpose addresses are refused here (literal IPs in any notation) and again at connect time (names that resolve to them)"
	eventsDoc := "event types to receive, or [\"*\"] for every type; absent: [\"*\"]; an unknown type is 422 naming events"
	secretDoc := "signing secret of X-Service-Signature, 16 to 256 characters; write-only (never shown back, only hasSecret)"
	for k, v := range map[string]openapi.FieldDoc{
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
		"WebhookDelivery.eventType":                    {Enum: outbox.Types},
		"WebhookDelivery.cycle":                        {Description: "1, then one more per redelivery; each cycle makes up to 5 attempts"},
		"WebhookDelivery.attempts":                     {Description: "every attempt so far, oldest first (the latest 50)"},
		"WebhookDelivery.nextAttemptAt":                {Description: "when the next attempt is due; null while one is in flight and once the delivery is final"},
		"WebhookDelivery.deadLettered":                 {Description: "true when the last cycle's 5 attempts all failed; POST …/redeliver sends it again"},
		"WebhookDeliveryList.nextCursor":               {Description: "opaque; pass it as cursor to read the page after this one (the same status filter applies); null after the last page"},
		"WebhookDeliveryAttempt.n":                     {Description: "the attempt's number within its cycle, 1 to 5"},
		"WebhookDeliveryAttempt.httpStatus":            {Description: "the receiver's status; null when no answer came (timeout, refused or SSRF-denied connection)"},
		"WebhookDeliveryAttempt.latencyMs":             {Description: "time from sending to the end of the answer"},
		"WebhookDeliveryAttempt.reason": {Description: "why the attempt failed, as a stable code: http_<status> (the receiver answered with a status other than 2xx), or " +
			strings.Join(webhooks.FailureReasons, ", ") + " (no answer); null on success"},
		"WebhookDeliveryAttempt.error":     {Description: "the failure in words, naming no address or resolver (those are logged with the delivery id); null on success"},
		"WebhookRedeliveryAccepted.status": {Enum: webhooks.Statuses},
	} {
		fieldDocs[k] = v
	}
}
