// Package detect finds a brand and its competitors in one AI answer and
// says how the answer treats them. It knows nothing of HTTP, storage or
// providers: New compiles a Detector for a (brand, competitors) set once;
// Analyze analyses an answer with its citations and query (Detect without
// the query), a pure function of (answer, citations, brand profile,
// competitors, query), so stored answers can be re-scored; a Detector is
// safe for concurrent use.
//
// # Matching
//
// Names, aliases and domains are matched case-insensitively with Unicode
// full case folding, compatibility decomposition and the combining
// diacritics removed ("CAFÉ ZOË", "Cafe Zoe" and a decomposed "Café" all
// match "Café Zoë"; typographic apostrophes and dashes count as ASCII ones).
// A match needs word boundaries: the runes around it must not be letters,
// digits or marks, so "Acme" is not found in "Acmeology" or "MegaAcme",
// while "Acme-powered", "(Acme)", "**Acme**", "Acme's" and "Notion’s" are
// mentions (the possessive is not part of the span). Scripts written
// without spaces (Han, kana, Thai, …) need no boundary next to another
// script's rune or a particle ("メルカリが"), except katakana next to
// katakana. Domains match as domains: "acme.com" matches in
// "docs.acme.com/api" and "sales@acme.com" but not in "notacme.com",
// "my-acme.com" or "acme.com.evil.net"; a name or alias that is only a label
// of some other host ("my-acme.com") is not a mention of an entity that has
// domains of its own. Overlapping matches resolve leftmost-longest across
// all entities, so "you.com" is one domain match, never the word "you"; a
// form shared by two entities counts for both. Spans are code-point
// offsets; the text at a span is the surface form as written.
//
// # Ordinary-word names
//
// A name or alias that is an ordinary English word — any lower-case word
// of SCOWL up to size level 70 (wordlist/, about 115,000 words, embedded),
// a weekday or month name, or a form of at most two Latin letters or
// digits ("X"); not a form written with diacritics ("Nestlé") — counts
// only when the evidence that it names the product reaches the threshold
// 1.0. The evidence score adds:
//
//   - a product cue next to it ("Slack app", "Notion's API", "Apple Inc":
//     +1.2), a domain suffix ("Monday.com": +2.0), a definition ("Box is a
//     cloud storage platform", "Tide remains the top-rated detergent" —
//     ranked among its kind by buyers or testers —, "Medium is a good place
//     to start": +1.5), a link anchor ("[Notion](…)": +1.5);
//   - capitals mid-sentence (+0.8, a proper noun: the product only with
//     some other evidence), its domain cited or in the text when
//     capitalised (+1.2), a capitalised possessive (+1.0), being all of a
//     heading, a list item's head or a table row's first cell (+0.7);
//   - a product predicate after it, past a product line, a version, a
//     category noun ("Nest thermostats are"), a short parenthetical
//     ("Telegram, by contrast, stores") or an enumerated name ("Stripe or
//     Wise are"): a product verb ("X offers", "X learns", "X has a free
//     plan", "X has lost market share", "X can do", "X doesn't sync"), a
//     lower-case verb in -s or -ed with an object, a bare plural one
//     included ("Nest learns your schedule", "Square introduced the
//     reader", "Brave blocks trackers"; not a verb any noun takes: "comes"
//     only with or in something, "X comes with a free plan", not "Dusk
//     comes at nine", and "have" after a plural word is the plural's,
//     "Acorns have a hard shell", where a company has), a negated auxiliary read whole
//     ("Mercury doesn't take cash"; "isn't" is a copula), a state or an evaluation
//     within three words of a copula ("X is known for", "X is pleasant to
//     write in", "X is prettier for", a bare comparative ending the predicate:
//     "Gain is cheaper.", "Vans Authentics are lighter and sit lower";
//     company states: "X was founded", "X was among the brands that",
//     "X is one of the apps that", "X is the most consistent",
//     "X is made by"; their plurals: "MX and Finicity are the main
//     alternatives"; a ranking or a choice: "X is close behind", "X is
//     the step up", "the safer bet"; an agent's speech: "X recommends",
//     "X warns"; the next sentence calling it a company or a product:
//     "X has its shakes lab-tested. The company posts …", not "The
//     company Manuka Health sells …"), or — in French, Spanish, Italian, Portuguese and
//     German, whose common nouns take an article — a bare capitalised
//     subject ("Signal est", "Notion ist", which also counts its capitals;
//     in an answer guessed to be in another language than English, any
//     lower-case word after it: "Zoom funciona muy bien"): +0.6; a product line, version or product or category noun
//     after it ("Mercury Treasury", "Things 3", "Zoom calls", "Nest
//     thermostat", "Compass agents"), or an edition ("Square for
//     Restaurants", also past it to the predicate): +0.5; product attributes in its sentence or the next
//     one of its paragraph (pricing, plans, users, integrations,
//     encryption, features, deposits, transfers, rewards, …: +0.3 each, at
//     most two); "called", "named"
//     before it (+1.2, "a product called Fathom"); a statement of ignorance
//     that reaches it (+0.8: one disclaims knowledge of names, not words);
//   - the query: naming the entity (+0.5; +0.2 when the word is common and
//     the query asks about nothing product-like: "is honey healthier than
//     sugar") or asking about products ("best", "app", "pricing", "vs",
//     "note-taking", "bank", a product category, a trouble such as
//     "outage", "data loss", "reliability" or "reliable", or two tracked
//     entities: +0.4; plural forms count; the evaluation and comparison
//     words in the other languages read — "günstig", "beste", "vergleich",
//     "anbieter", "meilleur", "mejor", "migliore", "melhor", …); without a query (Detect) the answer stands in
//     for it (+0.4): another tracked entity named by a form that is no
//     word, or cited (for a competitor, not the brand), or four distinct
//     product attributes. A query that uses the word as a word takes 1.5
//     instead from every occurrence without a cue of its own: a how-to's
//     verb ("how to paddle a canoe"; a noun after "a" says nothing: "what
//     does a hopper do", "do i need a nest"), its meaning asked ("canary in a coal mine meaning", "what
//     does netto mean", "flink synonym"), or — in a query about no
//     product — a place visited or a story's character ("best time to
//     visit patagonia", "the matrix oracle character"; "best time", "best
//     way", "most reliable way" ask for no product), or the word as a common noun — the head of
//     a noun phrase after a determiner and a common word ("the career
//     ladder", "a mars rover"; not a product's modifier, "the free zoom
//     plan", nor a rarer word that names a company, "the google nest
//     hub"), "a" thing a question asks about ("how does a rover drive",
//     "what is a thimble for"), a thing whose taste, smell or origin is
//     asked ("what does caraway taste like", "nutmeg origin"), or the thing
//     a how-to makes, cooks or grows ("how to make lemonade"; not one it
//     uses or fixes: "how to fix discord") — when the word heads its phrase
//     (a verb, an adverb or nothing follows it: not "how does a rover
//     sitter get paid", "what do tide pods smell like") and no product
//     word follows it ("how does a wise transfer work"); or, in a query
//     that names one entity and asks about no product or natural kind,
//     the word after a determiner or set against another common word
//     ("where does the kraken legend come from", "a remote work policy",
//     "whisk vs fork", "fork vs whisk") when the answer writes the word in lower case too
//     ("a whisk is better"): the answer shares the query's sense, so its
//     sentence-start and label capitals are the word's (a product's name
//     takes no determiner: "how to share screen in zoom" keeps it);
//   - the rest of the answer (iterated, at most eight passes): enumerated
//     beside an accepted tracked entity (+1.2), heading a list item in a
//     list of items headed by other tracked entities (+1.2), another
//     tracked entity accepted in the same sentence (+0.5) or the previous
//     or next one (+0.5; for a competitor only other competitors count, so
//     naming the brand never adds competitor mentions), the entity
//     accepted elsewhere (+0.5), and, when none of these holds, another
//     tracked entity accepted anywhere in the answer (+0.3; for a
//     competitor, another competitor);
//   - its rarity: SCOWL level 50 and above ("acme", "obsidian", "coda")
//     +1.0, levels 35–40 ("slack", "loom") +0.3, the commonest words 0;
//
// and subtracts what marks the word: a phrasal verb ("Zoom in on",
// "Bear in mind": −1.5, unless a year or a name follows: "Zoom in 2020"),
// a sentence-initial verb with an object ("Craft a reply": −1.0), "of"
// after it ("Notion of progress": −0.8), a UI command before it ("click
// Zoom", "uncheck Zoom": −1.0), a step of a menu path after its root
// ("Settings > Display > Zoom", "Layer > New Layer Based Zoom": −3.0; the
// root, "Zoom > Settings", is the
// application and costs nothing), a title whose every word is capitalised,
// or a line in capitals (−0.5, and its capitals say nothing; so do a
// heading's in headline style — every word but the function words
// capitalised, two of them common words: "## How the Rover Drives on
// Mars" — without the penalty, unless the heading opens with the name,
// its topic, or is a heading of names; a topic's heading, the name
// followed only by capitalised common words and function words, "## Zoom
// Setup Basics", takes no product line from the next word's capital, unless
// a model's number follows, "**Zoom Rooms 2**"), a
// hyphenated suffix other than "-like", "-style", "-based", …
// ("Mercury-free": −0.7), a natural kind after it or defining it ("the
// Amazon basin", "Mercury is the smallest planet", "**Amazon** – the
// largest river": −1.5), another capitalised word before it mid-sentence
// ("The Big Apple": −0.8, the end of another name). A platform before it
// qualifies a feature ("iOS Zoom") and is no product cue. One sense per
// answer (Gale, Church and Yarowsky, 1992): when one occurrence is plainly
// another sense — a menu step, a natural kind, a compound part after a
// quantity ("high-mercury fish") — every other capitalised occurrence
// without a cue of its own loses 1.0 ("That's iOS Zoom", "Mercury can
// harm"); verb uses are another part of speech and do not count. A
// lower-case head noun after a determiner ("no notion of", "a notion is")
// takes 0.5 from those occurrences, and so does a rarer word (SCOWL 35 and
// above) written in lower case other than as a verb or inside a path or
// an identifier ("good saffron costs more", "`:hover`", not
// "github.com/lantern/lantern-js": a commoner one — "free", "away" —
// turns up in any answer), and the word with a negating
// prefix anywhere in the answer or the query ("nonlinear", "non-linear").
// A lower-case ordinary word needs a cue, a domain suffix, a definition, a
// link anchor or rarity, and after an article, or an article and an
// adjective, it is a common noun whatever defines it ("a coda", "the
// notion that", "a whole orange is the better choice"); a capitalised one-word name written in lower
// case is treated as an ordinary word even when the word list lacks it
// ("the right headspace", "devenir boulanger", "una persona idealista"),
// and then so are its capitalised occurrences in that answer ("CAP
// Boulanger", "Idealista no es lo mismo"), which lose 1.0 as another
// sense when they have no cue of their own. A name that is no word but
// also names a natural kind, a sign or an event is guarded the same way in
// an answer that uses it so — an occurrence defined as one ("Gemini (May
// 21 – June 20) is an air sign", past a parenthesis), followed by one
// ("Cambridge Folk Festival"), counted among them ("more moons than any
// other planet"), or a query that names it and asks about such things and
// no product ("how many moons does saturn have", "saturn return
// astrology": −1.5; an evaluation any thing takes — "good", "safe",
// "best" — is no product's word there: "is kiwi fruit good for you"); so is a person's name — followed by life dates
// ("Johannes Peter Müller (1801–1858)") or in a sentence about surnames
// ("Der häufigste Nachname ist Müller") — and a name the query asks the
// meaning of, or asks about as a place or a character (above). So is a
// name English always capitalises — a place, a people, a language, a
// person: SCOWL's capitalised words at levels 10–70 that are no
// lower-case word (wordlist/), a name or an alias — written after an
// article in an English answer, heading its phrase or before a common
// noun that names no product or good ("the Aegean in summer", "pulling a
// Houdini", "the Norwegian coast"; not "the Stanley Quencher", "a Cotopaxi
// tent", a team's plural, "the Celtics", nor in an answer to a query
// comparing two tracked entities, "The Patagonia is heavier", nor without
// a query): −1.5, another sense, and in
// that answer its capitals say nothing, as a weekday's do. A person's
// full name — the word beside a capitalised word that is a name by itself,
// not an acronym nor a tracked name — is a person (−1.5, another sense)
// when a relative "who" follows ("Chloé Zhao, who"), a credit precedes
// ("directed by", "written by"), a possessive names a person's work
// ("Neil Postman's argument"; alone, only what a person writes: "X's
// essay", "X's memoir") or the query asks who. A name right before "mode" or "variant", or opening a
// feature's name "X to Y" whose last word is a common word ("Circle to
// Search", "Tap to Pay"), is another thing's mode, variant or feature
// ("Sentry Mode keeps the car's cameras awake", "the Delta variant": −1.5,
// and the predicate after it is the mode's; a feature "X to Y" may be the
// product's own, "Zoom to Fit", so only that occurrence). After another
// language's article, in an answer guessed to be in another language ("un
// blender chauffant", "el scooter"), the word is that language's common
// noun: rejected, and — written so twice or more (once may be a pun: "le
// zoom numérique") — another sense, whose sentence-start capitals there
// say nothing. A plant's parts after it ("Anise seeds", "Sumac berries") are
// natural kinds. In such an answer the word inflected after the article
// ("die Öffis", "las bicis") is the word too: ordinary_word when nothing
// else names the brand. A phrase the query holds the word in, repeated by
// the answer, is that phrase ("the dawn chorus", "Magna Carta", "Sega
// Genesis", "payment method", "wired vs wireless", a first name before a
// surname — a person's when a personal pronoun, he, she, his, her or him,
// follows the full name in its sentence ("Taylor Swift, … her concerts")
// or the answer also writes the surname alone, "Adams's best writing … his
// scripts"; a product line takes "it"), not the brand, unless the answer also
// names the brand with product evidence; a capitalised word right after a
// category and a dash, colon or parenthesis ("dish soap — Dawn (the
// original blue)") names a product of that category.
// The query's compound used as a common noun — after a determiner ("a
// teachable moment") or on one side of a comparison of kinds ("pour over
// vs drip coffee") — is that compound when the answer writes it with the
// word capitalised only by the sentence's start and the noun in lower case
// ("Teachable moments work best"); a product's noun ("current account")
// only when the answer also writes the phrase in lower case, and then the
// noun is no cue. "The better pick", "a safe bet", "a good starting point"
// define a product only when the query does not use the word as a word. A
// comparison whose other side is a kind — written in lower case by the
// answer, or a compound headed by a common noun no product is ("copper vs
// pex plumbing") — makes no product query. A query holding the word only
// in a derived form ("terminated abnormally", "calmness", "humbly") uses it
// as a word; one writing a name without its punctuation ("kuehne nagel")
// names it. A capital that opens a quotation going on in lower case ("the
// message "Fatal error in launcher"") says nothing; nor, in a German
// answer, does a capital after an article and an adjective ("eine gut
// gedengelte Sense muss"), which is a common noun's (−0.5 for the answer's
// other uncued capitals). A full name past a middle name or after a
// person's calling ("the Danish physicist Hans Christian Ørsted") is a
// person's. What only an organisation does or undergoes after the name
// (founded, headquartered, acquired, went public, shut down), or "it" or
// "which" later in its sentence ("…, but it shut down"), weighs twice a
// predicate; "the U.S. chain" after a colon, semicolon or dash refers
// back to a company as the next sentence's "The company" does (an
// initialism before a lower-case word ends no sentence); a name defined as
// a word ("X is a strong word") is the word. A phrase its owner writes in
// lower case, as the subject of a verb with an object ("one sec forces a
// pause"), counts as a capital would; in an English answer a name no word
// list holds, written in lower case as a sentence's subject or beside a
// capitalised name in an enumeration ("use venmo or Zelle"), is read as
// capitalised (casualName).
// Word senses read from grammar (wordsense.go): a query that holds the
// word only inflected as a verb ("how do I stop rabbits burrowing", "car
// drifting tips") uses it as a word (−1.5 for each occurrence without a
// cue); a name that is an English plural ("Sandals", "Boots") followed by
// a plural copula ("Hiking Sandals Are a Bad Idea") is the plural noun, as
// is an occurrence followed by what only a creature, a plant, an event or
// a ruler does ("Osprey hunts over lochs", "was fought", "reigned"), or
// defined by such a kind heading its phrase ("X is a jump-jet aircraft
// that …"; not "a battle card tool"), or titled by a work's, a creature's
// or a vessel's noun after a determiner, a possessive or a year
// ("Holloway's film Rise", "the horse Digit"): −1.5, another sense. A
// capitalised title of rank or address right before the name ("Lady Bird
// Johnson", "Prince Albert", "Dr. …") makes it a person's name. A capitalised
// control after the name ("the Reflect Tool") loses its cue when another
// occurrence is a step of a menu path ("Object › Transform › Reflect…").
// A query asking what to do or see around a place ("things to do near",
// "what to see in", "day trip") names places, as "visit" does. A
// headline-style heading may open with a common word beside one more
// ("## Block the Burrow Entrance"). The word written as a plural noun in
// the answer ("The ospreys arrive …") takes 0.5 from its capitalised
// occurrences without a cue. A product's range, line-up or menu is
// a generic aspect of a statement of ignorance.
// A name its owner writes in lower case ("dm", "folk") counts as
// capitalised when written so, without the evidence of a capital. An app
// picked by a UI command from a store's list ("… then Subscriptions.
// Choose Balance") is the app (+0.5 instead of −1.0); a name that is the
// start of a product's name with a lower-case word in it ("Discover it
// Cash Back gives …") is no imperative verb and its object. A name right
// after a word that is a name by itself ("Cambridge", no lexicon word)
// is the tail of another name even at a sentence start (English answers); the second part of a compound ("high-mercury
// fish"), a weekday or month in a temporal context ("on Monday morning",
// "May 5", "every Monday") and a weekday heading a list or lines headed by
// other weekdays (a plan by day) are rejected outright, and capitals never
// count for weekdays and months. A definition may put adverbs before its
// article ("X is by far the fastest issue tracker", "X is one of the
// best banks") and defines a product by a product or category noun, an
// "alternative", "option" or "choice". A name or alias written with an
// inner apostrophe also matches without it ("Arc'teryx", "Arcteryx").
//
// Each mention records its EvidenceScore. An accepted ordinary word has
// confidence 0.65 at the threshold, +0.1 per point above it (at most
// 0.85). Scores within 0.4 of the threshold are ambiguous: Result.Ambiguous
// says the verdict rests on one, and an optional Adjudicator (a model
// asked the fixed AdjudicationPrompt) decides those through Analyze, at
// most four per answer; Detect, and Analyze without one, are rule-based
// and deterministic.
//
// # Unknown to the model
//
// A mention in a statement that the model does not know the entity is
// flagged Unknown and not counted. Fixed phrasings are regular
// expressions ("I don't have (any|specific|reliable) information about X",
// "I'm not familiar with X", "X is not a product I know", "I've never
// heard of X", "I'm not sure what X is", …); the ignorance classifier
// (ignorance.go) catches the rest: a negation or inability ("not", "n't",
// "unable", "little", "limited", "scarce", "isn't enough", …) within three
// words before or seven after a knowledge term, in one clause — an
// information noun ("information", "details", "data", "sources",
// "documentation", …) or a cognition verb ("know", "familiar", "find",
// "verify", "heard", …) with the speaker ("I", "me", "we") or an
// existential frame ("there is", "available") in the clause; a speech verb
// with a qualifier ("can't describe X reliably", "can't say what it
// offers"); or a notability term ("doesn't appear to be a widely known
// tool", "may not exist"), but not "known for/as"; "I have nothing
// (reliable) on X". A bare "No" opening a reply ("No, …", "No. …")
// answers the question and negates nothing in its clause, so "No.
// Windows Security already covers what McAfee does" is no ignorance;
// "No." ends a sentence unless a number follows ("No. 3"). The classifier also reads French, German, Spanish,
// Portuguese and Italian negations, information nouns, cognition verbs and
// first-person forms ("Je n'ai pas d'informations fiables sur X", "Ich
// habe keine Informationen über X", "No tengo información sobre X"). A
// statement with an object of its own after the mention ("Signal keeps
// no data about you") is about that object, unless the object refers back
// ("… about it"); a negation after the mention's own verb and object is
// its predicate's, whatever knowledge term comes before ("On my latest
// information, X charged sellers nothing"). So "I'm not able to find
// reliable details on X", "There isn't enough reliable information
// available to me about X" and "I can't describe X reliably" are
// ignorance, while "X doesn't require any knowledge of SQL" and "X is not
// known for speed" are not. The statement must lie within 200 bytes of the
// mention in its sentence with no contrast between them ("I don't know
// Beta, but Acme is great" leaves Acme counted); a possessive after it is
// about the thing ("no information about Acme's 2025 roadmap"), unless the
// thing is generic ("Acme's features", "pricing", "reviews") or one of
// its words (up to three) is what the query asks about ("norvia business
// account": "nothing on Norvia's business accounts"; "mercury cashback
// rate": "no figures on Mercury's card cashback rate"; past a year, and
// by a part of a hyphenated word: "Tidal's 2026 per-stream rate" for
// "tidal payout per stream"). A verb of giving, quoting or reporting
// with a qualifier up to seven words after it is a speech of ignorance
// ("I'm not able to give X's fees reliably", "beyond what I can reliably
// report", "can't quote X's fees with any confidence"). Figures, numbers
// and statistics are information; "trained on" is knowledge ("doesn't
// appear in anything I was trained on"); a German speech verb may come
// last ("nichts Verlässliches sagen"), and certainty is qualified in those
// languages too ("kann ich nicht mit Sicherheit sagen"); "known to <verb>" states what the
// product does ("has been known to drop edits") and is no ignorance. A
// price word (pricing, prices, rates, fees, costs) is a knowledge term
// only after a negation and a currency qualifier ("I don't have reliable,
// current pricing for X's family plan"), with the speaker or "available"
// in the clause and no "but" after it ("X doesn't show current prices"
// states a fact). A hedge followed by what people report ("hasn't
// announced anything that I know of, but shoppers report …") or, after a
// hedge before the name, by what it is or does ("no coverage of X, but
// it's a filing app", "… but it imports 1099s") is no ignorance. "A name I
// can't place" is ignorance (not "place an order"); so is declining "a
// reliable, current review of X" (a currency qualifier after a speech
// verb); an aspect asked matches in the singular or plural ("X's users"
// for "x user count").
//
// Then the answer-level rule: when the brand is disclaimed — an Unknown
// mention, or an ignorance sentence right after a sentence naming it
// ("You asked about X. I couldn't find anything on it.") that names no
// other entity — and no sentence asserts anything about it (its other
// sentences are questions, conditions, guesses, echoes of the user —
// "if", "may be", "could refer", "not certain", "called", "asked",
// "check", "compare", … ("X could generate titles" states a capability, no guess) —
// or bare headings), every
// mention of the brand is Unknown. A positive statement about the brand
// anywhere wins.
//
// # Sentiment
//
// Each counted mention gets the polarity of its clause scope: the clauses
// of its sentence around it, split at contrast words ("but", "however",
// "although", "while", "unlike", …) and semicolons, stopping at a clause
// that mentions another tracked entity ("Acme is great but Beta is slow"
// is positive for Acme and negative for Beta). Competitors take the
// polarity of their mentions (mixed if any is mixed or both occur).
//
// The brand's sentiment is toward the brand, not of the answer
// (sentiment.go): it scores the text that governs its mentions — their
// clause scopes; the rest of their paragraph up to a sentence naming
// another entity (so "Users report it loses edits" after "Acme syncs
// notes" counts), and on into a paragraph that opens on an announced
// caveat ("The catch is …", "The downsides: …"); the section a mention heads (a heading or a list item
// naming it: its "Cons:" lines count; a bold line naming it, "**Made In**",
// heads the list under it; the section goes on past an item naming the
// brand again or a rival in passing, "- 20% cheaper than All-Clad's line",
// and past a sentence that names a rival only as compared, "However, the
// catalog is smaller than Audible's"); and, when the query names the brand
// and the answer names it first or no competitor more often, every
// sentence of the answer that is not about another entity. Polar words weigh 1, strong ones
// ("excellent", "unusable", "avoid", "drawback") 1.5, ×1.5 after an
// intensifier, ×0.5 after a softener ("occasionally", "slightly");
// negation flips the next polar word within three words ("not great",
// "would not trust", "hard to recommend", "lost trust"; a flipped
// criticism weighs 0.8: "no issues"); reported complaints are negative
// ("complain", "gripe", "criticised"); "issues" needs a qualifier ("sync
// issues") and bold topic labels ("**Reliability.**") do not count, nor
// do polar words inside a proper name ("Evolve Bank & Trust"). When the
// query asks for a recommendation ("best", "which", or a product category
// asked for a use: "chat app for a gaming community", answered in prose,
// not a list of options) and the brand is named first — not as one of a
// set the answer announces without ranking it ("Several airlines fly
// nonstop:", "X is one of several brands with …"; "Popular options
// include" ranks) —, or the answer tells the reader to try it (not as a UI
// step: "tap Subscriptions and choose X"), +1 praise (unless it is
// criticised).
//
// Under the curated product-review lexicon lies a general one: VADER's
// 7,200 scored English words (vader/lexicon.tsv, MIT; vader.go). A word
// neither the curated lexicon nor a rule knows counts through VADER in a
// predicate ("the editor feels sluggish", "is delightful", and the
// judgements listed after it) from valence 0.5, as a criticism anywhere
// from −2.0 ("angered long-time users", "a dismal record"), and anywhere
// at all from 3.0 ("excellent", "the best"); from 3.0 it weighs 1.5. VADER's nouns that name things in answers about
// products ("rewards", "friends", "dedicated" support) stay below those
// bars, and a few words it scores are plain description there ("free",
// "support", "share", "security": vaderNeutral). The thresholds are
// calibrated on the held-out batches, the corpus and the class tables
// (TestSentimentCalibration, with leave-one-set-out figures); the hand
// rules were written for those sets, so most points tie on them, and ties
// go to the point that reads them best with the curated words VADER also
// scores taken out (TestSentimentAblation: words not yet listed stand for
// the next batch's).
//
// Advice to go elsewhere is criticism: a tracked rival urged "instead"
// ("many reviewers suggest Monarch or YNAB instead": a verdict), users
// moving to a rival ("heavier users often move to Make": half a
// criticism), and a rival called the better pick anywhere in the brand's
// paragraph, not only the next sentence ("… For most small sites,
// Cloudflare is the better option"), unless a condition restricts it ("if
// …", "Slack is the safer choice there").
//
// With an Adjudicator (Analyze only, never Detect), the brand's sentiment
// in doubt is put to a model as fixed yes/no questions (CriticismPrompt,
// PraisePrompt) over the brand's text: criticism or praise weaker than
// clear (sentClear), or clear but under half the other (sentDoubtRatio).
// A yes makes it clear, a no removes it; an error keeps the rules'
// reading. Praise beside a verdict against the brand is not asked about.
//
// Contrast: the clause after an adversative ("but", "however", "yet",
// "mais", "aber", "pero", …) or after the comma of a concessive ("although
// X is slick, it …", "despite outages, …", "obwohl", "aunque") weighs
// ×1.25: it carries the writer's point; a sentence-final "though" or
// "however" does the same for its own clause ("It's expensive, though.").
// A capability the product lacks is criticism ("doesn't accept cash
// deposits", "n'accepte pas", "no admite"), as is service that never came
// ("without a reply"), a lag ("feels years behind"), faint praise after a
// copula ("its rewards are ordinary") and "too" before any word ("too
// terse"); a fault reduced is praise ("cuts ticket errors", "fewer
// crashes"), and so is a fault that gets fixed ("problems get resolved
// quickly"). Comparisons with the brand as the object turn the rival's
// praise into criticism ("Meet is simpler than Zoom", "Jira is more
// configurable than Linear", any "-er than X": "cheaper than Octopus"); a sentence that recommends an alternative
// "instead" gives its praise to the alternative (but "tags instead of
// folders" is a substitution, not advice). Every counted mention's
// clauses are read, not only a sentence's first ("Meet is simpler than
// Zoom, but Zoom's whiteboard is excellent").
//
// The turn (contrastTurn): praise of something else before "but <brand>"
// is dropped; hedged praise ("still works", "usually stable") that the
// criticism after the turn outweighs, or a price conceded before praise
// ("pricey, but built to last"), weighs ×0.5; a turn after praise to a
// clause no polar word reads is a reservation; a sentence opening with
// "But"/"However" turns the one before it. A caveat announced as "the
// catch", "its main drawback" makes the answer mixed unless a verdict
// stands against the brand, but not the complaint left over after what
// most reviewers say ("customers generally rate it highly; the main
// limitation is …", "reviews are mostly positive, with most complaints
// about …"): beside that reported praise it is a minor caveat, as "the
// only real drawback" is; a labelled verdict line ("Bottom line: …")
// decides a mixed reading, unless its line sets a condition or leaves a
// case to a rival ("…, but if you want X, Hinge usually wins"; "Si vous
// préférez …, AXA peut être plus adapté"): a case split, not a verdict
// for the brand. The same line reads as a verdict against the brand only
// outside a case and unless it praises, then turns to a part ("works well
// for commuters, but many users feel the e-bike pricing isn't great value"
// is a reservation; "…, but it's hard to call it good food" a verdict). A
// list of faults outnumbering the list of strengths two to one makes the
// answer negative; with no list of strengths the praise in the prose stands
// for it, and the faults dominate only at twice its weight. A bare "Yes." answers only a question of
// judgement, a plan's limit is a fact ("limited on Starter", "a limited
// number of deals", "offered in a limited number of states": a count
// described), as is a lack the answer explains by what the user does
// ("doesn't offer a router app, so setup is done manually"; not "…, so
// it's a poor fit"); the query's words that name a tracked entity ask no
// judgement ("best western pet policy"); a negated criticism ("no known
// breach") weighs ×0.4, and a comparison table's row counts only the
// brand's column. An answer to a question of fact — a how-to, prices,
// specs, or an explanation asked ("X hotel brands explained", "X toy
// colours meaning") — that judges once, mildly, is neutral (a fact sheet). The weights are calibrated leave-one-set-out
// (TestTurnCalibration).
//
// Answers in French, German or Spanish (the language is guessed from the
// function words of the first 200 words; English wins ties) are read with a
// small lexicon of their own written for product reviews (language.go):
// polar words with their feminine and plural forms, negators ("pas",
// "nicht", "no"), contrast words, intensifiers, complaints ("se
// plaignent", "beschweren", "se quejan"), advice against ("déconseille",
// "raten … ab", "no recomendaría"), cost words ("le prix a augmenté",
// "su precio es alto").
//
// The text read is refined by class. Statements of ignorance carry no
// polarity ("I don't have reliable details on X's kiosk"). A following
// sentence that names another entity still speaks of the brand up to the
// rival's clause ("search barely works, and many communities moved to
// Bluesky" counts up to "and"; "I would not trust it — use Obsidian";
// "limited compared with Jira"); in the brand's own sentence such a rival
// leaves the clause to the brand up to the comparison. Each item of a
// "Cons:" ("Downsides:", "Nachteile:", …) line is half a criticism even
// without a polar word ("Cons: runs large; break-in takes a week"), and
// so is each list item under a heading of faults in any of the six
// languages ("Punti critici", "Pontos fracos", "Weak points") or under a
// what-heading that holds a negator or a second thought ("Lo que no
// convence", "What gives people pause"), which also sets out a second side
// as "Where it falls short" does. In an answer about the brand, a bold
// line's lead decides whose section it opens ("**Monos** … recuerda a
// Rimowa" opens the brand's), and a sentence naming a rival only after a
// comparison marker ("Where it falls behind the Garmin Edge 840:", "steep
// compared to Spark"; not "switching to YouTube TV") stays the brand's.
// Requirements are no praise ("if you need
// fast offline access"), nor are conditions ("forgiving on weak
// connections"), nor a judgement left to the reader's case, a praise
// word heading the subject of "depends" ("the right choice depends on
// how you sleep", "whether it's worth it depends on …"). Negation: "n't", "not", "no longer", "less" ("less
// compelling"), "rather than" ("functional rather than polished"); it
// reaches past articles and the adjectives of a choice ("no longer the
// obvious choice"); a criticism followed by "rare" or "minimal" is denied
// ("outages are rare"). First-person endorsements ("I'd choose", "I would
// rely on", "not something I'd build a workflow around") are praise,
// negated they are criticism, restricted they are criticism ("I'd only
// pick it for a solo writer"). Intensity: boosters ("genuinely",
// "surprisingly"), positive adverbs ("beautifully"), graded forms read
// through their base ("cleanest", "clunkier"), "the widest selection",
// "the gold standard"; popularity and adequacy are weak praise ×0.5
// ("popular", "fine"). "Benefits" names what is offered ("salary and
// benefits", "Plus benefits apply"), no praise as "the main benefit" is;
// things gathered "in one place" ("HR, payroll and benefits in one place")
// are the product's case. Reported complaints: "accused", "allegations", "a
// class action", "users report it loses …", teams "moving off" the brand
// (+1 criticism). Product facts: "high fees", "prices have risen", "the
// price went up" are criticism, "low fees" praise; discontinuation ("shut
// it down", "stopped adding features", "no longer maintained") is
// criticism; "has since added/improved" after a criticism is a remedy (+1
// praise). Quality that falls is criticism ("accuracy drops with
// accents", "quality has slipped"), as are "a learning curve", "it costs
// more", "it needs a subscription", lowered expectations ("don't expect
// boutique quality"), a maker that quit the business ("quit the
// smartwatch market": a verdict) and "no further updates"; a fault counted
// as a plan's allowance is none ("covers 5,000 errors a month"), nor is a
// harm a warranty, guarantee or insurance covers — the cover's terms, not
// the product's fault ("a guarantee covering plants that arrive damaged",
// "the Guarantee for … property damage", "against defects", "damage from
// misuse is not covered"; not "the warranty is useless"); "it pays
// for itself", "saves money", "it's cheap" (but "feels cheap"), "most
// people should buy" and faults caught ("catches regressions") are praise.
// Advice to look elsewhere is a verdict against the brand ("most people
// are better served by a cheaper calendar"; "travellers recommend booking
// directly instead" — the recommendation's praise becomes criticism). A rival named the unconditionally better choice in the brand's
// sentence or the next ("For most people, Ecobee is the better pick") is
// +1 criticism; trade-offs ("Teams is stronger for meetings") and
// conditions ("if you already pay for Microsoft 365, Teams is the better
// fit") are not, nor is the case a condition leaves over ("It's worth it
// if your child reads a lot. Otherwise, Libby offers the same for free."):
// the other side of a split. A first sentence of at most four words that only says
// yes or no, when the query names the brand ("Honestly, no.", "I
// wouldn't."), is +1 praise or criticism.
//
// Praise P and criticism N give neutral when both are below 0.5; mixed
// when both reach 0.8 and the smaller is at least a third of the larger,
// or when praise wins but criticism reaches 1.5; otherwise the larger
// side. A verdict against the brand — a negated endorsement, "not the
// right tool", "a poor fit", "hard to justify", "skip it", a rival as the
// better pick, discontinuation, a bare "no", an answer that opens by
// telling the reader others share the trouble ("You're not alone — …",
// "Lots of people have run into this": the query's complaint confirmed,
// whatever workarounds follow) — turns mixed into negative
// when N ≥ P: praise beside such a verdict is conceded ("powerful, but
// rarely the right tool"). A verdict restricted to one kind of reader or
// use, "for a …", judges a case, not the brand ("Worth it for couples;
// hard to justify for a family of five"; "**Verdict:** For a first pen,
// Platinum is the safer buy"; "for most people" restricts nothing). A recommendation the query asked for — the
// brand named first in answer to "best …" or urged ("try X"), by a query
// that does not name it — decides a mixed reading for the brand when the
// answer closes on its praise, praise is at least criticism, no warning
// stands and no verdict line criticises it or sets a condition: the
// caveats were weighed into the pick ("…, though it's pricier" before "If
// you want one pump that lasts, get the Lezyne."). The sentences with the
// strongest criticism and praise are kept (Brand.NegativeEvidence,
// Result.NegativeEvidence, Brand.PositiveEvidence).
//
// # Verdict, confidence and evidence
//
// Verdicts, decided in this order (Verdicts lists them): "mentioned" when
// the brand has a counted mention; "unknown_to_model" when its mentions
// are all Unknown (this wins over a citation: the text disclaims the
// brand); "cited_only" when a citation URL's host equals or is a subdomain
// of one of its domains, or its domain appears only as a link — a markdown
// link target, a link whose anchor is the address itself
// ("[acme.com/docs](https://acme.com/docs)"), a URL ("https://…",
// "www.…", a host on the domain or the domain with a path: "orders.acme.com",
// "acme.com/docs"), a footnote or a sources line ("Sources: acme.com"),
// also when a name or alias is written as the domain ("Acme.com"); a
// bare domain in prose ("see acme.com") is a mention; "ordinary_word" when
// every occurrence of its name is an ordinary word, or when the name does
// not occur but another form of its word does — a plural noun at a
// sentence start or after a determiner ("Mastodons died out", "the
// sprouts"; not a verb's "-s": "a deadline looms"; not a family's "the
// Acmes") or the two words a compound name joins ("base camp"); otherwise
// "not_mentioned". Evidence is the sentence of the first counted mention
// (of the first Unknown mention; of the linking sentence or the first
// cited URL for cited_only; empty otherwise), cut to 600 bytes around the
// mention in very long sentences. Every Result carries Version.
//
// Per mention, confidence is 0.95 for the name, 0.85 for an alias, 0.75 for
// a domain in the text, and 0.65–0.85 for an ordinary word (above). An
// entity's confidence is its best mention's plus 0.02 for each further
// mention (at most two) plus 0.03 when its domain is cited, capped at
// 0.99. The result's confidence is the brand's for "mentioned", 0.85 for
// "unknown_to_model", 0.80 for "cited_only", 0.90 for "not_mentioned", and
// for "ordinary_word" 0.6 + 0.25 × (threshold − the best rejected score),
// between 0.5 and 0.95.
//
// # Visibility score
//
// The 0–100 score follows the impression metrics of GEO (Aggarwal et al.,
// 2023, "GEO: Generative Engine Optimization"): an entity's prominence is
// its position-adjusted word count — every sentence with counted mentions
// contributes its word count, shared equally among the mentions in it and
// weighted by e^(−λ·(s − s₀)) for sentence index s (s₀ the first sentence
// with a tracked mention, λ = ln 2 / 10: the weight halves every ten
// sentences). Then
//
//	score = 100 × clamp(0.5·prominence_share + 0.2·position_weight
//	                    + 0.2·own_domain_cited + 0.1·sentiment_factor)
//
// where prominence_share is the brand's prominence over that of all
// tracked entities, position_weight = 0.5/rank + 0.5·e^(−λ·first sentence
// of the brand), own_domain_cited is 1 when the brand's domain is cited (by
// a citation or in the text), and sentiment_factor is 1 positive, 0.5
// neutral or mixed, 0 negative; without a counted brand mention only the
// citation term remains. Result.Score holds the four parts. The score is
// monotone: prepending a neutral sentence that mentions the brand never
// lowers it (every other prominence term scales by the same factor while
// the brand gains a full-weight term, its rank and first sentence can only
// improve, and a neutral mention keeps the sentiment class).
// ShareOfVoice is brand mentions / all counted tracked mentions.
//
// # Discovered competitors
//
// Discovered lists untracked products recommended next to tracked ones:
// the heads of the other items of a markdown list ("1. **HubSpot** – …")
// whose items are headed by a counted tracked mention, and the other items
// of an enumeration ("Acme, HubSpot, Zoho CRM and Pipedrive") that holds a
// counted tracked mention; a name ending a longer clause opens an
// enumeration only after an introducer ("include", "like", "such as", …),
// so "If you live in Google Workspace, Acme and …" discovers no Google
// Workspace. A candidate is a run of at most four
// capitalised, product-like words (letters, digits, ".-+&'": "Zoho CRM",
// "Monday.com", "1Password"); leading stop-words (headings such as "Pros",
// "Pricing", sentence adverbs such as "However", instruction verbs),
// common words, tracked forms and anything overlapping a tracked match are
// excluded, as is a lone "-ly" adverb starting a sentence. The order is
// the order of first appearance, case-insensitively deduplicated.
//
// # Performance
//
// Detect reads the text in one pass regardless of the number of entities
// (BenchmarkDetect against BenchmarkNaiveRegexp):
// ASCII bytes step a byte-level Aho–Corasick automaton over the folded
// UTF-8 of every pattern directly (its byte classes fold ASCII case), other
// runes step through their precomputed folded bytes, and a ring of original
// offsets maps a match back to the text. The same pass counts sentences.
// Boundary, guard, sentiment and discovery work happens only around
// candidate matches and in sentences that hold one, with per-sentence and
// per-list summaries that keep the analysis near-linear even for adversarial
// inputs. Buffers are recycled through a sync.Pool.
//
// # Limits
//
// The sentiment lexicon is a curated product-review one (VADER rates
// "free" as praise and misses "clunky", "bloated", "steep"), with VADER
// behind it for English words it does not list, and small French, German
// and Spanish ones; other languages get neutral sentiment. Ignorance is read in English, French, German,
// Spanish, Portuguese and Italian. The ordinary-word rule reads capitals,
// markup and the bare subjects of those languages, so it works in part
// elsewhere. A place, a person or a character that shares a brand's name
// and is no dictionary word ("Patagonia" the region, "Johannes Müller",
// "the Oracle" of a film) counts as the brand, unless the answer marks it
// as a natural kind, a sign or an event, or an article governs a name
// English always capitalises as another thing (properNamesake, above). The evidence weights were tuned on the
// corpus in testdata/corpus (make eval). Sentences end at
// ". ", "! ", "? ", CJK full stops and line breaks (not after list numbers
// or a few abbreviations), so other abbreviations split sentences. Inflected
// forms (Russian cases, plurals) match only when configured as aliases. A
// proper noun that is also an ordinary word is the product when the answer
// is about products ("the Amazon rainforest" in an answer about shopping).
// Texts beyond 2 GiB are truncated.
package detect
