package main

import (
	"fmt"

	"github.com/brandlens/brandlens/shared/app"
)

// queueParameters bound the concurrent invocations of each queue's
// consumer (its event source's ScalingConfig.MaximumConcurrency).
func queueParameters() []edgeEntry {
	var out []edgeEntry
	for _, q := range app.Queues {
		out = append(out, edgeEntry{"", q.ConcurrencyParam(), mapping("Type", str("Number"), "Default", integer(q.Concurrency),
			"MinValue", integer(2), "MaxValue", integer(1000),
			"Description", str(fmt.Sprintf("Maximum concurrent invocations of %s by %s (ScalingConfig.MaximumConcurrency)", q.Consumer, q.ID)))})
	}
	return out
}

// queueResources are the queues of app.Queues, each with its dead-letter
// queue (the older queues are written by hand in head.yaml); their alarms
// and outputs are derived by type like head.yaml's.
func queueResources() []resource {
	const sec = "  # ---- Queues of the function table (app.Queues) ----"
	var out []resource
	for _, q := range app.Queues {
		dlq := q.DeadLetterID()
		out = append(out,
			resource{sec, "", dlq, mapping("Type", str("AWS::SQS::Queue"), "Properties", mapping(
				"MessageRetentionPeriod", integer(1209600),
				"SqsManagedSseEnabled", boolean(true)))},
			resource{sec, q.Comment, q.ID, mapping("Type", str("AWS::SQS::Queue"), "Properties", mapping(
				"VisibilityTimeout", integer(q.VisibilityTimeout),
				"SqsManagedSseEnabled", boolean(true),
				"RedrivePolicy", mapping(
					"deadLetterTargetArn", getAtt(dlq+".Arn"),
					"maxReceiveCount", integer(q.MaxReceiveCount))))})
	}
	return out
}
