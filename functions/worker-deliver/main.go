// Command worker-deliver consumes the webhook deliveries queue: one message
// is one attempt of one delivery (signed POST, 10 s timeout, no redirects,
// connect-time SSRF guard), retried on schedule and dead-lettered after five.
package main

import (
	"context"
	"log/slog"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/brandlens/brandlens/shared/config"
)

const function = "worker-deliver"

func main() {
	handler, err := config.LambdaDeliver(context.Background())
	if err != nil {
		slog.New(slog.NewJSONHandler(os.Stderr, nil)).Error("cold start failed", "function", function, "error", err.Error())
		os.Exit(1)
	}
	lambda.Start(handler)
}
