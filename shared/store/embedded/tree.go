package embedded

import (
	"strings"
	"time"

	"github.com/google/btree"

	"github.com/brandlens/brandlens/shared/store"
)

// entry is one row of an ordered tree. In the table tree (h, r) is (PK, SK);
// in an index tree it is the index's (hash, range) key and (pk, sk) is the
// table key, which breaks ties between items sharing an index key, as in
// DynamoDB. The keys are spans of the record, so an entry holds one pointer
// — the garbage collector follows one per entry, not five — and the three
// trees share one copy of each item. A search pivot's record is its keys.
type entry struct {
	rec      record
	hs, rs   span
	pks, sks span
	// sup marks search pivots that sort after every real entry of their
	// partition (supRange) or of their (h, r) (supTie).
	sup    uint8
	hasExp bool
	exp    int64  // the item's expiresAt, when hasExp
	seq    uint64 // the commit that stored this item
}

// span is a substring of a record.
type span struct{ off, n uint32 }

func (e entry) str(s span) string { return string(e.rec[s.off : s.off+s.n]) }
func (e entry) h() string         { return e.str(e.hs) }
func (e entry) r() string         { return e.str(e.rs) }
func (e entry) pk() string        { return e.str(e.pks) }
func (e entry) sk() string        { return e.str(e.sks) }

// pivot is a search entry for the keys h, r, pk, sk.
func pivot(h, r, pk, sk string, sup uint8) entry {
	rec := record(h + r + pk + sk)
	at := uint32(0)
	next := func(s string) span {
		sp := span{at, uint32(len(s))}
		at += sp.n
		return sp
	}
	return entry{rec: rec, hs: next(h), rs: next(r), pks: next(pk), sks: next(sk), sup: sup}
}

// expired reports whether the item's TTL lies at or before now, as
// store.Item.Expired does.
func (e entry) expired(now time.Time) bool { return e.hasExp && e.exp <= now.Unix() }

const (
	supNone uint8 = iota
	supTie
	supRange
)

func less(a, b entry) bool {
	if ah, bh := a.h(), b.h(); ah != bh {
		return ah < bh
	}
	if a.sup == supRange || b.sup == supRange {
		return b.sup == supRange && a.sup != supRange
	}
	if ar, br := a.r(), b.r(); ar != br {
		return ar < br
	}
	if a.sup == supTie || b.sup == supTie {
		return b.sup == supTie && a.sup != supTie
	}
	if apk, bpk := a.pk(), b.pk(); apk != bpk {
		return apk < bpk
	}
	return a.sk() < b.sk()
}

func newTree() *btree.BTreeG[entry] { return btree.NewG(32, less) }

func tableEntry(k store.Key) entry { return pivot(k.PK, k.SK, "", "", supNone) }

// indexEntry returns the entry of the item k describes in index ("": the
// table); items lacking either key attribute of an index are not in it (a
// sparse index, as in DynamoDB).
func (k keys) indexEntry(index string, rec record, seq uint64) (entry, bool) {
	e := entry{rec: rec, hs: k.pk, rs: k.sk, seq: seq, exp: k.exp, hasExp: k.hasExp}
	var ik [2]span
	switch index {
	case "":
		return e, true
	case store.IndexGSI1:
		ik = k.gsi1
	case store.IndexGSI2:
		ik = k.gsi2
	}
	if ik[0].n == 0 || ik[1].n == 0 {
		return entry{}, false
	}
	e.hs, e.rs, e.pks, e.sks = ik[0], ik[1], k.pk, k.sk
	return e, true
}

// startPivot is where a scan of the sort-key range begins: its low end
// ascending, its high end descending.
func startPivot(h string, k store.KeyCond, desc bool) entry {
	if !desc {
		switch k.Op {
		case store.KeyEq, store.KeyGe, store.KeyGt, store.KeyBeginsWith, store.KeyBetween:
			return pivot(h, k.Value, "", "", supNone)
		}
		return pivot(h, "", "", "", supNone)
	}
	switch k.Op {
	case store.KeyEq, store.KeyLe:
		return pivot(h, k.Value, "", "", supTie)
	case store.KeyBetween:
		return pivot(h, k.Value2, "", "", supTie)
	case store.KeyLt:
		return pivot(h, k.Value, "", "", supNone)
	case store.KeyBeginsWith:
		if s, ok := prefixEnd(k.Value); ok {
			return pivot(h, s, "", "", supNone)
		}
	}
	return pivot(h, "", "", "", supRange)
}

// pastRange reports whether a scan reached a sort key beyond the far end of
// the range, where it can stop.
func pastRange(k store.KeyCond, r string, desc bool) bool {
	if !desc {
		switch k.Op {
		case store.KeyEq, store.KeyLe:
			return r > k.Value
		case store.KeyLt:
			return r >= k.Value
		case store.KeyBetween:
			return r > k.Value2
		case store.KeyBeginsWith:
			return r > k.Value && !strings.HasPrefix(r, k.Value)
		}
		return false
	}
	switch k.Op {
	case store.KeyEq, store.KeyGe, store.KeyBetween, store.KeyBeginsWith:
		return r < k.Value
	case store.KeyGt:
		return r <= k.Value
	}
	return false
}

// prefixEnd returns the least string greater than every string with the
// prefix p, if there is one.
func prefixEnd(p string) (string, bool) {
	b := []byte(p)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return string(b[:i+1]), true
		}
	}
	return "", false
}
