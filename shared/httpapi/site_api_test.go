package httpapi_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/httpapi/apitest"
	"github.com/brandlens/brandlens/shared/signing"
)

// The receiver's secret in these tests: GitHub's documented test vector
// (reliability.md).
const githubSecret = "It's a Secret to Everybody"

func sitePayload(contentID, version, title string) string {
	b, _ := json.Marshal(map[string]any{"SchemaVersion": "1.0", "ContentId": contentID, "ContentVersion": version,
		"Title": title, "Slug": "note-apps-for-researchers", "ContentType": "research",
		"BodyHtml":        "<h2>Which app?</h2><p>Acme Notes keeps sources.</p><script>alert(1)</script>",
		"SchemaJsonLd":    `{"@context":"https://schema.org","@type":"FAQPage","name":"Note apps"}`,
		"MetaDescription": "Which note app suits researchers.", "Author": "Ada Lovelace",
		"PublishDate": "2026-11-20T09:00:00Z", "UpdatedDate": "2026-11-21T09:00:00Z",
		"TargetEntities": []string{"Acme Notes"}, "Headings": []string{"Which app?"}})
	return string(b)
}

func signed(body string) []string {
	return []string{signing.Header, signing.Sign([]byte(githubSecret), []byte(body))}
}

// The own site's receiver as a receiver must be: signature on the raw body
// first (GitHub's test vector verifies; a re-serialised body does not),
// then a case-insensitive parse, the SchemaVersion branch, upsert by Slug
// with stale versions ignored, 201/200 with {url} and Location; then the
// page and the sitemap.
func TestSiteContentReceiver(t *testing.T) {
	api := apitest.New(t, apitest.Options{SiteContentSecret: []byte(githubSecret)})
	const path = "/api/site-content/webhooks/research"

	t.Run("GitHub test vector verifies", func(t *testing.T) {
		// "Hello, World!" is no payload: past the signature, the parse refuses it.
		for _, sig := range []string{"sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
			"SHA256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"} {
			res := api.Do(t, "POST", path, "", "Hello, World!", signing.Header, sig)
			if res.Status != http.StatusUnprocessableEntity || res.ErrorCode(t) != httpapi.CodeValidation {
				t.Fatalf("%s: %d %s, want 422 after a verified signature", sig, res.Status, res.Body)
			}
		}
		res := api.Do(t, "POST", path, "", "Hello, World!", signing.Header, "sha256=857107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17")
		if res.Status != http.StatusUnauthorized || res.ErrorCode(t) != httpapi.CodeInvalidSignature {
			t.Fatalf("wrong signature: %d %s", res.Status, res.Body)
		}
	})

	body := sitePayload("01opp", "01v2", "Note apps for researchers")
	var first httpapi.SiteContentReceived
	t.Run("refused before anything is stored", func(t *testing.T) {
		var reserialised bytes.Buffer
		if err := json.Indent(&reserialised, []byte(body), "", " "); err != nil {
			t.Fatal(err)
		}
		cases := []struct {
			name string
			body string
			hdr  []string
		}{
			{"unsigned", body, nil},
			{"re-serialised body, original signature", reserialised.String(), signed(body)},
			{"signed with another secret", body, []string{signing.Header, signing.Sign([]byte("another secret entirely"), []byte(body))}},
		}
		for _, c := range cases {
			res := api.Do(t, "POST", path, "", c.body, c.hdr...)
			if res.Status != http.StatusUnauthorized || res.ErrorCode(t) != httpapi.CodeInvalidSignature {
				t.Fatalf("%s: %d %s", c.name, res.Status, res.Body)
			}
		}
		if res := api.Do(t, "GET", "/site/research/note-apps-for-researchers", "", "", "Accept", "text/html"); res.Status != http.StatusNotFound {
			t.Fatalf("a refused body stored a page: %d", res.Status)
		}
	})

	t.Run("created", func(t *testing.T) {
		res := api.Do(t, "POST", path, "", body, signed(body)...)
		res.Decode(t, http.StatusCreated, &first)
		if first.Status != "created" || !strings.HasSuffix(first.URL, "/site/research/note-apps-for-researchers") ||
			res.Header.Get("Location") != first.URL {
			t.Fatalf("%+v Location %q", first, res.Header.Get("Location"))
		}
	})

	t.Run("re-publish: same page, same URL", func(t *testing.T) {
		// Member names in another casing: receivers parse case-insensitively.
		newer := strings.NewReplacer(`"Title"`, `"title"`, `"ContentVersion"`, `"contentversion"`, `"Slug"`, `"SLUG"`).
			Replace(sitePayload("01opp", "01v3", "Note apps for researchers, revised"))
		var got httpapi.SiteContentReceived
		api.Do(t, "POST", path, "", newer, signed(newer)...).Decode(t, http.StatusOK, &got)
		if got.Status != "updated" || got.URL != first.URL {
			t.Fatalf("%+v, want updated at %s", got, first.URL)
		}
		older := sitePayload("01opp", "01v1", "Stale title")
		api.Do(t, "POST", path, "", older, signed(older)...).Decode(t, http.StatusOK, &got)
		if got.Status != "stale" || got.URL != first.URL {
			t.Fatalf("%+v, want stale", got)
		}
	})

	t.Run("refused payloads", func(t *testing.T) {
		cases := []struct {
			name, body, code, field string
		}{
			{"unknown major", strings.Replace(body, `"SchemaVersion":"1.0"`, `"SchemaVersion":"2.0"`, 1), httpapi.CodeValidation, "SchemaVersion"},
			{"one member in two casings", strings.Replace(body, `"Slug":`, `"slug":"x","Slug":`, 1), httpapi.CodeValidation, "Slug"},
			{"another piece's slug", sitePayload("01someone-else", "01v9", "Intruder"), httpapi.CodeSlugTaken, ""},
		}
		for _, c := range cases {
			res := api.Do(t, "POST", path, "", c.body, signed(c.body)...)
			if res.ErrorCode(t) != c.code || (c.field != "" && !strings.Contains(strings.Join(res.Fields(t), ","), c.field)) {
				t.Fatalf("%s: %d %s", c.name, res.Status, res.Body)
			}
		}
	})

	t.Run("the page and the sitemap", func(t *testing.T) {
		res := api.Do(t, "GET", "/site/research/note-apps-for-researchers", "", "", "Accept", "text/html")
		html := string(res.Body)
		if res.Status != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("%d %s", res.Status, res.Header.Get("Content-Type"))
		}
		for _, want := range []string{"<!doctype html>", "<title>Note apps for researchers, revised</title>",
			`<meta name="description" content="Which note app suits researchers.">`,
			`<link rel="canonical" href="` + first.URL + `">`,
			`<script type="application/ld+json">{"@context":"https://schema.org","@type":"FAQPage","name":"Note apps"}</script>`,
			"<h2>Which app?</h2><p>Acme Notes keeps sources.</p>"} {
			if !strings.Contains(html, want) {
				t.Errorf("page lacks %s:\n%s", want, html)
			}
		}
		if strings.Contains(html, "alert(1)") || strings.Contains(html, "Stale title") {
			t.Errorf("page:\n%s", html)
		}
		sm := api.Do(t, "GET", "/site/sitemap.xml", "", "", "Accept", "application/xml")
		if sm.Status != http.StatusOK || !strings.Contains(string(sm.Body), "<loc>"+first.URL+"</loc>") {
			t.Fatalf("sitemap %d %s", sm.Status, sm.Body)
		}
		if res := api.Do(t, "GET", "/site/news/note-apps-for-researchers", "", "", "Accept", "text/html"); res.Status != http.StatusNotFound {
			t.Fatalf("another section: %d", res.Status)
		}
	})
}
