// Package workflow runs the state machines in statemachines/*.asl.json: in
// AWS through Step Functions (SFN), locally through an in-process
// interpreter of the Amazon States Language (Machine, Local) that resolves
// each Task to a Go step handler. The ASL files are the single definition of
// every workflow; this package makes them executable without AWS.
//
// The interpreter covers the subset the project's definitions use, with Step
// Functions semantics: Task (including TimeoutSeconds and .waitForTaskToken
// callbacks), Choice, Map (inline), Pass, Wait, Succeed, Fail, Retry, Catch,
// InputPath/Parameters/ResultSelector/ResultPath/OutputPath over reference
// paths ($.a.b, $.a[0], $['a b']) and the context object ($$.Execution.*,
// $$.State.*, $$.Task.Token, $$.Map.Item.*). Load rejects everything else
// (Parallel, intrinsic functions, distributed Map, JSONata, …) by name.
//
// Task errors are named as aws-lambda-go names them (ErrorName), so a typed
// Go error matches the same ErrorEquals here and in AWS.
package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
)

// Invoker runs a Task state's resource: in production a Lambda function, in
// process the step handler registered for it.
type Invoker interface {
	Invoke(ctx context.Context, resource string, input json.RawMessage) (json.RawMessage, error)
}

// InvokerFunc adapts a function to Invoker.
type InvokerFunc func(ctx context.Context, resource string, input json.RawMessage) (json.RawMessage, error)

// Invoke calls f.
func (f InvokerFunc) Invoke(ctx context.Context, resource string, input json.RawMessage) (json.RawMessage, error) {
	return f(ctx, resource, input)
}

// Handler is one step handler, with the signature of a Lambda handler.
type Handler func(ctx context.Context, input json.RawMessage) (json.RawMessage, error)

// Handlers routes each resource (the substituted Task Resource) to its step
// handler, as Lambda routes a function ARN to its code.
type Handlers map[string]Handler

// Invoke runs the handler registered for resource.
func (h Handlers) Invoke(ctx context.Context, resource string, input json.RawMessage) (json.RawMessage, error) {
	fn, ok := h[resource]
	if !ok {
		return nil, &UnknownResourceError{Resource: resource}
	}
	return fn(ctx, input)
}

// UnknownResourceError: a Task names a resource no handler serves.
type UnknownResourceError struct{ Resource string }

func (e *UnknownResourceError) Error() string {
	return fmt.Sprintf("workflow: no step handler for resource %q", e.Resource)
}

// Option configures executions.
type Option func(*options)

type options struct {
	retryScale  float64
	tokens      *TaskTokens
	logger      *slog.Logger
	transitions func(machine, state string)
	machine     string // the state machine's name in Local ("" when run alone)
	// stop, once closed, drains executions: a running Task finishes, but no
	// further state, retry, wait or token wait begins (see Local.Shutdown).
	stop <-chan struct{}
	// onFailure is told about executions of a Local that fail.
	onFailure FailureHandler
}

// FailureHandler is told about an execution that failed (not one aborted by
// a shutdown): the machine, the execution name, its input and the error, as
// Step Functions reports a FAILED or TIMED_OUT execution to EventBridge.
type FailureHandler func(ctx context.Context, machine, execName string, input json.RawMessage, err *ExecutionError)

// WithFailureHandler has a Local call h, on the execution's goroutine,
// after each execution that fails.
func WithFailureHandler(h FailureHandler) Option {
	return func(o *options) { o.onFailure = h }
}

// errDraining aborts an execution at a state boundary during a shutdown.
var errDraining = errors.New("workflow: the runner is shutting down")

func buildOptions(opts []Option) options {
	o := options{retryScale: 1}
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// WithRetryScale multiplies every Retry interval and Wait duration by f, so
// tests can run definitions with production intervals in milliseconds
// (f = 0.001 turns IntervalSeconds 2 into 2 ms). Task and execution
// TimeoutSeconds are not scaled: they bound real work.
func WithRetryScale(f float64) Option {
	return func(o *options) { o.retryScale = max(f, 0) }
}

// WithTaskTokens routes the callbacks of .waitForTaskToken tasks: such a task
// waits until SendTaskSuccess or SendTaskFailure is called on t with its
// token. Without it, a token task fails with States.Runtime.
func WithTaskTokens(t *TaskTokens) Option {
	return func(o *options) { o.tokens = t }
}

// WithTransitions calls f with the state machine's name (in Local; "" for
// Machine.Execute) and the state's name each time a state is entered and
// each time a state is retried: what Step Functions Standard bills as state
// transitions (the cost model counts them).
func WithTransitions(f func(machine, state string)) Option {
	return func(o *options) { o.transitions = f }
}

// WithLogger logs state transitions (Debug), retries and caught errors
// (Info), and, in Local, executions that fail (Warn).
func WithLogger(l *slog.Logger) Option {
	return func(o *options) { o.logger = l }
}

var execNameRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,80}$`)

// ValidExecutionName checks a name against the Step Functions limit the
// project keeps: 1 to 80 characters of A-Z a-z 0-9 - _ (the characters that
// also keep CloudWatch logging working).
func ValidExecutionName(name string) error {
	if !execNameRE.MatchString(name) {
		return fmt.Errorf("workflow: execution name %q must be 1-%d characters of A-Z a-z 0-9 - _", name, maxNameLen)
	}
	return nil
}
