package app_test

import (
	"context"
	"os"
	"testing"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/config"
)

// BenchmarkColdStartAPI is the API bootstrap's work between its process
// start and its first event, after package initialisation: read the
// settings, load the AWS configuration, read the key secret (from a local
// endpoint of Secrets Manager's protocol) and build api-get-me's handler.
// Package initialisation is measured apart (GODEBUG=inittrace=1 on the
// built bootstrap, see README "Tracing").
func BenchmarkColdStartAPI(b *testing.B) {
	clearEnv(b)
	c := offlineCloud(b)
	loadTemplate(b).setFunctionEnv(b, c, app.LogicalID("api-get-me"))
	ctx := context.Background()
	for b.Loop() {
		cfg, err := config.FromEnv()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := app.API().Assemble(ctx, app.NewResources(cfg, os.Getenv), quiet()); err != nil {
			b.Fatal(err)
		}
	}
}
