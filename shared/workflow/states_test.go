package workflow_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/lambda/messages"

	"github.com/brandlens/brandlens/shared/workflow"
)

// One-state machines: the data flow of Pass and Task (InputPath, Parameters,
// ResultSelector, ResultPath, OutputPath) and JsonPath.
func TestDataFlow(t *testing.T) {
	input := `{"a":{"b":[10,{"c":"deep"}]},"odd key":1,"n":7,"list":[{"id":"x"},{"id":"y"}]}`
	cases := []struct{ name, state, want string }{
		{"Pass passes input", `{"Type":"Pass","End":true}`, input},
		{"Result replaces", `{"Type":"Pass","Result":{"r":1},"End":true}`, `{"r":1}`},
		{"falsy Result", `{"Type":"Pass","Result":0,"End":true}`, `0`},
		{"ResultPath $ explicit", `{"Type":"Pass","Result":{"r":1},"ResultPath":"$","End":true}`, `{"r":1}`},
		{"ResultPath merges", `{"Type":"Pass","Result":"v","ResultPath":"$.x.y","End":true}`, `{"a":{"b":[10,{"c":"deep"}]},"odd key":1,"n":7,"list":[{"id":"x"},{"id":"y"}],"x":{"y":"v"}}`},
		{"ResultPath into array element", `{"Type":"Pass","Result":"v","ResultPath":"$.list[1].id","End":true}`, `{"a":{"b":[10,{"c":"deep"}]},"odd key":1,"n":7,"list":[{"id":"x"},{"id":"v"}]}`},
		{"ResultPath null keeps input", `{"Type":"Pass","Result":"v","ResultPath":null,"End":true}`, input},
		{"InputPath", `{"Type":"Pass","InputPath":"$.a.b[1]","End":true}`, `{"c":"deep"}`},
		{"InputPath null", `{"Type":"Pass","InputPath":null,"End":true}`, `{}`},
		{"OutputPath", `{"Type":"Pass","OutputPath":"$.list[0].id","End":true}`, `"x"`},
		{"OutputPath null", `{"Type":"Pass","OutputPath":null,"End":true}`, `{}`},
		{"bracket name", `{"Type":"Pass","InputPath":"$['odd key']","End":true}`, `1`},
		{"Parameters", `{"Type":"Pass","Parameters":{"c.$":"$.a.b[1].c","lit":{"k":[1,{"x.$":"$.n"}]},"all.$":"$"},"OutputPath":"$.lit","End":true}`, `{"k":[1,{"x":7}]}`},
		{"context object", `{"Type":"Pass","Parameters":{"name.$":"$$.Execution.Name","in.$":"$$.Execution.Input.n","state.$":"$$.State.Name","retries.$":"$$.State.RetryCount"},"End":true}`, `{"name":"test-exec","in":7,"state":"S","retries":0}`},
		{"InputPath on context", `{"Type":"Pass","InputPath":"$$.Execution.Input.a.b[0]","End":true}`, `10`},
		{"Task data flow", `{"Type":"Task","Resource":"r","InputPath":"$.a","Parameters":{"v.$":"$.b[0]"},"ResultSelector":{"got.$":"$.v"},"ResultPath":"$.res","OutputPath":"$.res","End":true}`, `{"got":10}`},
		{"Succeed with paths", `{"Type":"Succeed","InputPath":"$.a","OutputPath":"$.b[0]"}`, `10`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, ee := run(t, `{"StartAt":"S","States":{"S":`+tc.state+`}}`, input, nil)
			if ee != nil {
				t.Fatalf("failed: %v", ee)
			}
			wantJSON(t, out, tc.want)
		})
	}
}

func TestDataFlowErrors(t *testing.T) {
	cases := []struct{ name, state, wantErr, wantCause string }{
		{"missing InputPath", `{"Type":"Pass","InputPath":"$.nope","End":true}`, workflow.ErrorRuntime, "'$.nope' specified for the field 'InputPath'"},
		{"missing parameter", `{"Type":"Pass","Parameters":{"x.$":"$.nope"},"End":true}`, workflow.ErrorRuntime, "field 'x.$'"},
		{"missing OutputPath", `{"Type":"Pass","OutputPath":"$.nope","End":true}`, workflow.ErrorRuntime, "OutputPath"},
		{"ResultPath through a string", `{"Type":"Pass","Result":1,"ResultPath":"$.s.x","End":true}`, workflow.ErrorResultPathMatch, "$.s.x"},
		{"missing context value", `{"Type":"Pass","Parameters":{"t.$":"$$.Task.Token"},"End":true}`, workflow.ErrorRuntime, "$$.Task.Token"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, ee := run(t, `{"StartAt":"S","States":{"S":`+tc.state+`}}`, `{"s":"str"}`, nil)
			wantError(t, ee, tc.wantErr, tc.wantCause)
		})
	}
	// ResultPathMatchFailure is catchable; States.Runtime is not, even by name.
	_, ee := run(t, `{"StartAt":"S","States":{"S":{"Type":"Task","Resource":"r","Parameters":{"x.$":"$.nope"},"Catch":[{"ErrorEquals":["States.Runtime"],"Next":"C"},{"ErrorEquals":["States.ALL"],"Next":"C"}],"End":true},"C":{"Type":"Succeed"}}}`, `{}`, nil)
	wantError(t, ee, workflow.ErrorRuntime, "$.nope")
	out, ee := run(t, `{"StartAt":"S","States":{"S":{"Type":"Task","Resource":"r","ResultPath":"$.s.x","Catch":[{"ErrorEquals":["States.ResultPathMatchFailure"],"ResultPath":"$.err","Next":"C"}],"End":true},"C":{"Type":"Pass","OutputPath":"$.err.Error","End":true}}}`, `{"s":"str"}`, nil)
	if ee != nil {
		t.Fatal(ee)
	}
	wantJSON(t, out, `"States.ResultPathMatchFailure"`)
}

func TestNumbersStayExact(t *testing.T) {
	out, ee := run(t, `{"StartAt":"S","States":{"S":{"Type":"Task","Resource":"r","End":true}}}`, `{"big":9007199254740993,"f":1.50}`, nil)
	if ee != nil {
		t.Fatal(ee)
	}
	if out != `{"big":9007199254740993,"f":1.50}` {
		t.Errorf("output %s: numbers changed", out)
	}
}

func TestChoice(t *testing.T) {
	now := "2026-03-01T12:00:00Z"
	input := fmt.Sprintf(`{"s":"beta","n":5,"f":2.5,"b":true,"nul":null,"ts":%q,"other":"gamma","limit":5,"glob":"report*2026.csv"}`, now)
	cases := []struct {
		rule string
		want bool
	}{
		{`"Variable":"$.s","StringEquals":"beta"`, true},
		{`"Variable":"$.s","StringEquals":"Beta"`, false},
		{`"Variable":"$.s","StringLessThan":"gamma"`, true},
		{`"Variable":"$.s","StringGreaterThan":"alpha"`, true},
		{`"Variable":"$.s","StringLessThanEquals":"beta"`, true},
		{`"Variable":"$.s","StringGreaterThanEquals":"c"`, false},
		{`"Variable":"$.s","StringEqualsPath":"$.other"`, false},
		{`"Variable":"$.s","StringLessThanPath":"$.other"`, true},
		{`"Variable":"$.s","StringMatches":"b*a"`, true},
		{`"Variable":"$.s","StringMatches":"*et*"`, true},
		{`"Variable":"$.s","StringMatches":"b*x"`, false},
		{`"Variable":"$.glob","StringMatches":"report\\*2026.*"`, true},
		{`"Variable":"$.glob","StringMatches":"report\\*2027.*"`, false},
		{`"Variable":"$.n","NumericEquals":5`, true},
		{`"Variable":"$.n","NumericEquals":5.0`, true},
		{`"Variable":"$.n","NumericLessThan":5`, false},
		{`"Variable":"$.n","NumericLessThanEquals":5`, true},
		{`"Variable":"$.f","NumericGreaterThan":2`, true},
		{`"Variable":"$.f","NumericGreaterThanEquals":2.6`, false},
		{`"Variable":"$.n","NumericEqualsPath":"$.limit"`, true},
		{`"Variable":"$.f","NumericLessThanPath":"$.limit"`, true},
		{`"Variable":"$.n","NumericGreaterThanPath":"$.limit"`, false},
		{`"Variable":"$.s","NumericEquals":5`, false}, // another type: no match, no error
		{`"Variable":"$.b","BooleanEquals":true`, true},
		{`"Variable":"$.b","BooleanEqualsPath":"$.b"`, true},
		{`"Variable":"$.ts","TimestampEquals":"2026-03-01T13:00:00+01:00"`, true},
		{`"Variable":"$.ts","TimestampLessThan":"2026-03-02T00:00:00Z"`, true},
		{`"Variable":"$.ts","TimestampGreaterThanPath":"$.ts"`, false},
		{`"Variable":"$.s","TimestampEquals":"2026-03-01T12:00:00Z"`, false},
		{`"Variable":"$.nul","IsNull":true`, true},
		{`"Variable":"$.s","IsNull":false`, true},
		{`"Variable":"$.s","IsPresent":true`, true},
		{`"Variable":"$.missing","IsPresent":false`, true},
		{`"Variable":"$.missing","IsPresent":true`, false},
		{`"Variable":"$.n","IsNumeric":true`, true},
		{`"Variable":"$.s","IsString":true`, true},
		{`"Variable":"$.b","IsBoolean":false`, false},
		{`"Variable":"$.ts","IsTimestamp":true`, true},
		{`"Variable":"$.s","IsTimestamp":true`, false},
		{`"Variable":"$$.Execution.Name","StringEquals":"test-exec"`, true},
		{`"And":[{"Variable":"$.n","NumericEquals":5},{"Variable":"$.b","BooleanEquals":true}]`, true},
		{`"And":[{"Variable":"$.n","NumericEquals":5},{"Variable":"$.b","BooleanEquals":false}]`, false},
		{`"Or":[{"Variable":"$.n","NumericEquals":6},{"Variable":"$.s","StringEquals":"beta"}]`, true},
		{`"Or":[{"Variable":"$.missing","IsPresent":true},{"Variable":"$.s","IsNull":true}]`, false},
		{`"Not":{"Variable":"$.s","StringEquals":"beta"}`, false},
		{`"Not":{"And":[{"Variable":"$.n","NumericEquals":5},{"Not":{"Variable":"$.b","BooleanEquals":true}}]}`, true},
	}
	for _, tc := range cases {
		t.Run(tc.rule, func(t *testing.T) {
			def := `{"StartAt":"C","States":{"C":{"Type":"Choice","Choices":[{` + tc.rule + `,"Next":"Yes"}],"Default":"No"},` +
				`"Yes":{"Type":"Pass","Result":true,"End":true},"No":{"Type":"Pass","Result":false,"End":true}}}`
			out, ee := run(t, def, input, nil)
			if ee != nil {
				t.Fatalf("failed: %v", ee)
			}
			wantJSON(t, out, fmt.Sprint(tc.want))
		})
	}

	t.Run("first matching rule wins, output is the effective input", func(t *testing.T) {
		def := `{"StartAt":"C","States":{"C":{"Type":"Choice","InputPath":"$.x","OutputPath":"$.v","Choices":[` +
			`{"Variable":"$.v","NumericGreaterThan":1,"Next":"A"},{"Variable":"$.v","NumericGreaterThan":0,"Next":"B"}]},` +
			`"A":{"Type":"Pass","Parameters":{"via":"A","in.$":"$"},"End":true},"B":{"Type":"Pass","Parameters":{"via":"B","in.$":"$"},"End":true}}}`
		out, ee := run(t, def, `{"x":{"v":2}}`, nil)
		if ee != nil {
			t.Fatal(ee)
		}
		wantJSON(t, out, `{"via":"A","in":2}`)
	})
	t.Run("no match without Default", func(t *testing.T) {
		_, ee := run(t, `{"StartAt":"C","States":{"C":{"Type":"Choice","Choices":[{"Variable":"$.n","NumericEquals":1,"Next":"S"}]},"S":{"Type":"Succeed"}}}`, `{"n":2}`, nil)
		wantError(t, ee, workflow.ErrorNoChoiceMatched, `"C"`)
	})
	t.Run("missing Variable", func(t *testing.T) {
		_, ee := run(t, `{"StartAt":"C","States":{"C":{"Type":"Choice","Choices":[{"Variable":"$.nope","NumericEquals":1,"Next":"S"}],"Default":"S"},"S":{"Type":"Succeed"}}}`, `{}`, nil)
		wantError(t, ee, workflow.ErrorRuntime, "$.nope")
	})
	t.Run("operand path of another type", func(t *testing.T) {
		_, ee := run(t, `{"StartAt":"C","States":{"C":{"Type":"Choice","Choices":[{"Variable":"$.n","NumericEqualsPath":"$.s","Next":"S"}],"Default":"S"},"S":{"Type":"Succeed"}}}`, `{"n":1,"s":"x"}`, nil)
		wantError(t, ee, workflow.ErrorRuntime, "$.s")
	})
}

func TestFail(t *testing.T) {
	_, ee := run(t, `{"StartAt":"F","States":{"F":{"Type":"Fail","Error":"Rejected","Cause":"because"}}}`, `{}`, nil)
	wantError(t, ee, "Rejected", "because")
	_, ee = run(t, `{"StartAt":"F","States":{"F":{"Type":"Fail","ErrorPath":"$.e","CausePath":"$$.Execution.Input.c"}}}`, `{"e":"FromInput","c":"dynamic"}`, nil)
	wantError(t, ee, "FromInput", "dynamic")
	_, ee = run(t, `{"StartAt":"F","States":{"F":{"Type":"Fail","ErrorPath":"$.e"}}}`, `{"e":5}`, nil)
	wantError(t, ee, workflow.ErrorRuntime, "must point to a string")
	_, ee = run(t, `{"StartAt":"F","States":{"F":{"Type":"Fail"}}}`, `{}`, nil)
	if ee == nil || ee.Name != "" || ee.Error() != "workflow: execution failed" {
		t.Errorf("bare Fail: %v", ee)
	}
}

func TestWait(t *testing.T) {
	future := time.Now().Add(20 * time.Second).UTC().Format(time.RFC3339)
	cases := []struct {
		name, state, input string
		min                time.Duration
	}{
		{"Seconds", `"Seconds":20`, `{}`, 20 * time.Millisecond},
		{"SecondsPath", `"SecondsPath":"$.s"`, `{"s":30}`, 30 * time.Millisecond},
		{"Timestamp in the past", `"Timestamp":"2001-01-01T00:00:00Z"`, `{}`, 0},
		{"TimestampPath", `"TimestampPath":"$.t"`, `{"t":"` + future + `"}`, 15 * time.Millisecond},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			out, ee := run(t, `{"StartAt":"W","States":{"W":{"Type":"Wait",`+tc.state+`,"End":true}}}`, tc.input, nil, workflow.WithRetryScale(0.001))
			if ee != nil {
				t.Fatal(ee)
			}
			wantJSON(t, out, tc.input)
			if d := time.Since(start); d < tc.min || d > tc.min+5*time.Second {
				t.Errorf("waited %s, want about %s (scaled by 0.001)", d, tc.min)
			}
		})
	}
	_, ee := run(t, `{"StartAt":"W","States":{"W":{"Type":"Wait","SecondsPath":"$.s","End":true}}}`, `{"s":-1}`, nil)
	wantError(t, ee, workflow.ErrorRuntime, "non-negative integer")
	_, ee = run(t, `{"StartAt":"W","States":{"W":{"Type":"Wait","TimestampPath":"$.t","End":true}}}`, `{"t":"tomorrow"}`, nil)
	wantError(t, ee, workflow.ErrorRuntime, "RFC 3339")
}

// Abort: ending ctx stops the execution with ctx's error, not an
// ExecutionError.
func TestExecuteAbort(t *testing.T) {
	m := mustLoad(t, `{"StartAt":"W","States":{"W":{"Type":"Wait","Seconds":60,"End":true}}}`)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := m.Execute(ctx, "aborted", json.RawMessage(`{}`), echo)
	var ee *workflow.ExecutionError
	if !errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ee) {
		t.Errorf("err %v, want an abort wrapping context.DeadlineExceeded", err)
	}
}

func TestExecuteRejectsBadStarts(t *testing.T) {
	m := mustLoad(t, `{"StartAt":"S","States":{"S":{"Type":"Succeed"}}}`)
	if _, err := m.Execute(context.Background(), "bad name", json.RawMessage(`{}`), echo); err == nil {
		t.Error("invalid execution name accepted")
	}
	if _, err := m.Execute(context.Background(), "ok", json.RawMessage(`{`), echo); err == nil {
		t.Error("invalid input accepted")
	}
	big := json.RawMessage(`"` + strings.Repeat("x", 256*1024) + `"`)
	if _, err := m.Execute(context.Background(), "ok", big, echo); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Errorf("oversized input: %v", err)
	}
}

func TestDataLimitExceeded(t *testing.T) {
	huge := workflow.InvokerFunc(func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`"` + strings.Repeat("x", 300*1024) + `"`), nil
	})
	// Uncatchable, even by States.ALL, as in Step Functions.
	_, ee := run(t, `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r","Catch":[{"ErrorEquals":["States.ALL"],"Next":"S"}],"End":true},"S":{"Type":"Succeed"}}}`, `{}`, huge)
	wantError(t, ee, workflow.ErrorDataLimitExceeded, "over the 262144-byte limit")
	// A small result keeps the output small: the limit is on what is kept.
	out, ee := run(t, `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r","ResultPath":null,"End":true}}}`, `{"k":1}`, huge)
	if ee != nil {
		t.Fatal(ee)
	}
	wantJSON(t, out, `{"k":1}`)
}

func TestExecutionTimeout(t *testing.T) {
	t.Parallel()
	start := time.Now()
	_, ee := run(t, `{"TimeoutSeconds":1,"StartAt":"W","States":{"W":{"Type":"Wait","Seconds":30,"End":true}}}`, `{}`, nil)
	wantError(t, ee, workflow.ErrorTimeout, "TimeoutSeconds")
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %s", d)
	}
}

type TransientProviderErrorValue struct{}

func (TransientProviderErrorValue) Error() string { return "value receiver" }

func TestErrorName(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{&TransientProviderError{"p"}, "TransientProviderError"},
		{TransientProviderErrorValue{}, "TransientProviderErrorValue"},
		{errors.New("plain"), "errorString"},
		{fmt.Errorf("wrapped: %w", &TransientProviderError{"p"}), "wrapError"}, // as in Lambda: wrap hides the type
		{messages.InvokeResponse_Error{Type: "Custom.Name", Message: "m"}, "Custom.Name"},
		{&messages.InvokeResponse_Error{Type: "Custom.Name"}, "InvokeResponse_Error"},
		{nil, ""},
	}
	for _, tc := range cases {
		if got := workflow.ErrorName(tc.err); got != tc.want {
			t.Errorf("ErrorName(%#v) = %q, want %q", tc.err, got, tc.want)
		}
	}
	cause := workflow.ErrorCause(&TransientProviderError{"gemini"})
	if want := `{"errorMessage":"gemini: rate limited, retry later","errorType":"TransientProviderError"}`; cause != want {
		t.Errorf("ErrorCause = %s, want %s", cause, want)
	}
	if got := workflow.CauseMessage(cause); got != "gemini: rate limited, retry later" {
		t.Errorf("CauseMessage = %q", got)
	}
	if got := workflow.CauseMessage("plain cause"); got != "plain cause" {
		t.Errorf("CauseMessage(plain) = %q", got)
	}
}

// A typed Go error matches ErrorEquals by its type name, and the caught
// error carries the Lambda-style cause.
func TestErrorNameMatchesErrorEquals(t *testing.T) {
	rec := &recorder{answer: func(n int, in json.RawMessage) (json.RawMessage, error) {
		if n == 1 {
			return nil, &TransientProviderError{"chatgpt"}
		}
		return nil, &ProviderFailedError{"chatgpt"}
	}}
	def := `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r",
		"Retry":[{"ErrorEquals":["TransientProviderError"],"IntervalSeconds":1,"MaxAttempts":3}],
		"Catch":[{"ErrorEquals":["ProviderFailedError"],"ResultPath":"$.error","Next":"Failed"}],"End":true},
		"Failed":{"Type":"Pass","End":true}}}`
	out, ee := run(t, def, `{"platform":"chatgpt"}`, rec, workflow.WithRetryScale(0.001))
	if ee != nil {
		t.Fatal(ee)
	}
	wantJSON(t, out, `{"platform":"chatgpt","error":{"Error":"ProviderFailedError","Cause":"{\"errorMessage\":\"chatgpt: quota exhausted\",\"errorType\":\"ProviderFailedError\"}"}}`)
	if rec.calls() != 2 {
		t.Errorf("%d calls, want 2 (one retry of the transient error)", rec.calls())
	}
}
