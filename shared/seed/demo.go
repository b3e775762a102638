package seed

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/auth"
	"github.com/brandlens/brandlens/shared/datadir"
)

// demoKeyFile keeps the demo key's plaintext beside the embedded store, so
// that every `make run` can print it again (keys are stored only hashed).
const demoKeyFile = "demo-api-key"

// DemoTenant is the tenant `brandlens serve` creates on an empty store.
func DemoTenant(key string) Tenant {
	return Tenant{
		Name: "Acme Notes", Credits: 1000, DailyCreditCeiling: 500, RPMLimit: 600,
		Brand: &Brand{Name: "Acme Notes", Aliases: []string{"AcmeNotes", "Acme"}, Domains: []string{"acmenotes.com"}},
		Competitors: []Brand{
			{Name: "Notion", Aliases: []string{"Notion HQ"}, Domains: []string{"notion.so"}},
			{Name: "Evernote", Domains: []string{"evernote.com"}},
			{Name: "Obsidian", Aliases: []string{"Obsidian.md"}, Domains: []string{"obsidian.md"}},
		},
		Queries: []Query{
			{Text: "best note taking app", Platforms: []string{"chatgpt", "perplexity", "gemini", "claude", "google_ai_overview"}, Schedule: "daily"},
			{Text: "note taking app for teams", Platforms: []string{"chatgpt", "perplexity"}},
			{Text: "evernote alternatives", Platforms: []string{"chatgpt", "claude", "gemini"}, Schedule: "weekly"},
		},
		APIKeys: []APIKey{{Key: key, Name: "demo", Scopes: []string{"publish"}, AutonomyLevel: "L0"}},
	}
}

// Demo makes sure a demo tenant exists when the store has no tenant, and
// returns the demo key to print ("" when the store was seeded otherwise).
// The demo tenant also gets a small set of synthetic citations so the read
// API has something to show before the first real run.
func Demo(ctx context.Context, svc *app.Repos, dataDir string) (string, error) {
	if b, err := datadir.ReadFile(dataDir, demoKeyFile); err == nil {
		return strings.TrimSpace(string(b)), nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("seed: read demo key: %w", err)
	}
	ts, err := svc.Tenants.List(ctx)
	if err != nil {
		return "", err
	}
	if len(ts) > 0 {
		return "", nil
	}
	key := auth.NewKeyPlaintext()
	res, err := Apply(ctx, svc, File{Tenants: []Tenant{DemoTenant(key)}})
	if err != nil {
		return "", err
	}
	if _, err := SyntheticCitations(ctx, svc, res.Tenants[0].ID, 60, 1); err != nil {
		return "", err
	}
	if err := datadir.Ensure(dataDir); err != nil {
		return "", fmt.Errorf("seed: %w", err)
	}
	if err := datadir.WriteFile(dataDir, demoKeyFile, []byte(key+"\n")); err != nil {
		return "", fmt.Errorf("seed: write demo key: %w", err)
	}
	return key, nil
}
