package gaps

import (
	"math"
	"time"

	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/queries"
)

// Tier is the kind of a visibility gap.
type Tier string

// Tiers, in the order the classifier tries them: a query gets the first
// that holds.
const (
	TierNoMention           Tier = "no_mention"
	TierCompetitorDominated Tier = "competitor_dominated"
	TierLowVisibility       Tier = "low_visibility"
	TierWeakMention         Tier = "weak_mention"
)

// Tiers lists the tiers in classification order.
var Tiers = []Tier{TierNoMention, TierCompetitorDominated, TierLowVisibility, TierWeakMention}

// The defaults of every rule of gap detection, in one place (README "Gaps"
// repeats them).
const (
	// DefaultWindow and DefaultWindowRuns: a query's window is its answers of
	// the last 30 days, from at most its latest 5 runs.
	DefaultWindow     = 30 * 24 * time.Hour
	DefaultWindowRuns = 5

	// DefaultDominatedShare: competitor_dominated when a competitor is named
	// before the brand (or where the brand is missing) in more than half of
	// the answers that name any tracked brand.
	DefaultDominatedShare = 0.5
	// DefaultLowMentionRate: low_visibility when the brand is named in fewer
	// than half of the answers.
	DefaultLowMentionRate = 0.5
	// DefaultLatePosition: a mention is late when the brand's first
	// occurrence starts after the first half of the answer.
	DefaultLatePosition = 0.5
	// DefaultPassingShare: weak_mention when more than half of the answers
	// naming the brand name it only in passing (late, or once) …
	DefaultPassingShare = 0.5
	// DefaultWeakScore: … or when the mean visibility score (0–100) of the
	// answers is below 35.
	DefaultWeakScore = 35.0
)

// Severities (0–100) of the tiers: the priority of an opportunity is its
// tier's severity × its query's weight.
const (
	SeverityNoMention           = 100
	SeverityCompetitorDominated = 85
	SeverityLowVisibility       = 70
	SeverityWeakMention         = 50
)

// Rules are the settings of gap detection.
type Rules struct {
	Window         time.Duration
	WindowRuns     int
	DominatedShare float64
	LowMentionRate float64
	LatePosition   float64
	PassingShare   float64
	WeakScore      float64
	Severity       map[Tier]int
}

// Defaults are the rules in force.
var Defaults = Rules{
	Window: DefaultWindow, WindowRuns: DefaultWindowRuns,
	DominatedShare: DefaultDominatedShare, LowMentionRate: DefaultLowMentionRate,
	LatePosition: DefaultLatePosition, PassingShare: DefaultPassingShare, WeakScore: DefaultWeakScore,
	Severity: map[Tier]int{
		TierNoMention: SeverityNoMention, TierCompetitorDominated: SeverityCompetitorDominated,
		TierLowVisibility: SeverityLowVisibility, TierWeakMention: SeverityWeakMention,
	},
}

// Metrics describe a query's window of answers (or one platform's part).
type Metrics struct {
	Answers  int `json:"answers"`
	Mentions int `json:"mentions"` // answers naming the brand
	// MentionRate is mentions/answers with its 95% Wilson interval.
	MentionRate jobs.Rate `json:"mentionRate"`
	// MeanRank is the brand's mean rank among the tracked brands an answer
	// names (1 = named first), over the answers naming it; null when none.
	MeanRank *float64 `json:"meanRank"`
	// AnswersNamingBrands counts answers naming the brand or any tracked
	// (not dismissed) competitor.
	AnswersNamingBrands int `json:"answersNamingBrands"`
	// OutrankedShare is the share of AnswersNamingBrands in which a
	// competitor is named before the brand, or the brand not at all.
	OutrankedShare float64 `json:"outrankedShare"`
	// MeanVisibilityScore is the mean 0–100 score of all the answers.
	MeanVisibilityScore float64 `json:"meanVisibilityScore"`
	// LateShare and SingleShare are the shares of the answers naming the
	// brand whose first mention is late, or that name it once; PassingShare
	// is the share that do either.
	LateShare    float64 `json:"lateShare"`
	SingleShare  float64 `json:"singleShare"`
	PassingShare float64 `json:"passingShare"`
	// TopCompetitor is the competitor named first most often, with the
	// number of answers it leads and their share of AnswersNamingBrands.
	TopCompetitor *Lead `json:"topCompetitor"`
}

// Lead is a competitor that ranks first in answers.
type Lead struct {
	Name    string  `json:"name"`
	Answers int     `json:"answers"`
	Share   float64 `json:"share"`
}

// Holds reports whether tier's own condition holds for m, regardless of
// the tiers before it (a gap's platforms are those where its tier holds).
func (r Rules) Holds(t Tier, m Metrics) bool {
	if m.Answers == 0 {
		return false
	}
	switch t {
	case TierNoMention:
		return m.Mentions == 0
	case TierCompetitorDominated:
		return m.AnswersNamingBrands > 0 && m.OutrankedShare > r.DominatedShare
	case TierLowVisibility:
		return m.MentionRate.Value < r.LowMentionRate
	case TierWeakMention:
		return m.Mentions > 0 && (m.PassingShare > r.PassingShare || m.MeanVisibilityScore < r.WeakScore)
	}
	return false
}

// Classify returns the first tier that holds for m, in the order of Tiers;
// ok is false when none does (or there are no answers). Because the tiers
// are tried in order, competitor_dominated implies the brand is named
// somewhere, and weak_mention that it is named in at least half of the
// answers and not out-ranked in most.
func (r Rules) Classify(m Metrics) (Tier, bool) {
	for _, t := range Tiers {
		if r.Holds(t, m) {
			return t, true
		}
	}
	return "", false
}

// Schedule weights: a query the tenant runs more often matters more.
var scheduleWeight = map[string]float64{
	queries.ScheduleHourly: 1.0,
	queries.ScheduleDaily:  0.9,
	queries.ScheduleWeekly: 0.8,
	"":                     0.7, // run by hand only
}

// Weight is a query's weight in 0.35..1: its schedule weight (hourly 1,
// daily 0.9, weekly 0.8, none 0.7) × its reach, 0.5 + 0.5 × the share of
// the platforms that answered on which the gap holds.
func Weight(q queries.Query, holdsOn, answeredOn int) float64 {
	s := ""
	if q.Schedule != nil {
		s = *q.Schedule
	}
	w, ok := scheduleWeight[s]
	if !ok {
		w = scheduleWeight[""]
	}
	reach := 1.0
	if answeredOn > 0 {
		reach = 0.5 + 0.5*float64(min(holdsOn, answeredOn))/float64(answeredOn)
	}
	return w * reach
}

// Priority is the opportunity priority of a gap: the tier's severity ×
// the query's weight, rounded (halves up), in 0..100. The product is cut to
// six decimals before rounding: the weights are decimal fractions, and in
// binary 85 × 0.7 is 59.4999…, which would round down.
func (r Rules) Priority(t Tier, weight float64) int {
	v := math.Round(float64(r.Severity[t])*weight*1e6) / 1e6
	p := int(math.Round(v))
	return max(0, min(100, p))
}
