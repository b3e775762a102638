package embedded

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/storetest"
)

func TestConformanceMemory(t *testing.T) {
	storetest.Run(t, func(t *testing.T, now func() time.Time) store.Table {
		return NewMemory(WithClock(now))
	})
}

func TestConformanceDisk(t *testing.T) {
	storetest.Run(t, func(t *testing.T, now func() time.Time) store.Table {
		tbl, err := Open(t.TempDir(), WithClock(now))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if err := tbl.Close(); err != nil {
				t.Error(err)
			}
		})
		return tbl
	})
}

func open(t testing.TB, dir string, opts ...Option) *Table {
	t.Helper()
	tbl, err := Open(dir, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

func closeTable(t *testing.T, tbl *Table) {
	t.Helper()
	if err := tbl.Close(); err != nil {
		t.Fatal(err)
	}
}

func item(sk string, n int) store.Item {
	return store.Item{store.AttrPK: "P", store.AttrSK: sk, "n": n, "s": "v" + sk, "b": n%2 == 0,
		store.AttrGSI1PK: "G", store.AttrGSI1SK: fmt.Sprintf("%08d", n)}
}

// dump returns the table's partition P and the GSI1 partition G.
func dump(t *testing.T, tbl *Table) (string, string) {
	t.Helper()
	ctx := context.Background()
	items, err := store.All(ctx, tbl, store.Query{PK: "P"})
	if err != nil {
		t.Fatal(err)
	}
	gsi, err := store.All(ctx, tbl, store.Query{Index: store.IndexGSI1, PK: "G"})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(items), fmt.Sprint(gsi)
}

func TestReopen(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	tbl := open(t, dir)
	for i := range 50 {
		if err := tbl.Put(ctx, item(fmt.Sprintf("%03d", i), i), store.Cond{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tbl.Update(ctx, store.Key{PK: "P", SK: "007"}, store.Update{Add: map[string]int64{"n": 100}, Remove: []string{store.AttrGSI1SK}}, store.Cond{}); err != nil {
		t.Fatal(err)
	}
	if err := tbl.Delete(ctx, store.Key{PK: "P", SK: "010"}, store.Cond{}); err != nil {
		t.Fatal(err)
	}
	if err := tbl.TransactWrite(ctx,
		store.PutOp(item("100", 100), store.NotExists()),
		store.DeleteOp(store.Key{PK: "P", SK: "011"}, store.Exists()),
	); err != nil {
		t.Fatal(err)
	}
	wantItems, wantGSI := dump(t, tbl)
	closeTable(t, tbl)
	if _, err := tbl.Get(ctx, store.Key{PK: "P", SK: "001"}); !errors.Is(err, ErrClosed) {
		t.Fatalf("Get after Close: %v", err)
	}

	tbl = open(t, dir)
	defer closeTable(t, tbl)
	gotItems, gotGSI := dump(t, tbl)
	if gotItems != wantItems || gotGSI != wantGSI {
		t.Fatalf("after reopening:\n got %s\n     %s\nwant %s\n     %s", gotItems, gotGSI, wantItems, wantGSI)
	}
	it, err := tbl.Get(ctx, store.Key{PK: "P", SK: "007"})
	if err != nil || it.Int("n") != 107 || it.Bool("b") || it.String("s") != "v007" {
		t.Fatalf("Get 007 after reopening = %v, %v", it, err)
	}
}

func TestOpenTwice(t *testing.T) {
	dir := t.TempDir()
	tbl := open(t, dir)
	defer closeTable(t, tbl)
	if other, err := Open(dir); err == nil {
		other.Close()
		t.Fatal("a second Open of an open directory succeeded")
	}
}

func TestCompaction(t *testing.T) {
	ctx := context.Background()
	clock := storetest.NewClock(time.Unix(1_800_000_000, 0))
	dir := t.TempDir()
	tbl := open(t, dir, WithClock(clock.Now), WithCompactionThreshold(4096), WithSync(false))
	for i := range 400 {
		it := item(fmt.Sprintf("%03d", i%150), i)
		if i%10 == 0 {
			it[store.AttrExpiresAt] = clock.Now().Unix() + 5
		}
		if err := tbl.Put(ctx, it, store.Cond{}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 20 {
		if err := tbl.Delete(ctx, store.Key{PK: "P", SK: fmt.Sprintf("%03d", i)}, store.Cond{}); err != nil {
			t.Fatal(err)
		}
	}
	clock.Advance(10 * time.Second)
	if err := tbl.Compact(); err != nil {
		t.Fatal(err)
	}
	wantItems, wantGSI := dump(t, tbl)
	if strings.Count(wantItems, "map[") != 130-13 {
		t.Fatalf("%d items after compaction; want 117", strings.Count(wantItems, "map["))
	}
	tbl.mu.RLock()
	held := tbl.items.Len()
	tbl.mu.RUnlock()
	if held != 117 {
		t.Fatalf("%d items held after compaction; want the 117 unexpired", held)
	}
	names := dirNames(t, dir)
	if len(names) != 3 || !strings.HasPrefix(names[1], logPrefix) || !strings.HasPrefix(names[2], snapshotPrefix) {
		t.Fatalf("files after compaction: %v; want LOCK, one log, one snapshot", names)
	}
	// Writes after the compaction land in the new log.
	if err := tbl.Put(ctx, item("999", 999), store.Cond{}); err != nil {
		t.Fatal(err)
	}
	wantItems, wantGSI = dump(t, tbl)
	closeTable(t, tbl)

	tbl = open(t, dir, WithClock(clock.Now))
	defer closeTable(t, tbl)
	gotItems, gotGSI := dump(t, tbl)
	if gotItems != wantItems || gotGSI != wantGSI {
		t.Fatalf("after reopening a compacted table:\n got %s\nwant %s", gotItems, wantItems)
	}
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	return names
}

// TestBackgroundCompaction writes from many goroutines while the log is
// compacted again and again behind them.
func TestBackgroundCompaction(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	tbl := open(t, dir, WithCompactionThreshold(16<<10))
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 300 {
				k := store.Key{PK: "P", SK: fmt.Sprintf("%d-%03d", w, i%40)}
				if _, err := tbl.Update(ctx, k, store.Update{Add: map[string]int64{"n": 1}}, store.Cond{}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	want, _ := dump(t, tbl)
	closeTable(t, tbl)
	tbl = open(t, dir)
	defer closeTable(t, tbl)
	got, _ := dump(t, tbl)
	if got != want {
		t.Fatalf("after reopening:\n got %s\nwant %s", got, want)
	}
	items, err := store.All(ctx, tbl, store.Query{PK: "P"})
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, it := range items {
		sum += it.Int("n")
	}
	if len(items) != 320 || sum != 8*300 {
		t.Fatalf("%d counters summing to %d; want 320 summing to 2400", len(items), sum)
	}
}

func logPath(t *testing.T, dir string) string {
	t.Helper()
	for _, n := range dirNames(t, dir) {
		if strings.HasPrefix(n, logPrefix) {
			return filepath.Join(dir, n)
		}
	}
	t.Fatal("no log file")
	return ""
}

func TestTornLastLine(t *testing.T) {
	ctx := context.Background()
	for name, tail := range map[string]string{
		"cut record":    `{"p":[{"PK":"P","SK":"torn","n":`,
		"zeros":         "\x00\x00\x00\x00",
		"unknown stuff": "garbage\n",
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			tbl := open(t, dir)
			for i := range 3 {
				if err := tbl.Put(ctx, item(fmt.Sprintf("%d", i), i), store.Cond{}); err != nil {
					t.Fatal(err)
				}
			}
			want, _ := dump(t, tbl)
			closeTable(t, tbl)
			path := logPath(t, dir)
			good, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, append(good, tail...), 0o600); err != nil {
				t.Fatal(err)
			}

			tbl = open(t, dir)
			got, _ := dump(t, tbl)
			if got != want {
				t.Fatalf("after a torn write:\n got %s\nwant %s", got, want)
			}
			// The torn bytes are cut off, so the next record starts clean.
			if err := tbl.Put(ctx, item("after", 9), store.Cond{}); err != nil {
				t.Fatal(err)
			}
			closeTable(t, tbl)
			tbl = open(t, dir)
			defer closeTable(t, tbl)
			if _, err := tbl.Get(ctx, store.Key{PK: "P", SK: "after"}); err != nil {
				t.Fatalf("write after recovery: %v", err)
			}
			if _, err := tbl.Get(ctx, store.Key{PK: "P", SK: "torn"}); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("torn record: %v", err)
			}
		})
	}
}

func TestCorruptMiddleLine(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	tbl := open(t, dir)
	if err := tbl.Put(ctx, item("1", 1), store.Cond{}); err != nil {
		t.Fatal(err)
	}
	closeTable(t, tbl)
	path := logPath(t, dir)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	bad := append([]byte("garbage\n"), good...)
	if err := os.WriteFile(path, bad, 0o600); err != nil {
		t.Fatal(err)
	}
	if tbl, err := Open(dir); err == nil {
		tbl.Close()
		t.Fatal("Open accepted a log corrupt before its last line")
	}
}

// TestCrash reads a copy of the directory taken while the table is open,
// as after the process was killed.
func TestCrash(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	tbl := open(t, dir, WithCompactionThreshold(2048))
	defer closeTable(t, tbl)
	for i := range 100 {
		if err := tbl.Put(ctx, item(fmt.Sprintf("%03d", i), i), store.Cond{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := tbl.Compact(); err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		if err := tbl.Delete(ctx, store.Key{PK: "P", SK: fmt.Sprintf("%03d", i)}, store.Cond{}); err != nil {
			t.Fatal(err)
		}
	}
	want, _ := dump(t, tbl)
	copyDir := t.TempDir()
	if err := os.Chmod(copyDir, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, n := range dirNames(t, dir) {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(copyDir, n), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	crashed := open(t, copyDir)
	defer closeTable(t, crashed)
	if got, _ := dump(t, crashed); got != want {
		t.Fatalf("after a crash:\n got %s\nwant %s", got, want)
	}
}

func TestClosedMemory(t *testing.T) {
	tbl := NewMemory()
	if err := tbl.Close(); err != nil {
		t.Fatal(err)
	}
	if err := tbl.Put(context.Background(), item("1", 1), store.Cond{}); !errors.Is(err, ErrClosed) {
		t.Fatalf("Put after Close: %v", err)
	}
}

func FuzzCursor(f *testing.F) {
	ctx := context.Background()
	tbl := NewMemory()
	for i := range 5 {
		if err := tbl.Put(ctx, item(fmt.Sprintf("%d", i), i), store.Cond{}); err != nil {
			f.Fatal(err)
		}
	}
	for _, idx := range []string{"", store.IndexGSI1} {
		pk := map[string]string{"": "P", store.IndexGSI1: "G"}[idx]
		p, err := tbl.Query(ctx, store.Query{Index: idx, PK: pk, Limit: 2})
		if err != nil || p.Cursor == "" {
			f.Fatalf("seed query: %v", err)
		}
		f.Add(p.Cursor)
	}
	f.Add("")
	f.Add("e30")
	f.Add("eyJQSyI6IlAiLCJTSyI6MX0")
	f.Add("eyJQSyI6IlAiLCJTSyI6IiJ9")
	f.Add("%%%")
	f.Fuzz(func(t *testing.T, cursor string) {
		for _, q := range []store.Query{
			{PK: "P", Cursor: cursor, Limit: 2},
			{PK: "P", Cursor: cursor, Desc: true, SK: store.SKBeginsWith("1")},
			{Index: store.IndexGSI1, PK: "G", Cursor: cursor, Limit: 2},
			{Index: store.IndexGSI1, PK: "G", Cursor: cursor, Desc: true},
		} {
			_, qerr := tbl.Query(ctx, q)
			e, derr := decodeCursor(cursor, q.Index, q.PK)
			if cursor == "" {
				continue
			}
			if (qerr == nil) != (derr == nil) {
				t.Fatalf("Query error %v but decode error %v", qerr, derr)
			}
			if derr != nil {
				if !errors.Is(derr, store.ErrInvalidCursor) {
					t.Fatalf("decode error %v is not store.ErrInvalidCursor", derr)
				}
				continue
			}
			again, err := decodeCursor(encodeCursor(e, q.Index), q.Index, q.PK)
			if err != nil || again.h() != e.h() || again.r() != e.r() || again.pk() != e.pk() || again.sk() != e.sk() {
				t.Fatalf("cursor %q decodes to %+v, which does not round-trip: %+v, %v", cursor, e, again, err)
			}
		}
	})
}

// BenchmarkPutQuery measures the workload of the README's benchmark: many
// puts into one partition, then a filtered descending GSI1 query.
func BenchmarkPutQuery(b *testing.B) {
	ctx := context.Background()
	for b.Loop() {
		tbl := NewMemory()
		for i := range 100_000 {
			it := store.Item{store.AttrPK: "TENANT#1", store.AttrSK: fmt.Sprintf("ANSWER#%08d", i),
				store.AttrGSI1PK: "TENANT#1#ANSWERS", store.AttrGSI1SK: fmt.Sprintf("%08d", i), "mentioned": i%3 == 0}
			if err := tbl.Put(ctx, it, store.Cond{}); err != nil {
				b.Fatal(err)
			}
		}
		items, err := store.All(ctx, tbl, store.Query{Index: store.IndexGSI1, PK: "TENANT#1#ANSWERS", Desc: true, Filter: store.Eq("mentioned", true)})
		if err != nil || len(items) != 33_334 {
			b.Fatalf("%d items, %v", len(items), err)
		}
	}
}

// BenchmarkPut measures one put into a large partition, in memory and on
// disk with and without fsync.
func BenchmarkPut(b *testing.B) {
	ctx := context.Background()
	for _, c := range []struct {
		name string
		open func(b *testing.B) *Table
	}{
		{"memory", func(*testing.B) *Table { return NewMemory() }},
		{"disk-sync", func(b *testing.B) *Table { return open(b, b.TempDir()) }},
		{"disk-nosync", func(b *testing.B) *Table { return open(b, b.TempDir(), WithSync(false)) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			tbl := c.open(b)
			defer tbl.Close()
			i := 0
			for b.Loop() {
				i++
				it := store.Item{store.AttrPK: "TENANT#1", store.AttrSK: fmt.Sprintf("ANSWER#%08d", i),
					store.AttrGSI1PK: "TENANT#1#ANSWERS", store.AttrGSI1SK: fmt.Sprintf("%08d", i), "mentioned": i%3 == 0}
				if err := tbl.Put(ctx, it, store.Cond{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParallelDurable measures concurrent writers sharing group
// commits on disk (fsync on), with readers of the same keys beside them:
// what `brandlens serve` does under load.
func BenchmarkParallelDurable(b *testing.B) {
	ctx := context.Background()
	for _, mix := range []struct {
		name  string
		reads int // reads per write
	}{{"writes", 0}, {"reads-writes-4-1", 4}} {
		b.Run(mix.name, func(b *testing.B) {
			tbl := open(b, b.TempDir())
			defer tbl.Close()
			var n atomic.Int64
			b.SetParallelism(16)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					i := n.Add(1)
					k := fmt.Sprintf("ITEM#%04d", i%512)
					if mix.reads > 0 && i%int64(mix.reads+1) != 0 {
						if _, err := tbl.Get(ctx, store.Key{PK: "TENANT#1", SK: k}); err != nil && !errors.Is(err, store.ErrNotFound) {
							b.Fatal(err)
						}
						continue
					}
					it := store.Item{store.AttrPK: "TENANT#1", store.AttrSK: k, "n": i}
					if err := tbl.Put(ctx, it, store.Cond{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}
