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

// AdjudicationRequest is one question to an Adjudicator.
type AdjudicationRequest struct {
	Entity   string  // the tracked name ("Notion")
	Surface  string  // the word as written ("Notion")
	Query    string  // the monitoring query, possibly empty
	Sentence string  // the sentence in doubt
	Context  string  // the sentences around it
	Score    float64 // the rules' evidence score (threshold evidenceThreshold)
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
				Entity: an.d.ents[c.ent].name, Surface: an.text[c.start:c.end], Query: an.query,
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
