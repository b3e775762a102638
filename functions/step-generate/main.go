// Command step-generate is the content-generation tasks (briefs and
// articles) that ask a chat model to write. It alone links the model
// vendors' SDKs (package models/live), so it is its own artifact.
package main

import (
	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/models/live"
)

func main() { app.Main(app.Generate(live.FromEnv)) }
