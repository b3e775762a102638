package runs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/brandlens/brandlens/shared/adjudication"
	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/citations"
	"github.com/brandlens/brandlens/shared/competitors"
	"github.com/brandlens/brandlens/shared/detect"
	"github.com/brandlens/brandlens/shared/ids"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/livepages"
	"github.com/brandlens/brandlens/shared/meter"
	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/queries"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
)

// Step resources: the Lambda functions in AWS, the in-process handlers
// locally (the ASL's ${Step…Arn} substitutions name them).
const (
	StepMarkRunning = "step-mark-running"
	// StepRunPlatforms asks every item of a run in one invocation.
	StepRunPlatforms = "step-run-platforms"
	// StepRunPlatform asks one item: the task of the definition before
	// RunPlatforms, kept for one release so that executions started under
	// it (AWS keeps an execution's definition) still finish.
	StepRunPlatform = "step-run-platform"
	StepSettle      = "step-settle"
)

// Substitutions fills the query-execution ASL for the local runner.
var Substitutions = map[string]string{
	"StepMarkRunningArn":  StepMarkRunning,
	"StepRunPlatformsArn": StepRunPlatforms,
	"StepSettleArn":       StepSettle,
}

// Errors the workflow branches on. Their Go type names are the ASL
// ErrorEquals values (aws-lambda-go reports the type name as the Lambda
// error type, and the local runner does the same): the steps return them
// unwrapped.

// TransientProviderError: the platform may answer if asked again (Retry).
type TransientProviderError struct {
	Platform string
	Message  string
}

func (e *TransientProviderError) Error() string { return e.Message }

// ProviderFailedError: the platform failed for good (Catch → failed).
type ProviderFailedError struct {
	Platform string
	Message  string
}

func (e *ProviderFailedError) Error() string { return e.Message }

// StoreUnavailableError: the store failed in a way worth retrying (the
// metered steps' error, retried by name in every workflow).
type StoreUnavailableError = meter.StoreUnavailableError

// storeErr turns a store failure into the retryable step error.
func storeErr(op string, err error) error { return meter.StoreErr(op, err) }

// StepInput is what the workflow passes to MarkRunning and Settle.
type StepInput struct {
	JobID    string `json:"jobId"`
	TenantID int32  `json:"tenantId"`
}

// Item is one (platform, sample) of a run (RunPlatforms asks them all).
type Item struct {
	JobID    string `json:"jobId"`
	TenantID int32  `json:"tenantId"`
	Platform string `json:"platform"`
	Sample   int    `json:"sample"`
	// QueryID is the job's query, so that RunPlatform reads it with the
	// item's marker instead of reading the job first (0 in items of older
	// releases: then it reads the job).
	QueryID int32 `json:"queryId,omitempty"`
}

// MarkRunningOutput lists the run's items.
type MarkRunningOutput struct {
	Items []Item `json:"items"`
}

// PlatformOutput is what RunPlatform (or the PlatformFailed state) returns.
type PlatformOutput struct {
	Platform           string  `json:"platform"`
	Sample             int     `json:"sample"`
	Status             string  `json:"status"`
	VisibilityResultID int32   `json:"visibilityResultId,omitempty"`
	Mentioned          bool    `json:"mentioned,omitempty"`
	Score              int     `json:"score,omitempty"`
	LatencyMS          int64   `json:"latencyMs,omitempty"`
	Model              string  `json:"model,omitempty"`
	CostUSD            float64 `json:"costUsd,omitempty"`
	Truncated          bool    `json:"truncated,omitempty"`
	CostUnknown        bool    `json:"costUnknown,omitempty"`
	// Competitors the answer names (tracked ones, with their mentions) and
	// discovers, so that Settle need not read the visibility result;
	// Counted says they are there (an output recorded before they existed
	// lacks them, and Settle reads the result).
	CompetitorMentions map[string]int `json:"competitorMentions,omitempty"`
	Discovered         []string       `json:"discovered,omitempty"`
	Counted            bool           `json:"counted,omitempty"`
	// Error is the ASL error object of a failed item ({"Error","Cause"}).
	Error *StateError `json:"error,omitempty"`
}

// StateError is the error object Step Functions puts at a Catch's ResultPath.
type StateError struct {
	Error string `json:"Error"`
	Cause string `json:"Cause"`
}

// SettleInput is the whole state when Settle runs.
type SettleInput struct {
	JobID    string           `json:"jobId"`
	TenantID int32            `json:"tenantId"`
	Results  []PlatformOutput `json:"results"`
	// Failure is set when the run failed before or around the Map.
	Failure *StateError `json:"failure"`
}

// SettleOutput summarises the settled job.
type SettleOutput struct {
	JobID          string `json:"jobId"`
	Status         string `json:"status"`
	CreditsCharged int64  `json:"creditsCharged"`
}

// Invoke runs the step named by resource; it is the workflow Invoker of
// the local runner and the body of the step Lambda functions.
func (s *Service) Invoke(ctx context.Context, resource string, input json.RawMessage) (json.RawMessage, error) {
	var (
		out any
		err error
	)
	switch resource {
	case StepMarkRunning:
		var in StepInput
		if err := json.Unmarshal(input, &in); err != nil {
			return nil, fmt.Errorf("runs: %s input: %w", resource, err)
		}
		out, err = s.MarkRunning(ctx, in)
	case StepRunPlatforms:
		var in PlatformsInput
		if err := json.Unmarshal(input, &in); err != nil {
			return nil, fmt.Errorf("runs: %s input: %w", resource, err)
		}
		out, err = s.RunPlatforms(ctx, in)
	case StepRunPlatform:
		var in Item
		if err := json.Unmarshal(input, &in); err != nil {
			return nil, fmt.Errorf("runs: %s input: %w", resource, err)
		}
		out, err = s.RunPlatform(ctx, in)
	case StepSettle:
		var in SettleInput
		if err := json.Unmarshal(input, &in); err != nil {
			return nil, fmt.Errorf("runs: %s input: %w", resource, err)
		}
		out, err = s.Settle(ctx, in)
	default:
		return nil, fmt.Errorf("runs: unknown step %q", resource)
	}
	if err != nil {
		return nil, err
	}
	return json.Marshal(out)
}

// MarkRunning moves the job from queued to running (event
// execution.started, in the same transaction) and lists the Map's items.
// Delivered twice, it changes nothing the second time and lists the same
// items; a job already settled gets no items.
func (s *Service) MarkRunning(ctx context.Context, in StepInput) (MarkRunningOutput, error) {
	j, err := s.Jobs.Get(ctx, in.TenantID, in.JobID)
	if err != nil {
		if errors.Is(err, jobs.ErrNotFound) {
			return MarkRunningOutput{Items: []Item{}}, nil
		}
		return MarkRunningOutput{}, storeErr("load job", err)
	}
	if j.Status == jobs.StatusQueued {
		now := s.Now().UTC()
		j.Status = jobs.StatusRunning
		j.StartedAt = &now
		for p, st := range j.PerPlatformStatus {
			st.Status = jobs.StatusRunning
			j.PerPlatformStatus[p] = st
		}
		if err := meter.CommitStarted(ctx, s.Table, j, executionData(j)); err != nil {
			return MarkRunningOutput{}, err
		}
	}
	if jobs.Terminal(j.Status) {
		return MarkRunningOutput{Items: []Item{}}, nil
	}
	var items []Item
	for _, p := range j.Platforms {
		for sample := range j.Samples {
			it := Item{JobID: j.ID, TenantID: j.TenantID, Platform: p, Sample: sample}
			if j.QueryID != nil {
				it.QueryID = *j.QueryID
			}
			items = append(items, it)
		}
	}
	return MarkRunningOutput{Items: items}, nil
}

// queryInfo is the part of a query a run needs.
type queryInfo struct {
	ID   int32
	Text string
}

// RunPlatform asks one platform one sample of the query, detects the brand
// and competitors in the answer and records the visibility result, its
// citations and a mention.detected event in one transaction guarded by the
// item's result marker, so that a redelivered step records nothing twice.
func (s *Service) RunPlatform(ctx context.Context, it Item) (PlatformOutput, error) {
	return s.runPlatform(ctx, ctx, it)
}

// runPlatform is RunPlatform whose platform call (and its wait on a
// Retry-After) ends with askCtx, while reading and recording use ctx: an
// answer that arrived is recorded even when the step's time to ask is up.
func (s *Service) runPlatform(ctx, askCtx context.Context, it Item) (PlatformOutput, error) {
	r, err := s.itemReads(ctx, it)
	if err != nil {
		return PlatformOutput{}, err
	}
	if r.prev != nil {
		// Recorded by an earlier attempt, which may have died before
		// noticing its citations: notice them again (idempotent).
		return *r.prev, s.noticeRecorded(ctx, it, *r.prev)
	}
	if jobs.Terminal(r.job.Status) {
		// Settled already (past its deadline, say): asking the platform now
		// would cost a call whose answer nothing would charge or show.
		return PlatformOutput{}, &ProviderFailedError{Platform: it.Platform, Message: "the job was settled before this platform answered"}
	}
	q, actor := r.query, r.actor
	// The brand and the competitors at once: two reads, one wait.
	var brand tenants.Brand
	var comps []competitors.Competitor
	var brandErr, compErr error
	var wg sync.WaitGroup
	wg.Go(func() { brand, brandErr = s.Tenants.Brand(ctx, it.TenantID, q.BrandProfileID) })
	wg.Go(func() { comps, compErr = s.Competitors.List(ctx, it.TenantID) })
	wg.Wait()
	if errors.Is(brandErr, tenants.ErrNotFound) {
		return PlatformOutput{}, &ProviderFailedError{Platform: it.Platform, Message: errNoBrand.Error()}
	}
	if brandErr != nil {
		return PlatformOutput{}, storeErr("load brand", brandErr)
	}
	if compErr != nil {
		return PlatformOutput{}, storeErr("load competitors", compErr)
	}
	tracked := activeCompetitors(comps)
	prov, ok := s.Providers[it.Platform]
	if !ok {
		return PlatformOutput{}, &ProviderFailedError{Platform: it.Platform, Message: fmt.Sprintf("no provider is configured for %s", it.Platform)}
	}
	hints := providers.Hints{Brand: brand.Name}
	if len(brand.Domains) > 0 {
		hints.BrandDomain = brand.Domains[0]
	}
	for _, c := range tracked {
		hints.Competitors = append(hints.Competitors, c.NameOrEmpty())
	}
	start := s.Now()
	ans, err := prov.Answer(askCtx, providers.Request{Platform: it.Platform, Query: q.Text, Sample: it.Sample, Hints: hints})
	if err != nil {
		// The call is audited although it failed: what was asked, and why
		// it did not answer (a failed audit write is not worth more than
		// the platform's error, which the workflow acts on).
		e := s.platformEntry(it, q, actor, audit.OutcomeFailed, audit.ProviderCall(it.Platform, q.Text, providers.Answer{Latency: s.Now().Sub(start)}, err.Error()))
		if aerr := audit.NewLog(s.Table).Append(ctx, e); aerr != nil {
			s.Logger.Error("audit platform call", "job_id", it.JobID, "platform", it.Platform, "error", aerr.Error())
		}
		// The job records err's safe text; the raw cause is for operators.
		var pe *providers.Error
		if errors.As(err, &pe) && pe.Detail != "" {
			s.Logger.Warn("platform call failed", "job_id", it.JobID, "tenant_id", it.TenantID, "platform", it.Platform,
				"sample", it.Sample, "code", pe.Code, "detail", pe.Detail)
		}
		if providers.IsRetryable(err) {
			honourRetryAfter(askCtx, err)
			return PlatformOutput{}, &TransientProviderError{Platform: it.Platform, Message: err.Error()}
		}
		return PlatformOutput{}, &ProviderFailedError{Platform: it.Platform, Message: err.Error()}
	}
	if ans.Platform == "" {
		ans.Platform = it.Platform
	}
	if ans.Latency == 0 {
		ans.Latency = s.Now().Sub(start)
	}

	var opts []detect.Option
	var asked *adjudications
	if s.Adjudicator != nil {
		asked = &adjudications{ask: s.Adjudicator}
		opts = append(opts, detect.WithAdjudicator(asked))
	}
	det := detect.New(entity(brand.Name, brand.Aliases, brand.Domains), competitorEntities(tracked), opts...)
	cites := make([]detect.Citation, 0, len(ans.Citations))
	for _, c := range ans.Citations {
		cites = append(cites, detect.Citation{URL: c.URL, Title: c.Title})
	}
	// The query is evidence for names that are ordinary words. Analyze
	// fails only when an adjudication failed, and then the rule's decision
	// stands for that mention: worth a warning, not the answer.
	actx, cancel := context.WithTimeout(ctx, adjudication.AnswerBudget)
	res, err := det.Analyze(actx, detect.Input{Text: ans.Text, Citations: cites, Query: q.Text})
	cancel()
	if err != nil {
		s.Logger.Warn("adjudication failed, the rules decide", "job_id", it.JobID, "tenant_id", it.TenantID,
			"platform", it.Platform, "error", err.Error())
	}

	now := s.Now().UTC()
	vrID, err := ids.Next(ctx, s.Table, tenants.PK(it.TenantID), "visibility", 1)
	if err != nil {
		return PlatformOutput{}, storeErr("visibility id", err)
	}
	vr := VisibilityResult{
		ID: vrID, TenantID: it.TenantID, JobID: it.JobID, QueryID: q.ID, QueryTextUsed: q.Text,
		Platform: it.Platform, Sample: it.Sample, AnswerText: ans.Text, ExecutedAt: now,
		VisibilityScore: res.VisibilityScore, Verdict: string(res.Verdict), Confidence: res.Confidence, Evidence: res.Evidence,
		Mentioned: res.Brand.Mentioned, MentionCount: res.Brand.Count, Sentiment: string(res.Sentiment),
		DetectorVersion:    res.Version,
		CompetitorMentions: map[string]int{}, Discovered: nonNilStrings(res.Discovered),
		Model: ans.Model, LatencyMS: ans.Latency.Milliseconds(), CostUSD: ans.CostUSD, AIOverviewState: ans.AIOverviewState,
		Truncated: ans.Truncated, CostUnknown: ans.CostUnknown,
	}
	for _, c := range res.Competitors {
		if c.Mentioned {
			vr.CompetitorMentions[c.Name] = c.Count
		}
	}
	vr.CitedPages = make([]CitedPage, 0, len(ans.Citations))
	for _, c := range ans.Citations {
		vr.CitedPages = append(vr.CitedPages, CitedPage{URL: c.URL, Title: c.Title})
	}
	cs := answerCitations(brand.Name, brand.Domains, queryInfo{ID: q.ID, Text: q.Text}, ans, res, vr)
	if len(cs) > 0 {
		first, err := ids.Next(ctx, s.Table, tenants.PK(it.TenantID), "citation", len(cs))
		if err != nil {
			return PlatformOutput{}, storeErr("citation ids", err)
		}
		for i := range cs {
			cs[i].ID = first + int32(i)
			cs[i].TenantID = it.TenantID
			vr.CitationIDs = append(vr.CitationIDs, cs[i].ID)
		}
	}
	out := PlatformOutput{
		Platform: it.Platform, Sample: it.Sample, Status: jobs.StatusSucceeded, VisibilityResultID: vrID,
		Mentioned: res.Brand.Mentioned, Score: res.VisibilityScore, LatencyMS: vr.LatencyMS, Model: ans.Model, CostUSD: ans.CostUSD,
		Truncated: ans.Truncated, CostUnknown: ans.CostUnknown,
		CompetitorMentions: vr.CompetitorMentions, Discovered: vr.Discovered, Counted: true,
	}
	ops, err := s.recordOps(it, out, vr, cs, res)
	if err != nil {
		return PlatformOutput{}, err
	}
	// The platform call, with the exact question sent, commits with the
	// answer it produced.
	auditOp, err := audit.Op(s.platformEntry(it, q, actor, audit.OutcomeSucceeded, audit.ProviderCall(it.Platform, q.Text, ans, "")))
	if err != nil {
		return PlatformOutput{}, err
	}
	ops = append(ops, auditOp)
	// Each question the model was asked commits with the answer it judged
	// (at most detect's 4 per answer, within the transaction's 100 actions).
	for _, e := range asked.entries(it, vr, actor, s.Now()) {
		op, err := audit.Op(e)
		if err != nil {
			return PlatformOutput{}, err
		}
		ops = append(ops, op)
	}
	err = s.Table.TransactWrite(ctx, ops...)
	var txe *store.TxConditionError
	if errors.As(err, &txe) && txe.Index == 0 {
		// A concurrent delivery of this item recorded it first.
		prev, _, rerr := s.recorded(ctx, it)
		if rerr == nil {
			rerr = s.noticeRecorded(ctx, it, prev)
		}
		return prev, rerr
	}
	if err != nil {
		return PlatformOutput{}, storeErr("record answer", err)
	}
	s.notify()
	// content.cited follows the committed answer: a failure here fails the
	// step, whose retry finds the answer recorded and notices again
	// (noticeRecorded), so no citation of a published page is lost.
	if err := s.notice(ctx, it.TenantID, it.JobID, cs); err != nil {
		return PlatformOutput{}, err
	}
	return out, nil
}

// notice tells the watcher of published pages about the URLs an answer
// cites.
func (s *Service) notice(ctx context.Context, tenantID int32, jobID string, cs []citations.Citation) error {
	if s.Cited == nil {
		return nil
	}
	var lc []livepages.Citation
	for _, c := range cs {
		if c.URL == nil || c.Platform == nil {
			continue
		}
		var qid int32
		if c.SearchQueryID != nil {
			qid = *c.SearchQueryID
		}
		lc = append(lc, livepages.Citation{ID: c.ID, URL: *c.URL, QueryID: qid, Platform: *c.Platform, JobID: jobID, At: c.Date})
	}
	if _, err := s.Cited.Notice(ctx, tenantID, lc); err != nil {
		return storeErr("notice cited pages", err)
	}
	return nil
}

// noticeRecorded notices the citations of an answer recorded before,
// read back from its visibility result.
func (s *Service) noticeRecorded(ctx context.Context, it Item, out PlatformOutput) error {
	if s.Cited == nil || out.VisibilityResultID == 0 {
		return nil
	}
	item, err := s.Table.Get(ctx, visibilityKey(it.TenantID, out.VisibilityResultID))
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return storeErr("read answer", err)
	}
	vr, err := store.Doc[VisibilityResult](item)
	if err != nil {
		return err
	}
	cs := make([]citations.Citation, 0, len(vr.CitationIDs))
	for _, id := range vr.CitationIDs {
		c, err := s.Citations.Get(ctx, it.TenantID, id)
		if err != nil {
			return storeErr("read citation", err)
		}
		cs = append(cs, c)
	}
	return s.notice(ctx, it.TenantID, it.JobID, cs)
}

func (s *Service) recordOps(it Item, out PlatformOutput, vr VisibilityResult, cs []citations.Citation, res detect.Result) ([]store.Op, error) {
	outDoc, err := store.EncodeDoc(out)
	if err != nil {
		return nil, err
	}
	rk := resultKey(it.TenantID, it.JobID, it.Platform, it.Sample)
	vrDoc, err := store.EncodeDoc(vr)
	if err != nil {
		return nil, err
	}
	ops := []store.Op{
		store.PutOp(store.Item{store.AttrPK: rk.PK, store.AttrSK: rk.SK, store.AttrDoc: outDoc}, store.NotExists()),
		store.PutOp(visibilityItem(vr, vrDoc), store.NotExists()),
	}
	for _, c := range cs {
		op, err := citations.PutOp(c)
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
	}
	if res.Brand.Mentioned {
		var citationID int32
		if len(cs) > 0 {
			citationID = cs[0].ID
		}
		ev, err := outbox.New(it.TenantID, outbox.MentionDetected, outbox.MentionDetectedData{
			JobID: it.JobID, QueryID: vr.QueryID, Platform: it.Platform, Sample: it.Sample,
			VisibilityResultID: vr.ID, CitationID: citationID, Brand: res.Brand.Name, Verdict: string(res.Verdict),
			Sentiment: string(res.Sentiment), Confidence: res.Confidence, Evidence: res.Evidence, VisibilityScore: res.VisibilityScore,
		}, vr.ExecutedAt)
		if err != nil {
			return nil, err
		}
		op, err := outbox.Op(ev)
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
	}
	return ops, nil
}

// itemState is what a platform run reads before asking the platform.
type itemState struct {
	prev  *PlatformOutput // recorded by an earlier attempt
	job   jobs.Job
	query queries.Query
	actor audit.Actor // who asked for the job (the system when unknown)
}

// itemReads reads the item's result marker, its job, who asked for the job
// (its parameters) and its query in one round trip (BatchGetItem). Items
// of older releases do not name their query: it is read after the job.
func (s *Service) itemReads(ctx context.Context, it Item) (itemState, error) {
	keys := []store.Key{resultKey(it.TenantID, it.JobID, it.Platform, it.Sample),
		jobs.Key(it.TenantID, it.JobID), meter.ParamsKey(it.TenantID, it.JobID)}
	if it.QueryID != 0 {
		keys = append(keys, queries.Key(it.TenantID, it.QueryID))
	}
	got, err := store.GetMany(ctx, s.Table, keys...)
	if err != nil {
		return itemState{}, storeErr("read marker, job and query", err)
	}
	var st itemState
	if got[0] != nil {
		out, err := store.Doc[PlatformOutput](got[0])
		if err != nil {
			return itemState{}, err
		}
		st.prev = &out
		return st, nil
	}
	if got[1] == nil {
		return itemState{}, storeErr("load job", jobs.ErrNotFound)
	}
	if st.job, err = store.Doc[jobs.Job](got[1]); err != nil {
		return itemState{}, err
	}
	actor, ok, err := meter.ActorIn(got[2])
	if err != nil {
		return itemState{}, err
	}
	if !ok {
		actor = audit.System()
	}
	st.actor = actor
	switch {
	case it.QueryID == 0:
		if st.query, err = s.Queries.Get(ctx, it.TenantID, *st.job.QueryID); err != nil {
			return itemState{}, storeErr("load query", err)
		}
	case got[3] == nil:
		return itemState{}, storeErr("load query", queries.ErrNotFound)
	default:
		if st.query, err = store.Doc[queries.Query](got[3]); err != nil {
			return itemState{}, err
		}
	}
	return st, nil
}

// platformEntry is the audit entry of one platform call of a run.
func (s *Service) platformEntry(it Item, q queries.Query, actor audit.Actor, outcome string, call audit.ModelCall) audit.Entry {
	e := audit.New(it.TenantID, actor, "platform.answer", audit.Resource("query", q.ID), outcome, s.Now())
	e.JobID = it.JobID
	e.Detail = fmt.Sprintf("%s, sample %d", it.Platform, it.Sample)
	return e.WithModelCall(call)
}

// recorded returns the stored output of an item already recorded.
func (s *Service) recorded(ctx context.Context, it Item) (PlatformOutput, bool, error) {
	prev, err := s.Table.Get(ctx, resultKey(it.TenantID, it.JobID, it.Platform, it.Sample))
	if errors.Is(err, store.ErrNotFound) {
		return PlatformOutput{}, false, nil
	}
	if err != nil {
		return PlatformOutput{}, false, storeErr("read result", err)
	}
	out, err := store.Doc[PlatformOutput](prev)
	return out, err == nil, err
}

// notify wakes the local fan-out after events were committed.
func (s *Service) notify() { outbox.Notify() }

func entity(name string, aliases, domains []string) detect.Entity {
	return detect.Entity{Name: name, Aliases: aliases, Domains: domains}
}

func activeCompetitors(cs []competitors.Competitor) []competitors.Competitor {
	var out []competitors.Competitor
	for _, c := range cs {
		if c.IsActive && c.Name != nil {
			out = append(out, c)
		}
	}
	return out
}

func competitorEntities(cs []competitors.Competitor) []detect.Entity {
	out := make([]detect.Entity, 0, len(cs))
	for _, c := range cs {
		out = append(out, entity(c.NameOrEmpty(), c.Aliases, c.Domains))
	}
	return out
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// executionData is the payload of execution.* events.
func executionData(j jobs.Job) outbox.ExecutionData {
	d := outbox.ExecutionData{JobID: j.ID, JobType: j.Type, QueryID: j.QueryID, Status: j.Status, Platforms: j.Platforms, Samples: j.Samples,
		CreditsCharged: j.CreditsCharged, PerPlatformStatus: map[string]string{}}
	for p, st := range j.PerPlatformStatus {
		d.PerPlatformStatus[p] = st.Status
	}
	if j.Error != nil {
		d.Error = *j.Error
	}
	return d
}

// settleConflictWait is how long Settle backs off before re-reading after
// a conflict.
const settleConflictWait = 20 * time.Millisecond

// maxRetryAfterWait caps how long a step waits on a platform's Retry-After
// before handing the retry to the workflow (whose own interval then adds).
const maxRetryAfterWait = 20 * time.Second

// honourRetryAfter waits out a short Retry-After of a rate-limited platform,
// so that the workflow's retry does not arrive before the platform allows.
func honourRetryAfter(ctx context.Context, err error) {
	var pe *providers.Error
	if !errors.As(err, &pe) || pe.RetryAfter <= 0 {
		return
	}
	t := time.NewTimer(min(pe.RetryAfter, maxRetryAfterWait))
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
