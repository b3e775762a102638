package app

import (
	"context"
	"fmt"
	"log/slog"
)

// Migrate brings the data an older release stored up to this one's access
// patterns; it is idempotent and cheap once done. Today: every citation in
// GSI2 (see citations.Repo.Indexed). `brandlens serve` runs it at start;
// in AWS run `brandlens admin migrate` once a deploy has replaced every
// older function version (lists stay complete meanwhile, only slower).
func Migrate(ctx context.Context, r *Repos, log *slog.Logger) error {
	done, err := r.Citations.Indexed(ctx)
	if err != nil || done {
		return err
	}
	ts, err := r.Tenants.List(ctx)
	if err != nil {
		return fmt.Errorf("app: migrate: %w", err)
	}
	total := 0
	for _, t := range ts {
		n, err := r.Citations.BackfillIndex(ctx, t.ID)
		if err != nil {
			return fmt.Errorf("app: migrate tenant %d: %w", t.ID, err)
		}
		total += n
	}
	if err := r.Citations.MarkIndexed(ctx); err != nil {
		return err
	}
	if log != nil {
		log.Info("migrated: citations indexed by platform and mention", "tenants", len(ts), "citations_changed", total)
	}
	return nil
}
