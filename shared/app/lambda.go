package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"

	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-sdk-go-v2/service/sfn"

	"github.com/brandlens/brandlens/shared/config"
	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/models"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/publish"
	"github.com/brandlens/brandlens/shared/queue"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/ssrf"
	"github.com/brandlens/brandlens/shared/tracing"
	"github.com/brandlens/brandlens/shared/workflow"
)

// Artifact is the Lambda entry point of one build artifact: it builds the
// handler of any function of the table that runs it. Each artifact's main
// names only its own builder, so that a binary links what its functions
// use (the API bootstrap no Step Functions client, the worker no HTTP
// router, and only the platform step the AI SDKs).
type Artifact struct {
	Name  string
	build func(ctx context.Context, res *Resources, f Function, log *slog.Logger) (*Assembled, error)
}

// Assembled is one function, built at cold start.
type Assembled struct {
	Function Function
	Handler  lambda.Handler
	// Deps are the dependency structs Handler was built from, kept so that
	// tests can check that nothing was left out.
	Deps []any
}

// API is the artifact of every API function (functions/api).
func API() Artifact { return Artifact{Name: ArtifactAPI, build: buildAPI} }

// Worker is the artifact of the workers, the scheduler and the steps that
// call no AI platform (functions/worker).
func Worker() Artifact { return Artifact{Name: ArtifactWorker, build: buildWorker} }

// Platform is the artifact of the step that asks the AI platforms
// (functions/step-run-platform); factory builds the providers, live ones
// included, and modelFactory the detection adjudicator (Resources.Adjudicator).
func Platform(factory ProviderFactory, modelFactory ModelFactory) Artifact {
	return Artifact{Name: ArtifactPlatform, build: func(ctx context.Context, res *Resources, f Function, log *slog.Logger) (*Assembled, error) {
		if f.Kind != KindRunsStep {
			return nil, fmt.Errorf("app: %s is not a workflow step", f.Name)
		}
		provs, err := res.Providers(ctx, factory, log)
		if err != nil {
			return nil, err
		}
		tr, err := res.Tracing()
		if err != nil {
			return nil, err
		}
		provs = tr.Providers(provs)
		adj, err := res.Adjudicator(ctx, modelFactory)
		if err != nil {
			return nil, err
		}
		svc, err := lambdaServices(ctx, res, nil, nil, provs, nil, log, adj)
		if err != nil {
			return nil, err
		}
		return &Assembled{Handler: lambda.NewHandler(stepHandler(svc.Runs, f.Name)), Deps: []any{svc}}, nil
	}}
}

// ModelFactory builds the content generator from the environment:
// models/live.FromEnv in the binaries that write with a vendor's model
// (only their mains import it), given the offline writer for the offline
// mode.
type ModelFactory func(getenv func(string) string, client *http.Client, offline models.Generator) (models.Generator, error)

// OfflineModels is the ModelFactory of builds without the vendor adapters
// (tests): the offline mode only, as models.FromEnv allows.
func OfflineModels(getenv func(string) string, _ *http.Client, offline models.Generator) (models.Generator, error) {
	return models.FromEnv(getenv, offline)
}

// Generate is the artifact of the steps that ask a chat model to write
// (functions/step-generate); factory builds the generator.
func Generate(factory ModelFactory) Artifact {
	return Artifact{Name: ArtifactGenerate, build: func(ctx context.Context, res *Resources, f Function, log *slog.Logger) (*Assembled, error) {
		if f.Kind != KindJobStep {
			return nil, fmt.Errorf("app: %s is not a workflow step", f.Name)
		}
		gen, err := res.Models(ctx, factory)
		if err != nil {
			return nil, err
		}
		svc, err := lambdaServices(ctx, res, nil, nil, nil, gen, log, nil)
		if err != nil {
			return nil, err
		}
		h, err := jobStepHandler(svc, f.Name)
		if err != nil {
			return nil, err
		}
		return &Assembled{Handler: lambda.NewHandler(h), Deps: []any{svc}}, nil
	}}
}

// Assemble builds the handler of the function the settings name
// (BRANDLENS_FUNCTION), once per cold start.
func (a Artifact) Assemble(ctx context.Context, res *Resources, log *slog.Logger) (*Assembled, error) {
	name := res.Config().Function
	if name == "" {
		return nil, fmt.Errorf("app: %s is not set", config.EnvFunction)
	}
	f, ok := FunctionNamed(name)
	if !ok {
		return nil, fmt.Errorf("app: %s=%q is no function of the table", config.EnvFunction, name)
	}
	if f.Artifact != a.Name {
		return nil, fmt.Errorf("app: function %s runs artifact %s, not %s (template.yaml's CodeUri is wrong)", f.Name, f.Artifact, a.Name)
	}
	asm, err := a.build(ctx, res, f, log)
	if err == nil {
		var tr *tracing.Tracing
		if tr, err = res.Tracing(); err == nil {
			asm.Handler = tr.Handler(asm.Handler)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("app: cold start of %s: %w", f.Name, err)
	}
	asm.Function = f
	return asm, nil
}

// Main is the whole main of an artifact: read the settings, assemble the
// function, serve it. A failed cold start is logged and exits, so that
// Lambda reports an init error rather than serving a half-built function.
func Main(a Artifact) {
	ctx := context.Background()
	cfg, err := config.FromEnv()
	if err == nil {
		var asm *Assembled
		log := NewLogger(os.Stdout, cfg.LogLevel)
		if asm, err = a.Assemble(ctx, NewResources(cfg, os.Getenv), log); err == nil {
			lambda.Start(asm.Handler)
			return
		}
	}
	NewLogger(os.Stderr, slog.LevelInfo).Error("cold start failed", "artifact", a.Name, "function", os.Getenv(config.EnvFunction), "error", err.Error())
	os.Exit(1)
}

func buildAPI(ctx context.Context, res *Resources, f Function, log *slog.Logger) (*Assembled, error) {
	var keySecret, siteSecret []byte
	var err error
	if f.AuthenticatesKeys() {
		if keySecret, err = res.KeySecret(ctx, nil); err != nil {
			return nil, err
		}
	}
	if f.VerifiesSignedBodies() {
		if siteSecret, err = res.SiteContentSecret(ctx); err != nil {
			return nil, err
		}
	}
	svc, err := lambdaServices(ctx, res, keySecret, siteSecret, nil, nil, log, nil)
	if err != nil {
		return nil, err
	}
	deps := svc.HTTPDeps(siteSecret)
	h, err := httpapi.NewLambdaHandler(deps, f.Name)
	if err != nil {
		return nil, err
	}
	return &Assembled{Handler: lambda.NewHandler(h), Deps: []any{deps}}, nil
}

func buildWorker(ctx context.Context, res *Resources, f Function, log *slog.Logger) (*Assembled, error) {
	if f.Kind == KindJobsDispatch {
		starter, err := res.stateMachines()
		if err != nil {
			return nil, err
		}
		return &Assembled{Handler: lambda.NewHandler(queue.LambdaHandler(runs.Dispatch(starter, log), log)), Deps: []any{starter}}, nil
	}
	var siteSecret []byte
	if f.Name == publish.StepDeliver {
		// own_site destinations are signed with the receiver's secret.
		var err error
		if siteSecret, err = res.SiteContentSecret(ctx); err != nil {
			return nil, err
		}
	}
	svc, err := lambdaServices(ctx, res, nil, siteSecret, nil, nil, log, nil)
	if err != nil {
		return nil, err
	}
	var h any
	switch f.Kind {
	case KindRunsStep:
		h = stepHandler(svc.Runs, f.Name)
	case KindJobStep:
		if h, err = jobStepHandler(svc, f.Name); err != nil {
			return nil, err
		}
	case KindScheduler:
		schedules := res.Config().Schedules
		if schedules && svc.schedules == nil {
			// One invocation cannot start a large pass in turn: it fans out.
			return nil, fmt.Errorf("%s is not set", config.EnvSchedulesQueueURL)
		}
		h = func(ctx context.Context) (SchedulerReport, error) { return svc.RunScheduler(ctx, schedules) }
	case KindExecutionEnded:
		h = executionEndedHandler(svc)
	case KindFanout:
		h = fanoutHandler(svc.Webhooks, log)
	case KindDeliver:
		h = queue.LambdaHandler(svc.Webhooks.Handle, log)
	case KindScheduleShard:
		if svc.schedules == nil {
			return nil, fmt.Errorf("%s is not set", config.EnvSchedulesQueueURL)
		}
		h = queue.LambdaHandler(svc.Runs.ScheduleShard(svc.schedules), log)
	default:
		return nil, fmt.Errorf("app: the worker artifact has no handler of kind %d", f.Kind)
	}
	return &Assembled{Handler: lambda.NewHandler(h), Deps: []any{svc}}, nil
}

// lambdaServices builds the services of a Lambda function: the configured
// table and the SQS queues. keySecret is nil in functions that
// authenticate no key; provs is nil but in the platform step, gen but in
// the generation steps, adj but in the platform step.
func lambdaServices(ctx context.Context, res *Resources, keySecret, siteSecret []byte, provs providers.Set, gen models.Generator, log *slog.Logger, adj runs.Adjudicator) (*Services, error) {
	cfg := res.Config()
	for _, q := range [][2]string{{config.EnvJobsQueueURL, cfg.JobsQueueURL}, {config.EnvDeliveriesQueueURL, cfg.DeliveriesQueueURL}} {
		if q[1] == "" {
			return nil, fmt.Errorf("%s is not set", q[0])
		}
	}
	tr, err := res.Tracing()
	if err != nil {
		return nil, err
	}
	tbl, _, err := res.OpenTable(ctx)
	if err != nil {
		return nil, err
	}
	jobsQ, err := res.SQSQueue(cfg.JobsQueueURL, log)
	if err != nil {
		return nil, err
	}
	deliveriesQ, err := res.SQSQueue(cfg.DeliveriesQueueURL, log)
	if err != nil {
		return nil, err
	}
	repos, err := NewRepos(tr.Table(tbl), keySecret, nil)
	if err != nil {
		return nil, err
	}
	timeouts, err := providers.Timeouts(res.getenv)
	if err != nil {
		return nil, err
	}
	m, err := res.Metrics(log)
	if err != nil {
		return nil, err
	}
	sealer, err := res.Secrets()
	if err != nil {
		return nil, err
	}
	c, err := res.aws()
	if err != nil {
		return nil, err
	}
	var schedulesQ queue.Sender
	if cfg.SchedulesQueueURL != "" {
		q, err := res.SQSQueue(cfg.SchedulesQueueURL, log)
		if err != nil {
			return nil, err
		}
		schedulesQ = tr.Sender(q, "schedules")
	}
	d := Deps{Logger: log, Jobs: tr.Sender(jobsQ, "jobs"), Deliveries: tr.Sender(deliveriesQ, "deliveries"), Schedules: schedulesQ, Providers: provs,
		Guard: res.Guard(), RetryScale: cfg.RetryScale, Metrics: m, Timeouts: timeouts, Generator: gen, Secrets: sealer,
		Callbacks: workflow.SFNCallbacks{Client: sfn.NewFromConfig(c)}, SiteBaseURL: cfg.SiteBaseURL,
		SiteSecret: siteSecret, IndexNowEndpoint: cfg.IndexNowEndpoint, Adjudicator: adj}
	if tr != nil {
		// The guarded delivery client, its attempts traced.
		d.DeliveryClient = d.Guard.NewClient(ssrf.ClientOptions{})
		d.DeliveryClient.Transport = tr.Transport(d.DeliveryClient.Transport)
	}
	return NewServices(repos, d)
}

// stateMachines is worker-dispatch's starter: Step Functions, with the
// state machine of every workflow (config.StateMachineEnv names the
// variable of each ARN).
func (r *Resources) stateMachines() (*workflow.SFN, error) {
	machines := map[string]string{}
	for _, w := range Workflows {
		env := config.StateMachineEnv(w.Name)
		arn := r.getenv(env)
		if env == config.EnvStateMachineARN {
			arn = r.cfg.StateMachineARN
		}
		if arn == "" {
			return nil, errors.New(env + " is not set")
		}
		machines[w.Name] = arn
	}
	c, err := r.aws()
	if err != nil {
		return nil, err
	}
	return &workflow.SFN{Client: sfn.NewFromConfig(c), Machines: machines}, nil
}

// jobStepHandler is the handler of a metered job's workflow step, in
// Lambda and in the local runner alike (its errors reach Step Functions
// unwrapped, as stepHandler's do).
func jobStepHandler(svc *Services, step string) (workflow.Handler, error) {
	h, ok := svc.JobSteps()[step]
	if !ok {
		return nil, fmt.Errorf("app: no handler for step %s in this process", step)
	}
	return h, nil
}

// stepHandler is the handler of a workflow step, in Lambda and in the
// local runner alike. Its errors are returned unwrapped, so that Step
// Functions sees their Go type names (TransientProviderError, …) as the
// error types the ASL's Retry and Catch match.
func stepHandler(rs *runs.Service, step string) func(ctx context.Context, input json.RawMessage) (json.RawMessage, error) {
	return func(ctx context.Context, input json.RawMessage) (json.RawMessage, error) {
		return rs.Invoke(ctx, step, input)
	}
}
