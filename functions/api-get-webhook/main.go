// Command api-get-webhook is the Lambda function serving GET /api/v1/webhooks/{id}.
package main

import (
	"context"
	"log/slog"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/brandlens/brandlens/shared/config"
)

const function = "api-get-webhook"

func main() {
	handler, err := config.LambdaHTTP(context.Background(), function)
	if err != nil {
		slog.New(slog.NewJSONHandler(os.Stderr, nil)).Error("cold start failed", "function", function, "error", err.Error())
		os.Exit(1)
	}
	lambda.Start(handler)
}
