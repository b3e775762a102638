package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/brandlens/brandlens/shared/brandcheck"
	"github.com/brandlens/brandlens/shared/brandpage"
	"github.com/brandlens/brandlens/shared/config"
	"github.com/brandlens/brandlens/shared/content"
	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/models"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/queue"
	"github.com/brandlens/brandlens/shared/ratelimit"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/secrets"
	"github.com/brandlens/brandlens/shared/ssrf"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/webhooks"
	"github.com/brandlens/brandlens/shared/workflow"
)

// LocalDeliveryWorkers is how many deliveries `brandlens serve` attempts at
// once (goroutines waiting on network I/O are cheap); a hanging endpoint
// holds at most webhooks.DefaultMaxInFlight of them, see
// webhooks.Options.MaxInFlight.
const LocalDeliveryWorkers = 512

// localJobWorkers is how many jobs-queue messages are dispatched at once
// (each only starts a workflow execution).
const localJobWorkers = 4

// LocalOptions are what the local runtime is built from.
type LocalOptions struct {
	Table store.Table
	// KeySecret is the API-key hashing secret; SiteContentSecret signs the
	// site-content receiver's bodies (nil: it refuses all).
	KeySecret, SiteContentSecret []byte
	Providers                    providers.Set
	// Generator writes briefs and articles (nil: the offline writer).
	Generator models.Generator
	// Adjudicator asks a chat model about ambiguous mentions in query runs
	// (nil, the default: the rules alone).
	Adjudicator runs.Adjudicator
	// Logger (nil: slog.Default()); Now is the clock (nil: time.Now).
	Logger *slog.Logger
	Now    func() time.Time
	// SchedulerEvery is the scheduler's period (0: no scheduler): each pass
	// sweeps the jobs and, when Schedules is set, starts the due runs of
	// scheduled queries.
	SchedulerEvery time.Duration
	Schedules      bool
	// ShutdownGrace is how long Run lets running steps and deliveries
	// finish once its ctx ends (0: config.DefaultShutdownGrace).
	ShutdownGrace time.Duration
	// Timeouts are the AI platforms' per-call timeouts that query runs'
	// deadlines derive from (nil: the defaults).
	Timeouts map[string]time.Duration
	// Guard and RetryScale configure webhook deliveries (RetryScale 0: 1).
	Guard      ssrf.Guard
	RetryScale float64
	// Secrets seals tenants' secrets (nil: an in-memory keyring, whose
	// secrets do not outlive the process — tests).
	Secrets *secrets.Sealer
	// DispatchInterval is how often the outbox is polled (0: the
	// dispatcher's default).
	DispatchInterval time.Duration
	// SiteBaseURL is where the own site's receiver and pages are served
	// (own_site destinations POST there); IndexNowEndpoint the search
	// engine's (empty: the shared one).
	SiteBaseURL, IndexNowEndpoint string
	// BrandCheck configures the anonymous brand check; its Verifier is
	// required, its Secret defaults to KeySecret (a derived key is used).
	BrandCheck BrandCheckOptions
	// Page configures the brand check page (site key, version, call to
	// action); the bypass, the platforms and the time budget follow
	// BrandCheck.
	Page brandpage.Config
	// Observer, when set, sees the runtime's work as AWS would bill it
	// (`brandlens cost`).
	Observer Observer
}

// Observer wraps what stands for billed AWS work in the local runtime:
// the queues' senders, their consumers and the workflow steps as Lambda
// functions, and the workflows' state transitions (costmodel.Meter is
// one).
type Observer interface {
	Sender(queue string, s queue.Sender) queue.Sender
	Consumer(function string, h queue.Handler) queue.Handler
	Step(function string, h workflow.Handler) workflow.Handler
	Transition(machine, state string)
}

// Local is `brandlens serve` in one process: every service over one table,
// the in-process jobs and deliveries queues, the workflow runner executing
// the same ASL files as Step Functions (each Task resolved to the step
// handler its Lambda function runs), the outbox dispatcher that stands in
// for the table's stream, and the scheduler's timer.
type Local struct {
	Services *Services
	// BrandCheck is the anonymous brand check.
	BrandCheck *brandcheck.Service
	// API serves every route of the route table; APIDeps are what it was
	// built from.
	API     http.Handler
	APIDeps httpapi.Deps
	// Handler is what brandlens serve serves: the API, and the brand check
	// page at / and /brand-check.
	Handler http.Handler
	// LocalBypass: the brand check admits recaptcha.BypassToken.
	LocalBypass bool

	jobs, deliveries *queue.Local
	workflow         *workflow.Local
	dispatcher       *webhooks.Dispatcher
	schedulerEvery   time.Duration
	observer         Observer
	schedules        bool
	grace            time.Duration
}

// NewLocal assembles the local runtime; Run starts it.
func NewLocal(o LocalOptions) (*Local, error) {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Generator == nil {
		o.Generator = content.NewOffline()
	}
	repos, err := NewRepos(o.Table, o.KeySecret, o.Now)
	if err != nil {
		return nil, err
	}
	// One process sees every request, so an exact in-memory window replaces
	// a durable store write per request.
	repos.Limiter = ratelimit.NewMemory(repos.Now)
	jobsQ := queue.NewLocal(queue.LocalOptions{Logger: o.Logger})
	deliveriesQ := queue.NewLocal(queue.LocalOptions{Logger: o.Logger})
	if o.Secrets == nil {
		o.Secrets = secrets.NewSealer(secrets.NewMemoryKeyring())
	}
	tokens := workflow.NewTaskTokens()
	var jobsS, deliveriesS queue.Sender = jobsQ, deliveriesQ
	wfOpts := []workflow.Option{workflow.WithLogger(o.Logger)}
	if o.Observer != nil {
		jobsS, deliveriesS = o.Observer.Sender("jobs", jobsQ), o.Observer.Sender("deliveries", deliveriesQ)
		wfOpts = append(wfOpts, workflow.WithTransitions(o.Observer.Transition))
	}
	svc, err := NewServices(repos, Deps{Logger: o.Logger, Jobs: jobsS, Deliveries: deliveriesS, Providers: o.Providers,
		Guard: o.Guard, RetryScale: o.RetryScale, Timeouts: o.Timeouts, Generator: o.Generator, Secrets: o.Secrets,
		Adjudicator: o.Adjudicator, Callbacks: workflow.LocalCallbacks{Tokens: tokens}, SiteBaseURL: o.SiteBaseURL, SiteSecret: o.SiteContentSecret,
		IndexNowEndpoint: o.IndexNowEndpoint})
	if err != nil {
		return nil, err
	}
	bco := o.BrandCheck
	if bco.Secret == nil {
		bco.Secret = o.KeySecret
	}
	bc, err := NewBrandCheck(repos, o.Providers, bco, o.Logger)
	if err != nil {
		return nil, err
	}
	page, err := newPage(o.Page, bco)
	if err != nil {
		return nil, err
	}
	machines := map[string]*workflow.Machine{}
	for _, w := range Workflows {
		m, err := workflow.Load(w.Definition, w.Substitutions())
		if err != nil {
			return nil, fmt.Errorf("app: load %s: %w", w.File, err)
		}
		machines[w.Name] = m
	}
	steps := workflow.Handlers{}
	for _, f := range Functions() {
		switch f.Kind {
		case KindRunsStep:
			steps[f.Name] = stepHandler(svc.Runs, f.Name)
		case KindJobStep:
			if steps[f.Name], err = jobStepHandler(svc, f.Name); err != nil {
				return nil, err
			}
		}
		if h, ok := steps[f.Name]; ok && o.Observer != nil {
			steps[f.Name] = o.Observer.Step(f.Name, h)
		}
	}
	// Tasks that wait for a token invoke their step through Step
	// Functions' Lambda integration; locally the step runs in process.
	steps[LambdaInvokeWaitForToken] = lambdaInvoke(steps)
	// A workflow that fails without reaching its settle (a settle step that
	// kept failing, say) is settled at once from what its job recorded, as
	// the EventBridge rule on Step Functions' status changes does in AWS.
	onFailure := func(ctx context.Context, _, _ string, input json.RawMessage, xe *workflow.ExecutionError) {
		if _, err := svc.settleFailedExecution(ctx, input, jobs.Failure{Error: xe.Name, Cause: xe.Cause}); err != nil {
			o.Logger.Error("settle after a failed execution", "error", err.Error())
		}
	}
	grace := o.ShutdownGrace
	if grace <= 0 {
		grace = config.DefaultShutdownGrace
	}
	deps := withBrandCheck(svc.HTTPDeps(o.SiteContentSecret), bc, bco.Trust)
	api := httpapi.New(deps)
	return &Local{
		Services:       svc,
		BrandCheck:     bc,
		API:            api,
		APIDeps:        deps,
		Handler:        withPage(api, page),
		LocalBypass:    isBypass(bco.Verifier),
		jobs:           jobsQ,
		deliveries:     deliveriesQ,
		workflow:       workflow.NewLocal(machines, steps, append(wfOpts, workflow.WithFailureHandler(onFailure), workflow.WithTaskTokens(tokens))...),
		observer:       o.Observer,
		dispatcher:     svc.Webhooks.NewDispatcher(webhooks.DispatcherOptions{Interval: o.DispatchInterval}),
		schedulerEvery: o.SchedulerEvery,
		schedules:      o.Schedules,
		grace:          grace,
	}, nil
}

// LambdaInvokeWaitForToken is the resource of Tasks that invoke a step
// function and wait for its task token (the publish workflow's approval).
const LambdaInvokeWaitForToken = "arn:aws:states:::lambda:invoke.waitForTaskToken"

// lambdaInvoke runs the step Parameters.FunctionName names with
// Parameters.Payload, as Step Functions' Lambda integration does.
func lambdaInvoke(steps workflow.Handlers) workflow.Handler {
	return func(ctx context.Context, input json.RawMessage) (json.RawMessage, error) {
		var p struct {
			FunctionName string          `json:"FunctionName"`
			Payload      json.RawMessage `json:"Payload"`
		}
		if err := json.Unmarshal(input, &p); err != nil {
			return nil, fmt.Errorf("app: lambda:invoke parameters: %w", err)
		}
		return steps.Invoke(ctx, p.FunctionName, p.Payload)
	}
}

// Run serves the queues, the workflows, the outbox and the scheduler until
// ctx ends, then stops gracefully.
//
// At start it recovers what a previous process left: the workflows and
// queues live in memory, so every job that was queued or running when the
// process stopped (SIGTERM, kill -9, a crash) is started again from the
// beginning — its steps are idempotent by their markers, so an answer
// already recorded is not asked or charged again — unless it is past its
// deadline, when it is settled from what it recorded.
//
// When ctx ends it stops taking work (no new job, state, retry or
// delivery) and lets the steps and deliveries already running finish
// within the grace period, then cuts off the rest; the jobs cut off are
// started again by the next Run.
func (l *Local) Run(ctx context.Context) error {
	log := l.Services.Logger
	rep, err := l.Services.Sweeper.Sweep(ctx, true)
	if err != nil {
		return fmt.Errorf("app: recover unfinished jobs: %w", err)
	}
	if rep.Unfinished > 0 {
		log.Info("recovered unfinished jobs", "restarted", rep.Redriven, "settled_past_deadline", rep.Reaped,
			"skipped", rep.Skipped, "failed", rep.Failed)
	}
	// Handlers keep this context through the grace period: it ends only
	// when the grace has run out.
	hard, cutOff := context.WithCancel(context.WithoutCancel(ctx))
	defer cutOff()
	dispatch, deliver := runs.Dispatch(l.workflow, l.Services.Logger), queue.Handler(l.Services.Webhooks.Handle)
	if l.observer != nil {
		dispatch, deliver = l.observer.Consumer("worker-dispatch", dispatch), l.observer.Consumer("worker-deliver", deliver)
	}
	jobsDone := make(chan error, 1)
	go func() { jobsDone <- l.jobs.Run(hard, dispatch, localJobWorkers) }()
	deliveriesDone := make(chan error, 1)
	go func() { deliveriesDone <- l.deliveries.Run(hard, deliver, LocalDeliveryWorkers) }()
	schedDone := make(chan struct{})
	go func() { defer close(schedDone); l.schedule(ctx) }()
	derr := l.dispatcher.Run(ctx)

	// Stopping: take nothing new; let what runs finish within the grace.
	start := time.Now()
	l.jobs.Stop()
	l.deliveries.Stop()
	graceCtx, cancel := context.WithTimeout(context.Background(), l.grace)
	defer cancel()
	var jerr, qerr error
	queuesDone := make(chan struct{})
	go func() { jerr, qerr = <-jobsDone, <-deliveriesDone; close(queuesDone) }()
	werr := l.workflow.Shutdown(graceCtx)
	select {
	case <-queuesDone:
	case <-graceCtx.Done():
		cutOff()
		<-queuesDone
	}
	<-schedDone
	if werr != nil {
		log.Warn("stopped: steps still running after the grace period were cut off; their jobs restart at the next start",
			"grace", l.grace.String(), "error", werr.Error())
	} else {
		log.Info("stopped: running steps finished", "took", time.Since(start).Round(time.Millisecond).String())
	}
	_ = l.workflow.Close()
	_ = l.jobs.Close()
	_ = l.deliveries.Close()
	return errors.Join(derr, jerr, qerr)
}

func (l *Local) schedule(ctx context.Context) {
	if l.schedulerEvery <= 0 {
		return
	}
	t := time.NewTicker(l.schedulerEvery)
	defer t.Stop()
	log := l.Services.Logger
	for {
		rep, err := l.Services.RunScheduler(ctx, l.schedules)
		sw := rep.Sweep
		if err != nil && ctx.Err() == nil {
			log.Error("scheduler", "error", err.Error())
		} else if rep.Started+rep.ScheduleReport.Failed+sw.Requeued+sw.Reaped+sw.Failed > 0 {
			log.Info("scheduler", "started", rep.Started, "refused", strconv.Itoa(rep.Refused),
				"start_failed", rep.ScheduleReport.Failed, "requeued", sw.Requeued, "settled_past_deadline", sw.Reaped, "failed", sw.Failed)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// OpenLocal assembles `brandlens serve` from the settings of res: the store
// they name, its key secret, the providers factory builds and the content
// generator modelFactory builds. close
// releases the store once Run has returned.
func OpenLocal(ctx context.Context, res *Resources, factory ProviderFactory, modelFactory ModelFactory, logger *slog.Logger) (l *Local, close func() error, err error) {
	tbl, closeTable, err := res.OpenTable(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer func() {
		if err != nil {
			_ = closeTable()
		}
	}()
	keySecret, err := res.KeySecret(ctx, tbl)
	if err != nil {
		return nil, nil, err
	}
	siteSecret, err := res.SiteContentSecret(ctx)
	if err != nil {
		return nil, nil, err
	}
	provs, err := res.Providers(ctx, factory, logger)
	if err != nil {
		return nil, nil, err
	}
	timeouts, err := providers.Timeouts(res.getenv)
	if err != nil {
		return nil, nil, err
	}
	gen, err := res.Models(ctx, modelFactory)
	if err != nil {
		return nil, nil, err
	}
	adj, err := res.Adjudicator(ctx, modelFactory)
	if err != nil {
		return nil, nil, err
	}
	bco, page, err := res.localBrandCheck(keySecret)
	if err != nil {
		return nil, nil, err
	}
	sealer, err := res.Secrets()
	if err != nil {
		return nil, nil, err
	}
	cfg := res.Config()
	l, err = NewLocal(LocalOptions{Table: tbl, KeySecret: keySecret, SiteContentSecret: siteSecret, Providers: provs, Generator: gen,
		Adjudicator: adj, Logger: logger, SchedulerEvery: cfg.SchedulerInterval, Schedules: cfg.Schedules, ShutdownGrace: cfg.ShutdownGrace,
		Timeouts: timeouts, Guard: res.Guard(), RetryScale: cfg.RetryScale, BrandCheck: bco, Page: page, Secrets: sealer,
		SiteBaseURL: cfg.SiteBaseURL, IndexNowEndpoint: cfg.IndexNowEndpoint})
	if err != nil {
		return nil, nil, err
	}
	// Secrets stored in plain text by an older version are sealed now.
	if n, err := l.Services.ResealSecrets(ctx); err != nil {
		return nil, nil, err
	} else if n > 0 {
		l.Services.Logger.Info("sealed webhook secrets stored in plain text or under an older key", "count", n)
	}
	return l, closeTable, nil
}
