package detect

import (
	"bytes"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The answer's language, guessed from its function words, decides two
// things the English rules get wrong elsewhere: an English word capitalised
// at a sentence start of a French, German or Spanish answer is a name
// (those languages would use their own word, with an article), and the
// sentiment of such an answer is read with a small lexicon of its own.

const (
	langUnknown int8 = iota
	langEnglish
	langOther
)

// maxLanguageWords bounds the words read to guess the language.
const maxLanguageWords = 200

// langWords are frequent function words, one language bit each; a word
// shared by languages sets several bits.
const (
	lwEN uint8 = 1 << iota
	lwFR
	lwDE
	lwES
	lwIT
	lwPT
)

var langWords = func() map[string]uint8 {
	m := map[string]uint8{}
	add := func(bit uint8, words string) {
		for _, w := range strings.Fields(words) {
			m[w] |= bit
		}
	}
	add(lwEN, `the and is are of to with for you it that this on in be can your has have its from or not as`)
	add(lwFR, `le la les des est et une un pour avec dans du sur pas qui au aux ce cette sont il elle vous très mais je
nous de en à ne`)
	add(lwDE, `der die das und ist nicht mit ein eine für auf den von zu sich auch dem des im sind sie wird aber sehr ich
wir es`)
	add(lwES, `el la los las es y una un para con del que por muy se sin son su al pero más está yo lo de en`)
	add(lwIT, `il la gli che è per con del della non una un sono di le più ma molto anche`)
	add(lwPT, `o os as é e uma um para com do da não que em dos das mais muito mas também`)
	return m
}()

// langWordFilter turns away most of the words langFirst lets through
// (wordset.go) before the map is hashed.
var langWordFilter = newWordFilter(langWords)

// langFirst[n] holds the first bytes (either case) of the function words
// of n bytes: most words of an answer are longer or start otherwise, and
// skip the map lookup.
var langFirst = func() (f [17]byteSet) {
	for w := range langWords {
		if len(w) < len(f) {
			f[len(w)].add(w[0])
			if 'a' <= w[0] && w[0] <= 'z' {
				f[len(w)].add(w[0] - 'a' + 'A')
			}
		}
	}
	return f
}()

// byteSet is a set of bytes.
type byteSet [4]uint64

func (s *byteSet) add(c byte)      { s[c>>6] |= 1 << (c & 63) }
func (s *byteSet) has(c byte) bool { return s[c>>6]&(1<<(c&63)) != 0 }

// nonEnglish reports whether the answer is written in another language
// than English (a guess from its first maxLanguageWords words, cached).
func (an *analysis) nonEnglish() bool {
	if an.lang == langUnknown {
		an.lang = guessLanguage(an.text)
	}
	return an.lang == langOther
}

func guessLanguage(text string) int8 {
	var counts [6]int
	words := 0
	var buf [16]byte
	for pos := 0; pos < len(text) && words < maxLanguageWords; {
		r, size := utf8.DecodeRuneInString(text[pos:])
		if !isWordRune(r) {
			pos += size
			continue
		}
		st := pos
		pos = wordEnd(text, pos+size, len(text))
		words++
		w := text[st:pos]
		if len(w) > len(buf) {
			continue
		}
		if !langFirst[len(w)].has(w[0]) || !langWordFilter.mayHave(w) {
			continue // no function word of that length starts so: skip the lookup
		}
		n := copy(buf[:], w)
		for i := 0; i < n; i++ {
			if 'A' <= buf[i] && buf[i] <= 'Z' {
				buf[i] += 'a' - 'A'
			}
		}
		bits := langWords[string(buf[:n])]
		if bits == 0 {
			continue
		}
		for l := 0; l < len(counts); l++ {
			if bits&(1<<l) != 0 {
				counts[l]++
			}
		}
		if bits == lwEN && counts[0] >= 6 && counts[0] >= 3*max(counts[1], counts[2], counts[3], counts[4], counts[5]) {
			return langEnglish // plainly English: stop reading
		}
	}
	best := 0
	for l := 1; l < len(counts); l++ {
		best = max(best, counts[l])
	}
	// English wins ties: a mostly English answer quoting a French
	// phrase stays English.
	if best > counts[0] {
		return langOther
	}
	return langEnglish
}

// foreignLexicon: polar words, negators, contrast words and intensifiers of
// French, German and Spanish (a small lexicon written for product
// reviews; keys folded like the text: lower case, no diacritics). English
// lexicon words keep their flags in such answers ("excellent"). Built on
// first use: folding its keys builds the fold tables (≈25 ms, 5 MB), which
// processes that never read a foreign answer — the API bootstrap links
// detect but never detects — must not pay at start.
var foreignLexicon = sync.OnceValue(func() map[string]uint8 {
	m := map[string]uint8{}
	add := func(f uint8, words string) {
		for _, w := range strings.Fields(words) {
			m[foldString(w)] |= f
			m[w] |= f
		}
	}
	// Words whose folded form is another word ("sûr" → "sur", on) are
	// read with their diacritics only.
	for _, w := range strings.Fields(`sûr sûre sûrs sûres`) {
		m[w] |= lexPositive
	}
	// French
	add(lexPositive, `excellent excellente excellents excellentes remarquable remarquables efficace efficaces fiable
fiables rapide rapides simple pratique pratiques clair claire clairs claires intuitif intuitive intuitifs puissant
puissante puissants idéal idéale meilleur meilleure meilleurs meilleures recommandé recommandée recommande
recommander recommandable parfait parfaite génial géniale agréable agréables solide solides robuste
sécurisé performant performante facile faciles apprécié appréciée appréciés avantage avantages atout atouts
satisfait satisfaits réussi réussie stable stables fluide ergonomique complet complète idéaux bon bonne bons bonnes
séduisant séduit plébiscité adorent adore imbattable imbattables abordable abordables avantageux avantageuse`)
	add(lexNegative, `cher chère chers chères coûteux coûteuse lent lente lents lentes lourd lourde compliqué
compliquée difficile difficiles limité limitée limités limitées mauvais mauvaise médiocre décevant décevante
décevants problème problèmes bug bugs panne pannes plaignent plaint plainte plaintes critiqué critiquée critiqués
critiques critique inconvénient inconvénients défauts instable lenteur lenteurs manque manquent faible
faibles risque risques dépassé dépassée fuite fuites piratage arnaque insatisfait insatisfaits frustrant
frustrante pénible pénibles lourdeur bloqué bloqués gelé gelés suspendu suspendus déçu déçus
regrette obsolète encombré payant chargé surchargé déconseille déconseillé déconseiller`)
	add(lexNegator, `pas jamais aucun aucune sans guère rien ni`)
	add(lexContrast, `mais cependant toutefois pourtant néanmoins revanche tandis malgré quoique`)
	add(lexBooster, `très vraiment extrêmement particulièrement trop`)
	add(lexSoftener, `parfois assez légèrement plutôt`)
	// German
	add(lexPositive, `hervorragend hervorragende hervorragenden ausgezeichnet ausgezeichnete gut gute guter gutes
guten zuverlässig zuverlässige schnell schnelle einfach einfache flexibel flexible empfehlenswert empfehlen
empfehle empfohlen beliebt beliebte stark starke sicher sichere praktisch praktische übersichtlich intuitiv
leistungsstark geeignet ideal beste besten bester besser bessere toll tolle überzeugt überzeugend überzeugende
stabil stabile günstig günstige vorteil vorteile stärke stärken gelungen angenehm schön schöne schönen
wunderschön wunderschöne wunderschönen umfangreich umfangreiche vielseitig leistungsfähig unerreicht unerreichte
unschlagbar unschlagbare unübertroffen preiswert preiswerte`)
	add(lexNegative, `langsam langsame langsamer teuer teure teurer schlecht schlechte schlechter unzuverlässig
unzuverlässige umständlich kompliziert komplizierte schwierig begrenzt eingeschränkt fehlt fehlen fehlende
mangelhaft enttäuschend enttäuscht problem probleme problematisch umstritten sicherheitslücken
datenschutzprobleme kritik kritisiert kritisierte beschweren beschweren beklagen beklagt beschwerden nachteil
nachteile schwäche schwächen veraltet veraltete träge fehleranfällig instabil abstürze ausfälle überteuert
unübersichtlich lücken mängel ärgerlich abraten abgeraten`)
	add(lexNegator, `nicht kein keine keinen keiner keinem nie niemals ohne kaum`)
	add(lexContrast, `aber jedoch allerdings doch obwohl trotz hingegen dagegen sondern`)
	add(lexBooster, `sehr äußerst besonders wirklich extrem spürbar ausgesprochen`)
	add(lexSoftener, `etwas manchmal gelegentlich`)
	// Spanish
	add(lexPositive, `excelente excelentes bueno buena buenos buenas mejor mejores fiable fiables confiable
rápido rápida rápidos fácil fáciles sencillo sencilla intuitivo intuitiva potente flexible recomendable
recomiendo recomendado recomendada recomendaría ideal útil seguro segura estable cómodo cómoda práctico práctica
bien ventaja ventajas destaca genial encanta eficaz eficiente sólido sólida completo completa barato barata
baratos baratas económico económica asequible asequibles fácilmente clara claras activa activas imbatible`)
	add(lexNegative, `caro cara caros caras lento lenta lentos lentas limitado limitada limitados limitadas malo
mala malos malas peor difícil complicado complicada problema problemas quejan quejas queja quejado fallos fallo
errores inestable desventaja desventajas inconveniente inconvenientes deficiente decepcionante costoso costosa
criticado criticada críticas riesgo riesgos lamentable reducidos lentitud pesado demasiado demasiados
demasiada demasiadas cuelga cuelgan`)
	add(lexNegator, `no nunca sin ningún ninguna tampoco jamás`)
	add(lexContrast, `pero aunque embargo mientras sino pese obstante`)
	add(lexBooster, `muy realmente sumamente extremadamente especialmente`)
	add(lexSoftener, `bastante algo ligeramente`)
	return m
})

// foreignLookup reads a word of a non-English answer: the foreign lexicon
// first (past a French elided article, "l'interface"), then the English
// one.
//
// Its keys are built in stack buffers (lower-cased, folded), so a lookup
// allocates nothing for words of ordinary length.
func foreignLookup(w string) uint8 {
	lex := foreignLexicon()
	var lbuf [64]byte
	lower := appendLower(lbuf[:0], w) // strings.ToLower(w)
	if f := lexLookup(w); f != 0 {
		if f&lexNegator != 0 && w != "no" && w != "No" {
			// English "n't" negators do not occur in these languages.
			return f
		}
		if g, ok := lex[string(lower)]; ok {
			return g
		}
		return f
	}
	if f, ok := lex[string(lower)]; ok {
		return f
	}
	var fbuf [64]byte
	fw := appendFold(fbuf[:0], w) // foldString(w)
	if i := bytes.IndexAny(fw, "'’"); i > 0 && i <= 3 {
		fw = fw[i+1:]
		if i == 1 && (w[0] == 'n' || w[0] == 'N') {
			if inSet(capabilityVerbs, string(fw)) {
				return lexNegative // "n'accepte pas": a capability it lacks
			}
			return lexNegator // "n'est pas fiable": the verb is negated
		}
	}
	if f, ok := lex[string(fw)]; ok {
		return f
	}
	// Inflections the lists leave out: French feminine and plural
	// ("encombrées" → "encombré"), Spanish gender ("pesada" → "pesado").
	for _, suf := range [...]string{"es", "s", "e"} {
		if b, ok := bytes.CutSuffix(fw, []byte(suf)); ok && len(b) > 3 {
			if f, ok := lex[string(b)]; ok {
				return f
			}
		}
	}
	// The last two read fw's bytes no more: the stem's new ending may
	// overwrite them.
	if b, ok := bytes.CutSuffix(fw, []byte("a")); ok && len(b) > 3 {
		return lex[string(append(b, 'o'))]
	}
	if b, ok := bytes.CutSuffix(fw, []byte("as")); ok && len(b) > 3 {
		return lex[string(append(b, 'o', 's'))]
	}
	return 0
}

// appendLower appends strings.ToLower(s) to dst: each rune lower-cased,
// a byte that is no UTF-8 written as U+FFFD, as strings.ToLower does.
func appendLower(dst []byte, s string) []byte {
	for _, r := range s {
		dst = utf8.AppendRune(dst, unicode.ToLower(r))
	}
	return dst
}

// appendFold appends foldString(s) to dst.
func appendFold(dst []byte, s string) []byte {
	initFold()
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		dst = append(dst, foldRune(r, s[i:i+size])...)
		i += size
	}
	return dst
}

// capabilityVerbs, negated, state a capability the product lacks: "it
// doesn't accept cash deposits", "no admite", "n'accepte pas".
var capabilityVerbs = set(`support supports accept accepts take takes encrypt encrypts protect protects block blocks offer offers allow allows handle handles integrate
integrates sync syncs work works provide provides export exports import imports let lets scale scales
acepta admite permite ofrece funciona incluye soporta accepte propose offre permet gere supporte prend inclut
fonctionne`)

// lookupFunc is the lexicon lookup for the answer's language.
func (an *analysis) lookupFunc() func(string) uint8 {
	if an.nonEnglish() {
		return foreignLookup
	}
	return lexLookup
}
