package runs

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/brandlens/brandlens/shared/competitors"
	"github.com/brandlens/brandlens/shared/credits"
	"github.com/brandlens/brandlens/shared/detect"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/meter"
	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/workflow"
)

// maxDetectedPerRun caps the competitors one run may discover.
const maxDetectedPerRun = 20

// maxSettleAttempts bounds retries when another job's settle changed the
// same competitor records concurrently.
const maxSettleAttempts = 8

// Settle ends the job: it reads what RunPlatform recorded, decides each
// platform's status and the job's (succeeded, partial, failed), captures
// the credits of the samples that succeeded and releases the rest, updates
// the competitors, and emits the events — all in one transaction
// conditional on the job still running, so a duplicate Settle is a no-op.
func (s *Service) Settle(ctx context.Context, in SettleInput) (SettleOutput, error) {
	for attempt := 0; ; attempt++ {
		out, retry, err := s.settleOnce(ctx, in)
		if !retry || attempt+1 >= maxSettleAttempts {
			return out, err
		}
		time.Sleep(settleConflictWait * time.Duration(attempt+1))
	}
}

func (s *Service) settleOnce(ctx context.Context, in SettleInput) (SettleOutput, bool, error) {
	j, err := s.Jobs.Get(ctx, in.TenantID, in.JobID)
	if errors.Is(err, jobs.ErrNotFound) {
		return SettleOutput{JobID: in.JobID, Status: "missing"}, false, nil
	}
	if err != nil {
		return SettleOutput{}, false, storeErr("load job", err)
	}
	if jobs.Terminal(j.Status) {
		// A settle that stopped between its transaction and the fold of
		// its tally is finished here.
		s.foldTallies(ctx, j.TenantID, "")
		return SettleOutput{JobID: j.ID, Status: j.Status, CreditsCharged: j.CreditsCharged}, false, nil
	}
	from := j.Status // queued when the run failed before MarkRunning

	recorded, err := store.All(ctx, s.Table, store.Query{PK: tenants.PK(j.TenantID), SK: store.SKBeginsWith(resultPrefix(j.ID))})
	if err != nil {
		return SettleOutput{}, false, storeErr("read results", err)
	}
	succeeded := map[string][]PlatformOutput{}
	for _, it := range recorded {
		o, err := store.Doc[PlatformOutput](it)
		if err != nil {
			return SettleOutput{}, false, err
		}
		succeeded[o.Platform] = append(succeeded[o.Platform], o)
	}
	failures := map[string]string{}
	for _, r := range in.Results {
		if r.Status != jobs.StatusSucceeded && r.Error != nil {
			if _, ok := failures[r.Platform]; !ok {
				failures[r.Platform] = errorText(r.Error)
			}
		}
	}
	now := s.Now().UTC()
	var okSamples, mentionedTotal int
	results := map[string][]VisibilityResult{}
	for _, p := range j.Platforms {
		outs := succeeded[p]
		st := j.PerPlatformStatus[p]
		st.Samples = j.Samples
		st.Cost = int64(len(outs) * PricePerPlatformSample)
		okSamples += len(outs)
		mentions := 0
		var latency int64
		st.Truncated, st.CostUnknown = false, false
		for _, o := range outs {
			if o.Mentioned {
				mentions++
			}
			latency += o.LatencyMS
			st.Truncated = st.Truncated || o.Truncated
			st.CostUnknown = st.CostUnknown || o.CostUnknown
			if o.Model != "" {
				m := o.Model
				st.Model = &m
			}
			vr := VisibilityResult{ID: o.VisibilityResultID, VisibilityScore: o.Score,
				CompetitorMentions: o.CompetitorMentions, Discovered: o.Discovered}
			if !o.Counted {
				if vr, err = s.visibilityResult(ctx, j.TenantID, o.VisibilityResultID); err != nil {
					return SettleOutput{}, false, err
				}
			}
			results[p] = append(results[p], vr)
		}
		mentionedTotal += mentions
		st.Mentions = mentions
		switch {
		case len(outs) == j.Samples:
			st.Status = jobs.StatusSucceeded
		case len(outs) == 0:
			st.Status = jobs.StatusFailed
		default:
			st.Status = jobs.StatusPartial
		}
		if len(outs) > 0 {
			st.LatencyMS = latency / int64(len(outs))
			lo, hi := detect.WilsonInterval(mentions, len(outs))
			st.MentionRate = &jobs.Rate{Value: float64(mentions) / float64(len(outs)), Low: lo, High: hi}
		}
		if len(outs) < j.Samples {
			msg := failures[p]
			if msg == "" && in.Failure != nil {
				msg = errorText(in.Failure)
			}
			if msg == "" {
				msg = "the platform did not answer"
			}
			st.Error = &msg
		} else {
			st.Error = nil
		}
		j.PerPlatformStatus[p] = st
	}
	total := len(j.Platforms) * j.Samples
	switch {
	case okSamples == total && total > 0:
		j.Status = jobs.StatusSucceeded
	case okSamples == 0:
		j.Status = jobs.StatusFailed
	default:
		j.Status = jobs.StatusPartial
	}
	if j.Status == jobs.StatusFailed {
		msg := "every platform failed"
		if in.Failure != nil {
			msg = errorText(in.Failure)
		}
		j.Error = &msg
	}
	capture := int64(okSamples * PricePerPlatformSample)
	j.CreditsCharged = capture
	j.CompletedAt = &now
	if j.StartedAt == nil {
		j.StartedAt = &now
	}

	jobOp, err := jobs.UpdateOp(j, from)
	if err != nil {
		return SettleOutput{}, false, err
	}
	auditOp, err := meter.SettleAuditOp(ctx, s.Table, j, now)
	if err != nil {
		return SettleOutput{}, false, err
	}
	ops := []store.Op{jobOp, auditOp}
	hold, err := s.Ledger.GetHold(ctx, j.TenantID, j.ID)
	if err != nil {
		return SettleOutput{}, false, storeErr("read hold", err)
	}
	if hold.Status == credits.HoldHeld {
		settleOps, err := credits.SettleOps(j.TenantID, j.ID, hold, capture, now)
		if err != nil {
			return SettleOutput{}, false, err
		}
		ops = append(ops, settleOps...)
	}
	var evs []outbox.Event
	typ := outbox.ExecutionCompleted
	if j.Status == jobs.StatusFailed {
		typ = outbox.ExecutionFailed
	}
	ev, err := outbox.New(j.TenantID, typ, executionData(j), now)
	if err != nil {
		return SettleOutput{}, false, err
	}
	evs = append(evs, ev)

	scoreOps, scoreEvents, err := s.scoreChanges(ctx, j, results, now)
	if err != nil {
		return SettleOutput{}, false, err
	}
	evs = append(evs, scoreEvents...)
	if ops, err = appendEvents(ops, evs); err != nil {
		return SettleOutput{}, false, err
	}
	ops = append(ops, scoreOps...)
	// The competitors' statistics are folded in after this transaction,
	// from the tally it writes: every settle of a tenant would otherwise
	// rewrite the same competitor records and all but one of those racing
	// would start again (see foldTallies).
	if t := newTally(j, results, now); !t.empty() {
		op, err := t.putOp(j.TenantID)
		if err != nil {
			return SettleOutput{}, false, err
		}
		ops = append(ops, op)
	}
	err = s.Table.TransactWrite(ctx, ops...)
	var txe *store.TxConditionError
	switch {
	case errors.As(err, &txe) && txe.Index == 0:
		// Settled by a concurrent delivery: report what it decided.
		cur, gerr := s.Jobs.Get(ctx, j.TenantID, j.ID)
		if gerr != nil {
			return SettleOutput{}, false, storeErr("reload job", gerr)
		}
		return SettleOutput{JobID: cur.ID, Status: cur.Status, CreditsCharged: cur.CreditsCharged}, false, nil
	case errors.Is(err, store.ErrConditionFailed):
		// A score record changed under us: read again.
		return SettleOutput{}, true, storeErr("settle", err)
	case err != nil:
		return SettleOutput{}, false, storeErr("settle", err)
	}
	s.notify()
	s.foldTallies(ctx, j.TenantID, j.ID)
	s.Metrics.JobSettled(ctx, settledFigures(j.Status, j.Platforms, j.Samples, succeeded, capture))
	// Released credits may lift the balance back over the low threshold.
	if t, err := s.Tenants.Get(ctx, j.TenantID); err == nil {
		if err := s.Ledger.CheckThresholds(ctx, j.TenantID, t.DailyCreditCeiling); err != nil {
			s.Logger.Error("credit threshold events", "tenant_id", j.TenantID, "error", err.Error())
		}
	}
	return SettleOutput{JobID: j.ID, Status: j.Status, CreditsCharged: capture}, false, nil
}

func errorText(e *StateError) string {
	if e.Cause == "" {
		return e.Error
	}
	// A Lambda error's Cause is {"errorMessage","errorType"}; keep the message.
	return e.Error + ": " + workflow.CauseMessage(e.Cause)
}

func (s *Service) visibilityResult(ctx context.Context, tenantID, id int32) (VisibilityResult, error) {
	it, err := s.Table.Get(ctx, visibilityKey(tenantID, id))
	if err != nil {
		return VisibilityResult{}, storeErr("read visibility result", err)
	}
	return store.Doc[VisibilityResult](it)
}

// scoreKey holds the last settled average score of a query on a platform.
func scoreKey(tenantID, queryID int32, platform string) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: fmt.Sprintf("LASTSCORE#%010d#%s", queryID, platform)}
}

// scoreChanges records each platform's average visibility score of this
// run and emits visibility.dropped where it is below the previous run's.
func (s *Service) scoreChanges(ctx context.Context, j jobs.Job, results map[string][]VisibilityResult, now time.Time) ([]store.Op, []outbox.Event, error) {
	var ops []store.Op
	var evs []outbox.Event
	// Every platform's last score in one round trip.
	var ps []string
	var keys []store.Key
	for _, p := range sortedKeys(results) {
		if len(results[p]) > 0 {
			ps = append(ps, p)
			keys = append(keys, scoreKey(j.TenantID, *j.QueryID, p))
		}
	}
	last, err := store.GetMany(ctx, s.Table, keys...)
	if err != nil {
		return nil, nil, storeErr("read last scores", err)
	}
	for pi, p := range ps {
		vrs := results[p]
		sum := 0
		for _, v := range vrs {
			sum += v.VisibilityScore
		}
		avg := float64(sum) / float64(len(vrs))
		k, prev := keys[pi], last[pi]
		cond := store.NotExists()
		if prev != nil {
			prevScore := float64(prev.Int("scoreX100")) / 100
			if avg < prevScore {
				ev, err := outbox.New(j.TenantID, outbox.VisibilityDropped, outbox.VisibilityDroppedData{
					JobID: j.ID, QueryID: *j.QueryID, Platform: p, PreviousScore: prevScore, CurrentScore: avg,
					PreviousJobID: prev.String("jobId"),
				}, now)
				if err != nil {
					return nil, nil, err
				}
				evs = append(evs, ev)
			}
			cond = store.Eq("jobId", prev.String("jobId"))
		}
		ops = append(ops, store.PutOp(store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK,
			"scoreX100": int64(avg*100 + 0.5), "jobId": j.ID}, cond))
	}
	return ops, evs, nil
}

// competitorChange is the ops of one competitor and the events that must
// commit with them.
type competitorChange struct {
	ops    []store.Op
	events []outbox.Event
}

func appendEvents(ops []store.Op, evs []outbox.Event) ([]store.Op, error) {
	for _, e := range evs {
		op, err := outbox.Op(e)
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
	}
	return ops, nil
}

// competitorChanges folds tallies, in order, into the tracked competitors
// (totalMentions, lastDetected, visibilityRank), creates competitors for
// brands detected beside the tracked ones, and emits competitor.entered for
// every competitor named for the first time (attributed to the first tally
// that names it). Changes with events come first. Each change is
// conditional on what it read — the competitor unchanged, a detected name
// still unclaimed — so of folds racing over one competitor only one
// commits it (and its event); the others read again.
func (s *Service) competitorChanges(ctx context.Context, tenantID int32, tallies []tally) ([]competitorChange, error) {
	comps, err := s.Competitors.Snapshots(ctx, tenantID)
	if err != nil {
		return nil, storeErr("load competitors", err)
	}
	var entered, stats []competitorChange
	byName := map[string]bool{}
	updated := make([]competitors.Competitor, len(comps))
	enteredAt := map[int]outbox.Event{}
	index := map[string]int{}
	for i, snap := range comps {
		updated[i] = snap.Value
		key := strings.ToLower(snap.Value.NameOrEmpty())
		byName[key] = true
		index[key] = i
	}
	type discovery struct {
		name   string
		first  tally
		naming int32
	}
	var discoveredOrder []string
	discovered := map[string]*discovery{}
	for _, t := range tallies {
		// A brand this run discovered that is tracked by now (another run
		// detected it first) counts like a tracked one: its answers named it.
		mentions := map[string]int{}
		maps.Copy(mentions, t.Mentions)
		for key, n := range t.Naming {
			if _, ok := index[key]; ok {
				mentions[key] += int(n)
			}
		}
		for _, key := range slices.Sorted(maps.Keys(mentions)) {
			i, ok := index[key]
			n := mentions[key]
			if !ok || n == 0 {
				continue
			}
			c := updated[i]
			if c.TotalMentions == 0 {
				ev, err := outbox.New(tenantID, outbox.CompetitorEntered, outbox.CompetitorEnteredData{
					CompetitorID: c.ID, Name: c.NameOrEmpty(), DataSource: deref(c.DataSource), JobID: t.JobID,
					QueryID: t.QueryID, Platforms: t.Platforms[key], DetectedAt: t.At,
				}, t.At)
				if err != nil {
					return nil, err
				}
				enteredAt[i] = ev
			}
			updated[i].TotalMentions += int32(n)
			at := t.At
			if updated[i].LastDetected == nil || at.After(*updated[i].LastDetected) {
				updated[i].LastDetected = &at
			}
			updated[i].UpdatedAt = &at
		}
		for _, name := range t.Discovered {
			key := strings.ToLower(name)
			if _, tracked := index[key]; tracked {
				continue // counted above
			}
			if d, ok := discovered[key]; ok {
				d.naming += t.Naming[key]
				continue
			}
			discovered[key] = &discovery{name: name, first: t, naming: t.Naming[key]}
			discoveredOrder = append(discoveredOrder, key)
		}
	}
	rankCompetitors(updated)
	for i, c := range updated {
		ev, isEntered := enteredAt[i]
		if !isEntered && !competitorChanged(comps[i].Value, c) {
			continue
		}
		op, err := s.Competitors.ReplaceOp(comps[i], c)
		if err != nil {
			return nil, err
		}
		if isEntered {
			entered = append(entered, competitorChange{ops: []store.Op{op}, events: []outbox.Event{ev}})
		} else {
			stats = append(stats, competitorChange{ops: []store.Op{op}})
		}
	}
	// Newly detected brands become competitors (dataSource "detected"), at
	// most maxDetectedPerRun a fold so that it stays one transaction. The
	// name claim in the creating ops makes a brand detected by two folds at
	// once one competitor with one competitor.entered.
	created := 0
	for _, key := range discoveredOrder {
		if byName[key] || created == maxDetectedPerRun {
			continue
		}
		d := discovered[key]
		// It starts with the mentions that detected it: it has been named,
		// so naming it again later is not its first time (no second
		// competitor.entered).
		c, ops, err := s.Competitors.Prepare(ctx, competitors.Spec{TenantID: tenantID, Name: d.name,
			DataSource: competitors.SourceDetected, Mentions: d.naming, DetectedAt: d.first.At})
		if err != nil {
			return nil, storeErr("create detected competitor", err)
		}
		if ops == nil {
			continue // the name is taken
		}
		created++
		ev, err := outbox.New(tenantID, outbox.CompetitorEntered, outbox.CompetitorEnteredData{
			CompetitorID: c.ID, Name: d.name, DataSource: competitors.SourceDetected, JobID: d.first.JobID,
			QueryID: d.first.QueryID, Platforms: d.first.Platforms[key], DetectedAt: d.first.At,
		}, d.first.At)
		if err != nil {
			return nil, err
		}
		entered = append(entered, competitorChange{ops: ops, events: []outbox.Event{ev}})
	}
	return append(entered, stats...), nil
}

// rankCompetitors sets visibilityRank: 1 for the most mentioned; competitors
// never mentioned have no rank.
func rankCompetitors(cs []competitors.Competitor) {
	idx := make([]int, 0, len(cs))
	for i, c := range cs {
		if c.TotalMentions > 0 {
			idx = append(idx, i)
		} else {
			cs[i].VisibilityRank = nil
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return cs[idx[a]].TotalMentions > cs[idx[b]].TotalMentions })
	for r, i := range idx {
		rank := int32(r + 1)
		cs[i].VisibilityRank = &rank
	}
}

func competitorChanged(a, b competitors.Competitor) bool {
	return a.TotalMentions != b.TotalMentions || !equalRank(a.VisibilityRank, b.VisibilityRank) ||
		(b.LastDetected != nil && (a.LastDetected == nil || !a.LastDetected.Equal(*b.LastDetected)))
}

func equalRank(a, b *int32) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func appendOnce(s []string, v string) []string {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	return append(s, v)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
