package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	awsevents "github.com/aws/aws-lambda-go/events"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/httpapi"
)

// EnvColdStartBootstrap names an API bootstrap to measure instead of one
// built from this tree (tools/bench-coldstart.sh passes another
// revision's).
const EnvColdStartBootstrap = "BRANDLENS_COLDSTART_BOOTSTRAP"

var (
	buildOnce sync.Once
	built     string
	buildErr  error
)

// apiBootstrap is the API function's bootstrap as `make build` makes it,
// for this machine's architecture.
func apiBootstrap(t testing.TB) string {
	t.Helper()
	if p := os.Getenv(EnvColdStartBootstrap); p != "" {
		return p
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "bootstrap")
		if err != nil {
			buildErr = err
			return
		}
		built = filepath.Join(dir, "bootstrap")
		// The Makefile's GOBUILD, for this machine.
		cmd := exec.Command("go", "build", "-tags", "lambda.norpc,brandlens.lambda", "-trimpath", "-ldflags=-s -w", "-o", built, "./functions/api")
		cmd.Dir = repoFile(t, "")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = &buildError{err: err, out: string(out)}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return built
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string {
	return "build the API bootstrap: " + e.err.Error() + "\n" + e.out
}

// coldStartTiming is one cold start of a bootstrap process.
type coldStartTiming struct {
	init  time.Duration // process start → the first event asked for (Lambda's Init Duration)
	first time.Duration // process start → the first event answered
	// initCPU is the CPU time the process used until it asked for its
	// first event, and initWait its threads' time waiting for a CPU (on a
	// shared machine the wall-clock init is mostly that wait).
	initCPU, initWait time.Duration
}

// schedstat sums the CPU time and run-queue wait of every thread of pid
// (/proc/<pid>/task/*/schedstat, in nanoseconds).
func schedstat(pid int) (cpu, wait time.Duration) {
	files, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var c, w int64
		if _, err := fmt.Sscan(string(b), &c, &w); err == nil {
			cpu += time.Duration(c)
			wait += time.Duration(w)
		}
	}
	return cpu, wait
}

// startAPIProcess runs the API bootstrap as Lambda would for function fn
// (the environment template.yaml gives it, the runtime API's address),
// hands it event and returns its answer and timing.
func startAPIProcess(t testing.TB, bin string, c *cloud, tpl template, fn string, event []byte) (awsevents.APIGatewayV2HTTPResponse, coldStartTiming) {
	t.Helper()
	tpl.setFunctionEnv(t, c, app.LogicalID(fn))
	rt := newRuntimeAPI(t)
	rt.Invoke("req-1", event)
	var pid atomic.Int64
	var tm coldStartTiming
	rt.onFirstNext = func() {
		for pid.Load() == 0 { // Start has not returned yet
			time.Sleep(time.Millisecond)
		}
		tm.initCPU, tm.initWait = schedstat(int(pid.Load()))
	}
	cmd := exec.Command(bin)
	// Lambda's environment: no CA bundle of this machine (loading one is
	// parsing hundreds of certificates at init; the emulators are plain
	// HTTP anyway).
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "AWS_CA_BUNDLE=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "AWS_LAMBDA_RUNTIME_API="+rt.Addr(), "AWS_LAMBDA_FUNCTION_NAME=brandlens-test-"+fn,
		"AWS_LAMBDA_FUNCTION_MEMORY_SIZE=512", "AWS_LAMBDA_FUNCTION_VERSION=$LATEST", "_HANDLER=bootstrap")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid.Store(int64(cmd.Process.Pid))
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	a, firstNext, err := rt.Wait(ctx, "req-1")
	if err != nil || a.error {
		t.Fatalf("%s: %v %s\n%s", fn, err, a.body, stderr.String())
	}
	var resp awsevents.APIGatewayV2HTTPResponse
	if err := json.Unmarshal(a.body, &resp); err != nil {
		t.Fatalf("%s answered %s: %v", fn, a.body, err)
	}
	tm.init, tm.first = firstNext.Sub(start), a.at.Sub(start)
	return resp, tm
}

// The API bootstrap as a process under a runtime API: from its start, it
// reads its settings, the key secret (Secrets Manager) and the table
// (DynamoDB Local), and answers GET /api/v1/me. The durations are logged
// (figures for the README come from BenchmarkColdStartAPIProcess and
// tools/bench-coldstart.sh, never asserted).
func TestAPIBootstrapProcessColdStart(t *testing.T) {
	clearEnv(t)
	c := emulatedCloud(t)
	tpl := loadTemplate(t)
	seedAcme(t, emulatedTable(t, c))
	resp, tm := startAPIProcess(t, apiBootstrap(t), c, tpl, "api-get-me", readEvent(t, "api-get-me.json"))
	if resp.StatusCode != 200 || !strings.Contains(resp.Body, `"tenant_id":1`) {
		t.Fatalf("%d %s", resp.StatusCode, resp.Body)
	}
	t.Logf("process start → init done %v (CPU %v, waiting for a CPU %v), → first answer %v", tm.init, tm.initCPU, tm.initWait, tm.first)

	// The Lambda build serves the generated document: the route table's.
	resp, _ = startAPIProcess(t, apiBootstrap(t), c, tpl, "api-get-openapi", readEvent(t, "api-get-openapi.json"))
	live, err := httpapi.OpenAPIJSON()
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || strings.TrimSuffix(resp.Body, "\n") != string(live) {
		t.Fatalf("GET /openapi.json from the Lambda build: %d, %d bytes; the route table's document has %d", resp.StatusCode, len(resp.Body), len(live))
	}
}

// BenchmarkColdStartAPIProcess: process start → init done (init-ms) and →
// the first GET /api/v1/me answered (first-ms), per cold start of the API
// bootstrap (DynamoDB Local and a local Secrets Manager endpoint answer its
// calls).
func BenchmarkColdStartAPIProcess(b *testing.B) {
	clearEnv(b)
	c := emulatedCloud(b)
	tpl := loadTemplate(b)
	seedAcme(b, emulatedTable(b, c))
	bin := apiBootstrap(b)
	event := readEvent(b, "api-get-me.json")
	var initSum, firstSum, cpuSum, waitSum time.Duration
	n := 0
	for b.Loop() {
		resp, tm := startAPIProcess(b, bin, c, tpl, "api-get-me", event)
		if resp.StatusCode != 200 {
			b.Fatalf("%d %s", resp.StatusCode, resp.Body)
		}
		initSum += tm.init
		firstSum += tm.first
		cpuSum += tm.initCPU
		waitSum += tm.initWait
		n++
	}
	b.ReportMetric(float64(initSum.Microseconds())/1000/float64(n), "init-ms/op")
	b.ReportMetric(float64(firstSum.Microseconds())/1000/float64(n), "first-ms/op")
	b.ReportMetric(float64(cpuSum.Microseconds())/1000/float64(n), "init-cpu-ms/op")
	b.ReportMetric(float64(waitSum.Microseconds())/1000/float64(n), "init-wait-ms/op")
}
