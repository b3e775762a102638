package workflow

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Limits of Step Functions that the runner enforces so that a definition or
// an execution that AWS would refuse fails locally too.
const (
	maxNameLen     = 80         // state and execution names
	maxPayloadSize = 256 * 1024 // bytes of any state's input or output
	defaultMapConc = 40         // inline Map's effective concurrency when MaxConcurrency is 0
)

var placeholderRE = regexp.MustCompile(`\$\{([A-Za-z0-9_]+)\}`)

// Substitute fills ${Name} placeholders like CloudFormation's
// DefinitionSubstitutions. The value is JSON-string-escaped (placeholders sit
// inside JSON strings in a valid definition). A placeholder without a value
// is an error, because AWS would deploy the literal text.
func Substitute(def []byte, subst map[string]string) ([]byte, error) {
	var missing []string
	out := placeholderRE.ReplaceAllFunc(def, func(m []byte) []byte {
		name := string(placeholderRE.FindSubmatch(m)[1])
		v, ok := subst[name]
		if !ok {
			if !slices.Contains(missing, name) {
				missing = append(missing, name)
			}
			return m
		}
		q, _ := json.Marshal(v)
		return q[1 : len(q)-1]
	})
	if len(missing) > 0 {
		return nil, fmt.Errorf("workflow: no substitution for ${%s}", strings.Join(missing, "}, ${"))
	}
	return out, nil
}

// Machine is a loaded, validated state machine definition. It is immutable
// and safe for concurrent executions.
type Machine struct {
	root    *scope
	timeout time.Duration // top-level TimeoutSeconds; 0 = none
}

// scope is a top-level machine or a Map's ItemProcessor: transitions never
// cross scopes.
type scope struct {
	startAt string
	states  map[string]*state
}

type retrier struct {
	errorEquals []string
	interval    float64 // seconds
	maxAttempts int
	backoffRate float64
	maxDelay    float64 // seconds; 0 = no cap
	jitterFull  bool
}

type catcher struct {
	errorEquals []string
	resultPath  optPath
	next        string
}

type state struct {
	name, typ string
	next      string
	end       bool

	inputPath, outputPath, resultPath optPath
	parameters, resultSelector        template

	// Task
	resource           string
	waitForToken       bool
	timeoutSeconds     int64
	timeoutSecondsPath *jsonPath
	retry              []retrier
	catch              []catcher

	// Choice
	choices     []*choiceRule
	defaultNext string

	// Map
	itemsPath      *jsonPath
	itemSelector   template
	maxConcurrency int
	processor      *scope

	// Pass
	result    any
	hasResult bool

	// Wait
	seconds       *int64
	secondsPath   *jsonPath
	timestamp     *time.Time
	timestampPath *jsonPath

	// Fail
	errorName, cause     string
	errorPath, causePath *jsonPath
}

var (
	commonFields = []string{"Type", "Comment"}
	ioFields     = []string{"InputPath", "OutputPath"}
	flowFields   = []string{"Next", "End"}
	stateFields  = map[string][]string{
		"Task":    {"Parameters", "ResultSelector", "ResultPath", "Retry", "Catch", "Resource", "TimeoutSeconds", "TimeoutSecondsPath"},
		"Pass":    {"Parameters", "ResultPath", "Result"},
		"Choice":  {"Choices", "Default"},
		"Wait":    {"Seconds", "SecondsPath", "Timestamp", "TimestampPath"},
		"Succeed": {},
		"Fail":    {"Error", "Cause", "ErrorPath", "CausePath"},
		"Map":     {"ItemsPath", "ItemSelector", "Parameters", "ItemProcessor", "Iterator", "MaxConcurrency", "ResultSelector", "ResultPath", "Retry", "Catch"},
	}
	// Members of the States language the runner deliberately leaves out;
	// named so the error says "not supported" rather than "unknown".
	unsupportedFields = []string{
		"HeartbeatSeconds", "HeartbeatSecondsPath", "Credentials", "Arguments", "Output", "Assign",
		"QueryLanguage", "Items", "ItemReader", "ItemBatcher", "ResultWriter", "Label",
		"ToleratedFailurePercentage", "ToleratedFailurePercentagePath", "ToleratedFailureCount",
		"ToleratedFailureCountPath", "MaxConcurrencyPath", "Branches",
	}
)

const supportedTypes = "Task, Pass, Choice, Wait, Succeed, Fail, Map"

// Load parses and validates a definition after filling its ${Name}
// placeholders from subst (see Substitute). It rejects what Step Functions
// would reject (missing or unreachable targets, duplicate state names, bad
// field values) and what the runner does not implement (other state types,
// fields and JsonPath features), each with an error naming the state.
func Load(def []byte, subst map[string]string) (*Machine, error) {
	filled, err := Substitute(def, subst)
	if err != nil {
		return nil, err
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(filled, &top); err != nil {
		return nil, fmt.Errorf("workflow: definition is not a JSON object: %w", err)
	}
	for k := range top {
		switch k {
		case "StartAt", "States", "Comment", "Version", "TimeoutSeconds":
		case "QueryLanguage":
			var ql string
			if json.Unmarshal(top[k], &ql) != nil || ql != "JSONPath" {
				return nil, fmt.Errorf("workflow: QueryLanguage %s is not supported (only JSONPath)", top[k])
			}
		default:
			return nil, fmt.Errorf("workflow: unknown top-level field %q", k)
		}
	}
	m := &Machine{}
	if raw, ok := top["TimeoutSeconds"]; ok {
		var secs int64
		if err := json.Unmarshal(raw, &secs); err != nil || secs < 1 {
			return nil, fmt.Errorf("workflow: TimeoutSeconds must be a positive integer, got %s", raw)
		}
		m.timeout = time.Duration(secs) * time.Second
	}
	names := map[string]bool{}
	if m.root, err = loadScope(top, "definition", names); err != nil {
		return nil, err
	}
	return m, nil
}

func loadScope(fields map[string]json.RawMessage, where string, names map[string]bool) (*scope, error) {
	sc := &scope{states: map[string]*state{}}
	if err := json.Unmarshal(fields["StartAt"], &sc.startAt); err != nil || sc.startAt == "" {
		return nil, fmt.Errorf("workflow: %s: StartAt must name a state", where)
	}
	var rawStates map[string]json.RawMessage
	if err := json.Unmarshal(fields["States"], &rawStates); err != nil || len(rawStates) == 0 {
		return nil, fmt.Errorf("workflow: %s: States must be a non-empty object", where)
	}
	for _, name := range slices.Sorted(maps.Keys(rawStates)) {
		if names[name] {
			return nil, fmt.Errorf("workflow: state name %q is used twice (names must be unique in the whole state machine)", name)
		}
		names[name] = true
		st, err := loadState(name, rawStates[name], names)
		if err != nil {
			return nil, err
		}
		sc.states[name] = st
	}
	if err := sc.checkTransitions(where); err != nil {
		return nil, err
	}
	return sc, nil
}

// checkTransitions: StartAt and every Next/Default/Catch target exist in this
// scope, every state is reachable, and some state ends the scope.
func (sc *scope) checkTransitions(where string) error {
	if _, ok := sc.states[sc.startAt]; !ok {
		return fmt.Errorf("workflow: %s: StartAt %q is not a state", where, sc.startAt)
	}
	terminal := false
	for _, name := range slices.Sorted(maps.Keys(sc.states)) {
		st := sc.states[name]
		for _, target := range st.targets() {
			if _, ok := sc.states[target]; !ok {
				return fmt.Errorf("workflow: state %q: transition to %q, which is not a state of %s", name, target, where)
			}
		}
		if st.end || st.typ == "Succeed" || st.typ == "Fail" {
			terminal = true
		}
	}
	if !terminal {
		return fmt.Errorf("workflow: %s: no state ends the execution (End, Succeed or Fail)", where)
	}
	seen := map[string]bool{sc.startAt: true}
	queue := []string{sc.startAt}
	for len(queue) > 0 {
		st := sc.states[queue[0]]
		queue = queue[1:]
		for _, t := range st.targets() {
			if !seen[t] {
				seen[t] = true
				queue = append(queue, t)
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(sc.states)) {
		if !seen[name] {
			return fmt.Errorf("workflow: state %q is not reachable from StartAt %q", name, sc.startAt)
		}
	}
	return nil
}

func (st *state) targets() []string {
	var t []string
	if st.next != "" {
		t = append(t, st.next)
	}
	for _, c := range st.choices {
		t = append(t, c.next)
	}
	if st.defaultNext != "" {
		t = append(t, st.defaultNext)
	}
	for _, c := range st.catch {
		t = append(t, c.next)
	}
	return t
}

// fields reads one state's members, remembering the first error.
type fields struct {
	where string
	m     map[string]json.RawMessage
	err   error
}

func (f *fields) fail(format string, args ...any) {
	if f.err == nil {
		f.err = fmt.Errorf("workflow: %s: %s", f.where, fmt.Sprintf(format, args...))
	}
}

func (f *fields) has(name string) bool { _, ok := f.m[name]; return ok }

func (f *fields) isNull(name string) bool {
	raw, ok := f.m[name]
	return ok && strings.TrimSpace(string(raw)) == "null"
}

func (f *fields) decode(name string, dst any) bool {
	raw, ok := f.m[name]
	if !ok {
		return false
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		f.fail("%s: %s is not valid (%v)", name, raw, err)
		return false
	}
	return true
}

func (f *fields) str(name string) string {
	var s string
	f.decode(name, &s)
	return s
}

func (f *fields) path(name string) *jsonPath {
	var s string
	if !f.decode(name, &s) {
		return nil
	}
	p, err := parsePath(s)
	if err != nil {
		f.fail("%s: %v", name, err)
		return nil
	}
	return &p
}

// optPath reads an InputPath/OutputPath/ResultPath member; ResultPath is a
// reference path and cannot use the context object.
func (f *fields) optPath(name string, allowContext bool) optPath {
	if !f.has(name) {
		return optPath{}
	}
	if f.isNull(name) {
		return optPath{set: true, null: true}
	}
	p := f.path(name)
	if p == nil {
		return optPath{}
	}
	if p.context && !allowContext {
		f.fail("%s: %q cannot refer to the context object", name, p.raw)
	}
	return optPath{set: true, path: *p}
}

func (f *fields) template(name string) template {
	raw, ok := f.m[name]
	if !ok {
		return nil
	}
	v, err := decodeValue(raw)
	if err != nil {
		f.fail("%s: %v", name, err)
		return nil
	}
	if _, isObj := v.(map[string]any); !isObj {
		f.fail("%s must be an object", name)
		return nil
	}
	t, err := compileTemplate(v)
	if err != nil {
		f.fail("%s: %v", name, err)
		return nil
	}
	return t
}

func (f *fields) positiveInt(name string) int64 {
	var n float64
	if !f.decode(name, &n) {
		return 0
	}
	if n < 1 || n != math.Trunc(n) || n > 99999999 {
		f.fail("%s must be a positive integer, got %v", name, n)
	}
	return int64(n)
}

func loadState(name string, raw json.RawMessage, names map[string]bool) (*state, error) {
	if len(name) > maxNameLen {
		return nil, fmt.Errorf("workflow: state name %q is longer than %d characters", name, maxNameLen)
	}
	f := &fields{where: fmt.Sprintf("state %q", name)}
	if err := json.Unmarshal(raw, &f.m); err != nil {
		return nil, fmt.Errorf("workflow: state %q is not a JSON object", name)
	}
	st := &state{name: name, typ: f.str("Type")}
	own, ok := stateFields[st.typ]
	switch {
	case st.typ == "Parallel":
		return nil, fmt.Errorf("workflow: state %q: Parallel states are not supported by the local runner (supported: %s)", name, supportedTypes)
	case !ok:
		return nil, fmt.Errorf("workflow: state %q: unknown Type %q (supported: %s)", name, st.typ, supportedTypes)
	}
	f.where = fmt.Sprintf("state %q (%s)", name, st.typ)
	allowed := slices.Concat(commonFields, own)
	if st.typ != "Fail" {
		allowed = append(allowed, ioFields...)
	}
	if st.typ != "Choice" && st.typ != "Succeed" && st.typ != "Fail" {
		allowed = append(allowed, flowFields...)
	}
	for _, k := range slices.Sorted(maps.Keys(f.m)) {
		if slices.Contains(allowed, k) {
			continue
		}
		if slices.Contains(unsupportedFields, k) {
			return nil, fmt.Errorf("workflow: %s: field %q is not supported by the local runner", f.where, k)
		}
		return nil, fmt.Errorf("workflow: %s: unknown field %q (allowed: %s)", f.where, k, strings.Join(allowed, ", "))
	}

	st.next = f.str("Next")
	f.decode("End", &st.end)
	if slices.Contains(allowed, "Next") && (st.next == "") == !st.end {
		f.fail(`must have exactly one of "Next" and "End": true`)
	}
	st.inputPath = f.optPath("InputPath", true)
	st.outputPath = f.optPath("OutputPath", true)
	st.resultPath = f.optPath("ResultPath", false)
	if f.has("Parameters") && st.typ != "Map" {
		st.parameters = f.template("Parameters")
	}
	st.resultSelector = f.template("ResultSelector")
	st.retry = loadRetry(f)
	st.catch = loadCatch(f)

	switch st.typ {
	case "Task":
		loadTask(f, st)
	case "Pass":
		if raw, ok := f.m["Result"]; ok {
			v, err := decodeValue(raw)
			if err != nil {
				f.fail("Result: %v", err)
			}
			st.result, st.hasResult = v, true
		}
	case "Choice":
		loadChoice(f, st)
	case "Wait":
		loadWait(f, st)
	case "Fail":
		st.errorName, st.cause = f.str("Error"), f.str("Cause")
		st.errorPath, st.causePath = f.path("ErrorPath"), f.path("CausePath")
		if f.has("Error") && f.has("ErrorPath") || f.has("Cause") && f.has("CausePath") {
			f.fail("Error/ErrorPath and Cause/CausePath are mutually exclusive")
		}
	case "Map":
		loadMap(f, st, names)
	}
	if f.err != nil {
		return nil, f.err
	}
	return st, nil
}

func loadTask(f *fields, st *state) {
	st.resource = f.str("Resource")
	if st.resource == "" {
		f.fail("Resource is required")
	}
	st.waitForToken = strings.HasSuffix(st.resource, ".waitForTaskToken")
	if st.waitForToken && (st.parameters == nil || !templateRefersTo(st.parameters, "$$.Task.Token")) {
		f.fail("a .waitForTaskToken task must pass $$.Task.Token in Parameters, or nobody can answer it")
	}
	if f.has("TimeoutSeconds") && f.has("TimeoutSecondsPath") {
		f.fail("TimeoutSeconds and TimeoutSecondsPath are mutually exclusive")
	}
	if f.has("TimeoutSeconds") {
		st.timeoutSeconds = f.positiveInt("TimeoutSeconds")
	}
	st.timeoutSecondsPath = f.path("TimeoutSecondsPath")
}

func loadWait(f *fields, st *state) {
	n := 0
	for _, k := range []string{"Seconds", "SecondsPath", "Timestamp", "TimestampPath"} {
		if f.has(k) {
			n++
		}
	}
	if n != 1 {
		f.fail("needs exactly one of Seconds, SecondsPath, Timestamp, TimestampPath")
		return
	}
	if f.has("Seconds") {
		var secs float64
		if f.decode("Seconds", &secs) && (secs < 0 || secs != math.Trunc(secs)) {
			f.fail("Seconds must be a non-negative integer, got %v", secs)
		}
		s := int64(secs)
		st.seconds = &s
	}
	if f.has("Timestamp") {
		ts, err := time.Parse(time.RFC3339Nano, f.str("Timestamp"))
		if err != nil {
			f.fail("Timestamp must be an RFC 3339 time: %v", err)
		}
		st.timestamp = &ts
	}
	st.secondsPath = f.path("SecondsPath")
	st.timestampPath = f.path("TimestampPath")
}

func loadMap(f *fields, st *state, names map[string]bool) {
	if f.has("ItemSelector") && f.has("Parameters") {
		f.fail("ItemSelector and Parameters are mutually exclusive (Parameters is the older name)")
	}
	if f.has("ItemSelector") {
		st.itemSelector = f.template("ItemSelector")
	} else if f.has("Parameters") {
		st.itemSelector = f.template("Parameters")
	}
	st.itemsPath = f.path("ItemsPath")
	if f.has("MaxConcurrency") {
		var n float64
		if f.decode("MaxConcurrency", &n) && (n < 0 || n != math.Trunc(n)) {
			f.fail("MaxConcurrency must be a non-negative integer, got %v", n)
		}
		st.maxConcurrency = int(n)
	}
	procField := "ItemProcessor"
	if f.has("Iterator") {
		procField = "Iterator"
	}
	if f.has("ItemProcessor") == f.has("Iterator") {
		f.fail("needs exactly one of ItemProcessor and Iterator")
		return
	}
	var proc map[string]json.RawMessage
	if !f.decode(procField, &proc) || f.err != nil {
		return
	}
	for k, raw := range proc {
		switch k {
		case "StartAt", "States", "Comment":
		case "ProcessorConfig":
			if procField != "ItemProcessor" {
				f.fail("Iterator cannot have ProcessorConfig")
				return
			}
			var cfg map[string]json.RawMessage
			if err := json.Unmarshal(raw, &cfg); err != nil {
				f.fail("ProcessorConfig: %v", err)
				return
			}
			for ck, cv := range cfg {
				var mode string
				if ck != "Mode" || json.Unmarshal(cv, &mode) != nil || mode != "INLINE" {
					f.fail("ProcessorConfig %s: %s is not supported (only Mode INLINE)", ck, cv)
					return
				}
			}
		default:
			f.fail("%s: unknown field %q", procField, k)
			return
		}
	}
	sc, err := loadScope(proc, fmt.Sprintf("the %s of Map %q", procField, st.name), names)
	if err != nil {
		f.err = err
		return
	}
	st.processor = sc
}

// loadErrorEquals applies the States language rule that States.ALL stands
// alone in the last retrier or catcher.
func loadErrorEquals(f *fields, what string, i int, raw []string, last bool) []string {
	if len(raw) == 0 {
		f.fail("%s[%d]: ErrorEquals must list at least one error name", what, i)
	}
	for _, e := range raw {
		if e == ErrorsAll && (len(raw) != 1 || !last) {
			f.fail("%s[%d]: States.ALL must appear alone in ErrorEquals, and only in the last element of %s", what, i, what)
		}
	}
	return raw
}

func loadRetry(f *fields) []retrier {
	var raws []map[string]json.RawMessage
	if !f.decode("Retry", &raws) {
		return nil
	}
	out := make([]retrier, 0, len(raws))
	for i, raw := range raws {
		rf := &fields{where: fmt.Sprintf("%s: Retry[%d]", f.where, i), m: raw}
		for k := range raw {
			if !slices.Contains([]string{"ErrorEquals", "IntervalSeconds", "MaxAttempts", "BackoffRate", "MaxDelaySeconds", "JitterStrategy", "Comment"}, k) {
				rf.fail("unknown field %q", k)
			}
		}
		r := retrier{interval: 1, maxAttempts: 3, backoffRate: 2}
		var equals []string
		rf.decode("ErrorEquals", &equals)
		r.errorEquals = loadErrorEquals(f, "Retry", i, equals, i == len(raws)-1)
		if rf.has("IntervalSeconds") {
			r.interval = float64(rf.positiveInt("IntervalSeconds"))
		}
		if rf.has("MaxAttempts") {
			var n float64
			if rf.decode("MaxAttempts", &n) && (n < 0 || n != math.Trunc(n) || n > 99999999) {
				rf.fail("MaxAttempts must be a non-negative integer, got %v", n)
			}
			r.maxAttempts = int(n)
		}
		if rf.has("BackoffRate") && rf.decode("BackoffRate", &r.backoffRate) && r.backoffRate < 1 {
			rf.fail("BackoffRate must be at least 1.0, got %v", r.backoffRate)
		}
		if rf.has("MaxDelaySeconds") {
			r.maxDelay = float64(rf.positiveInt("MaxDelaySeconds"))
		}
		switch js := rf.str("JitterStrategy"); js {
		case "", "NONE":
		case "FULL":
			r.jitterFull = true
		default:
			rf.fail("JitterStrategy must be FULL or NONE, got %q", js)
		}
		if rf.err != nil && f.err == nil {
			f.err = rf.err
		}
		out = append(out, r)
	}
	return out
}

func loadCatch(f *fields) []catcher {
	var raws []map[string]json.RawMessage
	if !f.decode("Catch", &raws) {
		return nil
	}
	out := make([]catcher, 0, len(raws))
	for i, raw := range raws {
		cf := &fields{where: fmt.Sprintf("%s: Catch[%d]", f.where, i), m: raw}
		for k := range raw {
			if !slices.Contains([]string{"ErrorEquals", "Next", "ResultPath", "Comment"}, k) {
				cf.fail("unknown field %q", k)
			}
		}
		var equals []string
		cf.decode("ErrorEquals", &equals)
		c := catcher{errorEquals: loadErrorEquals(f, "Catch", i, equals, i == len(raws)-1)}
		c.next = cf.str("Next")
		if c.next == "" {
			cf.fail("Next is required")
		}
		c.resultPath = cf.optPath("ResultPath", false)
		if cf.err != nil && f.err == nil {
			f.err = cf.err
		}
		out = append(out, c)
	}
	return out
}
