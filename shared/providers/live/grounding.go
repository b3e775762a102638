package live

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/expirable"
	"golang.org/x/net/idna"

	"github.com/brandlens/brandlens/shared/ssrf"
)

// DefaultGroundingRedirectPrefix is where the Gemini Developer API points
// every grounding chunk: web.uri is a redirect to the cited page, and
// web.title holds the page's domain.
const DefaultGroundingRedirectPrefix = "https://vertexaisearch.cloud.google.com/grounding-api-redirect/"

// Bounds of redirect resolution: one request per link, this long at most,
// this many at once per answer; resolved links are kept for a day (a link
// names one page for good) up to groundingCacheSize of them.
const (
	groundingResolveTimeout  = 5 * time.Second
	groundingConcurrency     = 4
	groundingCacheSize       = 4096
	groundingCacheTTL        = 24 * time.Hour
	groundingMaxHeaderBytes  = 16 << 10
	groundingMaxLocationSize = ssrf.MaxURLLength
)

// RedirectResolver finds the page a grounding redirect link points to with
// one GET through the SSRF guard: the redirect is not followed and the body
// is never read — only the Location of the 3xx answer is.
type RedirectResolver struct {
	prefix  string
	client  *http.Client
	timeout time.Duration
	cache   *expirable.LRU[string, string]
}

// NewRedirectResolver resolves links that start with prefix (empty:
// DefaultGroundingRedirectPrefix; tests point it at a loopback fake, which
// guard must then allow). The client never uses a proxy and never follows
// redirects (ssrf.Guard.NewClient).
func NewRedirectResolver(guard ssrf.Guard, prefix string) *RedirectResolver {
	if strings.TrimSpace(prefix) == "" {
		prefix = DefaultGroundingRedirectPrefix
	}
	tr := guard.Transport(nil)
	tr.MaxResponseHeaderBytes = groundingMaxHeaderBytes
	tr.ResponseHeaderTimeout = groundingResolveTimeout
	client := guard.NewClient(ssrf.ClientOptions{Timeout: groundingResolveTimeout})
	client.Transport = tr
	return &RedirectResolver{
		prefix:  strings.TrimSpace(prefix),
		client:  client,
		timeout: groundingResolveTimeout,
		cache:   expirable.NewLRU[string, string](groundingCacheSize, nil, groundingCacheTTL),
	}
}

// IsRedirect reports whether uri is a grounding redirect link.
func (r *RedirectResolver) IsRedirect(uri string) bool {
	return strings.HasPrefix(uri, r.prefix) && len(uri) > len(r.prefix)
}

// Resolve returns the page uri redirects to; false when uri is not a
// redirect link or the redirect cannot be read safely in time.
func (r *RedirectResolver) Resolve(ctx context.Context, uri string) (string, bool) {
	if !r.IsRedirect(uri) {
		return "", false
	}
	if u, ok := r.cache.Get(uri); ok {
		return u, true
	}
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, uri, nil)
	if err != nil {
		return "", false
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return "", false
	}
	// Closing unread discards the body; the connection is not reused, which
	// is the price of never reading what the far end sends.
	resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
	default:
		return "", false
	}
	loc := resp.Header.Get("Location")
	if loc == "" || len(loc) > groundingMaxLocationSize {
		return "", false
	}
	target, err := req.URL.Parse(loc)
	if err != nil || !recordableURL(target) || strings.EqualFold(target.Host, req.URL.Host) {
		// Another page of the redirect service (a relative Location, a
		// consent or error page) is not the cited page.
		return "", false
	}
	s := target.String()
	r.cache.Add(uri, s)
	return s, true
}

// ResolveAll resolves the distinct redirect links of uris, a few at a time,
// and returns what resolved.
func (r *RedirectResolver) ResolveAll(ctx context.Context, uris []string) map[string]string {
	out := map[string]string{}
	var (
		mu   sync.Mutex
		wg   sync.WaitGroup
		sem  = make(chan struct{}, groundingConcurrency)
		seen = map[string]bool{}
	)
	for _, u := range uris {
		if seen[u] || !r.IsRedirect(u) {
			continue
		}
		seen[u] = true
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			if target, ok := r.Resolve(ctx, u); ok {
				mu.Lock()
				out[u] = target
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return out
}

// recordableURL accepts what may be stored as a citation URL: absolute
// http(s) with a host and no user information.
func recordableURL(u *url.URL) bool {
	return u != nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.Hostname() != "" && u.User == nil && u.Opaque == ""
}

// domainURL turns a grounding chunk's domain (web.domain, or web.title,
// which the Gemini Developer API fills with the domain) into
// https://<domain>/; false when s is not a host name.
func domainURL(s string) (string, bool) {
	s = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(s)), ".")
	if s == "" || strings.ContainsAny(s, " /:@?#\\") || !strings.Contains(s, ".") {
		return "", false
	}
	ascii, err := idna.Lookup.ToASCII(s)
	if err != nil {
		return "", false
	}
	labels := strings.Split(ascii, ".")
	tld := labels[len(labels)-1]
	if len(tld) < 2 || strings.Trim(tld, "0123456789") == "" {
		return "", false // an IP address or a bare number is not a site domain
	}
	return "https://" + ascii + "/", true
}
