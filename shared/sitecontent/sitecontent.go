// Package sitecontent is the service's own site: the receiver of the
// PublishPayloads that own_site destinations send (upsert by type and
// Slug, stale ContentVersions ignored), the pages it serves as full HTML
// documents, and their sitemap.
//
// A page belongs to the piece (ContentId) that first took its slug: a
// payload of another piece with the same type and Slug is refused, so that
// one tenant cannot overwrite another's page. The invariants hold by
// conditional writes: a page is created only where none exists, and
// replaced only when the stored document is still the one the decision
// was made on.
package sitecontent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/brandlens/brandlens/shared/content"
	"github.com/brandlens/brandlens/shared/publish"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/validation"
)

// Types are the sections of the site (the receiver's {type}).
var Types = []string{"news", "research", "knowledge"}

// Limits of a received payload. A page is one table item, which DynamoDB
// caps at 400 KB, so the body is bounded well below it.
const (
	MaxTitle           = 300
	MaxSlug            = 200
	MaxBodyHTML        = 256 << 10
	MaxSchemaJSONLd    = 64 << 10
	MaxMetaDescription = 1000
	MaxAuthor          = publish.MaxAuthor // receivers cap it (spec: about 200)
	MaxURL             = 2048
	MaxList            = 100
	MaxListItem        = 300
	// MaxSitemap is the sitemap protocol's limit of URLs in one file.
	MaxSitemap = 50_000
)

var slugPattern = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

// Outcomes of a received payload.
const (
	Created = "created"
	Updated = "updated"
	// Stale: the payload's ContentVersion is older than the stored page's;
	// nothing changed (the newer page stays).
	Stale = "stale"
)

// ErrNotFound: no page of that type and slug.
var ErrNotFound = errors.New("sitecontent: no such page")

// SlugTakenError: the slug is another piece's page.
type SlugTakenError struct{ Type, Slug string }

func (e *SlugTakenError) Error() string {
	return fmt.Sprintf("sitecontent: /site/%s/%s belongs to another piece (ContentId)", e.Type, e.Slug)
}

// Page is a stored page.
type Page struct {
	Type             string    `json:"type"`
	Slug             string    `json:"slug"`
	ContentID        string    `json:"contentId,omitempty"`
	ContentVersion   string    `json:"contentVersion,omitempty"`
	SchemaVersion    string    `json:"schemaVersion"`
	Title            string    `json:"title"`
	BodyHTML         string    `json:"bodyHtml"`
	SchemaJSONLd     string    `json:"schemaJsonLd,omitempty"`
	MetaDescription  string    `json:"metaDescription,omitempty"`
	CanonicalURL     string    `json:"canonicalUrl,omitempty"`
	FeaturedImageURL string    `json:"featuredImageUrl,omitempty"`
	Author           string    `json:"author,omitempty"`
	PublishDate      time.Time `json:"publishDate"`
	UpdatedDate      time.Time `json:"updatedDate"`
	TargetEntities   []string  `json:"targetEntities,omitempty"`
	Headings         []string  `json:"headings,omitempty"`
	CreatedAt        time.Time `json:"createdAt"`
	UpdatedAt        time.Time `json:"updatedAt"`
}

// Path is the page's path on the site.
func (p Page) Path() string { return PagePath(p.Type, p.Slug) }

// PagePath is the path of a page: /site/<type>/<slug>.
func PagePath(typ, slug string) string { return "/site/" + typ + "/" + slug }

const (
	sitePK    = "SITE"
	sitemapPK = "SITEMAP"
)

func pageKey(typ, slug string) store.Key {
	return store.Key{PK: sitePK, SK: "PAGE#" + typ + "#" + slug}
}

// sitemapKey is a page's small entry in the sitemap partition (its path
// and last change), so that the sitemap reads no page bodies.
func sitemapKey(typ, slug string) store.Key { return store.Key{PK: sitemapPK, SK: typ + "#" + slug} }

func docs(tbl store.Table) store.Collection[Page] {
	return store.Collection[Page]{Table: tbl, Name: "sitecontent: page", NotFound: ErrNotFound,
		Key: func(p Page) store.Key { return pageKey(p.Type, p.Slug) }}
}

// Service receives and serves the pages.
type Service struct {
	tbl store.Table
	now func() time.Time
}

// NewService returns the service over tbl.
func NewService(tbl store.Table, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{tbl: tbl, now: now}
}

// Result is what a received payload did.
type Result struct {
	Page    Page
	Outcome string // Created, Updated or Stale
}

// Receive validates the payload for the section typ and upserts its page
// by Slug: created, replaced by a ContentVersion not older than the stored
// one, or left as it is (Stale) for an older one. A payload of another
// piece for a taken slug is a *SlugTakenError.
func (s *Service) Receive(ctx context.Context, typ string, p publish.Payload) (Result, error) {
	page, err := pageOf(typ, p)
	if err != nil {
		return Result{}, err
	}
	now := s.now().UTC()
	if page.UpdatedDate.IsZero() {
		page.UpdatedDate = now
	}
	c := docs(s.tbl)
	for {
		snap, err := c.Read(ctx, pageKey(typ, page.Slug))
		switch {
		case errors.Is(err, ErrNotFound):
			page.CreatedAt, page.UpdatedAt = now, now
			if page.PublishDate.IsZero() {
				page.PublishDate = now
			}
			err = s.write(ctx, page, store.NotExists(), store.Snapshot[Page]{}, false)
			if errors.Is(err, store.ErrConditionFailed) {
				continue // created concurrently: decide again against it
			}
			return Result{Page: page, Outcome: Created}, err
		case err != nil:
			return Result{}, err
		}
		old := snap.Value
		if old.ContentID != page.ContentID {
			return Result{}, &SlugTakenError{Type: typ, Slug: page.Slug}
		}
		if Older(page.ContentVersion, old.ContentVersion) {
			return Result{Page: old, Outcome: Stale}, nil
		}
		page.CreatedAt, page.UpdatedAt = old.CreatedAt, now
		if page.PublishDate.IsZero() {
			page.PublishDate = old.PublishDate
		}
		err = s.write(ctx, page, store.Cond{}, snap, true)
		if errors.Is(err, store.ErrConditionFailed) {
			continue // changed meanwhile (a newer version?): decide again
		}
		return Result{Page: page, Outcome: Updated}, err
	}
}

// write puts the page (created on cond, or replacing snap) and its sitemap
// entry in one transaction.
func (s *Service) write(ctx context.Context, p Page, cond store.Cond, snap store.Snapshot[Page], replace bool) error {
	c := docs(nil)
	op, err := c.PutOp(p, cond)
	if replace {
		op, err = c.ReplaceOp(snap, p)
	}
	if err != nil {
		return err
	}
	mk := sitemapKey(p.Type, p.Slug)
	entry := store.PutOp(store.Item{store.AttrPK: mk.PK, store.AttrSK: mk.SK, "path": p.Path(),
		"lastmod": p.UpdatedDate.UTC().Format(time.RFC3339)}, store.Cond{})
	if err := s.tbl.TransactWrite(ctx, op, entry); err != nil {
		return fmt.Errorf("sitecontent: write page: %w", err)
	}
	return nil
}

// Get returns the page of typ and slug.
func (s *Service) Get(ctx context.Context, typ, slug string) (Page, error) {
	if !validType(typ) || !slugPattern.MatchString(slug) || len(slug) > MaxSlug {
		return Page{}, ErrNotFound
	}
	return docs(s.tbl).Get(ctx, pageKey(typ, slug))
}

// Entry is one URL of the sitemap.
type Entry struct {
	Path    string
	LastMod string
}

// Sitemap lists the pages (at most MaxSitemap), by type and slug.
func (s *Service) Sitemap(ctx context.Context) ([]Entry, error) {
	var out []Entry
	q := store.Query{PK: sitemapPK}
	for len(out) < MaxSitemap {
		page, err := s.tbl.Query(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("sitecontent: sitemap: %w", err)
		}
		for _, it := range page.Items {
			out = append(out, Entry{Path: it.String("path"), LastMod: it.String("lastmod")})
		}
		if page.Cursor == "" {
			break
		}
		q.Cursor = page.Cursor
	}
	if len(out) > MaxSitemap {
		out = out[:MaxSitemap]
	}
	return out, nil
}

func validType(t string) bool { return slices.Contains(Types, t) }

// Older reports whether version a is older than b. Versions compare as
// numbers when both are decimal integers, else as text (ULIDs and ISO
// timestamps sort in time order as text). An absent version is never
// older, and nothing is older than an absent one.
func Older(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	x, okx := new(big.Int).SetString(a, 10)
	y, oky := new(big.Int).SetString(b, 10)
	if okx && oky {
		return x.Cmp(y) < 0
	}
	return a < b
}

// pageOf validates the payload for the section typ and returns its page
// (body sanitized, author capped, JSON-LD compacted).
func pageOf(typ string, p publish.Payload) (Page, error) {
	var ve validation.Error
	if !validType(typ) {
		ve.Add("type", "%s", validation.OneOf(typ, Types))
	}
	text := func(field, v string, max int, required bool) string {
		v = strings.TrimSpace(v)
		switch {
		case v == "" && required:
			ve.Add(field, "is required")
		case utf8.RuneCountInString(v) > max:
			ve.Add(field, "must be at most %d characters", max)
		case strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 && r != '\n' && r != '\t' }):
			ve.Add(field, "must not contain control characters")
		}
		return v
	}
	if _, err := publish.Major(p.SchemaVersion); err != nil {
		return Page{}, err
	}
	pg := Page{Type: typ, SchemaVersion: p.SchemaVersion}
	pg.Title = text("Title", p.Title, MaxTitle, true)
	pg.Slug = p.Slug
	if pg.Slug == "" {
		ve.Add("Slug", "is required")
	} else if len(pg.Slug) > MaxSlug || !slugPattern.MatchString(pg.Slug) {
		ve.Add("Slug", "must be already slugified: lowercase letters and digits in groups joined by single hyphens, at most %d characters", MaxSlug)
	}
	if strings.TrimSpace(p.BodyHTML) == "" {
		ve.Add("BodyHtml", "is required")
	} else if len(p.BodyHTML) > MaxBodyHTML {
		ve.Add("BodyHtml", "must be at most %d bytes", MaxBodyHTML)
	} else {
		pg.BodyHTML = content.Sanitize(p.BodyHTML)
	}
	pg.ContentID = text("ContentId", deref(p.ContentID), 200, false)
	pg.ContentVersion = text("ContentVersion", deref(p.ContentVersion), 200, false)
	if ct := deref(p.ContentType); ct != "" && ct != typ {
		ve.Add("ContentType", "is %q, but the payload was sent to the %s section", ct, typ)
	}
	if ld := strings.TrimSpace(p.SchemaJSONLd); ld != "" {
		var buf bytes.Buffer
		switch {
		case len(ld) > MaxSchemaJSONLd:
			ve.Add("SchemaJsonLd", "must be at most %d bytes", MaxSchemaJSONLd)
		case (ld[0] != '{' && ld[0] != '[') || json.Compact(&buf, []byte(ld)) != nil:
			ve.Add("SchemaJsonLd", "must be a JSON object or array, encoded as a string")
		default:
			pg.SchemaJSONLd = buf.String()
		}
	}
	pg.MetaDescription = text("MetaDescription", deref(p.MetaDescription), MaxMetaDescription, false)
	pg.CanonicalURL = absURL("CanonicalUrl", deref(p.CanonicalURL), &ve)
	pg.FeaturedImageURL = absURL("FeaturedImageUrl", deref(p.FeaturedImageURL), &ve)
	if a := strings.TrimSpace(deref(p.Author)); a != "" {
		if utf8.RuneCountInString(a) > MaxAuthor {
			a = string([]rune(a)[:MaxAuthor]) // receivers cap, they do not refuse (spec)
		}
		pg.Author = text("Author", a, MaxAuthor, false)
	}
	pg.PublishDate = date("PublishDate", p.PublishDate, &ve)
	pg.UpdatedDate = date("UpdatedDate", p.UpdatedDate, &ve)
	pg.TargetEntities = list("TargetEntities", p.TargetEntities, &ve)
	pg.Headings = list("Headings", p.Headings, &ve)
	if err := ve.Err(); err != nil {
		return Page{}, err
	}
	return pg, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func absURL(field, v string, ve *validation.Error) string {
	v = strings.TrimSpace(v)
	if v == "" {
		return ""
	}
	u, err := url.Parse(v)
	if err != nil || len(v) > MaxURL || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		ve.Add(field, "must be an absolute http(s) URL of at most %d characters", MaxURL)
		return ""
	}
	return u.String()
}

func date(field string, v *string, ve *validation.Error) time.Time {
	if v == nil || *v == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, *v)
	if err != nil {
		ve.Add(field, "must be an ISO 8601 date-time such as 2026-11-01T00:00:00Z")
		return time.Time{}
	}
	return t.UTC()
}

func list(field string, vs []string, ve *validation.Error) []string {
	if len(vs) > MaxList {
		ve.Add(field, "must hold at most %d items", MaxList)
		return nil
	}
	var out []string
	for _, v := range vs {
		v = strings.TrimSpace(v)
		if utf8.RuneCountInString(v) > MaxListItem {
			ve.Add(field, "items must be at most %d characters", MaxListItem)
			return nil
		}
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}
