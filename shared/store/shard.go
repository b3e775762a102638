package store

import (
	"context"
	"fmt"
	"hash/fnv"
	"strings"
)

// WriteShards is how many GSI partitions a hot index key is written over.
// A key that every tenant's items share (the pending outbox, the due
// webhook deliveries, the unfinished jobs) would otherwise put all their
// index writes in one partition of the index, capped at about 1,000 write
// units a second — and a GSI that cannot keep up throttles the base
// table's writes. 16 shards lift the cap to about 16,000 a second, the
// peak modelled for 100,000 tenants (README "Scale model"), while a reader
// pays 17 small queries (the shards and the legacy key) per poll.
const WriteShards = 16

// Shard is the shard of an item id: FNV-1a of the id modulo WriteShards.
func Shard(id string) int {
	h := fnv.New32a()
	_, _ = h.Write([]byte(id))
	return int(h.Sum32() % WriteShards)
}

// ShardedPK is the partition of base that the item id is written to:
// base#NN with NN its shard in two digits.
func ShardedPK(base, id string) string { return fmt.Sprintf("%s#%02d", base, Shard(id)) }

// ShardPKs are the partitions a reader of base fans out over: every shard,
// then base itself, where items written before the sharding are (they
// leave it as they are settled, delivered or fanned out; see README
// "Access patterns").
func ShardPKs(base string) []string {
	pks := make([]string, 0, WriteShards+1)
	for i := range WriteShards {
		pks = append(pks, fmt.Sprintf("%s#%02d", base, i))
	}
	return append(pks, base)
}

// IsShardOf reports whether pk is base or one of its shards.
func IsShardOf(pk, base string) bool {
	if pk == base {
		return true
	}
	rest, ok := strings.CutPrefix(pk, base+"#")
	return ok && len(rest) == 2 && rest[0] >= '0' && rest[0] <= '9' && rest[1] >= '0' && rest[1] <= '9'
}

// MergeShards reads q (its PK ignored) over every partition of base,
// merged in q's sort-key order as one partition would be: q.Limit bounds
// each partition's pages.
func MergeShards(tbl Table, base string, q Query) *Merged {
	qs := make([]Query, 0, WriteShards+1)
	for _, pk := range ShardPKs(base) {
		s := q
		s.PK = pk
		qs = append(qs, s)
	}
	return Merge(tbl, qs...)
}

// FirstShards returns up to n items of q over every partition of base, in
// sort-key order.
func FirstShards(ctx context.Context, tbl Table, base string, q Query, n int) ([]Item, error) {
	if q.Limit == 0 || q.Limit > n {
		q.Limit = n
	}
	m := MergeShards(tbl, base, q)
	var out []Item
	for len(out) < n {
		it, ok, err := m.Next(ctx)
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		out = append(out, it)
	}
	return out, nil
}
