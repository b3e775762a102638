// Package seed loads tenants with their brand, competitors, queries, keys
// and credits from a JSON seed file, idempotently, and makes the demo
// tenant that `brandlens serve` starts with on an empty store.
package seed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/auth"
	"github.com/brandlens/brandlens/shared/competitors"
	"github.com/brandlens/brandlens/shared/queries"
	"github.com/brandlens/brandlens/shared/tenants"
)

// File is the seed format.
type File struct {
	Tenants []Tenant `json:"tenants"`
}

// Tenant is one tenant of a seed file.
type Tenant struct {
	Name               string   `json:"name"`
	Credits            int64    `json:"credits"`
	DailyCreditCeiling int64    `json:"dailyCreditCeiling"`
	RPMLimit           int64    `json:"rpmLimit"`
	Brand              *Brand   `json:"brand"`
	Competitors        []Brand  `json:"competitors"`
	Queries            []Query  `json:"queries"`
	APIKeys            []APIKey `json:"apiKeys"`
}

// Brand is a brand or competitor: name, aliases, domains.
type Brand struct {
	Name    string   `json:"name"`
	Aliases []string `json:"aliases"`
	Domains []string `json:"domains"`
}

// Query is a monitoring query of a seed file.
type Query struct {
	Text      string   `json:"text"`
	Platforms []string `json:"platforms"`
	Schedule  string   `json:"schedule"`
}

// APIKey is a key of a seed file; Key is its plaintext (at least 24
// characters, local use only), stored hashed like any other key.
type APIKey struct {
	Key           string   `json:"key"`
	Name          string   `json:"name"`
	Scopes        []string `json:"scopes"`
	IsAgent       bool     `json:"isAgent"`
	AutonomyLevel string   `json:"autonomyLevel"`
}

// Parse decodes a seed file strictly: an unknown member is an error, so a
// typo does not silently drop data.
func Parse(r io.Reader) (File, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var f File
	if err := dec.Decode(&f); err != nil {
		return File{}, fmt.Errorf("seed: parse: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return File{}, errors.New("seed: parse: data after the JSON object")
	}
	return f, nil
}

// LoadFile parses and applies the seed file at path.
func LoadFile(ctx context.Context, svc *app.Repos, path string) (Result, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Result{}, fmt.Errorf("seed: %w", err)
	}
	f, err := Parse(bytes.NewReader(b))
	if err != nil {
		return Result{}, err
	}
	return Apply(ctx, svc, f)
}

// Result tells what a seed load did.
type Result struct {
	Tenants []TenantResult
}

// TenantResult is one tenant after loading.
type TenantResult struct {
	ID      int32
	Name    string
	Created bool
	Keys    []string // plaintext of the keys in the seed (as given)
}

// Apply loads f. It is idempotent: tenants, brands, competitors and queries
// are matched by name/text, keys by their plaintext, and credits are granted
// only when the tenant is created. Within a tenant, brands, competitors and
// queries get ids 1, 2, 3… in file order.
func Apply(ctx context.Context, svc *app.Repos, f File) (Result, error) {
	var res Result
	for i, st := range f.Tenants {
		tr, err := applyTenant(ctx, svc, st)
		if err != nil {
			return res, fmt.Errorf("seed: tenant %d (%q): %w", i+1, st.Name, err)
		}
		res.Tenants = append(res.Tenants, tr)
	}
	return res, nil
}

func applyTenant(ctx context.Context, svc *app.Repos, st Tenant) (TenantResult, error) {
	if st.Credits < 0 {
		return TenantResult{}, errors.New("credits must not be negative")
	}
	t, created, err := svc.Tenants.Create(ctx, tenants.Tenant{Name: st.Name, DailyCreditCeiling: st.DailyCreditCeiling, RPMLimit: st.RPMLimit})
	if err != nil {
		return TenantResult{}, err
	}
	tr := TenantResult{ID: t.ID, Name: t.Name, Created: created}
	if created && st.Credits > 0 {
		if err := svc.Ledger.Grant(ctx, t.ID, st.Credits, "seed"); err != nil {
			return tr, err
		}
	}
	var brandID int32
	if st.Brand != nil {
		b, _, err := svc.Tenants.CreateBrand(ctx, tenants.Brand{TenantID: t.ID, Name: st.Brand.Name, Aliases: st.Brand.Aliases, Domains: st.Brand.Domains})
		if err != nil {
			return tr, err
		}
		brandID = b.ID
	}
	for _, c := range st.Competitors {
		if _, _, err := svc.Competitors.Create(ctx, competitors.Spec{TenantID: t.ID, Name: c.Name, Aliases: c.Aliases, Domains: c.Domains}); err != nil {
			return tr, err
		}
	}
	for _, q := range st.Queries {
		if brandID == 0 {
			return tr, errors.New("queries need the tenant's brand")
		}
		nq := queries.Query{TenantID: t.ID, BrandProfileID: brandID, Text: q.Text, Platforms: q.Platforms}
		if q.Schedule != "" {
			s := q.Schedule
			nq.Schedule = &s
		}
		if _, _, err := svc.Queries.Create(ctx, nq); err != nil {
			return tr, err
		}
	}
	for i, k := range st.APIKeys {
		if k.Key == "" {
			return tr, fmt.Errorf("apiKeys[%d].key is required (at least %d characters)", i, auth.MinSeedKeyLen)
		}
		scopes := make([]auth.Scope, len(k.Scopes))
		for i, s := range k.Scopes {
			scopes[i] = auth.Scope(s)
		}
		plain, _, err := svc.Keys.Create(ctx, auth.NewKey{
			TenantID: t.ID, Name: k.Name, Scopes: scopes, IsAgent: k.IsAgent,
			Autonomy: auth.Autonomy(k.AutonomyLevel), Plaintext: k.Key,
		})
		if err != nil {
			return tr, err
		}
		tr.Keys = append(tr.Keys, plain)
	}
	return tr, nil
}
