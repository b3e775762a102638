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
}

// ErrNotFound: no such tenant or brand.
var ErrNotFound = errors.New("tenants: not found")

// PK is the partition of everything a tenant owns.
func PK(tenantID int32) string { return "TENANT#" + strconv.Itoa(int(tenantID)) }

func tenantKey(id int32) store.Key { return store.Key{PK: PK(id), SK: "TENANT"} }

func brandKey(tenantID, id int32) store.Key {
	return store.Key{PK: PK(tenantID), SK: "BRAND#" + ids.Pad(id)}
}

// tenantNameKey makes tenant names unique, which is what lets seeds be
// loaded idempotently by name.
func tenantNameKey(name string) store.Key {
	return store.Key{PK: "TENANTNAME#" + strings.ToLower(strings.TrimSpace(name)), SK: "TENANTNAME"}
}

// Repo reads and writes tenants and brands.
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
	doc, err := store.EncodeDoc(t)
	if err != nil {
		return Tenant{}, false, err
	}
	tk, nk := tenantKey(id), tenantNameKey(t.Name)
	err = r.tbl.TransactWrite(ctx,
		store.PutOp(store.Item{store.AttrPK: nk.PK, store.AttrSK: nk.SK, "tenantId": int64(id)}, store.NotExists()),
		store.PutOp(store.Item{store.AttrPK: tk.PK, store.AttrSK: tk.SK, store.AttrGSI1PK: "TENANTS", store.AttrGSI1SK: ids.Pad(id), store.AttrDoc: doc}, store.NotExists()),
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
	it, err := r.tbl.Get(ctx, tenantKey(id))
	if errors.Is(err, store.ErrNotFound) {
		return Tenant{}, ErrNotFound
	}
	if err != nil {
		return Tenant{}, fmt.Errorf("tenants: get %d: %w", id, err)
	}
	return store.Doc[Tenant](it)
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
	items, err := store.All(ctx, r.tbl, store.Query{Index: store.IndexGSI1, PK: "TENANTS"})
	if err != nil {
		return nil, fmt.Errorf("tenants: list: %w", err)
	}
	return store.Docs[Tenant](items)
}

// CreateBrand adds a brand profile with the tenant's next brand id. A
// brand of the same name (case-insensitive) is returned as it is.
func (r *Repo) CreateBrand(ctx context.Context, b Brand) (Brand, bool, error) {
	b.Name = strings.TrimSpace(b.Name)
	if b.Name == "" {
		return Brand{}, false, errors.New("tenants: a brand needs a name")
	}
	brands, err := r.Brands(ctx, b.TenantID)
	if err != nil {
		return Brand{}, false, err
	}
	for _, x := range brands {
		if strings.EqualFold(x.Name, b.Name) {
			return x, false, nil
		}
	}
	id, err := ids.Next(ctx, r.tbl, PK(b.TenantID), "brand", 1)
	if err != nil {
		return Brand{}, false, err
	}
	b.ID = id
	b.CreatedAt = r.now().UTC()
	b.Aliases = nonNil(b.Aliases)
	b.Domains = nonNil(b.Domains)
	doc, err := store.EncodeDoc(b)
	if err != nil {
		return Brand{}, false, err
	}
	k := brandKey(b.TenantID, id)
	if err := r.tbl.Put(ctx, store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, store.AttrDoc: doc}, store.NotExists()); err != nil {
		return Brand{}, false, fmt.Errorf("tenants: create brand: %w", err)
	}
	return b, true, nil
}

// Brand returns one brand profile of the tenant.
func (r *Repo) Brand(ctx context.Context, tenantID, id int32) (Brand, error) {
	it, err := r.tbl.Get(ctx, brandKey(tenantID, id))
	if errors.Is(err, store.ErrNotFound) {
		return Brand{}, ErrNotFound
	}
	if err != nil {
		return Brand{}, fmt.Errorf("tenants: get brand: %w", err)
	}
	return store.Doc[Brand](it)
}

// Brands returns the tenant's brand profiles in id order.
func (r *Repo) Brands(ctx context.Context, tenantID int32) ([]Brand, error) {
	items, err := store.All(ctx, r.tbl, store.Query{PK: PK(tenantID), SK: store.SKBeginsWith("BRAND#")})
	if err != nil {
		return nil, fmt.Errorf("tenants: list brands: %w", err)
	}
	return store.Docs[Brand](items)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
