package brandcheck

import (
	"cmp"
	"math"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/publicsuffix"

	"github.com/brandlens/brandlens/shared/citations"
	"github.com/brandlens/brandlens/shared/detect"
	"github.com/brandlens/brandlens/shared/providers"
)

// Caps on what untrusted answers can put into a response.
const (
	maxCompetitors     = 20  // entities tracked while analysing one check
	maxTopCompetitors  = 5   // topCompetitors
	maxPlatformRivals  = 10  // competitors of one platform
	maxEvidenceRunes   = 300 // evidenceSnippet
	discoveryRounds    = 3   // rounds of "names enumerated next to known ones"
	maxCompetitorRunes = 60  // a competitor name
	maxURLBytes        = 2048
)

// answer is one platform's answer to one question.
type answer struct {
	platform string
	question int
	ans      providers.Answer
}

// citationsOf returns the sources of an answer as detect sees them: the
// cited URLs and, for search platforms, the organic results.
func citationsOf(a providers.Answer) []detect.Citation {
	out := make([]detect.Citation, 0, len(a.Citations)+len(a.OrganicResults))
	for _, c := range a.Citations {
		out = append(out, detect.Citation{URL: c.URL, Title: c.Title})
	}
	for _, o := range a.OrganicResults {
		out = append(out, detect.Citation{URL: o.URL, Title: o.Title})
	}
	return out
}

// registrable returns the registrable domain of a URL ("www.acme.co.uk/x"
// → "acme.co.uk"), or "".
func registrable(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || len(raw) > maxURLBytes {
		return ""
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	d, err := publicsuffix.EffectiveTLDPlusOne(host)
	if err != nil {
		return ""
	}
	return d
}

// discoverCompetitors finds who competes with the brand in these answers,
// with detect as in query runs:
//
//  1. names that detect lists or enumerates next to the brand
//     ("Acme, Contoso Notes and Fabrikam");
//  2. the sites the answers cite (other than the brand's own and reference
//     or review sites): a site whose name is part of a name found in step 1
//     becomes that competitor's domain; otherwise, when its name appears in
//     an answer's text, it is a competitor under the spelling found there
//     ("contoso.com" cited beside "Contoso" makes Contoso one);
//  3. names listed or enumerated next to any known competitor join them,
//     for a few rounds, so one known name can vouch for the next.
func discoverCompetitors(brand detect.Entity, answers []answer) []detect.Entity {
	var comps []detect.Entity
	add := func(e detect.Entity) bool {
		if hasEntity(comps, e.Name) || strings.EqualFold(e.Name, brand.Name) || len(comps) >= maxCompetitors ||
			utf8.RuneCountInString(e.Name) > maxCompetitorRunes {
			return false
		}
		comps = append(comps, e)
		return true
	}
	discover := func() bool {
		det := detect.New(brand, comps)
		added := false
		for _, a := range answers {
			for _, n := range det.Detect(a.ans.Text, citationsOf(a.ans)).Discovered {
				added = add(detect.Entity{Name: n}) || added
			}
		}
		return added
	}
	discover()
	brandDomain := ""
	if len(brand.Domains) > 0 {
		brandDomain = brand.Domains[0]
	}
	var cands []detect.Entity
	seen := map[string]bool{}
	for _, a := range answers {
		for _, c := range citationsOf(a.ans) {
			d := registrable(c.URL)
			if d == "" || d == brandDomain || seen[d] || citations.IsInfoSite(c.URL) {
				continue
			}
			seen[d] = true
			label := d[:strings.IndexByte(d, '.')]
			if len(label) < 3 {
				continue
			}
			if i := slices.IndexFunc(comps, func(e detect.Entity) bool { return slices.Contains(words(e.Name), label) }); i >= 0 {
				if len(comps[i].Domains) == 0 {
					comps[i].Domains = []string{d}
				}
				continue
			}
			cands = append(cands, detect.Entity{Name: label, Domains: []string{d}})
		}
	}
	if len(cands) > 0 {
		det := detect.New(brand, cands)
		named := make([]string, len(cands))
		for _, a := range answers {
			for i, c := range det.Detect(a.ans.Text, nil).Competitors {
				if named[i] != "" || !c.Mentioned {
					continue
				}
				for _, m := range c.Mentions {
					if m.Kind == detect.KindName && !m.Unknown {
						named[i] = m.Text
						break
					}
				}
			}
		}
		for i, n := range named {
			if n != "" {
				add(detect.Entity{Name: n, Domains: cands[i].Domains})
			}
		}
	}
	for range discoveryRounds {
		if !discover() {
			break
		}
	}
	return comps
}

func hasEntity(es []detect.Entity, name string) bool {
	return slices.ContainsFunc(es, func(e detect.Entity) bool { return strings.EqualFold(e.Name, name) })
}

// rival is what one platform's answers say about one competitor.
type rival struct {
	name     string
	mentions int
	first    int // order of first appearance within the check
	url      string
}

// platformAnalysis accumulates one platform's answers.
type platformAnalysis struct {
	mentionCount int
	evidence     string
	unknown      string // evidence of "I don't know <brand>", used when nothing better exists
	weighted     float64
	weights      float64
	cost         float64
	model        string
	rivals       map[string]*rival
}

// analyze runs detection over a platform's answers with the check's final
// entity set, fills the scoring members of res, and returns what the
// answers say of each competitor and how many answers name the brand.
func analyze(det *detect.Detector, brand detect.Entity, comps []detect.Entity, qs []Question, answers []answer, res *PlatformResult, order map[string]int) (map[string]*rival, int) {
	pa := platformAnalysis{rivals: map[string]*rival{}}
	owner := map[string]string{}
	for _, e := range append([]detect.Entity{brand}, comps...) {
		for _, d := range e.Domains {
			owner[d] = e.Name
		}
	}
	naming := 0
	for _, a := range answers {
		r := det.Detect(a.ans.Text, citationsOf(a.ans))
		if r.Brand.Mentioned {
			naming++
		}
		w := qs[a.question].Weight
		pa.weighted += w * float64(r.VisibilityScore)
		pa.weights += w
		pa.cost += a.ans.CostUSD
		if pa.model == "" {
			pa.model = a.ans.Model
		}
		pa.mentionCount += r.Brand.Count
		switch {
		case r.Verdict == detect.VerdictMentioned && pa.evidence == "":
			pa.evidence = r.Evidence
		case r.Verdict == detect.VerdictUnknownToModel && pa.unknown == "":
			pa.unknown = r.Evidence
		}
		for i, c := range r.Competitors {
			if !c.Mentioned {
				continue
			}
			rv := pa.rivals[c.Name]
			if rv == nil {
				rv = &rival{name: c.Name, first: order[c.Name]}
				pa.rivals[c.Name] = rv
			}
			rv.mentions += c.Count
			if rv.url == "" {
				rv.url = citedFor(comps[i], c, a.ans, owner)
			}
		}
	}
	if pa.evidence == "" {
		pa.evidence = pa.unknown
	}
	res.MentionCount = int32(pa.mentionCount)
	res.EvidenceSnippet = clip(pa.evidence, maxEvidenceRunes)
	res.CostIncurred = math.Round(pa.cost*1e6) / 1e6
	res.ModelUsed = pa.model
	if pa.weights > 0 {
		res.VisibilityScore = int32(math.Round(pa.weighted / pa.weights))
	}
	rs := sortedRivals(pa.rivals)
	for _, rv := range rs[:min(len(rs), maxPlatformRivals)] {
		res.Competitors = append(res.Competitors, rv.name)
		if rv.url != "" {
			res.CompetitorCitedURLs[rv.name] = rv.url
		}
	}
	return pa.rivals, naming
}

// citedFor picks the page an answer cites for a competitor: a citation on
// its own domain, else the citation whose span holds one of its mentions
// (unless that page is another brand's own: "Contoso and Fabrikam are
// good [contoso.com]" cites no page for Fabrikam), else an organic result
// on its domain. owner maps known domains to their entity.
func citedFor(e detect.Entity, er detect.EntityResult, a providers.Answer, owner map[string]string) string {
	if len(er.CitedURLs) > 0 {
		return er.CitedURLs[0]
	}
	for _, m := range er.Mentions {
		if m.Unknown || m.Link {
			continue
		}
		for _, c := range a.Citations {
			if c.Start < 0 || c.Start > m.Start || m.End > c.End || len(c.URL) > maxURLBytes {
				continue
			}
			if o, ok := owner[registrable(c.URL)]; ok && o != e.Name {
				continue
			}
			return c.URL
		}
	}
	for _, o := range a.OrganicResults {
		if d := registrable(o.URL); d != "" && slices.Contains(e.Domains, d) {
			return o.URL
		}
	}
	return ""
}

func sortedRivals(m map[string]*rival) []*rival {
	out := make([]*rival, 0, len(m))
	for _, r := range m {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b *rival) int {
		if c := cmp.Compare(b.mentions, a.mentions); c != 0 {
			return c
		}
		return cmp.Compare(a.first, b.first)
	})
	return out
}

// clip cuts s to n runes at a word boundary, with an ellipsis.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n-1]
	cut := string(r)
	if i := strings.LastIndexByte(cut, ' '); i > n/2 {
		cut = cut[:i]
	}
	return cut + "…"
}
