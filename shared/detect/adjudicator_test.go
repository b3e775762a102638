package detect

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// fakeAdjudicator answers every question with yes (or err) and records
// what it was asked.
type fakeAdjudicator struct {
	yes  bool
	err  error
	reqs []AdjudicationRequest
}

func (f *fakeAdjudicator) Adjudicate(_ context.Context, req AdjudicationRequest) (bool, error) {
	f.reqs = append(f.reqs, req)
	return f.yes, f.err
}

func TestAdjudicatorOnlyInTheAmbiguousBand(t *testing.T) {
	const query = "note taking app for students"
	cases := []struct {
		name        string
		text        string
		yes         bool
		wantAsked   int
		wantVerdict Verdict
	}{
		// predicate (0.5) + query topic (0.3) = 0.8: rejected by the rules, in the band
		{"ambiguous, adjudicator says yes", "Notion is known for its flexibility.", true, 1, VerdictMentioned},
		{"ambiguous, adjudicator says no", "Notion is known for its flexibility.", false, 1, VerdictOrdinaryWord},
		// cue + capital: far above the threshold
		{"clear product", "Students organise classes in the Notion app.", false, 0, VerdictMentioned},
		// lower case, no cue: rejected outright
		{"clear word", "She had a notion of how to fix it.", true, 0, VerdictOrdinaryWord},
		{"no candidate", "Obsidian keeps notes as Markdown files.", true, 0, VerdictNotMentioned},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			adj := &fakeAdjudicator{yes: tc.yes}
			d := New(notion, nil, WithAdjudicator(adj))
			r, err := d.Analyze(context.Background(), Input{Text: tc.text, Query: query})
			if err != nil {
				t.Fatal(err)
			}
			if len(adj.reqs) != tc.wantAsked {
				t.Fatalf("asked %d times, want %d: %+v", len(adj.reqs), tc.wantAsked, adj.reqs)
			}
			if r.Verdict != tc.wantVerdict {
				t.Errorf("verdict %s, want %s", r.Verdict, tc.wantVerdict)
			}
			for _, req := range adj.reqs {
				if req.Entity != "Notion" || req.Sentence != tc.text || req.Query != query || !ambiguous(req.Score) {
					t.Errorf("request %+v", req)
				}
				for _, part := range []string{`"Notion"`, `"` + query + `"`, `"` + tc.text + `"`, "yes or no"} {
					if !strings.Contains(req.Prompt, part) {
						t.Errorf("prompt lacks %s:\n%s", part, req.Prompt)
					}
				}
			}
			// Detect is the offline, rule-based path: never consulted.
			before := len(adj.reqs)
			d.Detect(tc.text, nil)
			if len(adj.reqs) != before {
				t.Errorf("Detect consulted the adjudicator")
			}
		})
	}
}

func TestAdjudicatorErrorKeepsTheRules(t *testing.T) {
	boom := errors.New("model unavailable")
	adj := &fakeAdjudicator{err: boom}
	d := New(notion, nil, WithAdjudicator(adj))
	in := Input{Text: "Notion is known for its flexibility.", Query: "note taking app for students"}
	r, err := d.Analyze(context.Background(), in)
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want it to wrap %v", err, boom)
	}
	rules, _ := New(notion, nil).Analyze(context.Background(), in)
	if r.Verdict != rules.Verdict || r.Confidence != rules.Confidence || !r.Ambiguous {
		t.Errorf("with a failing adjudicator %s/%.2f/%v, rules alone %s/%.2f", r.Verdict, r.Confidence, r.Ambiguous, rules.Verdict, rules.Confidence)
	}
}

func TestAnalyzeIsPureAndVersioned(t *testing.T) {
	d := New(notion, []Entity{{Name: "Obsidian", Domains: []string{"obsidian.md"}}})
	in := Input{Text: "Notion is known for its flexibility. Obsidian offers plugins.", Query: "notion or obsidian"}
	a, _ := d.Analyze(context.Background(), in)
	b, _ := New(notion, []Entity{{Name: "Obsidian", Domains: []string{"obsidian.md"}}}).Analyze(context.Background(), in)
	if a.Version != Version || a.Verdict != b.Verdict || a.VisibilityScore != b.VisibilityScore || a.Sentiment != b.Sentiment {
		t.Fatalf("re-running detection differs: %+v vs %+v", a, b)
	}
}

func TestVerdictsList(t *testing.T) {
	got := Verdicts()
	want := []Verdict{VerdictMentioned, VerdictUnknownToModel, VerdictCitedOnly, VerdictOrdinaryWord, VerdictNotMentioned}
	if len(got) != len(want) {
		t.Fatalf("%v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%v, want %v", got, want)
		}
	}
	got[0] = "changed" // the list is a fresh copy
	if Verdicts()[0] != VerdictMentioned {
		t.Fatal("Verdicts shares its backing array")
	}
}

// questionAdjudicator answers sentiment questions by kind (criticism,
// praise; unset kinds fail the test) and records them.
type questionAdjudicator struct {
	t       *testing.T
	answers map[Question]bool
	err     error
	reqs    []AdjudicationRequest
}

// evernote is no ordinary word: no mention question is asked about it.
var evernote = Entity{Name: "Evernote"}

func (q *questionAdjudicator) Adjudicate(_ context.Context, req AdjudicationRequest) (bool, error) {
	q.reqs = append(q.reqs, req)
	if q.err != nil {
		return false, q.err
	}
	yes, ok := q.answers[req.Question]
	if !ok {
		q.t.Errorf("asked %s, not expected", req.Question)
	}
	return yes, nil
}

func TestSentimentAdjudicationOnlyInDoubt(t *testing.T) {
	const query = "evernote review"
	// faint: "slightly" halves the criticism, below sentClear beside clear
	// praise; the rules read positive
	const faint = "Evernote is excellent for wikis, and its sync is slightly slow."
	cases := []struct {
		name    string
		text    string
		answers map[Question]bool
		asked   []Question
		want    Sentiment
	}{
		{"faint criticism confirmed", faint, map[Question]bool{QuestionCriticism: true}, []Question{QuestionCriticism}, Mixed},
		{"faint criticism denied", faint, map[Question]bool{QuestionCriticism: false}, []Question{QuestionCriticism}, Positive},
		{"faint praise confirmed", "Evernote is a note app; it is okay.", map[Question]bool{QuestionPraise: true}, []Question{QuestionPraise}, Positive},
		{"faint praise denied", "Evernote is a note app; it is okay.", map[Question]bool{QuestionPraise: false}, []Question{QuestionPraise}, Neutral},
		// clear praise and clear criticism: the rules decide
		{"clear mixed", "Evernote can feel slow on huge pages, but it is excellent for wikis.", nil, nil, Mixed},
		{"no polarity", "Evernote is a note-taking app with pages and databases.", nil, nil, Neutral},
		// praise beside a verdict against the brand is not in doubt
		{"verdict", "Evernote is powerful, but it's rarely the right tool for a law firm.", nil, nil, Negative},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{Text: tc.text, Query: query}
			rules, _ := New(evernote, nil).Analyze(context.Background(), in)
			adj := &questionAdjudicator{t: t, answers: tc.answers}
			d := New(evernote, nil, WithAdjudicator(adj))
			r, err := d.Analyze(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			var asked []Question
			for _, req := range adj.reqs {
				asked = append(asked, req.Question)
				prompt := map[Question]string{QuestionCriticism: CriticismPrompt, QuestionPraise: PraisePrompt}[req.Question]
				if req.Entity != "Evernote" || req.Query != query || req.Prompt != fmt.Sprintf(prompt, "Evernote", query, req.Sentence) ||
					!strings.Contains(tc.text, strings.TrimSuffix(strings.SplitN(req.Sentence, " … ", 2)[0], ".")) {
					t.Errorf("request %+v", req)
				}
			}
			if !slices.Equal(asked, tc.asked) {
				t.Fatalf("asked %v, want %v (rules: %s)", asked, tc.asked, rules.Sentiment)
			}
			if r.Sentiment != tc.want || r.Brand.Sentiment != tc.want {
				t.Errorf("sentiment %s (brand %s), want %s; rules alone %s", r.Sentiment, r.Brand.Sentiment, tc.want, rules.Sentiment)
			}
			if (r.Sentiment == Negative || r.Sentiment == Mixed) && r.NegativeEvidence == "" {
				t.Errorf("no negative evidence")
			}
			if r.Sentiment == Positive && r.NegativeEvidence != "" {
				t.Errorf("negative evidence %q on a positive reading", r.NegativeEvidence)
			}
			before := len(adj.reqs)
			if d.Detect(tc.text, nil); len(adj.reqs) != before {
				t.Errorf("Detect consulted the adjudicator")
			}
		})
	}
}

func TestSentimentAdjudicationErrorKeepsTheRules(t *testing.T) {
	boom := errors.New("model unavailable")
	in := Input{Text: "Evernote is excellent for wikis, and its sync is slightly slow.", Query: "evernote review"}
	r, err := New(evernote, nil, WithAdjudicator(&questionAdjudicator{t: t, err: boom})).Analyze(context.Background(), in)
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want it to wrap %v", err, boom)
	}
	rules, _ := New(evernote, nil).Analyze(context.Background(), in)
	if r.Sentiment != rules.Sentiment || r.NegativeEvidence != rules.NegativeEvidence {
		t.Errorf("with a failing adjudicator %s %q, rules alone %s %q", r.Sentiment, r.NegativeEvidence, rules.Sentiment, rules.NegativeEvidence)
	}
}
