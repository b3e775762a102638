package httpapi

import (
	"reflect"
	"strconv"
	"strings"

	"github.com/brandlens/brandlens/shared/events"
	"github.com/brandlens/brandlens/shared/webhooks"
)

// webhookEvents documents what a subscriber receives, one entry per event
// type, in the shape of OpenAPI 3.1's top-level webhooks (served as the
// x-webhooks extension of this 3.0 document): the POST with its headers,
// the envelope, and the event's data payload as a component schema.
func (b *docBuilder) webhookEvents() map[string]map[string]*oaOperation {
	waits := make([]string, 0, webhooks.MaxAttempts-1)
	for _, w := range webhooks.RetryWaits[:webhooks.MaxAttempts-1] {
		waits = append(waits, w.String())
	}
	retry := "Any other answer (a redirect included: redirects are not followed), or no answer within " + webhooks.DefaultTimeout.String() +
		", fails the attempt. Attempt n+1 follows failed attempt n after " + strings.Join(waits, ", ") +
		" in turn; after " + strconv.Itoa(webhooks.MaxAttempts) + " failed attempts the delivery is dead-lettered " +
		"(GET /api/v1/webhooks/{id}/deliveries shows it; POST …/redeliver sends the same bytes again)."
	header := func(name, desc string, s *oaSchema) *oaParameter {
		return &oaParameter{Name: name, In: "header", Required: true, Description: desc, Schema: s}
	}
	str := func() *oaSchema { return &oaSchema{Type: "string"} }
	out := map[string]map[string]*oaOperation{}
	for _, typ := range events.Types {
		data := b.gen.schemaFor(reflect.TypeOf(events.Payloads[typ]))
		env := &oaSchema{Type: "object", Properties: &oaProps{},
			Required:    []string{"event_id", "type", "created_at", "tenant_id", "data"},
			Description: "The delivery body, serialised once: every retry and redelivery sends the same bytes. Verify the signature on these raw bytes before parsing."}
		env.Properties.set("event_id", &oaSchema{Type: "string", Description: "stable id of the event; the same on every retry and redelivery: dedupe on it"})
		env.Properties.set("type", &oaSchema{Type: "string", Enum: []any{typ}})
		env.Properties.set("created_at", &oaSchema{Type: "string", Format: "date-time"})
		env.Properties.set("tenant_id", &oaSchema{Type: "integer", Format: "int32"})
		env.Properties.set("data", data)
		to := "to every active subscription whose events list names " + typ + " or \"*\""
		if typ == events.WebhookPing {
			to = "to the pinged subscription only, whatever its events list"
		}
		op := &oaOperation{
			OperationID: "webhookEvent" + upperCamel(strings.NewReplacer(".", " ", "_", " ").Replace(typ)),
			Summary:     typ,
			Description: "Sent when " + events.Fires[typ] + "; " + to + ".",
			Tags:        []string{"Webhook events"},
			Security:    []map[string][]string{},
			Parameters: []*oaParameter{
				header("X-Service-Signature", "sha256=<lowercase hex HMAC-SHA256 of the raw body, keyed with the subscription's secret>; compare in constant time", str()),
				header("X-Service-Event", "the event type", &oaSchema{Type: "string", Enum: []any{typ}}),
				header("X-Service-Event-Id", "the envelope's event_id", str()),
				header("X-Service-Delivery-Id", "the delivery (one per event and subscription)", str()),
				header("X-Service-Delivery-Attempt", "1 to 5 within an attempt cycle", &oaSchema{Type: "integer", Format: "int32", Minimum: i64(1), Maximum: i64(webhooks.MaxAttempts)}),
				header("User-Agent", webhooks.UserAgent, str()),
			},
			RequestBody: &oaRequestBody{Required: true, Content: map[string]*oaMediaType{"application/json": {Schema: env}}},
			Responses: map[string]*oaResponse{
				"2XX":     {Description: "Received: any 2xx ends the delivery; the answer's body is ignored."},
				"default": {Description: retry},
			},
		}
		out[typ] = map[string]*oaOperation{"post": op}
	}
	return out
}
