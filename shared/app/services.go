// Package app assembles brandlens: it builds every service with all of its
// dependencies, once, for both runtimes — the Lambda functions of
// template.yaml (one per route, worker and workflow step, served by three
// build artifacts) and `brandlens serve` (everything in one process, with
// in-process queues and workflow runner). It is also the Lambda edge: the
// adapters from Lambda events (SQS batches, the table's stream, schedules,
// Step Functions tasks, API Gateway through httpapi) to the services. And it
// holds the table of functions from which `go generate` writes
// template.yaml.
//
// Package config reads the settings; this package opens what they name.
package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/brandlens/brandlens/shared/approvals"
	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/auth"
	"github.com/brandlens/brandlens/shared/citations"
	"github.com/brandlens/brandlens/shared/competitors"
	"github.com/brandlens/brandlens/shared/content"
	"github.com/brandlens/brandlens/shared/credits"
	"github.com/brandlens/brandlens/shared/destinations"
	"github.com/brandlens/brandlens/shared/gaps"
	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/idempotency"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/livepages"
	"github.com/brandlens/brandlens/shared/meter"
	"github.com/brandlens/brandlens/shared/models"
	"github.com/brandlens/brandlens/shared/opportunities"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/publish"
	"github.com/brandlens/brandlens/shared/queries"
	"github.com/brandlens/brandlens/shared/queue"
	"github.com/brandlens/brandlens/shared/ratelimit"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/secrets"
	"github.com/brandlens/brandlens/shared/sitecontent"
	"github.com/brandlens/brandlens/shared/ssrf"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/webhooks"
	"github.com/brandlens/brandlens/shared/workflow"
)

// ProviderFactory builds the AI platform providers from the environment:
// providers.FromEnv (simulated and replay), or live.FromEnv (package
// providers/live) in the binaries that call the platforms — only their
// mains import it, so that no other binary links the vendors' SDKs.
type ProviderFactory func(getenv func(string) string, client *http.Client) (providers.Set, error)

// NewLogger returns the structured JSON logger every service logs to.
func NewLogger(w io.Writer, level slog.Level) *slog.Logger {
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level}))
}

// Repos are the stores of every entity over one table.
type Repos struct {
	Table store.Table
	// Stores are the handlers' stores (the same for every function). Their
	// Limiter counts requests per key in the table (every Lambda function
	// counts in one place); NewLocal swaps in the in-process one.
	httpapi.Stores
	Now func() time.Time
}

// NewRepos returns the stores over tbl. keySecret (nil: no Keys) is the
// HMAC secret API keys are stored under; now is the clock (nil: time.Now).
func NewRepos(tbl store.Table, keySecret []byte, now func() time.Time) (*Repos, error) {
	if tbl == nil {
		return nil, errors.New("app: NewRepos needs a table")
	}
	if now == nil {
		now = time.Now
	}
	var keys *auth.Keys
	if keySecret != nil {
		h, err := auth.NewHasher(keySecret)
		if err != nil {
			return nil, err
		}
		keys = auth.NewKeys(tbl, h, now)
	}
	return &Repos{Table: tbl, Now: now, Stores: httpapi.Stores{
		Keys:        keys,
		Tenants:     tenants.NewRepo(tbl, now),
		Queries:     queries.NewRepo(tbl, now),
		Competitors: competitors.NewRepo(tbl, now),
		Citations:   citations.NewRepo(tbl, now),
		Jobs:        jobs.NewRepo(tbl),
		Ledger:      credits.NewLedger(tbl, now),
		Limiter:     ratelimit.NewTable(tbl, now),
		Idempotency: idempotency.NewRecords(tbl, now),
	}}, nil
}

// Services are the repos and the services that work over them.
type Services struct {
	*Repos
	Runs     *runs.Service
	Webhooks *webhooks.Service
	// Sweeper finds the jobs nothing will finish (lost start messages,
	// past their deadline, in flight when a local runtime stopped).
	Sweeper *jobs.Sweeper
	// Meter creates the metered jobs other than query runs and runs their
	// generic steps (start, settle).
	Meter         *meter.Service
	Detector      *gaps.Detector
	Gaps          *gaps.Repo
	Opportunities *opportunities.Repo
	Audit         *audit.Log
	// ContentJobs builds brief and article job requests; Content writes
	// them, and exists only where a Generator was given (the generation
	// steps and the local runtime).
	ContentJobs *content.Jobs
	Content     *content.Service
	// Destinations, Approvals and Publish: approval-gated publishing.
	Destinations *destinations.Service
	Approvals    *approvals.Service
	Publish      *publish.Service
	// SiteContent is the service's own site (receiver, pages, sitemap);
	// siteBaseURL its public base URL ("": the API's host).
	SiteContent *sitecontent.Service
	siteBaseURL string
	// schedules is the schedules queue (nil: a scheduler pass starts the
	// due runs itself).
	schedules queue.Sender
	Logger    *slog.Logger
}

// Deps are what the services need besides the repos.
type Deps struct {
	// Logger (nil: slog.Default()).
	Logger *slog.Logger
	// Jobs and Deliveries are the jobs and webhook deliveries queues.
	Jobs, Deliveries queue.Sender
	// Schedules, when set, is the queue the scheduler fans the due index's
	// shards out to (AWS: the scheduler function and worker-schedule); nil:
	// a scheduler pass starts the due runs itself (`brandlens serve`).
	Schedules queue.Sender
	// Providers answer per platform; nil in a process that runs no
	// platform step.
	Providers providers.Set
	// Guard decides which webhook destinations may be reached.
	Guard ssrf.Guard
	// RetryScale multiplies the webhook retry waits and the platform step's
	// item retry waits (0: 1).
	RetryScale float64
	// Timeouts are the AI platforms' per-call timeouts
	// (providers.Timeouts; nil: the defaults), which query runs' deadlines
	// derive from.
	Timeouts map[string]time.Duration
	// Generator writes briefs and articles; nil in a process that runs no
	// generation step.
	Generator models.Generator
	// Adjudicator asks a chat model about ambiguous mentions in query runs
	// (Resources.Adjudicator); nil: detection is the rules alone.
	Adjudicator runs.Adjudicator
	// Callbacks answer workflows waiting for an approval (Step Functions,
	// or the local runner's task tokens); nil in a process that answers
	// none (a review there fails to resume its publish, saying so).
	Callbacks workflow.Callbacks
	// Publishing: the own site's base URL and secret, and the IndexNow
	// endpoint (empty: the shared one).
	SiteBaseURL      string
	SiteSecret       []byte
	IndexNowEndpoint string
	// Secrets seals and opens tenants' secrets (webhook signing secrets).
	Secrets *secrets.Sealer
	// Metrics receives the settled jobs' figures (nil: none).
	Metrics runs.Metrics
	// DeliveryClient, when set, replaces the webhook deliveries' guarded
	// client (the Lambda assembly passes the guarded client, traced).
	DeliveryClient *http.Client
}

// NewServices builds every service over r with d.
func NewServices(r *Repos, d Deps) (*Services, error) {
	if r == nil {
		return nil, errors.New("app: NewServices needs the repos")
	}
	if d.Jobs == nil || d.Deliveries == nil {
		return nil, errors.New("app: NewServices needs the jobs and deliveries queues")
	}
	if d.Secrets == nil {
		return nil, errors.New("app: NewServices needs the secrets sealer")
	}
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	rs, err := runs.New(runs.Deps{Table: r.Table, Tenants: r.Tenants, Queries: r.Queries, Ledger: r.Ledger, Jobs: r.Jobs,
		Competitors: r.Competitors, Providers: d.Providers, Sender: d.Jobs, Now: r.Now, Logger: d.Logger, Metrics: d.Metrics,
		Citations: r.Citations, Cited: livepages.NewWatcher(r.Table), Adjudicator: d.Adjudicator,
		Timeouts: d.Timeouts, RetryScale: d.RetryScale})
	if err != nil {
		return nil, fmt.Errorf("app: %w", err)
	}
	wh := webhooks.New(r.Table, webhooks.Options{Sender: d.Deliveries, Guard: d.Guard, Client: d.DeliveryClient,
		RetryScale: d.RetryScale, Now: r.Now, Logger: d.Logger, Secrets: d.Secrets})
	svc := &Services{Repos: r, Runs: rs, Webhooks: wh, Logger: d.Logger,
		Meter:         meter.New(r.Table, r.Tenants, r.Ledger, r.Jobs, d.Jobs, r.Now, d.Logger),
		Detector:      gaps.NewDetector(r.Table, r.Tenants, r.Queries, r.Competitors, gaps.Defaults, r.Now),
		Gaps:          gaps.NewRepo(r.Table, r.Now),
		Opportunities: opportunities.NewRepo(r.Table),
		Audit:         audit.NewLog(r.Table),
		ContentJobs:   content.NewJobs(r.Table),
	}
	svc.Destinations = destinations.NewService(r.Table, d.Guard, destinations.Sealed{Sealer: d.Secrets}, r.Now)
	// An approved subscription change of an L0 agent is applied as it was
	// requested (with its write-only secret, which reviewers never see), in
	// the review's transaction.
	applyChange := func(ctx context.Context, req approvals.Request) (approvals.Applied, error) {
		c, err := wh.PrepareHeld(ctx, req.TenantID, req.ID, req.ApplyData)
		return approvals.Applied(c), err
	}
	svc.Approvals = approvals.NewService(r.Table, d.Callbacks, svc.Meter, map[string]approvals.Applier{
		webhooks.ChangeCreate: applyChange, webhooks.ChangeUpdate: applyChange, webhooks.ChangeDelete: applyChange,
		runs.ActionRun: rs.LastRunOnApproval}, r.Now)
	svc.Publish = publish.NewService(publish.Deps{Table: r.Table, Destinations: svc.Destinations, Approvals: svc.Approvals,
		Meter: svc.Meter, Guard: d.Guard, Trusted: trustedClient(),
		Config: publish.Config{SiteBaseURL: d.SiteBaseURL, SiteContentSecret: d.SiteSecret, IndexNowEndpoint: d.IndexNowEndpoint},
		Now:    r.Now, Logger: d.Logger})
	svc.SiteContent, svc.siteBaseURL = sitecontent.NewService(r.Table, r.Now), d.SiteBaseURL
	svc.schedules = d.Schedules
	if d.Generator != nil {
		svc.Content = content.NewService(r.Table, r.Tenants, r.Competitors, d.Generator, gaps.Defaults, r.Now)
	}
	kinds, err := jobKinds(rs, svc.Meter, d.Timeouts)
	if err != nil {
		return nil, err
	}
	if svc.Sweeper, err = jobs.NewSweeper(r.Jobs, r.Tenants, kinds, d.Jobs, r.Now, d.Logger); err != nil {
		return nil, fmt.Errorf("app: %w", err)
	}
	return svc, nil
}

// JobSteps are the handlers of the metered jobs' workflow steps (gap
// detection, re-scoring, and brief and article generation where the
// services can generate), by step resource.
func (s *Services) JobSteps() workflow.Handlers {
	h := workflow.Handlers{}
	parts := []workflow.Handlers{s.Meter.Handlers(), s.Detector.Handlers(), s.Runs.RescoreHandlers(), s.Publish.Handlers()}
	if s.Content != nil {
		parts = append(parts, s.Content.Handlers())
	}
	for _, p := range parts {
		for k, v := range p {
			h[k] = v
		}
	}
	return h
}

// ResealSecrets seals every tenant's subscription and destination secrets
// that are stored in plain text (from before secrets were sealed) or under
// an older key, and returns how many it sealed.
func (s *Services) ResealSecrets(ctx context.Context) (int, error) {
	return ResealSecrets(ctx, s.Tenants, s.Webhooks, s.Destinations)
}

// ResealSecrets is Services.ResealSecrets for a process without the other
// services (`brandlens admin seal-secrets`).
func ResealSecrets(ctx context.Context, ts *tenants.Repo, wh *webhooks.Service, ds *destinations.Service) (int, error) {
	list, err := ts.List(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, t := range list {
		m, err := wh.ResealSecrets(ctx, t.ID)
		n += m
		if err == nil {
			m, err = ds.ResealSecrets(ctx, t.ID)
			n += m
		}
		if err != nil {
			return n, fmt.Errorf("app: seal the secrets of tenant %d: %w", t.ID, err)
		}
	}
	return n, nil
}

// HTTPDeps are the dependencies of the HTTP handlers; siteContentSecret
// signs the bodies sent to the site-content receiver (nil: it refuses all).
func (s *Services) HTTPDeps(siteContentSecret []byte) httpapi.Deps {
	return httpapi.Deps{
		Stores: s.Stores, Runs: s.Runs, Webhooks: s.Webhooks, Logger: s.Logger, Now: s.Now, SiteContentSecret: siteContentSecret,
		Meter: s.Meter, Detector: s.Detector, Gaps: s.Gaps, Opportunities: s.Opportunities, Audit: s.Audit,
		ContentJobs: s.ContentJobs, Destinations: s.Destinations, Approvals: s.Approvals, Publish: s.Publish,
		SiteContent: s.SiteContent, SiteBaseURL: s.siteBaseURL,
	}
}

// trustedClient reaches the service's own receiver and the IndexNow
// endpoint (operator-configured URLs): it follows no redirects either.
func trustedClient() *http.Client {
	return &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}
