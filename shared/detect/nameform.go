package detect

import (
	"strings"
)

// A brand's ordinary word written in a form only a name takes, read from
// the query beside the answer (issue 11, the classes blind batch AF
// showed; round d13):
//
//   - a plural before a product's noun in the query ("are beats headphones
//     good", "vans shoes sizing"): English compounds take the singular as
//     a modifier ("a sandal strap", "a van rental"), so the plural there
//     is a name, and the answer's plural agreement ("Beats are mostly a
//     fashion buy") speaks of its products, not of the common noun;
//   - the answer capitalises, right after the word, the words the query
//     holds after it ("vans old skool sizing" answered "Vans Old Skool run
//     true to size", "polar pacer pro specs" by "Polar Pacer Pro key
//     specs"): the answer writes the phrase the query asks about as a
//     proper name, which at a sentence start the capital of the word
//     alone cannot say.

// A meaning asked of a good's feature ("kong toy colors meaning") is the
// feature's, not the word's: a query's meaning word marks the word as used
// as a word only when no good's noun follows it (prepareQuery). And a
// person's name that gives a middle initial ("Hunter S. Thompson",
// "Michael J. Fox"): personName reads the word before the initial as the
// first name of the surname after it, as it reads "Neil Postman".

// A lower-case alias that opens with the name ("innocent drinks" for
// Innocent, "monzo bank" for Monzo) shows the owner writes the name itself
// in lower case: "**innocent** – no added sugar" in a list is the name as
// its owner styles it, read as a capitalised name is (ownCase).

// A name of several words that is no word is a namesake too when the query
// asks its meaning ("what does caffè nero mean") or the answer defines it
// by a natural kind, after a copula or in apposition ("the Côte d'Or, the
// narrow limestone escarpment that runs south from Dijon"): it then needs
// the evidence an ordinary word does (guardNamesakes), as "Saturn" does.

// wQueryNameForm: the query holds the word as a name (above).
const wQueryNameForm = 0.5

// pluralForm: f is an English plural — a word once its "s" (or "es") is
// dropped, and not a singular in "ss", "us" or "is" ("sandals", "boots",
// "beats"; not "glass", "campus", "tennis").
func pluralForm(f string) bool {
	n := len(f)
	if n < 4 || f[n-1] != 's' || strings.HasSuffix(f, "ss") || strings.HasSuffix(f, "us") || strings.HasSuffix(f, "is") {
		return false
	}
	return ordinaryLevel(f[:n-1]) != 0 || strings.HasSuffix(f, "es") && ordinaryLevel(f[:n-2]) != 0
}

// queryPluralName: the query names the candidate's entity by its plural
// word right before a product's or a good's noun ("beats headphones",
// "vans shoes", "sandals resorts"): the name (above).
func (an *analysis) queryPluralName(c *cand) bool {
	f := an.d.pats[c.pat].folded
	if !an.queryNames[c.ent] || !pluralForm(f) || strings.IndexByte(f, ' ') >= 0 {
		return false
	}
	return goodsNounAfter(an.queryFolded, f)
}

// goodsNounAfter: the folded query holds form right before a good's or a
// product's noun ("beats headphones", "kong toy colors").
func goodsNounAfter(fq, form string) bool {
	return anyOccurrence(fq, form, func(_, en int) bool { return goodsNoun(peekWordAny(fq, en)) })
}

// goodsNoun: w is a good's or a product's noun, or its plural ("tent",
// "headphones", "app").
func goodsNoun(w string) bool {
	return inSetStem(goodsNouns, w) || inSetStem(categoryNouns, w) || inSet(productNouns, w)
}

// queryPhraseCapitalised: the words right after the candidate are
// capitalised and the query holds them right after the word too ("Vans
// Old Skool" for "vans old skool sizing"): the answer writes the query's
// phrase as a proper name. A function word after the word ("Risk Of …")
// or a punctuation between says nothing, nor a word English capitalises
// anyway ("Plain English", "Swiss French").
func (an *analysis) queryPhraseCapitalised(c *cand, rec *sentRec) bool {
	text := an.text
	if !an.queryNames[c.ent] || c.end >= rec.end || text[c.end] != ' ' {
		return false
	}
	w, _ := wordAt(text, c.end, rec.end)
	if w == "" || !nameLike(w) || inSet(functionWords, strings.ToLower(w)) || inSet(demonyms, strings.ToLower(w)) {
		return false
	}
	fq, fw := an.queryFolded, foldString(w)
	return anyOccurrence(fq, an.d.pats[c.pat].folded, func(_, en int) bool {
		return peekWordAny(fq, en) == fw
	})
}

// queryNameForm: either form above holds for a capitalised candidate.
func (an *analysis) queryNameForm(c *cand, rec *sentRec) bool {
	return an.queryPluralName(c) || an.queryPhraseCapitalised(c, rec)
}

// goodsNouns: kinds of goods and financial products a brand sells under
// its name, which its name may modify in a query ("beats headphones",
// "vans sneakers", "kong toy", "mosaic loan"), beside the products and
// services of categoryNouns; read with their plurals.
var goodsNouns = set(`headphone earphone speaker shoe sneaker trainer boot sandal clog slipper sock jean jacket coat
shirt hoodie dress bag backpack wallet watch glasses sunglasses toy game bar snack drink juice smoothie chocolate
candy cereal cookie chip cracker coffee tea bottle cup mug blender knife pan pot cookware mattress pillow sheet
towel tent stove charger cable case cover controller keyboard mouse monitor resort hotel store shop pharmacy
outlet product line range collection model models chew ball treat crate leash collar bed stroller loan lease
mortgage policy`)

// demonyms: languages and peoples, capitalised in any English sentence.
var demonyms = set(`english british american french german spanish italian portuguese dutch swiss irish scottish welsh
chinese japanese korean indian russian greek latin arabic turkish polish swedish norwegian danish finnish
european african asian canadian australian mexican brazilian`)

// initialThenName: at pos, after the candidate, a middle initial — one
// capital letter and a full stop — then a capitalised word (" S.
// Thompson"); it returns that word and its end, or 0. The initial's full
// stop may end the scanner's sentence, so the raw text is read.
func initialThenName(text string, pos int) (string, int) {
	const lead = len(" S. ")
	if pos+lead >= len(text) || text[pos] != ' ' || !('A' <= text[pos+1] && text[pos+1] <= 'Z') ||
		text[pos+2] != '.' || text[pos+3] != ' ' {
		return "", 0
	}
	w, _ := wordAt(text, pos+lead, min(len(text), pos+lead+maxTokenBytes))
	if w == "" || !strings.HasPrefix(text[pos+lead:], w) {
		return "", 0
	}
	return w, pos + lead + len(w)
}

// rivalAnswers is what another tracked entity named somewhere in the
// answer adds to a candidate: wOtherAnswer, or wOtherNear when the query
// names the candidate's entity and uses no word of it as a word ("is guess
// good quality" answered "Guess is mostly trading on its 90s nostalgia …
// Levi's is a far better shout"): the rival is the alternative to what the
// query asked about, so the answer is about that product, as a rival in
// the next sentence says.
func (an *analysis) rivalAnswers(c *cand) float64 {
	if an.queryNames[c.ent] && !an.queryWord[c.ent] {
		return wOtherNear
	}
	return wOtherAnswer
}

// lowerNameIn: the alias, written in lower case, opens with the name and
// goes on ("innocent drinks" for Innocent): the name as its owner writes
// it, in lower case. A name already in lower case needs nothing.
func lowerNameIn(name, alias string) (string, bool) {
	l := strings.ToLower(name)
	if l == name || !lowerStyled(alias) || !strings.HasPrefix(alias, l+" ") {
		return "", false
	}
	return l, true
}

// phraseNamesake: a brand's name of several words, at c, is the query's
// word or defined as a natural kind (above).
func (an *analysis) phraseNamesake(c *cand) bool {
	return c.ent == 0 && (an.queryWord[c.ent] || an.definitional(c) == defNaturalKind)
}
