// Package citations holds the recorded brand mentions and citations found
// in AI answers and search results, and the filtered, paged reads of them.
package citations

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/brandlens/brandlens/shared/ids"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
)

// Source types (CitationDto.citationSourceType).
const (
	SourceAIResponse    = "ai_response"
	SourceOrganicSearch = "organic_search"
	SourceInfoSite      = "info_site"
)

// infoSites are reference, review and encyclopedia hosts: a citation of
// them is an info_site source rather than an ordinary page.
var infoSites = []string{
	"wikipedia.org", "wikidata.org", "britannica.com", "g2.com", "capterra.com", "trustpilot.com",
	"getapp.com", "softwareadvice.com", "trustradius.com", "producthunt.com", "reddit.com", "quora.com",
	"stackoverflow.com", "stackexchange.com", "medium.com", "forbes.com", "techcrunch.com", "theverge.com",
	"pcmag.com", "zapier.com", "gartner.com", "crunchbase.com", "youtube.com",
}

// IsInfoSite reports whether rawURL is on a reference, review or
// encyclopedia host (or a subdomain of one).
func IsInfoSite(rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil {
		return false
	}
	host := strings.ToLower(strings.TrimPrefix(u.Hostname(), "www."))
	for _, s := range infoSites {
		if host == s || strings.HasSuffix(host, "."+s) {
			return true
		}
	}
	return false
}

// Sentiments.
const (
	SentimentPositive = "positive"
	SentimentNeutral  = "neutral"
	SentimentNegative = "negative"
	SentimentMixed    = "mixed"
)

// Citation is the CitationDto of the spec and, byte for byte, the stored
// citation document: lists serve the stored bytes as they are. Its JSON
// member names are therefore pinned by a test (citations_test.go); a
// renamed member changes stored data and the API at once.
type Citation struct {
	ID                  int32             `json:"id"`
	TenantID            int32             `json:"tenantId"`
	BrandName           *string           `json:"brandName"`
	Platform            *string           `json:"platform"`
	PlatformIcon        *string           `json:"platformIcon"`
	URL                 *string           `json:"url"`
	Title               *string           `json:"title"`
	Snippet             *string           `json:"snippet"`
	Sentiment           *string           `json:"sentiment"`
	Date                time.Time         `json:"date"`
	RelevanceScore      float64           `json:"relevanceScore"`
	EngagementMetrics   EngagementMetrics `json:"engagementMetrics"`
	AICitationMetrics   AICitationMetrics `json:"aiCitationMetrics"`
	Tags                []string          `json:"tags"`
	CreatedAt           time.Time         `json:"createdAt"`
	UpdatedAt           time.Time         `json:"updatedAt"`
	SearchQueryID       *int32            `json:"searchQueryId"`
	SearchQueryText     *string           `json:"searchQueryText"`
	AIOverviewDetected  bool              `json:"aiOverviewDetected"`
	AIOverviewState     *string           `json:"aiOverviewState"`
	InlineCitationCount int32             `json:"inlineCitationCount"`
	CitationSourceType  *string           `json:"citationSourceType"`
	VisibilityResultID  *int32            `json:"visibilityResultId"`
	DetectionVerdict    *string           `json:"detectionVerdict"`
	DetectionConfidence *float64          `json:"detectionConfidence"`
	DetectionEvidence   *string           `json:"detectionEvidence"`
}

// EngagementMetrics is the EngagementMetricsDto (its members are this
// service's choice; the spec leaves them open).
type EngagementMetrics struct {
	// Position is the brand's rank among the brands the answer names (1 is
	// first); 0 when the brand is not named.
	Position int32 `json:"position"`
	// ShareOfVoice is the brand's share of all tracked-brand mentions in the
	// answer, 0..1.
	ShareOfVoice float64 `json:"shareOfVoice"`
	// CitationCount is the number of sources the answer cites.
	CitationCount int32 `json:"citationCount"`
}

// AICitationMetrics is the AICitationMetricsDto of the spec.
type AICitationMetrics struct {
	ConversationContext      *string            `json:"conversationContext"`
	OriginalQuery            *string            `json:"originalQuery"`
	AIModel                  *string            `json:"aiModel"`
	PrimaryCompetitor        *string            `json:"primaryCompetitor"`
	ResponseLength           int32              `json:"responseLength"`
	MentionCount             int32              `json:"mentionCount"`
	CompetitorMentioned      bool               `json:"competitorMentioned"`
	CitationAccuracy         *float64           `json:"citationAccuracy"`
	ContextRelevance         *float64           `json:"contextRelevance"`
	ResponseHelpfulness      *float64           `json:"responseHelpfulness"`
	CitedEntities            []string           `json:"citedEntities"`
	EntityRelevanceScores    map[string]float64 `json:"entityRelevanceScores"`
	CompetitivePositionScore float64            `json:"competitivePositionScore"`
	EntityMentions           []EntityMention    `json:"entityMentions"`
	CompetitorPositions      map[string]int32   `json:"competitorPositions"`
}

// EntityMention is the EntityMentionDto (members are this service's
// choice): one mention of a tracked or detected entity in an answer.
type EntityMention struct {
	Name string `json:"name"`
	// Kind is "brand", "competitor" or "detected".
	Kind      string `json:"kind"`
	Start     int32  `json:"start"` // character offset (Unicode code points)
	End       int32  `json:"end"`
	Rank      int32  `json:"rank"`
	Sentiment string `json:"sentiment"`
}

// ErrNotFound: no such citation in the tenant.
var ErrNotFound = errors.New("citations: not found")

func key(tenantID, id int32) store.Key {
	return store.Key{PK: tenants.PK(tenantID), SK: "CITATION#" + ids.Pad(id)}
}

func byDatePK(tenantID int32) string { return tenants.PK(tenantID) + "#CITATIONS" }

// byFacetPK is the GSI2 partition of the tenant's citations of one platform
// ("": none) with (mention) or without a brand mention; its sort key is the
// GSI1 one, so both indexes order and page alike.
func byFacetPK(tenantID int32, platform string, mention bool) string {
	if platform == "" {
		platform = "-"
	}
	m := "0"
	if mention {
		m = "1"
	}
	return byDatePK(tenantID) + "#" + platform + "#" + m
}

// indexAttrs are the index keys of c: GSI1 by date, GSI2 by platform and
// mention, then date.
func indexAttrs(c Citation) store.Item {
	sk := dateKey(c.Date) + "#" + ids.Pad(c.ID)
	var platform string
	if c.Platform != nil {
		platform = *c.Platform
	}
	return store.Item{
		store.AttrGSI1PK: byDatePK(c.TenantID), store.AttrGSI1SK: sk,
		store.AttrGSI2PK: byFacetPK(c.TenantID, platform, c.AICitationMetrics.MentionCount > 0), store.AttrGSI2SK: sk,
	}
}

// dateKey renders t fixed-width so that index sort keys order by time.
func dateKey(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000Z") }

// Item attributes the list filters use.
const (
	attrPlatform   = "platform"
	attrSentiment  = "sentiment"
	attrSourceType = "sourceType"
	attrHasMention = "hasMention"
	attrVerdict    = "verdict"
	attrQueryText  = "queryText" // lower-cased, for case-insensitive search
)

// Repo reads and writes citations.
type Repo struct {
	tbl  store.Table
	docs store.Collection[Citation]
	now  func() time.Time
	// indexed caches the migration marker (see Indexed): true once seen.
	indexed    atomic.Bool
	indexedMu  sync.Mutex
	indexedChk time.Time // when the marker was last found missing
}

// NewRepo returns the repository.
func NewRepo(tbl store.Table, now func() time.Time) *Repo {
	if now == nil {
		now = time.Now
	}
	return &Repo{tbl: tbl, docs: collection(tbl), now: now}
}

// collection is the citations' documents in tbl (nil: for building items).
func collection(tbl store.Table) store.Collection[Citation] {
	return store.Collection[Citation]{
		Table: tbl, Name: "citations", NotFound: ErrNotFound,
		Key: func(c Citation) store.Key { return key(c.TenantID, c.ID) },
		Attrs: func(c Citation) store.Item {
			it := indexAttrs(c)
			it[attrHasMention] = c.AICitationMetrics.MentionCount > 0
			set := func(name string, v *string) {
				if v != nil {
					it[name] = *v
				}
			}
			set(attrPlatform, c.Platform)
			set(attrSentiment, c.Sentiment)
			set(attrSourceType, c.CitationSourceType)
			set(attrVerdict, c.DetectionVerdict)
			if c.SearchQueryText != nil {
				it[attrQueryText] = strings.ToLower(*c.SearchQueryText)
			}
			return it
		},
	}
}

// Insert stores citations of one tenant, giving them the tenant's next ids
// (written back into cs). Large batches are written in transactions of at
// most store.MaxTxOps items.
func (r *Repo) Insert(ctx context.Context, tenantID int32, cs []Citation) error {
	if len(cs) == 0 {
		return nil
	}
	first, err := ids.Next(ctx, r.tbl, tenants.PK(tenantID), "citation", len(cs))
	if err != nil {
		return err
	}
	now := r.now().UTC()
	ops := make([]store.Op, 0, store.MaxTxOps)
	flush := func() error {
		if len(ops) == 0 {
			return nil
		}
		if err := r.tbl.TransactWrite(ctx, ops...); err != nil {
			return fmt.Errorf("citations: insert: %w", err)
		}
		ops = ops[:0]
		return nil
	}
	for i := range cs {
		c := &cs[i]
		c.ID = first + int32(i)
		c.TenantID = tenantID
		if c.CreatedAt.IsZero() {
			c.CreatedAt = now
		}
		if c.UpdatedAt.IsZero() {
			c.UpdatedAt = c.CreatedAt
		}
		if c.Date.IsZero() {
			c.Date = c.CreatedAt
		}
		op, err := r.docs.PutOp(*c, store.NotExists())
		if err != nil {
			return err
		}
		ops = append(ops, op)
		if len(ops) == store.MaxTxOps {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

// Get returns one citation of the tenant.
func (r *Repo) Get(ctx context.Context, tenantID, id int32) (Citation, error) {
	return r.docs.Get(ctx, key(tenantID, id))
}

// PutOp is the transaction op that stores one citation whose id is set.
func PutOp(c Citation) (store.Op, error) {
	return collection(nil).PutOp(c, store.NotExists())
}

// ReplaceOp is the transaction op that rewrites a stored citation (its
// detection members after a re-scoring), with the filter attributes.
func ReplaceOp(c Citation) (store.Op, error) {
	return collection(nil).PutOp(c, store.Exists())
}
