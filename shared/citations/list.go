package citations

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/brandlens/brandlens/shared/store"
)

// Values of the sourceType and sentiment members, in documented order.
var (
	SourceTypes = []string{SourceAIResponse, SourceOrganicSearch, SourceInfoSite}
	Sentiments  = []string{SentimentPositive, SentimentNeutral, SentimentNegative, SentimentMixed}
)

// Filter selects citations. Zero members select everything.
type Filter struct {
	Platform   string
	Sentiment  string
	SourceType string
	HasMention *bool
	// DetectionVerdict is one of detect.Verdicts().
	DetectionVerdict string
	SearchQuery      string // case-insensitive substring of the query text
	DateFrom         time.Time
	DateTo           time.Time
}

// PageRequest addresses one page of a list, newest first: either the page
// that starts after Offset matching citations, or the page after a cursor.
type PageRequest struct {
	Size   int
	Offset int
	// After is the Next cursor of an earlier page; it overrides Offset.
	After string
}

// ListResult is one page of citations, newest first.
type ListResult struct {
	// Items are the stored documents, byte for byte: a stored citation is
	// the wire CitationDto (see Citation), so a list is served without
	// decoding and encoding each one.
	Items   []json.RawMessage
	HasMore bool
	// Next is the cursor of the following page, "" after the last one.
	Next string
}

// ErrBadCursor: the cursor is not one this list issued.
var ErrBadCursor = errors.New("citations: malformed cursor")

// scanBatch is how many index entries one store read evaluates; matches are
// counted in code because pages may be addressed by number.
const scanBatch = 500

// A cursor is the base64url of the last item's index sort key
// (dateKey#id). It holds no partition: the tenant comes from the caller, so
// a cursor can only ever move within the caller's own citations.
var cursorKey = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z#\d{10}$`)

func encodeCursor(sortKey string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(sortKey))
}

func decodeCursor(c string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || !cursorKey.Match(b) {
		return "", ErrBadCursor
	}
	sk := string(b)
	if _, err := time.Parse("2006-01-02T15:04:05.000000Z", sk[:strings.IndexByte(sk, '#')]); err != nil {
		return "", ErrBadCursor
	}
	return sk, nil
}

// List returns one page of the tenant's citations matching f, newest first.
// Work grows with Offset (the skipped matches are read), so callers bound
// it and read deeper with cursors, which start right where the last page
// ended.
func (r *Repo) List(ctx context.Context, tenantID int32, f Filter, pr PageRequest) (ListResult, error) {
	if pr.Size < 1 || pr.Offset < 0 {
		return ListResult{}, fmt.Errorf("citations: list: page size %d, offset %d", pr.Size, pr.Offset)
	}
	cond, filtered := f.cond()
	q := store.Query{
		Index:  store.IndexGSI1,
		PK:     byDatePK(tenantID),
		Desc:   true,
		Limit:  scanBatch,
		Filter: cond,
	}
	var lo, hi string // inclusive sort-key bounds; "" is open
	if !f.DateFrom.IsZero() {
		lo = dateKey(f.DateFrom)
	}
	if !f.DateTo.IsZero() {
		hi = dateKey(f.DateTo) + "#~"
	}
	skip, after := pr.Offset, ""
	if pr.After != "" {
		sk, err := decodeCursor(pr.After)
		if err != nil {
			return ListResult{}, err
		}
		skip, after = 0, sk
		if hi == "" || after < hi {
			// Inclusive here; the item at the cursor itself is dropped below.
			hi = after
		}
	}
	switch {
	case lo != "" && hi != "" && hi < lo:
		return ListResult{Items: []json.RawMessage{}}, nil // e.g. a cursor already past dateFrom
	case lo != "" && hi != "":
		q.SK = store.SKBetween(lo, hi)
	case lo != "":
		q.SK = store.KeyCond{Op: store.KeyGe, Value: lo}
	case hi != "":
		q.SK = store.KeyCond{Op: store.KeyLe, Value: hi}
	}
	var out []store.Item
	for {
		if !filtered {
			// Every entry read is kept: read no more than the page needs
			// (the skipped ones, the page, one to tell whether more follow,
			// and the cursor's own item).
			q.Limit = min(scanBatch, skip+pr.Size+2-len(out))
		}
		p, err := r.tbl.Query(ctx, q)
		if err != nil {
			return ListResult{}, fmt.Errorf("citations: list: %w", err)
		}
		for _, it := range p.Items {
			if after != "" && it.String(store.AttrGSI1SK) == after {
				continue
			}
			if skip > 0 {
				skip--
				continue
			}
			out = append(out, it)
		}
		// One item beyond the page tells whether another page exists.
		if len(out) > pr.Size || p.Cursor == "" {
			break
		}
		q.Cursor = p.Cursor
	}
	res := ListResult{HasMore: len(out) > pr.Size}
	if res.HasMore {
		out = out[:pr.Size]
		res.Next = encodeCursor(out[len(out)-1].String(store.AttrGSI1SK))
	}
	res.Items = make([]json.RawMessage, len(out))
	for i, it := range out {
		res.Items[i] = json.RawMessage(it.String(store.AttrDoc))
	}
	return res, nil
}

// cond is the store filter of f; filtered is false when f keeps everything.
func (f Filter) cond() (c store.Cond, filtered bool) {
	var cs []store.Cond
	if f.Platform != "" {
		cs = append(cs, store.Eq(attrPlatform, f.Platform))
	}
	if f.Sentiment != "" {
		cs = append(cs, store.Eq(attrSentiment, f.Sentiment))
	}
	if f.SourceType != "" {
		cs = append(cs, store.Eq(attrSourceType, f.SourceType))
	}
	if f.HasMention != nil {
		cs = append(cs, store.Eq(attrHasMention, *f.HasMention))
	}
	if f.DetectionVerdict != "" {
		cs = append(cs, store.Eq(attrVerdict, f.DetectionVerdict))
	}
	if f.SearchQuery != "" {
		cs = append(cs, store.Contains(attrQueryText, strings.ToLower(f.SearchQuery)))
	}
	return store.And(cs...), len(cs) > 0
}
