package live

import (
	"log/slog"
	"regexp"
	"strings"
	"sync"

	"github.com/brandlens/brandlens/shared/providers"
)

// PriceTableDate is when the list prices of standardPrices were last read.
const PriceTableDate = "2026-11-20"

// Price is a model's standard-tier list price in USD, used to estimate
// CostUSD for the vendors that do not report a cost (OpenAI, Google,
// Anthropic). Free allowances (Gemini's monthly free searches) and
// long-prompt tiers (> 200k tokens; a monitoring query is a few hundred) are
// not modelled, so an estimate is the list price of the call.
type Price struct {
	InputPerMTok  float64 // per million input tokens
	OutputPerMTok float64 // per million output tokens (thinking tokens included)
	// PerSearch is charged per web search the response reports (OpenAI
	// web_search_call items, Anthropic server_tool_use.web_search_requests,
	// Gemini 3 groundingMetadata.webSearchQueries).
	PerSearch float64
	// PerGroundedPrompt is charged once per answer that used Google Search
	// grounding (Gemini 2.x bills the prompt, not the queries).
	PerGroundedPrompt float64
}

// standardPrices is the table, keyed by exact model id. Sources, read on
// PriceTableDate unless noted:
//
//   - OpenAI: openai.com/api/pricing (gpt-5 … gpt-4o as transcribed on
//     2026-02-07); gpt-5.5 and gpt-5.5-pro $5/$30 and $30/$180 as published
//     at launch (2026-04-23) and repeated by several third-party price
//     lists — OpenAI's own page could not be read from here. Web search:
//     $10 per 1,000 calls; the fee of non-reasoning models (gpt-4o, gpt-4.1)
//     is unconfirmed and taken as the same.
//   - Anthropic: platform.claude.com/docs/about-claude/pricing (Opus 4,
//     4.1, 4.5, 4.6; Sonnet 4, 4.5, 4.6; Haiku 3.5, 4.5). Opus 4.7 and 4.8
//     ($5/$25) and Sonnet 5 and 5.5 ($2/$10) are UNCONFIRMED: from
//     third-party transcriptions of that page. Web search: $10 per 1,000.
//   - Google: ai.google.dev/gemini-api/docs/pricing as transcribed on
//     2026-09-20 and 2026-10-07 (gemini-3.5-flash $1.50/$9.00; Gemini 3
//     grounding $14 per 1,000 search queries; Gemini 2.5 grounding $35 per
//     1,000 grounded prompts). gemini-3.8-flash is left out: its price
//     changes on 2027-01-01.
//
// Models absent here are costUnknown, never $0.
func standardPrices() map[string]Price {
	const openAISearch, anthropicSearch = 0.01, 0.01
	const gemini3Search, gemini25Prompt = 0.014, 0.035
	return map[string]Price{
		"gpt-5.5":      {5.00, 30.00, openAISearch, 0},
		"gpt-5.5-pro":  {30.00, 180.00, openAISearch, 0},
		"gpt-5.2":      {1.75, 14.00, openAISearch, 0},
		"gpt-5.1":      {1.25, 10.00, openAISearch, 0},
		"gpt-5":        {1.25, 10.00, openAISearch, 0},
		"gpt-5-mini":   {0.25, 2.00, openAISearch, 0},
		"gpt-5-nano":   {0.05, 0.40, openAISearch, 0},
		"gpt-4.1":      {2.00, 8.00, openAISearch, 0},
		"gpt-4.1-mini": {0.40, 1.60, openAISearch, 0},
		"gpt-4o":       {2.50, 10.00, openAISearch, 0},
		"gpt-4o-mini":  {0.15, 0.60, openAISearch, 0},

		"claude-opus-4":     {15.00, 75.00, anthropicSearch, 0},
		"claude-opus-4-0":   {15.00, 75.00, anthropicSearch, 0},
		"claude-opus-4-1":   {15.00, 75.00, anthropicSearch, 0},
		"claude-opus-4-5":   {5.00, 25.00, anthropicSearch, 0},
		"claude-opus-4-6":   {5.00, 25.00, anthropicSearch, 0},
		"claude-opus-4-7":   {5.00, 25.00, anthropicSearch, 0}, // unconfirmed
		"claude-opus-4-8":   {5.00, 25.00, anthropicSearch, 0}, // unconfirmed
		"claude-sonnet-4":   {3.00, 15.00, anthropicSearch, 0},
		"claude-sonnet-4-0": {3.00, 15.00, anthropicSearch, 0},
		"claude-sonnet-4-5": {3.00, 15.00, anthropicSearch, 0},
		"claude-sonnet-4-6": {3.00, 15.00, anthropicSearch, 0},
		"claude-sonnet-5":   {2.00, 10.00, anthropicSearch, 0}, // unconfirmed
		"claude-sonnet-5-5": {2.00, 10.00, anthropicSearch, 0}, // unconfirmed
		"claude-haiku-4-5":  {1.00, 5.00, anthropicSearch, 0},
		"claude-3-5-haiku":  {0.80, 4.00, anthropicSearch, 0},

		"gemini-3.5-flash":       {1.50, 9.00, gemini3Search, 0},
		"gemini-3.1-pro-preview": {2.00, 12.00, gemini3Search, 0},
		"gemini-3-pro-preview":   {2.00, 12.00, gemini3Search, 0},
		"gemini-2.5-pro":         {1.25, 10.00, 0, gemini25Prompt},
		"gemini-2.5-flash":       {0.30, 2.50, 0, gemini25Prompt},
		"gemini-2.5-flash-lite":  {0.10, 0.40, 0, gemini25Prompt},
	}
}

// serpAPICostPerRequest estimates one SerpApi request on the Developer plan
// ($75 for 5,000 searches); SerpApi bills plans, not calls, so this is
// unconfirmed as a per-call price. Every request is counted, although a
// search SerpApi serves from its cache is free.
const serpAPICostPerRequest = 0.015

// snapshotSuffix is the only thing allowed after a table id: a dated or
// numbered snapshot of the same model (gpt-5.5-2026-04-23,
// claude-opus-4-1-20250805, gemini-2.0-flash-001). Anything else —
// gpt-5.5-pro, claude-opus-4-8, gemini-3.5-flash-lite — is another model
// and must be in the table itself.
var snapshotSuffix = regexp.MustCompile(`^-(\d{4}-\d{2}-\d{2}|\d{8}|\d{3})$`)

// PriceBook prices calls from the table and logs each unknown model once.
type PriceBook struct {
	table  map[string]Price
	log    *slog.Logger
	warned sync.Map // model → struct{}
}

// NewPriceBook returns the standard table; log nil means slog.Default().
func NewPriceBook(log *slog.Logger) *PriceBook {
	return &PriceBook{table: standardPrices(), log: log}
}

// Lookup returns the price of model: the table entry of that exact id, or
// of the id it is a snapshot of. "models/" (Gemini) is ignored.
func (b *PriceBook) Lookup(model string) (Price, bool) {
	m := strings.ToLower(strings.TrimSpace(strings.TrimPrefix(model, "models/")))
	if m == "" {
		return Price{}, false
	}
	if p, ok := b.table[m]; ok {
		return p, true
	}
	for id, p := range b.table {
		if strings.HasPrefix(m, id) && snapshotSuffix.MatchString(m[len(id):]) {
			return p, true
		}
	}
	return Price{}, false
}

// Usage is what a call consumed, for pricing.
type Usage struct {
	Platform string
	// Model is the model the response names; Requested is the one asked
	// for, used when the response names a snapshot the table lacks.
	Model, Requested string
	InputTokens      int
	OutputTokens     int
	Searches         int
	GroundedPrompts  int
}

// Apply sets ans.CostUSD from u, or ans.CostUnknown when neither model is
// in the table (logged once per model, so an operator can add it).
func (b *PriceBook) Apply(ans *providers.Answer, u Usage) {
	p, ok := b.Lookup(u.Model)
	if !ok {
		p, ok = b.Lookup(u.Requested)
	}
	if !ok {
		ans.CostUSD, ans.CostUnknown = 0, true
		key := u.Model + "|" + u.Requested
		if _, seen := b.warned.LoadOrStore(key, struct{}{}); !seen {
			b.logger().Warn("live provider: model not in the price table; its cost is recorded as unknown",
				"platform", u.Platform, "model", u.Model, "requested_model", u.Requested, "price_table_date", PriceTableDate)
		}
		return
	}
	ans.CostUSD = float64(u.InputTokens)*p.InputPerMTok/1e6 + float64(u.OutputTokens)*p.OutputPerMTok/1e6 +
		float64(u.Searches)*p.PerSearch + float64(u.GroundedPrompts)*p.PerGroundedPrompt
	ans.CostUnknown = false
}

func (b *PriceBook) logger() *slog.Logger {
	if b.log != nil {
		return b.log
	}
	return slog.Default()
}
