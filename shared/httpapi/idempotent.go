package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/brandlens/brandlens/shared/ctxtime"
	"github.com/brandlens/brandlens/shared/idempotency"
)

// Idempotency-Key, applied by the router to every idempotent route
// (Route.Idempotent) once the request's input is valid — so a request
// refused with 422 stores nothing:
//
//  1. the key is claimed in the store (idempotency.Records.Begin): of
//     concurrent duplicates exactly one runs the write; the others wait for
//     its answer and replay it;
//  2. the write runs with the claimed key in Request.Idempotency (writes
//     that create jobs put the key's record in the job's transaction);
//  3. a successful answer is stored with the record and sent; an error
//     frees the key, since the write stored nothing.
//
// A retry with the key and the same request gets the stored answer (status
// and body, with Idempotent-Replayed: true); with another request, 409
// idempotency_conflict.

// HeaderIdempotentReplayed marks an answer replayed from an earlier request.
const HeaderIdempotentReplayed = "Idempotent-Replayed"

// idempotencyWaits are the pauses of a request waiting for a duplicate that
// runs: about 10 s in all, then 409 with reason in_progress.
var idempotencyWaits = func() []time.Duration {
	var ws []time.Duration
	for d, total := 10*time.Millisecond, time.Duration(0); total < 10*time.Second; d = min(2*d, 250*time.Millisecond) {
		ws = append(ws, d)
		total += d
	}
	return ws
}()

// answer is a handler's answer already encoded: its status, its JSON body and
// whether it is replayed.
type answer struct {
	status   int
	body     rawJSON
	replayed bool
}

// oneTimeSecret is an answer that shows a write-only secret once (a webhook
// subscription's, a destination's). What an idempotency record keeps is the
// answer without it, so the table holds no second copy of the secret; a
// replay reads the secret again from the resource.
type oneTimeSecret interface {
	withoutSecret() any
	// withSecret returns the answer with the resource's secret as it is now
	// (its current secret if it was rotated since), or the error to answer
	// when the resource is gone.
	withSecret(s *Server, rq *Request) (any, error)
}

// restoreFunc turns a stored answer back into the answer to send.
type restoreFunc func(s *Server, rq *Request, stored []byte) ([]byte, error)

func restoreSecret[Out any](s *Server, rq *Request, stored []byte) ([]byte, error) {
	var out Out
	if err := json.Unmarshal(stored, &out); err != nil {
		return nil, err
	}
	full, err := any(out).(oneTimeSecret).withSecret(s, rq)
	if err != nil {
		return nil, err
	}
	return json.Marshal(full)
}

func (s *Server) idempotent(rq *Request, run func() (any, error), restore restoreFunc) (any, error) {
	key := rq.HTTP.Header.Get(HeaderIdempotencyKey)
	if key == "" {
		return run()
	}
	ctx := rq.HTTP.Context()
	// A route without a body accepts only none or {}, which Fingerprint
	// takes for the same request.
	k := idempotency.Key{TenantID: rq.Principal.TenantID, APIKeyID: rq.Principal.KeyID, Key: key,
		Fingerprint: idempotency.Fingerprint(rq.HTTP.Method, rq.HTTP.URL.Path, rq.Body)}
	for attempt := 0; ; attempt++ {
		claimed, rec, err := s.Idempotency.Begin(ctx, k)
		switch {
		case errors.Is(err, idempotency.ErrInProgress):
			if attempt == len(idempotencyWaits) {
				return nil, idempotencyInProgress()
			}
			if err := ctxtime.Sleep(ctx, idempotencyWaits[attempt], nil); err != nil {
				return nil, err
			}
			continue
		case errors.Is(err, idempotency.ErrConflict):
			return nil, idempotencyConflict()
		case err != nil:
			return nil, err
		case rec != nil:
			return s.replay(rq, rec, restore)
		}
		rq.Idempotency = &claimed
		return s.runClaimed(rq, claimed, run)
	}
}

// runClaimed runs the write under its claimed key and keeps its answer.
func (s *Server) runClaimed(rq *Request, k idempotency.Key, run func() (any, error)) (any, error) {
	// The record must be settled even when the client goes away.
	ctx := context.WithoutCancel(rq.HTTP.Context())
	out, err := run()
	var held *deferred
	if errors.As(err, &held) {
		return nil, err // its 202 was stored with its approval request
	}
	if err != nil {
		if rerr := s.Idempotency.Release(ctx, k); rerr != nil {
			s.Logger.Error("release idempotency key", "request_id", rq.RequestID, "error", rerr.Error())
		}
		return nil, err
	}
	sent, err := encodeJSON(out)
	if err != nil {
		return nil, err
	}
	stored := sent
	if o, ok := out.(oneTimeSecret); ok {
		if stored, err = encodeJSON(o.withoutSecret()); err != nil {
			return nil, err
		}
	}
	if err := s.Idempotency.Complete(ctx, k, rq.Route.Status, stored); err != nil {
		// The write is done; its answer goes out. A retry within the claim's
		// lock waits and gets 409 in_progress; after it, the retry takes the
		// claim over (a job write then finds its job on the record).
		s.Logger.Error("store idempotent answer", "request_id", rq.RequestID, "error", err.Error())
	}
	return answer{status: rq.Route.Status, body: sent}, nil
}

func (s *Server) replay(rq *Request, rec *idempotency.Record, restore restoreFunc) (any, error) {
	if rec.BodyOmitted || rec.Status == 0 {
		return nil, &Error{Code: CodeIdempotencyConflict,
			Message: "the request with this Idempotency-Key succeeded, but its answer was too large to keep; read the resource instead",
			Details: map[string]any{"header": HeaderIdempotencyKey, "reason": "answer_not_kept", "status": rec.Status}}
	}
	body := rec.Body
	// A held change's 202 shows the approval request, no secret to restore.
	if restore != nil && rec.Status == rq.Route.Status {
		var err error
		if body, err = restore(s, rq, body); err != nil {
			return nil, err
		}
	}
	return answer{status: rec.Status, body: body, replayed: true}, nil
}

func idempotencyInProgress() *Error {
	return &Error{Code: CodeIdempotencyConflict, RetryAfter: 1,
		Message: "a request with this Idempotency-Key is still in progress; retry later",
		Details: map[string]any{"header": HeaderIdempotencyKey, "reason": "in_progress"}}
}

func idempotencyConflict() *Error {
	return &Error{Code: CodeIdempotencyConflict, Message: "this Idempotency-Key was used with a different request",
		Details: map[string]any{"header": HeaderIdempotencyKey, "reason": "different_request"}}
}

// encodeJSON encodes an answer as writeJSON would.
func encodeJSON(v any) ([]byte, error) {
	if m, ok := v.(json.Marshaler); ok {
		return m.MarshalJSON()
	}
	return json.Marshal(v)
}

// writeAnswer sends an encoded answer.
func (s *Server) writeAnswer(w http.ResponseWriter, a answer) {
	if a.replayed {
		w.Header().Set(HeaderIdempotentReplayed, "true")
	}
	s.writeJSON(w, a.status, a.body)
}
