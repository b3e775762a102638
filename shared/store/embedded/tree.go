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
// DynamoDB. The strings of a stored entry are substrings of its record, so
// the three trees share one copy of each item.
type entry struct {
	h, r   string
	pk, sk string
	// sup marks search pivots that sort after every real entry of their
	// partition (supRange) or of their (h, r) (supTie).
	sup    uint8
	hasExp bool
	exp    int64  // the item's expiresAt, when hasExp
	seq    uint64 // the commit that stored this item
	rec    record
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
	if a.h != b.h {
		return a.h < b.h
	}
	if a.sup == supRange || b.sup == supRange {
		return b.sup == supRange && a.sup != supRange
	}
	if a.r != b.r {
		return a.r < b.r
	}
	if a.sup == supTie || b.sup == supTie {
		return b.sup == supTie && a.sup != supTie
	}
	if a.pk != b.pk {
		return a.pk < b.pk
	}
	return a.sk < b.sk
}

func newTree() *btree.BTreeG[entry] { return btree.NewG(32, less) }

func tableEntry(k store.Key) entry { return entry{h: k.PK, r: k.SK} }

// indexEntry returns the entry of the item k describes in index ("": the
// table); items lacking either key attribute of an index are not in it (a
// sparse index, as in DynamoDB).
func (k keys) indexEntry(index string, rec record, seq uint64) (entry, bool) {
	e := entry{h: k.pk, r: k.sk, seq: seq, rec: rec, exp: k.exp, hasExp: k.hasExp}
	var ik [2]string
	switch index {
	case "":
		return e, true
	case store.IndexGSI1:
		ik = k.gsi1
	case store.IndexGSI2:
		ik = k.gsi2
	}
	if ik[0] == "" || ik[1] == "" {
		return entry{}, false
	}
	e.h, e.r, e.pk, e.sk = ik[0], ik[1], k.pk, k.sk
	return e, true
}

// startPivot is where a scan of the sort-key range begins: its low end
// ascending, its high end descending.
func startPivot(h string, k store.KeyCond, desc bool) entry {
	if !desc {
		switch k.Op {
		case store.KeyEq, store.KeyGe, store.KeyGt, store.KeyBeginsWith, store.KeyBetween:
			return entry{h: h, r: k.Value}
		}
		return entry{h: h}
	}
	switch k.Op {
	case store.KeyEq, store.KeyLe:
		return entry{h: h, r: k.Value, sup: supTie}
	case store.KeyBetween:
		return entry{h: h, r: k.Value2, sup: supTie}
	case store.KeyLt:
		return entry{h: h, r: k.Value}
	case store.KeyBeginsWith:
		if s, ok := prefixEnd(k.Value); ok {
			return entry{h: h, r: s}
		}
	}
	return entry{h: h, sup: supRange}
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
