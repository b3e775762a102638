package workflow_test

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/jsontest"
	"github.com/brandlens/brandlens/shared/workflow"
	"github.com/brandlens/brandlens/shared/workflow/workflowtest"
)

type OutOfStockError struct{ SKU string }

func (e *OutOfStockError) Error() string { return e.SKU + " is out of stock" }

type FlakyError struct{}

func (e *FlakyError) Error() string { return "try again" }

type BrokenError struct{}

func (e *BrokenError) Error() string { return "broken for good" }

type SummaryError struct{}

func (e SummaryError) Error() string { return "cannot summarize" } // a value type: named "SummaryError" too

const (
	arnPrice     = "arn:aws:lambda:us-east-1:123456789012:function:price"
	arnSummarize = "arn:aws:lambda:us-east-1:123456789012:function:summarize"
)

// orderSteps serves testdata/differential.asl.json; per-SKU attempt counters
// keep it deterministic under any interleaving, and a "broken" line fails
// only once the other lines of its Map have been priced (else whether they
// run before the Map fails is a race the two runners may decide apart).
type orderSteps struct {
	mu       sync.Mutex
	calls    map[string]int
	attempts map[string]int
	// others counts the price calls of lines other than "broken"; priced
	// is closed when it reaches wantOthers.
	others, wantOthers int
	priced             chan struct{}
}

func newOrderSteps(input string) *orderSteps {
	var in struct {
		Order struct{ Lines []struct{ SKU string } }
	}
	json.Unmarshal([]byte(input), &in)
	o := &orderSteps{calls: map[string]int{}, attempts: map[string]int{}, priced: make(chan struct{})}
	for _, l := range in.Order.Lines {
		if l.SKU != "broken" {
			o.wantOthers++
		}
	}
	if o.wantOthers == 0 {
		close(o.priced)
	}
	return o
}

func (o *orderSteps) Invoke(ctx context.Context, resource string, input json.RawMessage) (json.RawMessage, error) {
	o.mu.Lock()
	o.calls[resource]++
	o.mu.Unlock()
	switch resource {
	case arnPrice:
		var in struct {
			Index int
			Line  struct {
				SKU string
				Qty int
			}
		}
		if err := json.Unmarshal(input, &in); err != nil {
			return nil, err
		}
		o.mu.Lock()
		o.attempts[in.Line.SKU]++
		attempt := o.attempts[in.Line.SKU]
		if in.Line.SKU != "broken" && attempt == 1 {
			if o.others++; o.others == o.wantOthers {
				close(o.priced)
			}
		}
		o.mu.Unlock()
		switch {
		case in.Line.SKU == "oos":
			return nil, &OutOfStockError{in.Line.SKU}
		case in.Line.SKU == "flaky" && attempt <= 2:
			return nil, &FlakyError{}
		case in.Line.SKU == "broken":
			select {
			case <-o.priced:
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(10 * time.Second): // a case whose other lines cannot start: fail, not hang
			}
			return nil, &BrokenError{}
		}
		return json.Marshal(map[string]any{"amount": 10*in.Line.Qty + in.Index, "ignored": true})
	case arnSummarize:
		var in struct {
			State struct {
				Order struct{ ID string }
			}
			Execution string
		}
		if err := json.Unmarshal(input, &in); err != nil {
			return nil, err
		}
		if in.State.Order.ID == "explode" {
			return nil, SummaryError{}
		}
		return json.Marshal(map[string]any{"summary": map[string]any{"seen": json.RawMessage(input)}, "dropped": 1})
	}
	return nil, &workflow.UnknownResourceError{Resource: resource}
}

// The Go runner and aws-local-stepfunctions agree on a machine that uses
// every supported state type and data-flow field, for inputs taking every
// branch, including failures.
func TestDifferentialFeatures(t *testing.T) {
	t.Parallel()
	def, err := os.ReadFile("testdata/differential.asl.json")
	if err != nil {
		t.Fatal(err)
	}
	subst := map[string]string{"PriceArn": arnPrice, "SummarizeArn": arnSummarize}
	m, err := workflow.Load(def, subst)
	if err != nil {
		t.Fatal(err)
	}
	lines := `[{"sku":"a","qty":1},{"sku":"oos","qty":2},{"sku":"flaky","qty":3},{"sku":"b","qty":4}]`
	cases := map[string]string{
		"default route":      `{"order":{"id":"o-1","priority":3,"express":false,"lines":` + lines + `},"limits":{"min":1}}`,
		"urgent":             `{"order":{"id":"o-2","priority":7,"express":true,"lines":[{"sku":"a","qty":1}]},"limits":{"min":1}}`,
		"discount by id":     `{"order":{"id":"vip-3","priority":1,"express":false,"lines":[{"sku":"a","qty":1}]},"limits":{"min":1}}`,
		"discount by coupon": `{"order":{"id":"o-4","priority":2,"express":true,"lines":[]},"coupon":"X","limits":{"min":1}}`,
		"rejected (Fail)":    `{"order":{"id":"o-5","priority":0,"express":false,"lines":[]},"limits":{"min":1}}`,
		"map fails, caught":  `{"order":{"id":"o-6","priority":3,"express":false,"lines":[{"sku":"a","qty":1},{"sku":"broken","qty":1}]},"limits":{"min":1}}`,
		"task fails":         `{"order":{"id":"explode","priority":3,"express":false,"lines":[]},"limits":{"min":1}}`,
	}
	for name, input := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			goSteps := newOrderSteps(input)
			goOut, goErr := m.Execute(context.Background(), "diff-exec", json.RawMessage(input), goSteps, workflow.WithRetryScale(0.001))
			var goName, goCause string
			if goErr != nil {
				ee, ok := goErr.(*workflow.ExecutionError)
				if !ok {
					t.Fatalf("Go runner: %v", goErr)
				}
				goName, goCause = ee.Name, ee.Cause
			}

			jsSteps := newOrderSteps(input)
			jsOut, jsName, jsCause := workflowtest.RunInAWSLocal(t, def, subst, json.RawMessage(input), jsSteps, workflowtest.ExecutionName("diff-exec"))

			if goName != jsName || goCause != jsCause {
				t.Errorf("failures differ: Go runner %q %q, aws-local-stepfunctions %q %q", goName, goCause, jsName, jsCause)
			}
			if goName == "" && !jsontest.Same(t, goOut, jsOut) {
				t.Errorf("outputs differ\nGo runner:               %s\naws-local-stepfunctions: %s", goOut, jsOut)
			}
			if !reflect.DeepEqual(goSteps.calls, jsSteps.calls) {
				t.Errorf("invocations differ: Go runner %v, aws-local-stepfunctions %v", goSteps.calls, jsSteps.calls)
			}
		})
	}
}
