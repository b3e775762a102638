// Package credits holds the one credit ledger that meters a tenant's usage.
//
// The ledger item of a tenant keeps four counters: available, held (reserved
// by running jobs), captured (charged) and granted, with the invariant
// available + held + captured = granted after any sequence of operations.
//
// A per-day item keeps two counts of a UTC day. "Committed" (attribute
// spent, its name from before the distinction) is what jobs created that
// day reserved and did not get back — held or captured —, the count the
// daily ceiling is checked against, so that a burst of reservations cannot
// pass the ceiling before any of them is captured. "Spent" (attribute
// captured) is what was captured that day: credits actually charged, the
// spent_today the API shows. Held credits are shown apart, as held.
package credits

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/brandlens/brandlens/shared/ids"
	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
)

// Ledger counter attributes.
const (
	AttrAvailable = "available"
	AttrHeld      = "held"
	AttrCaptured  = "captured"
	AttrGranted   = "granted"
	// AttrSpent is the day item's committed count (held or captured by the
	// day's reservations); the daily ceiling counts it.
	AttrSpent = "spent"
	// AttrCapturedToday is the day item's captured count: credits charged
	// that day.
	AttrCapturedToday = "captured"
)

// LedgerKey is the tenant's ledger item.
func LedgerKey(tenantID int32) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: "LEDGER"}
}

// DayKey is the tenant's spend item of the UTC day of t.
func DayKey(tenantID int32, t time.Time) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: "SPEND#" + t.UTC().Format("2006-01-02")}
}

// Balance is a tenant's ledger as read.
type Balance struct {
	Available int64 `json:"available"`
	Held      int64 `json:"held"`
	Captured  int64 `json:"captured"`
	Granted   int64 `json:"granted"`
	// SpentToday is what was captured (charged) this UTC day.
	SpentToday int64 `json:"spentToday"`
	// CommittedToday is what this UTC day's reservations hold or captured:
	// the count the daily ceiling is checked against.
	CommittedToday int64 `json:"committedToday"`
}

// Ledger reads and changes the credit ledger.
type Ledger struct {
	tbl store.Table
	now func() time.Time
}

// NewLedger returns the ledger.
func NewLedger(tbl store.Table, now func() time.Time) *Ledger {
	if now == nil {
		now = time.Now
	}
	return &Ledger{tbl: tbl, now: now}
}

// Balance reads the tenant's ledger and today's spend.
func (l *Ledger) Balance(ctx context.Context, tenantID int32) (Balance, error) {
	var b Balance
	it, err := l.tbl.Get(ctx, LedgerKey(tenantID))
	switch {
	case err == nil:
		b.Available, b.Held, b.Captured, b.Granted = it.Int(AttrAvailable), it.Int(AttrHeld), it.Int(AttrCaptured), it.Int(AttrGranted)
	case !errors.Is(err, store.ErrNotFound):
		return Balance{}, fmt.Errorf("credits: read ledger: %w", err)
	}
	day, err := l.tbl.Get(ctx, DayKey(tenantID, l.now()))
	switch {
	case err == nil:
		b.SpentToday, b.CommittedToday = day.Int(AttrCapturedToday), day.Int(AttrSpent)
	case !errors.Is(err, store.ErrNotFound):
		return Balance{}, fmt.Errorf("credits: read day: %w", err)
	}
	return b, nil
}

// Grant adds n credits (n > 0) to the tenant's ledger and records the grant
// as a ledger entry, in one transaction.
func (l *Ledger) Grant(ctx context.Context, tenantID int32, n int64, reason string) error {
	if n <= 0 {
		return fmt.Errorf("credits: grant %d: must be positive", n)
	}
	now := l.now().UTC()
	entry := store.Item{
		store.AttrPK: tenants.PK(tenantID), store.AttrSK: "LEDGERENTRY#" + ids.ULID(now),
		"kind": "grant", "amount": n, "reason": reason, "at": now.Format(time.RFC3339Nano),
	}
	err := l.tbl.TransactWrite(ctx,
		store.UpdateOp(LedgerKey(tenantID), store.Update{Add: map[string]int64{AttrAvailable: n, AttrGranted: n}}, store.Cond{}),
		store.PutOp(entry, store.NotExists()),
	)
	if err != nil {
		return fmt.Errorf("credits: grant: %w", err)
	}
	// A grant may lift a low balance back over the threshold (re-arming
	// credit.low); it never reaches the daily ceiling.
	return l.CheckThresholds(ctx, tenantID, 0)
}

// SecondsToUTCMidnight is the Retry-After of a reached daily ceiling.
func SecondsToUTCMidnight(now time.Time) int {
	return int(nextUTCMidnight(now).Sub(now).Seconds() + 0.999)
}

// nextUTCMidnight is when the daily ceiling of now's UTC day resets.
func nextUTCMidnight(now time.Time) time.Time {
	now = now.UTC()
	return time.Date(now.Year(), now.Month(), now.Day()+1, 0, 0, 0, 0, time.UTC)
}

// holdKey is the item recording credits reserved for one job.
func holdKey(tenantID int32, jobID string) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: "HOLD#" + jobID}
}

// Hold states.
const (
	HoldHeld    = "HELD"
	HoldSettled = "SETTLED"
)

// ReserveOps are the transaction ops that move cost from available to held
// for a job, under the daily ceiling. They must run in the same transaction
// as the job's creation. Conditions cannot do arithmetic, so the ceiling is
// compared against ceiling - cost computed here. The ops are, in order: the
// ledger (fails: insufficient credits), the day (fails: ceiling reached),
// the hold record.
func ReserveOps(tenantID int32, jobID string, cost, ceiling int64, now time.Time) []store.Op {
	day := DayKey(tenantID, now)
	return []store.Op{
		store.UpdateOp(LedgerKey(tenantID),
			store.Update{Add: map[string]int64{AttrAvailable: -cost, AttrHeld: cost}},
			store.Ge(AttrAvailable, cost)),
		store.UpdateOp(day,
			store.Update{Add: map[string]int64{AttrSpent: cost}, Set: map[string]any{store.AttrExpiresAt: now.Add(dayItemTTL).Unix()}},
			store.Or(store.AttrNotExists(AttrSpent), store.Le(AttrSpent, ceiling-cost))),
		store.PutOp(store.Item{
			store.AttrPK: holdKey(tenantID, jobID).PK, store.AttrSK: holdKey(tenantID, jobID).SK,
			"status": HoldHeld, "amount": cost, "day": day.SK,
		}, store.NotExists()),
	}
}

// Reserve op positions within ReserveOps, for telling failures apart.
const (
	ReserveOpLedger = 0
	ReserveOpDay    = 1
	ReserveOpHold   = 2
)

// Hold is a reservation as stored.
type Hold struct {
	Amount int64
	Status string
	DaySK  string
}

// GetHold reads the hold of a job.
func (l *Ledger) GetHold(ctx context.Context, tenantID int32, jobID string) (Hold, error) {
	it, err := l.tbl.Get(ctx, holdKey(tenantID, jobID))
	if err != nil {
		return Hold{}, fmt.Errorf("credits: read hold of %s: %w", jobID, err)
	}
	return Hold{Amount: it.Int("amount"), Status: it.String("status"), DaySK: it.String("day")}, nil
}

// SettleOps capture `capture` credits of the job's hold and release the
// rest: the released part goes back to the committed count of the day the
// hold was made (the ceiling's allowance), the captured part is counted as
// spent on the UTC day of now. The hold must still be HELD, so a repeated
// settle fails its condition and changes nothing: callers treat that as
// "already settled".
func SettleOps(tenantID int32, jobID string, h Hold, capture int64, now time.Time) ([]store.Op, error) {
	if capture < 0 || capture > h.Amount {
		return nil, fmt.Errorf("credits: capture %d of a %d hold", capture, h.Amount)
	}
	release := h.Amount - capture
	ops := []store.Op{
		store.UpdateOp(holdKey(tenantID, jobID),
			store.Update{Set: map[string]any{"status": HoldSettled, "captured": capture}},
			store.Eq("status", HoldHeld)),
		store.UpdateOp(LedgerKey(tenantID),
			store.Update{Add: map[string]int64{AttrHeld: -h.Amount, AttrCaptured: capture, AttrAvailable: release}},
			store.Cond{}),
	}
	today := DayKey(tenantID, now)
	sameDay := h.DaySK == today.SK
	if release > 0 && h.DaySK != "" {
		add := map[string]int64{AttrSpent: -release}
		if sameDay && capture > 0 {
			// One action per item and transaction: both counts at once.
			add[AttrCapturedToday] = capture
		}
		ops = append(ops, store.UpdateOp(store.Key{PK: tenants.PK(tenantID), SK: h.DaySK},
			store.Update{Add: add}, store.Exists()))
		if sameDay {
			return ops, nil
		}
	}
	if capture > 0 {
		ops = append(ops, store.UpdateOp(today, store.Update{Add: map[string]int64{AttrCapturedToday: capture},
			Set: map[string]any{store.AttrExpiresAt: now.Add(dayItemTTL).Unix()}}, store.Cond{}))
	}
	return ops, nil
}

// dayItemTTL is how long a day item is kept after its last reservation or
// capture.
const dayItemTTL = 72 * time.Hour

// InsufficientCreditsRetryAfter is the Retry-After of a 402: held credits
// of running jobs may come back within about a minute.
const InsufficientCreditsRetryAfter = 60

// Threshold rule of the credit events:
//
//   - credit.low fires when the available balance falls below the low
//     threshold, max(10, 10% of the credits granted so far) rounded up to
//     whole credits. Staying low fires nothing more; only a change that
//     lifts the balance back to the threshold (a grant, or released holds)
//     re-arms it.
//   - credit.ceiling_reached fires when the credits committed today (UTC,
//     held or captured) reach the daily ceiling: at most once per UTC day.
//
// Both are decided from the ledger as stored, each exactly once however
// many writers race: the low state is a flag flipped under a condition in
// the transaction that appends credit.low, and the day credit.ceiling_reached
// last fired is stored under a condition in the transaction that appends it.

// MinLowThreshold is the smallest low-balance threshold.
const MinLowThreshold = 10

// LowThreshold is the balance below which a ledger with granted credits
// is low: max(10, ⌈granted / 10⌉).
func LowThreshold(granted int64) int64 {
	return max(MinLowThreshold, (granted+9)/10)
}

// IsLow reports whether the available balance is below the low threshold.
func IsLow(b Balance) bool { return b.Available < LowThreshold(b.Granted) }

// lowStateKey remembers whether the tenant's balance is low, so that
// credit.low fires once per crossing even under concurrent writes.
func lowStateKey(tenantID int32) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: "CREDITLOW"}
}

// ceilingStateKey remembers the UTC day credit.ceiling_reached last fired,
// so that it fires once a day under concurrent writes. The event keeps an
// ordinary evt_<ULID> id: a fixed per-day id was the same for every tenant,
// and consumers dedupe on event_id across tenants.
func ceilingStateKey(tenantID int32) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: "CREDITCEILING"}
}

// CheckThresholds emits the credit events the ledger's current state calls
// for, each exactly once however many writers race here: credit.low when
// the balance is below the low threshold and was not already flagged low
// (re-armed when the balance is back at or above it), and
// credit.ceiling_reached once per UTC day when today's committed credits
// reached the ceiling (0 or less: no ceiling). Call it after each committed
// reservation, grant or release.
func (l *Ledger) CheckThresholds(ctx context.Context, tenantID int32, ceiling int64) error {
	b, err := l.Balance(ctx, tenantID)
	if err != nil {
		return err
	}
	now := l.now().UTC()
	low, err := l.checkLow(ctx, tenantID, b, now)
	if err != nil {
		return err
	}
	reached, err := l.checkCeiling(ctx, tenantID, b, ceiling, now)
	if err != nil {
		return err
	}
	if low || reached {
		outbox.Notify()
	}
	return nil
}

// checkLow flags the balance low and appends credit.low in one transaction
// when it has just become low, or re-arms the flag when it is not low.
func (l *Ledger) checkLow(ctx context.Context, tenantID int32, b Balance, now time.Time) (fired bool, err error) {
	if !IsLow(b) {
		_, err := l.tbl.Update(ctx, lowStateKey(tenantID), store.Update{Set: map[string]any{"low": false}}, store.Eq("low", true))
		if err != nil && !errors.Is(err, store.ErrConditionFailed) {
			return false, fmt.Errorf("credits: re-arm credit.low: %w", err)
		}
		return false, nil
	}
	ev, err := outbox.New(tenantID, outbox.CreditLow, outbox.CreditLowData{
		Balance: b.Available, Threshold: LowThreshold(b.Granted), Granted: b.Granted}, now)
	if err != nil {
		return false, err
	}
	return l.fireOnce(ctx, lowStateKey(tenantID), "low", true, ev) // false: already low
}

// checkCeiling appends today's credit.ceiling_reached when the committed
// credits have reached the ceiling and the event is not there yet.
func (l *Ledger) checkCeiling(ctx context.Context, tenantID int32, b Balance, ceiling int64, now time.Time) (fired bool, err error) {
	if ceiling <= 0 || b.CommittedToday < ceiling {
		return false, nil
	}
	ev, err := outbox.New(tenantID, outbox.CreditCeilingReached, outbox.CreditCeilingReachedData{
		Ceiling: ceiling, SpentToday: b.SpentToday, CommittedToday: b.CommittedToday, ResetsAt: nextUTCMidnight(now),
	}, now)
	if err != nil {
		return false, err
	}
	return l.fireOnce(ctx, ceilingStateKey(tenantID), "day", now.Format("20060102"), ev) // false: already reached today
}

// fireOnce appends ev together with setting the state item's attr to v, on
// the condition that it does not hold v already: of racing writers, one
// appends the event and the others see it fired (false).
func (l *Ledger) fireOnce(ctx context.Context, state store.Key, attr string, v any, ev outbox.Event) (fired bool, err error) {
	evOp, err := outbox.Op(ev)
	if err != nil {
		return false, err
	}
	err = l.tbl.TransactWrite(ctx, store.UpdateOp(state, store.Update{Set: map[string]any{attr: v}}, store.Ne(attr, v)), evOp)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, store.ErrConditionFailed):
		return false, nil
	}
	return false, fmt.Errorf("credits: %s: %w", ev.Type, err)
}
