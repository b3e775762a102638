package detect

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Entity is a brand or competitor as the tenant tracks it.
type Entity struct {
	Name    string
	Aliases []string
	Domains []string
}

// Citation is a source the AI answer cites.
type Citation struct {
	URL, Title string
}

// Verdict is the brand's outcome for one answer.
type Verdict string

// Verdicts; see the package documentation for when each applies. Every
// verdict but VerdictMentioned says why the brand is absent from the
// answer's prose.
const (
	VerdictMentioned      Verdict = "mentioned"
	VerdictNotMentioned   Verdict = "not_mentioned"    // the name does not occur
	VerdictUnknownToModel Verdict = "unknown_to_model" // only statements that the model does not know the brand
	VerdictOrdinaryWord   Verdict = "ordinary_word"    // the name occurs only as an ordinary word ("zoom in")
	VerdictCitedOnly      Verdict = "cited_only"       // the brand's domain is cited or linked, its name absent
)

// Verdicts lists every verdict, in the order they are decided: the API
// enum and the detectionVerdict filter are built from it.
func Verdicts() []Verdict {
	return []Verdict{VerdictMentioned, VerdictUnknownToModel, VerdictCitedOnly, VerdictOrdinaryWord, VerdictNotMentioned}
}

// Version identifies the detection rules; every Result carries it, so a
// stored result says which detector produced it. Bump it whenever a rule,
// lexicon or threshold changes what Detect returns.
const Version = "detect/2026.11-15"

// Input is everything detection reads: re-running it over a stored answer
// with the same brand profile and competitors gives the same Result.
type Input struct {
	Text      string
	Citations []Citation
	// Query is the monitoring query the answer responds to; it is evidence
	// for ordinary-word names ("best note-taking app" makes "Bear" a product).
	Query string
}

// Sentiment of a mention or an entity.
type Sentiment string

// Sentiments.
const (
	Positive Sentiment = "positive"
	Neutral  Sentiment = "neutral"
	Negative Sentiment = "negative"
	Mixed    Sentiment = "mixed"
)

// MatchKind says which configured form produced a mention.
type MatchKind string

// Match kinds.
const (
	KindName   MatchKind = "name"
	KindAlias  MatchKind = "alias"
	KindDomain MatchKind = "domain"
)

// Mention is one occurrence of an entity in the answer text.
type Mention struct {
	// Start and End are offsets in Unicode code points, End exclusive;
	// []rune(text)[Start:End] is Text, the surface form as written.
	Start, End int
	Text       string
	Kind       MatchKind
	// Sentence is the index of the mention's sentence (0-based, counting
	// non-empty sentences; line breaks end sentences).
	Sentence  int
	Sentiment Sentiment
	// Guarded: the form is a common word, accepted on evidence.
	Guarded bool
	// Unknown: the mention sits in a statement that the model knows nothing
	// about the entity. Not counted.
	Unknown bool
	// Link: a domain inside a markdown link target, an inline citation
	// rather than a mention. Not counted; it marks the domain as cited.
	Link       bool
	Confidence float64
	// EvidenceScore is the ordinary-word evidence of a Guarded mention
	// (threshold 1.0; package documentation), 0 for other forms.
	EvidenceScore float64
}

// EntityResult is what one answer says about one tracked entity.
type EntityResult struct {
	Name string
	// Count is the number of counted mentions (neither Unknown nor Link).
	Count int
	// Mentions lists every accepted occurrence in text order, including the
	// Unknown and Link ones.
	Mentions []Mention
	// FirstPosition is the code-point offset of the first counted mention,
	// -1 when there is none.
	FirstPosition int
	// Rank among the mentioned entities by first position, 1 = named first;
	// 0 when not mentioned.
	Rank      int
	Sentiment Sentiment
	CitedURLs []string // citations on the entity's domains
	// Evidence is the sentence of the first counted mention (or of the first
	// "unknown" statement when there is no counted one).
	Evidence   string
	Confidence float64
	// Prominence is the GEO position-adjusted word count of the entity.
	Prominence float64
	Mentioned  bool // Count > 0
	// DomainCited: a citation URL's host equals or is a subdomain of one of
	// the entity's domains, or one of its domains appears in the text.
	DomainCited bool
	// UnknownToModel: the answer says the model knows nothing about the
	// entity, and never mentions it otherwise.
	UnknownToModel bool
	// PositiveEvidence and NegativeEvidence are the sentences that carry the
	// strongest praise and criticism of the brand (brand only; empty when
	// there is none).
	PositiveEvidence string
	NegativeEvidence string
}

// ScoreParts explains VisibilityScore; each part is in 0..1.
type ScoreParts struct {
	ProminenceShare float64
	PositionWeight  float64
	OwnDomainCited  float64
	SentimentFactor float64
}

// Result is the detection outcome for one answer.
type Result struct {
	Brand       EntityResult
	Competitors []EntityResult // in input order
	Verdict     Verdict
	Confidence  float64
	Evidence    string
	Sentiment   Sentiment // the brand's overall sentiment
	// VisibilityScore is 0..100; see the package documentation.
	VisibilityScore int
	Score           ScoreParts
	// ShareOfVoice is brand mentions / all tracked mentions (0 when none).
	ShareOfVoice float64
	// Discovered are untracked product names recommended next to tracked
	// ones, in order of first appearance.
	Discovered []string
	// Ambiguous: the verdict rests on ordinary-word evidence within the
	// ambiguous band; Confidence is low accordingly.
	Ambiguous bool
	// NegativeEvidence is the sentence carrying the answer's strongest
	// criticism of the brand (Brand.NegativeEvidence).
	NegativeEvidence string
	// Version is the detector that produced the result (Version).
	Version string
}

// patOwner is one entity's claim on a folded pattern.
type patOwner struct {
	ent  int32
	kind MatchKind
}

type pattern struct {
	folded   string
	owners   []patOwner
	common   bool  // guarded: an ordinary word, or a short Latin form
	level    uint8 // how common the word is (wordlist.go); 0 when not guarded
	calendar bool  // a weekday or month name
	proper   bool  // a word English always capitalises: a place, a people, a language, a person (wordlist.go)
	// properPlural: the plural of such a word ("Celtics"), a team's name
	// rather than the place's (properNamesake)
	properPlural bool
	domain       bool // matched with domain boundaries
}

type entInfo struct {
	name    string
	domains []string // normalised: lower case, no scheme, no "www."
	forms   []string // the name and aliases as given, for their capitals (loweredName)
	lower   []string // the name and aliases its owner writes in lower case ("one sec")
	caps    []string // the ordinary words among them its owner writes in capitals ("KIND"; capsform.go)
}

// Detector matches one brand and its competitors; compile it once with New
// and call Detect from any number of goroutines.
type Detector struct {
	ents    []entInfo // 0 is the brand
	pats    []pattern
	ac      *automaton
	folded  map[string]bool // every folded pattern, for discovery exclusion
	scratch sync.Pool
	adj     Adjudicator // nil: rules only
	sent    sentParams  // the calibrated thresholds of the brand's sentiment
}

// Option configures a Detector.
type Option func(*Detector)

// WithAdjudicator consults a for ordinary-word mentions whose evidence
// score falls in the ambiguous band (evidence.go); nil leaves the rules
// alone. Only Analyze consults it; Detect never does.
func WithAdjudicator(a Adjudicator) Option {
	return func(d *Detector) { d.adj = a }
}

// New compiles the detector for the brand and its competitors.
func New(brand Entity, competitors []Entity, opts ...Option) *Detector {
	initFold()
	d := &Detector{folded: make(map[string]bool), sent: defaultSentParams}
	for _, o := range opts {
		o(d)
	}
	index := make(map[string]int)
	add := func(ent int, form string, kind MatchKind) {
		var f string
		if kind == KindDomain {
			form = normalizeDomain(form)
			if !strings.Contains(form, ".") {
				return
			}
			f = foldString(form)
		} else {
			f = foldString(strings.Join(strings.Fields(form), " "))
			f = strings.TrimSpace(f)
		}
		if f == "" || !strings.ContainsFunc(f, isWordRune) || len(f) > maxPatternBytes {
			return
		}
		i, ok := index[f]
		if !ok {
			i = len(d.pats)
			index[f] = i
			lv := ordinaryLevel(f)
			if !isASCII(form) {
				lv = 0 // "Nestlé", "Škoda": the diacritics make it a name, not "nestle"
			}
			proper := lv == 0 && isASCII(form) && properLevel(f) > 0
			plural := proper && strings.HasSuffix(f, "s") && properLevel(f[:len(f)-1]) > 0
			d.pats = append(d.pats, pattern{folded: f, common: lv > 0, proper: proper, properPlural: plural, level: lv, calendar: calendarWords[f]})
			d.folded[f] = true
		}
		p := &d.pats[i]
		if kind == KindDomain {
			p.domain = true
			p.common, p.level, p.proper = false, 0, false
		}
		for _, o := range p.owners {
			if o.ent == int32(ent) {
				return // the entity already owns this form (name wins over alias)
			}
		}
		p.owners = append(p.owners, patOwner{ent: int32(ent), kind: kind})
	}
	all := append([]Entity{brand}, competitors...)
	for ei, e := range all {
		info := entInfo{name: e.Name, forms: append([]string{e.Name}, e.Aliases...)}
		add(ei, e.Name, KindName)
		if v := withoutApostrophes(e.Name); v != e.Name {
			add(ei, v, KindAlias) // "Arc'teryx" written "Arcteryx"
		}
		if lowerStyled(e.Name) {
			info.lower = append(info.lower, e.Name)
		}
		if capsStyled(e.Name) {
			info.caps = append(info.caps, e.Name)
		}
		for _, a := range e.Aliases {
			if lowerStyled(a) {
				info.lower = append(info.lower, a)
				if n, ok := lowerNameIn(e.Name, a); ok {
					info.lower = append(info.lower, n) // "innocent drinks" (nameform.go)
				}
			}
			if capsStyled(a) {
				info.caps = append(info.caps, a)
			}
			add(ei, a, KindAlias)
			if v := withoutApostrophes(a); v != a {
				add(ei, v, KindAlias)
			}
		}
		for _, dom := range e.Domains {
			if nd := normalizeDomain(dom); strings.Contains(nd, ".") {
				info.domains = append(info.domains, nd)
			}
			add(ei, dom, KindDomain)
		}
		d.ents = append(d.ents, info)
	}
	if len(d.pats) > 0 {
		fs := make([]string, len(d.pats), len(d.pats)+len(scanMarks))
		for i := range d.pats {
			fs[i] = d.pats[i].folded
		}
		for _, m := range scanMarks {
			fs = append(fs, m.folded)
		}
		d.ac = buildAutomaton(fs)
	}
	d.scratch.New = func() any { return new(scratch) }
	return d
}

// withoutApostrophes drops the apostrophes inside a name ("Arc'teryx" →
// "Arcteryx"), as answers often write it; a possessive ending is kept.
func withoutApostrophes(s string) string {
	var b strings.Builder
	for i, r := range s {
		if (r == '\'' || r == '’') && i > 0 && i+utf8.RuneLen(r) < len(s) &&
			isWordRune(lastRune(s[:i])) && isWordRune(firstRune(s[i+utf8.RuneLen(r):])) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// lowerStyled: a configured form written with letters, none upper case
// ("one sec", "dm"): the owner's own styling.
func lowerStyled(form string) bool {
	return strings.ContainsFunc(form, unicode.IsLetter) && !strings.ContainsFunc(form, unicode.IsUpper)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// maxPatternBytes bounds a folded pattern; longer forms are not names. The
// scanner's ring of offsets must be longer than any pattern.
const (
	maxPatternBytes = 512
	ringSize        = 1024 // a power of two > maxPatternBytes
)

// normalizeDomain turns "https://www.Acme.com/path" into "acme.com".
func normalizeDomain(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if i := strings.Index(s, "://"); i >= 0 {
		s = s[i+3:]
	}
	if i := strings.IndexAny(s, "/?#"); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndexByte(s, '@'); i >= 0 {
		s = s[i+1:]
	}
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSuffix(s, ".")
	s = strings.TrimPrefix(s, "www.")
	return s
}

// hostOf extracts the normalised host of a citation URL ("" if none). It
// parses by hand: net/url allocates, and citations are checked per answer.
func hostOf(raw string) string {
	if strings.HasPrefix(strings.TrimSpace(raw), "//") {
		raw = strings.TrimSpace(raw)[2:]
	}
	return normalizeDomain(raw)
}

// hostMatches: host equals domain or is a subdomain of it.
func hostMatches(host, domain string) bool {
	return host == domain || len(host) > len(domain) && host[len(host)-len(domain)-1] == '.' &&
		host[len(host)-len(domain):] == domain
}

// rawHit is an automaton match before boundary and guard checks (byte
// offsets into the original text).
type rawHit struct {
	pat        int32
	start, end int
	sent       int // sentence index at the match
	sentStart  int // byte offset where that sentence's raw text starts
}

// scanMarks are words that rules look for in a sentence. The scan's
// automaton matches them beside the entities' forms (their pattern ids
// follow d.pats) and notes in scratch.marks which ones occur anywhere in
// the answer (folded: ASCII case-insensitively, so a superset of the
// rules' own tests), so a rule skips its per-sentence search in the
// answers, nearly all, that hold none — without a pass of its own.
var scanMarks = [...]struct {
	folded string
	mark   uint8
}{
	{"other", markOther},
	{"name", markSurname}, {"pellid", markSurname}, {"ognom", markSurname}, {"atronym", markSurname},
}

const (
	markOther   uint8 = 1 << iota // "other": readOtherOfKind
	markSurname                   // a surname word's stem: surnameSentence
	markAll     = markOther | markSurname
)

// scratch holds the per-call buffers, recycled through a sync.Pool.
type scratch struct {
	ring  [ringSize]int32
	hits  []rawHit
	cands []cand
	sents []sentRec
	unk   [][2]int
	// igToks: the words of the sentence the ignorance classifier reads
	igToks []igTok
	// spans: the byte ranges that govern the brand's sentiment
	spans [][2]int
	// igSpans: the ignorance statements of a span scored for sentiment
	igSpans [][2]int
	found   []found
	parts   []part
	ends    [][2]int // sentence start → end, for sentences with hits
	// citedBy pairs an entity with a citation on one of its domains
	citedBy [][2]int32
	// wide lists, per multi-byte rune, the byte offset after it and the
	// bytes beyond one per rune up to there: code-point offsets without a
	// second pass over the text
	wide [][2]int32
	key  []byte
	// list blocks, sentence clauses, nearest other-entity candidates
	blocks    []entSet
	clauses   []clause
	prevOther []int32
	nextOther []int32
	ints      []int
	bools     []bool
	order     []int
	marks     uint8 // the scanMarks found in the text
	prefixed  map[int32]bool
	an        analysis
}

func (sc *scratch) reset() {
	sc.ends = sc.ends[:0]
	sc.wide = sc.wide[:0]
	sc.hits = sc.hits[:0]
	sc.cands = sc.cands[:0]
	sc.sents = sc.sents[:0]
	sc.clauses = sc.clauses[:0]
	sc.unk = sc.unk[:0]
	sc.marks = 0
}

// scan runs the automaton over text once. ASCII bytes step directly (the
// class table folds case); other runes step through their folded bytes.
// One load of the class table also tells the two exceptions apart (flag
// bits beside the class): a byte that may end a sentence, and a byte that
// starts a non-ASCII rune.
// Sentence boundaries are counted on the way, so every hit knows its
// sentence without a second pass.
//
// A match's folded start maps back to the text in one of two ways. Within
// a run of ASCII bytes, folded and original offsets differ by a constant
// (delta), so a match that starts after the last non-ASCII rune (wideFP)
// is start = folded start + delta, and the ASCII path stores nothing per
// byte. Matches reaching back over a non-ASCII rune read a ring of
// original offsets indexed by folded position: written for every folded
// byte of a non-ASCII rune, and back-filled for the ASCII run before it
// when that rune is met (only its last maxLen bytes: no pattern is
// longer).
func (d *Detector) scan(text string, sc *scratch) {
	a := d.ac
	if a == nil {
		sc.marks = markAll // nothing is known: the rules read for themselves
		return
	}
	trans, cls, nc := a.trans, &a.cls, a.nc
	ring := &sc.ring
	var s, extra int32    // extra: bytes beyond one per rune so far
	wideFP, delta := 0, 0 // the current ASCII run starts at folded wideFP; folded = original − delta in it
	sent, sentStart := 0, 0
	n := len(text)
	for i := 0; i < n; {
		c := text[i]
		m := cls[c]
		if m&(breakBit|wideBit) == 0 {
			// The hot path: ASCII bytes that end no sentence, whose class
			// needs no mask. The folded offset is i − delta. A loop of
			// its own: at the outer loop's head, which the other paths
			// join, the compiler spilled the scan's state for every byte.
			for {
				v := trans[s+int32(m)]
				i++
				if v < 0 {
					id := ^v
					s = id * nc
					d.emit(sc, id, i-delta, i, wideFP, delta, sent, sentStart)
				} else {
					s = v
				}
				if i >= n {
					break
				}
				if m = cls[text[i]]; m&(breakBit|wideBit) != 0 {
					break
				}
			}
			continue
		}
		if m&wideBit == 0 {
			// An ASCII byte that may end a sentence.
			v := trans[s+int32(m&classMask)]
			i++
			if v >= 0 {
				s = v
			} else {
				id := ^v
				s = id * nc
				d.emit(sc, id, i-delta, i, wideFP, delta, sent, sentStart)
			}
			if c == '\n' || (i == n || isSpaceByte(text[i])) && (c != '.' || isBreakDot(text, i-1)) {
				sc.noteEnd(sentStart, i)
				sent, sentStart = closeSentence(text, i, sent, sentStart)
			}
			continue
		}
		fp := i - delta
		for k := max(wideFP, fp-a.maxLen); k < fp; k++ {
			ring[k&(ringSize-1)] = int32(k + delta)
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		f := foldRune(r, text[i:i+size])
		last := len(f) - 1
		for j := 0; j < len(f); j++ {
			v := trans[s+int32(cls[f[j]]&classMask)]
			if j == 0 {
				ring[fp&(ringSize-1)] = int32(i)
			} else {
				ring[fp&(ringSize-1)] = -1 // inside a rune's expansion: no match starts here
			}
			fp++
			if v >= 0 {
				s = v
			} else {
				id := ^v
				s = id * nc
				if j == last {
					d.emit(sc, id, fp, i+size, math.MaxInt, 0, sent, sentStart) // every start from the ring
				}
			}
		}
		i += size
		wideFP, delta = fp, i-fp
		if size > 1 {
			extra += int32(size - 1)
			sc.wide = append(sc.wide, [2]int32{int32(i), extra})
		}
		if isBreakRune(r) && (r != '…' || i == n || isSpaceByte(text[i])) {
			sc.noteEnd(sentStart, i)
			sent, sentStart = closeSentence(text, i, sent, sentStart)
		}
	}
}

// noteEnd remembers where a sentence that holds hits ends, so that the
// analysis need not scan for it again.
func (sc *scratch) noteEnd(sentStart, end int) {
	if n := len(sc.hits); n > 0 && sc.hits[n-1].sentStart == sentStart {
		sc.ends = append(sc.ends, [2]int{sentStart, end})
	}
}

// emit records the patterns that end in state id at folded offset fp
// (original offset end); starts at or after wideFP are folded + delta,
// earlier ones come from the ring (scan).
func (d *Detector) emit(sc *scratch, id int32, fp, end, wideFP, delta, sent, sentStart int) {
	a := d.ac
	for _, p := range a.outs[a.outOff[id]:a.outOff[id+1]] {
		if int(p) >= len(d.pats) {
			sc.marks |= scanMarks[int(p)-len(d.pats)].mark
			continue
		}
		fs := fp - int(a.plen[p])
		if fs < 0 {
			continue
		}
		st := fs + delta
		if fs < wideFP {
			st = int(sc.ring[fs&(ringSize-1)])
			if st < 0 {
				continue
			}
		}
		sc.hits = append(sc.hits, rawHit{pat: p, start: st, end: end, sent: sent, sentStart: sentStart})
	}
}

// closeSentence ends the sentence at byte end; empty sentences (blank
// lines) do not advance the index.
func closeSentence(text string, end, sent, sentStart int) (int, int) {
	for k := end - 1; k >= sentStart; k-- {
		if !isSpaceByte(text[k]) {
			return sent + 1, end
		}
	}
	return sent, end
}

// isBreakDot decides whether the full stop at i (followed by a space) ends a
// sentence: not after a list number at a line start ("1. Acme") and not
// after a common abbreviation ("e.g. Acme", "Acme Inc. and").
func isBreakDot(text string, i int) bool {
	k := i
	for k > 0 && i-k < 12 {
		c := text[k-1]
		if !asciiWord[c] && c != '.' {
			break
		}
		k--
	}
	w := text[k:i]
	if w == "" {
		return true
	}
	if len(w) <= 3 && allDigits(w) {
		j := k
		for j > 0 && (text[j-1] == ' ' || text[j-1] == '\t') {
			j--
		}
		return !(j == 0 || text[j-1] == '\n')
	}
	if initialism(w) && lowerFollows(text, i+1) {
		return false // "the U.S. chain", "a U.K. bank": no sentence ends there
	}
	// Cheap filter on (length, first letter) before the set lookup.
	if len(w) >= len(abbrevFirst) || abbrevFirst[len(w)]&(1<<lexLetter(w[0])) == 0 {
		return true
	}
	var buf [8]byte
	for k := 0; k < len(w); k++ {
		buf[k] = w[k] | 0x20 // letters and '.' only: '.'|0x20 == '.'
	}
	a := string(buf[:len(w)])
	if (a == "no" || a == "nos") && !numberFollows(text, i+1) {
		// "No. Windows Security already covers it": a reply, not "No. 5"
		return true
	}
	return !abbreviations[a]
}

// initialism: w is single letters joined by dots ("U.S", "U.K", "U.S.A"),
// the last dot not included.
func initialism(w string) bool {
	if len(w) < 3 || len(w)%2 == 0 {
		return false
	}
	for k := 0; k < len(w); k++ {
		if k%2 == 1 && w[k] != '.' || k%2 == 0 && !('A' <= w[k] && w[k] <= 'Z' || 'a' <= w[k] && w[k] <= 'z') {
			return false
		}
	}
	return true
}

// lowerFollows: after spaces from i, a lower-case ASCII letter follows.
func lowerFollows(text string, i int) bool {
	for i < len(text) && text[i] == ' ' {
		i++
	}
	return i < len(text) && 'a' <= text[i] && text[i] <= 'z'
}

// allDigits: w is non-empty and all ASCII digits (a loop, not a Trim that
// builds its cutset per call: it runs at every full stop).
func allDigits(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return w != ""
}

// numberFollows: a digit (or "#") follows pos past spaces.
func numberFollows(text string, pos int) bool {
	for pos < len(text) && (text[pos] == ' ' || text[pos] == '\t') {
		pos++
	}
	return pos < len(text) && (text[pos] >= '0' && text[pos] <= '9' || text[pos] == '#')
}

var abbreviations = set(`e.g i.e vs inc ltd co corp mr mrs ms dr st jr sr approx no nos fig cf al`)

var abbrevFirst = func() (f [8]uint32) {
	for w := range abbreviations {
		f[len(w)] |= 1 << lexLetter(w[0])
	}
	return f
}()

func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// isBreakRune: non-ASCII sentence terminators (CJK full stops, full-width
// marks, the paragraph separator, the ellipsis when followed by a space).
func isBreakRune(r rune) bool {
	return r == '。' || r == '！' || r == '？' || r == '\u2029' || r == '…' || r == '｡'
}

func isKatakana(r rune) bool { return unicode.Is(unicode.Katakana, r) || r == 0x30FC }

// needsBoundary: two adjacent word runes must not both belong to a match
// edge — except across a script without spaces (a Japanese name followed by
// a particle), where words are not delimited. Katakana next to katakana
// still needs one: loanwords are written as unbroken katakana runs.
func needsBoundary(a, b rune) bool {
	if !isWordRune(a) || !isWordRune(b) {
		return false
	}
	if noSpaceScript(a) || noSpaceScript(b) {
		return isKatakana(a) && isKatakana(b)
	}
	return true
}

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// boundaryOK checks word (or domain) boundaries around a raw hit and
// extends its end over trailing combining marks (a decomposed "é").
func (d *Detector) boundaryOK(text string, h *rawHit) bool {
	p := &d.pats[h.pat]
	e := h.end
	for e < len(text) {
		r, size := utf8.DecodeRuneInString(text[e:])
		if !unicode.Is(unicode.Mn, r) {
			break
		}
		e += size
	}
	h.end = e
	if h.start > 0 {
		prev := lastRune(text[:h.start])
		if p.domain {
			if isWordRune(prev) || prev == '-' {
				return false
			}
		} else if needsBoundary(prev, firstRune(text[h.start:])) {
			return false
		}
	}
	if e < len(text) {
		next, size := utf8.DecodeRuneInString(text[e:])
		if p.domain {
			if isWordRune(next) || next == '-' || next == '_' {
				return false
			}
			if next == '.' && e+size < len(text) && isWordRune(firstRune(text[e+size:])) {
				return false // "acme.com.evil.net" is another domain
			}
		} else if needsBoundary(lastRune(text[:h.end]), next) {
			return false
		}
	}
	return true
}

// sortNearlySorted sorts hits, which arrive by end position and so are in
// start order except around overlapping matches: insertion sort is linear
// for that, and a budget on moves falls back to pdqsort for inputs with
// many overlaps.
func sortNearlySorted(h []rawHit, cmp func(a, b rawHit) int) {
	budget := 8*len(h) + 64
	for i := 1; i < len(h); i++ {
		for j := i; j > 0 && cmp(h[j-1], h[j]) > 0; j-- {
			h[j-1], h[j] = h[j], h[j-1]
			if budget--; budget < 0 {
				slices.SortFunc(h, cmp)
				return
			}
		}
	}
}

// Detect analyses one answer with the rules alone (no query, no
// adjudicator). It is safe for concurrent use.
func (d *Detector) Detect(text string, citations []Citation) Result {
	r, _ := d.run(context.Background(), Input{Text: text, Citations: citations}, nil)
	return r
}

// Analyze analyses one answer with its query and, when the Detector has
// one, consults the Adjudicator for ambiguous ordinary-word mentions and
// for the brand's sentiment when the rules leave it in doubt. An
// adjudicator error leaves the rule-based decision in place and is
// returned beside the (complete) result. It is safe for concurrent use.
func (d *Detector) Analyze(ctx context.Context, in Input) (Result, error) {
	return d.run(ctx, in, d.adj)
}

func (d *Detector) run(ctx context.Context, in Input, adj Adjudicator) (Result, error) {
	text := in.Text
	if len(text) > math.MaxInt32 {
		// Offsets are kept in 32 bits; 2 GiB is far beyond any answer.
		text = text[:math.MaxInt32]
	}
	sc := d.scratch.Get().(*scratch)
	sc.reset()
	defer func() {
		// Drop references to the caller's text before pooling the buffers.
		sc.an = analysis{}
		clear(sc.found[:cap(sc.found)])
		d.scratch.Put(sc)
	}()

	d.scan(text, sc)
	// Boundaries, then leftmost-longest selection across all patterns.
	hits := sc.hits[:0]
	for i := range sc.hits {
		h := sc.hits[i]
		if d.boundaryOK(text, &h) {
			hits = append(hits, h)
		}
	}
	byStart := func(a, b rawHit) int {
		if a.start != b.start {
			return a.start - b.start
		}
		if a.end != b.end {
			return b.end - a.end
		}
		return int(a.pat - b.pat)
	}
	sortNearlySorted(hits, byStart)
	sel := hits[:0]
	lastEnd := -1
	for _, h := range hits {
		if h.start >= lastEnd {
			sel = append(sel, h)
			lastEnd = h.end
		}
	}
	sc.hits = sel

	sc.an = analysis{d: d, text: text, sc: sc, query: in.Query, textAttributes: -1}
	an := &sc.an
	an.checkCitations(in.Citations)
	an.buildCands()
	an.guardAll()
	err := an.adjudicate(ctx, adj)
	an.classify()
	res := an.result()
	return res, errors.Join(err, an.adjudicateSentiment(ctx, adj, &res))
}
