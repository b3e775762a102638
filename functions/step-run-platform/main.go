// Command step-run-platform is a task of the query-execution state machine.
package main

import (
	"context"
	"log/slog"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/brandlens/brandlens/shared/config"
	"github.com/brandlens/brandlens/shared/providers/live"
)

const function = "step-run-platform"

func main() {
	config.ProviderFactory = live.FromEnv
	handler, err := config.LambdaStep(context.Background(), function)
	if err != nil {
		slog.New(slog.NewJSONHandler(os.Stderr, nil)).Error("cold start failed", "function", function, "error", err.Error())
		os.Exit(1)
	}
	lambda.Start(handler)
}
