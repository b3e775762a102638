package detect

import (
	"strings"
	"sync"
	"unicode/utf8"
)

// The ignorance classifier finds statements that the model does not know
// something, in any wording: a negation or inability ("not", "can't",
// "unable", "little", "limited", "isn't enough") near a knowledge term —
// information and its kin ("details", "data", "sources"), cognition
// ("know", "familiar", "find", "verify", "heard"), speech qualified as
// unreliable ("can't describe … reliably", "can't say what it offers") or
// notability ("widely known", "exist", "established") — inside one clause.
// Information and cognition terms need the speaker ("I", "me", "we") or an
// existential frame ("there is", "available") in the clause, so "Acme
// doesn't require any knowledge of SQL" is no ignorance; notability terms
// speak for themselves ("Acme doesn't appear to be widely known") unless
// they are "known for/as". The regular-expression rules in classify.go
// catch the fixed phrasings; this catches the rest.

// Word classes of the classifier.
const (
	igNeg     uint16 = 1 << iota // negation or inability
	igInfo                       // information nouns
	igCog                        // cognition verbs and adjectives
	igSpeech                     // speech verbs: need a qualifier
	igNotable                    // notability: stands alone
	igSelf                       // first person
	igExist                      // existential frame
	igQualify                    // qualifiers of speech: "reliably", "what", "much"
	igNegCog                     // "unfamiliar", "unaware": negation and cognition in one
	igBlock                      // "better", "than": comparisons ("don't know a better tool")
	igEnough                     // "enough": praise ("can't say enough")
	igPrep                       // "about", "on", "regarding": information about something
	igPrice                      // "pricing", "prices": information only when current ("reliable pricing")
	igCurrent                    // "current", "reliable", "up-to-date": qualifies a price as information
	igPlace                      // "place": cognition only of a name ("a name I can't place"), not of an order
)

var ignoranceWords = func() map[string]uint16 {
	m := make(map[string]uint16)
	add := func(c uint16, words string) {
		for _, w := range strings.Fields(words) {
			m[w] |= c
		}
	}
	add(igNeg, `not no never cannot cant unable lack lacks lacking limited little insufficient scarce sparse
		unclear uncertain unsure unfamiliar unaware unknown unverified beyond outside hard difficult few
		nothing none nor without
		ne pas aucune aucun keine kein keinen keiner nicht nichts não nao non nessuna nessun ninguna ningún ningun`)
	add(igInfo, `information info details detail data knowledge specifics documentation sources records
		record evidence coverage facts references mentions material context insight insights idea
		picture training trained opinion assessment reviews overview figures numbers statistics stats
		informations données donnees détails details renseignements informationen angaben daten einzelheiten
		información informacion datos detalles informações informacoes dados detalhes informazioni dati dettagli`)
	add(igCog, `know knew familiar aware heard recognize recognise recognized recognised find found locate located
		verify verified confirm confirmed identify identified encountered knowledgeable match across
		connais connaissais sais trouve kenne weiß weiss bekannt vertraut conozco conoce encuentro encontré conheço
		conheco sei conosco trovo`)
	add(igSpeech, `say tell describe comment speak assess evaluate judge vouch characterize characterise explain
		give quote list report state share provide
		sagen beurteilen bewerten dire évaluer decir evaluar`)
	add(igNotable, `known well-known widely-known established exist exists existed existence notable mainstream
		prominent recognized recognised covered covers documented discussed`)
	add(igSelf, `i me my we our us myself
		je j moi ich mir mich yo tengo dispongo conozco encuentro eu tenho conheço conheco io ho conosco`)
	add(igExist, `there available publicly public online accessible`)
	add(igQualify, `reliably accurately confidently confidence much anything what whether how specifics details definitively
		certainty sure precisely exactly authoritatively meaningfully about assessment opinion evaluation
		overview comparison informed verlässliches verlässlich zuverlässiges genaues sicherheit gewissheit fiable fiables précis
		certitude certeza certezza nada`)
	add(igNegCog, `unfamiliar unaware unknown unverified`)
	add(igBlock, `better best than more worse`)
	add(igEnough, `enough`)
	add(igPrep, `about on regarding for of concerning around`)
	add(igPrice, `pricing prices price rates fees costs number numbers`) // and a contact's number, as current as a price
	add(igCurrent, `current reliable up-to-date recent latest accurate exact verified date`)
	add(igPlace, `place`)
	return m
}()

// igTok is one word of a sentence with its classes.
type igTok struct {
	start, end int
	cls        uint16
	clause     int
	word       string // as written
}

// maxIgnoranceWords bounds the words classified per sentence: ignorance
// statements are short, and a pathological sentence costs constant time.
const maxIgnoranceWords = 400

// knowledgeStems prefilter the classifier: a sentence without one of them
// (as a substring, any case) holds no knowledge term and is not read.
// Built on first use (see unknownRules).
var knowledgeFilter = sync.OnceValue(func() *automaton {
	return buildAutomaton(knowledgeStems)
})

var knowledgeStems = []string{
	"info", "detail", "data", "knowledge", "specifics", "documentation", "documented", "sources", "record",
	"evidence", "coverage", "covered", "covers", "fact", "reference", "mention", "material", "context",
	"familiar", "aware", "know", "heard", "recogni", "find", "found", "locat", "verif", "confirm", "identif",
	"encounter", "describ", "say", "tell", "comment", "speak", "assess", "evaluat", "judg", "vouch", "character",
	"explain", "establish", "notable", "mainstream", "prominent", "discuss", "exist", "unfamiliar", "unaware",
	"unknown", "unverified", "insight", "no idea", "picture", "training", "opinion", "match", "reviews", "come across", "came across", "overview",
	"figures", "numbers", "statistic", "stats", "trained", "sagen", "beurteil", "decir", "give", "quot", "report",
	// French, German, Spanish, Portuguese, Italian
	"donn", "renseign", "angab", "daten", "einzelheit", "dato", "dados", "dati", "dettagl", "connai", "kenne", "bekannt",
	"vertraut", "conoz", "conhe", "conosc", "nothing",
	// "a name I can't place", "can’t quite place", "able to place": not
	// the bare word, which "marketplace", "in place" and "place an order"
	// hold in most answers (a prefilter that lets every sentence through
	// costs the scan)
	"t place", "t quite place", "not place", "can place", "to place it", "able to place",
}

// priceFilter and currentFilter: a price word is a knowledge term only
// with a currency qualifier ("current pricing"), so a sentence needs both.
var (
	priceFilter   = sync.OnceValue(func() *automaton { return buildAutomaton([]string{"pric", "rates", "fees", "costs", "number"}) })
	currentFilter = sync.OnceValue(func() *automaton {
		return buildAutomaton([]string{"current", "reliable", "up-to-date", "up to date", "recent", "latest", "accurate", "exact", "verified"})
	})
)

// ignoranceSpans appends the byte spans of ignorance statements in
// text[s:e] to out.
func (an *analysis) ignoranceSpans(s, e int, out [][2]int) [][2]int {
	text := an.text
	if !knowledgeFilter().matchAny(text[s:e]) && !(priceFilter().matchAny(text[s:e]) && currentFilter().matchAny(text[s:e])) {
		return out
	}
	toks := an.sc.igToks[:0]
	clause := 0
	hasNeg := false
	for pos := s; pos < e && len(toks) < maxIgnoranceWords; {
		c := text[pos]
		if c == ';' {
			clause++
			pos++
			continue
		}
		st := pos
		var isWord bool
		if pos, isWord = stepWord(text, pos, e); !isWord {
			continue
		}
		w := text[st:pos]
		f := lexLookup(w)
		if f&lexContrast != 0 {
			clause++
			continue
		}
		var cls uint16
		if n := len(w); n > 3 && (w[n-3:] == "n't" || strings.HasSuffix(w, "n’t")) {
			cls |= igNeg
		}
		cls |= lookupIgnorance(w)
		if k := apostrophe(w); k > 0 {
			// "I'm" → "i", "don't" → "don"; "d'informations" → "informations"
			_, size := utf8.DecodeRuneInString(w[k:])
			cls |= lookupIgnorance(w[:k]) | lookupIgnorance(w[k+size:])
		}
		if f&lexNegator != 0 {
			cls |= igNeg
		}
		if len(toks) == 0 && replyWord(text, w, pos, e) {
			// "No, Windows Security already covers what X does": the
			// answer to a yes-no question, not a negation of its clause
			cls &^= igNeg
		}
		if cls&igNeg != 0 {
			hasNeg = true
		}
		toks = append(toks, igTok{start: st, end: pos, cls: cls, clause: clause, word: w})
	}
	an.sc.igToks = toks
	if !hasNeg {
		return out
	}
	for i := range toks {
		if toks[i].cls&igNeg == 0 {
			continue
		}
		if j, ok := knowledgeNear(toks, i); ok {
			a, b := min(i, j), max(i, j)
			out = append(out, [2]int{toks[a].start, toks[b].end})
		}
	}
	return out
}

// replyWord: w, a sentence's first word, is a bare "no" set off by a
// comma, a stop, a dash or a colon ("No, …", "No — …").
func replyWord(text, w string, pos, e int) bool {
	if !strings.EqualFold(w, "no") && !strings.EqualFold(w, "nope") {
		return false
	}
	rest := strings.TrimLeft(text[pos:e], " *_")
	r := firstRune(rest)
	return r == ',' || r == '.' || r == '!' || r == ':' || r == '—' || r == '–'
}

// knowledgeNear finds a knowledge term that the negation at i governs:
// within three words before or seven after, in the same clause, framed as
// the classes require.
func knowledgeNear(toks []igTok, i int) (int, bool) {
	cl := toks[i].clause
	var self, exist, block, enough bool
	for k := range toks {
		if toks[k].clause == cl {
			self = self || toks[k].cls&igSelf != 0
			exist = exist || toks[k].cls&igExist != 0
			block = block || toks[k].cls&igBlock != 0 && k > i
			enough = enough || toks[k].cls&igEnough != 0 && k > i
		}
	}
	if toks[i].cls&igNegCog != 0 && (self || followedBy(toks, i, "to", "me")) {
		return i, true
	}
	if self && strings.EqualFold(toks[i].word, "nothing") {
		// "I have nothing (reliable) on X", "I've got nothing about X"
		for j := i + 1; j < min(len(toks), i+3); j++ {
			if toks[j].clause == cl && toks[j].cls&igPrep != 0 {
				return j, true
			}
		}
	}
	for j := max(0, i-5); j < min(len(toks), i+10); j++ {
		t := &toks[j]
		if t.clause != cl || j == i {
			continue
		}
		switch {
		case t.cls&igNotable != 0 && !followedByAny(toks, j, "for", "as", "to be", "in", "among", "by") && !knownToAct(toks, j):
			if strings.EqualFold(t.word, "known") || strings.EqualFold(t.word, "recognized") || strings.EqualFold(t.word, "recognised") {
				// "not (widely) known", "not much is known": not "known issues"
				if j+1 < len(toks) && toks[j+1].clause == cl && toks[j+1].cls&(igInfo|igPrep) == 0 && !strings.EqualFold(toks[j+1].word, "to") && j > 0 && toks[j-1].cls&igNeg == 0 && !adverbBefore(toks, j) {
					continue
				}
			}
			return j, true
		case t.cls&igInfo != 0 && (self || exist || j+1 < len(toks) && toks[j+1].cls&igPrep != 0 && toks[i].cls&igNeg != 0 && strings.EqualFold(toks[i].word, "no")):
			return j, true
		case t.cls&igPrice != 0 && j > i && (self || exist) && currentBefore(toks, i, j) &&
			pricesOf(toks, j) && toks[len(toks)-1].clause == cl:
			// "I don't have reliable, current pricing for X's plans": the
			// speaker disclaims up-to-date figures of what follows, not
			// the product's having prices ("X doesn't list prices" states
			// a fact), and no "but" goes on to say what it costs
			return j, true
		case t.cls&igCog != 0 && strings.EqualFold(t.word, "across") && (j == 0 || !inSet(comeWords, toks[j-1].word)):
			// "across" is cognition only in "come across"
		case t.cls&igCog != 0 && self && !block && !followedByAny(toks, j, "that", "how to") && !toBeWithin(toks, j):
			return j, true
		case t.cls&igPlace != 0 && self && nameBefore(toks, j):
			// "isn't a name I can place", "I can't place the name"
			return j, true
		case t.cls&igSpeech != 0 && self && !block && !enough:
			for k := j + 1; k < min(len(toks), j+8); k++ {
				// "reliably", or "a reliable, current review of X"
				if toks[k].cls&(igQualify|igCurrent) != 0 {
					return j, true
				}
			}
			// German puts the verb last: "nichts Verlässliches sagen"
			for k := i + 1; k < j; k++ {
				if toks[k].cls&igQualify != 0 {
					return j, true
				}
			}
		}
	}
	return 0, false
}

// nameBefore: "name" or "names" stands within four words before j, or
// "the name" right after it, in j's clause — "place" recalls a name
// there, not an order or a bet.
func nameBefore(toks []igTok, j int) bool {
	if followedBy(toks, j, "the", "name") || followedBy(toks, j, "that", "name") || followedBy(toks, j, "this", "name") {
		return true
	}
	for k := max(0, j-4); k < j; k++ {
		if toks[k].clause == toks[j].clause && (strings.EqualFold(toks[k].word, "name") || strings.EqualFold(toks[k].word, "names")) {
			return true
		}
	}
	return false
}

// currentBefore: a currency qualifier ("current", "reliable", "up to
// date") lies between the negation at i and the price word at j, within
// three words of it.
func currentBefore(toks []igTok, i, j int) bool {
	for k := max(i+1, j-3); k < j; k++ {
		if toks[k].cls&igCurrent != 0 && toks[k].clause == toks[j].clause {
			if strings.EqualFold(toks[k].word, "date") && (k < 2 || !strings.EqualFold(toks[k-1].word, "to")) {
				continue // "date" only in "up to date"
			}
			return true
		}
	}
	return false
}

// pricesOf: a preposition follows the price word at j, past an
// "available" ("pricing for X", "prices available for X").
func pricesOf(toks []igTok, j int) bool {
	k := j + 1
	if k < len(toks) && toks[k].cls&igExist != 0 {
		k++
	}
	return k < len(toks) && toks[k].cls&igPrep != 0
}

// toBeWithin: "to be" follows j within three words ("found X to be slow":
// an opinion, not ignorance).
func toBeWithin(toks []igTok, j int) bool {
	for k := j + 1; k < min(len(toks)-1, j+4); k++ {
		if strings.EqualFold(toks[k].word, "to") && strings.EqualFold(toks[k+1].word, "be") {
			return true
		}
	}
	return false
}

func adverbBefore(toks []igTok, j int) bool {
	if j == 0 {
		return false
	}
	return inSet(knownAdverbs, toks[j-1].word)
}

// followedBy: the words after j are ws.
func followedBy(toks []igTok, j int, ws ...string) bool {
	for k, w := range ws {
		if j+1+k >= len(toks) || !strings.EqualFold(toks[j+1+k].word, w) {
			return false
		}
	}
	return true
}

func followedByAny(toks []igTok, j int, phrases ...string) bool {
	for _, p := range phrases {
		// the phrase's words one by one, without splitting it into a slice
		k, ok := j+1, true
		for rest := p; ok && rest != ""; k++ {
			var w string
			w, rest, _ = strings.Cut(rest, " ")
			ok = k < len(toks) && strings.EqualFold(toks[k].word, w)
		}
		if ok {
			return true
		}
	}
	return false
}

var comeWords = set(`come came coming comes`)

var knownAdverbs = set(`widely well much publicly generally commonly very broadly particularly is`)

// ignoranceFilter turns most words away before the map is hashed
// (wordset.go); ignoranceWords never changes after it is built.
var ignoranceFilter = newWordFilter(ignoranceWords)

// lookupIgnorance returns the classifier classes of a word, case-
// insensitively, without allocating.
// apostrophe returns the index of the first ' or ’ in w, or -1.
func apostrophe(w string) int {
	for i := 0; i < len(w); i++ {
		if w[i] == '\'' || w[i] == 0xE2 && strings.HasPrefix(w[i:], "’") {
			return i
		}
	}
	return -1
}

func lookupIgnorance(w string) uint16 {
	var buf [24]byte
	if w == "" || len(w) > len(buf) || !ignoranceFilter.mayHave(w) {
		return 0
	}
	for k := 0; k < len(w); k++ {
		c := w[k]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[k] = c
	}
	return ignoranceWords[string(buf[:len(w)])]
}

// sentenceAfter returns the bounds of the sentence starting after byte
// from (skipping white space, at most one blank line), or ok=false at the
// end of the text or past a heading.
func sentenceAfter(text string, from int) (s, e int, ok bool) {
	s = from
	lines := 0
	for s < len(text) && isSpaceByte(text[s]) {
		if text[s] == '\n' {
			lines++
		}
		s++
	}
	if s >= len(text) || lines > 2 {
		return 0, 0, false
	}
	e = s
	// One table load per byte: closingAgainst walks every sentence of
	// the answer with it.
	for lim := min(len(text), s+maxGovernedBytes); e < lim; e++ {
		c := text[e]
		if !sentenceStops[c] {
			continue
		}
		if c == '\n' {
			break
		}
		if (e+1 == len(text) || isSpaceByte(text[e+1])) && (c != '.' || isBreakDot(text, e)) {
			e++
			break
		}
	}
	return s, e, true
}

// sentenceStops are the bytes sentenceAfter stops at: a line break and
// the stops that may end a sentence.
var sentenceStops = [256]bool{'\n': true, '.': true, '!': true, '?': true}

// maxGovernedBytes bounds a following sentence read for ignorance or
// sentiment.
const maxGovernedBytes = 1000

// hedged: the sentence asserts nothing about the entity — a question, a
// condition, a guess, an echo of the user's words, a pointer to check
// elsewhere, or a bare heading.
func (an *analysis) hedged(rec *sentRec, c *cand) bool {
	text := an.text
	s := text[rec.start:rec.end]
	if strings.HasSuffix(strings.TrimRight(s, " *_)\"”"), "?") {
		return true
	}
	if nameOnlyHead(text, c) && strings.TrimSpace(strings.Trim(text[c.end:rec.end], "*_:#-–— ")) == "" {
		return true
	}
	for pos := 0; ; {
		w, np := wordAtAny(s, pos)
		if w == "" {
			return false
		}
		if inSet(hedgeWords, w) {
			// "X could be a startup" guesses; "X could auto-generate
			// titles" states what it did.
			if !inSet(hedgeModals, w) || inSet(guessVerbs, peekWordAt(s, np, len(s))) {
				return true
			}
		}
		pos = np
	}
}

var (
	hedgeModals = set(`may might could`)
	guessVerbs  = set(`be have refer mean exist not also well possibly still just`)
)

var hedgeWords = set(`if whether may might could possible possibly perhaps maybe unless assuming suppose supposing likely
sure certain unsure
appears appear seems seem unclear uncertain called named asked asking mentioned mentioning referring meant
regarding clarify verify check visit share context compare confirm`)

// resolveUnknown applies the answer-level rule: when the brand is disclaimed
// (an ignorance statement names it, or follows a sentence naming it) and no
// sentence asserts anything about it, every mention of it is an Unknown one.
func (an *analysis) resolveUnknown() {
	sc := an.sc
	disclaimed := false
	lastRec, lastHedge := -1, false
	for i := range sc.cands {
		c := &sc.cands[i]
		if c.ent != 0 || c.state != candAccepted || c.link {
			continue
		}
		if c.unknown {
			disclaimed = true
			continue
		}
		if c.srec != lastRec { // one look per sentence
			rec := &sc.sents[c.srec]
			lastRec, lastHedge = c.srec, an.hedged(rec, c) && !an.assertedAfterTurn(rec, c) // disclaim.go
			if rec.unkTo > rec.unkFrom {
				// "It's possible X is a startup, but I can't verify that."
				disclaimed = true
			}
		}
		if c.hedge = lastHedge; !c.hedge {
			return // a statement about the brand wins
		}
	}
	if !disclaimed && !an.governedIgnorance() {
		return // nothing disclaimed: no mention to mark, none to clear
	}
	if an.statedAfter() { // disclaim.go
		an.knownAfterAll()
		return
	}
	for i := range sc.cands {
		if c := &sc.cands[i]; c.ent == 0 && c.state == candAccepted && !c.link {
			c.unknown = true
		}
	}
}

// governedIgnorance: a sentence right after one naming the brand (up to
// two sentences on) disclaims knowledge and names no other tracked entity.
func (an *analysis) governedIgnorance() bool {
	return an.afterBrandSentences(2, func(s, e int) bool {
		return len(an.ignoranceSpans(s, e, nil)) > 0 || an.unknownByRules(s, e)
	})
}

// namesOther: an accepted mention of an entity other than the brand lies
// in [s,e).
func (an *analysis) namesOther(s, e int) bool {
	for i := range an.sc.cands {
		c := &an.sc.cands[i]
		if c.start >= s && c.end <= e && c.ent != 0 && c.state == candAccepted {
			return true
		}
	}
	return false
}

// unknownByRules runs the fixed-phrase rules over text[s:e].
func (an *analysis) unknownByRules(s, e int) bool {
	low := []byte(strings.ToLower(an.text[s:e]))
	for _, r := range unknownRules() {
		if r.re.Match(low) {
			return true
		}
	}
	return false
}

// knownToAct: "known to conflict", "been known to lose edits" — a
// statement that the product does something, not that it is unknown
// ("not known to me", "known to the public" are about knowledge).
func knownToAct(toks []igTok, j int) bool {
	if j+2 >= len(toks) || !strings.EqualFold(toks[j+1].word, "to") {
		return false
	}
	return !inSet(knownToAudience, strings.ToLower(toks[j+2].word))
}

var knownToAudience = set(`me us the many most anyone everyone people users the public me, my our a any`)
