package detect

import (
	"strings"
	"unicode"
)

// Steps of a how-to (round d14). A list whose items open with a clause in
// the imperative ("**Send proactive updates** at shipped …", "**Host a
// branded page** …", "**Set honest estimates** …") makes the word opening
// one more item of it a verb too ("**Route questions to self-serve first**"):
// the items are parallel steps, and a person reads the word as the step's
// verb, not the product. A list of products opens its items with names,
// bare ("**Route** — …", "**Narvar:** …") or as a subject before its
// predicate ("Route handles claims", "Bear syncs notes"), and neither counts.

// imperativeStep: c opens a list item with a clause, and most of the other
// items of its list (at least two) open with a clause headed by a common
// word that reads as a verb in the imperative.
func (an *analysis) imperativeStep(c *cand) bool {
	if !an.isHead(c) {
		return false
	}
	text := an.text
	if second, ok := clauseAfter(text, c.end); !ok || !objectWord(second) || subjectPredicate(second) {
		return false
	}
	items, steps := 0, 0
	listSiblings(text, c.lineStart, func(line string) {
		items++
		if an.imperativeHead(line) {
			steps++
		}
	})
	return steps >= 2 && 3*steps >= 2*items
}

// clauseAfter: a word follows the one ending at pos after a single space,
// in the same span (no dash, colon or closing emphasis between them): the
// item goes on as a clause. It returns that word.
func clauseAfter(text string, pos int) (string, bool) {
	if pos+1 >= len(text) || text[pos] != ' ' {
		return "", false
	}
	r := firstRune(text[pos+1:])
	if !unicode.IsLetter(r) {
		return "", false
	}
	w, _ := wordAtAny(text, pos+1)
	return w, w != ""
}

// subjectPredicate: the word after an item's first word is a verb of the
// third person or an auxiliary ("Route handles claims", "Bear is free"):
// the first word is the subject, not an imperative.
func subjectPredicate(second string) bool {
	lw := strings.ToLower(second)
	if inSet(auxiliaries, lw) || inSet(subjectVerbs, lw) {
		return true
	}
	return second == lw && len(lw) > 3 && strings.HasSuffix(lw, "s") && !strings.HasSuffix(lw, "ss") &&
		!strings.HasSuffix(lw, "us") && !strings.HasSuffix(lw, "is")
}

// subjectVerbs: copulas after a subject (its callers read auxiliaries,
// "has" and "have" among them, beside it).
var subjectVerbs = set(`is are was were`)

// imperativeHead: a list line opens with a common English word, capitalised
// by its place, that no tracked entity is named by and no plural or third
// person ending marks as a noun, followed by a clause ("Send proactive
// updates", "Measure the chest"), not a label ("Light:", "**Cold:**").
func (an *analysis) imperativeHead(line string) bool {
	q := trimLeftSpace(line)
	q = q[listMarkerLen(q):]
	k := 0
	for k < len(q) && isOpener(rune(q[k])) {
		k++
	}
	w, end := wordAtAny(q, k)
	if w == "" || end != k+len(w) || !unicode.IsUpper(firstRune(w)) {
		return false
	}
	lw := strings.ToLower(w)
	if !commonWord(lw) || inSet(functionWords, lw) || inSet(nounDeterminers, lw) ||
		inSet(possessiveDeterminers, lw) || an.d.folded[lw] {
		return false
	}
	if strings.HasSuffix(lw, "s") && !strings.HasSuffix(lw, "ss") || strings.HasSuffix(lw, "ing") ||
		strings.HasSuffix(lw, "ed") || strings.HasSuffix(lw, "ly") {
		return false
	}
	second, ok := clauseAfter(q, end)
	return ok && objectWord(second) && !subjectPredicate(second)
}

// objectWord: w may open a verb's object or complement — a lower-case word
// or an acronym ("Route WISMO questions"), not a capitalised word going on
// with a name ("Thorne Basic Prenatal", "Nature Made") nor "of" ("Garden
// of Life").
func objectWord(w string) bool {
	if w == "of" {
		return false
	}
	r := firstRune(w)
	return unicode.IsLower(r) || len(w) >= 2 && strings.ToUpper(w) == w && unicode.IsLetter(r)
}

// maxSiblingLines bounds the lines read on each side of an item.
const maxSiblingLines = 40

// listSiblings calls f with every other item line of the list holding the
// line that starts at lineStart: the list items before and after it up to
// a line that is neither an item, blank nor an indented continuation.
func listSiblings(text string, lineStart int, f func(line string)) {
	item := func(line string) { // a top-level item, not a nested one
		if isListLine(line) && line[0] != ' ' && line[0] != '\t' {
			f(line)
		}
	}
	// after
	for st, k := lineStart, 0; k < maxSiblingLines; k++ {
		nl := strings.IndexByte(text[st:], '\n')
		if nl < 0 {
			break
		}
		st += nl + 1
		line := lineAt(text, st)
		if !blockLine(line) {
			break
		}
		item(line)
	}
	// before
	for en, k := lineStart-1, 0; en > 0 && k < maxSiblingLines; k++ {
		st := strings.LastIndexByte(text[:en], '\n') + 1
		line := text[st:en]
		if !blockLine(line) {
			break
		}
		item(line)
		en = st - 1
	}
}
