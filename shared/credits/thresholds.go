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
//   - credit.low fires when an operation takes the available balance from
//     at or above the low threshold to below it. The threshold is
//     max(10, 10% of the credits granted so far), rounded up to whole
//     credits. Staying low fires nothing more; only a change that lifts the
//     balance back to the threshold (a grant, or released holds) re-arms it.
//   - credit.ceiling_reached fires when an operation takes the credits spent
//     today (UTC) from below the daily ceiling to at or above it: at most
//     once per UTC day, as spending only grows within a day.
//
// The rule compares two states, so it is exact only when before is the
// ledger as it was when the change committed. Guard the ledger write with
// a condition on the values read (store.Eq(AttrAvailable, before.Available)
// …, retrying on conflict) or derive before from the state an atomic update
// returned, and append the events in the same transaction (events.Op).

// MinLowThreshold is the smallest low-balance threshold.
const MinLowThreshold = 10

// LowThreshold is the balance below which a ledger with granted credits
// is low: max(10, ⌈granted / 10⌉).
func LowThreshold(granted int64) int64 {
	return max(MinLowThreshold, (granted+9)/10)
}

// IsLow reports whether the available balance is below the low threshold.
func IsLow(b Balance) bool { return b.Available < LowThreshold(b.Granted) }

// ThresholdEvents returns the credit.low and credit.ceiling_reached events
// that the change from before to after crosses (none, one or both), for
// tenantID at now. ceiling is the tenant's daily credit ceiling (0 or less:
// no ceiling).
func ThresholdEvents(tenantID int32, before, after Balance, ceiling int64, now time.Time) ([]events.Event, error) {
	var out []events.Event
	if !IsLow(before) && IsLow(after) {
		ev, err := events.New(tenantID, events.CreditLow, events.CreditLowData{
			Balance: after.Available, Threshold: LowThreshold(after.Granted), Granted: after.Granted,
		}, now)
		if err != nil {
			return nil, err
		}
		out = append(out, ev)
	}
	if ceiling > 0 && before.SpentToday < ceiling && after.SpentToday >= ceiling {
		now = now.UTC()
		ev, err := events.New(tenantID, events.CreditCeilingReached, events.CreditCeilingReachedData{
			Ceiling: ceiling, SpentToday: after.SpentToday,
			ResetsAt: time.Date(now.Year(), now.Month(), now.Day()+1, 0, 0, 0, 0, time.UTC),
		}, now)
		if err != nil {
			return nil, err
		}
		out = append(out, ev)
	}
	return out, nil
}

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
// ceiling. Call it after each committed reservation, grant or release.
func (l *Ledger) CheckThresholds(ctx context.Context, tenantID int32, ceiling int64) error {
	b, err := l.Balance(ctx, tenantID)
	if err != nil {
		return err
	}
	now := l.now().UTC()
	fired := false
	if IsLow(b) {
		ev, err := events.New(tenantID, events.CreditLow, events.CreditLowData{
			Balance: b.Available, Threshold: LowThreshold(b.Granted), Granted: b.Granted}, now)
		if err != nil {
			return err
		}
		evOp, err := events.Op(ev)
		if err != nil {
			return err
		}
		err = l.tbl.TransactWrite(ctx,
			store.UpdateOp(lowStateKey(tenantID), store.Update{Set: map[string]any{"low": true}}, store.Ne("low", true)),
			evOp)
		switch {
		case err == nil:
			fired = true
		case !errors.Is(err, store.ErrConditionFailed):
			return fmt.Errorf("credits: credit.low: %w", err)
		}
	} else if _, err := l.tbl.Update(ctx, lowStateKey(tenantID), store.Update{Set: map[string]any{"low": false}}, store.Eq("low", true)); err != nil && !errors.Is(err, store.ErrConditionFailed) {
		return fmt.Errorf("credits: re-arm credit.low: %w", err)
	}
	if ceiling > 0 && b.SpentToday >= ceiling {
		ev, err := events.New(tenantID, events.CreditCeilingReached, events.CreditCeilingReachedData{
			Ceiling: ceiling, SpentToday: b.SpentToday,
			ResetsAt: time.Date(now.Year(), now.Month(), now.Day()+1, 0, 0, 0, 0, time.UTC),
		}, now)
		if err != nil {
			return err
		}
		ev.ID = ceilingEventID(now)
		err = events.Append(ctx, l.tbl, ev)
		switch {
		case err == nil:
			fired = true
		case !errors.Is(err, store.ErrConditionFailed):
			return err
		}
	}
	if fired {
		events.Notify()
	}
	return nil
}
