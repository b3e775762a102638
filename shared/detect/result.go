package detect

import (
	"math"
	"slices"
)

// decayPerSentence is λ in the position weight e^(−λ·sentence): a mention's
// weight halves every 10 sentences.
const decayPerSentence = math.Ln2 / 10

// Verdict confidences that do not come from a mention.
const (
	confUnknown      = 0.85
	confCitedOnly    = 0.80
	confAbsent       = 0.90 // no candidate of the brand at all
	confMaxEntity    = 0.99
	confPerExtra     = 0.02 // per further counted mention, at most two
	confCitedBonus   = 0.03 // the entity's own domain is cited
	maxEvidenceBytes = 600
)

func (an *analysis) result() Result {
	d, sc, text := an.d, an.sc, an.text
	n := len(d.ents)
	ers := make([]EntityResult, n)
	// Per-entity counters in one scratch buffer: sentiment counts, first
	// counted sentence, first unknown candidate, mentions per entity.
	sc.ints = slices.Grow(sc.ints[:0], 6*n)[:6*n]
	clear(sc.ints)
	pos, neg, mix := sc.ints[:n], sc.ints[n:2*n], sc.ints[2*n:3*n]
	firstSent, firstUnknown, nm := sc.ints[3*n:4*n], sc.ints[4*n:5*n], sc.ints[5*n:]
	rejectedBrand := false
	brandCands := false          // the brand has a candidate of any state
	bestRejected := math.Inf(-1) // the brand's best rejected evidence score
	ambiguousBrand := false
	total := 0
	for i := range sc.cands {
		if c := &sc.cands[i]; c.state == candAccepted {
			nm[c.ent]++
			total++
		}
	}
	all := make([]Mention, total) // one backing array for every entity's mentions
	// The cited URLs of every entity and the discovered names share one
	// backing array too (discovery reads only the candidates' states,
	// settled by now). Each slice is capped, so an append copies.
	disc := an.discover()
	var strs []string
	if k := len(sc.citedBy) + len(disc); k > 0 {
		strs = make([]string, k)
	}
	off, soff := 0, 0
	for ei := range ers {
		// Three fields set in fresh (zeroed) memory, rather than copying
		// whole blank records: the copy's write barriers cover every
		// pointer field while the GC runs, as it often does here.
		ers[ei].Name, ers[ei].FirstPosition, ers[ei].Sentiment = d.ents[ei].name, -1, Neutral
		if an.domainSeen[ei] {
			ers[ei].DomainCited = true
			if n := an.citedURLs(ei, strs[soff:]); n > 0 {
				ers[ei].CitedURLs = strs[soff : soff+n : soff+n]
				soff += n
			}
		}
		if nm[ei] > 0 {
			ers[ei].Mentions = all[off : off : off+nm[ei]]
			off += nm[ei]
		}
		firstUnknown[ei] = -1
	}
	for i := range sc.cands {
		c := &sc.cands[i]
		if c.ent == 0 && c.scored && ambiguous(c.score) {
			ambiguousBrand = true
		}
		if c.ent == 0 {
			brandCands = true
		}
		if c.state != candAccepted {
			if c.ent == 0 {
				rejectedBrand = true
				bestRejected = math.Max(bestRejected, c.score)
			}
			continue
		}
		er := &ers[c.ent]
		rec := &sc.sents[c.srec]
		m := Mention{Start: c.rstart, End: c.rend, Text: text[c.start:c.end], Kind: c.kind,
			Sentence: rec.idx, Sentiment: Neutral, Guarded: c.guarded, Unknown: c.unknown,
			Link: c.link, Confidence: c.strength}
		if c.scored {
			m.EvidenceScore = c.score
		}
		if c.senti != "" {
			m.Sentiment = c.senti
		}
		er.Mentions = append(er.Mentions, m)
		switch {
		case c.unknown:
			if firstUnknown[c.ent] < 0 {
				firstUnknown[c.ent] = i
			}
			continue
		case c.link:
			continue
		}
		if er.Count == 0 {
			er.FirstPosition = c.rstart
			er.Evidence = an.evidence(c)
			firstSent[c.ent] = rec.idx
		}
		er.Count++
		if c.strength > er.Confidence {
			er.Confidence = c.strength
		}
		switch m.Sentiment {
		case Positive:
			pos[c.ent]++
		case Negative:
			neg[c.ent]++
		case Mixed:
			mix[c.ent]++
		}
	}
	total = 0
	for ei := range ers {
		er := &ers[ei]
		er.Mentioned = er.Count > 0
		if er.Mentioned {
			er.Confidence += confPerExtra * float64(min(er.Count-1, 2))
			if an.cited[ei] {
				er.Confidence += confCitedBonus
			}
			er.Confidence = math.Min(er.Confidence, confMaxEntity)
			switch {
			case mix[ei] > 0 || pos[ei] > 0 && neg[ei] > 0:
				er.Sentiment = Mixed
			case pos[ei] > 0:
				er.Sentiment = Positive
			case neg[ei] > 0:
				er.Sentiment = Negative
			}
		} else if firstUnknown[ei] >= 0 {
			er.UnknownToModel = true
			er.Evidence = an.evidence(&sc.cands[firstUnknown[ei]])
		}
		total += er.Count
	}

	// Rank by first position; ties (a form shared by two entities) keep the
	// input order.
	order := sc.order[:0]
	for ei := range ers {
		if ers[ei].Mentioned {
			order = append(order, ei)
		}
	}
	for i := 1; i < len(order); i++ { // insertion sort: few entities, stable
		for j := i; j > 0 && ers[order[j]].FirstPosition < ers[order[j-1]].FirstPosition; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	for r, ei := range order {
		ers[ei].Rank = r + 1
	}
	sc.order = order

	an.prominence(ers)

	an.brandSentiment(&ers[0])
	res := Result{Brand: ers[0], Competitors: ers[1:], Sentiment: ers[0].Sentiment, Version: Version}
	b := &res.Brand
	res.NegativeEvidence = b.NegativeEvidence
	if total > 0 {
		res.ShareOfVoice = float64(b.Count) / float64(total)
	}
	switch {
	case b.Mentioned:
		res.Verdict, res.Confidence, res.Evidence = VerdictMentioned, b.Confidence, b.Evidence
	case b.UnknownToModel:
		res.Verdict, res.Confidence, res.Evidence = VerdictUnknownToModel, confUnknown, b.Evidence
	case b.DomainCited:
		res.Verdict, res.Confidence = VerdictCitedOnly, confCitedOnly
		res.Evidence = an.citedEvidence(b)
	case rejectedBrand:
		// The name occurs only as a word: the further its best evidence
		// from the threshold, the surer the verdict.
		res.Verdict = VerdictOrdinaryWord
		res.Confidence = math.Max(0.5, math.Min(0.95, 0.6+0.25*(evidenceThreshold-bestRejected)))
	case !brandCands && an.brandWordForm():
		// Only another form of the word ("Mastodons died out"): the
		// answer speaks of the word, as surely as of a word held at 0.
		res.Verdict = VerdictOrdinaryWord
		res.Confidence = math.Max(0.5, math.Min(0.95, 0.6+0.25*evidenceThreshold))
	default:
		res.Verdict, res.Confidence = VerdictNotMentioned, confAbsent
	}
	res.Ambiguous = ambiguousBrand && (res.Verdict == VerdictOrdinaryWord || res.Verdict == VerdictMentioned && allGuarded(b.Mentions))
	res.Score, res.VisibilityScore = score(ers, firstSent[0])
	if len(disc) > 0 {
		names := strs[len(sc.citedBy):]
		for i, f := range disc {
			names[i] = f.name
		}
		res.Discovered = names
	}
	return res
}

// allGuarded: every counted mention is an ordinary word accepted on
// evidence.
func allGuarded(ms []Mention) bool {
	for _, m := range ms {
		if !m.Unknown && !m.Link && !m.Guarded {
			return false
		}
	}
	return true
}

// citedEvidence: the sentence holding the brand's link, else the first
// cited URL.
func (an *analysis) citedEvidence(b *EntityResult) string {
	for i := range an.sc.cands {
		c := &an.sc.cands[i]
		if c.ent == 0 && c.state == candAccepted && c.link {
			return an.evidence(c)
		}
	}
	if len(b.CitedURLs) > 0 {
		return b.CitedURLs[0]
	}
	return ""
}

// evidence returns the candidate's sentence, cut to a window around the
// mention when the sentence is very long.
func (an *analysis) evidence(c *cand) string {
	rec := &an.sc.sents[c.srec]
	s, e := rec.start, rec.end
	if e-s > maxEvidenceBytes {
		half := maxEvidenceBytes / 2
		s = max(s, c.start-half)
		e = min(e, c.end+half)
		for s < c.start && !utf8RuneStart(an.text[s]) {
			s++
		}
		for e > c.end && e < len(an.text) && !utf8RuneStart(an.text[e]) {
			e--
		}
	}
	return an.text[s:e]
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// prominence computes each entity's GEO position-adjusted word count: every
// sentence with counted mentions contributes its word count, shared among
// the mentions in it and weighted e^(−λ·(sentence − first tracked
// sentence)). Subtracting the first tracked sentence keeps long answers
// from underflowing and does not change the shares.
func (an *analysis) prominence(ers []EntityResult) {
	sc := an.sc
	idx0 := -1
	for ri := range sc.sents {
		rec := &sc.sents[ri]
		total := 0
		for j := rec.candFrom; j < rec.candTo; j++ {
			if counted(&sc.cands[j]) {
				total++
			}
		}
		if total == 0 {
			continue
		}
		if idx0 < 0 {
			idx0 = rec.idx
		}
		if !rec.analysed {
			an.tokenize(rec)
		}
		w := float64(rec.words) * math.Exp(-decayPerSentence*float64(rec.idx-idx0)) / float64(total)
		for j := rec.candFrom; j < rec.candTo; j++ {
			if c := &sc.cands[j]; counted(c) {
				ers[c.ent].Prominence += w
			}
		}
	}
}

func counted(c *cand) bool { return c.state == candAccepted && !c.unknown && !c.link }

// score computes the visibility score (package documentation):
//
//	100 × clamp(0.5·prominence_share + 0.2·position_weight
//	            + 0.2·own_domain_cited + 0.1·sentiment_factor)
func score(ers []EntityResult, brandFirstSent int) (ScoreParts, int) {
	var p ScoreParts
	b := &ers[0]
	sum := 0.0
	for i := range ers {
		sum += ers[i].Prominence
	}
	if sum > 0 {
		p.ProminenceShare = b.Prominence / sum
	}
	if b.Mentioned {
		p.PositionWeight = 0.5/float64(b.Rank) + 0.5*math.Exp(-decayPerSentence*float64(brandFirstSent))
		switch b.Sentiment {
		case Positive:
			p.SentimentFactor = 1
		case Neutral, Mixed:
			p.SentimentFactor = 0.5
		}
	}
	if b.DomainCited {
		p.OwnDomainCited = 1
	}
	v := 0.5*p.ProminenceShare + 0.2*p.PositionWeight + 0.2*p.OwnDomainCited + 0.1*p.SentimentFactor
	v = math.Max(0, math.Min(1, v))
	return p, int(math.Round(100 * v))
}

// WilsonInterval returns the 95% Wilson score interval (z = 1.96) for a
// proportion of successes out of n trials — the mention rate across
// samples. n ≤ 0 gives (0, 1): nothing is known.
func WilsonInterval(successes, n int) (low, high float64) {
	if n <= 0 {
		return 0, 1
	}
	successes = max(0, min(successes, n))
	const z = 1.96
	fn := float64(n)
	p := float64(successes) / fn
	z2 := z * z
	denom := 1 + z2/fn
	center := (p + z2/(2*fn)) / denom
	half := z * math.Sqrt(p*(1-p)/fn+z2/(4*fn*fn)) / denom
	low, high = math.Max(0, center-half), math.Min(1, center+half)
	if successes == 0 {
		low = 0
	}
	if successes == n {
		high = 1
	}
	return low, high
}
