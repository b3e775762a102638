package webhooks

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/store"
)

// FanOut turns one pending event into a delivery per active subscription
// of its tenant that selects its type, enqueues each delivery's first
// attempt and marks the event done. It is idempotent: run again (a stream
// retry, the sweep racing the stream) it creates nothing twice, and the
// messages it sends again are dropped by Handle as duplicates. subs, when
// not nil, caches the tenants' subscriptions across a batch.
func (s *Service) FanOut(ctx context.Context, ev outbox.Event, subs map[int32][]Subscription) (deliveries int, err error) {
	list, ok := subs[ev.TenantID]
	if !ok {
		if list, err = s.ListSubscriptions(ctx, ev.TenantID); err != nil {
			return 0, err
		}
		if subs != nil {
			subs[ev.TenantID] = list
		}
	}
	body, err := Envelope(ev)
	if err != nil {
		return 0, err
	}
	now := s.now().UTC()
	for _, sub := range list {
		if !sub.Active || !sub.Matches(ev.Type) {
			continue
		}
		d := newDelivery(ev, sub.ID, body, now)
		op, err := deliveryPutOp(d)
		if err != nil {
			return deliveries, err
		}
		err = s.tbl.TransactWrite(ctx, op)
		if err != nil && !errors.Is(err, store.ErrConditionFailed) {
			return deliveries, fmt.Errorf("webhooks: create delivery %s: %w", d.ID, err)
		}
		// Enqueued even when the record existed: an earlier run may have
		// stopped between the two steps. Its first attempt's message is
		// dropped if the delivery has moved on.
		if err := s.enqueue(ctx, d, 0); err != nil {
			return deliveries, err
		}
		deliveries++
	}
	if err := outbox.MarkDone(ctx, s.tbl, ev); err != nil {
		return deliveries, err
	}
	return deliveries, nil
}

// FanOutPending fans out the pending events created at or before
// createdBefore (zero: all), oldest first, until none is left or ctx ends.
// It returns how many events it handled. An event that fails stays pending
// for the next sweep; the others go on.
func (s *Service) FanOutPending(ctx context.Context, createdBefore time.Time) (int, error) {
	const batch = 100
	handled := 0
	var firstErr error
	failed := map[string]bool{} // stay pending; skipped in this run
	for ctx.Err() == nil {
		limit := batch + len(failed)
		evs, err := outbox.Pending(ctx, s.tbl, limit)
		if err != nil {
			return handled, err
		}
		subs := map[int32][]Subscription{}
		fresh := 0
		for _, ev := range evs {
			if failed[ev.ID] {
				continue
			}
			fresh++
			if !createdBefore.IsZero() && ev.CreatedAt.After(createdBefore) {
				// Oldest first: the rest are younger still.
				return handled, firstErr
			}
			if _, err := s.FanOut(ctx, ev, subs); err != nil {
				failed[ev.ID] = true
				if firstErr == nil {
					firstErr = err
				}
				s.log.Warn("webhooks: fan-out failed; the event stays pending", "event_id", ev.ID, "error", err.Error())
				continue
			}
			handled++
		}
		if fresh == 0 || len(evs) < limit {
			return handled, firstErr
		}
	}
	return handled, firstErr
}

// Ping sends a webhook.ping event to one subscription through the delivery
// engine: the event and its delivery are written in one transaction (the
// event outside the pending index, so that it reaches this subscription
// only, whatever its event list), then the delivery is enqueued. It counts
// as a manual send of keyID, in the same transaction: past
// ManualSendLimit in the hour it is a *LimitError.
func (s *Service) Ping(ctx context.Context, tenantID int32, keyID, subscriptionID string) (Delivery, error) {
	sub, err := s.GetSubscription(ctx, tenantID, subscriptionID)
	if err != nil {
		return Delivery{}, err
	}
	now := s.now().UTC()
	ev, err := outbox.New(tenantID, outbox.WebhookPing, outbox.WebhookPingData{
		SubscriptionID: sub.ID, Message: "ping from brandlens: this endpoint receives the subscription's events",
	}, now)
	if err != nil {
		return Delivery{}, err
	}
	evOp, err := outbox.Op(ev)
	if err != nil {
		return Delivery{}, err
	}
	// Not pending: the fan-out (and the stream filter) never see it.
	delete(evOp.Item, store.AttrGSI1PK)
	delete(evOp.Item, store.AttrGSI1SK)
	body, err := Envelope(ev)
	if err != nil {
		return Delivery{}, err
	}
	d := newDelivery(ev, sub.ID, body, now)
	dOp, err := deliveryPutOp(d)
	if err != nil {
		return Delivery{}, err
	}
	count, limited := manualSendOp(keyID, now)
	err = s.tbl.TransactWrite(ctx, count, evOp, dOp)
	var txe *store.TxConditionError
	switch {
	case errors.As(err, &txe) && txe.Index == 0:
		return Delivery{}, limited()
	case err != nil:
		return Delivery{}, fmt.Errorf("webhooks: ping: %w", err)
	}
	if err := s.enqueue(ctx, d, 0); err != nil {
		s.log.Warn("webhooks: ping not enqueued; the sweep will send it", "delivery_id", d.ID, "error", err.Error())
	}
	return d, nil
}

// Resend enqueues the next attempt of every delivery that is not final and
// was due at or before dueBy, each after the delay that remains until it is
// due (zero for overdue ones). It recovers messages that were lost; the
// duplicates it may add are dropped by Handle. It returns how many it sent.
func (s *Service) Resend(ctx context.Context, dueBy time.Time) (int, error) {
	if s.sender == nil {
		return 0, nil
	}
	// Every shard of the due index, merged: the earliest due first.
	m := store.MergeShards(s.tbl, dueIndexPK, store.Query{Index: store.IndexGSI1,
		SK: store.KeyCond{Op: store.KeyLe, Value: fmt.Sprintf("%013d#~", dueBy.UnixMilli())}})
	sent := 0
	now := s.now()
	for {
		it, ok, err := m.Next(ctx)
		if err != nil {
			return sent, fmt.Errorf("webhooks: read due deliveries: %w", err)
		}
		if !ok {
			return sent, nil
		}
		d, err := store.Doc[Delivery](it)
		if err != nil {
			return sent, err
		}
		if d.Final() {
			continue
		}
		if err := s.enqueue(ctx, d, max(0, d.DueAt.Sub(now))); err != nil {
			return sent, err
		}
		sent++
	}
}

// Sweep is the safety net run on a schedule: it fans out events pending
// for longer than grace (the stream or the local dispatcher should have
// taken them) and re-sends deliveries overdue by more than grace.
func (s *Service) Sweep(ctx context.Context, grace time.Duration) (fanned, resent int, err error) {
	cutoff := s.now().Add(-grace)
	fanned, ferr := s.FanOutPending(ctx, cutoff)
	resent, rerr := s.Resend(ctx, cutoff)
	return fanned, resent, errors.Join(ferr, rerr)
}
