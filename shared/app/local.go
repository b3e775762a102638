package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/brandlens/brandlens/shared/brandcheck"
	"github.com/brandlens/brandlens/shared/brandpage"
	"github.com/brandlens/brandlens/shared/content"
	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/models"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/queue"
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
	// Logger (nil: slog.Default()); Now is the clock (nil: time.Now).
	Logger *slog.Logger
	Now    func() time.Time
	// SchedulerEvery is the scheduler's period (0: no scheduler).
	SchedulerEvery time.Duration
	// Guard and RetryScale configure webhook deliveries (RetryScale 0: 1).
	Guard      ssrf.Guard
	RetryScale float64
	// Secrets seals tenants' secrets (nil: an in-memory keyring, whose
	// secrets do not outlive the process — tests).
	Secrets *secrets.Sealer
	// DispatchInterval is how often the outbox is polled (0: the
	// dispatcher's default).
	DispatchInterval time.Duration
	// BrandCheck configures the anonymous brand check; its Verifier is
	// required, its Secret defaults to KeySecret (a derived key is used).
	BrandCheck BrandCheckOptions
	// Page configures the brand check page (site key, version, call to
	// action); the bypass, the platforms and the time budget follow
	// BrandCheck.
	Page brandpage.Config
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
	jobsQ := queue.NewLocal(queue.LocalOptions{Logger: o.Logger})
	deliveriesQ := queue.NewLocal(queue.LocalOptions{Logger: o.Logger})
	if o.Secrets == nil {
		o.Secrets = secrets.NewSealer(secrets.NewMemoryKeyring())
	}
	svc, err := NewServices(repos, Deps{Logger: o.Logger, Jobs: jobsQ, Deliveries: deliveriesQ, Providers: o.Providers,
		Guard: o.Guard, RetryScale: o.RetryScale, Generator: o.Generator, Secrets: o.Secrets})
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
		workflow:       workflow.NewLocal(machines, steps, workflow.WithLogger(o.Logger)),
		dispatcher:     svc.Webhooks.NewDispatcher(webhooks.DispatcherOptions{Interval: o.DispatchInterval}),
		schedulerEvery: o.SchedulerEvery,
	}, nil
}

// Run serves the queues, the workflows, the outbox and the scheduler until
// ctx ends.
func (l *Local) Run(ctx context.Context) error {
	jobsDone := make(chan error, 1)
	go func() { jobsDone <- l.jobs.Run(ctx, runs.Dispatch(l.workflow, l.Services.Logger), localJobWorkers) }()
	deliveriesDone := make(chan error, 1)
	go func() { deliveriesDone <- l.deliveries.Run(ctx, l.Services.Webhooks.Handle, LocalDeliveryWorkers) }()
	if l.schedulerEvery > 0 {
		go l.schedule(ctx)
	}
	derr := l.dispatcher.Run(ctx)
	jerr, qerr := <-jobsDone, <-deliveriesDone
	_ = l.workflow.Close()
	_ = l.jobs.Close()
	_ = l.deliveries.Close()
	return errors.Join(derr, jerr, qerr)
}

func (l *Local) schedule(ctx context.Context) {
	t := time.NewTicker(l.schedulerEvery)
	defer t.Stop()
	log := l.Services.Logger
	for {
		rep, err := l.Services.Runs.RunSchedules(ctx)
		if err != nil && ctx.Err() == nil {
			log.Error("scheduler", "error", err.Error())
		} else if rep.Started+rep.Requeued > 0 {
			log.Info("scheduler", "started", rep.Started, "requeued", rep.Requeued, "refused", strconv.Itoa(rep.Refused))
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
	gen, err := res.Models(ctx, modelFactory)
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
		Logger: logger, SchedulerEvery: cfg.SchedulerInterval, Guard: res.Guard(), RetryScale: cfg.RetryScale,
		BrandCheck: bco, Page: page, Secrets: sealer})
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
