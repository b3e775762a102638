package detect

import (
	_ "embed"
	"maps"
	"strconv"
	"strings"
	"sync"
)

// The general English lexicon under the brand's sentiment: VADER's 7,200
// scored words (vader/lexicon.tsv, MIT, vader/LICENSE). The curated
// product-review lexicon (lexicon.go) and the phrase rules of sentiment.go
// speak first; a word they do not know is read through VADER, so ordinary
// evaluative words no rule named ("sluggish", "delightful", "angered",
// "disappointment") count. VADER is a social-media lexicon; the words it
// scores that are plain description in answers about products are in
// vaderNeutral.

//go:embed vader/lexicon.tsv
var vaderTSV string

// vaderLexicon is parsed on first use: the API's cold start never reads
// sentiment.
var vaderLexicon = sync.OnceValue(func() map[string]float32 {
	m := make(map[string]float32, 7300)
	plural := make(map[string]float32, 7000)
	for line := range strings.Lines(vaderTSV) {
		if strings.HasPrefix(line, "#") {
			continue
		}
		w, v, ok := strings.Cut(strings.TrimRight(line, "\r\n"), "\t")
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(v, 32)
		if err != nil {
			panic("detect: vader/lexicon.tsv: " + err.Error())
		}
		if !vaderNeutral[w] {
			m[w] = float32(f)
		}
	}
	// plural and third-person forms it does not list ("annoyances",
	// "disappoints"), so that a lookup is one probe
	for w, v := range m {
		if ws := w + "s"; len(w) >= 4 && !strings.HasSuffix(w, "s") && !vaderNeutral[ws] {
			if _, ok := m[ws]; !ok {
				plural[ws] = v
			}
		}
	}
	maps.Copy(m, plural)
	return m
})

// vaderValence returns VADER's mean valence of w (−4…+4), read
// case-insensitively, through a plural or third-person "-s" when the form
// itself is not listed; 0 for words it does not score.
func vaderValence(w string) float32 {
	var buf [lexMaxLen]byte
	if len(w) < 3 || len(w) > len(buf) {
		return 0
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		case 'a' <= c && c <= 'z', c == '-', c == '\'':
		default:
			return 0
		}
		buf[i] = c
	}
	if !vaderFilter().mayHave(w) {
		return 0
	}
	return vaderLexicon()[string(buf[:len(w)])]
}

// vaderFilter turns most words away before the map is hashed (wordset.go).
var vaderFilter = sync.OnceValue(func() *wordFilter { return newWordFilter(vaderLexicon()) })

// vaderNeutral are words VADER scores (from tweets and movie reviews) that
// describe rather than judge in an answer about a product or a company:
// a "free" plan, "support" for a format, a "share" button, "like" as a
// preposition, a "security" feature, "sure", "please", "kind of". Chosen
// from their meaning in product writing before any batch was scored with
// VADER, not from any answer's result; "create" and "cancel" (a server
// "can be created", a plan "is cancelled in the store") are what the
// user does in how-to answers; "alone" is "on its own" ("the base plan
// alone", "you're not alone" is no praise).
var vaderNeutral = set(`
free support supports supported supporting share shares shared sharing like likes liked please
care cares help helps helped helping kind sure yes no ok okay well pretty agree agrees
accept accepted accepts allow allows allowed join joins joined play plays playing game games
security secure safety protect protected protection protects defense defence party parties
interest interests interested credit credits share-alike honest honestly true truly
justice natural reach reaches funny serious seriously cut cuts fight fighting fights
bear bearing kill killing killed die dying dead war battle battles attack attacks crime
crimes cancer disease sick
benefits demand demands demanded want wants wanted wish wishes hope hopes hoped chance chances
pressure tension lol haha hug hugs kiss kisses god
warning warnings alert alerts emergency threat threats
charge charges charged fee tax taxes debt debts
limit limits block blocks blocked stop stops stopped
grant grants granted award awards awarded prize prizes
feature featured features
create creates created creating cancel cancels cancelled canceled cancelling canceling
loyalty promised alone
`)
