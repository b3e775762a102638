package workflow_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/brandlens/brandlens/shared/jsontest"
	"github.com/brandlens/brandlens/shared/workflow"
	"github.com/brandlens/brandlens/shared/workflow/workflowtest"
)

// Errors of the metered jobs' steps, named as the ASL's ErrorEquals name
// them (meter's step errors).
type RetryableError struct{}

func (e *RetryableError) Error() string { return "model rate limited" }

type PermanentError struct{}

func (e *PermanentError) Error() string { return "opportunity dismissed" }

func arn(name string) string { return "arn:aws:lambda:us-east-1:123456789012:function:" + name }

// jobSteps fakes the steps of the metered jobs' workflows: Start passes
// the input on, the work step fails as the scenario says, Settle reports
// succeeded when a result (or the last re-scoring batch) is in its input.
type jobSteps struct {
	scenario
	mu          sync.Mutex
	calls       map[string]int
	workAttempt int
}

func (s *jobSteps) Invoke(ctx context.Context, resource string, input json.RawMessage) (json.RawMessage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	in, err := recordCall(s.calls, resource, input)
	if err != nil {
		return nil, err
	}
	switch resource {
	case arn("StepJobStartArn"):
		if s.startFails {
			return nil, &StoreUnavailableError{}
		}
		return input, nil
	case arn("StepJobSettleArn"):
		status := "failed"
		if p, ok := in["progress"].(map[string]any); in["result"] != nil || (ok && p["done"] == true) {
			status = "succeeded"
		}
		return json.Marshal(map[string]any{"jobId": in["jobId"], "status": status, "failure": in["failure"]})
	}
	s.workAttempt++
	switch {
	case s.permanent:
		return nil, &PermanentError{}
	case s.workAttempt <= s.flaky:
		return nil, &RetryableError{}
	case resource == arn("StepRescoreArn"):
		n := s.calls[resource]
		return json.Marshal(map[string]any{"done": n >= s.batches, "query": n, "counts": map[string]any{"answers": 500 * n}})
	}
	return json.Marshal(map[string]any{"step": resource, "attempt": s.workAttempt})
}

// scenario is how a jobSteps behaves.
type scenario struct {
	startFails bool // Start: the store stays unavailable
	flaky      int  // the work step fails with RetryableError this many times first
	permanent  bool // the work step fails for good
	batches    int  // re-scoring: invocations until done
}

// The metered jobs' definitions produce the same outputs and step
// invocations in the Go runner and in aws-local-stepfunctions: success,
// retried and permanent failures of the work step, a Start that never
// reaches the store, the job type's branch, and re-scoring's batch loop.
func TestMeteredJobsDifferential(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, file, jobType string
		steps               scenario
		want                string
		calls               map[string]int
	}{
		{"gap detection", "gap-detection.asl.json", "gap_detection", scenario{}, "succeeded",
			map[string]int{arn("StepJobStartArn"): 1, arn("StepDetectGapsArn"): 1, arn("StepJobSettleArn"): 1}},
		{"gap detection, retried", "gap-detection.asl.json", "gap_detection", scenario{flaky: 2}, "succeeded",
			map[string]int{arn("StepJobStartArn"): 1, arn("StepDetectGapsArn"): 3, arn("StepJobSettleArn"): 1}},
		{"gap detection, retries exhausted", "gap-detection.asl.json", "gap_detection", scenario{flaky: 9}, "failed",
			map[string]int{arn("StepJobStartArn"): 1, arn("StepDetectGapsArn"): 4, arn("StepJobSettleArn"): 1}},
		{"gap detection, start fails", "gap-detection.asl.json", "gap_detection", scenario{startFails: true}, "failed",
			map[string]int{arn("StepJobStartArn"): 3, arn("StepJobSettleArn"): 1}},
		{"brief", "content-generation.asl.json", "brief_generation", scenario{}, "succeeded",
			map[string]int{arn("StepJobStartArn"): 1, arn("StepGenerateBriefArn"): 1, arn("StepJobSettleArn"): 1}},
		{"article", "content-generation.asl.json", "content_generation", scenario{flaky: 1}, "succeeded",
			map[string]int{arn("StepJobStartArn"): 1, arn("StepGenerateArticleArn"): 2, arn("StepJobSettleArn"): 1}},
		{"article fails for good", "content-generation.asl.json", "content_generation", scenario{permanent: true}, "failed",
			map[string]int{arn("StepJobStartArn"): 1, arn("StepGenerateArticleArn"): 1, arn("StepJobSettleArn"): 1}},
		{"another job type", "content-generation.asl.json", "gap_detection", scenario{}, "failed",
			map[string]int{arn("StepJobStartArn"): 1, arn("StepJobSettleArn"): 1}},
		{"re-scoring in three batches", "brand-rescore.asl.json", "rescore", scenario{batches: 3}, "succeeded",
			map[string]int{arn("StepJobStartArn"): 1, arn("StepRescoreArn"): 3, arn("StepJobSettleArn"): 1}},
		{"re-scoring fails", "brand-rescore.asl.json", "rescore", scenario{batches: 3, permanent: true}, "failed",
			map[string]int{arn("StepJobStartArn"): 1, arn("StepRescoreArn"): 1, arn("StepJobSettleArn"): 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, def, subst := loadMachine(t, tc.file)
			input := json.RawMessage(fmt.Sprintf(`{"jobId":"01JOBDIFF","tenantId":1,"type":%q}`, tc.jobType))
			fresh := func() *jobSteps { return &jobSteps{scenario: tc.steps, calls: map[string]int{}} }
			goSteps := fresh()
			goOut, err := m.Execute(context.Background(), "01JOBDIFF", input, goSteps, workflow.WithRetryScale(0.001))
			if err != nil {
				t.Fatalf("Go runner: %v", err)
			}
			jsSteps := fresh()
			jsOut, errName, cause := workflowtest.RunInAWSLocal(t, def, subst, input, jsSteps, workflowtest.ExecutionName("01JOBDIFF"))
			compareRuns(t, tc.want, tc.calls, runOutcome{goOut, goSteps.calls}, runOutcome{jsOut, jsSteps.calls}, errName, cause)
		})
	}
}

// runOutcome is what one interpreter made of a job workflow.
type runOutcome struct {
	out   json.RawMessage
	calls map[string]int
}

// compareRuns checks the Go runner's outcome against the expected status
// and invocations, and aws-local-stepfunctions' (which failed with errName
// when not "") against the Go runner's.
func compareRuns(t *testing.T, want string, wantCalls map[string]int, goRun, jsRun runOutcome, errName, cause string) {
	t.Helper()
	var summary struct{ Status string }
	if err := json.Unmarshal(goRun.out, &summary); err != nil || summary.Status != want {
		t.Errorf("Go runner: output %s, want status %s", goRun.out, want)
	}
	if !reflect.DeepEqual(goRun.calls, wantCalls) {
		t.Errorf("Go runner: calls %v, want %v", goRun.calls, wantCalls)
	}
	if errName != "" {
		t.Fatalf("aws-local-stepfunctions: execution failed: %s: %s", errName, cause)
	}
	if !jsontest.Same(t, goRun.out, jsRun.out) {
		t.Errorf("outputs differ\nGo runner:               %s\naws-local-stepfunctions: %s", goRun.out, jsRun.out)
	}
	if !reflect.DeepEqual(goRun.calls, jsRun.calls) {
		t.Errorf("invocations differ: Go runner %v, aws-local-stepfunctions %v", goRun.calls, jsRun.calls)
	}
}
