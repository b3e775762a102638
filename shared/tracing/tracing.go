// Package tracing puts OpenTelemetry spans inside brandlens's Lambda
// functions: one per invocation, a child of the function's X-Ray segment
// (the trace header Lambda passes), and one around each call the code makes
// outward — the store, the queues, the AI platforms and webhook deliveries
// — so that a trace shows where an invocation spent its time, not only
// that it ran. Spans go over OTLP/HTTP to the collector extension of the
// ADOT Lambda layer, which sends them to X-Ray; they are flushed before
// each invocation returns (Lambda freezes the process afterwards).
//
// Off — the default, and always in `brandlens serve` — nothing is built or
// wrapped: a nil *Tracing returns what it is given, so the assembly calls
// it unconditionally at no cost.
package tracing

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/lambda"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/contrib/propagators/aws/xray"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/queue"
	"github.com/brandlens/brandlens/shared/store"
)

// Tracing makes the spans of one function.
type Tracing struct {
	tp       *sdktrace.TracerProvider
	tracer   trace.Tracer
	function string
}

// DefaultEndpoint is the OTLP/HTTP receiver of the collector extension.
const DefaultEndpoint = "http://localhost:4318"

// New exports the spans of function to the OTLP/HTTP endpoint (base URL,
// DefaultEndpoint when empty). Spans get X-Ray-compatible trace ids.
func New(ctx context.Context, endpoint, function string) (*Tracing, error) {
	if endpoint == "" {
		endpoint = DefaultEndpoint
	}
	exp, err := otlptrace.New(ctx, newOTLPHTTP(strings.TrimSuffix(endpoint, "/")))
	if err != nil {
		return nil, fmt.Errorf("tracing: %w", err)
	}
	return NewWith(sdktrace.NewBatchSpanProcessor(exp), function), nil
}

// NewWith makes the spans of function go to sp (tests pass a recorder).
func NewWith(sp sdktrace.SpanProcessor, function string) *Tracing {
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithSpanProcessor(sp),
		sdktrace.WithIDGenerator(xray.NewIDGenerator()),
		// Lambda's segment decides (the header's Sampled flag).
		sdktrace.WithSampler(sdktrace.ParentBased(sdktrace.AlwaysSample())),
		sdktrace.WithResource(resource.NewSchemaless(
			attribute.String("service.name", function),
			attribute.String("cloud.provider", "aws"),
			attribute.String("cloud.platform", "aws_lambda"),
			attribute.String("faas.name", os.Getenv("AWS_LAMBDA_FUNCTION_NAME")),
		)),
	)
	return &Tracing{tp: tp, tracer: tp.Tracer("github.com/brandlens/brandlens"), function: function}
}

// Shutdown flushes and stops the exporter.
func (t *Tracing) Shutdown(ctx context.Context) error {
	if t == nil {
		return nil
	}
	return t.tp.Shutdown(ctx)
}

// traceHeaderKey is where aws-lambda-go puts an invocation's X-Ray header
// (Lambda-Runtime-Trace-Id) in the handler's context.
const traceHeaderKey = "x-amzn-trace-id"

// Handler runs h in a span of the invocation, a child of the function's
// X-Ray segment, and flushes the spans before returning.
func (t *Tracing) Handler(h lambda.Handler) lambda.Handler {
	if t == nil {
		return h
	}
	return invocation{t: t, next: h}
}

type invocation struct {
	t    *Tracing
	next lambda.Handler
}

func (i invocation) Invoke(ctx context.Context, payload []byte) ([]byte, error) {
	header, _ := ctx.Value(traceHeaderKey).(string)
	if header == "" {
		header = os.Getenv("_X_AMZN_TRACE_ID")
	}
	ctx = xray.Propagator{}.Extract(ctx, propagation.MapCarrier{"X-Amzn-Trace-Id": header})
	ctx, span := i.t.tracer.Start(ctx, i.t.function, trace.WithSpanKind(trace.SpanKindServer),
		trace.WithAttributes(attribute.String("faas.trigger", "other")))
	out, err := i.next.Invoke(ctx, payload)
	end(span, err)
	// Lambda freezes the process once the handler returns: export now.
	flushCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	_ = i.t.tp.ForceFlush(flushCtx)
	return out, err
}

func end(span trace.Span, err error) {
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
}

// Table puts a span around every call to tbl.
func (t *Tracing) Table(tbl store.Table) store.Table {
	if t == nil {
		return tbl
	}
	return table{Table: tbl, t: t}
}

type table struct {
	store.Table
	t *Tracing
}

// entity is the kind of item a key names (TENANT, APIKEY, RATE, …), never
// its id: spans carry no tenant data.
func entity(pk string) string {
	kind, _, _ := strings.Cut(pk, "#")
	return kind
}

func (tb table) span(ctx context.Context, op, pk string, extra ...attribute.KeyValue) (context.Context, trace.Span) {
	return tb.t.tracer.Start(ctx, "store."+op, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(
		append([]attribute.KeyValue{attribute.String("db.system.name", "aws.dynamodb"), attribute.String("db.operation.name", op),
			attribute.String("brandlens.entity", entity(pk))}, extra...)...))
}

// endStore ends a store span; a missing item or a failed condition is an
// outcome the caller expects, not an error of the call.
func endStore(span trace.Span, err error) {
	switch {
	case errors.Is(err, store.ErrNotFound):
		span.SetAttributes(attribute.String("brandlens.outcome", "not_found"))
		err = nil
	case errors.Is(err, store.ErrConditionFailed):
		span.SetAttributes(attribute.String("brandlens.outcome", "condition_failed"))
		err = nil
	}
	end(span, err)
}

func (tb table) Get(ctx context.Context, key store.Key) (store.Item, error) {
	ctx, span := tb.span(ctx, "GetItem", key.PK)
	it, err := tb.Table.Get(ctx, key)
	endStore(span, err)
	return it, err
}

func (tb table) Put(ctx context.Context, item store.Item, cond store.Cond) error {
	ctx, span := tb.span(ctx, "PutItem", item.Key().PK)
	err := tb.Table.Put(ctx, item, cond)
	endStore(span, err)
	return err
}

func (tb table) Update(ctx context.Context, key store.Key, upd store.Update, cond store.Cond) (store.Item, error) {
	ctx, span := tb.span(ctx, "UpdateItem", key.PK)
	it, err := tb.Table.Update(ctx, key, upd, cond)
	endStore(span, err)
	return it, err
}

func (tb table) Delete(ctx context.Context, key store.Key, cond store.Cond) error {
	ctx, span := tb.span(ctx, "DeleteItem", key.PK)
	err := tb.Table.Delete(ctx, key, cond)
	endStore(span, err)
	return err
}

func (tb table) Query(ctx context.Context, q store.Query) (store.Page, error) {
	ctx, span := tb.span(ctx, "Query", q.PK, attribute.String("brandlens.index", q.Index))
	p, err := tb.Table.Query(ctx, q)
	span.SetAttributes(attribute.Int("brandlens.items", len(p.Items)))
	endStore(span, err)
	return p, err
}

func (tb table) TransactWrite(ctx context.Context, ops ...store.Op) error {
	pk := ""
	if len(ops) > 0 {
		pk = ops[0].OpKey().PK
	}
	ctx, span := tb.span(ctx, "TransactWriteItems", pk, attribute.Int("brandlens.ops", len(ops)))
	err := tb.Table.TransactWrite(ctx, ops...)
	endStore(span, err)
	return err
}

// Sender puts a span around every message sent to the queue called name.
func (t *Tracing) Sender(s queue.Sender, name string) queue.Sender {
	if t == nil {
		return s
	}
	return sender{next: s, t: t, name: name}
}

type sender struct {
	next queue.Sender
	t    *Tracing
	name string
}

func (s sender) Send(ctx context.Context, body []byte, delay time.Duration) error {
	ctx, span := s.t.tracer.Start(ctx, "queue.send "+s.name, trace.WithSpanKind(trace.SpanKindProducer), trace.WithAttributes(
		attribute.String("messaging.system", "aws_sqs"), attribute.String("messaging.destination.name", s.name),
		attribute.String("messaging.operation.type", "send"), attribute.Int64("brandlens.delay_ms", delay.Milliseconds())))
	err := s.next.Send(ctx, body, delay)
	end(span, err)
	return err
}

// Providers puts a span around every call to an AI platform of set.
func (t *Tracing) Providers(set providers.Set) providers.Set {
	if t == nil || set == nil {
		return set
	}
	out := providers.Set{}
	for name, p := range set {
		out[name] = provider{next: p, t: t}
	}
	return out
}

type provider struct {
	next providers.Provider
	t    *Tracing
}

func (p provider) Platform() string { return p.next.Platform() }

func (p provider) Answer(ctx context.Context, req providers.Request) (providers.Answer, error) {
	ctx, span := p.t.tracer.Start(ctx, "provider.answer "+p.next.Platform(), trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String("brandlens.platform", p.next.Platform()), attribute.Int("brandlens.sample", req.Sample)))
	ans, err := p.next.Answer(ctx, req)
	var pe *providers.Error
	if errors.As(err, &pe) {
		span.SetAttributes(attribute.String("brandlens.failure", string(pe.Kind)), attribute.Int("http.response.status_code", pe.Status))
	}
	if err == nil {
		span.SetAttributes(attribute.String("gen_ai.response.model", ans.Model), attribute.Bool("brandlens.truncated", ans.Truncated))
	}
	end(span, err)
	return ans, err
}

// Transport puts a span around every request of an outbound HTTP client
// (webhook deliveries). No trace header goes out: receivers are
// third parties.
func (t *Tracing) Transport(rt http.RoundTripper) http.RoundTripper {
	if t == nil {
		return rt
	}
	return otelhttp.NewTransport(rt, otelhttp.WithTracerProvider(t.tp),
		otelhttp.WithPropagators(propagation.NewCompositeTextMapPropagator()),
		otelhttp.WithSpanNameFormatter(func(_ string, r *http.Request) string { return "webhook " + r.Method }))
}
