package workflow_test

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"

	"github.com/brandlens/brandlens/shared/workflow"
)

// WithTransitions reports what Step Functions Standard bills: every state
// entered (Map iterations' states too) and every retry, with the machine's
// name when the execution runs in Local.
func TestTransitionsAreReported(t *testing.T) {
	const def = `{"StartAt":"Flaky","States":{
	  "Flaky":{"Type":"Task","Resource":"flaky","Retry":[{"ErrorEquals":["TransientProviderError"],"IntervalSeconds":1,"MaxAttempts":2}],"Next":"Each"},
	  "Each":{"Type":"Map","ItemsPath":"$.items","ItemProcessor":{"StartAt":"Step","States":{"Step":{"Type":"Task","Resource":"echo","End":true}}},"Next":"Done"},
	  "Done":{"Type":"Succeed"}}}`
	calls := 0
	inv := workflow.InvokerFunc(func(_ context.Context, resource string, in json.RawMessage) (json.RawMessage, error) {
		if resource == "flaky" {
			if calls++; calls == 1 {
				return nil, &TransientProviderError{"p"}
			}
			return json.RawMessage(`{"items":[1,2,3]}`), nil
		}
		return in, nil
	})
	var mu sync.Mutex
	var got []string
	record := workflow.WithTransitions(func(machine, state string) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, machine+"/"+state)
	})
	m := mustLoad(t, def)
	wf := workflow.NewLocal(map[string]*workflow.Machine{"jobs": m}, inv, record, workflow.WithRetryScale(0.001))
	defer wf.Close()
	ctx := context.Background()
	if err := wf.Start(ctx, "jobs", "x1", json.RawMessage(`{}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := wf.Wait(ctx, "jobs", "x1"); err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	want := []string{"jobs/Done", "jobs/Each", "jobs/Flaky", "jobs/Flaky", "jobs/Step", "jobs/Step", "jobs/Step"}
	if !slices.Equal(got, want) {
		t.Fatalf("transitions %q, want %q", got, want)
	}
}
