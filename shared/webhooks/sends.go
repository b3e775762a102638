package webhooks

import (
	"fmt"
	"strconv"
	"time"

	"github.com/brandlens/brandlens/shared/store"
)

// Manual sends — redeliveries and pings — each start a cycle of up to
// MaxAttempts POSTs to a URL the tenant chose, so that left unbounded they
// would turn the service into a traffic amplifier. Each API key may start
// ManualSendLimit of them per clock hour (UTC); the counter changes in the
// transaction that starts the send, so concurrent calls can never pass it
// and a refused or failed call does not count.
const (
	ManualSendLimit  = 30
	manualSendWindow = time.Hour
)

// LimitError: the key has used up its manual sends of the hour.
type LimitError struct {
	Limit int
	// RetryAfter is the time to the end of the window.
	RetryAfter time.Duration
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("webhooks: %d redeliveries and pings per hour per API key exceeded; retry after %s", e.Limit, e.RetryAfter)
}

// manualSendOp counts one manual send of keyID at now, on the condition
// that the window's count is below the limit; limit says how long to wait
// when it is not.
func manualSendOp(keyID string, now time.Time) (op store.Op, limit func() error) {
	window := now.Truncate(manualSendWindow)
	end := window.Add(manualSendWindow)
	k := store.Key{PK: "RATE#" + keyID, SK: "MANUALSEND#" + strconv.FormatInt(window.Unix(), 10)}
	op = store.UpdateOp(k,
		store.Update{Add: map[string]int64{"n": 1}, Set: map[string]any{store.AttrExpiresAt: end.Add(time.Minute).Unix()}},
		store.Or(store.AttrNotExists("n"), store.Lt("n", ManualSendLimit)))
	return op, func() error {
		return &LimitError{Limit: ManualSendLimit, RetryAfter: max(end.Sub(now), time.Second)}
	}
}
