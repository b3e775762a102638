package competitors_test

import (
	"context"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/competitors"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/embedded"
)

// TestCreateFindsEarlierRecords: competitors written before names were
// claimed (by the previous release) are found by name, not duplicated.
// Concurrent creates are tested in shared/seed (both backends), the claims
// themselves in shared/store/storetest.
func TestCreateFindsEarlierRecords(t *testing.T) {
	ctx := context.Background()
	tbl := embedded.NewMemory()
	for _, it := range []store.Item{
		{store.AttrPK: "TENANT#1", store.AttrSK: "COMPETITOR#0000000001", store.AttrDoc: `{"id":1,"tenantId":1,"name":"Confluence","isActive":true}`},
		{store.AttrPK: "TENANT#1", store.AttrSK: "COUNTER#competitor", "n": 1},
	} {
		if err := tbl.Put(ctx, it, store.NotExists()); err != nil {
			t.Fatal(err)
		}
	}
	repo := competitors.NewRepo(tbl, func() time.Time { return time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC) })
	for _, c := range []struct {
		name        string
		wantID      int32
		wantCreated bool
	}{{"confluence", 1, false}, {"Coda", 2, true}, {" CODA ", 2, false}} {
		t.Run(c.name, func(t *testing.T) {
			got, created, err := repo.Create(ctx, competitors.Spec{TenantID: 1, Name: c.name})
			if err != nil || got.ID != c.wantID || created != c.wantCreated {
				t.Fatalf("Create %q: id %d created=%v %v; want id %d created=%v", c.name, got.ID, created, err, c.wantID, c.wantCreated)
			}
		})
	}
	if list, _ := repo.List(ctx, 1); len(list) != 2 {
		t.Fatalf("%d competitors, want Confluence and Coda", len(list))
	}
}
