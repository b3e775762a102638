// Command api-post-site-content is the Lambda function serving POST /api/site-content/webhooks/{type}.
package main

import (
	"context"
	"log/slog"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/brandlens/brandlens/shared/config"
)

const function = "api-post-site-content"

func main() {
	handler, err := config.LambdaHTTP(context.Background(), function)
	if err != nil {
		slog.New(slog.NewJSONHandler(os.Stderr, nil)).Error("cold start failed", "function", function, "error", err.Error())
		os.Exit(1)
	}
	lambda.Start(handler)
}
