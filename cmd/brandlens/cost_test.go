package main

import (
	"bytes"
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// `brandlens cost` runs every scenario end to end and prices it; the
// figures that follow from the design, not from timing, are checked: a
// run of 5 platforms makes 3 state transitions (MarkRunning, RunPlatforms,
// Settle), one RunPlatforms invocation waits for its answers, every API read goes through API Gateway once, and
// every scenario costs something; a publish makes 4 (AwaitApproval answered
// at once for a human key's execute, Start, Deliver, Settle).
func TestCostModelRuns(t *testing.T) {
	var out bytes.Buffer
	if err := cost(context.Background(), []string{"--runs", "3", "--reads", "30", "--checks", "1", "--publishes", "1"}, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	s := out.String()
	for _, want := range []string{
		"Step Functions Standard: query-execution          $0.015000  600 transitions",
		"per 1,000 API reads",
		"API Gateway (HTTP API)      $0.001000  1000 requests",
		"per gap detection", "per brief", "per article", "per brand check", "per 1,000 webhook deliveries",
		"Step Functions Standard: publish  $0.000100  4 transitions",
		"AI fees, apart from the AWS bill",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	for _, m := range regexp.MustCompile(`(?m)^per [^:]+: \$([0-9.]+)$`).FindAllStringSubmatch(s, -1) {
		if v, err := strconv.ParseFloat(m[1], 64); err != nil || v <= 0 {
			t.Errorf("%s: not a positive cost", m[0])
		}
	}
}
