package config_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/brandlens/brandlens/shared/config"
	"github.com/brandlens/brandlens/shared/queue"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/seed"
	"github.com/brandlens/brandlens/shared/store/embedded"
)

// fakeStarter records workflow starts.
type fakeStarter struct {
	mu     sync.Mutex
	starts []string
}

func (f *fakeStarter) Start(_ context.Context, machine, name string, input json.RawMessage) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.starts = append(f.starts, machine+"/"+name+" "+string(input))
	return nil
}

func readEvent(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("../../events/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDispatchSQSEvent sends events/sqs-jobs.json through the real
// worker-dispatch handler (with a recording starter instead of Step
// Functions): the job's workflow starts under the job id.
func TestDispatchSQSEvent(t *testing.T) {
	var ev events.SQSEvent
	if err := json.Unmarshal(readEvent(t, "sqs-jobs.json"), &ev); err != nil {
		t.Fatal(err)
	}
	st := &fakeStarter{}
	resp, err := queue.LambdaHandler(runs.Dispatch(st))(context.Background(), ev)
	if err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("%+v %v", resp, err)
	}
	if len(st.starts) != 1 || st.starts[0] != `query-execution/01jexample {"jobId":"01jexample","tenantId":1}` {
		t.Fatalf("starts %q", st.starts)
	}
}

// TestStepEvents sends the sample task inputs of events/ through the step
// Lambda handlers, in workflow order, over one embedded store: mark
// running, run each platform (replay: perplexity has no answer), settle.
func TestStepEvents(t *testing.T) {
	t.Setenv("BRANDLENS_PROVIDERS", "replay")
	t.Setenv("BRANDLENS_REPLAY_FILE", "testdata/replay.json")
	ctx := context.Background()
	svc, err := config.NewServices(embedded.NewMemory(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := seed.File{Tenants: []seed.Tenant{{Name: "Acme Notes", Credits: 10,
		Brand:   &seed.Brand{Name: "Acme Notes", Domains: []string{"acmenotes.com"}},
		Queries: []seed.Query{{Text: "best note taking app", Platforms: []string{"chatgpt", "perplexity"}}}}}}
	if _, err := seed.Apply(ctx, svc, f); err != nil {
		t.Fatal(err)
	}
	if svc.Runs.Providers, err = (config.Config{}).Providers(ctx); err != nil {
		t.Fatal(err)
	}
	a, err := svc.Runs.Start(ctx, runs.Request{TenantID: 1, QueryID: 1, Samples: 1})
	if err != nil {
		t.Fatal(err)
	}
	withJob := func(name string) json.RawMessage {
		return json.RawMessage(strings.ReplaceAll(string(readEvent(t, name)), "01jexample0000000000000000", a.Job.ID))
	}
	invoke := func(step string, in json.RawMessage) (map[string]any, error) {
		out, err := config.NewStepHandler(svc, step)(ctx, in)
		if err != nil {
			return nil, err
		}
		var m map[string]any
		if err := json.Unmarshal(out, &m); err != nil {
			t.Fatal(err)
		}
		return m, nil
	}
	mark, err := invoke(runs.StepMarkRunning, withJob("step-mark-running.json"))
	if err != nil {
		t.Fatal(err)
	}
	if items, _ := mark["items"].([]any); len(items) != 2 {
		t.Fatalf("mark running: %v", mark)
	}
	out, err := invoke(runs.StepRunPlatform, withJob("step-run-platform.json"))
	if err != nil || out["status"] != "succeeded" || out["mentioned"] != true {
		t.Fatalf("run chatgpt: %v %v", out, err)
	}
	perplexity := strings.Replace(string(withJob("step-run-platform.json")), "chatgpt", "perplexity", 1)
	_, err = invoke(runs.StepRunPlatform, json.RawMessage(perplexity))
	if _, ok := err.(*runs.ProviderFailedError); !ok {
		t.Fatalf("perplexity without a recorded answer: %T %v", err, err)
	}
	settled, err := invoke(runs.StepSettle, withJob("step-settle.json"))
	if err != nil || settled["status"] != "partial" || settled["creditsCharged"] != float64(1) {
		t.Fatalf("settle: %v %v", settled, err)
	}
	j, err := svc.Jobs.Get(ctx, 1, a.Job.ID)
	if err != nil || j.PerPlatformStatus["perplexity"].Error == nil || !strings.Contains(*j.PerPlatformStatus["perplexity"].Error, "no recorded answer") {
		t.Fatalf("job %+v %v", j, err)
	}
}

// TestLambdaStepColdStart builds a step function from the environment, as
// its Lambda main does, and runs it on a job that does not exist.
func TestLambdaStepColdStart(t *testing.T) {
	t.Setenv("BRANDLENS_STORE", "embedded")
	t.Setenv("BRANDLENS_DATA_DIR", t.TempDir())
	t.Setenv(config.EnvJobsQueueURL, "")
	h, err := config.LambdaStep(context.Background(), runs.StepSettle)
	if err != nil {
		t.Fatal(err)
	}
	out, err := h(context.Background(), readEvent(t, "step-settle.json"))
	if err != nil || !strings.Contains(string(out), `"status":"missing"`) {
		t.Fatalf("%s %v", out, err)
	}
}
