package workflow

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sfn"
	"github.com/aws/aws-sdk-go-v2/service/sfn/types"
)

// Starter starts a workflow execution named execName (the job id) of the
// named state machine. Starting a name that was already started is a no-op
// returning nil while that execution runs or after it succeeded, so
// at-least-once queue deliveries start a job once; after it failed, timed
// out or was aborted it is an *ExecutionEndedError (the name cannot run
// again, and the job may be unsettled).
type Starter interface {
	Start(ctx context.Context, machine, execName string, input json.RawMessage) error
}

// ErrExecutionDoesNotExist is returned by Local.Wait for a name never started.
var ErrExecutionDoesNotExist = errors.New("workflow: no such execution")

// ErrClosed is returned by Local.Start after Close.
var ErrClosed = errors.New("workflow: runner is closed")

// Local runs executions in process, each on its own goroutine, with one
// Invoker for all Task resources. It is the runner of `brandlens serve` and
// of tests.
type Local struct {
	machines map[string]*Machine
	inv      Invoker
	opts     []Option
	tokens   *TaskTokens
	logger   func(machine, name string, err error)

	ctx    context.Context // executions outlive the Start call; Close ends them
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// stop is closed by Shutdown: executions drain (see Shutdown).
	stop      chan struct{}
	onFailure FailureHandler

	mu     sync.Mutex
	closed bool
	execs  map[[2]string]*localExecution
}

type localExecution struct {
	input  any
	done   chan struct{}
	output json.RawMessage
	err    error
}

// ended is nil while the execution runs or when it succeeded, else the
// *ExecutionEndedError SFN.Start reports for it.
func (e *localExecution) ended(machine, name string) error {
	select {
	case <-e.done:
	default:
		return nil
	}
	var ee *ExecutionError
	switch {
	case e.err == nil:
		return nil
	case errors.As(e.err, &ee) && ee.Name == ErrorTimeout:
		return &ExecutionEndedError{Machine: machine, Name: name, Status: "TIMED_OUT"}
	case errors.As(e.err, &ee):
		return &ExecutionEndedError{Machine: machine, Name: name, Status: "FAILED"}
	}
	return &ExecutionEndedError{Machine: machine, Name: name, Status: "ABORTED"}
}

// NewLocal returns a runner for the given machines (by name, the name
// Start is called with). opts apply to every execution; a TaskTokens is
// added unless opts carry one, and SendTaskSuccess/SendTaskFailure reach it.
func NewLocal(machines map[string]*Machine, inv Invoker, opts ...Option) *Local {
	o := buildOptions(opts)
	if o.tokens == nil {
		o.tokens = NewTaskTokens()
		opts = append(append([]Option(nil), opts...), WithTaskTokens(o.tokens))
	}
	stop := make(chan struct{})
	opts = append(append([]Option(nil), opts...), func(o *options) { o.stop = stop })
	l := &Local{
		machines:  machines,
		inv:       inv,
		opts:      opts,
		tokens:    o.tokens,
		execs:     map[[2]string]*localExecution{},
		stop:      stop,
		onFailure: o.onFailure,
	}
	if o.logger != nil {
		logger := o.logger
		l.logger = func(machine, name string, err error) {
			logger.Warn("workflow: execution failed", "machine", machine, "execution", name, "error", err)
		}
	}
	l.ctx, l.cancel = context.WithCancel(context.Background())
	return l
}

// Start begins an execution and returns without waiting for it. Starting an
// existing (machine, execName) again with the same input is a no-op while it
// runs or after it succeeded, and an *ExecutionEndedError after it failed,
// timed out or was aborted, as SFN.Start makes it. With a different input it is an error:
// Step Functions answers ExecutionAlreadyExists to both cases and SFN.Start
// cannot tell them apart, so this stricter check is where tests catch a name
// reused for other work.
func (l *Local) Start(ctx context.Context, machine, execName string, input json.RawMessage) error {
	m, ok := l.machines[machine]
	if !ok {
		return fmt.Errorf("workflow: unknown state machine %q", machine)
	}
	if err := ValidExecutionName(execName); err != nil {
		return err
	}
	in, err := decodeValue(input)
	if err != nil {
		return fmt.Errorf("workflow: execution input is not valid JSON: %w", err)
	}
	key := [2]string{machine, execName}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return ErrClosed
	}
	if prev, ok := l.execs[key]; ok {
		if !reflect.DeepEqual(prev.input, in) {
			return fmt.Errorf("workflow: execution %s of %s already exists with another input", execName, machine)
		}
		return prev.ended(machine, execName)
	}
	ex := &localExecution{input: in, done: make(chan struct{})}
	l.execs[key] = ex
	input = bytes.Clone(input)
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		defer close(ex.done)
		opts := append(slices.Clip(l.opts), func(o *options) { o.machine = machine })
		ex.output, ex.err = m.Execute(l.ctx, execName, input, l.inv, opts...)
		if ex.err != nil && l.logger != nil {
			l.logger(machine, execName, ex.err)
		}
		var xe *ExecutionError
		if l.onFailure != nil && errors.As(ex.err, &xe) {
			l.onFailure(l.ctx, machine, execName, input, xe)
		}
	}()
	return nil
}

// Shutdown drains the runner: it starts no new execution, and running
// executions begin no further state, retry or wait — but the Tasks
// already invoked run to their end, so that a step's work is not cut in
// half. It returns once every execution has stopped, or when ctx ends
// (the grace period), after aborting what is still running as Close does.
// Executions stopped this way end with an error (not an ExecutionError)
// and are meant to be started again after a restart: the steps must be
// idempotent.
func (l *Local) Shutdown(ctx context.Context) error {
	l.mu.Lock()
	l.closed = true
	select {
	case <-l.stop:
	default:
		close(l.stop)
	}
	l.mu.Unlock()
	done := make(chan struct{})
	go func() { l.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		l.cancel()
		<-done
		return fmt.Errorf("workflow: executions aborted after the grace period: %w", context.Cause(ctx))
	}
}

// Wait blocks until the execution ends and returns its output or error (a
// *ExecutionError when it failed), or until ctx ends.
func (l *Local) Wait(ctx context.Context, machine, execName string) (json.RawMessage, error) {
	l.mu.Lock()
	ex, ok := l.execs[[2]string{machine, execName}]
	l.mu.Unlock()
	if !ok {
		return nil, ErrExecutionDoesNotExist
	}
	select {
	case <-ex.done:
		return ex.output, ex.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// SendTaskSuccess answers a waiting .waitForTaskToken task.
func (l *Local) SendTaskSuccess(token string, output json.RawMessage) error {
	return l.tokens.SendTaskSuccess(token, output)
}

// SendTaskFailure fails a waiting .waitForTaskToken task.
func (l *Local) SendTaskFailure(token, errName, cause string) error {
	return l.tokens.SendTaskFailure(token, errName, cause)
}

// TaskTokens is the registry token tasks wait in (to list waiting tokens).
func (l *Local) TaskTokens() *TaskTokens { return l.tokens }

// Close aborts the executions still running and waits for them to return.
func (l *Local) Close() error {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
	l.cancel()
	l.wg.Wait()
	return nil
}

// ExecutionsAPI is the part of *sfn.Client SFN uses.
type ExecutionsAPI interface {
	StartExecution(ctx context.Context, in *sfn.StartExecutionInput, optFns ...func(*sfn.Options)) (*sfn.StartExecutionOutput, error)
	DescribeExecution(ctx context.Context, in *sfn.DescribeExecutionInput, optFns ...func(*sfn.Options)) (*sfn.DescribeExecutionOutput, error)
}

// ExecutionEndedError is Start's answer when the name was started before
// and that execution ended without succeeding: Step Functions keeps a
// Standard execution's name for 90 days, so the work cannot start again
// under it (the dispatcher drops such a message: the job is settled by the
// execution-ended rule, or by the sweep at its deadline).
type ExecutionEndedError struct {
	Machine, Name string
	// Status is FAILED, TIMED_OUT or ABORTED (Step Functions' names).
	Status string
}

func (e *ExecutionEndedError) Error() string {
	return fmt.Sprintf("workflow: execution %s of %s already ran and ended %s", e.Name, e.Machine, e.Status)
}

// SFN starts executions in AWS Step Functions.
type SFN struct {
	Client ExecutionsAPI
	// Machines maps a state machine's name (as passed to Start) to its ARN.
	Machines map[string]string
}

// Start calls StartExecution with name = execName. ExecutionAlreadyExists
// means the name was started before (a redelivered message); Start then
// asks DescribeExecution: running or succeeded is nil, ended otherwise an
// *ExecutionEndedError.
func (s *SFN) Start(ctx context.Context, machine, execName string, input json.RawMessage) error {
	arn, ok := s.Machines[machine]
	if !ok {
		return fmt.Errorf("workflow: no state machine ARN for %q", machine)
	}
	if err := ValidExecutionName(execName); err != nil {
		return err
	}
	_, err := s.Client.StartExecution(ctx, &sfn.StartExecutionInput{
		StateMachineArn: aws.String(arn),
		Name:            aws.String(execName),
		Input:           aws.String(string(input)),
	})
	var exists *types.ExecutionAlreadyExists
	if errors.As(err, &exists) {
		return s.existing(ctx, machine, arn, execName)
	}
	if err != nil {
		return fmt.Errorf("workflow: starting %s of %s: %w", execName, machine, err)
	}
	return nil
}

// Callbacks answer .waitForTaskToken tasks: in AWS through Step Functions
// (SFNCallbacks), in process through the local runner's TaskTokens.
type Callbacks interface {
	SendTaskSuccess(ctx context.Context, token string, output json.RawMessage) error
	SendTaskFailure(ctx context.Context, token, errName, cause string) error
}

// LocalCallbacks answers the tasks waiting in a local runner's tokens. A
// token nobody waits for (answered already, or its execution is gone) is
// not an error: the waiting step registers again when the job is resumed.
type LocalCallbacks struct{ Tokens *TaskTokens }

// SendTaskSuccess implements Callbacks.
func (c LocalCallbacks) SendTaskSuccess(_ context.Context, token string, output json.RawMessage) error {
	if err := c.Tokens.SendTaskSuccess(token, output); err != nil && !errors.Is(err, ErrTaskDoesNotExist) {
		return err
	}
	return nil
}

// SendTaskFailure implements Callbacks.
func (c LocalCallbacks) SendTaskFailure(_ context.Context, token, errName, cause string) error {
	if err := c.Tokens.SendTaskFailure(token, errName, cause); err != nil && !errors.Is(err, ErrTaskDoesNotExist) {
		return err
	}
	return nil
}

// TaskCallbacksAPI is the part of *sfn.Client SFNCallbacks uses.
type TaskCallbacksAPI interface {
	SendTaskSuccess(ctx context.Context, in *sfn.SendTaskSuccessInput, optFns ...func(*sfn.Options)) (*sfn.SendTaskSuccessOutput, error)
	SendTaskFailure(ctx context.Context, in *sfn.SendTaskFailureInput, optFns ...func(*sfn.Options)) (*sfn.SendTaskFailureOutput, error)
}

// SFNCallbacks answers tasks waiting in Step Functions. A token that no
// longer waits (TaskTimedOut, TaskDoesNotExist, InvalidToken) is not an
// error, as locally.
type SFNCallbacks struct{ Client TaskCallbacksAPI }

func gone(err error) bool {
	var (
		to *types.TaskTimedOut
		dn *types.TaskDoesNotExist
		it *types.InvalidToken
	)
	return errors.As(err, &to) || errors.As(err, &dn) || errors.As(err, &it)
}

// SendTaskSuccess implements Callbacks.
func (c SFNCallbacks) SendTaskSuccess(ctx context.Context, token string, output json.RawMessage) error {
	_, err := c.Client.SendTaskSuccess(ctx, &sfn.SendTaskSuccessInput{TaskToken: aws.String(token), Output: aws.String(string(output))})
	if err != nil && !gone(err) {
		return fmt.Errorf("workflow: SendTaskSuccess: %w", err)
	}
	return nil
}

// SendTaskFailure implements Callbacks.
func (c SFNCallbacks) SendTaskFailure(ctx context.Context, token, errName, cause string) error {
	_, err := c.Client.SendTaskFailure(ctx, &sfn.SendTaskFailureInput{TaskToken: aws.String(token), Error: aws.String(errName), Cause: aws.String(cause)})
	if err != nil && !gone(err) {
		return fmt.Errorf("workflow: SendTaskFailure: %w", err)
	}
	return nil
}

// existing reports on the execution that already holds execName.
func (s *SFN) existing(ctx context.Context, machine, machineARN, execName string) error {
	execARN, err := ExecutionARN(machineARN, execName)
	if err != nil {
		return err
	}
	out, err := s.Client.DescribeExecution(ctx, &sfn.DescribeExecutionInput{ExecutionArn: aws.String(execARN)})
	if err != nil {
		return fmt.Errorf("workflow: describing the existing execution %s of %s: %w", execName, machine, err)
	}
	switch out.Status {
	case types.ExecutionStatusRunning, types.ExecutionStatusSucceeded, types.ExecutionStatusPendingRedrive:
		return nil
	}
	return &ExecutionEndedError{Machine: machine, Name: execName, Status: string(out.Status)}
}

// ExecutionARN is the ARN of the execution name of a Standard state
// machine: arn:…:stateMachine:<machine> becomes arn:…:execution:<machine>:<name>.
func ExecutionARN(machineARN, name string) (string, error) {
	const marker = ":stateMachine:"
	i := strings.LastIndex(machineARN, marker)
	if i < 0 || !strings.HasPrefix(machineARN, "arn:") {
		return "", fmt.Errorf("workflow: %q is no state machine ARN", machineARN)
	}
	return machineARN[:i] + ":execution:" + machineARN[i+len(marker):] + ":" + name, nil
}
