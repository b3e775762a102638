package detect

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Candidate states.
const (
	candPending uint8 = iota
	candAccepted
	candRejected
)

// Per-mention confidence by how the mention was found.
const (
	confName   = 0.95 // the entity's name, not a common word
	confAlias  = 0.85 // an alias, not a common word
	confDomain = 0.75 // a domain in the text
)

// cand is one entity's claim on a selected match.
type cand struct {
	ent          int32
	pat          int32
	kind         MatchKind
	start, end   int // bytes
	rstart, rend int // code points
	srec         int // index into scratch.sents
	state        uint8
	guarded      bool
	unknown      bool
	link         bool
	head         int8 // list-item head: 0 unknown, 1 yes, 2 no
	lineStart    int
	block        int32 // list block of a head, -1 otherwise
	strength     float64
	senti        Sentiment
	// Ordinary-word evidence (evidence.go): local is the score from the
	// candidate's own sentence and the query, score the last total.
	local, score float64
	scored       bool // local is computed
	verbUse      bool // used as a verb, a compound part or a menu item: context cannot rescue it
	otherSense   bool // plainly another sense of the word (a menu step, a natural kind)
	cued         bool // a product cue, domain suffix, definition, link anchor or cited domain of its own
	sensed       bool // penalised for another occurrence's other sense
	nounSense    bool // a lower-case common noun after a determiner ("no notion")
	phrase       bool // inside a phrase of the query's that holds the word ("the dawn chorus", "Magna Carta")
	hedge        bool // the sentence does not assert anything about the entity (ignorance.go)
	adjudicated  bool // the decision came from the Adjudicator
}

// sentRec is a sentence that holds at least one candidate.
type sentRec struct {
	rawStart   int  // where the scanner's sentence begins (after the break)
	start, end int  // trimmed bytes of the sentence
	idx        int  // sentence index
	analysed   bool // tokenize has run
	candFrom   int  // candidates of this sentence: cands[candFrom:candTo]
	candTo     int
	unkFrom    int
	unkTo      int // -1 until checked
	words      int
	attrs      int8   // product attributes + 1; 0 until counted
	ofKind     int8   // counts something among a natural kind: 0 until read, 1 yes, 2 no
	surname    int8   // speaks of surnames: 0 until read, 1 yes, 2 no
	anchor     bool   // a negation anchor occurs (set by tokenize)
	acc        entSet // entities with accepted mentions here
	accComp    entSet // competitors with accepted mentions here
	clauseFrom int    // clauses: scratch.clauses[clauseFrom:clauseTo]
	clauseTo   int
}

type analysis struct {
	d    *Detector
	text string
	sc   *scratch

	cited      []bool // per entity: a citation URL is on one of its domains
	domainSeen []bool // per entity: cited, or a domain appears in the text
	citations  []Citation

	query       string
	queryFolded string // the query case-folded once, by prepareQuery
	queryTopic  bool   // the query asks about products or names a tracked entity
	// queryProduct: the query asks about products ("best", "app", "vs", a
	// product category) or names two tracked entities
	queryProduct bool
	queryNamed   int // tracked entities the query names
	// queryNatural: the query asks about a natural kind or a sign ("how
	// many moons does saturn have", "saturn return astrology")
	queryNatural bool
	// queryNaturalOnly: the query asks about a natural kind and names no
	// product's word beyond an evaluation ("is mercury in tuna safe")
	queryNaturalOnly bool
	queryNames       []bool // per entity: the query names it
	// queryWord: per entity, the query uses its name as a word ("how to
	// paddle", "mint condition meaning", "visit patagonia")
	queryWord []bool
	// phraseAsked: the query holds the brand's word in a phrase the answer
	// repeats ("the dawn chorus"; queryPhrases)
	phraseAsked bool
	entAcc      []bool // per entity: a mention is accepted
	// textAttributes: distinct product attributes in the answer (capped),
	// -1 until counted
	textAttributes int
	// named / namedComp: the entities (competitors) named by a form that
	// is no ordinary word, or cited; computed once when needed
	named, namedComp entSet
	namedReady       bool
	lang             int8           // langUnknown until nonEnglish guesses it
	prefixed         map[int32]bool // per pattern: prefixedForm, once asked
	sent             sentScore      // the brand's praise and criticism, for adjudication
}

func (an *analysis) checkCitations(cs []Citation) {
	n := len(an.d.ents)
	sc := an.sc
	sc.bools = slices.Grow(sc.bools[:0], 5*n)[:5*n]
	clear(sc.bools)
	an.cited, an.domainSeen = sc.bools[:n], sc.bools[n:2*n]
	an.queryNames, an.entAcc = sc.bools[2*n:3*n], sc.bools[3*n:4*n]
	an.queryWord = sc.bools[4*n:]
	an.citations = cs
	sc.citedBy = sc.citedBy[:0]
	for ci, c := range cs {
		host := hostOf(c.URL)
		if host == "" {
			continue
		}
		for ei := range an.d.ents {
			for _, dom := range an.d.ents[ei].domains {
				if hostMatches(host, dom) {
					an.cited[ei] = true
					an.domainSeen[ei] = true
					sc.citedBy = append(sc.citedBy, [2]int32{int32(ei), int32(ci)})
					break
				}
			}
		}
	}
}

// citedURLs writes the URLs of the citations on entity ei's domains to
// dst, in citation order, and returns how many (0 when it is not cited).
func (an *analysis) citedURLs(ei int, dst []string) int {
	if !an.cited[ei] {
		return 0
	}
	n := 0
	for _, p := range an.sc.citedBy {
		if int(p[0]) == ei {
			dst[n] = an.citations[p[1]].URL
			n++
		}
	}
	return n
}

// buildCands expands the selected hits into one candidate per owning
// entity, with code-point spans and sentence records.
func (an *analysis) buildCands() {
	sc, text := an.sc, an.text
	ei := 0        // cursor in sc.ends
	ws, we := 0, 0 // cursors in sc.wide for the starts and the ends
	runeAt := func(b int, k *int) int {
		for *k < len(sc.wide) && int(sc.wide[*k][0]) <= b {
			*k++
		}
		if *k == 0 {
			return b
		}
		return b - int(sc.wide[*k-1][1])
	}
	// Names the answer itself writes in lower case, as a word ("devenir
	// boulanger", "una persona idealista", "„flink“"): in this answer the
	// name is a word of its language even when the English word list lacks
	// it, so every occurrence needs the evidence an ordinary word does —
	// "CAP Boulanger", "Idealista no es lo mismo" included.
	var lowerBuf [4]int32
	lowerPats := lowerBuf[:0]
	for _, h := range sc.hits {
		p := &an.d.pats[h.pat]
		if p.common || p.domain || slices.Contains(lowerPats, h.pat) {
			continue
		}
		for _, o := range p.owners {
			if o.kind == KindName && (lowerForm(text[h.start:h.end], an.d.ents[o.ent].name) ||
				loweredName(text[h.start:h.end], an.d.ents[o.ent].forms)) {
				lowerPats = append(lowerPats, h.pat)
				break
			}
		}
	}
	for _, h := range sc.hits {
		if h.sentStart > h.start {
			continue // "Cafe\nZoe": a name broken by a sentence end is no mention
		}
		rs, re := runeAt(h.start, &ws), runeAt(h.end, &we)
		if len(sc.sents) == 0 || sc.sents[len(sc.sents)-1].rawStart != h.sentStart {
			st := h.sentStart
			for st < h.start && isSpaceByte(text[st]) {
				st++
			}
			for ei < len(sc.ends) && sc.ends[ei][0] < h.sentStart {
				ei++
			}
			en := len(text) // the last sentence may have no terminator
			if ei < len(sc.ends) && sc.ends[ei][0] == h.sentStart {
				en = sc.ends[ei][1]
			}
			for en > h.end && isSpaceByte(text[en-1]) {
				en--
			}
			sc.sents = append(sc.sents, sentRec{rawStart: h.sentStart, start: st, end: en, idx: h.sent, unkTo: -1,
				candFrom: len(sc.cands), candTo: len(sc.cands), acc: entSet{first: -1}, accComp: entSet{first: -1}})
		}
		p := &an.d.pats[h.pat]
		rec := &sc.sents[len(sc.sents)-1]
		inHost := !p.domain && inHostname(text, h.start, h.end)
		if !p.domain && inURLPath(text, rec.rawStart, h.start) {
			continue // "https://g2.com/products/acme": part of a link, not prose
		}
		for _, o := range p.owners {
			if inHost && len(an.d.ents[o.ent].domains) > 0 {
				// "my-acme.com", "acme.com.evil.net": the name is a label of
				// some other host; the entity's own domains match as domains.
				continue
			}
			c := cand{ent: o.ent, pat: h.pat, kind: o.kind, start: h.start, end: h.end,
				rstart: rs, rend: re, srec: len(sc.sents) - 1}
			switch {
			case p.common:
				c.guarded = true
			case o.kind == KindName && slices.Contains(lowerPats, h.pat):
				// "get into the right headspace": a capitalised name
				// written in lower case is likely the word, even one the
				// word list lacks; it needs the evidence ordinary words do,
				// and so do its capitalised occurrences in the same answer
				c.guarded = true
			case o.kind == KindName:
				c.state, c.strength = candAccepted, confName
			case o.kind == KindAlias:
				c.state, c.strength = candAccepted, confAlias
			default:
				c.state, c.strength = candAccepted, confDomain
			}
			if p.domain {
				an.domainSeen[o.ent] = true
			}
			sc.cands = append(sc.cands, c)
		}
		rec.candTo = len(sc.cands)
	}
}

// inURLPath reports whether pos lies in the path of a URL: the token
// around it (no spaces, brackets or quotes) has "://" before pos and a "/"
// after the scheme's host, or starts with a host ("atlassian.com/software/
// confluence", as a link's anchor writes it) followed by a "/" before pos.
// Looks back at most maxURLBytes.
func inURLPath(text string, lo, pos int) bool {
	lo = max(lo, pos-maxURLBytes)
	slash := -1 // the first "/" of the token seen so far (scanning back)
	k := pos - 1
	for ; k >= lo; k-- {
		c := text[k]
		if c == ' ' || c == '\t' || c == '\n' || c == '(' || c == '<' || c == '[' || c == '"' || c == '\'' {
			break
		}
		if c == '/' {
			if k > 1 && text[k-1] == '/' && text[k-2] == ':' {
				return slash >= 0
			}
			slash = k
		}
	}
	if slash < 0 {
		return false
	}
	// No scheme: the token up to its first "/" must be a host name.
	host := text[k+1 : slash]
	dot := strings.LastIndexByte(host, '.')
	if dot <= 0 || dot == len(host)-1 {
		return false
	}
	for i := 0; i < len(host); i++ {
		if c := host[i]; !(c == '.' || c == '-' || c < utf8.RuneSelf && isWordRune(rune(c))) {
			return false
		}
	}
	for i := dot + 1; i < len(host); i++ {
		if c := host[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// inHostname reports whether [s,e) is part of, but not all of, a
// host-like token: a run of ASCII letters, digits, dots and hyphens that
// holds a dot between a letter or digit and a letter.
func inHostname(text string, s, e int) bool {
	hostByte := func(c byte) bool {
		return c == '.' || c == '-' || c < utf8.RuneSelf && isWordRune(rune(c))
	}
	l, r := s, e
	for l > 0 && s-l < 64 && hostByte(text[l-1]) {
		l--
	}
	for r < len(text) && r-e < 64 && hostByte(text[r]) {
		r++
	}
	for l < s && (text[l] == '.' || text[l] == '-') {
		l++
	}
	for r > e && (text[r-1] == '.' || text[r-1] == '-') {
		r--
	}
	if l == s && r == e {
		return false
	}
	for k := l + 1; k+1 < r; k++ {
		if text[k] == '.' && isWordRune(rune(text[k-1])) && text[k+1] < utf8.RuneSelf && unicode.IsLetter(rune(text[k+1])) {
			return true
		}
	}
	return false
}

// entSet summarises which entities have accepted mentions in a sentence
// or a list block: the first one, and whether there is more than one.
type entSet struct {
	first int32 // -1 when empty
	multi bool
}

func (s *entSet) add(ent int32) {
	switch {
	case s.first < 0:
		s.first = ent
	case s.first != ent:
		s.multi = true
	}
}

// hasOther: an entity other than ent is in the set.
func (s *entSet) hasOther(ent int32) bool {
	return s.multi || s.first >= 0 && s.first != ent
}

// accept marks c accepted and records it in its sentence's and list
// block's summaries.
func (an *analysis) accept(c *cand, strength float64) {
	c.state, c.strength = candAccepted, strength
	an.sc.sents[c.srec].acc.add(c.ent)
	if c.ent != 0 {
		an.sc.sents[c.srec].accComp.add(c.ent)
	}
	an.entAcc[c.ent] = true
	if c.block >= 0 {
		an.sc.blocks[c.block].add(c.ent)
	}
}

// assignBlocks numbers the list blocks of the candidates that head list
// items; consecutive heads share a block when only list lines, blank lines
// or indented lines lie between them.
func (an *analysis) assignBlocks() {
	sc := an.sc
	sc.blocks = sc.blocks[:0]
	prev := -1
	for i := range sc.cands {
		c := &sc.cands[i]
		c.block = -1
		if !an.isHead(c) {
			continue
		}
		if prev >= 0 && (sc.cands[prev].lineStart == c.lineStart || sameListBlock(an.text, sc.cands[prev].lineStart, c.lineStart)) {
			c.block = sc.cands[prev].block
		} else {
			c.block = int32(len(sc.blocks))
			sc.blocks = append(sc.blocks, entSet{first: -1})
		}
		prev = i
	}
}

// listWindow bounds the distance (bytes) between list heads compared.
const listWindow = 16 << 10

func isEnumSep(r rune) bool { return r == ',' || r == ';' || r == '/' || r == '&' }

// isHead reports (and caches) whether c heads a list item.
func (an *analysis) isHead(c *cand) bool {
	if c.head == 0 {
		c.head = 2
		rec := &an.sc.sents[c.srec]
		if ls, ok := itemHead(an.text, rec.rawStart, c.start); ok {
			c.head, c.lineStart = 1, ls
		}
	}
	return c.head == 1
}

// Definition kinds (definitional).
const (
	defNone        = iota
	defProduct     // "Box is a cloud storage platform"
	defNaturalKind // "Mercury is the smallest planet", "**Amazon** – the largest river"
	defChoice      // "X is the better pick": an evaluation any thing takes, a product's only when the query asks about one
)

// definitional: the sentence defines X within a few words — "X is a cloud
// storage platform", "X is by far the fastest issue tracker", "X is one of
// the most popular banks", "**X** – the largest river" — as a product
// (defProduct) or as a natural kind (defNaturalKind).
func (an *analysis) definitional(c *cand) int {
	text := an.text
	end := an.sc.sents[c.srec].end
	pos := c.end
	dash := false
	for pos < end && (text[pos] == '*' || text[pos] == '_' || text[pos] == ' ') {
		pos++
	}
	if pos < end && text[pos] == '(' {
		// "Gemini (May 21 – June 20) is an air sign": a parenthesis
		// between the name and its copula
		if k := strings.IndexByte(text[pos:end], ')'); k > 0 {
			pos += k + 1
			for pos < end && text[pos] == ' ' {
				pos++
			}
		}
	}
	if r := firstRune(text[pos:end]); r == '–' || r == '—' || r == '-' || r == ':' {
		dash = true // "**Amazon** – the largest river": a list item's definition
		pos += utf8.RuneLen(r)
	}
	apposed := !dash && pos < end && text[pos] == ',' // "the Côte d'Or, the narrow escarpment" (nameform.go)
	if apposed {
		dash, pos = true, pos+1
	}
	w, np := wordAt(text, pos, end)
	if !dash {
		if !inSet(copulas, w) {
			return defNone
		}
		w, np = wordAt(text, np, end)
	}
	// a possessive stands for the article: "X is one of Ecuador's
	// highest volcanoes", "X is Peru's largest bank"
	possessed := false
	det := func() bool {
		if possessed || inSet(articles, w) {
			return true
		}
		if e := possessiveEnd(text, np, end); e > 0 && w != "" && w != "one" {
			np, possessed = e, true
		}
		return possessed
	}
	for k := 0; k < 3 && !det(); k++ {
		if !inSet(definitionAdverbs, w) {
			return defNone
		}
		w, np = wordAt(text, np, end)
	}
	if !det() {
		return defNone
	}
	ranked, phrase := false, np
	for k := 0; k < 6; k++ {
		w, np = wordAt(text, np, end)
		switch {
		case w == "":
			k = 6
		case inSetStem(pickNouns, w) && !apposed:
			return defChoice
		case apposed && (inSetStem(definitionCues, w) || inSetStem(categoryNouns, w) || inSetStem(pickNouns, w)):
			return defNone // an apposition reads only a natural kind
		case inSetStem(definitionCues, w) || inSetStem(categoryNouns, w):
			return defProduct
		case inSetStem(naturalNouns, w) || w == "sign" || kindHead(text, text[phrase:np], w, np, end):
			return defNaturalKind // "Gemini is an air sign"
		case inSet(wordNouns, w):
			return defNaturalKind // "Thrive is a strong word": the word itself
		case inSet(rankedWords, strings.ToLower(w)):
			ranked = true
		}
	}
	if ranked && !apposed {
		// "Tide remains the top-rated detergent": ranked among its
		// kind by buyers or testers, a product
		return defProduct
	}
	return defNone
}

// possessiveEnd: a possessive "'s" or "’s" ends the word that ends at
// pos; the position after it, or 0.
func possessiveEnd(text string, pos, end int) int {
	for _, p := range [...]string{"'s ", "’s "} {
		if pos+len(p) <= end && text[pos:pos+len(p)] == p {
			return pos + len(p) - 1
		}
	}
	return 0
}

// wordNouns define a name as a word of the language ("X is a strong
// word", "X is the verb here"): the word itself is meant.
var wordNouns = set(`word words term verb noun adjective adverb phrase expression idiom synonym`)

// rankedWords rank a thing among products by buyers, testers or the
// market (not physical superlatives: "the smallest planet").
var rankedWords = set(`top-rated best-rated highest-rated best-selling top-selling best-reviewed most-used
market-leading best-known most-popular top-rated bestselling`)

var (
	copulas  = set(`is was remains`)
	articles = set(`a an the`)
	// definitionAdverbs may stand between the copula and the article:
	// "is by far the", "is arguably the", "is one of the", "is still a".
	definitionAdverbs = set(`by far arguably probably likely easily simply perhaps still also now currently one of
generally widely often usually really clearly undoubtedly possibly essentially basically mainly primarily`)
)

// wordAt skips non-word runes from pos and returns the next word (letters,
// digits, inner hyphens) and the position after it; "" at hi.
func wordAt(text string, pos, hi int) (string, int) {
	for pos < hi {
		r, size := utf8.DecodeRuneInString(text[pos:])
		if isWordRune(r) {
			break
		}
		if r == '.' || r == ',' || r == ';' || r == ':' || r == '(' {
			return "", hi
		}
		pos += size
	}
	st := pos
	for pos < hi && pos-st < maxTokenBytes {
		r, size := utf8.DecodeRuneInString(text[pos:])
		if !isWordRune(r) && !(r == '-' && pos+size < hi && isWordRune(firstRune(text[pos+size:]))) {
			break
		}
		pos += size
	}
	return text[st:pos], pos
}

// maxTokenBytes bounds the neighbouring words read around a match, so a
// long unbroken run (text without spaces) costs constant time per match.
const maxTokenBytes = 64

// tok is a neighbouring token: a word, or a separator character.
type tok struct {
	word       string
	sep        rune
	possessive bool
	after      string // for a separator after the match: the word following it
}

func isOpener(r rune) bool {
	switch r {
	case '*', '_', '`', '"', '“', '‘', '\'', '(', '[', '#', '>', '~':
		return true
	}
	return false
}

func isCloser(r rune) bool {
	switch r {
	case '*', '_', '`', '"', '”', '’', '\'', ')', ']', '~':
		return true
	}
	return false
}

// prevToken returns the token before pos, not crossing lo.
func prevToken(text string, lo, pos int) tok {
	if pos-lo > 4*maxTokenBytes {
		lo = pos - 4*maxTokenBytes
	}
	for pos > lo {
		r, size := utf8.DecodeLastRuneInString(text[lo:pos])
		if r == ' ' || r == '\t' || isOpener(r) {
			pos -= size
			continue
		}
		if isWordRune(r) {
			end := pos
			for pos > lo && end-pos < maxTokenBytes {
				r, size := utf8.DecodeLastRuneInString(text[lo:pos])
				if !isWordRune(r) && r != '.' && r != '-' {
					break
				}
				pos -= size
			}
			return tok{word: text[pos:end]}
		}
		return tok{sep: r}
	}
	return tok{}
}

// nextToken returns the token after pos (skipping a possessive "'s" and
// markdown closers), not crossing hi.
func nextToken(text string, pos, hi int) tok {
	if hi-pos > 4*maxTokenBytes {
		hi = pos + 4*maxTokenBytes
	}
	var t tok
	if pos < hi {
		rest := text[pos:hi]
		switch {
		case hasPrefixFold(rest, "'s") || hasPrefixFold(rest, "’s"):
			t.possessive = true
			if rest[0] == '\'' {
				pos += 2
			} else {
				pos += len("’s")
			}
		case (rest[0] == '\'' || hasPrefixFold(rest, "’")) && len(rest) > 1:
			after := firstRune(rest[1:])
			if rest[0] != '\'' {
				after = firstRune(rest[len("’"):])
			}
			if !isWordRune(after) {
				t.possessive = true // "Adidas' shoes"
			}
		}
	}
	for pos < hi {
		r, size := utf8.DecodeRuneInString(text[pos:hi])
		if r == ' ' || r == '\t' || isCloser(r) {
			pos += size
			continue
		}
		if isWordRune(r) {
			st := pos
			for pos < hi && pos-st < maxTokenBytes {
				r, size := utf8.DecodeRuneInString(text[pos:hi])
				if !isWordRune(r) && !((r == '.' || r == '-') && pos+size < hi && isWordRune(firstRune(text[pos+size:hi]))) {
					break
				}
				pos += size
			}
			if pos < hi && text[pos] == '.' {
				// "Inc." keeps its dot for the cue lookup
				if w := text[st : pos+1]; inSet(productCues, w) {
					t.word = w
					return t
				}
			}
			t.word = text[st:pos]
			return t
		}
		t.sep = r
		if isEnumSep(r) {
			w, _ := wordAt(text, pos+size, hi)
			t.after = w
		}
		return t
	}
	return t
}

func hasPrefixFold(s, p string) bool {
	if len(s) < len(p) {
		return false
	}
	for i := 0; i < len(p); i++ {
		a, b := s[i], p[i]
		if 'A' <= a && a <= 'Z' {
			a += 'a' - 'A'
		}
		if a != b {
			return false
		}
	}
	return true
}

// inSet looks w up case-insensitively (ASCII) without allocating; the
// filter of a set built by set() turns most absent words away before the
// map is hashed (wordset.go).
func inSet(m map[string]bool, w string) bool {
	var buf [40]byte
	if w == "" || len(w) > len(buf) {
		return false
	}
	if filterRejects(m, w) {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	return m[string(buf[:len(w)])]
}

func startsWithDigit(w string) bool { return w != "" && w[0] >= '0' && w[0] <= '9' }

// tldFollows: the match is immediately followed by ".com", ".io", … — the
// name is written as a domain ("Monday.com").
func tldFollows(text string, end int) bool {
	if end >= len(text) || text[end] != '.' {
		return false
	}
	k := end + 1
	for k < len(text) && k-end-1 < 12 && 'a' <= text[k]|0x20 && text[k]|0x20 <= 'z' {
		k++
	}
	n := k - end - 1
	if n < 2 || n > 10 {
		return false
	}
	return k == len(text) || !isWordRune(firstRune(text[k:]))
}

// isLinkAnchor: the match is the text of a markdown link, "[Notion](…)".
func isLinkAnchor(text string, start, end int) bool {
	s := start
	for s > 0 && (text[s-1] == '*' || text[s-1] == '_') {
		s--
	}
	if s == 0 || text[s-1] != '[' {
		return false
	}
	e := end
	for e < len(text) && (text[e] == '*' || text[e] == '_') {
		e++
	}
	return e+1 < len(text) && text[e] == ']' && text[e+1] == '('
}

// atSentenceStart: only whitespace, markdown openers or a list marker stand
// between the sentence start and pos, or the previous character is a colon.
func atSentenceStart(text string, sentStart, pos int) bool {
	p := text[sentStart:pos]
	for p != "" {
		r, size := utf8.DecodeLastRuneInString(p)
		if r == ' ' || r == '\t' || r == '\n' || isOpener(r) {
			p = p[:len(p)-size]
			continue
		}
		if r == ':' {
			return true
		}
		break
	}
	if p == "" {
		return true
	}
	// A list marker, possibly after the blank lines that close the
	// previous sentence, and openers: "\n\n- **Acme".
	q := strings.TrimLeft(text[sentStart:pos], " \t\r\n")
	if m := listMarkerLen(q); m > 0 {
		for _, r := range q[m:] {
			if r != ' ' && r != '\t' && !isOpener(r) {
				return false
			}
		}
		return true
	}
	return false
}

func trimLeftSpace(s string) string {
	for s != "" && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	return s
}

// listMarkerLen returns the length of a list marker ("- ", "* ", "• ",
// "12. ", "3) ") at the start of s, including the space; 0 if none.
func listMarkerLen(s string) int {
	if len(s) < 2 {
		return 0
	}
	switch c := s[0]; {
	case c == '-' || c == '*' || c == '+':
		if s[1] == ' ' {
			return 2
		}
		return 0
	case c >= '0' && c <= '9':
		k := 1
		for k < len(s) && k < 3 && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k+1 < len(s) && (s[k] == '.' || s[k] == ')') && s[k+1] == ' ' {
			return k + 2
		}
		return 0
	case c < utf8.RuneSelf:
		return 0
	}
	for _, b := range []string{"• ", "· ", "– "} {
		if strings.HasPrefix(s, b) {
			return len(b)
		}
	}
	return 0
}

// itemHead reports whether pos heads a list item — the sentence starts a
// line, the line is a list item and only openers separate the marker from
// pos — and returns the line start.
func itemHead(text string, sentStart, pos int) (int, bool) {
	if sentStart > 0 && text[sentStart-1] != '\n' {
		return 0, false
	}
	q := trimLeftSpace(text[sentStart:pos])
	m := listMarkerLen(q)
	if m == 0 {
		return 0, false
	}
	for _, r := range q[m:] {
		if r != ' ' && r != '\t' && !isOpener(r) {
			return 0, false
		}
	}
	return sentStart, true
}

// isListLine: a line is a list item.
func isListLine(line string) bool {
	return listMarkerLen(trimLeftSpace(line)) > 0
}

// sameListBlock: lines a and b (line starts, a ≤ b) belong to one list —
// every line between them is a list item, blank, or indented continuation.
func sameListBlock(text string, a, b int) bool {
	if b-a > listWindow {
		return false
	}
	pos := a
	for {
		// IndexByte, not a byte loop: heads are compared pairwise over
		// their whole block
		if pos >= b {
			return true
		}
		nl := strings.IndexByte(text[pos:b], '\n')
		if nl < 0 {
			return true
		}
		pos += nl + 1
		if pos >= b {
			return true
		}
		end := strings.IndexByte(text[pos:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += pos
		}
		line := text[pos:end]
		if trimLeftSpace(line) == "" || line[0] == ' ' || line[0] == '\t' || isListLine(line) {
			continue
		}
		return false
	}
}

// lowerForm: the surface is one lower-case ASCII word while the
// entity's name is written with a capital ("Headspace").
func lowerForm(surface, name string) bool {
	if len(surface) < 3 {
		return false
	}
	if c := surface[0]; c < utf8.RuneSelf && c != ' ' && (c < 'a' || c > 'z') {
		return false // the loop below stops at its first rune: most hits are capitalised
	}
	if name == "" || !unicode.IsUpper(firstRune(name)) || strings.ContainsAny(name, ".-") {
		return false
	}
	for _, r := range surface {
		// Latin lower-case letters only (other scripts case names
		// otherwise), and the spaces of a name of several words written
		// as a phrase ("una línea directa con tu banco")
		if r != ' ' && !(unicode.IsLower(r) && unicode.Is(unicode.Latin, r)) {
			return false
		}
	}
	return true
}
