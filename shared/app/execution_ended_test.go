package app_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/queue"
	"github.com/brandlens/brandlens/shared/queue/sqstest"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/secrets"
)

// worker-execution-ended, on the EventBridge event of a FAILED execution
// (events/eventbridge-execution-failed.json): the job its settle step never
// settled is settled from what it recorded — here nothing, so failed at 0
// credits with the hold released —, once however often the event comes,
// and an event of a succeeded execution changes nothing.
func TestExecutionEndedSettlesTheJob(t *testing.T) {
	clearEnv(t)
	c := emulatedCloud(t)
	tpl := loadTemplate(t)
	tbl := emulatedTable(t, c)
	repos := seedAcme(t, tbl)
	ctx := context.Background()
	svc, err := app.NewServices(repos, app.Deps{Logger: quiet(), Jobs: queue.NewSQS(sqstest.Start(t), c.jobsURL, nil),
		Deliveries: queue.NewSQS(sqstest.Start(t), c.deliveriesURL, nil), Secrets: secrets.NewSealer(secrets.NewMemoryKeyring())})
	if err != nil {
		t.Fatal(err)
	}
	a, err := svc.Runs.Start(ctx, runs.Request{TenantID: 1, QueryID: 1, Samples: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Runs.MarkRunning(ctx, runs.StepInput{JobID: a.Job.ID, TenantID: 1}); err != nil {
		t.Fatal(err)
	}
	event := strings.ReplaceAll(string(readEvent(t, "eventbridge-execution-failed.json")), "01jexample0000000000000000", a.Job.ID)
	asm, err := coldStart(t, c, tpl, "worker-execution-ended", quiet())
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		var out app.ExecutionEndedReport
		if err := json.Unmarshal(invoke(t, asm, []byte(event)), &out); err != nil || out.JobID != a.Job.ID || out.Status != jobs.StatusFailed {
			t.Fatalf("%+v %v", out, err)
		}
	}
	j, err := repos.Jobs.Get(ctx, 1, a.Job.ID)
	if err != nil || j.Status != jobs.StatusFailed || j.CreditsCharged != 0 || j.Error == nil || !strings.Contains(*j.Error, "the table is throttling") {
		t.Fatalf("job %+v %v", j, err)
	}
	b, err := repos.Ledger.Balance(ctx, 1)
	if err != nil || b.Held != 0 || b.Available != 100 || b.Captured != 0 {
		t.Fatalf("balance %+v %v", b, err)
	}

	ok := strings.Replace(event, `"status": "FAILED"`, `"status": "SUCCEEDED"`, 1)
	var out app.ExecutionEndedReport
	if err := json.Unmarshal(invoke(t, asm, []byte(ok)), &out); err != nil || out.JobID != "" {
		t.Fatalf("a succeeded execution: %+v %v", out, err)
	}
}
