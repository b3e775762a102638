package detect

import "strings"

// The query's sense of an ordinary word, read from the query's grammar
// (round d14): what a person infers from how the query uses the word before
// reading the answer.
//   - An adjective qualifying a noun after a determiner ("how to write a
//     workable business plan", "is a breathable jacket worth it"): the word
//     is derived as an adjective and the answer writes it in lower case
//     itself ("a plan is workable"), so the query asks about the quality,
//     not the product that took its name.
//   - A meaning asked of a product's phrase ("kong toy colors meaning",
//     "what does a mosaic loan mean"): the word qualifies a product's noun
//     in the query, so the meaning asked is of the product's attribute or
//     term, not of the word (meaningOfProduct).
//   - Two kinds sharing one head noun ("quartz vs granite countertops",
//     "oak or maple flooring"): the other side is a common word, the head
//     a common noun no product is, so the word is a kind like the other
//     (kindsPaired).
//   - A plant's kind noun right after the word ("how to care for a
//     palmetto palm", "a mosaic fern"): the word names the plant's kind,
//     as "osprey aircraft" names a craft (queryNounSense).

// queryWordSense: the folded query uses form as a word in one of the
// senses above (prepareQuery marks the form's owners queryWord).
func (an *analysis) queryWordSense(fq, form string) bool {
	return anyOccurrence(fq, form, func(st, en int) bool {
		next := peekWordAny(fq, en)
		if next == "" || an.d.folded[next] {
			return false
		}
		if inSetStem(plantKinds, next) || an.kindsPaired(fq, st, en) {
			return true
		}
		return an.queryAdjective(fq, form, st, next)
	})
}

// queryAdjective: the occurrence of form at st in the folded query, before
// next, is an adjective qualifying a noun after a determiner, and the
// answer writes the word in lower case too.
func (an *analysis) queryAdjective(fq, form string, st int, next string) bool {
	p1, _ := wordBefore(fq, st)
	return inSet(queryDeterminers, p1) && adjectival(form) && len(next) >= 3 && !inSet(functionWords, next) &&
		containsWord(an.text, form) // in lower case, as the word is written
}

// queryNounCue: a product cue beside the candidate (cue, a word of the
// answer: "Workable plans", "a Plan Workable") is a noun the query's
// adjective qualifies ("a workable business plan"): the answer repeats the
// query's phrase, and the noun says nothing of a product.
func (an *analysis) queryNounCue(c *cand, cues ...string) bool {
	if !an.queryWord[c.ent] || an.query == "" {
		return false
	}
	fq := an.queryFolded
	form := an.d.pats[c.pat].folded
	return anyOccurrence(fq, form, func(st, en int) bool {
		pos := en
		for k := 0; k < 3; k++ {
			w, np := wordAtAny(fq, pos)
			if w == "" || inSet(functionWords, w) {
				return false
			}
			if k == 0 && !an.queryAdjective(fq, form, st, w) {
				return false
			}
			for _, cue := range cues {
				if cue != "" && sameNoun(w, strings.ToLower(cue)) {
					return true
				}
			}
			pos = np
		}
		return false
	})
}

// plantKinds name kinds of plant a word qualifies in a query ("palmetto
// palm", "mosaic fern"); no product's name goes before them.
var plantKinds = set(`palm shrub bush vine fern cactus succulent orchid moss hedge conifer houseplant perennial
annual bulb sapling`)

// meaningOfProduct: every occurrence of form in the folded query is
// followed by a product's noun or a good's ("kong toy", "mosaic loan"): a
// meaning the query asks is of the product's thing, not of the word
// ("mint condition meaning", "opal birthstone meaning" keep it).
func (an *analysis) meaningOfProduct(fq, form string) bool {
	any, all := false, true
	anyOccurrence(fq, form, func(_, en int) bool {
		next := peekWordAny(fq, en)
		any = true
		all = all && next != "" && (an.productWord(next) || inSetStem(goodsNouns, next))
		return false
	})
	return any && all
}

// kindsPaired: the occurrence [st,en) of the brand's word opens the query
// or follows a function word, and "vs", "versus" or "or" joins it to one
// common word that names no tracked entity and the answer writes in lower
// case as a kind ("granite if you want …"), followed by the head noun both
// share, a noun no product is (common, or a compound the word list
// lacks), ending the query or before "for"
// ("quartz vs granite countertops", "oak or maple flooring for a kitchen").
func (an *analysis) kindsPaired(fq string, st, en int) bool {
	if p, _ := wordBefore(fq, st); p != "" && !inSet(functionWords, p) && !inSet(questionAux, p) {
		return false
	}
	j, np := wordAtAny(fq, en)
	if j != "vs" && j != "versus" && j != "or" {
		return false
	}
	other, np := wordAtAny(fq, np)
	head, np := wordAtAny(fq, np)
	after := peekWordAny(fq, np)
	if other == "" || head == "" || after != "" && after != "for" || !commonWord(other) || an.d.folded[other] ||
		an.namesTracked(fq[st:]) || !containsWord(an.text, other) {
		return false // a name of two words ("culture amp", "banana republic"), or one the answer writes as such
	}
	return phraseWord(other) && phraseWord(head) && !an.productWord(head) &&
		(commonWord(head) || ordinaryLevel(head) == 0 && isASCII(head)) // "countertops": a compound the word list lacks
}

// queryOwnWord: the query names one entity by a common word, asks nothing
// of a product, and uses the word as a common noun or adjective — after a
// determiner, before no product's noun ("the kraken legend", "a remote
// work policy"; not "a notion template"), or set against another common
// word ("whisk vs fork", "namely vs that is": prepareQuery reads such a
// comparison as one of kinds) — and the answer writes that word in lower
// case itself ("a whisk is better"): the answer takes the query's word in
// its ordinary sense, so its capitals at a sentence's start or in a label
// are that word's too. A product's name takes no determiner ("in zoom",
// and the answer's "pinch to zoom" is another sense).
func (an *analysis) queryOwnWord(fq string) {
	for pi := range an.d.pats {
		p := &an.d.pats[pi]
		if !p.common || p.domain || inSet(functionWords, p.folded) || !containsWord(an.text, p.folded) {
			continue
		}
		common := anyOccurrence(fq, p.folded, func(st, en int) bool {
			j, np := wordAtAny(fq, en)
			w, ws := wordBefore(fq, st)
			if inSet(queryDeterminers, w) {
				return j == "" || !an.productWord(j) // not "a notion template"
			}
			if j == "vs" || j == "versus" { // "whisk vs fork"
				return an.commonRival(peekWordAny(fq, np))
			}
			if w == "vs" || w == "versus" { // "fork vs whisk"
				other, _ := wordBefore(fq, ws)
				return an.commonRival(other)
			}
			return false
		})
		for _, o := range p.owners {
			an.queryWord[o.ent] = an.queryWord[o.ent] || common
		}
	}
}

// commonRival: w, set against the word in a query's "x vs y", is another
// common word, not a tracked name ("whisk vs fork", not "ladle vs mealime").
func (an *analysis) commonRival(w string) bool {
	return ordinaryLevel(w) > levelShort && !an.d.folded[w]
}
