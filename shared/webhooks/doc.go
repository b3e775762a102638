// Package webhooks delivers domain events to the tenants' webhook
// subscriptions (the spec's channel A): subscriptions, the fan-out of the
// outbox into deliveries, the delivery worker with its retry schedule and
// dead-lettering, redelivery, ping, and inspection.
//
// # Flow
//
//	outbox (outbox.Op, pending index) ──fan-out──▶ one delivery record per matching
//	active subscription ──deliveries queue──▶ Handle: claim, POST, record, retry
//
// Fan-out (FanOut) is idempotent: the delivery id is derived from (event id,
// subscription id), the record is created with a NotExists condition, the
// first message is enqueued whether or not the record already existed, and
// only then is the event marked done. In AWS it is triggered by the table's
// DynamoDB stream (INSERTs of pending events) and, as a safety net, by a
// schedule that sweeps the pending index every minute (package app adapts
// both Lambda triggers); locally a Dispatcher goroutine polls the pending
// index and is woken by events.Notify.
//
// # Bytes and signatures
//
// The body of a delivery is the event's JSON envelope
// {"event_id","type","created_at","tenant_id","data"}, serialised once when
// the delivery is created and stored with it: every attempt, retry and
// manual redelivery sends exactly those bytes (and so the same event_id).
// Each POST carries X-Service-Signature: sha256=<hex HMAC-SHA256 of the
// body under the subscription's current secret>, X-Service-Event,
// X-Service-Event-Id, X-Service-Delivery-Id, X-Service-Delivery-Attempt and
// the User-Agent UserAgent.
//
// # Delivery protocol (at-least-once queue, at most one success)
//
// A delivery record holds its state in one JSON document guarded by a
// version number ver. Every change is a compare-and-swap: read the record,
// compute the new document, write it with the condition ver = <read ver>
// and ver + 1. A failed condition means somebody else changed it first;
// re-read and decide again. The state is:
//
//	status    pending | delivering | succeeded | failed_retrying | dead_lettered
//	cycle     1, +1 per manual redelivery
//	next      the number (1..MaxAttempts) of the attempt to make next in this cycle
//	dueAt     when that attempt is due (pending, failed_retrying), or when the
//	          lease of the attempt in flight runs out (delivering)
//	claim     a random token naming the worker holding the attempt in flight
//
// A queue message names (tenant, subscription, delivery, cycle, attempt).
// Handle processes it so:
//
//  1. Read the record. Drop the message (ack it, do nothing) unless
//     (cycle, attempt) = (record.cycle, record.next) and the status is
//     pending or failed_retrying, or delivering with its lease run out. Every
//     duplicate, stale or overtaken message ends here.
//  2. If the attempt is not due yet, send the message again with the
//     remaining delay and drop this copy.
//  3. Claim: CAS status → delivering, claim → new token, dueAt → now + lease.
//     Losing the CAS goes back to 1 with a fresh read, where the winner's
//     claim makes the loser drop. So of any number of concurrent copies of a
//     message exactly one POSTs.
//  4. Take one of the subscription's MaxInFlight slots in this process,
//     waiting up to a second for one. If none frees, or the endpoint is
//     stalled (an attempt has been open for a second), hand the claim back
//     (CAS: the previous status, dueAt = now + the delay) and send the
//     message again with that delay (2 s, or the timeout when stalled).
//     Otherwise POST the stored bytes (10 s timeout, no redirects,
//     connect-time SSRF guard, response body read capped).
//  5. Record: CAS, on the condition that claim is still our token, appending
//     the attempt (time, HTTP status, latency, error) and moving to
//     succeeded (2xx), to failed_retrying with next + 1 and dueAt = now +
//     the scaled wait, or — after attempt MaxAttempts — to dead_lettered.
//     If a redelivery started a new cycle meanwhile, only the attempt is
//     appended to the history.
//  6. On failed_retrying, send the message of the next attempt with the
//     wait as its delay. If that send fails the sweep re-sends it once due.
//
// Every non-terminal record sits in a sparse due index (GSI1
// "WHDELIVERY#due", sorted by dueAt); Sweep re-sends a message for each
// record overdue by more than a grace period, which recovers from lost
// messages (a send that failed after its record was written, an in-memory
// queue lost with its process, a worker that died holding a lease). Those
// extra messages are harmless: step 1 drops all but the one that matches.
//
// The one case that can POST twice is a worker that stalls for longer than
// the lease (timeout + 50 s) after claiming, so that its claim is taken over;
// its late result is then discarded. Receivers dedupe on event_id, as the
// spec asks.
//
// # Retries
//
// Attempt n (1-based) that fails — a non-2xx answer (a 3xx included, as
// redirects are not followed), a timeout, a refused or SSRF-denied
// connection — is followed by attempt n+1 after RetryWaits[n-1] (5 s, 10 s,
// 30 s, 60 s, 120 s, multiplied by BRANDLENS_RETRY_SCALE), at most
// MaxAttempts (5) attempts in total, so the waits actually taken are 5, 10,
// 30 and 60 s; the fifth failure dead-letters the delivery. Each delivery is
// its own message, handled by its own worker; a hanging endpoint holds a
// worker for at most the timeout, and at most MaxInFlight workers of a
// process at once, so it delays nobody else.
package webhooks
