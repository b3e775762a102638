package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/brandlens/brandlens/shared/ctxtime"
)

// Execute runs one execution of m to its end and returns its output. A
// failed execution returns a *ExecutionError with the error name and cause
// Step Functions would report. Other errors mean the execution did not run
// to an end: an invalid name or input, or ctx ending (the execution is then
// aborted, like StopExecution).
func (m *Machine) Execute(ctx context.Context, execName string, input json.RawMessage, inv Invoker, opts ...Option) (json.RawMessage, error) {
	if err := ValidExecutionName(execName); err != nil {
		return nil, err
	}
	if len(input) > maxPayloadSize {
		return nil, fmt.Errorf("workflow: execution input is %d bytes, over the %d-byte limit", len(input), maxPayloadSize)
	}
	if len(input) == 0 {
		input = json.RawMessage("{}") // StartExecution's default input
	}
	in, err := decodeValue(input)
	if err != nil {
		return nil, fmt.Errorf("workflow: execution input is not valid JSON: %w", err)
	}
	e := &execution{name: execName, input: in, start: time.Now().UTC(), inv: inv, opts: buildOptions(opts)}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var timedOut atomic.Bool
	if m.timeout > 0 {
		t := time.AfterFunc(m.timeout, func() { timedOut.Store(true); cancel() })
		defer t.Stop()
	}
	out, err := e.runScope(ctx, m.root, in)
	if err != nil {
		if se, ok := err.(*stateError); ok {
			return nil, &ExecutionError{Name: se.name, Cause: se.cause}
		}
		if timedOut.Load() {
			return nil, &ExecutionError{Name: ErrorTimeout, Cause: fmt.Sprintf("The execution did not finish within TimeoutSeconds (%s)", m.timeout)}
		}
		return nil, fmt.Errorf("workflow: execution %s aborted: %w", execName, err)
	}
	b, err := encodeValue(out)
	if err != nil {
		return nil, fmt.Errorf("workflow: encoding the output of %s: %w", execName, err)
	}
	return b, nil
}

type execution struct {
	name  string
	input any
	start time.Time
	inv   Invoker
	opts  options
}

func (e *execution) log(level string, msg string, args ...any) {
	l := e.opts.logger
	if l == nil {
		return
	}
	args = append([]any{"execution", e.name}, args...)
	if level == "debug" {
		l.Debug(msg, args...)
	} else {
		l.Info(msg, args...)
	}
}

func (e *execution) scaled(seconds float64) time.Duration {
	return time.Duration(seconds * e.opts.retryScale * float64(time.Second))
}

// sleep waits d, unless ctx ends or the runner drains first.
func (e *execution) sleep(ctx context.Context, d time.Duration) error {
	if err := e.stopped(ctx); err != nil || d <= 0 {
		return err
	}
	err := ctxtime.Sleep(ctx, d, e.opts.stop)
	if errors.Is(err, ctxtime.ErrStopped) {
		return errDraining
	}
	return err
}

// stopped reports why no further state may begin: ctx ended, or the runner
// is draining.
func (e *execution) stopped(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case <-e.opts.stop:
		return errDraining
	default:
		return nil
	}
}

func number(n int) json.Number { return json.Number(strconv.Itoa(n)) }

// contextObject is the $$ document a state sees.
func (e *execution) contextObject(stateName string, entered time.Time, retryCount int) map[string]any {
	return map[string]any{
		"Execution": map[string]any{
			"Name":      e.name,
			"Input":     e.input,
			"StartTime": e.start.Format(time.RFC3339Nano),
		},
		"State": map[string]any{
			"Name":        stateName,
			"EnteredTime": entered.UTC().Format(time.RFC3339Nano),
			"RetryCount":  number(retryCount),
		},
	}
}

func (e *execution) runScope(ctx context.Context, sc *scope, input any) (any, error) {
	name, data := sc.startAt, input
	for {
		if err := e.stopped(ctx); err != nil {
			return nil, err
		}
		st := sc.states[name]
		e.log("debug", "workflow: state entered", "state", name)
		if e.opts.transitions != nil {
			e.opts.transitions(e.opts.machine, name)
		}
		out, next, err := e.runState(ctx, st, data)
		if err != nil {
			return nil, err
		}
		if next == "" {
			return out, nil
		}
		name, data = next, out
	}
}

// runState runs one state with its Retry and Catch: the first retrier whose
// ErrorEquals matches decides (an exhausted one does not defer to later
// retriers), then the first matching catcher.
func (e *execution) runState(ctx context.Context, st *state, raw any) (any, string, error) {
	entered := time.Now()
	attempts := make([]int, len(st.retry))
	isTask := st.typ == "Task"
	for retryCount := 0; ; retryCount++ {
		out, next, err := e.attempt(ctx, st, raw, entered, retryCount)
		if err == nil {
			return out, next, nil
		}
		se, ok := err.(*stateError)
		if !ok || se.terminal() {
			return nil, "", err
		}
		if i := firstRetrier(st.retry, se.name, isTask); i >= 0 && attempts[i] < st.retry[i].maxAttempts {
			r := st.retry[i]
			wait := r.interval * math.Pow(r.backoffRate, float64(attempts[i]))
			if r.maxDelay > 0 {
				wait = min(wait, r.maxDelay)
			}
			if r.jitterFull {
				wait = rand.Float64() * wait
			}
			attempts[i]++
			e.log("info", "workflow: retrying state", "state", st.name, "error", se.name, "attempt", attempts[i], "wait", e.scaled(wait))
			if e.opts.transitions != nil {
				e.opts.transitions(e.opts.machine, st.name)
			}
			if err := e.sleep(ctx, e.scaled(wait)); err != nil {
				return nil, "", err
			}
			continue
		}
		for _, c := range st.catch {
			if !matchesError(c.errorEquals, se.name, isTask) {
				continue
			}
			e.log("info", "workflow: caught error", "state", st.name, "error", se.name, "next", c.next)
			out, err := applyResultPath(c.resultPath, raw, map[string]any{"Error": se.name, "Cause": se.cause})
			if err != nil {
				return nil, "", err
			}
			if err := checkSize(st.name, "output", out); err != nil {
				return nil, "", err
			}
			return out, c.next, nil
		}
		return nil, "", se
	}
}

func firstRetrier(rs []retrier, name string, isTask bool) int {
	for i, r := range rs {
		if matchesError(r.errorEquals, name, isTask) {
			return i
		}
	}
	return -1
}

// attempt runs the state once: InputPath → Parameters → the state's work →
// ResultSelector → ResultPath → OutputPath.
func (e *execution) attempt(ctx context.Context, st *state, raw any, entered time.Time, retryCount int) (any, string, error) {
	ctxObj := e.contextObject(st.name, entered, retryCount)
	var tokenCh <-chan tokenResult
	if st.waitForToken {
		if e.opts.tokens == nil {
			return nil, "", runtimeErr("Task %q waits for a task token, but the runner has no TaskTokens (use WithTaskTokens)", st.name)
		}
		var token string
		token, tokenCh = e.opts.tokens.register()
		defer e.opts.tokens.unregister(token)
		ctxObj["Task"] = map[string]any{"Token": token}
	}

	eff, err := applyInputPath(st.inputPath, raw, ctxObj)
	if err != nil {
		return nil, "", err
	}
	if st.parameters != nil {
		if eff, err = st.parameters.eval("Parameters", eff, ctxObj); err != nil {
			return nil, "", err
		}
	}

	result, next := eff, st.next
	switch st.typ {
	case "Pass":
		if st.hasResult {
			result = st.result
		}
	case "Task":
		result, err = e.runTask(ctx, st, eff, tokenCh)
	case "Choice":
		next, err = choose(st, eff, ctxObj)
	case "Wait":
		err = e.wait(ctx, st, eff, ctxObj)
	case "Succeed":
		next = ""
	case "Fail":
		return nil, "", failError(st, eff, ctxObj)
	case "Map":
		result, err = e.runMap(ctx, st, eff, ctxObj)
	}
	if err != nil {
		return nil, "", err
	}
	if st.resultSelector != nil {
		if result, err = st.resultSelector.eval("ResultSelector", result, ctxObj); err != nil {
			return nil, "", err
		}
	}
	out, err := applyResultPath(st.resultPath, raw, result)
	if err != nil {
		return nil, "", err
	}
	if out, err = applyOutputPath(st.outputPath, out, ctxObj); err != nil {
		return nil, "", err
	}
	if err := checkSize(st.name, "output", out); err != nil {
		return nil, "", err
	}
	if st.end {
		next = ""
	}
	return out, next, nil
}

func applyInputPath(p optPath, raw any, ctxObj any) (any, error) {
	switch {
	case !p.set:
		return raw, nil
	case p.null:
		return map[string]any{}, nil
	}
	return p.path.mustGet("InputPath", raw, ctxObj)
}

func applyOutputPath(p optPath, out any, ctxObj any) (any, error) {
	switch {
	case !p.set:
		return out, nil
	case p.null:
		return map[string]any{}, nil
	}
	return p.path.mustGet("OutputPath", out, ctxObj)
}

func applyResultPath(p optPath, raw, result any) (any, error) {
	switch {
	case !p.set:
		return result, nil
	case p.null:
		return raw, nil
	}
	return p.path.set(raw, result)
}

// checkSize enforces Step Functions' 256 KiB payload quota, which AWS reports
// as the uncatchable States.DataLimitExceeded.
func checkSize(stateName, what string, v any) error {
	b, err := encodeValue(v)
	if err != nil {
		return runtimeErr("state %q: %s cannot be encoded: %v", stateName, what, err)
	}
	if len(b) > maxPayloadSize {
		return &stateError{name: ErrorDataLimitExceeded, cause: fmt.Sprintf("The %s of state %q is %d bytes, over the %d-byte limit", what, stateName, len(b), maxPayloadSize)}
	}
	return nil
}

func (e *execution) runTask(ctx context.Context, st *state, input any, tokenCh <-chan tokenResult) (any, error) {
	timeout := time.Duration(st.timeoutSeconds) * time.Second
	if st.timeoutSecondsPath != nil {
		v, ok := st.timeoutSecondsPath.get(input, nil)
		n, isNum := v.(json.Number)
		secs, err := n.Int64()
		if !ok || !isNum || err != nil || secs < 1 {
			return nil, runtimeErr("TimeoutSecondsPath '%s' of state %q must point to a positive integer", st.timeoutSecondsPath.raw, st.name)
		}
		timeout = time.Duration(secs) * time.Second
	}
	if err := checkSize(st.name, "input", input); err != nil {
		return nil, err
	}
	payload, err := encodeValue(input)
	if err != nil {
		return nil, runtimeErr("state %q: input cannot be encoded: %v", st.name, err)
	}

	// The resource sees the task's timeout as its context's deadline, as
	// a Lambda handler sees its function's: a step that keeps its own
	// time (runs.RunPlatforms) ends before the task times out.
	tctx, cancel := context.WithCancel(ctx)
	if timeout > 0 && tokenCh == nil {
		tctx, cancel = context.WithTimeout(ctx, timeout)
	}
	defer cancel() // tells a resource still running after a timeout to stop
	type invoked struct {
		out json.RawMessage
		err error
	}
	done := make(chan invoked, 1)
	go func() {
		out, err := e.inv.Invoke(tctx, st.resource, payload)
		done <- invoked{out, err}
	}()
	var timer <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		timer = t.C
	}
	timedOut := &stateError{name: ErrorTimeout, cause: fmt.Sprintf("Task %q did not finish within %s", st.name, timeout)}

	select {
	case r := <-done:
		if r.err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if errors.Is(tctx.Err(), context.DeadlineExceeded) {
				// The resource gave up at the task's deadline an instant
				// before the timer fired: the task timed out all the same.
				return nil, timedOut
			}
			return nil, &stateError{name: ErrorName(r.err), cause: ErrorCause(r.err)}
		}
		if tokenCh == nil {
			return decodeResult(st, r.out)
		}
	case <-timer:
		return nil, timedOut
	case <-ctx.Done():
		return nil, ctx.Err()
	}

	// .waitForTaskToken: the invocation only delivered the token; the task's
	// result is whatever the callback sends. A drain does not wait for it
	// (it may take days); the token task runs again when the job is
	// re-driven.
	select {
	case <-e.opts.stop:
		return nil, errDraining
	case r := <-tokenCh:
		if r.failed {
			return nil, &stateError{name: r.name, cause: r.cause}
		}
		return decodeResult(st, r.output)
	case <-timer:
		return nil, timedOut
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func decodeResult(st *state, out json.RawMessage) (any, error) {
	v, err := decodeValue(out)
	if err != nil {
		return nil, runtimeErr("state %q: the task result is not valid JSON: %v", st.name, err)
	}
	return v, nil
}

func choose(st *state, eff any, ctxObj any) (string, error) {
	for _, r := range st.choices {
		ok, err := r.match(eff, ctxObj)
		if err != nil {
			return "", err
		}
		if ok {
			return r.next, nil
		}
	}
	if st.defaultNext != "" {
		return st.defaultNext, nil
	}
	return "", &stateError{name: ErrorNoChoiceMatched, cause: fmt.Sprintf("No Choice rule of state %q matched, and it has no Default", st.name)}
}

func (e *execution) wait(ctx context.Context, st *state, eff any, ctxObj any) error {
	var d time.Duration
	switch {
	case st.seconds != nil:
		d = e.scaled(float64(*st.seconds))
	case st.timestamp != nil:
		d = e.scaled(time.Until(*st.timestamp).Seconds())
	case st.secondsPath != nil:
		v, err := st.secondsPath.mustGet("SecondsPath", eff, ctxObj)
		if err != nil {
			return err
		}
		n, ok := v.(json.Number)
		secs, convErr := n.Int64()
		if !ok || convErr != nil || secs < 0 {
			return runtimeErr("SecondsPath '%s' of state %q must point to a non-negative integer, got %s", st.secondsPath.raw, st.name, describe(v))
		}
		d = e.scaled(float64(secs))
	case st.timestampPath != nil:
		v, err := st.timestampPath.mustGet("TimestampPath", eff, ctxObj)
		if err != nil {
			return err
		}
		s, _ := v.(string)
		ts, perr := time.Parse(time.RFC3339Nano, s)
		if perr != nil {
			return runtimeErr("TimestampPath '%s' of state %q must point to an RFC 3339 timestamp, got %s", st.timestampPath.raw, st.name, describe(v))
		}
		d = e.scaled(time.Until(ts).Seconds())
	}
	return e.sleep(ctx, d)
}

func failError(st *state, input any, ctxObj any) error {
	name, cause := st.errorName, st.cause
	for _, f := range []struct {
		p   *jsonPath
		dst *string
		fld string
	}{{st.errorPath, &name, "ErrorPath"}, {st.causePath, &cause, "CausePath"}} {
		if f.p == nil {
			continue
		}
		v, err := f.p.mustGet(f.fld, input, ctxObj)
		if err != nil {
			return err
		}
		s, ok := v.(string)
		if !ok {
			return runtimeErr("%s '%s' of state %q must point to a string, got %s", f.fld, f.p.raw, st.name, describe(v))
		}
		*f.dst = s
	}
	return &stateError{name: name, cause: cause}
}

// runMap runs the ItemProcessor once per item, at most MaxConcurrency at a
// time (0 means Step Functions' inline ceiling of 40), and returns the
// results in item order. The first failing iteration stops the others and
// fails the Map with its error.
func (e *execution) runMap(ctx context.Context, st *state, eff any, ctxObj map[string]any) (any, error) {
	items := eff
	if st.itemsPath != nil {
		var err error
		if items, err = st.itemsPath.mustGet("ItemsPath", eff, ctxObj); err != nil {
			return nil, err
		}
	}
	arr, ok := items.([]any)
	if !ok {
		return nil, runtimeErr("The items of Map %q must be an array, got %s", st.name, describe(items))
	}
	conc := st.maxConcurrency
	if conc == 0 || conc > defaultMapConc {
		conc = defaultMapConc
	}

	mctx, cancel := context.WithCancel(ctx)
	defer cancel()
	results := make([]any, len(arr))
	sem := make(chan struct{}, conc)
	var (
		wg       sync.WaitGroup
		once     sync.Once
		firstErr error
		drained  atomic.Bool
	)
	fail := func(err error) { once.Do(func() { firstErr = err; cancel() }) }
launch:
	for i, item := range arr {
		in := item
		if st.itemSelector != nil {
			ictx := make(map[string]any, len(ctxObj)+1)
			for k, v := range ctxObj {
				ictx[k] = v
			}
			ictx["Map"] = map[string]any{"Item": map[string]any{"Index": number(i), "Value": item}}
			var err error
			if in, err = st.itemSelector.eval("ItemSelector", eff, ictx); err != nil {
				fail(err)
				break
			}
		}
		select {
		case sem <- struct{}{}:
		case <-mctx.Done():
			break launch
		}
		if mctx.Err() != nil { // a slot freed by the failing iteration itself
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			out, err := e.runScope(mctx, st.processor, in)
			if errors.Is(err, errDraining) {
				// The other iterations' running tasks may still finish.
				drained.Store(true)
				return
			}
			if err != nil {
				fail(err)
				return
			}
			results[i] = out
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if firstErr != nil {
		return nil, firstErr
	}
	if drained.Load() {
		return nil, errDraining
	}
	return results, nil
}
