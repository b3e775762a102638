package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	awsevents "github.com/aws/aws-lambda-go/events"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/secrets"
	"github.com/brandlens/brandlens/shared/signing"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/webhooks"
	"github.com/brandlens/brandlens/shared/workflow"
)

// The IAM policy of every API function (the function table's Table,
// TableOnly and Grants, which template.yaml writes out) must allow what its
// handlers do, and no more than its guard needs when its feature is not
// built yet. Each route is called through the function's own Lambda
// handler over a table that records every DynamoDB action it would send:
// with the sample event of events/ when there is one (the success paths),
// and with a generic well-formed request.

// recordingTable records the DynamoDB actions the store calls amount to.
type recordingTable struct {
	store.Table
	mu  sync.Mutex
	ops []dynamoAction
}

// dynamoAction is one IAM-checked DynamoDB action: the action, whether it
// reads an index, and the partition key it touches.
type dynamoAction struct {
	Action string
	Index  bool
	PK     string
}

func (r *recordingTable) record(a ...dynamoAction) {
	r.mu.Lock()
	r.ops = append(r.ops, a...)
	r.mu.Unlock()
}

func (r *recordingTable) take() []dynamoAction {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.ops
	r.ops = nil
	return out
}

func (r *recordingTable) Get(ctx context.Context, key store.Key) (store.Item, error) {
	r.record(dynamoAction{"dynamodb:GetItem", false, key.PK})
	return r.Table.Get(ctx, key)
}

// GetMany is BatchGetItem, which IAM checks as the action itself.
func (r *recordingTable) GetMany(ctx context.Context, keys []store.Key) ([]store.Item, error) {
	for _, k := range keys {
		r.record(dynamoAction{"dynamodb:BatchGetItem", false, k.PK})
	}
	return store.GetMany(ctx, r.Table, keys...)
}

func (r *recordingTable) Put(ctx context.Context, item store.Item, cond store.Cond) error {
	r.record(dynamoAction{"dynamodb:PutItem", false, item.Key().PK})
	return r.Table.Put(ctx, item, cond)
}

func (r *recordingTable) Update(ctx context.Context, key store.Key, upd store.Update, cond store.Cond) (store.Item, error) {
	r.record(dynamoAction{"dynamodb:UpdateItem", false, key.PK})
	return r.Table.Update(ctx, key, upd, cond)
}

func (r *recordingTable) Delete(ctx context.Context, key store.Key, cond store.Cond) error {
	r.record(dynamoAction{"dynamodb:DeleteItem", false, key.PK})
	return r.Table.Delete(ctx, key, cond)
}

func (r *recordingTable) Query(ctx context.Context, q store.Query) (store.Page, error) {
	r.record(dynamoAction{"dynamodb:Query", q.Index != "", q.PK})
	return r.Table.Query(ctx, q)
}

// TransactWrite is TransactWriteItems, which IAM also checks as the
// action of each item it writes.
func (r *recordingTable) TransactWrite(ctx context.Context, ops ...store.Op) error {
	acts := []dynamoAction{{"dynamodb:TransactWriteItems", false, ""}}
	for _, op := range ops {
		name := map[store.OpKind]string{store.OpPut: "dynamodb:PutItem", store.OpUpdate: "dynamodb:UpdateItem",
			store.OpDelete: "dynamodb:DeleteItem", store.OpCheck: "dynamodb:ConditionCheckItem"}[op.Kind]
		acts = append(acts, dynamoAction{name, false, op.OpKey().PK})
	}
	r.record(acts...)
	return r.Table.TransactWrite(ctx, ops...)
}

// recordingSender records the queue a handler sends to.
type recordingSender struct {
	name string
	sent *[]string
	mu   *sync.Mutex
}

func (s recordingSender) Send(context.Context, []byte, time.Duration) error {
	s.mu.Lock()
	*s.sent = append(*s.sent, s.name)
	s.mu.Unlock()
	return nil
}

// allows reports whether f's policy allows the action.
func allows(f app.Function, a dynamoAction) bool {
	if slices.Contains(f.Table, a.Action) && (!a.Index || !f.TableOnly) {
		return true
	}
	for _, g := range f.Grants {
		if !slices.Contains(g.Actions, a.Action) || a.Index {
			continue
		}
		if len(g.LeadingKeys) == 0 {
			return true
		}
		for _, k := range g.LeadingKeys {
			if strings.HasPrefix(a.PK, strings.TrimSuffix(k, "*")) {
				return true
			}
		}
	}
	return false
}

// recordingKeys records the KMS actions sealing and opening amount to
// (over a keyring in memory).
type recordingKeys struct {
	*secrets.Keyring
	mu   sync.Mutex
	acts []string
}

func (k *recordingKeys) record(a string) { k.mu.Lock(); k.acts = append(k.acts, a); k.mu.Unlock() }

func (k *recordingKeys) take() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	out := k.acts
	k.acts = nil
	return out
}

func (k *recordingKeys) DataKey(ctx context.Context, ec map[string]string) (string, []byte, []byte, error) {
	k.record("kms:GenerateDataKey")
	return k.Keyring.DataKey(ctx, ec)
}

func (k *recordingKeys) Unwrap(ctx context.Context, kid string, wrapped []byte, ec map[string]string) ([]byte, error) {
	k.record("kms:Decrypt")
	return k.Keyring.Unwrap(ctx, kid, wrapped, ec)
}

func grantsQueue(f app.Function, logicalID string) bool {
	for _, g := range f.Grants {
		if slices.Contains(g.Actions, "sqs:SendMessage") && slices.Contains(g.Resources, "!GetAtt "+logicalID+".Arn") {
			return true
		}
	}
	return false
}

// genericEvent is the API Gateway event of a well-formed request to route
// r, with the sample events' key and path parameters that name what the
// test seeded.
func genericEvent(t *testing.T, r httpapi.Route, params map[string]string, siteSecret []byte) []byte {
	t.Helper()
	var ev awsevents.APIGatewayV2HTTPRequest
	if err := json.Unmarshal(readEvent(t, "api-get-me.json"), &ev); err != nil {
		t.Fatal(err)
	}
	path := r.Path
	for _, p := range r.Params() {
		if p.In == httpapi.InPath {
			path = strings.ReplaceAll(path, "{"+p.Name+"}", params[p.Name])
		}
	}
	if r.Path == httpapi.CatchAll.Path {
		path = "/api/v1/nothing-here"
	}
	method := r.Method
	if method == "ANY" {
		method = http.MethodGet
	}
	ev.RouteKey = method + " " + r.Path
	ev.RawPath, ev.RequestContext.HTTP.Path, ev.RequestContext.HTTP.Method = path, path, method
	ev.RequestContext.RouteKey = ev.RouteKey
	if method != http.MethodGet && method != http.MethodDelete {
		ev.Body = "{}"
		ev.Headers["content-type"] = "application/json"
		ev.Headers["idempotency-key"] = "policy-test-" + r.Function
		if r.Guard == httpapi.GuardSignedBody {
			ev.Headers["x-service-signature"] = signing.Sign(siteSecret, []byte(ev.Body))
		}
	}
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestAPIPoliciesCoverWhatHandlersDo(t *testing.T) {
	clearEnv(t)
	base, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { base.Close() })
	rec := &recordingTable{Table: base}
	repos := seedAcme(t, rec)
	var (
		mu   sync.Mutex
		sent []string
	)
	keys := &recordingKeys{Keyring: secrets.NewMemoryKeyring()}
	svc, err := app.NewServices(repos, app.Deps{Logger: quiet(), Callbacks: workflow.LocalCallbacks{Tokens: workflow.NewTaskTokens()},
		Jobs:       recordingSender{"JobsQueue", &sent, &mu},
		Deliveries: recordingSender{"DeliveriesQueue", &sent, &mu},
		Secrets:    secrets.NewSealer(keys)})
	if err != nil {
		t.Fatal(err)
	}
	// The test's own writes go through a sealer of their own, so that no
	// data key they leave in the handlers' cache hides an open.
	setup := webhooks.New(rec, webhooks.Options{Sender: recordingSender{"DeliveriesQueue", &sent, &mu}, Logger: quiet(),
		Secrets: secrets.NewSealer(keys)})
	ctx := context.Background()
	job, err := svc.Runs.Start(ctx, runs.Request{TenantID: 1, QueryID: 1, Samples: 1})
	if err != nil {
		t.Fatal(err)
	}
	siteSecret := []byte(testSiteSecret)

	for _, f := range app.Functions() {
		if f.Kind != app.KindAPI {
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			h, err := httpapi.NewLambdaHandler(svc.HTTPDeps(siteSecret), f.Name)
			if err != nil {
				t.Fatal(err)
			}
			var payloads [][]byte
			if b, err := readEventIfAny(f.Name + ".json"); err == nil {
				payloads = append(payloads, b)
			}
			// What the routes' ids name: the first query, the job, and a
			// subscription with one delivery of its own.
			sub, err := setup.CreateSubscription(ctx, 1, webhooks.NewSubscription{URL: "https://hooks.example.com/" + f.Name})
			if err != nil {
				t.Fatal(err)
			}
			// Removed afterwards: the tenant may hold 50 subscriptions, fewer
			// than the functions.
			t.Cleanup(func() { _ = svc.Webhooks.DeleteSubscription(ctx, 1, sub.ID) })
			dlv, err := setup.Ping(ctx, 1, "key-"+f.Name, sub.ID)
			if err != nil {
				t.Fatal(err)
			}
			rec.take()
			keys.take()
			builtAny := false
			for _, r := range f.Routes {
				p := map[string]string{"id": "1", "type": "news"}
				switch {
				case strings.HasPrefix(r.Path, "/api/v1/webhooks/{id}"):
					p = map[string]string{"id": sub.ID, "deliveryId": dlv.ID}
				case strings.HasPrefix(r.Path, "/api/v1/jobs/{id}"):
					p["id"] = job.Job.ID
				}
				payloads = append(payloads, genericEvent(t, r, p, siteSecret))
			}
			for _, payload := range payloads {
				mu.Lock()
				sent = nil
				mu.Unlock()
				out, err := h(context.Background(), mustEvent(t, payload))
				if err != nil {
					t.Fatal(err)
				}
				if out.StatusCode != http.StatusNotImplemented {
					builtAny = true
				}
				for _, a := range rec.take() {
					if !allows(f, a) {
						t.Errorf("%s (answered %d) does %s on %s (index %v), which its policy does not allow", f.Name, out.StatusCode, a.Action, a.PK, a.Index)
					}
				}
				for _, a := range keys.take() {
					if !slices.Contains(f.SecretsKey, a) {
						t.Errorf("%s (answered %d) calls %s on the secrets key, which its policy does not allow", f.Name, out.StatusCode, a)
					}
				}
				mu.Lock()
				for _, q := range sent {
					if !grantsQueue(f, q) {
						t.Errorf("%s sends to %s without sqs:SendMessage on it", f.Name, q)
					}
				}
				mu.Unlock()
			}
			// A function whose every route answers 501 has only what its
			// guard needs.
			if !builtAny {
				if want := app.GuardAccess(f); !slices.Equal(f.Table, want.Table) || fmt.Sprint(f.Grants) != fmt.Sprint(want.Grants) {
					t.Errorf("%s is not built yet, but its policy is Table %v Grants %v, want its guard's: Table %v Grants %v",
						f.Name, f.Table, f.Grants, want.Table, want.Grants)
				}
			}
		})
	}
}

func readEventIfAny(name string) ([]byte, error) {
	return os.ReadFile(filepath.Join("..", "..", "events", name))
}

func mustEvent(t *testing.T, payload []byte) awsevents.APIGatewayV2HTTPRequest {
	t.Helper()
	var ev awsevents.APIGatewayV2HTTPRequest
	if err := json.Unmarshal(payload, &ev); err != nil {
		t.Fatal(err)
	}
	return ev
}
