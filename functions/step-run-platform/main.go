// Command step-run-platform is the query-execution task that asks the AI
// platforms. It alone links their SDKs (package providers/live), so it is
// its own artifact.
package main

import (
	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/providers/live"
)

func main() { app.Main(app.Platform(live.FromEnv)) }
