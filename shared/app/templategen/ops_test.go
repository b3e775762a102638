package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"gopkg.in/yaml.v3"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/metrics"
	"github.com/brandlens/brandlens/shared/platforms"
)

// Checks of what makes the stack deployable beside another stage, bounded,
// observable and operable: names, build, concurrency, secrets, CORS,
// alarms, dashboard, outputs and samconfig.toml.

// alarmTargets are the resources an alarm's metrics name in their
// dimensions (!Ref X or !GetAtt X.Attr).
func alarmTargets(alarm node) []string {
	var dims []node
	dims = append(dims, alarm.get("Properties", "Dimensions").items()...)
	for _, m := range alarm.get("Properties", "Metrics").items() {
		dims = append(dims, m.get("MetricStat", "Metric", "Dimensions").items()...)
	}
	var out []string
	for _, d := range dims {
		v := d.get("Value")
		if v.Tag == "!Ref" || v.Tag == "!GetAtt" {
			id, _, _ := strings.Cut(v.Value, ".")
			if !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
	}
	return out
}

// alarmMetrics are the metric names of an alarm, with its statistic.
func alarmMetrics(alarm node) []string {
	p := alarm.get("Properties")
	if name := p.get("MetricName").str(); name != "" {
		stat := p.get("Statistic").str() + p.get("ExtendedStatistic").str()
		return []string{p.get("Namespace").str() + "/" + name + ":" + stat}
	}
	var out []string
	for _, m := range p.get("Metrics").items() {
		if ms := m.get("MetricStat"); ms.ok() {
			out = append(out, ms.get("Metric", "Namespace").str()+"/"+ms.get("Metric", "MetricName").str()+":"+ms.get("Stat").str())
		}
	}
	return out
}

// alarmsOn lists, per resource, the metrics of the alarms that watch it.
func alarmsOn(tp tpl) map[string][]string {
	out := map[string][]string{}
	for _, a := range tp.ofType("AWS::CloudWatch::Alarm") {
		for _, id := range alarmTargets(a) {
			out[id] = append(out[id], alarmMetrics(a)...)
		}
	}
	return out
}

func TestAlarms(t *testing.T) {
	tp := load(t)
	if tp.resources["AlarmTopic"].get("Type").str() != "AWS::SNS::Topic" {
		t.Fatal("no SNS topic AlarmTopic")
	}
	sub := tp.resources["AlarmEmailSubscription"]
	if sub.get("Condition").str() != "HasAlarmEmail" || !sub.get("Properties", "Endpoint").isRef("AlarmEmail") ||
		sub.get("Properties", "Protocol").str() != "email" || !sub.get("Properties", "TopicArn").isRef("AlarmTopic") ||
		tp.root.get("Parameters", "AlarmEmail", "Default").str() != "" {
		t.Error("want an email subscription of AlarmTopic to the parameter AlarmEmail (default empty: none)")
	}
	for id, a := range tp.ofType("AWS::CloudWatch::Alarm") {
		p := a.get("Properties")
		acts, oks := p.get("AlarmActions").items(), p.get("OKActions").items()
		if len(acts) != 1 || !acts[0].isRef("AlarmTopic") || len(oks) != 1 || !oks[0].isRef("AlarmTopic") {
			t.Errorf("%s does not notify AlarmTopic when it fires and recovers", id)
		}
		if !strings.Contains(p.get("AlarmDescription").str(), "Runbook: README") {
			t.Errorf("%s: the description must point at its runbook entry", id)
		}
		if p.get("TreatMissingData").str() != "notBreaching" {
			t.Errorf("%s: missing data (no traffic) must not breach", id)
		}
		if len(alarmTargets(a)) == 0 {
			t.Errorf("%s watches no resource of the template", id)
		}
	}

	on := alarmsOn(tp)
	want := func(id string, metrics ...string) {
		t.Helper()
		for _, m := range metrics {
			if !slices.Contains(on[id], m) {
				t.Errorf("no alarm on %s's %s (it has %v)", id, m, on[id])
			}
		}
	}
	// Every resource class, whatever resources the tables add later.
	dlqs := deadLetterQueues(resourcesOf(tp))
	if len(dlqs) < 2 {
		t.Fatalf("dead-letter queues %v", dlqs)
	}
	for id := range tp.ofType("AWS::SQS::Queue") {
		if slices.Contains(dlqs, id) {
			want(id, "AWS/SQS/ApproximateNumberOfMessagesVisible:Maximum")
		} else {
			want(id, "AWS/SQS/ApproximateAgeOfOldestMessage:Maximum")
		}
	}
	for id := range tp.ofType("AWS::Serverless::StateMachine") {
		want(id, "AWS/States/ExecutionsFailed:Sum", "AWS/States/ExecutionsTimedOut:Sum", "AWS/States/ExecutionsAborted:Sum")
	}
	for _, f := range app.Functions() {
		id := app.LogicalID(f.Name)
		if f.Kind != app.KindAPI {
			want(id, "AWS/Lambda/Errors:Sum", "AWS/Lambda/Invocations:Sum", "AWS/Lambda/Throttles:Sum")
		} else if f.Gradual {
			want(id, "AWS/Lambda/Errors:Sum")
		}
	}
	streams := 0
	for _, es := range tp.ofType("AWS::Lambda::EventSourceMapping") {
		if es.get("Properties", "EventSourceArn").Value == "Table.StreamArn" {
			streams++
			want(strings.TrimSuffix(es.get("Properties", "FunctionName").Value, ".Alias"), "AWS/Lambda/IteratorAge:Maximum")
		}
	}
	if streams == 0 {
		t.Error("no stream event source")
	}
	want("HttpApi", "AWS/ApiGateway/5xx:Sum", "AWS/ApiGateway/Count:Sum", "AWS/ApiGateway/Latency:p99")
	want("Table", "AWS/DynamoDB/ReadThrottleEvents:Sum", "AWS/DynamoDB/WriteThrottleEvents:Sum")
	want("ScheduleGroup", "AWS/Scheduler/TargetErrorCount:Sum")
	if id := app.LogicalID("worker-dispatch"); !strings.Contains(tp.resources["JobsQueueAgeAlarm"].get("Properties", "AlarmDescription").str(), "QueueAgeAlarmSeconds") {
		t.Errorf("the jobs queue's age alarm (consumer %s) must say its threshold", id)
	}
}

// resourcesOf is the template's resources as the generator sees them.
func resourcesOf(tp tpl) []resource {
	var out []resource
	for id, n := range tp.resources {
		out = append(out, resource{id: id, node: n.Node})
	}
	return out
}

func TestDashboard(t *testing.T) {
	tp := load(t)
	d := tp.resources["Dashboard"]
	body := d.get("Properties", "DashboardBody")
	if body.Tag != "!Sub" || !strings.Contains(d.get("Properties", "DashboardName").str(), "${AWS::StackName}") {
		t.Fatal("DashboardBody must be !Sub and DashboardName derive from the stack")
	}
	// Substitutions resolve to strings, so the body with them is JSON.
	filled := regexp.MustCompile(`\$\{[^}]+\}`).ReplaceAllString(body.Value, "x")
	var doc struct {
		Widgets []struct {
			Type       string
			Properties struct {
				Metrics [][]any
				Alarms  []string
			}
		}
	}
	if err := json.Unmarshal([]byte(filled), &doc); err != nil {
		t.Fatalf("DashboardBody is not JSON: %v", err)
	}
	series := map[string]bool{}
	alarms := 0
	for _, w := range doc.Widgets {
		for _, m := range w.Properties.Metrics {
			var parts []string
			for _, p := range m {
				if s, ok := p.(string); ok {
					parts = append(parts, s)
				}
			}
			series[strings.Join(parts, " ")] = true
		}
		alarms += len(w.Properties.Alarms)
	}
	var wantSeries []string
	for _, s := range []string{jobs.StatusSucceeded, jobs.StatusPartial, jobs.StatusFailed} {
		wantSeries = append(wantSeries, "brandlens/x "+metrics.JobsSettled+" "+metrics.DimStatus+" "+s)
	}
	for _, p := range platforms.All {
		wantSeries = append(wantSeries, "brandlens/x "+metrics.ProviderFailures+" "+metrics.DimPlatform+" "+p)
	}
	wantSeries = append(wantSeries, "brandlens/x "+metrics.CreditsCaptured)
	for _, s := range wantSeries {
		if !series[s] {
			t.Errorf("the dashboard has no series %q", s)
		}
	}
	if !strings.Contains(body.Value, `"brandlens/${AWS::StackName}"`) {
		t.Error("the business figures must be read from the namespace the functions write (BRANDLENS_METRICS_NAMESPACE)")
	}
	if n := len(tp.ofType("AWS::CloudWatch::Alarm")); alarms != n {
		t.Errorf("the dashboard lists %d alarms, the template has %d", alarms, n)
	}
}

func TestOutputs(t *testing.T) {
	tp := load(t)
	out := tp.root.get("Outputs")
	has := func(name string) bool { return out.get(name, "Value").ok() }
	for id, r := range tp.resources {
		var names []string
		switch r.get("Type").str() {
		case "AWS::SecretsManager::Secret", "AWS::Serverless::StateMachine", "AWS::SNS::Topic":
			names = []string{id + "Arn"}
		case "AWS::SQS::Queue":
			names = []string{id + "Url", id + "Arn"}
		case "AWS::S3::Bucket":
			names = []string{id + "Name"}
		case "AWS::CloudFront::Distribution":
			names = []string{id + "Id", id + "DomainName"}
		}
		for _, n := range names {
			if !has(n) {
				t.Errorf("no output %s", n)
			}
		}
	}
	for _, n := range []string{"ApiUrl", "TableName", "DashboardUrl", "AlarmTopicArn", "JobsDeadLetterQueueUrl", "ProviderKeysSecretArn"} {
		if !has(n) {
			t.Errorf("no output %s", n)
		}
	}
}

// TestDeployableBesideAnotherStage: nothing has a name that a second
// stack in the same account and region would collide with.
func TestDeployableBesideAnotherStage(t *testing.T) {
	tp := load(t)
	named := 0
	for id, r := range tp.resources {
		p := r.get("Properties")
		for _, key := range []string{"FunctionName", "LogGroupName", "AlarmName", "DashboardName", "Name", "TopicName", "QueueName", "TableName", "StateMachineName"} {
			v := p.get(key)
			if !v.ok() || (key == "FunctionName" && r.get("Type").str() == "AWS::Lambda::EventSourceMapping") {
				continue
			}
			named++
			if v.Tag != "!Sub" || !strings.Contains(v.Value, "${AWS::StackName}") {
				t.Errorf("%s.%s %s %q does not derive from the stack's name", id, key, v.Tag, v.Value)
			}
		}
		for _, ev := range p.get("Events").entries() {
			if ev[1].get("Type").str() != "ScheduleV2" {
				continue
			}
			ep := ev[1].get("Properties")
			if ep.get("OmitName").str() != "true" || ep.get("Name").ok() || !ep.get("GroupName").isRef("ScheduleGroup") {
				t.Errorf("%s schedule %s: want OmitName true (SAM would name it after its logical id) in the stack's ScheduleGroup", id, ev[0].Value)
			}
		}
	}
	if named < 2*len(app.Functions()) {
		t.Errorf("only %d named properties checked", named)
	}
	// The stream filter matches on the record's dynamodb member only.
	for id, es := range tp.ofType("AWS::Lambda::EventSourceMapping") {
		for _, f := range es.get("Properties", "FilterCriteria", "Filters").items() {
			var pattern map[string]any
			if err := json.Unmarshal([]byte(f.get("Pattern").str()), &pattern); err != nil {
				t.Fatalf("%s: filter %q: %v", id, f.get("Pattern").str(), err)
			}
			for k := range pattern {
				if k != "dynamodb" {
					t.Errorf("%s filters on %q: DynamoDB sources filter on the dynamodb member only", id, k)
				}
			}
		}
	}
}

// TestConcurrencyIsBounded: queue consumers have a maximum concurrency and
// the AI platform step a reserved one, each a parameter with bounds.
func TestConcurrencyIsBounded(t *testing.T) {
	tp := load(t)
	param := func(ref node, min, max int) bool {
		p := tp.root.get("Parameters", ref.Value)
		lo := p.get("MinValue").str()
		hi := p.get("MaxValue").str()
		return ref.Tag == "!Ref" && p.get("Type").str() == "Number" && p.get("Default").ok() && lo != "" && lo >= itoa(min) && (max == 0 || (hi != "" && len(hi) <= len(itoa(max))))
	}
	queues := 0
	for id, es := range tp.ofType("AWS::Lambda::EventSourceMapping") {
		if strings.HasSuffix(es.get("Properties", "EventSourceArn").Value, "Queue.Arn") {
			queues++
			if mc := es.get("Properties", "ScalingConfig", "MaximumConcurrency"); !param(mc, 2, 1000) {
				t.Errorf("%s: ScalingConfig.MaximumConcurrency must be !Ref a Number parameter within 2–1000", id)
			}
		}
	}
	if queues < 2 {
		t.Errorf("%d queue event sources", queues)
	}
	platform := tp.resources[app.LogicalID("step-run-platforms")]
	if !param(platform.get("Properties", "ReservedConcurrentExecutions"), 1, 0) {
		t.Error("step-run-platforms must have ReservedConcurrentExecutions from a bounded parameter")
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func TestSecretsAreKept(t *testing.T) {
	tp := load(t)
	secrets := tp.ofType("AWS::SecretsManager::Secret")
	if len(secrets) < 3 {
		t.Fatalf("%d secrets", len(secrets))
	}
	var pol struct {
		Statement []struct {
			Effect   string
			Action   any
			Resource any
		}
	}
	b, err := StackPolicy()
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &pol); err != nil {
		t.Fatal(err)
	}
	denied := map[string]bool{}
	for _, st := range pol.Statement {
		acts, _ := st.Action.([]any)
		if st.Effect == "Deny" && slices.Contains(acts, any("Update:Replace")) && slices.Contains(acts, any("Update:Delete")) {
			for _, r := range st.Resource.([]any) {
				denied[strings.TrimPrefix(r.(string), "LogicalResourceId/")] = true
			}
		}
	}
	for id, s := range secrets {
		if s.get("DeletionPolicy").str() != "Retain" || s.get("UpdateReplacePolicy").str() != "Retain" {
			t.Errorf("secret %s must have DeletionPolicy and UpdateReplacePolicy Retain", id)
		}
		if !denied[id] {
			t.Errorf("the stack policy lets an update replace or delete the secret %s", id)
		}
	}
	for _, id := range []string{"Table", app.SecretsKey} {
		if !denied[id] {
			t.Errorf("the stack policy lets an update replace or delete %s", id)
		}
	}
	if k := tp.resources[app.SecretsKey]; k.get("DeletionPolicy").str() != "Retain" || k.get("UpdateReplacePolicy").str() != "Retain" {
		t.Error("the secrets key must have DeletionPolicy and UpdateReplacePolicy Retain")
	}
}

// TestCORS: browsers on the page's origin may call every method of the
// route table with the headers the API reads; API Gateway answers their
// preflight before the $default route would.
func TestCORS(t *testing.T) {
	tp := load(t)
	cors := tp.resources["HttpApi"].get("Properties", "CorsConfiguration")
	origins := cors.get("AllowOrigins").items()
	if len(origins) != 1 || !origins[0].isRef("AllowedOrigin") || tp.root.get("Parameters", "AllowedOrigin", "AllowedPattern").str() == "" {
		t.Fatalf("AllowOrigins must be [!Ref AllowedOrigin], a checked parameter")
	}
	list := func(key string) []string {
		var out []string
		for _, n := range cors.get(key).items() {
			out = append(out, strings.ToLower(n.str()))
		}
		return out
	}
	methods := list("AllowMethods")
	for _, r := range routes() {
		if r.Method != "ANY" && !slices.Contains(methods, strings.ToLower(r.Method)) {
			t.Errorf("AllowMethods lacks %s (%s)", r.Method, r.Path)
		}
	}
	for _, h := range []string{"content-type", "x-api-key", "idempotency-key"} {
		if !slices.Contains(list("AllowHeaders"), h) {
			t.Errorf("AllowHeaders lacks %s", h)
		}
	}
	for _, h := range []string{"retry-after", "x-request-id"} {
		if !slices.Contains(list("ExposeHeaders"), h) {
			t.Errorf("ExposeHeaders lacks %s", h)
		}
	}
	if cors.get("AllowCredentials").str() == "true" {
		t.Error("keys travel in X-API-Key, not cookies: no AllowCredentials")
	}
	if age := cors.get("MaxAge").str(); age == "" || age == "0" {
		t.Error("MaxAge lets browsers keep the preflight")
	}
	_ = http.MethodOptions
}

// samconfig is samconfig.toml: environments of sam commands' parameters.
type samconfig map[string]map[string]struct {
	Parameters map[string]any `toml:"parameters"`
}

// TestSamconfig: staging and prod deploy without prompts, each its own
// stack named after its stage, with the stage and every parameter that
// has no default given.
func TestSamconfig(t *testing.T) {
	tp := load(t)
	var cfg samconfig
	raw, err := os.ReadFile(filepath.Join(root, "samconfig.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := toml.Decode(string(raw), &cfg); err != nil {
		t.Fatal(err)
	}
	var required []string
	for _, e := range tp.root.get("Parameters").entries() {
		if !e[1].get("Default").ok() {
			required = append(required, e[0].Value)
		}
	}
	for _, stage := range []string{"staging", "prod"} {
		t.Run(stage, func(t *testing.T) {
			env, ok := cfg[stage]
			if !ok {
				t.Fatalf("no [%s] environment", stage)
			}
			deploy := env["deploy"].Parameters
			build := env["build"].Parameters
			if deploy["stack_name"] != "brandlens-"+stage {
				t.Errorf("stack_name %v, want brandlens-%s (Makefile's stack-policy target names it so)", deploy["stack_name"], stage)
			}
			if deploy["confirm_changeset"] != false || deploy["fail_on_empty_changeset"] != false {
				t.Error("deploys must not prompt (confirm_changeset = false) nor fail when nothing changed")
			}
			if caps, _ := deploy["capabilities"].(string); !strings.Contains(caps, "CAPABILITY_IAM") {
				t.Errorf("capabilities %q", caps)
			}
			overrides, _ := deploy["parameter_overrides"].(string)
			if !strings.Contains(overrides, "Stage="+stage) {
				t.Errorf("parameter_overrides %q lack Stage=%s", overrides, stage)
			}
			for _, p := range required {
				if !regexp.MustCompile(`(^|\s)` + p + `=\S`).MatchString(overrides) {
					t.Errorf("parameter_overrides lack %s, which has no default", p)
				}
			}
			if build["build_in_source"] != true {
				t.Error("sam build must build in source (build_in_source = true): CodeUri is the repository")
			}
		})
	}
	_ = yaml.Node{}
}
