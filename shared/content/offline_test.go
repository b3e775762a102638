package content_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/content"
	"github.com/brandlens/brandlens/shared/models"
	"github.com/brandlens/brandlens/shared/opportunities"
)

var offlineBriefInput = content.BriefInput{
	ContentFormat: content.FormatListicle, Query: "best team wiki", Tier: "competitor_dominated",
	Brand:            content.Brand{Name: "Acme Notes", Domains: []string{"acmenotes.com"}},
	CompetitorsAhead: []string{"Notion"}, TargetEntities: []string{"Acme Notes", "Notion", "Evernote"},
	CandidateFacts: []string{"Acme Notes syncs offline.", "Acme Notes is online at acmenotes.com."}, DefaultWordCount: 1300,
}

// The offline writer answers the same prompt the same way, and what it
// writes passes the same checks as a vendor's answer.
func TestOfflineIsDeterministic(t *testing.T) {
	ctx := context.Background()
	gen := content.NewOffline()
	msgs, err := content.BriefMessages(offlineBriefInput)
	if err != nil {
		t.Fatal(err)
	}
	a, err := gen.Generate(ctx, models.Request{Messages: msgs})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := gen.Generate(ctx, models.Request{Messages: msgs})
	if a.Text != b.Text || a.InputTokens != b.InputTokens || a.Model != content.OfflineModel || !a.CostKnown || a.CostUSD != 0 {
		t.Fatalf("two answers differ or misreport: %+v", a)
	}
	now := time.Unix(0, 0)
	brief, err := content.ParseBrief(a.Text, offlineBriefInput, a.Model, now)
	if err != nil {
		t.Fatal(err)
	}
	if brief.Outline[1].Text != "1. Acme Notes" || brief.Outline[2].Text != "2. Notion" {
		t.Errorf("listicle outline %v", brief.Outline)
	}
	am, err := content.ArticleMessages(content.ArticleInput{Persona: content.DefaultPersona, Brand: offlineBriefInput.Brand, Brief: brief})
	if err != nil {
		t.Fatal(err)
	}
	art, err := gen.Generate(ctx, models.Request{Messages: am})
	if err != nil {
		t.Fatal(err)
	}
	again, _ := gen.Generate(ctx, models.Request{Messages: am})
	if art.Text != again.Text {
		t.Error("two articles from one prompt differ")
	}
	c, err := content.Finish(art.Text, brief, content.DefaultPersona, art.Model, "v1", now)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.ToLower(c.BodyHTML), "lorem") || c.WordCount < 150 {
		t.Errorf("article of %d words: %s", c.WordCount, c.BodyHTML)
	}
}

func TestOfflineRefusesOtherPrompts(t *testing.T) {
	ctx := context.Background()
	gen := content.NewOffline()
	var me *models.Error
	_, err := gen.Generate(ctx, models.Request{Messages: []models.Message{{Role: models.RoleUser, Content: "Write a poem."}}})
	if !errors.As(err, &me) || me.Kind != models.KindInvalid {
		t.Errorf("a prompt without input block: %v", err)
	}
	msgs, _ := content.ArticleMessages(content.ArticleInput{Brand: content.Brand{Name: "A"}, Brief: opportunities.Brief{
		Title: "T", Outline: []opportunities.Heading{{Level: 2, Text: "H"}}, TargetEntities: []string{"A"}}})
	_, err = gen.Generate(ctx, models.Request{Messages: msgs, MaxOutputTokens: 10})
	if !errors.As(err, &me) || me.Kind != models.KindTruncated {
		t.Errorf("an answer over the cap: %v", err)
	}
}

// The offline article quotes the first answer snippet that has text (an
// answer without an AI Overview has none), never an empty quote.
func TestOfflineQuotesAnAnswerWithText(t *testing.T) {
	ctx := context.Background()
	brief := opportunities.Brief{ContentFormat: content.FormatArticle, Title: "Team wikis", TargetQueries: []string{"best team wiki"},
		TargetEntities: []string{"Acme Notes", "Notion"}, Outline: []opportunities.Heading{{Level: 2, Text: "What a wiki needs"}, {Level: 2, Text: "Choosing"}},
		Questions: []string{"What is the best team wiki?"}, WordCount: 900}
	for _, snippets := range [][]string{
		{"google_ai_overview: ", "chatgpt: Notion is the usual choice for a team wiki."},
		{"", "Notion is the usual choice for a team wiki."},
	} {
		msgs, err := content.ArticleMessages(content.ArticleInput{Persona: content.DefaultPersona, Brand: content.Brand{Name: "Acme Notes"},
			Brief: brief, AnswerSnippets: snippets})
		if err != nil {
			t.Fatal(err)
		}
		art, err := content.NewOffline().Generate(ctx, models.Request{Messages: msgs})
		if err != nil {
			t.Fatal(err)
		}
		c, err := content.Finish(art.Text, brief, content.DefaultPersona, art.Model, "v1", time.Unix(0, 0))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(c.BodyHTML, "<blockquote></blockquote>") || !strings.Contains(c.BodyHTML, "<blockquote>Notion is the usual choice for a team wiki.</blockquote>") {
			t.Errorf("quote with snippets %q: %s", snippets, c.BodyHTML)
		}
	}
}
