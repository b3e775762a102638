// Package workflowtest checks state machine definitions against third-party
// tooling pinned in tools/package.json: RunInAWSLocal runs a definition in
// the npm interpreter aws-local-stepfunctions with Go step handlers, for
// differential tests against the in-process runner of package workflow, and
// Lint runs asl-validator.
//
// Both need node and `npm ci --prefix tools`. Without them the calling test
// is skipped, or fails when the CI environment variable is set, so that CI
// never passes by skipping.
//
// Where aws-local-stepfunctions 3.0.0 departs from Step Functions, the Go
// runner follows Step Functions, so a differential test must stay clear of:
//   - $$.Execution.Input inside a Map iteration (the library gives the
//     iteration's input) and $$.State.* (the library has no State object);
//   - Choice IsNull: false (never matches in the library);
//   - a Pass Result of 0, false, "" or null (the library passes the input);
//   - an explicit "ResultPath": "$" (the library adds a member named "$");
//   - a Fail state without Error or Cause (the library invents
//     "FailStateError" / "Execution failed because of a Fail state");
//   - .waitForTaskToken tasks without the TaskTokens option: the library
//     has no callbacks, so the harness provides them (see TaskTokens);
//   - comparing the Cause of errors the interpreters raise themselves
//     (States.Runtime, States.Timeout, States.NoChoiceMatched): the names
//     agree, the texts do not. Causes of task errors and Fail states agree.
//
// The library also gives every task a 60-second timeout when TimeoutSeconds
// is absent; the Go runner, like Step Functions, has none.
package workflowtest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/workflow"
)

// Versions the harness was written against (tools/package.json pins them);
// the ErrorEquals matching and override hooks it relies on are checked in
// these versions' sources.
const (
	awsLocalStepFunctions = "aws-local-stepfunctions"
	awsLocalVersion       = "3.0.0"
	aslValidator          = "asl-validator"
	aslValidatorVersion   = "4.0.0"

	runScript = "sfn-run.mjs"
	polyfill  = "node20-polyfills.cjs"
)

// Option adjusts RunInAWSLocal.
type Option func(*config)

type config struct {
	execName string
	tokens   *workflow.TaskTokens
}

// tokenPlaceholder is $$.Task.Token in the library's context object; the
// harness swaps it for a token it issued before invoking the task.
const tokenPlaceholder = "workflowtest-task-token"

// Retry pauses and Wait Seconds are scaled down as workflow.WithRetryScale
// does; the library can only override a retrier's pause with a constant, so
// the JS side pauses IntervalSeconds×retryScale on every attempt, without
// backoff growth: only timing differs, never the outcome. nodeTimeout bounds
// the node process.
const (
	retryScale  = 0.001
	nodeTimeout = 2 * time.Minute
)

// ExecutionName sets $$.Execution.Name (default "workflowtest").
func ExecutionName(name string) Option { return func(c *config) { c.execName = name } }

// TaskTokens lets the definition's .waitForTaskToken tasks run, as the Go
// runner's workflow.WithTaskTokens does: the library has no callback API,
// so the harness gives each invocation of such a task a token issued from
// tokens (in place of $$.Task.Token, which the library's context holds as
// a placeholder), invokes the task's resource with it, and returns what
// SendTaskSuccess or SendTaskFailure on tokens answers as the task's
// result or error. Retry and Catch then see what Step Functions would.
func TaskTokens(tokens *workflow.TaskTokens) Option { return func(c *config) { c.tokens = tokens } }

// RunInAWSLocal runs def (with its ${Name} placeholders filled from subst)
// once in aws-local-stepfunctions 3.0.0 with input, and returns the output
// of a successful execution, or the error name and cause of a failed one.
//
// Every Task state, nested ones included, is overridden with a function that
// POSTs {resource, input} to an HTTP server on 127.0.0.1 serving inv, so the
// very Go step handlers run. A Go error travels back as
// workflow.ErrorName(err) and workflow.ErrorCause(err) and is rethrown in JS
// as an Error with that name and message — the library matches ErrorEquals
// against error.name and records error.message as a caught error's Cause —
// so Retry and Catch see what the Go runner and AWS see.
func RunInAWSLocal(t testing.TB, def []byte, subst map[string]string, input json.RawMessage, inv workflow.Invoker, opts ...Option) (output json.RawMessage, errName, cause string) {
	t.Helper()
	cfg := config{execName: "workflowtest"}
	for _, o := range opts {
		o(&cfg)
	}
	tools := requireTools(t, awsLocalStepFunctions, awsLocalVersion)
	filled, err := workflow.Substitute(def, subst)
	if err != nil {
		t.Fatalf("workflowtest: %v", err)
	}
	var machine stateMachine
	if err := json.Unmarshal(filled, &machine); err != nil {
		t.Fatalf("workflowtest: definition is not valid JSON: %v", err)
	}
	if name := machine.tokenTask(); name != "" && cfg.tokens == nil {
		// The library has no callback API: it would run such a task like any
		// other and never see $$.Task.Token.
		t.Fatalf("workflowtest: state %q waits for a task token, which aws-local-stepfunctions %s cannot run; test it with the Go runner only", name, awsLocalVersion)
	}
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}

	var handlerErr struct {
		sync.Mutex
		msg string
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var call struct {
			State    string          `json:"state"`
			Resource string          `json:"resource"`
			Input    json.RawMessage `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&call); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"harnessError": "bad request: " + err.Error()})
			return
		}
		var out json.RawMessage
		var err error
		if strings.HasSuffix(call.Resource, ".waitForTaskToken") && cfg.tokens != nil {
			out, err = invokeForToken(r.Context(), cfg.tokens, inv, call.Resource, call.Input)
		} else {
			out, err = inv.Invoke(r.Context(), call.Resource, call.Input)
		}
		var tf *workflow.TaskFailure
		if errors.As(err, &tf) {
			// SendTaskFailure: its error and cause, as Step Functions records them.
			writeJSON(w, http.StatusOK, map[string]any{"error": map[string]string{"name": tf.Name, "cause": tf.Cause}})
			return
		}
		if err != nil {
			writeJSON(w, http.StatusOK, map[string]any{"error": map[string]string{
				"name": workflow.ErrorName(err), "cause": workflow.ErrorCause(err),
			}})
			return
		}
		if len(bytes.TrimSpace(out)) == 0 {
			out = json.RawMessage("null")
		}
		if !json.Valid(out) {
			msg := fmt.Sprintf("the handler of %s (state %s) returned invalid JSON: %q", call.Resource, call.State, out)
			handlerErr.Lock()
			handlerErr.msg = msg
			handlerErr.Unlock()
			writeJSON(w, http.StatusInternalServerError, map[string]string{"harnessError": msg})
			return
		}
		writeJSON(w, http.StatusOK, map[string]json.RawMessage{"output": out})
	}))
	defer srv.Close()

	// The library validates a definition with its own asl-validator in the
	// StateMachine constructor: about 0.3 s of schema compilation per node
	// process. Validate each distinct definition once per test binary.
	sum := sha256.Sum256(filled)
	_, validated := validatedDefs.Load(sum)

	dir := t.TempDir()
	reqPath, resPath := filepath.Join(dir, "request.json"), filepath.Join(dir, "result.json")
	req, err := json.Marshal(map[string]any{
		"definition":    json.RawMessage(filled),
		"input":         input,
		"endpoint":      srv.URL,
		"executionName": cfg.execName,
		"retryScale":    retryScale,
		"taskToken":     tokenPlaceholder,
		"validate":      !validated,
	})
	if err != nil {
		t.Fatalf("workflowtest: definition or input is not valid JSON: %v", err)
	}
	if err := os.WriteFile(reqPath, req, 0o600); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), nodeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", filepath.Join(tools, runScript), reqPath, resPath)
	cmd.Dir = tools
	cmd.Env = append(os.Environ(), "NODE_OPTIONS="+nodeOptions(filepath.Join(tools, polyfill)))
	logs, err := cmd.CombinedOutput()
	if err != nil {
		result, _ := os.ReadFile(resPath) // the script's own diagnosis, if it got that far
		t.Fatalf("workflowtest: node %s: %v\n%s%s", runScript, err, result, logs)
	}
	raw, err := os.ReadFile(resPath)
	if err != nil {
		t.Fatalf("workflowtest: node %s wrote no result: %v\n%s", runScript, err, logs)
	}
	var res struct {
		OK           bool            `json:"ok"`
		Output       json.RawMessage `json:"output"`
		Error        string          `json:"error"`
		Cause        string          `json:"cause"`
		HarnessError string          `json:"harnessError"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatalf("workflowtest: unreadable result %s: %v", raw, err)
	}
	handlerErr.Lock()
	if handlerErr.msg != "" && res.HarnessError == "" {
		res.HarnessError = handlerErr.msg
	}
	handlerErr.Unlock()
	if res.HarnessError != "" {
		t.Fatalf("workflowtest: the harness failed, not the workflow: %s\n%s", res.HarnessError, logs)
	}
	validatedDefs.Store(sum, true)
	if res.OK {
		return res.Output, "", ""
	}
	return nil, res.Error, res.Cause
}

// invokeForToken runs one invocation of a .waitForTaskToken task: a token
// is issued and put where the Parameters put $$.Task.Token, the resource is
// invoked with it (an error there fails the task, as a failed Lambda
// invocation does), then the callback's answer is the task's outcome.
func invokeForToken(ctx context.Context, tokens *workflow.TaskTokens, inv workflow.Invoker, resource string, input json.RawMessage) (json.RawMessage, error) {
	token, await, done := tokens.Issue()
	defer done()
	placeholder, _ := json.Marshal(tokenPlaceholder)
	quoted, _ := json.Marshal(token)
	input = bytes.ReplaceAll(input, placeholder, quoted)
	if _, err := inv.Invoke(ctx, resource, input); err != nil {
		return nil, err
	}
	return await(ctx)
}

// Lint runs asl-validator 4.0.0 on def as it is (placeholders included: the
// validator accepts ${Name} where an ARN goes) and fails t with its report
// when it finds errors.
func Lint(t testing.TB, def []byte) {
	t.Helper()
	tools := requireTools(t, aslValidator, aslValidatorVersion)
	path := filepath.Join(t.TempDir(), "definition.asl.json")
	if err := os.WriteFile(path, def, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// Through node rather than the .bin shim's shebang: same script, no
	// reliance on the executable bit surviving the install.
	cmd := exec.CommandContext(ctx, "node", filepath.Join(tools, "node_modules", ".bin", "asl-validator"), "--json-path", path)
	out, err := cmd.CombinedOutput()
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr) && exitErr.ExitCode() == 1:
		t.Errorf("asl-validator: the definition is invalid:\n%s", out)
	case err != nil:
		t.Fatalf("workflowtest: running asl-validator: %v\n%s", err, out)
	}
}

// stateMachine is as much of a definition as the harness inspects.
type stateMachine struct {
	States map[string]struct {
		Type          string
		Resource      string
		ItemProcessor *stateMachine
		Iterator      *stateMachine
		Branches      []stateMachine
	}
}

// tokenTask names a .waitForTaskToken Task state, at any depth, or is "".
func (m *stateMachine) tokenTask() string {
	for name, st := range m.States {
		if st.Type == "Task" && strings.HasSuffix(st.Resource, ".waitForTaskToken") {
			return name
		}
		nested := append([]stateMachine(nil), st.Branches...)
		for _, p := range []*stateMachine{st.ItemProcessor, st.Iterator} {
			if p != nil {
				nested = append(nested, *p)
			}
		}
		for i := range nested {
			if n := nested[i].tokenTask(); n != "" {
				return n
			}
		}
	}
	return ""
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// nodeOptions adds the polyfill to any NODE_OPTIONS already set; Node reads
// double-quoted values there, which keeps paths with spaces whole.
func nodeOptions(polyfillPath string) string {
	opt := `--require "` + strings.ReplaceAll(polyfillPath, `"`, `\"`) + `"`
	if prev := os.Getenv("NODE_OPTIONS"); prev != "" {
		return prev + " " + opt
	}
	return opt
}

// validatedDefs holds the sha256 of each definition the library has
// validated in this test binary.
var validatedDefs sync.Map

var (
	toolsOnce sync.Once
	toolsDir  string
	toolsErr  string // why the tools cannot run here
)

// requireTools returns the repository's tools/ directory once node and the
// named package at the pinned version are there; otherwise it skips t, or
// fails it when CI is set.
func requireTools(t testing.TB, pkg, version string) string {
	t.Helper()
	toolsOnce.Do(findTools)
	why := toolsErr
	if why == "" {
		why = checkPackage(toolsDir, pkg, version)
	}
	if why != "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("workflowtest: %s (CI is set, so this fails instead of skipping)", why)
		}
		t.Skipf("workflowtest: %s", why)
	}
	return toolsDir
}

func findTools() {
	dir, err := os.Getwd()
	if err != nil {
		toolsErr = err.Error()
		return
	}
	for {
		if fileExists(filepath.Join(dir, "go.mod")) && fileExists(filepath.Join(dir, "tools", "package.json")) {
			toolsDir = filepath.Join(dir, "tools")
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			toolsErr = "no tools/package.json above the test's directory"
			return
		}
		dir = parent
	}
	for _, f := range []string{runScript, polyfill} {
		if !fileExists(filepath.Join(toolsDir, f)) {
			toolsErr = fmt.Sprintf("%s is missing", filepath.Join(toolsDir, f))
			return
		}
	}
	out, err := exec.Command("node", "--version").Output()
	if err != nil {
		toolsErr = "node is not installed (Node 20 or newer is needed)"
		return
	}
	v := strings.TrimPrefix(strings.TrimSpace(string(out)), "v")
	major, _ := strconv.Atoi(strings.SplitN(v, ".", 2)[0])
	if major < 20 {
		toolsErr = fmt.Sprintf("node %s is too old (Node 20 or newer is needed)", v)
	}
}

func checkPackage(tools, pkg, version string) string {
	raw, err := os.ReadFile(filepath.Join(tools, "node_modules", pkg, "package.json"))
	if err != nil {
		return fmt.Sprintf("%s is not installed; run `npm ci --prefix tools`", pkg)
	}
	var meta struct {
		Version string `json:"version"`
	}
	if json.Unmarshal(raw, &meta) != nil || meta.Version != version {
		return fmt.Sprintf("%s is %s, the harness needs %s; run `npm ci --prefix tools`", pkg, meta.Version, version)
	}
	return ""
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
