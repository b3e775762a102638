package webhooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/brandlens/brandlens/shared/queue"
	"github.com/brandlens/brandlens/shared/signing"
	"github.com/brandlens/brandlens/shared/ssrf"
)

// earlyTolerance: a message this close to its due time is handled now
// (queue timers are not exact).
const earlyTolerance = 50 * time.Millisecond

// recordTimeout bounds writing an attempt's outcome, which runs even when
// the worker is being stopped: an unrecorded POST would be made again.
const recordTimeout = 15 * time.Second

// Handle is the deliveries-queue handler (worker-deliver): one message, at
// most one POST. It follows the protocol of the package documentation. An
// error (only a failing store) makes the queue bring the message back.
func (s *Service) Handle(ctx context.Context, m queue.Message) error {
	var msg Message
	if err := json.Unmarshal(m.Body, &msg); err != nil || msg.DeliveryID == "" || msg.SubscriptionID == "" || msg.Cycle < 1 || msg.Attempt < 1 {
		// Retrying cannot repair it.
		s.log.Error("webhooks: malformed deliveries message dropped", "message_id", m.ID)
		return nil
	}
	return s.deliver(ctx, msg)
}

func (s *Service) deliver(ctx context.Context, msg Message) error {
	for {
		l, err := s.loadDelivery(ctx, msg.TenantID, msg.SubscriptionID, msg.DeliveryID)
		if errors.Is(err, ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		d := l.Delivery
		now := s.now().UTC()
		// 1. Only the message of the record's next attempt proceeds.
		if d.Cycle != msg.Cycle || d.Next != msg.Attempt {
			return nil
		}
		switch d.Status {
		case StatusPending, StatusFailedRetrying:
			// 2. Early (a sweep or a clock skew): come back when due.
			if d.DueAt.After(now.Add(earlyTolerance)) {
				if s.sender == nil {
					return fmt.Errorf("webhooks: delivery %s is not due until %s", d.ID, d.DueAt.Format(time.RFC3339Nano))
				}
				return s.enqueue(ctx, d, d.DueAt.Sub(now))
			}
		case StatusDelivering:
			if d.DueAt.After(now) {
				return nil // a live claim: a duplicate message
			}
		default:
			return nil // succeeded or dead-lettered
		}
		sub, err := s.GetSubscription(ctx, d.TenantID, d.SubscriptionID)
		if errors.Is(err, ErrNotFound) {
			// Nobody to send to: the cycle ends here, without a POST.
			err := s.finish(ctx, l, "", outcome{at: now, reason: ReasonSubscriptionDeleted, err: "subscription deleted; nothing was sent"}, true)
			if errors.Is(err, errConflict) {
				continue
			}
			return err
		}
		if err != nil {
			return err
		}
		secret, err := s.signingSecret(ctx, sub)
		if err != nil {
			// Nothing can be signed: the attempt fails without a POST and
			// the schedule goes on (a new secret set meanwhile is used).
			o := outcome{at: now, reason: ReasonSecretUnavailable, detail: err.Error(),
				err: "the subscription's secret could not be opened; nothing was sent (set a new secret to recover)"}
			if err := s.finish(ctx, l, "", o, false); errors.Is(err, errConflict) {
				continue
			} else if err != nil {
				return err
			}
			return nil
		}
		// 3. Claim the attempt.
		claimed := d
		claimed.Status = StatusDelivering
		claimed.Claim = newClaim()
		claimed.DueAt = now.Add(s.lease)
		claimed.UpdatedAt = now
		switch err := s.save(ctx, claimed, l.ver); {
		case errors.Is(err, errConflict):
			continue // somebody else moved first: decide again
		case err != nil:
			return err
		}
		// A subscription already holding its share of this process's
		// workers waits: the claim is handed back, the attempt postponed.
		release, later := s.acquire(ctx, sub.ID)
		if release == nil {
			now := s.now().UTC()
			back := d
			back.DueAt = now.Add(later)
			back.UpdatedAt = now
			switch err := s.save(ctx, back, l.ver+1); {
			case errors.Is(err, errConflict):
				return nil // overtaken (a redelivery): its own message carries on
			case err != nil:
				return err
			}
			return s.enqueue(ctx, back, later)
		}
		// 4. POST.
		o := s.post(ctx, sub, secret, claimed)
		release()
		if o.canceled {
			// The worker is stopping: not an attempt. The claim lapses with
			// its lease and the message (or the sweep) brings it back.
			return ctx.Err()
		}
		// 5 and 6. Record, and schedule the next attempt.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordTimeout)
		defer cancel()
		return s.finish(rctx, loaded{Delivery: claimed, ver: l.ver + 1}, claimed.Claim, o, false)
	}
}

// outcome is the result of one attempt.
type outcome struct {
	at      time.Time
	status  int // 0: no answer
	latency time.Duration
	// reason classifies a failure (ssrf.Reason…, http_<status>,
	// ReasonSubscriptionDeleted) and err says it safely for the tenant;
	// both "" on success. detail is the raw error, for the logs only.
	reason, err, detail string
	canceled            bool
}

func (o outcome) ok() bool { return o.err == "" && o.status >= 200 && o.status < 300 }

// finish records attempt o of the claimed delivery l (claim is the token it
// was claimed with; "" when nothing was claimed) and moves it on. final
// forces dead-lettering. When the claim was overtaken (a redelivery), the
// attempt only joins the history.
func (s *Service) finish(ctx context.Context, l loaded, claim string, o outcome, final bool) error {
	for {
		d := l.Delivery
		att := Attempt{N: d.Next, Cycle: d.Cycle, At: o.at, LatencyMS: o.latency.Milliseconds()}
		if o.status != 0 {
			st := o.status
			att.HTTPStatus = &st
		}
		if o.err != "" {
			e, r := o.err, o.reason
			att.Error, att.Reason = &e, &r
		}
		now := s.now().UTC()
		// Without a claim the caller decided on the state it read (and a
		// conflict sends it back to decide again).
		ours := claim == "" || (d.Claim == claim && d.Status == StatusDelivering)
		next := d
		next.Attempts = appendAttempt(d.Attempts, att)
		next.UpdatedAt = now
		if ours {
			next.Claim = ""
			next.Next = d.Next + 1
			switch {
			case o.ok():
				next.Status = StatusSucceeded
			case final || d.Next >= MaxAttempts:
				next.Status = StatusDeadLettered
			default:
				next.Status = StatusFailedRetrying
				next.DueAt = now.Add(s.wait(d.Next))
			}
		}
		err := s.save(ctx, next, l.ver)
		if errors.Is(err, errConflict) && claim != "" {
			// Changed under us (a redelivery, or a lapsed lease taken
			// over): re-read and record again on what is there now.
			if l, err = s.loadDelivery(ctx, d.TenantID, d.SubscriptionID, d.ID); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return err
		}
		if ours && next.Status == StatusFailedRetrying {
			if err := s.enqueue(ctx, next, next.DueAt.Sub(now)); err != nil {
				s.log.Warn("webhooks: retry not enqueued; the sweep will send it", "delivery_id", next.ID, "error", err.Error())
			}
		}
		s.log.Info("webhooks: attempt", "delivery_id", d.ID, "event_id", d.EventID, "subscription_id", d.SubscriptionID,
			"tenant_id", d.TenantID, "cycle", att.Cycle, "attempt", att.N, "http_status", o.status,
			"latency_ms", att.LatencyMS, "status", next.Status, "reason", o.reason, "error", o.err, "detail", o.detail)
		return nil
	}
}

func appendAttempt(h []Attempt, a Attempt) []Attempt {
	out := append(append([]Attempt{}, h...), a)
	if len(out) > maxHistory {
		out = out[len(out)-maxHistory:]
	}
	return out
}

// post sends the stored body of d to the subscription, signed with its
// current secret.
func (s *Service) post(ctx context.Context, sub Subscription, secret string, d Delivery) outcome {
	o := outcome{at: s.now().UTC()}
	actx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	body := []byte(d.Body)
	req, err := http.NewRequestWithContext(actx, http.MethodPost, sub.URL, strings.NewReader(d.Body))
	if err != nil {
		o.reason, o.err, o.detail = ssrf.ReasonRefusedByPolicy, "invalid subscription URL", err.Error()
		return o
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(signing.Header, signing.Sign([]byte(secret), body))
	req.Header.Set("X-Service-Event", d.EventType)
	req.Header.Set("X-Service-Event-Id", d.EventID)
	req.Header.Set("X-Service-Delivery-Id", d.ID)
	req.Header.Set("X-Service-Delivery-Attempt", strconv.Itoa(d.Next))
	req.Header.Set("User-Agent", UserAgent)
	start := time.Now()
	res, err := s.client.Do(req)
	if err != nil {
		o.latency = time.Since(start)
		if ctx.Err() != nil {
			o.canceled = true
			return o
		}
		f := ssrf.Classify(err)
		o.reason, o.err, o.detail = f.Reason, f.Message, rawError(err)
		if f.Reason == ssrf.ReasonTimeout {
			o.err = "no answer within " + s.timeout.String()
		}
		return o
	}
	// The answer's body is read (capped) so the connection can be reused;
	// its content does not matter.
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, MaxResponseBody))
	res.Body.Close()
	o.latency = time.Since(start)
	o.status = res.StatusCode
	if o.ok() {
		return o
	}
	o.reason = "http_" + strconv.Itoa(res.StatusCode)
	o.err = "HTTP " + strconv.Itoa(res.StatusCode)
	if res.StatusCode >= 300 && res.StatusCode < 400 {
		o.err += ": redirects are not followed"
		if loc := res.Header.Get("Location"); loc != "" {
			// The receiver's own answer: safe to show back to its owner.
			o.err += " (Location: " + truncate(strings.ToValidUTF8(loc, "?"), 200) + ")"
		}
	}
	return o
}

// rawError is a transport error's text for the logs: without the URL
// (its query string may carry the tenant's token), capped.
func rawError(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return truncate(err.Error(), 500)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
