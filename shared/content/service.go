package content

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/competitors"
	"github.com/brandlens/brandlens/shared/gaps"
	"github.com/brandlens/brandlens/shared/ids"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/meter"
	"github.com/brandlens/brandlens/shared/models"
	"github.com/brandlens/brandlens/shared/opportunities"
	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/workflow"
)

// Step resources of the content-generation workflow's work.
const (
	StepGenerateBrief   = "step-generate-brief"
	StepGenerateArticle = "step-generate-article"
)

// Substitutions fill content-generation.asl.json for the local runner.
var Substitutions = map[string]string{
	"StepJobStartArn":        meter.StepJobStart,
	"StepGenerateBriefArn":   StepGenerateBrief,
	"StepGenerateArticleArn": StepGenerateArticle,
	"StepJobSettleArn":       meter.StepJobSettle,
}

// Output caps of the two generations, in tokens.
const (
	briefMaxTokens   = 2048
	articleMaxTokens = 8192
)

// Jobs builds the metered job requests of briefs and articles. It calls
// no model, so the API, which never generates, builds it without one.
type Jobs struct{ opps *opportunities.Repo }

// NewJobs returns the request builder over tbl.
func NewJobs(tbl store.Table) *Jobs { return &Jobs{opps: opportunities.NewRepo(tbl)} }

// Service writes briefs and articles.
type Service struct {
	*Jobs
	tbl         store.Table
	opps        *opportunities.Repo
	gaps        *gaps.Repo
	tenants     *tenants.Repo
	competitors *competitors.Repo
	gen         models.Generator
	rules       gaps.Rules
	now         func() time.Time
}

// NewService returns the service; gen writes (models.FromEnv or live.FromEnv
// choose it), rules are gap detection's (for the window the brief reads).
func NewService(tbl store.Table, tenantRepo *tenants.Repo, compRepo *competitors.Repo, gen models.Generator, rules gaps.Rules, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{Jobs: NewJobs(tbl), tbl: tbl, opps: opportunities.NewRepo(tbl), gaps: gaps.NewRepo(tbl, now), tenants: tenantRepo,
		competitors: compRepo, gen: gen, rules: rules, now: now}
}

// Handlers route the two generation steps (meter.Service.Handlers has the
// rest of the workflow).
func (s *Service) Handlers() workflow.Handlers {
	return workflow.Handlers{StepGenerateBrief: meter.Handler(s.BriefStep), StepGenerateArticle: meter.Handler(s.ArticleStep)}
}

// BriefParams are what a brief job is asked.
type BriefParams struct {
	OpportunityID string `json:"opportunityId"`
	ContentFormat string `json:"contentFormat"`
}

// ArticleParams are what an article job is asked.
type ArticleParams struct {
	OpportunityID string `json:"opportunityId"`
	Persona       string `json:"persona"`
}

// BriefResult is the result recorded on a brief job.
type BriefResult struct {
	OpportunityID string `json:"opportunityId"`
	ContentFormat string `json:"contentFormat"`
	Title         string `json:"title"`
}

// ArticleResult is the result recorded on an article job.
type ArticleResult struct {
	OpportunityID  string `json:"opportunityId"`
	ContentVersion string `json:"contentVersion"`
	Title          string `json:"title"`
	WordCount      int    `json:"wordCount"`
}

// BriefRequest is the metered job request of a brief (format "" means
// DefaultFormat). Its precheck answers opportunities.ErrNotFound or a
// StateError before anything is stored; its guard holds the opportunity's
// state in the job's own transaction. ErrInvalidFormat is a validation
// error of the request.
func (j *Jobs) BriefRequest(tenantID int32, opportunityID, format string, actor audit.Actor) (meter.Request, error) {
	f, err := Format(format)
	if err != nil {
		return meter.Request{}, err
	}
	return j.request(tenantID, opportunityID, opportunities.ActionGenerateBrief, jobs.TypeBriefGeneration,
		meter.PriceBriefGeneration, "content.generate_brief", BriefParams{OpportunityID: opportunityID, ContentFormat: f}, actor), nil
}

// ArticleRequest is the metered job request of an article (persona nil
// means DefaultPersona); see BriefRequest. ErrInvalidPersona is a
// validation error of the request.
func (j *Jobs) ArticleRequest(tenantID int32, opportunityID string, persona *string, actor audit.Actor) (meter.Request, error) {
	p, err := Persona(persona)
	if err != nil {
		return meter.Request{}, err
	}
	return j.request(tenantID, opportunityID, opportunities.ActionGenerateContent, jobs.TypeContentGeneration,
		meter.PriceContentGeneration, "content.generate_article", ArticleParams{OpportunityID: opportunityID, Persona: p}, actor), nil
}

func (j *Jobs) request(tenantID int32, oppID, action, typ string, cost int64, auditAction string, params any, actor audit.Actor) meter.Request {
	id := oppID
	return meter.Request{
		TenantID: tenantID, Type: typ, Cost: cost, Actor: actor, Action: auditAction,
		Resource: audit.Resource("opportunity", oppID), Params: params, OpportunityID: &id,
		Precheck: func(ctx context.Context) error {
			o, err := j.opps.Get(ctx, tenantID, oppID)
			if err != nil {
				return err
			}
			return opportunities.Check(o, action)
		},
		Guards: []meter.Guard{{Op: opportunities.RequireOp(tenantID, oppID, action),
			Err: fmt.Errorf("%w: opportunity %s changed while the job was being created", opportunities.ErrInvalidState, oppID)}},
	}
}

// BriefStep is the workflow step of a brief job.
func (s *Service) BriefStep(ctx context.Context, in meter.Message) (BriefResult, error) {
	p, actor, err := meter.Params[BriefParams](ctx, s.tbl, in.TenantID, in.JobID)
	if err != nil {
		return BriefResult{}, err
	}
	return s.GenerateBrief(ctx, in.JobID, in.TenantID, p.OpportunityID, p.ContentFormat, actor)
}

// ArticleStep is the workflow step of an article job.
func (s *Service) ArticleStep(ctx context.Context, in meter.Message) (ArticleResult, error) {
	p, actor, err := meter.Params[ArticleParams](ctx, s.tbl, in.TenantID, in.JobID)
	if err != nil {
		return ArticleResult{}, err
	}
	return s.GenerateArticle(ctx, in.JobID, in.TenantID, p.OpportunityID, p.Persona, actor)
}

// GenerateBrief plans the opportunity's content: the model's brief is
// stored on the opportunity (brief_ready) in one transaction with the
// audit entry of the model call (prompt and response verbatim), the event
// content.brief_generated and the job's outcome marker, so a redelivered
// step neither calls the model nor writes twice once it has succeeded. A
// failed call is audited on its own and leaves the opportunity as it was.
func (s *Service) GenerateBrief(ctx context.Context, jobID string, tenantID int32, oppID, format string, actor audit.Actor) (BriefResult, error) {
	if prev, ok, err := done[BriefResult](ctx, s.tbl, tenantID, jobID); ok || err != nil {
		return prev, err
	}
	o, err := s.load(ctx, tenantID, oppID, opportunities.ActionGenerateBrief)
	if err != nil {
		return BriefResult{}, err
	}
	in, err := s.briefInput(ctx, o, format)
	if err != nil {
		return BriefResult{}, err
	}
	msgs, err := BriefMessages(in)
	if err != nil {
		return BriefResult{}, &meter.PermanentError{Message: err.Error()}
	}
	resp, err := s.call(ctx, jobID, tenantID, oppID, actor, msgs, briefMaxTokens)
	if err != nil {
		return BriefResult{}, err
	}
	now := s.now().UTC()
	brief, err := ParseBrief(resp.Text, in, resp.Model, now)
	if err != nil {
		return BriefResult{}, s.unusable(ctx, jobID, tenantID, oppID, actor, msgs, resp, err)
	}
	res := BriefResult{OpportunityID: oppID, ContentFormat: brief.ContentFormat, Title: brief.Title}
	ev := outbox.ContentBriefGeneratedData{OpportunityID: oppID, JobID: jobID, ContentFormat: brief.ContentFormat, Title: brief.Title}
	err = s.commit(ctx, jobID, tenantID, oppID, opportunities.ActionGenerateBrief, actor, msgs, resp, res,
		outbox.ContentBriefGenerated, ev, func(o *opportunities.Opportunity) { o.Brief = &brief })
	if errors.Is(err, errDuplicate) {
		prev, _, derr := done[BriefResult](ctx, s.tbl, tenantID, jobID)
		return prev, derr
	}
	if err != nil {
		s.auditAlone(ctx, s.modelEntry(jobID, tenantID, oppID, actor, audit.OutcomeFailed, modelCall(msgs, resp), err.Error()))
	}
	return res, err
}

// GenerateArticle writes the opportunity's article from its brief; see
// GenerateBrief for what commits together. Output that breaks the shape
// rules (Finish) is audited and retried.
func (s *Service) GenerateArticle(ctx context.Context, jobID string, tenantID int32, oppID, persona string, actor audit.Actor) (ArticleResult, error) {
	if prev, ok, err := done[ArticleResult](ctx, s.tbl, tenantID, jobID); ok || err != nil {
		return prev, err
	}
	o, err := s.load(ctx, tenantID, oppID, opportunities.ActionGenerateContent)
	if err != nil {
		return ArticleResult{}, err
	}
	if o.Brief == nil {
		return ArticleResult{}, &meter.PermanentError{Message: ErrNoBrief.Error()}
	}
	brand, err := s.brand(ctx, tenantID, o.BrandProfileID)
	if err != nil {
		return ArticleResult{}, err
	}
	g, err := s.gaps.Get(ctx, tenantID, o.GapID)
	if err != nil {
		return ArticleResult{}, meter.StoreErr("load gap", err)
	}
	in := ArticleInput{Tier: o.Tier, Persona: persona, Brand: promptBrand(brand), Brief: *o.Brief, AnswerSnippets: snippets(g)}
	msgs, err := ArticleMessages(in)
	if err != nil {
		return ArticleResult{}, &meter.PermanentError{Message: err.Error()}
	}
	resp, err := s.call(ctx, jobID, tenantID, oppID, actor, msgs, articleMaxTokens)
	if err != nil {
		return ArticleResult{}, err
	}
	now := s.now().UTC()
	c, err := Finish(resp.Text, *o.Brief, persona, resp.Model, ids.ULID(now), now)
	if err != nil {
		return ArticleResult{}, s.unusable(ctx, jobID, tenantID, oppID, actor, msgs, resp, err)
	}
	res := ArticleResult{OpportunityID: oppID, ContentVersion: c.ContentVersion, Title: c.Title, WordCount: c.WordCount}
	ev := outbox.ContentGeneratedData{OpportunityID: oppID, JobID: jobID, ContentVersion: c.ContentVersion, Title: c.Title, WordCount: c.WordCount}
	err = s.commit(ctx, jobID, tenantID, oppID, opportunities.ActionGenerateContent, actor, msgs, resp, res,
		outbox.ContentGenerated, ev, func(o *opportunities.Opportunity) { o.Content = &c })
	if errors.Is(err, errDuplicate) {
		prev, _, derr := done[ArticleResult](ctx, s.tbl, tenantID, jobID)
		return prev, derr
	}
	if err != nil {
		// The call answered but its result could not be kept: it is audited all the same.
		s.auditAlone(ctx, s.modelEntry(jobID, tenantID, oppID, actor, audit.OutcomeFailed, modelCall(msgs, resp), err.Error()))
	}
	return res, err
}

// done returns the recorded result of a job that already succeeded.
func done[T any](ctx context.Context, tbl store.Table, tenantID int32, jobID string) (T, bool, error) {
	var v T
	raw, ok, err := meter.Done(ctx, tbl, tenantID, jobID)
	if err != nil || !ok {
		return v, false, err
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return v, false, &meter.PermanentError{Message: err.Error()}
	}
	return v, true, nil
}

// load reads the opportunity and checks that action is allowed: a job
// whose opportunity moved on (dismissed, say) fails for good, at 0 credits.
func (s *Service) load(ctx context.Context, tenantID int32, oppID, action string) (opportunities.Opportunity, error) {
	o, err := s.opps.Get(ctx, tenantID, oppID)
	if errors.Is(err, opportunities.ErrNotFound) {
		return o, &meter.PermanentError{Message: fmt.Sprintf("opportunity %s does not exist", oppID)}
	}
	if err != nil {
		return o, meter.StoreErr("load opportunity", err)
	}
	if err := opportunities.Check(o, action); err != nil {
		return o, &meter.PermanentError{Message: err.Error()}
	}
	return o, nil
}

func (s *Service) brand(ctx context.Context, tenantID, id int32) (tenants.Brand, error) {
	b, err := s.tenants.Brand(ctx, tenantID, id)
	if errors.Is(err, tenants.ErrNotFound) {
		return b, &meter.PermanentError{Message: fmt.Sprintf("brand profile %d does not exist", id)}
	}
	if err != nil {
		return b, meter.StoreErr("load brand profile", err)
	}
	return b, nil
}

// promptBrand is what the prompts say about a brand profile.
func promptBrand(b tenants.Brand) Brand {
	return Brand{Name: b.Name, Aliases: nonNil(b.Aliases), Domains: nonNil(b.Domains)}
}

// briefInput gathers the brief's evidence: the gap, and the query's window
// of answers analysed for the brand now.
func (s *Service) briefInput(ctx context.Context, o opportunities.Opportunity, format string) (BriefInput, error) {
	brand, err := s.brand(ctx, o.TenantID, o.BrandProfileID)
	if err != nil {
		return BriefInput{}, err
	}
	g, err := s.gaps.Get(ctx, o.TenantID, o.GapID)
	if err != nil {
		return BriefInput{}, meter.StoreErr("load gap", err)
	}
	comps, err := s.competitors.List(ctx, o.TenantID)
	if err != nil {
		return BriefInput{}, meter.StoreErr("load competitors", err)
	}
	vrs, err := s.rules.ReadWindow(ctx, s.tbl, o.TenantID, o.QueryID, s.now())
	if err != nil {
		return BriefInput{}, meter.StoreErr("read answers", err)
	}
	an := gaps.NewAnalyzer(brand, comps)
	answers := make([]gaps.Answer, 0, len(vrs))
	var named []string
	for _, vr := range vrs {
		a := an.Analyze(vr)
		answers = append(answers, a)
		named = append(named, a.Ahead...)
		named = append(named, vr.Discovered...)
	}
	return NewBriefInput(format, promptBrand(brand), g, answers, named), nil
}

func snippets(g gaps.Gap) []string {
	out := []string{}
	for _, s := range g.Evidence.Snippets {
		out = append(out, s.Platform+": "+s.Text)
	}
	return out
}

// call asks the model; a failed call is audited on its own and becomes the
// retryable or permanent step error its kind calls for.
func (s *Service) call(ctx context.Context, jobID string, tenantID int32, oppID string, actor audit.Actor, msgs []models.Message, maxTokens int) (models.Response, error) {
	resp, err := s.gen.Generate(ctx, models.Request{Messages: msgs, MaxOutputTokens: maxTokens})
	if err == nil {
		return resp, nil
	}
	call := audit.ModelCall{Prompt: msgs, Error: err.Error()}
	var me *models.Error
	if errors.As(err, &me) {
		call.Vendor, call.Model = me.Vendor, me.Model
	}
	s.auditAlone(ctx, s.modelEntry(jobID, tenantID, oppID, actor, audit.OutcomeFailed, call, err.Error()))
	if models.IsRetryable(err) {
		return models.Response{}, &meter.RetryableError{Message: err.Error()}
	}
	return models.Response{}, &meter.PermanentError{Message: err.Error()}
}

// unusable audits a call whose answer broke the rules and asks for a retry.
func (s *Service) unusable(ctx context.Context, jobID string, tenantID int32, oppID string, actor audit.Actor, msgs []models.Message, resp models.Response, cause error) error {
	s.auditAlone(ctx, s.modelEntry(jobID, tenantID, oppID, actor, audit.OutcomeFailed, modelCall(msgs, resp), cause.Error()))
	return &meter.RetryableError{Message: cause.Error()}
}

// auditAlone appends an entry outside any transaction; the step's error
// matters more than a failed audit write, which the next attempt repeats.
func (s *Service) auditAlone(ctx context.Context, e audit.Entry) {
	_ = audit.NewLog(s.tbl).Append(ctx, e)
}

func modelCall(msgs []models.Message, resp models.Response) audit.ModelCall {
	return audit.Generation(msgs, resp)
}

func (s *Service) modelEntry(jobID string, tenantID int32, oppID string, actor audit.Actor, outcome string, call audit.ModelCall, detail string) audit.Entry {
	e := audit.New(tenantID, actor, "model.generate", audit.Resource("opportunity", oppID), outcome, s.now())
	e.JobID, e.Detail = jobID, detail
	return e.WithModelCall(call)
}

// errDuplicate: the job's outcome was recorded by a concurrent delivery.
var errDuplicate = errors.New("content: already recorded")

// maxCommitAttempts bounds re-reads when the opportunity changed between
// the read and the write (the model is not asked again).
const maxCommitAttempts = 5

// commit applies action to the opportunity with set, and writes it with
// the job's outcome marker (first, so a duplicate is recognised), the
// audit entry of the model call and the event, in one transaction.
func (s *Service) commit(ctx context.Context, jobID string, tenantID int32, oppID, action string, actor audit.Actor,
	msgs []models.Message, resp models.Response, result any, evType string, evData any, set func(*opportunities.Opportunity)) error {
	for attempt := 1; ; attempt++ {
		o, err := s.load(ctx, tenantID, oppID, action)
		if err != nil {
			return err
		}
		now := s.now().UTC()
		next, err := opportunities.Apply(o, action, now, set)
		if err != nil {
			return &meter.PermanentError{Message: err.Error()}
		}
		doneOp, err := meter.DoneOp(tenantID, jobID, result)
		if err != nil {
			return err
		}
		oppOp, err := opportunities.ReplaceOp(o, next)
		if err != nil {
			return err
		}
		auditOp, err := audit.Op(s.modelEntry(jobID, tenantID, oppID, actor, audit.OutcomeSucceeded, modelCall(msgs, resp), ""))
		if err != nil {
			return err
		}
		ev, err := outbox.New(tenantID, evType, evData, now)
		if err != nil {
			return err
		}
		evOp, err := outbox.Op(ev)
		if err != nil {
			return err
		}
		err = s.tbl.TransactWrite(ctx, doneOp, oppOp, auditOp, evOp)
		var txe *store.TxConditionError
		switch {
		case err == nil:
			outbox.Notify()
			return nil
		case errors.As(err, &txe) && txe.Index == 0:
			return errDuplicate
		case errors.As(err, &txe) && attempt < maxCommitAttempts:
			continue // the opportunity changed: read it again
		default:
			return meter.StoreErr("store generation", err)
		}
	}
}
