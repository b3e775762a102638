package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/brandlens/brandlens/shared/brandcheck"
	"github.com/brandlens/brandlens/shared/brandpage"
)

// exportPage writes the brand check page as its S3 bucket holds it —
// index.html (which CloudFront serves at / and /brand-check) and the
// assets under brand-check/assets/ — into dir, and prints, as JSON, the
// files and the commands that upload them with their Content-Type and
// Cache-Control and then invalidate the distribution's cache. The page is
// rendered for deployment: a reCAPTCHA site key is required and the local
// bypass is never on. The platforms and time budget it shows are the
// check's settings (BRANDLENS_BRANDCHECK_PLATFORMS, …_TIMEOUT).
func exportPage(pc brandpage.Config, getenv func(string) string, dir, bucket, distribution string, stdout io.Writer) error {
	cfg, err := brandcheck.ConfigFromEnv(getenv)
	if err != nil {
		return err
	}
	pc.Bypass, pc.Platforms, pc.Budget = false, cfg.Platforms, cfg.Budget
	objs, err := brandpage.Objects(pc)
	if err != nil {
		return err
	}
	if bucket == "" {
		bucket = "$BUCKET"
	}
	if distribution == "" {
		distribution = "$DISTRIBUTION"
	}
	type file struct {
		Key          string `json:"key"`
		Path         string `json:"path"`
		ContentType  string `json:"contentType"`
		CacheControl string `json:"cacheControl"`
		Bytes        int    `json:"bytes"`
	}
	var files []file
	var upload []string
	for _, o := range objs {
		path := filepath.Join(dir, filepath.FromSlash(o.Key))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("export-page: %w", err)
		}
		if err := os.WriteFile(path, o.Body, 0o644); err != nil {
			return fmt.Errorf("export-page: %w", err)
		}
		files = append(files, file{Key: o.Key, Path: path, ContentType: o.ContentType, CacheControl: o.CacheControl, Bytes: len(o.Body)})
		upload = append(upload, fmt.Sprintf("aws s3 cp %s \"s3://%s/%s\" --content-type '%s' --cache-control '%s'",
			shellQuote(path), bucket, o.Key, o.ContentType, o.CacheControl))
	}
	upload = append(upload, fmt.Sprintf("aws cloudfront create-invalidation --distribution-id \"%s\" --paths '/*'", distribution))
	return printJSON(stdout, map[string]any{"dir": dir, "files": files, "upload": upload})
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	out := "'"
	for _, r := range s {
		if r == '\'' {
			out += `'\''`
			continue
		}
		out += string(r)
	}
	return out + "'"
}
