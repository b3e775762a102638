package live

import "strings"

// Price is a model's list price in USD, used to estimate CostUSD for the
// vendors that do not report a cost (OpenAI, Google, Anthropic).
type Price struct {
	InputPerMTok  float64 // per million input tokens
	OutputPerMTok float64 // per million output tokens
	PerSearch     float64 // per web search the response reports
}

// prices is the estimate table, keyed by model family. A model matches the
// longest family that is the whole model name or is followed by "-" (so
// "claude-sonnet-4" prices "claude-sonnet-4-6" and "gpt-5" prices
// "gpt-5-2025-08-07", but "gpt-5" does not price "gpt-5.5"). A model that
// matches nothing is estimated at 0. Figures are the vendors' published
// standard-tier list prices (2025); search fees are $10 per 1,000 searches
// for OpenAI's web_search and Anthropic's web_search tools. Gemini's
// grounding fee is per prompt with a free daily allowance, so it is left
// out. SerpApi has no tokens: see serpAPICostPerRequest.
var prices = map[string]Price{
	"gpt-5":                 {1.25, 10.00, 0.01},
	"gpt-5-mini":            {0.25, 2.00, 0.01},
	"gpt-5-nano":            {0.05, 0.40, 0.01},
	"gpt-4.1":               {2.00, 8.00, 0.01},
	"gpt-4.1-mini":          {0.40, 1.60, 0.01},
	"gpt-4o":                {2.50, 10.00, 0.01},
	"gpt-4o-mini":           {0.15, 0.60, 0.01},
	"claude-opus-4":         {15.00, 75.00, 0.01},
	"claude-opus-4-5":       {5.00, 25.00, 0.01},
	"claude-sonnet-4":       {3.00, 15.00, 0.01},
	"claude-haiku-4-5":      {1.00, 5.00, 0.01},
	"claude-3-5-haiku":      {0.80, 4.00, 0.01},
	"gemini-2.5-pro":        {1.25, 10.00, 0},
	"gemini-2.5-flash":      {0.30, 2.50, 0},
	"gemini-2.5-flash-lite": {0.10, 0.40, 0},
	"gemini-3-pro":          {2.00, 12.00, 0},
}

// serpAPICostPerRequest estimates one SerpApi request on the Developer plan
// ($75 for 5,000 searches); SerpApi bills plans, not calls.
const serpAPICostPerRequest = 0.015

// priceFor returns the price of model's family.
func priceFor(model string) (Price, bool) {
	model = strings.ToLower(strings.TrimPrefix(model, "models/"))
	best, found := "", false
	var p Price
	for fam, fp := range prices {
		if model != fam && !strings.HasPrefix(model, fam+"-") {
			continue
		}
		if len(fam) > len(best) {
			best, p, found = fam, fp, true
		}
	}
	return p, found
}

// estimateCost prices a call from its token counts and web searches.
func estimateCost(model string, in, out, searches int) float64 {
	p, ok := priceFor(model)
	if !ok {
		return 0
	}
	return float64(in)*p.InputPerMTok/1e6 + float64(out)*p.OutputPerMTok/1e6 + float64(searches)*p.PerSearch
}
