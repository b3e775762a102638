package main

import (
	"bytes"
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
	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/runs"
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
			if uri := res.get("Properties", "CodeUri").str(); uri != "build/"+f.Artifact+"/" || !slices.Contains(app.Artifacts, f.Artifact) {
				t.Errorf("CodeUri %q", uri)
			}
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

// checkPolicy: least privilege, with inline statements only. The table is
// reached on the table and its indexes; a GET-only API function writes
// nothing; each secret is readable only by the functions that need it.
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
			actions = append(actions, acts...)
			for _, r := range st.get("Resource").items() {
				table := (r.Tag == "!GetAtt" && r.Value == "Table.Arn") || (r.Tag == "!Sub" && r.Value == "${Table.Arn}/index/*")
				if slices.ContainsFunc(acts, func(a string) bool { return strings.HasPrefix(a, "dynamodb:") }) != table {
					t.Errorf("statement %s allows %v on %s %s", st.get("Sid").str(), acts, r.Tag, r.Value)
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
			case "PutItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem", "ConditionCheckItem":
				t.Errorf("GET-only function is allowed %s", a)
			}
		}
	}
	want := map[string]bool{}
	if httpapi.NeedsKeys(f.Name) {
		want["KeySecret"] = true
	}
	if f.VerifiesSignedBodies() {
		want["SiteContentSecret"] = true
	}
	if f.Name == runs.StepRunPlatform {
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
			for _, e := range sm.get("Properties", "DefinitionSubstitutions").entries() {
				subs = append(subs, e[0].Value)
				step := strings.TrimSuffix(e[1].Value, ".Arn")
				f, ok := app.FunctionNamed(stepName(step))
				if e[1].Tag != "!GetAtt" || !ok || f.Kind != app.KindRunsStep {
					t.Errorf("%s = %s %s is no step function of the table", e[0].Value, e[1].Tag, e[1].Value)
				}
			}
			slices.Sort(used)
			slices.Sort(subs)
			if !slices.Equal(used, subs) {
				t.Errorf("the definition uses %v, the template substitutes %v", used, subs)
			}
			if !maps.Equal(w.Substitutions(), runs.Substitutions) {
				t.Errorf("local runner substitutions %v, runs.Substitutions %v", w.Substitutions(), runs.Substitutions)
			}
		})
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
	for id := range tp.resources {
		known[id] = true
	}
	for _, e := range tp.root.get("Parameters").entries() {
		known[e[0].Value] = true
	}
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
	var gsi1 node
	for _, g := range p.get("GlobalSecondaryIndexes").items() {
		if g.get("IndexName").str() == "GSI1" {
			gsi1 = g
		}
	}
	env := tp.root.get("Globals", "Function", "Environment", "Variables")
	checks := map[string]bool{
		"the table is the only one":              len(tp.ofType("AWS::DynamoDB::Table")) == 1 && table.ok(),
		"billing is PAY_PER_REQUEST":             p.get("BillingMode").str() == "PAY_PER_REQUEST",
		"GSI1 projects ALL":                      gsi1.get("Projection", "ProjectionType").str() == "ALL",
		"point-in-time recovery is on":           p.get("PointInTimeRecoverySpecification", "PointInTimeRecoveryEnabled").str() == "true",
		"TTL is on expiresAt":                    p.get("TimeToLiveSpecification", "AttributeName").str() == "expiresAt",
		"the stream carries new images":          p.get("StreamSpecification", "StreamViewType").str() == "NEW_IMAGE",
		"the table is retained":                  table.get("DeletionPolicy").str() == "Retain" && table.get("UpdateReplacePolicy").str() == "Retain",
		"Globals: BRANDLENS_TABLE is !Ref Table": env.get("BRANDLENS_TABLE").isRef("Table"),
		"Globals: the key secret by its ARN":     env.get("BRANDLENS_KEY_SECRET_ARN").isRef("KeySecret") && !env.get("BRANDLENS_KEY_SECRET").ok(),
		"Globals: the queues":                    env.get("BRANDLENS_JOBS_QUEUE_URL").isRef("JobsQueue") && env.get("BRANDLENS_DELIVERIES_QUEUE_URL").isRef("DeliveriesQueue"),
		"Globals: no store override or secret":   !env.get("BRANDLENS_STORE").ok() && !env.get("BRANDLENS_SITE_CONTENT_SECRET").ok(),
		"Outputs: ApiUrl and TableName":          tp.root.get("Outputs", "ApiUrl").ok() && tp.root.get("Outputs", "TableName").ok(),
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
