package seed_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/seed"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamotest"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/store/storetest"
)

func TestMain(m *testing.M) { dynamotest.Main(m) }

const issueSeed = `{"tenants":[{"name":"Acme Notes","credits":1000,"dailyCreditCeiling":500,"rpmLimit":600,
  "brand":{"name":"Acme Notes","aliases":["AcmeNotes"],"domains":["acmenotes.com"]},
  "competitors":[{"name":"Notion","aliases":["Notion HQ"],"domains":["notion.so"]},{"name":"Evernote"}],
  "queries":[{"text":"best note taking app","platforms":["chatgpt","perplexity"],"schedule":"daily"},{"text":"second"}],
  "apiKeys":[{"key":"local-key-acme-publish-0001","scopes":["publish"],"isAgent":false,"autonomyLevel":"L0"}]}]}`

func newServices(t *testing.T) *app.Repos {
	t.Helper()
	svc, err := app.NewRepos(embedded.NewMemory(), []byte("0123456789abcdef0123456789abcdef"), nil)
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

func TestSeedIsIdempotentAndNumbersInFileOrder(t *testing.T) {
	svc := newServices(t)
	ctx := context.Background()
	f, err := seed.Parse(strings.NewReader(issueSeed))
	if err != nil {
		t.Fatal(err)
	}
	for round := range 3 {
		res, err := seed.Apply(ctx, svc, f)
		if err != nil {
			t.Fatal(err)
		}
		if res.Tenants[0].ID != 1 || res.Tenants[0].Created != (round == 0) {
			t.Fatalf("round %d: %+v", round, res.Tenants[0])
		}
	}
	ts, _ := svc.Tenants.List(ctx)
	qs, _ := svc.Queries.List(ctx, 1)
	cs, _ := svc.Competitors.List(ctx, 1)
	bs, _ := svc.Tenants.Brands(ctx, 1)
	keys, _ := svc.Keys.List(ctx, 1)
	bal, _ := svc.Ledger.Balance(ctx, 1)
	if len(ts) != 1 || len(qs) != 2 || len(cs) != 2 || len(bs) != 1 || len(keys) != 1 || bal.Available != 1000 || bal.Granted != 1000 {
		t.Fatalf("after three loads: %d tenants %d queries %d competitors %d brands %d keys, balance %+v", len(ts), len(qs), len(cs), len(bs), len(keys), bal)
	}
	if qs[0].ID != 1 || qs[0].Text != "best note taking app" || qs[1].ID != 2 || cs[0].ID != 1 || cs[1].ID != 2 || *cs[1].Name != "Evernote" {
		t.Fatalf("ids not in file order: %+v %+v", qs, cs)
	}
	if *qs[0].Schedule != "daily" || len(qs[1].Platforms) != 5 || qs[1].Schedule != nil {
		t.Fatalf("query members: %+v", qs)
	}
	p, err := svc.Keys.Authenticate(ctx, "local-key-acme-publish-0001")
	if err != nil || p.TenantID != 1 {
		t.Fatalf("seeded key: %+v %v", p, err)
	}
}

// TestConcurrentSeedsCreateOnce: seed loads racing each other (two
// processes starting on one table) create every tenant, brand, competitor
// and query once, and grant the credits once: names and texts are unique
// by a claim in the creating transaction, not by a listing before it.
func TestConcurrentSeedsCreateOnce(t *testing.T) {
	f, err := seed.Parse(strings.NewReader(issueSeed))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	dynamotest.Backends(t, start, func(t *testing.T, tbl store.Table, clock *storetest.Clock) {
		ctx := context.Background()
		svc, err := app.NewRepos(tbl, []byte("0123456789abcdef0123456789abcdef"), clock.Now)
		if err != nil {
			t.Fatal(err)
		}
		const loads = 8
		results := make([]seed.TenantResult, loads)
		var wg sync.WaitGroup
		for i := range loads {
			wg.Go(func() {
				res, err := seed.Apply(ctx, svc, f)
				if err != nil {
					t.Errorf("load %d: %v", i, err)
					return
				}
				results[i] = res.Tenants[0]
			})
		}
		wg.Wait()
		ts, _ := svc.Tenants.List(ctx)
		if len(ts) != 1 {
			t.Fatalf("%d tenants after %d concurrent loads", len(ts), loads)
		}
		id := ts[0].ID
		bs, _ := svc.Tenants.Brands(ctx, id)
		cs, _ := svc.Competitors.List(ctx, id)
		qs, _ := svc.Queries.List(ctx, id)
		bal, _ := svc.Ledger.Balance(ctx, id)
		if len(bs) != 1 || len(cs) != 2 || len(qs) != 2 || bal.Granted != 1000 {
			t.Fatalf("after %d concurrent loads: %d brands, %d competitors, %d queries, %d credits granted; want 1, 2, 2, 1000",
				loads, len(bs), len(cs), len(qs), bal.Granted)
		}
		n := 0
		for i, r := range results {
			if r.Created {
				n++
			}
			if r.ID != id {
				t.Errorf("load %d got tenant %d, stored is %d", i, r.ID, id)
			}
		}
		if n != 1 {
			t.Fatalf("%d loads report creating the tenant, want 1", n)
		}
	})
}

func TestSeedRejects(t *testing.T) {
	cases := map[string]string{
		"unknown member": `{"tenants":[{"name":"A","credit":5}]}`,
		"trailing data":  `{"tenants":[]} {}`,
		"not json":       `tenants:`,
	}
	for name, in := range cases {
		if _, err := seed.Parse(strings.NewReader(in)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	apply := map[string]string{
		"short key":           `{"tenants":[{"name":"A","apiKeys":[{"key":"short","scopes":["read"]}]}]}`,
		"missing key":         `{"tenants":[{"name":"A","apiKeys":[{"scopes":["read"]}]}]}`,
		"bad scope":           `{"tenants":[{"name":"A","apiKeys":[{"key":"local-key-aaaaaaaaaaaaaaaaa","scopes":["admin"]}]}]}`,
		"query without brand": `{"tenants":[{"name":"A","queries":[{"text":"x"}]}]}`,
		"bad platform":        `{"tenants":[{"name":"A","brand":{"name":"A"},"queries":[{"text":"x","platforms":["myspace"]}]}]}`,
		"bad schedule":        `{"tenants":[{"name":"A","brand":{"name":"A"},"queries":[{"text":"x","schedule":"monthly"}]}]}`,
		"negative credits":    `{"tenants":[{"name":"A","credits":-5}]}`,
		"no name":             `{"tenants":[{"credits":5}]}`,
	}
	for name, in := range apply {
		f, err := seed.Parse(strings.NewReader(in))
		if err != nil {
			t.Fatalf("%s: parse: %v", name, err)
		}
		if _, err := seed.Apply(context.Background(), newServices(t), f); err == nil {
			t.Errorf("%s: applied", name)
		}
	}
}

func TestDemoKeepsItsKey(t *testing.T) {
	svc := newServices(t)
	dir := t.TempDir()
	ctx := context.Background()
	key, err := seed.Demo(ctx, svc, dir)
	if err != nil || key == "" {
		t.Fatalf("demo: %q %v", key, err)
	}
	again, err := seed.Demo(ctx, svc, dir)
	if err != nil || again != key {
		t.Fatalf("second start printed %q, want %q (%v)", again, key, err)
	}
	if ts, _ := svc.Tenants.List(ctx); len(ts) != 1 {
		t.Fatalf("%d tenants", len(ts))
	}
	if _, err := svc.Keys.Authenticate(ctx, key); err != nil {
		t.Fatal(err)
	}
	// A store seeded otherwise gets no demo tenant.
	other := newServices(t)
	f, _ := seed.Parse(strings.NewReader(issueSeed))
	if _, err := seed.Apply(ctx, other, f); err != nil {
		t.Fatal(err)
	}
	if k, err := seed.Demo(ctx, other, t.TempDir()); err != nil || k != "" {
		t.Fatalf("demo on a seeded store: %q %v", k, err)
	}
}

// FuzzParse: a file the loader accepts loads idempotently — loading it
// again creates nothing, grants nothing and numbers nothing anew.
func FuzzParse(f *testing.F) {
	f.Add(issueSeed)
	f.Add(`{"tenants":null}`)
	f.Add(`{"tenants":[{"name":"A","credits":5,"apiKeys":[{"key":"local-key-fuzz-0000000001","scopes":["read"]}]},{"name":"a"}]}`)
	f.Fuzz(func(t *testing.T, s string) {
		file, err := seed.Parse(strings.NewReader(s))
		if err != nil || len(s) > 4096 {
			return
		}
		ctx := context.Background()
		svc := newServices(t)
		first, err := seed.Apply(ctx, svc, file)
		if err != nil {
			return
		}
		granted := map[int32]int64{}
		for _, tr := range first.Tenants {
			b, err := svc.Ledger.Balance(ctx, tr.ID)
			if err != nil {
				t.Fatal(err)
			}
			granted[tr.ID] = b.Granted
		}
		again, err := seed.Apply(ctx, svc, file)
		if err != nil {
			t.Fatalf("second load of an accepted file: %v", err)
		}
		for i, tr := range again.Tenants {
			if tr.Created || tr.ID != first.Tenants[i].ID {
				t.Fatalf("second load: tenant %d %+v, first %+v", i, tr, first.Tenants[i])
			}
			if b, err := svc.Ledger.Balance(ctx, tr.ID); err != nil || b.Granted != granted[tr.ID] {
				t.Fatalf("second load granted again: %+v %v", b, err)
			}
		}
	})
}
