package gaps

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"time"

	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/competitors"
	"github.com/brandlens/brandlens/shared/ctxtime"
	"github.com/brandlens/brandlens/shared/ids"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/meter"
	"github.com/brandlens/brandlens/shared/opportunities"
	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/queries"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/workflow"
)

// StepDetect is the step resource of the gap-detection workflow's work.
const StepDetect = "step-detect-gaps"

// Substitutions fill gap-detection.asl.json for the local runner.
var Substitutions = map[string]string{
	"StepJobStartArn":   meter.StepJobStart,
	"StepDetectGapsArn": StepDetect,
	"StepJobSettleArn":  meter.StepJobSettle,
}

// Handlers route the detection step (meter.Service.Handlers has the rest).
func (d *Detector) Handlers() workflow.Handlers {
	return workflow.Handlers{StepDetect: meter.Handler(d.Step)}
}

// Params are what a gap-detection job is asked.
type Params struct {
	BrandProfileID int32 `json:"brandProfileId"`
}

// Result is what a gap detection reports on its job.
type Result struct {
	BrandProfileID int32          `json:"brandProfileId"`
	Detected       int            `json:"detected"` // new gaps
	Updated        int            `json:"updated"`  // open gaps confirmed again
	Resolved       int            `json:"resolved"` // gaps that no longer hold
	Queries        []QueryOutcome `json:"queries"`
	// Skipped lists the active queries with no answers in their window.
	Skipped []Skipped `json:"skipped"`
}

// Changes of a query's gap in one detection.
const (
	ChangeCreated = "created"
	ChangeUpdated = "updated"
	ChangeNone    = "none" // no gap holds
)

// QueryOutcome is one query's part of a detection.
type QueryOutcome struct {
	QueryID       int32    `json:"queryId"`
	QueryText     string   `json:"queryText"`
	Answers       int      `json:"answers"`
	Tier          *Tier    `json:"tier"` // null when no gap holds
	GapID         string   `json:"gapId,omitempty"`
	OpportunityID string   `json:"opportunityId,omitempty"`
	Change        string   `json:"change"`
	Resolved      []string `json:"resolved"` // ids of gaps of the query that no longer hold
}

// Skipped is a query detection could not judge.
type Skipped struct {
	QueryID   int32  `json:"queryId"`
	QueryText string `json:"queryText"`
	Reason    string `json:"reason"`
}

// Detector runs gap detection.
type Detector struct {
	tbl         store.Table
	tenants     *tenants.Repo
	queries     *queries.Repo
	competitors *competitors.Repo
	gaps        *Repo
	opps        *opportunities.Repo
	rules       Rules
	now         func() time.Time
}

// NewDetector returns the detector.
func NewDetector(tbl store.Table, tenantRepo *tenants.Repo, queryRepo *queries.Repo, compRepo *competitors.Repo, rules Rules, now func() time.Time) *Detector {
	if now == nil {
		now = time.Now
	}
	return &Detector{tbl: tbl, tenants: tenantRepo, queries: queryRepo, competitors: compRepo,
		gaps: NewRepo(tbl, now), opps: opportunities.NewRepo(tbl), rules: rules, now: now}
}

// ErrBrandProfileNotFound: the tenant has no such brand profile.
var ErrBrandProfileNotFound = errors.New("gaps: brand profile not found")

// Request is the metered job request of a gap detection, for the HTTP
// layer to complete with the Idempotency-Key it claimed. Its precheck
// answers ErrBrandProfileNotFound before anything is stored.
func (d *Detector) Request(tenantID, brandProfileID int32, actor audit.Actor) meter.Request {
	id := brandProfileID
	return meter.Request{
		TenantID: tenantID, Type: jobs.TypeGapDetection, Cost: meter.PriceGapDetection,
		Actor: actor, Action: "gaps.detect", Resource: audit.Resource("brand_profile", brandProfileID),
		Params: Params{BrandProfileID: brandProfileID}, BrandProfileID: &id,
		Precheck: func(ctx context.Context) error {
			_, err := d.tenants.Brand(ctx, tenantID, brandProfileID)
			if errors.Is(err, tenants.ErrNotFound) {
				return ErrBrandProfileNotFound
			}
			return err
		},
	}
}

// Step is the workflow step: it reads the job's parameters and runs it.
func (d *Detector) Step(ctx context.Context, in meter.Message) (Result, error) {
	p, actor, err := meter.Params[Params](ctx, d.tbl, in.TenantID, in.JobID)
	if err != nil {
		return Result{}, err
	}
	return d.Run(ctx, in.JobID, in.TenantID, p.BrandProfileID, actor)
}

// Run detects the gaps of every active query of the brand profile. Each
// query's changes (new gaps with their opportunities and events, updates,
// resolutions) commit in one transaction with a per-query marker, so a
// step delivered twice changes nothing twice; the job's result is recorded
// last (meter.DoneOp), which is what Settle charges for. Errors are the
// meter step errors.
func (d *Detector) Run(ctx context.Context, jobID string, tenantID, brandProfileID int32, actor audit.Actor) (Result, error) {
	if prev, ok, err := meter.Done(ctx, d.tbl, tenantID, jobID); err != nil || ok {
		if ok {
			return decodeResult(prev)
		}
		return Result{}, err
	}
	brand, err := d.tenants.Brand(ctx, tenantID, brandProfileID)
	if errors.Is(err, tenants.ErrNotFound) {
		return Result{}, &meter.PermanentError{Message: fmt.Sprintf("brand profile %d does not exist", brandProfileID)}
	}
	if err != nil {
		return Result{}, meter.StoreErr("load brand profile", err)
	}
	comps, err := d.competitors.List(ctx, tenantID)
	if err != nil {
		return Result{}, meter.StoreErr("load competitors", err)
	}
	qs, err := d.queries.List(ctx, tenantID)
	if err != nil {
		return Result{}, meter.StoreErr("load queries", err)
	}
	an := NewAnalyzer(brand, comps)
	res := Result{BrandProfileID: brandProfileID, Queries: []QueryOutcome{}, Skipped: []Skipped{}}
	for _, q := range qs {
		if q.BrandProfileID != brandProfileID || !q.IsActive {
			continue
		}
		out, err := d.detectQuery(ctx, jobID, actor, brand, an, q)
		if err != nil {
			return Result{}, err
		}
		if out.Change == "" {
			res.Skipped = append(res.Skipped, Skipped{QueryID: q.ID, QueryText: q.Text, Reason: "no answers in the window"})
			continue
		}
		res.Queries = append(res.Queries, out)
		switch out.Change {
		case ChangeCreated:
			res.Detected++
		case ChangeUpdated:
			res.Updated++
		}
		res.Resolved += len(out.Resolved)
	}
	done, err := meter.DoneOp(tenantID, jobID, res)
	if err != nil {
		return Result{}, err
	}
	err = d.tbl.TransactWrite(ctx, done)
	if errors.Is(err, store.ErrConditionFailed) {
		prev, _, rerr := meter.Done(ctx, d.tbl, tenantID, jobID)
		if rerr != nil {
			return Result{}, rerr
		}
		return decodeResult(prev)
	}
	if err != nil {
		return Result{}, meter.StoreErr("record detection", err)
	}
	outbox.Notify()
	return res, nil
}

func decodeResult(raw []byte) (Result, error) {
	r, err := store.Doc[Result](store.Item{store.AttrDoc: string(raw)})
	if err != nil {
		return Result{}, &meter.PermanentError{Message: err.Error()}
	}
	return r, nil
}

func stepKey(tenantID int32, jobID string, queryID int32) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: "JOBSTEP#" + jobID + "#" + ids.Pad(queryID)}
}

// maxQueryAttempts bounds the retries of a query whose gaps another writer
// changed between read and write (each conflict lets one writer through,
// so it is above the concurrent detections a tenant is expected to run).
const maxQueryAttempts = 10

// detectQuery judges one query and commits what changed. An outcome with
// an empty Change means the query had no answers (nothing is written).
func (d *Detector) detectQuery(ctx context.Context, jobID string, actor audit.Actor, brand tenants.Brand, an *Analyzer, q queries.Query) (QueryOutcome, error) {
	mk := stepKey(q.TenantID, jobID, q.ID)
	if it, err := d.tbl.Get(ctx, mk); err == nil {
		return store.Doc[QueryOutcome](it)
	} else if !errors.Is(err, store.ErrNotFound) {
		return QueryOutcome{}, meter.StoreErr("read detection marker", err)
	}
	now := d.now().UTC()
	vrs, err := d.rules.ReadWindow(ctx, d.tbl, q.TenantID, q.ID, now)
	if err != nil {
		return QueryOutcome{}, meter.StoreErr("read answers", err)
	}
	if len(vrs) == 0 {
		return QueryOutcome{}, nil
	}
	answers := make([]Answer, 0, len(vrs))
	runIDs := map[string]bool{}
	win := WindowInfo{From: vrs[0].ExecutedAt, To: vrs[0].ExecutedAt}
	for _, vr := range vrs {
		answers = append(answers, an.Analyze(vr))
		runIDs[vr.JobID] = true
		win.From = minTime(win.From, vr.ExecutedAt)
		win.To = maxTime(win.To, vr.ExecutedAt)
	}
	win.Runs = len(runIDs)
	f := d.finding(an, q, answers, win)
	for attempt := 1; ; attempt++ {
		out, retry, err := d.commitQuery(ctx, jobID, actor, brand, q, f, mk, now)
		if !retry || attempt == maxQueryAttempts {
			return out, err
		}
		// Writers that conflicted and retry at once meet again: spread
		// them out (full jitter, growing with the attempt).
		if err := ctxtime.Sleep(ctx, time.Duration(rand.Int64N(int64(5*time.Millisecond)<<min(attempt, 4))), nil); err != nil {
			return out, err
		}
	}
}

// finding is what the answers of a query's window say.
type finding struct {
	tier      Tier
	holds     bool
	metrics   GapMetrics
	platforms []string
	evidence  Evidence
	ahead     []string // competitors ahead of the brand in the evidence answers
	priority  int
	answers   int
}

func (d *Detector) finding(an *Analyzer, q queries.Query, answers []Answer, win WindowInfo) finding {
	r := d.rules
	f := finding{answers: len(answers)}
	f.metrics = GapMetrics{Metrics: r.Measure(answers), Window: win, PerPlatform: map[string]Metrics{}}
	f.tier, f.holds = r.Classify(f.metrics.Metrics)
	groups, names := byPlatform(answers)
	for _, p := range names {
		f.metrics.PerPlatform[p] = r.Measure(groups[p])
	}
	if !f.holds {
		return f
	}
	for _, p := range names {
		if r.Holds(f.tier, f.metrics.PerPlatform[p]) {
			f.platforms = append(f.platforms, p)
		}
	}
	if len(f.platforms) == 0 {
		// The tier holds over the window but on no platform alone.
		f.platforms = names
	}
	f.priority = r.Priority(f.tier, Weight(q, len(f.platforms), len(names)))
	f.evidence, f.ahead = r.evidence(f.tier, an.brand, answers)
	nameOwners(f.evidence.CompetitorPages, an.tracked)
	return f
}

// Evidence caps.
const (
	maxSnippets = 5
	maxPages    = 10
)

// evidence picks the answers that show the gap — those missing or
// out-ranking the brand, or for weak_mention those naming it only in
// passing — newest first and one per platform before a second, and the
// pages they cite that are not the brand's own.
func (r Rules) evidence(t Tier, brand tenants.Brand, answers []Answer) (Evidence, []string) {
	var shows []Answer
	for _, a := range answers {
		switch {
		case t == TierWeakMention && a.Mentioned && (a.FirstAt > r.LatePosition || a.Count == 1):
			shows = append(shows, a)
		case t != TierWeakMention && (!a.Mentioned || len(a.Ahead) > 0):
			shows = append(shows, a)
		}
	}
	if len(shows) == 0 { // weak_mention by a low score alone
		for _, a := range answers {
			if a.Mentioned {
				shows = append(shows, a)
			}
		}
	}
	ev := Evidence{Snippets: []Snippet{}, CompetitorPages: []opportunities.CompetitorPage{}}
	picked := map[int]bool{}
	for pass := 0; pass < 2 && len(ev.Snippets) < maxSnippets; pass++ {
		used := map[string]bool{}
		for i, a := range shows {
			// An answer with no text (no AI Overview shown) shows the gap
			// in the figures, but has nothing to quote.
			if picked[i] || a.Snippet == "" || len(ev.Snippets) == maxSnippets || (pass == 0 && used[a.Platform]) {
				continue
			}
			picked[i], used[a.Platform] = true, true
			ev.Snippets = append(ev.Snippets, Snippet{Platform: a.Platform, VisibilityResultID: a.ResultID, ExecutedAt: a.ExecutedAt, Text: a.Snippet})
		}
	}
	aheadCount := map[string]int{}
	seen := map[string]bool{}
	for _, a := range shows {
		for _, c := range a.Ahead {
			aheadCount[c]++
		}
		for _, p := range a.Pages {
			h := host(p.URL)
			if h == "" || seen[p.URL] || len(ev.CompetitorPages) == maxPages || slices.ContainsFunc(brand.Domains, func(d string) bool { return onDomain(h, d) }) {
				continue
			}
			seen[p.URL] = true
			ev.CompetitorPages = append(ev.CompetitorPages, opportunities.CompetitorPage{Name: h, URL: p.URL, Title: p.Title})
		}
	}
	ahead := make([]string, 0, len(aheadCount))
	for c := range aheadCount {
		ahead = append(ahead, c)
	}
	sort.Slice(ahead, func(i, j int) bool {
		if aheadCount[ahead[i]] != aheadCount[ahead[j]] {
			return aheadCount[ahead[i]] > aheadCount[ahead[j]]
		}
		return ahead[i] < ahead[j]
	})
	return ev, ahead
}

// nameOwners names each competitor page after the tracked competitor whose
// domain it is on (else its host stays the name).
func nameOwners(pages []opportunities.CompetitorPage, comps []competitors.Competitor) {
	for i, p := range pages {
		h := host(p.URL)
		for _, c := range comps {
			if c.Name != nil && slices.ContainsFunc(c.Domains, func(d string) bool { return onDomain(h, d) }) {
				pages[i].Name = *c.Name
				break
			}
		}
	}
}

// commitQuery writes a query's finding: the gap of its tier created or
// updated, the query's other open gaps resolved, and the marker. retry
// reports a conflict with another writer (read again and retry).
func (d *Detector) commitQuery(ctx context.Context, jobID string, actor audit.Actor, brand tenants.Brand, q queries.Query, f finding, mk store.Key, now time.Time) (QueryOutcome, bool, error) {
	active, err := d.gaps.active(ctx, q.TenantID, q.ID)
	if err != nil {
		return QueryOutcome{}, false, meter.StoreErr("read gaps", err)
	}
	out := QueryOutcome{QueryID: q.ID, QueryText: q.Text, Answers: f.answers, Change: ChangeNone, Resolved: []string{}}
	var ops []store.Op
	var evs []outbox.Event
	var entries []audit.Entry
	if f.holds {
		t := f.tier
		out.Tier = &t
		if g, ok := active[f.tier]; ok {
			gapOps, err := d.updateOps(ctx, g, q, f, jobID, now)
			if err != nil {
				return QueryOutcome{}, false, err
			}
			ops = append(ops, gapOps...)
			out.GapID, out.OpportunityID, out.Change = g.ID, g.OpportunityID, ChangeUpdated
		} else {
			g, o := d.newGap(brand, q, f, jobID, now)
			gapOps, err := createOps(g, o)
			if err != nil {
				return QueryOutcome{}, false, err
			}
			ops = append(ops, gapOps...)
			qid, gid, oid := q.ID, g.ID, o.ID
			evGap, err := outbox.New(q.TenantID, outbox.GapDetected, outbox.GapDetectedData{
				GapID: g.ID, JobID: jobID, Tier: string(g.Tier), Topic: q.Text, QueryID: &qid,
				Platforms: g.Platforms, Competitors: f.ahead, OpportunityID: &oid}, now)
			if err != nil {
				return QueryOutcome{}, false, err
			}
			evOpp, err := outbox.New(q.TenantID, outbox.OpportunityCreated, outbox.OpportunityCreatedData{
				OpportunityID: o.ID, Title: o.Title, Status: o.Status, Tier: o.Tier, GapID: &gid, QueryID: &qid, Priority: o.Priority}, now)
			if err != nil {
				return QueryOutcome{}, false, err
			}
			evs = append(evs, evGap, evOpp)
			e := audit.New(q.TenantID, actor, "gap.create", audit.Resource("gap", g.ID), audit.OutcomeSucceeded, now)
			e.JobID, e.Detail = jobID, fmt.Sprintf("%s gap on query %d; opportunity %s (priority %d)", g.Tier, q.ID, o.ID, o.Priority)
			entries = append(entries, e)
			out.GapID, out.OpportunityID, out.Change = g.ID, o.ID, ChangeCreated
		}
	}
	for _, t := range Tiers {
		g, ok := active[t]
		if !ok || (f.holds && t == f.tier) || (g.Status != StatusOpen && g.Status != StatusAddressed) {
			continue
		}
		rops, err := resolveOps(g, now)
		if err != nil {
			return QueryOutcome{}, false, err
		}
		ops = append(ops, rops...)
		e := audit.New(q.TenantID, actor, "gap.resolve", audit.Resource("gap", g.ID), audit.OutcomeSucceeded, now)
		e.JobID, e.Detail = jobID, fmt.Sprintf("%s no longer holds for query %d", g.Tier, q.ID)
		entries = append(entries, e)
		out.Resolved = append(out.Resolved, g.ID)
	}
	for _, ev := range evs {
		op, err := outbox.Op(ev)
		if err != nil {
			return QueryOutcome{}, false, err
		}
		ops = append(ops, op)
	}
	for _, e := range entries {
		op, err := audit.Op(e)
		if err != nil {
			return QueryOutcome{}, false, err
		}
		ops = append(ops, op)
	}
	outDoc, err := store.EncodeDoc(out)
	if err != nil {
		return QueryOutcome{}, false, err
	}
	ops = append([]store.Op{store.PutOp(store.Item{store.AttrPK: mk.PK, store.AttrSK: mk.SK, store.AttrDoc: outDoc}, store.NotExists())}, ops...)
	err = d.tbl.TransactWrite(ctx, ops...)
	var txe *store.TxConditionError
	switch {
	case errors.As(err, &txe) && txe.Index == 0:
		// A concurrent delivery of this step judged the query first.
		it, gerr := d.tbl.Get(ctx, mk)
		if gerr != nil {
			return QueryOutcome{}, false, meter.StoreErr("read detection marker", gerr)
		}
		prev, derr := store.Doc[QueryOutcome](it)
		return prev, false, derr
	case errors.As(err, &txe):
		return QueryOutcome{}, true, meter.StoreErr("write gaps", err)
	case err != nil:
		return QueryOutcome{}, false, meter.StoreErr("write gaps", err)
	}
	return out, false, nil
}

// newGap builds a new gap and its opportunity.
func (d *Detector) newGap(brand tenants.Brand, q queries.Query, f finding, jobID string, now time.Time) (Gap, opportunities.Opportunity) {
	g := Gap{ID: ids.ULID(now), TenantID: q.TenantID, BrandProfileID: brand.ID, Tier: f.tier, Status: StatusOpen,
		QueryID: q.ID, QueryText: q.Text, Platforms: f.platforms, Competitors: f.ahead, Metrics: f.metrics, Evidence: f.evidence,
		DetectedAt: now, UpdatedAt: now, JobID: jobID}
	o := opportunities.Opportunity{ID: ids.ULID(now), TenantID: q.TenantID, GapID: g.ID, Tier: string(f.tier),
		QueryID: q.ID, QueryText: q.Text, BrandProfileID: brand.ID, Title: Title(f.tier, brand.Name, q.Text, f.metrics.TopCompetitor),
		Status: opportunities.StatusOpen, Priority: f.priority, CreatedAt: now, UpdatedAt: now}
	g.OpportunityID = o.ID
	return g, o
}

// updateOps refresh an active gap with the new finding (a dismissed gap
// stays dismissed) and its opportunity's priority.
func (d *Detector) updateOps(ctx context.Context, g Gap, q queries.Query, f finding, jobID string, now time.Time) ([]store.Op, error) {
	next := g
	next.QueryText, next.Platforms, next.Competitors, next.Metrics, next.Evidence = q.Text, f.platforms, f.ahead, f.metrics, f.evidence
	next.UpdatedAt, next.JobID = now, jobID
	op, err := replaceOp(g, next)
	if err != nil {
		return nil, err
	}
	ops := []store.Op{op}
	o, err := d.opps.Get(ctx, g.TenantID, g.OpportunityID)
	if errors.Is(err, opportunities.ErrNotFound) {
		return ops, nil
	}
	if err != nil {
		return nil, meter.StoreErr("read opportunity", err)
	}
	if o.Priority != f.priority {
		no := o
		no.Priority, no.UpdatedAt = f.priority, now
		oppOp, err := opportunities.ReplaceOp(o, no)
		if err != nil {
			return nil, err
		}
		ops = append(ops, oppOp)
	}
	return ops, nil
}

// Title is an opportunity's working title.
func Title(t Tier, brand, query string, top *Lead) string {
	switch t {
	case TierNoMention:
		return fmt.Sprintf("Get %s into AI answers for “%s”", brand, query)
	case TierCompetitorDominated:
		if top != nil {
			return fmt.Sprintf("Out-rank %s for “%s”", top.Name, query)
		}
		return fmt.Sprintf("Out-rank the competitors for “%s”", query)
	case TierLowVisibility:
		return fmt.Sprintf("Get %s named more often for “%s”", brand, query)
	}
	return fmt.Sprintf("Make %s a leading answer for “%s”", brand, query)
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
