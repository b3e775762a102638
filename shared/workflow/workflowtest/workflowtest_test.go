package workflowtest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brandlens/brandlens/shared/workflow"
)

// errorsTB records Errorf instead of failing, to test that Lint fails.
type errorsTB struct {
	testing.TB
	errs []string
}

func (e *errorsTB) Errorf(format string, args ...any) {
	e.errs = append(e.errs, fmt.Sprintf(format, args...))
}

func TestLintReportsErrors(t *testing.T) {
	t.Parallel()
	rec := &errorsTB{TB: t}
	Lint(rec, []byte(`{"StartAt":"A","States":{"A":{"Type":"Pass","Next":"Missing"}}}`))
	if len(rec.errs) != 1 || !strings.Contains(rec.errs[0], "MISSING_TRANSITION_TARGET") {
		t.Errorf("Lint of an invalid definition reported %q", rec.errs)
	}
	ok := &errorsTB{TB: t}
	Lint(ok, []byte(`{"StartAt":"A","States":{"A":{"Type":"Pass","End":true}}}`))
	if len(ok.errs) != 0 {
		t.Errorf("Lint of a valid definition reported %q", ok.errs)
	}
}

type ValueError struct{}

func (e *ValueError) Error() string { return "bad value" }

// Task inputs reach Go, outputs and typed errors come back, nested Map tasks
// included.
func TestRunInAWSLocal(t *testing.T) {
	t.Parallel()
	def := `{"StartAt":"Double","States":{
		"Double":{"Type":"Task","Resource":"${Fn}","Next":"Each"},
		"Each":{"Type":"Map","ItemsPath":"$.xs","ItemProcessor":{"StartAt":"Check","States":{
			"Check":{"Type":"Task","Resource":"${Fn}","Catch":[{"ErrorEquals":["ValueError"],"Next":"Bad"}],"End":true},
			"Bad":{"Type":"Pass","Result":"bad","End":true}}},"End":true}}}`
	inv := workflow.InvokerFunc(func(_ context.Context, resource string, in json.RawMessage) (json.RawMessage, error) {
		if resource != "arn:aws:lambda:us-east-1:123456789012:function:fn" {
			return nil, fmt.Errorf("resource %s", resource)
		}
		var v any
		_ = json.Unmarshal(in, &v)
		if m, ok := v.(map[string]any); ok {
			return json.Marshal(map[string]any{"xs": []any{m["n"], -1}})
		}
		if n, _ := v.(float64); n < 0 {
			return nil, &ValueError{}
		}
		return in, nil
	})
	out, errName, cause := RunInAWSLocal(t, []byte(def), map[string]string{"Fn": "arn:aws:lambda:us-east-1:123456789012:function:fn"}, json.RawMessage(`{"n":4}`), inv)
	if errName != "" || string(out) != `[4,"bad"]` {
		t.Errorf("got %s %q %q", out, errName, cause)
	}

	fail := `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"arn:aws:lambda:us-east-1:123456789012:function:fn","End":true}}}`
	_, errName, cause = RunInAWSLocal(t, []byte(fail), nil, nil, workflow.InvokerFunc(func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
		return nil, &ValueError{}
	}))
	if errName != "ValueError" || cause != `{"errorMessage":"bad value","errorType":"ValueError"}` {
		t.Errorf("failure: %q %q", errName, cause)
	}
}

func TestTokenTaskDetection(t *testing.T) {
	var m stateMachine
	def := `{"States":{"M":{"Type":"Map","ItemProcessor":{"States":{"W":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke.waitForTaskToken"}}}}}}`
	if err := json.Unmarshal([]byte(def), &m); err != nil {
		t.Fatal(err)
	}
	if got := m.tokenTask(); got != "W" {
		t.Errorf("tokenTask() = %q, want W", got)
	}
}

func TestCheckPackage(t *testing.T) {
	dir := t.TempDir()
	if why := checkPackage(dir, "pkg", "1.0.0"); !strings.Contains(why, "npm ci --prefix tools") {
		t.Errorf("missing package: %q", why)
	}
	if err := os.MkdirAll(filepath.Join(dir, "node_modules", "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "node_modules", "pkg", "package.json"), []byte(`{"version":"2.0.0"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if why := checkPackage(dir, "pkg", "1.0.0"); !strings.Contains(why, "is 2.0.0, the harness needs 1.0.0") {
		t.Errorf("wrong version: %q", why)
	}
	if why := checkPackage(dir, "pkg", "2.0.0"); why != "" {
		t.Errorf("right version: %q", why)
	}
}

func TestNodeOptions(t *testing.T) {
	t.Setenv("NODE_OPTIONS", "--max-old-space-size=512")
	if got := nodeOptions("/a b/p.cjs"); got != `--max-old-space-size=512 --require "/a b/p.cjs"` {
		t.Errorf("nodeOptions = %s", got)
	}
}
