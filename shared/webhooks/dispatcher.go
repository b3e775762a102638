package webhooks

import (
	"context"
	"time"

	"github.com/brandlens/brandlens/shared/outbox"
)

// Dispatcher is the local (brandlens serve) replacement of the DynamoDB
// stream and the sweep schedule: it fans out pending events every interval
// and at once when outbox.Notify is called, and re-sends overdue deliveries
// every sweep period. The deliveries queue (queue.Local) runs Handle.
type Dispatcher struct {
	svc *Service
	// interval between polls of the pending index; sweepEvery is how often
	// overdue deliveries are re-sent (and how overdue they must be).
	interval, sweepEvery time.Duration
	wake                 chan struct{}
}

// Dispatcher defaults.
const (
	DefaultDispatchInterval = 250 * time.Millisecond
	DefaultSweepEvery       = 10 * time.Second
)

// DispatcherOptions configure a Dispatcher; zero values take the defaults.
type DispatcherOptions struct {
	// Interval between polls of the pending index (DefaultDispatchInterval).
	Interval time.Duration
	// SweepEvery is how often overdue deliveries are re-sent
	// (DefaultSweepEvery).
	SweepEvery time.Duration
}

// NewDispatcher returns a dispatcher of the service's outbox.
func (s *Service) NewDispatcher(o DispatcherOptions) *Dispatcher {
	d := &Dispatcher{svc: s, interval: o.Interval, sweepEvery: o.SweepEvery, wake: make(chan struct{}, 1)}
	if d.interval <= 0 {
		d.interval = DefaultDispatchInterval
	}
	if d.sweepEvery <= 0 {
		d.sweepEvery = DefaultSweepEvery
	}
	return d
}

// Notify wakes the dispatcher (it never blocks).
func (d *Dispatcher) Notify() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// Run dispatches until ctx ends. It first re-sends every delivery that is
// not final, each after its remaining delay: an in-process queue loses its
// messages with its process, the store does not.
func (d *Dispatcher) Run(ctx context.Context) error {
	stop := outbox.Listen(d.Notify)
	defer stop()
	log := d.svc.log
	if n, err := d.svc.Resend(ctx, d.svc.now().Add(100*365*24*time.Hour)); err != nil {
		log.Warn("webhooks: re-sending unfinished deliveries failed", "error", err.Error())
	} else if n > 0 {
		log.Info("webhooks: re-sent unfinished deliveries", "count", n)
	}
	poll := time.NewTicker(d.interval)
	defer poll.Stop()
	sweep := time.NewTicker(d.sweepEvery)
	defer sweep.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-sweep.C:
			if _, err := d.svc.Resend(ctx, d.svc.now().Add(-d.sweepEvery)); err != nil && ctx.Err() == nil {
				log.Warn("webhooks: sweep failed", "error", err.Error())
			}
			continue
		case <-poll.C:
		case <-d.wake:
		}
		if _, err := d.svc.FanOutPending(ctx, time.Time{}); err != nil && ctx.Err() == nil {
			log.Warn("webhooks: fan-out failed", "error", err.Error())
		}
	}
}
