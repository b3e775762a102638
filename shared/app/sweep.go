package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"time"

	awsevents "github.com/aws/aws-lambda-go/events"

	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/meter"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/workflow"
)

// definition is the state machine of Workflows named name (nil: none).
func definition(name string) []byte {
	for _, w := range Workflows {
		if w.Name == name {
			return w.Definition
		}
	}
	return nil
}

// jobKinds tells the jobs sweep how to treat each job type: query runs by
// their provider-derived deadline (plus the bound of their workflow's
// other steps) and their own settle; the metered jobs
// by the bound of their state machine (every task's TimeoutSeconds and
// retries, meter's work steps having no finer bound) and meter's settle,
// which captures the price when the work took effect and releases it
// otherwise. Publishing is bounded by its workflow too, which waits up to
// 7 days for a review; a job held for an L0 agent's review is left to its
// review (jobs.Job.Held).
func jobKinds(rs *runs.Service, mt *meter.Service, timeouts map[string]time.Duration) (map[string]jobs.Kind, error) {
	// A run's platform step keeps its own deadline (runs.Deadline); the
	// rest of its workflow is bounded like the metered jobs' state machines.
	steps, err := machineBound(definition(runs.QueryExecution), runs.PlatformsState)
	if err != nil {
		return nil, fmt.Errorf("app: the deadline of query runs: %w", err)
	}
	kinds := map[string]jobs.Kind{jobs.TypeQueryRun: rs.Kind(timeouts, steps)}
	for _, typ := range jobs.Types {
		name, ok := meter.Machine(typ)
		if !ok {
			continue
		}
		bound, err := machineBound(definition(name))
		if err != nil {
			return nil, fmt.Errorf("app: the deadline of %s jobs: %w", typ, err)
		}
		kinds[typ] = jobs.Kind{
			Deadline: func(jobs.Job) time.Duration { return bound },
			Settle: func(ctx context.Context, j jobs.Job, f jobs.Failure) error {
				_, err := mt.Settle(ctx, meter.SettleInput{JobID: j.ID, TenantID: j.TenantID, Type: j.Type,
					Failure: &workflow.ExecutionError{Name: f.Error, Cause: f.Cause}})
				return err
			},
		}
	}
	return kinds, nil
}

var placeholder = regexp.MustCompile(`\$\{([A-Za-z0-9_]+)\}`)

// machineBound is MaxDuration of a definition without the states named
// except, a Map taking no item (its placeholders filled with their own
// names: resources do not change how long it may take).
func machineBound(def []byte, except ...string) (time.Duration, error) {
	if def == nil {
		return 0, fmt.Errorf("no state machine")
	}
	subs := map[string]string{}
	for _, m := range placeholder.FindAllSubmatch(def, -1) {
		subs[string(m[1])] = string(m[1])
	}
	m, err := workflow.Load(def, subs)
	if err != nil {
		return 0, err
	}
	return m.MaxDurationWithout(0, except...)
}

// SchedulerReport is what one pass of the scheduler did: the scheduled
// runs it started (when schedules are on) and the jobs sweep.
type SchedulerReport struct {
	runs.ScheduleReport
	// Shards counts the shard messages sent to the schedules queue (AWS).
	Shards int `json:"shards,omitempty"`
	// Schedules tells whether scheduled runs are on.
	Schedules bool             `json:"schedules"`
	Sweep     jobs.SweepReport `json:"sweep"`
}

// RunScheduler is one pass of the scheduler (the scheduler function every
// 5 minutes in AWS, the local timer in `brandlens serve`): when schedules
// is set, the due runs of scheduled queries — started here, or with a
// schedules queue, fanned out to it one message per shard of the due
// index —, then the jobs sweep.
func (s *Services) RunScheduler(ctx context.Context, schedules bool) (SchedulerReport, error) {
	rep := SchedulerReport{Schedules: schedules}
	if schedules {
		var err error
		if s.schedules != nil {
			rep.ScheduleReport, rep.Shards, err = s.Runs.FanOutSchedules(ctx, s.schedules)
		} else {
			rep.ScheduleReport, err = s.Runs.RunSchedules(ctx)
		}
		if err != nil {
			return rep, err
		}
	}
	var err error
	rep.Sweep, err = s.Sweeper.Sweep(ctx, false)
	return rep, err
}

// executionInput is what every workflow execution starts with: the job.
type executionInput struct {
	JobID    string `json:"jobId"`
	TenantID int32  `json:"tenantId"`
}

// settleFailedExecution settles the job of a workflow execution that
// failed, timed out or was aborted, from what the job recorded — the
// settle the execution did not reach. A job already settled is left as
// it is.
func (s *Services) settleFailedExecution(ctx context.Context, input json.RawMessage, f jobs.Failure) (jobs.Job, error) {
	var in executionInput
	if err := json.Unmarshal(input, &in); err != nil || in.JobID == "" || in.TenantID == 0 {
		return jobs.Job{}, fmt.Errorf("app: an execution input without a job: %.200s", input)
	}
	j, err := s.Sweeper.SettleFailed(ctx, in.TenantID, in.JobID, f)
	if err != nil {
		return j, fmt.Errorf("app: settle job %s after its execution ended: %w", in.JobID, err)
	}
	s.Logger.Warn("job settled after its workflow execution ended without settling it", "job_id", j.ID, "tenant_id", j.TenantID,
		"status", j.Status, "error", f.Error)
	return j, nil
}

// executionStatusChange is the detail of EventBridge's "Step Functions
// Execution Status Change" event.
type executionStatusChange struct {
	ExecutionArn    string  `json:"executionArn"`
	StateMachineArn string  `json:"stateMachineArn"`
	Name            string  `json:"name"`
	Status          string  `json:"status"`
	Input           string  `json:"input"`
	Error           *string `json:"error"`
	Cause           *string `json:"cause"`
}

// ExecutionEndedReport is what worker-execution-ended did with one event.
type ExecutionEndedReport struct {
	JobID  string `json:"jobId"`
	Status string `json:"status"`
}

// executionEndedHandler settles the job of an execution that ended
// FAILED, TIMED_OUT or ABORTED. An event of anything else is ignored; a
// settle that fails is returned, so that EventBridge retries it.
func executionEndedHandler(svc *Services) func(ctx context.Context, ev awsevents.EventBridgeEvent) (ExecutionEndedReport, error) {
	return func(ctx context.Context, ev awsevents.EventBridgeEvent) (ExecutionEndedReport, error) {
		var d executionStatusChange
		if err := json.Unmarshal(ev.Detail, &d); err != nil {
			svc.Logger.Error("execution status change: unreadable detail", "event_id", ev.ID, "error", err.Error())
			return ExecutionEndedReport{}, nil
		}
		f, ok := executionFailure(d)
		if !ok {
			return ExecutionEndedReport{}, nil
		}
		j, err := svc.settleFailedExecution(ctx, json.RawMessage(d.Input), f)
		if errors.Is(err, jobs.ErrNotFound) {
			return ExecutionEndedReport{JobID: j.ID, Status: "missing"}, nil
		}
		if err != nil {
			return ExecutionEndedReport{}, err
		}
		return ExecutionEndedReport{JobID: j.ID, Status: j.Status}, nil
	}
}

// executionFailure is the failure a status change reports; ok is false for
// a status that is no failure.
func executionFailure(d executionStatusChange) (jobs.Failure, bool) {
	names := map[string]string{"FAILED": "States.Runtime", "TIMED_OUT": workflow.ErrorTimeout, "ABORTED": "ExecutionAborted"}
	name, ok := names[d.Status]
	if !ok {
		return jobs.Failure{}, false
	}
	f := jobs.Failure{Error: name, Cause: "the workflow execution ended " + d.Status + " before settling the job"}
	if d.Error != nil && *d.Error != "" {
		f.Error = *d.Error
	}
	if d.Cause != nil && *d.Cause != "" {
		f.Cause = *d.Cause
	}
	return f, true
}
