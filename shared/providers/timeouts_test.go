package providers

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/brandlens/brandlens/shared/errtest"
	"github.com/brandlens/brandlens/shared/platforms"
)

func TestTimeouts(t *testing.T) {
	defaults := map[string]time.Duration{
		platforms.ChatGPT: 180 * time.Second, platforms.Perplexity: 180 * time.Second, platforms.Gemini: 120 * time.Second,
		platforms.Claude: 240 * time.Second, platforms.GoogleAIOverview: 90 * time.Second,
	}
	cases := []struct {
		name    string
		env     map[string]string
		want    map[string]time.Duration // differences from defaults
		wantErr string
	}{
		{name: "defaults", env: map[string]string{}},
		{name: "one for all", env: map[string]string{"BRANDLENS_PROVIDER_TIMEOUT": "45s"}, want: map[string]time.Duration{
			platforms.ChatGPT: 45 * time.Second, platforms.Perplexity: 45 * time.Second, platforms.Gemini: 45 * time.Second,
			platforms.Claude: 45 * time.Second, platforms.GoogleAIOverview: 45 * time.Second}},
		{name: "per platform wins", env: map[string]string{"BRANDLENS_PROVIDER_TIMEOUT": "45s", "BRANDLENS_PROVIDER_TIMEOUT_CLAUDE": "5m",
			"BRANDLENS_PROVIDER_TIMEOUT_GOOGLE_AI_OVERVIEW": " 30s "}, want: map[string]time.Duration{
			platforms.ChatGPT: 45 * time.Second, platforms.Perplexity: 45 * time.Second, platforms.Gemini: 45 * time.Second,
			platforms.Claude: 5 * time.Minute, platforms.GoogleAIOverview: 30 * time.Second}},
		{name: "not a duration", env: map[string]string{"BRANDLENS_PROVIDER_TIMEOUT": "soon"}, wantErr: "BRANDLENS_PROVIDER_TIMEOUT="},
		{name: "zero", env: map[string]string{"BRANDLENS_PROVIDER_TIMEOUT_GEMINI": "0s"}, wantErr: "BRANDLENS_PROVIDER_TIMEOUT_GEMINI="},
		{name: "negative", env: map[string]string{"BRANDLENS_PROVIDER_TIMEOUT_CHATGPT": "-1s"}, wantErr: "BRANDLENS_PROVIDER_TIMEOUT_CHATGPT="},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Timeouts(func(k string) string { return tc.env[k] })
			if errtest.Want(t, err, tc.wantErr) {
				return
			}
			for _, pf := range platforms.All {
				want := defaults[pf]
				if w, ok := tc.want[pf]; ok {
					want = w
				}
				if got[pf] != want || (len(tc.env) == 0 && DefaultTimeout(pf) != want) {
					t.Errorf("%s: %s, want %s", pf, got[pf], want)
				}
			}
		})
	}
}

// The steps that call a platform must outlive the slowest default call,
// plus the step's own wait on a Retry-After (20 s) and the recording: the
// one-item step of the previous definition (kept one release) by its
// timeout, RunPlatforms with the 40 s it keeps free at its end; the
// workflow's task timeout must cover that too, and end before the Lambda
// function's own timeout (so that States.Timeout, not a race with Lambda's
// timeout error, is what the workflow sees).
func TestDeploymentOutlastsCallTimeouts(t *testing.T) {
	var slowest time.Duration
	for _, pf := range platforms.All {
		slowest = max(slowest, DefaultTimeout(pf))
	}
	need := slowest + 20*time.Second + 10*time.Second

	raw, err := os.ReadFile(filepath.Join("..", "..", "template.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	timeout := func(resource string) time.Duration {
		if fn := child(child(child(doc.Content[0], "Resources"), resource), "Properties"); fn != nil {
			if v := child(fn, "Timeout"); v != nil {
				n, _ := strconv.Atoi(v.Value)
				return time.Duration(n) * time.Second
			}
		}
		return 0
	}
	if lambda := timeout("StepRunPlatform"); lambda < need {
		t.Errorf("StepRunPlatform Timeout %s, want at least %s", lambda, need)
	}
	lambda := timeout("StepRunPlatforms")
	if lambda < need+40*time.Second || lambda > 900*time.Second {
		t.Errorf("StepRunPlatforms Timeout %s, want at least %s and at most Lambda's 900 s", lambda, need+40*time.Second)
	}

	raw, err = os.ReadFile(filepath.Join("..", "..", "statemachines", "query-execution.asl.json"))
	if err != nil {
		t.Fatal(err)
	}
	var asl struct {
		States map[string]struct {
			TimeoutSeconds int
		}
	}
	if err := json.Unmarshal(raw, &asl); err != nil {
		t.Fatal(err)
	}
	task := time.Duration(asl.States["RunPlatforms"].TimeoutSeconds) * time.Second
	if task < need+30*time.Second || task >= lambda {
		t.Errorf("RunPlatforms TimeoutSeconds %s, want at least %s and less than the Lambda timeout %s", task, need+30*time.Second, lambda)
	}
}

// child is the value of key in mapping node n (nil when absent).
func child(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}
