package runs

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/brandlens/brandlens/shared/adjudication"
	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/detect"
	"github.com/brandlens/brandlens/shared/models"
)

// ActionAdjudicate is the audit action of a question to the adjudicating
// model.
const ActionAdjudicate = "model.adjudicate"

// adjudications is the detect.Adjudicator of one answer's analysis: it
// asks the configured Adjudicator and keeps every call for the audit log.
// Analyze asks one question at a time, so it needs no lock.
type adjudications struct {
	ask   Adjudicator
	calls []adjudicationCall
}

type adjudicationCall struct {
	req detect.AdjudicationRequest
	ans adjudication.Answer
	err error
}

func (a *adjudications) Adjudicate(ctx context.Context, req detect.AdjudicationRequest) (bool, error) {
	ans, err := a.ask.Ask(ctx, req)
	a.calls = append(a.calls, adjudicationCall{req: req, ans: ans, err: err})
	return ans.Yes, err
}

// entries are the audit entries of the questions asked (none for a nil
// receiver): the exact prompt and answer, on the visibility result they
// decided.
func (a *adjudications) entries(it Item, vr VisibilityResult, actor audit.Actor, now time.Time) []audit.Entry {
	if a == nil {
		return nil
	}
	out := make([]audit.Entry, 0, len(a.calls))
	for _, c := range a.calls {
		call := audit.Generation(c.ans.Messages, c.ans.Response)
		outcome := audit.OutcomeSucceeded
		if c.err != nil {
			outcome, call.Error = audit.OutcomeFailed, c.err.Error()
			var me *models.Error
			if errors.As(c.err, &me) && call.Vendor == "" {
				call.Vendor, call.Model = me.Vendor, me.Model
			}
		}
		e := audit.New(it.TenantID, actor, ActionAdjudicate, audit.Resource("visibility_result", vr.ID), outcome, now)
		e.JobID = it.JobID
		q := fmt.Sprintf("is %q %s here?", c.req.Surface, c.req.Entity)
		switch c.req.Question {
		case detect.QuestionCriticism:
			q = fmt.Sprintf("does the answer criticise %s?", c.req.Entity)
		case detect.QuestionPraise:
			q = fmt.Sprintf("does the answer praise %s?", c.req.Entity)
		}
		e.Detail = fmt.Sprintf("%s, sample %d, query %d: %s", it.Platform, it.Sample, vr.QueryID, q)
		out = append(out, e.WithModelCall(call))
	}
	return out
}
