// Command step-run-platform is the query-execution task that asks the AI
// platforms. It alone links their SDKs (package providers/live), so it is
// its own artifact; the chat models' adapters (models/live) serve the
// detection adjudicator when BRANDLENS_DETECT_ADJUDICATOR=on.
package main

import (
	"github.com/brandlens/brandlens/shared/app"
	models "github.com/brandlens/brandlens/shared/models/live"
	"github.com/brandlens/brandlens/shared/providers/live"
)

func main() { app.Main(app.Platform(live.FromEnv, models.FromEnv)) }
