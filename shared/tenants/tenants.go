// Package tenants holds tenants (the paying accounts, with their limits)
// and their brand profiles (the brand a tenant monitors: name, aliases,
// domains).
package tenants

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/brandlens/brandlens/shared/ids"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/validation"
)

// Defaults for tenants created without explicit limits.
const (
	DefaultDailyCreditCeiling = 500
	DefaultRPMLimit           = 600
)

// Tenant is one account.
type Tenant struct {
	ID                 int32     `json:"id"`
	Name               string    `json:"name"`
	DailyCreditCeiling int64     `json:"dailyCreditCeiling"`
	RPMLimit           int64     `json:"rpmLimit"`
	CreatedAt          time.Time `json:"createdAt"`
}

// Brand is a brand profile of a tenant.
type Brand struct {
	ID        int32     `json:"id"`
	TenantID  int32     `json:"tenantId"`
	Name      string    `json:"name"`
	Aliases   []string  `json:"aliases"`
	Domains   []string  `json:"domains"`
	CreatedAt time.Time `json:"createdAt"`
	// UpdatedAt is when aliases or domains last changed (nil: never).
	UpdatedAt *time.Time `json:"updatedAt,omitempty"`
}

// ErrNotFound: no such tenant or brand.
var ErrNotFound = errors.New("tenants: not found")

// PK is the partition of everything a tenant owns.
func PK(tenantID int32) string { return "TENANT#" + strconv.Itoa(int(tenantID)) }

func tenantKey(id int32) store.Key { return store.Key{PK: PK(id), SK: "TENANT"} }

func brandKey(tenantID, id int32) store.Key {
	return store.Key{PK: PK(tenantID), SK: brandPrefix + ids.Pad(id)}
}

// tenantNameKey makes tenant names unique, which is what lets seeds be
// loaded idempotently by name.
func tenantNameKey(name string) store.Key {
	return store.Key{PK: "TENANTNAME#" + strings.ToLower(strings.TrimSpace(name)), SK: "TENANTNAME"}
}

// Repo reads and writes tenants and brands.
type Repo struct {
	tbl        store.Table
	tenants    store.Collection[Tenant]
	brands     store.Collection[Brand]
	brandNames store.Unique[Brand]
	now        func() time.Time
}

const brandPrefix = "BRAND#"

// NewRepo returns the repository.
func NewRepo(tbl store.Table, now func() time.Time) *Repo {
	if now == nil {
		now = time.Now
	}
	brands := store.Collection[Brand]{
		Table: tbl, Name: "tenants: brand", NotFound: ErrNotFound,
		Key: func(b Brand) store.Key { return brandKey(b.TenantID, b.ID) },
	}
	return &Repo{
		tbl: tbl, now: now, brands: brands,
		tenants: store.Collection[Tenant]{
			Table: tbl, Name: "tenants", NotFound: ErrNotFound,
			Key: func(t Tenant) store.Key { return tenantKey(t.ID) },
			Attrs: func(t Tenant) store.Item {
				return store.Item{store.AttrGSI1PK: allTenantsPK, store.AttrGSI1SK: ids.Pad(t.ID)}
			},
		},
		brandNames: store.Unique[Brand]{
			Docs: brands, Kind: "BRANDNAME", Value: func(b Brand) string { return b.Name }, Prefix: brandPrefix,
		},
	}
}

// allTenantsPK is the GSI1 partition listing every tenant.
const allTenantsPK = "TENANTS"

// Create makes a tenant; a tenant of the same name (case-insensitive) is
// returned as it is with created=false.
func (r *Repo) Create(ctx context.Context, t Tenant) (Tenant, bool, error) {
	t.Name = strings.TrimSpace(t.Name)
	if t.Name == "" {
		return Tenant{}, false, errors.New("tenants: a tenant needs a name")
	}
	if existing, err := r.ByName(ctx, t.Name); err == nil {
		return existing, false, nil
	} else if !errors.Is(err, ErrNotFound) {
		return Tenant{}, false, err
	}
	if t.DailyCreditCeiling <= 0 {
		t.DailyCreditCeiling = DefaultDailyCreditCeiling
	}
	if t.RPMLimit <= 0 {
		t.RPMLimit = DefaultRPMLimit
	}
	id, err := ids.Next(ctx, r.tbl, "GLOBAL", "tenant", 1)
	if err != nil {
		return Tenant{}, false, err
	}
	t.ID = id
	t.CreatedAt = r.now().UTC()
	put, err := r.tenants.PutOp(t, store.NotExists())
	if err != nil {
		return Tenant{}, false, err
	}
	nk := tenantNameKey(t.Name)
	err = r.tbl.TransactWrite(ctx,
		store.PutOp(store.Item{store.AttrPK: nk.PK, store.AttrSK: nk.SK, "tenantId": int64(id)}, store.NotExists()),
		put,
	)
	if errors.Is(err, store.ErrConditionFailed) {
		// Lost a race with a concurrent create of the same name.
		existing, gerr := r.ByName(ctx, t.Name)
		return existing, false, gerr
	}
	if err != nil {
		return Tenant{}, false, fmt.Errorf("tenants: create: %w", err)
	}
	return t, true, nil
}

// Get returns the tenant.
func (r *Repo) Get(ctx context.Context, id int32) (Tenant, error) {
	return r.tenants.Get(ctx, tenantKey(id))
}

// ByName returns the tenant of that name.
func (r *Repo) ByName(ctx context.Context, name string) (Tenant, error) {
	it, err := r.tbl.Get(ctx, tenantNameKey(name))
	if errors.Is(err, store.ErrNotFound) {
		return Tenant{}, ErrNotFound
	}
	if err != nil {
		return Tenant{}, fmt.Errorf("tenants: by name: %w", err)
	}
	return r.Get(ctx, int32(it.Int("tenantId")))
}

// List returns every tenant in id order.
func (r *Repo) List(ctx context.Context) ([]Tenant, error) {
	return r.tenants.Query(ctx, store.Query{Index: store.IndexGSI1, PK: allTenantsPK})
}

// IDs lists the id of every tenant (what a once-per-table migration walks).
func (r *Repo) IDs(ctx context.Context) ([]int32, error) {
	ts, err := r.List(ctx)
	if err != nil {
		return nil, err
	}
	ids := make([]int32, len(ts))
	for i, t := range ts {
		ids[i] = t.ID
	}
	return ids, nil
}

// CreateBrand adds a brand profile with the tenant's next brand id. A brand
// of the same name (ignoring case and spacing) is returned as it is, with
// created=false, also when another writer creates it at the same moment.
func (r *Repo) CreateBrand(ctx context.Context, b Brand) (Brand, bool, error) {
	b.Name = strings.TrimSpace(b.Name)
	if b.Name == "" {
		return Brand{}, false, errors.New("tenants: a brand needs a name")
	}
	pk := PK(b.TenantID)
	return r.brandNames.Create(ctx, pk, b.Name, func() (Brand, error) {
		id, err := ids.Next(ctx, r.tbl, pk, "brand", 1)
		b.ID, b.CreatedAt = id, r.now().UTC()
		b.Aliases, b.Domains = append([]string{}, b.Aliases...), append([]string{}, b.Domains...)
		return b, err
	})
}

// Brand returns one brand profile of the tenant.
func (r *Repo) Brand(ctx context.Context, tenantID, id int32) (Brand, error) {
	return r.brands.Get(ctx, brandKey(tenantID, id))
}

// Brands returns the tenant's brand profiles in id order.
func (r *Repo) Brands(ctx context.Context, tenantID int32) ([]Brand, error) {
	return r.brands.Query(ctx, store.Query{PK: PK(tenantID), SK: store.SKBeginsWith(brandPrefix)})
}

// BrandChange is what UpdateBrand may change; nil members stay as they are.
type BrandChange struct {
	Aliases *[]string
	Domains *[]string
}

// UpdateBrand changes a brand profile's aliases and domains (checked as
// CheckAliases and CheckDomains do, under the members aliases and domains
// of a *validation.Error). The write is conditional on the profile being
// as read, so a concurrent change is read again, never lost.
func (r *Repo) UpdateBrand(ctx context.Context, tenantID, id int32, ch BrandChange) (Brand, error) {
	for attempt := 0; ; attempt++ {
		snap, err := r.brands.Read(ctx, brandKey(tenantID, id))
		if err != nil {
			return Brand{}, err
		}
		b := snap.Value
		var ve validation.Error
		if ch.Aliases != nil {
			b.Aliases = CheckAliases(&ve, "aliases", b.Name, *ch.Aliases)
		}
		if ch.Domains != nil {
			b.Domains = CheckDomains(&ve, "domains", *ch.Domains)
		}
		if err := ve.Err(); err != nil {
			return Brand{}, err
		}
		now := r.now().UTC()
		b.UpdatedAt = &now
		err = r.brands.Replace(ctx, snap, b)
		if errors.Is(err, store.ErrConditionFailed) && attempt < 5 {
			continue
		}
		return b, err
	}
}
