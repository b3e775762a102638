package citations

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/brandlens/brandlens/shared/platforms"
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
	// decoding and encoding each one (nor copying it).
	Items   []string
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
//
// A filter on platform or mention reads only the GSI2 partitions of the
// values asked for (one for both, two for a platform, one per platform for
// a mention), merged newest first; the other filters are applied to what
// those partitions hold. Without either, GSI1 holds every citation by date.
func (r *Repo) List(ctx context.Context, tenantID int32, f Filter, pr PageRequest) (ListResult, error) {
	if pr.Size < 1 || pr.Offset < 0 {
		return ListResult{}, fmt.Errorf("citations: list: page size %d, offset %d", pr.Size, pr.Offset)
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
	var skc store.KeyCond
	switch {
	case lo != "" && hi != "" && hi < lo:
		return ListResult{Items: []string{}}, nil // e.g. a cursor already past dateFrom
	case lo != "" && hi != "":
		skc = store.SKBetween(lo, hi)
	case lo != "":
		skc = store.KeyCond{Op: store.KeyGe, Value: lo}
	case hi != "":
		skc = store.KeyCond{Op: store.KeyLe, Value: hi}
	}
	// The skipped matches, the page, one to tell whether more follow, and
	// the cursor's own item.
	need := skip + pr.Size + 2
	qs, err := r.queries(ctx, tenantID, f, skc, need)
	if err != nil {
		return ListResult{}, err
	}
	m, err := store.MergeRows(r.tbl, qs...)
	if err != nil {
		return ListResult{}, fmt.Errorf("citations: list: %w", err)
	}
	// One item beyond the page tells whether another page exists.
	res := ListResult{Items: make([]string, 0, pr.Size+1)}
	var lastKey string
	for len(res.Items) <= pr.Size {
		row, ok, err := m.Next(ctx)
		if err != nil {
			return ListResult{}, fmt.Errorf("citations: list: %w", err)
		}
		if !ok {
			break
		}
		if after != "" && row[listDateKey] == after {
			continue
		}
		if skip > 0 {
			skip--
			continue
		}
		if len(res.Items) < pr.Size {
			lastKey = row[listDateKey]
		}
		res.Items = append(res.Items, row[listDoc])
	}
	if res.HasMore = len(res.Items) > pr.Size; res.HasMore {
		res.Items = res.Items[:pr.Size]
		res.Next = encodeCursor(lastKey)
	}
	return res, nil
}

// listAttrs are what a list reads of an item (as rows: store.QueryRows):
// the document it answers, the sort keys it merges and pages by, the table
// key that breaks ties. listDoc and listDateKey are their places.
var listAttrs = []string{store.AttrDoc, store.AttrGSI1SK, store.AttrGSI2SK, store.AttrPK, store.AttrSK}

const (
	listDoc     = 0
	listDateKey = 1
)

// queries are the index reads whose merge, newest first, is every citation
// of the tenant in skc that f keeps; need is how many the page needs.
func (r *Repo) queries(ctx context.Context, tenantID int32, f Filter, skc store.KeyCond, need int) ([]store.Query, error) {
	faceted := f.Platform != "" || f.HasMention != nil
	if faceted {
		ok, err := r.Indexed(ctx)
		if err != nil {
			return nil, err
		}
		faceted = ok
	}
	if !faceted {
		q := store.Query{Index: store.IndexGSI1, PK: byDatePK(tenantID), SK: skc, Desc: true, Limit: scanBatch, Attrs: listAttrs}
		var filtered bool
		q.Filter, filtered = f.cond()
		if !filtered {
			// Every entry read is kept: read no more than the page needs.
			q.Limit = min(scanBatch, need)
		}
		return []store.Query{q}, nil
	}
	platformsOf := []string{f.Platform}
	if f.Platform == "" {
		platformsOf = append(slices.Clone(platforms.All), "")
	}
	mentions := []bool{false, true}
	if f.HasMention != nil {
		mentions = []bool{*f.HasMention}
	}
	rest := f
	rest.Platform, rest.HasMention = "", nil
	filter, filtered := rest.cond()
	// Each partition's first page is read at once; when every entry is
	// kept, it reads about its share of the page, with room for an uneven
	// spread (later pages come as the merge reaches them).
	limit := scanBatch
	if n := len(platformsOf) * len(mentions); !filtered {
		limit = min(scanBatch, need, 2*need/n+2)
	}
	var qs []store.Query
	for _, p := range platformsOf {
		for _, m := range mentions {
			qs = append(qs, store.Query{Index: store.IndexGSI2, PK: byFacetPK(tenantID, p, m), SK: skc, Desc: true,
				Limit: limit, Filter: filter, Attrs: listAttrs})
		}
	}
	return qs, nil
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
