package config

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"time"

	"github.com/brandlens/brandlens/shared/queue"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/workflow"
	"github.com/brandlens/brandlens/statemachines"
)

// Local is the in-process runtime of `brandlens serve`: the jobs queue, the
// workflow runner executing the same ASL file as Step Functions (each Task
// resolved to its in-process step handler), and the scheduler's timer.
type Local struct {
	Jobs     *queue.Local
	Workflow *workflow.Local
	svc      *Services
	logger   *slog.Logger
	// SchedulerEvery is the scheduler's period (BRANDLENS_SCHEDULER_INTERVAL,
	// default one minute; 0 turns it off).
	SchedulerEvery time.Duration
}

// EnvSchedulerInterval sets the local scheduler's period (a Go duration).
const EnvSchedulerInterval = "BRANDLENS_SCHEDULER_INTERVAL"

// NewLocal wires the local runtime into svc (providers, jobs queue).
func (c Config) NewLocal(ctx context.Context, svc *Services, logger *slog.Logger) (*Local, error) {
	provs, err := c.Providers(ctx)
	if err != nil {
		return nil, err
	}
	m, err := workflow.Load(statemachines.QueryExecution, runs.Substitutions)
	if err != nil {
		return nil, fmt.Errorf("config: load query-execution.asl.json: %w", err)
	}
	every := time.Minute
	if v := os.Getenv(EnvSchedulerInterval); v != "" {
		if every, err = time.ParseDuration(v); err != nil {
			return nil, fmt.Errorf("config: %s: %w", EnvSchedulerInterval, err)
		}
	}
	jobsQ := queue.NewLocal(queue.LocalOptions{})
	svc.Runs.Providers = provs
	svc.Runs.Sender = jobsQ
	svc.Runs.Logger = logger
	wf := workflow.NewLocal(map[string]*workflow.Machine{runs.QueryExecution: m}, svc.Runs)
	return &Local{Jobs: jobsQ, Workflow: wf, svc: svc, logger: logger, SchedulerEvery: every}, nil
}

// Run serves the queue and the scheduler until ctx ends.
func (l *Local) Run(ctx context.Context) error {
	errc := make(chan error, 1)
	go func() { errc <- l.Jobs.Run(ctx, runs.Dispatch(l.Workflow), 4) }()
	if l.SchedulerEvery > 0 {
		go l.schedule(ctx)
	}
	err := <-errc
	_ = l.Workflow.Close()
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

func (l *Local) schedule(ctx context.Context) {
	t := time.NewTicker(l.SchedulerEvery)
	defer t.Stop()
	for {
		rep, err := l.svc.Runs.RunSchedules(ctx)
		if err != nil && ctx.Err() == nil {
			l.logger.Error("scheduler", "error", err.Error())
		} else if rep.Started+rep.Requeued > 0 {
			l.logger.Info("scheduler", "started", rep.Started, "requeued", rep.Requeued, "refused", strconv.Itoa(rep.Refused))
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
