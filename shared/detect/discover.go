package detect

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// found is a discovered name and where it first appears.
type found struct {
	pos  int
	name string
}

// discover finds untracked product names recommended next to tracked ones:
// the other heads of a list whose items are headed by a tracked mention,
// and the other items of an enumeration ("Asana, Acme and Trello") that
// holds a tracked mention. Candidates are capitalised product-like names
// of at most four words; common words, stop-words (headings, sentence
// adverbs), tracked forms and anything overlapping a tracked match are
// excluded. The order is the order of first appearance. The names are
// returned in scratch (valid until the next call), so that result can
// give them the allocation it makes for the cited URLs.
func (an *analysis) discover() []found {
	sc := an.sc
	fs := sc.found[:0]
	blockEnd := -1 // end of the last list block examined
	for ri := range sc.sents {
		rec := &sc.sents[ri]
		enum := false
		for j := rec.candFrom; j < rec.candTo; j++ {
			c := &sc.cands[j]
			if !counted(c) {
				continue
			}
			if c.start >= blockEnd && an.isHead(c) {
				fs, blockEnd = an.discoverList(an.listBlockStart(c.lineStart, blockEnd), fs)
			}
			enum = enum || an.enumerated(c, rec)
		}
		if enum {
			fs = an.discoverEnum(rec, fs)
		}
	}
	sc.found = fs[:0]
	if len(fs) == 0 {
		return nil
	}
	slices.SortStableFunc(fs, func(a, b found) int { return a.pos - b.pos })
	out := fs[:0] // the first of each name, in place
	for _, f := range fs {
		dup := false
		for _, o := range out {
			if strings.EqualFold(o.name, f.name) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, f)
		}
	}
	return out
}

// enumerated: the mention is next to an enumeration separator.
func (an *analysis) enumerated(c *cand, rec *sentRec) bool {
	prev := prevToken(an.text, rec.rawStart, c.start)
	next := nextToken(an.text, c.end, rec.end)
	return isEnumSep(prev.sep) || isEnumSep(next.sep) ||
		inSet(enumerators, prev.word) || inSet(enumerators, next.word)
}

// lineAt returns the line that starts at ls.
func lineAt(text string, ls int) string {
	e := strings.IndexByte(text[ls:], '\n')
	if e < 0 {
		return text[ls:]
	}
	return text[ls : ls+e]
}

func blockLine(line string) bool {
	return trimLeftSpace(line) == "" || line[0] == ' ' || line[0] == '\t' || isListLine(line)
}

// listBlockStart walks up from the list line at ls to the first line of
// its list block, not above floor (the end of the block examined before),
// so that every line is examined once.
func (an *analysis) listBlockStart(ls, floor int) int {
	text := an.text
	start := ls
	for start > 0 && start > floor && ls-start < listWindow {
		prev := strings.LastIndexByte(text[:start-1], '\n') + 1
		if !blockLine(lineAt(text, prev)) {
			break
		}
		start = prev
	}
	return start
}

// discoverList collects the heads of the top-level items of the list block
// starting at bs and returns where the block ends.
func (an *analysis) discoverList(bs int, fs []found) ([]found, int) {
	text := an.text
	minIndent := 1 << 30
	pos := bs
	for pos < len(text) && pos-bs < listWindow {
		line := lineAt(text, pos)
		if !blockLine(line) {
			break
		}
		if isListLine(line) {
			minIndent = min(minIndent, len(line)-len(trimLeftSpace(line)))
		}
		pos += len(line) + 1
	}
	end := pos
	for pos = bs; pos < end && pos < len(text); {
		line := lineAt(text, pos)
		next := pos + len(line) + 1
		q := trimLeftSpace(line)
		if len(line)-len(q) != minIndent || !isListLine(line) {
			pos = next
			continue
		}
		off := pos + (len(line) - len(q)) + listMarkerLen(q)
		if s, e, ok := an.headName(off, pos+len(line)); ok && !an.overlapsAnyCand(s, e) {
			if name, ok := an.acceptName(text[s:e], false); ok {
				fs = append(fs, found{s, name})
			}
		}
		pos = next
	}
	return fs, end
}

// headName parses the name heading a list item: a run of name-like words,
// ended by the line end, markdown, a colon, a dash, a parenthesis, a comma
// or a verb that introduces a description ("Trello is …").
func (an *analysis) headName(pos, end int) (int, int, bool) {
	text := an.text
	run := an.leadName(pos, end)
	if !run.ok {
		return 0, 0, false
	}
	s, e := run.s, run.e
	if run.stop {
		return s, e, true
	}
	rest := strings.TrimLeft(text[e:end], " \t")
	if rest == "" {
		return s, e, true
	}
	r := firstRune(rest)
	if isCloser(r) || r == ':' || r == '-' || r == '–' || r == '—' || r == '(' || r == ',' {
		return s, e, true
	}
	w, _ := wordAt(rest, 0, len(rest))
	return s, e, inSet(headVerbs, w)
}

var headVerbs = set(`is offers provides has lets allows focuses excels supports stands shines
combines integrates works remains gives delivers includes`)

// wspan is a space-separated word with its markdown and punctuation
// trimmed: [s,e) is the core.
type wspan struct {
	s, e int
	name bool // name-like: capitalised ("Acme", "HubSpot", "1Password", "Monday.com")
	amp  bool // "&", which may join name words
	open bool // markup before the core: a name run cannot continue into it
	stop bool // markup or punctuation after the core: the run ends here
}

// field classifies the space-separated field [s,e): its core without
// markdown and punctuation, and whether that core is name-like.
func (an *analysis) field(s, e int) wspan {
	text := an.text
	w := wspan{s: s, e: e}
	for w.s < w.e {
		r, size := rune(text[w.s]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[w.s:w.e])
		}
		if !isOpener(r) {
			break
		}
		w.s += size
		w.open = true
	}
	for w.e > w.s {
		r, size := rune(text[w.e-1]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeLastRuneInString(text[w.s:w.e])
		}
		if !isCloser(r) && !isTrailingPunct(r) {
			break
		}
		w.e -= size
		w.stop = true
	}
	core := text[w.s:w.e]
	w.amp = core == "&"
	w.name = !w.amp && nameLike(core) && nameChars(core)
	return w
}

func isTrailingPunct(r rune) bool {
	switch r {
	case '.', ':', ';', '!', '?', ',', '-', '\'', '’':
		return true
	}
	return false
}

func isSpaceOrTab(c byte) bool { return c == ' ' || c == '\t' }

// nameSpan is a name run: [s,e) from the first to the last name word.
type nameSpan struct {
	s, e int
	ok   bool
	stop bool // markup or punctuation ends the last word
	full bool // the run is all of the part it was read from
}

// leadName reads the name run at the start of [pos,end): at most four
// name-like words, "&" joining them; a word with markup before it cannot
// continue a run and one with markup or punctuation after it ends it.
func (an *analysis) leadName(pos, end int) nameSpan {
	text := an.text
	var run nameSpan
	lastField := pos
	for k := 0; k < 5 && pos < end; k++ {
		for pos < end && isSpaceOrTab(text[pos]) {
			pos++
		}
		if pos >= end {
			break
		}
		fe := pos
		for fe < end && !isSpaceOrTab(text[fe]) {
			fe++
		}
		w := an.field(pos, fe)
		if w.amp && k > 0 && !w.open && !w.stop {
			pos = fe
			continue
		}
		if !w.name || (k > 0 && w.open) || k == 4 {
			break
		}
		if !run.ok {
			run.s, run.ok = w.s, true
		}
		run.e, run.stop, lastField = w.e, w.stop, fe
		pos = fe
		if w.stop {
			break
		}
	}
	if run.ok {
		k := lastField
		for k < end && isSpaceOrTab(text[k]) {
			k++
		}
		run.full = k == end
	}
	return run
}

// trailName reads the name run at the end of [s,end), at most four words,
// by the same rules read backwards.
func (an *analysis) trailName(s, end int) nameSpan {
	text := an.text
	var run nameSpan
	pos := end
	for k := 0; k < 4 && pos > s; k++ {
		for pos > s && isSpaceOrTab(text[pos-1]) {
			pos--
		}
		if pos <= s {
			break
		}
		fs := pos
		for fs > s && !isSpaceOrTab(text[fs-1]) {
			fs--
		}
		w := an.field(fs, pos)
		if w.amp && k > 0 && !w.open && !w.stop {
			pos = fs
			continue
		}
		if !w.name || (k > 0 && w.stop) {
			break
		}
		if !run.ok {
			run.e, run.ok = w.e, true
		}
		run.s = w.s
		pos = fs
		if w.open {
			break
		}
	}
	return run
}

func nameLike(w string) bool {
	if w == "" {
		return false
	}
	c := w[0]
	switch {
	case 'A' <= c && c <= 'Z':
		return true
	case c < utf8.RuneSelf:
		return c >= '0' && c <= '9' && strings.ContainsFunc(w, unicode.IsLetter)
	}
	return unicode.IsUpper(firstRune(w))
}

// nameChars: letters, digits and . - + & ' inside.
func nameChars(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; c < utf8.RuneSelf && !asciiWord[c] && c != '.' && c != '-' && c != '+' && c != '&' && c != '\'' {
			return false
		}
	}
	for _, r := range w {
		if r >= utf8.RuneSelf && !isWordRune(r) && r != '’' {
			return false
		}
	}
	return true
}

// overlapsAnyCand: [s,e) overlaps a tracked match, accepted or not.
// Candidates are sorted and do not overlap, so their ends are sorted too.
func (an *analysis) overlapsAnyCand(s, e int) bool {
	cands := an.sc.cands
	i, _ := slices.BinarySearchFunc(cands, s+1, func(c cand, t int) int { return c.end - t })
	for ; i < len(cands) && cands[i].start < e; i++ {
		if cands[i].end > s {
			return true
		}
	}
	return false
}

// overlapsCounted: [s,e) overlaps a counted tracked mention.
func (an *analysis) overlapsCounted(s, e int) bool {
	cands := an.sc.cands
	i, _ := slices.BinarySearchFunc(cands, s+1, func(c cand, t int) int { return c.end - t })
	for ; i < len(cands) && cands[i].start < e; i++ {
		if cands[i].end > s && counted(&cands[i]) {
			return true
		}
	}
	return false
}

// part is a comma/conjunction-separated piece of a sentence: its name run
// at the start (lead), at the end (trail), and whether it is one name.
type part struct {
	leadS, leadE   int
	trailS, trailE int
	hasLead        bool
	hasTrail       bool
	full           bool
}

// discoverEnum collects the untracked items of the enumerations in rec
// that contain a counted tracked mention.
func (an *analysis) discoverEnum(rec *sentRec, fs []found) []found {
	text := an.text
	parts := an.sc.parts[:0]
	// A part needs only its first and last few words: name runs are at
	// most four words long.
	addPart := func(s, e int) {
		for s < e && isSpaceOrTab(text[s]) {
			s++
		}
		if s >= e {
			return
		}
		var p part
		if lead := an.leadName(s, e); lead.ok {
			p.hasLead, p.leadS, p.leadE, p.full = true, lead.s, lead.e, lead.full
		}
		if p.full {
			p.hasTrail, p.trailS, p.trailE = true, p.leadS, p.leadE
		} else if trail := an.trailName(s, e); trail.ok {
			// A name ending a longer clause starts an enumeration only
			// after an introducer ("include Acme, …", "such as Acme, …"):
			// "If you live in Google Workspace, Acme and …" lists no
			// Google Workspace.
			w := prevToken(text, s, trail.s).word
			if inSet(introducers, strings.TrimRight(w, ".")) {
				p.hasTrail, p.trailS, p.trailE = true, trail.s, trail.e
			}
		}
		parts = append(parts, p)
	}
	ps := rec.start
	for pos := rec.start; pos < rec.end; {
		c := text[pos]
		switch {
		case c == ',' || c == ';' || c == '(' || c == ')' || c == ':' || c == '/':
			addPart(ps, pos)
			pos++
			ps = pos
		case c == '-' && pos > rec.start && text[pos-1] == ' ' && pos+1 < rec.end && text[pos+1] == ' ':
			addPart(ps, pos)
			pos++
			ps = pos
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(text[pos:])
			if r == '–' || r == '—' {
				addPart(ps, pos)
				ps = pos + size
			}
			pos += size
		case asciiWord[c]:
			we := wordEnd(text, pos+1, rec.end)
			if we-pos <= 7 && (pos == rec.start || !asciiWord[text[pos-1]]) && isEnumWord(text[pos:we]) {
				addPart(ps, pos)
				ps = we
			}
			pos = we
		default:
			pos++
		}
	}
	addPart(ps, rec.end)
	an.sc.parts = parts
	if len(parts) < 2 {
		return fs
	}
	type item struct{ s, e int }
	var ibuf [8]item
	items := ibuf[:0]
	for i := 0; i < len(parts); {
		if !parts[i].hasTrail {
			i++
			continue
		}
		items = append(items[:0], item{parts[i].trailS, parts[i].trailE})
		j := i + 1
		for j < len(parts) && parts[j].full {
			items = append(items, item{parts[j].leadS, parts[j].leadE})
			j++
		}
		if j < len(parts) && parts[j].hasLead {
			items = append(items, item{parts[j].leadS, parts[j].leadE})
		}
		if len(items) >= 2 {
			tracked := false
			for _, it := range items {
				if an.overlapsCounted(it.s, it.e) {
					tracked = true
					break
				}
			}
			if tracked {
				for _, it := range items {
					if an.overlapsAnyCand(it.s, it.e) {
						continue
					}
					if name, ok := an.acceptName(text[it.s:it.e], it.s == rec.start); ok {
						fs = append(fs, found{it.s, name})
					}
				}
			}
		}
		i = j
	}
	return fs
}

// introducers are the words after which a name may open an enumeration
// within a clause.
var introducers = set(`include includes including like as e.g i.e are is try consider
compare comparing recommend recommended suggest between among using use with from
alternatives options choices tools`)

// isEnumWord: an enumerating conjunction that splits an enumeration.
func isEnumWord(w string) bool {
	switch c := w[0] | 0x20; c {
	case 'a', 'o', 'v', 'n':
		return inSet(enumerators, w)
	}
	return false
}

// acceptName filters a discovered name: leading stop-words are dropped;
// what remains must not be a common word, a stop-word, a tracked form or,
// at a sentence start, a lone adverb ("Honestly"). It returns a substring
// of s and allocates nothing.
func (an *analysis) acceptName(s string, sentenceInitial bool) (string, bool) {
	for {
		s = strings.TrimLeft(s, " \t")
		sp := strings.IndexAny(s, " \t")
		if sp < 0 {
			sp = len(s)
		}
		if s == "" || !inSet(discoveryStop, strings.Trim(s[:sp], ".:'’")) {
			break
		}
		s = s[sp:]
		sentenceInitial = false
	}
	s = strings.TrimRight(s, " \t&")
	if len(s) < 2 || !nameLike(s) || !strings.ContainsFunc(s, unicode.IsLetter) || utf8.RuneCountInString(s) < 2 {
		return "", false
	}
	key := an.foldKey(s)
	if !strings.ContainsAny(s, " \t") {
		if lv := ordinaryLevel(string(key)); lv > 0 && lv <= discoveryMaxLevel || discoveryStop[string(key)] {
			return "", false
		}
		if sentenceInitial && len(key) > 2 && string(key[len(key)-2:]) == "ly" {
			return "", false
		}
	}
	if an.d.folded[string(key)] {
		return "", false
	}
	return s, true
}

// discoveryMaxLevel: single words at most this common (SCOWL level) are
// not discovered as products ("Bear", "Things"); rarer ones ("Obsidian")
// are.
const discoveryMaxLevel = 35

// foldKey folds s into the scratch key buffer (valid until the next call).
func (an *analysis) foldKey(s string) []byte {
	k := an.sc.key[:0]
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		k = append(k, foldRune(r, s[i:i+size])...)
		i += size
	}
	an.sc.key = k
	return k
}
