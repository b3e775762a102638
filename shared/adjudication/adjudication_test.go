package adjudication_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/adjudication"
	"github.com/brandlens/brandlens/shared/detect"
	"github.com/brandlens/brandlens/shared/models"
)

func TestParse(t *testing.T) {
	cases := []struct {
		text    string
		yes     bool
		unclear bool
	}{
		{"yes", true, false},
		{"Yes.", true, false},
		{" YES!\n", true, false},
		{"no", false, false},
		{"NO", false, false},
		{"No.", false, false},
		{"maybe", false, true},
		{"", false, true},
		{"yes, it does", false, true},
		{"no.  yes", false, true},
		{"Yes. It refers to the product.", false, true},
		{"y", false, true},
	}
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			yes, err := adjudication.Parse(tc.text)
			if tc.unclear {
				if !errors.Is(err, adjudication.ErrUnclear) {
					t.Fatalf("Parse(%q) = %v, %v; want ErrUnclear", tc.text, yes, err)
				}
				return
			}
			if err != nil || yes != tc.yes {
				t.Fatalf("Parse(%q) = %v, %v; want %v", tc.text, yes, err, tc.yes)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"yes", "No.", "maybe", "", "YES!!"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		yes, err := adjudication.Parse(s)
		if err == nil {
			again, _ := adjudication.Parse(map[bool]string{true: "yes", false: "no"}[yes])
			if again != yes {
				t.Fatalf("Parse(%q) = %v, not stable", s, yes)
			}
		}
	})
}

// generator answers text (or fails with err) and records what it was sent.
type generator struct {
	text     string
	err      error
	sent     []models.Request
	deadline time.Duration
}

func (g *generator) Generate(ctx context.Context, req models.Request) (models.Response, error) {
	g.sent = append(g.sent, req)
	if d, ok := ctx.Deadline(); ok {
		g.deadline = time.Until(d)
	}
	if g.err != nil {
		return models.Response{}, g.err
	}
	return models.Response{Text: g.text, Vendor: "openai", Model: "gpt-5-mini", InputTokens: 120, OutputTokens: 1}, nil
}

func TestAskSendsThePromptVerbatim(t *testing.T) {
	req := detect.AdjudicationRequest{Entity: "Notion", Prompt: "the filled prompt, verbatim"}
	boom := &models.Error{Vendor: "openai", Kind: models.KindTimeout, Message: "no answer"}
	cases := []struct {
		name    string
		gen     *generator
		yes     bool
		wantErr error
	}{
		{"yes", &generator{text: "Yes."}, true, nil},
		{"no", &generator{text: "no"}, false, nil},
		{"unclear", &generator{text: "It depends."}, false, adjudication.ErrUnclear},
		{"failed call", &generator{err: boom}, false, boom},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := adjudication.New(tc.gen, 2*time.Second)
			a, err := m.Ask(context.Background(), req)
			if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil) != (err == nil) {
				t.Fatalf("error %v, want %v", err, tc.wantErr)
			}
			if a.Yes != tc.yes {
				t.Errorf("yes = %v, want %v", a.Yes, tc.yes)
			}
			want := models.Message{Role: models.RoleUser, Content: req.Prompt}
			if len(tc.gen.sent) != 1 || len(tc.gen.sent[0].Messages) != 1 || tc.gen.sent[0].Messages[0] != want {
				t.Fatalf("sent %+v", tc.gen.sent)
			}
			if len(a.Messages) != 1 || a.Messages[0] != want {
				t.Errorf("answer messages %+v", a.Messages)
			}
			if tc.gen.deadline <= 0 || tc.gen.deadline > 2*time.Second {
				t.Errorf("deadline in %s, want within the 2s timeout", tc.gen.deadline)
			}
			yes, aerr := m.Adjudicate(context.Background(), req)
			if yes != tc.yes || (aerr == nil) != (err == nil) {
				t.Errorf("Adjudicate = %v, %v; Ask = %v, %v", yes, aerr, a.Yes, err)
			}
		})
	}
}

// promptGenerator answers "yes" to prompts that contain yesIf, "no" to the
// others, and records the prompts.
type promptGenerator struct {
	yesIf   string
	prompts []string
}

func (g *promptGenerator) Generate(_ context.Context, req models.Request) (models.Response, error) {
	p := req.Messages[0].Content
	g.prompts = append(g.prompts, p)
	ans := "no"
	if strings.Contains(p, g.yesIf) {
		ans = "Yes."
	}
	return models.Response{Text: ans, Vendor: "openai", Model: "gpt-5-mini"}, nil
}

// A model behind the detector decides the brand's sentiment where the
// rules are in doubt: faint criticism beside clear praise is mixed when the
// model says the answer criticises the brand, positive when it says not.
func TestModelDecidesSentimentInDoubt(t *testing.T) {
	brand := detect.Entity{Name: "Evernote"}
	in := detect.Input{Text: "Evernote is excellent for web clipping, and its sync is slightly slow.", Query: "evernote review"}
	for _, tc := range []struct {
		yesIf string
		want  detect.Sentiment
	}{
		{"criticise", detect.Mixed},
		{"no prompt says this", detect.Positive},
	} {
		t.Run(string(tc.want), func(t *testing.T) {
			gen := &promptGenerator{yesIf: tc.yesIf}
			d := detect.New(brand, nil, detect.WithAdjudicator(adjudication.New(gen, time.Second)))
			r, err := d.Analyze(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			if r.Sentiment != tc.want {
				t.Errorf("sentiment %s, want %s", r.Sentiment, tc.want)
			}
			want := fmt.Sprintf(detect.CriticismPrompt, "Evernote", in.Query, in.Text)
			if len(gen.prompts) != 1 || gen.prompts[0] != want {
				t.Errorf("prompts %q, want the criticism prompt once:\n%s", gen.prompts, want)
			}
		})
	}
}
