package models

import (
	"regexp"
	"strings"
)

// Price is a chat model's list price in USD per million tokens.
type Price struct {
	InputPerMTok  float64
	OutputPerMTok float64
}

// PricesAsOf dates the table below.
const PricesAsOf = "2026-11"

// Prices are the standard-tier list prices of the chat models brandlens
// generates with (no batch, cache or long-context rates: prompts here are a
// few thousand tokens). gpt-5.5 ($5/$30), claude-sonnet-4-6 ($3/$15) and the
// older rows are the vendors' published rates; gemini-3.5-flash ($1.50/$9)
// is taken from third-party summaries of Google's price page and is
// unconfirmed. A model matches only its exact id or a dated snapshot of it
// (…-2026-04-23, …-20260423), so a newer model is never priced at an older
// one's rate: it reports CostKnown=false instead.
var Prices = map[string]Price{
	"gpt-5.5":           {5.00, 30.00},
	"gpt-5.4":           {2.50, 15.00},
	"gpt-5-mini":        {0.25, 2.00},
	"gpt-4.1":           {2.00, 8.00},
	"claude-sonnet-4-6": {3.00, 15.00},
	"claude-sonnet-4-5": {3.00, 15.00},
	"claude-haiku-4-5":  {1.00, 5.00},
	"gemini-3.5-flash":  {1.50, 9.00},
	"gemini-2.5-flash":  {0.30, 2.50},
	"gemini-2.5-pro":    {1.25, 10.00},
}

var snapshotSuffix = regexp.MustCompile(`-(\d{4}-\d{2}-\d{2}|\d{8})$`)

// PriceOf returns the price of model, matched exactly or as a dated
// snapshot ("models/" prefixes, as Gemini reports them, are ignored).
func PriceOf(model string) (Price, bool) {
	m := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(model), "models/"))
	if p, ok := Prices[m]; ok {
		return p, true
	}
	p, ok := Prices[snapshotSuffix.ReplaceAllString(m, "")]
	return p, ok
}

// Cost prices a call; known is false for a model not in Prices.
func Cost(model string, in, out int) (usd float64, known bool) {
	p, ok := PriceOf(model)
	if !ok {
		return 0, false
	}
	return float64(in)*p.InputPerMTok/1e6 + float64(out)*p.OutputPerMTok/1e6, true
}
