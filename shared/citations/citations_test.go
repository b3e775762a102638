package citations_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/citations"
)

// citationMembers is every JSON member of Citation, nested ones by path.
// The stored citation document and the wire CitationDto are one type (the
// list route serves stored bytes as they are), so a renamed member would
// silently change stored data and the API at once: change this list only
// together with a migration of stored citations and the spec.
var citationMembers = []string{
	"id", "tenantId", "brandName", "platform", "platformIcon", "url", "title", "snippet", "sentiment", "date",
	"relevanceScore",
	"engagementMetrics", "engagementMetrics.position", "engagementMetrics.shareOfVoice", "engagementMetrics.citationCount",
	"aiCitationMetrics", "aiCitationMetrics.conversationContext", "aiCitationMetrics.originalQuery",
	"aiCitationMetrics.aiModel", "aiCitationMetrics.primaryCompetitor", "aiCitationMetrics.responseLength",
	"aiCitationMetrics.mentionCount", "aiCitationMetrics.competitorMentioned", "aiCitationMetrics.citationAccuracy",
	"aiCitationMetrics.contextRelevance", "aiCitationMetrics.responseHelpfulness", "aiCitationMetrics.citedEntities",
	"aiCitationMetrics.entityRelevanceScores", "aiCitationMetrics.competitivePositionScore",
	"aiCitationMetrics.entityMentions", "aiCitationMetrics.entityMentions[].name", "aiCitationMetrics.entityMentions[].kind",
	"aiCitationMetrics.entityMentions[].start", "aiCitationMetrics.entityMentions[].end",
	"aiCitationMetrics.entityMentions[].rank", "aiCitationMetrics.entityMentions[].sentiment",
	"aiCitationMetrics.competitorPositions",
	"tags", "createdAt", "updatedAt", "searchQueryId", "searchQueryText", "aiOverviewDetected", "aiOverviewState",
	"inlineCitationCount", "citationSourceType", "visibilityResultId", "detectionVerdict", "detectionConfidence",
	"detectionEvidence",
}

// members lists the JSON member names of struct type t depth-first, in field
// order, descending into structs and slices of structs (except time.Time).
func members(t reflect.Type, prefix string) []string {
	var out []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			name = f.Name // encoding/json's default: a drift the list must show
		}
		path := prefix + name
		out = append(out, path)
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		switch {
		case ft == reflect.TypeFor[time.Time]():
		case ft.Kind() == reflect.Struct:
			out = append(out, members(ft, path+".")...)
		case ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct:
			out = append(out, members(ft.Elem(), path+"[].")...)
		}
	}
	return out
}

func TestCitationMembersArePinned(t *testing.T) {
	got := members(reflect.TypeFor[citations.Citation](), "")
	if strings.Join(got, "\n") != strings.Join(citationMembers, "\n") {
		t.Fatalf("the JSON members of citations.Citation changed:\n got %q\nwant %q", got, citationMembers)
	}
}
