package live

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"

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
		client: cfg.tracedClient(),
		url:    strings.TrimRight(cfg.baseURL(DefaultSerpAPIBaseURL), "/") + "/search.json",
	}
}

// Platform implements Provider.
func (p *GoogleAIOverview) Platform() string { return platforms.GoogleAIOverview }

type serpResponse struct {
	SearchMetadata struct {
		Status string `json:"status"`
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

type serpBlock struct {
	Type             string      `json:"type"`
	Title            string      `json:"title"`
	Snippet          string      `json:"snippet"`
	ReferenceIndexes []int       `json:"reference_indexes"`
	List             []serpBlock `json:"list"`
	TextBlocks       []serpBlock `json:"text_blocks"`
}

// Answer implements Provider.
func (p *GoogleAIOverview) Answer(ctx context.Context, req providers.Request) (providers.Answer, error) {
	cl := p.cfg.begin(ctx, platforms.GoogleAIOverview)
	defer cl.cancel()
	first, err := p.get(cl, url.Values{"engine": {"google"}, "q": {req.Query}, "hl": {"en"}, "gl": {"us"}})
	if err != nil {
		return providers.Answer{}, err
	}
	ans, token, err := parseSerp(first)
	if err != nil {
		return providers.Answer{}, err
	}
	requests := 1
	if token != "" {
		// The Overview is loaded separately; its token lives 4 minutes.
		second, err := p.get(cl, url.Values{"engine": {"google_ai_overview"}, "page_token": {token}})
		if err != nil {
			return providers.Answer{}, err
		}
		requests++
		deferred, _, err := parseSerp(second)
		if err != nil {
			return providers.Answer{}, err
		}
		if deferred.AIOverviewState != providers.OverviewPresent {
			return providers.Answer{}, failed(platforms.GoogleAIOverview, "deferred_overview_missing", "the deferred AI Overview could not be loaded")
		}
		ans.Text, ans.Citations, ans.Sources = deferred.Text, deferred.Citations, deferred.Sources
		ans.AIOverviewState = providers.OverviewDeferred
	}
	ans.CostUSD = float64(requests) * serpAPICostPerRequest
	ans.Latency = cl.elapsed()
	return ans, nil
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
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
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
	prevItem := false
	// emit renders one block; list items go on their own "- " lines,
	// indented by depth, paragraphs are separated by blank lines.
	var emit func(b serpBlock, depth int, inList bool)
	emit = func(b serpBlock, depth int, inList bool) {
		line := strings.TrimSpace(b.Snippet)
		if t := strings.TrimSpace(b.Title); t != "" {
			if line == "" {
				line = t
			} else if !strings.HasPrefix(line, t) {
				line = t + ": " + line
			}
		}
		if line != "" {
			if inList && prevItem {
				tb.Sep("\n")
			} else {
				tb.Sep("\n\n")
			}
			if inList {
				tb.Add(strings.Repeat("  ", depth) + "- ")
			}
			prevItem = inList
			s, e := tb.Add(line)
			for _, ri := range b.ReferenceIndexes {
				spans = append(spans, span{ri, s, e})
			}
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
