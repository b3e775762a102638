//go:build !live

package main

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/brandlens/brandlens/shared/providers"
)

// serveProviders builds the offline providers (simulated, replay). The
// live ones link five vendors' SDKs, about half of what a first build of
// brandlens compiles, so they are in the build only with the live tag
// (providers_live.go).
func serveProviders(getenv func(string) string, client *http.Client) (providers.Set, error) {
	if strings.EqualFold(strings.TrimSpace(getenv("BRANDLENS_PROVIDERS")), providers.ModeLive) {
		return nil, fmt.Errorf("BRANDLENS_PROVIDERS=live needs a brandlens built with the live providers: " +
			"`BRANDLENS_PROVIDERS=live make run` builds one (go build -tags live ./cmd/brandlens)")
	}
	return providers.FromEnv(getenv, client)
}
