package workflow_test

import (
	"strings"
	"testing"

	"github.com/brandlens/brandlens/shared/workflow"
)

func TestLoadRejects(t *testing.T) {
	pass := `"P":{"Type":"Pass","End":true}`
	cases := []struct{ name, def, want string }{
		{"not an object", `[]`, "not a JSON object"},
		{"unknown top-level field", `{"StartAt":"P","States":{` + pass + `},"Foo":1}`, `unknown top-level field "Foo"`},
		{"JSONata", `{"QueryLanguage":"JSONata","StartAt":"P","States":{` + pass + `}}`, "only JSONPath"},
		{"StartAt missing", `{"StartAt":"X","States":{` + pass + `}}`, `StartAt "X" is not a state`},
		{"Next missing", `{"StartAt":"P","States":{"P":{"Type":"Pass","Next":"Nope"}}}`, `transition to "Nope"`},
		{"unknown type", `{"StartAt":"P","States":{"P":{"Type":"Loop","End":true}}}`, `unknown Type "Loop"`},
		{"Parallel", `{"StartAt":"P","States":{"P":{"Type":"Parallel","Branches":[],"End":true}}}`, "Parallel states are not supported"},
		{"unknown field", `{"StartAt":"P","States":{"P":{"Type":"Pass","End":true,"Reslt":1}}}`, `unknown field "Reslt"`},
		{"unsupported field", `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r","HeartbeatSeconds":5,"End":true}}}`, `"HeartbeatSeconds" is not supported`},
		{"field of another type", `{"StartAt":"P","States":{"P":{"Type":"Pass","Resource":"r","End":true}}}`, `unknown field "Resource"`},
		{"Next and End", `{"StartAt":"P","States":{"P":{"Type":"Pass","Next":"P","End":true}}}`, "exactly one of"},
		{"neither Next nor End", `{"StartAt":"P","States":{"P":{"Type":"Pass"}}}`, "exactly one of"},
		{"unreachable", `{"StartAt":"P","States":{` + pass + `,"Q":{"Type":"Succeed"}}}`, `"Q" is not reachable`},
		{"no terminal state", `{"StartAt":"P","States":{"P":{"Type":"Pass","Next":"P"}}}`, "no state ends"},
		{"duplicate name across Map", `{"StartAt":"M","States":{"M":{"Type":"Map","ItemProcessor":{"StartAt":"M","States":{"M":{"Type":"Succeed"}}},"End":true}}}`, `"M" is used twice`},
		{"transition out of a Map", `{"StartAt":"M","States":{"M":{"Type":"Map","ItemProcessor":{"StartAt":"I","States":{"I":{"Type":"Pass","Next":"After"}}},"Next":"After"},"After":{"Type":"Succeed"}}}`, `transition to "After"`},
		{"distributed Map", `{"StartAt":"M","States":{"M":{"Type":"Map","ItemProcessor":{"ProcessorConfig":{"Mode":"DISTRIBUTED"},"StartAt":"I","States":{"I":{"Type":"Succeed"}}},"End":true}}}`, "only Mode INLINE"},
		{"ItemSelector and Parameters", `{"StartAt":"M","States":{"M":{"Type":"Map","ItemSelector":{},"Parameters":{},"Iterator":{"StartAt":"I","States":{"I":{"Type":"Succeed"}}},"End":true}}}`, "mutually exclusive"},
		{"States.ALL not last", `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r","Retry":[{"ErrorEquals":["States.ALL"]},{"ErrorEquals":["X"]}],"End":true}}}`, "States.ALL must appear alone"},
		{"States.ALL not alone", `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r","Catch":[{"ErrorEquals":["X","States.ALL"],"Next":"T"}],"End":true}}}`, "States.ALL must appear alone"},
		{"BackoffRate below 1", `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r","Retry":[{"ErrorEquals":["X"],"BackoffRate":0.5}],"End":true}}}`, "BackoffRate must be at least 1.0"},
		{"unknown retrier field", `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r","Retry":[{"ErrorEquals":["X"],"Interval":1}],"End":true}}}`, `unknown field "Interval"`},
		{"TimeoutSeconds 0", `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r","TimeoutSeconds":0,"End":true}}}`, "TimeoutSeconds must be a positive integer"},
		{"no Resource", `{"StartAt":"T","States":{"T":{"Type":"Task","End":true}}}`, "Resource is required"},
		{"token task without token", `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"arn:aws:states:::sqs:sendMessage.waitForTaskToken","End":true}}}`, "$$.Task.Token"},
		{"intrinsic function", `{"StartAt":"P","States":{"P":{"Type":"Pass","Parameters":{"s.$":"States.Format('{}', $.a)"},"End":true}}}`, "intrinsic functions are not supported"},
		{"wildcard path", `{"StartAt":"P","States":{"P":{"Type":"Pass","InputPath":"$.a[*]","End":true}}}`, "not supported"},
		{"recursive descent", `{"StartAt":"P","States":{"P":{"Type":"Pass","InputPath":"$..a","End":true}}}`, "recursive descent"},
		{"ResultPath on context", `{"StartAt":"P","States":{"P":{"Type":"Pass","ResultPath":"$$.Execution","End":true}}}`, "cannot refer to the context object"},
		{"nested Next in Choice", `{"StartAt":"C","States":{"C":{"Type":"Choice","Choices":[{"Not":{"Variable":"$.a","IsNull":true,"Next":"S"},"Next":"S"}]},"S":{"Type":"Succeed"}}}`, "nested rule cannot have Next"},
		{"unknown comparison", `{"StartAt":"C","States":{"C":{"Type":"Choice","Choices":[{"Variable":"$.a","NumericAbout":1,"Next":"S"}]},"S":{"Type":"Succeed"}}}`, `unsupported comparison "NumericAbout"`},
		{"two comparisons", `{"StartAt":"C","States":{"C":{"Type":"Choice","Choices":[{"Variable":"$.a","IsNull":true,"IsString":true,"Next":"S"}]},"S":{"Type":"Succeed"}}}`, "exactly one comparison"},
		{"wrong operand type", `{"StartAt":"C","States":{"C":{"Type":"Choice","Choices":[{"Variable":"$.a","NumericEquals":"1","Next":"S"}]},"S":{"Type":"Succeed"}}}`, "not a valid operand"},
		{"Choice with End", `{"StartAt":"C","States":{"C":{"Type":"Choice","Choices":[{"Variable":"$.a","IsNull":true,"Next":"S"}],"End":true},"S":{"Type":"Succeed"}}}`, `unknown field "End"`},
		{"Wait with two durations", `{"StartAt":"W","States":{"W":{"Type":"Wait","Seconds":1,"SecondsPath":"$.s","End":true}}}`, "exactly one of Seconds"},
		{"long state name", `{"StartAt":"` + strings.Repeat("s", 81) + `","States":{"` + strings.Repeat("s", 81) + `":{"Type":"Succeed"}}}`, "longer than 80"},
		{"placeholder without value", `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"${FnArn}","End":true}}}`, "no substitution for ${FnArn}"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := workflow.Load([]byte(tc.def), nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Load error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestSubstitute(t *testing.T) {
	got, err := workflow.Substitute([]byte(`{"a":"${X}","b":"${Y}-${X}","c":"$.keep"}`), map[string]string{"X": `quo"te`, "Y": "y"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"a":"quo\"te","b":"y-quo\"te","c":"$.keep"}`; string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if _, err := workflow.Substitute([]byte(`"${A}${B}${A}"`), nil); err == nil || !strings.Contains(err.Error(), "${A}, ${B}") {
		t.Errorf("err %v, want both missing names once", err)
	}
}

func TestValidExecutionName(t *testing.T) {
	for name, ok := range map[string]bool{
		"01HZX3Q9M2ZK8Y4J6B7N5C1D0E": true, "job_1-a": true, strings.Repeat("a", 80): true,
		"": false, strings.Repeat("a", 81): false, "has space": false, "job:1": false, "jöb": false,
	} {
		if err := workflow.ValidExecutionName(name); (err == nil) != ok {
			t.Errorf("ValidExecutionName(%q) = %v, want ok=%v", name, err, ok)
		}
	}
}
