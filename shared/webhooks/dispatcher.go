package webhooks

import (
	"context"
	"time"

	"github.com/brandlens/brandlens/shared/events"
)

// Dispatcher is the local (brandlens serve) replacement of the DynamoDB
// stream and the sweep schedule: it fans out pending events every Interval
// and at once when events.Notify is called, and re-sends overdue deliveries
// every SweepEvery. The deliveries queue (queue.Local) runs Handle.
type Dispatcher struct {
	svc *Service
	// Interval between polls of the pending index.
	Interval time.Duration
	// SweepEvery is how often overdue deliveries are re-sent (and how
	// overdue they must be).
	SweepEvery time.Duration
	wake       chan struct{}
}

// NewDispatcher returns a dispatcher polling every 250 ms and sweeping
// every 10 s.
func (s *Service) NewDispatcher() *Dispatcher {
	return &Dispatcher{svc: s, Interval: 250 * time.Millisecond, SweepEvery: 10 * time.Second, wake: make(chan struct{}, 1)}
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
	stop := events.Listen(d.Notify)
	defer stop()
	log := d.svc.log
	if n, err := d.svc.Resend(ctx, d.svc.now().Add(100*365*24*time.Hour)); err != nil {
		log.Warn("webhooks: re-sending unfinished deliveries failed", "error", err.Error())
	} else if n > 0 {
		log.Info("webhooks: re-sent unfinished deliveries", "count", n)
	}
	poll := time.NewTicker(d.Interval)
	defer poll.Stop()
	sweep := time.NewTicker(d.SweepEvery)
	defer sweep.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-sweep.C:
			if _, err := d.svc.Resend(ctx, d.svc.now().Add(-d.SweepEvery)); err != nil && ctx.Err() == nil {
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
