package config

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/brandlens/brandlens/shared/queue"
	"github.com/brandlens/brandlens/shared/ssrf"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/webhooks"
)

// EnvDeliveriesQueueURL names the SQS webhook deliveries queue (AWS).
const EnvDeliveriesQueueURL = "BRANDLENS_DELIVERIES_QUEUE_URL"

// LocalDeliveryWorkers is how many deliveries `brandlens serve` attempts at
// once (goroutines waiting on network I/O are cheap); a hanging endpoint holds at
// most webhooks.DefaultMaxInFlight of them, see webhooks.Options.MaxInFlight.
const LocalDeliveryWorkers = 512

// newWebhooks builds the webhooks service of NewServices: the destination
// guard (BRANDLENS_ALLOW_LOOPBACK_TARGETS) and the retry scale
// (BRANDLENS_RETRY_SCALE) come from the environment; the deliveries queue
// is attached by the runtime.
func newWebhooks(tbl store.Table, now func() time.Time) (*webhooks.Service, error) {
	scale, err := webhooks.RetryScaleFromEnv()
	if err != nil {
		return nil, err
	}
	return webhooks.New(tbl, webhooks.Options{Guard: ssrf.FromEnv(), RetryScale: scale, Now: now}), nil
}

// DeliveriesQueue returns the SQS deliveries queue when
// BRANDLENS_DELIVERIES_QUEUE_URL is set, else nil.
func (c Config) DeliveriesQueue(ctx context.Context) (*queue.SQS, error) {
	return c.sqsQueue(ctx, EnvDeliveriesQueueURL)
}

// attachDeliveries gives svc.Webhooks the SQS deliveries queue (when
// configured) and the logger, in a Lambda function.
func (c Config) attachDeliveries(ctx context.Context, svc *Services, logger *slog.Logger) error {
	svc.Webhooks.SetLogger(logger)
	q, err := c.DeliveriesQueue(ctx)
	if err != nil {
		return err
	}
	if q != nil {
		svc.Webhooks.SetSender(q)
	}
	return nil
}

// lambdaWebhooks builds the webhooks service of a worker function, which
// needs the deliveries queue.
func lambdaWebhooks(ctx context.Context) (*webhooks.Service, error) {
	c, err := FromEnv()
	if err != nil {
		return nil, err
	}
	tbl, _, err := c.OpenTable(ctx)
	if err != nil {
		return nil, err
	}
	svc, err := NewServices(tbl, nil, nil)
	if err != nil {
		return nil, err
	}
	if os.Getenv(EnvDeliveriesQueueURL) == "" {
		return nil, errors.New("config: " + EnvDeliveriesQueueURL + " is not set")
	}
	if err := c.attachDeliveries(ctx, svc, c.Logger(os.Stdout)); err != nil {
		return nil, err
	}
	return svc.Webhooks, nil
}

// LambdaFanout builds worker-fanout's handler (DynamoDB stream batches and
// the sweep schedule).
func LambdaFanout(ctx context.Context) (func(context.Context, json.RawMessage) (any, error), error) {
	wh, err := lambdaWebhooks(ctx)
	if err != nil {
		return nil, err
	}
	return wh.FanoutLambdaHandler(), nil
}

// LambdaDeliver builds worker-deliver's handler: the deliveries queue's
// consumer, reporting batch item failures.
func LambdaDeliver(ctx context.Context) (func(context.Context, events.SQSEvent) (events.SQSEventResponse, error), error) {
	wh, err := lambdaWebhooks(ctx)
	if err != nil {
		return nil, err
	}
	return queue.LambdaHandler(wh.Handle), nil
}

// LocalWebhooks is the webhook delivery runtime of `brandlens serve`: the
// in-process deliveries queue consumed by LocalDeliveryWorkers workers, and
// the dispatcher that fans out the outbox and re-sends overdue deliveries.
type LocalWebhooks struct {
	Deliveries *queue.Local
	Dispatcher *webhooks.Dispatcher
	svc        *webhooks.Service
}

// NewLocalWebhooks wires the local delivery runtime into svc.
func NewLocalWebhooks(svc *Services, logger *slog.Logger) *LocalWebhooks {
	q := queue.NewLocal(queue.LocalOptions{Logger: logger})
	svc.Webhooks.SetSender(q)
	svc.Webhooks.SetLogger(logger)
	return &LocalWebhooks{Deliveries: q, Dispatcher: svc.Webhooks.NewDispatcher(), svc: svc.Webhooks}
}

// Run delivers until ctx ends.
func (l *LocalWebhooks) Run(ctx context.Context) error {
	errc := make(chan error, 1)
	go func() { errc <- l.Deliveries.Run(ctx, l.svc.Handle, LocalDeliveryWorkers) }()
	derr := l.Dispatcher.Run(ctx)
	qerr := <-errc
	_ = l.Deliveries.Close()
	return errors.Join(derr, qerr)
}
