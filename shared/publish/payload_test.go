package publish_test

import (
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/destinations"
	"github.com/brandlens/brandlens/shared/opportunities"
	"github.com/brandlens/brandlens/shared/publish"
)

// Author is the one given, else the destination's default: a blank one
// counts as not given; with no default there is none.
func TestBuildAuthor(t *testing.T) {
	ptr := func(s string) *string { return &s }
	cases := []struct {
		name        string
		given       *string
		defaultName string
		want        *string
	}{
		{"absent: the default", nil, "Acme editors", ptr("Acme editors")},
		{"empty: the default", ptr(""), "Acme editors", ptr("Acme editors")},
		{"blank: the default", ptr("  \t"), "Acme editors", ptr("Acme editors")},
		{"given, trimmed", ptr(" Ada Lovelace "), "Acme editors", ptr("Ada Lovelace")},
		{"empty without a default: none", ptr(""), "", nil},
	}
	o := opportunities.Opportunity{ID: "01opp", Content: &opportunities.Content{Title: "T", Slug: "t", BodyHTML: "<p>b</p>"}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, _, err := publish.Build(publish.BuildInput{Opportunity: o, Destination: destinations.Destination{Type: destinations.TypeWebhook,
				DefaultAuthor: c.defaultName}, Author: c.given, Version: "01v1", Now: time.Now()})
			if err != nil {
				t.Fatal(err)
			}
			if (p.Author == nil) != (c.want == nil) || (p.Author != nil && *p.Author != *c.want) {
				t.Errorf("Author %v, want %v", p.Author, c.want)
			}
		})
	}
}
