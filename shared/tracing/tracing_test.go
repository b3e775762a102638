package tracing_test

import (
	"context"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/lambda"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/tracing"
)

// An X-Ray trace header as Lambda passes it to an invocation.
const (
	xrayRoot   = "1-67d1c7ae-3f1c2b5e6a7d8c9b0a1e2f30"
	xrayParent = "53995c3f42cd8ad8"
	header     = "Root=" + xrayRoot + ";Parent=" + xrayParent + ";Sampled=1"
)

// otelTraceID is the X-Ray root as an OpenTelemetry trace id.
var otelTraceID = strings.ReplaceAll(strings.TrimPrefix(xrayRoot, "1-"), "-", "")

func attrs(s sdktrace.ReadOnlySpan) map[string]string {
	out := map[string]string{}
	for _, a := range s.Attributes() {
		out[string(a.Key)] = a.Value.Emit()
	}
	return out
}

type sent struct{ n int }

func (s *sent) Send(context.Context, []byte, time.Duration) error {
	s.n++
	if s.n > 1 {
		return errors.New("sqs: throttled")
	}
	return nil
}

type refusing struct{}

func (refusing) Platform() string { return "claude" }
func (refusing) Answer(context.Context, providers.Request) (providers.Answer, error) {
	return providers.Answer{}, &providers.Error{Platform: "claude", Kind: providers.KindQuota, Status: 402}
}

// One invocation: a child span of the X-Ray segment, with a span per
// store call, message, platform call and webhook POST inside it.
func TestSpansOfAnInvocation(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tr := tracing.NewWith(rec, "step-run-platform")
	tbl, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	traced := tr.Table(tbl)
	q := &sent{}
	sender := tr.Sender(q, "jobs")
	provs := tr.Providers(providers.Set{"chatgpt": providers.NewSimulated("chatgpt"), "claude": refusing{}})
	var gotTraceHeaders []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotTraceHeaders = append(gotTraceHeaders, r.Header.Get("Traceparent")+r.Header.Get("X-Amzn-Trace-Id"))
		w.WriteHeader(http.StatusGone)
	}))
	defer srv.Close()
	client := &http.Client{Transport: tr.Transport(http.DefaultTransport)}

	h := tr.Handler(lambda.NewHandler(func(ctx context.Context) (string, error) {
		key := store.Key{PK: "TENANT#1", SK: "JOB#01"}
		if err := traced.Put(ctx, store.Item{"PK": key.PK, "SK": key.SK}, store.NotExists()); err != nil {
			return "", err
		}
		if err := traced.Put(ctx, store.Item{"PK": key.PK, "SK": key.SK}, store.NotExists()); !errors.Is(err, store.ErrConditionFailed) {
			return "", err
		}
		if _, err := traced.Get(ctx, store.Key{PK: "APIKEY#abc", SK: "APIKEY"}); !errors.Is(err, store.ErrNotFound) {
			return "", err
		}
		if _, err := traced.Query(ctx, store.Query{PK: key.PK}); err != nil {
			return "", err
		}
		_ = sender.Send(ctx, []byte(`{}`), 0)
		_ = sender.Send(ctx, []byte(`{}`), time.Second)
		_, _ = provs["chatgpt"].Answer(ctx, providers.Request{Query: "best crm", Sample: 1})
		_, _ = provs["claude"].Answer(ctx, providers.Request{Query: "best crm", Sample: 2})
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/hook", strings.NewReader(`{}`))
		resp, err := client.Do(req)
		if err != nil {
			return "", err
		}
		resp.Body.Close()
		return "ok", nil
	}))
	ctx := context.WithValue(context.Background(), "x-amzn-trace-id", header) //nolint:staticcheck // aws-lambda-go's own key
	if _, err := h.Invoke(ctx, []byte(`{}`)); err != nil {
		t.Fatal(err)
	}

	spans := rec.Ended()
	byName := map[string][]sdktrace.ReadOnlySpan{}
	var root sdktrace.ReadOnlySpan
	for _, s := range spans {
		byName[s.Name()] = append(byName[s.Name()], s)
		if s.Name() == "step-run-platform" {
			root = s
		}
	}
	if root == nil {
		t.Fatalf("no invocation span among %v", names(spans))
	}
	if got := root.SpanContext().TraceID().String(); got != otelTraceID || root.Parent().SpanID().String() != xrayParent || !root.Parent().IsRemote() {
		t.Errorf("invocation span: trace %s parent %s, want the X-Ray segment's %s %s", got, root.Parent().SpanID(), otelTraceID, xrayParent)
	}
	for _, s := range spans {
		if s != root && (s.SpanContext().TraceID() != root.SpanContext().TraceID() || s.Parent().SpanID() != root.SpanContext().SpanID()) {
			t.Errorf("%s is not a child of the invocation span", s.Name())
		}
	}
	tests := []struct {
		name   string
		count  int
		attrs  map[string]string
		failed bool
	}{
		{"store.PutItem", 2, map[string]string{"db.operation.name": "PutItem", "brandlens.entity": "TENANT"}, false},
		{"store.GetItem", 1, map[string]string{"brandlens.entity": "APIKEY", "brandlens.outcome": "not_found"}, false},
		{"store.Query", 1, map[string]string{"brandlens.items": "1"}, false},
		// The second send, delayed a second, fails.
		{"queue.send jobs", 2, map[string]string{"messaging.system": "aws_sqs", "messaging.destination.name": "jobs", "brandlens.delay_ms": "1000"}, true},
		{"provider.answer chatgpt", 1, map[string]string{"brandlens.platform": "chatgpt", "brandlens.sample": "1"}, false},
		{"provider.answer claude", 1, map[string]string{"brandlens.failure": "quota", "http.response.status_code": "402"}, true},
		{"webhook POST", 1, map[string]string{"http.response.status_code": "410"}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := byName[tc.name]
			if len(got) != tc.count {
				t.Fatalf("%d spans, want %d (spans: %v)", len(got), tc.count, names(spans))
			}
			last := got[len(got)-1]
			a := attrs(last)
			for k, v := range tc.attrs {
				if a[k] != v {
					t.Errorf("%s = %q, want %q (%v)", k, a[k], v, a)
				}
			}
			if failed := last.Status().Code == codes.Error; failed != tc.failed {
				t.Errorf("status %v, want failed %v", last.Status(), tc.failed)
			}
		})
	}
	if put := byName["store.PutItem"]; len(put) == 2 && (put[1].Status().Code == codes.Error || attrs(put[1])["brandlens.outcome"] != "condition_failed") {
		t.Error("a failed condition is an outcome, not an error of the store")
	}
	for _, s := range spans {
		for _, a := range s.Attributes() {
			if strings.Contains(a.Value.Emit(), "TENANT#1") || a.Key == attribute.Key("db.query.text") {
				t.Errorf("%s carries a key value: %s=%s", s.Name(), a.Key, a.Value.Emit())
			}
		}
	}
	if len(gotTraceHeaders) != 1 || gotTraceHeaders[0] != "" {
		t.Errorf("trace headers sent to the webhook receiver: %q", gotTraceHeaders)
	}
}

func names(spans []sdktrace.ReadOnlySpan) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.Name())
	}
	slices.Sort(out)
	return out
}

// Unsampled X-Ray segments record nothing.
func TestUnsampledInvocations(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tr := tracing.NewWith(rec, "api-get-me")
	h := tr.Handler(lambda.NewHandler(func(context.Context) (string, error) { return "ok", nil }))
	ctx := context.WithValue(context.Background(), "x-amzn-trace-id", "Root="+xrayRoot+";Parent="+xrayParent+";Sampled=0") //nolint:staticcheck
	if _, err := h.Invoke(ctx, []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if n := len(rec.Ended()); n != 0 {
		t.Errorf("%d spans of an unsampled invocation", n)
	}
}

// Off, nothing is wrapped.
func TestOffWrapsNothing(t *testing.T) {
	var tr *tracing.Tracing
	tbl, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	h := lambda.NewHandler(func() error { return nil })
	set := providers.Set{"chatgpt": providers.NewSimulated("chatgpt")}
	if tr.Table(tbl) != store.Table(tbl) || tr.Handler(h) != h || tr.Transport(http.DefaultTransport) != http.DefaultTransport ||
		tr.Providers(set)["chatgpt"] != set["chatgpt"] || tr.Shutdown(context.Background()) != nil {
		t.Error("a nil Tracing wrapped something")
	}
	q := &sent{}
	if tr.Sender(q, "jobs") != q {
		t.Error("a nil Tracing wrapped the sender")
	}
}

// collector is the OTLP/HTTP receiver of the collector extension.
type collector struct {
	mu       sync.Mutex
	requests []*collectortrace.ExportTraceServiceRequest
	paths    []string
}

func (c *collector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	var req collectortrace.ExportTraceServiceRequest
	if err := proto.Unmarshal(b, &req); err != nil || r.Header.Get("Content-Type") != "application/x-protobuf" {
		http.Error(w, "bad export", http.StatusBadRequest)
		return
	}
	c.mu.Lock()
	c.requests = append(c.requests, &req)
	c.paths = append(c.paths, r.URL.Path)
	c.mu.Unlock()
	w.Header().Set("Content-Type", "application/x-protobuf")
	out, _ := proto.Marshal(&collectortrace.ExportTraceServiceResponse{})
	w.Write(out)
}

// The spans reach the collector over OTLP/HTTP before the invocation
// returns, with the X-Ray trace id, without waiting for the batch timer.
func TestSpansAreExportedBeforeTheInvocationReturns(t *testing.T) {
	c := &collector{}
	srv := httptest.NewServer(c)
	defer srv.Close()
	tr, err := tracing.New(context.Background(), srv.URL, "api-get-me")
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Shutdown(context.Background())
	tbl, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	traced := tr.Table(tbl)
	h := tr.Handler(lambda.NewHandler(func(ctx context.Context) (string, error) {
		_, err := traced.Get(ctx, store.Key{PK: "APIKEY#x", SK: "APIKEY"})
		if errors.Is(err, store.ErrNotFound) {
			err = nil
		}
		return "ok", err
	}))
	ctx := context.WithValue(context.Background(), "x-amzn-trace-id", header) //nolint:staticcheck
	if _, err := h.Invoke(ctx, []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var got []string
	for i, req := range c.requests {
		if c.paths[i] != "/v1/traces" {
			t.Errorf("exported to %s", c.paths[i])
		}
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					got = append(got, s.Name+" "+hex.EncodeToString(s.TraceId))
				}
			}
		}
	}
	slices.Sort(got)
	want := []string{"api-get-me " + otelTraceID, "store.GetItem " + otelTraceID}
	if !slices.Equal(got, want) {
		t.Errorf("exported %v, want %v", got, want)
	}
}
