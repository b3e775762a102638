package content_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/brandlens/brandlens/shared/content"
	"github.com/brandlens/brandlens/shared/opportunities"
)

func TestSanitize(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"keeps body elements", `<h2>A</h2><p>x <strong>y</strong> <em>z</em></p><ul><li>i</li></ul>`, `<h2>A</h2><p>x <strong>y</strong> <em>z</em></p><ul><li>i</li></ul>`},
		{"drops script with its content", `<p>a</p><script>alert(1)</script>`, `<p>a</p>`},
		{"drops style with its content", `<style>p{color:red}</style><p>a</p>`, `<p>a</p>`},
		{"drops document elements", `<html><head><title>t</title></head><body><p>a</p></body></html>`, `<p>a</p>`},
		{"drops event handlers", `<p onclick="x()" onmouseover='y()'>a</p>`, `<p>a</p>`},
		{"drops javascript: links", `<a href="javascript:alert(1)">a</a>`, `a`},
		{"drops obfuscated javascript: links", `<a href="jav&#x09;ascript:alert(1)">a</a>`, `a`},
		{"keeps https links", `<a href="https://acmenotes.com/x">a</a>`, `<a href="https://acmenotes.com/x">a</a>`},
		{"drops other attributes", `<p class="c" style="color:red" id="i">a</p>`, `<p>a</p>`},
		{"drops images and iframes", `<img src="https://x/y.png" onerror="z()"><iframe src="https://x"></iframe><p>a</p>`, `<p>a</p>`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := content.Sanitize(tc.in); got != tc.want {
				t.Errorf("Sanitize(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestHumanize(t *testing.T) {
	cases := []struct{ in, want string }{
		{"It's important to note that sync is fast.", "Sync is fast."},
		{"Prices vary. It is worth noting that plans change.", "Prices vary. Plans change."},
		{"In today's fast-paced world, teams need notes.", "Teams need notes."},
		{"In conclusion, pick one.", "Pick one."},
		{"We delve into the options and leverage templates.", "We look at the options and use templates."},
		{"Utilize the seamless sync.", "Use the smooth sync."},
		{"Acme Notes — a note app — is fast.", "Acme Notes, a note app, is fast."},
		{"“Fast” and ‘simple’", `"Fast" and 'simple'`},
		{"When it comes to pricing , compare plans.", "For pricing, compare plans."},
		{"Plain text stays as it is.", "Plain text stays as it is."},
	}
	for _, tc := range cases {
		if got := content.Humanize(tc.in); got != tc.want {
			t.Errorf("Humanize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestMetaAndSlug(t *testing.T) {
	long := strings.Repeat("Acme Notes keeps every note in sync across devices. ", 6)
	cases := []struct {
		name, meta, body string
		check            func(string) bool
	}{
		{"short kept", "A short description.", "", func(s string) bool { return s == "A short description." }},
		{"long cut at a word", long, "", func(s string) bool {
			return utf8.RuneCountInString(s) <= 160 && strings.HasSuffix(s, "…") && strings.HasPrefix(long, strings.TrimSuffix(s, "…"))
		}},
		{"empty uses the body", "", "Body text opens the page.", func(s string) bool { return s == "Body text opens the page." }},
		{"multibyte", strings.Repeat("é", 400), "", func(s string) bool { return utf8.RuneCountInString(s) <= 160 && utf8.ValidString(s) }},
	}
	for _, tc := range cases {
		if got := content.Meta(tc.meta, tc.body); !tc.check(got) {
			t.Errorf("%s: Meta = %q (%d characters)", tc.name, got, utf8.RuneCountInString(got))
		}
	}
	for in, want := range map[string]string{
		"Acme Notes vs Notion: which is right?": "acme-notes-vs-notion-which-is-right",
		"Ünïcödé Tïtle & More":                  "unicode-title-and-more",
		strings.Repeat("word ", 40):             strings.TrimSuffix(strings.Repeat("word-", 16), "-"),
	} {
		if got := content.Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

var testBrief = opportunities.Brief{
	ContentFormat: content.FormatArticle, Title: "Team wikis", TargetQueries: []string{"best team wiki"},
	TargetEntities: []string{"Acme Notes", "Notion"},
	Outline:        []opportunities.Heading{{Level: 2, Text: "What to look for"}, {Level: 3, Text: "Pricing"}, {Level: 2, Text: "Acme Notes and Notion"}},
	Questions:      []string{"What is the best team wiki?"}, Facts: []string{"Acme Notes syncs offline."}, WordCount: 900,
}

func answer(t *testing.T, title, meta, body string) string {
	t.Helper()
	b, err := json.Marshal(content.ArticleOutput{Title: title, MetaDescription: meta, BodyHTML: body})
	if err != nil {
		t.Fatal(err)
	}
	return "Here is the page:\n```json\n" + string(b) + "\n```"
}

// Finish sanitizes and humanizes what the model wrote, and refuses output
// that misses the brief.
func TestFinish(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	good := `<h1>What to look for</h1><p onclick="x()">It's important to note that Acme Notes syncs — offline.</p>` +
		`<script>steal()</script><h3>Pricing</h3><p>Compare <a href="javascript:alert(1)">plans</a>.</p>` +
		`<h2>Acme Notes and Notion</h2><p>Notion is popular.</p><style>p{}</style>`
	c, err := content.Finish(answer(t, "Team wikis", "", good), testBrief, "a tester", "m-1", "v1", now)
	if err != nil {
		t.Fatal(err)
	}
	want := `<h2>What to look for</h2><p>Acme Notes syncs, offline.</p><h3>Pricing</h3><p>Compare plans.</p><h2>Acme Notes and Notion</h2><p>Notion is popular.</p>`
	if c.BodyHTML != want {
		t.Errorf("body\n got %s\nwant %s", c.BodyHTML, want)
	}
	if strings.Join(c.Headings, "|") != "What to look for|Pricing|Acme Notes and Notion" {
		t.Errorf("headings %q", c.Headings)
	}
	if c.MetaDescription != "Acme Notes syncs, offline. Compare plans. Notion is popular." && !strings.HasPrefix(c.MetaDescription, "What to look for") {
		t.Errorf("meta %q", c.MetaDescription)
	}
	if c.Slug != "team-wikis" || c.WordCount == 0 || c.ContentVersion != "v1" || c.Model != "m-1" {
		t.Errorf("content %+v", c)
	}

	for name, text := range map[string]string{
		"no JSON":                 "I cannot help with that.",
		"not the shape":           `{"title": 3}`,
		"missing outline heading": answer(t, "T", "", `<h2>What to look for</h2><h3>Pricing</h3><p>Acme Notes and Notion.</p>`),
	} {
		if _, err := content.Finish(text, testBrief, "p", "m", "v", now); !errors.Is(err, content.ErrUnusableOutput) {
			t.Errorf("%s: %v", name, err)
		}
	}
	withEvernote := testBrief
	withEvernote.TargetEntities = append([]string{"Evernote"}, testBrief.TargetEntities...)
	if _, err := content.Finish(answer(t, "T", "", good), withEvernote, "p", "m", "v", now); !errors.Is(err, content.ErrUnusableOutput) {
		t.Errorf("missing entity: %v", err)
	}

	faq := testBrief
	faq.ContentFormat = content.FormatFAQ
	if _, err := content.Finish(answer(t, "T", "", good), faq, "p", "m", "v", now); !errors.Is(err, content.ErrUnusableOutput) {
		t.Errorf("a faq without question headings: %v", err)
	}
}

func TestParseBrief(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	in := content.BriefInput{ContentFormat: content.FormatComparison, Query: "best team wiki", TargetEntities: []string{"Acme Notes", "Notion"},
		CompetitorPages: []opportunities.CompetitorPage{{Name: "Notion", URL: "https://notion.so/wikis", Title: "Wikis"}}}
	ok := `{"title":"Acme Notes vs Notion","outline":[{"level":2,"text":"At a glance"},{"level":3,"text":"Sync"},{"level":2,"text":"Verdict"}],
	        "questions":["Which is cheaper?"],"facts":["Acme Notes syncs offline."],"wordCount":99999}`
	b, err := content.ParseBrief("```json\n"+ok+"\n```", in, "m", now)
	if err != nil {
		t.Fatal(err)
	}
	if b.WordCount != content.DefaultWordCount[content.FormatComparison] || b.TargetQueries[0] != "best team wiki" ||
		len(b.CompetitorPages) != 1 || len(b.Outline) != 3 || b.ContentFormat != content.FormatComparison {
		t.Errorf("brief %+v", b)
	}
	for name, text := range map[string]string{
		"no title":      `{"outline":[{"level":2,"text":"A"},{"level":2,"text":"B"}],"questions":["q"]}`,
		"h1 in outline": `{"title":"T","outline":[{"level":1,"text":"A"},{"level":2,"text":"B"}],"questions":["q"]}`,
		"starts at h3":  `{"title":"T","outline":[{"level":3,"text":"A"},{"level":2,"text":"B"}],"questions":["q"]}`,
		"no questions":  `{"title":"T","outline":[{"level":2,"text":"A"},{"level":2,"text":"B"}]}`,
		"prose":         `Sure! Here is a plan.`,
	} {
		if _, err := content.ParseBrief(text, in, "m", now); !errors.Is(err, content.ErrUnusableOutput) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// Model output is outside input: whatever it is, Finish never panics, and
// what it accepts keeps the shape rules.
func FuzzFinish(f *testing.F) {
	f.Add("Team wikis", "meta", `<h2>What to look for</h2><h3>Pricing</h3><h2>Acme Notes and Notion</h2><p>x</p>`)
	f.Add("", "", `<h1>What to look for</h1><h3>Pricing</h3><h2>Acme Notes and Notion</h2><script>x</script>`)
	f.Add("T", strings.Repeat("é ", 200), `<h2>What to look for<h3>Pricing</h2><h2>Acme Notes and Notion<p onload=x>`)
	f.Fuzz(func(t *testing.T, title, meta, body string) {
		b, _ := json.Marshal(content.ArticleOutput{Title: title, MetaDescription: meta, BodyHTML: body})
		c, err := content.Finish(string(b), testBrief, "p", "m", "v", time.Unix(0, 0))
		if err != nil {
			return
		}
		if utf8.RuneCountInString(c.MetaDescription) > content.MaxMetaDescription {
			t.Errorf("meta of %d characters", utf8.RuneCountInString(c.MetaDescription))
		}
		if content.Sanitize(c.BodyHTML) != c.BodyHTML {
			t.Errorf("body not stable under sanitizing: %q", c.BodyHTML)
		}
		low := strings.ToLower(c.BodyHTML)
		for _, bad := range []string{"<script", "<style", "javascript:", "<html", "<body"} {
			if strings.Contains(low, bad) {
				t.Errorf("body contains %s: %q", bad, c.BodyHTML)
			}
		}
		if !json.Valid([]byte(c.SchemaJSONLD)) {
			t.Errorf("invalid JSON-LD %q", c.SchemaJSONLD)
		}
	})
}

func FuzzParseBrief(f *testing.F) {
	f.Add(`{"title":"T","outline":[{"level":2,"text":"A"},{"level":3,"text":"B"}],"questions":["q"],"facts":["f"],"wordCount":800}`)
	f.Add("```json\n{\"title\":\"T\"}\n```")
	f.Add(`}{`)
	in := content.BriefInput{ContentFormat: content.FormatArticle, Query: "q"}
	f.Fuzz(func(t *testing.T, text string) {
		b, err := content.ParseBrief(text, in, "m", time.Unix(0, 0))
		if err != nil {
			return
		}
		if b.Title == "" || len(b.Outline) < 2 || b.Outline[0].Level != 2 || len(b.Questions) == 0 ||
			b.WordCount < content.MinWordCount || b.WordCount > content.MaxWordCount {
			t.Errorf("accepted %+v", b)
		}
	})
}
