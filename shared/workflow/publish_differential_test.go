package workflow_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/brandlens/brandlens/shared/workflow"
	"github.com/brandlens/brandlens/shared/workflow/workflowtest"
)

// DeliveryFailedError is the publish step's failure (publish's type name).
type DeliveryFailedError struct{}

func (e *DeliveryFailedError) Error() string { return "the destination answered HTTP 500" }

const lambdaInvokeForToken = "arn:aws:states:::lambda:invoke.waitForTaskToken"

// publishSteps fakes the publish workflow's steps. The approval step is
// invoked through lambda:invoke.waitForTaskToken and answers the token as
// the scenario's reviewer would: at once (no approval needed), later
// (approved or rejected, from another goroutine, as a review does).
type publishSteps struct {
	publishScenario
	tokens *workflow.TaskTokens

	mu      sync.Mutex
	calls   map[string]int
	answers sync.WaitGroup
}

// publishScenario is how publishSteps behave.
type publishScenario struct {
	review       string // "none", "approve", "reject"
	deliverFails int    // Deliver fails with StoreUnavailableError this many times first
	refused      bool   // Deliver fails with DeliveryFailedError (the receiver's 500)
}

func (s *publishSteps) Invoke(ctx context.Context, resource string, input json.RawMessage) (json.RawMessage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if resource == lambdaInvokeForToken {
		var p struct {
			FunctionName string
			Payload      struct {
				JobID     string `json:"jobId"`
				TaskToken string `json:"taskToken"`
			}
		}
		if err := json.Unmarshal(input, &p); err != nil {
			return nil, err
		}
		s.calls[p.FunctionName]++
		token := p.Payload.TaskToken
		switch s.review {
		case "none":
			return nil, s.tokens.SendTaskSuccess(token, json.RawMessage(`{"status":"not_required"}`))
		case "approve":
			s.answers.Go(func() {
				_ = s.tokens.SendTaskSuccess(token, json.RawMessage(`{"approvalId":"apr_1","status":"approved"}`))
			})
		case "reject":
			s.answers.Go(func() {
				_ = s.tokens.SendTaskFailure(token, "ApprovalRejected", "the approval request apr_1 was rejected: off-brand")
			})
		}
		return json.RawMessage(`{}`), nil
	}
	in, err := recordCall(s.calls, resource, input)
	if err != nil {
		return nil, err
	}
	switch resource {
	case arn("StepJobStartArn"):
		return input, nil
	case arn("StepPublishDeliverArn"):
		switch {
		case s.refused:
			return nil, &DeliveryFailedError{}
		case s.calls[resource] <= s.deliverFails:
			return nil, &StoreUnavailableError{}
		}
		return json.RawMessage(`{"liveUrl":"https://blog.example.com/notes","httpStatus":201}`), nil
	case arn("StepJobSettleArn"):
		status := "failed"
		if in["result"] != nil {
			status = "succeeded"
		}
		return json.Marshal(map[string]any{"jobId": in["jobId"], "status": status, "failure": in["failure"]})
	}
	return nil, &PermanentError{}
}

// publish.asl.json runs alike in the Go runner and in
// aws-local-stepfunctions, its approval step answered through task tokens
// in both: approved (the review answers later), not needed (answered
// during the invocation), rejected (ApprovalRejected reaches
// SettleAfterFailure with its cause), a receiver's 500 (DeliveryFailedError:
// no retry), and a store outage during delivery (retried).
func TestPublishDifferential(t *testing.T) {
	t.Parallel()
	await, deliver, start, settle := arn("StepPublishAwaitApprovalArn"), arn("StepPublishDeliverArn"), arn("StepJobStartArn"), arn("StepJobSettleArn")
	cases := []struct {
		name  string
		steps publishScenario
		want  string
		calls map[string]int
	}{
		{"approved", publishScenario{review: "approve"}, "succeeded", map[string]int{await: 1, start: 1, deliver: 1, settle: 1}},
		{"no approval needed", publishScenario{review: "none"}, "succeeded", map[string]int{await: 1, start: 1, deliver: 1, settle: 1}},
		{"rejected", publishScenario{review: "reject"}, "failed", map[string]int{await: 1, settle: 1}},
		{"receiver answers 500", publishScenario{review: "none", refused: true}, "failed", map[string]int{await: 1, start: 1, deliver: 1, settle: 1}},
		{"store outage while delivering", publishScenario{review: "approve", deliverFails: 2}, "succeeded", map[string]int{await: 1, start: 1, deliver: 3, settle: 1}},
	}
	m, def, subst := loadMachine(t, "publish.asl.json")
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			input := json.RawMessage(`{"jobId":"01JOBPUBLISH","tenantId":1,"type":"publish"}`)
			fresh := func() *publishSteps {
				return &publishSteps{publishScenario: tc.steps, tokens: workflow.NewTaskTokens(), calls: map[string]int{}}
			}
			goSteps := fresh()
			goOut, err := m.Execute(context.Background(), "01JOBPUBLISH", input, goSteps,
				workflow.WithRetryScale(0.001), workflow.WithTaskTokens(goSteps.tokens))
			goSteps.answers.Wait()
			if err != nil {
				t.Fatalf("Go runner: %v", err)
			}
			jsSteps := fresh()
			jsOut, errName, cause := workflowtest.RunInAWSLocal(t, def, subst, input, jsSteps,
				workflowtest.ExecutionName("01JOBPUBLISH"), workflowtest.TaskTokens(jsSteps.tokens))
			jsSteps.answers.Wait()
			compareRuns(t, tc.want, tc.calls, runOutcome{goOut, goSteps.calls}, runOutcome{jsOut, jsSteps.calls}, errName, cause)
		})
	}
}
