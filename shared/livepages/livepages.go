// Package livepages closes the content loop: it indexes the live URLs of
// the pages published for a tenant by their normalised form, and notices
// when a later AI answer cites one (content.cited, once per piece and
// platform, and the first citation shown on the opportunity).
//
// URLs are compared normalised (Normalize): the scheme does not count
// (http and https name the same page), the host is lower-cased (and a
// leading www. dropped), default ports, dot segments, duplicate and
// trailing slashes and the fragment go, the query is sorted and tracking
// parameters (utm_*, gclid, fbclid, srsltid …) are removed. purell does
// the RFC 3986 normalisations.
package livepages

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/PuerkitoBio/purell"

	"github.com/brandlens/brandlens/shared/opportunities"
	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
)

// trackingParams are query parameters that tell where a visitor came
// from, not which page it is.
var trackingParams = []string{"gclid", "dclid", "gbraid", "wbraid", "fbclid", "msclkid", "yclid", "twclid", "igshid",
	"mc_cid", "mc_eid", "_ga", "_gl", "_hsenc", "_hsmi", "mkt_tok", "ref", "ref_src", "srsltid", "si", "spm"}

func tracking(name string) bool {
	n := strings.ToLower(name)
	return strings.HasPrefix(n, "utm_") || strings.HasPrefix(n, "pk_") || slices.Contains(trackingParams, n)
}

const flags = purell.FlagLowercaseScheme | purell.FlagLowercaseHost | purell.FlagUppercaseEscapes |
	purell.FlagDecodeUnnecessaryEscapes | purell.FlagEncodeNecessaryEscapes | purell.FlagRemoveDefaultPort |
	purell.FlagRemoveEmptyQuerySeparator | purell.FlagRemoveDotSegments | purell.FlagRemoveDuplicateSlashes |
	purell.FlagRemoveFragment | purell.FlagRemoveTrailingSlash | purell.FlagRemoveWWW | purell.FlagSortQuery |
	purell.FlagRemoveEmptyPortSeparator

// Normalize returns the comparison form of an absolute http(s) URL
// (host, path and query, without the scheme); ok is false for anything
// else.
func Normalize(raw string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "HTTP" && u.Scheme != "HTTPS") || u.Hostname() == "" {
		return "", false
	}
	q := u.Query()
	for name := range q {
		if tracking(name) {
			q.Del(name)
		}
	}
	u.RawQuery = q.Encode()
	u.User = nil
	nu, err := url.Parse(purell.NormalizeURL(u, flags))
	if err != nil || nu.Hostname() == "" {
		return "", false
	}
	if nu.Path == "" {
		nu.Path = "/" // the root keeps its slash: "a.com" and "a.com/" are one page
	}
	nu.Scheme = ""
	n := strings.TrimPrefix(nu.String(), "//")
	return n, true
}

func hash(normalized string) string {
	h := sha256.Sum256([]byte(normalized))
	return hex.EncodeToString(h[:])
}

func pageKey(tenantID int32, normalized string) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: "LIVEPAGE#" + hash(normalized)}
}

func citedKey(tenantID int32, opportunityID, platform string) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: "CITED#" + opportunityID + "#" + platform}
}

// markerKey is the tenant's "has published pages" item: Notice reads it
// first, so that the answers of a tenant that never published cost one
// read, not one per cited URL.
func markerKey(tenantID int32) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: "LIVEPAGES"}
}

// IndexOps are the puts that record liveURL as a published page of the
// opportunity (for the transaction that marks it published), and mark the
// tenant as having published pages. A page published again, or moved to
// another opportunity, is overwritten. None when the URL is no absolute
// http(s) URL.
func IndexOps(tenantID int32, opportunityID, liveURL string) []store.Op {
	n, ok := Normalize(liveURL)
	if !ok {
		return nil
	}
	k, m := pageKey(tenantID, n), markerKey(tenantID)
	return []store.Op{
		store.PutOp(store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "opportunityId": opportunityID, "liveUrl": liveURL}, store.Cond{}),
		store.PutOp(store.Item{store.AttrPK: m.PK, store.AttrSK: m.SK}, store.Cond{}),
	}
}

// Citation is one citation a run recorded.
type Citation struct {
	ID       int32
	URL      string
	QueryID  int32
	Platform string
	JobID    string
	At       time.Time
}

// Watcher notices citations of published pages.
type Watcher struct{ tbl store.Table }

// NewWatcher returns the watcher.
func NewWatcher(tbl store.Table) *Watcher { return &Watcher{tbl: tbl} }

// Notice checks the citations of one recorded answer against the tenant's
// published pages. For each page cited, the first time on a platform, one
// transaction writes a marker (conditional on none existing for that page
// and platform), the content.cited event and the opportunity's cited
// record; a marker that exists means it was noticed already. It returns
// how many pieces were newly cited.
func (w *Watcher) Notice(ctx context.Context, tenantID int32, cs []Citation) (int, error) {
	n := 0
	if len(cs) == 0 {
		return 0, nil
	}
	if _, err := w.tbl.Get(ctx, markerKey(tenantID)); errors.Is(err, store.ErrNotFound) {
		return 0, nil // the tenant never published a page
	} else if err != nil {
		return 0, fmt.Errorf("livepages: read marker: %w", err)
	}
	seen := map[string]bool{}
	for _, c := range cs {
		norm, ok := Normalize(c.URL)
		if !ok {
			continue
		}
		it, err := w.tbl.Get(ctx, pageKey(tenantID, norm))
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return n, fmt.Errorf("livepages: look up %s: %w", norm, err)
		}
		opp := it.String("opportunityId")
		if seen[opp+"#"+c.Platform] {
			continue
		}
		seen[opp+"#"+c.Platform] = true
		noticed, err := w.notice(ctx, tenantID, opp, it.String("liveUrl"), c)
		if err != nil {
			return n, err
		}
		if noticed {
			n++
		}
	}
	return n, nil
}

func (w *Watcher) notice(ctx context.Context, tenantID int32, oppID, liveURL string, c Citation) (bool, error) {
	repo := opportunities.NewRepo(w.tbl)
	for {
		o, err := repo.Get(ctx, tenantID, oppID)
		if errors.Is(err, opportunities.ErrNotFound) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		mk := citedKey(tenantID, oppID, c.Platform)
		ops := []store.Op{store.PutOp(store.Item{store.AttrPK: mk.PK, store.AttrSK: mk.SK, "citationId": int64(c.ID),
			"at": c.At.UTC().Format(time.RFC3339Nano)}, store.NotExists())}
		ev, err := outbox.New(tenantID, outbox.ContentCited, outbox.ContentCitedData{OpportunityID: oppID, LiveURL: liveURL,
			CitationID: c.ID, QueryID: c.QueryID, Platform: c.Platform, JobID: c.JobID}, c.At)
		if err != nil {
			return false, err
		}
		evOp, err := outbox.Op(ev)
		if err != nil {
			return false, err
		}
		ops = append(ops, evOp)
		if o.Publish != nil {
			next := o
			pub := *o.Publish
			if pub.Cited == nil {
				pub.Cited = &opportunities.Cited{FirstCitedAt: c.At.UTC(), Platform: c.Platform, CitationID: c.ID,
					QueryID: c.QueryID, JobID: c.JobID}
			} else {
				cited := *pub.Cited
				pub.Cited = &cited
			}
			if !slices.Contains(pub.Cited.Platforms, c.Platform) {
				pub.Cited.Platforms = append(slices.Clone(pub.Cited.Platforms), c.Platform)
			}
			next.Publish = &pub
			op, err := opportunities.ReplaceOp(o, next)
			if err != nil {
				return false, err
			}
			ops = append(ops, op)
		}
		err = w.tbl.TransactWrite(ctx, ops...)
		var txe *store.TxConditionError
		switch {
		case errors.As(err, &txe) && txe.Index == 0:
			return false, nil // noticed before
		case errors.As(err, &txe):
			continue // the opportunity changed meanwhile
		case err != nil:
			return false, fmt.Errorf("livepages: record citation: %w", err)
		}
		outbox.Notify()
		return true, nil
	}
}
