// Package publish puts articles on the web: it builds the PublishPayload of
// an opportunity's article for a destination, creates the publish job
// (propose: behind an approval request; execute: at once, or with an
// approved request), and delivers it exactly as channel B of the spec
// says — one signed POST, 30 s, no redirects, no automatic retry — with
// the live URL taken from the receiver's answer, an IndexNow ping, the
// opportunity marked published and content.published, all audited with
// the hash of the exact bytes sent.
package publish

import (
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/brandlens/brandlens/shared/destinations"
	"github.com/brandlens/brandlens/shared/opportunities"
)

// SchemaVersion is the PublishPayload version this service sends.
const SchemaVersion = "1.0"

// MaxAuthor caps Author (the spec: receivers cap at about 200 characters;
// the sender never sends more).
const MaxAuthor = destinations.MaxAuthor

// Payload is the PublishPayload (PascalCase wire names, as the spec fixes
// them).
type Payload struct {
	SchemaVersion    string   `json:"SchemaVersion"`
	ContentID        *string  `json:"ContentId"`
	ContentVersion   *string  `json:"ContentVersion"`
	Title            string   `json:"Title"`
	Slug             string   `json:"Slug"`
	ContentType      *string  `json:"ContentType"`
	BodyHTML         string   `json:"BodyHtml"`
	SchemaJSONLd     string   `json:"SchemaJsonLd"`
	MetaDescription  *string  `json:"MetaDescription"`
	CanonicalURL     *string  `json:"CanonicalUrl"`
	FeaturedImageURL *string  `json:"FeaturedImageUrl"`
	Author           *string  `json:"Author"`
	PublishDate      *string  `json:"PublishDate"`
	UpdatedDate      *string  `json:"UpdatedDate"`
	TargetEntities   []string `json:"TargetEntities"`
	Headings         []string `json:"Headings"`
}

// BuildInput is what a payload is made of.
type BuildInput struct {
	Opportunity opportunities.Opportunity
	Destination destinations.Destination
	// Author is the one the user gave (nil or blank: the destination's
	// default, or none: an author is never invented).
	Author *string
	// Version is the ContentVersion of this publish: new on every publish,
	// so a re-publish carries a new one (a ULID, so its text order is the
	// publish order).
	Version string
	Now     time.Time
}

// Build returns the payload and its bytes, serialised once: these exact
// bytes are shown in the approval request, signed and sent.
func Build(in BuildInput) (Payload, []byte, error) {
	o, c := in.Opportunity, in.Opportunity.Content
	id, version := o.ID, in.Version
	now := in.Now.UTC().Format(time.RFC3339)
	published := now
	if pub := o.Publish; pub != nil && !pub.FirstPublishedAt.IsZero() {
		published = pub.FirstPublishedAt.UTC().Format(time.RFC3339)
	}
	p := Payload{SchemaVersion: SchemaVersion, ContentID: &id, ContentVersion: &version, Title: c.Title, Slug: c.Slug,
		BodyHTML: c.BodyHTML, SchemaJSONLd: c.SchemaJSONLD, PublishDate: &published, UpdatedDate: &now,
		TargetEntities: nonNil(c.TargetEntities), Headings: nonNil(c.Headings)}
	if c.MetaDescription != "" {
		md := c.MetaDescription
		p.MetaDescription = &md
	}
	if in.Destination.Type == destinations.TypeOwnSite {
		ct := in.Destination.SiteContentType
		p.ContentType = &ct
	}
	// A blank author given means the default, as an absent one does.
	author := strings.TrimSpace(in.Destination.DefaultAuthor)
	if in.Author != nil && strings.TrimSpace(*in.Author) != "" {
		author = strings.TrimSpace(*in.Author)
	}
	if author = capRunes(author, MaxAuthor); author != "" {
		p.Author = &author
	}
	b, err := json.Marshal(p)
	return p, b, err
}

func capRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
