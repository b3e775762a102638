package workflow_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/brandlens/brandlens/shared/workflow"
)

func mustLoad(t testing.TB, def string) *workflow.Machine {
	t.Helper()
	m, err := workflow.Load([]byte(def), nil)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return m
}

// run executes def and returns the output, or the execution error.
func run(t testing.TB, def, input string, inv workflow.Invoker, opts ...workflow.Option) (string, *workflow.ExecutionError) {
	t.Helper()
	if inv == nil {
		inv = echo
	}
	out, err := mustLoad(t, def).Execute(context.Background(), "test-exec", json.RawMessage(input), inv, opts...)
	if err != nil {
		var ee *workflow.ExecutionError
		if !errors.As(err, &ee) {
			t.Fatalf("Execute: %v", err)
		}
		return "", ee
	}
	return string(out), nil
}

// wantJSON compares JSON semantically.
func wantJSON(t testing.TB, got, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("output %q is not JSON: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("want %q is not JSON: %v", want, err)
	}
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	if string(gb) != string(wb) {
		t.Errorf("output\n got %s\nwant %s", gb, wb)
	}
}

func wantError(t testing.TB, ee *workflow.ExecutionError, name, causePart string) {
	t.Helper()
	if ee == nil {
		t.Fatalf("execution succeeded, want error %s", name)
	}
	if ee.Name != name || !strings.Contains(ee.Cause, causePart) {
		t.Errorf("error %q cause %q, want %q with cause containing %q", ee.Name, ee.Cause, name, causePart)
	}
}

// echo returns each task's input as its result.
var echo = workflow.InvokerFunc(func(_ context.Context, _ string, in json.RawMessage) (json.RawMessage, error) {
	return in, nil
})

// recorder records task inputs and answers from a script of results.
type recorder struct {
	mu     sync.Mutex
	inputs []string
	answer func(n int, input json.RawMessage) (json.RawMessage, error) // n counts calls from 1
}

func (r *recorder) Invoke(_ context.Context, _ string, in json.RawMessage) (json.RawMessage, error) {
	r.mu.Lock()
	r.inputs = append(r.inputs, string(in))
	n := len(r.inputs)
	r.mu.Unlock()
	if r.answer == nil {
		return in, nil
	}
	return r.answer(n, in)
}

func (r *recorder) calls() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.inputs)
}
