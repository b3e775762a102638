package main

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/metrics"
	"github.com/brandlens/brandlens/shared/platforms"
)

// The dashboard: the business figures the code writes as embedded-metric-
// format lines (package metrics), then the operations of every resource
// class the alarms watch, then the alarms' states. Its body is JSON inside
// !Sub, so that ${…} names the stack's resources.

const businessNamespace = "brandlens/${AWS::StackName}"

type widget struct {
	Type       string         `json:"type"`
	X          int            `json:"x"`
	Y          int            `json:"y"`
	Width      int            `json:"width"`
	Height     int            `json:"height"`
	Properties map[string]any `json:"properties"`
}

func graph(title string, period int, stat string, stacked bool, ms [][]any) map[string]any {
	return map[string]any{"title": title, "view": "timeSeries", "stacked": stacked, "region": "${AWS::Region}",
		"period": period, "stat": stat, "metrics": ms}
}

func dashboard(all []resource) resource {
	var ws []map[string]any
	var kinds []string
	add := func(kind string, p map[string]any) { ws = append(ws, p); kinds = append(kinds, kind) }

	add("text", map[string]any{"markdown": "# brandlens ${AWS::StackName}\nBusiness figures (written by the code as embedded-metric-format log lines, namespace `" +
		businessNamespace + "`), then operations. What each alarm means and what to do: README, \"Alarms\"."})
	var bySt [][]any
	for _, s := range jobs.Statuses {
		if s != jobs.StatusQueued && s != jobs.StatusRunning {
			bySt = append(bySt, []any{businessNamespace, metrics.JobsSettled, metrics.DimStatus, s})
		}
	}
	add("metric", graph("Jobs settled by status (per hour)", 3600, "Sum", true, bySt))
	var byPf [][]any
	for _, p := range platforms.All {
		byPf = append(byPf, []any{businessNamespace, metrics.ProviderFailures, metrics.DimPlatform, p})
	}
	add("metric", graph("Provider failures by platform: samples without an answer (per hour)", 3600, "Sum", false, byPf))
	add("metric", graph("Credits captured per day", 86400, "Sum", false, [][]any{{businessNamespace, metrics.CreditsCaptured}}))

	var queues, machines, fnErrors [][]any
	var alarmARNs []string
	for _, r := range all {
		switch r.typ() {
		case "AWS::Serverless::HttpApi":
			api := []any{"ApiId", "${" + r.id + "}", "Stage", "$default"}
			add("metric", graph("API requests and 5xx", 300, "Sum", false, [][]any{
				append([]any{"AWS/ApiGateway", "Count"}, api...), append([]any{"AWS/ApiGateway", "5xx"}, api...)}))
			add("metric", graph("API latency p99 (ms)", 300, "p99", false, [][]any{append([]any{"AWS/ApiGateway", "Latency"}, api...)}))
		case "AWS::SQS::Queue":
			queues = append(queues, []any{"AWS/SQS", "ApproximateNumberOfMessagesVisible", "QueueName", "${" + r.id + ".QueueName}"})
		case "AWS::Serverless::StateMachine":
			for _, m := range []string{"ExecutionsStarted", "ExecutionsSucceeded", "ExecutionsFailed", "ExecutionsTimedOut", "ExecutionsAborted"} {
				machines = append(machines, []any{"AWS/States", m, "StateMachineArn", "${" + r.id + "}"})
			}
		case "AWS::Serverless::Function":
			if f, ok := app.FunctionNamed(functionName(r.id)); ok && f.Kind != app.KindAPI {
				fnErrors = append(fnErrors, []any{"AWS/Lambda", "Errors", "FunctionName", "${" + r.id + "}"})
			}
		case "AWS::CloudWatch::Alarm":
			alarmARNs = append(alarmARNs, "${"+r.id+".Arn}")
		}
	}
	add("metric", graph("Messages waiting per queue (dead-letter queues included)", 60, "Maximum", false, queues))
	add("metric", graph("Workflow executions", 300, "Sum", false, machines))
	add("metric", graph("Errors of the workers, steps and scheduler", 300, "Sum", false, fnErrors))
	slices.Sort(alarmARNs)
	add("alarm", map[string]any{"title": "Alarms", "alarms": alarmARNs, "sortBy": "stateUpdatedTimestamp"})

	// Two columns of 12, rows of 6; the text and the alarm list span both.
	var body struct {
		Widgets []widget `json:"widgets"`
	}
	x, y := 0, 0
	for i, p := range ws {
		w := widget{Type: kinds[i], Width: 12, Height: 6, Properties: p}
		if kinds[i] != "metric" {
			if x != 0 {
				x, y = 0, y+6
			}
			w.Width, w.Height = 24, 3
			if kinds[i] == "alarm" {
				w.Height = 8
			}
		}
		w.X, w.Y = x, y
		x += w.Width
		if x >= 24 {
			x, y = 0, y+w.Height
		}
		body.Widgets = append(body.Widgets, w)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(body)
	return resource{section: "  # ---- Dashboard: business figures and operations ----", id: "Dashboard",
		node: mapping("Type", str("AWS::CloudWatch::Dashboard"), "Properties", mapping(
			// Dashboards are named per account, across regions.
			"DashboardName", sub("${AWS::StackName}-${AWS::Region}"),
			"DashboardBody", subBody(strings.TrimSpace(b.String()))))}
}

// subBody is !Sub of a JSON document, written single-quoted on one line.
func subBody(s string) *yaml.Node {
	n := sub(s)
	n.Style = yaml.SingleQuotedStyle
	return n
}

// functionName is the function of the table whose logical id is id.
func functionName(id string) string {
	for _, f := range app.Functions() {
		if app.LogicalID(f.Name) == id {
			return f.Name
		}
	}
	return ""
}
