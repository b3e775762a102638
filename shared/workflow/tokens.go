package workflow

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
)

// TaskTokens is the local counterpart of Step Functions' task-token
// callbacks: a .waitForTaskToken task registers a token (readable as
// $$.Task.Token), invokes its resource, and then waits for SendTaskSuccess
// or SendTaskFailure with that token. Safe for concurrent use.
type TaskTokens struct {
	mu      sync.Mutex
	waiting map[string]chan tokenResult
}

type tokenResult struct {
	output      json.RawMessage
	failed      bool
	name, cause string
}

// NewTaskTokens returns an empty registry.
func NewTaskTokens() *TaskTokens {
	return &TaskTokens{waiting: map[string]chan tokenResult{}}
}

// register issues a token before the task's resource is invoked, so that a
// resource answering synchronously (inside Invoke) is not lost.
func (t *TaskTokens) register() (string, <-chan tokenResult) {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
	token := base64.RawURLEncoding.EncodeToString(b)
	ch := make(chan tokenResult, 1)
	t.mu.Lock()
	t.waiting[token] = ch
	t.mu.Unlock()
	return token, ch
}

func (t *TaskTokens) unregister(token string) {
	t.mu.Lock()
	delete(t.waiting, token)
	t.mu.Unlock()
}

func (t *TaskTokens) deliver(token string, r tokenResult) error {
	t.mu.Lock()
	ch, ok := t.waiting[token]
	delete(t.waiting, token)
	t.mu.Unlock()
	if !ok {
		return ErrTaskDoesNotExist
	}
	ch <- r // buffered; each token is answered at most once
	return nil
}

// SendTaskSuccess completes the waiting task with output as its result.
func (t *TaskTokens) SendTaskSuccess(token string, output json.RawMessage) error {
	if !json.Valid(output) {
		return fmt.Errorf("workflow: SendTaskSuccess output is not valid JSON")
	}
	return t.deliver(token, tokenResult{output: output})
}

// SendTaskFailure fails the waiting task with the given error name and cause;
// the task's Retry and Catch see errName.
func (t *TaskTokens) SendTaskFailure(token, errName, cause string) error {
	return t.deliver(token, tokenResult{failed: true, name: errName, cause: cause})
}

// Waiting lists, sorted, the tokens of the tasks waiting now; for tests and
// local tooling that did not capture a token from the task's input.
func (t *TaskTokens) Waiting() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]string, 0, len(t.waiting))
	for k := range t.waiting {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TaskFailure is a SendTaskFailure answer, as Issue's await returns it.
type TaskFailure struct{ Name, Cause string }

func (e *TaskFailure) Error() string { return e.Name + ": " + e.Cause }

// Issue registers a token for a .waitForTaskToken task that runs outside
// this package's runner (workflowtest runs definitions in another
// interpreter with the same callbacks): await blocks until SendTaskSuccess
// answers with the task's output or SendTaskFailure with a *TaskFailure,
// or ctx ends; done unregisters the token.
func (t *TaskTokens) Issue() (token string, await func(ctx context.Context) (json.RawMessage, error), done func()) {
	token, ch := t.register()
	await = func(ctx context.Context) (json.RawMessage, error) {
		select {
		case r := <-ch:
			if r.failed {
				return nil, &TaskFailure{Name: r.name, Cause: r.cause}
			}
			return r.output, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return token, await, func() { t.unregister(token) }
}
