package live

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"google.golang.org/genai"

	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/ssrf"
)

// Defaults of the gemini adapter.
const (
	DefaultGeminiModel   = "gemini-3.5-flash"
	DefaultGeminiBaseURL = "https://generativelanguage.googleapis.com/"
	geminiKeyEnv         = "GEMINI_API_KEY"
)

// Gemini asks the Gemini API (generateContent) with Google Search grounding.
type Gemini struct {
	cfg       Config
	model     string
	client    *genai.Client
	initErr   *providers.Error
	prices    *PriceBook
	redirects *RedirectResolver
}

// NewGemini builds the gemini adapter. A configuration the SDK refuses
// makes every call fail with KindInvalid (its own message would print the
// whole config, key included).
func NewGemini(cfg Config) *Gemini {
	p := &Gemini{cfg: cfg, model: cfg.model(DefaultGeminiModel), prices: cfg.prices(), redirects: cfg.GroundingRedirects}
	if p.redirects == nil {
		p.redirects = NewRedirectResolver(ssrf.Guard{}, "")
	}
	one := int32(1) // one attempt: the workflow owns retries
	c, err := genai.NewClient(context.Background(), &genai.ClientConfig{
		APIKey:     cfg.APIKey,
		Backend:    genai.BackendGeminiAPI,
		HTTPClient: cfg.tracedClient(platforms.Gemini),
		HTTPOptions: genai.HTTPOptions{
			BaseURL:      cfg.baseURL(DefaultGeminiBaseURL),
			RetryOptions: &genai.HTTPRetryOptions{Attempts: &one},
		},
	})
	if err != nil {
		p.initErr = &providers.Error{Platform: platforms.Gemini, Kind: providers.KindInvalid, Message: "the Gemini client cannot be configured (check " + geminiKeyEnv + " and GEMINI_BASE_URL)"}
		if cfg.APIKey == "" {
			p.initErr.Kind, p.initErr.Message = providers.KindAuth, geminiKeyEnv+" is not set"
		}
		return p
	}
	p.client = c
	return p
}

// Platform implements Provider.
func (p *Gemini) Platform() string { return platforms.Gemini }

// Answer implements Provider.
func (p *Gemini) Answer(ctx context.Context, req providers.Request) (providers.Answer, error) {
	if p.initErr != nil {
		return providers.Answer{}, p.initErr
	}
	cl := p.cfg.begin(ctx, platforms.Gemini)
	defer cl.cancel()
	resp, err := p.client.Models.GenerateContent(cl.ctx, p.model, genai.Text(req.Query), &genai.GenerateContentConfig{
		Tools: []*genai.Tool{{GoogleSearch: &genai.GoogleSearch{}}},
	})
	if err != nil {
		return providers.Answer{}, p.classify(cl, err)
	}
	ans, g, ferr := parseGemini(resp)
	if ferr != nil {
		return providers.Answer{}, ferr
	}
	p.resolveCitations(cl.ctx, &ans, g.domains)
	u := Usage{Platform: platforms.Gemini, Model: ans.Model, Requested: p.model,
		InputTokens: ans.InputTokens, OutputTokens: ans.OutputTokens, Searches: g.queries}
	if g.grounded {
		u.GroundedPrompts = 1
	}
	p.prices.Apply(&ans, u)
	ans.Latency = cl.elapsed()
	return ans, nil
}

// Detail types of google.rpc errors.
const (
	rpcRetryInfo    = "type.googleapis.com/google.rpc.RetryInfo"
	rpcQuotaFailure = "type.googleapis.com/google.rpc.QuotaFailure"
	rpcErrorInfo    = "type.googleapis.com/google.rpc.ErrorInfo"
)

func (p *Gemini) classify(cl *call, err error) error {
	var ae genai.APIError
	if !errors.As(err, &ae) {
		var pae *genai.APIError
		if !errors.As(err, &pae) {
			return cl.transportError(err)
		}
		ae = *pae
	}
	status := cl.trace.status
	if status < 400 {
		status = ae.Code
	}
	if status < 400 {
		return cl.transportError(err)
	}
	d := parseRPCDetails(ae.Details)
	code := ae.Status
	if code == "" {
		code = http.StatusText(status)
	}
	e := statusError(platforms.Gemini, status, cl.trace.header, safeText(code, p.cfg.APIKey), safeText(ae.Message, p.cfg.APIKey))
	switch {
	case d.reason == "API_KEY_INVALID" || e.Kind == providers.KindAuth:
		// Gemini answers a bad key with 400 INVALID_ARGUMENT + ErrorInfo.
		e.Kind, e.Message = providers.KindAuth, authMessage(geminiKeyEnv)
	case ae.Status == "FAILED_PRECONDITION" && status == http.StatusBadRequest:
		// "Free tier not available in your country; enable billing."
		e.Kind = providers.KindQuota
	case status == http.StatusTooManyRequests && (d.perDay || (d.quotaFailure && d.retryDelay == 0 && e.RetryAfter == 0)):
		// A daily quota, or a quota violation with no hint of when it
		// clears, is not solved by waiting a few seconds.
		e.Kind, e.RetryAfter = providers.KindQuota, 0
	case e.Kind == providers.KindTransient && e.RetryAfter == 0:
		e.RetryAfter = d.retryDelay
	}
	return e
}

type rpcDetails struct {
	retryDelay   time.Duration
	quotaFailure bool
	perDay       bool
	reason       string
}

// parseRPCDetails reads the google.rpc detail messages Gemini attaches to
// errors: RetryInfo (retryDelay "41s"), QuotaFailure, ErrorInfo.
func parseRPCDetails(details []map[string]any) rpcDetails {
	var d rpcDetails
	for _, m := range details {
		switch m["@type"] {
		case rpcRetryInfo:
			if s, ok := m["retryDelay"].(string); ok {
				if v, err := time.ParseDuration(s); err == nil && v > 0 {
					d.retryDelay = v
				}
			}
		case rpcQuotaFailure:
			d.quotaFailure = true
			if vs, ok := m["violations"].([]any); ok {
				for _, v := range vs {
					vm, _ := v.(map[string]any)
					id, _ := vm["quotaId"].(string)
					if strings.Contains(id, "PerDay") {
						d.perDay = true
					}
				}
			}
		case rpcErrorInfo:
			d.reason, _ = m["reason"].(string)
		}
	}
	return d
}

// grounding is what a Gemini answer's search grounding costs: the search
// queries it ran (Gemini 3 bills each) and whether it was grounded at all
// (Gemini 2.x bills the prompt).
type grounding struct {
	queries  int
	grounded bool
	// domains[i] is the cited site's domain of Citations[i], "" if unknown.
	domains []string
}

// parseGemini turns a generateContent result into an Answer. Segment
// offsets are bytes within one part; they become code points within the
// concatenated text. Citation URLs are the chunks' web.uri as sent (the
// adapter resolves redirect links afterwards); finishReason MAX_TOKENS
// marks the answer truncated.
func parseGemini(r *genai.GenerateContentResponse) (providers.Answer, grounding, error) {
	const pf = platforms.Gemini
	var g grounding
	if len(r.Candidates) == 0 || r.Candidates[0] == nil {
		msg := "no candidates"
		if r.PromptFeedback != nil && r.PromptFeedback.BlockReason != "" {
			msg = "prompt blocked: " + string(r.PromptFeedback.BlockReason)
		}
		return providers.Answer{}, g, failed(pf, "no_candidates", msg)
	}
	cand := r.Candidates[0]
	ans := providers.Answer{Platform: pf, Model: r.ModelVersion, Truncated: cand.FinishReason == genai.FinishReasonMaxTokens}
	if u := r.UsageMetadata; u != nil {
		ans.InputTokens = int(u.PromptTokenCount + u.ToolUsePromptTokenCount)
		ans.OutputTokens = int(u.CandidatesTokenCount + u.ThoughtsTokenCount)
	}
	var tb providers.TextBuilder
	type partPos struct {
		text string
		base int
		ok   bool
	}
	var parts []partPos
	if cand.Content != nil {
		for _, part := range cand.Content.Parts {
			if part == nil || part.Thought || part.Text == "" {
				parts = append(parts, partPos{})
				continue
			}
			base, _ := tb.Add(part.Text)
			parts = append(parts, partPos{text: part.Text, base: base, ok: true})
		}
	}
	ans.Text = tb.String()
	if strings.TrimSpace(ans.Text) == "" {
		reason := string(cand.FinishReason)
		if reason == "" {
			reason = "empty"
		}
		return providers.Answer{}, g, failed(pf, "empty_answer", fmt.Sprintf("the response has no text (finish reason %s)", reason))
	}
	gm := cand.GroundingMetadata
	if gm == nil {
		return ans, g, nil
	}
	g.queries = len(gm.WebSearchQueries)
	g.grounded = g.queries > 0 || len(gm.GroundingChunks) > 0
	type chunk struct{ uri, title, domain string }
	chunks := make([]chunk, len(gm.GroundingChunks))
	for i, c := range gm.GroundingChunks {
		if c != nil && c.Web != nil {
			chunks[i] = chunk{c.Web.URI, c.Web.Title, c.Web.Domain}
		}
	}
	cite := func(c chunk, start, end int) providers.Citation {
		g.domains = append(g.domains, chunkDomain(c.domain, c.title))
		return providers.Citation{URL: c.uri, Title: c.title, Start: start, End: end}
	}
	cited := make([]bool, len(chunks))
	for _, s := range gm.GroundingSupports {
		if s == nil {
			continue
		}
		start, end := -1, -1
		if s.Segment != nil {
			start, end = segmentSpan(s.Segment, func(i int32) (string, int, bool) {
				if i < 0 || int(i) >= len(parts) || !parts[i].ok {
					return "", 0, false
				}
				return parts[i].text, parts[i].base, true
			})
		}
		for _, ci := range s.GroundingChunkIndices {
			if ci < 0 || int(ci) >= len(chunks) || chunks[ci].uri == "" {
				continue
			}
			cited[ci] = true
			ans.Citations = append(ans.Citations, cite(chunks[ci], start, end))
		}
	}
	// Every grounding chunk is a source the answer rests on; one that no
	// support points at is still cited, without a span.
	for i, c := range chunks {
		if !cited[i] && c.uri != "" {
			ans.Citations = append(ans.Citations, cite(c, -1, -1))
		}
	}
	return ans, g, nil
}

// chunkDomain is the cited site's domain: web.domain where the API fills
// it (Vertex AI), else web.title when it is a host name (the Developer API
// puts the domain there).
func chunkDomain(domain, title string) string {
	if _, ok := domainURL(domain); ok {
		return domain
	}
	if _, ok := domainURL(title); ok {
		return title
	}
	return ""
}

// resolveCitations replaces grounding redirect links by the pages they
// point to: the Location of the redirect when it can be read safely, else
// https://<domain>/ of the chunk, the redirect link kept in RedirectURL
// either way. Sources list the same URLs.
func (p *Gemini) resolveCitations(ctx context.Context, ans *providers.Answer, domains []string) {
	uris := make([]string, 0, len(ans.Citations))
	for _, c := range ans.Citations {
		uris = append(uris, c.URL)
	}
	resolved := p.redirects.ResolveAll(ctx, uris)
	for i := range ans.Citations {
		c := &ans.Citations[i]
		if !p.redirects.IsRedirect(c.URL) {
			ans.Sources = providers.AppendUnique(ans.Sources, c.URL)
			continue
		}
		c.RedirectURL = c.URL
		if target, ok := resolved[c.URL]; ok {
			c.URL = target
		} else if i < len(domains) {
			if u, ok := domainURL(domains[i]); ok {
				c.URL = u
			}
		}
		ans.Sources = providers.AppendUnique(ans.Sources, c.URL)
	}
}

// segmentSpan converts a segment's byte offsets within its part into code
// points of the whole text. Offsets that disagree with the segment's own
// text yield to where that text is found in the part; offsets outside the
// part give -1/-1.
func segmentSpan(seg *genai.Segment, part func(int32) (string, int, bool)) (int, int) {
	text, base, ok := part(seg.PartIndex)
	if !ok {
		return -1, -1
	}
	s, ok1 := byteToRune(text, int(seg.StartIndex))
	e, ok2 := byteToRune(text, int(seg.EndIndex))
	fits := ok1 && ok2 && seg.StartIndex <= seg.EndIndex
	if fits && (seg.Text == "" || text[seg.StartIndex:seg.EndIndex] == seg.Text) {
		return base + s, base + e
	}
	if seg.Text != "" {
		if i := runeIndex(text, seg.Text); i >= 0 {
			return base + i, base + i + utf8.RuneCountInString(seg.Text)
		}
	}
	if fits {
		return base + s, base + e
	}
	return -1, -1
}
