package providers

import (
	"context"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/brandlens/brandlens/shared/platforms"
)

// SimulatedModel is the Model of every simulated answer.
const SimulatedModel = "simulated"

// Simulated answers offline with plausible, deterministic text built from
// Request.Hints (with three invented rivals when no competitor is hinted):
// the same platform, query, sample and hints always give the
// same answer, while different samples give different ones (brand first,
// after competitors, absent, criticised, or "I don't have information"),
// so mention rates over several samples vary as they do on real platforms.
type Simulated struct{ platform string }

// NewSimulated returns the simulated provider for platform.
func NewSimulated(platform string) *Simulated { return &Simulated{platform: platform} }

// Platform implements Provider.
func (s *Simulated) Platform() string { return s.platform }

type scenario int

const (
	brandFirst scenario = iota
	brandLater
	brandAbsent
	brandNegative
	brandUnknown
)

// scenarioWeights differ a little per platform so platforms disagree, as
// real ones do. Order follows the scenario constants.
var scenarioWeights = map[string][5]int{
	platforms.ChatGPT:          {30, 25, 25, 10, 10},
	platforms.Perplexity:       {35, 25, 20, 12, 8},
	platforms.Gemini:           {25, 25, 30, 10, 10},
	platforms.Claude:           {25, 20, 25, 10, 20},
	platforms.GoogleAIOverview: {30, 30, 25, 10, 5},
}

var (
	simIntro = []string{
		"A few options stand out.",
		"Several tools are worth considering.",
		"A few names come up again and again in reviews.",
	}
	simPositive = []string{
		"it is easy to set up and consistently well reviewed",
		"its pricing suits small teams",
		"users praise its support and integrations",
		"it offers a generous free tier",
	}
	simCompetitor = []string{
		"known for a broad feature set",
		"popular with larger teams",
		"with strong reporting",
		"with a long track record",
	}
	simNegative = []string{
		"slow support and frequent outages",
		"confusing pricing",
		"a steep learning curve",
		"missing integrations",
	}
	simReviewSites = []struct{ url, title string }{
		{"https://www.g2.com/categories/%s", "G2 reviews"},
		{"https://www.capterra.com/%s/", "Capterra"},
		{"https://www.reddit.com/search/?q=%s", "Reddit discussion"},
		{"https://en.wikipedia.org/wiki/Special:Search?search=%s", "Wikipedia"},
	}
)

// Answer implements Provider.
func (s *Simulated) Answer(ctx context.Context, req Request) (Answer, error) {
	if err := ctx.Err(); err != nil {
		return Answer{}, &Error{Platform: s.platform, Kind: KindTransient, Code: "cancelled", Message: "call cancelled"}
	}
	start := time.Now()
	brand := strings.TrimSpace(req.Hints.Brand)
	var comps []string
	for _, c := range req.Hints.Competitors {
		c = strings.TrimSpace(c)
		if c != "" && !strings.EqualFold(c, brand) && !containsFold(comps, c) {
			comps = append(comps, c)
		}
	}
	if len(comps) == 0 {
		comps = inventedRivals(brand)
	}
	rng := &splitmix{seed(s.platform, req)}
	for i := len(comps) - 1; i > 0; i-- {
		j := rng.intn(i + 1)
		comps[i], comps[j] = comps[j], comps[i]
	}
	sc := pickScenario(rng, s.platform, brand)
	ans := Answer{Platform: s.platform, Model: SimulatedModel}
	if s.platform == platforms.GoogleAIOverview {
		ans.OrganicResults = simOrganic(rng, req, brand, comps)
		// About a third of queries show no AI Overview.
		if rng.intn(100) < 35 {
			ans.AIOverviewState = OverviewAbsent
			ans.Latency = time.Since(start)
			return ans, nil
		}
		ans.AIOverviewState = OverviewPresent
	}
	ans.Text, ans.Citations = simText(rng, sc, req, brand, comps)
	for _, c := range ans.Citations {
		ans.Sources = AppendUnique(ans.Sources, c.URL)
	}
	ans.Latency = time.Since(start)
	return ans, nil
}

func pickScenario(rng *splitmix, platform, brand string) scenario {
	if brand == "" {
		return brandAbsent
	}
	w, ok := scenarioWeights[platform]
	if !ok {
		w = scenarioWeights[platforms.ChatGPT]
	}
	total := 0
	for _, x := range w {
		total += x
	}
	n := rng.intn(total)
	for i, x := range w {
		if n < x {
			return scenario(i)
		}
		n -= x
	}
	return brandAbsent
}

// simText writes the answer sentence by sentence, citing some of them.
func simText(rng *splitmix, sc scenario, req Request, brand string, comps []string) (string, []Citation) {
	var tb TextBuilder
	var cits []Citation
	comp := func(i int) string {
		if i < len(comps) {
			return comps[i]
		}
		return ""
	}
	sentence := func(s string) (int, int) {
		tb.Sep(" ")
		return tb.Add(s)
	}
	citeBrand := func(st, en int) {
		if d := strings.TrimSpace(req.Hints.BrandDomain); d != "" && rng.intn(2) == 0 {
			cits = append(cits, Citation{URL: "https://" + d + "/", Title: brand, Start: st, End: en})
		}
	}
	citeComp := func(name string, st, en int) {
		if name != "" && rng.intn(2) == 0 {
			cits = append(cits, Citation{URL: "https://www." + slug(name) + ".com/", Title: name, Start: st, End: en})
		}
	}
	others := func(from int) string {
		var names []string
		for i := from; i < len(comps) && len(names) < 2; i++ {
			names = append(names, comps[i])
		}
		switch len(names) {
		case 0:
			return "other established tools"
		case 1:
			return names[0]
		}
		return names[0] + " and " + names[1]
	}
	q := strings.Join(strings.Fields(req.Query), " ")
	if len(comps) == 0 && sc == brandLater {
		sc = brandFirst
	}
	if sc == brandUnknown {
		sentence(fmt.Sprintf("I don't have reliable information about %s.", brand))
	}
	// The query is not echoed: a query naming the brand would otherwise
	// count as a mention in every sample.
	ist, ien := sentence(pick(rng, simIntro))
	switch sc {
	case brandFirst:
		st, en := sentence(fmt.Sprintf("%s is often the first recommendation because %s.", brand, pick(rng, simPositive)))
		citeBrand(st, en)
		if alt := others(0); len(comps) > 0 {
			verb := "is a solid alternative"
			if len(comps) > 1 {
				verb = "are solid alternatives"
			}
			st, en = sentence(fmt.Sprintf("%s %s, %s.", alt, verb, pick(rng, simCompetitor)))
			citeComp(comp(0), st, en)
		}
	case brandLater:
		st, en := sentence(fmt.Sprintf("%s is a common recommendation, %s.", comp(0), pick(rng, simCompetitor)))
		citeComp(comp(0), st, en)
		if len(comps) > 1 {
			st, en = sentence(fmt.Sprintf("%s is also well regarded.", comp(1)))
			citeComp(comp(1), st, en)
		}
		st, en = sentence(fmt.Sprintf("%s is another option worth a look, as %s.", brand, pick(rng, simPositive)))
		citeBrand(st, en)
	case brandAbsent:
		if len(comps) == 0 {
			sentence("Compare pricing, support and integrations before choosing.")
			break
		}
		st, en := sentence(fmt.Sprintf("%s is widely recommended, %s.", comp(0), pick(rng, simCompetitor)))
		citeComp(comp(0), st, en)
		if len(comps) > 1 {
			st, en = sentence(fmt.Sprintf("%s is also worth considering.", comp(1)))
			citeComp(comp(1), st, en)
		}
	case brandNegative:
		if len(comps) > 0 {
			st, en := sentence(fmt.Sprintf("%s is a dependable choice, %s.", comp(0), pick(rng, simCompetitor)))
			citeComp(comp(0), st, en)
		}
		sentence(fmt.Sprintf("%s is sometimes mentioned, but reviewers complain about %s.", brand, pick(rng, simNegative)))
	case brandUnknown:
		sentence(fmt.Sprintf("Commonly recommended options include %s.", others(0)))
	}
	cst, cen := sentence("The right choice depends on budget, team size and the integrations you need.")
	site := simReviewSites[rng.intn(len(simReviewSites))]
	st, en := ist, ien
	if rng.intn(2) == 0 {
		st, en = cst, cen
	}
	cits = append(cits, Citation{URL: fmt.Sprintf(site.url, slug(q)), Title: site.title, Start: st, End: en})
	return tb.String(), cits
}

// simOrganic lists 6–8 classic results: review sites, competitors and,
// usually, the brand's own domain at a varying rank.
func simOrganic(rng *splitmix, req Request, brand string, comps []string) []OrganicResult {
	type entry struct{ url, title string }
	var pool []entry
	q := slug(strings.Join(strings.Fields(req.Query), " "))
	for _, s := range simReviewSites {
		pool = append(pool, entry{fmt.Sprintf(s.url, q), s.title})
	}
	for _, c := range comps {
		pool = append(pool, entry{"https://www." + slug(c) + ".com/", c})
	}
	for i := len(pool) - 1; i > 0; i-- {
		j := rng.intn(i + 1)
		pool[i], pool[j] = pool[j], pool[i]
	}
	n := min(6+rng.intn(3), len(pool))
	pool = pool[:n]
	if d := strings.TrimSpace(req.Hints.BrandDomain); d != "" && rng.intn(10) < 7 {
		at := rng.intn(len(pool) + 1)
		pool = append(pool[:at], append([]entry{{"https://" + d + "/", brand}}, pool[at:]...)...)
	}
	out := make([]OrganicResult, len(pool))
	for i, e := range pool {
		out[i] = OrganicResult{Position: i + 1, URL: e.url, Title: e.title}
	}
	return out
}

// rivalPool holds fictional company names for answers about a brand whose
// competitors nobody told us (the anonymous brand check): real platforms
// name rivals the asker did not list, so the simulation does too.
var rivalPool = []string{"Northwind", "Contoso", "Fabrikam", "Tailspin", "Litware",
	"Proseware", "Wingtip", "Adatum", "Woodgrove", "Trey Research"}

// inventedRivals picks three rivals for brand, the same ones for every
// platform, query and sample, so that platforms agree on who competes.
func inventedRivals(brand string) []string {
	h := fnv.New64a()
	h.Write([]byte(normQuery(brand)))
	rng := &splitmix{h.Sum64()}
	pool := slices.Clone(rivalPool)
	var out []string
	for len(out) < 3 && len(pool) > 0 {
		i := rng.intn(len(pool))
		if !strings.EqualFold(pool[i], brand) {
			out = append(out, pool[i])
		}
		pool = slices.Delete(pool, i, i+1)
	}
	return out
}

func pick(rng *splitmix, list []string) string { return list[rng.intn(len(list))] }

// slug turns a name into a plausible host label or path segment.
func slug(s string) string {
	var b strings.Builder
	// Decompose so "Zoë" becomes "zoe", not "zo".
	for _, r := range norm.NFD.String(strings.ToLower(s)) {
		switch {
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			b.WriteRune(r)
		case r == ' ' || r == '-':
			if b.Len() > 0 && !strings.HasSuffix(b.String(), "-") {
				b.WriteByte('-')
			}
		}
	}
	out := strings.Trim(b.String(), "-")
	if out == "" {
		return "example"
	}
	return out
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// normQuery is the matching form of a query: case folded, whitespace
// collapsed.
func normQuery(s string) string {
	return cases.Fold().String(strings.Join(strings.Fields(s), " "))
}

func seed(platform string, req Request) uint64 {
	h := fnv.New64a()
	for _, part := range append([]string{platform, normQuery(req.Query), strconv.Itoa(req.Sample),
		req.Hints.Brand, req.Hints.BrandDomain}, req.Hints.Competitors...) {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// splitmix is SplitMix64: a fixed algorithm, so simulated answers stay the
// same across Go releases (math/rand makes no such promise).
type splitmix struct{ s uint64 }

func (r *splitmix) next() uint64 {
	r.s += 0x9E3779B97F4A7C15
	z := r.s
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

func (r *splitmix) intn(n int) int { return int(r.next() % uint64(n)) }
