package httpapi

import (
	"github.com/brandlens/brandlens/shared/auth"
	"github.com/brandlens/brandlens/shared/citations"
	"github.com/brandlens/brandlens/shared/competitors"
	"github.com/brandlens/brandlens/shared/credits"
	"github.com/brandlens/brandlens/shared/idempotency"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/queries"
	"github.com/brandlens/brandlens/shared/tenants"
)

// Stores are the entity stores over the one table that the handlers read
// and write. The assembly builds them once (app.NewRepos) for every
// function, so the list is kept here, where the handlers need it.
type Stores struct {
	// Keys is nil when the process holds no key secret (the functions that
	// authenticate no key never read it).
	Keys        *auth.Keys
	Tenants     *tenants.Repo
	Queries     *queries.Repo
	Competitors *competitors.Repo
	Citations   *citations.Repo
	Jobs        *jobs.Repo
	Ledger      *credits.Ledger
	// Limiter counts each key's requests (nil: no limit): in the table in
	// Lambda, in memory in `brandlens serve` (see package ratelimit).
	Limiter     RateLimiter
	Idempotency *idempotency.Records
}
