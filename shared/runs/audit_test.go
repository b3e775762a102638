package runs_test

import (
	"context"
	"testing"

	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/models"
)

// Every platform call of a run is audited with the exact question sent,
// the model, the answer and the key that asked for the run: a successful
// call in the transaction that records its answer, a failed one on its
// own with its error.
func TestPlatformCallsAreAudited(t *testing.T) {
	backends(t, func(t *testing.T, e *env) {
		x := newExecEnv(t, e, map[string]string{"chatgpt": "ok", "perplexity": "fail"})
		ctx := context.Background()
		r := x.req("", "")
		r.Actor = audit.ActorOf(x.p)
		j := x.runWith(t, r)
		page, err := audit.NewLog(x.svc.Table).List(ctx, 1, audit.Filter{Action: "platform.answer"})
		if err != nil {
			t.Fatal(err)
		}
		byVendor := map[string]audit.Entry{}
		for _, e := range page.Items {
			byVendor[e.Model.Vendor] = e
		}
		if len(page.Items) != 2 {
			t.Fatalf("%d platform.answer entries: %+v", len(page.Items), page.Items)
		}
		want := []models.Message{{Role: models.RoleUser, Content: "best note taking app"}}
		for _, p := range []string{"chatgpt", "perplexity"} {
			e := byVendor[p]
			if e.Model == nil || len(e.Model.Prompt) != 1 || e.Model.Prompt[0] != want[0] {
				t.Fatalf("%s: prompt %+v", p, e.Model)
			}
			if e.Actor != audit.ActorOf(x.p) || e.JobID != j.ID || e.Resource != "query:1" {
				t.Errorf("%s: entry %+v", p, e)
			}
		}
		if ok := byVendor["chatgpt"]; ok.Outcome != audit.OutcomeSucceeded || ok.Model.Model != "m-1" || ok.Model.Response == "" || ok.Model.Error != "" {
			t.Errorf("chatgpt call: %+v %+v", ok, ok.Model)
		}
		if bad := byVendor["perplexity"]; bad.Outcome != audit.OutcomeFailed || bad.Model.Error == "" || bad.Model.Response != "" {
			t.Errorf("perplexity call: %+v %+v", bad, bad.Model)
		}
		run, err := audit.NewLog(x.svc.Table).List(ctx, 1, audit.Filter{Action: "queries.run"})
		if err != nil || len(run.Items) != 1 || run.Items[0].Actor.KeyID != x.p.KeyID || run.Items[0].JobID != j.ID {
			t.Fatalf("the run request's entry: %+v %v", run.Items, err)
		}
	})
}
