package detect

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Adjudicator answers, for one ordinary-word mention the rules find
// ambiguous, whether it names the product. Implementations call a chat
// model with AdjudicationPrompt; the detector consults one only through
// Analyze, only for candidates whose evidence score lies in the ambiguous
// band, and never in Detect, so offline behaviour is the rule-based one.
type Adjudicator interface {
	Adjudicate(ctx context.Context, req AdjudicationRequest) (bool, error)
}

// Question is what an AdjudicationRequest asks.
type Question string

const (
	// QuestionMention: does the word name the product (AdjudicationPrompt)?
	QuestionMention Question = "mention"
	// QuestionCriticism: does the brand's text criticise it
	// (CriticismPrompt)?
	QuestionCriticism Question = "criticism"
	// QuestionPraise: does the brand's text praise it (PraisePrompt)?
	QuestionPraise Question = "praise"
)

// AdjudicationRequest is one question to an Adjudicator.
type AdjudicationRequest struct {
	Question Question
	Entity   string // the tracked name ("Notion")
	Surface  string // the word as written ("Notion"); the name, for sentiment
	Query    string // the monitoring query, possibly empty
	Sentence string // the sentence in doubt; for sentiment, the brand's text
	Context  string // the sentences around it; empty for sentiment
	// Score is the rules' evidence score (threshold evidenceThreshold), or
	// for sentiment their weight of the criticism or praise asked about
	// (clear from sentClear).
	Score float64
	// Prompt is AdjudicationPrompt filled in: send it verbatim and audit it.
	Prompt string
}

// AdjudicationPrompt is the fixed yes/no prompt, exported so it can be
// audited verbatim. Its %[n]q verbs take, in order: the tracked name, the
// query, the sentence in doubt and the surrounding context.
const AdjudicationPrompt = `You check brand-monitoring results. Answer with exactly one word: yes or no.

Tracked product or company: %[1]q
The question a user asked an AI assistant: %[2]q
A sentence from the assistant's answer: %[3]q
The text around that sentence: %[4]q

In that sentence, does the word %[1]q refer to the tracked product or company (yes), or is it used as an ordinary word, a verb, part of an idiom, a heading phrase or a menu label (no)?`

// maxAdjudications bounds the model calls per answer.
const maxAdjudications = 4

// adjudicate asks adj about the guarded candidates whose evidence is
// ambiguous, brand first, and applies its answers. Errors leave the rule's
// decision and are joined.
func (an *analysis) adjudicate(ctx context.Context, adj Adjudicator) error {
	if adj == nil {
		return nil
	}
	sc := an.sc
	var errs []error
	asked := 0
	for pass := 0; pass < 2 && asked < maxAdjudications; pass++ {
		for i := range sc.cands {
			c := &sc.cands[i]
			if !c.guarded || !c.scored || c.adjudicated || (c.ent == 0) != (pass == 0) || !ambiguous(c.score) {
				continue
			}
			if asked == maxAdjudications {
				break
			}
			asked++
			rec := &sc.sents[c.srec]
			req := AdjudicationRequest{
				Question: QuestionMention, Entity: an.d.ents[c.ent].name, Surface: an.text[c.start:c.end], Query: an.query,
				Sentence: an.text[rec.start:rec.end], Context: an.around(rec), Score: c.score,
			}
			req.Prompt = fmt.Sprintf(AdjudicationPrompt, req.Entity, req.Query, req.Sentence, req.Context)
			yes, err := adj.Adjudicate(ctx, req)
			if err != nil {
				errs = append(errs, fmt.Errorf("adjudicate %q: %w", req.Surface, err))
				continue
			}
			c.adjudicated = true
			switch {
			case yes && c.state != candAccepted:
				an.accept(c, guardConfidence(evidenceThreshold))
			case !yes && c.state == candAccepted:
				c.state = candRejected
			}
		}
	}
	return errors.Join(errs...)
}

// around returns up to 300 bytes either side of the sentence, on rune
// boundaries.
func (an *analysis) around(rec *sentRec) string {
	s, e := max(0, rec.start-300), min(len(an.text), rec.end+300)
	for s < rec.start && !utf8RuneStart(an.text[s]) {
		s++
	}
	for e > rec.end && e < len(an.text) && !utf8RuneStart(an.text[e]) {
		e--
	}
	return strings.TrimSpace(an.text[s:e])
}

// CriticismPrompt and PraisePrompt are the fixed yes/no prompts about the
// brand's sentiment, exported so they can be audited verbatim. Their
// %[n]q verbs take, in order: the tracked name, the query and the brand's
// text (the clauses and sentences the rules read as about it).
const (
	CriticismPrompt = `You check brand-monitoring results. Answer with exactly one word: yes or no.

Tracked product or company: %[1]q
The question a user asked an AI assistant: %[2]q
What the assistant's answer says about it: %[3]q

Does that text criticise %[1]q — state a fault, limitation, risk or cost of it, report complaints about it, or advise against it (yes) — or not (no)? Criticism of other products does not count.`

	PraisePrompt = `You check brand-monitoring results. Answer with exactly one word: yes or no.

Tracked product or company: %[1]q
The question a user asked an AI assistant: %[2]q
What the assistant's answer says about it: %[3]q

Does that text praise %[1]q — state a strength or advantage of it, or recommend it (yes) — or not (no)? Plain description, and praise of other products, do not count.`
)

// maxSentimentTextBytes bounds the brand's text sent with a sentiment
// question.
const maxSentimentTextBytes = 1500

// adjudicateSentiment asks adj about the brand's sentiment when the rules
// leave it in doubt (sentScore.doubt) and applies the answers to res: a
// yes makes the criticism or praise clear, a no removes it. Errors leave
// the rules' reading and are joined.
func (an *analysis) adjudicateSentiment(ctx context.Context, adj Adjudicator, res *Result) error {
	st := &an.sent
	if adj == nil || !res.Brand.Mentioned {
		return nil
	}
	askN, askP := st.doubt()
	if !askN && !askP {
		return nil
	}
	text := an.brandText()
	var errs []error
	ask := func(q Question, prompt string, score float64) (yes, ok bool) {
		req := AdjudicationRequest{Question: q, Entity: an.d.ents[0].name, Surface: an.d.ents[0].name,
			Query: an.query, Sentence: text, Score: score}
		req.Prompt = fmt.Sprintf(prompt, req.Entity, req.Query, req.Sentence)
		yes, err := adj.Adjudicate(ctx, req)
		if err != nil {
			errs = append(errs, fmt.Errorf("adjudicate %s of %q: %w", q, req.Entity, err))
			return false, false
		}
		return yes, true
	}
	P, N := st.P, st.N
	if askN {
		if yes, ok := ask(QuestionCriticism, CriticismPrompt, N); ok {
			N = st.settle(yes, N, P)
		}
	}
	if askP {
		if yes, ok := ask(QuestionPraise, PraisePrompt, P); ok {
			P = st.settle(yes, P, N)
		}
	}
	b := &res.Brand
	b.Sentiment, N, _ = st.answer.judge(an.d.sent, P, N) // the answer-level weighing, as for the rules
	b.NegativeEvidence, b.PositiveEvidence = "", ""
	if N >= sentNeutral {
		b.NegativeEvidence = st.negEvidence
	}
	if P >= sentNeutral {
		b.PositiveEvidence = st.posEvidence
	}
	res.Sentiment, res.NegativeEvidence = b.Sentiment, b.NegativeEvidence
	return errors.Join(errs...)
}

// brandText joins the brand's spans (sorted by brandSentiment), cut to
// maxSentimentTextBytes on a rune boundary.
func (an *analysis) brandText() string {
	var b strings.Builder
	covered := 0
	for _, sp := range an.sc.spans {
		s, e := max(sp[0], covered), sp[1]
		if e <= s {
			continue
		}
		covered = e
		if b.Len() > 0 {
			b.WriteString(" … ")
		}
		b.WriteString(strings.TrimSpace(an.text[s:e]))
		if b.Len() >= maxSentimentTextBytes {
			break
		}
	}
	t := b.String()
	if len(t) > maxSentimentTextBytes {
		e := maxSentimentTextBytes
		for e > 0 && !utf8RuneStart(t[e]) {
			e--
		}
		t = t[:e]
	}
	return t
}
