package tracing

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// otlpHTTP is the exporter's client: one POST of an OTLP
// ExportTraceServiceRequest (protobuf) per batch to <endpoint>/v1/traces.
// It stands in for otlptracehttp, whose option and service packages link
// gRPC and grpc-gateway — twice the API bootstrap's size — for a transport
// this code never uses; the span conversion is still otlptrace's.
type otlpHTTP struct {
	url    string
	client *http.Client
}

func (otlpHTTP) Start(context.Context) error { return nil }
func (otlpHTTP) Stop(context.Context) error  { return nil }

// UploadTraces sends the spans. ExportTraceServiceRequest is one repeated
// field: resource_spans = 1.
func (c otlpHTTP) UploadTraces(ctx context.Context, spans []*tracepb.ResourceSpans) error {
	var body []byte
	for _, rs := range spans {
		b, err := proto.Marshal(rs)
		if err != nil {
			return fmt.Errorf("tracing: encode spans: %w", err)
		}
		body = protowire.AppendTag(body, 1, protowire.BytesType)
		body = protowire.AppendBytes(body, b)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("tracing: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	resp, err := c.client.Do(req)
	if err != nil {
		return fmt.Errorf("tracing: export: %w", err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("tracing: export: the collector answered %s", resp.Status)
	}
	return nil
}

// newOTLPHTTP is the client of the collector at endpoint (a base URL).
func newOTLPHTTP(endpoint string) otlpHTTP {
	return otlpHTTP{url: endpoint + "/v1/traces", client: &http.Client{Timeout: 2 * time.Second}}
}
