package httpapi_test

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/brandlens/brandlens/shared/httpapi"
)

// The SAM template must follow the route table: every route is an HttpApi
// event of the function named by the route, and nothing else is. These
// tests read template.yaml as yaml.Node trees, which keep CloudFormation's
// short tags (!Ref, !GetAtt, !Sub, !If) as node tags instead of failing on
// them.

// tplRepoRoot is the module root (the directory holding go.mod).
func tplRepoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test directory")
		}
		dir = parent
	}
}

// tplNode is a YAML node with lookup helpers; a nil *yaml.Node stands for
// an absent key, so lookups chain without checks.
type tplNode struct{ *yaml.Node }

// get returns the value of key in a mapping (zero tplNode when absent).
func (n tplNode) get(keys ...string) tplNode {
	cur := n.Node
	for _, k := range keys {
		if cur == nil || cur.Kind != yaml.MappingNode {
			return tplNode{}
		}
		var next *yaml.Node
		for i := 0; i+1 < len(cur.Content); i += 2 {
			if cur.Content[i].Value == k {
				next = cur.Content[i+1]
				break
			}
		}
		cur = next
	}
	return tplNode{cur}
}

func (n tplNode) ok() bool { return n.Node != nil }

// str is the scalar's value ("" for anything else).
func (n tplNode) str() string {
	if n.Node == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}

// isRef reports whether the node is `!Ref name` (or {Ref: name}).
func (n tplNode) isRef(name string) bool {
	if n.Node == nil {
		return false
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!Ref" {
		return n.Value == name
	}
	return n.get("Ref").str() == name
}

// items are a sequence's elements, or the node itself when it is a single
// value (IAM accepts a string where it accepts a list).
func (n tplNode) items() []tplNode {
	if n.Node == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		return []tplNode{n}
	}
	out := make([]tplNode, len(n.Content))
	for i, c := range n.Content {
		out[i] = tplNode{c}
	}
	return out
}

// entries are a mapping's key/value pairs in document order.
func (n tplNode) entries() [][2]tplNode {
	if n.Node == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	var out [][2]tplNode
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, [2]tplNode{{n.Content[i]}, {n.Content[i+1]}})
	}
	return out
}

type tplTemplate struct {
	raw       []byte
	root      tplNode
	resources map[string]tplNode
}

func tplLoad(t *testing.T) *tplTemplate {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(tplRepoRoot(t), "template.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("template.yaml: %v", err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		t.Fatal("template.yaml: not a single YAML document")
	}
	tpl := &tplTemplate{raw: raw, root: tplNode{doc.Content[0]}, resources: map[string]tplNode{}}
	for _, e := range tpl.root.get("Resources").entries() {
		tpl.resources[e[0].Value] = e[1]
	}
	if len(tpl.resources) == 0 {
		t.Fatal("template.yaml: no Resources")
	}
	return tpl
}

// prop is a function's property, falling back to Globals.Function.
func (tpl *tplTemplate) prop(fn tplNode, keys ...string) tplNode {
	if v := fn.get(append([]string{"Properties"}, keys...)...); v.ok() {
		return v
	}
	return tpl.root.get(append([]string{"Globals", "Function"}, keys...)...)
}

func (tpl *tplTemplate) ofType(typ string) map[string]tplNode {
	out := map[string]tplNode{}
	for id, r := range tpl.resources {
		if r.get("Type").str() == typ {
			out[id] = r
		}
	}
	return out
}

// tplFunctionName is the function (directory under functions/) a function
// resource deploys, read from its CodeUri build/<function>/.
func tplFunctionName(r tplNode) (string, bool) {
	uri := r.get("Properties", "CodeUri").str()
	name, ok := strings.CutPrefix(uri, "build/")
	name, ok2 := strings.CutSuffix(name, "/")
	if !ok || !ok2 || name == "" || strings.Contains(name, "/") {
		return "", false
	}
	return name, true
}

type tplHTTPAPIEvent struct {
	name, method, path string
	props              tplNode
}

func tplHTTPAPIEvents(r tplNode) []tplHTTPAPIEvent {
	var out []tplHTTPAPIEvent
	for _, e := range r.get("Properties", "Events").entries() {
		if e[1].get("Type").str() != "HttpApi" {
			continue
		}
		p := e[1].get("Properties")
		out = append(out, tplHTTPAPIEvent{name: e[0].Value, method: p.get("Method").str(), path: p.get("Path").str(), props: p})
	}
	return out
}

// tplLogicalID is the resource name of a function: its name in PascalCase.
func tplLogicalID(function string) string {
	var b strings.Builder
	for _, p := range strings.Split(function, "-") {
		if p != "" {
			b.WriteString(strings.ToUpper(p[:1]) + p[1:])
		}
	}
	return b.String()
}

// tplNonHTTPFunction reports whether a function has no HTTP route by design
// (DESIGN.md: SQS workers, Step Functions tasks, the scheduler).
func tplNonHTTPFunction(name string) bool {
	return strings.HasPrefix(name, "worker-") || strings.HasPrefix(name, "step-") || name == "scheduler"
}

// tplRoutes is the route table plus API Gateway's $default catch-all.
func tplRoutes() []httpapi.Route { return append(slices.Clone(httpapi.Routes), httpapi.CatchAll) }

func tplRouteFunctions() []string {
	var out []string
	for _, r := range tplRoutes() {
		if !slices.Contains(out, r.Function) {
			out = append(out, r.Function)
		}
	}
	return out
}

func tplRouteKey(method, path string) string { return method + " " + path }

// tplReadOnlyFunction: every route of the function is a GET.
func tplReadOnlyFunction(function string) bool {
	for _, r := range httpapi.RoutesOf(function) {
		if r.Method != http.MethodGet {
			return false
		}
	}
	return true
}

// tplSignedBodyFunction: the function receives bodies signed with the site
// content secret (and so alone may read that secret).
func tplSignedBodyFunction(function string) bool {
	for _, r := range httpapi.RoutesOf(function) {
		if r.Guard == httpapi.GuardSignedBody {
			return true
		}
	}
	return false
}

// tplSuggestedFunctionYAML is the block to add to template.yaml for a
// function that has none (it follows the blocks already there).
func tplSuggestedFunctionYAML(function string) string {
	id := tplLogicalID(function)
	acts := "[dynamodb:GetItem, dynamodb:Query, dynamodb:UpdateItem]"
	if !tplReadOnlyFunction(function) {
		acts = "[dynamodb:GetItem, dynamodb:Query, dynamodb:UpdateItem, dynamodb:PutItem, dynamodb:DeleteItem, dynamodb:TransactWriteItems, dynamodb:ConditionCheckItem]"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "  %s:\n    Type: AWS::Serverless::Function\n    Properties:\n", id)
	fmt.Fprintf(&b, "      FunctionName: !Sub \"${AWS::StackName}-%s\"\n      CodeUri: build/%s/\n", function, function)
	fmt.Fprintf(&b, "      LoggingConfig:\n        LogFormat: JSON\n        LogGroup: !Ref %sLogGroup\n", id)
	fmt.Fprintf(&b, "      Policies:\n        - Version: \"2012-10-17\"\n          Statement:\n")
	fmt.Fprintf(&b, "            - Sid: Table\n              Effect: Allow\n              Action: %s\n", acts)
	fmt.Fprintf(&b, "              Resource: [!GetAtt Table.Arn, !Sub \"${Table.Arn}/index/*\"]\n")
	fmt.Fprintf(&b, "            - Sid: KeySecret\n              Effect: Allow\n              Action: secretsmanager:GetSecretValue\n              Resource: !Ref KeySecret\n")
	fmt.Fprintf(&b, "      Events:\n")
	for i, r := range httpapi.RoutesOf(function) {
		name := "Api"
		if i > 0 {
			name = fmt.Sprintf("Api%d", i+1)
		}
		fmt.Fprintf(&b, "        %s:\n          Type: HttpApi\n          Properties:\n            ApiId: !Ref HttpApi\n            Method: %s\n            Path: %s\n            PayloadFormatVersion: \"2.0\"\n", name, r.Method, r.Path)
	}
	fmt.Fprintf(&b, "\n  %sLogGroup:\n    Type: AWS::Logs::LogGroup\n    Properties:\n      LogGroupName: !Sub \"/aws/lambda/${AWS::StackName}-%s\"\n      RetentionInDays: !Ref LogRetentionDays\n", id, function)
	return b.String()
}

func TestTemplateHasAFunctionAndEventPerRoute(t *testing.T) {
	tpl := tplLoad(t)
	if !tpl.root.get("Transform").ok() || !strings.Contains(tpl.root.get("Transform").str(), "AWS::Serverless-2016-10-31") {
		t.Error("template.yaml: Transform must be AWS::Serverless-2016-10-31")
	}
	if tpl.resources["HttpApi"].get("Type").str() != "AWS::Serverless::HttpApi" {
		t.Fatal("template.yaml: resource HttpApi must be an AWS::Serverless::HttpApi")
	}
	for _, rt := range tplRoutes() {
		t.Run(tplRouteKey(rt.Method, rt.Path), func(t *testing.T) {
			id := tplLogicalID(rt.Function)
			res, ok := tpl.resources[id]
			if !ok || res.get("Type").str() != "AWS::Serverless::Function" {
				t.Fatalf("no AWS::Serverless::Function %s for function %s; add:\n\n%s", id, rt.Function, tplSuggestedFunctionYAML(rt.Function))
			}
			if got, want := res.get("Properties", "CodeUri").str(), "build/"+rt.Function+"/"; got != want {
				t.Errorf("%s: CodeUri = %q, want %q", id, got, want)
			}
			var found bool
			for _, ev := range tplHTTPAPIEvents(res) {
				if ev.method == rt.Method && ev.path == rt.Path {
					found = true
					if !ev.props.get("ApiId").isRef("HttpApi") {
						t.Errorf("%s event %s: ApiId must be !Ref HttpApi", id, ev.name)
					}
					if v := ev.props.get("PayloadFormatVersion"); v.ok() && v.str() != "2.0" {
						t.Errorf("%s event %s: PayloadFormatVersion %q; the Lambda adapter reads payload 2.0", id, ev.name, v.str())
					}
				}
			}
			if !found {
				t.Errorf("%s has no HttpApi event with Method %s and Path %s", id, rt.Method, rt.Path)
			}
		})
	}
}

func TestTemplateHasNoUnroutedFunctionOrEvent(t *testing.T) {
	tpl := tplLoad(t)
	routed := map[string]string{} // "METHOD path" → function
	for _, r := range tplRoutes() {
		routed[tplRouteKey(r.Method, r.Path)] = r.Function
	}
	seen := map[string]string{} // "METHOD path" → resource
	for id, res := range tpl.resources {
		if res.get("Type").str() != "AWS::Serverless::Function" {
			for _, ev := range res.get("Properties", "Events").entries() {
				if ev[1].get("Type").str() == "HttpApi" {
					t.Errorf("%s: HttpApi event %s on a resource that is not a function", id, ev[0].Value)
				}
			}
			continue
		}
		fn, ok := tplFunctionName(res)
		if !ok {
			t.Errorf("%s: CodeUri %q is not build/<function>/", id, res.get("Properties", "CodeUri").str())
			continue
		}
		if len(httpapi.RoutesOf(fn)) == 0 && !tplNonHTTPFunction(fn) {
			t.Errorf("%s: function %s serves no route of httpapi.Routes", id, fn)
		}
		if len(httpapi.RoutesOf(fn)) > 0 && id != tplLogicalID(fn) {
			t.Errorf("%s: the function of %s must be named %s", id, fn, tplLogicalID(fn))
		}
		for _, ev := range tplHTTPAPIEvents(res) {
			k := tplRouteKey(ev.method, ev.path)
			owner, ok := routed[k]
			switch {
			case !ok:
				t.Errorf("%s: HttpApi event %s (%s) matches no route of httpapi.Routes", id, ev.name, k)
			case owner != fn:
				t.Errorf("%s: HttpApi event %s (%s) belongs to function %s, not %s", id, ev.name, k, owner, fn)
			}
			if prev, dup := seen[k]; dup {
				t.Errorf("%s: HttpApi event %s repeats %s of %s", id, ev.name, k, prev)
			}
			seen[k] = id
		}
	}
}

func TestFunctionDirectoriesFollowRoutes(t *testing.T) {
	dir := filepath.Join(tplRepoRoot(t), "functions")
	for _, fn := range tplRouteFunctions() {
		t.Run(fn, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, fn, "main.go"))
			if err != nil {
				t.Fatalf("function %s of httpapi.Routes has no functions/%s/main.go: %v", fn, fn, err)
			}
			if !bytes.Contains(src, []byte(`"`+fn+`"`)) {
				t.Errorf("functions/%s/main.go does not name its function %q", fn, fn)
			}
		})
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && len(httpapi.RoutesOf(e.Name())) == 0 && !tplNonHTTPFunction(e.Name()) {
			t.Errorf("functions/%s serves no route of httpapi.Routes", e.Name())
		}
	}
}

func TestTemplateTable(t *testing.T) {
	tpl := tplLoad(t)
	tables := tpl.ofType("AWS::DynamoDB::Table")
	table, ok := tables["Table"]
	if !ok || len(tables) != 1 {
		t.Fatalf("template.yaml must declare the single table as resource Table (found %d tables)", len(tables))
	}
	p := table.get("Properties")
	attrs := map[string]string{}
	for _, a := range p.get("AttributeDefinitions").items() {
		attrs[a.get("AttributeName").str()] = a.get("AttributeType").str()
	}
	keySchema := func(n tplNode) map[string]string {
		out := map[string]string{}
		for _, k := range n.items() {
			out[k.get("KeyType").str()] = k.get("AttributeName").str()
		}
		return out
	}
	var gsi1 tplNode
	for _, g := range p.get("GlobalSecondaryIndexes").items() {
		if g.get("IndexName").str() == "GSI1" {
			gsi1 = g
		}
	}
	checks := []struct {
		name string
		ok   bool
	}{
		{"PK and SK are string attributes", attrs["PK"] == "S" && attrs["SK"] == "S"},
		{"key schema is PK (HASH), SK (RANGE)", keySchema(p.get("KeySchema"))["HASH"] == "PK" && keySchema(p.get("KeySchema"))["RANGE"] == "SK"},
		{"GSI1PK and GSI1SK are string attributes", attrs["GSI1PK"] == "S" && attrs["GSI1SK"] == "S"},
		{"GSI1 is keyed GSI1PK (HASH), GSI1SK (RANGE)", keySchema(gsi1.get("KeySchema"))["HASH"] == "GSI1PK" && keySchema(gsi1.get("KeySchema"))["RANGE"] == "GSI1SK"},
		{"GSI1 projects ALL", gsi1.get("Projection", "ProjectionType").str() == "ALL"},
		{"billing is PAY_PER_REQUEST", p.get("BillingMode").str() == "PAY_PER_REQUEST"},
		{"point-in-time recovery is enabled", p.get("PointInTimeRecoverySpecification", "PointInTimeRecoveryEnabled").str() == "true"},
		{"TTL is on expiresAt", p.get("TimeToLiveSpecification", "AttributeName").str() == "expiresAt" && p.get("TimeToLiveSpecification", "Enabled").str() == "true"},
		{"server-side encryption is enabled", p.get("SSESpecification", "SSEEnabled").str() == "true"},
		{"DeletionPolicy is Retain", table.get("DeletionPolicy").str() == "Retain"},
		{"UpdateReplacePolicy is Retain", table.get("UpdateReplacePolicy").str() == "Retain"},
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			if !c.ok {
				t.Errorf("Table: want %s", c.name)
			}
		})
	}
}

func TestTemplateFunctions(t *testing.T) {
	tpl := tplLoad(t)
	logGroups := tpl.ofType("AWS::Logs::LogGroup")
	for id, res := range tpl.ofType("AWS::Serverless::Function") {
		fn, _ := tplFunctionName(res)
		t.Run(id, func(t *testing.T) {
			if got := tpl.prop(res, "Runtime").str(); got != "provided.al2023" {
				t.Errorf("Runtime = %q, want provided.al2023", got)
			}
			if archs := tpl.prop(res, "Architectures").items(); len(archs) != 1 || archs[0].str() != "arm64" {
				t.Errorf("Architectures must be [arm64]")
			}
			if got := tpl.prop(res, "Handler").str(); got != "bootstrap" {
				t.Errorf("Handler = %q, want bootstrap", got)
			}

			// Its own log group, with a retention.
			lgRef := tpl.prop(res, "LoggingConfig", "LogGroup")
			var lgID string
			for name := range logGroups {
				if lgRef.isRef(name) {
					lgID = name
				}
			}
			if lgID == "" {
				t.Errorf("LoggingConfig.LogGroup must be !Ref of an AWS::Logs::LogGroup of the template")
			} else {
				lg := logGroups[lgID].get("Properties")
				if !lg.get("RetentionInDays").ok() {
					t.Errorf("log group %s has no RetentionInDays", lgID)
				}
				if name := res.get("Properties", "FunctionName"); name.ok() {
					got := lg.get("LogGroupName")
					if got.str() != "/aws/lambda/"+name.str() || got.Tag != name.Tag {
						t.Errorf("log group %s is named %s %q, want %s %q", lgID, got.Tag, got.str(), name.Tag, "/aws/lambda/"+name.str())
					}
				}
			}

			// Least privilege: the table and the secrets are reached through
			// inline statements naming exactly them. (Other services, such as
			// the queues and state machines of workers, are not checked here.)
			api := len(httpapi.RoutesOf(fn)) > 0
			var actions []string
			var keySecret bool // GetSecretValue on KeySecret
			for _, pol := range tpl.prop(res, "Policies").items() {
				if pol.Kind == yaml.ScalarNode {
					t.Errorf("managed policy %q: use inline statements", pol.str())
					continue
				}
				for _, e := range pol.entries() {
					if k := e[0].Value; strings.HasPrefix(k, "DynamoDB") || strings.HasPrefix(k, "AWSSecretsManager") {
						t.Errorf("SAM policy template %s: use an inline statement on the table or secret", k)
					}
				}
				for _, st := range pol.get("Statement").items() {
					if st.get("Effect").str() != "Allow" {
						continue
					}
					var acts []string
					for _, a := range st.get("Action").items() {
						acts = append(acts, a.str())
					}
					actions = append(actions, acts...)
					var table, secrets bool
					for _, a := range acts {
						if a == "*" || strings.HasSuffix(a, ":*") {
							t.Errorf("wildcard action %q", a)
						}
						table = table || strings.HasPrefix(a, "dynamodb:")
						secrets = secrets || strings.HasPrefix(a, "secretsmanager:")
					}
					for _, r := range st.get("Resource").items() {
						isTable := (r.Tag == "!GetAtt" && r.Value == "Table.Arn") || (r.Tag == "!Sub" && r.Value == "${Table.Arn}/index/*")
						isSecret := r.isRef("KeySecret") || (r.isRef("SiteContentSecret") && tplSignedBodyFunction(fn)) ||
							(r.isRef("ProviderKeysSecret") && fn == "step-run-platform")
						if secrets && r.isRef("KeySecret") {
							keySecret = true
						}
						if (table && !isTable) || (secrets && !isSecret) {
							t.Errorf("statement %s allows %v on %s %q; only the table, its indexes and the function's own secrets may be named",
								st.get("Sid").str(), acts, r.Tag, r.str())
						}
					}
				}
			}
			if api && tplReadOnlyFunction(fn) {
				for _, a := range actions {
					switch strings.TrimPrefix(a, "dynamodb:") {
					case "PutItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem", "ConditionCheckItem":
						t.Errorf("GET-only function %s is allowed %s", fn, a)
					}
				}
			}
			if httpapi.NeedsKeys(fn) != keySecret {
				t.Errorf("secretsmanager:GetSecretValue on KeySecret is for functions that authenticate keys (config.LambdaHTTP reads it at cold start) and only for them")
			}
			env := res.get("Properties", "Environment", "Variables")
			if env.get("BRANDLENS_SITE_CONTENT_SECRET_ARN").ok() != tplSignedBodyFunction(fn) {
				t.Errorf("BRANDLENS_SITE_CONTENT_SECRET_ARN belongs to the signed-body receiver only")
			}
		})
	}
}

func TestTemplateGlobalsAndSettings(t *testing.T) {
	tpl := tplLoad(t)
	env := tpl.root.get("Globals", "Function", "Environment", "Variables")
	if !env.get("BRANDLENS_TABLE").isRef("Table") {
		t.Error("Globals: BRANDLENS_TABLE must be !Ref Table")
	}
	if !env.get("BRANDLENS_KEY_SECRET_ARN").isRef("KeySecret") {
		t.Error("Globals: BRANDLENS_KEY_SECRET_ARN must be !Ref KeySecret")
	}
	for _, v := range []string{"BRANDLENS_KEY_SECRET", "BRANDLENS_SITE_CONTENT_SECRET", "BRANDLENS_STORE"} {
		if env.get(v).ok() {
			t.Errorf("Globals: %s must not be set in AWS", v)
		}
	}
	if !tpl.root.get("Outputs", "ApiUrl").ok() || !tpl.root.get("Outputs", "TableName").ok() {
		t.Error("Outputs must include ApiUrl and TableName")
	}
	// Loopback webhook targets are for local tests only; never in AWS.
	if bytes.Contains(tpl.raw, []byte("BRANDLENS_ALLOW_LOOPBACK_TARGETS")) {
		t.Error("template.yaml must never mention BRANDLENS_ALLOW_LOOPBACK_TARGETS")
	}
}
