// Package platforms is the catalogue of AI platforms brandlens monitors:
// their wire names and display icons.
package platforms

import "slices"

// Wire names of the platforms (exact, as the API uses them).
const (
	ChatGPT          = "chatgpt"
	Perplexity       = "perplexity"
	Gemini           = "gemini"
	Claude           = "claude"
	GoogleAIOverview = "google_ai_overview"
)

// All lists the platforms in their canonical order.
var All = []string{ChatGPT, Perplexity, Gemini, Claude, GoogleAIOverview}

// Valid reports whether name is a platform.
func Valid(name string) bool { return slices.Contains(All, name) }

// Icon returns the icon name shown beside a platform (CitationDto.platformIcon).
func Icon(name string) string {
	switch name {
	case ChatGPT:
		return "openai"
	case Perplexity:
		return "perplexity"
	case Gemini:
		return "google-gemini"
	case Claude:
		return "anthropic"
	case GoogleAIOverview:
		return "google"
	}
	return ""
}
