package content

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/brandlens/brandlens/shared/gaps"
	"github.com/brandlens/brandlens/shared/opportunities"
)

// citationMarks are the [1] markers of quoted answers.
var citationMarks = regexp.MustCompile(`\s*\[\d+\]`)

// Caps of what a brief carries.
const (
	maxEntities  = 8
	maxFacts     = 8
	maxQuestions = 8
	maxOutline   = 12
	maxTitle     = 120
)

// NewBriefInput assembles a brief prompt's data from the gap and the
// query's window of answers (analysed for the brand as gap detection does).
func NewBriefInput(format string, brand Brand, g gaps.Gap, answers []gaps.Answer, named []string) BriefInput {
	in := BriefInput{ContentFormat: format, Query: g.QueryText, Tier: string(g.Tier), Brand: brand,
		Findings: Findings(g), CompetitorsAhead: nonNil(g.Competitors), CompetitorPages: g.Evidence.CompetitorPages,
		DefaultWordCount: DefaultWordCount[format]}
	if in.CompetitorPages == nil {
		in.CompetitorPages = []opportunities.CompetitorPage{}
	}
	in.TargetEntities = appendUnique(nil, maxEntities, brand.Name)
	in.TargetEntities = appendUnique(in.TargetEntities, maxEntities, g.Competitors...)
	in.TargetEntities = appendUnique(in.TargetEntities, maxEntities, named...)
	for _, s := range g.Evidence.Snippets {
		in.AnswerSnippets = append(in.AnswerSnippets, s.Platform+": "+s.Text)
	}
	in.AnswerSnippets = nonNil(in.AnswerSnippets)
	// Candidate facts: what the answers state with the brand as subject.
	var facts []string
	for _, a := range answers {
		f := strings.TrimSpace(citationMarks.ReplaceAllString(a.Snippet, ""))
		if a.Mentioned && strings.HasPrefix(strings.ToLower(f), strings.ToLower(brand.Name)+" ") {
			facts = appendUnique(facts, maxFacts-1, f)
		}
	}
	if len(brand.Domains) > 0 {
		facts = append(facts, fmt.Sprintf("%s is online at %s.", brand.Name, brand.Domains[0]))
	}
	in.CandidateFacts = nonNil(facts)
	return in
}

// Findings says in words what the gap's figures show.
func Findings(g gaps.Gap) string {
	m := g.Metrics
	pct := func(v float64) int { return int(math.Round(100 * v)) }
	s := fmt.Sprintf("across %d AI answers (%s), the brand is named in %d (%d%%, 95%% interval %d–%d%%)",
		m.Answers, strings.Join(g.Platforms, ", "), m.Mentions, pct(m.MentionRate.Value), pct(m.MentionRate.Low), pct(m.MentionRate.High))
	if m.TopCompetitor != nil {
		s += fmt.Sprintf("; %s is named first in %d", m.TopCompetitor.Name, m.TopCompetitor.Answers)
	}
	switch g.Tier {
	case gaps.TierWeakMention:
		s += fmt.Sprintf("; where it is named, it is late in the answer in %d%% and named once in %d%%", pct(m.LateShare), pct(m.SingleShare))
	case gaps.TierCompetitorDominated:
		s += fmt.Sprintf("; a competitor comes before it in %d%% of the answers that name any brand", pct(m.OutrankedShare))
	}
	return s + "."
}

// ErrUnusableOutput: the model's answer is not the JSON asked for, or
// breaks the brief's or the article's rules. Asking again may help.
var ErrUnusableOutput = errors.New("content: unusable model output")

func unusable(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUnusableOutput, fmt.Sprintf(format, args...))
}

// ParseBrief reads the model's brief and completes it with the input's
// evidence. It refuses an answer without a title, an outline that does
// not start with a level-2 heading or uses other levels, and one without
// questions.
func ParseBrief(text string, in BriefInput, model string, now time.Time) (opportunities.Brief, error) {
	raw, ok := jsonObject(text)
	if !ok {
		return opportunities.Brief{}, unusable("the answer holds no JSON object")
	}
	var out BriefOutput
	if err := json.Unmarshal(raw, &out); err != nil {
		return opportunities.Brief{}, unusable("the answer is not the brief's JSON: %v", err)
	}
	b := opportunities.Brief{ContentFormat: in.ContentFormat, Title: clean(out.Title, maxTitle),
		TargetQueries: []string{in.Query}, TargetEntities: in.TargetEntities, CompetitorPages: in.CompetitorPages,
		WordCount: out.WordCount, Model: model, GeneratedAt: now.UTC()}
	if b.Title == "" {
		return opportunities.Brief{}, unusable("the brief has no title")
	}
	for _, h := range out.Outline {
		t := clean(h.Text, maxTitle)
		if t == "" {
			continue
		}
		if h.Level != 2 && h.Level != 3 {
			return opportunities.Brief{}, unusable("outline heading %q has level %d; levels are 2 and 3", t, h.Level)
		}
		if len(b.Outline) == maxOutline {
			break
		}
		b.Outline = append(b.Outline, opportunities.Heading{Level: h.Level, Text: t})
	}
	if len(b.Outline) < 2 || b.Outline[0].Level != 2 {
		return opportunities.Brief{}, unusable("the outline needs at least two headings, the first of level 2")
	}
	for _, q := range out.Questions {
		b.Questions = appendUnique(b.Questions, maxQuestions, clean(q, 300))
	}
	if len(b.Questions) == 0 {
		return opportunities.Brief{}, unusable("the brief has no questions")
	}
	for _, f := range out.Facts {
		b.Facts = appendUnique(b.Facts, maxFacts, clean(f, 400))
	}
	b.Facts = nonNil(b.Facts)
	if b.WordCount < MinWordCount || b.WordCount > MaxWordCount {
		b.WordCount = DefaultWordCount[in.ContentFormat]
	}
	return b, nil
}

// clean collapses white space and cuts s to n characters.
func clean(s string, n int) string {
	s = collapse(s)
	if utf8.RuneCountInString(s) > n {
		s = strings.TrimSpace(string([]rune(s)[:n]))
	}
	return s
}

// appendUnique appends the non-empty vs not yet in s (case-insensitive),
// up to n items.
func appendUnique(s []string, n int, vs ...string) []string {
	for _, v := range vs {
		if len(s) >= n {
			break
		}
		if v == "" || slices.ContainsFunc(s, func(x string) bool { return strings.EqualFold(x, v) }) {
			continue
		}
		s = append(s, v)
	}
	return s
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
