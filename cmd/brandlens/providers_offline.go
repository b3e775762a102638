//go:build !live

package main

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/brandlens/brandlens/shared/models"
	"github.com/brandlens/brandlens/shared/providers"
)

// liveBuildHint says how to get a brandlens that links the vendors' SDKs.
const liveBuildHint = "`BRANDLENS_PROVIDERS=live make run` builds one (go build -tags live ./cmd/brandlens)"

// serveProviders builds the offline providers (simulated, replay). The
// live ones link five vendors' SDKs, about half of what a first build of
// brandlens compiles, so they are in the build only with the live tag
// (providers_live.go).
func serveProviders(getenv func(string) string, client *http.Client) (providers.Set, error) {
	if strings.EqualFold(strings.TrimSpace(getenv("BRANDLENS_PROVIDERS")), providers.ModeLive) {
		return nil, fmt.Errorf("BRANDLENS_PROVIDERS=live needs a brandlens built with the live providers: %s", liveBuildHint)
	}
	return providers.FromEnv(getenv, client)
}

// serveModels is the offline writer; a vendor's (BRANDLENS_MODELS) needs
// the live tag too.
func serveModels(getenv func(string) string, _ *http.Client, offline models.Generator) (models.Generator, error) {
	mode, err := models.Mode(getenv)
	if err != nil {
		return nil, err
	}
	if mode != models.ModeOffline {
		return nil, fmt.Errorf("%s=%s needs a brandlens built with the vendors' SDKs: %s", models.EnvModels, mode, liveBuildHint)
	}
	return offline, nil
}
