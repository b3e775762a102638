package sitecontent_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/publish"
	"github.com/brandlens/brandlens/shared/sitecontent"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamotest"
	"github.com/brandlens/brandlens/shared/store/storetest"
	"github.com/brandlens/brandlens/shared/validation"
)

func TestMain(m *testing.M) { dynamotest.Main(m) }

func str(s string) *string { return &s }

func payload(contentID, version, title string) publish.Payload {
	return publish.Payload{SchemaVersion: "1.0", ContentID: str(contentID), ContentVersion: str(version), Title: title,
		Slug: "note-apps-for-researchers", BodyHTML: "<h2>Why</h2><p>Because.</p>", MetaDescription: str("Which note app suits researchers."),
		SchemaJSONLd: `{"@context":"https://schema.org", "@type":"FAQPage"}`}
}

// Upsert by Slug on both backends: created, updated by a newer version,
// left alone by an older one (the newer page stays), refused for another
// piece; the sitemap lists the page once.
func TestReceiveUpsertsBySlug(t *testing.T) {
	dynamotest.Backends(t, time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC), func(t *testing.T, tbl store.Table, clock *storetest.Clock) {
		ctx := context.Background()
		svc := sitecontent.NewService(tbl, clock.Now)
		steps := []struct {
			name        string
			p           publish.Payload
			wantOutcome string
			wantTitle   string
			wantErr     func(error) bool
		}{
			{"created", payload("01opp", "01v2", "Second"), sitecontent.Created, "Second", nil},
			{"same version again updates", payload("01opp", "01v2", "Second again"), sitecontent.Updated, "Second again", nil},
			{"older version ignored", payload("01opp", "01v1", "First"), sitecontent.Stale, "Second again", nil},
			{"newer version", payload("01opp", "01v3", "Third"), sitecontent.Updated, "Third", nil},
			{"another piece's slug", payload("01other", "01v9", "Intruder"), "", "Third",
				func(err error) bool { var e *sitecontent.SlugTakenError; return errors.As(err, &e) }},
		}
		for _, s := range steps {
			clock.Advance(time.Minute)
			res, err := svc.Receive(ctx, "news", s.p)
			if s.wantErr != nil {
				if !s.wantErr(err) {
					t.Fatalf("%s: error %v", s.name, err)
				}
			} else if err != nil || res.Outcome != s.wantOutcome {
				t.Fatalf("%s: %+v %v, want %s", s.name, res, err, s.wantOutcome)
			}
			got, err := svc.Get(ctx, "news", "note-apps-for-researchers")
			if err != nil || got.Title != s.wantTitle {
				t.Fatalf("%s: page %q %v, want %q", s.name, got.Title, err, s.wantTitle)
			}
		}
		entries, err := svc.Sitemap(ctx)
		if err != nil || len(entries) != 1 || entries[0].Path != "/site/news/note-apps-for-researchers" {
			t.Fatalf("sitemap %+v %v", entries, err)
		}
		if _, err := svc.Get(ctx, "research", "note-apps-for-researchers"); !errors.Is(err, sitecontent.ErrNotFound) {
			t.Errorf("another section: %v", err)
		}
	})
}

// Concurrent deliveries of many versions of one piece leave the newest.
func TestReceiveConcurrentVersionsKeepTheNewest(t *testing.T) {
	dynamotest.Backends(t, time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC), func(t *testing.T, tbl store.Table, clock *storetest.Clock) {
		ctx := context.Background()
		svc := sitecontent.NewService(tbl, clock.Now)
		const n = 12
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				v := fmt.Sprintf("%03d", i)
				if _, err := svc.Receive(ctx, "research", payload("01opp", v, "v"+v)); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		got, err := svc.Get(ctx, "research", "note-apps-for-researchers")
		if err != nil || got.ContentVersion != fmt.Sprintf("%03d", n-1) {
			t.Fatalf("page version %q %v, want the newest", got.ContentVersion, err)
		}
	})
}

func TestReceiveValidates(t *testing.T) {
	svc := sitecontent.NewService(nil, nil) // nothing is read before validation passes
	cases := []struct {
		name  string
		typ   string
		edit  func(*publish.Payload)
		field string
	}{
		{"unknown major", "news", func(p *publish.Payload) { p.SchemaVersion = "2.0" }, "SchemaVersion"},
		{"no version", "news", func(p *publish.Payload) { p.SchemaVersion = "" }, "SchemaVersion"},
		{"no title", "news", func(p *publish.Payload) { p.Title = " " }, "Title"},
		{"slug not slugified", "news", func(p *publish.Payload) { p.Slug = "Note Apps" }, "Slug"},
		{"slug path traversal", "news", func(p *publish.Payload) { p.Slug = "../admin" }, "Slug"},
		{"no body", "news", func(p *publish.Payload) { p.BodyHTML = "" }, "BodyHtml"},
		{"body too large", "news", func(p *publish.Payload) { p.BodyHTML = strings.Repeat("a", sitecontent.MaxBodyHTML+1) }, "BodyHtml"},
		{"JSON-LD not JSON", "news", func(p *publish.Payload) { p.SchemaJSONLd = "<script>" }, "SchemaJsonLd"},
		{"JSON-LD a number", "news", func(p *publish.Payload) { p.SchemaJSONLd = "42" }, "SchemaJsonLd"},
		{"content type of another section", "news", func(p *publish.Payload) { p.ContentType = str("research") }, "ContentType"},
		{"canonical not absolute", "news", func(p *publish.Payload) { p.CanonicalURL = str("/x") }, "CanonicalUrl"},
		{"bad date", "news", func(p *publish.Payload) { p.PublishDate = str("yesterday") }, "PublishDate"},
		{"unknown section", "blog", func(*publish.Payload) {}, "type"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := payload("01opp", "01v1", "Title")
			c.edit(&p)
			_, err := svc.Receive(context.Background(), c.typ, p)
			var ve *validation.Error
			if !errors.As(err, &ve) || !ve.Has(c.field) {
				t.Fatalf("error %v, want one naming %s", err, c.field)
			}
		})
	}
}

func TestOlder(t *testing.T) {
	cases := []struct {
		a, b string
		want bool
	}{
		{"01v1", "01v2", true}, {"01v2", "01v1", false}, {"9", "10", true}, {"10", "9", false},
		{"2026-11-01T00:00:00Z", "2026-11-02T00:00:00Z", true}, {"", "5", false}, {"5", "", false}, {"7", "7", false},
	}
	for _, c := range cases {
		if got := sitecontent.Older(c.a, c.b); got != c.want {
			t.Errorf("Older(%q, %q) = %v", c.a, c.b, got)
		}
	}
}

// The page is a full document: title, description, canonical link, the
// JSON-LD in its script element (unable to close it), the sanitized body.
func TestRender(t *testing.T) {
	p := sitecontent.Page{Type: "news", Slug: "a-b", Title: `Tools & "tips"`, MetaDescription: "Short <b>desc</b>",
		BodyHTML: `<h2>One</h2><p onclick="x()">Two</p><script>alert(1)</script>`, Author: "Ada",
		SchemaJSONLd: `{"name":"</script><script>alert(1)</script>"}`, PublishDate: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}
	html := string(sitecontent.Render(p, "https://site.example.com/"))
	for _, want := range []string{
		"<!doctype html>", "<title>Tools &amp; &#34;tips&#34;</title>",
		`<meta name="description" content="Short &lt;b&gt;desc&lt;/b&gt;">`,
		`<link rel="canonical" href="https://site.example.com/site/news/a-b">`,
		`<script type="application/ld+json">{"name":"\u003c/script\u003e\u003cscript\u003ealert(1)\u003c/script\u003e"}</script>`,
		"<h2>One</h2><p>Two</p>", `<meta name="author" content="Ada">`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %s:\n%s", want, html)
		}
	}
	if strings.Contains(html, "alert(1)</script>") || strings.Contains(html, "onclick") {
		t.Errorf("unsafe markup passed:\n%s", html)
	}
	p.CanonicalURL = "https://blog.example.com/a-b"
	if html := string(sitecontent.Render(p, "https://site.example.com")); !strings.Contains(html, `href="https://blog.example.com/a-b"`) {
		t.Errorf("the payload's CanonicalUrl is the canonical link:\n%s", html)
	}
	sm := string(sitecontent.RenderSitemap([]sitecontent.Entry{{Path: "/site/news/a-b", LastMod: "2026-11-01T00:00:00Z"}}, "https://site.example.com"))
	if !strings.Contains(sm, "<loc>https://site.example.com/site/news/a-b</loc>") || !strings.Contains(sm, `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"`) {
		t.Errorf("sitemap:\n%s", sm)
	}
}
