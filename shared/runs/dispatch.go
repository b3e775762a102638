package runs

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/brandlens/brandlens/shared/queue"
	"github.com/brandlens/brandlens/shared/workflow"
)

// QueryExecution names the query-execution state machine.
const QueryExecution = "query-execution"

// Dispatch returns the jobs-queue handler: it starts the job's workflow
// with the job id as execution name, so a message delivered twice starts
// one execution.
func Dispatch(starter workflow.Starter) queue.Handler {
	return func(ctx context.Context, m queue.Message) error {
		var msg Message
		if err := json.Unmarshal(m.Body, &msg); err != nil || msg.JobID == "" {
			// A malformed message never becomes valid: drop it (logged by the queue).
			return nil
		}
		input, err := json.Marshal(StepInput(msg))
		if err != nil {
			return err
		}
		if err := starter.Start(ctx, QueryExecution, msg.JobID, input); err != nil {
			return fmt.Errorf("runs: start workflow of job %s: %w", msg.JobID, err)
		}
		return nil
	}
}
