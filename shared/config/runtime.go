package config

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/sfn"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/queue"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/workflow"
)

// Environment variables of the query-execution runtime.
const (
	EnvJobsQueueURL          = "BRANDLENS_JOBS_QUEUE_URL"
	EnvStateMachineARN       = "BRANDLENS_STATE_MACHINE_ARN"
	EnvProviderKeysSecretARN = "BRANDLENS_PROVIDER_KEYS_SECRET_ARN"
)

// providerEnv is getenv for the providers: in AWS the platforms' API keys
// come from one Secrets Manager JSON object, locally from the environment.
func (c Config) providerEnv(ctx context.Context) (func(string) string, error) {
	arn := os.Getenv(EnvProviderKeysSecretARN)
	if arn == "" {
		return os.Getenv, nil
	}
	raw, err := c.secretValue(ctx, "provider keys", arn)
	if err != nil {
		return nil, err
	}
	keys := map[string]string{}
	if err := json.Unmarshal(raw, &keys); err != nil {
		return nil, fmt.Errorf("config: provider keys secret must be a JSON object of strings: %w", err)
	}
	return func(name string) string {
		if v, ok := keys[name]; ok {
			return v
		}
		return os.Getenv(name)
	}, nil
}

// ProviderFactory builds the provider set from the environment. It is
// providers.FromEnv (simulated and replay only) unless a binary that calls
// the platforms sets it to live.FromEnv (package providers/live): config
// does not import the live adapters, so the binaries that never call a
// platform do not link the vendor SDKs.
var ProviderFactory func(getenv func(string) string, client *http.Client) (providers.Set, error) = providers.FromEnv

// Providers builds the AI platform providers (BRANDLENS_PROVIDERS) with
// ProviderFactory.
func (c Config) Providers(ctx context.Context) (providers.Set, error) {
	getenv, err := c.providerEnv(ctx)
	if err != nil {
		return nil, err
	}
	return ProviderFactory(getenv, http.DefaultClient)
}

// JobsQueue returns the SQS jobs queue when BRANDLENS_JOBS_QUEUE_URL is
// set, else nil.
func (c Config) JobsQueue(ctx context.Context) (*queue.SQS, error) {
	return c.sqsQueue(ctx, EnvJobsQueueURL)
}

// sqsQueue returns the SQS queue whose URL the environment variable env
// holds, or nil when it is not set.
func (c Config) sqsQueue(ctx context.Context, env string) (*queue.SQS, error) {
	url := os.Getenv(env)
	if url == "" {
		return nil, nil
	}
	cfg, err := c.awsConfig(ctx)
	if err != nil {
		return nil, err
	}
	return queue.NewSQS(sqs.NewFromConfig(cfg), url), nil
}

// lambdaServices builds the services of a worker or step function.
func lambdaServices(ctx context.Context) (Config, *Services, error) {
	c, err := FromEnv()
	if err != nil {
		return Config{}, nil, err
	}
	tbl, _, err := c.OpenTable(ctx)
	if err != nil {
		return Config{}, nil, err
	}
	svc, err := NewServices(tbl, nil, nil)
	if err != nil {
		return Config{}, nil, err
	}
	svc.Runs.Logger = c.Logger(os.Stdout)
	if q, err := c.JobsQueue(ctx); err != nil {
		return Config{}, nil, err
	} else if q != nil {
		svc.Runs.Sender = q
	}
	return c, svc, nil
}

// StepHandler is a Step Functions task Lambda handler.
type StepHandler func(ctx context.Context, input json.RawMessage) (json.RawMessage, error)

// LambdaStep builds, once per cold start, the handler of a workflow step
// function. Its errors are returned unwrapped so that Step Functions sees
// their Go type names (TransientProviderError, …) as error types.
func LambdaStep(ctx context.Context, step string) (StepHandler, error) {
	c, svc, err := lambdaServices(ctx)
	if err != nil {
		return nil, err
	}
	if step == runs.StepRunPlatform {
		if svc.Runs.Providers, err = c.Providers(ctx); err != nil {
			return nil, err
		}
	}
	return NewStepHandler(svc, step), nil
}

// NewStepHandler is the Lambda handler of one workflow step over svc.
func NewStepHandler(svc *Services, step string) StepHandler {
	return func(ctx context.Context, input json.RawMessage) (json.RawMessage, error) {
		return svc.Runs.Invoke(ctx, step, input)
	}
}

// LambdaDispatch builds the jobs-queue consumer that starts workflows.
func LambdaDispatch(ctx context.Context) (func(context.Context, events.SQSEvent) (events.SQSEventResponse, error), error) {
	c, err := FromEnv()
	if err != nil {
		return nil, err
	}
	arn := os.Getenv(EnvStateMachineARN)
	if arn == "" {
		return nil, fmt.Errorf("config: %s is not set", EnvStateMachineARN)
	}
	cfg, err := c.awsConfig(ctx)
	if err != nil {
		return nil, err
	}
	starter := &workflow.SFN{Client: sfn.NewFromConfig(cfg), Machines: map[string]string{runs.QueryExecution: arn}}
	return queue.LambdaHandler(runs.Dispatch(starter)), nil
}

// LambdaScheduler builds the scheduled-runs handler.
func LambdaScheduler(ctx context.Context) (func(context.Context) (runs.ScheduleReport, error), error) {
	_, svc, err := lambdaServices(ctx)
	if err != nil {
		return nil, err
	}
	return svc.Runs.RunSchedules, nil
}
