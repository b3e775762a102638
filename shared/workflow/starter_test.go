package workflow_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sfn"
	"github.com/aws/aws-sdk-go-v2/service/sfn/types"

	"github.com/brandlens/brandlens/shared/logtest"
	"github.com/brandlens/brandlens/shared/workflow"
)

var (
	_ workflow.Starter = (*workflow.Local)(nil)
	_ workflow.Starter = (*workflow.SFN)(nil)
)

func waitCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestLocal(t *testing.T) {
	echoMachine := mustLoad(t, `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"step","End":true}}}`)
	failMachine := mustLoad(t, `{"StartAt":"F","States":{"F":{"Type":"Fail","Error":"Nope","Cause":"no"}}}`)
	rec := &recorder{}
	l := workflow.NewLocal(map[string]*workflow.Machine{"echo": echoMachine, "fail": failMachine}, workflow.Handlers{
		"step": func(ctx context.Context, in json.RawMessage) (json.RawMessage, error) {
			return rec.Invoke(ctx, "step", in)
		},
	})
	defer l.Close()
	ctx := waitCtx(t)

	if err := l.Start(ctx, "echo", "job-1", json.RawMessage(`{"jobId":"job-1"}`)); err != nil {
		t.Fatal(err)
	}
	// A redelivered start: same name, same input (other spacing) → no-op.
	if err := l.Start(ctx, "echo", "job-1", json.RawMessage(`{ "jobId": "job-1" }`)); err != nil {
		t.Errorf("repeated Start: %v", err)
	}
	out, err := l.Wait(ctx, "echo", "job-1")
	if err != nil {
		t.Fatal(err)
	}
	wantJSON(t, string(out), `{"jobId":"job-1"}`)
	if err := l.Start(ctx, "echo", "job-1", json.RawMessage(`{"jobId":"job-1"}`)); err != nil {
		t.Errorf("Start after the end: %v", err)
	}
	if rec.calls() != 1 {
		t.Errorf("%d executions of job-1, want 1", rec.calls())
	}
	if err := l.Start(ctx, "echo", "job-1", json.RawMessage(`{"jobId":"other"}`)); err == nil || !strings.Contains(err.Error(), "another input") {
		t.Errorf("same name, other input: %v", err)
	}
	// The same name in another machine is another execution.
	if err := l.Start(ctx, "fail", "job-1", json.RawMessage(`{}`)); err != nil {
		t.Fatal(err)
	}
	_, err = l.Wait(ctx, "fail", "job-1")
	var ee *workflow.ExecutionError
	if !errors.As(err, &ee) || ee.Name != "Nope" {
		t.Errorf("failed execution: %v", err)
	}
	// Starting a failed execution's name again reports how it ended.
	var ended *workflow.ExecutionEndedError
	if err := l.Start(ctx, "fail", "job-1", json.RawMessage(`{}`)); !errors.As(err, &ended) || ended.Status != "FAILED" {
		t.Errorf("Start after a failure: %v, want an ExecutionEndedError FAILED", err)
	}

	for _, tc := range []struct{ machine, name, input string }{
		{"nope", "job-2", `{}`},
		{"echo", "bad name!", `{}`},
		{"echo", strings.Repeat("x", 81), `{}`},
		{"echo", "job-3", `{`},
	} {
		if err := l.Start(ctx, tc.machine, tc.name, json.RawMessage(tc.input)); err == nil {
			t.Errorf("Start(%q, %q, %s) accepted", tc.machine, tc.name, tc.input)
		}
	}
	if _, err := l.Wait(ctx, "echo", "never-started"); !errors.Is(err, workflow.ErrExecutionDoesNotExist) {
		t.Errorf("Wait of an unknown execution: %v", err)
	}
}

func TestLocalTaskTokensAndClose(t *testing.T) {
	approval := mustLoad(t, `{"StartAt":"A","States":{"A":{"Type":"Task","Resource":"approve.waitForTaskToken","Parameters":{"Token.$":"$$.Task.Token","Name.$":"$$.Execution.Name"},"End":true}}}`)
	type waiting struct{ Token, Name string }
	tokens := make(chan waiting, 2)
	inv := workflow.InvokerFunc(func(_ context.Context, _ string, in json.RawMessage) (json.RawMessage, error) {
		var msg waiting
		_ = json.Unmarshal(in, &msg)
		tokens <- msg
		return nil, nil
	})
	l := workflow.NewLocal(map[string]*workflow.Machine{"approval": approval}, inv)
	ctx := waitCtx(t)
	for _, name := range []string{"approve-1", "approve-2"} {
		if err := l.Start(ctx, "approval", name, json.RawMessage(`{}`)); err != nil {
			t.Fatal(err)
		}
	}
	first, second := <-tokens, <-tokens
	if err := l.SendTaskSuccess(first.Token, json.RawMessage(`{"approved":true}`)); err != nil {
		t.Fatal(err)
	}
	out, err := l.Wait(ctx, "approval", first.Name)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON(t, string(out), `{"approved":true}`)
	if err := l.SendTaskFailure("unknown", "E", ""); !errors.Is(err, workflow.ErrTaskDoesNotExist) {
		t.Errorf("unknown token: %v", err)
	}
	if got := l.TaskTokens().Waiting(); len(got) != 1 || got[0] != second.Token {
		t.Errorf("waiting %v, want [%s]", got, second)
	}

	// Close aborts the waiting execution.
	done := make(chan struct{})
	go func() { _ = l.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not return")
	}
	if _, err := l.Wait(ctx, "approval", second.Name); !errors.Is(err, context.Canceled) {
		t.Errorf("%s: %v, want an abort", second.Name, err)
	}
	if err := l.Start(ctx, "approval", "approve-3", json.RawMessage(`{}`)); !errors.Is(err, workflow.ErrClosed) {
		t.Errorf("Start after Close: %v", err)
	}
}

func TestLocalLogs(t *testing.T) {
	var buf logtest.Buffer
	logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}))
	m := mustLoad(t, `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r","Retry":[{"ErrorEquals":["TransientProviderError"],"MaxAttempts":1}],"End":true}}}`)
	l := workflow.NewLocal(map[string]*workflow.Machine{"m": m}, failing(10, &TransientProviderError{"p"}), workflow.WithLogger(logger), workflow.WithRetryScale(0.001))
	defer l.Close()
	ctx := waitCtx(t)
	if err := l.Start(ctx, "m", "logged", json.RawMessage(`{}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Wait(ctx, "m", "logged"); err == nil {
		t.Fatal("want a failed execution")
	}
	_ = l.Close() // the failure is logged after Wait returns; Close waits for it
	logs := buf.String()
	for _, want := range []string{"workflow: retrying state", "state=T", "error=TransientProviderError", "workflow: execution failed", "execution=logged"} {
		if !strings.Contains(logs, want) {
			t.Errorf("logs lack %q:\n%s", want, logs)
		}
	}
}

type fakeSFN struct {
	got      *sfn.StartExecutionInput
	err      error
	status   types.ExecutionStatus
	describe *sfn.DescribeExecutionInput
}

func (f *fakeSFN) StartExecution(_ context.Context, in *sfn.StartExecutionInput, _ ...func(*sfn.Options)) (*sfn.StartExecutionOutput, error) {
	f.got = in
	return &sfn.StartExecutionOutput{}, f.err
}

func (f *fakeSFN) DescribeExecution(_ context.Context, in *sfn.DescribeExecutionInput, _ ...func(*sfn.Options)) (*sfn.DescribeExecutionOutput, error) {
	f.describe = in
	if f.status == "" {
		return nil, &types.ExecutionDoesNotExist{Message: aws.String("no such execution")}
	}
	return &sfn.DescribeExecutionOutput{Status: f.status}, nil
}

func TestSFN(t *testing.T) {
	arn := "arn:aws:states:us-east-1:123456789012:stateMachine:query-execution"
	fake := &fakeSFN{}
	s := &workflow.SFN{Client: fake, Machines: map[string]string{"query-execution": arn}}
	ctx := context.Background()
	if err := s.Start(ctx, "query-execution", "01JOB", json.RawMessage(`{"jobId":"01JOB"}`)); err != nil {
		t.Fatal(err)
	}
	if aws.ToString(fake.got.StateMachineArn) != arn || aws.ToString(fake.got.Name) != "01JOB" || aws.ToString(fake.got.Input) != `{"jobId":"01JOB"}` {
		t.Errorf("StartExecution input %+v", fake.got)
	}
	if fake.describe != nil {
		t.Error("a new execution was described")
	}
	// The name exists: what became of that execution decides.
	for _, tc := range []struct {
		status types.ExecutionStatus
		ended  bool
	}{
		{types.ExecutionStatusRunning, false},
		{types.ExecutionStatusSucceeded, false},
		{types.ExecutionStatusPendingRedrive, false},
		{types.ExecutionStatusFailed, true},
		{types.ExecutionStatusTimedOut, true},
		{types.ExecutionStatusAborted, true},
	} {
		t.Run("exists and "+string(tc.status), func(t *testing.T) {
			f := &fakeSFN{err: &types.ExecutionAlreadyExists{Message: aws.String("exists")}, status: tc.status}
			err := (&workflow.SFN{Client: f, Machines: s.Machines}).Start(ctx, "query-execution", "01JOB", json.RawMessage(`{}`))
			if got := aws.ToString(f.describe.ExecutionArn); got != "arn:aws:states:us-east-1:123456789012:execution:query-execution:01JOB" {
				t.Errorf("described %q", got)
			}
			var ended *workflow.ExecutionEndedError
			switch {
			case !tc.ended && err != nil:
				t.Errorf("err %v, want nil", err)
			case tc.ended && (!errors.As(err, &ended) || ended.Status != string(tc.status) || ended.Name != "01JOB"):
				t.Errorf("err %v, want an ExecutionEndedError %s", err, tc.status)
			}
		})
	}
	t.Run("exists but cannot be described", func(t *testing.T) {
		f := &fakeSFN{err: &types.ExecutionAlreadyExists{Message: aws.String("exists")}}
		err := (&workflow.SFN{Client: f, Machines: s.Machines}).Start(ctx, "query-execution", "01JOB", json.RawMessage(`{}`))
		var missing *types.ExecutionDoesNotExist
		if !errors.As(err, &missing) {
			t.Errorf("err %v, want the DescribeExecution error", err)
		}
	})
	fake.err = &types.ExecutionLimitExceeded{Message: aws.String("too many")}
	if err := s.Start(ctx, "query-execution", "01JOB", json.RawMessage(`{}`)); err == nil {
		t.Error("ExecutionLimitExceeded swallowed")
	}
	if err := s.Start(ctx, "unknown", "01JOB", json.RawMessage(`{}`)); err == nil {
		t.Error("unknown machine accepted")
	}
	if err := s.Start(ctx, "query-execution", "bad name", json.RawMessage(`{}`)); err == nil {
		t.Error("invalid name accepted")
	}
}

func TestExecutionARN(t *testing.T) {
	for _, tc := range []struct{ machine, want string }{
		{"arn:aws:states:eu-west-1:123456789012:stateMachine:brandlens-prod-query-execution", "arn:aws:states:eu-west-1:123456789012:execution:brandlens-prod-query-execution:01JOB"},
		{"arn:aws-cn:states:cn-north-1:123456789012:stateMachine:q", "arn:aws-cn:states:cn-north-1:123456789012:execution:q:01JOB"},
		{"arn:aws:lambda:us-east-1:123456789012:function:f", ""},
		{"query-execution", ""},
	} {
		got, err := workflow.ExecutionARN(tc.machine, "01JOB")
		if got != tc.want || (err != nil) != (tc.want == "") {
			t.Errorf("ExecutionARN(%q) = %q, %v; want %q", tc.machine, got, err, tc.want)
		}
	}
}

// The real client decodes Step Functions' ExecutionAlreadyExists reply into
// the type SFN.Start recognises.
func TestSFNWithSDKClient(t *testing.T) {
	var bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies = append(bodies, string(b))
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		switch r.Header.Get("X-Amz-Target") {
		case "AWSStepFunctions.StartExecution":
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"__type":"com.amazonaws.swf.service.v2.model#ExecutionAlreadyExists","message":"Execution Already Exists: 'arn:…:01JOB'"}`)
		case "AWSStepFunctions.DescribeExecution":
			_, _ = io.WriteString(w, `{"executionArn":"arn:aws:states:us-east-1:123456789012:execution:q:01JOB","status":"FAILED","startDate":1.7e9}`)
		default:
			http.Error(w, "unexpected target", http.StatusBadRequest)
		}
	}))
	defer srv.Close()
	client := sfn.New(sfn.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(srv.URL),
		Credentials:  credentials.NewStaticCredentialsProvider("AKID", "SECRET", ""),
	})
	s := &workflow.SFN{Client: client, Machines: map[string]string{"q": "arn:aws:states:us-east-1:123456789012:stateMachine:q"}}
	err := s.Start(context.Background(), "q", "01JOB", json.RawMessage(`{"jobId":"01JOB"}`))
	var ended *workflow.ExecutionEndedError
	if !errors.As(err, &ended) || ended.Status != "FAILED" {
		t.Errorf("Start: %v, want the FAILED execution reported", err)
	}
	if len(bodies) != 2 || !strings.Contains(bodies[0], `"name":"01JOB"`) ||
		!strings.Contains(bodies[1], `"executionArn":"arn:aws:states:us-east-1:123456789012:execution:q:01JOB"`) {
		t.Errorf("request bodies %q", bodies)
	}
}
