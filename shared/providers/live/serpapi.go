package live

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/providers"
)

// Defaults of the google_ai_overview adapter.
const (
	DefaultSerpAPIBaseURL = "https://serpapi.com"
	serpAPIKeyEnv         = "SERPAPI_API_KEY"
	serpAPIModel          = "serpapi/google"
	// serpNoResults is how SerpApi says Google found nothing: the query has
	// no AI Overview, which is an answer, not a failure.
	serpNoResults = "hasn't returned any results"
)

// GoogleAIOverview reads Google's AI Overview (and the organic results
// beside it) through SerpApi.
type GoogleAIOverview struct {
	cfg    Config
	client *http.Client
	url    string
}

// NewGoogleAIOverview builds the google_ai_overview adapter.
func NewGoogleAIOverview(cfg Config) *GoogleAIOverview {
	return &GoogleAIOverview{
		cfg:    cfg,
		client: cfg.tracedClient(platforms.GoogleAIOverview),
		url:    strings.TrimRight(cfg.baseURL(DefaultSerpAPIBaseURL), "/") + "/search.json",
	}
}

// Platform implements Provider.
func (p *GoogleAIOverview) Platform() string { return platforms.GoogleAIOverview }

type serpResponse struct {
	SearchMetadata struct {
		Status string `json:"status"`
		// CreatedAt is when SerpApi ran the search ("2026-11-20 10:15:04
		// UTC"); a search served from its cache (up to 1 h) keeps the
		// original time.
		CreatedAt string `json:"created_at"`
	} `json:"search_metadata"`
	Error          string        `json:"error"`
	AIOverview     *serpOverview `json:"ai_overview"`
	OrganicResults []struct {
		Position int    `json:"position"`
		Title    string `json:"title"`
		Link     string `json:"link"`
		Snippet  string `json:"snippet"`
	} `json:"organic_results"`
}

type serpOverview struct {
	TextBlocks []serpBlock `json:"text_blocks"`
	References []struct {
		Title   string `json:"title"`
		Link    string `json:"link"`
		Snippet string `json:"snippet"`
		Source  string `json:"source"`
		Index   *int   `json:"index"`
	} `json:"references"`
	PageToken string `json:"page_token"`
	Error     string `json:"error"`
}

// serpBlock is one of SerpApi's AI Overview text_blocks: paragraph and
// heading (snippet), list (list of blocks), expandable (title and nested
// text_blocks), table (rows of cells) and comparison (product_labels and
// comparison rows of feature and values). Unknown types still contribute
// their title and snippet.
type serpBlock struct {
	Type             string       `json:"type"`
	Title            string       `json:"title"`
	Snippet          string       `json:"snippet"`
	ReferenceIndexes []int        `json:"reference_indexes"`
	List             []serpBlock  `json:"list"`
	TextBlocks       []serpBlock  `json:"text_blocks"`
	Table            [][]serpCell `json:"table"`
	ProductLabels    []serpCell   `json:"product_labels"`
	Comparison       []struct {
		Feature serpCell   `json:"feature"`
		Values  []serpCell `json:"values"`
	} `json:"comparison"`
}

// serpCell is a table cell: a string, or a number or boolean rendered as
// text; anything else is empty.
type serpCell string

func (c *serpCell) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*c = serpCell(s)
		return nil
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	switch v.(type) {
	case float64, bool:
		*c = serpCell(strings.TrimSpace(string(b)))
	default:
		*c = ""
	}
	return nil
}

// serpTokenFresh is how old a search may be for its page_token to be used:
// the token expires 4 minutes after the search, and the follow-up request
// needs a few seconds of that.
const serpTokenFresh = 3 * time.Minute

// Answer implements Provider. The first search may be served from SerpApi's
// cache (free, up to an hour old); when its Overview must be fetched with a
// page_token and the search is older than the token's life, or the
// follow-up fails, the search is run once more with no_cache=true so that
// the token is fresh.
func (p *GoogleAIOverview) Answer(ctx context.Context, req providers.Request) (providers.Answer, error) {
	cl := p.cfg.begin(ctx, platforms.GoogleAIOverview)
	defer cl.cancel()
	search := url.Values{"engine": {"google"}, "q": {req.Query}, "hl": {"en"}, "gl": {"us"}}
	requests := 0
	run := func(noCache bool) (*serpResponse, providers.Answer, string, error) {
		q := url.Values{}
		for k, v := range search {
			q[k] = v
		}
		if noCache {
			q.Set("no_cache", "true")
		}
		requests++
		r, err := p.get(cl, q)
		if err != nil {
			return nil, providers.Answer{}, "", err
		}
		ans, token, err := parseSerp(r)
		return r, ans, token, err
	}
	first, ans, token, err := run(false)
	if err != nil {
		return providers.Answer{}, err
	}
	uncached := false
	if token != "" && serpStale(first, time.Now()) {
		if _, ans, token, err = run(true); err != nil {
			return providers.Answer{}, err
		}
		uncached = true
	}
	if token != "" {
		requests++
		deferred, ferr := p.followUp(cl, token)
		if ferr != nil && !uncached && tokenRefused(ferr) {
			// The token may have expired with a cached search whose age
			// SerpApi did not tell: search afresh once.
			if _, ans, token, err = run(true); err != nil {
				return providers.Answer{}, err
			}
			if token != "" {
				requests++
				deferred, ferr = p.followUp(cl, token)
			} else {
				deferred, ferr = ans, nil
			}
		}
		if ferr != nil {
			return providers.Answer{}, ferr
		}
		if token != "" {
			ans.Text, ans.Citations, ans.Sources = deferred.Text, deferred.Citations, deferred.Sources
			ans.AIOverviewState = providers.OverviewDeferred
		}
	}
	ans.CostUSD = float64(requests) * serpAPICostPerRequest
	ans.Latency = cl.elapsed()
	return ans, nil
}

// followUp fetches a deferred Overview with its page_token.
func (p *GoogleAIOverview) followUp(cl *call, token string) (providers.Answer, error) {
	r, err := p.get(cl, url.Values{"engine": {"google_ai_overview"}, "page_token": {token}})
	if err != nil {
		return providers.Answer{}, err
	}
	deferred, _, err := parseSerp(r)
	if err != nil {
		return providers.Answer{}, err
	}
	if deferred.AIOverviewState != providers.OverviewPresent {
		return providers.Answer{}, failed(platforms.GoogleAIOverview, "deferred_overview_missing", "the deferred AI Overview could not be loaded")
	}
	return deferred, nil
}

// serpStale reports whether r's search ran longer ago than a page_token
// lives; a missing or unreadable created_at is taken as fresh.
func serpStale(r *serpResponse, now time.Time) bool {
	t, err := time.Parse("2006-01-02 15:04:05 MST", strings.TrimSpace(r.SearchMetadata.CreatedAt))
	return err == nil && now.Sub(t) > serpTokenFresh
}

// tokenRefused reports whether a follow-up failure may be an expired
// page_token: SerpApi refused the request or answered with an error, as
// opposed to a rate limit, a key or quota problem, or a network failure.
func tokenRefused(err error) bool {
	var pe *providers.Error
	return errors.As(err, &pe) && (pe.Kind == providers.KindInvalid || pe.Kind == providers.KindFailedAnswer)
}

// get performs one SerpApi request and returns the decoded body.
func (p *GoogleAIOverview) get(cl *call, q url.Values) (*serpResponse, error) {
	const pf = platforms.GoogleAIOverview
	q.Set("api_key", p.cfg.APIKey)
	hreq, err := http.NewRequestWithContext(cl.ctx, http.MethodGet, p.url+"?"+q.Encode(), nil)
	if err != nil {
		return nil, &providers.Error{Platform: pf, Kind: providers.KindInvalid, Message: "bad base URL"}
	}
	hreq.Header.Set("Accept", "application/json")
	resp, err := p.client.Do(hreq)
	if err != nil {
		return nil, cl.transportError(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, cl.transportError(err)
	}
	var r serpResponse
	jerr := json.Unmarshal(raw, &r)
	if resp.StatusCode >= 300 {
		e := statusError(pf, resp.StatusCode, resp.Header, "", safeText(r.Error, p.cfg.APIKey))
		switch {
		case e.Kind == providers.KindAuth:
			e.Message = authMessage(serpAPIKeyEnv)
		case resp.StatusCode == http.StatusTooManyRequests && strings.Contains(strings.ToLower(r.Error), "run out of searches"):
			// 429 means both "slow down" and "plan used up".
			e.Kind, e.RetryAfter = providers.KindQuota, 0
		}
		return nil, e
	}
	if jerr != nil {
		return nil, &providers.Error{Platform: pf, Kind: providers.KindTransient, Status: resp.StatusCode, Code: "malformed_response",
			Message: "response body is not the expected JSON"}
	}
	return &r, nil
}

// parseSerp turns a decoded SerpApi body into an Answer, and returns the
// page_token when the Overview must be fetched by a second call.
func parseSerp(r *serpResponse) (providers.Answer, string, error) {
	const pf = platforms.GoogleAIOverview
	ans := providers.Answer{Platform: pf, Model: serpAPIModel}
	if r.Error != "" || strings.EqualFold(r.SearchMetadata.Status, "Error") {
		if strings.Contains(r.Error, serpNoResults) {
			ans.AIOverviewState = providers.OverviewAbsent
			return ans, "", nil
		}
		msg := safeText(r.Error, "")
		if msg == "" {
			msg = "search failed"
		}
		return providers.Answer{}, "", failed(pf, "search_error", msg)
	}
	for _, o := range r.OrganicResults {
		if o.Link == "" {
			continue
		}
		ans.OrganicResults = append(ans.OrganicResults, providers.OrganicResult{Position: o.Position, URL: o.Link, Title: o.Title, Snippet: o.Snippet})
	}
	ov := r.AIOverview
	switch {
	case ov == nil:
		ans.AIOverviewState = providers.OverviewAbsent
		return ans, "", nil
	case ov.Error != "":
		return providers.Answer{}, "", failed(pf, "overview_error", "AI Overview error: "+safeText(ov.Error, ""))
	case len(ov.TextBlocks) == 0 && ov.PageToken != "":
		ans.AIOverviewState = providers.OverviewDeferred
		return ans, ov.PageToken, nil
	case len(ov.TextBlocks) == 0:
		return providers.Answer{}, "", failed(pf, "empty_overview", "ai_overview has neither text_blocks nor page_token")
	}
	ans.AIOverviewState = providers.OverviewPresent
	var tb providers.TextBuilder
	type span struct{ ref, start, end int }
	var spans []span
	prevLine := false
	// line writes one line of the Overview: list items and table rows go on
	// consecutive lines ("- " items indented by depth), other blocks are
	// separated by blank lines.
	line := func(text, prefix string, tight bool) (int, int) {
		if tight && prevLine {
			tb.Sep("\n")
		} else {
			tb.Sep("\n\n")
		}
		if prefix != "" {
			tb.Add(prefix)
		}
		prevLine = tight
		return tb.Add(text)
	}
	cite := func(refs []int, s, e int) {
		for _, ri := range refs {
			spans = append(spans, span{ri, s, e})
		}
	}
	var emit func(b serpBlock, depth int, inList bool)
	emit = func(b serpBlock, depth int, inList bool) {
		text := strings.TrimSpace(b.Snippet)
		if t := strings.TrimSpace(b.Title); t != "" {
			if text == "" {
				text = t
			} else if !strings.HasPrefix(text, t) {
				text = t + ": " + text
			}
		}
		if text != "" {
			prefix := ""
			if inList {
				prefix = strings.Repeat("  ", depth) + "- "
			}
			s, e := line(text, prefix, inList)
			cite(b.ReferenceIndexes, s, e)
		}
		// Tables and comparisons: one line per row, the block's references
		// spanning all of them.
		rows := tableRows(b)
		first, last := -1, -1
		for i, r := range rows {
			s, e := line(r, "", i > 0)
			prevLine = true // rows sit on consecutive lines
			if first < 0 {
				first = s
			}
			last = e
		}
		if first >= 0 {
			if text == "" {
				cite(b.ReferenceIndexes, first, last)
			}
			prevLine = false
		}
		for _, it := range b.List {
			d := depth
			if inList {
				d++
			}
			emit(it, d, true)
		}
		for _, nb := range b.TextBlocks {
			emit(nb, depth, inList)
		}
	}
	for _, b := range ov.TextBlocks {
		emit(b, 0, false)
	}
	ans.Text = tb.String()
	if strings.TrimSpace(ans.Text) == "" {
		return providers.Answer{}, "", failed(pf, "empty_answer", "the AI Overview has no text")
	}
	cited := make([]bool, len(ov.References))
	refAt := func(idx int) int {
		for i, ref := range ov.References {
			if ref.Index != nil && *ref.Index == idx {
				return i
			}
		}
		if idx >= 0 && idx < len(ov.References) && ov.References[idx].Index == nil {
			return idx
		}
		return -1
	}
	for _, sp := range spans {
		i := refAt(sp.ref)
		if i < 0 || ov.References[i].Link == "" {
			continue
		}
		ref := ov.References[i]
		cited[i] = true
		ans.Citations = append(ans.Citations, providers.Citation{URL: ref.Link, Title: ref.Title, Snippet: ref.Snippet, Start: sp.start, End: sp.end})
	}
	for i, ref := range ov.References {
		ans.Sources = providers.AppendUnique(ans.Sources, ref.Link)
		if !cited[i] && ref.Link != "" {
			ans.Citations = append(ans.Citations, providers.Citation{URL: ref.Link, Title: ref.Title, Snippet: ref.Snippet, Start: -1, End: -1})
		}
	}
	return ans, "", nil
}

// tableRows renders a table block's rows, and a comparison block as a
// header of product labels and one row per feature, as "a | b | c" lines.
func tableRows(b serpBlock) []string {
	var rows []string
	add := func(cells []string) {
		var kept []string
		for _, c := range cells {
			if c = strings.TrimSpace(c); c != "" {
				kept = append(kept, c)
			}
		}
		if len(kept) > 0 {
			rows = append(rows, strings.Join(kept, " | "))
		}
	}
	texts := func(cs []serpCell) []string {
		out := make([]string, len(cs))
		for i, c := range cs {
			out[i] = string(c)
		}
		return out
	}
	for _, r := range b.Table {
		add(texts(r))
	}
	if len(b.Comparison) > 0 {
		add(texts(b.ProductLabels))
		for _, r := range b.Comparison {
			add(append([]string{string(r.Feature)}, texts(r.Values)...))
		}
	}
	return rows
}
