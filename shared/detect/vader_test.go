package detect

import "testing"

func TestVaderValence(t *testing.T) {
	cases := []struct {
		word string
		sign int // -1, 0 or 1
	}{
		{"sluggish", -1},
		{"Sluggish", -1},   // any case
		{"delightful", 1},  //
		{"annoyances", -1}, // a plural VADER does not list, read through "annoyance"
		{"disappoints", -1},
		{"free", 0},     // description in product answers (vaderNeutral)
		{"support", 0},  // idem
		{"supports", 0}, // and its -s form
		{"benefits", 0}, // what is offered ("salary and benefits"), as lexicon.go reads it
		{"has", 0},      // not "ha" + "s"
		{"clunky", 0},   // VADER does not score it (the curated lexicon does)
		{"naïve", 0},    // not ASCII
		{"", 0},
		{"ok", 0},
	}
	for _, tc := range cases {
		t.Run(tc.word, func(t *testing.T) {
			v := vaderValence(tc.word)
			if sign := map[bool]int{true: 1}[v > 0] - map[bool]int{true: 1}[v < 0]; sign != tc.sign {
				t.Errorf("vaderValence(%q) = %.1f, want sign %d", tc.word, v, tc.sign)
			}
		})
	}
}
