package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/brandcheck"
	"github.com/brandlens/brandlens/shared/content"
	"github.com/brandlens/brandlens/shared/costmodel"
	"github.com/brandlens/brandlens/shared/gaps"
	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/meter"
	"github.com/brandlens/brandlens/shared/models"
	"github.com/brandlens/brandlens/shared/opportunities"
	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/providers/live"
	"github.com/brandlens/brandlens/shared/ratelimit"
	"github.com/brandlens/brandlens/shared/recaptcha"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/seed"
	"github.com/brandlens/brandlens/shared/ssrf"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/workflow"
	"github.com/brandlens/brandlens/statemachines"
)

// What a local run cannot measure: how long a function waits for an AI
// platform or model (the offline providers answer at once), and how long
// an execution would run as an Express workflow. From README "Speed and
// cost": web-search answers take 10–60 s; a brief writes about 1,500
// tokens and an article about 4,000, at 50–100 tokens per second.
var (
	platformAnswer = 20 * time.Second
	briefAnswer    = 30 * time.Second
	articleAnswer  = 60 * time.Second
)

const costKey = "local-key-cost-model-00001"

// costRun is the whole service in one process over a counted in-memory
// table, as Lambda would run it: the API as the Lambda handler builds it
// (the rate limit in the table), the rest as `brandlens serve` runs it.
type costRun struct {
	m     *costmodel.Meter
	inner *embedded.Table
	local *app.Local
	api   http.Handler
	log   *slog.Logger
	tid   int32
	brand int32
	provs providers.Set
}

func cost(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("cost", flag.ContinueOnError)
	fs.SetOutput(stdout)
	nRuns := fs.Int("runs", 40, "query runs of 5 platforms")
	nReads := fs.Int("reads", 999, "API reads (GET /me, a citations page, a job, in turn)")
	nChecks := fs.Int("checks", 10, "brand checks")
	nPublishes := fs.Int("publishes", 5, "publishes of the article")
	platformMB := fs.Int("platform-step-mb", 0, "memory of step-run-platforms to price (0: as template.yaml)")
	items := fs.Bool("items", false, "print the DynamoDB work by kind of item for every scenario (always for query runs)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r, err := newCostRun(ctx, *nRuns)
	if err != nil {
		return err
	}
	mem := map[string]int{}
	for _, f := range app.Functions() {
		if f.MemorySize > 0 {
			mem[f.Name] = f.MemorySize
		}
	}
	if *platformMB > 0 {
		mem[runs.StepRunPlatforms] = *platformMB
	}
	a := costmodel.Assumptions{MemoryMB: mem,
		// One RunPlatforms invocation per run asks its platforms at once
		// and waits for the slowest answer: one wait per invocation.
		Wait: map[string]time.Duration{runs.StepRunPlatforms: platformAnswer, "brand-check": brandcheck.DefaultBudget,
			content.StepGenerateBrief: briefAnswer, content.StepGenerateArticle: articleAnswer},
		ExpressDuration: map[string]time.Duration{"query-execution": platformAnswer + time.Second,
			meter.MachineGapDetection: time.Second, meter.MachineContentGeneration: (briefAnswer + articleAnswer) / 2},
	}
	prices := costmodel.USEast1()
	fmt.Fprintf(stdout, "brandlens cost model — AWS list prices of %s (read %s), on-demand, no free tier\n", costmodel.Region, costmodel.PricesTaken)
	fmt.Fprintf(stdout, "assumed waits: a platform answer %v, a brief %v, an article %v; brand check budget %v\n\n",
		platformAnswer, briefAnswer, articleAnswer, brandcheck.DefaultBudget)

	type scenario struct {
		title string
		per   float64
		run   func() (float64, error)
		// only, when set, keeps the part of the usage that is the feature's.
		only func(costmodel.Usage) costmodel.Usage
	}
	var deliveries *atomic.Int64
	scenarios := []scenario{
		{title: "per 1,000 platform runs (query runs of 5 platforms × 1 sample; no webhook subscription)", per: 1000,
			run: func() (float64, error) { return r.queryRuns(ctx, *nRuns) }},
		{title: "per 1,000 webhook deliveries (the same runs again, with a subscription to every event)", per: 1000,
			only: func(u costmodel.Usage) costmodel.Usage {
				return u.Only([]string{"WHDELIVERY", "WEBHOOK", "GSI1 WHDELIVERY"}, []string{"worker-fanout", "worker-deliver"},
					[]string{"deliveries"})
			},
			run: func() (float64, error) {
				var err error
				if deliveries, err = r.subscribe(ctx); err != nil {
					return 0, err
				}
				if _, err := r.queryRuns(ctx, *nRuns); err != nil {
					return 0, err
				}
				if err := r.quiesce(ctx); err != nil {
					return 0, err
				}
				return float64(deliveries.Load()), nil
			}},
		{title: "per 1,000 API reads (GET /me, a filtered citations page, a job)", per: 1000,
			run: func() (float64, error) { return r.reads(ctx, *nReads) }},
		{title: "per gap detection", per: 1, run: func() (float64, error) { return r.gapDetections(ctx, 5) }},
		{title: "per brief", per: 1, run: func() (float64, error) { return r.content(ctx, jobs.TypeBriefGeneration) }},
		{title: "per article", per: 1, run: func() (float64, error) { return r.content(ctx, jobs.TypeContentGeneration) }},
		{title: "per publish (an article to a signed webhook destination, executed by a human key)", per: 1,
			run: func() (float64, error) { return r.publishes(ctx, *nPublishes) }},
		{title: "per brand check (uncached, 5 platforms × 3 questions)", per: 1,
			run: func() (float64, error) { return r.brandChecks(ctx, *nChecks) }},
	}
	for i, s := range scenarios {
		before := r.m.Snapshot()
		n, err := s.run()
		if err == nil {
			// Its events delivered too (a webhook subscription is on).
			err = r.quiesce(ctx)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", s.title, err)
		}
		// The local dispatcher polls the pending outbox's 17 partitions
		// (every shard and the legacy key) every 20 ms; in AWS the table's
		// stream hands worker-fanout each event instead, and only the sweep
		// reads the index (every 5 minutes).
		u := r.m.Snapshot().Sub(before).Without("GSI1 OUTBOX")
		if s.only != nil {
			u = s.only(u)
		}
		printBill(stdout, s.title, prices.Bill(u, a).Scale(s.per, n))
		if i <= 1 || *items {
			printItems(stdout, u, n)
		}
	}
	fmt.Fprintln(stdout)
	printAIFees(stdout)
	return nil
}

func printBill(w io.Writer, title string, b costmodel.Bill) {
	fmt.Fprintf(w, "%s: $%.6f\n", title, b.Total())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, l := range b.Lines {
		fmt.Fprintf(tw, "  %s\t$%.6f\t%s %s\n", l.Service, l.USD, qty(l.Qty), l.Unit)
	}
	for wf, usd := range b.Express {
		fmt.Fprintf(tw, "  (%s as Express instead of Standard)\t$%.6f\t\n", wf, usd)
	}
	tw.Flush()
	fmt.Fprintln(w)
}

// printItems prints the DynamoDB work per unit of a scenario (n units), by
// kind of item, most write units first.
func printItems(w io.Writer, u costmodel.Usage, n float64) {
	fmt.Fprintf(w, "  DynamoDB per unit: %.1f round trips (%.1f transactions), %.1f items written, %.1f read\n",
		float64(u.Calls)/n, float64(u.Transactions)/n, float64(u.Writes)/n, float64(u.Reads)/n)
	kinds := slices.SortedFunc(maps.Keys(u.Items), func(a, b string) int {
		return cmp.Compare(u.Items[b].WRU+u.Items[b].RRU/5, u.Items[a].WRU+u.Items[a].RRU/5)
	})
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, k := range kinds {
		i := u.Items[k]
		if i.Reads+i.Writes == 0 {
			continue
		}
		fmt.Fprintf(tw, "    %s\t%.2f writes\t%.1f WRU\t%.2f reads\t%.1f RRU\n", k, float64(i.Writes)/n, i.WRU/n, float64(i.Reads)/n, i.RRU/n)
	}
	tw.Flush()
	fmt.Fprintln(w)
}

// qty renders a quantity readably: whole above 100, else 3 digits.
func qty(q float64) string {
	if q >= 100 {
		return fmt.Sprintf("%.0f", q)
	}
	return strconv.FormatFloat(q, 'g', 3, 64)
}

// newCostRun seeds a tenant with nQueries monitoring queries on the five
// platforms (a run per query: runs of one query settle one after the
// other in production, and racing settles of one query would retry).
func newCostRun(ctx context.Context, nQueries int) (*costRun, error) {
	m := costmodel.NewMeter()
	inner := embedded.NewMemory()
	tbl := m.Table(inner, nil)
	log := slog.New(slog.DiscardHandler)
	provs, err := providers.FromEnv(func(string) string { return "" }, http.DefaultClient)
	if err != nil {
		return nil, err
	}
	secret := []byte("cost-model-key-secret-0123456789abcdef")
	local, err := app.NewLocal(app.LocalOptions{Table: tbl, KeySecret: secret, Providers: provs, Logger: log,
		Guard: ssrf.Guard{AllowLoopback: true}, RetryScale: 0.01, DispatchInterval: 20 * time.Millisecond, Observer: m,
		BrandCheck: app.BrandCheckOptions{Verifier: recaptcha.Bypass{}}})
	if err != nil {
		return nil, err
	}
	repos := local.Services.Repos
	qs := make([]seed.Query, nQueries)
	for i := range qs {
		qs[i] = seed.Query{Text: fmt.Sprintf("best note taking app %d", i+1), Platforms: platforms.All}
	}
	res, err := seed.Apply(ctx, repos, seed.File{Tenants: []seed.Tenant{{Name: "Cost Model", Credits: 1_000_000,
		DailyCreditCeiling: 1_000_000, RPMLimit: 1 << 30,
		Brand:       &seed.Brand{Name: "Acme Notes", Aliases: []string{"AcmeNotes"}, Domains: []string{"acmenotes.com"}},
		Competitors: []seed.Brand{{Name: "Notion"}, {Name: "Evernote"}},
		Queries:     qs,
		APIKeys:     []seed.APIKey{{Key: costKey, Scopes: []string{"publish"}}}}}})
	if err != nil {
		return nil, err
	}
	if err := app.Migrate(ctx, repos, nil); err != nil {
		return nil, err
	}
	brands, err := repos.Tenants.Brands(ctx, res.Tenants[0].ID)
	if err != nil || len(brands) == 0 {
		return nil, fmt.Errorf("cost: the brand: %v", err)
	}
	deps := local.Services.HTTPDeps(nil)
	deps.Limiter = ratelimit.NewTable(tbl, nil) // as in Lambda
	r := &costRun{m: m, inner: inner, local: local, api: httpapi.New(deps), log: log, tid: res.Tenants[0].ID, brand: brands[0].ID,
		provs: provs}
	go func() { _ = local.Run(ctx) }()
	return r, nil
}

// subscribe creates a webhook subscription to every event on a local
// receiver, and returns the count of deliveries it received.
func (r *costRun) subscribe(ctx context.Context) (*atomic.Int64, error) {
	var got atomic.Int64
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		got.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	go func() { <-ctx.Done(); recv.Close() }()
	if code, body := r.call("api-post-webhook", "POST", "/api/v1/webhooks", `{"url":"`+recv.URL+`/hook"}`); code != 201 {
		return nil, fmt.Errorf("cost: create the webhook: %d %s", code, body)
	}
	return &got, nil
}

// call sends one request through the API as API Gateway would to
// function, counting it.
func (r *costRun) call(function, method, path, body string) (int, string) {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("X-API-Key", costKey)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if method != http.MethodGet {
		req.Header.Set(httpapi.HeaderIdempotencyKey, fmt.Sprintf("cost-%d", time.Now().UnixNano()))
	}
	rec := httptest.NewRecorder()
	start := time.Now()
	r.api.ServeHTTP(rec, req)
	r.m.APIRequest(function, time.Since(start))
	return rec.Code, rec.Body.String()
}

// queryRuns runs n query runs of the seeded query over its 5 platforms and
// waits until they are settled and their events delivered; it returns the
// platform runs done.
func (r *costRun) queryRuns(ctx context.Context, n int) (float64, error) {
	var ids []string
	for i := range n {
		code, body := r.call("api-post-query-run", "POST", fmt.Sprintf("/api/v1/queries/%d/run", i+1), `{"samples":1}`)
		var acc struct{ JobID string }
		if err := json.Unmarshal([]byte(body), &acc); code != 202 || err != nil {
			return 0, fmt.Errorf("run: %d %s", code, body)
		}
		ids = append(ids, acc.JobID)
		r.m.Execution("query-execution")
	}
	repos := r.local.Services.Repos
	done := 0
	for _, id := range ids {
		if err := waitFor(ctx, func() (bool, error) {
			j, err := repos.Jobs.Get(ctx, r.tid, id)
			return err == nil && jobs.Terminal(j.Status), err
		}); err != nil {
			return 0, err
		}
		j, _ := repos.Jobs.Get(ctx, r.tid, id)
		done += len(j.Platforms)
	}
	return float64(done), r.quiesce(ctx)
}

// quiesce waits until no event waits for fan-out and no delivery is due.
func (r *costRun) quiesce(ctx context.Context) error {
	return waitFor(ctx, func() (bool, error) {
		for _, base := range []string{outbox.PendingPK, "WHDELIVERY#due"} {
			items, err := store.FirstShards(ctx, r.inner, base, store.Query{Index: store.IndexGSI1}, 1)
			if err != nil || len(items) > 0 {
				return false, err
			}
		}
		return true, nil
	})
}

func waitFor(ctx context.Context, done func() (bool, error)) error {
	deadline := time.Now().Add(5 * time.Minute)
	for {
		ok, err := done()
		if err != nil || ok {
			return err
		}
		if time.Now().After(deadline) {
			return errors.New("cost: the local run did not settle within 5 minutes")
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func (r *costRun) reads(ctx context.Context, n int) (float64, error) {
	js, _, err := r.local.Services.Jobs.Page(ctx, r.tid, "", 1, "")
	if err != nil || len(js) == 0 {
		return 0, fmt.Errorf("no job to read: %v", err)
	}
	calls := []struct{ fn, path string }{
		{"api-get-me", "/api/v1/me"},
		{"api-list-citations", "/api/v1/citations?platform=chatgpt&hasMention=true&pageSize=20"},
		{"api-get-job", "/api/v1/jobs/" + js[0].ID},
	}
	for i := range n {
		c := calls[i%len(calls)]
		if code, body := r.call(c.fn, "GET", c.path, ""); code != 200 {
			return 0, fmt.Errorf("GET %s: %d %s", c.path, code, body)
		}
	}
	return float64(n), nil
}

// jobRunner runs metered jobs (gap detection, briefs, articles) as AWS
// would: the API's write, a jobs message, the dispatcher, the workflow.
type jobRunner struct {
	r     *costRun
	meter *meter.Service
	wf    *workflow.Local
}

func (r *costRun) jobRunner(handlers workflow.Handlers) (*jobRunner, error) {
	repos := r.local.Services.Repos
	ms := meter.New(repos.Table, repos.Tenants, repos.Ledger, repos.Jobs, r.m.Sender("jobs", discardSender{}), nil, r.log)
	machines := map[string]*workflow.Machine{}
	for name, def := range map[string][]byte{meter.MachineGapDetection: statemachines.GapDetection,
		meter.MachineContentGeneration: statemachines.ContentGeneration} {
		subst := map[string]string{}
		for k, v := range gaps.Substitutions {
			subst[k] = v
		}
		for k, v := range content.Substitutions {
			subst[k] = v
		}
		mc, err := workflow.Load(def, subst)
		if err != nil {
			return nil, err
		}
		machines[name] = mc
	}
	all := workflow.Handlers{}
	for k, h := range ms.Handlers() {
		all[k] = r.m.Step(k, h)
	}
	for k, h := range handlers {
		all[k] = r.m.Step(k, h)
	}
	return &jobRunner{r: r, meter: ms, wf: workflow.NewLocal(machines, all, workflow.WithTransitions(r.m.Transition),
		workflow.WithRetryScale(0.001))}, nil
}

// run creates the job as its API route would (function), dispatches it and
// waits for its workflow.
func (jr *jobRunner) run(ctx context.Context, function string, req meter.Request) (jobs.Job, error) {
	start := time.Now()
	a, err := jr.meter.Create(ctx, req)
	jr.r.m.APIRequest(function, time.Since(start))
	if err != nil {
		return jobs.Job{}, err
	}
	machine, _ := meter.Machine(a.Job.Type)
	in, err := json.Marshal(meter.Message{JobID: a.Job.ID, TenantID: a.Job.TenantID, Type: a.Job.Type})
	if err != nil {
		return jobs.Job{}, err
	}
	start = time.Now()
	err = jr.wf.Start(ctx, machine, a.Job.ID, in)
	jr.r.m.Invocation("worker-dispatch", time.Since(start))
	if err != nil {
		return jobs.Job{}, err
	}
	jr.r.m.Execution(machine)
	if _, err := jr.wf.Wait(ctx, machine, a.Job.ID); err != nil {
		return jobs.Job{}, err
	}
	return jr.r.local.Services.Jobs.Get(ctx, jr.r.tid, a.Job.ID)
}

var costActor = audit.Actor{KeyID: "key_cost", Kind: audit.KindHuman}

func (r *costRun) gapDetections(ctx context.Context, n int) (float64, error) {
	repos := r.local.Services.Repos
	det := gaps.NewDetector(repos.Table, repos.Tenants, repos.Queries, repos.Competitors, gaps.Defaults, nil)
	jr, err := r.jobRunner(det.Handlers())
	if err != nil {
		return 0, err
	}
	defer jr.wf.Close()
	for range n {
		j, err := jr.run(ctx, "api-post-gaps-detect", det.Request(r.tid, r.brand, costActor))
		if err != nil || j.Status != jobs.StatusSucceeded {
			return 0, fmt.Errorf("gap detection: %s %v", j.Status, err)
		}
	}
	return float64(n), nil
}

// content generates one brief (typ brief_generation) or one article of the
// first open opportunity gap detection made.
func (r *costRun) content(ctx context.Context, typ string) (float64, error) {
	repos := r.local.Services.Repos
	svc := content.NewService(repos.Table, repos.Tenants, repos.Competitors, models.Generator(content.NewOffline()), gaps.Defaults, nil)
	jr, err := r.jobRunner(svc.Handlers())
	if err != nil {
		return 0, err
	}
	defer jr.wf.Close()
	status, fn := opportunities.StatusOpen, "api-post-opportunity-brief"
	if typ == jobs.TypeContentGeneration {
		status, fn = opportunities.StatusBriefReady, "api-post-opportunity-content"
	}
	opps, _, err := opportunities.NewRepo(r.inner).List(ctx, r.tid, status, 1, "")
	if err != nil || len(opps) == 0 {
		return 0, fmt.Errorf("no %s opportunity (gap detection found no gap): %v", status, err)
	}
	req, err := svc.BriefRequest(r.tid, opps[0].ID, "", costActor)
	if typ == jobs.TypeContentGeneration {
		req, err = svc.ArticleRequest(r.tid, opps[0].ID, nil, costActor)
	}
	if err != nil {
		return 0, err
	}
	if j, err := jr.run(ctx, fn, req); err != nil || j.Status != jobs.StatusSucceeded {
		return 0, fmt.Errorf("%s: %s %v %v", typ, j.Status, j.Error, err)
	}
	return 1, nil
}

// publishes publishes the article the content scenario wrote n times to
// a signed webhook destination on a local receiver, through the API and
// the local runtime's publish workflow (approval answered at once for a
// human key's execute, deliver, settle), and waits for each job.
func (r *costRun) publishes(ctx context.Context, n int) (float64, error) {
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusCreated)
	}))
	defer recv.Close()
	code, body := r.call("api-post-destination", "POST", "/api/v1/destinations",
		`{"type":"webhook","name":"Cost blog","url":"`+recv.URL+`/publish","secret":"cost-model-destination-secret"}`)
	var dst struct{ ID string }
	if err := json.Unmarshal([]byte(body), &dst); code != 201 || err != nil {
		return 0, fmt.Errorf("create the destination: %d %s", code, body)
	}
	opps, _, err := opportunities.NewRepo(r.inner).List(ctx, r.tid, opportunities.StatusContentReady, 1, "")
	if err != nil || len(opps) == 0 {
		return 0, fmt.Errorf("no content_ready opportunity to publish: %v", err)
	}
	for range n {
		code, body := r.call("api-post-opportunity-publish", "POST", "/api/v1/opportunities/"+opps[0].ID+"/publish",
			`{"destinationId":"`+dst.ID+`","mode":"execute"}`)
		var acc struct{ JobID string }
		if err := json.Unmarshal([]byte(body), &acc); code != 202 || err != nil {
			return 0, fmt.Errorf("publish: %d %s", code, body)
		}
		r.m.Execution(meter.MachinePublish)
		var j jobs.Job
		if err := waitFor(ctx, func() (bool, error) {
			j, err = r.local.Services.Jobs.Get(ctx, r.tid, acc.JobID)
			return err == nil && jobs.Terminal(j.Status), err
		}); err != nil {
			return 0, err
		}
		if j.Status != jobs.StatusSucceeded {
			return 0, fmt.Errorf("publish job %s: %s %v", j.ID, j.Status, j.Error)
		}
	}
	return float64(n), nil
}

func (r *costRun) brandChecks(ctx context.Context, n int) (float64, error) {
	repos := r.local.Services.Repos
	svc, err := brandcheck.New(brandcheck.Deps{Table: repos.Table, Providers: r.provs,
		Verifier: recaptcha.Bypass{}, Auditor: brandcheck.NewAuditTrail(audit.NewLog(repos.Table)), Logger: r.log, Now: time.Now},
		brandcheck.Config{ClientKey: []byte("cost-model-client-key-0123456789abcdef"), ClientDailyLimit: n + 1, DailyBudget: n + 1})
	if err != nil {
		return 0, err
	}
	token := recaptcha.BypassToken
	for i := range n {
		brand, site := fmt.Sprintf("Brand %d", i), fmt.Sprintf("https://brand%d.example.com", i)
		start := time.Now()
		_, err := svc.Check(ctx, brandcheck.Input{BrandName: &brand, WebsiteURL: &site, RecaptchaToken: &token},
			brandcheck.Caller{Addr: netip.MustParseAddr("203.0.113.7"), RequestID: fmt.Sprintf("req_cost_%d", i)})
		r.m.APIRequest("brand-check", time.Since(start))
		r.m.CloudFrontRequest()
		if err != nil {
			return 0, err
		}
	}
	return float64(n), nil
}

// printAIFees prints the AI platforms' and models' fees per answer, apart
// from AWS's: from the list prices of shared/providers/live and
// shared/models at assumed usage (a web-search answer reads about 3,000
// tokens of results and writes about 800).
func printAIFees(w io.Writer) {
	book := live.NewPriceBook(nil)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(w, "AI fees, apart from the AWS bill above (list prices of %s; assumed 3,000 input and 800 output tokens and one search per answer):\n", live.PriceTableDate)
	total := 0.0
	for _, pf := range platforms.All {
		model := map[string]string{platforms.ChatGPT: live.DefaultChatGPTModel, platforms.Gemini: live.DefaultGeminiModel,
			platforms.Claude: live.DefaultClaudeModel}[pf]
		var usd float64
		var note string
		switch pf {
		case platforms.Perplexity:
			usd, note = 0.006, "reported by the API; typical sonar answer"
		case platforms.GoogleAIOverview:
			usd, note = 2*0.015, "two SerpApi requests (search, then the Overview)"
		default:
			var ans providers.Answer
			book.Apply(&ans, live.Usage{Platform: pf, Model: model, InputTokens: 3000, OutputTokens: 800, Searches: 1})
			usd, note = ans.CostUSD, model
		}
		total += usd
		fmt.Fprintf(tw, "  %s\t$%.4f per answer\t%s\n", pf, usd, note)
	}
	tw.Flush()
	fmt.Fprintf(w, "  per 1,000 platform runs, the five in equal parts: $%.2f\n", total/5*1000)
}

type discardSender struct{}

func (discardSender) Send(context.Context, []byte, time.Duration) error { return nil }
