package publish_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/destinations"
	"github.com/brandlens/brandlens/shared/opportunities"
	"github.com/brandlens/brandlens/shared/publish"
	"github.com/brandlens/brandlens/shared/validation"
)

func TestParsePayload(t *testing.T) {
	cases := []struct {
		name  string
		body  string
		slug  string
		field string // "" → accepted
	}{
		{"PascalCase", `{"SchemaVersion":"1.0","Title":"T","Slug":"a-b","BodyHtml":"<p>x</p>"}`, "a-b", ""},
		{"any casing", `{"schemaversion":"1.0","TITLE":"T","sLuG":"a-b","bodyHTML":"<p>x</p>","contentid":"01x"}`, "a-b", ""},
		{"minor version", `{"SchemaVersion":"1.7","Title":"T","Slug":"a-b","BodyHtml":"x"}`, "a-b", ""},
		{"unknown members ignored", `{"SchemaVersion":"1.0","Slug":"a-b","Extra":{"x":1}}`, "a-b", ""},
		{"two casings of one member", `{"SchemaVersion":"1.0","Slug":"a","slug":"b"}`, "", "Slug"},
		{"major 2", `{"SchemaVersion":"2.0","Slug":"a"}`, "", "SchemaVersion"},
		{"no version", `{"Slug":"a"}`, "", "SchemaVersion"},
		{"version not a string", `{"SchemaVersion":1.0}`, "", "SchemaVersion"},
		{"wrong type", `{"SchemaVersion":"1.0","Headings":"h"}`, "", "Headings"},
		{"not JSON", `Hello, World!`, "", "body"},
		{"array", `[1]`, "", "body"},
		{"two objects", `{"SchemaVersion":"1.0"}{}`, "", "body"},
		{"exact duplicate", `{"SchemaVersion":"1.0","Slug":"a","Slug":"b"}`, "", "body"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := publish.ParsePayload([]byte(c.body))
			if c.field == "" {
				if err != nil || p.Slug != c.slug {
					t.Fatalf("%+v %v", p, err)
				}
				return
			}
			var ve *validation.Error
			if !errors.As(err, &ve) || !ve.Has(c.field) {
				t.Fatalf("error %v, want one naming %s", err, c.field)
			}
		})
	}
}

// What Build sends, ParsePayload reads back as it was.
func TestParsePayloadReadsWhatBuildSends(t *testing.T) {
	o := opportunities.Opportunity{ID: "01opp", Content: &opportunities.Content{Title: "T", Slug: "t", BodyHTML: "<p>b</p>",
		SchemaJSONLD: `{"@type":"FAQPage"}`, TargetEntities: []string{"Acme"}, Headings: []string{"Why?"}}}
	want, body, err := publish.Build(publish.BuildInput{Opportunity: o, Destination: destinations.Destination{Type: destinations.TypeOwnSite,
		SiteContentType: "news", DefaultAuthor: "Ada"}, Version: "01v1", Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	got, err := publish.ParsePayload(body)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(want)
	if string(a) != string(b) {
		t.Errorf("parsed %s\nsent   %s", a, b)
	}
}

// FuzzParsePayload: any body is either a payload of major version 1 or a
// validation error naming what is wrong; never a panic.
func FuzzParsePayload(f *testing.F) {
	for _, s := range []string{`{"SchemaVersion":"1.0","Slug":"a"}`, `{"schemaVersion":"2.0"}`, `{"slug":"a","SLUG":"b"}`,
		`Hello, World!`, `{"SchemaVersion":"1.0","Headings":[1]}`, "{\"SchemaVersion\":\"1\xff\"}", `{"SchemaVersion":"01.0"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		p, err := publish.ParsePayload(body)
		if err != nil {
			var ve *validation.Error
			if !errors.As(err, &ve) || len(ve.Fields) == 0 {
				t.Fatalf("error %T %v", err, err)
			}
			return
		}
		if major, err := publish.Major(p.SchemaVersion); err != nil || major != publish.SupportedMajor || strings.TrimSpace(p.SchemaVersion) == "" {
			t.Fatalf("accepted SchemaVersion %q", p.SchemaVersion)
		}
	})
}
