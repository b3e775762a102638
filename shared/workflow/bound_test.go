package workflow_test

import (
	"strings"
	"testing"
	"time"
)

func TestMaxDuration(t *testing.T) {
	cases := []struct {
		name    string
		def     string
		items   int
		want    time.Duration
		wantErr string
	}{
		{name: "one task", def: `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r","TimeoutSeconds":10,"End":true}}}`,
			want: 10 * time.Second},
		{name: "retries and their waits", def: `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r","TimeoutSeconds":10,"End":true,
			"Retry":[{"ErrorEquals":["A"],"IntervalSeconds":2,"MaxAttempts":3,"BackoffRate":2},{"ErrorEquals":["B"],"IntervalSeconds":1,"MaxAttempts":1}]}}}`,
			// 10 + (2+10) + (4+10) + (8+10) + (1+10)
			want: 65 * time.Second},
		{name: "capped waits", def: `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r","TimeoutSeconds":1,"End":true,
			"Retry":[{"ErrorEquals":["A"],"IntervalSeconds":10,"MaxAttempts":2,"BackoffRate":10,"MaxDelaySeconds":20}]}}}`,
			want: (1 + 11 + 21) * time.Second},
		{name: "catch takes the longer way", def: `{"StartAt":"T","States":{
			"T":{"Type":"Task","Resource":"r","TimeoutSeconds":5,"Next":"Short","Catch":[{"ErrorEquals":["States.ALL"],"Next":"Long"}]},
			"Short":{"Type":"Task","Resource":"r","TimeoutSeconds":1,"End":true},
			"Long":{"Type":"Task","Resource":"r","TimeoutSeconds":30,"End":true}}}`,
			want: 35 * time.Second},
		{name: "choice and wait", def: `{"StartAt":"C","States":{
			"C":{"Type":"Choice","Choices":[{"Variable":"$.x","IsPresent":true,"Next":"W"}],"Default":"Done"},
			"W":{"Type":"Wait","Seconds":7,"Next":"Done"},"Done":{"Type":"Succeed"}}}`,
			want: 7 * time.Second},
		{name: "map rounds", items: 25, def: `{"StartAt":"M","States":{"M":{"Type":"Map","ItemsPath":"$.i","MaxConcurrency":10,"End":true,
			"ItemProcessor":{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r","TimeoutSeconds":100,"End":true}}}}}}`,
			want: 300 * time.Second},
		{name: "execution timeout caps it", def: `{"TimeoutSeconds":20,"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r","TimeoutSeconds":100,"End":true}}}`,
			want: 20 * time.Second},
		{name: "a loop under the execution timeout", def: `{"TimeoutSeconds":3600,"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r","TimeoutSeconds":1,"Next":"C"},
			"C":{"Type":"Choice","Choices":[{"Variable":"$.again","BooleanEquals":true,"Next":"T"}],"Default":"Done"},"Done":{"Type":"Succeed"}}}`,
			want: time.Hour},
		{name: "task without timeout", def: `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r","End":true}}}`,
			wantErr: `Task "T" has no TimeoutSeconds`},
		{name: "loop", def: `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r","TimeoutSeconds":1,"Next":"C"},
			"C":{"Type":"Choice","Choices":[{"Variable":"$.again","BooleanEquals":true,"Next":"T"}],"Default":"Done"},"Done":{"Type":"Succeed"}}}`,
			wantErr: "loop"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := mustLoad(t, tc.def).MaxDuration(tc.items)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("MaxDuration = %s, %v; want %s", got, err, tc.want)
			}
		})
	}
}
