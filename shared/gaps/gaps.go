package gaps

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/ids"
	"github.com/brandlens/brandlens/shared/opportunities"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/timeline"
)

// Gap statuses.
const (
	StatusOpen      = "open"      // found and not acted on yet
	StatusAddressed = "addressed" // its opportunity's content was published; detection still watches it
	StatusResolved  = "resolved"  // the gap no longer holds
	StatusDismissed = "dismissed" // set aside by a user; re-detection keeps it dismissed
)

// Statuses lists the gap statuses (the API's enum).
var Statuses = []string{StatusOpen, StatusAddressed, StatusResolved, StatusDismissed}

// Gap is one (query, tier) finding (its wire shape on GET /api/v1/gaps).
type Gap struct {
	ID             string `json:"id"`
	TenantID       int32  `json:"tenantId"`
	BrandProfileID int32  `json:"brandProfileId"`
	Tier           Tier   `json:"tier"`
	Status         string `json:"status"`
	QueryID        int32  `json:"queryId"`
	QueryText      string `json:"queryText"`
	// Platforms are those on which the tier holds.
	Platforms []string `json:"platforms"`
	// Competitors are named ahead of the brand in the evidence answers,
	// most often first.
	Competitors   []string   `json:"competitors"`
	Metrics       GapMetrics `json:"metrics"`
	Evidence      Evidence   `json:"evidence"`
	OpportunityID string     `json:"opportunityId"`
	// DetectedAt is when the gap was first found; UpdatedAt when a detection
	// last confirmed it; ResolvedAt when it stopped holding.
	DetectedAt time.Time  `json:"detectedAt"`
	UpdatedAt  time.Time  `json:"updatedAt"`
	ResolvedAt *time.Time `json:"resolvedAt"`
	// JobID is the detection that last wrote the gap.
	JobID string `json:"jobId"`

	rev int64
}

// GapMetrics are a gap's figures: the whole window and each platform.
type GapMetrics struct {
	Metrics
	Window      WindowInfo         `json:"window"`
	PerPlatform map[string]Metrics `json:"perPlatform"`
}

// WindowInfo describes the answers the figures come from.
type WindowInfo struct {
	From time.Time `json:"from"` // oldest answer read
	To   time.Time `json:"to"`   // newest answer read
	Runs int       `json:"runs"`
}

// Evidence shows why the gap holds.
type Evidence struct {
	// Snippets are sentences of the answers that show the gap.
	Snippets []Snippet `json:"snippets"`
	// CompetitorPages are pages the answers cite where the brand is missing
	// or out-ranked, other than the brand's own.
	CompetitorPages []opportunities.CompetitorPage `json:"competitorPages"`
}

// Snippet is one piece of an answer.
type Snippet struct {
	Platform           string    `json:"platform"`
	VisibilityResultID int32     `json:"visibilityResultId"`
	ExecutedAt         time.Time `json:"executedAt"`
	Text               string    `json:"text"`
}

// ErrNotFound: no such gap in the tenant.
var ErrNotFound = errors.New("gaps: not found")

const (
	skPrefix   = "GAP#"
	slotPrefix = "GAPSLOT#"
	attrStatus = "status"
	attrRev    = "rev"
	attrGapID  = "gapId"
)

// Key is the item key of a gap.
func Key(tenantID int32, id string) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: skPrefix + id}
}

// slotKey is the uniqueness item of a query's active gap of one tier: it
// exists while that gap is open, addressed or dismissed, and names it. The
// gap's creation puts it with a NotExists condition in the same
// transaction, so two detections can never open the same (query, tier)
// twice; resolving the gap deletes it.
func slotKey(tenantID, queryID int32, t Tier) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: slotPrefix + ids.Pad(queryID) + "#" + string(t)}
}

func slotPrefixOf(queryID int32) string { return slotPrefix + ids.Pad(queryID) + "#" }

func gapItem(g Gap, rev int64) (store.Item, error) {
	doc, err := store.EncodeDoc(g)
	if err != nil {
		return nil, err
	}
	k := Key(g.TenantID, g.ID)
	return store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, attrStatus: g.Status, attrRev: rev, store.AttrDoc: doc}, nil
}

func decodeGap(it store.Item) (Gap, error) {
	g, err := store.Doc[Gap](it)
	g.rev = it.Int(attrRev)
	return g, err
}

// createOps open a gap: its uniqueness slot, the gap and its opportunity.
func createOps(g Gap, o opportunities.Opportunity) ([]store.Op, error) {
	sk := slotKey(g.TenantID, g.QueryID, g.Tier)
	it, err := gapItem(g, 1)
	if err != nil {
		return nil, err
	}
	oppOp, err := opportunities.CreateOp(o)
	if err != nil {
		return nil, err
	}
	return []store.Op{
		store.PutOp(store.Item{store.AttrPK: sk.PK, store.AttrSK: sk.SK, attrGapID: g.ID}, store.NotExists()),
		store.PutOp(it, store.NotExists()),
		oppOp,
	}, nil
}

// replaceOp writes updated over old while the stored gap is still old.
func replaceOp(old, updated Gap) (store.Op, error) {
	it, err := gapItem(updated, old.rev+1)
	if err != nil {
		return store.Op{}, err
	}
	return store.PutOp(it, store.And(store.Eq(attrRev, old.rev), store.Eq(attrStatus, old.Status))), nil
}

// resolveOps mark g resolved at now and free its slot.
func resolveOps(g Gap, now time.Time) ([]store.Op, error) {
	next := g
	next.Status, next.ResolvedAt, next.UpdatedAt = StatusResolved, &now, now
	op, err := replaceOp(g, next)
	if err != nil {
		return nil, err
	}
	sk := slotKey(g.TenantID, g.QueryID, g.Tier)
	return []store.Op{op, store.DeleteOp(sk, store.Eq(attrGapID, g.ID))}, nil
}

// Repo reads gaps and changes their status.
type Repo struct {
	tbl store.Table
	now func() time.Time
}

// NewRepo returns the repository.
func NewRepo(tbl store.Table, now func() time.Time) *Repo {
	if now == nil {
		now = time.Now
	}
	return &Repo{tbl: tbl, now: now}
}

// Get returns one gap of the tenant.
func (r *Repo) Get(ctx context.Context, tenantID int32, id string) (Gap, error) {
	it, err := r.tbl.Get(ctx, Key(tenantID, id))
	if errors.Is(err, store.ErrNotFound) {
		return Gap{}, ErrNotFound
	}
	if err != nil {
		return Gap{}, fmt.Errorf("gaps: get: %w", err)
	}
	return decodeGap(it)
}

// List returns a page of the tenant's gaps, newest first, optionally of
// one status, and the cursor of the next page (limit 0 means 50, at most
// 200; timeline errors report a bad limit or cursor).
func (r *Repo) List(ctx context.Context, tenantID int32, status string, limit int, cursor string) ([]Gap, string, error) {
	if status != "" && !slices.Contains(Statuses, status) {
		return nil, "", fmt.Errorf("gaps: unknown status %q", status)
	}
	return timeline.Page[Gap](ctx, r.tbl, timeline.Query{PK: tenants.PK(tenantID), Prefix: skPrefix,
		Filter: timeline.StatusFilter(attrStatus, status), Limit: limit, Cursor: cursor})
}

// active returns the query's gaps that hold a slot (open, addressed or
// dismissed), by tier.
func (r *Repo) active(ctx context.Context, tenantID, queryID int32) (map[Tier]Gap, error) {
	slots, err := store.All(ctx, r.tbl, store.Query{PK: tenants.PK(tenantID), SK: store.SKBeginsWith(slotPrefixOf(queryID))})
	if err != nil {
		return nil, fmt.Errorf("gaps: read active gaps of query %d: %w", queryID, err)
	}
	out := map[Tier]Gap{}
	for _, s := range slots {
		g, err := r.Get(ctx, tenantID, s.String(attrGapID))
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out[g.Tier] = g
	}
	return out, nil
}

// AddressOps are the writes that mark the gap of a published opportunity
// addressed, for the transaction that records the publish: an open gap
// becomes addressed; a gap already addressed, resolved or dismissed keeps
// its status, and a gap that does not exist needs nothing. Re-detection
// keeps an addressed gap addressed while its tier holds (the published
// content still answers it) and resolves it when the tier no longer holds.
func (r *Repo) AddressOps(ctx context.Context, tenantID int32, gapID string, now time.Time) ([]store.Op, error) {
	return r.moveOps(ctx, tenantID, gapID, StatusAddressed, []string{StatusOpen}, now)
}

// moveOps are the writes that move a gap to status when it is in one of
// from (none otherwise, or when the gap does not exist). The gap keeps its
// slot, so detection does not open the same (query, tier) again.
func (r *Repo) moveOps(ctx context.Context, tenantID int32, gapID, status string, from []string, now time.Time) ([]store.Op, error) {
	g, err := r.Get(ctx, tenantID, gapID)
	if errors.Is(err, ErrNotFound) || (err == nil && !slices.Contains(from, g.Status)) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	next := g
	next.Status, next.UpdatedAt = status, now
	op, err := replaceOp(g, next)
	if err != nil {
		return nil, err
	}
	return []store.Op{op}, nil
}

// maxDismissAttempts bounds Dismiss's re-reads of an opportunity or gap
// that keeps changing.
const maxDismissAttempts = 5

// Dismiss sets an opportunity aside with its gap, in one transaction with
// an audit entry: the opportunity becomes dismissed (from open,
// brief_ready or content_ready; else an opportunities StateError), and its
// gap, while open or addressed, too; a resolved gap stays resolved.
// Dismissing a dismissed opportunity changes nothing and returns it.
// There is no restore: a dismissed opportunity's gap keeps its slot, so
// detection keeps watching it without opening it again.
func (r *Repo) Dismiss(ctx context.Context, tenantID int32, opportunityID string, actor audit.Actor) (opportunities.Opportunity, error) {
	opps := opportunities.NewRepo(r.tbl)
	for attempt := 1; ; attempt++ {
		o, err := opps.Get(ctx, tenantID, opportunityID)
		if err != nil || o.Status == opportunities.StatusDismissed {
			return o, err
		}
		now := r.now().UTC()
		next, err := opportunities.Apply(o, opportunities.ActionDismiss, now, nil)
		if err != nil {
			return opportunities.Opportunity{}, err
		}
		oppOp, err := opportunities.ReplaceOp(o, next)
		if err != nil {
			return opportunities.Opportunity{}, err
		}
		gapOps, err := r.moveOps(ctx, tenantID, o.GapID, StatusDismissed, []string{StatusOpen, StatusAddressed}, now)
		if err != nil {
			return opportunities.Opportunity{}, err
		}
		entry := audit.New(tenantID, actor, "opportunity.dismiss", audit.Resource("opportunity", o.ID), audit.OutcomeSucceeded, now)
		auditOp, err := audit.Op(entry)
		if err != nil {
			return opportunities.Opportunity{}, err
		}
		err = r.tbl.TransactWrite(ctx, append([]store.Op{oppOp, auditOp}, gapOps...)...)
		var txe *store.TxConditionError
		switch {
		case errors.As(err, &txe) && attempt < maxDismissAttempts:
			continue // the opportunity or its gap changed meanwhile: read again
		case err != nil:
			return opportunities.Opportunity{}, fmt.Errorf("gaps: dismiss opportunity %s: %w", opportunityID, err)
		}
		return next, nil
	}
}
