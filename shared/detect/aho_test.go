package detect

import (
	"math/rand"
	"sort"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// naiveHits finds every occurrence of each folded pattern in the folded
// text that starts at a rune's first folded byte and ends at a rune's last
// one — what the automaton must report — by brute force.
func naiveHits(text string, pats []string) []rawHit {
	initFold()
	var folded strings.Builder
	var startOf []int // folded byte → original offset of its rune, -1 inside an expansion
	var endAfter []int
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		f := foldRune(r, text[i:i+size])
		if r < utf8.RuneSelf {
			f = foldString(string(r))
		}
		for j := 0; j < len(f); j++ {
			folded.WriteByte(f[j])
			if j == 0 {
				startOf = append(startOf, i)
			} else {
				startOf = append(startOf, -1)
			}
			if j == len(f)-1 {
				endAfter = append(endAfter, i+size)
			} else {
				endAfter = append(endAfter, -1)
			}
		}
		i += size
	}
	fs := folded.String()
	var hits []rawHit
	for pid, p := range pats {
		for k := 0; k+len(p) <= len(fs); k++ {
			if fs[k:k+len(p)] == p && startOf[k] >= 0 && endAfter[k+len(p)-1] >= 0 {
				hits = append(hits, rawHit{pat: int32(pid), start: startOf[k], end: endAfter[k+len(p)-1]})
			}
		}
	}
	return hits
}

func sortHits(h []rawHit) {
	sort.Slice(h, func(i, j int) bool {
		if h[i].start != h[j].start {
			return h[i].start < h[j].start
		}
		if h[i].end != h[j].end {
			return h[i].end < h[j].end
		}
		return h[i].pat < h[j].pat
	})
}

func TestAutomatonMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	// soft hyphens fold to nothing and "’" to one byte: both move the
	// offset between folded and original text without a folded byte of
	// their own to start a match
	alphabet := []string{"a", "b", "c", "A", "B", " ", ".", "é", "É", "ß", "ss", "\u0301", "ﬁ", "fi", "日", "-", "\n", "ab", "ba",
		"\u00ad", "’", "abc"}
	gen := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(alphabet[rng.Intn(len(alphabet))])
		}
		return b.String()
	}
	for round := 0; round < 2000; round++ {
		seen := map[string]bool{}
		var pats []string
		for len(pats) < 1+rng.Intn(8) {
			p := foldString(gen(1 + rng.Intn(4)))
			if p == "" || seen[p] {
				continue
			}
			seen[p] = true
			pats = append(pats, p)
		}
		d := &Detector{ac: buildAutomaton(pats), pats: make([]pattern, len(pats))}
		text := gen(rng.Intn(60))
		sc := new(scratch)
		d.scan(text, sc)
		got := append([]rawHit(nil), sc.hits...)
		for i := range got {
			got[i].sent, got[i].sentStart = 0, 0
		}
		want := naiveHits(text, pats)
		sortHits(got)
		sortHits(want)
		if len(got) != len(want) {
			t.Fatalf("text %q pats %q: got %v, want %v", text, pats, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("text %q pats %q: got %v, want %v", text, pats, got, want)
			}
		}
	}
}

func TestFold(t *testing.T) {
	for in, want := range map[string]string{
		"Café Zoë":   "cafe zoe",
		"CAFÉ":       "cafe",
		"Straße":     "strasse",
		"Notion’s":   "notion's",
		"ＡＣＭＥ":       "acme",
		"ﬁnance":     "finance",
		"Ёлка":       "елка",
		"ΆΛΦΑ":       "αλφα",
		"İstanbul":   "istanbul",
		"a\u00a0b":   "a b",
		"co\u2011op": "co-op",
		"メルカリ":       "メルカリ",
	} {
		if got := foldString(in); got != want {
			t.Errorf("fold(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSortNearlySorted(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	cmp := func(a, b rawHit) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	}
	for _, swaps := range []int{0, 3, 10000} { // the last exceeds the budget
		h := make([]rawHit, 2000)
		for i := range h {
			h[i] = rawHit{start: i, end: i + 1 + rng.Intn(5)}
		}
		for k := 0; k < swaps; k++ {
			i, j := rng.Intn(len(h)), rng.Intn(len(h))
			h[i], h[j] = h[j], h[i]
		}
		sortNearlySorted(h, cmp)
		for i := 1; i < len(h); i++ {
			if cmp(h[i-1], h[i]) > 0 {
				t.Fatalf("swaps=%d: not sorted at %d", swaps, i)
			}
		}
	}
}

// TestScanMarks: the scan notes the rule words it meets beside the
// entities' forms, case-insensitively, and never reports them as hits.
func TestScanMarks(t *testing.T) {
	d := New(Entity{Name: "Acme"}, nil)
	for _, tc := range []struct {
		text  string
		marks uint8
	}{
		{"Acme is fine.", 0},
		{"Acme beats any OTHER tool.", markOther},
		{"Unlike others, Acme…", markOther},
		{"Der Nachname Acme", markSurname},
		{"Su apellido es Acme; other names too", markOther | markSurname},
		{"il cognome Acme", markSurname},
	} {
		t.Run(tc.text, func(t *testing.T) {
			sc := new(scratch)
			d.scan(tc.text, sc)
			if sc.marks != tc.marks {
				t.Errorf("marks %b, want %b", sc.marks, tc.marks)
			}
			for _, h := range sc.hits {
				if int(h.pat) >= len(d.pats) {
					t.Errorf("hit of mark pattern %d", h.pat)
				}
			}
			if len(sc.hits) != 1 {
				t.Errorf("%d hits, want the one of Acme", len(sc.hits))
			}
		})
	}
}

// TestRuneSets: the BMP bit sets answer as the range tables do, for
// every rune.
func TestRuneSets(t *testing.T) {
	initFold()
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if isWordRune(r) != isWordRuneTables(r) {
			t.Fatalf("isWordRune(%U) = %v", r, isWordRune(r))
		}
		if noSpaceScript(r) != noSpaceScriptTables(r) {
			t.Fatalf("noSpaceScript(%U) = %v", r, noSpaceScript(r))
		}
	}
}

// TestFoldsToItself: foldString's shortcut holds exactly for the ASCII
// bytes that fold to themselves.
func TestFoldsToItself(t *testing.T) {
	initFold()
	for c := 0; c < 0x100; c++ {
		s := string([]byte{byte(c)})
		want := c < utf8.RuneSelf && foldRune(rune(c), s) == s
		if got := foldsToItself(s); got != want {
			t.Errorf("foldsToItself(%q) = %v, want %v", s, got, want)
		}
	}
	for _, s := range []string{"notion", "arc'teryx", "monday.com", "a b", "Notion", "a\tb", "café"} {
		if got, want := foldString(s), foldRunes(s); got != want {
			t.Errorf("foldString(%q) = %q, want %q", s, got, want)
		}
	}
}

// foldRunes folds rune by rune, without foldString's shortcut.
func foldRunes(s string) string {
	var b strings.Builder
	for i, r := range s {
		b.WriteString(foldRune(r, s[i:i+utf8.RuneLen(r)]))
	}
	return b.String()
}

// TestAppendLowerFold: the stack-buffer keys of foreignLookup equal
// strings.ToLower and foldString, invalid UTF-8 included.
func TestAppendLowerFold(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	parts := []string{"a", "Z", "É", "é", "ß", "İ", "ﬁ", "’", "'", "\xff", "\xc3", "日", " ", "\t", "Ω", "K"}
	for i := 0; i < 2000; i++ {
		var b strings.Builder
		for n := rng.Intn(12); n > 0; n-- {
			b.WriteString(parts[rng.Intn(len(parts))])
		}
		s := b.String()
		if got, want := string(appendLower(nil, s)), strings.ToLower(s); got != want {
			t.Fatalf("appendLower(%q) = %q, want %q", s, got, want)
		}
		if got, want := string(appendFold(nil, s)), foldString(s); got != want {
			t.Fatalf("appendFold(%q) = %q, want %q", s, got, want)
		}
	}
}
