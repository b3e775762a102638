package main

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/content"
	"github.com/brandlens/brandlens/shared/gaps"
	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/meter"
	"github.com/brandlens/brandlens/shared/publish"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/store"
)

const root = "../../.."

// TestTemplateIsGenerated: the committed template.yaml is the generator's
// output, so that the route table, the workers and the workflows are the
// single definition of what is deployed.
func TestTemplateIsGenerated(t *testing.T) {
	want, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, "template.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(got, want) {
		return
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(gl), len(wl)) {
		g, w := "", ""
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Fatalf("template.yaml is not what `go generate ./shared/app` writes; run it.\nfirst difference, line %d:\n  committed: %q\n  generated: %q", i+1, g, w)
		}
	}
}

// TestMakefileHasTheBuildTargets: the Makefile's block of sam build
// targets is the generator's, so that every function of the template can
// be built by `sam build` (BuildMethod: makefile).
func TestMakefileHasTheBuildTargets(t *testing.T) {
	mk, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(mk), BuildTargets()) {
		t.Fatal("the Makefile's sam build targets are not what `make generate` writes; run it")
	}
	again, err := WithBuildTargets(mk)
	if err != nil || !bytes.Equal(again, mk) {
		t.Fatalf("rewriting the block changes the Makefile (err %v)", err)
	}
	if _, err := WithBuildTargets([]byte("all:\n")); err == nil {
		t.Error("a Makefile without the block was accepted")
	}
}

// buildTargets are the Makefile's build-<LogicalId> targets and their
// artifacts.
func buildTargets(t *testing.T) map[string]string {
	t.Helper()
	mk, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^build-(\w+): ARTIFACT = (\S+)$`).FindAllStringSubmatch(string(mk), -1) {
		out[m[1]] = m[2]
	}
	return out
}

// The checks below read the generated template as yaml.Node trees, which
// keep CloudFormation's short tags (!Ref, !GetAtt, !Sub, !If) as tags.

type node struct{ *yaml.Node }

func (n node) get(keys ...string) node {
	cur := n.Node
	for _, k := range keys {
		if cur == nil || cur.Kind != yaml.MappingNode {
			return node{}
		}
		var next *yaml.Node
		for i := 0; i+1 < len(cur.Content); i += 2 {
			if cur.Content[i].Value == k {
				next = cur.Content[i+1]
			}
		}
		cur = next
	}
	return node{cur}
}

func (n node) ok() bool { return n.Node != nil }

func (n node) str() string {
	if n.Node == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}

func (n node) isRef(name string) bool { return n.Node != nil && n.Tag == "!Ref" && n.Value == name }

// items are a sequence's elements, or the node itself (IAM takes a string
// where it takes a list).
func (n node) items() []node {
	if n.Node == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		return []node{n}
	}
	out := make([]node, len(n.Content))
	for i, c := range n.Content {
		out[i] = node{c}
	}
	return out
}

func (n node) entries() [][2]node {
	if n.Node == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	var out [][2]node
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, [2]node{{n.Content[i]}, {n.Content[i+1]}})
	}
	return out
}

type tpl struct {
	raw       []byte
	root      node
	resources map[string]node
}

func load(t *testing.T) tpl {
	t.Helper()
	raw, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("generated template: %v", err)
	}
	tp := tpl{raw: raw, root: node{doc.Content[0]}, resources: map[string]node{}}
	for _, e := range tp.root.get("Resources").entries() {
		if _, dup := tp.resources[e[0].Value]; dup {
			t.Errorf("resource %s is declared twice", e[0].Value)
		}
		tp.resources[e[0].Value] = e[1]
	}
	return tp
}

func (tp tpl) ofType(typ string) map[string]node {
	out := map[string]node{}
	for id, r := range tp.resources {
		if r.get("Type").str() == typ {
			out[id] = r
		}
	}
	return out
}

// prop is a function's property, falling back to Globals.Function.
func (tp tpl) prop(fn node, keys ...string) node {
	if v := fn.get(append([]string{"Properties"}, keys...)...); v.ok() {
		return v
	}
	return tp.root.get(append([]string{"Globals", "Function"}, keys...)...)
}

// walk calls f on every node of the template.
func walk(n *yaml.Node, f func(*yaml.Node)) {
	f(n)
	for _, c := range n.Content {
		walk(c, f)
	}
}

func routes() []httpapi.Route { return append(slices.Clone(httpapi.Routes), httpapi.CatchAll) }

func TestEveryRouteIsAnEventOfItsFunction(t *testing.T) {
	tp := load(t)
	if !strings.Contains(tp.root.get("Transform").str(), "AWS::Serverless-2016-10-31") {
		t.Error("Transform must be AWS::Serverless-2016-10-31")
	}
	if tp.resources["HttpApi"].get("Type").str() != "AWS::Serverless::HttpApi" {
		t.Fatal("resource HttpApi must be an AWS::Serverless::HttpApi")
	}
	routed := map[string]string{} // "METHOD path" → function
	for _, r := range routes() {
		routed[r.Method+" "+r.Path] = r.Function
	}
	seen := map[string]bool{}
	for id, res := range tp.resources {
		for _, ev := range res.get("Properties", "Events").entries() {
			if ev[1].get("Type").str() != "HttpApi" {
				continue
			}
			p := ev[1].get("Properties")
			key := p.get("Method").str() + " " + p.get("Path").str()
			fn := res.get("Properties", "Environment", "Variables", "BRANDLENS_FUNCTION").str()
			switch owner, ok := routed[key]; {
			case !ok:
				t.Errorf("%s: event %s (%s) is no route of httpapi.Routes", id, ev[0].Value, key)
			case owner != fn || id != app.LogicalID(owner):
				t.Errorf("%s: event %s (%s) belongs to function %s", id, ev[0].Value, key, owner)
			}
			if seen[key] {
				t.Errorf("%s: %s is routed twice", id, key)
			}
			seen[key] = true
			if !p.get("ApiId").isRef("HttpApi") || p.get("PayloadFormatVersion").str() != "2.0" {
				t.Errorf("%s event %s: ApiId must be !Ref HttpApi and PayloadFormatVersion \"2.0\" (the Lambda adapter reads payload 2.0)", id, ev[0].Value)
			}
		}
	}
	for key := range routed {
		if !seen[key] {
			t.Errorf("route %s has no HttpApi event", key)
		}
	}
	// Route settings name routes that exist.
	for _, e := range tp.resources["HttpApi"].get("Properties", "RouteSettings").entries() {
		if _, ok := routed[e[0].Value]; !ok {
			t.Errorf("HttpApi RouteSettings names %q, which is no route", e[0].Value)
		}
	}
}

func TestFunctions(t *testing.T) {
	tp := load(t)
	logGroups := tp.ofType("AWS::Logs::LogGroup")
	fns := tp.ofType("AWS::Serverless::Function")
	if len(fns) != len(app.Functions()) {
		t.Errorf("%d functions in the template, %d in the table", len(fns), len(app.Functions()))
	}
	targets := buildTargets(t)
	for _, f := range app.Functions() {
		id := app.LogicalID(f.Name)
		res, ok := fns[id]
		if !ok {
			t.Errorf("no function %s for %s", id, f.Name)
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			if got := tp.prop(res, "Runtime").str(); got != "provided.al2023" {
				t.Errorf("Runtime = %q", got)
			}
			if a := tp.prop(res, "Architectures").items(); len(a) != 1 || a[0].str() != "arm64" {
				t.Error("Architectures must be [arm64]")
			}
			if tp.prop(res, "Handler").str() != "bootstrap" {
				t.Error("Handler must be bootstrap")
			}
			// sam build runs `make build-<LogicalId>` in CodeUri, which the
			// Makefile maps to the function's artifact.
			if uri := res.get("Properties", "CodeUri").str(); uri != "." || !slices.Contains(app.Artifacts, f.Artifact) {
				t.Errorf("CodeUri %q, want . (the Makefile's directory)", uri)
			}
			if res.get("Metadata", "BuildMethod").str() != "makefile" {
				t.Error("Metadata.BuildMethod must be makefile")
			}
			if got := targets[id]; got != f.Artifact {
				t.Errorf("the Makefile builds %s as artifact %q, want %q", id, got, f.Artifact)
			}
			if lc := res.get("Properties", "LoggingConfig"); lc.get("LogFormat").str() != "JSON" ||
				lc.get("ApplicationLogLevel").Tag != "!If" || !lc.get("SystemLogLevel").isRef("SystemLogLevel") {
				t.Error("LoggingConfig must set LogFormat JSON, ApplicationLogLevel (DEBUG or INFO) and SystemLogLevel")
			}
			if rc := res.get("Properties", "ReservedConcurrentExecutions"); (f.ReservedConcurrency != "") != rc.ok() ||
				(rc.ok() && (!rc.isRef(f.ReservedConcurrency) || !tp.root.get("Parameters", f.ReservedConcurrency, "MinValue").ok())) {
				t.Errorf("ReservedConcurrentExecutions %v, want !Ref of the bounded parameter %q", rc.Node, f.ReservedConcurrency)
			}
			// Spans leave through the collector extension, when its layer is given.
			if l := res.get("Properties", "Layers").items(); len(l) != 1 || l[0].Tag != "!If" || l[0].Content[0].Value != "HasTracingLayer" ||
				l[0].Content[1].Tag != "!Ref" || l[0].Content[1].Value != "OtelCollectorLayerArn" {
				t.Error("Layers must be [!If [HasTracingLayer, !Ref OtelCollectorLayerArn, !Ref AWS::NoValue]]")
			}
			checkGradual(t, tp, id, res, f)
			if got := res.get("Properties", "Environment", "Variables", "BRANDLENS_FUNCTION").str(); got != f.Name {
				t.Errorf("BRANDLENS_FUNCTION = %q: the shared bootstrap would serve another function", got)
			}
			// Its own log group, with a retention.
			lgID := res.get("Properties", "LoggingConfig", "LogGroup")
			lg, ok := logGroups[lgID.Value]
			if lgID.Tag != "!Ref" || !ok || !lg.get("Properties", "RetentionInDays").ok() {
				t.Fatalf("LoggingConfig.LogGroup must be !Ref of a log group of the template with a retention")
			}
			if name, fname := lg.get("Properties", "LogGroupName"), res.get("Properties", "FunctionName"); name.Value != "/aws/lambda/"+fname.Value || name.Tag != fname.Tag {
				t.Errorf("log group %s is named %s, not after the function %s", lgID.Value, name.Value, fname.Value)
			}
			checkPolicy(t, tp, res, f)
		})
	}
}

// checkGradual: the write path and the workflow steps deploy through the
// alias live, canary first, rolled back by their own errors alarm; what
// invokes them (event sources, state machines) invokes the alias.
func checkGradual(t *testing.T, tp tpl, id string, res node, f app.Function) {
	t.Helper()
	writes := f.Kind == app.KindAPI && slices.Contains(f.Table, "dynamodb:TransactWriteItems")
	if want := writes || f.Kind == app.KindRunsStep || f.Kind == app.KindJobStep || f.Kind == app.KindJobsDispatch; f.Gradual != want {
		t.Errorf("Gradual = %v, want %v (the write path and the steps deploy gradually)", f.Gradual, want)
	}
	alias := res.get("Properties", "AutoPublishAlias")
	dp := res.get("Properties", "DeploymentPreference")
	if !f.Gradual {
		if alias.ok() || dp.ok() {
			t.Error("AutoPublishAlias/DeploymentPreference on a function that is not gradual")
		}
		return
	}
	if alias.str() != "live" || !dp.get("Type").isRef("DeploymentType") {
		t.Fatal("want AutoPublishAlias live and DeploymentPreference.Type !Ref DeploymentType")
	}
	alarms := dp.get("Alarms").items()
	if len(alarms) == 0 {
		t.Error("DeploymentPreference has no alarms to roll back on")
	}
	for _, a := range alarms {
		alarm, ok := tp.resources[a.Value]
		if a.Tag != "!Ref" || !ok || alarm.get("Type").str() != "AWS::CloudWatch::Alarm" || !slices.Contains(alarmTargets(alarm), id) {
			t.Errorf("DeploymentPreference alarm %s %s is no alarm of %s", a.Tag, a.Value, id)
		}
	}
	for esID, es := range tp.ofType("AWS::Lambda::EventSourceMapping") {
		if fn := es.get("Properties", "FunctionName"); fn.Value == id {
			t.Errorf("%s invokes %s, not its alias %s.Alias", esID, id, id)
		}
	}
}

// dataActionPrefixes are the services whose actions reach data or start
// work: none of their actions may be allowed on every resource.
var dataActionPrefixes = []string{"dynamodb:", "sqs:", "secretsmanager:", "s3:", "states:", "lambda:", "sns:", "kms:"}

// checkPolicy: least privilege, with inline statements only. No data
// action on "*"; the table is reached on the table, its indexes and its
// stream; a function whose routes only read writes nothing but its rate
// limit counter; each secret is readable only by the functions that need
// it; event sources come with their own statements, on their own queue or
// stream (SAM's event types would attach managed policies on "*").
func checkPolicy(t *testing.T, tp tpl, res node, f app.Function) {
	var actions []string
	secrets := map[string]bool{}
	for _, pol := range tp.prop(res, "Policies").items() {
		if pol.Kind == yaml.ScalarNode {
			t.Errorf("managed policy %q: use inline statements", pol.str())
			continue
		}
		for _, st := range pol.get("Statement").items() {
			var acts []string
			for _, a := range st.get("Action").items() {
				acts = append(acts, a.str())
				if a.str() == "*" || strings.HasSuffix(a.str(), ":*") {
					t.Errorf("wildcard action %q", a.str())
				}
			}
			sid := st.get("Sid").str()
			rateLimit := slices.Equal(acts, []string{"dynamodb:UpdateItem"}) && st.get("Condition", "ForAllValues:StringLike", "dynamodb:LeadingKeys").ok()
			if !rateLimit {
				actions = append(actions, acts...)
			}
			for _, r := range st.get("Resource").items() {
				for _, a := range acts {
					if r.str() == "*" && slices.ContainsFunc(dataActionPrefixes, func(p string) bool { return strings.HasPrefix(a, p) }) {
						t.Errorf("statement %s allows %s on every resource", sid, a)
					}
				}
				table := (r.Tag == "!GetAtt" && r.Value == "Table.Arn") || (r.Tag == "!Sub" && (r.Value == "${Table.Arn}/index/*" || r.Value == "${Table.Arn}/stream/*"))
				if slices.ContainsFunc(acts, func(a string) bool { return strings.HasPrefix(a, "dynamodb:") }) != table {
					t.Errorf("statement %s allows %v on %s %s", sid, acts, r.Tag, r.Value)
				}
				if slices.Contains(acts, "secretsmanager:GetSecretValue") {
					secrets[r.Value] = true
				}
			}
		}
	}
	if f.Kind == app.KindAPI && !slices.ContainsFunc(f.Routes, func(r httpapi.Route) bool { return r.Method != http.MethodGet }) {
		for _, a := range actions {
			switch strings.TrimPrefix(a, "dynamodb:") {
			case "PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem", "ConditionCheckItem":
				t.Errorf("GET-only function is allowed %s", a)
			}
		}
	}
	want := map[string]bool{}
	if httpapi.NeedsKeys(f.Name) {
		want["KeySecret"] = true
	}
	if f.VerifiesSignedBodies() || f.SignsSiteContent() {
		want["SiteContentSecret"] = true
	}
	if f.Name == runs.StepRunPlatforms || f.Name == runs.StepRunPlatform || f.Artifact == app.ArtifactGenerate {
		want["ProviderKeysSecret"] = true
	}
	if f.AnswersBrandChecks() {
		for _, s := range []string{"ProviderKeysSecret", "RecaptchaSecret", "BrandCheckSecret", "OriginVerifySecret"} {
			want[s] = true
		}
	}
	if !maps.Equal(secrets, want) {
		t.Errorf("reads secrets %v, want %v", slices.Sorted(maps.Keys(secrets)), slices.Sorted(maps.Keys(want)))
	}
	for _, ev := range res.get("Properties", "Events").entries() {
		switch typ := ev[1].get("Type").str(); typ {
		// EventBridgeRule adds no statement to the role: SAM writes the
		// rule and a lambda:InvokeFunction permission for that rule only.
		case "HttpApi", "ScheduleV2", "EventBridgeRule":
		default:
			t.Errorf("event %s is a SAM %s event source, whose managed policy allows every resource: write it as an AWS::Lambda::EventSourceMapping", ev[0].Value, typ)
		}
	}
	id := app.LogicalID(f.Name)
	for esID, es := range tp.ofType("AWS::Lambda::EventSourceMapping") {
		if strings.TrimSuffix(es.get("Properties", "FunctionName").Value, ".Alias") != id {
			continue
		}
		src := es.get("Properties", "EventSourceArn")
		wantRes, wantActs := "!GetAtt "+src.Value, []string{"sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:ChangeMessageVisibility", "sqs:GetQueueAttributes"}
		if src.Value == "Table.StreamArn" {
			wantRes, wantActs = "!Sub ${Table.Arn}/stream/*", []string{"dynamodb:DescribeStream", "dynamodb:GetRecords", "dynamodb:GetShardIterator", "dynamodb:ListStreams"}
		}
		if !grants(tp, res, wantActs, wantRes) {
			t.Errorf("%s reads %s, but the function's policy lacks %v on %s", esID, src.Value, wantActs, wantRes)
		}
	}
}

// grants reports whether one statement of fn's policy allows all of acts
// on resource ("!Tag value").
func grants(tp tpl, fn node, acts []string, resource string) bool {
	for _, pol := range tp.prop(fn, "Policies").items() {
		for _, st := range pol.get("Statement").items() {
			var have []string
			for _, a := range st.get("Action").items() {
				have = append(have, a.str())
			}
			for _, r := range st.get("Resource").items() {
				if r.Tag+" "+r.Value == resource && !slices.ContainsFunc(acts, func(a string) bool { return !slices.Contains(have, a) }) {
					return true
				}
			}
		}
	}
	return false
}

func TestStateMachines(t *testing.T) {
	tp := load(t)
	placeholder := regexp.MustCompile(`\$\{(\w+)\}`)
	for _, w := range app.Workflows {
		t.Run(w.Name, func(t *testing.T) {
			sm := tp.resources[app.LogicalID(w.Name)+"StateMachine"]
			if sm.get("Properties", "DefinitionUri").str() != w.File {
				t.Fatalf("no state machine of %s", w.File)
			}
			def, err := os.ReadFile(filepath.Join(root, w.File))
			if err != nil || !bytes.Equal(def, w.Definition) {
				t.Fatalf("%s is not the embedded definition (%v)", w.File, err)
			}
			var used []string
			for _, m := range placeholder.FindAllStringSubmatch(string(def), -1) {
				if !slices.Contains(used, m[1]) {
					used = append(used, m[1])
				}
			}
			var subs []string
			invoked := map[string]bool{}
			for _, st := range sm.get("Properties", "Policies").items()[0].get("Statement").items() {
				if st.get("Action").str() == "lambda:InvokeFunction" {
					for _, r := range st.get("Resource").items() {
						invoked[r.Tag+" "+r.Value] = true
					}
				}
			}
			for _, e := range sm.get("Properties", "DefinitionSubstitutions").entries() {
				subs = append(subs, e[0].Value)
				// A gradual step is invoked through its alias (the canary).
				step, alias := strings.CutSuffix(e[1].Value, ".Alias")
				if !alias {
					step = strings.TrimSuffix(e[1].Value, ".Arn")
				}
				f, ok := app.FunctionNamed(stepName(step))
				want := "!GetAtt"
				if f.Gradual {
					want = "!Ref"
				}
				if !ok || (f.Kind != app.KindRunsStep && f.Kind != app.KindJobStep) || e[1].Tag != want || alias != f.Gradual {
					t.Errorf("%s = %s %s is no step function of the table, invoked as it deploys", e[0].Value, e[1].Tag, e[1].Value)
				}
				if !invoked[e[1].Tag+" "+e[1].Value] {
					t.Errorf("the state machine may not invoke %s %s", e[1].Tag, e[1].Value)
				}
				checkDefinition(t, w.Definition, e[0].Value, f)
			}
			// Executions of the previous definition still invoke its
			// retired steps (one release).
			for _, step := range w.Retired {
				f, ok := app.FunctionNamed(step)
				if !ok || f.Kind != app.KindRunsStep && f.Kind != app.KindJobStep || !f.Gradual || !invoked["!Ref "+app.LogicalID(step)+".Alias"] {
					t.Errorf("retired step %s: not a deployed step the state machine may invoke", step)
				}
			}
			if !regexp.MustCompile(`^\$\{AWS::StackName\}-`).MatchString(sm.get("Properties", "Name").str()) {
				t.Errorf("Name %q must start with the stack's name", sm.get("Properties", "Name").str())
			}
			slices.Sort(used)
			slices.Sort(subs)
			if !slices.Equal(used, subs) {
				t.Errorf("the definition uses %v, the template substitutes %v", used, subs)
			}
			// The domain package's substitutions (its tests run the ASL with
			// them) are the ones the function table gives.
			domain := map[string]map[string]string{
				runs.QueryExecution: runs.Substitutions, meter.MachineGapDetection: gaps.Substitutions,
				meter.MachineContentGeneration: content.Substitutions, meter.MachineRescore: runs.RescoreSubstitutions,
				meter.MachinePublish: publish.Substitutions,
			}[w.Name]
			if !maps.Equal(w.Substitutions(), domain) {
				t.Errorf("local runner substitutions %v, the domain's %v", w.Substitutions(), domain)
			}
		})
	}
}

// aslState is what the checks read of a state of a definition.
type aslState struct {
	Type           string
	Resource       string
	TimeoutSeconds int
	Retry          []struct {
		ErrorEquals     []string
		MaxDelaySeconds int
		JitterStrategy  string
	}
	Catch         []struct{ ErrorEquals []string }
	ItemProcessor *aslMachine
	Iterator      *aslMachine
}

type aslMachine struct {
	TimeoutSeconds int
	States         map[string]aslState
}

// tasks are the Task states of a definition, Map iterations included.
func tasks(m *aslMachine) map[string]aslState {
	out := map[string]aslState{}
	for name, st := range m.States {
		switch {
		case st.Type == "Task":
			out[name] = st
		case st.ItemProcessor != nil:
			maps.Copy(out, tasks(st.ItemProcessor))
		case st.Iterator != nil:
			maps.Copy(out, tasks(st.Iterator))
		}
	}
	return out
}

// checkDefinition: a workflow always ends. The definition has a top-level
// TimeoutSeconds; every Task whose resource is the step f has a Catch, a
// timeout below f's Lambda timeout (so that States.Timeout, not a race
// with Lambda's own timeout, is what happens), and retries Lambda's
// faults — a function timeout or out-of-memory is Lambda.Unknown, the
// client's timeout Lambda.ClientExecutionTimeoutException, throttling
// Lambda.TooManyRequestsException — with full jitter and a capped delay.
func checkDefinition(t *testing.T, def []byte, placeholder string, f app.Function) {
	t.Helper()
	var m aslMachine
	if err := json.Unmarshal(def, &m); err != nil {
		t.Fatal(err)
	}
	if m.TimeoutSeconds <= 0 {
		t.Error("the definition has no top-level TimeoutSeconds")
	}
	fnTimeout := f.Timeout
	if fnTimeout == 0 {
		fnTimeout = 15 // Globals.Function.Timeout
	}
	for name, st := range tasks(&m) {
		if st.Resource != "${"+placeholder+"}" {
			continue
		}
		if len(st.Catch) == 0 {
			t.Errorf("task %s has no Catch", name)
		}
		if st.TimeoutSeconds <= 0 || st.TimeoutSeconds >= fnTimeout {
			t.Errorf("task %s: TimeoutSeconds %d, want below %s's timeout %d s", name, st.TimeoutSeconds, f.Name, fnTimeout)
		}
		for _, e := range []string{"Lambda.ClientExecutionTimeoutException", "Lambda.Unknown", "Lambda.TooManyRequestsException"} {
			retried := false
			for _, r := range st.Retry {
				if slices.Contains(r.ErrorEquals, e) {
					retried = true
					if r.JitterStrategy != "FULL" || r.MaxDelaySeconds <= 0 {
						t.Errorf("task %s retries %s without JitterStrategy FULL and MaxDelaySeconds", name, e)
					}
				}
			}
			if !retried {
				t.Errorf("task %s does not retry %s", name, e)
			}
		}
	}
}

// stepName is the function whose logical id is id.
func stepName(id string) string {
	for _, f := range app.Functions() {
		if app.LogicalID(f.Name) == id {
			return f.Name
		}
	}
	return ""
}

// Every reference names a resource or a parameter of the template (a typo
// in the function table would otherwise surface only at deploy time).
func TestReferencesResolve(t *testing.T) {
	tp := load(t)
	known := map[string]bool{}
	for id, r := range tp.resources {
		known[id] = true
		// SAM's generated alias of a function with AutoPublishAlias.
		if r.get("Properties", "AutoPublishAlias").ok() {
			known[id+".Alias"] = true
		}
		// SAM's generated execution role of a function without a Role.
		if r.get("Type").str() == "AWS::Serverless::Function" && !r.get("Properties", "Role").ok() {
			known[id+"Role"] = true
		}
	}
	for _, e := range tp.root.get("Parameters").entries() {
		known[e[0].Value] = true
	}
	for _, p := range []string{"AWS::NoValue", "AWS::Region", "AWS::StackName", "AWS::AccountId", "AWS::Partition", "AWS::URLSuffix"} {
		known[p] = true
	}
	conditions := map[string]bool{}
	for _, e := range tp.root.get("Conditions").entries() {
		conditions[e[0].Value] = true
	}
	walk(tp.root.Node, func(n *yaml.Node) {
		if n.Tag == "!If" && (len(n.Content) != 3 || !conditions[n.Content[0].Value]) {
			t.Errorf("line %d: !If names no condition", n.Line)
		}
		for i := 0; n.Kind == yaml.MappingNode && i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "Condition" && n.Content[i+1].Kind == yaml.ScalarNode && !conditions[n.Content[i+1].Value] {
				t.Errorf("line %d: Condition %s is not defined", n.Line, n.Content[i+1].Value)
			}
		}
	})
	sub := regexp.MustCompile(`\$\{([A-Za-z0-9]+)(\.[A-Za-z.]+)?\}`)
	walk(tp.root.Node, func(n *yaml.Node) {
		var names []string
		switch n.Tag {
		case "!Ref":
			names = []string{n.Value}
		case "!GetAtt":
			names = []string{strings.SplitN(n.Value, ".", 2)[0]}
		case "!Sub":
			for _, m := range sub.FindAllStringSubmatch(n.Value, -1) {
				names = append(names, m[1])
			}
		}
		for _, name := range names {
			if !known[name] && !strings.HasPrefix(name, "AWS::") { // pseudo parameters
				t.Errorf("line %d: %s %s names no resource or parameter", n.Line, n.Tag, n.Value)
			}
		}
	})
}

func TestTableAndSettings(t *testing.T) {
	tp := load(t)
	table := tp.resources["Table"]
	p := table.get("Properties")
	gsis := map[string]node{}
	for _, g := range p.get("GlobalSecondaryIndexes").items() {
		gsis[g.get("IndexName").str()] = g
	}
	indexesOK := len(gsis) == len(store.Indexes)
	for _, ix := range store.Indexes {
		h, r := store.IndexKeyAttrs(ix)
		ks := gsis[ix].get("KeySchema").items()
		indexesOK = indexesOK && gsis[ix].get("Projection", "ProjectionType").str() == "ALL" && len(ks) == 2 &&
			ks[0].get("AttributeName").str() == h && ks[1].get("AttributeName").str() == r
	}
	env := tp.root.get("Globals", "Function", "Environment", "Variables")
	checks := map[string]bool{
		"the table is the only one":              len(tp.ofType("AWS::DynamoDB::Table")) == 1 && table.ok(),
		"billing is PAY_PER_REQUEST":             p.get("BillingMode").str() == "PAY_PER_REQUEST",
		"the indexes are store.Indexes, ALL":     indexesOK,
		"point-in-time recovery is on":           p.get("PointInTimeRecoverySpecification", "PointInTimeRecoveryEnabled").str() == "true",
		"TTL is on expiresAt":                    p.get("TimeToLiveSpecification", "AttributeName").str() == "expiresAt",
		"the stream carries new images":          p.get("StreamSpecification", "StreamViewType").str() == "NEW_IMAGE",
		"the table is retained":                  table.get("DeletionPolicy").str() == "Retain" && table.get("UpdateReplacePolicy").str() == "Retain",
		"Globals: BRANDLENS_TABLE is !Ref Table": env.get("BRANDLENS_TABLE").isRef("Table"),
		"Globals: the key secret by its ARN":     env.get("BRANDLENS_KEY_SECRET_ARN").isRef("KeySecret") && !env.get("BRANDLENS_KEY_SECRET").ok(),
		"Globals: the queues":                    env.get("BRANDLENS_JOBS_QUEUE_URL").isRef("JobsQueue") && env.get("BRANDLENS_DELIVERIES_QUEUE_URL").isRef("DeliveriesQueue"),
		"Globals: no store override or secret":   !env.get("BRANDLENS_STORE").ok() && !env.get("BRANDLENS_SITE_CONTENT_SECRET").ok(),
		"Outputs: ApiUrl and TableName":          tp.root.get("Outputs", "ApiUrl").ok() && tp.root.get("Outputs", "TableName").ok(),
		"Globals: the metrics namespace":         env.get("BRANDLENS_METRICS_NAMESPACE").str() == businessNamespace,
		"Globals: tracing on with the layer":     env.get("BRANDLENS_TRACING").Tag == "!If" && env.get("BRANDLENS_TRACING").Content[0].Value == "HasTracingLayer" && env.get("OTEL_EXPORTER_OTLP_ENDPOINT").str() == "http://localhost:4318",
		"Globals: X-Ray active":                  tp.root.get("Globals", "Function", "Tracing").str() == "Active",
		"loopback webhook targets are never on":  !bytes.Contains(tp.raw, []byte("BRANDLENS_ALLOW_LOOPBACK_TARGETS")),
	}
	for name, ok := range checks {
		if !ok {
			t.Errorf("want %s", name)
		}
	}
}

// functions/ holds one main per build artifact and nothing else (the
// Makefile builds each directory there).
func TestFunctionsDirectoryHoldsTheArtifacts(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join(root, "functions"))
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		dirs = append(dirs, e.Name())
		if _, err := os.Stat(filepath.Join(root, "functions", e.Name(), "main.go")); err != nil {
			t.Errorf("functions/%s has no main.go", e.Name())
		}
	}
	if !slices.Equal(dirs, slices.Sorted(slices.Values(app.Artifacts))) {
		t.Errorf("functions/ holds %v, the artifacts are %v", dirs, app.Artifacts)
	}
}
