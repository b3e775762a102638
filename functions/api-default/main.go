// Command api-default is the Lambda function of API Gateway's $default route:
// requests matching no route get 404 or 405 in the error envelope.
package main

import (
	"context"
	"log/slog"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/brandlens/brandlens/shared/config"
)

const function = "api-default"

func main() {
	handler, err := config.LambdaHTTP(context.Background(), function)
	if err != nil {
		slog.New(slog.NewJSONHandler(os.Stderr, nil)).Error("cold start failed", "function", function, "error", err.Error())
		os.Exit(1)
	}
	lambda.Start(handler)
}
