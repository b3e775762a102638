package providers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"

	"github.com/brandlens/brandlens/shared/platforms"
)

// Replay holds recorded answers read from a file of the form
//
//	{"answers":[{"platform":"chatgpt","query":"best crm",
//	  "text":"...","citations":[{"url":"https://…","title":"…"}],
//	  "organicResults":[{"url":"https://…","title":"…"}],"aiOverview":true}]}
//
// Answers match on platform and on the query with case folded and
// whitespace collapsed. For google_ai_overview, "aiOverview" says whether an
// Overview was shown (omitted: shown when "text" is not empty). Several answers for the same platform and query are
// served in turn: sample n gets answer n modulo their count. A query with
// no answer fails with KindNoAnswer, which is how partial runs are staged.
type Replay struct {
	source  string
	answers map[string][]replayAnswer
}

type replayFile struct {
	Answers *[]replayAnswer `json:"answers"`
}

type replayLink struct {
	URL   string `json:"url"`
	Title string `json:"title"`
}

type replayAnswer struct {
	Platform       string       `json:"platform"`
	Query          string       `json:"query"`
	Text           string       `json:"text"`
	Citations      []replayLink `json:"citations"`
	OrganicResults []replayLink `json:"organicResults"`
	AIOverview     *bool        `json:"aiOverview"`
}

// LoadReplay reads and checks a replay file.
func LoadReplay(path string) (*Replay, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("replay file: %w", err)
	}
	r, err := ParseReplay(data)
	if err != nil {
		return nil, fmt.Errorf("replay file %s: %w", path, err)
	}
	r.source = path
	return r, nil
}

// ParseReplay parses replay data strictly: unknown members, unknown
// platforms, missing queries or texts, bad URLs and trailing data are
// errors naming the offending answer.
func ParseReplay(data []byte) (*Replay, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f replayFile
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("invalid JSON: data after the top-level object")
	}
	if f.Answers == nil {
		return nil, errors.New(`missing "answers" array`)
	}
	r := &Replay{source: "replay data", answers: map[string][]replayAnswer{}}
	for i, a := range *f.Answers {
		if err := a.check(); err != nil {
			return nil, fmt.Errorf("answers[%d]: %w", i, err)
		}
		k := replayKey(a.Platform, a.Query)
		r.answers[k] = append(r.answers[k], a)
	}
	return r, nil
}

func (a replayAnswer) check() error {
	if !platforms.Valid(a.Platform) {
		return fmt.Errorf("platform %q is not one of %s", a.Platform, strings.Join(platforms.All, ", "))
	}
	if strings.TrimSpace(a.Query) == "" {
		return errors.New(`"query" is required`)
	}
	overview := a.Platform == platforms.GoogleAIOverview
	// The documented members at their zero values (false, []) say nothing
	// that is untrue of another platform, so they are accepted everywhere;
	// only a value that cannot apply is refused.
	if !overview && a.AIOverview != nil && *a.AIOverview {
		return fmt.Errorf(`the %s answer to %q has "aiOverview": true, which applies only to %s (false or omitted elsewhere)`, a.Platform, a.Query, platforms.GoogleAIOverview)
	}
	if !overview && len(a.OrganicResults) > 0 {
		return fmt.Errorf(`the %s answer to %q has "organicResults", which apply only to %s (empty or omitted elsewhere)`, a.Platform, a.Query, platforms.GoogleAIOverview)
	}
	// An omitted aiOverview means "shown" exactly when there is text.
	shown := !overview || (a.AIOverview == nil && a.Text != "") || (a.AIOverview != nil && *a.AIOverview)
	switch {
	case shown && strings.TrimSpace(a.Text) == "":
		return errors.New(`"text" is required`)
	case !shown && (a.Text != "" || len(a.Citations) > 0):
		return errors.New(`"text" and "citations" must be empty when "aiOverview" is false`)
	}
	for j, c := range a.Citations {
		if err := checkURL(c.URL); err != nil {
			return fmt.Errorf("citations[%d]: %w", j, err)
		}
	}
	for j, o := range a.OrganicResults {
		if err := checkURL(o.URL); err != nil {
			return fmt.Errorf("organicResults[%d]: %w", j, err)
		}
	}
	return nil
}

func checkURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("url %q is not an absolute http(s) URL", s)
	}
	return nil
}

func replayKey(platform, query string) string { return platform + "\x00" + normQuery(query) }

// Provider returns the replay provider for one platform.
func (r *Replay) Provider(platform string) Provider { return &replayProvider{r: r, platform: platform} }

type replayProvider struct {
	r        *Replay
	platform string
}

func (p *replayProvider) Platform() string { return p.platform }

func (p *replayProvider) Answer(ctx context.Context, req Request) (Answer, error) {
	if err := ctx.Err(); err != nil {
		return Answer{}, &Error{Platform: p.platform, Kind: KindTransient, Code: "cancelled", Message: "call cancelled"}
	}
	list := p.r.answers[replayKey(p.platform, req.Query)]
	if len(list) == 0 {
		return Answer{}, &Error{Platform: p.platform, Kind: KindNoAnswer, Code: "no_replay_answer",
			Message: fmt.Sprintf("%s has no answer for platform %q and query %q", p.r.source, p.platform, req.Query)}
	}
	i := req.Sample % len(list)
	if i < 0 {
		i += len(list)
	}
	a := list[i]
	ans := Answer{Platform: p.platform, Text: a.Text, Model: "replay"}
	for _, c := range a.Citations {
		ans.Citations = append(ans.Citations, Citation{URL: c.URL, Title: c.Title, Start: -1, End: -1})
		ans.Sources = AppendUnique(ans.Sources, c.URL)
	}
	if p.platform == platforms.GoogleAIOverview {
		ans.AIOverviewState = OverviewAbsent
		if a.Text != "" {
			ans.AIOverviewState = OverviewPresent
		}
		for j, o := range a.OrganicResults {
			ans.OrganicResults = append(ans.OrganicResults, OrganicResult{Position: j + 1, URL: o.URL, Title: o.Title})
		}
	}
	return ans, nil
}
