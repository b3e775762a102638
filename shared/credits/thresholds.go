package credits

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/brandlens/brandlens/shared/events"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
)

// Threshold rule of the credit events:
//
//   - credit.low fires when the available balance falls below the low
//     threshold, max(10, 10% of the credits granted so far) rounded up to
//     whole credits. Staying low fires nothing more; only a change that
//     lifts the balance back to the threshold (a grant, or released holds)
//     re-arms it.
//   - credit.ceiling_reached fires when the credits spent today (UTC) reach
//     the daily ceiling: at most once per UTC day, as spending only grows
//     within a day.
//
// Both are decided from the ledger as stored, each exactly once however
// many writers race: the low state is a flag flipped under a condition in
// the transaction that appends credit.low, and credit.ceiling_reached has
// one event id per tenant and day.

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

// ceilingEventID makes credit.ceiling_reached unique per tenant per UTC day.
func ceilingEventID(now time.Time) string { return "evt_ceiling_" + now.UTC().Format("20060102") }

// CheckThresholds emits the credit events the ledger's current state calls
// for, each exactly once however many writers race here: credit.low when
// the balance is below the low threshold and was not already flagged low
// (re-armed when the balance is back at or above it), and
// credit.ceiling_reached once per UTC day when today's spend reached the
// ceiling (0 or less: no ceiling). Call it after each committed
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
		events.Notify()
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
	ev, err := events.New(tenantID, events.CreditLow, events.CreditLowData{
		Balance: b.Available, Threshold: LowThreshold(b.Granted), Granted: b.Granted}, now)
	if err != nil {
		return false, err
	}
	evOp, err := events.Op(ev)
	if err != nil {
		return false, err
	}
	err = l.tbl.TransactWrite(ctx,
		store.UpdateOp(lowStateKey(tenantID), store.Update{Set: map[string]any{"low": true}}, store.Ne("low", true)),
		evOp)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, store.ErrConditionFailed):
		return false, nil // already low
	}
	return false, fmt.Errorf("credits: credit.low: %w", err)
}

// checkCeiling appends today's credit.ceiling_reached when the spend has
// reached the ceiling and the event is not there yet.
func (l *Ledger) checkCeiling(ctx context.Context, tenantID int32, b Balance, ceiling int64, now time.Time) (fired bool, err error) {
	if ceiling <= 0 || b.SpentToday < ceiling {
		return false, nil
	}
	ev, err := events.New(tenantID, events.CreditCeilingReached, events.CreditCeilingReachedData{
		Ceiling: ceiling, SpentToday: b.SpentToday, ResetsAt: nextUTCMidnight(now),
	}, now)
	if err != nil {
		return false, err
	}
	ev.ID = ceilingEventID(now)
	err = events.Append(ctx, l.tbl, ev)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, store.ErrConditionFailed):
		return false, nil // already reached today
	}
	return false, err
}
