package runs

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/brandlens/brandlens/shared/citations"
	"github.com/brandlens/brandlens/shared/detect"
	"github.com/brandlens/brandlens/shared/ids"
	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
)

// VisibilityResult is one answer of one platform to one sample of a run,
// with what detection found in it (CitationEvidenceAnswerDto draws on it).
type VisibilityResult struct {
	ID              int32     `json:"id"`
	TenantID        int32     `json:"tenantId"`
	JobID           string    `json:"jobId"`
	QueryID         int32     `json:"queryId"`
	QueryTextUsed   string    `json:"queryTextUsed"`
	Platform        string    `json:"platform"`
	Sample          int       `json:"sample"`
	AnswerText      string    `json:"answerText"`
	ExecutedAt      time.Time `json:"executedAt"`
	VisibilityScore int       `json:"visibilityScore"`
	Verdict         string    `json:"verdict"`
	Confidence      float64   `json:"confidence"`
	Evidence        string    `json:"evidence"`
	Mentioned       bool      `json:"mentioned"`
	MentionCount    int       `json:"mentionCount"`
	Sentiment       string    `json:"sentiment"`
	// DetectorVersion is the detect.Version that produced the verdict,
	// sentiment and score, so results can be told apart after the rules
	// change.
	DetectorVersion string `json:"detectorVersion,omitempty"`
	// CompetitorMentions counts mentions per tracked competitor name.
	CompetitorMentions map[string]int `json:"competitorMentions"`
	Discovered         []string       `json:"discovered"`
	Model              string         `json:"model"`
	LatencyMS          int64          `json:"latencyMs"`
	CostUSD            float64        `json:"costUsd"`
	// CostUnknown: CostUSD is 0 because the model could not be priced.
	CostUnknown bool `json:"costUnknown"`
	// Truncated: the platform cut the answer at its output limit.
	Truncated       bool    `json:"truncated"`
	AIOverviewState string  `json:"aiOverviewState"`
	CitationIDs     []int32 `json:"citationIds"`
	// CitedPages are the sources the answer cites, kept with the answer so
	// that gap detection and briefs read them without the citation records.
	CitedPages []CitedPage `json:"citedPages"`
}

// CitedPage is a source an answer cites.
type CitedPage struct {
	URL   string `json:"url"`
	Title string `json:"title"`
}

func visibilityKey(tenantID, id int32) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: "VISRESULT#" + ids.Pad(id)}
}

// visibilityItem is the stored item of vr, whose document is doc.
func visibilityItem(vr VisibilityResult, doc string) store.Item {
	k := visibilityKey(vr.TenantID, vr.ID)
	return store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, store.AttrDoc: doc,
		store.AttrGSI1PK: byQueryPK(vr.TenantID, vr.QueryID), store.AttrGSI1SK: byQuerySK(vr.ExecutedAt, vr.ID)}
}

// byQueryPK is the GSI1 partition of a query's visibility results; their
// GSI1SK is executedAt (fixed width) and the result id, so a time range
// reads in order.
func byQueryPK(tenantID, queryID int32) string {
	return tenants.PK(tenantID) + "#QUERY#" + ids.Pad(queryID) + "#RESULTS"
}

func byQuerySK(executedAt time.Time, id int32) string {
	return executedAt.UTC().Format("2006-01-02T15:04:05.000000Z") + "#" + ids.Pad(id)
}

// ResultsSince is the query of a query's visibility results executed at
// or after since, newest first (GSI1).
func ResultsSince(tenantID, queryID int32, since time.Time) store.Query {
	return store.Query{Index: store.IndexGSI1, PK: byQueryPK(tenantID, queryID),
		SK: store.SKBetween(byQuerySK(since, 0), "~"), Desc: true}
}

// resultKey marks that one (platform, sample) of a job has been recorded;
// it is written in the same transaction as the records, so a step delivered
// twice records once.
func resultKey(tenantID int32, jobID, platform string, sample int) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: fmt.Sprintf("RESULT#%s#%s#%d", jobID, platform, sample)}
}

func resultPrefix(jobID string) string { return "RESULT#" + jobID + "#" }

// maxCitationsPerAnswer keeps one answer's records within one transaction
// (DynamoDB allows 100 actions).
const maxCitationsPerAnswer = 80

// sourceType classifies a cited URL: info_site for reference and review
// hosts, else the channel it came from (ai_response or organic_search).
func sourceType(rawURL, channel string) string {
	if citations.IsInfoSite(rawURL) {
		return citations.SourceInfoSite
	}
	return channel
}

// answerCitations builds the citation records of one answer: one record
// for the brand's mention (when the answer names the brand) and one per
// cited source and organic result. ids are assigned by the caller.
func answerCitations(brand string, brandDomains []string, q queryInfo, ans providers.Answer, res detect.Result, vr VisibilityResult) []citations.Citation {
	// Every record is a shallow copy of one base: they share its read-only
	// members (entity mentions, positions), which a long answer with many
	// sources would otherwise build again per record.
	base := citationBase(brand, q, ans, res, vr)
	evidence := res.Evidence
	var runes []rune // the answer's text, converted once for the cited spans
	var out []citations.Citation
	if res.Brand.Mentioned {
		c := base
		st := citations.SourceAIResponse
		c.CitationSourceType = &st
		c.Snippet = nonEmpty(evidence)
		c.Tags = []string{"mention"}
		out = append(out, c)
	}
	for _, ci := range ans.Citations {
		c := base
		u, title := ci.URL, ci.Title
		st := sourceType(u, citations.SourceAIResponse)
		c.URL, c.Title, c.CitationSourceType = &u, nonEmpty(title), &st
		if ci.Start >= 0 && ci.End > ci.Start && runes == nil {
			runes = []rune(ans.Text)
		}
		c.Snippet = nonEmpty(citedSpan(runes, ci))
		c.Tags = []string{"cited"}
		// Gemini cites Google redirect URLs whose title is the source's domain.
		if ownDomain(u, brandDomains) || (!strings.ContainsAny(title, " /") && ownDomain("https://"+title, brandDomains)) {
			c.Tags = append(c.Tags, "own_domain")
		}
		out = append(out, c)
	}
	for _, o := range ans.OrganicResults {
		c := base
		u, title := o.URL, o.Title
		st := sourceType(u, citations.SourceOrganicSearch)
		c.URL, c.Title, c.CitationSourceType = &u, nonEmpty(title), &st
		c.Snippet = nonEmpty(o.Snippet)
		c.Tags = []string{"organic"}
		out = append(out, c)
	}
	if len(out) > maxCitationsPerAnswer {
		out = out[:maxCitationsPerAnswer]
	}
	return out
}

// citationBase is what every citation of one answer shares: the members
// that come from the answer and from detection (a re-scoring rewrites
// them).
func citationBase(brand string, q queryInfo, ans providers.Answer, res detect.Result, vr VisibilityResult) citations.Citation {
	now := vr.ExecutedAt
	pl := ans.Platform
	icon := platforms.Icon(pl)
	qid, qtext := q.ID, q.Text
	vrID := vr.ID
	verdict, conf, evidence := string(res.Verdict), res.Confidence, res.Evidence
	sent := string(res.Sentiment)
	model := ans.Model
	var primary *string
	positions := map[string]int32{}
	var competitorMentioned bool
	bestRank := int32(0)
	for _, c := range res.Competitors {
		if !c.Mentioned {
			continue
		}
		competitorMentioned = true
		positions[c.Name] = int32(c.Rank)
		if bestRank == 0 || int32(c.Rank) < bestRank {
			bestRank = int32(c.Rank)
			name := c.Name
			primary = &name
		}
	}
	var mentions []citations.EntityMention
	add := func(er detect.EntityResult, kind string) {
		for _, m := range er.Mentions {
			mentions = append(mentions, citations.EntityMention{Name: er.Name, Kind: kind, Start: int32(m.Start), End: int32(m.End), Rank: int32(er.Rank), Sentiment: string(m.Sentiment)})
		}
	}
	add(res.Brand, "brand")
	for _, c := range res.Competitors {
		add(c, "competitor")
	}
	scores := map[string]float64{brand: float64(res.VisibilityScore) / 100}
	metrics := citations.AICitationMetrics{
		ConversationContext: nil, OriginalQuery: &qtext, AIModel: nonEmpty(model), PrimaryCompetitor: primary,
		ResponseLength: int32(utf8.RuneCountInString(ans.Text)), MentionCount: int32(res.Brand.Count),
		CompetitorMentioned: competitorMentioned, CitedEntities: entityNames(res),
		EntityRelevanceScores: scores, CompetitivePositionScore: competitivePosition(res),
		EntityMentions: mentions, CompetitorPositions: positions,
	}
	engagement := citations.EngagementMetrics{Position: int32(res.Brand.Rank), ShareOfVoice: res.ShareOfVoice, CitationCount: int32(len(ans.Citations))}
	overview := ans.AIOverviewState != ""
	var overviewState *string
	if overview {
		s := ans.AIOverviewState
		overviewState = &s
	}
	return citations.Citation{
		BrandName: &brand, Platform: &pl, PlatformIcon: &icon, Sentiment: &sent, Date: now,
		RelevanceScore: float64(res.VisibilityScore) / 100, EngagementMetrics: engagement, AICitationMetrics: metrics,
		Tags: []string{}, SearchQueryID: &qid, SearchQueryText: &qtext,
		AIOverviewDetected: ans.AIOverviewState == providers.OverviewPresent || ans.AIOverviewState == providers.OverviewDeferred,
		AIOverviewState:    overviewState, InlineCitationCount: int32(len(ans.Citations)),
		VisibilityResultID: &vrID, DetectionVerdict: &verdict, DetectionConfidence: &conf, DetectionEvidence: nonEmpty(evidence),
		CreatedAt: now, UpdatedAt: now,
	}
}

// citedSpan is the part of the answer (as code points) a citation
// supports, when known.
func citedSpan(r []rune, c providers.Citation) string {
	if c.Start < 0 || c.End <= c.Start || c.End > len(r) {
		return c.Snippet
	}
	return string(r[c.Start:c.End])
}

func ownDomain(rawURL string, domains []string) bool {
	u, err := url.Parse(rawURL)
	if err != nil {
		return false
	}
	host := strings.ToLower(u.Hostname())
	for _, d := range domains {
		d = strings.ToLower(d)
		if host == d || strings.HasSuffix(host, "."+d) {
			return true
		}
	}
	return false
}

func entityNames(res detect.Result) []string {
	var out []string
	if res.Brand.Mentioned {
		out = append(out, res.Brand.Name)
	}
	for _, c := range res.Competitors {
		if c.Mentioned {
			out = append(out, c.Name)
		}
	}
	return out
}

// competitivePosition is 0..100: 100 when the brand is named first among
// the brands the answer names, falling with each brand ahead of it; 0 when
// it is not named.
func competitivePosition(res detect.Result) float64 {
	if !res.Brand.Mentioned || res.Brand.Rank < 1 {
		return 0
	}
	named := 1
	for _, c := range res.Competitors {
		if c.Mentioned {
			named++
		}
	}
	return 100 * float64(named-res.Brand.Rank+1) / float64(named)
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

var errNoBrand = errors.New("runs: the query's brand profile is missing")
