package workflow_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sync"
	"testing"

	"github.com/aws/aws-lambda-go/lambda/messages"

	"github.com/brandlens/brandlens/shared/jsontest"
	"github.com/brandlens/brandlens/shared/workflow"
	"github.com/brandlens/brandlens/shared/workflow/workflowtest"
)

const statemachinesDir = "../../statemachines"

// loadMachine reads a state machine of statemachinesDir and loads it with
// dummySubst; def and subst are what workflowtest.RunInAWSLocal runs too.
func loadMachine(t *testing.T, file string) (m *workflow.Machine, def []byte, subst map[string]string) {
	t.Helper()
	def, err := os.ReadFile(filepath.Join(statemachinesDir, file))
	if err != nil {
		t.Fatal(err)
	}
	subst = dummySubst(def)
	if m, err = workflow.Load(def, subst); err != nil {
		t.Fatal(err)
	}
	return m, def, subst
}

// recordCall counts a step fake's call of resource and decodes its input
// (an object).
func recordCall(calls map[string]int, resource string, input json.RawMessage) (map[string]any, error) {
	calls[resource]++
	var in map[string]any
	return in, json.Unmarshal(input, &in)
}

// dummySubst fills every ${Name} of a definition with a Lambda ARN named
// after the placeholder, as a deployment would with real ARNs.
func dummySubst(def []byte) map[string]string {
	subst := map[string]string{}
	for _, m := range regexp.MustCompile(`\$\{([A-Za-z0-9_]+)\}`).FindAllSubmatch(def, -1) {
		subst[string(m[1])] = "arn:aws:lambda:us-east-1:123456789012:function:" + string(m[1])
	}
	return subst
}

// Every definition in statemachines/ passes asl-validator and loads in the
// Go runner (which is stricter about what it can run).
func TestStateMachinesLintAndLoad(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join(statemachinesDir, "*.asl.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no statemachines/*.asl.json (err %v)", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			def, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := workflow.Load(def, dummySubst(def)); err != nil {
				t.Errorf("Load: %v", err)
			}
			workflowtest.Lint(t, def)
		})
	}
}

// Step errors as the real step handlers return them: the ASL names them in
// ErrorEquals by type name.
type TransientProviderError struct{ Platform string }

func (e *TransientProviderError) Error() string { return e.Platform + ": rate limited, retry later" }

type ProviderFailedError struct{ Platform string }

func (e *ProviderFailedError) Error() string { return e.Platform + ": quota exhausted" }

type StoreUnavailableError struct{}

func (e *StoreUnavailableError) Error() string { return "store: table unavailable" }

var (
	arnMark    = "arn:aws:lambda:us-east-1:123456789012:function:step-mark-running"
	arnRun     = "arn:aws:lambda:us-east-1:123456789012:function:step-run-platforms"
	arnSettle  = "arn:aws:lambda:us-east-1:123456789012:function:step-settle"
	querySubst = map[string]string{
		"StepMarkRunningArn":  arnMark,
		"StepRunPlatformsArn": arnRun,
		"StepSettleArn":       arnSettle,
	}
)

// lambdaDied is the error of a Lambda function that timed out or ran out
// of memory.
var lambdaDied = messages.InvokeResponse_Error{Type: "Lambda.Unknown", Message: "Unhandled: the function timed out or ran out of memory"}

// querySteps fakes the three step handlers of query-execution. RunPlatforms
// answers every item at once, as the Go step does after its own per-item
// retries: chatgpt and perplexity succeed, gemini fails for good.
type querySteps struct {
	markFails bool // MarkRunning: the store stays unavailable
	allFail   bool // every platform fails
	// runFails and settleFails are how many RunPlatforms and Settle
	// invocations die (Lambda.Unknown); -1: all.
	runFails, settleFails int

	mu    sync.Mutex
	calls map[string]int
}

func newQuerySteps(markFails, allFail bool, runFails, settleFails int) *querySteps {
	return &querySteps{markFails: markFails, allFail: allFail, runFails: runFails, settleFails: settleFails, calls: map[string]int{}}
}

func (q *querySteps) Invoke(ctx context.Context, resource string, input json.RawMessage) (json.RawMessage, error) {
	q.mu.Lock()
	q.calls[resource]++
	n := q.calls[resource]
	q.mu.Unlock()
	switch resource {
	case arnMark:
		if q.markFails {
			return nil, &StoreUnavailableError{}
		}
		var in struct {
			JobID    string `json:"jobId"`
			TenantID int    `json:"tenantId"`
		}
		if err := json.Unmarshal(input, &in); err != nil {
			return nil, err
		}
		var items []map[string]any
		for _, p := range []string{"chatgpt", "perplexity", "gemini"} {
			for s := 1; s <= 2; s++ {
				items = append(items, map[string]any{"jobId": in.JobID, "tenantId": in.TenantID, "platform": p, "sample": s})
			}
		}
		return json.Marshal(map[string]any{"items": items})
	case arnRun:
		if q.runFails < 0 || n <= q.runFails {
			return nil, lambdaDied
		}
		var in struct {
			Items []struct {
				Platform string `json:"platform"`
				Sample   int    `json:"sample"`
			} `json:"items"`
		}
		if err := json.Unmarshal(input, &in); err != nil {
			return nil, err
		}
		results := []map[string]any{}
		for _, it := range in.Items {
			var err error
			switch {
			case q.allFail && it.Platform == "chatgpt":
				err = &TransientProviderError{it.Platform} // exhausted its retries
			case q.allFail || it.Platform == "gemini":
				err = &ProviderFailedError{it.Platform}
			}
			r := map[string]any{"platform": it.Platform, "sample": it.Sample, "status": "succeeded"}
			if err != nil {
				r["status"] = "failed"
				r["error"] = map[string]any{"Error": workflow.ErrorName(err), "Cause": workflow.ErrorCause(err)}
			}
			results = append(results, r)
		}
		return json.Marshal(results)
	case arnSettle:
		if q.settleFails < 0 || n <= q.settleFails {
			return nil, lambdaDied
		}
		var in struct {
			JobID   string           `json:"jobId"`
			Results []map[string]any `json:"results"`
			Failure *struct {
				Error, Cause string
			} `json:"failure"`
		}
		if err := json.Unmarshal(input, &in); err != nil {
			return nil, err
		}
		succeeded, failed := 0, 0
		for _, r := range in.Results {
			if r["status"] == "succeeded" {
				succeeded++
			} else {
				failed++
			}
		}
		status := "partial"
		switch {
		case in.Failure != nil || succeeded == 0:
			status = "failed"
		case failed == 0:
			status = "succeeded"
		}
		out := map[string]any{"jobId": in.JobID, "status": status, "succeeded": succeeded, "failed": failed, "results": in.Results}
		if in.Failure != nil {
			out["failure"] = in.Failure
		}
		return json.Marshal(out)
	}
	return nil, &workflow.UnknownResourceError{Resource: resource}
}

// The query-execution definition produces the same output and the same step
// invocations in the Go runner and in aws-local-stepfunctions.
func TestQueryExecutionDifferential(t *testing.T) {
	t.Parallel()
	def, err := os.ReadFile(filepath.Join(statemachinesDir, "query-execution.asl.json"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := workflow.Load(def, querySubst)
	if err != nil {
		t.Fatal(err)
	}
	input := json.RawMessage(`{"jobId":"01JOBDIFFERENTIAL","tenantId":1}`)
	cases := []struct {
		name                  string
		markFails, allFail    bool
		runFails, settleFails int
		wantStatus            string
		wantErr               string // the execution's error, when it fails
		wantCalls             map[string]int
	}{
		// chatgpt ok ×2, perplexity ok ×2, gemini failed ×2: one RunPlatforms.
		{"partial", false, false, 0, 0, "partial", "", map[string]int{arnMark: 1, arnRun: 1, arnSettle: 1}},
		{"all platforms fail", false, true, 0, 0, "failed", "", map[string]int{arnMark: 1, arnRun: 1, arnSettle: 1}},
		// MarkRunning: 1 + 2 StoreUnavailableError retries, caught → SettleAfterFailure.
		{"mark running fails", true, false, 0, 0, "failed", "", map[string]int{arnMark: 3, arnSettle: 1}},
		// RunPlatforms' function dies twice (Lambda.Unknown): retried, the run settles.
		{"run platforms retried after Lambda.Unknown", false, false, 2, 0, "partial", "", map[string]int{arnMark: 1, arnRun: 3, arnSettle: 1}},
		// RunPlatforms keeps dying: 1 + 2 retries, caught → SettleAfterFailure.
		{"run platforms never succeeds", false, false, -1, 0, "failed", "", map[string]int{arnMark: 1, arnRun: 3, arnSettle: 1}},
		// Settle's function times out twice (Lambda.Unknown): retried, it settles.
		{"settle retried after Lambda.Unknown", false, false, 0, 2, "partial", "", map[string]int{arnMark: 1, arnRun: 1, arnSettle: 3}},
		// Settle keeps dying: 1 + 3 retries, caught → NotSettled: the
		// execution ends FAILED, for the status-change rule to settle.
		{"settle never succeeds", false, false, 0, -1, "", "JobNotSettled", map[string]int{arnMark: 1, arnRun: 1, arnSettle: 4}},
		// MarkRunning fails, and so does SettleAfterFailure: the same end.
		{"settle after failure never succeeds", true, false, 0, -1, "", "JobNotSettled", map[string]int{arnMark: 3, arnSettle: 4}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			goSteps := newQuerySteps(tc.markFails, tc.allFail, tc.runFails, tc.settleFails)
			goOut, err := m.Execute(context.Background(), "01JOBDIFFERENTIAL", input, goSteps, workflow.WithRetryScale(0.001))
			var ee *workflow.ExecutionError
			switch {
			case tc.wantErr != "" && (!errors.As(err, &ee) || ee.Name != tc.wantErr):
				t.Fatalf("Go runner: %v, want the execution to fail with %s", err, tc.wantErr)
			case tc.wantErr == "" && err != nil:
				t.Fatalf("Go runner: %v", err)
			}
			if tc.wantErr == "" {
				var summary struct{ Status string }
				if err := json.Unmarshal(goOut, &summary); err != nil || summary.Status != tc.wantStatus {
					t.Errorf("Go runner: status %q (err %v), want %q; output %s", summary.Status, err, tc.wantStatus, goOut)
				}
			}
			if !reflect.DeepEqual(goSteps.calls, tc.wantCalls) {
				t.Errorf("Go runner: calls %v, want %v", goSteps.calls, tc.wantCalls)
			}

			jsSteps := newQuerySteps(tc.markFails, tc.allFail, tc.runFails, tc.settleFails)
			jsOut, errName, cause := workflowtest.RunInAWSLocal(t, def, querySubst, input, jsSteps, workflowtest.ExecutionName("01JOBDIFFERENTIAL"))
			if errName != tc.wantErr {
				t.Fatalf("aws-local-stepfunctions: execution error %q (%s), want %q", errName, cause, tc.wantErr)
			}
			if tc.wantErr != "" && cause != ee.Cause {
				t.Errorf("causes differ: Go runner %q, aws-local-stepfunctions %q", ee.Cause, cause)
			}
			if tc.wantErr == "" && !jsontest.Same(t, goOut, jsOut) {
				t.Errorf("outputs differ\nGo runner:               %s\naws-local-stepfunctions: %s", goOut, jsOut)
			}
			if !reflect.DeepEqual(goSteps.calls, jsSteps.calls) {
				t.Errorf("invocations differ: Go runner %v, aws-local-stepfunctions %v", goSteps.calls, jsSteps.calls)
			}
		})
	}
}
