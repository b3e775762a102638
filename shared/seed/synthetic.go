package seed

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/citations"
	"github.com/brandlens/brandlens/shared/platforms"
)

// SyntheticCitations writes n plausible citations for the tenant's brand,
// competitors and queries, spread over the 30 days before now. They are
// deterministic for a given seed and tagged "synthetic", for demos and load
// tests (real citations come from query runs).
func SyntheticCitations(ctx context.Context, svc *app.Repos, tenantID int32, n int, seed uint64) (int, error) {
	brands, err := svc.Tenants.Brands(ctx, tenantID)
	if err != nil {
		return 0, err
	}
	if len(brands) == 0 {
		return 0, errors.New("seed: the tenant has no brand")
	}
	brand := brands[0]
	qs, err := svc.Queries.List(ctx, tenantID)
	if err != nil {
		return 0, err
	}
	if len(qs) == 0 {
		return 0, errors.New("seed: the tenant has no query")
	}
	comps, err := svc.Competitors.List(ctx, tenantID)
	if err != nil {
		return 0, err
	}
	rng := rand.New(rand.NewPCG(seed, uint64(tenantID)))
	now := svc.Now().UTC()
	sentiments := []string{citations.SentimentPositive, citations.SentimentNeutral, citations.SentimentNegative, citations.SentimentMixed}
	sources := []string{citations.SourceAIResponse, citations.SourceOrganicSearch, citations.SourceInfoSite}
	domain := "example.com"
	if len(brand.Domains) > 0 {
		domain = brand.Domains[0]
	}
	const batch = 1000
	written := 0
	for written < n {
		m := min(batch, n-written)
		cs := make([]citations.Citation, m)
		for i := range cs {
			q := qs[rng.IntN(len(qs))]
			platform := q.Platforms[rng.IntN(len(q.Platforms))]
			sent := sentiments[rng.IntN(len(sentiments))]
			src := sources[rng.IntN(len(sources))]
			mentioned := rng.IntN(3) > 0
			date := now.Add(-time.Duration(rng.Int64N(int64(30 * 24 * time.Hour))))
			var competitor *string
			if len(comps) > 0 {
				competitor = comps[rng.IntN(len(comps))].Name
			}
			snippet := fmt.Sprintf("For %q, answers often list %s", q.Text, orName(competitor, "other tools"))
			verdict, conf := "not_mentioned", 0.9
			mentions := int32(0)
			if mentioned {
				snippet = fmt.Sprintf("%s is a strong choice for %q.", brand.Name, q.Text)
				verdict, conf = "mentioned", 0.8+rng.Float64()*0.2
				mentions = int32(1 + rng.IntN(3))
			}
			url := fmt.Sprintf("https://%s/%s", domain, strings.ReplaceAll(q.Text, " ", "-"))
			title := brand.Name + " — " + q.Text
			qid, qtext := q.ID, q.Text
			icon := platforms.Icon(platform)
			cs[i] = citations.Citation{
				BrandName: &brand.Name, Platform: &platform, PlatformIcon: &icon,
				URL: &url, Title: &title, Snippet: &snippet, Sentiment: &sent, Date: date,
				RelevanceScore: float64(rng.IntN(1000)) / 1000,
				EngagementMetrics: citations.EngagementMetrics{
					Position: mentions, ShareOfVoice: float64(mentions) / 4, CitationCount: int32(rng.IntN(8)),
				},
				AICitationMetrics: citations.AICitationMetrics{
					OriginalQuery: &qtext, PrimaryCompetitor: competitor,
					ResponseLength: int32(400 + rng.IntN(1600)), MentionCount: mentions,
					CompetitorMentioned: competitor != nil, CitedEntities: []string{brand.Name},
					CompetitivePositionScore: float64(rng.IntN(100)),
				},
				Tags:                []string{"synthetic"},
				SearchQueryID:       &qid,
				SearchQueryText:     &qtext,
				AIOverviewDetected:  platform == platforms.GoogleAIOverview,
				CitationSourceType:  &src,
				DetectionVerdict:    &verdict,
				DetectionConfidence: &conf,
				DetectionEvidence:   &snippet,
				CreatedAt:           date,
				UpdatedAt:           date,
			}
		}
		if err := svc.Citations.Insert(ctx, tenantID, cs); err != nil {
			return written, err
		}
		written += m
	}
	return written, nil
}

func orName(s *string, def string) string {
	if s == nil {
		return def
	}
	return *s
}
