package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	awsevents "github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/config"
	"github.com/brandlens/brandlens/shared/jsontest"
	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/queries"
	"github.com/brandlens/brandlens/shared/queue"
	"github.com/brandlens/brandlens/shared/queue/sqstest"
	"github.com/brandlens/brandlens/shared/recaptcha"
	"github.com/brandlens/brandlens/shared/recaptcha/recaptchatest"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/secrets"
	"github.com/brandlens/brandlens/shared/seed"
	"github.com/brandlens/brandlens/shared/signing"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamo"
	"github.com/brandlens/brandlens/shared/store/dynamotest"
	"github.com/brandlens/brandlens/shared/webhooks"
	"github.com/brandlens/brandlens/shared/workflow"
)

// The sample events of events/, sent through the functions that
// template.yaml deploys, each assembled by its own bootstrap's entry point
// at cold start, on DynamoDB Local and fauxqs.

// emulatedTable is the cloud's table, for the tests to seed and inspect.
func emulatedTable(t testing.TB, c *cloud) store.Table {
	return dynamo.New(dynamotest.Start(t), c.table)
}

func quiet() *slog.Logger { return slog.New(slog.NewJSONHandler(io.Discard, nil)) }

// seedAcme stores the tenant the sample events act as: "Acme Notes", one
// query on chatgpt and perplexity (id 1), and the events' API key, hashed
// with the key secret the functions read from Secrets Manager.
func seedAcme(t testing.TB, tbl store.Table) *app.Repos {
	t.Helper()
	repos, err := app.NewRepos(tbl, []byte(testKeySecret), nil)
	if err != nil {
		t.Fatal(err)
	}
	f := seed.File{Tenants: []seed.Tenant{{Name: "Acme Notes", Credits: 100,
		Brand:   &seed.Brand{Name: "Acme Notes", Domains: []string{"acmenotes.com"}},
		Queries: []seed.Query{{Text: "best note taking app", Platforms: []string{"chatgpt", "perplexity"}}},
		APIKeys: []seed.APIKey{{Key: "local-key-acme-publish-0001", Scopes: []string{"publish"}}}}}}
	if _, err := seed.Apply(context.Background(), repos, f); err != nil {
		t.Fatal(err)
	}
	return repos
}

func invoke(t *testing.T, asm *app.Assembled, payload []byte) []byte {
	t.Helper()
	out, err := asm.Handler.Invoke(context.Background(), payload)
	if err != nil {
		t.Fatalf("%s: %v", asm.Function.Name, err)
	}
	return out
}

// receive takes the messages waiting on an SQS queue.
func receive(t *testing.T, url string) []string {
	t.Helper()
	res, err := sqstest.Start(t).ReceiveMessage(context.Background(), &sqs.ReceiveMessageInput{
		QueueUrl: aws.String(url), MaxNumberOfMessages: 10, WaitTimeSeconds: 1})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range res.Messages {
		out = append(out, aws.ToString(m.Body))
	}
	return out
}

// The API bootstrap, as api-get-me and api-post-query-run: the key secret
// comes from Secrets Manager, keys are found in DynamoDB, and an accepted
// run's job goes to the SQS jobs queue.
func TestAPIFunctionsColdStart(t *testing.T) {
	clearEnv(t)
	c := emulatedCloud(t)
	tpl := loadTemplate(t)
	seedAcme(t, emulatedTable(t, c))

	t.Run("api-get-me", func(t *testing.T) {
		asm, err := coldStart(t, c, tpl, "api-get-me", quiet())
		if err != nil {
			t.Fatal(err)
		}
		var resp awsevents.APIGatewayV2HTTPResponse
		json.Unmarshal(invoke(t, asm, readEvent(t, "api-get-me.json")), &resp)
		if resp.StatusCode != 200 || !strings.Contains(resp.Body, `"tenant_id":1`) {
			t.Fatalf("%d %s", resp.StatusCode, resp.Body)
		}
	})
	t.Run("api-post-query-run", func(t *testing.T) {
		asm, err := coldStart(t, c, tpl, "api-post-query-run", quiet())
		if err != nil {
			t.Fatal(err)
		}
		var resp awsevents.APIGatewayV2HTTPResponse
		json.Unmarshal(invoke(t, asm, readEvent(t, "api-post-query-run.json")), &resp)
		var acc struct{ JobID, Status string }
		json.Unmarshal([]byte(resp.Body), &acc)
		if resp.StatusCode != 202 || acc.JobID == "" {
			t.Fatalf("%d %s", resp.StatusCode, resp.Body)
		}
		msgs := receive(t, c.jobsURL)
		if len(msgs) != 1 {
			t.Fatalf("jobs queue holds %q", msgs)
		}
		jsontest.Equal(t, msgs[0], `{"jobId":"`+acc.JobID+`","tenantId":1,"type":"query_run"}`)
	})
}

// worker-dispatch starts the workflow of the job's type in Step Functions
// under the job id; the redelivered message starts nothing and does not
// fail while that execution runs, but comes back (and ends in the DLQ) once
// it has failed: the job's name cannot run again and the job may be
// unsettled.
func TestDispatchStartsTheJobsWorkflow(t *testing.T) {
	clearEnv(t)
	c := offlineCloud(t)
	asm, err := coldStart(t, c, loadTemplate(t), "worker-dispatch", quiet())
	if err != nil {
		t.Fatal(err)
	}
	started := func() []startExecution {
		c.aws.mu.Lock()
		defer c.aws.mu.Unlock()
		out := c.aws.executions
		c.aws.executions = nil
		return out
	}
	for range 2 {
		jsontest.Equal(t, string(invoke(t, asm, readEvent(t, "sqs-jobs.json"))), `{"batchItemFailures":[]}`)
	}
	c.aws.mu.Lock()
	if len(c.aws.executions) != 1 || c.aws.executions[0].StateMachineArn != stateMachineARN || c.aws.executions[0].Name != "01jexample" {
		t.Fatalf("executions %+v", c.aws.executions)
	}
	jsontest.Equal(t, c.aws.executions[0].Input, `{"jobId":"01jexample","tenantId":1}`)
	if want := []string{"arn:aws:states:us-east-1:123456789012:execution:query-execution:01jexample"}; !reflect.DeepEqual(c.aws.described, want) {
		t.Errorf("described %q, want %q", c.aws.described, want)
	}
	c.aws.executionStatus = "FAILED"
	c.aws.mu.Unlock()
	// The name of an execution that ended cannot run again: the message is
	// dropped (acknowledged), not retried into the DLQ; the execution-ended
	// rule or the sweep settles the job.
	jsontest.Equal(t, string(invoke(t, asm, readEvent(t, "sqs-jobs.json"))), `{"batchItemFailures":[]}`)
	started()

	// A metered job's message starts the state machine of its type.
	for typ, arn := range map[string]string{"gap_detection": gapStateMachineARN, "brief_generation": contentStateMachineARN,
		"content_generation": contentStateMachineARN, "rescore": rescoreStateMachineARN} {
		ev := strings.Replace(string(readEvent(t, "sqs-jobs.json")), `\"tenantId\":1}`, `\"tenantId\":1,\"type\":\"`+typ+`\"}`, 1)
		ev = strings.ReplaceAll(ev, "01jexample", "01j"+typ)
		jsontest.Equal(t, string(invoke(t, asm, []byte(ev))), `{"batchItemFailures":[]}`)
		ex := started()
		if len(ex) != 1 || ex[0].StateMachineArn != arn || ex[0].Name != "01j"+typ {
			t.Fatalf("%s: executions %+v", typ, ex)
		}
		jsontest.Equal(t, ex[0].Input, `{"jobId":"01j`+typ+`","tenantId":1,"type":"`+typ+`"}`)
	}
}

// The query-execution steps, in workflow order, each through its own
// function: mark running, run each platform (replay: perplexity has no
// answer, and fails with the error type the ASL catches), settle.
func TestStepFunctionsColdStart(t *testing.T) {
	clearEnv(t)
	c := emulatedCloud(t)
	tpl := loadTemplate(t)
	tbl := emulatedTable(t, c)
	repos := seedAcme(t, tbl)
	svc, err := app.NewServices(repos, app.Deps{Logger: quiet(), Callbacks: workflow.LocalCallbacks{Tokens: workflow.NewTaskTokens()}, Jobs: queue.NewSQS(sqstest.Start(t), c.jobsURL, nil),
		Deliveries: queue.NewSQS(sqstest.Start(t), c.deliveriesURL, nil), Secrets: secrets.NewSealer(secrets.NewMemoryKeyring())})
	if err != nil {
		t.Fatal(err)
	}
	a, err := svc.Runs.Start(context.Background(), runs.Request{TenantID: 1, QueryID: 1, Samples: 1})
	if err != nil {
		t.Fatal(err)
	}
	withJob := func(name string) []byte {
		return []byte(strings.ReplaceAll(string(readEvent(t, name)), "01jexample0000000000000000", a.Job.ID))
	}
	step := func(t *testing.T, fn string, in []byte, override ...string) (map[string]any, error) {
		t.Helper()
		asm, err := coldStart(t, c, tpl, fn, quiet(), override...)
		if err != nil {
			t.Fatal(err)
		}
		out, err := asm.Handler.Invoke(context.Background(), in)
		if err != nil {
			return nil, err
		}
		var m map[string]any
		if err := json.Unmarshal(out, &m); err != nil {
			t.Fatal(err)
		}
		return m, nil
	}
	t.Run("step-mark-running", func(t *testing.T) {
		out, err := step(t, runs.StepMarkRunning, withJob("step-mark-running.json"))
		if items, _ := out["items"].([]any); err != nil || len(items) != 2 {
			t.Fatalf("%v %v", out, err)
		}
	})
	t.Run("step-run-platform", func(t *testing.T) {
		// The template asks for live providers; these tests replay answers.
		replay := []string{"BRANDLENS_PROVIDERS", "replay", "BRANDLENS_REPLAY_FILE", "testdata/replay.json"}
		out, err := step(t, runs.StepRunPlatform, withJob("step-run-platform.json"), replay...)
		if err != nil || out["status"] != "succeeded" || out["mentioned"] != true {
			t.Fatalf("chatgpt: %v %v", out, err)
		}
		_, err = step(t, runs.StepRunPlatform, []byte(strings.Replace(string(withJob("step-run-platform.json")), "chatgpt", "perplexity", 1)), replay...)
		// Lambda reports the error's type name, which the ASL's Catch matches:
		// the handler must return it unwrapped.
		if typ := reflect.TypeOf(err); typ == nil || typ.Kind() != reflect.Pointer || typ.Elem().Name() != "ProviderFailedError" {
			t.Fatalf("perplexity without a recorded answer: %T %v", err, err)
		}
	})
	t.Run("step-run-platforms", func(t *testing.T) {
		// Every item of the run in one invocation: chatgpt's answer was
		// recorded by step-run-platform above (its marker: not asked
		// again), perplexity has no replayed answer and fails as an item —
		// a result, not the step's error.
		replay := []string{"BRANDLENS_PROVIDERS", "replay", "BRANDLENS_REPLAY_FILE", "testdata/replay.json"}
		item := string(withJob("step-run-platform.json"))
		in := []byte(`{"items":[` + item + `,` + strings.Replace(item, "chatgpt", "perplexity", 1) + `]}`)
		asm, err := coldStart(t, c, tpl, runs.StepRunPlatforms, quiet(), replay...)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := asm.Handler.Invoke(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		var outs []runs.PlatformOutput
		if err := json.Unmarshal(raw, &outs); err != nil || len(outs) != 2 {
			t.Fatalf("%s %v", raw, err)
		}
		if o := outs[0]; o.Platform != "chatgpt" || o.Status != "succeeded" || !o.Mentioned {
			t.Errorf("chatgpt %+v", o)
		}
		if o := outs[1]; o.Platform != "perplexity" || o.Status != "failed" || o.Error == nil || o.Error.Error != "ProviderFailedError" {
			t.Errorf("perplexity %+v", o)
		}
	})
	t.Run("step-settle", func(t *testing.T) {
		// The settled job's figures go out as embedded-metric-format lines
		// of the namespace template.yaml gives (brandlens/<stack>).
		var emf bytes.Buffer
		asm, err := coldStartWith(t, c, tpl, runs.StepSettle, quiet(), []app.ResourcesOption{app.WithMetricsOutput(&emf)})
		if err != nil {
			t.Fatal(err)
		}
		raw, err := asm.Handler.Invoke(context.Background(), withJob("step-settle.json"))
		var out map[string]any
		if err == nil {
			err = json.Unmarshal(raw, &out)
		}
		if err != nil || out["status"] != "partial" || out["creditsCharged"] != float64(1) {
			t.Fatalf("%v %v", out, err)
		}
		lines := strings.Split(strings.TrimSpace(emf.String()), "\n")
		if len(lines) != 2 || !strings.Contains(lines[0], `"Namespace":"brandlens/brandlens-test"`) ||
			!strings.Contains(lines[0], `"JobsSettled":1`) || !strings.Contains(lines[0], `"Status":"partial"`) || !strings.Contains(lines[0], `"CreditsCaptured":1`) ||
			!strings.Contains(lines[1], `"ProviderFailures":1`) || !strings.Contains(lines[1], `"Platform":"perplexity"`) {
			t.Errorf("metric lines:\n%s", emf.String())
		}
		// A second delivery of the same Settle counts nothing twice.
		emf.Reset()
		if _, err := asm.Handler.Invoke(context.Background(), withJob("step-settle.json")); err != nil || emf.Len() != 0 {
			t.Errorf("duplicate settle: %v, metric lines %q", err, emf.String())
		}
		j, err := repos.Jobs.Get(context.Background(), 1, a.Job.ID)
		if err != nil || j.PerPlatformStatus["perplexity"].Error == nil || !strings.Contains(*j.PerPlatformStatus["perplexity"].Error, "no recorded answer") {
			t.Fatalf("job %+v %v", j, err)
		}
	})
	// The scheduler fans the due index out, one message per shard, and
	// worker-schedule starts each shard's due runs.
	t.Run("scheduler and worker-schedule", func(t *testing.T) {
		daily := queries.ScheduleDaily
		q, _, err := repos.Queries.Create(context.Background(), queries.Query{TenantID: 1, BrandProfileID: 1,
			Text: "scheduled note apps", Platforms: []string{"chatgpt"}, Schedule: &daily, IsActive: true})
		if err != nil {
			t.Fatal(err)
		}
		out, err := step(t, "scheduler", readEvent(t, "scheduler.json"))
		if err != nil || out["started"] != float64(0) || out["shards"] != float64(queries.DueShards) {
			t.Fatalf("%v %v", out, err)
		}
		var shards []string
		for len(shards) < queries.DueShards {
			got := receive(t, c.schedulesURL)
			if len(got) == 0 {
				t.Fatalf("the schedules queue holds %d messages, want %d", len(shards), queries.DueShards)
			}
			shards = append(shards, got...)
		}
		asm, err := coldStart(t, c, tpl, "worker-schedule", quiet())
		if err != nil {
			t.Fatal(err)
		}
		fixture := string(readEvent(t, "sqs-schedules.json"))
		for _, body := range shards {
			b, _ := json.Marshal(body)
			ev := strings.Replace(fixture, `"{\"shard\":0}"`, string(b), 1)
			jsontest.Equal(t, string(invoke(t, asm, []byte(ev))), `{"batchItemFailures":[]}`)
		}
		js, _, err := repos.Jobs.Page(context.Background(), 1, "", 200, "")
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, j := range js {
			if j.QueryID != nil && *j.QueryID == q.ID {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("%d jobs of the scheduled query, want 1", n)
		}
	})
}

// fixtureSubscription is the subscription the webhook fixtures address.
const fixtureSubscription = "wh_01jpb7zq5k3v8n2m4x6c9d1f0h"

// receiver is a webhook endpoint that checks each POST's signature.
type receiver struct {
	srv    *httptest.Server
	secret string
	mu     sync.Mutex
	bodies [][]byte
	badSig int
}

func newReceiver(t *testing.T, secret string) *receiver {
	rc := &receiver{secret: secret}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		defer rc.mu.Unlock()
		if !signing.Verify([]byte(secret), b, r.Header.Get("X-Service-Signature")) {
			rc.badSig++
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		rc.bodies = append(rc.bodies, b)
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

// worker-fanout on the stream batch and on the sweep schedule, and
// worker-deliver on the deliveries message: the fan-out enqueues exactly
// the message of events/sqs-deliveries.json, which delivers the event,
// signed.
func TestWebhookWorkersColdStart(t *testing.T) {
	clearEnv(t)
	c := emulatedCloud(t)
	tpl := loadTemplate(t)
	tbl := emulatedTable(t, c)
	ctx := context.Background()
	const secret = "fixture-subscription-secret-0001"
	rc := newReceiver(t, secret)
	// Stored the way CreateSubscription stores it, with the fixtures' id:
	// the secret sealed under the stack's KMS key, which worker-deliver
	// (and it alone) may open.
	sealed, err := secrets.NewSealer(secrets.NewKMS(c.kms.Client(), c.secretsKey)).Seal(ctx, secret,
		secrets.Binding{Purpose: webhooks.SecretPurpose, TenantID: 1, RecordID: fixtureSubscription})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := store.EncodeDoc(webhooks.Subscription{ID: fixtureSubscription, TenantID: 1, URL: rc.srv.URL, Events: []string{"*"},
		Active: true, SealedSecret: &sealed, CreatedAt: time.Now(), UpdatedAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if err := tbl.Put(ctx, store.Item{store.AttrPK: "TENANT#1", store.AttrSK: "WEBHOOK#" + fixtureSubscription,
		store.AttrDoc: doc, "kind": "webhook", "active": true}, store.NotExists()); err != nil {
		t.Fatal(err)
	}
	// The receiver listens on loopback, which only local development allows.
	allowLoopback := []string{config.EnvAllowLoopback, "1"}

	var batch awsevents.DynamoDBEvent
	raw := readEvent(t, "dynamodb-stream-outbox.json")
	if err := json.Unmarshal(raw, &batch); err != nil {
		t.Fatal(err)
	}
	var ev outbox.Event
	if err := json.Unmarshal([]byte(batch.Records[0].Change.NewImage["doc"].String()), &ev); err != nil {
		t.Fatal(err)
	}
	if err := outbox.Append(ctx, tbl, ev); err != nil { // the item the stream record reports
		t.Fatal(err)
	}

	t.Run("worker-fanout stream", func(t *testing.T) {
		asm, err := coldStart(t, c, tpl, "worker-fanout", quiet(), allowLoopback...)
		if err != nil {
			t.Fatal(err)
		}
		// The second record (a ping event, not pending) is not fanned out.
		jsontest.Equal(t, string(invoke(t, asm, raw)), `{"batchItemFailures":[]}`)
		if p, _ := outbox.Pending(ctx, tbl, 10); len(p) != 0 {
			t.Errorf("still pending: %v", p)
		}
		msgs := receive(t, c.deliveriesURL)
		var fixture awsevents.SQSEvent
		json.Unmarshal(readEvent(t, "sqs-deliveries.json"), &fixture)
		if len(msgs) != 1 {
			t.Fatalf("deliveries queue holds %q", msgs)
		}
		jsontest.Equal(t, msgs[0], fixture.Records[0].Body)
	})
	t.Run("worker-deliver", func(t *testing.T) {
		asm, err := coldStart(t, c, tpl, "worker-deliver", quiet(), allowLoopback...)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 { // the second is a duplicate message: nothing is sent again
			jsontest.Equal(t, string(invoke(t, asm, readEvent(t, "sqs-deliveries.json"))), `{"batchItemFailures":[]}`)
		}
		want, _ := webhooks.Envelope(ev)
		rc.mu.Lock()
		defer rc.mu.Unlock()
		if len(rc.bodies) != 1 || !bytes.Equal(rc.bodies[0], want) || rc.badSig != 0 {
			t.Fatalf("%d signed POSTs (%d badly signed), want the event once", len(rc.bodies), rc.badSig)
		}
		if n := c.kms.Calls()["Decrypt"]; n != 1 {
			t.Errorf("KMS Decrypt called %d times, want once (the data key is kept while warm)", n)
		}
	})
	t.Run("worker-fanout sweep", func(t *testing.T) {
		old, _ := outbox.New(1, outbox.CreditLow, outbox.CreditLowData{Balance: 9, Threshold: 10}, time.Now().Add(-app.SweepGrace-time.Minute))
		fresh, _ := outbox.New(1, outbox.CreditLow, outbox.CreditLowData{Balance: 8, Threshold: 10}, time.Now())
		for _, e := range []outbox.Event{old, fresh} {
			if err := outbox.Append(ctx, tbl, e); err != nil {
				t.Fatal(err)
			}
		}
		asm, err := coldStart(t, c, tpl, "worker-fanout", quiet())
		if err != nil {
			t.Fatal(err)
		}
		jsontest.Equal(t, string(invoke(t, asm, readEvent(t, "schedule-fanout-sweep.json"))), `{"fannedOut":1,"resent":0}`)
		if p, _ := outbox.Pending(ctx, tbl, 10); len(p) != 1 || p[0].ID != fresh.ID {
			t.Errorf("pending after the sweep: %v", p)
		}
	})
}

// The brand-check function, assembled by its own bootstrap: its secrets
// come from Secrets Manager, tokens are verified with siteverify, the
// client is API Gateway's sourceIp unless CloudFront's origin secret comes
// with the viewer's address, and the prompts are audited in the service's
// partition of the table (DynamoDB Local).
func TestBrandCheckColdStart(t *testing.T) {
	clearEnv(t)
	c := emulatedCloud(t)
	tbl := emulatedTable(t, c)
	sv := recaptchatest.New(t)
	asm, err := coldStart(t, c, loadTemplate(t), "brand-check", quiet(),
		// The template asks for live providers; these tests use the simulated ones.
		"BRANDLENS_PROVIDERS", "simulated", recaptcha.EnvVerifyURL, sv.URL)
	if err != nil {
		t.Fatal(err)
	}
	raw := readEvent(t, "brand-check.json")
	withHeaders := func(kv ...string) []byte {
		var ev map[string]any
		if err := json.Unmarshal(raw, &ev); err != nil {
			t.Fatal(err)
		}
		h := ev["headers"].(map[string]any)
		for i := 0; i+1 < len(kv); i += 2 {
			h[kv[i]] = kv[i+1]
		}
		b, _ := json.Marshal(ev)
		return b
	}
	cases := []struct {
		name   string
		event  []byte
		viewer string // the address siteverify must be told
	}{
		{"direct", raw, "203.0.113.24"},
		{"through CloudFront", withHeaders("cloudfront-viewer-address", "198.51.100.7:40123", "x-origin-verify", testOriginSecret), "198.51.100.7"},
		{"a forged viewer address", withHeaders("cloudfront-viewer-address", "198.51.100.8:40123", "x-origin-verify", "guess"), "203.0.113.24"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var resp awsevents.APIGatewayV2HTTPResponse
			if err := json.Unmarshal(invoke(t, asm, tc.event), &resp); err != nil {
				t.Fatal(err)
			}
			var body struct {
				BrandName string
				Platforms []struct{ Platform, Status string }
			}
			json.Unmarshal([]byte(resp.Body), &body)
			if resp.StatusCode != 200 || body.BrandName != "Acme Notes" || len(body.Platforms) != 5 {
				t.Fatalf("%d %s", resp.StatusCode, resp.Body)
			}
			calls := sv.Calls()
			if last := calls[len(calls)-1]; last.RemoteIP != tc.viewer || last.Token != "03AFcWeA-sample-recaptcha-token" {
				t.Errorf("siteverify was asked %+v, want remoteip %s", last, tc.viewer)
			}
		})
	}
	// Only the first check asked the platforms (the others were the day's
	// cache): its 15 prompts are in the brand check's audit partition.
	page, err := audit.NewLog(tbl).ListService(context.Background(), audit.ScopeBrandCheck, audit.Filter{Limit: 100})
	if err != nil || len(page.Items) != 15 {
		t.Fatalf("%d audit entries (%v), want 15", len(page.Items), err)
	}
}
