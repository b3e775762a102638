// Command worker-fanout turns pending outbox events into webhook deliveries:
// it is triggered by the table's DynamoDB stream (INSERTs of pending events)
// and, as a safety net, every minute by an EventBridge schedule that sweeps
// the pending index and re-sends overdue deliveries.
package main

import (
	"context"
	"log/slog"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/brandlens/brandlens/shared/config"
)

const function = "worker-fanout"

func main() {
	handler, err := config.LambdaFanout(context.Background())
	if err != nil {
		slog.New(slog.NewJSONHandler(os.Stderr, nil)).Error("cold start failed", "function", function, "error", err.Error())
		os.Exit(1)
	}
	lambda.Start(handler)
}
