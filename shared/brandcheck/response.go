package brandcheck

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/brandlens/brandlens/shared/platforms"
)

// Response is the BrandCheckResponse of the spec; every member is always
// present (slices and maps are never null). Platform results carry one
// member the spec does not list, visibilityScore (that platform's 0–100
// score, drawn as its bar).
type Response struct {
	BrandName               string           `json:"brandName"`
	VisibilityScore         int32            `json:"visibilityScore"`
	Grade                   *string          `json:"grade"`
	Platforms               []PlatformResult `json:"platforms"`
	TopCompetitors          []string         `json:"topCompetitors"`
	TopCompetitorCitedPages []CompetitorPage `json:"topCompetitorCitedPages"`
	Summary                 string           `json:"summary"`
	HasUpsell               bool             `json:"hasUpsell"`
	RequestID               string           `json:"requestId"`
	CompletedAt             time.Time        `json:"completedAt"`
}

// Platform statuses of a check.
const (
	StatusSucceeded = "succeeded" // every question answered
	StatusPartial   = "partial"   // some questions answered
	StatusFailed    = "failed"    // none answered: the platform refused or erred
	StatusTimeout   = "timeout"   // none answered within the check's time budget
)

// PlatformResult is BrandCheckPlatformResult.
type PlatformResult struct {
	Platform            string            `json:"platform"`
	Status              string            `json:"status"`
	MentionCount        int32             `json:"mentionCount"`
	EvidenceSnippet     string            `json:"evidenceSnippet"`
	Competitors         []string          `json:"competitors"`
	CompetitorCitedURLs map[string]string `json:"competitorCitedUrls"`
	ErrorMessage        string            `json:"errorMessage"`
	CostIncurred        float64           `json:"costIncurred"`
	ModelUsed           string            `json:"modelUsed"`
	VisibilityScore     int32             `json:"visibilityScore"`
}

// answered reports whether the platform contributes to the score.
func (p PlatformResult) answered() bool {
	return p.Status == StatusSucceeded || p.Status == StatusPartial
}

// CompetitorPage is BrandCheckCompetitor: a competitor and a page the
// platforms cited for it.
type CompetitorPage struct {
	Name     string `json:"name"`
	CitedURL string `json:"citedUrl"`
}

// Grade bands of the overall score.
var gradeBands = []struct {
	min   int32
	grade string
}{{80, "A"}, {60, "B"}, {40, "C"}, {20, "D"}, {0, "F"}}

// Grade returns the letter of a 0–100 score: A 80–100, B 60–79, C 40–59,
// D 20–39, F 0–19.
func Grade(score int32) string {
	for _, b := range gradeBands {
		if score >= b.min {
			return b.grade
		}
	}
	return "F"
}

// platformName is how a marketer calls the platform.
func platformName(p string) string {
	switch p {
	case platforms.ChatGPT:
		return "ChatGPT"
	case platforms.Perplexity:
		return "Perplexity"
	case platforms.Gemini:
		return "Gemini"
	case platforms.Claude:
		return "Claude"
	case platforms.GoogleAIOverview:
		return "Google AI Overviews"
	}
	return p
}

// summarize writes the two or three sentences of the summary.
func summarize(r *Response, answers, mentioned int) string {
	var ok, down []string
	best, worst := -1, -1
	for i, p := range r.Platforms {
		if !p.answered() {
			down = append(down, platformName(p.Platform))
			continue
		}
		ok = append(ok, platformName(p.Platform))
		if best < 0 || p.VisibilityScore > r.Platforms[best].VisibilityScore {
			best = i
		}
		if worst < 0 || p.VisibilityScore < r.Platforms[worst].VisibilityScore {
			worst = i
		}
	}
	if len(ok) == 0 {
		return fmt.Sprintf("None of the AI platforms answered in time, so %s could not be scored. "+
			"This check did not find out anything about your visibility; please try again later.", r.BrandName)
	}
	var b strings.Builder
	grade := ""
	if r.Grade != nil {
		grade = *r.Grade
	}
	if mentioned == 0 {
		fmt.Fprintf(&b, "%s did not come up in any of the %d AI answers we collected from %s, for a visibility score of %d out of 100 (grade %s).",
			r.BrandName, answers, countPlatforms(len(ok)), r.VisibilityScore, grade)
	} else {
		fmt.Fprintf(&b, "%s was named in %d of the %d AI answers we collected from %s, for a visibility score of %d out of 100 (grade %s).",
			r.BrandName, mentioned, answers, countPlatforms(len(ok)), r.VisibilityScore, grade)
	}
	switch {
	case len(r.TopCompetitors) > 0:
		fmt.Fprintf(&b, " The names these platforms recommended most often were %s.", listAnd(r.TopCompetitors[:min(3, len(r.TopCompetitors))]))
	case best >= 0 && best != worst && r.Platforms[best].VisibilityScore != r.Platforms[worst].VisibilityScore:
		fmt.Fprintf(&b, " You are most visible on %s and least on %s.",
			platformName(r.Platforms[best].Platform), platformName(r.Platforms[worst].Platform))
	}
	if len(down) > 0 {
		fmt.Fprintf(&b, " %s did not answer, so the score counts only the platforms that did.", listAnd(down))
	} else if r.HasUpsell {
		b.WriteString(" Tracking these questions every day shows which content moves the score.")
	}
	return b.String()
}

func countPlatforms(n int) string {
	if n == 1 {
		return "1 platform"
	}
	return fmt.Sprintf("%d platforms", n)
}

// listAnd joins "A", "A and B", "A, B and C".
func listAnd(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// Text renders the response as a plain-text report.
func (r Response) Text() string {
	var b strings.Builder
	grade := "none"
	if r.Grade != nil {
		grade = *r.Grade
	}
	fmt.Fprintf(&b, "Brand check: %s\n", r.BrandName)
	fmt.Fprintf(&b, "Visibility score: %d/100   Grade: %s\n\n", r.VisibilityScore, grade)
	b.WriteString(wrap(r.Summary, 78, "") + "\n\n")
	b.WriteString("Platforms\n")
	for _, p := range r.Platforms {
		fmt.Fprintf(&b, "  %-20s %-9s score %3d  %s  mentions %d\n", platformName(p.Platform), p.Status,
			p.VisibilityScore, bar(int(p.VisibilityScore)), p.MentionCount)
		if p.EvidenceSnippet != "" {
			b.WriteString(wrap("\""+p.EvidenceSnippet+"\"", 74, "    ") + "\n")
		}
		if p.ErrorMessage != "" {
			fmt.Fprintf(&b, "    error: %s\n", p.ErrorMessage)
		}
		if len(p.Competitors) > 0 {
			fmt.Fprintf(&b, "    competitors: %s\n", strings.Join(p.Competitors, ", "))
		}
	}
	if len(r.TopCompetitors) > 0 {
		fmt.Fprintf(&b, "\nTop competitors: %s\n", strings.Join(r.TopCompetitors, ", "))
	}
	if len(r.TopCompetitorCitedPages) > 0 {
		b.WriteString("Pages cited for them:\n")
		for _, c := range r.TopCompetitorCitedPages {
			fmt.Fprintf(&b, "  %s: %s\n", c.Name, c.CitedURL)
		}
	}
	if r.HasUpsell {
		b.WriteString("\nTrack these questions daily and close the gaps with brandlens.\n")
	}
	fmt.Fprintf(&b, "\nRequest %s, completed %s\n", r.RequestID, r.CompletedAt.UTC().Format(time.RFC3339))
	return b.String()
}

// bar draws a 0–100 score as ten cells.
func bar(score int) string {
	n := int(math.Round(float64(max(0, min(100, score))) / 10))
	return "[" + strings.Repeat("#", n) + strings.Repeat(".", 10-n) + "]"
}

// wrap folds s into lines of at most width runes after indent.
func wrap(s string, width int, indent string) string {
	var lines []string
	line := indent
	for _, w := range strings.Fields(s) {
		if len([]rune(line))+len([]rune(w))+1 > width+len(indent) && strings.TrimSpace(line) != "" {
			lines = append(lines, line)
			line = indent
		}
		if strings.TrimSpace(line) != "" {
			line += " "
		}
		line += w
	}
	if strings.TrimSpace(line) != "" {
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}
