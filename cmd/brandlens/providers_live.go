//go:build live

package main

import (
	"net/http"

	modelslive "github.com/brandlens/brandlens/shared/models/live"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/providers/live"
)

// serveProviders builds every provider mode, live included: this build
// links the AI platforms' SDKs (`make run` adds -tags live when
// BRANDLENS_PROVIDERS=live or BRANDLENS_MODELS names a vendor).
func serveProviders(getenv func(string) string, client *http.Client) (providers.Set, error) {
	return live.FromEnv(getenv, client)
}

// serveModels builds every writer, the vendors' included.
var serveModels = modelslive.FromEnv
