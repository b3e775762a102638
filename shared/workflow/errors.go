package workflow

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/aws/aws-lambda-go/lambda/messages"
)

// Error names the runner itself raises; they are the Step Functions names so
// that Retry/Catch blocks mean the same locally and in AWS.
const (
	ErrorsAll              = "States.ALL"
	ErrorTaskFailed        = "States.TaskFailed"
	ErrorTimeout           = "States.Timeout"
	ErrorRuntime           = "States.Runtime"
	ErrorNoChoiceMatched   = "States.NoChoiceMatched"
	ErrorResultPathMatch   = "States.ResultPathMatchFailure"
	ErrorDataLimitExceeded = "States.DataLimitExceeded"
)

// ErrorName is the error type a Go Lambda reports for err, computed exactly
// as aws-lambda-go does (lambda/errors.go, lambdaErrorResponse): a
// messages.InvokeResponse_Error value keeps its own Type; otherwise the
// name of err's dynamic type, dereferenced once if it is a pointer. So
// *TransientProviderError → "TransientProviderError", errors.New →
// "errorString", and an error wrapped with fmt.Errorf("%w") → "wrapError":
// step handlers must return their typed error unwrapped for ErrorEquals to
// see its name, locally and in AWS alike.
func ErrorName(err error) string {
	if err == nil {
		return ""
	}
	if ive, ok := err.(messages.InvokeResponse_Error); ok {
		return ive.Type
	}
	t := reflect.TypeOf(err)
	if t.Kind() == reflect.Ptr {
		return t.Elem().Name()
	}
	return t.Name()
}

// ErrorCause is the Cause Step Functions records when a Lambda task fails
// with err: the function's error payload as aws-lambda-go marshals it,
// {"errorMessage": err.Error(), "errorType": ErrorName(err)}.
func ErrorCause(err error) string {
	if err == nil {
		return ""
	}
	resp := messages.InvokeResponse_Error{Message: err.Error(), Type: ErrorName(err)}
	if ive, ok := err.(messages.InvokeResponse_Error); ok {
		resp = ive
	}
	b, mErr := json.Marshal(resp)
	if mErr != nil { // unreachable for these field types; keep the message readable anyway
		return err.Error()
	}
	return string(b)
}

// CauseMessage returns the errorMessage inside a Lambda-style Cause (see
// ErrorCause), or cause itself when it is not one — for step handlers that
// record why a caught task failed.
func CauseMessage(cause string) string {
	var payload struct {
		Message *string `json:"errorMessage"`
	}
	if json.Unmarshal([]byte(cause), &payload) == nil && payload.Message != nil {
		return *payload.Message
	}
	return cause
}

// ExecutionError is a failed execution: the error name and cause Step
// Functions would report (DescribeExecution's error and cause). Its JSON
// form is the {Error, Cause} object a Catch passes on.
type ExecutionError struct {
	Name  string `json:"Error"`
	Cause string `json:"Cause"`
}

func (e *ExecutionError) Error() string {
	if e.Name == "" && e.Cause == "" { // a Fail state without Error and Cause
		return "workflow: execution failed"
	}
	if e.Cause == "" {
		return "workflow: execution failed: " + e.Name
	}
	return "workflow: execution failed: " + e.Name + ": " + e.Cause
}

// ErrTaskDoesNotExist is returned by SendTaskSuccess/SendTaskFailure for a
// token no task is waiting on (unknown, already answered or timed out), like
// Step Functions' TaskDoesNotExist / TaskTimedOut.
var ErrTaskDoesNotExist = errors.New("workflow: no task is waiting for this token")

// stateError is an error raised inside an execution, before Retry/Catch.
type stateError struct {
	name, cause string
}

func (e *stateError) Error() string { return e.name + ": " + e.cause }

// terminal errors are never retried or caught (States.ALL excludes them).
func (e *stateError) terminal() bool {
	return e.name == ErrorRuntime || e.name == ErrorDataLimitExceeded
}

func runtimeErr(format string, args ...any) *stateError {
	return &stateError{name: ErrorRuntime, cause: fmt.Sprintf(format, args...)}
}

// matchesError reports whether an ErrorEquals list matches name, with the
// wildcard rules of the States language: States.ALL matches every
// non-terminal error, States.TaskFailed every error of a Task state except
// States.Timeout.
func matchesError(equals []string, name string, isTask bool) bool {
	for _, e := range equals {
		switch {
		case e == name:
			return true
		case e == ErrorsAll:
			return true
		case e == ErrorTaskFailed && isTask && name != ErrorTimeout:
			return true
		}
	}
	return false
}
