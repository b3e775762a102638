package app_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	awsevents "github.com/aws/aws-lambda-go/events"
	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/brandlens/brandlens/shared/config"
)

// otlpCollector stands for the collector extension: it keeps the names of
// the spans exported to it, by trace id.
type otlpCollector struct {
	mu    sync.Mutex
	spans map[string][]string
}

func (c *otlpCollector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	var req collectortrace.ExportTraceServiceRequest
	if r.URL.Path != "/v1/traces" || proto.Unmarshal(b, &req) != nil {
		http.Error(w, "bad export", http.StatusBadRequest)
		return
	}
	c.mu.Lock()
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				id := hex.EncodeToString(s.TraceId)
				c.spans[id] = append(c.spans[id], s.Name)
			}
		}
	}
	c.mu.Unlock()
	out, _ := proto.Marshal(&collectortrace.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.Write(out)
}

// With BRANDLENS_TRACING=otlp an API function's invocation is a span of
// the X-Ray trace Lambda gives it, with its store calls inside, exported
// to the collector before the invocation returns.
func TestTracedColdStart(t *testing.T) {
	clearEnv(t)
	c := emulatedCloud(t)
	tpl := loadTemplate(t)
	seedAcme(t, emulatedTable(t, c))
	col := &otlpCollector{spans: map[string][]string{}}
	srv := httptest.NewServer(col)
	defer srv.Close()
	t.Setenv("_X_AMZN_TRACE_ID", "Root=1-67d1c7ae-3f1c2b5e6a7d8c9b0a1e2f30;Parent=53995c3f42cd8ad8;Sampled=1")
	asm, err := coldStart(t, c, tpl, "api-get-me", quiet(), config.EnvTracing, "otlp", config.EnvOTLPEndpoint, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	var resp awsevents.APIGatewayV2HTTPResponse
	out, err := asm.Handler.Invoke(context.Background(), readEvent(t, "api-get-me.json"))
	if err != nil || json.Unmarshal(out, &resp) != nil || resp.StatusCode != 200 {
		t.Fatalf("%s %v", out, err)
	}
	col.mu.Lock()
	defer col.mu.Unlock()
	got := col.spans["67d1c7ae3f1c2b5e6a7d8c9b0a1e2f30"]
	slices.Sort(got)
	// The key by its hash, its tenant, the rate-limit counter.
	want := []string{"api-get-me", "store.GetItem", "store.GetItem", "store.UpdateItem"}
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("exported spans %v (all traces: %v), want %v among them", got, col.spans, want)
			break
		}
	}
}
