package detect

import (
	"strings"
	"testing"
)

// filterOf returns m's filter (the tests' view of what filterRejects reads), nil when m was not built by set().
func filterOf(m map[string]bool) *wordFilter {
	t := filters.Load()
	if t == nil {
		return nil
	}
	sl := &t.slots[t.slot(mapID(m))]
	if sl.key == 0 {
		return nil // an empty slot
	}
	return &sl.f
}

// upperASCII upper-cases the ASCII letters of w (inSet folds those only).
func upperASCII(w string) string {
	return strings.Map(func(r rune) rune {
		if 'a' <= r && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	}, w)
}

// TestWordSetFilters: every word of every set built by set() passes its
// set's filter and is found by inSet in any case; a word that is absent is
// reported absent whether or not the filter turns it away; a map not built
// by set() is read as a plain map.
func TestWordSetFilters(t *testing.T) {
	tab := filters.Load()
	sets := 0
	for i, m := range tab.maps {
		if m == nil {
			continue
		}
		sets++
		if filterOf(m) != &tab.slots[i].f {
			t.Fatalf("set %d: filterOf finds another filter", i)
		}
		for w := range m {
			if !tab.slots[i].f.mayHave(w) || !inSet(m, w) || !inSet(m, upperASCII(w)) {
				t.Errorf("set %d: %q not found", i, w)
			}
		}
	}
	if sets < 100 {
		t.Errorf("%d sets have filters, want the package's word sets", sets)
	}
	for _, tc := range []struct {
		m    map[string]bool
		w    string
		want bool
	}{
		{positiveWords, "Excellent", true},
		{positiveWords, "excellenT", true},
		{positiveWords, "excellence", false},
		{negators, "NOT", true},
		{negators, "note", false},
		{enumerators, "vs.", true},
		{enumerators, "v", false},
		{frameWords, "Feels", true}, // built from sets, then given a filter
		{frameWords, "felts", false},
		{sentimentRoles, "Cheap", true},
		{sentimentRoles, "cheaper", false},
		{map[string]bool{"zq": true}, "ZQ", true},
	} {
		t.Run(tc.w, func(t *testing.T) {
			if got := inSet(tc.m, tc.w); got != tc.want {
				t.Errorf("inSet(%q) = %v, want %v", tc.w, got, tc.want)
			}
		})
	}
	for w, f := range lexicon {
		// lexLookup reads ASCII words only ("não" is for foreignLookup)
		if isASCII(w) && len(w) < lexMaxLen && (lexLookup(w) != f && !strings.HasSuffix(w, "n't") || lexLookup(upperASCII(w)) != lexLookup(w)) {
			t.Errorf("lexLookup(%q) = %b, want %b", w, lexLookup(w), f)
		}
	}
	for w, c := range ignoranceWords {
		if lookupIgnorance(w) != c || lookupIgnorance(upperASCII(w)) != c {
			t.Errorf("lookupIgnorance(%q) != %b", w, c)
		}
	}
	for w, v := range vaderLexicon() {
		if len(w) >= 3 && len(w) <= lexMaxLen && (vaderValence(w) != v || vaderValence(upperASCII(w)) != v) {
			t.Errorf("vaderValence(%q) != %v", w, v)
		}
	}
	if filterOf(map[string]bool{"zq": true}) != nil {
		t.Error("a map not built by set() has a filter")
	}
}
