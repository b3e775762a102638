package detect

import "strings"

// A foil: an answer opens by praising the kind of thing the brand is
// ("Linen sheets are wonderful …", "Online learning is a fantastic deal in
// general") and then sets the brand against it ("Parachute's,
// unfortunately, don't live up to the price", "Udemy is the weak link").
// The praise is the category's, not the brand's: it is there to make the
// brand's criticism stand out.

// foilMarkers in the brand's first sentence turn it against what came
// before: "Blackboard, unfortunately, is remembered for the opposite".
var foilMarkers = set(`unfortunately sadly alas regrettably however though opposite exception desgraciadamente
malheureusement leider`)

// foil: the span [s,e) lies before the brand's first counted mention and
// the sentence of that mention turns against it — a marker of contrast or
// criticism read there — so the span's praise is the category's.
func (an *analysis) foil(s, e int) bool {
	first := -1
	an.anyBrandMention(func(c *cand, rec *sentRec) bool {
		first = c.srec
		return true
	})
	if first < 0 {
		return false
	}
	rec := &an.sc.sents[first]
	if e > rec.start || strings.Contains(an.text[e:rec.start], "\n\n") || !kindSubject(an.text[s:e]) {
		return false // the span names the brand or a product, or a paragraph lies between
	}
	if hasWordIn(an.text[rec.start:rec.end], foilMarkers) {
		return true
	}
	if wordCount(an.text[rec.start:rec.end]) > maxFoilTurn {
		return false
	}
	p, n := an.peekValence(rec.start, rec.end)
	return n >= sentClear && p == 0
}

// maxFoilTurn: the sentence that sets the brand against the category's
// praise without a marker is a short verdict ("Udemy is the weak link.");
// a longer one describes the brand.
const maxFoilTurn = 10

// kindSubject: t opens with a kind of thing, not a name — no capitalised
// word among its first four but the first ("Linen sheets are …", "Online
// learning is …"; not "The Model 3 is …").
func kindSubject(t string) bool {
	for pos, k := 0, 0; k < 4; k++ {
		w, np := wordAtAny(t, pos)
		if w == "" {
			return true
		}
		if k > 0 && w[0] >= 'A' && w[0] <= 'Z' {
			return false
		}
		pos = np
	}
	return true
}

// pronounWeakSide: a heading opens the brand's weak side by a pronoun
// ("### Where it falls short", "**What it does badly**") after a heading
// that names the brand ("### Where GitLab shines"): the section is the
// brand's other side, though no sentence in it names the brand.
func (an *analysis) pronounWeakSide() (s, e int, ok bool) {
	text, brandHead := an.text, false
	for ls := 0; ls < len(text); {
		le := strings.IndexByte(text[ls:], '\n')
		if le < 0 {
			le = len(text)
		} else {
			le += ls
		}
		line := strings.TrimSpace(text[ls:le])
		if headingLine(line) {
			if brandHead && hasWordIn(line, brandPronouns) && counterFrame(line, false) {
				return ls, le, true
			}
			brandHead = an.brandIn(ls, le)
		}
		ls = le + 1
	}
	return 0, 0, false
}
