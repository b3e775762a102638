package storetest

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/brandlens/brandlens/shared/store"
)

// doc is the document type of the collection cases.
type doc struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

var errNoDoc = errors.New("no such doc")

func docs(e env, pk string) store.Collection[doc] {
	return store.Collection[doc]{
		Table: e.tbl, Name: "docs", NotFound: errNoDoc,
		Key:   func(d doc) store.Key { return key(pk, fmt.Sprintf("DOC#%04d", d.ID)) },
		Attrs: func(d doc) store.Item { return store.Item{"name": d.Name} },
	}
}

func names(e env, pk string) store.Unique[doc] {
	return store.Unique[doc]{Docs: docs(e, pk), Kind: "DOCNAME", Value: func(d doc) string { return d.Name }, Prefix: "DOC#"}
}

func testCollection(t *testing.T, e env) {
	c := docs(e, "COLL")
	create := func(d doc) error {
		op, err := c.PutOp(d, store.NotExists())
		if err != nil {
			t.Fatal(err)
		}
		return e.tbl.TransactWrite(e.ctx, op)
	}
	if err := create(doc{ID: 1, Name: "one"}); err != nil {
		t.Fatal(err)
	}
	wantCondFailed(t, "second create", create(doc{ID: 1, Name: "again"}))
	if it := get(t, e, key("COLL", "DOC#0001")); it.String("name") != "one" || it.String(store.AttrDoc) != `{"id":1,"name":"one"}` {
		t.Fatalf("stored item %v", it)
	}
	if _, err := c.Get(e.ctx, key("COLL", "DOC#0009")); err != errNoDoc {
		t.Fatalf("Get of a missing doc: %v, want the collection's NotFound", err)
	}
	// A document stored in an older form (a member the type has lost)
	// still replaces: the condition compares with what was read.
	put(t, e, store.Item{store.AttrPK: "COLL", store.AttrSK: "DOC#0002", store.AttrDoc: `{"id":2,"name":"two","retired":true}`})
	snap, err := c.Read(e.ctx, key("COLL", "DOC#0002"))
	if err != nil || snap.Value != (doc{ID: 2, Name: "two"}) {
		t.Fatalf("Read: %+v %v", snap, err)
	}
	if err := c.Replace(e.ctx, snap, doc{ID: 2, Name: "deux"}); err != nil {
		t.Fatalf("replace of the document as read: %v", err)
	}
	wantCondFailed(t, "replace of a stale snapshot", c.Replace(e.ctx, snap, doc{ID: 2, Name: "zwei"}))
	op, _ := c.ReplaceOp(snap, doc{ID: 2, Name: "zwei"})
	wantCondFailed(t, "replace op of a stale snapshot", e.tbl.TransactWrite(e.ctx, op))
	all, err := c.Query(e.ctx, store.Query{PK: "COLL", SK: store.SKBeginsWith("DOC#")})
	if err != nil || fmt.Sprint(all) != "[{1 one} {2 deux}]" {
		t.Fatalf("Query: %v %v", all, err)
	}
}

// testUniqueConcurrent: writers racing to create one value, spelled in
// different cases and spacings, create exactly one document and all get it.
func testUniqueConcurrent(t *testing.T, e env) {
	u := names(e, "UNIQ")
	spellings := []string{"Acme Notes", "acme notes", "  ACME   Notes ", "acme\tNOTES"}
	var ids atomic.Int64
	var created atomic.Int64
	got := make([]doc, 40)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() {
			d, ok, err := u.Create(e.ctx, "UNIQ", spellings[i%len(spellings)], func() (doc, error) {
				return doc{ID: int(ids.Add(1)), Name: spellings[i%len(spellings)]}, nil
			})
			if err != nil {
				t.Errorf("Create: %v", err)
				return
			}
			if ok {
				created.Add(1)
			}
			got[i] = d
		})
	}
	wg.Wait()
	stored, err := u.Docs.Query(e.ctx, store.Query{PK: "UNIQ", SK: store.SKBeginsWith("DOC#")})
	if err != nil {
		t.Fatal(err)
	}
	if created.Load() != 1 || len(stored) != 1 {
		t.Fatalf("%d creates reported, %d documents stored; want exactly one", created.Load(), len(stored))
	}
	for _, d := range got {
		if d != stored[0] {
			t.Fatalf("a writer got %+v, the stored document is %+v", d, stored[0])
		}
	}
}

// testUniquePrepare: of two transactions prepared for one value before
// either commits, the second fails at its claim.
func testUniquePrepare(t *testing.T, e env) {
	u := names(e, "PREP")
	prepare := func(id int, name string) []store.Op {
		t.Helper()
		_, ops, err := u.Prepare(e.ctx, "PREP", name, func() (doc, error) { return doc{ID: id, Name: name}, nil })
		if err != nil || len(ops) != 2 {
			t.Fatalf("Prepare %q: %d ops, %v", name, len(ops), err)
		}
		return ops
	}
	first, second := prepare(1, "Other"), prepare(2, "OTHER")
	if err := e.tbl.TransactWrite(e.ctx, first...); err != nil {
		t.Fatal(err)
	}
	var txe *store.TxConditionError
	if err := e.tbl.TransactWrite(e.ctx, second...); !errors.As(err, &txe) || txe.Index != store.OpClaim {
		t.Fatalf("second transaction: %v, want a failed condition of op %d", err, store.OpClaim)
	}
	if d, ops, err := u.Prepare(e.ctx, "PREP", "other", nil); err != nil || ops != nil || d.ID != 1 {
		t.Fatalf("Prepare of a held value: %+v, %d ops, %v; want the holder and no ops", d, len(ops), err)
	}
}

// testUniqueReady: documents stored before claims existed keep their values
// (the first listed of two sharing one), and the claims are made once.
func testUniqueReady(t *testing.T, e env) {
	for _, d := range []doc{{1, "Alpha"}, {2, "alpha"}, {3, "Beta"}} {
		put(t, e, store.Item{store.AttrPK: "OLD", store.AttrSK: fmt.Sprintf("DOC#%04d", d.ID), store.AttrDoc: fmt.Sprintf(`{"id":%d,"name":%q}`, d.ID, d.Name)})
	}
	u := names(e, "OLD")
	build := func(id int, name string) func() (doc, error) {
		return func() (doc, error) { return doc{ID: id, Name: name}, nil }
	}
	for _, c := range []struct {
		value       string
		wantID      int
		wantCreated bool
	}{
		{"ALPHA", 1, false},
		{"beta", 3, false},
		{"Gamma", 4, true},
		{"gamma", 4, false},
	} {
		d, created, err := u.Create(e.ctx, "OLD", c.value, build(4, c.value))
		if err != nil || d.ID != c.wantID || created != c.wantCreated {
			t.Fatalf("Create %q: %+v created=%v %v; want id %d created=%v", c.value, d, created, err, c.wantID, c.wantCreated)
		}
	}
	// Claims made, the marker set: a document added behind the store's back
	// now is not claimed again.
	put(t, e, store.Item{store.AttrPK: "OLD", store.AttrSK: "DOC#0005", store.AttrDoc: `{"id":5,"name":"Delta"}`})
	if _, ok, err := u.Holder(e.ctx, "OLD", "delta"); err != nil || ok {
		t.Fatalf("Holder of an unclaimed value after Ready: %v %v", ok, err)
	}
}

// testUniqueMoveRelease: a rename moves the claim in the renaming
// transaction (refused when another document holds the new value), a
// delete frees it for a new document, and Ready claims nothing for a
// document that holds no value.
func testUniqueMoveRelease(t *testing.T, e env) {
	u := names(e, "MOVE")
	mk := func(id int, name string) doc {
		d, created, err := u.Create(e.ctx, "MOVE", name, func() (doc, error) { return doc{ID: id, Name: name}, nil })
		if err != nil || !created {
			t.Fatalf("Create %q: %v %v", name, created, err)
		}
		return d
	}
	a, b := mk(1, "Alpha"), mk(2, "Beta")
	rename := func(d doc, to string) error {
		t.Helper()
		snap, err := u.Docs.Read(e.ctx, u.Docs.Key(d))
		if err != nil {
			t.Fatal(err)
		}
		return u.Replace(e.ctx, "MOVE", snap, doc{ID: d.ID, Name: to})
	}
	if ops, err := u.MoveOps(e.ctx, "MOVE", "Alpha", " ALPHA ", a); err != nil || len(ops) != 0 {
		t.Fatalf("a change of case and spacing: %d ops, %v", len(ops), err)
	}
	if err := rename(a, "Gamma"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := u.Holder(e.ctx, "MOVE", "alpha"); ok {
		t.Fatal("the old value is still claimed after the rename")
	}
	if d, ok, err := u.Holder(e.ctx, "MOVE", "gamma"); err != nil || !ok || d.ID != 1 {
		t.Fatalf("Holder of the new value: %+v %v %v", d, ok, err)
	}
	var taken *store.TakenError[doc]
	if err := rename(b, "GAMMA"); !errors.As(err, &taken) || taken.Holder.ID != 1 {
		t.Fatalf("rename onto a held value: %v, want TakenError naming document 1", err)
	}
	stale, err := u.Docs.Read(e.ctx, u.Docs.Key(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := u.Replace(e.ctx, "MOVE", stale, doc{ID: 2, Name: "Bêta"}); err != nil {
		t.Fatal(err)
	}
	wantCondFailed(t, "rename of a stale snapshot", u.Replace(e.ctx, "MOVE", stale, doc{ID: 2, Name: "Beta"}))
	b = doc{ID: 2, Name: "Bêta"}
	if d, _, _ := u.Holder(e.ctx, "MOVE", "bêta"); d.ID != 2 {
		t.Fatalf("a refused rename lost the claim: %+v", d)
	}
	ops, err := u.ReleaseOps(e.ctx, "MOVE", "Bêta", b)
	if err != nil || len(ops) != 1 {
		t.Fatalf("ReleaseOps: %d ops, %v", len(ops), err)
	}
	if err := e.tbl.TransactWrite(e.ctx, ops...); err != nil {
		t.Fatal(err)
	}
	if c := mk(3, "beta"); c.ID != 3 {
		t.Fatalf("a freed value is not taken by a new document: %+v", c)
	}
	if ops, err := u.ReleaseOps(e.ctx, "MOVE", "Bêta", b); err != nil || len(ops) != 0 {
		t.Fatalf("release by a document that no longer holds the value: %d ops, %v", len(ops), err)
	}

	// Documents stored before claims existed: one holding no value is not claimed.
	put(t, e, store.Item{store.AttrPK: "HOLDS", store.AttrSK: "DOC#0001", store.AttrDoc: `{"id":1,"name":"Gone"}`})
	gone := names(e, "HOLDS")
	gone.Holds = func(d doc) bool { return d.Name != "Gone" }
	if d, created, err := gone.Create(e.ctx, "HOLDS", "gone", func() (doc, error) { return doc{ID: 2, Name: "gone"}, nil }); err != nil || !created || d.ID != 2 {
		t.Fatalf("Create of a value only a non-holding document has: %+v %v %v", d, created, err)
	}
}
