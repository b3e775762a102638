package runs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/meter"
	"github.com/brandlens/brandlens/shared/queue"
	"github.com/brandlens/brandlens/shared/workflow"
)

// QueryExecution names the query-execution state machine.
const QueryExecution = "query-execution"

// Machine names the state machine that runs a job of type jobType and the
// input it starts with: query runs have their own, every other metered
// job the one meter.Machine names. A message without a type (sent before
// messages carried it) is a query run.
func Machine(msg Message) (name string, input any, ok bool) {
	if msg.Type == "" || msg.Type == jobs.TypeQueryRun {
		return QueryExecution, StepInput{JobID: msg.JobID, TenantID: msg.TenantID}, true
	}
	name, ok = meter.Machine(msg.Type)
	return name, meter.Message{JobID: msg.JobID, TenantID: msg.TenantID, Type: msg.Type}, ok
}

// Dispatch returns the jobs-queue handler: it starts the workflow of the
// job's type with the job id as execution name, so a message delivered
// twice starts one execution. Messages that can never start anything (not
// JSON, no job id, a type no workflow runs, a job whose execution already
// ended) are logged and dropped: a retry would only carry them to the
// dead-letter queue.
func Dispatch(starter workflow.Starter, logger *slog.Logger) queue.Handler {
	return func(ctx context.Context, m queue.Message) error {
		var msg Message
		if err := json.Unmarshal(m.Body, &msg); err != nil || msg.JobID == "" {
			logger.Error("jobs queue: malformed message dropped", "body_bytes", len(m.Body))
			return nil
		}
		machine, in, ok := Machine(msg)
		if !ok {
			logger.Error("jobs queue: no workflow runs this job type; message dropped", "job_id", msg.JobID, "type", msg.Type)
			return nil
		}
		input, err := json.Marshal(in)
		if err != nil {
			return err
		}
		err = starter.Start(ctx, machine, msg.JobID, input)
		var ended *workflow.ExecutionEndedError
		if errors.As(err, &ended) {
			// The name cannot run again. The job is settled by the
			// execution-ended rule, or by the sweep at its deadline when
			// that event was lost.
			logger.Warn("jobs queue: the job's workflow execution already ended; message dropped",
				"job_id", msg.JobID, "machine", machine, "status", ended.Status)
			return nil
		}
		if err != nil {
			return fmt.Errorf("runs: start %s workflow of job %s: %w", machine, msg.JobID, err)
		}
		return nil
	}
}
