// Package openapitest lints OpenAPI documents in tests with the Spectral
// CLI that tools/package.json pins (installed by `npm ci --prefix tools`,
// which make test runs first).
package openapitest

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/emulator"
)

// Lint runs `spectral lint` with tools/openapi.spectral.yaml on doc and
// fails tb on any warning or error. Without Node or the installed CLI the
// test is skipped, or fails when the CI environment variable is set.
func Lint(tb testing.TB, doc []byte) {
	tb.Helper()
	bin, err := emulator.RepoFile("BRANDLENS_SPECTRAL", "tools/node_modules/.bin/spectral")
	if err != nil {
		tb.Fatal(err)
	}
	ruleset, err := emulator.RepoFile("BRANDLENS_SPECTRAL_RULESET", "tools/openapi.spectral.yaml")
	if err != nil {
		tb.Fatal(err)
	}
	_, nodeErr := exec.LookPath("node")
	if _, err := os.Stat(bin); err != nil || nodeErr != nil {
		why := "the Spectral CLI is not installed (run `npm ci --prefix tools`) or node is missing"
		if os.Getenv("CI") != "" {
			tb.Fatalf("openapitest: %s (CI is set, so this fails instead of skipping)", why)
		}
		tb.Skipf("openapitest: %s", why)
	}
	path := filepath.Join(tb.TempDir(), "openapi.json")
	if err := os.WriteFile(path, doc, 0o600); err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// Through node rather than the shim's shebang: no reliance on the
	// executable bit surviving the install.
	cmd := exec.CommandContext(ctx, "node", bin, "lint", "--ruleset", ruleset, "--fail-severity", "warn", "--format", "text", path)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit) && exit.ExitCode() == 1:
		tb.Errorf("spectral lint found problems in the OpenAPI document:\n%s", out)
	case err != nil:
		tb.Fatalf("openapitest: running spectral: %v\n%s", err, out)
	}
}
