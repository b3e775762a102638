// Package competitors holds the competitors a tenant tracks, whether added
// by hand or detected in AI answers.
package competitors

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/brandlens/brandlens/shared/ids"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
)

// Data sources of a competitor record.
const (
	SourceManual   = "manual"
	SourceDetected = "detected"
)

// Competitor is the CompetitorDto of the spec, plus the aliases and domains
// detection matches on.
type Competitor struct {
	ID                     int32      `json:"id"`
	TenantID               int32      `json:"tenantId"`
	Name                   *string    `json:"name"`
	WebsiteURL             *string    `json:"websiteUrl"`
	Description            *string    `json:"description"`
	Keywords               *string    `json:"keywords"`
	IsActive               bool       `json:"isActive"`
	IsDismissed            bool       `json:"isDismissed"`
	DismissedAt            *time.Time `json:"dismissedAt"`
	CreatedAt              time.Time  `json:"createdAt"`
	UpdatedAt              *time.Time `json:"updatedAt"`
	VisibilityRank         *int32     `json:"visibilityRank"`
	ImageURL               *string    `json:"imageUrl"`
	DetailedDescription    *string    `json:"detailedDescription"`
	DetailedDescriptionURL *string    `json:"detailedDescriptionUrl"`
	SameAsURLs             []string   `json:"sameAsUrls"`
	TotalMentions          int32      `json:"totalMentions"`
	LastDetected           *time.Time `json:"lastDetected"`
	DataSource             *string    `json:"dataSource"`
	Aliases                []string   `json:"aliases"`
	Domains                []string   `json:"domains"`
}

// NameOrEmpty returns the name, or "" when unset.
func (c Competitor) NameOrEmpty() string {
	if c.Name == nil {
		return ""
	}
	return *c.Name
}

// ErrNotFound: no such competitor in the tenant.
var ErrNotFound = errors.New("competitors: not found")

func key(tenantID, id int32) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: "COMPETITOR#" + ids.Pad(id)}
}

// Repo reads and writes competitors.
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

// New describes a competitor to add.
type New struct {
	TenantID   int32
	Name       string
	Aliases    []string
	Domains    []string
	DataSource string
}

// Create adds a competitor with the tenant's next competitor id. One of the
// same name (case-insensitive) is returned as it is.
func (r *Repo) Create(ctx context.Context, n New) (Competitor, bool, error) {
	name := strings.TrimSpace(n.Name)
	if name == "" {
		return Competitor{}, false, errors.New("competitors: a competitor needs a name")
	}
	existing, err := r.List(ctx, n.TenantID)
	if err != nil {
		return Competitor{}, false, err
	}
	for _, x := range existing {
		if strings.EqualFold(x.NameOrEmpty(), name) {
			return x, false, nil
		}
	}
	id, err := ids.Next(ctx, r.tbl, tenants.PK(n.TenantID), "competitor", 1)
	if err != nil {
		return Competitor{}, false, err
	}
	src := n.DataSource
	if src == "" {
		src = SourceManual
	}
	c := Competitor{
		ID: id, TenantID: n.TenantID, Name: &name, IsActive: true,
		CreatedAt: r.now().UTC(), SameAsURLs: []string{}, DataSource: &src,
		Aliases: nonNil(n.Aliases), Domains: nonNil(n.Domains),
	}
	if len(n.Domains) > 0 {
		site := "https://" + n.Domains[0]
		c.WebsiteURL = &site
	}
	if len(n.Aliases) > 0 {
		kw := strings.Join(n.Aliases, ", ")
		c.Keywords = &kw
	}
	if err := r.put(ctx, c, store.NotExists()); err != nil {
		return Competitor{}, false, err
	}
	return c, true, nil
}

func (r *Repo) put(ctx context.Context, c Competitor, cond store.Cond) error {
	doc, err := store.EncodeDoc(c)
	if err != nil {
		return err
	}
	k := key(c.TenantID, c.ID)
	if err := r.tbl.Put(ctx, store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, store.AttrDoc: doc}, cond); err != nil {
		return fmt.Errorf("competitors: put: %w", err)
	}
	return nil
}

// Get returns one competitor of the tenant.
func (r *Repo) Get(ctx context.Context, tenantID, id int32) (Competitor, error) {
	it, err := r.tbl.Get(ctx, key(tenantID, id))
	if errors.Is(err, store.ErrNotFound) {
		return Competitor{}, ErrNotFound
	}
	if err != nil {
		return Competitor{}, fmt.Errorf("competitors: get: %w", err)
	}
	return store.Doc[Competitor](it)
}

// List returns the tenant's competitors in id order.
func (r *Repo) List(ctx context.Context, tenantID int32) ([]Competitor, error) {
	items, err := store.All(ctx, r.tbl, store.Query{PK: tenants.PK(tenantID), SK: store.SKBeginsWith("COMPETITOR#")})
	if err != nil {
		return nil, fmt.Errorf("competitors: list: %w", err)
	}
	return store.Docs[Competitor](items)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// ReplaceOp is the transaction op that replaces old with updated, on the
// condition that the stored record is still old (optimistic concurrency
// between runs settling at once).
func ReplaceOp(old, updated Competitor) (store.Op, error) {
	oldDoc, err := store.EncodeDoc(old)
	if err != nil {
		return store.Op{}, err
	}
	doc, err := store.EncodeDoc(updated)
	if err != nil {
		return store.Op{}, err
	}
	k := key(updated.TenantID, updated.ID)
	return store.PutOp(store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, store.AttrDoc: doc}, store.Eq(store.AttrDoc, oldDoc)), nil
}
