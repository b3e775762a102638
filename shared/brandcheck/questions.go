package brandcheck

import (
	"net/netip"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/net/publicsuffix"
)

// Question kinds, in the order they are asked and weighed.
const (
	QuestionCategory     = "category"     // "best <category> tools": does the brand come up unprompted?
	QuestionAlternatives = "alternatives" // "<brand> alternatives": who is it compared with?
	QuestionIdentity     = "identity"     // "what is <brand>": does the model know it?
)

// Question is one prompt sent to every platform.
type Question struct {
	Kind string
	Text string
	// Weight is the question's share of a platform's score: being named
	// unprompted matters most, being known at all least.
	Weight float64
}

// Questions returns the three questions of a check of brand at host.
func Questions(brand, host string) []Question {
	return []Question{
		{Kind: QuestionCategory, Text: "best " + Category(brand, host) + " tools", Weight: 0.5},
		{Kind: QuestionAlternatives, Text: brand + " alternatives", Weight: 0.3},
		{Kind: QuestionIdentity, Text: "what is " + brand, Weight: 0.2},
	}
}

// DefaultCategory is used when neither the brand nor its host says more.
const DefaultCategory = "software"

// categoryWords maps a word found in the brand name or the website's host
// to the category it suggests. Longer words are tried first inside
// compounds ("acmenotes" → "notes").
var categoryWords = map[string]string{
	"crm": "CRM", "sales": "sales", "leads": "lead generation", "lead": "lead generation",
	"note": "note-taking", "notes": "note-taking", "docs": "documentation", "wiki": "knowledge base",
	"mail": "email", "email": "email", "inbox": "email", "newsletter": "newsletter",
	"chat": "team chat", "meet": "video meeting", "video": "video", "call": "calling", "voice": "voice",
	"task": "task management", "tasks": "task management", "todo": "to-do list",
	"project": "project management", "projects": "project management", "board": "project management",
	"analytics": "analytics", "metrics": "analytics", "insights": "analytics", "data": "data",
	"pay": "payments", "payments": "payments", "payroll": "payroll", "invoice": "invoicing",
	"invoices": "invoicing", "billing": "billing", "accounting": "accounting", "books": "accounting",
	"ledger": "accounting", "tax": "tax", "bank": "banking", "finance": "finance", "budget": "budgeting",
	"hr": "HR", "hire": "hiring", "hiring": "hiring", "jobs": "job search", "recruit": "recruiting",
	"shop": "e-commerce", "store": "e-commerce", "cart": "e-commerce", "commerce": "e-commerce",
	"design": "design", "draw": "design", "photo": "photo editing", "form": "online form",
	"forms": "online form", "survey": "survey", "surveys": "survey", "seo": "SEO", "ads": "advertising",
	"social": "social media", "host": "web hosting", "hosting": "web hosting", "cloud": "cloud",
	"deploy": "deployment", "code": "developer", "dev": "developer", "git": "code hosting",
	"api": "API", "security": "security", "secure": "security", "vpn": "VPN", "password": "password manager",
	"pass": "password manager", "vault": "password manager", "backup": "backup", "calendar": "calendar",
	"schedule": "scheduling", "booking": "booking", "book": "booking", "learn": "e-learning",
	"course": "online course", "courses": "online course", "school": "education", "health": "health",
	"fit": "fitness", "fitness": "fitness", "travel": "travel", "food": "food delivery", "legal": "legal",
	"support": "customer support", "help": "help desk", "desk": "help desk", "ticket": "help desk",
	"crowd": "crowdfunding", "site": "website builder", "web": "website builder", "sign": "e-signature",
	"translate": "translation", "write": "writing", "ai": "AI", "bot": "chatbot", "monitor": "monitoring",
	"status": "status page", "log": "logging", "logs": "logging", "test": "testing", "qa": "testing",
	"map": "mapping", "maps": "mapping", "crypto": "crypto", "wallet": "digital wallet",
}

// tldCategories: a few top-level domains say what a site is about.
var tldCategories = map[string]string{
	"ai": "AI", "shop": "e-commerce", "store": "e-commerce", "bank": "banking", "dev": "developer",
	"health": "health", "travel": "travel", "app": "app",
}

// genericLabels say nothing about a product.
var genericLabels = map[string]bool{"www": true, "app": true, "get": true, "try": true, "go": true,
	"my": true, "the": true, "use": true, "join": true, "hq": true, "inc": true, "co": true}

// Category derives the brand's category: a category word in the brand name
// ("Acme CRM" → CRM), else in the labels of the website's registrable
// domain ("acme-notes.com", "acmenotes.com" → note-taking; a compound is
// searched for the longest category word at its start or end), else its
// top-level domain (".ai" → AI), else DefaultCategory.
func Category(brand, host string) string {
	brandWords := words(brand)
	for _, w := range brandWords {
		if c, ok := categoryWords[w]; ok {
			return c
		}
	}
	labels, tld := hostLabels(host)
	for _, l := range labels {
		if c, ok := categoryWords[l]; ok {
			return c
		}
	}
	for _, l := range append(slices.Clone(labels), brandWords...) {
		if c := compoundCategory(l); c != "" {
			return c
		}
	}
	if c, ok := tldCategories[tld]; ok {
		return c
	}
	return DefaultCategory
}

// words splits s into lowercase words at non-alphanumerics and at
// lower-to-upper case changes ("AcmeNotes" → acme, notes).
func words(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	var prev rune
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if unicode.IsUpper(r) && unicode.IsLower(prev) {
				flush()
			}
			cur = append(cur, r)
		default:
			flush()
		}
		prev = r
	}
	flush()
	return out
}

// hostLabels returns the words of the registrable domain without its
// public suffix ("app.acme-notes.co.uk" → [acme notes], "uk") and the
// top-level domain. IP addresses have none.
func hostLabels(host string) ([]string, string) {
	if _, err := netip.ParseAddr(host); err == nil || host == "" {
		return nil, ""
	}
	tld := host[strings.LastIndexByte(host, '.')+1:]
	etld1, err := publicsuffix.EffectiveTLDPlusOne(host)
	if err != nil {
		return nil, tld
	}
	suffix, _ := publicsuffix.PublicSuffix(host)
	name := strings.TrimSuffix(etld1, "."+suffix)
	var out []string
	for _, w := range words(name) {
		if !genericLabels[w] {
			out = append(out, w)
		}
	}
	return out, tld
}

// compoundCategory finds the longest category word (at least 3 letters)
// that starts or ends w, leaving at least 3 letters for the rest.
func compoundCategory(w string) string {
	best, bestLen := "", 0
	for k, c := range categoryWords {
		if len(k) < 3 || len(k) <= bestLen || len(w)-len(k) < 3 {
			continue
		}
		if strings.HasPrefix(w, k) || strings.HasSuffix(w, k) {
			best, bestLen = c, len(k)
		}
	}
	return best
}
