package app

//go:generate go run ./templategen -o ../../template.yaml -makefile ../../Makefile

import (
	"slices"
	"strings"

	"github.com/brandlens/brandlens/shared/config"
	"github.com/brandlens/brandlens/shared/content"
	"github.com/brandlens/brandlens/shared/gaps"
	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/meter"
	"github.com/brandlens/brandlens/shared/publish"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/statemachines"
)

// Build artifacts: one bootstrap binary each, under build/<artifact>/. Every
// function of template.yaml runs one of them, which serves the function
// that BRANDLENS_FUNCTION names; functions share an artifact when they have
// the same dependencies.
const (
	// ArtifactAPI serves every API Gateway route (httpapi).
	ArtifactAPI = "api"
	// ArtifactWorker serves the queue consumers, the outbox fan-out, the
	// scheduler and the workflow steps that call no AI platform.
	ArtifactWorker = "worker"
	// ArtifactPlatform is the one step that calls the AI platforms: only it
	// links their SDKs.
	ArtifactPlatform = "step-run-platform"
	// ArtifactGenerate serves the steps that ask a chat model to write
	// (briefs and articles): only it links the model vendors' SDKs
	// (package models/live).
	ArtifactGenerate = "step-generate"
)

// Artifacts lists the build artifacts (the directories under functions/).
var Artifacts = []string{ArtifactAPI, ArtifactWorker, ArtifactPlatform, ArtifactGenerate, ArtifactBrandCheck}

// Kind is what triggers a function, and so which handler it gets.
type Kind int

// Kinds of functions.
const (
	// KindAPI: API Gateway HTTP API routes (payload 2.0).
	KindAPI Kind = iota + 1
	// KindJobsDispatch: the jobs queue (SQS); starts each job's workflow.
	KindJobsDispatch
	// KindFanout: the table's stream (pending outbox events) and a sweep
	// schedule; creates webhook deliveries.
	KindFanout
	// KindDeliver: the deliveries queue (SQS); attempts each delivery.
	KindDeliver
	// KindRunsStep: a task of a runs workflow (runs.Service.Invoke).
	KindRunsStep
	// KindScheduler: an EventBridge schedule; enqueues due scheduled runs.
	KindScheduler
	// KindExecutionEnded: an EventBridge rule on Step Functions' execution
	// status changes; settles the job of an execution that failed, timed
	// out or was aborted before its settle step.
	KindExecutionEnded
	// KindJobStep: a task of a metered job's workflow (gap detection,
	// brief and article generation, re-scoring): the handler of its step
	// resource in Services.JobSteps.
	KindJobStep
	// KindScheduleShard: the schedules queue (SQS); starts the due
	// scheduled runs of one page of a shard of the due index.
	KindScheduleShard
)

// Function is one Lambda function of template.yaml: what it runs and what
// the template gives it. CloudFormation values are written as in the
// template: "!Ref Name", "!GetAtt Name.Arn", or a plain string.
type Function struct {
	Name     string
	Artifact string
	Kind     Kind
	// Routes are the API routes of a KindAPI function.
	Routes      []httpapi.Route
	Description string
	// Comment is written above the function's resource.
	Comment string
	// Timeout (seconds) and MemorySize (MB); 0 keeps the template's Globals.
	Timeout, MemorySize int
	// TimeoutComment explains the timeout in the template.
	TimeoutComment string
	// Env adds environment variables to those of Globals and
	// BRANDLENS_FUNCTION, in order.
	Env []EnvVar
	// Table lists the DynamoDB actions allowed on the table (and on its
	// indexes, unless TableOnly).
	Table     []string
	TableOnly bool
	// Grants are the IAM statements beyond the table.
	Grants []Grant
	// SecretsKey are the KMS actions the secrets key's policy allows the
	// function's role (see secretskey.go); none: the function may neither
	// seal nor open tenants' secrets.
	SecretsKey []string
	// Triggers are the event sources besides API routes.
	Triggers []Trigger
	// ReservedConcurrency names the template parameter that reserves (and
	// so caps) the function's concurrent executions; "" reserves none.
	ReservedConcurrency string
	// Gradual functions are deployed through an alias (AutoPublishAlias
	// live) by CodeDeploy, canary first, rolled back when their errors
	// alarm fires; their event sources and the state machines invoke the
	// alias. API functions that change state are gradual (see Functions).
	Gradual bool
	// ErrorRatePercent is the share of failed invocations (per minute)
	// over which the function's errors alarm fires; 0 means 5.
	ErrorRatePercent int
}

// DefaultErrorRatePercent is the errors alarm's threshold of a function
// that sets none.
const DefaultErrorRatePercent = 5

// EnvVar is one environment variable with its CloudFormation value.
type EnvVar struct{ Name, Value string }

// Grant is one IAM statement (Effect Allow).
type Grant struct {
	Sid       string
	Actions   []string
	Resources []string
	// LeadingKeys, when set, limits DynamoDB actions to items whose
	// partition key matches one of these patterns (dynamodb:LeadingKeys).
	LeadingKeys []string
}

// Trigger is one event source of a function in template.yaml.
type Trigger struct {
	Name    string
	Comment string
	// Queue: an SQS event source on this queue (logical id), reporting
	// batch item failures.
	Queue string
	// Stream: the table's DynamoDB stream, with this filter pattern,
	// reporting batch item failures.
	StreamFilter string
	// Schedule: an EventBridge Scheduler expression (ScheduleV2).
	Schedule string
	// Rule: an EventBridge rule on the default event bus.
	Rule *EventRule
	// RetryAttempts is the schedule's (or the stream's, or the rule's)
	// retry count.
	RetryAttempts int
	BatchSize     int
	// MaxConcurrency names the template parameter that bounds the
	// concurrent invocations of a queue's event source
	// (ScalingConfig.MaximumConcurrency).
	MaxConcurrency string
}

// EventRule is the pattern of an EventBridge rule: the event's source and
// detail-type, and detail members each matched against a list of values
// (written as in the template: "!Ref X" or a plain string).
type EventRule struct {
	Source, DetailType string
	Detail             []EventMatch
}

// EventMatch matches one detail member against values.
type EventMatch struct {
	Field  string
	Values []string
}

// executionEnded is the rule of worker-execution-ended: an execution of
// one of the Workflows stopped without succeeding. Step Functions sends
// these status changes to the default bus by itself (best effort: the
// scheduler's sweep settles what a lost event leaves, at the job's
// deadline).
func executionEnded() *EventRule {
	var arns []string
	for _, w := range Workflows {
		arns = append(arns, "!Ref "+LogicalID(w.Name)+"StateMachine")
	}
	return &EventRule{Source: "aws.states", DetailType: "Step Functions Execution Status Change",
		Detail: []EventMatch{{Field: "status", Values: []string{"FAILED", "TIMED_OUT", "ABORTED"}}, {Field: "stateMachineArn", Values: arns}}}
}

// Table actions.
var (
	// tableGuard is what an API key's guard reads: the key by its hash and
	// the key's tenant (its rate limit is rateLimit).
	tableGuard = []string{"dynamodb:GetItem"}
	// tableRead is what a read-only route needs.
	tableRead = []string{"dynamodb:GetItem", "dynamodb:Query"}
	// tableWrite is what routes that change state need.
	tableWrite = []string{"dynamodb:GetItem", "dynamodb:Query", "dynamodb:UpdateItem", "dynamodb:PutItem",
		"dynamodb:DeleteItem", "dynamodb:TransactWriteItems", "dynamodb:ConditionCheckItem"}
	// tableSteps is what the workflow steps and the scheduler need (they
	// delete nothing but Settle's folded competitor tallies, see
	// tableSettle).
	tableSteps = []string{"dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:Query", "dynamodb:UpdateItem",
		"dynamodb:PutItem", "dynamodb:TransactWriteItems", "dynamodb:ConditionCheckItem"}
	// tableSettle adds the delete of the competitor tallies Settle folds.
	tableSettle = append(slices.Clip(tableSteps), "dynamodb:DeleteItem")
)

// rateLimit is the key guard's per-key, per-minute counter: UpdateItem on
// the RATE#<key id> items only, so that a read-only route writes nothing
// else.
var rateLimit = Grant{Sid: "RateLimit", Actions: []string{"dynamodb:UpdateItem"}, Resources: []string{"!GetAtt Table.Arn"},
	LeadingKeys: []string{"RATE#*"}}

// apiAccess is what the handlers of each built API function do to the
// table beyond their guard. A function whose routes are not built yet
// (they answer 501) is absent and gets its guard's access only; building
// one adds its entry here (a test calls every route through a table that
// records each DynamoDB action and fails on one its policy lacks).
var apiAccess = map[string][]string{
	// Lists query a partition (citations by date: GSI1, see apiIndex).
	"api-list-queries":            tableRead,
	"api-list-citations":          tableRead,
	"api-list-competitors":        tableRead,
	"api-list-jobs":               tableRead,
	"api-list-webhooks":           tableRead,
	"api-list-webhook-deliveries": tableRead,
	"api-list-brand-profiles":     tableRead,
	"api-list-gaps":               tableRead,
	"api-list-opportunities":      tableRead,
	"api-list-audit":              tableRead,
	// A query is read with its last run in one BatchGetItem.
	"api-get-query": {"dynamodb:BatchGetItem"},
	// Writes. (GET of one item needs only GetItem, which the guard has.)
	"api-post-query-run":         tableWrite,
	"api-post-webhook":           tableWrite,
	"api-put-webhook":            tableWrite,
	"api-delete-webhook":         tableWrite,
	"api-post-webhook-ping":      tableWrite,
	"api-post-webhook-redeliver": tableWrite,
	// The content loop's writes (its job-creating ones join the meter's
	// transaction), and the management of profiles, queries, competitors.
	"api-put-brand-profile":          tableWrite,
	"api-post-brand-profile-rescore": tableWrite,
	"api-post-query":                 tableWrite,
	"api-put-query":                  tableWrite,
	"api-delete-query":               tableWrite,
	"api-post-competitor":            tableWrite,
	"api-put-competitor":             tableWrite,
	"api-post-competitor-dismiss":    tableWrite,
	"api-post-competitor-restore":    tableWrite,
	"api-post-gaps-detect":           tableWrite,
	"api-post-opportunity-brief":     tableWrite,
	"api-post-opportunity-content":   tableWrite,
	"api-post-opportunity-dismiss":   tableWrite,
	// Publishing: destinations, the publish write (the meter's transaction
	// with the approval it creates or uses), reviews (the request, its
	// slot, the pending count, the agent's stats and level, the held job).
	"api-list-destinations":        tableRead,
	"api-post-destination":         tableWrite,
	"api-put-destination":          tableWrite,
	"api-delete-destination":       tableWrite,
	"api-post-opportunity-publish": tableWrite,
	"api-list-approvals-pending":   tableRead,
	"api-post-approval-approve":    tableWrite,
	"api-post-approval-reject":     tableWrite,
	// The own site: the signed receiver upserts a page and its sitemap
	// entry; the pages and the sitemap read them.
	"api-post-site-content": tableWrite,
	"api-get-site-page":     tableRead,
	"api-get-site-sitemap":  tableRead,
}

// apiIndex are the API functions that query GSI1; the others reach the
// table alone.
var apiIndex = []string{"api-list-citations"}

// Grants on the queues, shared by the functions that send to them.
var (
	enqueueJobs       = Grant{Sid: "EnqueueJobs", Actions: []string{"sqs:SendMessage"}, Resources: []string{"!GetAtt JobsQueue.Arn"}}
	enqueueDeliveries = Grant{Sid: "EnqueueDeliveries", Actions: []string{"sqs:SendMessage"}, Resources: []string{"!GetAtt DeliveriesQueue.Arn"}}
	enqueueSchedules  = Grant{Sid: "EnqueueSchedules", Actions: []string{"sqs:SendMessage"}, Resources: []string{"!GetAtt " + SchedulesQueue + ".Arn"}}
	// schedulesEnv names the schedules queue (not in Globals: only the
	// scheduler and worker-schedule send to it).
	schedulesEnv = []EnvVar{{config.EnvSchedulesQueueURL, "!Ref " + SchedulesQueue}}
)

// answerTasks lets a function answer the publish workflow's task tokens.
var answerTasks = Grant{Sid: "AnswerTaskTokens", Actions: []string{"states:SendTaskSuccess", "states:SendTaskFailure"},
	Resources: []string{"!Ref " + StateMachineID(publish.Machine)}}

// apiGrants are what API functions do beyond the table and the secrets
// their routes' guards imply: the queues they send to. A route whose
// handler enqueues work adds its function here.
var apiGrants = map[string][]Grant{
	"api-post-query-run":             {enqueueJobs},
	"api-post-gaps-detect":           {enqueueJobs},
	"api-post-opportunity-brief":     {enqueueJobs},
	"api-post-opportunity-content":   {enqueueJobs},
	"api-post-brand-profile-rescore": {enqueueJobs},
	"api-post-webhook-ping":          {enqueueDeliveries},
	"api-post-opportunity-publish":   {enqueueJobs},
	// A review answers the publish workflow waiting for it, or enqueues
	// (or fails) the job it held back.
	"api-post-approval-approve":  {enqueueJobs, answerTasks},
	"api-post-approval-reject":   {enqueueJobs, answerTasks},
	"api-post-webhook-redeliver": {enqueueDeliveries},
}

// workers are the functions without an API route. Adding a worker or a
// step is one entry here (plus its handler kind, if new), then
// `go generate ./shared/app`.
var workers = []Function{
	{Name: "worker-dispatch", Artifact: ArtifactWorker, Kind: KindJobsDispatch,
		Description: "Starts the workflow of each queued job's type (execution name = job id)",
		Timeout:     30, Gradual: true,
		Env: dispatchEnv(),
		Grants: []Grant{
			{Sid: "StartExecution", Actions: []string{"states:StartExecution"}, Resources: stateMachineRefs()},
			// A redelivered job's execution exists already: how did it end?
			{Sid: "DescribeExecution", Actions: []string{"states:DescribeExecution"}, Resources: executionARNs()},
		},
		Triggers: []Trigger{{Name: "Jobs", Queue: "JobsQueue", BatchSize: 10, MaxConcurrency: "JobsDispatchConcurrency"}}},
	{Name: "step-mark-running", Artifact: ArtifactWorker, Kind: KindRunsStep,
		Description: "Workflow step: queued → running, execution.started",
		Timeout:     30, TimeoutComment: "Above the MarkRunning task's 25 s, so that the task's timeout decides.",
		Gradual: true,
		Table:   tableSteps},
	// I/O-bound: one invocation per run waits for the run's slowest answer
	// (~20 s), billed at its memory (make cost). 25 simulated answers at
	// once peak far below 128 MB (BenchmarkRunPlatformsMemory); the soft
	// limit GOMEMLIMIT sets makes the collector work harder before a run
	// of very long answers could reach it. Bursts of scheduled runs queue
	// up behind the reserved concurrency (throttled tasks retry with
	// jitter) instead of taking the account's concurrency from the API
	// functions. Items' provider failures are results, not step errors: an
	// error here is the function's own (a crash, a timeout).
	withReserved(platformStep(runs.StepRunPlatforms, "ask every platform x sample of a run at once, detect, record",
		900, "Lambda's maximum, above the RunPlatforms task's 890 s. The step starts\nno platform call that could not end 40 s before this deadline (10 s for\nthe task timing out first, 10 s of detection adjudication, 20 s to\nrecord and return): with the default call timeouts (at most 240 s,\nClaude) an item makes 3 of its 4 attempts and fails with its last\nerror by 860 s."),
		"PlatformStepConcurrency"),
	// The one-item step of the definition before RunPlatforms, kept for one
	// release: executions started before the deploy keep their definition
	// (AWS does not swap it under a running execution) and still invoke
	// it. Remove it in the release after. Its provider failures are step
	// errors by design (the workflow retries or catches them): alarm only
	// when most answers fail.
	withErrorRate(platformStep(runs.StepRunPlatform, "(previous definition, kept one release) ask one platform one sample, detect, record",
		300, "Provider calls time out after providers.DefaultTimeout (at most 240 s,\nClaude), a rate-limited step waits up to 20 s more, then the answer is\nrecorded: 270 s (280 s with the optional detection adjudicator's 10 s),\nunder the previous definition's RunPlatform task's 290 s, under these\n300 s."),
		50),
	{Name: "step-settle", Artifact: ArtifactWorker, Kind: KindRunsStep,
		Description: "Workflow step: decide the job's status, capture or release credits, events",
		Timeout:     60, TimeoutComment: "Above the Settle task's 50 s, so that the task's timeout decides.",
		Gradual: true,
		Table:   tableSettle},
	{Name: meter.StepJobStart, Artifact: ArtifactWorker, Kind: KindJobStep,
		Description: "Metered-job workflow step: queued → running, execution.started",
		Timeout:     30, TimeoutComment: "Above the Start task's 25 s, so that the task's timeout decides.",
		Gradual: true,
		Table:   tableSteps},
	{Name: gaps.StepDetect, Artifact: ArtifactWorker, Kind: KindJobStep,
		Description: "Gap-detection step: judge every active query of the brand profile, write gaps and opportunities",
		Timeout:     300, TimeoutComment: "Reads each query's window of answers and detects them again; above the\nDetect task's 290 s, so that the task's timeout decides.",
		Gradual: true,
		Table:   tableSteps},
	{Name: runs.StepRescore, Artifact: ArtifactWorker, Kind: KindJobStep,
		Description: "Re-scoring step: detect a batch of stored answers again, update results, citations and competitors",
		Timeout:     300, TimeoutComment: "One batch of runs.DefaultRescoreBatch answers; the workflow loops over\nbatches. Above the RescoreBatch task's 290 s.",
		Gradual: true,
		Table:   tableSteps},
	{Name: content.StepGenerateBrief, Artifact: ArtifactGenerate, Kind: KindJobStep,
		Description: "Content-generation step: write the opportunity's brief with the chat model",
		Timeout:     240, TimeoutComment: generateTimeoutComment, MemorySize: 512, Gradual: true,
		Env: generateEnv, Table: tableSteps, Grants: []Grant{providerKeys}},
	{Name: content.StepGenerateArticle, Artifact: ArtifactGenerate, Kind: KindJobStep,
		Description: "Content-generation step: write, humanize and sanitize the article with the chat model",
		Timeout:     240, TimeoutComment: generateTimeoutComment, MemorySize: 512, Gradual: true,
		Env: generateEnv, Table: tableSteps, Grants: []Grant{providerKeys}},
	{Name: publish.StepAwaitApproval, Artifact: ArtifactWorker, Kind: KindJobStep,
		Description: "Publish step: register the task token on the job's approval request, or answer it at once",
		Timeout:     30, Gradual: true,
		Table:  tableSteps,
		Grants: []Grant{answerTasks}},
	{Name: publish.StepDeliver, Artifact: ArtifactWorker, Kind: KindJobStep,
		Description: "Publish step: one signed POST of the PublishPayload (30 s, no redirects), IndexNow, published",
		Timeout:     75, TimeoutComment: "One POST of at most 30 s, an IndexNow ping of at most 10 s, and the writes:\nunder the Deliver task's 65 s, under these 75 s.",
		Gradual: true,
		// own_site destinations POST to the API's own receiver. (The API
		// functions cannot name the API: SAM's HttpApi depends on them.)
		Env: []EnvVar{{"BRANDLENS_SITE_CONTENT_SECRET_ARN", "!Ref SiteContentSecret"},
			{"BRANDLENS_SITE_BASE_URL", "!Sub https://${HttpApi}.execute-api.${AWS::Region}.${AWS::URLSuffix}"}},
		Table:  tableSteps,
		Grants: []Grant{{Sid: "SiteContentSecret", Actions: []string{"secretsmanager:GetSecretValue"}, Resources: []string{"!Ref SiteContentSecret"}}}},
	{Name: meter.StepJobSettle, Artifact: ArtifactWorker, Kind: KindJobStep,
		Description: "Metered-job workflow step: succeeded with the price captured, or failed at 0 credits; events",
		Timeout:     60, TimeoutComment: "Above the Settle task's 50 s, so that the task's timeout decides.",
		Gradual: true,
		Table:   tableSteps},
	{Name: "scheduler", Artifact: ArtifactWorker, Kind: KindScheduler,
		Comment: "Scheduled monitoring: every 5 minutes the scheduler sends one message per\n" +
			"shard of the due index (the scheduled queries, by when each next falls\n" +
			"due) to the schedules queue, whose consumer worker-schedule starts the\n" +
			"shard's due runs (idempotent per query per period); then it sweeps the\n" +
			"unfinished jobs (sparse index): re-enqueues those queued for over 5\n" +
			"minutes and settles those past their deadline from what they recorded.",
		Description: "Fans the due scheduled runs out per shard; sweeps stuck jobs",
		Timeout:     120,
		Env:         append([]EnvVar{{"BRANDLENS_SCHEDULES", "1"}}, schedulesEnv...), // "1": on; a digit reads the same in YAML 1.1 and 1.2
		Table:       tableSteps,
		Grants:      []Grant{enqueueJobs, enqueueSchedules},
		Triggers:    []Trigger{{Name: "Every5Minutes", Schedule: "rate(5 minutes)", RetryAttempts: 2}}},
	{Name: "worker-schedule", Artifact: ArtifactWorker, Kind: KindScheduleShard,
		Comment: "One message = one page (runs.DuePageSize) of one shard of the due index:\n" +
			"starts its due runs 16 at once (runs.DefaultScheduleWorkers) and sends the\n" +
			"shard's next page as a message of its own. 16 shards: at most ~16\n" +
			"invocations at once per pass (README \"Scale model\").",
		Description: "Starts the due scheduled runs of one page of a due-index shard",
		Timeout:     60, TimeoutComment: "A page of 200 starts, 16 at once, takes seconds; a slow store is cut off\nhere and the page's runs stay due for the next pass.",
		Env:      schedulesEnv,
		Table:    tableSteps,
		Grants:   []Grant{enqueueJobs, enqueueSchedules},
		Triggers: []Trigger{{Name: "Shards", Queue: SchedulesQueue, BatchSize: 1, MaxConcurrency: Queue{ID: SchedulesQueue}.ConcurrencyParam()}}},
	{Name: "worker-execution-ended", Artifact: ArtifactWorker, Kind: KindExecutionEnded,
		Comment: "Every path of a workflow ends in its settle step, unless the execution\n" +
			"itself fails (a settle that kept failing), times out or is stopped: then\n" +
			"this function settles the job from what it recorded, releasing the\n" +
			"rest of its hold, so that no path leaves a hold.",
		Description: "Settles the job of a workflow execution that failed, timed out or was aborted",
		Timeout:     60,
		Table:       tableSteps,
		Triggers:    []Trigger{{Name: "ExecutionEnded", Rule: executionEnded(), RetryAttempts: 10}}},
	{Name: "worker-fanout", Artifact: ArtifactWorker, Kind: KindFanout,
		Description: "Fans pending outbox events out to one webhook delivery per matching subscription",
		Timeout:     120,
		Table:       []string{"dynamodb:GetItem", "dynamodb:Query", "dynamodb:UpdateItem", "dynamodb:PutItem", "dynamodb:TransactWriteItems"},
		Grants:      []Grant{enqueueDeliveries},
		Triggers: []Trigger{
			// Filters match the record's dynamodb member only (Lambda's
			// filtering documents no eventName for DynamoDB sources);
			// the handler skips records that are not INSERTs.
			{Name: "Outbox", StreamFilter: `{"dynamodb": {"NewImage": {"kind": {"S": ["event"]}, "GSI1PK": {"S": [{"prefix": "OUTBOX#pending"}]}}}}`,
				BatchSize: 100, RetryAttempts: 10},
			{Name: "Sweep", Schedule: "rate(1 minute)"},
		}},
	{Name: "worker-deliver", Artifact: ArtifactWorker, Kind: KindDeliver,
		Description: "Attempts one webhook delivery per message: signed POST, 10 s timeout, no redirects, SSRF guard",
		Timeout:     60, TimeoutComment: "Records of a batch are attempted concurrently, each within 10 s.",
		Table:     []string{"dynamodb:GetItem", "dynamodb:UpdateItem"},
		TableOnly: true,
		Grants:    []Grant{enqueueDeliveries},
		Triggers:  []Trigger{{Name: "Deliveries", Queue: "DeliveriesQueue", BatchSize: 10, MaxConcurrency: "DeliveriesConcurrency"}}},
}

// generateTimeoutComment explains the generation steps' timeout.
const generateTimeoutComment = "One model call (BRANDLENS_MODEL_TIMEOUT, 180 s by default) and the\nwrites; a rate-limited or failed call is retried by the workflow."

// providerKeys lets a function read the vendors' API keys.
var providerKeys = Grant{Sid: "ProviderKeys", Actions: []string{"secretsmanager:GetSecretValue"}, Resources: []string{"!Ref ProviderKeysSecret"}}

// platformStep is a query-execution step that asks the AI platforms: the
// artifact that links their SDKs, 128 MB, the provider keys.
func platformStep(name, does string, timeout int, timeoutComment string) Function {
	return Function{Name: name, Artifact: ArtifactPlatform, Kind: KindRunsStep, Description: "Workflow step: " + does,
		Timeout: timeout, TimeoutComment: timeoutComment, MemorySize: 128, Env: platformEnv, Table: tableSteps,
		Grants: []Grant{providerKeys}, Gradual: true}
}

func withReserved(f Function, param string) Function { f.ReservedConcurrency = param; return f }

func withErrorRate(f Function, percent int) Function { f.ErrorRatePercent = percent; return f }

// platformEnv is the environment of the steps that ask the AI platforms:
// the live providers, their keys' secret and its cache, and the optional
// detection adjudicator (the stack's DetectAdjudicator parameter) with the
// vendor whose cheap model it asks — the generation steps' vendor.
var platformEnv = []EnvVar{{"GOMEMLIMIT", "100MiB"}, {"BRANDLENS_PROVIDERS", "live"},
	{"BRANDLENS_PROVIDER_KEYS_SECRET_ARN", "!Ref ProviderKeysSecret"},
	{"BRANDLENS_SECRETS_TTL", "!Sub ${SecretsTTLSeconds}s"},
	{config.EnvDetectAdjudicator, "!Ref " + DetectAdjudicatorParam}, {"BRANDLENS_MODELS", modelsVendor}}

// DetectAdjudicatorParam is the stack parameter that turns the detection
// adjudicator on in the platform steps.
const DetectAdjudicatorParam = "DetectAdjudicator"

// modelsVendor is the chat-model vendor of the generation steps and the
// adjudicator (its key in the provider keys secret).
const modelsVendor = "openai"

// generateEnv is the environment of the generation steps: the model
// vendor (its key in the provider keys secret, shared with the answer
// providers of the same vendor).
var generateEnv = []EnvVar{{"BRANDLENS_MODELS", modelsVendor}, {"BRANDLENS_PROVIDER_KEYS_SECRET_ARN", "!Ref ProviderKeysSecret"}}

// dispatchEnv gives worker-dispatch the ARN of every workflow.
func dispatchEnv() []EnvVar {
	var out []EnvVar
	for _, w := range Workflows {
		out = append(out, EnvVar{config.StateMachineEnv(w.Name), "!Ref " + StateMachineID(w.Name)})
	}
	return out
}

// executionARNs are the ARNs of every workflow's executions, which
// worker-dispatch describes when a redelivered job's execution exists.
func executionARNs() []string {
	var out []string
	for _, w := range Workflows {
		out = append(out, "!Sub arn:${AWS::Partition}:states:${AWS::Region}:${AWS::AccountId}:execution:${"+StateMachineID(w.Name)+".Name}:*")
	}
	return out
}

func stateMachineRefs() []string {
	var out []string
	for _, w := range Workflows {
		out = append(out, "!Ref "+StateMachineID(w.Name))
	}
	return out
}

// StateMachineID is the template resource name of a workflow's state
// machine.
func StateMachineID(workflow string) string { return LogicalID(workflow) + "StateMachine" }

// Workflow is one Step Functions state machine and the step functions its
// Tasks invoke (${<LogicalID(step)>Arn} in the definition).
type Workflow struct {
	Name string
	// File is the definition, relative to the repository root; Definition
	// is the same file, embedded for the local runner.
	File       string
	Definition []byte
	Steps      []string
	// Retired are steps of the previous definition that this one no
	// longer names: executions started before a deploy keep their
	// definition and still invoke them, so the state machine may invoke
	// them for one release (they are not substituted).
	Retired []string
	// Comment is written above the state machine's resource.
	Comment string
}

// Workflows are the state machines. A new workflow is an entry here, its
// steps entries of workers.
var Workflows = []Workflow{
	{Name: runs.QueryExecution, File: "statemachines/query-execution.asl.json", Definition: statemachines.QueryExecution,
		Steps:   []string{runs.StepMarkRunning, runs.StepRunPlatforms, runs.StepSettle},
		Retired: []string{runs.StepRunPlatform},
		Comment: "Standard, not Express: the execution name is the job id, and only\n" +
			"Standard workflows refuse a second execution of the same name, which is\n" +
			"what makes a duplicate jobs-queue message harmless. A run makes 3 state\n" +
			"transitions whatever its platforms (RunPlatforms asks them all in one\n" +
			"invocation): $0.015 per 1,000 platform runs of 5 platforms by the cost\n" +
			"model (make cost), against $0.005 as Express, which would cap an\n" +
			"execution at 5 minutes and pay the AI platforms again for a duplicate\n" +
			"message ($0.006-$0.05 per answer)."},
	{Name: meter.MachineGapDetection, File: "statemachines/gap-detection.asl.json", Definition: statemachines.GapDetection,
		Steps:   []string{meter.StepJobStart, gaps.StepDetect, meter.StepJobSettle},
		Comment: "Gap detection (5 credits): Standard for the same reason; 3 transitions\nplus retries."},
	{Name: meter.MachineContentGeneration, File: "statemachines/content-generation.asl.json", Definition: statemachines.ContentGeneration,
		Steps:   []string{meter.StepJobStart, content.StepGenerateBrief, content.StepGenerateArticle, meter.StepJobSettle},
		Comment: "Briefs (2 credits) and articles (10 credits), by the job's type:\nStandard for the same reason; 4 transitions plus retries."},
	{Name: meter.MachineRescore, File: "statemachines/brand-rescore.asl.json", Definition: statemachines.BrandRescore,
		Steps:   []string{meter.StepJobStart, runs.StepRescore, meter.StepJobSettle},
		Comment: "Re-scoring a brand profile's stored answers (5 credits), in batches:\nStandard for the same reason."},
	{Name: publish.Machine, File: "statemachines/publish.asl.json", Definition: statemachines.Publish,
		Steps:   []string{publish.StepAwaitApproval, meter.StepJobStart, publish.StepDeliver, meter.StepJobSettle},
		Comment: "Publishing (0 credits): Standard, since a proposed publish waits for a human\nreview (a task token, up to 7 days) and Express workflows end after 5\nminutes. An executed publish is 4 transitions: $0.00019 in all by the cost\nmodel (make cost)."},
}

// Substitutions are the workflow's DefinitionSubstitutions for the local
// runner: each step's ${…Arn} names the step itself.
func (w Workflow) Substitutions() map[string]string {
	m := map[string]string{}
	for _, s := range w.Steps {
		m[LogicalID(s)+"Arn"] = s
	}
	return m
}

// Functions lists every function of template.yaml: one per API function
// of the route table (plus $default), then the workers.
func Functions() []Function {
	var out []Function
	for _, r := range append(slices.Clone(httpapi.Routes), httpapi.CatchAll) {
		i := slices.IndexFunc(out, func(f Function) bool { return f.Name == r.Function })
		if i < 0 {
			out = append(out, Function{Name: r.Function, Artifact: ArtifactAPI, Kind: KindAPI})
			i = len(out) - 1
		}
		out[i].Routes = append(out[i].Routes, r)
	}
	for i := range out {
		out[i] = apiFunction(out[i])
	}
	out = append(out, workers...)
	for i := range out {
		out[i] = withSecretsKey(out[i])
	}
	return out
}

// FunctionNamed returns the function called name.
func FunctionNamed(name string) (Function, bool) {
	for _, f := range Functions() {
		if f.Name == name {
			return f, true
		}
	}
	return Function{}, false
}

// apiFunction fills in what an API function's routes imply: the
// description, the table actions and the grants.
func apiFunction(f Function) Function {
	var descs []string
	for _, r := range f.Routes {
		descs = append(descs, r.Method+" "+r.Path+" - "+r.Summary)
	}
	f.Description = strings.Join(descs, "; ")
	guard := GuardAccess(f)
	f.Table, f.Grants, f.Env = guard.Table, guard.Grants, guard.Env
	for _, a := range apiAccess[f.Name] {
		if !slices.Contains(f.Table, a) {
			f.Table = append(f.Table, a)
		}
	}
	f.TableOnly = !slices.Contains(apiIndex, f.Name)
	// The write path deploys gradually.
	f.Gradual = slices.Contains(f.Table, "dynamodb:TransactWriteItems")
	f.Grants = append(f.Grants, apiGrants[f.Name]...)
	if f.AnswersBrandChecks() {
		f = brandCheckFunction(f)
	}
	return f
}

// GuardAccess is what an API function's guards alone need: for API keys,
// the key secret, the key and tenant reads and the rate limit; for signed
// bodies, the site content secret. A route whose feature is not built yet
// has no more.
func GuardAccess(f Function) Function {
	var g Function
	if f.AuthenticatesKeys() {
		g.Table = slices.Clone(tableGuard)
		g.Grants = append(g.Grants, rateLimit,
			Grant{Sid: "KeySecret", Actions: []string{"secretsmanager:GetSecretValue"}, Resources: []string{"!Ref KeySecret"}})
	}
	if f.VerifiesSignedBodies() {
		g.Env = append(g.Env, EnvVar{"BRANDLENS_SITE_CONTENT_SECRET_ARN", "!Ref SiteContentSecret"})
		g.Grants = append(g.Grants, Grant{Sid: "SiteContentSecret", Actions: []string{"secretsmanager:GetSecretValue"}, Resources: []string{"!Ref SiteContentSecret"}})
	}
	return g
}

// UsesTable reports whether the function reads or writes the table.
func (f Function) UsesTable() bool { return len(f.Table) > 0 }

// AuthenticatesKeys reports whether the function checks API keys, and so
// reads the key secret at cold start (and alone may).
func (f Function) AuthenticatesKeys() bool {
	return f.Kind == KindAPI && httpapi.NeedsKeys(f.Name)
}

// VerifiesSignedBodies reports whether the function receives bodies signed
// with the site content secret (and so alone may read that secret).
func (f Function) VerifiesSignedBodies() bool {
	return slices.ContainsFunc(f.Routes, func(r httpapi.Route) bool { return r.Guard == httpapi.GuardSignedBody })
}

// SignsSiteContent reports whether the function signs bodies for the
// site-content receiver (the publish step, for own_site destinations).
func (f Function) SignsSiteContent() bool { return f.Name == publish.StepDeliver }

// CallsPlatforms reports whether the function asks the AI platforms (the
// query-execution step, and the brand check within its request).
func (f Function) CallsPlatforms() bool {
	return f.Artifact == ArtifactPlatform || f.Artifact == ArtifactBrandCheck
}

// LogicalID is the template resource name of a function: its name in
// PascalCase (api-get-me → ApiGetMe).
func LogicalID(name string) string {
	var b strings.Builder
	for _, p := range strings.Split(name, "-") {
		if p != "" {
			b.WriteString(strings.ToUpper(p[:1]) + p[1:])
		}
	}
	return b.String()
}

// SchedulesQueue is the logical id of the queue of due-index shards
// (scheduler → worker-schedule).
const SchedulesQueue = "SchedulesQueue"

// Queue is an SQS queue of the template generated from this table (the
// older queues are in templategen's head.yaml), with a dead-letter queue
// (DeadLetterID).
type Queue struct {
	ID      string
	Comment string
	// VisibilityTimeout (seconds) must exceed the consumer's timeout.
	VisibilityTimeout int
	// MaxReceiveCount deliveries before a message goes to the dead-letter
	// queue.
	MaxReceiveCount int
	// Concurrency is the default of the template parameter
	// (ConcurrencyParam) that bounds its consumer's concurrent invocations.
	Concurrency int
	Consumer    string
}

// ConcurrencyParam names the template parameter bounding the concurrent
// invocations of q's consumer (its trigger's MaxConcurrency).
func (q Queue) ConcurrencyParam() string { return strings.TrimSuffix(q.ID, "Queue") + "Concurrency" }

// DeadLetterID is the logical id of q's dead-letter queue.
func (q Queue) DeadLetterID() string { return strings.TrimSuffix(q.ID, "Queue") + "DeadLetterQueue" }

// Queues are the queues generated from the table.
var Queues = []Queue{{ID: SchedulesQueue,
	Comment: "Scheduled runs: scheduler → one message per shard of the due index (and one\n" +
		"per further page) → worker-schedule.",
	// Above worker-schedule's 60 s timeout, as SQS event sources require.
	VisibilityTimeout: 360, MaxReceiveCount: 5,
	// One invocation per shard of a pass (store.WriteShards).
	Concurrency: 16, Consumer: "worker-schedule"}}
