package store_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/embedded"
)

func TestShardedPK(t *testing.T) {
	seen := map[string]bool{}
	for i := range 1000 {
		id := fmt.Sprintf("evt_%06d", i)
		pk := store.ShardedPK("HOT", id)
		if pk != store.ShardedPK("HOT", id) {
			t.Fatalf("%s: not stable", id)
		}
		if !store.IsShardOf(pk, "HOT") || !slices.Contains(store.ShardPKs("HOT"), pk) {
			t.Fatalf("%s: %s is not a shard of HOT", id, pk)
		}
		seen[pk] = true
	}
	// 1,000 ids land on every shard (FNV-1a spreads them).
	if len(seen) != store.WriteShards {
		t.Errorf("%d shards used, want %d", len(seen), store.WriteShards)
	}
	for _, c := range []struct {
		pk   string
		want bool
	}{
		{"HOT", true}, {"HOT#00", true}, {"HOT#15", true}, {"HOT#1", false}, {"HOT#123", false},
		{"HOT#ab", false}, {"HOTTER#01", false}, {"HO", false}, {"", false},
	} {
		t.Run(c.pk, func(t *testing.T) {
			if got := store.IsShardOf(c.pk, "HOT"); got != c.want {
				t.Errorf("IsShardOf(%q) = %v", c.pk, got)
			}
		})
	}
}

// FirstShards reads every shard and the legacy key, merged in sort-key
// order as one partition would be.
func TestFirstShardsMergesShardsAndLegacyKey(t *testing.T) {
	ctx := context.Background()
	tbl := embedded.NewMemory()
	var want []string
	for i := range 60 {
		sk := fmt.Sprintf("%03d", i)
		pk := store.ShardedPK("HOT", sk)
		if i%7 == 0 {
			pk = "HOT" // written before the sharding
		}
		it := store.Item{store.AttrPK: "P#" + sk, store.AttrSK: "X", store.AttrGSI1PK: pk, store.AttrGSI1SK: sk}
		if err := tbl.Put(ctx, it, store.Cond{}); err != nil {
			t.Fatal(err)
		}
		want = append(want, sk)
	}
	for _, n := range []int{1, 10, 60, 100} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			items, err := store.FirstShards(ctx, tbl, "HOT", store.Query{Index: store.IndexGSI1, Limit: 4}, n)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, it := range items {
				got = append(got, it.String(store.AttrGSI1SK))
			}
			if w := want[:min(n, len(want))]; !slices.Equal(got, w) {
				t.Fatalf("got %v, want %v", got, w)
			}
		})
	}
}
