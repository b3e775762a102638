// Command scheduler enqueues the due runs of scheduled monitoring queries
// (EventBridge Scheduler invokes it every few minutes).
package main

import (
	"context"
	"log/slog"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/brandlens/brandlens/shared/config"
)

const function = "scheduler"

func main() {
	handler, err := config.LambdaScheduler(context.Background())
	if err != nil {
		slog.New(slog.NewJSONHandler(os.Stderr, nil)).Error("cold start failed", "function", function, "error", err.Error())
		os.Exit(1)
	}
	lambda.Start(handler)
}
