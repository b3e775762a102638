package brandcheck

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"golang.org/x/text/cases"

	"github.com/brandlens/brandlens/shared/store"
)

// Keys of the brand check's items (see the README's access patterns).
func clientCounterKey(day, hash string) store.Key {
	return store.Key{PK: "BRANDCHECK#CLIENT#" + hash, SK: "DAY#" + day}
}

func budgetKey(day string) store.Key { return store.Key{PK: "BRANDCHECK#BUDGET", SK: "DAY#" + day} }

func cacheKey(day, brand, host string) store.Key {
	h := sha256.Sum256([]byte(cases.Fold().String(brand) + "\x00" + host))
	return store.Key{PK: "BRANDCHECK#CACHE#" + hex.EncodeToString(h[:]), SK: "DAY#" + day}
}

func checkKey(day, requestID string) store.Key {
	return store.Key{PK: "BRANDCHECK#DAY#" + day, SK: "CHECK#" + requestID}
}

// Record is what is kept of each check: the question, the answer and a
// keyed hash of who asked, never the address.
type Record struct {
	RequestID   string    `json:"requestId"`
	Day         string    `json:"day"`
	ClientHash  string    `json:"clientHash"`
	BrandName   string    `json:"brandName"`
	WebsiteURL  string    `json:"websiteUrl"`
	WebsiteHost string    `json:"websiteHost"`
	Questions   []string  `json:"questions"`
	Cached      bool      `json:"cached"`
	CostUSD     float64   `json:"costUsd"`
	DurationMS  int64     `json:"durationMs"`
	CreatedAt   time.Time `json:"createdAt"`
	Response    Response  `json:"response"`
}

// dayBounds returns the UTC day of now and the seconds to its end (at
// least 1).
func dayBounds(now time.Time) (day string, end time.Time, retryAfter int) {
	now = now.UTC()
	start := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	end = start.AddDate(0, 0, 1)
	retryAfter = int(end.Sub(now).Seconds())
	if end.Sub(now) > time.Duration(retryAfter)*time.Second {
		retryAfter++ // round up: never invite a retry before the reset
	}
	return now.Format(time.DateOnly), end, max(retryAfter, 1)
}

// admit counts the check before any work runs, in one transaction: the
// client's counter of the day (at most limit) and, for a check that will
// call the platforms, the day's global budget. Both conditions are checked
// by the table, so concurrent requests can never pass more than either.
func (s *Service) admit(ctx context.Context, day string, end time.Time, retryAfter int, hash string, fresh bool) error {
	ttl := end.Add(time.Hour).Unix()
	ops := []store.Op{store.UpdateOp(clientCounterKey(day, hash),
		store.Update{Add: map[string]int64{"n": 1}, Set: map[string]any{store.AttrExpiresAt: ttl}},
		store.Or(store.AttrNotExists("n"), store.Lt("n", int64(s.cfg.ClientDailyLimit))))}
	if fresh {
		ops = append(ops, store.UpdateOp(budgetKey(day),
			store.Update{Add: map[string]int64{"n": 1}, Set: map[string]any{store.AttrExpiresAt: ttl}},
			store.Or(store.AttrNotExists("n"), store.Lt("n", int64(s.cfg.DailyBudget)))))
	}
	err := s.tbl.TransactWrite(ctx, ops...)
	var txe *store.TxConditionError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &txe) && txe.Index == 0:
		return &RateLimitError{Limit: s.cfg.ClientDailyLimit, RetryAfter: retryAfter}
	case errors.As(err, &txe):
		return &UnavailableError{Reason: ReasonBudget, RetryAfter: retryAfter}
	}
	return fmt.Errorf("brandcheck: count check: %w", err)
}

// cached returns the stored result of the same brand and host today.
func (s *Service) cached(ctx context.Context, k store.Key) (Response, bool, error) {
	it, err := s.tbl.Get(ctx, k)
	if errors.Is(err, store.ErrNotFound) {
		return Response{}, false, nil
	}
	if err != nil {
		return Response{}, false, fmt.Errorf("brandcheck: read cache: %w", err)
	}
	r, err := store.Doc[Response](it)
	if err != nil {
		return Response{}, false, err
	}
	return r, true, nil
}

// save stores the check and, when every platform answered, the day's
// cache entry of its brand and host.
func (s *Service) save(ctx context.Context, rec Record, end time.Time, cache *store.Key) error {
	doc, err := store.EncodeDoc(rec)
	if err != nil {
		return err
	}
	k := checkKey(rec.Day, rec.RequestID)
	ops := []store.Op{store.PutOp(store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, store.AttrDoc: doc,
		"clientHash": rec.ClientHash, "cached": rec.Cached,
		store.AttrExpiresAt: rec.CreatedAt.Add(s.cfg.Retention).Unix()}, store.NotExists())}
	if cache != nil {
		rdoc, err := store.EncodeDoc(rec.Response)
		if err != nil {
			return err
		}
		ops = append(ops, store.PutOp(store.Item{store.AttrPK: cache.PK, store.AttrSK: cache.SK, store.AttrDoc: rdoc,
			store.AttrExpiresAt: end.Add(time.Hour).Unix()}, store.Cond{}))
	}
	if err := s.tbl.TransactWrite(ctx, ops...); err != nil {
		return fmt.Errorf("brandcheck: store check: %w", err)
	}
	return nil
}
