package gaps_test

import (
	"testing"

	"github.com/brandlens/brandlens/shared/gaps"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/queries"
)

func metrics(answers, mentions, naming int, outranked, passing, score float64) gaps.Metrics {
	m := gaps.Metrics{Answers: answers, Mentions: mentions, AnswersNamingBrands: naming, OutrankedShare: outranked,
		PassingShare: passing, MeanVisibilityScore: score}
	if answers > 0 {
		m.MentionRate = jobs.Rate{Value: float64(mentions) / float64(answers)}
	}
	return m
}

// The classifier picks the first tier that holds, in the documented order,
// at the documented thresholds.
func TestClassify(t *testing.T) {
	r := gaps.Defaults
	cases := []struct {
		name string
		m    gaps.Metrics
		want gaps.Tier // "" for no gap
	}{
		{"no answers", metrics(0, 0, 0, 0, 0, 0), ""},
		{"never named", metrics(8, 0, 6, 1, 0, 0), gaps.TierNoMention},
		{"never named, no brands at all", metrics(8, 0, 0, 0, 0, 0), gaps.TierNoMention},
		{"named, out-ranked in most", metrics(8, 8, 8, 0.75, 0, 60), gaps.TierCompetitorDominated},
		{"out-ranked in exactly half is not most", metrics(8, 8, 8, 0.5, 0, 60), ""},
		{"out-ranked and rarely named: dominated first", metrics(8, 2, 8, 0.9, 0, 20), gaps.TierCompetitorDominated},
		{"named in fewer than half", metrics(8, 3, 3, 0, 0, 60), gaps.TierLowVisibility},
		{"named in exactly half is not fewer", metrics(8, 4, 4, 0, 0, 60), ""},
		{"named in most, in passing", metrics(8, 8, 8, 0, 0.75, 60), gaps.TierWeakMention},
		{"named in most, low score", metrics(8, 6, 6, 0.1, 0, 34.9), gaps.TierWeakMention},
		{"score at the threshold is not low", metrics(8, 6, 6, 0.1, 0.5, 35), ""},
		{"named first and often", metrics(8, 8, 8, 0, 0.1, 70), ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := r.Classify(tc.m)
			if ok != (tc.want != "") || got != tc.want {
				t.Errorf("Classify = %q, %v; want %q", got, ok, tc.want)
			}
		})
	}
}

func TestPriority(t *testing.T) {
	s := func(v string) *string { return &v }
	r := gaps.Defaults
	cases := []struct {
		tier            gaps.Tier
		schedule        *string
		holds, answered int
		want            int
	}{
		{gaps.TierNoMention, s(queries.ScheduleHourly), 2, 2, 100},
		{gaps.TierNoMention, s(queries.ScheduleDaily), 2, 2, 90},
		{gaps.TierCompetitorDominated, s(queries.ScheduleDaily), 1, 2, 57}, // 85 × 0.9 × 0.75
		{gaps.TierLowVisibility, s(queries.ScheduleWeekly), 3, 3, 56},      // 70 × 0.8
		{gaps.TierWeakMention, nil, 1, 4, 22},                              // 50 × 0.7 × 0.625
		{gaps.TierWeakMention, s("monthly"), 0, 0, 35},                     // unknown schedule weighs as none
		// Exact halves round up, though 85 × 0.7 is 59.4999… in binary.
		{gaps.TierCompetitorDominated, nil, 2, 2, 60},                      // 85 × 0.7 = 59.5
		{gaps.TierCompetitorDominated, s(queries.ScheduleDaily), 2, 2, 77}, // 85 × 0.9 = 76.5
		{gaps.TierWeakMention, s(queries.ScheduleDaily), 1, 1, 45},         // 50 × 0.9
	}
	for _, tc := range cases {
		q := queries.Query{Schedule: tc.schedule}
		if got := r.Priority(tc.tier, gaps.Weight(q, tc.holds, tc.answered)); got != tc.want {
			t.Errorf("%s %v %d/%d: priority %d, want %d", tc.tier, tc.schedule, tc.holds, tc.answered, got, tc.want)
		}
	}
}

// Measure counts what the classifier reads.
func TestMeasure(t *testing.T) {
	r := gaps.Defaults
	answers := []gaps.Answer{
		{Platform: "chatgpt", Mentioned: true, Count: 3, Rank: 1, FirstAt: 0.05, Score: 80, NamesBrands: true},
		{Platform: "chatgpt", Mentioned: true, Count: 1, Rank: 2, FirstAt: 0.7, Score: 30, NamesBrands: true, Leader: "Notion", Ahead: []string{"Notion"}},
		{Platform: "perplexity", Mentioned: false, FirstAt: -1, Score: 0, NamesBrands: true, Leader: "Notion", Ahead: []string{"Notion", "Evernote"}},
		{Platform: "perplexity", Mentioned: false, FirstAt: -1, Score: 0, NamesBrands: false},
	}
	m := r.Measure(answers)
	if m.Answers != 4 || m.Mentions != 2 || m.MentionRate.Value != 0.5 || m.MentionRate.Low <= 0 || m.MentionRate.High >= 1 {
		t.Errorf("mentions %+v", m)
	}
	if m.MeanRank == nil || *m.MeanRank != 1.5 || m.AnswersNamingBrands != 3 || m.OutrankedShare != 2.0/3 {
		t.Errorf("rank %v, naming %d, outranked %v", m.MeanRank, m.AnswersNamingBrands, m.OutrankedShare)
	}
	if m.MeanVisibilityScore != 27.5 || m.LateShare != 0.5 || m.SingleShare != 0.5 || m.PassingShare != 0.5 {
		t.Errorf("passing %+v", m)
	}
	if m.TopCompetitor == nil || m.TopCompetitor.Name != "Notion" || m.TopCompetitor.Answers != 2 {
		t.Errorf("top competitor %+v", m.TopCompetitor)
	}
	if m := r.Measure(nil); m.MeanRank != nil || m.TopCompetitor != nil || m.Answers != 0 {
		t.Errorf("no answers: %+v", m)
	}
}
