package embedded

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/store"
)

// TestOpensDirectoryOfOlderRelease: a data directory written by main at
// 6baedf5, when the trees held maps (testdata/genfixture.go.txt made it:
// a snapshot, then a log of puts, an update, a delete, a transaction and
// items with a TTL), opens with every item as that revision read it back,
// in the table and in both indexes; a compaction by this revision writes a
// snapshot that opens again with the same items.
func TestOpensDirectoryOfOlderRelease(t *testing.T) {
	src := filepath.Join("testdata", "written-by-6baedf5")
	raw, err := os.ReadFile(filepath.Join(src, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var maps []map[string]any
	if err := dec.Decode(&maps); err != nil {
		t.Fatal(err)
	}
	var want []store.Item
	for _, m := range maps {
		it, err := decodeItem(m)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, it)
	}
	if len(want) != 42 {
		t.Fatalf("fixture holds %d items, want 42", len(want))
	}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(src, "dir", "*.jsonl"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// The fixture's clock: one item expired a minute before, another
	// expires a minute after.
	now := time.Date(2026, 11, 23, 6, 0, 0, 0, time.UTC)
	for round, compact := range []bool{false, true} {
		tbl := open(t, dir, WithClock(func() time.Time { return now }))
		checkHolds(t, tbl, want)
		if compact {
			if err := tbl.Compact(); err != nil {
				t.Fatal(err)
			}
		}
		closeTable(t, tbl)
		if round == 1 {
			tbl = open(t, dir, WithClock(func() time.Time { return now }))
			checkHolds(t, tbl, want)
			closeTable(t, tbl)
		}
	}
}

// checkHolds: tbl holds exactly want, by Get, by partition and in each
// index's partitions in index order.
func checkHolds(t *testing.T, tbl *Table, want []store.Item) {
	t.Helper()
	ctx := context.Background()
	for _, w := range want {
		got, err := tbl.Get(ctx, w.Key())
		if err != nil || !reflect.DeepEqual(got, w) {
			t.Fatalf("Get %v = %v, %v; want %v", w.Key(), got, err, w)
		}
	}
	for _, index := range []string{"", store.IndexGSI1, store.IndexGSI2} {
		h, r := store.IndexKeyAttrs(index)
		parts := map[string][]store.Item{}
		for _, w := range want {
			if w.String(h) != "" && w.String(r) != "" {
				parts[w.String(h)] = append(parts[w.String(h)], w)
			}
		}
		for pk, items := range parts {
			slices.SortFunc(items, func(a, b store.Item) int {
				return strings.Compare(a.String(r)+"\x00"+a.String(store.AttrPK)+"\x00"+a.String(store.AttrSK),
					b.String(r)+"\x00"+b.String(store.AttrPK)+"\x00"+b.String(store.AttrSK))
			})
			p, err := tbl.Query(ctx, store.Query{Index: index, PK: pk})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p.Items, items) {
				t.Fatalf("index %q partition %s: got %d items %v, want %d", index, pk, len(p.Items), p.Items, len(items))
			}
		}
	}
}

// TestRecordRoundTrip: every value kind and edge survives encoding, and
// the partial reads agree with the whole decode.
func TestRecordRoundTrip(t *testing.T) {
	for name, it := range map[string]store.Item{
		"keys only":     {store.AttrPK: "P", store.AttrSK: "S"},
		"all kinds":     {store.AttrPK: "P", store.AttrSK: "S", "s": "x", "empty": "", "t": true, "f": false, "z": int64(0)},
		"number edges":  {store.AttrPK: "P", store.AttrSK: "S", "min": int64(math.MinInt64), "max": int64(math.MaxInt64), "neg": int64(-1), "b": int64(128)},
		"long and utf8": {store.AttrPK: strings.Repeat("p", 2048), store.AttrSK: "ünï ✓", "doc": strings.Repeat("\x00\xff{}", 40_000)},
		"index keys": {store.AttrPK: "P", store.AttrSK: "S", store.AttrGSI1PK: "G1", store.AttrGSI1SK: "g1",
			store.AttrGSI2PK: "G2", store.AttrGSI2SK: "g2", store.AttrExpiresAt: int64(1_800_000_000)},
	} {
		t.Run(name, func(t *testing.T) { checkRecord(t, it) })
	}
}

func checkRecord(t *testing.T, it store.Item) {
	t.Helper()
	rec, err := encodeRecord(it)
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.item(); !reflect.DeepEqual(got, it) {
		t.Fatalf("decoded %v, want %v", got, it)
	}
	names := []string{"absent"}
	for k, v := range it {
		names = append(names, k)
		if got, ok := rec.Attr(k); !ok || got != v {
			t.Fatalf("Attr(%q) = %v, %v; want %v", k, got, ok, v)
		}
	}
	if _, ok := rec.Attr("absent"); ok {
		t.Fatal("Attr of an absent attribute found one")
	}
	slices.Sort(names)
	proj := rec.project(names[:len(names)/2+1])
	strs := rec.appendStrings([]string{"before"}, names)
	if strs[0] != "before" || len(strs) != len(names)+1 {
		t.Fatalf("appendStrings appended %v", strs)
	}
	for i, n := range names {
		v, ok := it[n]
		if i <= len(names)/2 {
			if pv, pok := proj[n]; pok != ok || pv != v {
				t.Fatalf("project %q = %v, %v; want %v, %v", n, pv, pok, v, ok)
			}
		}
		if s, _ := v.(string); strs[i+1] != s {
			t.Fatalf("appendStrings %q = %q, want %q", n, strs[i+1], s)
		}
	}
	if len(proj) > len(names)/2+1 {
		t.Fatalf("project kept %v", proj)
	}
	k := rec.keys()
	exp, hasExp := it[store.AttrExpiresAt].(int64)
	if rec.str(k.pk) != it.String(store.AttrPK) || rec.str(k.sk) != it.String(store.AttrSK) ||
		[2]string{rec.str(k.gsi1[0]), rec.str(k.gsi1[1])} != [2]string{it.String(store.AttrGSI1PK), it.String(store.AttrGSI1SK)} ||
		[2]string{rec.str(k.gsi2[0]), rec.str(k.gsi2[1])} != [2]string{it.String(store.AttrGSI2PK), it.String(store.AttrGSI2SK)} ||
		k.exp != exp || k.hasExp != hasExp {
		t.Fatalf("keys %+v of %v", k, it)
	}
}

// FuzzRecord: any item of strings, numbers and booleans round-trips.
func FuzzRecord(f *testing.F) {
	f.Add("P", "S", "name", "value", int64(-5), true)
	f.Add("\xff", "ü", "", "\x00", int64(math.MinInt64), false)
	f.Fuzz(func(t *testing.T, pk, sk, name, s string, n int64, b bool) {
		if pk == "" || sk == "" || name == "" {
			return
		}
		it := store.Item{store.AttrPK: pk, store.AttrSK: sk, name: s, name + "n": n, name + "b": b}
		checkRecord(t, it)
	})
}

// TestRecordRefusesOtherTypes: a value no item may hold is an error, not a
// panic, before anything is logged.
func TestRecordRefusesOtherTypes(t *testing.T) {
	if _, err := encodeRecord(store.Item{store.AttrPK: "P", store.AttrSK: "S", "f": 1.5}); err == nil {
		t.Fatal("a float was encoded")
	}
}
