package detect

// automaton is a byte-level Aho–Corasick DFA over the folded UTF-8 of all
// patterns. Transitions are a dense table indexed by byte class (bytes that
// occur in no pattern share class 0), so a step is two loads. ASCII upper
// case shares the class of its lower case and ASCII whitespace the class of
// the space, which lets the scanner feed ASCII text without folding it first.
//
// A transition entry is either the next state's row offset (state*nc, ≥ 0)
// or, when the next state ends at least one pattern, ^state (< 0): the sign
// test is the only output check on the hot path.
type automaton struct {
	// cls maps a byte to its class (low bits, classMask); breakBit marks
	// the ASCII bytes that may end a sentence and wideBit the bytes of
	// non-ASCII runes, so one load serves all three.
	cls    [256]uint16
	nc     int32 // number of classes
	trans  []int32
	outOff []int32 // outputs of state s: outs[outOff[s]:outOff[s+1]]
	outs   []int32 // pattern ids
	plen   []int32 // folded length of each pattern in bytes
	maxLen int
}

const (
	classMask = 0x3fff
	wideBit   = 0x4000 // a byte ≥ 0x80: a non-ASCII rune's first (or a stray) byte
	breakBit  = 0x8000
)

// buildAutomaton compiles the (distinct, non-empty) folded patterns.
func buildAutomaton(pats []string) *automaton {
	a := &automaton{}
	var used [256]bool
	for _, p := range pats {
		for i := 0; i < len(p); i++ {
			used[p[i]] = true
		}
		if len(p) > a.maxLen {
			a.maxLen = len(p)
		}
		a.plen = append(a.plen, int32(len(p)))
	}
	next := uint16(1)
	for b := 0; b < 256; b++ {
		if used[b] && !(b >= 'A' && b <= 'Z') {
			a.cls[b] = next
			next++
		}
	}
	for b := 'A'; b <= 'Z'; b++ {
		a.cls[b] = a.cls[b+'a'-'A']
	}
	for _, b := range []byte{'\t', '\n', '\v', '\f', '\r'} {
		a.cls[b] = a.cls[' ']
	}
	nc := int32(next)
	a.nc = nc

	// Trie: goto rows, -1 = no edge yet.
	newRow := func(g []int32) []int32 {
		for i := int32(0); i < nc; i++ {
			g = append(g, -1)
		}
		return g
	}
	g := newRow(nil)
	var term [][]int32
	term = append(term, nil)
	for pid, p := range pats {
		s := int32(0)
		for i := 0; i < len(p); i++ {
			c := int32(a.cls[p[i]])
			t := g[s*nc+c]
			if t < 0 {
				t = int32(len(term))
				term = append(term, nil)
				g = newRow(g)
				g[s*nc+c] = t
			}
			s = t
		}
		term[s] = append(term[s], int32(pid))
	}
	states := len(term)

	// Breadth-first: failure links, DFA completion, merged outputs.
	fail := make([]int32, states)
	out := make([][]int32, states)
	queue := make([]int32, 0, states)
	for c := int32(0); c < nc; c++ {
		t := g[c]
		if t < 0 {
			g[c] = 0
			continue
		}
		fail[t] = 0
		queue = append(queue, t)
	}
	for qi := 0; qi < len(queue); qi++ {
		s := queue[qi]
		out[s] = append(append([]int32(nil), term[s]...), out[fail[s]]...)
		for c := int32(0); c < nc; c++ {
			t := g[s*nc+c]
			if t < 0 {
				g[s*nc+c] = g[fail[s]*nc+c]
				continue
			}
			fail[t] = g[fail[s]*nc+c]
			queue = append(queue, t)
		}
	}

	// Renumber states breadth-first: the shallow states, where the scan
	// spends nearly all its time, then share cache lines.
	order := append([]int32{0}, queue...)
	newID := make([]int32, states)
	for n, s := range order {
		newID[s] = int32(n)
	}
	a.outOff = make([]int32, states+1)
	for n, s := range order {
		a.outOff[n] = int32(len(a.outs))
		a.outs = append(a.outs, out[s]...)
	}
	a.outOff[states] = int32(len(a.outs))
	for _, b := range []byte{'.', '!', '?', '\n'} {
		a.cls[b] |= breakBit
	}
	for b := 0x80; b < 0x100; b++ {
		a.cls[b] |= wideBit
	}
	a.trans = make([]int32, len(g))
	for n, s := range order {
		for c := int32(0); c < nc; c++ {
			t := g[s*nc+c]
			if len(out[t]) > 0 {
				a.trans[int32(n)*nc+c] = ^newID[t]
			} else {
				a.trans[int32(n)*nc+c] = newID[t] * nc
			}
		}
	}
	return a
}

// mask scans s and returns a bit set of the pattern ids found (ids < 64).
// matchAny reports whether any pattern occurs in s (any number of
// patterns; mask holds at most 64).
func (a *automaton) matchAny(s string) bool {
	found := false
	a.eachMatch(s, func(int32) bool { found = true; return false })
	return found
}

// mask returns the set of patterns that occur in s, bit i for pattern i;
// it serves automata of at most 64 patterns.
func (a *automaton) mask(s string) uint64 {
	var m uint64
	a.eachMatch(s, func(p int32) bool { m |= 1 << p; return true })
	return m
}

// eachMatch calls fn with the id of every pattern occurrence in s until
// fn returns false.
func (a *automaton) eachMatch(s string, fn func(p int32) bool) {
	var st int32
	trans, cls := a.trans, &a.cls // in registers: fn may be any closure, so a's fields were reloaded per byte
	for i := 0; i < len(s); i++ {
		v := trans[st+int32(cls[s[i]]&classMask)]
		if v >= 0 {
			st = v
			continue
		}
		id := ^v
		st = id * a.nc
		for _, p := range a.outs[a.outOff[id]:a.outOff[id+1]] {
			if !fn(p) {
				return
			}
		}
	}
}
