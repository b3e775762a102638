package costmodel_test

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/costmodel"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/embedded"
)

// item is an item of about size bytes (its doc attribute fills it up).
func item(pk, sk string, size int, extra store.Item) store.Item {
	it := store.Item{store.AttrPK: pk, store.AttrSK: sk}
	for k, v := range extra {
		it[k] = v
	}
	it["doc"] = strings.Repeat("x", max(0, size-it.Size()-len("doc")))
	return it
}

// The request units of each call, by DynamoDB's rules.
func TestTableCountsRequestUnits(t *testing.T) {
	gsi := store.Item{store.AttrGSI1PK: "G", store.AttrGSI1SK: "1"}
	cases := []struct {
		name     string
		setup    func(ctx context.Context, tbl store.Table) // not counted
		call     func(ctx context.Context, tbl store.Table) error
		rru, wru float64
	}{
		{"get of a 5 KB item: 2 RRU", func(ctx context.Context, tbl store.Table) { tbl.Put(ctx, item("P", "1", 5000, nil), store.Cond{}) },
			func(ctx context.Context, tbl store.Table) error {
				_, err := tbl.Get(ctx, store.Key{PK: "P", SK: "1"})
				return err
			}, 2, 0},
		{"get of nothing: 1 RRU", nil,
			func(ctx context.Context, tbl store.Table) error {
				_, err := tbl.Get(ctx, store.Key{PK: "P", SK: "0"})
				if err == store.ErrNotFound {
					return nil
				}
				return err
			}, 1, 0},
		{"put of 1.5 KB: 2 WRU", nil,
			func(ctx context.Context, tbl store.Table) error {
				return tbl.Put(ctx, item("P", "1", 1500, nil), store.Cond{})
			}, 0, 2},
		{"put of 1.5 KB into an index: 2 + 2 WRU", nil,
			func(ctx context.Context, tbl store.Table) error {
				return tbl.Put(ctx, item("P", "1", 1500, gsi), store.Cond{})
			}, 0, 4},
		{"replacing 3 KB by 0.5 KB: the larger, 3 WRU", func(ctx context.Context, tbl store.Table) { tbl.Put(ctx, item("P", "1", 3000, nil), store.Cond{}) },
			func(ctx context.Context, tbl store.Table) error {
				return tbl.Put(ctx, item("P", "1", 500, nil), store.Cond{})
			}, 0, 3},
		{"update moving an item in the index: 1 + delete 1 + put 1", func(ctx context.Context, tbl store.Table) { tbl.Put(ctx, item("P", "1", 300, gsi), store.Cond{}) },
			func(ctx context.Context, tbl store.Table) error {
				_, err := tbl.Update(ctx, store.Key{PK: "P", SK: "1"}, store.Update{Set: map[string]any{store.AttrGSI1SK: "2"}}, store.Cond{})
				return err
			}, 0, 3},
		{"failed conditional put still costs 1 WRU", func(ctx context.Context, tbl store.Table) { tbl.Put(ctx, item("P", "1", 300, nil), store.Cond{}) },
			func(ctx context.Context, tbl store.Table) error {
				if err := tbl.Put(ctx, item("P", "1", 300, nil), store.NotExists()); err != store.ErrConditionFailed {
					return err
				}
				return nil
			}, 0, 1},
		{"transaction of two 1.5 KB puts and a check: 2 × 2 × 2 WRU, 2 RRU", nil,
			func(ctx context.Context, tbl store.Table) error {
				return tbl.TransactWrite(ctx, store.PutOp(item("P", "1", 1500, nil), store.NotExists()),
					store.PutOp(item("P", "2", 1500, nil), store.NotExists()), store.CheckOp(store.Key{PK: "P", SK: "3"}, store.NotExists()))
			}, 2, 8},
		{"transactional put of 1.5 KB into an index: the table's 2 doubled, the index's 2 not", nil,
			func(ctx context.Context, tbl store.Table) error {
				return tbl.TransactWrite(ctx, store.PutOp(item("P", "1", 1500, gsi), store.Cond{}))
			}, 0, 6},
		{"index query: every item evaluated, filter or not, half price", func(ctx context.Context, tbl store.Table) {
			for _, sk := range []string{"1", "2", "3"} {
				tbl.Put(ctx, item("P", sk, 3000, store.Item{store.AttrGSI1PK: "G", store.AttrGSI1SK: sk, "keep": sk == "2"}), store.Cond{})
			}
		},
			func(ctx context.Context, tbl store.Table) error {
				p, err := tbl.Query(ctx, store.Query{Index: store.IndexGSI1, PK: "G", Filter: store.Eq("keep", true), Attrs: []string{"keep"}})
				if err == nil && (len(p.Items) != 1 || len(p.Items[0]) != 1) {
					t.Errorf("query answered %v", p.Items)
				}
				return err
			}, 1.5, 0}, // 9,000 bytes → 3 × 4 KB → 3 RRU consistent, 1.5 eventually
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			inner := embedded.NewMemory()
			if c.setup != nil {
				c.setup(ctx, inner)
			}
			m := costmodel.NewMeter()
			if err := c.call(ctx, m.Table(inner, nil)); err != nil {
				t.Fatal(err)
			}
			u := m.Snapshot()
			if u.RRU != c.rru || u.WRU != c.wru {
				t.Fatalf("RRU %v WRU %v, want %v and %v", u.RRU, u.WRU, c.rru, c.wru)
			}
		})
	}
}

func TestBillPricesUsage(t *testing.T) {
	m := costmodel.NewMeter()
	m.Invocation("step-run-platform", 100*time.Millisecond)
	m.Transition("query-execution", "Settle")
	m.Execution("query-execution")
	u := m.Snapshot()
	u.WRU, u.RRU = 1e6, 2e6
	b := costmodel.USEast1().Bill(u, costmodel.Assumptions{
		MemoryMB:        map[string]int{"step-run-platform": 512},
		Wait:            map[string]time.Duration{"step-run-platform": 20 * time.Second},
		ExpressDuration: map[string]time.Duration{"query-execution": 30 * time.Second},
	})
	want := map[string]float64{
		"DynamoDB writes":                          0.625,
		"DynamoDB reads":                           0.25,
		"Lambda requests":                          0.2e-6,
		"Lambda duration (measured)":               0.1 * 0.5 * 0.0000133334,
		"Lambda duration (waiting for answers)":    20 * 0.5 * 0.0000133334,
		"Step Functions Standard: query-execution": 0.000025,
	}
	for _, l := range b.Lines {
		if w, ok := want[l.Service]; !ok || math.Abs(l.USD-w) > 1e-12 {
			t.Errorf("%s: $%g, want $%g", l.Service, l.USD, w)
		}
		delete(want, l.Service)
	}
	if len(want) != 0 {
		t.Errorf("missing lines %v", want)
	}
	if e := b.Express["query-execution"]; math.Abs(e-(1e-6+30*0.0625*0.00001667)) > 1e-12 {
		t.Errorf("express %g", e)
	}
	if got := b.Scale(1000, 2).Total(); math.Abs(got-b.Total()*500) > 1e-9 {
		t.Errorf("scaled total %g", got)
	}
}
