// Package timeline reads newest-first pages of records whose sort keys are
// a prefix and a ULID (gaps, opportunities, audit entries): by time range,
// with a filter, and with a cursor that is the id of the last record of the
// previous page. Paging by key instead of by the store's own cursor keeps a
// page exactly Limit long however the filter thins the partition.
package timeline

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/brandlens/brandlens/shared/store"
)

// Query selects records of one partition.
type Query struct {
	PK     string
	Prefix string // sort-key prefix before the ULID, e.g. "GAP#"
	// From and To bound the records' ULID times, inclusive at millisecond
	// precision; zero means unbounded.
	From, To time.Time
	Filter   store.Cond
	Limit    int
	// Cursor is the id of the last record of the previous page ("" first).
	Cursor string
}

// Page size bounds of every timeline listing.
const (
	DefaultLimit = 50
	MaxLimit     = 200
)

// ErrInvalidCursor: the cursor is not a record id this listing handed out.
var ErrInvalidCursor = errors.New("invalid cursor")

// ParseCursor checks a client's cursor: a lowercase ULID.
func ParseCursor(s string) (string, error) {
	if len(s) != ulid.EncodedSize {
		return "", ErrInvalidCursor
	}
	id, err := ulid.ParseStrict(s)
	if err != nil || strings.ToLower(id.String()) != s {
		return "", ErrInvalidCursor
	}
	return s, nil
}

// EncodeCursor makes the opaque cursor clients see of a record id: its
// base64url, so that they pass it back unchanged rather than build one.
func EncodeCursor(id string) string { return base64.RawURLEncoding.EncodeToString([]byte(id)) }

// DecodeCursor returns the record id of a cursor EncodeCursor made, or
// ErrInvalidCursor when c is not one or the id fails valid.
func DecodeCursor(c string, valid func(id string) bool) (string, error) {
	// Strict: one cursor per id (no trailing bits set to tell it apart).
	b, err := base64.RawURLEncoding.Strict().DecodeString(c)
	if err != nil || !valid(string(b)) {
		return "", ErrInvalidCursor
	}
	return string(b), nil
}

// timePrefix renders the 10-character ULID time prefix of t.
func timePrefix(t time.Time) string {
	if t.Before(time.Unix(0, 0)) {
		return "0000000000"
	}
	var id ulid.ULID
	if err := id.SetTime(ulid.Timestamp(t)); err != nil {
		return "7zzzzzzzzz" // past the year 10889
	}
	return strings.ToLower(id.String()[:10])
}

// ErrInvalidLimit: a limit outside 1..MaxLimit.
var ErrInvalidLimit = fmt.Errorf("limit must be 1 to %d", MaxLimit)

// Page returns up to q.Limit records newest first (0 means DefaultLimit),
// never nil, and the cursor of the next page ("" when there is none).
// ErrInvalidCursor and ErrInvalidLimit report bad input.
func Page[T any](ctx context.Context, tbl store.Table, q Query) ([]T, string, error) {
	if q.Cursor != "" {
		c, err := ParseCursor(q.Cursor)
		if err != nil {
			return nil, "", err
		}
		q.Cursor = c
	}
	return PageAfter[T](ctx, tbl, q)
}

// PageAfter is Page for records whose sort keys after the prefix are not
// bare ULIDs but sort newest first all the same (a job id, a webhook
// delivery id that starts with its event's ULID): q.Cursor is taken as the
// sort-key suffix of the last record of the previous page, which the
// caller has checked (it must come from a page this listing handed out).
// From and To apply only to ULID-keyed records.
func PageAfter[T any](ctx context.Context, tbl store.Table, q Query) ([]T, string, error) {
	if q.Limit == 0 {
		q.Limit = DefaultLimit
	}
	if q.Limit < 1 || q.Limit > MaxLimit {
		return nil, "", ErrInvalidLimit
	}
	lo, hi := q.Prefix, q.Prefix+"~"
	if !q.From.IsZero() {
		lo = q.Prefix + timePrefix(q.From)
	}
	if !q.To.IsZero() {
		hi = q.Prefix + timePrefix(q.To) + "~"
	}
	after := ""
	if q.Cursor != "" {
		after = q.Prefix + q.Cursor
		hi = min(hi, after)
	}
	sq := store.Query{PK: q.PK, SK: store.SKBetween(lo, hi), Desc: true, Limit: max(q.Limit+1, 50), Filter: q.Filter}
	var items []store.Item
	for len(items) <= q.Limit {
		page, err := tbl.Query(ctx, sq)
		if err != nil {
			return nil, "", fmt.Errorf("timeline: read %s: %w", q.Prefix, err)
		}
		for _, it := range page.Items {
			if it.String(store.AttrSK) != after { // the bound is inclusive: skip the cursor's own record
				items = append(items, it)
			}
		}
		if page.Cursor == "" {
			break
		}
		sq.Cursor = page.Cursor
	}
	next := ""
	if len(items) > q.Limit {
		items = items[:q.Limit]
		next = strings.TrimPrefix(items[q.Limit-1].String(store.AttrSK), q.Prefix)
	}
	out, err := store.Docs[T](items)
	return out, next, err
}

// StatusFilter selects records whose attribute attr equals status; "" selects all.
func StatusFilter(attr, status string) store.Cond {
	if status == "" {
		return store.Cond{}
	}
	return store.Eq(attr, status)
}
