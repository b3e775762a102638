package httpapi_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/brandlens/brandlens/shared/httpapi"
)

// These helpers were part of template_test.go, whose checks of
// template.yaml moved to shared/app/templategen (template.yaml is generated
// from the route table there).

// tplRepoRoot is the module root (the directory holding go.mod).
func tplRepoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test directory")
		}
		dir = parent
	}
}

// tplRouteFunctions lists the functions of the route table and $default.
func tplRouteFunctions() []string {
	var out []string
	for _, r := range append(slices.Clone(httpapi.Routes), httpapi.CatchAll) {
		if !slices.Contains(out, r.Function) {
			out = append(out, r.Function)
		}
	}
	return out
}
