// Package competitors holds the competitors a tenant tracks, whether added
// by hand or detected in AI answers.
package competitors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/brandlens/brandlens/shared/ids"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/validation"
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

// UnmarshalJSON derives isActive from the dismissal whatever the document
// holds: documents stored before the two moved together (a competitor
// dismissed then still says isActive true) read as their next write would
// store them.
func (c *Competitor) UnmarshalJSON(b []byte) error {
	type stored Competitor // without this method
	if err := json.Unmarshal(b, (*stored)(c)); err != nil {
		return err
	}
	c.IsActive = !c.IsDismissed
	return nil
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
	return store.Key{PK: tenants.PK(tenantID), SK: prefix + ids.Pad(id)}
}

const prefix = "COMPETITOR#"

func all(tenantID int32) store.Query {
	return store.Query{PK: tenants.PK(tenantID), SK: store.SKBeginsWith(prefix)}
}

// Repo reads and writes competitors.
type Repo struct {
	tbl   store.Table
	docs  store.Collection[Competitor]
	names store.Unique[Competitor]
	now   func() time.Time
}

// NewRepo returns the repository.
func NewRepo(tbl store.Table, now func() time.Time) *Repo {
	if now == nil {
		now = time.Now
	}
	docs := store.Collection[Competitor]{
		Table: tbl, Name: "competitors", NotFound: ErrNotFound,
		Key: func(c Competitor) store.Key { return key(c.TenantID, c.ID) },
	}
	return &Repo{tbl: tbl, now: now, docs: docs, names: store.Unique[Competitor]{
		Docs: docs, Kind: "COMPETITORNAME", Value: Competitor.NameOrEmpty, Prefix: prefix,
	}}
}

// Spec describes a competitor to add.
type Spec struct {
	TenantID   int32
	Name       string
	Aliases    []string
	Domains    []string
	DataSource string
	// Mentions and DetectedAt start the statistics of a competitor found in
	// answers (totalMentions, lastDetected).
	Mentions   int32
	DetectedAt time.Time
}

func (s Spec) name() (string, error) {
	name := strings.TrimSpace(s.Name)
	if name == "" {
		return "", errors.New("competitors: a competitor needs a name")
	}
	return name, nil
}

// Create adds a competitor with the tenant's next competitor id. One of the
// same name (ignoring case and spacing) is returned as it is, with
// created=false, also when another writer creates it at the same moment.
func (r *Repo) Create(ctx context.Context, s Spec) (Competitor, bool, error) {
	name, err := s.name()
	if err != nil {
		return Competitor{}, false, err
	}
	return r.names.Create(ctx, tenants.PK(s.TenantID), name, r.build(ctx, s, name))
}

// Prepare returns the competitor s describes and the ops that create it in
// a caller's transaction: the name claim (at store.OpClaim, which fails its
// condition when a concurrent writer took the name first) and the record.
// When the name is already taken it returns that competitor and no ops.
func (r *Repo) Prepare(ctx context.Context, s Spec) (Competitor, []store.Op, error) {
	name, err := s.name()
	if err != nil {
		return Competitor{}, nil, err
	}
	return r.names.Prepare(ctx, tenants.PK(s.TenantID), name, r.build(ctx, s, name))
}

// build makes the competitor record of s with the tenant's next id.
func (r *Repo) build(ctx context.Context, s Spec, name string) func() (Competitor, error) {
	return func() (Competitor, error) {
		id, err := ids.Next(ctx, r.tbl, tenants.PK(s.TenantID), "competitor", 1)
		if err != nil {
			return Competitor{}, err
		}
		src := s.DataSource
		if src == "" {
			src = SourceManual
		}
		c := Competitor{
			ID: id, TenantID: s.TenantID, Name: &name, IsActive: true,
			CreatedAt: r.now().UTC(), SameAsURLs: []string{}, DataSource: &src,
			Aliases: append([]string{}, s.Aliases...), Domains: append([]string{}, s.Domains...),
		}
		if len(s.Domains) > 0 {
			site := "https://" + s.Domains[0]
			c.WebsiteURL = &site
		}
		if len(s.Aliases) > 0 {
			kw := strings.Join(s.Aliases, ", ")
			c.Keywords = &kw
		}
		if !s.DetectedAt.IsZero() {
			at := s.DetectedAt.UTC()
			c.TotalMentions, c.LastDetected = s.Mentions, &at
		}
		return c, nil
	}
}

// Get returns one competitor of the tenant.
func (r *Repo) Get(ctx context.Context, tenantID, id int32) (Competitor, error) {
	return r.docs.Get(ctx, key(tenantID, id))
}

// List returns the tenant's competitors in id order.
func (r *Repo) List(ctx context.Context, tenantID int32) ([]Competitor, error) {
	return r.docs.Query(ctx, all(tenantID))
}

// Snapshots returns the tenant's competitors in id order as read, for
// updates conditional on them being unchanged (ReplaceOp).
func (r *Repo) Snapshots(ctx context.Context, tenantID int32) ([]store.Snapshot[Competitor], error) {
	return r.docs.ReadAll(ctx, all(tenantID))
}

// ReplaceOp is the transaction op that replaces the competitor read as old
// with updated, on the condition that it is still as read (optimistic
// concurrency between runs settling at once).
func (r *Repo) ReplaceOp(old store.Snapshot[Competitor], updated Competitor) (store.Op, error) {
	return r.docs.ReplaceOp(old, updated)
}

// NameTakenError: another competitor of the tenant has this name (ignoring
// case and spacing).
type NameTakenError struct{ HolderID int32 }

func (e *NameTakenError) Error() string {
	return fmt.Sprintf("competitors: competitor %d already has this name", e.HolderID)
}

// Change is what Update may change; nil members stay as they are.
type Change struct {
	Name        *string
	Aliases     *[]string
	Domains     *[]string
	Description *string
	// Dismissed sets the competitor aside (it no longer counts in detection
	// and gaps) or restores it.
	Dismissed *bool
}

// maxWriteAttempts bounds re-reads when a competitor changed between read
// and write (a settle counting its mentions, say).
const maxWriteAttempts = 8

// Update changes a competitor. A new name moves the name claim in the same
// transaction (NameTakenError when another competitor holds it); names,
// aliases and domains are checked as tenants.CheckName, CheckAliases and
// CheckDomains do (a *validation.Error naming name, aliases or domains).
// Dismissing sets dismissedAt and clears isActive; restoring undoes both;
// either is a no-op when the competitor is already so.
func (r *Repo) Update(ctx context.Context, tenantID, id int32, ch Change) (Competitor, error) {
	for attempt := 1; ; attempt++ {
		snap, err := r.docs.Read(ctx, key(tenantID, id))
		if err != nil {
			return Competitor{}, err
		}
		old := snap.Value
		c := old
		var ve validation.Error
		name := old.NameOrEmpty()
		if ch.Name != nil {
			name = tenants.CheckName(&ve, "name", *ch.Name)
			c.Name = &name
		}
		if ch.Aliases != nil {
			c.Aliases = tenants.CheckAliases(&ve, "aliases", name, *ch.Aliases)
		}
		if ch.Domains != nil {
			c.Domains = tenants.CheckDomains(&ve, "domains", *ch.Domains)
			c.WebsiteURL = nil
			if len(c.Domains) > 0 {
				site := "https://" + c.Domains[0]
				c.WebsiteURL = &site
			}
		}
		if ch.Description != nil {
			d := strings.TrimSpace(*ch.Description)
			if utf8.RuneCountInString(d) > MaxDescription {
				ve.Add("description", "must be at most %d characters", MaxDescription)
			}
			c.Description = &d
		}
		if err := ve.Err(); err != nil {
			return Competitor{}, err
		}
		now := r.now().UTC()
		if ch.Dismissed != nil && *ch.Dismissed != old.IsDismissed {
			c.IsDismissed = *ch.Dismissed
			c.DismissedAt = nil
			if c.IsDismissed {
				c.DismissedAt = &now
			}
		}
		// isActive says whether the competitor counts in detection and gaps;
		// dismissal is what stops it, so the two always move together (as
		// UnmarshalJSON reads them).
		c.IsActive = !c.IsDismissed
		if reflect.DeepEqual(c, old) {
			return old, nil
		}
		c.UpdatedAt = &now
		err = r.names.Replace(ctx, tenants.PK(tenantID), snap, c)
		var taken *store.TakenError[Competitor]
		switch {
		case err == nil:
			return c, nil
		case errors.As(err, &taken):
			return Competitor{}, &NameTakenError{HolderID: taken.Holder.ID}
		case !errors.Is(err, store.ErrConditionFailed) || attempt == maxWriteAttempts:
			return Competitor{}, fmt.Errorf("competitors: update %d: %w", id, err)
		}
	}
}

// MaxDescription is the longest description of a competitor, in characters.
const MaxDescription = 1000

// Track adds a competitor by hand (dataSource manual), its name, aliases
// and domains checked (a *validation.Error naming name, aliases, domains
// or description). A competitor of the same name is NameTakenError.
func (r *Repo) Track(ctx context.Context, s Spec, description string) (Competitor, error) {
	var ve validation.Error
	s.Name = tenants.CheckName(&ve, "name", s.Name)
	s.Aliases = tenants.CheckAliases(&ve, "aliases", s.Name, s.Aliases)
	s.Domains = tenants.CheckDomains(&ve, "domains", s.Domains)
	description = strings.TrimSpace(description)
	if utf8.RuneCountInString(description) > MaxDescription {
		ve.Add("description", "must be at most %d characters", MaxDescription)
	}
	if err := ve.Err(); err != nil {
		return Competitor{}, err
	}
	s.DataSource = SourceManual
	build := r.build(ctx, s, s.Name)
	c, created, err := r.names.Create(ctx, tenants.PK(s.TenantID), s.Name, func() (Competitor, error) {
		c, err := build()
		if description != "" {
			c.Description = &description
		}
		return c, err
	})
	if err != nil {
		return Competitor{}, err
	}
	if !created {
		return Competitor{}, &NameTakenError{HolderID: c.ID}
	}
	return c, nil
}
