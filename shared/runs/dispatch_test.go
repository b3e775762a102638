package runs_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/jsontest"
	"github.com/brandlens/brandlens/shared/logtest"
	"github.com/brandlens/brandlens/shared/meter"
	"github.com/brandlens/brandlens/shared/queue"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/store/storetest"
	"github.com/brandlens/brandlens/shared/workflow"
)

// startRecorder is a workflow.Starter that remembers what it was asked.
type startRecorder struct {
	mu     sync.Mutex
	starts []started
}

type started struct{ machine, name, input string }

func (s *startRecorder) Start(_ context.Context, machine, name string, input json.RawMessage) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.starts = append(s.starts, started{machine, name, string(input)})
	return nil
}

// The dispatcher starts the state machine of the job's type, with the
// input that machine's first step reads; messages no workflow can run are
// dropped without an error (a retry would not help).
func TestDispatchStartsTheWorkflowOfTheJobsType(t *testing.T) {
	cases := []struct {
		name, body, machine, input string
	}{
		{"query run", `{"jobId":"j1","tenantId":1,"type":"query_run"}`, runs.QueryExecution, `{"jobId":"j1","tenantId":1}`},
		{"query run sent without a type", `{"jobId":"j1","tenantId":1}`, runs.QueryExecution, `{"jobId":"j1","tenantId":1}`},
		{"gap detection", `{"jobId":"j2","tenantId":1,"type":"gap_detection"}`, meter.MachineGapDetection, `{"jobId":"j2","tenantId":1,"type":"gap_detection"}`},
		{"brief", `{"jobId":"j3","tenantId":2,"type":"brief_generation"}`, meter.MachineContentGeneration, `{"jobId":"j3","tenantId":2,"type":"brief_generation"}`},
		{"article", `{"jobId":"j4","tenantId":2,"type":"content_generation"}`, meter.MachineContentGeneration, `{"jobId":"j4","tenantId":2,"type":"content_generation"}`},
		{"rescore", `{"jobId":"j5","tenantId":1,"type":"rescore"}`, meter.MachineRescore, `{"jobId":"j5","tenantId":1,"type":"rescore"}`},
		{"unknown type", `{"jobId":"j6","tenantId":1,"type":"teleport"}`, "", ""},
		{"no job id", `{"tenantId":1,"type":"query_run"}`, "", ""},
		{"not JSON", `{"jobId":`, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := &startRecorder{}
			h := runs.Dispatch(rec, slog.New(slog.NewJSONHandler(io.Discard, nil)))
			if err := h(context.Background(), queue.Message{Body: []byte(c.body)}); err != nil {
				t.Fatalf("handler: %v", err)
			}
			if c.machine == "" {
				if len(rec.starts) != 0 {
					t.Fatalf("started %+v for a message no workflow runs", rec.starts)
				}
				return
			}
			if len(rec.starts) != 1 {
				t.Fatalf("starts %+v", rec.starts)
			}
			var id struct{ JobID string }
			json.Unmarshal([]byte(c.body), &id)
			got := rec.starts[0]
			if got.machine != c.machine || got.name != id.JobID {
				t.Errorf("started %s/%s, want %s/%s", got.machine, got.name, c.machine, id.JobID)
			}
			jsontest.Equal(t, got.input, c.input)
		})
	}
}

// startFailer is a workflow.Starter whose every start fails with err.
type startFailer struct{ err error }

func (s startFailer) Start(context.Context, string, string, json.RawMessage) error { return s.err }

// A start whose execution already ended cannot succeed on a retry: the
// message is dropped (the execution-ended rule or the sweep settles the
// job) instead of going round the queue into the dead-letter queue; any
// other start error is returned, so the queue retries it.
func TestDispatchDropsAMessageWhoseExecutionEnded(t *testing.T) {
	body := []byte(`{"jobId":"j1","tenantId":1,"type":"query_run"}`)
	for _, status := range []string{"FAILED", "TIMED_OUT", "ABORTED"} {
		t.Run(status, func(t *testing.T) {
			logs := &logtest.Buffer{}
			h := runs.Dispatch(startFailer{fmt.Errorf("wrapped: %w", &workflow.ExecutionEndedError{Machine: runs.QueryExecution, Name: "j1", Status: status})},
				slog.New(slog.NewJSONHandler(logs, nil)))
			if err := h(context.Background(), queue.Message{Body: body}); err != nil {
				t.Fatalf("handler: %v; want the message dropped", err)
			}
			if !strings.Contains(logs.String(), `"status":"`+status+`"`) {
				t.Errorf("logged %s", logs.String())
			}
		})
	}
	throttled := errors.New("ThrottlingException: rate exceeded")
	h := runs.Dispatch(startFailer{throttled}, slog.New(slog.NewJSONHandler(io.Discard, nil)))
	if err := h(context.Background(), queue.Message{Body: body}); !errors.Is(err, throttled) {
		t.Fatalf("handler: %v; want the start error returned for a retry", err)
	}
}

// The jobs sweep (jobs.Sweeper) re-sends jobs left queued with their type, so a
// gap detection whose first message was lost starts the gap-detection
// workflow, not a query run's.
func TestSweepKeepsTheJobType(t *testing.T) {
	clock := storetest.NewClock(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC))
	e := newEnv(t, embedded.NewMemory(embedded.WithClock(clock.Now)), clock, nil)
	ctx := context.Background()
	// A metered job whose enqueue failed (no sender): it stays queued.
	m := meter.New(e.svc.Table, e.svc.Tenants, e.svc.Ledger, e.svc.Jobs, nil, clock.Now, nil)
	bp := int32(1)
	a, err := m.Create(ctx, meter.Request{TenantID: 1, Type: jobs.TypeGapDetection, Cost: 5, Actor: audit.System(),
		Action: "gaps.detect", Resource: "brand_profile:1", Params: map[string]int{"brandProfileId": 1}, BrandProfileID: &bp})
	if err != nil {
		t.Fatal(err)
	}
	run, err := e.svc.Runs.Start(ctx, e.req("", ""))
	if err != nil {
		t.Fatal(err)
	}
	e.sender.msgs = nil
	clock.Advance(6 * time.Minute)
	rep, err := e.svc.Sweeper.Sweep(ctx, false)
	if err != nil || rep.Requeued != 2 {
		t.Fatalf("sweep: %+v %v", rep, err)
	}
	rec := &startRecorder{}
	h := runs.Dispatch(rec, slog.New(slog.NewJSONHandler(io.Discard, nil)))
	for _, body := range e.sender.msgs {
		if err := h(ctx, queue.Message{Body: []byte(body)}); err != nil {
			t.Fatal(err)
		}
	}
	machines := map[string]string{}
	for _, s := range rec.starts {
		machines[s.name] = s.machine
	}
	if machines[a.Job.ID] != meter.MachineGapDetection || machines[run.Job.ID] != runs.QueryExecution {
		t.Fatalf("re-sent messages %q started %v", e.sender.msgs, machines)
	}
}
