package app_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// runtimeAPI is a local fake of the Lambda runtime API
// (https://docs.aws.amazon.com/lambda/latest/dg/runtimes-api.html), enough
// for a bootstrap built from functions/ to take its events and answer them
// as in AWS: GET /2018-06-01/runtime/invocation/next hands out the queued
// events one at a time (blocking while there is none), POST
// …/invocation/{id}/response and …/error take the answers, POST
// /runtime/init/error a failed cold start. It records when the first event
// was asked for — the end of the init phase, which Lambda reports as "Init
// Duration" — and when each answer came.
type runtimeAPI struct {
	srv    *httptest.Server
	events chan runtimeEvent

	// onFirstNext, when set, runs when the first event is asked for.
	onFirstNext func()

	mu        sync.Mutex
	firstNext time.Time
	answers   map[string]runtimeAnswer
	answered  chan string
}

type runtimeEvent struct {
	id      string
	payload []byte
}

type runtimeAnswer struct {
	at    time.Time
	body  []byte
	error bool // posted to …/error or /init/error
}

func newRuntimeAPI(t testing.TB) *runtimeAPI {
	r := &runtimeAPI{events: make(chan runtimeEvent, 16), answers: map[string]runtimeAnswer{}, answered: make(chan string, 16)}
	const base = "/2018-06-01/runtime/"
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+base+"invocation/next", func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		first := r.firstNext.IsZero()
		if first {
			r.firstNext = time.Now()
		}
		r.mu.Unlock()
		if first && r.onFirstNext != nil {
			r.onFirstNext()
		}
		select {
		case ev := <-r.events:
			h := w.Header()
			h.Set("Lambda-Runtime-Aws-Request-Id", ev.id)
			h.Set("Lambda-Runtime-Deadline-Ms", strconv.FormatInt(time.Now().Add(30*time.Second).UnixMilli(), 10))
			h.Set("Lambda-Runtime-Invoked-Function-Arn", "arn:aws:lambda:us-east-1:123456789012:function:brandlens-test")
			h.Set("Lambda-Runtime-Trace-Id", "Root=1-00000000-000000000000000000000000;Sampled=0")
			h.Set("Content-Type", "application/json")
			_, _ = w.Write(ev.payload)
		case <-req.Context().Done():
		}
	})
	answer := func(isError bool) http.HandlerFunc {
		return func(w http.ResponseWriter, req *http.Request) {
			body, _ := io.ReadAll(req.Body)
			id := req.PathValue("id")
			if id == "" {
				id = "init"
			}
			r.mu.Lock()
			r.answers[id] = runtimeAnswer{at: time.Now(), body: body, error: isError}
			r.mu.Unlock()
			w.WriteHeader(http.StatusAccepted)
			r.answered <- id
		}
	}
	mux.HandleFunc("POST "+base+"invocation/{id}/response", answer(false))
	mux.HandleFunc("POST "+base+"invocation/{id}/error", answer(true))
	mux.HandleFunc("POST "+base+"init/error", answer(true))
	r.srv = httptest.NewServer(mux)
	t.Cleanup(r.srv.Close)
	return r
}

// Addr is the value of AWS_LAMBDA_RUNTIME_API.
func (r *runtimeAPI) Addr() string { return strings.TrimPrefix(r.srv.URL, "http://") }

// Invoke queues an event for the bootstrap.
func (r *runtimeAPI) Invoke(id string, payload []byte) {
	r.events <- runtimeEvent{id: id, payload: payload}
}

// Wait returns the answer to the event id (or the init error), and the
// time the first event was asked for.
func (r *runtimeAPI) Wait(ctx context.Context, id string) (runtimeAnswer, time.Time, error) {
	for {
		select {
		case got := <-r.answered:
			r.mu.Lock()
			a, first := r.answers[got], r.firstNext
			r.mu.Unlock()
			if got == id || got == "init" {
				return a, first, nil
			}
		case <-ctx.Done():
			return runtimeAnswer{}, time.Time{}, ctx.Err()
		}
	}
}
