package webhooks

import (
	"context"
	"errors"
	"fmt"
	"regexp"

	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/timeline"
)

// ErrInvalidCursor: a deliveries cursor that no page handed out.
var ErrInvalidCursor = errors.New("webhooks: invalid cursor")

// deliveryIDRE is what a delivery id looks like: dlv_<event id without
// evt_>_<subscription id without wh_>.
var deliveryIDRE = regexp.MustCompile(`^dlv_[0-9A-Za-z_]{1,124}$`)

// PageDeliveries returns up to limit deliveries of a subscription, newest
// first (a delivery id starts with its event's ULID), optionally of one
// status, after the delivery the cursor names (the next cursor of an
// earlier page; "" for the first). next is "" after the last page. The
// cursor is opaque to clients and holds no tenant or subscription: it only
// moves within the subscription the caller addresses.
func (s *Service) PageDeliveries(ctx context.Context, tenantID int32, subscriptionID, status string, limit int, cursor string) (page []Delivery, next string, err error) {
	if _, err := s.GetSubscription(ctx, tenantID, subscriptionID); err != nil {
		return nil, "", err
	}
	after := ""
	if cursor != "" {
		if after, err = timeline.DecodeCursor(cursor, deliveryIDRE.MatchString); err != nil {
			return nil, "", ErrInvalidCursor
		}
	}
	ds, last, err := timeline.PageAfter[Delivery](ctx, s.tbl, timeline.Query{PK: tenants.PK(tenantID),
		Prefix: "WHDELIVERY#" + subscriptionID + "#", Filter: timeline.StatusFilter("status", status), Limit: limit, Cursor: after})
	if err != nil {
		return nil, "", fmt.Errorf("webhooks: list deliveries: %w", err)
	}
	for i := range ds {
		ds[i].Attempts = legacyAttempts(ds[i].Attempts)
	}
	if last != "" {
		next = timeline.EncodeCursor(last)
	}
	return ds, next, nil
}
