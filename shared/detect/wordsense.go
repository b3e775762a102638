package detect

import (
	"slices"
	"strings"
	"unicode"
)

// Word senses of ordinary-word brands that no product cue decides, read
// from the grammar around the word rather than from phrase lists (issue
// 11, the classes blind batch AA showed):
//
//   - the query inflects the word as a verb ("rabbits burrowing",
//     "grazed"): a brand's name is not conjugated, so the query uses the
//     word as a word;
//   - a plural noun agrees with a plural copula ("Hiking Sandals Are a Bad
//     Idea"): a brand whose name is a plural takes the singular ("Sandals
//     is the safe pick");
//   - a capitalised label after the name ("the Reflect Tool") in an answer
//     whose other occurrence is a menu step of the same software names
//     that software's control, not the product;
//   - the query asks about a place visited ("things to do near albert
//     dock"), as "visit" and "sightseeing" do;
//   - a product's range or line-up is a generic aspect: disclaiming it is
//     ignorance of the product;
//
// and the classes blind batch O showed:
//
//   - a model designation right before the word ("V-22 Osprey", "F4U
//     Corsair", "Su-27 Flanker"): a craft's name of another maker;
//   - the word opens an italic or quoted title a year in parentheses
//     follows ("*Wag the Dog* (1997)"): a work;
//   - a definition whose determiner is a possessive ("Cotopaxi is one of
//     Ecuador's highest volcanoes", guard.go's definitional);
//   - the query puts the word before a kind's noun ("osprey aircraft
//     safety record") or asks about a century ("the reformation in the
//     16th century"): the word's other sense (queryNounSense);
//
// and, for the senses the next batches will bring: what only a creature,
// a plant, an event or a ruler does ("Osprey hunts"), a definition headed
// by such a kind ("a jump-jet aircraft that …"), a work's or creature's
// noun titling the word ("the horse Digit"), a title of rank before it
// ("Prince Albert"), and the word written as a plural noun elsewhere in
// the answer ("the ospreys arrive").

// queryWordForms marks as used as a word (queryWord) the entities whose
// ordinary word the query holds only in a form no name takes, never as
// written: derived as an adverb or an abstract noun ("program terminated
// abnormally", "calmness"; derivedIn), or inflected as a verb — the form
// plus "ing" or "ed", with a final "e" dropped or a final consonant
// doubled ("burrowing", "grazing", "reflected", "digging").
func (an *analysis) queryWordForms(fq string) {
	for pi := range an.d.pats {
		p := &an.d.pats[pi]
		if !p.common || p.domain || containsWord(fq, p.folded) {
			continue
		}
		inflected := len(p.folded) >= 3 && isASCII(p.folded) && strings.IndexByte(p.folded, ' ') < 0 &&
			verbInflected(fq, p.folded)
		if !inflected && !derivedIn(fq, p.folded) {
			continue
		}
		for _, o := range p.owners {
			an.queryWord[o.ent] = true
		}
	}
}

// verbInflected: the folded text s holds form inflected as a verb, as a
// whole word (read in place: no inflected string is built).
func verbInflected(s, form string) bool {
	n := len(form)
	if form[n-1] == 'e' {
		// "graze" → "grazing", "grazed"
		return inflectedIn(s, form[:n-1], 0, "ing") || inflectedIn(s, form, 0, "d")
	}
	if inflectedIn(s, form, 0, "ing") || inflectedIn(s, form, 0, "ed") {
		return true
	}
	if !vowel(form[n-1]) && vowel(form[n-2]) && !vowel(form[n-3]) && strings.IndexByte("wxy", form[n-1]) < 0 {
		// "dig" → "digging", "digged"
		return inflectedIn(s, form, form[n-1], "ing") || inflectedIn(s, form, form[n-1], "ed")
	}
	return false
}

// inflectedIn: stem at a word's start, then the byte double (when not
// 0), then suf at the word's end, somewhere in s.
func inflectedIn(s, stem string, double byte, suf string) bool {
	for off := 0; ; {
		i := strings.Index(s[off:], stem)
		if i < 0 {
			return false
		}
		st := off + i
		off = st + 1
		if st > 0 && isWordRune(lastRune(s[:st])) {
			continue
		}
		p := st + len(stem)
		if double != 0 {
			if p >= len(s) || s[p] != double {
				continue
			}
			p++
		}
		if !strings.HasPrefix(s[p:], suf) {
			continue
		}
		if e := p + len(suf); e == len(s) || !isWordRune(firstRune(s[e:])) {
			return true
		}
	}
}

func vowel(b byte) bool { return strings.IndexByte("aeiou", b) >= 0 }

// pluralAgreement: the brand's word is an English plural ("sandals",
// "boots": a word once its "s" is dropped), and this occurrence is the
// subject of a plural copula right after it ("Sandals are …", "Hiking
// Sandals Are a Bad Idea"): the plural noun. A company or a product named
// so takes the singular ("Sandals is the safe pick", "Boots is a UK
// pharmacy").
func (an *analysis) pluralAgreement(c *cand, rec *sentRec) bool {
	if !pluralForm(an.d.pats[c.pat].folded) {
		return false
	}
	w, np := wordAt(an.text, c.end, rec.end)
	if n := contractionLen(an.text, w, np, rec.end); n > 0 {
		w += "'t"
	}
	return inSet(pluralAgreeing, strings.ToLower(w))
}

// kindPredicate: what the sentence says the word does, only a creature,
// a plant, an event or a ruler does ("Osprey hunts over open water",
// "Saffron blooms in October", "the battle was fought in 1415", "Albert
// reigned for …"): another sense of the word. Products offer, charge and
// sync; none hatches, migrates or was fought.
func (an *analysis) kindPredicate(c *cand, rec *sentRec) bool {
	text := an.text
	w, np := wordAt(text, c.end, rec.end)
	for k := 0; k < 2 && inSet(predicateAdverbs, w); k++ {
		w, np = wordAt(text, np, rec.end)
	}
	lw := strings.ToLower(w)
	if inSet(kindVerbs, lw) {
		return true
	}
	if lw == "was" || lw == "were" {
		return inSet(eventParticiples, strings.ToLower(peekWordAt(text, np, rec.end)))
	}
	return false
}

var (
	// kindVerbs are what creatures, plants and rulers do (third person and
	// past): not one names what a product or a company does.
	kindVerbs = set(`hunts hunted preys preyed nests nested migrates migrated hibernates hibernated roosts roosted
lays hatches hatched spawns spawned molts moults moulted forages foraged perches perched soars soared grazes grazed
burrows burrowed pollinates germinates germinated blooms bloomed blossoms blossomed ripens ripened wilts reigned
abdicated erupted erupts`)
	// eventParticiples after "was"/"were": what happens to a battle, a
	// treaty, a siege or a ruler.
	eventParticiples = set(`fought signed besieged crowned assassinated beheaded canonised canonized ratified
annexed sacked razed`)
)

// kindHead: w, the last word of phrase (the words after the article),
// defining a word ("X is a fish-eating raptor", "X was a
// siege of 1415"), names a creature, a craft, an event or a work of art —
// and heads its phrase (the phrase ends, or "of", "that", "in" … follow),
// so it is no modifier of a product's noun ("a war room tool").
func kindHead(text, phrase, w string, np, end int) bool {
	if !inSetStem(senseKinds, strings.ToLower(w)) || hasWordIn(phrase, functionWords) {
		return false // "a great outlet for high-energy breeds": not what X is
	}
	next, _ := wordAt(text, np, end)
	return next == "" || inSet(kindHeadFollowers, strings.ToLower(next))
}

var (
	// senseKinds are the kinds an ordinary word names in its other senses:
	// creatures, aircraft and ships, historical events, works and people
	// of the past — none a kind of product.
	senseKinds = set(`raptor mammal predator songbird insect reptile amphibian rodent breed marsupial primate
aircraft airliner bomber warship battleship submarine locomotive battle war siege treaty dynasty uprising
rebellion revolt opera symphony sonnet ballad novella poet painter composer novelist explorer emperor empress
pharaoh saint unit helicopter tiltrotor fighter volcano`)
	kindHeadFollowers = set(`of that which who whose in on from with found fought native known used and or`)
)

// titledKind: a lower-case noun of a work, a creature, a vessel or a
// storm, after a determiner, a possessive or a year, titles the word ("the
// novel Sunday", "Atwood's film Rise", "the 1997 song Wander", "the horse
// Digit"): a work's or a creature's name, not the product's ("the app
// Rise" is a cue).
func (an *analysis) titledKind(c *cand, rec *sentRec) bool {
	text := an.text
	prev := prevToken(text, rec.rawStart, c.start)
	if prev.word == "" || !inSet(titleKinds, prev.word) || !strings.HasSuffix(text[:c.start], prev.word+" ") {
		return false
	}
	st := c.start - 1 - len(prev.word)
	before, _ := wordBefore(text[:st], st)
	lb := strings.ToLower(before)
	return inSet(articles, lb) || inSet(possessiveDeterminers, lb) || strings.HasSuffix(before, "s") && st >= 2 &&
		(strings.HasSuffix(text[:st-1], "'s") || strings.HasSuffix(text[:st-1], "’s")) || allDigits(before) && len(before) == 4
}

var (
	// titleKinds name works, creatures, vessels and storms whose own
	// names follow them.
	titleKinds = set(`novel film movie song album poem book memoir musical opera ballet painting sculpture
documentary sitcom episode ship yacht horse racehorse mare stallion dog cat parrot hurricane storm typhoon`)
	possessiveDeterminers = set(`his her their its our my your`)
)

// designationBefore: a model designation — a capital, up to three
// letters, a hyphen and digits, an optional letter ("V-22", "AH-64",
// "Su-27", "F-35A"), or capitals and digits run together ("F4U", "B17",
// "MV22B") — stands right before pos: the word completes a craft's name
// ("V-22 Osprey", "F4U Corsair"). A brand's own models follow its name
// ("Osprey Atmos AG 65"), never precede it. A quarter or a fiscal year
// ("Q3", "FY24") is no designation.
func designationBefore(text string, lo, pos int) bool {
	if pos-lo < 4 || text[pos-1] != ' ' {
		return false
	}
	st := pos - 1
	for st > lo && text[st-1] != ' ' && pos-st < 12 {
		st--
	}
	w := strings.Trim(text[st:pos-1], "*_")
	if len(w) < 2 || w[0] < 'A' || w[0] > 'Z' {
		return false
	}
	h := strings.IndexByte(w, '-')
	if h < 0 {
		return runTogetherDesignation(w)
	}
	if h > 3 {
		return false
	}
	for i := 1; i < h; i++ {
		if !isASCIILetter(w[i]) {
			return false
		}
	}
	d := h + 1
	for d < len(w) && w[d] >= '0' && w[d] <= '9' {
		d++
	}
	if d == h+1 || d-h-1 > 4 {
		return false
	}
	for _, b := range []byte(w[d:]) {
		if b < 'A' || b > 'Z' {
			return false
		}
	}
	return len(w)-d <= 2
}

// runTogetherDesignation: w, three to six capitals and digits with a
// digit after the first capital ("F4U", "B17", "MV22B"), not a quarter,
// a half or a fiscal year.
func runTogetherDesignation(w string) bool {
	if len(w) < 3 || len(w) > 6 || strings.HasPrefix(w, "FY") {
		return false
	}
	digit := false
	for i := 1; i < len(w); i++ {
		switch b := w[i]; {
		case b >= '0' && b <= '9':
			digit = true
		case b < 'A' || b > 'Z':
			return false
		}
	}
	return digit
}

// workTitleYear: the word opens an italic or quoted span that a year in
// parentheses follows ("*Wag the Dog* (1997)", "“Rise” (2019)"): the
// title of a film, a book or an album, as markdown and print set them;
// a product's name is set in bold, if at all.
func workTitleYear(text string, lo, pos int) bool {
	if pos-lo < 1 {
		return false
	}
	var closer string
	switch {
	case text[pos-1] == '*' && (pos-2 < lo || text[pos-2] != '*'):
		closer = "*"
	case text[pos-1] == '_' && (pos-2 < lo || text[pos-2] != '_'):
		closer = "_"
	case text[pos-1] == '"':
		closer = "\""
	case strings.HasSuffix(text[lo:pos], "“"):
		closer = "”"
	default:
		return false
	}
	span := text[pos:min(len(text), pos+maxTitleBytes)] // evidence.go's bound on a title
	k := strings.Index(span, closer)
	if k < 1 || strings.IndexByte(span[:k], '\n') >= 0 {
		return false
	}
	rest := strings.TrimLeft(span[k+len(closer):], " ")
	return len(rest) >= 6 && rest[0] == '(' && rest[5] == ')' && allDigits(rest[1:5])
}

func isASCIILetter(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }

// guardPersons: the query asks who did something ("who won the most
// wimbledon titles in a row") and neither names the brand nor asks about
// products or makers, and the brand's name is a person's full name —
// capitalised words none of which is an ordinary word ("Björn Borg"): the
// answer names the person, not the label named after them. "who makes
// the best sailing jackets" asks for a maker; "who founded björn borg"
// names the brand.
func (an *analysis) guardPersons() {
	if !asksWho(an.query) || an.queryProduct || an.queryNames[0] || inSet(makerVerbs, peekWordAny(an.queryFolded, 4)) ||
		!fullPersonName(an.d.ents[0].name) {
		return
	}
	cands := an.sc.cands
	for i := range cands {
		if c := &cands[i]; c.ent == 0 && (c.kind == KindName || c.kind == KindAlias) {
			c.state, c.local, c.score, c.otherSense = candRejected, -2, -2, true
		}
	}
}

// makerVerbs after "who" ask for a maker or a seller: a company.
var makerVerbs = set(`makes make made sells sell sold offers offer manufactures produces owns own has have
ships delivers stocks carries`)

// fullPersonName: two or three words, each a capital and lower-case
// letters, none of them a common word ("Björn Borg", not "Mint Mobile"
// nor "Sprout Social").
func fullPersonName(name string) bool {
	ws := strings.Fields(name)
	if len(ws) < 2 || len(ws) > 3 {
		return false
	}
	for _, w := range ws {
		r := []rune(w)
		// a word of the rarest lists is a name's more often ("borg")
		if l := ordinaryLevel(foldString(w)); len(r) < 2 || !unicode.IsUpper(r[0]) || l != 0 && l < 60 {
			return false
		}
		for _, x := range r[1:] {
			if !unicode.IsLower(x) {
				return false
			}
		}
	}
	return true
}

// historyQuery: the query asks about a century or an era ("what caused
// the reformation in the 16th century", "medieval guilds"): a definite
// noun in it is the era's event or institution, not a product.
func historyQuery(fq string) bool {
	return hasWordIn(fq, historyWords)
}

var historyWords = set(`century centuries medieval ancient antiquity dynasty`)

// honorificBefore: a title of rank or address stands right before pos
// ("Prince Albert", "Sir Wander", "Dr. Digit"): a person's name.
func honorificBefore(text string, lo, pos int) bool {
	if pos == 0 || text[pos-1] != ' ' {
		return false // the gap below ends in a space: no walk back to a word
	}
	w, st := wordBefore(text[:pos], pos)
	if w == "" || st < lo {
		return false
	}
	// only spaces, or a title's full stop and a space, between them
	gap := text[st+len(w) : pos]
	return (gap == " " || gap == ". ") && unicode.IsUpper(firstRune(w)) && inSet(honorifics, w)
}

// honorifics are titles written, capitalised, before a person's name.
var honorifics = set(`prince princess king queen sir dame lord lady saint st dr mr mrs ms mx president professor prof
pope emperor empress duke duchess archduke tsar sultan`)

// pluralAgreeing are the copulas only a plural subject takes.
var pluralAgreeing = set(`are were aren't weren't`)

// labelSense: o's only product cue is a capitalised control's name after
// it ("the Reflect Tool", "the Zoom Panel"), and sense, another occurrence
// of the same word, is a step of a menu path ("Object › Transform ›
// Reflect…"): the answer walks through the menus of some software, whose
// tool the label names (one sense per answer). The cue is withdrawn.
func (an *analysis) labelSense(o, sense *cand) bool {
	text := an.text
	if !o.cued || sense.pat != o.pat || !uiPath(text, sense.start, sense.end) || uiPathRoot(text, sense.start) {
		return false
	}
	rec := &an.sc.sents[o.srec]
	prev := prevToken(text, rec.rawStart, o.start)
	next := nextToken(text, o.end, rec.end)
	return next.sep == 0 && unicode.IsUpper(firstRune(next.word)) && inSet(productCues, next.word) &&
		!inSet(productCues, prev.word) && !tldFollows(text, o.end) && !isLinkAnchor(text, o.start, o.end) &&
		an.definitional(o) != defProduct && !an.domainSeen[o.ent]
}

// placeQuery: the query asks what to do, see or eat around a place
// ("things to do near albert dock", "what to see in canary wharf", "day
// trip to …"), as "visit" and "sightseeing" do: its names are places.
func placeQuery(fq string) bool {
	for _, p := range placePhrases {
		if strings.Contains(fq, p) {
			return true
		}
	}
	return false
}

// The preposition is part of each: "things to do at sandals" asks about a
// resort (a venue, a business), "… in"/"near" about a place.
var placePhrases = [...]string{"things to do in ", "things to do near ", "things to do around ", "what to see in ",
	"what to see near ", "where to stay in ", "where to stay near ", "where to eat in ", "where to eat near ",
	"day trip to ", "day trips to ", "attractions in ", "attractions near "}

// lineupAspects after a possessive stand for the product itself, as
// genericAspects do: its range, line-up or menu ("nothing reliable on
// Graze's current range").
var lineupAspects = set(`range ranges lineup line-up catalogue catalog menu selection assortment collection`)

// pluralSense: the answer writes the brand's word as a plural noun too
// ("Ospreys return in April … Osprey nests are …", "the sprouts"): a
// brand's name takes no plural, so the capitalised occurrences without a
// cue of their own likely name the same kind (wNounSense, as a
// lower-case common noun gives).
func (an *analysis) pluralSense() {
	cands := an.sc.cands
	for pi := range an.d.pats {
		p := &an.d.pats[pi]
		f := p.folded
		n := len(f)
		if !p.common || p.domain || n < 3 || !isASCII(f) || strings.IndexByte(f, ' ') >= 0 || f[n-1] == 's' {
			continue
		}
		open := func(o *cand) bool {
			return o.pat == int32(pi) && o.guarded && o.state == candPending && !o.cued && !o.sensed && !o.otherSense
		}
		if !slices.ContainsFunc(cands, func(o cand) bool { return open(&o) }) ||
			!(an.pluralNoun(f, "s") || f[n-1] == 'y' && an.pluralNoun(f[:n-1], "ies")) {
			continue // the text is scanned only for a word with an open candidate
		}
		for i := range cands {
			if o := &cands[i]; open(o) {
				o.sensed = true
				o.local += wNounSense
			}
		}
	}
}
