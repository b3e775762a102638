package app_test

import (
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/brandlens/brandlens/shared/queue/sqstest"
	"github.com/brandlens/brandlens/shared/recaptcha/recaptchatest"
	"github.com/brandlens/brandlens/shared/secrets/kmstest"
	"github.com/brandlens/brandlens/shared/store/dynamotest"
)

// The Lambda functions are tested as Lambda runs them: each test sets the
// environment that template.yaml gives the function, assembles it with the
// real cold-start code (AWS SDK clients from the default configuration,
// secrets read from Secrets Manager), and invokes the handler with the
// sample events of events/. DynamoDB and SQS are DynamoDB Local and fauxqs;
// Secrets Manager and Step Functions, which have no emulator in tools/, are
// a recording endpoint that speaks their JSON protocol.

func TestMain(m *testing.M) { dynamotest.Around(func() int { return sqstest.Around(m.Run) }) }

// secretARNs are the ARNs the tests give the template's secrets.
var secretARNs = map[string]string{"KeySecret": keySecretARN, "SiteContentSecret": siteSecretARN, "ProviderKeysSecret": providerKeysARN,
	"RecaptchaSecret": recaptchaSecretARN, "BrandCheckSecret": brandCheckSecretARN, "OriginVerifySecret": originSecretARN}

// Values the template's references stand for in tests.
const (
	keySecretARN           = "arn:aws:secretsmanager:us-east-1:123456789012:secret:KeySecret"
	siteSecretARN          = "arn:aws:secretsmanager:us-east-1:123456789012:secret:SiteContentSecret"
	providerKeysARN        = "arn:aws:secretsmanager:us-east-1:123456789012:secret:ProviderKeysSecret"
	stateMachineARN        = "arn:aws:states:us-east-1:123456789012:stateMachine:query-execution"
	gapStateMachineARN     = "arn:aws:states:us-east-1:123456789012:stateMachine:gap-detection"
	contentStateMachineARN = "arn:aws:states:us-east-1:123456789012:stateMachine:content-generation"
	rescoreStateMachineARN = "arn:aws:states:us-east-1:123456789012:stateMachine:brand-rescore"
	publishStateMachineARN = "arn:aws:states:us-east-1:123456789012:stateMachine:publish"
	testKeySecret          = "key-secret-for-the-lambda-tests-0123456789"
	testSiteSecret         = "site-content-secret-for-the-lambda-tests"
	unreachableQueueURL    = "http://127.0.0.1:1/000000000000/unreachable"
	recaptchaSecretARN     = "arn:aws:secretsmanager:us-east-1:123456789012:secret:RecaptchaSecret"
	brandCheckSecretARN    = "arn:aws:secretsmanager:us-east-1:123456789012:secret:BrandCheckSecret"
	originSecretARN        = "arn:aws:secretsmanager:us-east-1:123456789012:secret:OriginVerifySecret"
	emptySecretARN         = "arn:aws:secretsmanager:us-east-1:123456789012:secret:Empty"
	testBrandSecret        = "brand-check-secret-for-the-lambda-tests-0123"
	testOriginSecret       = "origin-secret-for-the-lambda-tests"
)

func repoFile(t testing.TB, rel string) string {
	t.Helper()
	return filepath.Join("..", "..", rel)
}

func readEvent(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(repoFile(t, filepath.Join("events", name)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// awsJSON is an endpoint of AWS's JSON protocol for Secrets Manager
// (GetSecretValue) and Step Functions (StartExecution): it answers from
// secrets and records every call.
type awsJSON struct {
	srv     *httptest.Server
	secrets map[string]string

	mu         sync.Mutex
	reads      map[string]int // secret id → GetSecretValue calls
	executions []startExecution
	described  []string // DescribeExecution's execution ARNs
	// executionStatus is what DescribeExecution answers ("": RUNNING).
	executionStatus string
}

func (a *awsJSON) status() string {
	if a.executionStatus == "" {
		return "RUNNING"
	}
	return a.executionStatus
}

type startExecution struct {
	StateMachineArn, Name, Input string
}

func newAWSJSON(t testing.TB) *awsJSON {
	a := &awsJSON{
		secrets: map[string]string{keySecretARN: testKeySecret, siteSecretARN: testSiteSecret, providerKeysARN: "{}",
			recaptchaSecretARN: recaptchatest.Secret, brandCheckSecretARN: testBrandSecret, originSecretARN: testOriginSecret, emptySecretARN: ""},
		reads: map[string]int{},
	}
	a.srv = httptest.NewServer(http.HandlerFunc(a.serve))
	t.Cleanup(a.srv.Close)
	return a
}

func (a *awsJSON) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	a.mu.Lock()
	defer a.mu.Unlock()
	fail := func(status int, typ, msg string) {
		w.Header().Set("X-Amzn-ErrorType", typ)
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(map[string]string{"__type": typ, "message": msg})
	}
	switch target := r.Header.Get("X-Amz-Target"); target {
	case "secretsmanager.GetSecretValue":
		var in struct{ SecretId string }
		json.Unmarshal(body, &in)
		a.reads[in.SecretId]++
		v, ok := a.secrets[in.SecretId]
		if !ok {
			fail(400, "ResourceNotFoundException", "Secrets Manager can't find the specified secret.")
			return
		}
		w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		json.NewEncoder(w).Encode(map[string]any{"ARN": in.SecretId, "Name": in.SecretId, "SecretString": v, "VersionId": "v1"})
	case "AWSStepFunctions.StartExecution":
		var in startExecution
		json.Unmarshal(body, &in)
		for _, e := range a.executions {
			if e.Name == in.Name && e.StateMachineArn == in.StateMachineArn {
				fail(400, "ExecutionAlreadyExists", "Execution Already Exists: '"+in.Name+"'")
				return
			}
		}
		a.executions = append(a.executions, in)
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		json.NewEncoder(w).Encode(map[string]any{"executionArn": in.StateMachineArn + ":" + in.Name, "startDate": float64(time.Now().Unix())})
	case "AWSStepFunctions.DescribeExecution":
		var in struct{ ExecutionArn string }
		json.Unmarshal(body, &in)
		a.described = append(a.described, in.ExecutionArn)
		for _, e := range a.executions {
			if strings.Replace(e.StateMachineArn, ":stateMachine:", ":execution:", 1)+":"+e.Name == in.ExecutionArn {
				w.Header().Set("Content-Type", "application/x-amz-json-1.0")
				json.NewEncoder(w).Encode(map[string]any{"executionArn": in.ExecutionArn, "status": a.status(), "startDate": float64(time.Now().Unix())})
				return
			}
		}
		fail(400, "ExecutionDoesNotExist", "Execution Does Not Exist: '"+in.ExecutionArn+"'")
	default:
		fail(400, "UnknownOperationException", "unknown operation "+target)
	}
}

func (a *awsJSON) secretReads() map[string]int {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := map[string]int{}
	for k, v := range a.reads {
		out[k] = v
	}
	clear(a.reads)
	return out
}

// cloud is where the functions under test run: the values of the
// template's references, and the endpoints of the AWS services.
type cloud struct {
	table, jobsURL, deliveriesURL string
	// schedulesURL is the schedules queue (scheduler → worker-schedule).
	schedulesURL string
	aws          *awsJSON
	// kms is a fake KMS holding the secrets key (ARN secretsKey).
	kms        *kmstest.Server
	secretsKey string
}

// withKMS gives c its fake KMS.
func withKMS(t testing.TB, c *cloud) *cloud {
	c.kms, c.secretsKey = kmstest.New(t)
	return c
}

// setAWSEnv points the AWS SDK's default configuration at the test
// endpoints, with static credentials, and away from the machine's own AWS
// configuration files.
func setAWSEnv(t testing.TB, c *cloud, dynamoEndpoint, sqsEndpoint string) {
	for k, v := range map[string]string{
		"AWS_ACCESS_KEY_ID": "local", "AWS_SECRET_ACCESS_KEY": "local", "AWS_SESSION_TOKEN": "", "AWS_REGION": "us-east-1",
		"AWS_PROFILE": "", "AWS_CONFIG_FILE": filepath.Join(t.TempDir(), "none"), "AWS_SHARED_CREDENTIALS_FILE": filepath.Join(t.TempDir(), "none"),
		"AWS_EC2_METADATA_DISABLED":        "true",
		"AWS_ENDPOINT_URL_DYNAMODB":        dynamoEndpoint,
		"AWS_ENDPOINT_URL_SQS":             sqsEndpoint,
		"AWS_ENDPOINT_URL_SECRETS_MANAGER": c.aws.srv.URL,
		"AWS_ENDPOINT_URL_SFN":             c.aws.srv.URL,
		"AWS_ENDPOINT_URL_KMS":             c.kms.URL,
	} {
		t.Setenv(k, v)
	}
}

// offlineCloud is a cloud whose table and queues are never reached (the
// functions are only assembled, which calls nothing but Secrets Manager).
func offlineCloud(t testing.TB) *cloud {
	c := withKMS(t, &cloud{table: "brandlens-test", jobsURL: unreachableQueueURL, deliveriesURL: unreachableQueueURL,
		schedulesURL: unreachableQueueURL, aws: newAWSJSON(t)})
	setAWSEnv(t, c, "http://127.0.0.1:1", "http://127.0.0.1:1")
	return c
}

// emulatedCloud is a cloud on DynamoDB Local and fauxqs.
func emulatedCloud(t testing.TB) *cloud {
	db := dynamotest.Start(t)
	table := dynamotest.NewTable(t, db)
	sq := sqstest.Start(t)
	c := withKMS(t, &cloud{table: table, aws: newAWSJSON(t),
		jobsURL:       sqstest.NewQueue(t, sq, sqstest.QueueOptions{}).URL,
		deliveriesURL: sqstest.NewQueue(t, sq, sqstest.QueueOptions{}).URL,
		schedulesURL:  sqstest.NewQueue(t, sq, sqstest.QueueOptions{}).URL})
	setAWSEnv(t, c, *db.Options().BaseEndpoint, *sq.Options().BaseEndpoint)
	return c
}

// template is template.yaml, as deployed (a test in templategen keeps it
// equal to the generator's output).
type template struct{ root *yaml.Node }

func loadTemplate(t testing.TB) template {
	t.Helper()
	raw, err := os.ReadFile(repoFile(t, "template.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	return template{root: doc.Content[0]}
}

func get(n *yaml.Node, keys ...string) *yaml.Node {
	for _, k := range keys {
		if n == nil || n.Kind != yaml.MappingNode {
			return nil
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				next = n.Content[i+1]
			}
		}
		n = next
	}
	return n
}

// setFunctionEnv sets the environment template.yaml gives the function
// whose resource is id (Globals, then its own), with each reference
// replaced by the cloud's value for it.
func (tpl template) setFunctionEnv(t testing.TB, c *cloud, id string) {
	t.Helper()
	fn := get(tpl.root, "Resources", id)
	if fn == nil {
		t.Fatalf("template.yaml has no resource %s", id)
	}
	refs := map[string]string{
		"Table": c.table, "JobsQueue": c.jobsURL, "DeliveriesQueue": c.deliveriesURL, "SchedulesQueue": c.schedulesURL, "QueryExecutionStateMachine": stateMachineARN,
		"GapDetectionStateMachine": gapStateMachineARN, "ContentGenerationStateMachine": contentStateMachineARN,
		"BrandRescoreStateMachine": rescoreStateMachineARN,
		"PublishStateMachine":      publishStateMachineARN,
		"LogLevel":                 "INFO", "BrandCheckDailyBudget": "1000", "SecretsKey": c.secretsKey,
	}
	maps.Copy(refs, secretARNs)
	// What !Sub texts name besides those: pseudo parameters and the
	// parameters' defaults.
	subs := map[string]string{"AWS::StackName": "brandlens-test", "AWS::Region": "us-east-1", "AWS::URLSuffix": "amazonaws.com",
		"HttpApi": "api0test"}
	params := get(tpl.root, "Parameters")
	for i := 0; params != nil && i+1 < len(params.Content); i += 2 {
		if d := get(params.Content[i+1], "Default"); d != nil {
			subs[params.Content[i].Value] = d.Value
		}
	}
	placeholder := regexp.MustCompile(`\$\{([^}]+)\}`)
	for _, vars := range []*yaml.Node{get(tpl.root, "Globals", "Function", "Environment", "Variables"), get(fn, "Properties", "Environment", "Variables")} {
		for i := 0; vars != nil && i+1 < len(vars.Content); i += 2 {
			k, v := vars.Content[i].Value, vars.Content[i+1]
			val := v.Value
			switch {
			case v.Tag == "!Ref":
				var ok bool
				if val, ok = refs[v.Value]; !ok {
					val, ok = subs[v.Value] // a parameter: its default
				}
				if !ok {
					t.Fatalf("%s: %s is !Ref %s, which the tests give no value", id, k, v.Value)
				}
			case v.Tag == "!Sub":
				val = placeholder.ReplaceAllStringFunc(v.Value, func(m string) string {
					name := m[2 : len(m)-1]
					if r, ok := subs[name]; ok {
						return r
					}
					if r, ok := refs[name]; ok {
						return r
					}
					t.Fatalf("%s: %s is !Sub %s, whose ${%s} the tests give no value", id, k, v.Value, name)
					return ""
				})
			case v.Tag == "!If" && len(v.Content) == 3:
				branch := v.Content[2]
				if tpl.condition(t, v.Content[0].Value) {
					branch = v.Content[1]
				}
				if strings.HasPrefix(branch.Tag, "!") && branch.Tag != "!!str" {
					t.Fatalf("%s: %s's branch %s %s cannot be resolved", id, k, branch.Tag, branch.Value)
				}
				val = branch.Value
			case strings.HasPrefix(v.Tag, "!") && v.Tag != "!!str":
				t.Fatalf("%s: %s is %s %s, which the tests cannot resolve", id, k, v.Tag, v.Value)
			}
			t.Setenv(k, val)
		}
	}
}

// condition evaluates a condition of the template under the parameters'
// defaults (the tests deploy with them): !Equals, !Not and !Ref of a
// parameter are what the template's conditions use.
func (tpl template) condition(t testing.TB, name string) bool {
	t.Helper()
	var eval func(n *yaml.Node) string
	eval = func(n *yaml.Node) string {
		switch n.Tag {
		case "!Ref":
			d := get(tpl.root, "Parameters", n.Value, "Default")
			if d == nil {
				t.Fatalf("condition %s: parameter %s has no default", name, n.Value)
			}
			return d.Value
		case "!Equals":
			return strconv.FormatBool(eval(n.Content[0]) == eval(n.Content[1]))
		case "!Not":
			return strconv.FormatBool(eval(n.Content[0]) != "true")
		case "!!str", "":
			return n.Value
		}
		t.Fatalf("condition %s: %s is not evaluated by the tests", name, n.Tag)
		return ""
	}
	c := get(tpl.root, "Conditions", name)
	if c == nil {
		t.Fatalf("no condition %s", name)
	}
	return eval(c) == "true"
}
