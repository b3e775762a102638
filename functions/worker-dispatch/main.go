// Command worker-dispatch consumes the jobs queue and starts each job's
// query-execution workflow (execution name = job id).
package main

import (
	"context"
	"log/slog"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/brandlens/brandlens/shared/config"
)

const function = "worker-dispatch"

func main() {
	handler, err := config.LambdaDispatch(context.Background())
	if err != nil {
		slog.New(slog.NewJSONHandler(os.Stderr, nil)).Error("cold start failed", "function", function, "error", err.Error())
		os.Exit(1)
	}
	lambda.Start(handler)
}
