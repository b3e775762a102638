package detect

import (
	"strings"
	"sync"
)

// set builds a lookup set from a space-separated word list; inSet reads it
// through a filter (wordset.go), so it must not change afterwards.
func set(words string) map[string]bool {
	m := make(map[string]bool)
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	registerFilter(m)
	return m
}

// calendarWords are capitalised in ordinary English, so capitalisation is
// no evidence for them and a temporal context ("on Monday", "Monday
// morning", "May 5") rejects them outright.
var calendarWords = set(`
monday tuesday wednesday thursday friday saturday sunday
january february march april may june july august september october
november december
`)

// temporalBefore / temporalAfter are the words around a calendar word that
// mark its ordinary, temporal use.
var temporalBefore = set(`on next last every this until till by since each from through
before after early late of following previous coming mid this that the a per one
`)

var temporalAfter = set(`morning mornings afternoon afternoons evening evenings night nights
noon mood blues meeting meetings deadline deadlines standup through to till until
next last morning's night's
`)

// productCues next to a common-word name make it a product mention: "Slack
// app", "Notion's API", "Apple Inc", "the Zoom platform".
var productCues = set(`
app apps software tool tools platform platforms crm inc inc. incorporated ltd llc
corp corp. corporation gmbh hq api apis sdk plugin plugins extension extensions
integration integrations saas suite workspace workspaces website site browser
editor dashboard subscription subscriptions pricing plan plans login account
accounts desktop mobile ios android chrome-extension solution solutions product automations automation
products service services company startup vendor provider marketplace cli
`)

// definitionCues are the nouns that, after "X is a/an/the …", define X as a
// product: "Box is a cloud storage platform".
var definitionCues = set(`
app application software tool platform crm service suite solution product company
startup provider vendor browser editor workspace marketplace sdk api plugin extension
saas website search engine assistant chatbot manager tracker builder
`)

// pickNouns define a thing as one to choose ("the better pick", "a good
// place to start", "a safe bet", "a good starting point"): products and
// kinds alike.
var pickNouns = set(`alternative option choice pick place bet starting`)

// enumerators join items of an enumeration.
var enumerators = set(`and or & vs vs. versus nor plus`)

// Sentiment lexicon: compact, English, polarity ±1. Words are matched
// case-insensitively; hyphenated compounds are single words
// ("user-friendly"). "benefit" is praise ("the main benefit"), the plural
// is not: "benefits" names what is offered ("salary and benefits",
// "Grubhub+ benefits also apply", "benefits integrations"), and the words
// around it judge it ("generous benefits").
var positiveWords = set(`
great excellent best good better recommended recommend recommends top leading popular
powerful robust reliable intuitive easy easier easiest user-friendly easy-to-use
affordable flexible fast faster fastest efficient seamless seamlessly solid strong
stronger strongest outstanding impressive versatile ideal standout favorite favourite
love loved loves praised praise praises trusted innovative comprehensive polished
well-designed excels excel superior top-rated highly-rated well-known
well-regarded beloved streamlined generous secure scalable accurate helpful valuable
worthwhile effective convenient clean simple elegant smooth responsive stable mature
feature-rich cost-effective premier perfect amazing awesome fantastic wonderful superb
exceptional remarkable preferred winner wins shines shine thrive thrives benefit
advantage advantages pros capable nice handy useful dependable trust trustworthy
go-to best-in-class delightful snappy speedy lightweight beautiful gorgeous slick refined
thoughtful rock-solid unmatched unbeatable stellar brilliant enjoy enjoys enjoyable happy
satisfied impressed strength strengths reliability stability flexibility leader
market-leading industry-leading transparent privacy-focused well-documented
well-supported favoured favored praiseworthy excelled standouts painless effortless recommendation
cheapest inexpensive low-cost hassle-free rave raves uptime worth sleek modern quick fun top-notch
first-class world-class won
pleasant joy supportive comfortable compelling competitive dominant dominates flawless improved sharper smoother
safe durable lovely
bargain proper ethical fair
fine decent okay usable adequate reasonable forgiving beautifully wonderfully elegantly brilliantly superbly
nicely
`)

// strongWords weigh sentStrong.
var strongWords = set(`
excellent outstanding exceptional superb fantastic amazing love loved perfect best-in-class
unmatched unbeatable stellar brilliant terrible awful horrible unusable avoid worst scam fraud
unreliable disaster nightmare broken corrupts corrupted untrustworthy data-loss drawback drawbacks
downside downsides weakness weaknesses limitation limitations criticism criticisms complaint complaints
`)

// boosters intensify the next polar word; softeners weaken it.
var (
	boosters  = set(`very extremely really highly incredibly exceptionally particularly remarkably truly super consistently genuinely seriously deeply significantly especially so surprisingly`)
	softeners = set(`slightly somewhat bit occasionally sometimes minor mildly marginally relatively fairly little`)
)

var negativeWords = set(`
bad poor poorly worse worst expensive pricey overpriced costly slow slower sluggish
buggy bug bugs glitchy clunky complicated confusing difficult hard frustrating
limited limitation limitations lacking lacks lack outdated dated unreliable unstable
crash crashes crashing crashed issues issue problems problem complaints complaint drawback
drawbacks downside downsides weak weaker weakness weaknesses criticized criticised criticism
criticisms disappointing disappointed avoid steep cumbersome inferior mediocre lackluster
lacklustre annoying terrible awful horrible insecure vulnerable breach breaches outage
outages downtime scam fraud risky concern concerns overwhelming bloated laggy
inconsistent inaccurate cons hate hated fails fail failed failure struggles struggle
unresponsive unintuitive deprecated discontinued cluttered lose loses losing lost loss corrupt
corrupts corrupted freezes hangs lag lags lagging glitch glitches broken breaks
unusable painful headache headaches annoyance annoyances gripe gripes complain complains
complained complaining controversy controversial lawsuit lawsuits fined scandal leak leaked
leaks backlash stagnant abandoned neglected overkill restrictive paywall paywalled intrusive
invasive delays delay delayed errors flaky disappoints frustrated frustration regret caution
risk risks worry worries worrisome unpredictable drains untrustworthy distrust mistrust
shady predatory hidden-fees underwhelming subpar sluggishness unhelpful clumsy awkward
nightmare disaster data-loss falls lags distracting fatigue noisy missing tedious irritating downgrade
spam hacked breached vulnerability vulnerabilities sued penalized penalised boycott boycotts layoffs shutdown
declined decline struggling cramped outdated-looking bite bites
notorious aggressive cautious undermines undermine unhappy wrong draining drain fragile mixed frozen outgrow
accused accusations allegations alleged uninstalled messy unsafe disappearing disappear disappears vanish
vanishing reverting reverted
outgrew outgrown pain patchy spotty tiresome nagging nags pushy
furious angry outrage outraged apologized apologised apology recall recalls recalled collapsed collapses
hurt hurts eroded erodes damaged stuck controversies trade-off trade-offs tradeoff tradeoffs subscription-only rigid regression regressions
`)

// negators flip the polarity of the next sentiment word within negationWindow
// words: "not recommended", "isn't great", "no issues", "never crashes".
// Any word ending in "n't" (or "n’t") is a negator as well.
var negators = set(`not no never none nothing neither nor without hardly barely rarely
cannot cant isnt dont doesnt wont arent wasnt less`)

const negationWindow = 3

// contrastWords split a sentence into clauses for sentiment scoping; a
// semicolon does too.
var contrastWords = set(`but however although though whereas while yet except
nevertheless nonetheless unlike instead`)

// discoveryStop are capitalised words that head list items or enumerations
// without being products (headings, sentence adverbs, pronouns, verbs that
// start instructions). Candidates starting with one are dropped.
var discoveryStop = set(`
the a an and or but if in on at to for of by with from as is it its this that these
those there their they we you your our my i he she his her what which who why how
when where pros cons pricing price prices features feature best top key note notes
summary overview conclusion verdict example examples use using try choose pick
consider compare comparison option options alternative alternatives tip tips step
steps bonus final overall ultimately additionally also however moreover furthermore
finally alternatively meanwhile otherwise instead similarly still yet so then
first second third next last other others both each many most some several all any
free paid basic premium enterprise starter standard plus team teams business
ideal good great popular strong weak honorable honourable mention mentions
why see read learn get set make go check look find start sign visit
cost costs value integration integrations support security performance usability
ease collaboration automation reporting analytics customization scalability
yes no not none best-for strengths weaknesses limitations drawbacks benefits
recommendation recommendations bottom line tldr tl;dr faq source sources
`)

// An unknown-to-model rule (classify.go) runs only on a sentence that
// contains a negation anchor and one keyword of each of the rule's two
// keyword sets; every rule's regexp contains them. All are matched
// case-insensitively as substrings by one small automaton (unknownFilter).
var unknownAnchors = []string{
	"not", "n't", "n’t", "no ", "never", "unable", "limited", "unfamiliar", "unaware",
	"unknown", "beyond", "outside", "blank", "radar",
}

var unknownKeywords = []string{
	"info", "detail", "data", "knowledge", "record", "familiar", "aware", "evidence",
	"mention", "reference", "find", "locate", "identify", "verify", "know", "recogni",
	"heard", "come across", "encounter", "training", "bell", "sure", "appear", "seem",
	"exist", "unknown", "certain", "position",
	// second keywords of the rules
	"have", "possess", "hold", "see", "confirm", "couldn", "could not", "can't", "can’t",
	"cannot", "wasn", "don't", "don’t", "do not", "didn't", "didn’t", "did not", "isn't",
	"isn’t", "is not", "was not", "doesn", "does not",
}

// Lexicon flags: one lookup per word classifies it (see lexLookup).
const (
	lexPositive uint8 = 1 << iota
	lexNegative
	lexNegator
	lexContrast
	lexAnchor   // an unknown-statement anchor that is not a negator
	lexStrong   // a strong polar word: weighs sentStrong
	lexBooster  // an intensifier: the next polar word weighs more
	lexSoftener // a softener: the next polar word weighs less
)

var lexicon = func() map[string]uint8 {
	m := make(map[string]uint8)
	for w := range positiveWords {
		m[w] |= lexPositive
	}
	for w := range negativeWords {
		m[w] |= lexNegative
	}
	for w := range negators {
		m[w] |= lexNegator
	}
	for w := range contrastWords {
		m[w] |= lexContrast
	}
	for w := range strongWords {
		m[w] |= lexStrong
	}
	for w := range boosters {
		m[w] |= lexBooster
	}
	for w := range softeners {
		m[w] |= lexSoftener
	}
	for _, w := range strings.Fields(`unable limited unfamiliar unaware unknown beyond outside blank radar lack lacks lacking
		little insufficient scarce sparse unclear uncertain unsure unverified hard difficult few
		ne pas aucune aucun keine kein keinen keiner nicht não nao non nessuna nessun ninguna ningun`) {
		m[w] |= lexAnchor
	}
	return m
}()

// unknownFilter matches unknownAnchors and unknownKeywords; pattern i sets
// bit i of the mask it returns (keywordBit names the bit of a string).
var unknownPatterns = func() []string {
	var pats []string
	seen := make(map[string]bool)
	for _, w := range append(append([]string(nil), unknownAnchors...), unknownKeywords...) {
		if !seen[w] {
			seen[w] = true
			pats = append(pats, w)
		}
	}
	if len(pats) > 64 {
		panic("detect: more than 64 unknown-filter patterns")
	}
	return pats
}()

// unknownFilter is built on first use (see unknownRules).
var unknownFilter = sync.OnceValue(func() *automaton { return buildAutomaton(unknownPatterns) })

func keywordBit(w string) uint64 {
	for i, p := range unknownPatterns {
		if p == w {
			return 1 << i
		}
	}
	panic("detect: unknown keyword " + w)
}

// anchorMask has the bits of the negation anchors.
var anchorMask = func() (m uint64) {
	for _, w := range unknownAnchors {
		m |= keywordBit(w)
	}
	return m
}()
