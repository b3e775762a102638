package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/destinations"
	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/httpapi/apitest"
	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/signing"
	"github.com/brandlens/brandlens/shared/ssrf"
	"github.com/brandlens/brandlens/shared/webhooks"
)

func TestWebhookSubscriptionsAPI(t *testing.T) {
	api := apitest.New(t, apitest.Options{RPM: 6000})
	create := `{"url":"https://hooks.acmenotes.com/in","events":["execution.completed","mention.detected"],"description":"ops"}`
	r := api.Do(t, "POST", "/api/v1/webhooks", apitest.KeyAPublish, create)
	if r.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	var created httpapi.WebhookSubscriptionCreated
	if err := json.Unmarshal(r.Body, &created); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(created.ID, "wh_") || !strings.HasPrefix(created.Secret, "whsec_") || !created.HasSecret || !created.Active ||
		!slices.Equal(created.Events, []string{"execution.completed", "mention.detected"}) || created.Description != "ops" {
		t.Errorf("created %+v", created)
	}
	// Afterwards the secret is never shown, only hasSecret.
	for _, path := range []string{"/api/v1/webhooks/" + created.ID, "/api/v1/webhooks"} {
		r := api.Do(t, "GET", path, apitest.KeyARead, "")
		if r.Status != http.StatusOK || strings.Contains(string(r.Body), created.Secret) || strings.Contains(string(r.Body), `"secret"`) {
			t.Errorf("GET %s: %d %s", path, r.Status, r.Body)
		}
		if !strings.Contains(string(r.Body), `"hasSecret":true`) {
			t.Errorf("GET %s lacks hasSecret: %s", path, r.Body)
		}
	}
	if m := api.Do(t, "GET", "/api/v1/webhooks", apitest.KeyARead, "").JSON(t); len(m["items"].([]any)) != 1 {
		t.Errorf("list: %v", m)
	}

	// Scopes and tenants.
	if r := api.Do(t, "POST", "/api/v1/webhooks", apitest.KeyARead, create); r.Status != 403 || r.ErrorCode(t) != "insufficient_scope" {
		t.Errorf("read key creates: %d %s", r.Status, r.Body)
	}
	for _, c := range []struct{ method, path, body string }{
		{"GET", "/api/v1/webhooks/" + created.ID, ""},
		{"PUT", "/api/v1/webhooks/" + created.ID, `{"active":false}`},
		{"DELETE", "/api/v1/webhooks/" + created.ID, ""},
		{"POST", "/api/v1/webhooks/" + created.ID + "/ping", ""},
		{"GET", "/api/v1/webhooks/" + created.ID + "/deliveries", ""},
		{"POST", "/api/v1/webhooks/" + created.ID + "/deliveries/dlv_x_y/redeliver", ""},
	} {
		if r := api.Do(t, c.method, c.path, apitest.KeyBPublish, c.body); r.Status != 404 || r.ErrorCode(t) != "not_found" {
			t.Errorf("tenant B %s %s: %d %s", c.method, c.path, r.Status, r.Body)
		}
	}
	if m := api.Do(t, "GET", "/api/v1/webhooks", apitest.KeyBPublish, "").JSON(t); len(m["items"].([]any)) != 0 {
		t.Errorf("tenant B sees %v", m)
	}

	// Validation names the field.
	for body, field := range map[string]string{
		`{"url":"https://hooks.acmenotes.com/in","events":["execution.finished"]}`: "events",
		`{"url":"https://hooks.acmenotes.com/in","events":[]}`:                     "events",
		`{"url":"http://2130706433/"}`:                                             "url",
		`{"url":"http://0x7f.1/"}`:                                                 "url",
		`{"url":"http://0/"}`:                                                      "url",
		`{"url":"http://[::ffff:127.0.0.1]/"}`:                                     "url",
		`{"url":"http://evil@127.0.0.1/"}`:                                         "url",
		`{"url":"http://127.0.0.1:8080/"}`:                                         "url",
		`{"url":"ftp://hooks.acmenotes.com/"}`:                                     "url",
		`{"url":"hooks.acmenotes.com/in"}`:                                         "url",
		`{}`:                                                                       "url",
		`{"url":"https://hooks.acmenotes.com/in","secret":"short"}`:                "secret",
		`{"url":"https://hooks.acmenotes.com/in","hasSecret":true}`:                "hasSecret",
		`{"url":"https://hooks.acmenotes.com/in","events":"*"}`:                    "events",
	} {
		r := api.Do(t, "POST", "/api/v1/webhooks", apitest.KeyAPublish, body)
		if r.Status != 422 || r.ErrorCode(t) != "validation_error" || !slices.Equal(r.Fields(t), []string{field}) {
			t.Errorf("%s: %d %s, want 422 naming %s", body, r.Status, r.Body, field)
		}
	}

	// Update: members sent change, the rest stay.
	r = api.Do(t, "PUT", "/api/v1/webhooks/"+created.ID, apitest.KeyAPublish, `{"active":false,"events":["*"]}`)
	m := r.JSON(t)
	if r.Status != 200 || m["active"] != false || m["url"] != created.URL || m["description"] != "ops" || m["hasSecret"] != true {
		t.Errorf("update: %d %s", r.Status, r.Body)
	}
	if r := api.Do(t, "PUT", "/api/v1/webhooks/"+created.ID, apitest.KeyAPublish, `{"url":"http://169.254.169.254/"}`); r.Status != 422 || !slices.Equal(r.Fields(t), []string{"url"}) {
		t.Errorf("update to metadata URL: %d %s", r.Status, r.Body)
	}
	if r := api.Do(t, "PUT", "/api/v1/webhooks/wh_nope", apitest.KeyAPublish, `{"active":true}`); r.Status != 404 {
		t.Errorf("update unknown: %d", r.Status)
	}

	// Delete answers {"id","deleted":true}; then the subscription is gone.
	r = api.Do(t, "DELETE", "/api/v1/webhooks/"+created.ID, apitest.KeyAPublish, "")
	if r.Status != 200 || string(r.Body) != `{"id":"`+created.ID+`","deleted":true}`+"\n" {
		t.Errorf("delete: %d %s", r.Status, r.Body)
	}
	if r := api.Do(t, "GET", "/api/v1/webhooks/"+created.ID, apitest.KeyAPublish, ""); r.Status != 404 {
		t.Errorf("after delete: %d", r.Status)
	}
	if r := api.Do(t, "DELETE", "/api/v1/webhooks/"+created.ID, apitest.KeyAPublish, ""); r.Status != 404 {
		t.Errorf("second delete: %d", r.Status)
	}
}

// End to end through the API and the local runtime of `brandlens serve`:
// an always-failing endpoint gets five signed POSTs and shows as
// dead-lettered in GET …/deliveries; redelivery sends the same event_id
// again; ping reaches the endpoint through the same engine.
func TestWebhookDeliveriesAPI(t *testing.T) {
	api := apitest.New(t, apitest.Options{RPM: 6000, Local: app.LocalOptions{Guard: ssrf.Guard{AllowLoopback: true},
		RetryScale: 0.01, DispatchInterval: 20 * time.Millisecond}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- api.Local.Run(ctx) }()
	defer func() { cancel(); <-done }()

	const secret = "my-receiver-secret-0123456789"
	var mu sync.Mutex
	var bodies [][]byte
	healthy := false
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if !signing.Verify([]byte(secret), b, r.Header.Get("X-Service-Signature")) {
			t.Errorf("a delivery's signature does not verify")
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		bodies = append(bodies, b)
		if healthy {
			w.WriteHeader(http.StatusOK)
			return
		}
		w.WriteHeader(http.StatusInternalServerError)
	}))
	defer recv.Close()
	count := func() int { mu.Lock(); defer mu.Unlock(); return len(bodies) }
	eventIDOf := func(i int) string {
		mu.Lock()
		defer mu.Unlock()
		var env struct {
			EventID string `json:"event_id"`
			Type    string `json:"type"`
		}
		json.Unmarshal(bodies[i], &env)
		return env.EventID + " " + env.Type
	}

	r := api.Do(t, "POST", "/api/v1/webhooks", apitest.KeyAPublish, `{"url":"`+recv.URL+`/hook","events":["execution.failed"],"secret":"`+secret+`"}`)
	if r.Status != 201 {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	subID := r.JSON(t)["id"].(string)
	ev, _ := outbox.New(api.A.ID, outbox.ExecutionFailed, outbox.ExecutionData{JobID: "job_1", Status: "failed", Error: "every platform failed"}, time.Now())
	if err := outbox.Append(context.Background(), api.Table, ev); err != nil {
		t.Fatal(err)
	}
	outbox.Notify()

	var d deliveryView
	waitFor(t, 10*time.Second, func() bool {
		r := api.Do(t, "GET", "/api/v1/webhooks/"+subID+"/deliveries", apitest.KeyARead, "")
		var list struct{ Items []deliveryView }
		json.Unmarshal(r.Body, &list)
		if len(list.Items) == 1 {
			d = list.Items[0]
		}
		return d.Status == "dead_lettered"
	})
	if !d.DeadLettered || len(d.Attempts) != 5 || d.EventID != ev.ID || d.EventType != "execution.failed" || d.NextAttemptAt != nil {
		t.Errorf("delivery %+v", d)
	}
	for i, a := range d.Attempts {
		if a.N != i+1 || a.HTTPStatus == nil || *a.HTTPStatus != 500 || a.Error == nil || a.At.IsZero() ||
			a.Reason == nil || *a.Reason != "http_500" {
			t.Errorf("attempt %d: %+v", i+1, a)
		}
	}
	if n := count(); n != 5 {
		t.Fatalf("%d POSTs, want 5", n)
	}
	if r := api.Do(t, "GET", "/api/v1/webhooks/"+subID+"/deliveries?status=succeeded", apitest.KeyARead, ""); !strings.Contains(string(r.Body), `"items":[]`) {
		t.Errorf("status filter: %s", r.Body)
	}

	mu.Lock()
	healthy = true
	mu.Unlock()
	r = api.Do(t, "POST", "/api/v1/webhooks/"+subID+"/deliveries/"+d.ID+"/redeliver", apitest.KeyAPublish, "")
	if r.Status != 202 || r.JSON(t)["deliveryId"] != d.ID || r.JSON(t)["eventId"] != ev.ID {
		t.Fatalf("redeliver: %d %s", r.Status, r.Body)
	}
	waitFor(t, 5*time.Second, func() bool { return count() == 6 })
	if got := eventIDOf(5); got != ev.ID+" execution.failed" {
		t.Errorf("redelivery carried %s", got)
	}

	r = api.Do(t, "POST", "/api/v1/webhooks/"+subID+"/ping", apitest.KeyAPublish, "")
	ping := r.JSON(t)
	if r.Status != 202 || !strings.HasPrefix(ping["deliveryId"].(string), "dlv_") || !strings.HasPrefix(ping["eventId"].(string), "evt_") {
		t.Fatalf("ping: %d %s", r.Status, r.Body)
	}
	waitFor(t, 5*time.Second, func() bool { return count() == 7 })
	if got := eventIDOf(6); got != ping["eventId"].(string)+" webhook.ping" {
		t.Errorf("ping delivered %s", got)
	}
	if r := api.Do(t, "POST", "/api/v1/webhooks/"+subID+"/deliveries/dlv_nope/redeliver", apitest.KeyAPublish, ""); r.Status != 404 {
		t.Errorf("redeliver unknown: %d", r.Status)
	}

	// Manual sends are limited per key and hour: one redelivery and one
	// ping so far, then the rest of the limit, then 429 with Retry-After.
	redeliver := "/api/v1/webhooks/" + subID + "/deliveries/" + d.ID + "/redeliver"
	for i := 2; i < webhooks.ManualSendLimit; i++ {
		if r := api.Do(t, "POST", redeliver, apitest.KeyAPublish, ""); r.Status != 202 {
			t.Fatalf("redelivery %d: %d %s", i+1, r.Status, r.Body)
		}
	}
	for _, path := range []string{redeliver, "/api/v1/webhooks/" + subID + "/ping"} {
		r := api.Do(t, "POST", path, apitest.KeyAPublish, "")
		retry, err := strconv.Atoi(r.Header.Get("Retry-After"))
		if r.Status != 429 || r.ErrorCode(t) != "rate_limit_exceeded" || err != nil || retry < 1 || retry > 3600 {
			t.Errorf("POST %s past the limit: %d %s (Retry-After %q)", path, r.Status, r.Body, r.Header.Get("Retry-After"))
		}
	}
}

type deliveryView struct {
	ID            string     `json:"id"`
	EventID       string     `json:"eventId"`
	EventType     string     `json:"eventType"`
	Status        string     `json:"status"`
	DeadLettered  bool       `json:"deadLettered"`
	NextAttemptAt *time.Time `json:"nextAttemptAt"`
	Attempts      []struct {
		N          int       `json:"n"`
		At         time.Time `json:"at"`
		HTTPStatus *int      `json:"httpStatus"`
		LatencyMS  int64     `json:"latencyMs"`
		Reason     *string   `json:"reason"`
		Error      *string   `json:"error"`
	} `json:"attempts"`
}

func waitFor(t *testing.T, within time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("condition not met within %s", within)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestCapsAreLimitErrors: the create past a per-tenant cap is 409
// limit_exceeded with details.limit — the tenant is full, no member of the
// request is wrong — for every capped collection.
func TestCapsAreLimitErrors(t *testing.T) {
	api := apitest.New(t, apitest.Options{RPM: 100000})
	for _, c := range []struct {
		path, body string
		limit      int
	}{
		{"/api/v1/webhooks", `{"url":"https://hooks.acmenotes.com/in%d"}`, webhooks.MaxSubscriptions},
		{"/api/v1/destinations", `{"type":"webhook","name":"CMS %d","url":"https://cms.acmenotes.com/publish"}`, destinations.MaxPerTenant},
	} {
		t.Run(c.path, func(t *testing.T) {
			for i := range c.limit {
				if r := api.Do(t, "POST", c.path, apitest.KeyAPublish, fmt.Sprintf(c.body, i)); r.Status != http.StatusCreated {
					t.Fatalf("create %d: %d %s", i+1, r.Status, r.Body)
				}
			}
			r := api.Do(t, "POST", c.path, apitest.KeyAPublish, fmt.Sprintf(c.body, c.limit))
			if r.Status != http.StatusConflict || r.ErrorCode(t) != "limit_exceeded" || len(r.Fields(t)) != 0 {
				t.Fatalf("create %d: %d %s, want 409 limit_exceeded", c.limit+1, r.Status, r.Body)
			}
			if got := r.JSON(t)["error"].(map[string]any)["details"].(map[string]any)["limit"]; got != float64(c.limit) {
				t.Fatalf("details.limit %v, want %d", got, c.limit)
			}
		})
	}
}
