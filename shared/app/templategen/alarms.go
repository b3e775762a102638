package main

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/brandlens/brandlens/shared/app"
)

// Alarms are derived from the template's resources by type, so that a
// queue, state machine, function or stream consumer added to head.yaml or
// to the tables is watched without more code. Every alarm notifies
// AlarmTopic when it fires and when it recovers; its description says what
// it means and points at the README's runbook entry.

const alarmSection = "  # ---- Alarms (derived from the resources by type; runbook: README \"Alarms\") ----"

// metric is one CloudWatch metric with its dimensions.
type metric struct {
	namespace, name string
	dims            [][2]*yaml.Node
}

func (m metric) node() *yaml.Node {
	dims := block()
	for _, d := range m.dims {
		dims.Content = append(dims.Content, mapping("Name", d[0], "Value", d[1]))
	}
	return mapping("Namespace", str(m.namespace), "MetricName", str(m.name), "Dimensions", dims)
}

func dim(name string, v *yaml.Node) [2]*yaml.Node { return [2]*yaml.Node{str(name), v} }

// alarmSpec is one alarm: a single metric and statistic, or an expression
// (Expr) over named metrics.
type alarmSpec struct {
	id, name, description string
	metric                metric
	stat                  string // Sum, Maximum, … or pNN (extended statistic)
	// expr is a metric math expression over exprMetrics (ids m1, m2, …
	// in order) when set.
	expr        string
	exprMetrics []metric
	exprStats   []string
	period      int
	evaluations int
	datapoints  int
	comparison  string
	threshold   *yaml.Node
}

func (a alarmSpec) node() *yaml.Node {
	props := mapping(
		"AlarmName", sub("${AWS::StackName}-"+a.name),
		"AlarmDescription", str(a.description),
		"ActionsEnabled", boolean(true),
		"AlarmActions", block(ref("AlarmTopic")),
		"OKActions", block(ref("AlarmTopic")),
	)
	if a.expr == "" {
		m := a.metric.node()
		for i := 0; i+1 < len(m.Content); i += 2 {
			props.Content = append(props.Content, m.Content[i], m.Content[i+1])
		}
		if strings.HasPrefix(a.stat, "p") {
			add(props, "ExtendedStatistic", str(a.stat))
		} else {
			add(props, "Statistic", str(a.stat))
		}
		add(props, "Period", integer(a.period))
	} else {
		ms := block(mapping("Id", str("e1"), "Expression", str(a.expr), "Label", str(a.name), "ReturnData", boolean(true)))
		for i, m := range a.exprMetrics {
			ms.Content = append(ms.Content, mapping(
				"Id", str(fmt.Sprintf("m%d", i+1)),
				"MetricStat", mapping("Metric", m.node(), "Period", integer(a.period), "Stat", str(a.exprStats[i])),
				"ReturnData", boolean(false)))
		}
		add(props, "Metrics", ms)
	}
	add(props, "EvaluationPeriods", integer(a.evaluations))
	add(props, "DatapointsToAlarm", integer(a.datapoints))
	add(props, "ComparisonOperator", str(a.comparison))
	add(props, "Threshold", a.threshold)
	// No data is no traffic, not a failure.
	add(props, "TreatMissingData", str("notBreaching"))
	return mapping("Type", str("AWS::CloudWatch::Alarm"), "Properties", props)
}

func num(v int) *yaml.Node { return integer(v) }

// deadLetterQueues are the queues another queue's RedrivePolicy names.
func deadLetterQueues(all []resource) []string {
	var out []string
	for _, r := range all {
		if t := get(r.node, "Properties", "RedrivePolicy", "deadLetterTargetArn"); t != nil && t.Tag == "!GetAtt" {
			out = append(out, strings.TrimSuffix(t.Value, ".Arn"))
		}
	}
	return out
}

// alarmsFor derives the alarms of every resource that has a class of them.
func alarmsFor(all []resource, fns []app.Function) []resource {
	var specs []alarmSpec
	dlqs := deadLetterQueues(all)
	byID := map[string]app.Function{}
	for _, f := range fns {
		byID[app.LogicalID(f.Name)] = f
	}
	for _, r := range all {
		switch r.typ() {
		case "AWS::SQS::Queue":
			q := metric{"AWS/SQS", "", [][2]*yaml.Node{dim("QueueName", getAtt(r.id+".QueueName"))}}
			if slices.Contains(dlqs, r.id) {
				q.name = "ApproximateNumberOfMessagesVisible"
				specs = append(specs, alarmSpec{id: r.id + "DepthAlarm", name: r.id + "-depth",
					description: fmt.Sprintf("Messages are waiting in the dead-letter queue %s: their handler kept failing. Runbook: README, Alarms, dead-letter queue.", r.id),
					metric:      q, stat: "Maximum", period: 60, evaluations: 1, datapoints: 1,
					comparison: "GreaterThanThreshold", threshold: num(0)})
				continue
			}
			q.name = "ApproximateAgeOfOldestMessage"
			specs = append(specs, alarmSpec{id: r.id + "AgeAlarm", name: r.id + "-oldest-message",
				description: fmt.Sprintf("The oldest message of %s has waited longer than QueueAgeAlarmSeconds for five minutes: its consumer is failing or cannot keep up. Runbook: README, Alarms, queue age.", r.id),
				metric:      q, stat: "Maximum", period: 60, evaluations: 5, datapoints: 5,
				comparison: "GreaterThanThreshold", threshold: ref("QueueAgeAlarmSeconds")})
		case "AWS::Serverless::StateMachine", "AWS::StepFunctions::StateMachine":
			for _, m := range []struct{ metric, what string }{
				{"ExecutionsFailed", "failed"}, {"ExecutionsTimedOut", "timed out"}, {"ExecutionsAborted", "were aborted"}} {
				specs = append(specs, alarmSpec{id: r.id + strings.TrimPrefix(m.metric, "Executions") + "Alarm",
					name:        r.id + "-" + strings.ToLower(strings.TrimPrefix(m.metric, "Executions")),
					description: fmt.Sprintf("Executions of %s %s: their jobs may be left unsettled until the execution-status rule settles them. Runbook: README, Alarms, workflow executions.", r.id, m.what),
					metric:      metric{"AWS/States", m.metric, [][2]*yaml.Node{dim("StateMachineArn", ref(r.id))}},
					stat:        "Sum", period: 300, evaluations: 1, datapoints: 1,
					comparison: "GreaterThanOrEqualToThreshold", threshold: num(1)})
			}
		case "AWS::Serverless::Function":
			f, ok := byID[r.id]
			if !ok {
				continue
			}
			specs = append(specs, functionAlarms(r.id, f)...)
		case "AWS::Lambda::EventSourceMapping":
			if t := get(r.node, "Properties", "EventSourceArn"); t == nil || !strings.HasSuffix(t.Value, ".StreamArn") {
				continue
			}
			fn := strings.TrimSuffix(get(r.node, "Properties", "FunctionName").Value, ".Alias")
			specs = append(specs, alarmSpec{id: r.id + "IteratorAgeAlarm", name: r.id + "-iterator-age",
				description: fmt.Sprintf("%s reads the table's stream more than a minute behind: outbox events (webhooks) are late. Runbook: README, Alarms, stream iterator age.", fn),
				metric:      metric{"AWS/Lambda", "IteratorAge", [][2]*yaml.Node{dim("FunctionName", ref(fn))}},
				stat:        "Maximum", period: 300, evaluations: 1, datapoints: 1,
				comparison: "GreaterThanThreshold", threshold: num(60000)})
		case "AWS::Serverless::HttpApi":
			api := [][2]*yaml.Node{dim("ApiId", ref(r.id)), dim("Stage", str("$default"))}
			specs = append(specs,
				alarmSpec{id: r.id + "ErrorsAlarm", name: r.id + "-5xx-rate",
					description: "More than ApiErrorRateAlarmPercent of the API's requests were answered 5xx over 5 minutes. Runbook: README, Alarms, API 5xx.",
					expr:        "IF(m2 > 0, 100 * m1 / m2, 0)", exprMetrics: []metric{{"AWS/ApiGateway", "5xx", api}, {"AWS/ApiGateway", "Count", api}},
					exprStats: []string{"Sum", "Sum"}, period: 300, evaluations: 1, datapoints: 1,
					comparison: "GreaterThanThreshold", threshold: ref("ApiErrorRateAlarmPercent")},
				alarmSpec{id: r.id + "LatencyAlarm", name: r.id + "-p99-latency",
					description: "The API's p99 latency stayed above ApiLatencyAlarmMs for 15 minutes. Runbook: README, Alarms, API latency.",
					metric:      metric{"AWS/ApiGateway", "Latency", api}, stat: "p99", period: 300, evaluations: 3, datapoints: 3,
					comparison: "GreaterThanThreshold", threshold: ref("ApiLatencyAlarmMs")})
		case "AWS::DynamoDB::Table":
			table := dim("TableName", ref(r.id))
			var ms []metric
			for _, m := range []string{"ReadThrottleEvents", "WriteThrottleEvents"} {
				ms = append(ms, metric{"AWS/DynamoDB", m, [][2]*yaml.Node{table}})
				for _, gsi := range get(r.node, "Properties", "GlobalSecondaryIndexes").Content {
					ms = append(ms, metric{"AWS/DynamoDB", m, [][2]*yaml.Node{table, dim("GlobalSecondaryIndexName", str(get(gsi, "IndexName").Value))}})
				}
			}
			var terms, stats []string
			for i := range ms {
				terms = append(terms, fmt.Sprintf("FILL(m%d, 0)", i+1))
				stats = append(stats, "Sum")
			}
			specs = append(specs, alarmSpec{id: r.id + "ThrottlesAlarm", name: r.id + "-throttled",
				description: fmt.Sprintf("Requests to %s (or its indexes) were throttled. Runbook: README, Alarms, DynamoDB throttling.", r.id),
				expr:        strings.Join(terms, " + "), exprMetrics: ms, exprStats: stats, period: 300, evaluations: 1, datapoints: 1,
				comparison: "GreaterThanOrEqualToThreshold", threshold: num(1)})
		case "AWS::Scheduler::ScheduleGroup":
			specs = append(specs, alarmSpec{id: r.id + "TargetErrorsAlarm", name: r.id + "-target-errors",
				description: "EventBridge Scheduler could not invoke a schedule's target (the scheduler or the outbox sweep). Runbook: README, Alarms, Scheduler target errors.",
				metric:      metric{"AWS/Scheduler", "TargetErrorCount", [][2]*yaml.Node{dim("ScheduleGroup", ref(r.id))}},
				stat:        "Sum", period: 300, evaluations: 1, datapoints: 1,
				comparison: "GreaterThanOrEqualToThreshold", threshold: num(1)})
		}
	}
	out := make([]resource, len(specs))
	for i, a := range specs {
		out[i] = resource{section: alarmSection, id: a.id, node: a.node()}
	}
	return out
}

// functionAlarms: an errors alarm (rate of failed invocations) on every
// worker, step and scheduler, and on every gradual function (its canary
// rolls back on it); a throttles alarm on the functions no API route
// invokes (API throttling shows as 5xx/429 on the API).
func functionAlarms(id string, f app.Function) []alarmSpec {
	fn := [][2]*yaml.Node{dim("FunctionName", ref(id))}
	var out []alarmSpec
	if f.Kind != app.KindAPI || f.Gradual {
		pct := f.ErrorRatePercent
		if pct == 0 {
			pct = app.DefaultErrorRatePercent
		}
		out = append(out, alarmSpec{id: id + "ErrorsAlarm", name: id + "-errors",
			description: fmt.Sprintf("More than %d%% of %s's invocations failed in 2 of 5 minutes (a gradual deployment rolls back on it). Runbook: README, Alarms, Lambda errors.", pct, f.Name),
			expr:        "IF(m2 > 0, 100 * m1 / m2, 0)", exprMetrics: []metric{{"AWS/Lambda", "Errors", fn}, {"AWS/Lambda", "Invocations", fn}},
			exprStats: []string{"Sum", "Sum"}, period: 60, evaluations: 5, datapoints: 2,
			comparison: "GreaterThanThreshold", threshold: num(pct)})
	}
	if f.Kind != app.KindAPI {
		out = append(out, alarmSpec{id: id + "ThrottlesAlarm", name: id + "-throttles",
			description: fmt.Sprintf("%s was throttled in three 5-minute periods in a row: its reserved concurrency or the account's limit is in use. Runbook: README, Alarms, Lambda throttles.", f.Name),
			metric:      metric{"AWS/Lambda", "Throttles", fn}, stat: "Sum", period: 300, evaluations: 3, datapoints: 3,
			comparison: "GreaterThanOrEqualToThreshold", threshold: num(1)})
	}
	return out
}
