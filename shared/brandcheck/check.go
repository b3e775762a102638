package brandcheck

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/brandlens/brandlens/shared/detect"
	"github.com/brandlens/brandlens/shared/ids"
	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/recaptcha"
	"github.com/brandlens/brandlens/shared/store"
)

// Verifier checks a reCAPTCHA token: *recaptcha.Client in production,
// recaptcha.Bypass for brandlens serve without a secret.
type Verifier interface {
	Verify(ctx context.Context, token, remoteIP string) (recaptcha.Verdict, error)
}

// Auditor records the prompts a check sends, before they are sent.
type Auditor interface {
	AuditPrompts(ctx context.Context, a PromptAudit) error
}

// PromptAudit is one check's prompts.
type PromptAudit struct {
	RequestID  string
	ClientHash string
	At         time.Time
	Prompts    []Prompt
}

// Prompt is one question to one platform, verbatim.
type Prompt struct {
	Platform string
	Text     string
}

// Config tunes the service.
type Config struct {
	// Platforms asked, in this order (default: all five).
	Platforms []string
	// Budget bounds the platform calls of one check (default 20 s, which
	// leaves API Gateway's 29 s room for everything else).
	Budget time.Duration
	// ClientDailyLimit is the number of checks per client per UTC day (3).
	ClientDailyLimit int
	// DailyBudget is the number of checks per UTC day that may call the
	// platforms, across all clients (cached answers do not count).
	DailyBudget int
	// ClientKey keys the hash under which clients are counted (≥ 32 bytes).
	ClientKey []byte
	// Retention is how long checks are kept (default 90 days).
	Retention time.Duration
}

// Defaults of Config.
const (
	DefaultBudget           = 20 * time.Second
	MaxBudget               = 25 * time.Second
	DefaultClientDailyLimit = 3
	DefaultDailyBudget      = 1000
	DefaultRetention        = 90 * 24 * time.Hour
	// verifierRetryAfter is the Retry-After of a reCAPTCHA outage.
	verifierRetryAfter = 30
)

// Settings read by ConfigFromEnv.
const (
	EnvPlatforms    = "BRANDLENS_BRANDCHECK_PLATFORMS"
	EnvBudget       = "BRANDLENS_BRANDCHECK_TIMEOUT"
	EnvDailyBudget  = "BRANDLENS_BRANDCHECK_DAILY_BUDGET"
	EnvOriginSecret = "BRANDLENS_ORIGIN_SECRET"
)

// ConfigFromEnv reads the settings of the check; ClientKey is the
// caller's to fill (it derives from the deployment's key secret).
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	c := Config{Budget: DefaultBudget, ClientDailyLimit: DefaultClientDailyLimit, DailyBudget: DefaultDailyBudget,
		Retention: DefaultRetention}
	if v := strings.TrimSpace(getenv(EnvPlatforms)); v != "" {
		for _, p := range strings.Split(v, ",") {
			p = strings.TrimSpace(p)
			if !platforms.Valid(p) {
				return Config{}, fmt.Errorf("brandcheck: %s: %q is not a platform (want %s)", EnvPlatforms, p, strings.Join(platforms.All, ", "))
			}
			if !slices.Contains(c.Platforms, p) {
				c.Platforms = append(c.Platforms, p)
			}
		}
	}
	if v := strings.TrimSpace(getenv(EnvBudget)); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 || d > MaxBudget {
			return Config{}, fmt.Errorf("brandcheck: %s=%q: want a duration from 1s to %s", EnvBudget, v, MaxBudget)
		}
		c.Budget = d
	}
	if v := strings.TrimSpace(getenv(EnvDailyBudget)); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return Config{}, fmt.Errorf("brandcheck: %s=%q: want a whole number of checks", EnvDailyBudget, v)
		}
		c.DailyBudget = n
	}
	return c, nil
}

// Deps are the service's collaborators; all are required.
type Deps struct {
	Table     store.Table
	Providers providers.Set
	Verifier  Verifier
	Auditor   Auditor
	Logger    *slog.Logger
	Now       func() time.Time
}

// Service runs anonymous brand checks.
type Service struct {
	tbl      store.Table
	provs    providers.Set
	verifier Verifier
	audit    Auditor
	log      *slog.Logger
	now      func() time.Time
	cfg      Config
}

// New returns the service. Zero Config members take their defaults.
func New(d Deps, c Config) (*Service, error) {
	switch {
	case d.Table == nil:
		return nil, errors.New("brandcheck: a table is required")
	case d.Providers == nil:
		return nil, errors.New("brandcheck: providers are required")
	case d.Verifier == nil:
		return nil, errors.New("brandcheck: a reCAPTCHA verifier is required")
	case d.Auditor == nil:
		return nil, errors.New("brandcheck: an auditor is required")
	case d.Logger == nil:
		return nil, errors.New("brandcheck: a logger is required")
	case d.Now == nil:
		return nil, errors.New("brandcheck: a clock is required")
	case len(c.ClientKey) < 32:
		return nil, errors.New("brandcheck: the client key must be at least 32 bytes")
	}
	if len(c.Platforms) == 0 {
		c.Platforms = slices.Clone(platforms.All)
	}
	if c.Budget <= 0 {
		c.Budget = DefaultBudget
	}
	if c.ClientDailyLimit <= 0 {
		c.ClientDailyLimit = DefaultClientDailyLimit
	}
	if c.DailyBudget <= 0 {
		c.DailyBudget = DefaultDailyBudget
	}
	if c.Retention <= 0 {
		c.Retention = DefaultRetention
	}
	return &Service{tbl: d.Table, provs: d.Providers, verifier: d.Verifier, audit: d.Auditor, log: d.Logger,
		now: d.Now, cfg: c}, nil
}

// Caller is who asks: the client address (see ProxyTrust.ClientAddress)
// and the request id of the API call ("" makes one).
type Caller struct {
	Addr      netip.Addr
	RequestID string
}

// Check runs one anonymous brand check. The order matters: validation
// (422) and reCAPTCHA (403, or 503 when Google cannot be asked) come before
// the request is counted, so refused requests cost the client nothing;
// then the client's daily counter and the global budget are taken in one
// transaction (429, 503); only then do the platforms run. Errors are the
// typed errors of this package, or a plain error for a store failure.
func (s *Service) Check(ctx context.Context, in Input, who Caller) (Response, error) {
	req, err := Validate(in)
	if err != nil {
		return Response{}, err
	}
	if !who.Addr.IsValid() {
		return Response{}, errors.New("brandcheck: the caller has no address")
	}
	if _, err := s.verifier.Verify(ctx, req.Token, who.Addr.String()); err != nil {
		var fe *recaptcha.FailedError
		if errors.As(err, &fe) {
			return Response{}, &VerificationError{Reasons: fe.Codes}
		}
		return Response{}, &UnavailableError{Reason: ReasonVerifier, RetryAfter: verifierRetryAfter, Err: err}
	}
	start := s.now()
	day, end, retryAfter := dayBounds(start)
	hash := clientHash(s.cfg.ClientKey, day, who.Addr)
	ck := cacheKey(day, req.BrandName, req.Host)
	cached, hit, err := s.cached(ctx, ck)
	if err != nil {
		return Response{}, err
	}
	if err := s.admit(ctx, day, end, retryAfter, hash, !hit); err != nil {
		return Response{}, err
	}
	rid := who.RequestID
	if rid == "" {
		rid = ids.ULID(start)
	}
	qs := Questions(req.BrandName, req.Host)
	rec := Record{RequestID: rid, Day: day, ClientHash: hash, BrandName: req.BrandName, WebsiteURL: req.Website.String(),
		WebsiteHost: req.Host, Cached: hit, CreatedAt: start.UTC()}
	for _, q := range qs {
		rec.Questions = append(rec.Questions, q.Text)
	}
	var resp Response
	var cacheAt *store.Key
	if hit {
		resp = cached
		resp.RequestID = rid
	} else {
		if err := s.auditPrompts(ctx, rid, hash, start, qs); err != nil {
			return Response{}, err
		}
		resp = s.run(ctx, req, qs)
		resp.RequestID = rid
		if allAnswered(resp) {
			cacheAt = &ck
		}
		for _, p := range resp.Platforms {
			rec.CostUSD += p.CostIncurred
		}
	}
	rec.Response = resp
	rec.DurationMS = s.now().Sub(start).Milliseconds()
	if err := s.save(ctx, rec, end, cacheAt); err != nil {
		return Response{}, err
	}
	grade := ""
	if resp.Grade != nil {
		grade = *resp.Grade
	}
	s.log.LogAttrs(ctx, slog.LevelInfo, "brand check", slog.String("request_id", rid), slog.String("client_hash", hash[:16]),
		slog.String("host", req.Host), slog.Bool("cached", hit), slog.Int("score", int(resp.VisibilityScore)),
		slog.String("grade", grade), slog.Float64("cost_usd", rec.CostUSD), slog.Int64("duration_ms", rec.DurationMS))
	return resp, nil
}

func allAnswered(r Response) bool {
	for _, p := range r.Platforms {
		if p.Status != StatusSucceeded {
			return false
		}
	}
	return len(r.Platforms) > 0
}

func (s *Service) auditPrompts(ctx context.Context, rid, hash string, at time.Time, qs []Question) error {
	a := PromptAudit{RequestID: rid, ClientHash: hash, At: at.UTC()}
	for _, p := range s.cfg.Platforms {
		for _, q := range qs {
			a.Prompts = append(a.Prompts, Prompt{Platform: p, Text: q.Text})
		}
	}
	if err := s.audit.AuditPrompts(ctx, a); err != nil {
		// Prompts are never sent unaudited.
		return &UnavailableError{Reason: ReasonAudit, RetryAfter: verifierRetryAfter, Err: err}
	}
	return nil
}

// outcome is one platform's answer to one question, or why there is none.
type outcome struct {
	ans      providers.Answer
	err      error
	timedOut bool
}

// run asks every question on every platform at once, within the budget,
// and builds the response from what came back.
func (s *Service) run(ctx context.Context, req Request, qs []Question) Response {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Budget)
	defer cancel()
	outs := make([][]outcome, len(s.cfg.Platforms))
	var wg sync.WaitGroup
	for i, pf := range s.cfg.Platforms {
		outs[i] = make([]outcome, len(qs))
		prov, err := s.provs.For(pf)
		for j, q := range qs {
			if err != nil {
				outs[i][j] = outcome{err: err}
				continue
			}
			wg.Go(func() {
				outs[i][j] = ask(ctx, prov, providers.Request{Platform: pf, Query: q.Text,
					Hints: providers.Hints{Brand: req.BrandName, BrandDomain: req.Host}})
			})
		}
	}
	wg.Wait()
	return s.build(req, qs, outs)
}

// ask calls the provider, giving up when the budget ends even if the
// provider does not (its late answer is dropped).
func ask(ctx context.Context, prov providers.Provider, r providers.Request) outcome {
	ch := make(chan outcome, 1)
	go func() {
		ans, err := prov.Answer(ctx, r)
		ch <- outcome{ans: ans, err: err}
	}()
	select {
	case o := <-ch:
		if o.err != nil && ctx.Err() != nil {
			o.timedOut = true
		}
		return o
	case <-ctx.Done():
		return outcome{err: ctx.Err(), timedOut: true}
	}
}

// build turns the outcomes into the response.
func (s *Service) build(req Request, qs []Question, outs [][]outcome) Response {
	brand := detect.Entity{Name: req.BrandName, Domains: []string{req.Host}}
	var all []answer
	for i, pf := range s.cfg.Platforms {
		for j, o := range outs[i] {
			if o.err == nil {
				all = append(all, answer{platform: pf, question: j, ans: o.ans})
			}
		}
	}
	comps := discoverCompetitors(brand, all)
	order := map[string]int{}
	for i, c := range comps {
		order[c.Name] = i
	}
	det := detect.New(brand, comps)
	resp := Response{BrandName: req.BrandName, Platforms: []PlatformResult{}, TopCompetitors: []string{},
		TopCompetitorCitedPages: []CompetitorPage{}, CompletedAt: s.now().UTC()}
	type tally struct {
		platforms, mentions, first int
		url                        string
	}
	tallies := map[string]*tally{}
	answers, mentioned, scored := 0, 0, 0
	total := 0
	for i, pf := range s.cfg.Platforms {
		res := PlatformResult{Platform: pf, Competitors: []string{}, CompetitorCitedURLs: map[string]string{}}
		var mine []answer
		var firstErr outcome
		timeouts := 0
		for j, o := range outs[i] {
			switch {
			case o.err == nil:
				mine = append(mine, answer{platform: pf, question: j, ans: o.ans})
			case o.timedOut:
				timeouts++
				if firstErr.err == nil {
					firstErr = o
				}
			default:
				if firstErr.err == nil || firstErr.timedOut {
					firstErr = o
				}
			}
		}
		switch {
		case len(mine) == len(qs):
			res.Status = StatusSucceeded
		case len(mine) > 0:
			res.Status = StatusPartial
		case timeouts == len(qs):
			res.Status = StatusTimeout
		default:
			res.Status = StatusFailed
		}
		if firstErr.err != nil {
			res.ErrorMessage = s.errorMessage(pf, firstErr)
		}
		rivals, naming := analyze(det, brand, comps, qs, mine, &res, order)
		answers += len(mine)
		mentioned += naming
		if res.answered() {
			total += int(res.VisibilityScore)
			scored++
		}
		for name, rv := range rivals {
			t := tallies[name]
			if t == nil {
				t = &tally{first: rv.first}
				tallies[name] = t
			}
			t.platforms++
			t.mentions += rv.mentions
			if t.url == "" {
				t.url = rv.url
			}
		}
		resp.Platforms = append(resp.Platforms, res)
	}
	if scored > 0 {
		resp.VisibilityScore = int32(math.Round(float64(total) / float64(scored)))
		g := Grade(resp.VisibilityScore)
		resp.Grade = &g
	}
	names := make([]string, 0, len(tallies))
	for n := range tallies {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int {
		ta, tb := tallies[a], tallies[b]
		switch {
		case ta.platforms != tb.platforms:
			return tb.platforms - ta.platforms
		case ta.mentions != tb.mentions:
			return tb.mentions - ta.mentions
		}
		return ta.first - tb.first
	})
	for _, n := range names[:min(len(names), maxTopCompetitors)] {
		resp.TopCompetitors = append(resp.TopCompetitors, n)
		if u := tallies[n].url; u != "" {
			resp.TopCompetitorCitedPages = append(resp.TopCompetitorCitedPages, CompetitorPage{Name: n, CitedURL: u})
		}
	}
	resp.HasUpsell = scored > 0 && (resp.VisibilityScore < 80 || len(resp.TopCompetitors) > 0)
	resp.Summary = summarize(&resp, answers, mentioned)
	return resp
}

// errorMessage says in a sentence why a platform gave no answer. Provider
// errors never carry keys; their vendor text is clipped.
func (s *Service) errorMessage(pf string, o outcome) string {
	if o.timedOut {
		return fmt.Sprintf("%s did not answer within %s", platformName(pf), s.cfg.Budget)
	}
	var pe *providers.Error
	if errors.As(o.err, &pe) {
		why := map[providers.Kind]string{
			providers.KindTransient:    "is busy or unreachable",
			providers.KindQuota:        "is out of quota",
			providers.KindAuth:         "refused our credentials",
			providers.KindInvalid:      "refused the question",
			providers.KindFailedAnswer: "returned no usable answer",
			providers.KindNoAnswer:     "has no answer for this question",
		}[pe.Kind]
		if why == "" {
			why = "failed"
		}
		msg := platformName(pf) + " " + why
		if pe.Message != "" {
			msg += ": " + pe.Message
		}
		return clip(msg, 200)
	}
	return clip(platformName(pf)+" failed: "+o.err.Error(), 200)
}
