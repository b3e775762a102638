package detect

import (
	"math/bits"
	"sync"
	"sync/atomic"
	"unsafe"
)

// The rules look words up in some 150 fixed word sets (set), through
// inSet, several per word of an answer; most words are in none of them.
// Each set built by set() gets a filter when it is built: a bit map
// indexed by a hash of the word's length and its first, second and last
// bytes (lower case). A word whose bit is clear is not in the set, which inSet then
// says without hashing the word for the map. The map stays the set: the
// filter only ever answers "no" for words the map does not hold, so the
// sets must not change after set() returns (none does: they are fixed
// vocabularies). Maps not built by set() have no filter and are looked up
// as before.

// wordFilter is one set's bit map; its size is a power of two of at least
// 32 bits per word, so that few absent words share a bit with a member.
type wordFilter struct {
	bits  []uint64
	shift uint8 // 32 - log2(len(bits)*64): the hash's top bits index the map
}

// filterHash hashes a word's length and first, second and last bytes
// (w non-empty; the second is the last for a one-byte word), each with
// its 0x20 bit set: that folds ASCII case (and only merges some bytes that
// are no letters), so a word and its lower case hash alike.
func filterHash(n int, first, second, last byte) uint32 {
	return (uint32(n) | uint32(first|0x20)<<8 | uint32(second|0x20)<<16 | uint32(last|0x20)<<24) * 0x9E3779B1
}

// wordHash is filterHash of w. It and mayHave inline: inSet asks for
// several sets per word of an answer.
func wordHash(w string) uint32 {
	n := len(w)
	return filterHash(n, w[0], w[min(1, n-1)], w[n-1])
}

func newWordFilter[V any](m map[string]V) *wordFilter {
	size := 512
	for size < 32*len(m) {
		size *= 2
	}
	f := &wordFilter{bits: make([]uint64, size/64), shift: uint8(32 - bits.TrailingZeros(uint(size)))}
	for w := range m {
		if w != "" {
			f.add(wordHash(w))
		}
	}
	return f
}

func (f *wordFilter) add(h uint32) {
	i := h >> f.shift
	f.bits[i>>6] |= 1 << (i & 63)
}

// mayHave reports whether the set may hold w, read case-insensitively
// (ASCII).
func (f *wordFilter) mayHave(w string) bool {
	i := wordHash(w) >> f.shift
	return f.bits[i>>6]&(1<<(i&63)) != 0
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// filterTable maps a set's map (by its identity) to its filter: open
// addressing over a power-of-two table, replaced whole when a set is added
// (sets are built at package initialisation), so that lookups read it
// without locking. It holds the maps too: a registered map is never freed,
// so its address never comes to name another map. A slot holds its key
// and filter side by side: inSet's probe and the filter's bit map header
// come in one read, with no pointer to follow between them.
type filterTable struct {
	slots []filterSlot
	maps  []map[string]bool
}

type filterSlot struct {
	key uintptr
	f   wordFilter
}

var (
	filtersMu sync.Mutex
	filters   atomic.Pointer[filterTable]
)

// mapID is the map's identity: a map value is a pointer to the runtime's
// map, read here without reflect's overhead (inSet asks for every word).
func mapID(m map[string]bool) uintptr { return *(*uintptr)(unsafe.Pointer(&m)) }

func (t *filterTable) slot(id uintptr) int {
	mask := len(t.slots) - 1
	i := int(uint64(id)*0x9E3779B97F4A7C15>>40) & mask
	for t.slots[i].key != 0 && t.slots[i].key != id {
		i = (i + 1) & mask
	}
	return i
}

// registerFilter gives set m its filter; set() calls it, and so does a
// set built from others (frameWords), once it is complete.
func registerFilter(m map[string]bool) {
	filtersMu.Lock()
	defer filtersMu.Unlock()
	old := filters.Load()
	n := 1
	if old != nil {
		for _, sl := range old.slots {
			if sl.key != 0 {
				n++
			}
		}
	}
	size := 64
	for size < 2*n {
		size *= 2
	}
	t := &filterTable{slots: make([]filterSlot, size), maps: make([]map[string]bool, size)}
	if old != nil {
		for i, sl := range old.slots {
			if sl.key != 0 {
				j := t.slot(sl.key)
				t.slots[j], t.maps[j] = sl, old.maps[i]
			}
		}
	}
	id := mapID(m)
	j := t.slot(id)
	t.slots[j], t.maps[j] = filterSlot{key: id, f: *newWordFilter(m)}, m
	filters.Store(t)
}

// filterRejects: m was built by set() and its filter rules w out (w
// non-empty): one slot lookup, no pointer returned.
func filterRejects(m map[string]bool, w string) bool {
	t := filters.Load()
	if t == nil {
		return false
	}
	sl := &t.slots[t.slot(mapID(m))]
	return sl.key != 0 && !sl.f.mayHave(w)
}
