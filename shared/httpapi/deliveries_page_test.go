package httpapi_test

import (
	"slices"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/httpapi/apitest"
	"github.com/brandlens/brandlens/shared/store/storetest"
	"github.com/brandlens/brandlens/shared/webhooks"
)

// Every delivery of a subscription is reachable by cursor — each once,
// with or without the status filter — however many there are; a cursor the
// list never handed out is a 422 naming it.
func TestWebhookDeliveriesPageByCursor(t *testing.T) {
	// Pings are limited per key and clock hour (webhooks.ManualSendLimit):
	// the clock moves on an hour whenever a key has used its pings.
	clock := storetest.NewClock(time.Now().UTC())
	api := apitest.New(t, apitest.Options{RPM: 6000, Now: clock.Now})
	r := api.Do(t, "POST", "/api/v1/webhooks", apitest.KeyAPublish, `{"url":"https://hooks.acmenotes.com/in"}`)
	if r.Status != 201 {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	sub := r.JSON(t)["id"].(string)
	const n = 130
	for i := range n {
		if i%webhooks.ManualSendLimit == 0 {
			clock.Advance(time.Hour)
		}
		if r := api.Do(t, "POST", "/api/v1/webhooks/"+sub+"/ping", apitest.KeyAPublish, ""); r.Status != 202 {
			t.Fatalf("ping: %d %s", r.Status, r.Body)
		}
	}
	for _, tc := range []struct {
		query string
		pages int
	}{{"limit=50", 3}, {"limit=60&status=pending", 3}, {"limit=200", 1}} {
		t.Run(tc.query, func(t *testing.T) {
			var ids []string
			path := "/api/v1/webhooks/" + sub + "/deliveries?" + tc.query
			for pages := 1; ; pages++ {
				var p httpapi.WebhookDeliveryList
				api.Do(t, "GET", path, apitest.KeyARead, "").Decode(t, 200, &p)
				for _, d := range p.Items {
					ids = append(ids, d.ID)
				}
				if p.NextCursor == nil {
					if pages != tc.pages {
						t.Errorf("%d pages, want %d", pages, tc.pages)
					}
					break
				}
				path = "/api/v1/webhooks/" + sub + "/deliveries?" + tc.query + "&cursor=" + *p.NextCursor
			}
			if len(ids) != n || len(slices.Compact(slices.Sorted(slices.Values(ids)))) != n {
				t.Fatalf("%d deliveries reached (%d distinct), want %d", len(ids), len(slices.Compact(slices.Sorted(slices.Values(ids)))), n)
			}
		})
	}
	for _, bad := range []string{"x!", "ZGx2X3g7ZHJvcA"} { // the second decodes to "dlv_x;drop"
		r := api.Do(t, "GET", "/api/v1/webhooks/"+sub+"/deliveries?cursor="+bad, apitest.KeyARead, "")
		if r.Status != 422 || !slices.Equal(r.Fields(t), []string{"cursor"}) {
			t.Errorf("cursor %q: %d %s", bad, r.Status, r.Body)
		}
	}
}
