package citations_test

import (
	"context"
	"slices"
	"testing"

	"github.com/brandlens/brandlens/shared/citations"
	"github.com/brandlens/brandlens/shared/ids"
	"github.com/brandlens/brandlens/shared/store"
)

// Citations stored before GSI2 existed: lists stay complete before the
// migration (GSI1, filtered), the backfill indexes each once, and after the
// marker lists read GSI2 and still find every one.
func TestIndexMigration(t *testing.T) {
	listBackends(t, func(t *testing.T, tbl store.Table) {
		ctx := context.Background()
		repo := citations.NewRepo(tbl, nil)
		all := listFixture(t, repo, 40)
		// As an older release stored them: without GSI2 keys.
		for _, c := range all[:30] {
			if _, err := tbl.Update(ctx, store.Key{PK: "TENANT#1", SK: "CITATION#" + ids.Pad(c.ID)},
				store.Update{Remove: []string{store.AttrGSI2PK, store.AttrGSI2SK}}, store.Cond{}); err != nil {
				t.Fatal(err)
			}
		}
		f := citations.Filter{Platform: "gemini"}
		var want []int32
		for _, c := range all {
			if *c.Platform == "gemini" {
				want = append(want, c.ID)
			}
		}
		slices.Reverse(want) // newest first: dates grow with ids
		if got := readAll(t, repo, 1, f, 3, true); !slices.Equal(got, want) {
			t.Fatalf("before the migration: %v, want %v", got, want)
		}
		n, err := repo.BackfillIndex(ctx, 1)
		if err != nil || n != 30 {
			t.Fatalf("backfill changed %d (%v), want 30", n, err)
		}
		if n, err := repo.BackfillIndex(ctx, 1); err != nil || n != 0 {
			t.Fatalf("second backfill changed %d (%v), want 0", n, err)
		}
		// Another process (a new repo) sees the marker once set.
		if err := citations.NewRepo(tbl, nil).MarkIndexed(ctx); err != nil {
			t.Fatal(err)
		}
		after := citations.NewRepo(tbl, nil)
		if ok, err := after.Indexed(ctx); !ok || err != nil {
			t.Fatalf("indexed %v %v", ok, err)
		}
		if got := readAll(t, after, 1, f, 3, true); !slices.Equal(got, want) {
			t.Fatalf("after the migration: %v, want %v", got, want)
		}
	})
}
