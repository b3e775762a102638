package gaps

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/brandlens/brandlens/shared/competitors"
	"github.com/brandlens/brandlens/shared/detect"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
)

// Answer is what gap detection reads from one recorded answer. Detection
// is run again over the stored text with the brand profile and the tracked
// competitors as they are now, so a dismissed competitor never counts and
// ranks are among the tracked brands only.
type Answer struct {
	ResultID   int32
	JobID      string
	Platform   string
	ExecutedAt time.Time
	Mentioned  bool
	Count      int // counted brand mentions
	Rank       int // the brand's rank among the tracked brands named; 0 when absent
	// FirstAt is where the brand's first mention starts, as a fraction of
	// the answer's length; -1 when absent.
	FirstAt float64
	Score   int // visibility score 0–100
	// NamesBrands: the answer names the brand or a tracked competitor.
	NamesBrands bool
	// Leader is the competitor named first when it is named before the
	// brand (or the brand is absent); "" otherwise.
	Leader string
	// Ahead are the competitors named before the brand (all named
	// competitors when the brand is absent).
	Ahead []string
	// Snippet is the sentence that shows the gap: the brand's first mention,
	// else the leader's, else the answer's opening.
	Snippet string
	Pages   []runs.CitedPage
}

// maxSnippet caps the snippet kept per answer, in bytes.
const maxSnippet = 300

// ReadWindow reads a query's window of recorded answers: those of the last
// r.Window, from at most its latest r.WindowRuns runs (jobs), newest first.
// Jobs are told apart in the order their newest answer comes, so a run
// recording while an older one still does may lose its oldest answers to
// the cut; answers of one run are recorded within minutes.
func (r Rules) ReadWindow(ctx context.Context, tbl store.Table, tenantID, queryID int32, now time.Time) ([]runs.VisibilityResult, error) {
	q := runs.ResultsSince(tenantID, queryID, now.Add(-r.Window))
	q.Limit = 100
	var out []runs.VisibilityResult
	seen := map[string]bool{}
	for {
		page, err := tbl.Query(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("gaps: read answers of query %d: %w", queryID, err)
		}
		for _, it := range page.Items {
			vr, err := store.Doc[runs.VisibilityResult](it)
			if err != nil {
				return nil, err
			}
			if !seen[vr.JobID] {
				if len(seen) == r.WindowRuns {
					// Results are newest first: every job from here on is
					// older than the latest WindowRuns.
					return out, nil
				}
				seen[vr.JobID] = true
			}
			out = append(out, vr)
		}
		if page.Cursor == "" {
			return out, nil
		}
		q.Cursor = page.Cursor
	}
}

// Analyzer turns recorded answers into Answers for one brand profile.
type Analyzer struct {
	det     *detect.Detector
	brand   tenants.Brand
	tracked []competitors.Competitor
}

// NewAnalyzer prepares detection for the brand and the tenant's tracked
// competitors (active and not dismissed ones only).
func NewAnalyzer(brand tenants.Brand, comps []competitors.Competitor) *Analyzer {
	var tracked []competitors.Competitor
	var ents []detect.Entity
	for _, c := range comps {
		if c.IsActive && c.Name != nil {
			tracked = append(tracked, c)
			ents = append(ents, detect.Entity{Name: *c.Name, Aliases: c.Aliases, Domains: c.Domains})
		}
	}
	det := detect.New(detect.Entity{Name: brand.Name, Aliases: brand.Aliases, Domains: brand.Domains}, ents)
	return &Analyzer{det: det, brand: brand, tracked: tracked}
}

// Analyze re-detects one recorded answer.
func (a *Analyzer) Analyze(vr runs.VisibilityResult) Answer {
	cites := make([]detect.Citation, 0, len(vr.CitedPages))
	for _, p := range vr.CitedPages {
		cites = append(cites, detect.Citation{URL: p.URL, Title: p.Title})
	}
	res := a.det.Detect(vr.AnswerText, cites)
	ans := Answer{ResultID: vr.ID, JobID: vr.JobID, Platform: vr.Platform, ExecutedAt: vr.ExecutedAt,
		Mentioned: res.Brand.Mentioned, Count: res.Brand.Count, Rank: res.Brand.Rank, FirstAt: -1,
		Score: res.VisibilityScore, NamesBrands: res.Brand.Mentioned, Pages: vr.CitedPages}
	if n := utf8.RuneCountInString(vr.AnswerText); res.Brand.Mentioned && n > 0 && res.Brand.FirstPosition >= 0 {
		ans.FirstAt = float64(res.Brand.FirstPosition) / float64(n)
	}
	leadRank := 0
	for _, c := range res.Competitors {
		if !c.Mentioned {
			continue
		}
		ans.NamesBrands = true
		if res.Brand.Mentioned && c.Rank > res.Brand.Rank {
			continue
		}
		ans.Ahead = append(ans.Ahead, c.Name)
		if leadRank == 0 || c.Rank < leadRank {
			leadRank, ans.Leader = c.Rank, c.Name
			if !res.Brand.Mentioned {
				ans.Snippet = c.Evidence
			}
		}
	}
	if res.Brand.Mentioned {
		ans.Snippet = res.Brand.Evidence
	}
	if ans.Snippet == "" {
		ans.Snippet = vr.AnswerText
	}
	ans.Snippet = clip(strings.TrimSpace(ans.Snippet), maxSnippet)
	return ans
}

// clip cuts s to at most n bytes at a word boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if sp := strings.LastIndexByte(s[:cut], ' '); sp > n/2 {
		cut = sp
	}
	return strings.TrimRight(s[:cut], " ,;:") + "…"
}

// Measure computes the metrics of answers.
func (r Rules) Measure(answers []Answer) Metrics {
	m := Metrics{Answers: len(answers)}
	var rankSum, scoreSum float64
	var late, single, passing int
	leads := map[string]int{}
	for _, a := range answers {
		scoreSum += float64(a.Score)
		if a.NamesBrands {
			m.AnswersNamingBrands++
			if len(a.Ahead) > 0 {
				m.OutrankedShare++
			}
			if a.Leader != "" {
				leads[a.Leader]++
			}
		}
		if !a.Mentioned {
			continue
		}
		m.Mentions++
		rankSum += float64(a.Rank)
		isLate, isSingle := a.FirstAt > r.LatePosition, a.Count == 1
		if isLate {
			late++
		}
		if isSingle {
			single++
		}
		if isLate || isSingle {
			passing++
		}
	}
	if m.Answers > 0 {
		lo, hi := detect.WilsonInterval(m.Mentions, m.Answers)
		m.MentionRate = jobs.Rate{Value: float64(m.Mentions) / float64(m.Answers), Low: lo, High: hi}
		m.MeanVisibilityScore = scoreSum / float64(m.Answers)
	}
	if m.Mentions > 0 {
		mean := rankSum / float64(m.Mentions)
		m.MeanRank = &mean
		m.LateShare = float64(late) / float64(m.Mentions)
		m.SingleShare = float64(single) / float64(m.Mentions)
		m.PassingShare = float64(passing) / float64(m.Mentions)
	}
	if m.AnswersNamingBrands > 0 {
		m.OutrankedShare /= float64(m.AnswersNamingBrands)
	}
	if len(leads) > 0 {
		names := make([]string, 0, len(leads))
		for n := range leads {
			names = append(names, n)
		}
		// Most answers led first; ties by name, so the result is stable.
		sort.Slice(names, func(i, j int) bool {
			if leads[names[i]] != leads[names[j]] {
				return leads[names[i]] > leads[names[j]]
			}
			return names[i] < names[j]
		})
		top := names[0]
		m.TopCompetitor = &Lead{Name: top, Answers: leads[top], Share: float64(leads[top]) / float64(m.AnswersNamingBrands)}
	}
	return m
}

// byPlatform groups answers per platform, platforms sorted.
func byPlatform(answers []Answer) (map[string][]Answer, []string) {
	out := map[string][]Answer{}
	var names []string
	for _, a := range answers {
		if _, ok := out[a.Platform]; !ok {
			names = append(names, a.Platform)
		}
		out[a.Platform] = append(out[a.Platform], a)
	}
	slices.Sort(names)
	return out, names
}

// host is the lowercase host of a URL without "www.".
func host(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
}

// onDomain reports whether h is d or a subdomain of it.
func onDomain(h, d string) bool {
	d = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(d)), "www.")
	return d != "" && (h == d || strings.HasSuffix(h, "."+d))
}
