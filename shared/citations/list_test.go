package citations_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/citations"
	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamo"
	"github.com/brandlens/brandlens/shared/store/dynamotest"
	"github.com/brandlens/brandlens/shared/store/embedded"
)

func TestMain(m *testing.M) { dynamotest.Main(m) }

// listBackends runs f on the embedded store and on DynamoDB Local.
func listBackends(t *testing.T, f func(t *testing.T, tbl store.Table)) {
	t.Run("embedded", func(t *testing.T) { f(t, embedded.NewMemory()) })
	t.Run("dynamodb", func(t *testing.T) {
		c := dynamotest.Start(t)
		f(t, dynamo.New(c, dynamotest.NewTable(t, c)))
	})
}

func ptr[T any](v T) *T { return &v }

var listBase = time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC)

// listFixture stores n citations of tenant 1 (every filter value occurs,
// pairs share a date so that ids break ties) and 5 of tenant 2, and returns
// tenant 1's as stored.
func listFixture(t *testing.T, repo *citations.Repo, n int) []citations.Citation {
	t.Helper()
	queries := []*string{ptr("Best Note Taking App"), ptr("notes for teams"), nil}
	cs := make([]citations.Citation, n)
	for i := range cs {
		c := citations.Citation{
			Date:               listBase.Add(time.Duration(i/2) * time.Hour),
			Platform:           ptr(platforms.All[i%len(platforms.All)]),
			Sentiment:          ptr(citations.Sentiments[i%len(citations.Sentiments)]),
			CitationSourceType: ptr(citations.SourceTypes[i%len(citations.SourceTypes)]),
			SearchQueryText:    queries[i%len(queries)],
			Snippet:            ptr(fmt.Sprintf("snippet %d <b>&</b>", i)),
			Tags:               []string{"t"},
		}
		c.AICitationMetrics.MentionCount = int32(i % 2)
		cs[i] = c
	}
	ctx := context.Background()
	if err := repo.Insert(ctx, 1, cs); err != nil {
		t.Fatal(err)
	}
	other := make([]citations.Citation, 5)
	for i := range other {
		other[i] = citations.Citation{Date: listBase.Add(time.Duration(i) * time.Hour), Platform: ptr("chatgpt")}
	}
	if err := repo.Insert(ctx, 2, other); err != nil {
		t.Fatal(err)
	}
	return cs
}

// readAll pages through the list of tenant with f, by page number or by
// cursor, and returns the ids in order.
func readAll(t *testing.T, repo *citations.Repo, tenant int32, f citations.Filter, size int, byCursor bool) []int32 {
	t.Helper()
	var ids []int32
	pr := citations.PageRequest{Size: size}
	for i := 0; ; i++ {
		res, err := repo.List(context.Background(), tenant, f, pr)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Items) > size || (res.HasMore && len(res.Items) != size) {
			t.Fatalf("page %d: %d items of %d, more %v", i, len(res.Items), size, res.HasMore)
		}
		if res.HasMore != (res.Next != "") {
			t.Fatalf("page %d: hasMore %v but next %q", i, res.HasMore, res.Next)
		}
		for _, raw := range res.Items {
			var c citations.Citation
			if err := json.Unmarshal([]byte(raw), &c); err != nil {
				t.Fatalf("stored document is not a citation: %v", err)
			}
			if c.TenantID != tenant {
				t.Fatalf("tenant %d listed a citation of tenant %d", tenant, c.TenantID)
			}
			ids = append(ids, c.ID)
		}
		if !res.HasMore {
			return ids
		}
		if byCursor {
			pr.After = res.Next
		} else {
			pr.Offset += size
		}
		if i > 1000 {
			t.Fatal("no end of pages")
		}
	}
}

// Every filter, page size and cursor, on both backends, read both ways:
// before the GSI2 migration is marked (GSI1, filtered) and after (the GSI2
// partitions of the platform and mention asked for, merged).
func TestListPagesFiltersAndCursors(t *testing.T) {
	listBackends(t, func(t *testing.T, tbl store.Table) {
		all := listFixture(t, citations.NewRepo(tbl, nil), 90)
		for _, mode := range []string{"GSI1", "GSI2"} {
			t.Run(mode, func(t *testing.T) {
				repo := citations.NewRepo(tbl, nil)
				if mode == "GSI2" {
					if err := repo.MarkIndexed(context.Background()); err != nil {
						t.Fatal(err)
					}
				}
				if ok, err := repo.Indexed(context.Background()); err != nil || ok != (mode == "GSI2") {
					t.Fatalf("indexed %v %v", ok, err)
				}
				testListPages(t, repo, all)
			})
		}
	})
}

func testListPages(t *testing.T, repo *citations.Repo, all []citations.Citation) {
	{
		// Newest first; a shared date lists the higher id first.
		newestFirst := func(keep func(c citations.Citation) bool) []int32 {
			var sel []citations.Citation
			for _, c := range all {
				if keep(c) {
					sel = append(sel, c)
				}
			}
			sort.Slice(sel, func(i, j int) bool {
				if !sel[i].Date.Equal(sel[j].Date) {
					return sel[i].Date.After(sel[j].Date)
				}
				return sel[i].ID > sel[j].ID
			})
			ids := make([]int32, len(sel))
			for i, c := range sel {
				ids[i] = c.ID
			}
			return ids
		}
		from, to := listBase.Add(10*time.Hour), listBase.Add(30*time.Hour)
		cases := []struct {
			name string
			f    citations.Filter
			keep func(c citations.Citation) bool
		}{
			{"everything", citations.Filter{}, func(citations.Citation) bool { return true }},
			{"platform", citations.Filter{Platform: "gemini"}, func(c citations.Citation) bool { return *c.Platform == "gemini" }},
			{"sentiment", citations.Filter{Sentiment: "mixed"}, func(c citations.Citation) bool { return *c.Sentiment == "mixed" }},
			{"source type", citations.Filter{SourceType: citations.SourceInfoSite}, func(c citations.Citation) bool { return *c.CitationSourceType == citations.SourceInfoSite }},
			{"with mention", citations.Filter{HasMention: ptr(true)}, func(c citations.Citation) bool { return c.AICitationMetrics.MentionCount > 0 }},
			{"without mention", citations.Filter{HasMention: ptr(false)}, func(c citations.Citation) bool { return c.AICitationMetrics.MentionCount == 0 }},
			{"query text, any case", citations.Filter{SearchQuery: "NOTE TAKING"}, func(c citations.Citation) bool {
				return c.SearchQueryText != nil && strings.Contains(strings.ToLower(*c.SearchQueryText), "note taking")
			}},
			{"date from (inclusive)", citations.Filter{DateFrom: from}, func(c citations.Citation) bool { return !c.Date.Before(from) }},
			{"date to (inclusive)", citations.Filter{DateTo: to}, func(c citations.Citation) bool { return !c.Date.After(to) }},
			{"date range and platform", citations.Filter{DateFrom: from, DateTo: to, Platform: "chatgpt"}, func(c citations.Citation) bool {
				return !c.Date.Before(from) && !c.Date.After(to) && *c.Platform == "chatgpt"
			}},
			{"nothing matches", citations.Filter{Platform: "claude", SourceType: citations.SourceAIResponse, Sentiment: "neutral"}, func(c citations.Citation) bool {
				return *c.Platform == "claude" && *c.CitationSourceType == citations.SourceAIResponse && *c.Sentiment == "neutral"
			}},
			{"platform and mention", citations.Filter{Platform: "chatgpt", HasMention: ptr(true)}, func(c citations.Citation) bool {
				return *c.Platform == "chatgpt" && c.AICitationMetrics.MentionCount > 0
			}},
			{"platform without mention, and sentiment", citations.Filter{Platform: "perplexity", HasMention: ptr(false), Sentiment: "negative"}, func(c citations.Citation) bool {
				return *c.Platform == "perplexity" && c.AICitationMetrics.MentionCount == 0 && *c.Sentiment == "negative"
			}},
			{"mention, query text and dates", citations.Filter{HasMention: ptr(true), SearchQuery: "teams", DateFrom: from, DateTo: to}, func(c citations.Citation) bool {
				return c.AICitationMetrics.MentionCount > 0 && c.SearchQueryText != nil && strings.Contains(*c.SearchQueryText, "teams") &&
					!c.Date.Before(from) && !c.Date.After(to)
			}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				want := newestFirst(c.keep)
				if c.name != "nothing matches" && (len(want) == 0 || len(want) == len(all) && c.name != "everything") {
					t.Fatalf("the filter selects %d of %d: a useless case", len(want), len(all))
				}
				sizes := []int{7, 100}
				if c.name == "everything" {
					sizes = append(sizes, 1) // a cursor after every single item
				}
				for _, size := range sizes {
					if got := readAll(t, repo, 1, c.f, size, false); !slices.Equal(got, want) {
						t.Errorf("pages of %d: %v, want %v", size, got, want)
					}
					if got := readAll(t, repo, 1, c.f, size, true); !slices.Equal(got, want) {
						t.Errorf("cursor pages of %d: %v, want %v", size, got, want)
					}
				}
			})
		}
		t.Run("past the last page", func(t *testing.T) {
			res, err := repo.List(context.Background(), 1, citations.Filter{}, citations.PageRequest{Size: 10, Offset: 90})
			if err != nil || len(res.Items) != 0 || res.Items == nil || res.HasMore || res.Next != "" {
				t.Fatalf("%+v %v", res, err)
			}
		})
		t.Run("a cursor moves only within the caller's tenant", func(t *testing.T) {
			res, err := repo.List(context.Background(), 1, citations.Filter{}, citations.PageRequest{Size: 3})
			if err != nil || res.Next == "" {
				t.Fatal(res, err)
			}
			// Tenant 2's citations are older than tenant 1's first page:
			// tenant 2 gets its own, never tenant 1's.
			if got := readAll(t, repo, 2, citations.Filter{}, 2, true); len(got) != 5 {
				t.Fatalf("tenant 2: %v", got)
			}
			res2, err := repo.List(context.Background(), 2, citations.Filter{}, citations.PageRequest{Size: 10, After: res.Next})
			if err != nil || len(res2.Items) != 5 {
				t.Fatalf("tenant 2 with tenant 1's cursor: %d items, %v", len(res2.Items), err)
			}
			for _, raw := range res2.Items {
				if !strings.Contains(string(raw), `"tenantId":2,`) {
					t.Fatalf("tenant 2 read %s", raw)
				}
			}
		})
		t.Run("a cursor before dateFrom ends the list", func(t *testing.T) {
			var next string
			pr := citations.PageRequest{Size: 80}
			res, err := repo.List(context.Background(), 1, citations.Filter{}, pr)
			if err != nil {
				t.Fatal(err)
			}
			next = res.Next
			res, err = repo.List(context.Background(), 1, citations.Filter{DateFrom: to}, citations.PageRequest{Size: 5, After: next})
			if err != nil || len(res.Items) != 0 || res.HasMore {
				t.Fatalf("%d items, more %v, %v", len(res.Items), res.HasMore, err)
			}
		})
	}
}

func TestListRefusesBadCursors(t *testing.T) {
	repo := citations.NewRepo(embedded.NewMemory(), nil)
	listFixture(t, repo, 4)
	enc := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	for _, c := range []string{
		"not base64!",
		enc("2026-11-01T08:00:00.000000Z"),              // no id
		enc("2026-11-01T08:00:00.000000Z#12"),           // short id
		enc("2026-13-45T08:00:00.000000Z#0000000001"),   // no such date
		enc("TENANT#2#CITATIONS"),                       // key material of another kind
		enc("2026-11-01T08:00:00.000000Z#0000000001\n"), // trailing data
		base64.StdEncoding.EncodeToString([]byte("2026-11-01T08:00:00.000000Z#0000000001")), // padded
	} {
		_, err := repo.List(context.Background(), 1, citations.Filter{}, citations.PageRequest{Size: 2, After: c})
		if !errors.Is(err, citations.ErrBadCursor) {
			t.Errorf("cursor %q: %v, want ErrBadCursor", c, err)
		}
	}
	res, err := repo.List(context.Background(), 1, citations.Filter{}, citations.PageRequest{Size: 2, After: enc("2026-11-01T08:00:00.000000Z#0000000002")})
	if err != nil || len(res.Items) != 1 {
		t.Errorf("a well-formed cursor: %d items, %v", len(res.Items), err)
	}
	if _, err := repo.List(context.Background(), 1, citations.Filter{}, citations.PageRequest{Size: 0}); err == nil {
		t.Error("page size 0 accepted")
	}
}

// FuzzListCursor: whatever a client sends as a cursor, List answers items of
// the caller's tenant or ErrBadCursor, never another error or a panic.
func FuzzListCursor(f *testing.F) {
	repo := citations.NewRepo(embedded.NewMemory(), nil)
	ctx := context.Background()
	if err := repo.Insert(ctx, 1, []citations.Citation{{Date: listBase}, {Date: listBase.Add(time.Hour)}}); err != nil {
		f.Fatal(err)
	}
	if err := repo.Insert(ctx, 2, []citations.Citation{{Date: listBase}}); err != nil {
		f.Fatal(err)
	}
	f.Add("MjAyNi0xMS0wMVQwOTowMDowMC4wMDAwMDBaIzAwMDAwMDAwMDI")
	f.Add("")
	f.Add("%%%")
	f.Fuzz(func(t *testing.T, cursor string) {
		res, err := repo.List(ctx, 1, citations.Filter{}, citations.PageRequest{Size: 5, After: cursor})
		if err != nil {
			if !errors.Is(err, citations.ErrBadCursor) {
				t.Fatalf("cursor %q: %v", cursor, err)
			}
			return
		}
		for _, raw := range res.Items {
			if !strings.Contains(string(raw), `"tenantId":1,`) {
				t.Fatalf("cursor %q reached %s", cursor, raw)
			}
		}
	})
}

// The list serves stored documents as they are, so the stored citation must
// be the wire CitationDto: its member names are pinned here, nested DTOs
// included, against the spec's table. Renaming a JSON tag would silently
// change stored data (and the answers of every list); this fails instead.
func TestStoredCitationIsTheWireDTO(t *testing.T) {
	want := map[string][]string{
		"": {"id", "tenantId", "brandName", "platform", "platformIcon", "url", "title", "snippet", "sentiment", "date",
			"relevanceScore", "engagementMetrics", "aiCitationMetrics", "tags", "createdAt", "updatedAt", "searchQueryId",
			"searchQueryText", "aiOverviewDetected", "aiOverviewState", "inlineCitationCount", "citationSourceType",
			"visibilityResultId", "detectionVerdict", "detectionConfidence", "detectionEvidence"},
		"engagementMetrics": {"position", "shareOfVoice", "citationCount"},
		"aiCitationMetrics": {"conversationContext", "originalQuery", "aiModel", "primaryCompetitor", "responseLength",
			"mentionCount", "competitorMentioned", "citationAccuracy", "contextRelevance", "responseHelpfulness",
			"citedEntities", "entityRelevanceScores", "competitivePositionScore", "entityMentions", "competitorPositions"},
		"aiCitationMetrics.entityMentions[]": {"name", "kind", "start", "end", "rank", "sentiment"},
	}
	tbl := embedded.NewMemory()
	repo := citations.NewRepo(tbl, nil)
	c := citations.Citation{Date: listBase}
	c.AICitationMetrics.EntityMentions = []citations.EntityMention{{Name: "Acme", Kind: "brand"}}
	if err := repo.Insert(context.Background(), 1, []citations.Citation{c}); err != nil {
		t.Fatal(err)
	}
	res, err := repo.List(context.Background(), 1, citations.Filter{}, citations.PageRequest{Size: 1})
	if err != nil || len(res.Items) != 1 {
		t.Fatal(res, err)
	}
	got := map[string][]string{}
	var walk func(at string, v any)
	walk = func(at string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				got[at] = append(got[at], k)
				walk(strings.TrimPrefix(at+"."+k, "."), e)
			}
		case []any:
			for _, e := range x {
				walk(at+"[]", e)
			}
		}
	}
	var doc any
	if err := json.Unmarshal([]byte(res.Items[0]), &doc); err != nil {
		t.Fatal(err)
	}
	walk("", doc)
	for at, names := range want {
		sort.Strings(names)
		sort.Strings(got[at])
		if !slices.Equal(got[at], names) {
			t.Errorf("stored document at %q has members %v, want %v", at, got[at], names)
		}
	}
	for at := range got {
		if _, ok := want[at]; !ok {
			t.Errorf("stored document has an unpinned object at %q: %v", at, got[at])
		}
	}
	// The Go type and the pin agree too (a new field needs a new pin).
	if n := reflect.TypeFor[citations.Citation]().NumField(); n != len(want[""]) {
		t.Errorf("Citation has %d fields, the pin %d", n, len(want[""]))
	}
}
