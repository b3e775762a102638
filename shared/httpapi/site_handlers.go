package httpapi

import (
	"errors"
	"net/http"
	"strings"

	"github.com/awslabs/aws-lambda-go-api-proxy/core"

	"github.com/brandlens/brandlens/shared/sitecontent"
)

// The service's own site: the signed receiver of own_site publishes and
// the pages it serves.

// siteContentIn is the input of POST /api/site-content/webhooks/{type}.
// The signature was verified over the raw body by the route's guard before
// the body was parsed (PublishPayload parses itself, case-insensitively).
type siteContentIn struct {
	Type string         `path:"type" enum:"siteContentTypes"`
	Body PublishPayload `body:"json"`
}

// SiteContentReceived answers the receiver: the page's URL (also in
// Location), and what the payload did.
type SiteContentReceived struct {
	URL    string `json:"url" doc:"the page's URL; the same for every publish of the same type and Slug"`
	Status string `json:"status" doc:"created (201), updated (200), or stale (200: the payload's ContentVersion is older than the page's, which stays as it was)"`
}

// chosenStatus is an answer that picks its status among the route's
// Status and MoreStatuses, and names the resource in Location.
type chosenStatus interface {
	httpStatus(route int) int
	location() string
}

func (a SiteContentReceived) httpStatus(route int) int {
	if a.Status == sitecontent.Created {
		return http.StatusCreated
	}
	return route
}

func (a SiteContentReceived) location() string { return a.URL }

func (s *Server) postSiteContent(rq *Request, in siteContentIn) (SiteContentReceived, error) {
	if s.SiteContent == nil {
		return SiteContentReceived{}, errors.New("httpapi: the site-content receiver has no page store")
	}
	res, err := s.SiteContent.Receive(rq.HTTP.Context(), in.Type, in.Body)
	var taken *sitecontent.SlugTakenError
	if errors.As(err, &taken) {
		return SiteContentReceived{}, &Error{Code: CodeSlugTaken, Message: "the page " + sitecontent.PagePath(taken.Type, taken.Slug) +
			" belongs to another piece: publish this one with another Slug", Details: map[string]any{"type": taken.Type, "slug": taken.Slug}}
	}
	if err != nil {
		return SiteContentReceived{}, err
	}
	s.Logger.Info("site content received", "request_id", rq.RequestID, "path", res.Page.Path(), "outcome", res.Outcome,
		"content_id", res.Page.ContentID, "content_version", res.Page.ContentVersion)
	return SiteContentReceived{URL: s.siteBase(rq) + res.Page.Path(), Status: res.Outcome}, nil
}

// siteBase is the site's base URL: the configured one, else the host API
// Gateway answered on (its domain name, never a client's Host header),
// else — outside Lambda, in tests — the request's host.
func (s *Server) siteBase(rq *Request) string {
	if s.SiteBaseURL != "" {
		return strings.TrimRight(s.SiteBaseURL, "/")
	}
	if gw, ok := core.GetAPIGatewayV2ContextFromContext(rq.HTTP.Context()); ok && gw.DomainName != "" {
		return "https://" + gw.DomainName
	}
	scheme := "http"
	if rq.HTTP.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + rq.HTTP.Host
}

// sitePageIn is the input of GET /site/{type}/{slug}.
type sitePageIn struct {
	Type string `path:"type" enum:"siteContentTypes"`
	Slug string `path:"slug" maxLength:"200"`
}

// Document is an answer that is not JSON: a page or a sitemap, written
// with its media type as it is.
type Document struct {
	MediaType string
	Body      []byte
}

// HTMLDocument is a page of the site.
type HTMLDocument struct{ Document }

// XMLDocument is the site's sitemap.
type XMLDocument struct{ Document }

// document is what the router writes as it is.
type document interface{ doc() Document }

func (d Document) doc() Document { return d }

// documentMedia are the media types of the document answers (OpenAPI).
var documentMedia = map[string]string{"HTMLDocument": "text/html", "XMLDocument": "application/xml"}

func (s *Server) getSitePage(rq *Request, in sitePageIn) (HTMLDocument, error) {
	if s.SiteContent == nil {
		return HTMLDocument{}, errors.New("httpapi: the site has no page store")
	}
	p, err := s.SiteContent.Get(rq.HTTP.Context(), in.Type, in.Slug)
	if errors.Is(err, sitecontent.ErrNotFound) {
		return HTMLDocument{}, notFound("page")
	}
	if err != nil {
		return HTMLDocument{}, err
	}
	return HTMLDocument{Document{MediaType: "text/html; charset=utf-8", Body: sitecontent.Render(p, s.siteBase(rq))}}, nil
}

func (s *Server) getSitemap(rq *Request, _ NoInput) (XMLDocument, error) {
	if s.SiteContent == nil {
		return XMLDocument{}, errors.New("httpapi: the site has no page store")
	}
	entries, err := s.SiteContent.Sitemap(rq.HTTP.Context())
	if err != nil {
		return XMLDocument{}, err
	}
	return XMLDocument{Document{MediaType: "application/xml; charset=utf-8", Body: sitecontent.RenderSitemap(entries, s.siteBase(rq))}}, nil
}
