package runs

import "context"

// Metrics receives the business figures of each settled job: CloudWatch
// embedded-metric-format lines in Lambda (package metrics), nothing in
// `brandlens serve`. A job is reported once, by the Settle that commits it.
type Metrics interface {
	JobSettled(ctx context.Context, s Settled)
}

// Settled is what one settled job adds to the business figures.
type Settled struct {
	// Status is succeeded, partial or failed.
	Status string
	// CreditsCaptured is what the job was charged.
	CreditsCaptured int64
	// FailedSamples counts, per platform, the samples that got no answer.
	FailedSamples map[string]int
}

type noMetrics struct{}

func (noMetrics) JobSettled(context.Context, Settled) {}

// settledFigures is what a committed Settle reports: succeeded holds the
// recorded answers per platform of the job's platforms × samples.
func settledFigures(status string, platforms []string, samples int, succeeded map[string][]PlatformOutput, captured int64) Settled {
	failed := map[string]int{}
	for _, p := range platforms {
		if n := samples - len(succeeded[p]); n > 0 {
			failed[p] = n
		}
	}
	return Settled{Status: status, CreditsCaptured: captured, FailedSamples: failed}
}
