package runs

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/citations"
	"github.com/brandlens/brandlens/shared/competitors"
	"github.com/brandlens/brandlens/shared/detect"
	"github.com/brandlens/brandlens/shared/ids"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/meter"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/queries"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/workflow"
)

// Re-scoring runs detection again over the stored answers of a brand
// profile — after its aliases or domains changed, or the detector did —
// and updates in place what detection decided: each visibility result
// (verdict, confidence, evidence, score, sentiment, mentions, detector
// version), its citations' detection members and filter attributes (a
// mention citation is added to an answer that now names the brand), and
// the competitors' mention totals and ranks. It is a metered job
// (meter.PriceRescore) on the brand-rescore workflow.
//
// Each answer's changes commit in one transaction conditional on the
// answer as read, and a competitor's total moves by the difference
// between the answer's new and stored counts, so running it again changes
// nothing more: an answer already re-scored by the same detector with the
// same profile is left as it is.

// StepRescore is the step resource of the brand-rescore workflow's work.
const StepRescore = "step-rescore"

// RescoreSubstitutions fill brand-rescore.asl.json for the local runner.
var RescoreSubstitutions = map[string]string{
	"StepJobStartArn":  meter.StepJobStart,
	"StepRescoreArn":   StepRescore,
	"StepJobSettleArn": meter.StepJobSettle,
}

// DefaultRescoreBatch is how many stored answers one step invocation
// reads; the workflow loops until the last batch, so a long history never
// outlasts a Lambda's timeout.
const DefaultRescoreBatch = 500

// ErrBrandProfileNotFound: the tenant has no such brand profile.
var ErrBrandProfileNotFound = errors.New("runs: brand profile not found")

// RescoreParams are what a re-scoring job is asked.
type RescoreParams struct {
	BrandProfileID int32 `json:"brandProfileId"`
}

// RescoreCounts say what a re-scoring read and changed.
type RescoreCounts struct {
	// Answers read, and those whose detection changed.
	Answers int `json:"answers"`
	Changed int `json:"changed"`
	// Answers that name the brand now and did not before, and the reverse.
	NewMentions  int `json:"newMentions"`
	LostMentions int `json:"lostMentions"`
	// Citations rewritten, and mention citations added.
	CitationsUpdated int `json:"citationsUpdated"`
	CitationsAdded   int `json:"citationsAdded"`
	// Competitors whose mention total or rank changed.
	CompetitorsUpdated int `json:"competitorsUpdated"`
}

func (c *RescoreCounts) add(o RescoreCounts) {
	c.Answers += o.Answers
	c.Changed += o.Changed
	c.NewMentions += o.NewMentions
	c.LostMentions += o.LostMentions
	c.CitationsUpdated += o.CitationsUpdated
	c.CitationsAdded += o.CitationsAdded
	c.CompetitorsUpdated += o.CompetitorsUpdated
}

// RescoreResult is the result recorded on a re-scoring job.
type RescoreResult struct {
	BrandProfileID  int32  `json:"brandProfileId"`
	DetectorVersion string `json:"detectorVersion"`
	Queries         int    `json:"queries"`
	RescoreCounts
}

// RescoreProgress is where a re-scoring stands between the invocations of
// its step (the workflow passes it back as $.progress).
type RescoreProgress struct {
	Done bool `json:"done"`
	// Query is the position, among the profile's queries in id order, of
	// the query being read; After the index key of its last answer read.
	Query  int           `json:"query"`
	After  string        `json:"after,omitempty"`
	Counts RescoreCounts `json:"counts"`
}

// RescoreInput is the workflow state the step reads.
type RescoreInput struct {
	meter.Message
	Progress *RescoreProgress `json:"progress"`
}

// RescoreRequest is the metered job request of a re-scoring, for the HTTP
// layer to complete with the idempotency key and fingerprint. Its precheck
// answers ErrBrandProfileNotFound before anything is stored.
func (s *Service) RescoreRequest(tenantID, brandProfileID int32, actor audit.Actor) meter.Request {
	id := brandProfileID
	return meter.Request{
		TenantID: tenantID, Type: jobs.TypeRescore, Cost: meter.PriceRescore,
		Actor: actor, Action: "brand_profiles.rescore", Resource: audit.Resource("brand_profile", brandProfileID),
		Params: RescoreParams{BrandProfileID: brandProfileID}, BrandProfileID: &id,
		Precheck: func(ctx context.Context) error {
			_, err := s.Tenants.Brand(ctx, tenantID, brandProfileID)
			if errors.Is(err, tenants.ErrNotFound) {
				return ErrBrandProfileNotFound
			}
			return err
		},
	}
}

// RescoreHandlers route the re-scoring step (meter.Service.Handlers has the
// rest of the workflow).
func (s *Service) RescoreHandlers() workflow.Handlers {
	return workflow.Handlers{StepRescore: meter.Handler(s.RescoreStep)}
}

// RescoreStep re-scores the next batch of the job's answers and says
// whether it was the last. The last batch ranks the competitors again and
// records the job's result (meter.DoneOp), which Settle charges for.
// Errors are the meter step errors.
func (s *Service) RescoreStep(ctx context.Context, in RescoreInput) (RescoreProgress, error) {
	if _, ok, err := meter.Done(ctx, s.Table, in.TenantID, in.JobID); err != nil || ok {
		return RescoreProgress{Done: ok}, err
	}
	p, _, err := meter.Params[RescoreParams](ctx, s.Table, in.TenantID, in.JobID)
	if err != nil {
		return RescoreProgress{}, err
	}
	prog := RescoreProgress{}
	if in.Progress != nil {
		prog = *in.Progress
	}
	r, err := s.newRescorer(ctx, in.TenantID, p.BrandProfileID)
	if err != nil {
		return RescoreProgress{}, err
	}
	batch, err := r.batch(ctx, prog)
	if err != nil {
		return RescoreProgress{}, err
	}
	if !batch.Done {
		return batch, nil
	}
	ranked, err := s.rankAll(ctx, in.TenantID)
	if err != nil {
		return RescoreProgress{}, err
	}
	batch.Counts.CompetitorsUpdated += ranked
	res := RescoreResult{BrandProfileID: p.BrandProfileID, DetectorVersion: detect.Version, Queries: len(r.queries), RescoreCounts: batch.Counts}
	done, err := meter.DoneOp(in.TenantID, in.JobID, res)
	if err != nil {
		return RescoreProgress{}, err
	}
	if err := s.Table.TransactWrite(ctx, done); err != nil && !errors.Is(err, store.ErrConditionFailed) {
		return RescoreProgress{}, meter.StoreErr("record re-scoring", err)
	}
	return batch, nil
}

// rescorer holds what re-scoring one profile needs.
type rescorer struct {
	s         *Service
	tenantID  int32
	brand     tenants.Brand
	det       *detect.Detector
	citations *citations.Repo
	queries   []queries.Query // of the profile, deleted ones included, in id order
}

func (s *Service) newRescorer(ctx context.Context, tenantID, brandProfileID int32) (*rescorer, error) {
	brand, err := s.Tenants.Brand(ctx, tenantID, brandProfileID)
	if errors.Is(err, tenants.ErrNotFound) {
		return nil, &meter.PermanentError{Message: fmt.Sprintf("brand profile %d does not exist", brandProfileID)}
	}
	if err != nil {
		return nil, meter.StoreErr("load brand profile", err)
	}
	comps, err := s.Competitors.List(ctx, tenantID)
	if err != nil {
		return nil, meter.StoreErr("load competitors", err)
	}
	all, err := s.Queries.List(ctx, tenantID)
	if err != nil {
		return nil, meter.StoreErr("load queries", err)
	}
	r := &rescorer{s: s, tenantID: tenantID, brand: brand, citations: citations.NewRepo(s.Table, s.Now),
		det: detect.New(entity(brand.Name, brand.Aliases, brand.Domains), competitorEntities(activeCompetitors(comps)))}
	for _, q := range all {
		if q.BrandProfileID == brandProfileID {
			r.queries = append(r.queries, q)
		}
	}
	return r, nil
}

// batch re-scores up to Deps.RescoreBatch answers from where prog stands, oldest
// first within each query, and returns where it stopped.
func (r *rescorer) batch(ctx context.Context, prog RescoreProgress) (RescoreProgress, error) {
	left := r.s.RescoreBatch
	for prog.Query < len(r.queries) {
		q := r.queries[prog.Query]
		sq := store.Query{Index: store.IndexGSI1, PK: byQueryPK(r.tenantID, q.ID), Limit: left}
		if prog.After != "" {
			sq.SK = store.KeyCond{Op: store.KeyGt, Value: prog.After}
		}
		page, err := r.s.Table.Query(ctx, sq)
		if err != nil {
			return prog, meter.StoreErr("read answers", err)
		}
		for _, it := range page.Items {
			counts, err := r.answer(ctx, it)
			if err != nil {
				return prog, err
			}
			prog.Counts.add(counts)
			prog.After = it.String(store.AttrGSI1SK)
			left--
		}
		if page.Cursor != "" || len(page.Items) == sq.Limit {
			if left == 0 {
				return prog, nil
			}
			continue
		}
		prog.Query, prog.After = prog.Query+1, ""
		if left == 0 {
			return prog, nil
		}
	}
	prog.Done = true
	return prog, nil
}

// maxAnswerAttempts bounds re-reads of an answer whose records another
// writer changed between read and write.
const maxAnswerAttempts = 5

// answer re-scores one stored answer.
func (r *rescorer) answer(ctx context.Context, it store.Item) (RescoreCounts, error) {
	for attempt := 1; ; attempt++ {
		counts, retry, err := r.answerOnce(ctx, it)
		if !retry || attempt == maxAnswerAttempts {
			return counts, err
		}
		fresh, gerr := r.s.Table.Get(ctx, store.Key{PK: it.String(store.AttrPK), SK: it.String(store.AttrSK)})
		if gerr != nil {
			return RescoreCounts{}, meter.StoreErr("re-read answer", gerr)
		}
		it = fresh
	}
}

// answerOnce writes one answer's new detection; retry reports that a
// record changed since it was read.
func (r *rescorer) answerOnce(ctx context.Context, it store.Item) (RescoreCounts, bool, error) {
	counts := RescoreCounts{Answers: 1}
	oldDoc := it.String(store.AttrDoc)
	old, err := store.Doc[VisibilityResult](it)
	if err != nil {
		return counts, false, &meter.PermanentError{Message: err.Error()}
	}
	ans := storedAnswer(old)
	cites := make([]detect.Citation, 0, len(ans.Citations))
	for _, c := range ans.Citations {
		cites = append(cites, detect.Citation{URL: c.URL, Title: c.Title})
	}
	res, err := r.det.Analyze(ctx, detect.Input{Text: old.AnswerText, Citations: cites, Query: old.QueryTextUsed})
	if err != nil {
		return counts, false, &meter.PermanentError{Message: fmt.Sprintf("detect: %v", err)}
	}
	vr := old
	vr.VisibilityScore, vr.Verdict, vr.Confidence, vr.Evidence = res.VisibilityScore, string(res.Verdict), res.Confidence, res.Evidence
	vr.Mentioned, vr.MentionCount, vr.Sentiment, vr.DetectorVersion = res.Brand.Mentioned, res.Brand.Count, string(res.Sentiment), res.Version
	vr.CompetitorMentions, vr.Discovered = map[string]int{}, nonNilStrings(res.Discovered)
	for _, c := range res.Competitors {
		if c.Mentioned {
			vr.CompetitorMentions[c.Name] = c.Count
		}
	}
	if reflect.DeepEqual(normalized(vr), normalized(old)) {
		return counts, false, nil
	}
	counts.Changed = 1
	switch {
	case vr.Mentioned && !old.Mentioned:
		counts.NewMentions = 1
	case !vr.Mentioned && old.Mentioned:
		counts.LostMentions = 1
	}
	var ops []store.Op
	citeOps, added, err := r.citationOps(ctx, &vr, ans, res)
	if err != nil {
		return counts, false, err
	}
	counts.CitationsUpdated, counts.CitationsAdded = len(citeOps)-added, added
	compOps, nComps, err := r.competitorOps(ctx, old.CompetitorMentions, vr.CompetitorMentions)
	if err != nil {
		return counts, false, err
	}
	counts.CompetitorsUpdated = nComps
	doc, err := store.EncodeDoc(vr)
	if err != nil {
		return counts, false, err
	}
	// The answer goes last: once it carries the new detection, the answer
	// is done. Citations are derived from it and may commit before it when
	// one transaction cannot hold them all.
	final := append(compOps, store.PutOp(visibilityItem(vr, doc), store.Eq(store.AttrDoc, oldDoc)))
	for len(citeOps)+len(final) > store.MaxTxOps {
		n := min(len(citeOps), store.MaxTxOps)
		if err := r.s.Table.TransactWrite(ctx, citeOps[:n]...); err != nil {
			return counts, errors.Is(err, store.ErrConditionFailed), meter.StoreErr("re-score citations", err)
		}
		citeOps = citeOps[n:]
	}
	ops = append(citeOps, final...)
	if err := r.s.Table.TransactWrite(ctx, ops...); err != nil {
		return counts, errors.Is(err, store.ErrConditionFailed), meter.StoreErr("re-score answer", err)
	}
	return counts, false, nil
}

// normalized is vr with the members detection writes made comparable (a
// nil and an empty list are the same).
func normalized(vr VisibilityResult) VisibilityResult {
	if len(vr.CompetitorMentions) == 0 {
		vr.CompetitorMentions = nil
	}
	if len(vr.Discovered) == 0 {
		vr.Discovered = nil
	}
	return vr
}

// storedAnswer is the platform's answer as the visibility result keeps it.
func storedAnswer(vr VisibilityResult) providers.Answer {
	ans := providers.Answer{Platform: vr.Platform, Text: vr.AnswerText, Model: vr.Model, AIOverviewState: vr.AIOverviewState}
	for _, p := range vr.CitedPages {
		ans.Citations = append(ans.Citations, providers.Citation{URL: p.URL, Title: p.Title, Start: -1, End: -1})
	}
	return ans
}

// citationOps rewrite the answer's citations with the new detection; an
// answer that now names the brand and has no mention citation gets one
// (its id is added to vr). added counts the new ones.
func (r *rescorer) citationOps(ctx context.Context, vr *VisibilityResult, ans providers.Answer, res detect.Result) ([]store.Op, int, error) {
	q := queryInfo{ID: vr.QueryID, Text: vr.QueryTextUsed}
	tmpl := citationBase(r.brand.Name, q, ans, res, *vr)
	var ops []store.Op
	hasMention := false
	for _, id := range vr.CitationIDs {
		c, err := r.citations.Get(ctx, r.tenantID, id)
		if errors.Is(err, citations.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, 0, meter.StoreErr("read citation", err)
		}
		hasMention = hasMention || c.URL == nil
		next := rescored(c, tmpl, res)
		if reflect.DeepEqual(next, c) {
			continue
		}
		next.UpdatedAt = r.s.Now().UTC()
		op, err := citations.ReplaceOp(next)
		if err != nil {
			return nil, 0, err
		}
		ops = append(ops, op)
	}
	if !res.Brand.Mentioned || hasMention {
		return ops, 0, nil
	}
	id, err := ids.Next(ctx, r.s.Table, tenants.PK(r.tenantID), "citation", 1)
	if err != nil {
		return nil, 0, meter.StoreErr("citation id", err)
	}
	// The mention citation a run would have written, first of the answer's.
	c := answerCitations(r.brand.Name, r.brand.Domains, q, ans, res, *vr)[0]
	c.ID, c.TenantID = id, r.tenantID
	c.UpdatedAt = r.s.Now().UTC()
	c.Tags = append(c.Tags, "rescored")
	vr.CitationIDs = append(vr.CitationIDs, id)
	op, err := citations.PutOp(c)
	if err != nil {
		return nil, 0, err
	}
	return append(ops, op), 1, nil
}

// rescored is c with the members that come from detection taken from tmpl
// (a citation of the same answer built from the new result); what c cites
// (url, title, source type, date) stays. A mention citation's snippet is
// the evidence; it keeps its "mention" tag only while the brand is named.
func rescored(c, tmpl citations.Citation, res detect.Result) citations.Citation {
	n := c
	n.BrandName, n.Sentiment, n.RelevanceScore = tmpl.BrandName, tmpl.Sentiment, tmpl.RelevanceScore
	n.EngagementMetrics, n.AICitationMetrics = tmpl.EngagementMetrics, tmpl.AICitationMetrics
	n.DetectionVerdict, n.DetectionConfidence, n.DetectionEvidence = tmpl.DetectionVerdict, tmpl.DetectionConfidence, tmpl.DetectionEvidence
	if c.URL == nil {
		n.Snippet = tmpl.DetectionEvidence
		n.Tags = slices.DeleteFunc(slices.Clone(c.Tags), func(t string) bool { return t == "mention" || t == "no_longer_mentioned" })
		if res.Brand.Mentioned {
			n.Tags = append([]string{"mention"}, n.Tags...)
		} else {
			n.Tags = append(n.Tags, "no_longer_mentioned")
		}
	}
	return n
}

// competitorOps move each tracked competitor's mention total by the
// difference between an answer's new and stored counts, conditional on
// the competitor as read.
func (r *rescorer) competitorOps(ctx context.Context, before, after map[string]int) ([]store.Op, int, error) {
	delta := map[string]int{}
	for name, n := range after {
		delta[strings.ToLower(name)] += n
	}
	for name, n := range before {
		delta[strings.ToLower(name)] -= n
	}
	for k, v := range delta {
		if v == 0 {
			delete(delta, k)
		}
	}
	if len(delta) == 0 {
		return nil, 0, nil
	}
	snaps, err := r.s.Competitors.Snapshots(ctx, r.tenantID)
	if err != nil {
		return nil, 0, meter.StoreErr("load competitors", err)
	}
	var ops []store.Op
	for _, snap := range snaps {
		d, ok := delta[strings.ToLower(snap.Value.NameOrEmpty())]
		if !ok {
			continue
		}
		c := snap.Value
		c.TotalMentions = max(0, c.TotalMentions+int32(d))
		now := r.s.Now().UTC()
		c.UpdatedAt = &now
		op, err := r.s.Competitors.ReplaceOp(snap, c)
		if err != nil {
			return nil, 0, err
		}
		ops = append(ops, op)
	}
	return ops, len(ops), nil
}

// rankAll sets every competitor's visibilityRank from the mention totals
// (as settles do), returning how many changed.
func (s *Service) rankAll(ctx context.Context, tenantID int32) (int, error) {
	for attempt := 1; ; attempt++ {
		snaps, err := s.Competitors.Snapshots(ctx, tenantID)
		if err != nil {
			return 0, meter.StoreErr("load competitors", err)
		}
		ranked := make([]competitors.Competitor, len(snaps))
		for i, sn := range snaps {
			ranked[i] = sn.Value
		}
		rankCompetitors(ranked)
		var ops []store.Op
		for i, c := range ranked {
			if equalRank(c.VisibilityRank, snaps[i].Value.VisibilityRank) {
				continue
			}
			op, err := s.Competitors.ReplaceOp(snaps[i], c)
			if err != nil {
				return 0, err
			}
			ops = append(ops, op)
		}
		for start := 0; start < len(ops); start += store.MaxTxOps {
			err = s.Table.TransactWrite(ctx, ops[start:min(start+store.MaxTxOps, len(ops))]...)
			if err != nil {
				break
			}
		}
		switch {
		case err == nil:
			return len(ops), nil
		case !errors.Is(err, store.ErrConditionFailed) || attempt == maxAnswerAttempts:
			return 0, meter.StoreErr("rank competitors", err)
		}
		time.Sleep(settleConflictWait)
	}
}
