package embedded

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/brandlens/brandlens/shared/store"
)

// BenchmarkGC100k is one full garbage collection of a heap holding a table
// of 100,000 citation-like items (a 1.2 KB document and a dozen attributes,
// in both indexes): the marking every collection of `brandlens serve`
// repeats. It reports the heap's objects and bytes in use.
func BenchmarkGC100k(b *testing.B) {
	tbl := NewMemory()
	ctx := context.Background()
	doc := strings.Repeat("x", 1200)
	for i := range 100_000 {
		sk := fmt.Sprintf("2026-11-%02dT00:00:00.000000Z#%010d", 1+i%28, i)
		it := store.Item{store.AttrPK: "TENANT#1", store.AttrSK: fmt.Sprintf("CITATION#%010d", i),
			store.AttrGSI1PK: "TENANT#1#CITATIONS", store.AttrGSI1SK: sk,
			store.AttrGSI2PK: fmt.Sprintf("TENANT#1#CITATIONS#p%d#%d", i%5, i%2), store.AttrGSI2SK: sk,
			"doc": doc + fmt.Sprint(i), "platform": fmt.Sprintf("p%d", i%5), "hasMention": i%2 == 1,
			"sentiment": "positive", "sourceType": "ai_response", "verdict": "mentioned", "queryText": "best note taking app"}
		if err := tbl.Put(ctx, it, store.Cond{}); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		runtime.GC()
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapObjects), "heap-objects")
	b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MB")
	runtime.KeepAlive(tbl)
}
