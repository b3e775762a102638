package live

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// moduleDir is where the Go toolchain keeps module (the version go.mod
// requires).
func moduleDir(t *testing.T, module string) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-json", module).Output()
	if err != nil {
		t.Fatalf("go list -m %s: %v", module, err)
	}
	var m struct{ Dir string }
	if err := json.Unmarshal(out, &m); err != nil || m.Dir == "" {
		t.Fatalf("go list -m %s: no directory (%s)", module, out)
	}
	return m.Dir
}

// sdkModelConstant finds the constant of dir's package whose value is model
// and returns its doc comment; found is false when the SDK has none.
func sdkModelConstant(t *testing.T, dir, model string) (doc string, found bool) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				for _, v := range vs.Values {
					lit, ok := v.(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					if s, err := strconv.Unquote(lit.Value); err == nil && s == model {
						return vs.Doc.Text(), true
					}
				}
			}
		}
	}
	return "", false
}

// Every default model is a model constant of the vendor's official SDK that
// the SDK does not mark Deprecated (gpt-5, for one, is marked for shutdown
// on 2026-12-11). Gemini (genai has no model constants) and Perplexity (no
// Go SDK) cannot be checked this way.
func TestDefaultModelsNotDeprecated(t *testing.T) {
	cases := []struct {
		module, pkg, model string
		deprecated         bool
	}{
		{"github.com/openai/openai-go/v3", "shared", DefaultChatGPTModel, false},
		{"github.com/anthropics/anthropic-sdk-go", ".", DefaultClaudeModel, false},
		// Controls: the check does see the SDK's deprecations.
		{"github.com/openai/openai-go/v3", "shared", "gpt-5", true},
		{"github.com/anthropics/anthropic-sdk-go", ".", "claude-sonnet-4-5", true},
	}
	for _, tc := range cases {
		t.Run(tc.model, func(t *testing.T) {
			doc, found := sdkModelConstant(t, filepath.Join(moduleDir(t, tc.module), tc.pkg), tc.model)
			if !found {
				t.Fatalf("%s is not a model constant of %s", tc.model, tc.module)
			}
			if got := strings.Contains(doc, "Deprecated:"); got != tc.deprecated {
				t.Errorf("%s deprecated = %v, want %v; SDK comment: %s", tc.model, got, tc.deprecated, strings.TrimSpace(doc))
			}
		})
	}
}
