package embedded

import (
	"strings"

	"github.com/google/btree"

	"github.com/brandlens/brandlens/shared/store"
)

// entry is one row of an ordered tree. In the table tree (h, r) is (PK, SK);
// in the GSI1 tree it is (GSI1PK, GSI1SK) and (pk, sk) is the table key,
// which breaks ties between items sharing a GSI1 key, as in DynamoDB.
type entry struct {
	h, r   string
	pk, sk string
	// sup marks search pivots that sort after every real entry of their
	// partition (supRange) or of their (h, r) (supTie).
	sup  uint8
	seq  uint64 // the commit that stored this item
	item store.Item
}

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

// gsiEntry returns the item's GSI1 entry; items lacking either GSI1
// attribute are not in the index (a sparse index, as in DynamoDB).
func gsiEntry(it store.Item) (entry, bool) { return indexEntry(it, store.IndexGSI1) }

// indexEntry returns the item's entry in index, like gsiEntry.
func indexEntry(it store.Item, index string) (entry, bool) {
	ha, ra := store.IndexKeyAttrs(index)
	h, ok1 := it[ha].(string)
	r, ok2 := it[ra].(string)
	if !ok1 || !ok2 {
		return entry{}, false
	}
	return entry{h: h, r: r, pk: it.String(store.AttrPK), sk: it.String(store.AttrSK)}, true
}

// project returns a copy of it with only attrs (nil: all of them).
func project(it store.Item, attrs []string) store.Item {
	if attrs == nil {
		return it.Clone()
	}
	out := make(store.Item, len(attrs))
	for _, a := range attrs {
		if v, ok := it[a]; ok {
			out[a] = v
		}
	}
	return out
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
