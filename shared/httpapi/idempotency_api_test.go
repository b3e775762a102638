package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/httpapi/apitest"
	"github.com/brandlens/brandlens/shared/idempotency"
	"github.com/brandlens/brandlens/shared/recaptcha"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/webhooks"
)

const hookBody = `{"url":"https://hooks.acmenotes.com/in","events":["execution.completed"],"description":"ops"}`

func idem(key string) []string { return []string{httpapi.HeaderIdempotencyKey, key} }

// Webhook creation under one Idempotency-Key makes one subscription with
// one secret, however often (and however concurrently) it is sent.
func TestIdempotentWebhookCreation(t *testing.T) {
	api := apitest.New(t, apitest.Options{RPM: 6000})
	first := api.Do(t, "POST", "/api/v1/webhooks", apitest.KeyAPublish, hookBody, idem("create-1")...)
	if first.Status != http.StatusCreated || first.Header.Get(httpapi.HeaderIdempotentReplayed) != "" {
		t.Fatalf("create: %d %v %s", first.Status, first.Header, first.Body)
	}
	// The same object with its members in another order and other spacing
	// is the same request.
	reordered := "{ \"description\":\"ops\", \"events\":[\"execution.completed\"],\n \"url\":\"https://hooks.acmenotes.com/in\" }"
	again := api.Do(t, "POST", "/api/v1/webhooks", apitest.KeyAPublish, reordered, idem("create-1")...)
	if again.Status != http.StatusCreated || string(again.Body) != string(first.Body) || again.Header.Get(httpapi.HeaderIdempotentReplayed) != "true" {
		t.Fatalf("replay: %d %v\n%s\nwant\n%s", again.Status, again.Header, again.Body, first.Body)
	}
	if r := api.Do(t, "POST", "/api/v1/webhooks", apitest.KeyAPublish, `{"url":"https://hooks.acmenotes.com/other"}`, idem("create-1")...); r.Status != 409 || r.ErrorCode(t) != "idempotency_conflict" {
		t.Fatalf("other body, same key: %d %s", r.Status, r.Body)
	}
	if r := api.Do(t, "POST", "/api/v1/webhooks", apitest.KeyAPublish, hookBody, idem(strings.Repeat("k", 300))...); r.Status != 422 || r.Fields(t)[0] != "Idempotency-Key" {
		t.Fatalf("300-character key: %d %s", r.Status, r.Body)
	}
	// Another API key of the tenant has keys of its own.
	if r := api.Do(t, "POST", "/api/v1/webhooks", apitest.KeyAAgent, hookBody, idem("create-1")...); r.Status != 201 || r.Header.Get(httpapi.HeaderIdempotentReplayed) != "" {
		t.Fatalf("other API key: %d %s", r.Status, r.Body)
	}

	const n = 20
	var wg sync.WaitGroup
	answers := make([]apitest.Response, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i] = api.Do(t, "POST", "/api/v1/webhooks", apitest.KeyAPublish, `{"url":"https://hooks.acmenotes.com/c"}`, idem("concurrent")...)
		}()
	}
	wg.Wait()
	for i, a := range answers {
		if a.Status != http.StatusCreated || string(a.Body) != string(answers[0].Body) {
			t.Fatalf("duplicate %d: %d %s (first %s)", i, a.Status, a.Body, answers[0].Body)
		}
	}
	var list httpapi.WebhookSubscriptionList
	api.Do(t, "GET", "/api/v1/webhooks", apitest.KeyARead, "").Decode(t, 200, &list)
	if len(list.Items) != 3 {
		t.Fatalf("%d subscriptions, want 3 (one per key and API key)", len(list.Items))
	}
}

// The record of a creation keeps no copy of the secret; a replay reads the
// subscription's secret as it is now, and 404 once it is deleted.
func TestReplayedCreationReadsTheSecretAgain(t *testing.T) {
	api := apitest.New(t, apitest.Options{RPM: 6000})
	body := `{"url":"https://hooks.acmenotes.com/in","secret":"first-secret-0123456789"}`
	r := api.Do(t, "POST", "/api/v1/webhooks", apitest.KeyAPublish, body, idem("k")...)
	var created httpapi.WebhookSubscriptionCreated
	r.Decode(t, 201, &created)
	if created.Secret != "first-secret-0123456789" {
		t.Fatalf("created %+v", created)
	}
	items, err := store.All(context.Background(), api.Table, store.Query{PK: tenants.PK(api.A.ID), SK: store.SKBeginsWith("IDEM#")})
	if err != nil || len(items) != 1 {
		t.Fatalf("%d idempotency records: %v", len(items), err)
	}
	for name, v := range items[0] {
		if s, ok := v.(string); ok && strings.Contains(s, "first-secret") {
			t.Fatalf("the record's %s holds the secret: %s", name, s)
		}
	}
	if r := api.Do(t, "POST", "/api/v1/webhooks", apitest.KeyAPublish, body, idem("k")...); string(r.Body) != string(mustJSON(t, created))+"\n" {
		t.Fatalf("replay %d %s, want %s", r.Status, r.Body, mustJSON(t, created))
	}
	if r := api.Do(t, "PUT", "/api/v1/webhooks/"+created.ID, apitest.KeyAPublish, `{"secret":"rotated-secret-0123456789"}`); r.Status != 200 {
		t.Fatalf("rotate: %d %s", r.Status, r.Body)
	}
	var replay httpapi.WebhookSubscriptionCreated
	api.Do(t, "POST", "/api/v1/webhooks", apitest.KeyAPublish, body, idem("k")...).Decode(t, 201, &replay)
	if replay.Secret != "rotated-secret-0123456789" || replay.ID != created.ID || !replay.CreatedAt.Equal(created.CreatedAt) {
		t.Fatalf("replay after rotation %+v", replay)
	}
	if r := api.Do(t, "DELETE", "/api/v1/webhooks/"+created.ID, apitest.KeyAPublish, ""); r.Status != 200 {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	if r := api.Do(t, "POST", "/api/v1/webhooks", apitest.KeyAPublish, body, idem("k")...); r.Status != 404 || r.ErrorCode(t) != "not_found" {
		t.Fatalf("replay after delete: %d %s", r.Status, r.Body)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Every write of the webhook routes replays its first answer: nothing is
// sent, deleted or redelivered twice.
func TestIdempotentWebhookWrites(t *testing.T) {
	api := apitest.New(t, apitest.Options{RPM: 6000})
	var sub httpapi.WebhookSubscriptionCreated
	api.Do(t, "POST", "/api/v1/webhooks", apitest.KeyAPublish, hookBody).Decode(t, 201, &sub)
	base := "/api/v1/webhooks/" + sub.ID

	ping := api.Do(t, "POST", base+"/ping", apitest.KeyAPublish, "", idem("ping-1")...)
	pingAgain := api.Do(t, "POST", base+"/ping", apitest.KeyAPublish, "", idem("ping-1")...)
	if ping.Status != 202 || string(pingAgain.Body) != string(ping.Body) || pingAgain.Header.Get(httpapi.HeaderIdempotentReplayed) != "true" {
		t.Fatalf("ping %d %s, again %d %s", ping.Status, ping.Body, pingAgain.Status, pingAgain.Body)
	}
	var deliveries httpapi.WebhookDeliveryList
	api.Do(t, "GET", base+"/deliveries", apitest.KeyARead, "").Decode(t, 200, &deliveries)
	if len(deliveries.Items) != 1 {
		t.Fatalf("%d deliveries after one ping sent twice", len(deliveries.Items))
	}
	// The key is per path: the same key on another write is a conflict.
	if r := api.Do(t, "PUT", base, apitest.KeyAPublish, `{"active":false}`, idem("ping-1")...); r.Status != 409 {
		t.Fatalf("key reused on another route: %d %s", r.Status, r.Body)
	}

	put := api.Do(t, "PUT", base, apitest.KeyAPublish, `{"description":"first"}`, idem("put-1")...)
	api.Do(t, "PUT", base, apitest.KeyAPublish, `{"description":"second"}`)
	putAgain := api.Do(t, "PUT", base, apitest.KeyAPublish, `{"description":"first"}`, idem("put-1")...)
	if put.Status != 200 || string(putAgain.Body) != string(put.Body) {
		t.Fatalf("put %s, replay %s", put.Body, putAgain.Body)
	}
	if m := api.Do(t, "GET", base, apitest.KeyARead, "").JSON(t); m["description"] != "second" {
		t.Fatalf("the replay ran the update again: %v", m)
	}

	del := api.Do(t, "DELETE", base, apitest.KeyAPublish, "", idem("del-1")...)
	delAgain := api.Do(t, "DELETE", base, apitest.KeyAPublish, "", idem("del-1")...)
	if del.Status != 200 || delAgain.Status != 200 || string(delAgain.Body) != string(del.Body) {
		t.Fatalf("delete %d %s, replay %d %s", del.Status, del.Body, delAgain.Status, delAgain.Body)
	}
	// An error answer is not kept: the key is free again.
	if r := api.Do(t, "DELETE", base, apitest.KeyAPublish, "", idem("del-2")...); r.Status != 404 {
		t.Fatalf("delete of a deleted subscription: %d %s", r.Status, r.Body)
	}
	if r := api.Do(t, "DELETE", "/api/v1/webhooks/wh_none", apitest.KeyAPublish, "", idem("del-2")...); r.Status != 404 || r.Header.Get(httpapi.HeaderIdempotentReplayed) != "" {
		t.Fatalf("after an error the key must be free: %d %v %s", r.Status, r.Header, r.Body)
	}
}

func TestIdempotentRunsAndCreditsBalance(t *testing.T) {
	api := apitest.New(t, apitest.Options{RPM: 6000})
	run := func(body, key string) apitest.Response {
		return api.Do(t, "POST", "/api/v1/queries/1/run", apitest.KeyAPublish, body, idem(key)...)
	}
	// A 422 stores nothing: the corrected request with the same key runs.
	if r := run(`{"platforms":[]}`, "run-1"); r.Status != 422 || r.Fields(t)[0] != "platforms" {
		t.Fatalf("empty platforms: %d %s", r.Status, r.Body)
	}
	var first httpapi.JobAccepted
	run(`{"samples":2,"platforms":["chatgpt","perplexity"]}`, "run-1").Decode(t, 202, &first)
	if first.CreditsBalance != 996 {
		t.Fatalf("credits_balance %d after a 4-credit hold of 1000, want 996", first.CreditsBalance)
	}
	var other httpapi.JobAccepted
	run(`{"samples":1}`, "run-2").Decode(t, 202, &other)
	if other.CreditsBalance != 994 {
		t.Fatalf("credits_balance %d, want 994", other.CreditsBalance)
	}
	// The replay answers the original, balance included, and holds nothing.
	var replay httpapi.JobAccepted
	r := run(`{ "platforms": ["chatgpt", "perplexity"], "samples": 2 }`, "run-1")
	r.Decode(t, 202, &replay)
	if replay != first || r.Header.Get(httpapi.HeaderIdempotentReplayed) != "true" {
		t.Fatalf("replay %+v, want %+v", replay, first)
	}
	var c httpapi.CreditInfo
	api.Do(t, "GET", "/api/v1/me/credits", apitest.KeyARead, "").Decode(t, 200, &c)
	if c.Held != 6 || c.CreditsBalance != 994 {
		t.Fatalf("credits %+v", c)
	}

	const n = 30
	var wg sync.WaitGroup
	got := make([]httpapi.JobAccepted, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run(`{"samples":1}`, "concurrent").Decode(t, 202, &got[i])
		}()
	}
	wg.Wait()
	for i := range got {
		if got[i] != got[0] {
			t.Fatalf("duplicate %d got %+v, first %+v", i, got[i], got[0])
		}
	}
	var jobs httpapi.JobList
	api.Do(t, "GET", "/api/v1/jobs", apitest.KeyARead, "").Decode(t, 200, &jobs)
	if len(jobs.Items) != 3 {
		t.Fatalf("%d jobs, want 3", len(jobs.Items))
	}
}

// A retry while the first request with its key still runs waits for its
// answer and replays it; when none comes within about 10 s it is 409 with
// reason in_progress and Retry-After (fake clock: no real wait).
func TestRetryWhileTheFirstRequestRuns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var o apitest.Options
		o.Local.BrandCheck.Verifier = recaptcha.Bypass{}
		api := apitest.NewHandler(t, o)
		ctx := context.Background()
		p, err := api.Svc.Keys.Authenticate(ctx, apitest.KeyAPublish)
		if err != nil {
			t.Fatal(err)
		}
		held := func(key string) idempotency.Key {
			k, rec, err := api.Svc.Idempotency.Begin(ctx, idempotency.Key{TenantID: api.A.ID, APIKeyID: p.KeyID, Key: key,
				Fingerprint: idempotency.Fingerprint("POST", "/api/v1/webhooks", []byte(hookBody))})
			if err != nil || rec != nil {
				t.Fatalf("claim: %v %v", rec, err)
			}
			return k
		}
		send := func(key string) *httptest.ResponseRecorder {
			req := httptest.NewRequest("POST", "/api/v1/webhooks", strings.NewReader(hookBody))
			req.Header.Set("X-API-Key", apitest.KeyAPublish)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set(httpapi.HeaderIdempotencyKey, key)
			rec := httptest.NewRecorder()
			api.Handler.ServeHTTP(rec, req)
			return rec
		}

		held("stuck")
		start := time.Now()
		rec := send("stuck")
		var e errorBody
		_ = json.Unmarshal(rec.Body.Bytes(), &e)
		if rec.Code != 409 || e.Error.Code != "idempotency_conflict" || rec.Header().Get("Retry-After") != "1" || !strings.Contains(rec.Body.String(), `"reason":"in_progress"`) {
			t.Fatalf("got %d %v %s", rec.Code, rec.Header(), rec.Body)
		}
		if waited := time.Since(start); waited < 9*time.Second || waited > 11*time.Second {
			t.Fatalf("waited %v", waited)
		}

		sub, err := api.Svc.Webhooks.CreateSubscription(ctx, api.A.ID, webhooks.NewSubscription{URL: "https://hooks.acmenotes.com/in"})
		if err != nil {
			t.Fatal(err)
		}
		k := held("slow")
		done := make(chan *httptest.ResponseRecorder)
		go func() { done <- send("slow") }()
		time.Sleep(time.Second)
		if err := api.Svc.Idempotency.Complete(ctx, k, 201, []byte(`{"id":"`+sub.ID+`","secret":""}`)); err != nil {
			t.Fatal(err)
		}
		rec = <-done
		var got httpapi.WebhookSubscriptionCreated
		_ = json.Unmarshal(rec.Body.Bytes(), &got)
		if rec.Code != 201 || got.ID != sub.ID || got.Secret != sub.Secret || rec.Header().Get(httpapi.HeaderIdempotentReplayed) != "true" {
			t.Fatalf("the waiting retry got %d %s", rec.Code, rec.Body)
		}
	})
}
