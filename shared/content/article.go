package content

import (
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gosimple/slug"

	"github.com/brandlens/brandlens/shared/opportunities"
)

// Shape limits of an article.
const (
	MaxMetaDescription = 160 // characters
	maxSlug            = 80  // bytes
	schemaContext      = "https://schema.org"
)

// Finish turns the model's article answer into publish-ready content: the
// body is rewritten (h1 → h2, humanized) and sanitized, and must carry
// every outline heading and target entity of the brief (and, for a faq,
// question headings with answers); the meta description, the slug, the
// headings, the word count and the JSON-LD are derived from the result.
func Finish(text string, b opportunities.Brief, persona, model, version string, now time.Time) (opportunities.Content, error) {
	raw, ok := jsonObject(text)
	if !ok {
		return opportunities.Content{}, unusable("the answer holds no JSON object")
	}
	var out ArticleOutput
	if err := json.Unmarshal(raw, &out); err != nil {
		return opportunities.Content{}, unusable("the answer is not the article's JSON: %v", err)
	}
	title := clean(Humanize(out.Title), maxTitle)
	if title == "" {
		title = b.Title
	}
	body, err := rewrite(out.BodyHTML)
	if err != nil {
		return opportunities.Content{}, unusable("the body is not HTML: %v", err)
	}
	body = Sanitize(body)
	sections, bodyText := outline(body)
	headings := make([]string, 0, len(sections))
	for _, s := range sections {
		if s.Heading != "" {
			headings = append(headings, s.Heading)
		}
	}
	if err := covers(b, headings, bodyText); err != nil {
		return opportunities.Content{}, err
	}
	schema, err := jsonLD(b, title, sections)
	if err != nil {
		return opportunities.Content{}, err
	}
	c := opportunities.Content{
		Title: title, Slug: Slug(title), BodyHTML: body, Headings: headings, TargetEntities: b.TargetEntities,
		MetaDescription: Meta(Humanize(out.MetaDescription), bodyText), ContentVersion: version, Persona: persona,
		WordCount: wordCount(bodyText), Model: model, GeneratedAt: now.UTC(),
	}
	// The description and the word count go into the JSON-LD too.
	c.SchemaJSONLD, err = withMeta(schema, c.MetaDescription, c.WordCount, b)
	return c, err
}

// covers checks that the body has every heading of the outline and names
// every target entity.
func covers(b opportunities.Brief, headings []string, text string) error {
	have := map[string]bool{}
	for _, h := range headings {
		have[headingKey(h)] = true
	}
	for _, h := range b.Outline {
		if !have[headingKey(Humanize(h.Text))] && !have[headingKey(h.Text)] {
			return unusable("the body lacks the outline heading %q", h.Text)
		}
	}
	lower := strings.ToLower(text)
	for _, e := range b.TargetEntities {
		if !strings.Contains(lower, strings.ToLower(e)) {
			return unusable("the body never names the target entity %q", e)
		}
	}
	return nil
}

// headingKey compares headings without case, spacing or end punctuation.
func headingKey(s string) string {
	return strings.TrimRight(strings.ToLower(collapse(s)), ".:!?")
}

// jsonLD builds the page's schema.org markup: FAQPage for the faq format
// (one Question per question heading, its answer the text under it),
// Article otherwise.
func jsonLD(b opportunities.Brief, title string, sections []Section) (map[string]any, error) {
	if b.ContentFormat == FormatFAQ {
		var qs []map[string]any
		for _, s := range sections {
			if strings.HasSuffix(s.Heading, "?") && s.Text != "" {
				qs = append(qs, map[string]any{"@type": "Question", "name": s.Heading,
					"acceptedAnswer": map[string]any{"@type": "Answer", "text": s.Text}})
			}
		}
		if len(qs) == 0 {
			return nil, unusable("a faq needs question headings with answers")
		}
		return map[string]any{"@context": schemaContext, "@type": "FAQPage", "name": title, "mainEntity": qs}, nil
	}
	headline := title
	if utf8.RuneCountInString(headline) > 110 { // Google's limit for Article headlines
		headline = string([]rune(headline)[:110])
	}
	return map[string]any{"@context": schemaContext, "@type": "Article", "headline": headline}, nil
}

// withMeta completes the markup and renders it as the JSON string stored.
func withMeta(m map[string]any, meta string, words int, b opportunities.Brief) (string, error) {
	m["description"] = meta
	if m["@type"] == "Article" {
		m["wordCount"] = words
		m["keywords"] = strings.Join(b.TargetQueries, ", ")
		var mentions []map[string]any
		for _, e := range b.TargetEntities {
			mentions = append(mentions, map[string]any{"@type": "Thing", "name": e})
		}
		if len(mentions) > 0 {
			m["about"] = mentions[0]
			m["mentions"] = mentions
		}
	}
	out, err := json.Marshal(m)
	if err != nil {
		return "", unusable("JSON-LD: %v", err)
	}
	return string(out), nil
}

// Meta returns the meta description: the model's, else the body's opening,
// cut at a word boundary to at most MaxMetaDescription characters.
func Meta(meta, bodyText string) string {
	meta = collapse(meta)
	if meta == "" {
		meta = bodyText
	}
	if utf8.RuneCountInString(meta) <= MaxMetaDescription {
		return meta
	}
	r := []rune(meta)[:MaxMetaDescription-1]
	cut := string(r)
	if sp := strings.LastIndexByte(cut, ' '); sp > MaxMetaDescription/2 {
		cut = cut[:sp]
	}
	return strings.TrimRight(cut, " ,;:.") + "…"
}

// Slug is the URL slug of a title (gosimple/slug), cut at a hyphen to at
// most 80 bytes.
func Slug(title string) string {
	s := slug.Make(title)
	if len(s) > maxSlug {
		s = s[:maxSlug]
		if i := strings.LastIndexByte(s, '-'); i > maxSlug/2 {
			s = s[:i]
		}
	}
	return strings.Trim(s, "-")
}
