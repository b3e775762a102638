package runs

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
)

// A settled run's competitor mentions are not written into the competitor
// records in the run's own transaction: every run of a tenant names the
// same few competitors, so concurrent settles rewrote the same records and
// all but one of them failed its conditions and started again — 2.7 runs
// settled per second out of 50 submitted at once on DynamoDB Local. The
// settle's transaction writes a tally instead (COMPTALLY#<job>: what the
// run counted), and the settle then folds every pending tally of the
// tenant into the competitors in one transaction that also deletes them,
// so each tally counts exactly once. Folds racing over the same records
// retry on a fresh read; under load one fold takes the tallies of many
// settles at once. A tally left behind (a settle stopped, or a fold that
// kept losing) is folded by the tenant's next settle.

// tally is what one settled run counted of the competitors.
type tally struct {
	JobID   string    `json:"jobId"`
	QueryID int32     `json:"queryId"`
	At      time.Time `json:"at"`
	// Mentions of tracked competitors, by lower-cased name.
	Mentions map[string]int `json:"mentions,omitempty"`
	// Platforms that named each (tracked or discovered), by lower-cased name.
	Platforms map[string][]string `json:"platforms,omitempty"`
	// Discovered brands as first written, in first-seen order, and the
	// answers that named each (by lower-cased name).
	Discovered []string         `json:"discovered,omitempty"`
	Naming     map[string]int32 `json:"naming,omitempty"`
}

const tallyPrefix = "COMPTALLY#"

func tallyKey(tenantID int32, jobID string) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: tallyPrefix + jobID}
}

// newTally counts the competitors the run's answers name.
func newTally(j jobs.Job, results map[string][]VisibilityResult, now time.Time) tally {
	t := tally{JobID: j.ID, At: now, Mentions: map[string]int{}, Platforms: map[string][]string{}, Naming: map[string]int32{}}
	if j.QueryID != nil {
		t.QueryID = *j.QueryID
	}
	for _, p := range sortedKeys(results) {
		for _, vr := range results[p] {
			for name, n := range vr.CompetitorMentions {
				key := strings.ToLower(name)
				t.Mentions[key] += n
				t.Platforms[key] = appendOnce(t.Platforms[key], p)
			}
			for _, d := range vr.Discovered {
				key := strings.ToLower(d)
				if _, ok := t.Naming[key]; !ok {
					t.Discovered = append(t.Discovered, d)
				}
				t.Platforms[key] = appendOnce(t.Platforms[key], p)
				t.Naming[key]++
			}
		}
	}
	return t
}

func (t tally) empty() bool { return len(t.Mentions) == 0 && len(t.Discovered) == 0 }

func (t tally) putOp(tenantID int32) (store.Op, error) {
	doc, err := store.EncodeDoc(t)
	if err != nil {
		return store.Op{}, err
	}
	k := tallyKey(tenantID, t.JobID)
	return store.PutOp(store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, store.AttrDoc: doc}, store.NotExists()), nil
}

// Bounds of a fold: the tallies one transaction takes, and the attempts
// against racing folds before the tallies are left to a later settle.
const (
	foldBatch       = 25
	maxFoldAttempts = 8
)

// foldTallies folds the tenant's pending tallies into its competitors; it
// logs what it could not do (the tallies stay for the next fold). own is
// the tally this settle wrote ("" for none): when a racing fold won and
// took it, the winner folded what this settle waited for, and trying
// again would only conflict with the next winner (each failed transaction
// is billed for its writes).
func (s *Service) foldTallies(ctx context.Context, tenantID int32, own string) {
	for attempt := 0; attempt < maxFoldAttempts; {
		more, err := s.foldOnce(ctx, tenantID)
		switch {
		case err == nil && !more:
			return
		case err == nil:
			attempt = 0 // a full batch was folded: take the next
		case errors.Is(err, store.ErrConditionFailed):
			if own != "" {
				if _, gerr := s.Table.Get(ctx, tallyKey(tenantID, own)); errors.Is(gerr, store.ErrNotFound) {
					return
				}
			}
			attempt++
			// Another fold won: read again after a jittered pause.
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Duration(rand.Int64N(int64(settleConflictWait) << min(attempt, 4)))):
			}
		default:
			s.Logger.Warn("settle: competitor tallies left for a later settle", "tenant_id", tenantID, "error", err.Error())
			return
		}
	}
	s.Logger.Info("settle: competitor tallies left for a later settle (other folds kept winning)", "tenant_id", tenantID)
}

// foldOnce folds up to foldBatch pending tallies in one transaction; more
// says a full batch was taken (others may wait).
func (s *Service) foldOnce(ctx context.Context, tenantID int32) (more bool, err error) {
	p, err := s.Table.Query(ctx, store.Query{PK: tenants.PK(tenantID), SK: store.SKBeginsWith(tallyPrefix), Limit: foldBatch})
	if err != nil || len(p.Items) == 0 {
		return false, err
	}
	tallies := make([]tally, 0, len(p.Items))
	for _, it := range p.Items {
		t, err := store.Doc[tally](it)
		if err != nil {
			return false, err
		}
		tallies = append(tallies, t)
	}
	for n := len(tallies); n > 0; n /= 2 {
		changes, err := s.competitorChanges(ctx, tenantID, tallies[:n])
		if err != nil {
			return false, err
		}
		var ops []store.Op
		for _, t := range tallies[:n] {
			ops = append(ops, store.DeleteOp(tallyKey(tenantID, t.JobID), store.AttrExists(store.AttrPK)))
		}
		for _, c := range changes {
			ops = append(ops, c.ops...)
			if ops, err = appendEvents(ops, c.events); err != nil {
				return false, err
			}
		}
		if len(ops) > store.MaxTxOps && n > 1 {
			continue // too many changes for one transaction: fewer tallies
		}
		if len(ops) > store.MaxTxOps {
			return false, errors.New("runs: one tally's competitor changes exceed a transaction")
		}
		if err := s.Table.TransactWrite(ctx, ops...); err != nil {
			return false, err
		}
		s.notify()
		return p.Cursor != "" || n < len(tallies), nil
	}
	return false, nil
}
