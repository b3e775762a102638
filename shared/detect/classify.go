package detect

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// unknownRules match statements that the model knows nothing about
// something. A rule runs only on a sentence that holds a mention, a
// negation anchor and the rule's two keyword sets (see findUnknown), so the
// small regexps rarely run. Apostrophes may be typographic.
//
// They are compiled on first use, not at package initialisation: every
// binary that links detection (the API bootstrap too, through runs) would
// otherwise pay for them at each cold start.
var unknownRules = sync.OnceValue(func() []unknownRule {
	specs := []struct {
		re       string
		any, and []string // the rule runs when one of any and one of and occur
	}{
		// "I don't have (any|specific|reliable…) information/details/data about"
		{`\b(?:do|does|did|can)(?:\s+not|n['’]t)\s+(?:have|possess|hold|find|see)\s+(?:(?:any|much|specific|reliable|detailed|enough|sufficient|verified|concrete|accurate|credible|definitive|publicly\s+available)\s+){0,3}(?:information|info|details|data|knowledge|records?)\b`, []string{"info", "detail", "data", "knowledge", "record"}, []string{"have", "possess", "hold", "see", "find"}},
		// "no (reliable|specific…) information on/about"
		{`\bno\s+(?:(?:reliable|specific|detailed|verified|concrete|credible|definitive|public|publicly\s+available|widely\s+available|available|further|known)\s+){0,2}(?:information|info|details|data|knowledge|records?)\s+(?:about|on|regarding|of|for|related\s+to)\b`, []string{"info", "detail", "data", "knowledge", "record"}, []string{"no "}},
		// "limited information about"
		{`\blimited\s+(?:(?:public|publicly\s+available|reliable)\s+)?(?:information|info|details|data)\s+(?:available\s+)?(?:about|on|regarding)\b`, []string{"info", "detail", "data"}, []string{"limited"}},
		// "I'm not familiar with", "we are not aware of", "I'm unfamiliar with"
		{`\b(?:i['’]m|i\s+am|we['’]re|we\s+are|i\s+was|i['’]ve\s+not\s+been)\s+(?:not\s+(?:(?:very|entirely|really|particularly|quite)\s+)?(?:familiar|aware)|unfamiliar|unaware)\b`, []string{"familiar", "aware"}, []string{"not", "unfamiliar", "unaware"}},
		// "I couldn't find any information on", "unable to verify any details"
		{`\b(?:couldn['’]t|could\s+not|can['’]t|cannot|unable\s+to|wasn['’]t\s+able\s+to|was\s+not\s+able\s+to)\s+(?:find|locate|verify|confirm|identify)\s+(?:(?:any|much|reliable|specific|credible)\s+)*(?:information|info|details|data|records?|evidence|mention|references?)\b`, []string{"info", "detail", "data", "record", "evidence", "mention", "reference"}, []string{"couldn", "could not", "can't", "can’t", "cannot", "unable", "wasn", "was not"}},
		// "I couldn't find X", "I can't identify X"
		{`\b(?:i|we)\s+(?:couldn['’]t|could\s+not|can['’]t|cannot|was\s+unable\s+to|wasn['’]t\s+able\s+to)\s+(?:find|locate|identify|verify)\b`, []string{"find", "locate", "identify", "verify"}, []string{"couldn", "could not", "can't", "can’t", "cannot", "unable", "wasn"}},
		// "I don't know X", "I do not recognize the name X"
		{`\bi\s+(?:do\s+not|don['’]t|didn['’]t|did\s+not)\s+(?:know|recogni[sz]e)\b`, []string{"know", "recogni"}, []string{"don't", "don’t", "do not", "didn't", "didn’t", "did not"}},
		// "X is not a product I know", "X isn't something I'm familiar with"
		{`\b(?:isn['’]t|is\s+not|wasn['’]t|was\s+not)\s+(?:a\s+|an\s+)?(?:\w+\s+)?(?:product|company|brand|tool|service|name|term|platform|app|something|one)\s+(?:that\s+)?(?:i|i['’]m|i\s+am|i['’]ve|i\s+have)\s+(?:know|familiar|aware|recogni[sz]e|heard|come\s+across|encountered|information)`, []string{"know", "familiar", "aware", "recogni", "heard", "come across", "encounter", "info"}, []string{"isn't", "isn’t", "is not", "wasn", "was not"}},
		// "never heard of", "no knowledge of", "not in my training data", …
		{`\b(?:never\s+heard\s+of|not\s+heard\s+of|haven['’]t\s+heard\s+of|have\s+not\s+heard\s+of|no\s+knowledge\s+of|not\s+(?:in|within|part\s+of)\s+my\s+(?:training|knowledge)|beyond\s+my\s+knowledge|outside\s+(?:of\s+)?my\s+knowledge|doesn['’]t\s+ring\s+a\s+bell|not\s+something\s+i\s+(?:know|recogni[sz]e|am\s+familiar))`, []string{"heard", "knowledge", "training", "bell", "know", "recogni", "familiar"}, []string{"never", "not", "no ", "beyond", "outside", "n't", "n’t"}},
		// "I'm not sure what X is"
		{`\b(?:i['’]m|i\s+am)\s+not\s+sure\s+(?:what|who|which)\b`, []string{"sure"}, []string{"not"}},
		// "X doesn't appear to be a well-known product", "does not seem to exist"
		{`\b(?:doesn['’]t|does\s+not)\s+(?:appear|seem)\s+to\s+(?:exist|be\s+(?:a\s+|an\s+)?(?:well[-\s]known|widely[-\s]known|known|recogni[sz]ed|widely\s+recogni[sz]ed|established|real|notable))`, []string{"appear", "seem"}, []string{"doesn", "does not"}},
		// "unknown to me"
		{`\b(?:unfamiliar|unknown)\s+to\s+me\b`, []string{"familiar", "unknown"}, []string{"unfamiliar", "unknown"}},
		// "doesn't ring any bells", "I'm drawing a blank on X", "not on my radar"
		{`\b(?:ring\s+(?:a|any)\s+bells?|draw(?:ing|n)?\s+a\s+blank|drew\s+a\s+blank|(?:not\s+on|off)\s+my\s+radar)\b`, []string{"bell", "blank", "radar"}, []string{"bell", "blank", "radar"}},
		// "I'm not certain what X refers to", "unsure whether X exists"
		{`\b(?:(?:not|n['’]t)\s+(?:\w+\s+)?(?:sure|certain)|unsure|uncertain)\s+(?:what|who|which|whether|if)\b`, []string{"sure", "certain"}, []string{"sure", "certain"}},
		// "not in a position to evaluate"
		{`\bnot\s+in\s+a\s+position\s+to\b`, []string{"position"}, []string{"not"}},
	}
	rules := make([]unknownRule, len(specs))
	for i, s := range specs {
		// The rules run on an ASCII-lower-cased copy of the sentence (same
		// offsets), which is faster than case-insensitive matching.
		rules[i].re = regexp.MustCompile(s.re)
		for _, k := range s.any {
			rules[i].any |= keywordBit(k)
		}
		for _, k := range s.and {
			rules[i].and |= keywordBit(k)
		}
	}
	return rules
})

type unknownRule struct {
	re       *regexp.Regexp
	any, and uint64 // filter bits: the rule runs when both sets meet the sentence
}

// classify marks link-target domains and "unknown" mentions and computes
// per-mention sentiment, for the accepted candidates.
func (an *analysis) classify() {
	sc := an.sc
	for i := range sc.cands {
		c := &sc.cands[i]
		if c.state != candAccepted {
			continue
		}
		if (c.kind == KindDomain || an.d.pats[c.pat].domain) && (inLinkTarget(an.text, an.sc.sents[c.srec].rawStart, c.start) || citationForm(an.text, c.start, c.end)) {
			c.link = true
			continue
		}
		c.unknown = an.isUnknown(c)
	}
	an.resolveUnknown()
	an.nearestOthers()
	for i := range sc.cands {
		c := &sc.cands[i]
		if c.state != candAccepted || c.link || c.unknown {
			continue
		}
		c.senti = an.sentiment(i)
	}
}

// nearestOthers finds, for every accepted candidate, the nearest accepted
// candidate of another entity in the same sentence before and after it
// (-1 if none), in two linear passes: tracking the last candidate and the
// last one of a different entity than it answers both questions.
func (an *analysis) nearestOthers() {
	sc := an.sc
	n := len(sc.cands)
	sc.prevOther = slices.Grow(sc.prevOther[:0], n)[:n]
	sc.nextOther = slices.Grow(sc.nextOther[:0], n)[:n]
	scan := func(out []int32, order func(k int) int) {
		last, lastOther := int32(-1), int32(-1)
		srec := -1
		for k := 0; k < n; k++ {
			i := order(k)
			c := &sc.cands[i]
			out[i] = -1
			if c.state != candAccepted {
				continue
			}
			if c.srec != srec {
				srec, last, lastOther = c.srec, -1, -1
			}
			switch {
			case last < 0:
			case sc.cands[last].ent != c.ent:
				out[i] = last
				lastOther = last
			default:
				out[i] = lastOther
			}
			last = int32(i)
		}
	}
	scan(sc.prevOther, func(k int) int { return k })
	scan(sc.nextOther, func(k int) int { return n - 1 - k })
}

// inLinkTarget: pos lies inside "](…)" on the same sentence (looking back
// at most maxURLBytes).
func inLinkTarget(text string, lo, pos int) bool {
	lo = max(lo, pos-maxURLBytes)
	for k := pos - 1; k > lo; k-- {
		switch text[k] {
		case ' ', '\t', '\n', ')':
			return false
		case '(':
			return text[k-1] == ']'
		}
	}
	return false
}

const maxURLBytes = 2048

// citationForm: a domain written as a URL ("https://acme.com/x",
// "www.acme.com"), as the text of a link whose anchor is the address
// itself ("[acme.com/docs](https://acme.com/docs)"), or on a sources line
// ("Sources: acme.com, g2.com", "[1]: …") cites the brand without naming
// it in prose.
func citationForm(text string, start, end int) bool {
	ts := start
	for ts > 0 && start-ts < maxURLBytes {
		b := text[ts-1]
		if isSpaceByte(b) || b == '(' || b == '[' || b == '<' || b == '"' || b == '\'' || b == '|' {
			break
		}
		ts--
	}
	tok := text[ts:start]
	if strings.Contains(tok, "://") || hasPrefixFold(tok, "www.") {
		return true
	}
	// A host on the domain ("checkcoverage.apple.com") or the domain with
	// a path ("notion.so/templates") is an address, not the name.
	if len(tok) > 1 && tok[len(tok)-1] == '.' && asciiWord[tok[len(tok)-2]] || end+1 < len(text) && text[end] == '/' && asciiWord[text[end+1]] {
		return true
	}
	if ts > 0 && text[ts-1] == '[' {
		te := end
		for te < len(text) && te-end < maxURLBytes && !isSpaceByte(text[te]) && text[te] != ']' {
			te++
		}
		if te+1 < len(text) && text[te] == ']' && text[te+1] == '(' {
			return true
		}
	}
	lo := max(0, start-maxURLBytes)
	ls := strings.LastIndexByte(text[lo:start], '\n') + 1 + lo
	line := strings.TrimLeft(text[ls:start], " \t>*_-")
	if strings.HasPrefix(line, "[") && len(line) > 2 && (line[1] == '^' || line[1] >= '0' && line[1] <= '9') {
		return true // a footnote: "[1]: …", "[^2] …"
	}
	w, _ := wordAtAny(line, 0)
	if inSet(sourceLabels, w) {
		rest := strings.TrimLeft(line[strings.Index(line, w)+len(w):], " *_")
		return strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, "(")
	}
	return false
}

// genericAspects after a possessive stand for the entity itself.
var genericAspects = set(`features feature pricing prices price product products services service offering
offerings plans capabilities platform app apps tool software reputation reviews details background
history company business plan tier tiers membership memberships subscription subscriptions options`)

// statementObject returns the object of an ignorance statement m that
// ends with, or is followed by, a preposition ("no data about you"), or "".
func statementObject(text string, m [2]int, end int) string {
	pos := m[1]
	if last := lastWord(text[m[0]:m[1]]); !inSet(aboutPreps, last) {
		p, np := wordAt(text, pos, end)
		if !inSet(aboutPreps, p) {
			return ""
		}
		pos = np
	}
	o, _ := wordAt(text, pos, end)
	return o
}

// lastWord returns the last word of s.
func lastWord(s string) string {
	w, _ := wordBefore(s, len(s))
	return w
}

// aboutPreps introduce what an ignorance statement is about; referringWords
// as their object point back to the mention ("X? I have no information
// about it").
var (
	aboutPreps     = set(`about on regarding concerning for of`)
	referringWords = set(`it its this that them they these those the such`)
)

var sourceLabels = set(`sources source references reference citations citation links further reading`)

// unknownReach bounds the gap (bytes) between an unknown-statement and the
// mention it refers to; it also keeps the check local in long sentences.
const unknownReach = 200

// isUnknown: an unknown-statement in the mention's sentence refers to it —
// it lies within unknownReach, no contrast ("but", "however", ";")
// separates them, and the mention is not possessive after the statement
// ("no information about Acme's pricing" is about the pricing, not Acme).
func (an *analysis) isUnknown(c *cand) bool {
	unknown, _ := an.unknownRefs(c)
	return unknown
}

// unknownRefs: unknown as isUnknown; hedged when a statement of ignorance
// reaches the mention but people's reports follow it (reportsFollow), so
// the sentence still speaks of the name as a known thing.
func (an *analysis) unknownRefs(c *cand) (unknown, hedged bool) {
	rec := &an.sc.sents[c.srec]
	if rec.unkTo < 0 {
		an.findUnknown(rec)
	}
	text := an.text
	ms := an.sc.unk[rec.unkFrom:rec.unkTo] // sorted by start
	k, _ := slices.BinarySearchFunc(ms, c.start-unknownReach-maxUnknownMatch, func(m [2]int, p int) int { return m[0] - p })
	for ; k < len(ms) && ms[k][0] <= c.end+unknownReach; k++ {
		m := ms[k]
		var region string
		switch {
		case m[1] <= c.start:
			if c.start-m[1] > unknownReach {
				continue
			}
			// "no information about Acme's roadmap" is about the roadmap;
			// "… about Acme's features" is about Acme.
			if nt := nextToken(text, c.end, rec.end); nt.possessive {
				skip := len("’s")
				if text[c.end] == '\'' {
					skip = len("'s")
				}
				// …unless the query asks about that very thing ("norvia
				// business account": "nothing on Norvia's business accounts").
				if !an.aspectAsked(min(c.end+skip, rec.end), rec.end) {
					continue
				}
			}
			region = text[m[1]:c.start]
		case m[0] >= c.end:
			region = text[c.end:m[0]]
			// "Signal keeps no data about you": the statement has an
			// object of its own, not the mention before it.
			if o := statementObject(text, m, rec.end); o != "" && !inSet(referringWords, o) {
				continue
			}
		default:
			// "As of my latest information, X charged homeowners nothing":
			// the mention is the subject of a verb with an object, and the
			// negation after it is that predicate's, not the knowledge term's
			if w, np := wordAt(text, c.end, rec.end); verbWithObject(text, w, np, rec.end) {
				continue
			}
		}
		if hasContrast(region) {
			continue
		}
		if m[0] >= c.end && reportsFollow(text[m[1]:rec.end]) || m[1] <= c.start && reportsFollow(text[c.end:rec.end]) {
			// "…, but shoppers report …", "no coverage of X, but it's a
			// filing app that …": the hedge limits one claim
			hedged = true
			continue
		}
		return true, false
	}
	return false, hedged
}

// reportsFollow: after a contrast, people report facts ("…, but shoppers
// have been reporting that its refills are scarce", "but users say it
// drains the battery"): the hedge before it ("hasn't announced anything
// that I know of") limits one claim, and the sentence goes on about the
// product, so it is no statement of ignorance about it.
func reportsFollow(rest string) bool {
	people := false
	for pos, n, contrast := 0, 0, false; n < 12; n++ {
		w, np := wordAtAny(rest, pos)
		if w == "" {
			return false
		}
		lw := strings.ToLower(w)
		switch {
		case !contrast:
			contrast = inSet(contrastWords, lw)
			n = 0
		case inSet(reportingPeople, lw):
			people = true
		case people && inSet(reportingVerbs, lw):
			return true
		case itStates(lw, rest[np:]):
			// "…, but from its own site it's a filing app that imports
			// 1099s": the sentence goes on to state what it is or does
			return true
		}
		pos = np
	}
	return false
}

// itStates: w is "it" or "it's" and what follows defines it ("it's a
// filing app", "it is an online bank") or says what it does ("it charges a
// flat fee", "it imports 1099s").
func itStates(w, rest string) bool {
	next, np := wordAtAny(rest, 0)
	next = strings.ToLower(next)
	switch w {
	case "it's", "it’s":
		return inSet(articles, next)
	case "it":
		if next == "is" {
			return inSet(articles, strings.ToLower(peekWordAny(rest, np)))
		}
		return inSet(brandVerbs, next) && next != "feels" && next != "looks" && next != "seems"
	}
	return false
}

var (
	// reportingPeople and reportingVerbs: people who report on a product
	// and their verbs ("shoppers have been reporting", "owners say").
	reportingPeople = set(`shoppers customers users buyers owners reviewers subscribers parents people members
fans clients`)
	reportingVerbs = set(`report reports reporting reported say says saying said complain complains complaining
complained mention mentions mentioned note notes noted describe describes`)
)

// maxUnknownMatch bounds the length of an unknown-statement match that is
// looked back for.
const maxUnknownMatch = 256

func (an *analysis) findUnknown(rec *sentRec) {
	sc := an.sc
	if !rec.analysed {
		an.tokenize(rec)
	}
	rec.unkFrom = len(sc.unk)
	s := an.text[rec.start:rec.end]
	// Every rule needs a negation anchor; tokenize noted whether one occurs.
	if rec.anchor {
		if m := unknownFilter().mask(s); m&anchorMask != 0 {
			low := sc.key[:0]
			for i := 0; i < len(s); i++ {
				c := s[i]
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				low = append(low, c)
			}
			sc.key = low
			rules := unknownRules()
			for i := range rules {
				r := &rules[i]
				if m&r.any == 0 || m&r.and == 0 {
					continue
				}
				for _, loc := range r.re.FindAllIndex(low, -1) {
					if loc[1]-loc[0] <= maxUnknownMatch {
						sc.unk = append(sc.unk, [2]int{rec.start + loc[0], rec.start + loc[1]})
					}
				}
			}
		}
		sc.unk = an.ignoranceSpans(rec.start, rec.end, sc.unk)
		slices.SortFunc(sc.unk[rec.unkFrom:], func(a, b [2]int) int { return a[0] - b[0] })
	}
	rec.unkTo = len(sc.unk)
}

// hasContrast: region holds a clause boundary.
func hasContrast(region string) bool {
	return strings.IndexByte(region, ';') >= 0 || hasWordIn(region, contrastWords)
}

// hasWordIn: a word of the set occurs in t.
func hasWordIn(t string, m map[string]bool) bool {
	for pos := 0; ; {
		w, np := wordAtAny(t, pos)
		if w == "" {
			return false
		}
		if inSet(m, w) {
			return true
		}
		pos = np
	}
}

// wordAtAny returns the next word in s from pos, skipping anything else.
func wordAtAny(s string, pos int) (string, int) {
	// ASCII bytes read through asciiWord (isWordRune's own answer for
	// them), without decoding: the rules walk spans word by word with it.
	for pos < len(s) {
		if c := s[pos]; c < utf8.RuneSelf {
			if asciiWord[c] {
				break
			}
			pos++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[pos:])
		if isWordRune(r) {
			break
		}
		pos += size
	}
	st := pos
	for pos < len(s) {
		if c := s[pos]; c < utf8.RuneSelf {
			if !asciiWord[c] && c != '\'' {
				break
			}
			pos++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[pos:])
		if !isWordRune(r) {
			break
		}
		pos += size
	}
	return s[st:pos], pos
}

// asciiWord marks ASCII letters and digits.
var asciiWord = func() (t [256]bool) {
	for c := 0; c < utf8.RuneSelf; c++ {
		t[c] = isWordRune(rune(c))
	}
	return t
}()

// stepWord steps over what starts at pos: a word (isWord, end is the word's
// end) or one character that is not part of one. The word-by-word scans of a
// sentence (ignorance, sentiment) walk with it.
func stepWord(text string, pos, e int) (end int, isWord bool) {
	if c := text[pos]; c < utf8.RuneSelf {
		if !asciiWord[c] {
			return pos + 1, false
		}
		return wordEnd(text, pos+1, e), true
	}
	r, size := utf8.DecodeRuneInString(text[pos:e])
	if !isWordRune(r) {
		return pos + size, false
	}
	return wordEnd(text, pos+size, e), true
}

// clausesOf returns candidate i's sentence, tokenized, and its clauses.
func (an *analysis) clausesOf(i int) (*sentRec, []clause) {
	sc := an.sc
	rec := &sc.sents[sc.cands[i].srec]
	if !rec.analysed {
		an.tokenize(rec)
	}
	return rec, sc.clauses[rec.clauseFrom:rec.clauseTo]
}

// wordEnd extends a word from pos: letters and digits (not of scripts
// without spaces), and apostrophes or hyphens between them ("isn't",
// "user-friendly").
func wordEnd(text string, pos, end int) int {
	for pos < end {
		c := text[pos]
		if c < utf8.RuneSelf {
			if asciiWord[c] {
				pos++
				continue
			}
			if (c == '\'' || c == '-') && pos+1 < end && isInnerWordStart(text, pos+1, end) {
				pos++
				continue
			}
			return pos
		}
		r, size := utf8.DecodeRuneInString(text[pos:end])
		if isWordRune(r) && !noSpaceScript(r) {
			pos += size
			continue
		}
		if r == '’' && pos+size < end && isInnerWordStart(text, pos+size, end) {
			pos += size
			continue
		}
		return pos
	}
	return pos
}

func isInnerWordStart(text string, pos, end int) bool {
	if c := text[pos]; c < utf8.RuneSelf {
		return asciiWord[c]
	}
	r, _ := utf8.DecodeRuneInString(text[pos:end])
	return isWordRune(r) && !noSpaceScript(r)
}

// clause is a stretch of a sentence between clause boundaries (contrast
// words and semicolons), with cumulative counts of the polar words up to
// its end, leaving out words inside accepted mentions ("Best Buy").
type clause struct {
	start          int32 // bytes; Detect limits texts to math.MaxInt32 bytes
	cumPos, cumNeg int32
}

// tokenize reads the sentence's words once: it counts them, notes
// negation anchors for the unknown-statement rules, splits clauses and
// counts polar words with negation resolved — a negator flips the next
// sentiment word within negationWindow words, unless a comma or a clause
// boundary comes first; "not only" is not a negation.
func (an *analysis) tokenize(rec *sentRec) {
	sc, text := an.sc, an.text
	rec.analysed = true
	rec.clauseFrom = len(sc.clauses)
	sc.clauses = append(sc.clauses, clause{start: int32(rec.start)})
	var cp, cn int32
	neg := 0
	pendingNeg := false
	j := rec.candFrom
	lookup := an.lookupFunc()
	word := func(st, en int) {
		rec.words++
		w := text[st:en]
		f := lookup(w)
		if pendingNeg {
			pendingNeg = false
			neg = negationWindow
			if f == 0 && strings.EqualFold(w, "only") {
				neg = 0
			}
		}
		if f&(lexNegator|lexAnchor) != 0 {
			rec.anchor = true
		}
		switch {
		case f&lexContrast != 0:
			sc.clauses[len(sc.clauses)-1].cumPos, sc.clauses[len(sc.clauses)-1].cumNeg = cp, cn
			sc.clauses = append(sc.clauses, clause{start: int32(en)})
			neg = 0
			return
		case f&lexNegator != 0:
			pendingNeg = true
			return
		}
		var pol int32
		if f&lexPositive != 0 {
			pol = 1
		} else if f&lexNegative != 0 {
			pol = -1
		}
		if pol != 0 && neg > 0 {
			pol, neg = -pol, 0
		} else if neg > 0 {
			neg--
		}
		if pol == 0 {
			return
		}
		for j < rec.candTo && sc.cands[j].end <= st {
			j++
		}
		for k := j; k < rec.candTo && sc.cands[k].start < en; k++ {
			if sc.cands[k].state == candAccepted {
				return // part of a mention
			}
		}
		if pol > 0 {
			cp++
		} else {
			cn++
		}
	}
	for pos, end := rec.start, rec.end; pos < end; {
		c := text[pos]
		if c < utf8.RuneSelf {
			switch {
			case asciiWord[c]:
				st := pos
				pos = wordEnd(text, pos+1, end)
				word(st, pos)
			case c == ';':
				sc.clauses[len(sc.clauses)-1].cumPos, sc.clauses[len(sc.clauses)-1].cumNeg = cp, cn
				sc.clauses = append(sc.clauses, clause{start: int32(pos + 1)})
				neg, pendingNeg = 0, false
				pos++
			case c == ',':
				neg, pendingNeg = 0, false
				pos++
			default:
				pos++
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(text[pos:])
		switch {
		case noSpaceScript(r):
			word(pos, pos+size) // a rune of a script without spaces counts as a word
			pos += size
		case isWordRune(r):
			st := pos
			pos = wordEnd(text, pos+size, end)
			word(st, pos)
		default:
			pos += size
		}
	}
	sc.clauses[len(sc.clauses)-1].cumPos, sc.clauses[len(sc.clauses)-1].cumNeg = cp, cn
	rec.clauseTo = len(sc.clauses)
}

// lexLookup returns the lexicon flags of a word, case-insensitively; words
// ending in "n't" (or "n’t") are negators. After a cheap pre-filter it
// lower-cases and hashes in one pass and probes an open-addressing table
// (lexTable), which is faster than a map lookup.
func lexLookup(w string) uint8 {
	n := len(w)
	if n > 3 && (w[n-3:] == "n't" || strings.HasSuffix(w, "n’t")) {
		return lexNegator
	}
	// Pre-filter (wordset.go) before hashing; lexicon words are ASCII
	// without apostrophes other than in "n't".
	if n == 0 || n >= lexMaxLen || !lexWordFilter.mayHave(w) {
		return 0
	}
	var buf [lexMaxLen]byte
	h := uint32(2166136261)
	for i := 0; i < n; i++ {
		c := w[i]
		if c >= utf8.RuneSelf {
			return 0
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
		h = (h ^ uint32(c)) * 16777619
	}
	for k := h & lexMask; ; k = (k + 1) & lexMask {
		e := &lexTable[k]
		if e.word == "" {
			return 0
		}
		if e.word == string(buf[:n]) {
			return e.flags
		}
	}
}

const (
	lexMaxLen = 24
	lexMask   = 1<<12 - 1
)

type lexEntry struct {
	word  string
	flags uint8
}

// lexTable holds the lexicon (FNV-1a hash, linear probing, load < 0.25).
var lexTable = func() (t [lexMask + 1]lexEntry) {
	for w, f := range lexicon {
		h := uint32(2166136261)
		for i := 0; i < len(w); i++ {
			h = (h ^ uint32(w[i])) * 16777619
		}
		k := h & lexMask
		for t[k].word != "" {
			k = (k + 1) & lexMask
		}
		t[k] = lexEntry{w, f}
	}
	return t
}()

// lexWordFilter is lexLookup's pre-filter: most words are in no lexicon.
var lexWordFilter = newWordFilter(lexicon)

func lexLetter(c byte) uint {
	c |= 0x20
	switch {
	case 'a' <= c && c <= 'z':
		return uint(c - 'a')
	case c == '\'':
		return 26
	}
	return 27
}

// sentiment of candidate i: the polarity words of the clauses around its
// mention, where the scope stops at clauses that mention another entity
// ("Acme is great but Beta is slow" is positive for Acme and negative for
// Beta; "Acme is powerful, but expensive" is mixed). The nearest other-
// entity mentions (prevOther/nextOther) bound the scope and cumulative
// counts give its polarity, so the cost per mention is logarithmic.
func (an *analysis) sentiment(i int) Sentiment {
	sc := an.sc
	rec := &sc.sents[sc.cands[i].srec]
	lo, hi, ok := an.scope(i)
	if !ok {
		return Neutral
	}
	clauses := sc.clauses[rec.clauseFrom:rec.clauseTo]
	pos, neg := clauses[hi].cumPos, clauses[hi].cumNeg
	if lo > 0 {
		pos -= clauses[lo-1].cumPos
		neg -= clauses[lo-1].cumNeg
	}
	return polarity(int(pos), int(neg))
}

// scope returns the clauses (indices into the sentence's clauses) that
// govern candidate i: its own and its neighbours up to the clauses of the
// nearest other-entity mentions; ok=false when another entity shares its
// clause on both sides.
func (an *analysis) scope(i int) (lo, hi int, ok bool) {
	sc := an.sc
	c := &sc.cands[i]
	_, clauses := an.clausesOf(i)
	clauseOf := func(pos int) int {
		k, found := slices.BinarySearchFunc(clauses, pos, func(cl clause, p int) int { return int(cl.start) - p })
		if !found {
			k--
		}
		return max(k, 0)
	}
	own := clauseOf(c.start)
	lo, hi = 0, len(clauses)-1
	if p := sc.prevOther[i]; p >= 0 {
		if k := clauseOf(sc.cands[p].start); k == own {
			lo, hi = own, own
		} else {
			lo = k + 1
		}
	}
	if n := sc.nextOther[i]; n >= 0 && lo != hi {
		if k := clauseOf(sc.cands[n].start); k == own {
			lo, hi = own, own
		} else {
			hi = k - 1
		}
	}
	return lo, hi, hi >= lo
}

func polarity(pos, neg int) Sentiment {
	switch {
	case pos > 0 && neg > 0:
		return Mixed
	case pos > 0:
		return Positive
	case neg > 0:
		return Negative
	}
	return Neutral
}

// aspectAsked: the noun phrase at pos (up to three words: "card cashback
// rate") is a generic aspect ("features") or shares a word with the
// query ("mercury cashback rate"), so an ignorance statement about it is
// about the entity.
func (an *analysis) aspectAsked(pos, end int) bool {
	q := ""
	year := false
	for k := 0; k < 3; k++ {
		w, np := wordAt(an.text, pos, end)
		if startsWithDigit(w) && !year && k == 0 {
			// "X's 2026 flavours": a year or a number qualifies the
			// phrase; the noun after it says what is asked
			year, k = true, -1
			pos = np
			continue
		}
		if w == "" || startsWithDigit(w) || inSet(aboutPreps, w) || inSet(articles, w) {
			return false
		}
		if inSet(genericAspects, w) || inSet(lineupAspects, w) {
			return true
		}
		if q == "" {
			q = an.queryFolded
		}
		// the aspect as asked, or its plural or singular ("X's users" for
		// "x user count")
		if fw := foldString(w); containsWord(q, fw) || strings.HasSuffix(fw, "s") && len(fw) > 3 && containsWord(q, fw[:len(fw)-1]) ||
			inflectedIn(q, fw, 0, "s") || strings.IndexByte(w, '-') > 0 && hyphenPartAsked(q, w) {
			return true
		}
		if np < len(an.text) && an.text[np] != ' ' {
			return false // the phrase ends at punctuation
		}
		pos = np
	}
	return false
}

// hyphenPartAsked: a part of the hyphenated word w ("per-stream",
// "limited-edition"), other than a function word, occurs in the folded
// query q ("payout per stream").
func hyphenPartAsked(q, w string) bool {
	for rest, more := w, true; more; {
		var part string
		part, rest, more = strings.Cut(rest, "-")
		if len(part) >= 3 && !inSet(functionWords, part) && containsWord(q, foldString(part)) {
			return true
		}
	}
	return false
}
