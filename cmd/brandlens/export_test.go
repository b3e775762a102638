package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brandlens/brandlens/shared/brandpage"
	"github.com/brandlens/brandlens/shared/recaptcha"
)

// TestExportPage: `brandlens admin export-page` writes the page as its S3
// bucket holds it and prints upload commands that, run by a shell (against
// a stand-in aws command that records its arguments), upload every file
// under its key with its Content-Type and Cache-Control, then invalidate
// the distribution.
func TestExportPage(t *testing.T) {
	t.Setenv(brandpage.EnvSiteKey, "")
	dir := filepath.Join(t.TempDir(), "page it's") // a path the shell must quote
	var out bytes.Buffer
	err := admin(context.Background(), []string{"export-page", "--site-key", recaptcha.TestSiteKey, "--recaptcha-version", "v2",
		"--bucket", "brandlens-page-bucket", "--distribution", "E2EXAMPLE", dir}, &out)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Files []struct {
			Key, Path, ContentType, CacheControl string
			Bytes                                int
		}
		Upload []string
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("%s: %v", out.String(), err)
	}
	want, err := brandpage.Objects(brandpage.Config{SiteKey: recaptcha.TestSiteKey, Version: "v2"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != len(want) || len(res.Upload) != len(want)+1 {
		t.Fatalf("%d files, %d commands, want %d objects", len(res.Files), len(res.Upload), len(want))
	}
	for i, o := range want {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(o.Key)))
		if err != nil || !bytes.Equal(got, o.Body) {
			t.Errorf("%s: not the rendered object (%v)", o.Key, err)
		}
		if f := res.Files[i]; f.Key != o.Key || f.ContentType != o.ContentType || f.CacheControl != o.CacheControl || f.Bytes != len(o.Body) {
			t.Errorf("file %+v, want %s", f, o.Key)
		}
	}
	index, _ := os.ReadFile(filepath.Join(dir, brandpage.DocumentKey))
	if !bytes.Contains(index, []byte(recaptcha.TestSiteKey)) || bytes.Contains(index, []byte(recaptcha.BypassToken)) ||
		bytes.Contains(index, []byte(`"bypass":true`)) {
		t.Error("the exported page must carry the site key and never the local bypass")
	}

	// Run the commands with a stand-in aws that records its arguments.
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	bin := t.TempDir()
	log := filepath.Join(bin, "calls")
	fake := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\t' \"$a\"; done >> '" + log + "'\necho >> '" + log + "'\n"
	if err := os.WriteFile(filepath.Join(bin, "aws"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(sh, "-e", "-c", strings.Join(res.Upload, "\n"))
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	raw, _ := os.ReadFile(log)
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if len(lines) != len(want)+1 {
		t.Fatalf("aws ran %d times: %q", len(lines), lines)
	}
	for i, o := range want {
		args := strings.Split(strings.TrimSuffix(lines[i], "\t"), "\t")
		wantArgs := []string{"s3", "cp", filepath.Join(dir, filepath.FromSlash(o.Key)), "s3://brandlens-page-bucket/" + o.Key,
			"--content-type", o.ContentType, "--cache-control", o.CacheControl}
		if strings.Join(args, "|") != strings.Join(wantArgs, "|") {
			t.Errorf("aws %q\nwant %q", args, wantArgs)
		}
	}
	if last := strings.TrimSuffix(lines[len(want)], "\t"); last != "cloudfront\tcreate-invalidation\t--distribution-id\tE2EXAMPLE\t--paths\t/*" {
		t.Errorf("invalidation %q", last)
	}

	// A deployment page needs a site key.
	if err := admin(context.Background(), []string{"export-page", t.TempDir()}, &bytes.Buffer{}); err == nil ||
		!strings.Contains(err.Error(), "site key") {
		t.Errorf("export without a site key: %v", err)
	}
}
