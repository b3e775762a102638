// Package storetest is the conformance suite of store.Table: every backend
// runs the same cases, so the embedded backend and DynamoDB agree. It
// covers the document collections and unique-value claims built on the
// table too.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/store"
)

// Clock is a settable clock for TTL tests.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a clock stopped at t.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// env is what one case works with.
type env struct {
	ctx   context.Context
	tbl   store.Table
	clock *Clock
}

// Run runs the suite. newTable must return an empty table whose TTL clock
// is now; each case gets its own, and the cases run in parallel.
func Run(t *testing.T, newTable func(t *testing.T, now func() time.Time) store.Table) {
	cases := []struct {
		name string
		fn   func(t *testing.T, e env)
	}{
		{"RoundTrip", testRoundTrip},
		{"GetMissing", testGetMissing},
		{"PutReplaces", testPutReplaces},
		{"PutNotExists", testPutNotExists},
		{"DeleteConditional", testDeleteConditional},
		{"UpdateGuard", testUpdateGuard},
		{"UpdateSetIfAbsentRemove", testUpdateSetIfAbsentRemove},
		{"UpdateUpsert", testUpdateUpsert},
		{"UpdateExpiredStartsFresh", testUpdateExpiredStartsFresh},
		{"TransactFailure", testTransactFailure},
		{"TransactSuccess", testTransactSuccess},
		{"TransactExpired", testTransactExpired},
		{"TransactLimits", testTransactLimits},
		{"KeyRange", testKeyRange},
		{"Filter", testFilter},
		{"GSI1", testIndex(store.IndexGSI1)},
		{"GSI1Maintenance", testIndexMaintenance(store.IndexGSI1)},
		{"GSI2", testIndex(store.IndexGSI2)},
		{"GSI2Maintenance", testIndexMaintenance(store.IndexGSI2)},
		{"IndexesApart", testIndexesApart},
		{"Merge", testMerge},
		{"Projection", testProjection},
		{"GetMany", testGetMany},
		{"TTL", testTTL},
		{"InvalidInput", testInvalidInput},
		{"InvalidCursor", testInvalidCursor},
		{"ConcurrentGuardedAdd", testConcurrentGuardedAdd},
		{"ConcurrentTransactions", testConcurrentTransactions},
		{"Collection", testCollection},
		{"UniqueConcurrent", testUniqueConcurrent},
		{"UniquePrepare", testUniquePrepare},
		{"UniqueReady", testUniqueReady},
		{"UniqueMoveRelease", testUniqueMoveRelease},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			// Near real time: DynamoDB Local may itself delete items whose
			// TTL lies in the real past, which must not change outcomes.
			clock := NewClock(time.Now().Truncate(time.Second))
			c.fn(t, env{ctx: t.Context(), tbl: newTable(t, clock.Now), clock: clock})
		})
	}
}

func key(pk, sk string) store.Key { return store.Key{PK: pk, SK: sk} }

func put(t *testing.T, e env, item store.Item) {
	t.Helper()
	if err := e.tbl.Put(e.ctx, item, store.Cond{}); err != nil {
		t.Fatalf("Put %v: %v", item, err)
	}
}

func get(t *testing.T, e env, k store.Key) store.Item {
	t.Helper()
	it, err := e.tbl.Get(e.ctx, k)
	if err != nil {
		t.Fatalf("Get %v: %v", k, err)
	}
	return it
}

func wantMissing(t *testing.T, e env, k store.Key) {
	t.Helper()
	if it, err := e.tbl.Get(e.ctx, k); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Get %v = %v, %v; want ErrNotFound", k, it, err)
	}
}

func wantCondFailed(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, store.ErrConditionFailed) {
		t.Fatalf("%s: err = %v; want ErrConditionFailed", what, err)
	}
}

// wantInvalid expects a plain error: neither success nor a condition failure.
func wantInvalid(t *testing.T, what string, err error) {
	t.Helper()
	if err == nil || errors.Is(err, store.ErrConditionFailed) {
		t.Fatalf("%s: err = %v; want a validation error", what, err)
	}
}

func wantItem(t *testing.T, what string, got, want store.Item) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n got %#v\nwant %#v", what, got, want)
	}
}

// collect reads every page of q, checking that no page exceeds the limit.
func collect(t *testing.T, e env, q store.Query) []store.Item {
	t.Helper()
	var out []store.Item
	for pages := 0; ; pages++ {
		if pages > 10000 {
			t.Fatalf("query %+v does not end", q)
		}
		p, err := e.tbl.Query(e.ctx, q)
		if err != nil {
			t.Fatalf("Query %+v: %v", q, err)
		}
		if q.Limit > 0 && len(p.Items) > q.Limit {
			t.Fatalf("Query %+v: page of %d items, over the limit", q, len(p.Items))
		}
		out = append(out, p.Items...)
		if p.Cursor == "" {
			return out
		}
		q.Cursor = p.Cursor
	}
}

func attrs(items []store.Item, name string) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		out = append(out, it.String(name))
	}
	return out
}

func wantStrings(t *testing.T, what string, got, want []string) {
	t.Helper()
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if !slices.Equal(got, want) {
		t.Fatalf("%s:\n got %q\nwant %q", what, got, want)
	}
}

func testRoundTrip(t *testing.T, e env) {
	k := key("RT", "ITEM#1")
	put(t, e, store.Item{
		store.AttrPK: k.PK, store.AttrSK: k.SK,
		"s": "héllo, wörld", "empty": "", "n": int64(42), "neg": int64(-7),
		"max": int64(math.MaxInt64), "min": int64(math.MinInt64),
		"int": 7, "int32": int32(-9), "yes": true, "no": false,
	})
	want := store.Item{
		store.AttrPK: k.PK, store.AttrSK: k.SK,
		"s": "héllo, wörld", "empty": "", "n": int64(42), "neg": int64(-7),
		"max": int64(math.MaxInt64), "min": int64(math.MinInt64),
		"int": int64(7), "int32": int64(-9), "yes": true, "no": false,
	}
	got := get(t, e, k)
	wantItem(t, "Get after Put", got, want)
	got["s"] = "changed"
	wantItem(t, "Get after changing a returned item", get(t, e, k), want)
	if err := e.tbl.Delete(e.ctx, k, store.Cond{}); err != nil {
		t.Fatal(err)
	}
	wantMissing(t, e, k)
	if err := e.tbl.Delete(e.ctx, k, store.Cond{}); err != nil {
		t.Fatalf("Delete of nothing: %v", err)
	}
}

func testGetMissing(t *testing.T, e env) {
	wantMissing(t, e, key("NOPE", "NOPE"))
	put(t, e, store.Item{store.AttrPK: "P", store.AttrSK: "A"})
	wantMissing(t, e, key("P", "B"))
	wantMissing(t, e, key("Q", "A"))
}

func testPutReplaces(t *testing.T, e env) {
	k := key("PR", "X")
	put(t, e, store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "a": 1, "b": "two"})
	put(t, e, store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "a": 3})
	wantItem(t, "Get after second Put", get(t, e, k), store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "a": int64(3)})
}

func testPutNotExists(t *testing.T, e env) {
	k := key("IDEM", "KEY#abc")
	exp := e.clock.Now().Unix() + 60
	first := store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "job": "J1", store.AttrExpiresAt: exp}
	if err := e.tbl.Put(e.ctx, first, store.NotExists()); err != nil {
		t.Fatalf("first Put: %v", err)
	}
	second := store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "job": "J2"}
	wantCondFailed(t, "second Put", e.tbl.Put(e.ctx, second, store.NotExists()))
	if got := get(t, e, k).String("job"); got != "J1" {
		t.Fatalf("job = %q after the failed Put; want J1", got)
	}
	e.clock.Advance(59 * time.Second)
	wantCondFailed(t, "Put one second before expiry", e.tbl.Put(e.ctx, second, store.NotExists()))
	e.clock.Advance(time.Second)
	if err := e.tbl.Put(e.ctx, second, store.NotExists()); err != nil {
		t.Fatalf("Put after expiry: %v", err)
	}
	wantItem(t, "Get after the Put over the expired item", get(t, e, k), second)
}

func testDeleteConditional(t *testing.T, e env) {
	k := key("DC", "X")
	put(t, e, store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "status": "HELD"})
	wantCondFailed(t, "Delete with a false condition", e.tbl.Delete(e.ctx, k, store.Eq("status", "CAPTURED")))
	get(t, e, k)
	if err := e.tbl.Delete(e.ctx, k, store.And(store.Exists(), store.Eq("status", "HELD"))); err != nil {
		t.Fatalf("Delete with a true condition: %v", err)
	}
	wantMissing(t, e, k)
	wantCondFailed(t, "Delete of nothing with Exists", e.tbl.Delete(e.ctx, k, store.Exists()))
	if err := e.tbl.Delete(e.ctx, k, store.NotExists()); err != nil {
		t.Fatalf("Delete of nothing with NotExists: %v", err)
	}
}

func testUpdateGuard(t *testing.T, e env) {
	k := key("CREDITS", "BALANCE")
	put(t, e, store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "available": 12, "held": 0})
	take := store.Update{Add: map[string]int64{"available": -5, "held": 5}}
	guard := store.Ge("available", 5)
	for _, want := range []int64{7, 2} {
		it, err := e.tbl.Update(e.ctx, k, take, guard)
		if err != nil {
			t.Fatalf("Update while available >= 5: %v", err)
		}
		if it.Int("available") != want || it.Int("held") != 12-want {
			t.Fatalf("Update returned %v; want available %d, held %d", it, want, 12-want)
		}
	}
	_, err := e.tbl.Update(e.ctx, k, take, guard)
	wantCondFailed(t, "Update below the guard", err)
	wantItem(t, "item after the refused Update", get(t, e, k),
		store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "available": int64(2), "held": int64(10)})
	// The guard compares numbers as numbers (10 > 9 though "10" < "9").
	_, err = e.tbl.Update(e.ctx, k, store.Update{Set: map[string]any{"note": "x"}}, store.Gt("held", 9))
	if err != nil {
		t.Fatalf("numeric guard: %v", err)
	}
	_, err = e.tbl.Update(e.ctx, k, store.Update{Set: map[string]any{"note": "y"}},
		store.And(store.Eq("note", "x"), store.Lt("available", int32(2))))
	wantCondFailed(t, "Update with a false And", err)
}

func testUpdateSetIfAbsentRemove(t *testing.T, e env) {
	k := key("SIA", "X")
	it, err := e.tbl.Update(e.ctx, k, store.Update{
		SetIfAbsent: map[string]any{"createdAt": 5, "owner": "a"},
		Set:         map[string]any{"touched": true},
	}, store.Cond{})
	if err != nil {
		t.Fatal(err)
	}
	want := store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "createdAt": int64(5), "owner": "a", "touched": true}
	wantItem(t, "first Update", it, want)
	it, err = e.tbl.Update(e.ctx, k, store.Update{
		SetIfAbsent: map[string]any{"createdAt": 9, "owner": "b", "extra": "new"},
	}, store.Cond{})
	if err != nil {
		t.Fatal(err)
	}
	want["extra"] = "new"
	wantItem(t, "SetIfAbsent over present attributes", it, want)
	it, err = e.tbl.Update(e.ctx, k, store.Update{Remove: []string{"owner", "neverThere"}}, store.AttrExists("owner"))
	if err != nil {
		t.Fatal(err)
	}
	delete(want, "owner")
	wantItem(t, "Update with Remove", it, want)
	wantItem(t, "Get after Remove", get(t, e, k), want)
	_, err = e.tbl.Update(e.ctx, k, store.Update{Remove: []string{"extra"}}, store.AttrExists("owner"))
	wantCondFailed(t, "Update guarded by a removed attribute", err)
}

func testUpdateUpsert(t *testing.T, e env) {
	k := key("UPSERT", "COUNTER")
	_, err := e.tbl.Update(e.ctx, k, store.Update{Add: map[string]int64{"n": 1}}, store.Exists())
	wantCondFailed(t, "Update of nothing with Exists", err)
	wantMissing(t, e, k)
	it, err := e.tbl.Update(e.ctx, k, store.Update{Add: map[string]int64{"n": 3}, Set: map[string]any{"kind": "c"}},
		store.Or(store.AttrNotExists("n"), store.Lt("n", 10)))
	if err != nil {
		t.Fatalf("upsert: %v", err)
	}
	want := store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "n": int64(3), "kind": "c"}
	wantItem(t, "item created by Update", it, want)
	wantItem(t, "Get after upsert", get(t, e, k), want)
	it, err = e.tbl.Update(e.ctx, k, store.Update{Add: map[string]int64{"n": -1}}, store.Exists())
	if err != nil {
		t.Fatal(err)
	}
	if it.Int("n") != 2 {
		t.Fatalf("n = %d after adding -1 to 3", it.Int("n"))
	}
}

func testUpdateExpiredStartsFresh(t *testing.T, e env) {
	k := key("RATE", "WINDOW")
	now := e.clock.Now().Unix()
	put(t, e, store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "n": 99, "stale": "yes", store.AttrExpiresAt: now})
	_, err := e.tbl.Update(e.ctx, k, store.Update{Add: map[string]int64{"n": 1}}, store.Eq("stale", "yes"))
	wantCondFailed(t, "condition on an expired item's attribute", err)
	it, err := e.tbl.Update(e.ctx, k,
		store.Update{Add: map[string]int64{"n": 1}, Set: map[string]any{store.AttrExpiresAt: now + 60}},
		store.Or(store.AttrNotExists("n"), store.Lt("n", 5)))
	if err != nil {
		t.Fatalf("Update of an expired item: %v", err)
	}
	want := store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "n": int64(1), store.AttrExpiresAt: now + 60}
	wantItem(t, "item after updating an expired one", it, want)
	wantItem(t, "Get", get(t, e, k), want)
}

func counterItem(pk, sk string, n int64) store.Item {
	return store.Item{store.AttrPK: pk, store.AttrSK: sk, "n": n}
}

func testTransactFailure(t *testing.T, e env) {
	put(t, e, counterItem("TX", "B", 10))
	put(t, e, counterItem("TX", "C", 1))
	put(t, e, store.Item{store.AttrPK: "TX", store.AttrSK: "D", "status": "HELD"})
	before := collect(t, e, store.Query{PK: "TX"})
	ops := []store.Op{
		store.PutOp(counterItem("TX", "A", 1), store.NotExists()),
		store.UpdateOp(key("TX", "B"), store.Update{Add: map[string]int64{"n": -4}}, store.Ge("n", 4)),
		store.DeleteOp(key("TX", "C"), store.Exists()),
		store.CheckOp(key("TX", "D"), store.Eq("status", "CAPTURED")),
		store.PutOp(counterItem("TX", "E", 1), store.Cond{}),
		store.UpdateOp(key("TX", "F"), store.Update{Add: map[string]int64{"n": 1}}, store.Exists()),
	}
	err := e.tbl.TransactWrite(e.ctx, ops...)
	var txErr *store.TxConditionError
	if !errors.As(err, &txErr) || txErr.Index != 3 {
		t.Fatalf("TransactWrite = %v; want *TxConditionError{Index: 3}", err)
	}
	wantCondFailed(t, "TransactWrite", err)
	if after := collect(t, e, store.Query{PK: "TX"}); !reflect.DeepEqual(after, before) {
		t.Fatalf("a failed transaction changed the table:\nbefore %v\n after %v", before, after)
	}
	// Only the last op fails now: the index follows it.
	ops[3] = store.CheckOp(key("TX", "D"), store.Eq("status", "HELD"))
	err = e.tbl.TransactWrite(e.ctx, ops...)
	if !errors.As(err, &txErr) || txErr.Index != 5 {
		t.Fatalf("TransactWrite = %v; want *TxConditionError{Index: 5}", err)
	}
	if after := collect(t, e, store.Query{PK: "TX"}); !reflect.DeepEqual(after, before) {
		t.Fatalf("a failed transaction changed the table:\nbefore %v\n after %v", before, after)
	}
}

func testTransactSuccess(t *testing.T, e env) {
	put(t, e, counterItem("TX", "B", 10))
	put(t, e, counterItem("TX", "C", 1))
	put(t, e, store.Item{store.AttrPK: "TX", store.AttrSK: "D", "status": "HELD"})
	err := e.tbl.TransactWrite(e.ctx,
		store.PutOp(counterItem("TX", "A", 1), store.NotExists()),
		store.UpdateOp(key("TX", "B"), store.Update{Add: map[string]int64{"n": -4}, Set: map[string]any{"by": "tx"}}, store.Ge("n", 4)),
		store.DeleteOp(key("TX", "C"), store.Exists()),
		store.CheckOp(key("TX", "D"), store.Eq("status", "HELD")),
		store.UpdateOp(key("TX", "N"), store.Update{Add: map[string]int64{"n": 2}}, store.NotExists()),
	)
	if err != nil {
		t.Fatalf("TransactWrite: %v", err)
	}
	wantItem(t, "put item", get(t, e, key("TX", "A")), counterItem("TX", "A", 1))
	wantItem(t, "updated item", get(t, e, key("TX", "B")), store.Item{store.AttrPK: "TX", store.AttrSK: "B", "n": int64(6), "by": "tx"})
	wantMissing(t, e, key("TX", "C"))
	wantItem(t, "checked item", get(t, e, key("TX", "D")), store.Item{store.AttrPK: "TX", store.AttrSK: "D", "status": "HELD"})
	wantItem(t, "upserted item", get(t, e, key("TX", "N")), counterItem("TX", "N", 2))
	if err := e.tbl.TransactWrite(e.ctx); err != nil {
		t.Fatalf("empty TransactWrite: %v", err)
	}
}

func testTransactExpired(t *testing.T, e env) {
	now := e.clock.Now().Unix()
	put(t, e, store.Item{store.AttrPK: "TXE", store.AttrSK: "OLD", "n": 50, "stale": true, store.AttrExpiresAt: now - 5})
	put(t, e, store.Item{store.AttrPK: "TXE", store.AttrSK: "GONE", "x": "y", store.AttrExpiresAt: now - 5})
	err := e.tbl.TransactWrite(e.ctx,
		store.CheckOp(key("TXE", "GONE"), store.NotExists()),
		store.UpdateOp(key("TXE", "OLD"), store.Update{Add: map[string]int64{"n": 1}}, store.AttrNotExists("stale")),
	)
	if err != nil {
		t.Fatalf("TransactWrite over expired items: %v", err)
	}
	wantItem(t, "updated expired item", get(t, e, key("TXE", "OLD")), counterItem("TXE", "OLD", 1))
	err = e.tbl.TransactWrite(e.ctx,
		store.PutOp(counterItem("TXE", "NEW", 1), store.Cond{}),
		store.CheckOp(key("TXE", "GONE"), store.Exists()),
	)
	var txErr *store.TxConditionError
	if !errors.As(err, &txErr) || txErr.Index != 1 {
		t.Fatalf("TransactWrite = %v; want *TxConditionError{Index: 1}", err)
	}
	wantMissing(t, e, key("TXE", "NEW"))
}

func testTransactLimits(t *testing.T, e env) {
	err := e.tbl.TransactWrite(e.ctx,
		store.PutOp(counterItem("TXL", "A", 1), store.Cond{}),
		store.UpdateOp(key("TXL", "A"), store.Update{Add: map[string]int64{"n": 1}}, store.Cond{}),
	)
	var txErr *store.TxConditionError
	if errors.As(err, &txErr) {
		t.Fatalf("two ops on one key: %v; want a validation error", err)
	}
	wantInvalid(t, "two ops on one key", err)
	wantMissing(t, e, key("TXL", "A"))
	ops := make([]store.Op, store.MaxTxOps+1)
	for i := range ops {
		ops[i] = store.PutOp(counterItem("TXL", fmt.Sprintf("I#%03d", i), 1), store.Cond{})
	}
	wantInvalid(t, "too many ops", e.tbl.TransactWrite(e.ctx, ops...))
	wantMissing(t, e, key("TXL", "I#000"))
	if err := e.tbl.TransactWrite(e.ctx, ops[:store.MaxTxOps]...); err != nil {
		t.Fatalf("TransactWrite of MaxTxOps ops: %v", err)
	}
	if n := len(collect(t, e, store.Query{PK: "TXL"})); n != store.MaxTxOps {
		t.Fatalf("%d items after the full transaction; want %d", n, store.MaxTxOps)
	}
}

// sortKeys lists the sort keys of the key-range partition, unordered.
var sortKeys = func() []string {
	var sks []string
	for i := 19; i >= 0; i-- {
		sks = append(sks, fmt.Sprintf("A#%02d", i))
	}
	return append(sks, "B#00", "B#01", "B#02", "B#03", "B#04", "C", "A#", "A")
}()

func testKeyRange(t *testing.T, e env) {
	for _, sk := range sortKeys {
		put(t, e, store.Item{store.AttrPK: "KR", store.AttrSK: sk, "v": sk})
	}
	// Neighbouring partitions must never show up.
	put(t, e, store.Item{store.AttrPK: "KQ", store.AttrSK: "A#05"})
	put(t, e, store.Item{store.AttrPK: "KR#", store.AttrSK: "A#05"})
	put(t, e, store.Item{store.AttrPK: "KRA", store.AttrSK: "A#05"})
	sorted := slices.Clone(sortKeys)
	sort.Strings(sorted)
	conds := []struct {
		name string
		kc   store.KeyCond
	}{
		{"all", store.KeyCond{}},
		{"eq", store.SKEq("A#07")},
		{"eq missing", store.SKEq("A#7")},
		{"begins_with", store.SKBeginsWith("A#1")},
		{"begins_with all", store.SKBeginsWith("A")},
		{"between", store.SKBetween("A#05", "A#12")},
		{"between one", store.SKBetween("B#02", "B#02")},
		{"lt", store.KeyCond{Op: store.KeyLt, Value: "A#03"}},
		{"le", store.KeyCond{Op: store.KeyLe, Value: "A#03"}},
		{"gt", store.KeyCond{Op: store.KeyGt, Value: "A#17"}},
		{"ge", store.KeyCond{Op: store.KeyGe, Value: "B#00"}},
		{"ge past end", store.KeyCond{Op: store.KeyGe, Value: "D"}},
	}
	for _, c := range conds {
		var want []string
		for _, sk := range sorted {
			if c.kc.Match(sk) {
				want = append(want, sk)
			}
		}
		for _, desc := range []bool{false, true} {
			w := slices.Clone(want)
			if desc {
				slices.Reverse(w)
			}
			for _, limit := range []int{0, 1, 4} {
				if limit == 1 && c.name != "all" && c.name != "between" {
					continue
				}
				q := store.Query{PK: "KR", SK: c.kc, Desc: desc, Limit: limit}
				got := attrs(collect(t, e, q), store.AttrSK)
				wantStrings(t, fmt.Sprintf("%s desc=%v limit=%d", c.name, desc, limit), got, w)
			}
		}
	}
}

type filterRow struct {
	sk     string
	status string // "" = absent
	n      int64
	tag    string
}

func testFilter(t *testing.T, e env) {
	var rows []filterRow
	for i := range 30 {
		r := filterRow{sk: fmt.Sprintf("I#%02d", i), n: int64(i), tag: "gamma"}
		if i%7 != 0 {
			r.status = []string{"open", "closed", "held"}[i%3]
		}
		if i%4 == 0 {
			r.tag = "alpha-beta"
		}
		rows = append(rows, r)
		it := store.Item{store.AttrPK: "F", store.AttrSK: r.sk, "n": r.n, "tag": r.tag}
		if r.status != "" {
			it["status"] = r.status
		}
		put(t, e, it)
	}
	filters := []struct {
		name string
		cond store.Cond
		want func(r filterRow) bool
	}{
		{"eq", store.Eq("status", "open"), func(r filterRow) bool { return r.status == "open" }},
		{"contains", store.Contains("tag", "beta"), func(r filterRow) bool { return strings.Contains(r.tag, "beta") }},
		{"begins_with", store.BeginsWith("tag", "gam"), func(r filterRow) bool { return r.tag == "gamma" }},
		{"and", store.And(store.Eq("status", "open"), store.Ge("n", 10)),
			func(r filterRow) bool { return r.status == "open" && r.n >= 10 }},
		{"or", store.Or(store.Eq("status", "held"), store.Lt("n", 3)),
			func(r filterRow) bool { return r.status == "held" || r.n < 3 }},
		{"not", store.Not(store.Eq("status", "open")), func(r filterRow) bool { return r.status != "open" }},
		{"ne counts absent", store.Ne("status", "closed"), func(r filterRow) bool { return r.status != "closed" }},
		{"attr_not_exists", store.AttrNotExists("status"), func(r filterRow) bool { return r.status == "" }},
		{"nested", store.Or(store.And(store.Contains("tag", "alpha"), store.Gt("n", 20)), store.Eq("n", 5)),
			func(r filterRow) bool { return strings.Contains(r.tag, "alpha") && r.n > 20 || r.n == 5 }},
		{"type mismatch", store.Eq("n", "5"), func(filterRow) bool { return false }},
	}
	for _, f := range filters {
		for _, desc := range []bool{false, true} {
			var want []string
			for _, r := range rows {
				if f.want(r) {
					want = append(want, r.sk)
				}
			}
			if desc {
				slices.Reverse(want)
			}
			for _, limit := range []int{0, 4} {
				got := attrs(collect(t, e, store.Query{PK: "F", Desc: desc, Limit: limit, Filter: f.cond}), store.AttrSK)
				wantStrings(t, fmt.Sprintf("%s desc=%v limit=%d", f.name, desc, limit), got, want)
			}
		}
	}
	// Limit counts the items read before the filter, as in DynamoDB: the
	// first page of 4 holds only the matches among I#00..I#03.
	p, err := e.tbl.Query(e.ctx, store.Query{PK: "F", Limit: 4, Filter: store.Eq("status", "open")})
	if err != nil {
		t.Fatal(err)
	}
	wantStrings(t, "first filtered page", attrs(p.Items, store.AttrSK), []string{"I#03"})
	if p.Cursor == "" {
		t.Fatal("first filtered page has no cursor")
	}
}

// testIndex checks a global secondary index: sparse, every key condition
// in both directions and page sizes, filters, tied sort keys.
func testIndex(ix string) func(t *testing.T, e env) {
	return func(t *testing.T, e env) { testIndexQueries(t, e, ix) }
}

func testIndexQueries(t *testing.T, e env, ix string) {
	ha, ra := store.IndexKeyAttrs(ix)
	var want []string
	for i := range 12 {
		sk := fmt.Sprintf("S#%02d", i)
		want = append(want, sk)
		put(t, e, store.Item{
			store.AttrPK: fmt.Sprintf("U#%d", i%3), store.AttrSK: fmt.Sprintf("G#%02d", i),
			ha: "IDX", ra: sk, "payload": int64(i),
		})
	}
	// Sparse: without both GSI1 attributes an item is not in the index.
	put(t, e, store.Item{store.AttrPK: "U#0", store.AttrSK: "NOGSI"})
	put(t, e, store.Item{store.AttrPK: "U#0", store.AttrSK: "HALF", ha: "IDX"})
	put(t, e, store.Item{store.AttrPK: "U#1", store.AttrSK: "OTHER", ha: "IDX2", ra: "S#05"})
	put(t, e, store.Item{store.AttrPK: "IDX", store.AttrSK: "S#03"})

	conds := []store.KeyCond{
		{},
		store.SKBeginsWith("S#0"),
		store.SKBetween("S#03", "S#08"),
		{Op: store.KeyGt, Value: "S#09"},
		{Op: store.KeyLe, Value: "S#02"},
		store.SKEq("S#04"),
	}
	for _, kc := range conds {
		for _, desc := range []bool{false, true} {
			var w []string
			for _, sk := range want {
				if kc.Match(sk) {
					w = append(w, sk)
				}
			}
			if desc {
				slices.Reverse(w)
			}
			for _, limit := range []int{0, 1, 5} {
				q := store.Query{Index: ix, PK: "IDX", SK: kc, Desc: desc, Limit: limit}
				items := collect(t, e, q)
				wantStrings(t, fmt.Sprintf(ix+" %+v desc=%v limit=%d", kc, desc, limit), attrs(items, ra), w)
				for _, it := range items {
					if it.String(ra) != fmt.Sprintf("S#%02d", it.Int("payload")) || it.String(store.AttrPK) == "" {
						t.Fatalf("index returned an incomplete item %v", it)
					}
				}
			}
		}
	}
	got := collect(t, e, store.Query{Index: ix, PK: "IDX", Filter: store.Ge("payload", 10), Desc: true, Limit: 2})
	wantStrings(t, "filtered descending GSI1", attrs(got, ra), []string{"S#11", "S#10"})

	// Items sharing a GSI1 sort key: every one exactly once, whatever the
	// page size.
	var tied []string
	for i := range 5 {
		pk := fmt.Sprintf("T#%d", 4-i)
		tied = append(tied, pk)
		put(t, e, store.Item{store.AttrPK: pk, store.AttrSK: "X", ha: "TIE", ra: "same"})
	}
	put(t, e, store.Item{store.AttrPK: "T#9", store.AttrSK: "X", ha: "TIE", ra: "samf"})
	sort.Strings(tied)
	for _, desc := range []bool{false, true} {
		for _, limit := range []int{1, 2} {
			items := collect(t, e, store.Query{Index: ix, PK: "TIE", SK: store.SKEq("same"), Desc: desc, Limit: limit})
			got := attrs(items, store.AttrPK)
			sort.Strings(got)
			wantStrings(t, fmt.Sprintf("tied GSI1 keys desc=%v limit=%d", desc, limit), got, tied)
		}
	}
}

// testIndexMaintenance checks that an index follows its items' updates
// and deletes.
func testIndexMaintenance(ix string) func(t *testing.T, e env) {
	return func(t *testing.T, e env) { testIndexMoves(t, e, ix) }
}

func testIndexMoves(t *testing.T, e env, ix string) {
	ha, ra := store.IndexKeyAttrs(ix)
	gsi := func() []string {
		return attrs(collect(t, e, store.Query{Index: ix, PK: "STATUS#open"}), store.AttrSK)
	}
	for _, sk := range []string{"J#1", "J#2", "J#3"} {
		put(t, e, store.Item{store.AttrPK: "T", store.AttrSK: sk, ha: "STATUS#open", ra: sk})
	}
	wantStrings(t, "index after puts", gsi(), []string{"J#1", "J#2", "J#3"})
	if _, err := e.tbl.Update(e.ctx, key("T", "J#1"), store.Update{Set: map[string]any{ha: "STATUS#done"}}, store.Cond{}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.tbl.Update(e.ctx, key("T", "J#2"), store.Update{Set: map[string]any{ra: "J#9"}}, store.Cond{}); err != nil {
		t.Fatal(err)
	}
	wantStrings(t, "index after moving items", gsi(), []string{"J#3", "J#2"})
	if _, err := e.tbl.Update(e.ctx, key("T", "J#3"), store.Update{Remove: []string{ra}}, store.Cond{}); err != nil {
		t.Fatal(err)
	}
	put(t, e, store.Item{store.AttrPK: "T", store.AttrSK: "J#2", "plain": true})
	wantStrings(t, "index after removing attributes", gsi(), nil)
	if err := e.tbl.Delete(e.ctx, key("T", "J#1"), store.Cond{}); err != nil {
		t.Fatal(err)
	}
	wantStrings(t, "other partition of the index", attrs(collect(t, e, store.Query{Index: ix, PK: "STATUS#done"}), store.AttrSK), nil)
}

// testIndexesApart: an item carrying the keys of both indexes is in each,
// under its own key; one carrying one index's keys is in that one only.
func testIndexesApart(t *testing.T, e env) {
	put(t, e, store.Item{store.AttrPK: "B", store.AttrSK: "1", store.AttrGSI1PK: "ONE", store.AttrGSI1SK: "a",
		store.AttrGSI2PK: "TWO", store.AttrGSI2SK: "z"})
	put(t, e, store.Item{store.AttrPK: "B", store.AttrSK: "2", store.AttrGSI2PK: "ONE", store.AttrGSI2SK: "b"})
	wantStrings(t, "GSI1 partition ONE", attrs(collect(t, e, store.Query{Index: store.IndexGSI1, PK: "ONE"}), store.AttrSK), []string{"1"})
	wantStrings(t, "GSI2 partition ONE", attrs(collect(t, e, store.Query{Index: store.IndexGSI2, PK: "ONE"}), store.AttrSK), []string{"2"})
	wantStrings(t, "GSI2 partition TWO", attrs(collect(t, e, store.Query{Index: store.IndexGSI2, PK: "TWO"}), store.AttrSK), []string{"1"})
	if err := e.tbl.Delete(e.ctx, key("B", "1"), store.Cond{}); err != nil {
		t.Fatal(err)
	}
	wantStrings(t, "GSI2 after the delete", attrs(collect(t, e, store.Query{Index: store.IndexGSI2, PK: "TWO"}), store.AttrSK), nil)
}

// testMerge: partitions merged read as one partition in sort-key order,
// whatever the page size, with filters, ties broken by table key.
func testMerge(t *testing.T, e env) {
	type row struct{ part, sk, pk string }
	var rows []row
	for i := range 30 {
		part := []string{"M#a", "M#b", "M#c"}[i*7%3]
		sk := fmt.Sprintf("%03d", i*37%101) // interleaved across the partitions
		rows = append(rows, row{part, sk, fmt.Sprintf("R#%02d", i)})
	}
	rows = append(rows, row{"M#a", "tie", "R#91"}, row{"M#c", "tie", "R#90"}, row{"M#b", "tie", "R#92"})
	for i, r := range rows {
		put(t, e, store.Item{store.AttrPK: r.pk, store.AttrSK: "X", store.AttrGSI2PK: r.part, store.AttrGSI2SK: r.sk, "odd": i%2 == 1})
	}
	put(t, e, store.Item{store.AttrPK: "R#other", store.AttrSK: "X", store.AttrGSI2PK: "M#d", store.AttrGSI2SK: "050"})
	for _, desc := range []bool{false, true} {
		for _, limit := range []int{0, 1, 4} {
			for _, oddOnly := range []bool{false, true} {
				var want []string
				sorted := slices.Clone(rows)
				slices.SortFunc(sorted, func(a, b row) int {
					c := strings.Compare(a.sk, b.sk)
					if c == 0 {
						c = strings.Compare(a.pk, b.pk)
					}
					if desc {
						return -c
					}
					return c
				})
				for _, r := range sorted {
					i := slices.IndexFunc(rows, func(x row) bool { return x.pk == r.pk })
					if !oddOnly || i%2 == 1 {
						want = append(want, r.pk)
					}
				}
				var qs []store.Query
				for _, part := range []string{"M#a", "M#b", "M#c"} {
					q := store.Query{Index: store.IndexGSI2, PK: part, Desc: desc, Limit: limit}
					if oddOnly {
						q.Filter = store.Eq("odd", true)
					}
					qs = append(qs, q)
				}
				m := store.Merge(e.tbl, qs...)
				var got []string
				for {
					it, ok, err := m.Next(e.ctx)
					if err != nil {
						t.Fatal(err)
					}
					if !ok {
						break
					}
					got = append(got, it.String(store.AttrPK))
				}
				wantStrings(t, fmt.Sprintf("merge desc=%v limit=%d odd=%v", desc, limit, oddOnly), got, want)
				// The same as rows, the backend's own and the fallback.
				for i := range qs {
					qs[i].Attrs = []string{store.AttrPK, store.AttrGSI2SK, store.AttrSK}
				}
				for _, tbl := range []store.Table{e.tbl, onlyTable{e.tbl}} {
					mr, err := store.MergeRows(tbl, qs...)
					if err != nil {
						t.Fatal(err)
					}
					got = nil
					for {
						row, ok, err := mr.Next(e.ctx)
						if err != nil {
							t.Fatal(err)
						}
						if !ok {
							break
						}
						got = append(got, row[0])
					}
					wantStrings(t, fmt.Sprintf("merged rows (%T) desc=%v limit=%d odd=%v", tbl, desc, limit, oddOnly), got, want)
				}
			}
		}
	}
}

// testProjection: a query's Attrs are all its items carry, absent ones are
// left out, and the filter still reads the others; on the table and an
// index, with pages that continue.
func testProjection(t *testing.T, e env) {
	for i := range 4 {
		put(t, e, store.Item{store.AttrPK: "PRJ", store.AttrSK: fmt.Sprintf("%d", i), store.AttrGSI2PK: "PRJX",
			store.AttrGSI2SK: fmt.Sprintf("%d", i), "keep": fmt.Sprintf("k%d", i), "drop": "x", "n": int64(i)})
	}
	for _, ix := range []string{"", store.IndexGSI2} {
		pk := map[string]string{"": "PRJ", store.IndexGSI2: "PRJX"}[ix]
		items := collect(t, e, store.Query{Index: ix, PK: pk, Filter: store.Ge("n", 1), Limit: 2,
			Attrs: []string{"keep", store.AttrSK, "absent"}})
		wantStrings(t, "projected "+ix, attrs(items, "keep"), []string{"k1", "k2", "k3"})
		for _, it := range items {
			if len(it) != 2 {
				t.Fatalf("projection %q: item %v carries more than keep and SK", ix, it)
			}
		}
		// As rows: strings in the order asked, "" for an absent attribute
		// and for a number; the backend's own and the fallback alike.
		for _, tbl := range []store.Table{e.tbl, onlyTable{e.tbl}} {
			q := store.Query{Index: ix, PK: pk, Filter: store.Ge("n", 1), Limit: 2,
				Attrs: []string{"keep", "absent", store.AttrSK, "n"}}
			var got []string
			for {
				r, err := store.QueryRows(e.ctx, tbl, q)
				if err != nil {
					t.Fatal(err)
				}
				if r.Len() > 2 {
					t.Fatalf("rows %q: page of %d, over the limit", ix, r.Len())
				}
				for i := range r.Len() {
					got = append(got, strings.Join(r.Row(i), "|"))
				}
				if q.Cursor = r.Cursor; q.Cursor == "" {
					break
				}
			}
			wantStrings(t, fmt.Sprintf("rows %q (%T)", ix, tbl), got, []string{"k1||1|", "k2||2|", "k3||3|"})
			if _, err := store.QueryRows(e.ctx, tbl, store.Query{Index: ix, PK: pk}); !errors.Is(err, store.ErrNoAttrs) {
				t.Fatalf("rows without attributes: %v", err)
			}
		}
	}
}

// onlyTable hides a table's other methods (store.BatchGetter), so that
// store.GetMany takes its fallback.
type onlyTable struct{ store.Table }

// testGetMany: items in the keys' order, nil for missing and expired ones,
// repeated keys, more keys than one batch — batched and through the
// fallback alike.
func testGetMany(t *testing.T, e env) {
	var keys []store.Key
	var want []string
	for i := range 130 {
		k := key("GM", fmt.Sprintf("%03d", i))
		switch {
		case i%10 == 3: // never written
		case i%10 == 7: // expired
			put(t, e, store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "v": "x", store.AttrExpiresAt: e.clock.Now().Unix() - 1})
		default:
			put(t, e, store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "v": k.SK})
		}
		keys = append(keys, k)
	}
	keys = append(keys, keys[0], keys[3]) // repeated
	for _, k := range keys {
		n, _ := strconv.Atoi(k.SK)
		if n%10 == 3 || n%10 == 7 {
			want = append(want, "")
		} else {
			want = append(want, k.SK)
		}
	}
	for name, tbl := range map[string]store.Table{"batched": e.tbl, "fallback": onlyTable{e.tbl}} {
		items, err := store.GetMany(e.ctx, tbl, keys...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := make([]string, len(items))
		for i, it := range items {
			got[i] = it.String("v")
		}
		wantStrings(t, "GetMany "+name, got, want)
	}
}

func testTTL(t *testing.T, e env) {
	now := e.clock.Now().Unix()
	item := func(sk string, exp int64) store.Item {
		return store.Item{store.AttrPK: "TTL", store.AttrSK: sk, store.AttrGSI1PK: "TTLIDX", store.AttrGSI1SK: sk, store.AttrExpiresAt: exp}
	}
	put(t, e, item("PAST", now-3600))
	put(t, e, item("SOON", now+30))
	put(t, e, item("LATER", now+31))
	put(t, e, store.Item{store.AttrPK: "TTL", store.AttrSK: "NEVER", store.AttrGSI1PK: "TTLIDX", store.AttrGSI1SK: "NEVER"})
	visible := func(want ...string) {
		t.Helper()
		got := attrs(collect(t, e, store.Query{PK: "TTL"}), store.AttrSK)
		wantStrings(t, "table query", got, want)
		got = attrs(collect(t, e, store.Query{PK: "TTL", Desc: true, Limit: 1}), store.AttrSK)
		slices.Reverse(got)
		wantStrings(t, "descending paged table query", got, want)
		got = attrs(collect(t, e, store.Query{Index: store.IndexGSI1, PK: "TTLIDX"}), store.AttrSK)
		wantStrings(t, "GSI1 query", got, want)
	}
	wantMissing(t, e, key("TTL", "PAST"))
	get(t, e, key("TTL", "SOON"))
	visible("LATER", "NEVER", "SOON")
	_, err := e.tbl.Update(e.ctx, key("TTL", "PAST"), store.Update{Set: map[string]any{"x": 1}}, store.Exists())
	wantCondFailed(t, "Update of an expired item with Exists", err)
	wantCondFailed(t, "Delete of an expired item with Exists", e.tbl.Delete(e.ctx, key("TTL", "PAST"), store.Exists()))
	if err := e.tbl.TransactWrite(e.ctx, store.CheckOp(key("TTL", "PAST"), store.NotExists())); err != nil {
		t.Fatalf("check NotExists on an expired item: %v", err)
	}

	e.clock.Advance(29 * time.Second)
	visible("LATER", "NEVER", "SOON")
	e.clock.Advance(time.Second) // SOON's expiresAt == now: expired
	wantMissing(t, e, key("TTL", "SOON"))
	visible("LATER", "NEVER")
	wantCondFailed(t, "Put with Exists on a just-expired item", e.tbl.Put(e.ctx, item("SOON", now+90), store.Exists()))
	if err := e.tbl.Put(e.ctx, item("SOON", now+90), store.NotExists()); err != nil {
		t.Fatalf("Put NotExists over a just-expired item: %v", err)
	}
	visible("LATER", "NEVER", "SOON")
	e.clock.Advance(time.Second)
	visible("NEVER", "SOON")
}

func testInvalidInput(t *testing.T, e env) {
	k := key("INV", "X")
	put(t, e, store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "s": "text"})
	wantInvalid(t, "Put without SK", e.tbl.Put(e.ctx, store.Item{store.AttrPK: "INV"}, store.Cond{}))
	wantInvalid(t, "Put with an empty PK", e.tbl.Put(e.ctx, store.Item{store.AttrPK: "", store.AttrSK: "X"}, store.Cond{}))
	wantInvalid(t, "Put with a float", e.tbl.Put(e.ctx, store.Item{store.AttrPK: "INV", store.AttrSK: "F", "f": 1.5}, store.Cond{}))
	wantInvalid(t, "Put with an empty GSI1PK", e.tbl.Put(e.ctx, store.Item{store.AttrPK: "INV", store.AttrSK: "G", store.AttrGSI1PK: ""}, store.Cond{}))
	wantInvalid(t, "Put with a numeric SK", e.tbl.Put(e.ctx, store.Item{store.AttrPK: "INV", store.AttrSK: 5}, store.Cond{}))
	wantInvalid(t, "Put with a string expiresAt", e.tbl.Put(e.ctx, store.Item{store.AttrPK: "INV", store.AttrSK: "E", store.AttrExpiresAt: "soon"}, store.Cond{}))
	wantInvalid(t, "Put of an item over 400 KB", e.tbl.Put(e.ctx, store.Item{store.AttrPK: "INV", store.AttrSK: "BIG", "doc": strings.Repeat("x", 401*1024)}, store.Cond{}))
	_, err := e.tbl.Update(e.ctx, k, store.Update{Set: map[string]any{store.AttrPK: "other"}}, store.Cond{})
	wantInvalid(t, "Update of PK", err)
	_, err = e.tbl.Update(e.ctx, k, store.Update{}, store.Cond{})
	wantInvalid(t, "empty Update", err)
	_, err = e.tbl.Update(e.ctx, k, store.Update{Set: map[string]any{"a": 1}, Remove: []string{"a"}}, store.Cond{})
	wantInvalid(t, "Update naming an attribute twice", err)
	_, err = e.tbl.Update(e.ctx, k, store.Update{Add: map[string]int64{"s": 1}}, store.Cond{})
	wantInvalid(t, "Add to a string", err)
	_, err = e.tbl.Update(e.ctx, k, store.Update{Remove: []string{""}}, store.Cond{})
	wantInvalid(t, "Remove of an empty name", err)
	_, err = e.tbl.Update(e.ctx, k, store.Update{Set: map[string]any{store.AttrGSI1PK: ""}}, store.Cond{})
	wantInvalid(t, "Set of an empty GSI1PK", err)
	wantItem(t, "item after invalid updates", get(t, e, k), store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "s": "text"})
	_, err = e.tbl.Query(e.ctx, store.Query{PK: "INV", SK: store.SKBetween("B", "A")})
	wantInvalid(t, "BETWEEN with reversed bounds", err)
	_, err = e.tbl.Query(e.ctx, store.Query{PK: "INV", Limit: -1})
	wantInvalid(t, "negative Limit", err)
	_, err = e.tbl.Query(e.ctx, store.Query{Index: "GSI9", PK: "INV"})
	wantInvalid(t, "unknown index", err)
	_, err = e.tbl.Query(e.ctx, store.Query{PK: "INV", Filter: store.Eq("s", 1.5)})
	wantInvalid(t, "filter with a float", err)
}

func testInvalidCursor(t *testing.T, e env) {
	for i := range 3 {
		put(t, e, store.Item{store.AttrPK: "CUR", store.AttrSK: fmt.Sprintf("%d", i), store.AttrGSI1PK: "CURIDX", store.AttrGSI1SK: "x"})
	}
	p, err := e.tbl.Query(e.ctx, store.Query{PK: "CUR", Limit: 1})
	if err != nil || p.Cursor == "" {
		t.Fatalf("first page: %v, cursor %q", err, p.Cursor)
	}
	for _, c := range []string{"!!!", "e30", "bm90IGpzb24", strings.Repeat("A", 100000)} {
		_, err := e.tbl.Query(e.ctx, store.Query{PK: "CUR", Cursor: c})
		wantInvalid(t, fmt.Sprintf("cursor %.20q", c), err)
	}
	_, err = e.tbl.Query(e.ctx, store.Query{PK: "OTHER", Cursor: p.Cursor})
	wantInvalid(t, "cursor of another partition", err)
	_, err = e.tbl.Query(e.ctx, store.Query{Index: store.IndexGSI1, PK: "CURIDX", Cursor: p.Cursor})
	wantInvalid(t, "table cursor on the index", err)
}

func testConcurrentGuardedAdd(t *testing.T, e env) {
	k := key("CONC", "BALANCE")
	put(t, e, store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "available": 100})
	const workers, cost = 50, 3
	var mu sync.Mutex
	var ok int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			it, err := e.tbl.Update(e.ctx, k, store.Update{Add: map[string]int64{"available": -cost}}, store.Ge("available", cost))
			switch {
			case err == nil:
				if it.Int("available") < 0 {
					t.Errorf("available went to %d", it.Int("available"))
				}
				mu.Lock()
				ok++
				mu.Unlock()
			case !errors.Is(err, store.ErrConditionFailed):
				t.Errorf("Update: %v", err)
			}
		})
	}
	wg.Wait()
	left := get(t, e, k).Int("available")
	if ok != 100/cost || left != 100-ok*cost {
		t.Fatalf("%d guarded takes succeeded leaving %d; want %d leaving %d", ok, left, 100/cost, 100%cost)
	}
}

func testConcurrentTransactions(t *testing.T, e env) {
	k := key("CTX", "BALANCE")
	put(t, e, store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "available": 20, "held": 0})
	const workers = 50
	var wg sync.WaitGroup
	for i := range workers {
		wg.Go(func() {
			err := e.tbl.TransactWrite(e.ctx,
				store.UpdateOp(k, store.Update{Add: map[string]int64{"available": -1, "held": 1}}, store.Ge("available", 1)),
				store.PutOp(store.Item{store.AttrPK: "CTX", store.AttrSK: fmt.Sprintf("HOLD#%02d", i)}, store.NotExists()),
			)
			var txErr *store.TxConditionError
			if err != nil && (!errors.As(err, &txErr) || txErr.Index != 0) {
				t.Errorf("TransactWrite: %v", err)
			}
		})
	}
	wg.Wait()
	bal := get(t, e, k)
	holds := collect(t, e, store.Query{PK: "CTX", SK: store.SKBeginsWith("HOLD#")})
	if bal.Int("available") != 0 || bal.Int("held") != 20 || len(holds) != 20 {
		t.Fatalf("balance %v with %d holds; want available 0, held 20, 20 holds", bal, len(holds))
	}
}
