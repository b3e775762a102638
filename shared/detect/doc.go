// Package detect finds a brand and its competitors in one AI answer and
// says how the answer treats them. It knows nothing of HTTP, storage or
// providers: New compiles a Detector for a (brand, competitors) set once,
// and Detect analyses an answer text plus its citations; a Detector is safe
// for concurrent use.
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
// # Common-word rule
//
// A name or alias that is an ordinary English word (a small built-in list:
// weekdays, months, "Notion", "Apple", "Square", "Monday", "Slack", "Zoom",
// "Linear", "Box", "Ring", "You", …) or at most two Latin letters ("X")
// counts only with evidence:
//
//   - a product cue next to it: "app", "software", "tool", "platform",
//     "CRM", "Inc", "API", "pricing", … before or after it, a domain
//     suffix ("Monday.com"), or a definition "X is a … tool/platform/…";
//   - the entity's domain cited or appearing in the text, when the match is
//     capitalised;
//   - capitalisation mid-sentence ("teams use Slack"), or a capitalised
//     possessive ("Apple's") — not at a sentence start, after a colon or
//     at a list marker, where capitals are grammar;
//   - being the anchor of a markdown link ("[Notion](…)");
//   - being capitalised in an enumeration ("Asana, Slack and Trello") in a
//     sentence that has an accepted mention of another tracked entity, or
//     heading an item of a list whose other items are headed by accepted
//     mentions of other tracked entities (iterated: one accepted name can
//     vouch for the next, at most eight rounds).
//
// Weekday and month names are capitalised in ordinary English, so for them
// capitalisation, possessives and link anchors are no evidence: a temporal
// context rejects them outright — "on/next/every/by … Monday", "Monday
// morning/evening/meeting", a number next to them ("May 5", "5 May",
// "Monday, March 3") — and otherwise only a product cue, a domain suffix, a
// definition, the entity's domain (cited or in the text) or the
// enumeration and list context counts. So "on Monday morning" never
// mentions Monday.com,
// "slack in the rope" is not Slack, "Apple pie is …" is not Apple (a
// sentence start with no cue) and "thank you" is not You.com.
//
// # Unknown to the model
//
// A mention inside a statement that the model knows nothing about the
// entity is flagged Unknown and not counted: "I don't have (any|specific|
// reliable) information about X", "I'm not familiar with X", "X is not a
// product I know", "there is no reliable information on X", "I couldn't
// find any information about X", "X doesn't appear to be a well-known
// product", "I've never heard of X", "I'm not sure what X is", "limited
// information about X" (typographic apostrophes too). The statement must lie
// within 200 bytes of the mention in the same sentence with no contrast
// between them ("I don't know Beta, but Acme is great" leaves Acme counted),
// and a possessive after it is about the thing, not the entity ("no
// information about Acme's 2025 roadmap"). When the brand has only such
// mentions the verdict is unknown_to_model; a later ordinary mention makes
// it mentioned.
//
// # Sentiment
//
// Each counted mention gets the polarity of a compact English lexicon
// (about 100 positive and 100 negative words: "great", "reliable",
// "recommended", "expensive", "buggy", "steep", …) over its scope: the
// clauses of its sentence around it, where clauses are split at contrast
// words ("but", "however", "although", "while", "unlike", …) and
// semicolons, and the scope stops at a clause that mentions another tracked
// entity ("Acme is great but Beta is slow" is positive for Acme and
// negative for Beta; "Acme is powerful, but expensive" is mixed). Words
// inside mentions do not count ("Best Buy"). Negation: "not", "no",
// "never", "without", "hardly" and any "…n't" flip the next sentiment word
// within three words unless a comma or clause boundary comes first, so "not
// recommended" and "isn't great" are negative, "no issues" and "never
// crashes" positive; "not only" is no negation. Positive and negative words
// together give mixed, none neutral. An entity's sentiment is mixed if any
// mention is mixed or both polarities occur, otherwise that of its polar
// mentions, otherwise neutral.
//
// # Verdict, confidence and evidence
//
// The verdict is "mentioned" when the brand has a counted mention;
// otherwise "unknown_to_model" when its only mentions are Unknown ones (this
// wins over a citation: the text disclaims the brand); otherwise
// "cited_only" when a citation URL's host equals or is a subdomain of one
// of its domains, or its domain is only the target of a markdown link;
// otherwise "not_mentioned". Evidence is the sentence of the first counted
// mention (of the first Unknown mention; of the linking sentence or the
// first cited URL for cited_only; empty for not_mentioned), cut to 600 bytes
// around the mention in very long sentences.
//
// Per mention, confidence is 0.95 for the name, 0.85 for an alias, 0.75 for
// a domain in the text, 0.70 for a common word with product evidence (cue,
// domain, link) and 0.60 for a common word accepted by capitalisation or
// context. An entity's confidence is its best mention's plus 0.02 for each
// further mention (at most two) plus 0.03 when its domain is cited, capped
// at 0.99. The result's confidence is the brand's for "mentioned", 0.85 for
// "unknown_to_model", 0.80 for "cited_only", and for "not_mentioned" 0.90,
// or 0.70 when common-word candidates of the brand were rejected.
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
// Detect reads the text in one pass regardless of the number of entities:
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
// The lexicons are English; other languages get neutral sentiment, no
// unknown-statement detection and no common-word guard. Sentences end at
// ". ", "! ", "? ", CJK full stops and line breaks (not after list numbers
// or a few abbreviations), so other abbreviations split sentences. Inflected
// forms (Russian cases, plurals) match only when configured as aliases.
// Capitalised common words mid-sentence count ("I love Apple pie"), and a
// common-word brand at a sentence start needs a cue. Texts beyond 2 GiB are
// truncated.
package detect
