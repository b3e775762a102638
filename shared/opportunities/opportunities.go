// Package opportunities holds content opportunities: the content work a
// visibility gap calls for, moving through
//
//	open → brief_ready → content_ready → published,  and dismissed
//
// Every change is a conditional write on the opportunity's status and
// revision, so a write in the wrong state fails (StateError, which the
// HTTP layer answers 409 invalid_state) and two writers never lose each
// other's changes. Opportunities are created by gap detection, one per gap,
// in the same transaction as the gap.
package opportunities

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/timeline"
)

// Statuses.
const (
	StatusOpen         = "open"
	StatusBriefReady   = "brief_ready"
	StatusContentReady = "content_ready"
	StatusPublished    = "published"
	StatusDismissed    = "dismissed"
)

// Statuses lists every status in lifecycle order (the API's enum).
var Statuses = []string{StatusOpen, StatusBriefReady, StatusContentReady, StatusPublished, StatusDismissed}

// Actions that change an opportunity.
const (
	ActionGenerateBrief   = "generate_brief"
	ActionGenerateContent = "generate_content"
	ActionPublish         = "publish"
	ActionDismiss         = "dismiss"
)

// From lists, per action, the statuses it may start from. A brief can be
// rewritten until an article exists; an article can be rewritten (a new
// contentVersion) also after publishing, which makes the opportunity
// content_ready again until the new version is published.
var From = map[string][]string{
	ActionGenerateBrief:   {StatusOpen, StatusBriefReady},
	ActionGenerateContent: {StatusBriefReady, StatusContentReady, StatusPublished},
	ActionPublish:         {StatusContentReady, StatusPublished},
	ActionDismiss:         {StatusOpen, StatusBriefReady, StatusContentReady},
}

// To is the status each action leads to.
var To = map[string]string{
	ActionGenerateBrief:   StatusBriefReady,
	ActionGenerateContent: StatusContentReady,
	ActionPublish:         StatusPublished,
	ActionDismiss:         StatusDismissed,
}

// CodeInvalidState is the error code of a write in the wrong state (409).
const CodeInvalidState = "invalid_state"

// ErrInvalidState matches every StateError.
var ErrInvalidState = errors.New("opportunities: invalid state")

// StateError: the opportunity's status does not allow the action.
type StateError struct {
	ID      string
	Status  string
	Action  string
	Allowed []string
}

func (e *StateError) Error() string {
	return fmt.Sprintf("opportunity %s is %s; %s needs it to be %s", e.ID, e.Status, strings.ReplaceAll(e.Action, "_", " "), strings.Join(e.Allowed, " or "))
}

// Is makes the error match ErrInvalidState.
func (e *StateError) Is(target error) bool { return target == ErrInvalidState }

// ErrNotFound: no such opportunity in the tenant.
var ErrNotFound = errors.New("opportunities: not found")

// Heading is one heading of an outline.
type Heading struct {
	Level int    `json:"level"` // 2 or 3
	Text  string `json:"text"`
}

// CompetitorPage is a page the AI platforms cite for the query instead of
// the brand's.
type CompetitorPage struct {
	Name  string `json:"name"` // the competitor or site it belongs to
	URL   string `json:"url"`
	Title string `json:"title"`
}

// Brief is the plan of a piece of content.
type Brief struct {
	ContentFormat   string           `json:"contentFormat"`
	Title           string           `json:"title"`
	TargetQueries   []string         `json:"targetQueries"`
	TargetEntities  []string         `json:"targetEntities"`
	Outline         []Heading        `json:"outline"`
	Questions       []string         `json:"questions"`
	CompetitorPages []CompetitorPage `json:"competitorPages"`
	Facts           []string         `json:"facts"`
	WordCount       int              `json:"wordCount"`
	Model           string           `json:"model"`
	GeneratedAt     time.Time        `json:"generatedAt"`
}

// Content is a generated article, ready to publish.
type Content struct {
	Title           string    `json:"title"`
	Slug            string    `json:"slug"`
	BodyHTML        string    `json:"bodyHtml"`
	MetaDescription string    `json:"metaDescription"`
	SchemaJSONLD    string    `json:"schemaJsonLd"`
	Headings        []string  `json:"headings"`
	TargetEntities  []string  `json:"targetEntities"`
	ContentVersion  string    `json:"contentVersion"`
	Persona         string    `json:"persona"`
	WordCount       int       `json:"wordCount"`
	Model           string    `json:"model"`
	GeneratedAt     time.Time `json:"generatedAt"`
}

// Publication is where an opportunity's content was last published, and
// whether AI answers cite it.
type Publication struct {
	// Status is "published" (a failed publish records nothing here: the
	// job's error says why).
	Status          string `json:"status"`
	DestinationID   string `json:"destinationId"`
	DestinationType string `json:"destinationType"`
	LiveURL         string `json:"liveUrl"`
	// ContentVersion is the version sent (new on every publish).
	ContentVersion string    `json:"contentVersion"`
	PublishedAt    time.Time `json:"publishedAt"`
	// FirstPublishedAt is the first successful publish (the payload's
	// PublishDate on every later one).
	FirstPublishedAt time.Time `json:"firstPublishedAt"`
	IndexNowPinged   bool      `json:"indexNowPinged"`
	JobID            string    `json:"jobId"`
	// Cited is null until an AI answer cites the live URL.
	Cited *Cited `json:"cited"`
}

// Cited says when and where AI answers first cited a published piece, and
// on which platforms they have cited it since.
type Cited struct {
	FirstCitedAt time.Time `json:"firstCitedAt"`
	Platform     string    `json:"platform"`
	CitationID   int32     `json:"citationId"`
	QueryID      int32     `json:"queryId"`
	JobID        string    `json:"jobId"`
	Platforms    []string  `json:"platforms"`
}

// Opportunity is the record (its wire shape on the API).
type Opportunity struct {
	ID             string `json:"id"`
	TenantID       int32  `json:"tenantId"`
	GapID          string `json:"gapId"`
	Tier           string `json:"tier"`
	QueryID        int32  `json:"queryId"`
	QueryText      string `json:"queryText"`
	BrandProfileID int32  `json:"brandProfileId"`
	Title          string `json:"title"`
	Status         string `json:"status"`
	// Priority is 0..100: the severity of the gap's tier × the query's
	// weight (gaps.Priority).
	Priority int      `json:"priority"`
	Brief    *Brief   `json:"brief"`
	Content  *Content `json:"content"`
	// Publish is null until a publish succeeds: where the content went.
	Publish   *Publication `json:"publish"`
	CreatedAt time.Time    `json:"createdAt"`
	UpdatedAt time.Time    `json:"updatedAt"`

	// rev counts the writes of the record; each write is conditional on it.
	rev int64
}

const (
	skPrefix  = "OPP#"
	attrState = "status"
	attrRev   = "rev"
)

// Key is the item key of an opportunity.
func Key(tenantID int32, id string) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: skPrefix + id}
}

func item(o Opportunity, rev int64) (store.Item, error) {
	doc, err := store.EncodeDoc(o)
	if err != nil {
		return nil, err
	}
	k := Key(o.TenantID, o.ID)
	return store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, attrState: o.Status, attrRev: rev, store.AttrDoc: doc}, nil
}

func decode(it store.Item) (Opportunity, error) {
	o, err := store.Doc[Opportunity](it)
	o.rev = it.Int(attrRev)
	return o, err
}

// CreateOp is the put that creates o (status open), failing when it exists.
func CreateOp(o Opportunity) (store.Op, error) {
	if o.Status == "" {
		o.Status = StatusOpen
	}
	it, err := item(o, 1)
	if err != nil {
		return store.Op{}, err
	}
	return store.PutOp(it, store.NotExists()), nil
}

// ReplaceOp writes updated over old: it holds only while the stored record
// is still old (same revision and status), so concurrent writers cannot
// overwrite each other.
func ReplaceOp(old, updated Opportunity) (store.Op, error) {
	it, err := item(updated, old.rev+1)
	if err != nil {
		return store.Op{}, err
	}
	return store.PutOp(it, store.And(store.Eq(attrRev, old.rev), store.Eq(attrState, old.Status))), nil
}

// Check returns a StateError when o's status does not allow action.
func Check(o Opportunity, action string) error {
	if slices.Contains(From[action], o.Status) {
		return nil
	}
	return &StateError{ID: o.ID, Status: o.Status, Action: action, Allowed: From[action]}
}

// RequireOp is a transaction check that the opportunity exists and its
// status allows action (for the transaction that creates a job on it).
func RequireOp(tenantID int32, id, action string) store.Op {
	var cs []store.Cond
	for _, st := range From[action] {
		cs = append(cs, store.Eq(attrState, st))
	}
	return store.CheckOp(Key(tenantID, id), store.And(store.Exists(), store.Or(cs...)))
}

// Apply returns o after action, or a StateError. set fills what the action
// writes (the brief, the content, …) on the copy.
func Apply(o Opportunity, action string, now time.Time, set func(*Opportunity)) (Opportunity, error) {
	if err := Check(o, action); err != nil {
		return Opportunity{}, err
	}
	next := o
	next.Status = To[action]
	next.UpdatedAt = now.UTC()
	if set != nil {
		set(&next)
	}
	return next, nil
}

// Repo reads opportunities.
type Repo struct{ tbl store.Table }

// NewRepo returns the repository.
func NewRepo(tbl store.Table) *Repo { return &Repo{tbl: tbl} }

// Get returns one opportunity of the tenant.
func (r *Repo) Get(ctx context.Context, tenantID int32, id string) (Opportunity, error) {
	it, err := r.tbl.Get(ctx, Key(tenantID, id))
	if errors.Is(err, store.ErrNotFound) {
		return Opportunity{}, ErrNotFound
	}
	if err != nil {
		return Opportunity{}, fmt.Errorf("opportunities: get: %w", err)
	}
	return decode(it)
}

// List returns a page of the tenant's opportunities, newest first,
// optionally of one status, and the cursor of the next page (limit 0 means
// 50, at most 200; timeline errors report a bad limit or cursor).
func (r *Repo) List(ctx context.Context, tenantID int32, status string, limit int, cursor string) ([]Opportunity, string, error) {
	if status != "" && !slices.Contains(Statuses, status) {
		return nil, "", fmt.Errorf("opportunities: unknown status %q", status)
	}
	return timeline.Page[Opportunity](ctx, r.tbl, timeline.Query{PK: tenants.PK(tenantID), Prefix: skPrefix,
		Filter: timeline.StatusFilter(attrState, status), Limit: limit, Cursor: cursor})
}
