package sitecontent

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"html/template"
	"strings"
	"time"

	"github.com/brandlens/brandlens/shared/content"
)

// pageTemplate is a page as a full HTML document. html/template escapes
// every text and attribute by its context; the body is the sanitized
// fragment stored at receipt, and the JSON-LD is compacted JSON with <, >
// and & escaped (json.HTMLEscape), so it cannot close its script element.
var pageTemplate = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
{{- with .MetaDescription}}
<meta name="description" content="{{.}}">{{end}}
<link rel="canonical" href="{{.Canonical}}">
{{- with .Author}}
<meta name="author" content="{{.}}">{{end}}
<meta property="og:type" content="article">
<meta property="og:title" content="{{.Title}}">
<meta property="og:url" content="{{.Canonical}}">
{{- with .Image}}
<meta property="og:image" content="{{.}}">{{end}}
{{- with .JSONLD}}
<script type="application/ld+json">{{.}}</script>{{end}}
</head>
<body>
<main>
<article>
<h1>{{.Title}}</h1>
<p class="meta">{{with .Author}}By {{.}} · {{end}}<time datetime="{{.Published}}">{{.PublishedText}}</time></p>
{{.Body}}
</article>
</main>
</body>
</html>
`))

type pageView struct {
	Title, MetaDescription, Canonical, Author, Image string
	JSONLD                                           template.JS
	Body                                             template.HTML
	Published, PublishedText                         string
}

// Render returns the page as a full HTML document; base is the site's
// base URL (the canonical link is the payload's CanonicalUrl, else the
// page's own URL).
func Render(p Page, base string) []byte {
	canonical := p.CanonicalURL
	if canonical == "" {
		canonical = strings.TrimRight(base, "/") + p.Path()
	}
	v := pageView{Title: p.Title, MetaDescription: p.MetaDescription, Canonical: canonical, Author: p.Author,
		Image: p.FeaturedImageURL, Body: template.HTML(content.Sanitize(p.BodyHTML)), // sanitized at receipt and again here
		Published: p.PublishDate.UTC().Format(time.RFC3339), PublishedText: p.PublishDate.UTC().Format("2 January 2006")}
	if p.SchemaJSONLd != "" {
		var buf bytes.Buffer
		json.HTMLEscape(&buf, []byte(p.SchemaJSONLd))
		v.JSONLD = template.JS(buf.String()) // compact JSON, validated at receipt, HTML-escaped above
	}
	var out bytes.Buffer
	if err := pageTemplate.Execute(&out, v); err != nil {
		// The template and its data are fixed types: an error is a bug.
		panic("sitecontent: render: " + err.Error())
	}
	return out.Bytes()
}

type urlset struct {
	XMLName xml.Name     `xml:"urlset"`
	NS      string       `xml:"xmlns,attr"`
	URLs    []smLocation `xml:"url"`
}

type smLocation struct {
	Loc     string `xml:"loc"`
	LastMod string `xml:"lastmod,omitempty"`
}

// RenderSitemap returns the sitemap (sitemaps.org protocol 0.9) of the
// entries under base.
func RenderSitemap(entries []Entry, base string) []byte {
	set := urlset{NS: "http://www.sitemaps.org/schemas/sitemap/0.9", URLs: make([]smLocation, 0, len(entries))}
	for _, e := range entries {
		set.URLs = append(set.URLs, smLocation{Loc: strings.TrimRight(base, "/") + e.Path, LastMod: e.LastMod})
	}
	b, err := xml.MarshalIndent(set, "", "  ")
	if err != nil {
		panic("sitecontent: sitemap: " + err.Error())
	}
	return append([]byte(xml.Header), append(b, '\n')...)
}
