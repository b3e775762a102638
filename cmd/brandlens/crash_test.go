package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/jobs"
)

// The crash test of `brandlens serve`: the command in its own process, on
// a data directory of its own, asked for runs whose answers take a second
// (BRANDLENS_PROVIDER_LATENCY); killed with SIGKILL while they are in
// flight, started again, then stopped with SIGTERM in the middle of more
// runs and started again. Every job must reach a final state, held credits
// must come back to 0 and the ledger must add up.
//
// The process is this test binary, which holds package main whole and runs
// main() when envMain is set (TestMain): the same program as a `go build`
// of cmd/brandlens, without a second link of it (16 s on a busy 2-core
// machine).

const crashKey = "crash-test-key-publish-000001"

// envMain makes the test binary run main() instead of the tests.
const envMain = "BRANDLENS_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(envMain) == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// serveBinary is the program to run as `brandlens`.
func serveBinary(t *testing.T) string {
	t.Helper()
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// server is one `brandlens serve` process.
type server struct {
	cmd    *exec.Cmd
	base   string
	stdout *lockedBuffer
	stderr *lockedBuffer
	exited chan error
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func startProcess(t *testing.T, bin, dataDir, seedFile string) *server {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--data-dir", dataDir, "--seed", seedFile)
	cmd.Env = append(os.Environ(), envMain+"=1",
		"BRANDLENS_TABLE=", "BRANDLENS_STORE=", "BRANDLENS_KEY_SECRET=", "BRANDLENS_SCHEDULES=",
		"BRANDLENS_PROVIDERS=simulated", "BRANDLENS_PROVIDER_LATENCY=1s",
		"BRANDLENS_SCHEDULER_INTERVAL=1s", "BRANDLENS_SHUTDOWN_GRACE=5s", "BRANDLENS_LOG_LEVEL=info")
	s := &server{cmd: cmd, stdout: &lockedBuffer{}, stderr: &lockedBuffer{}, exited: make(chan error, 1)}
	pr, pw := io.Pipe()
	cmd.Stdout = io.MultiWriter(pw, s.stdout)
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { s.exited <- cmd.Wait(); pw.Close() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		if t.Failed() {
			t.Logf("serve stdout:\n%s\nserve stderr (last 4 KiB):\n%s", s.stdout, tail(s.stderr.String(), 4096))
		}
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "brandlens serving "); ok {
				found <- strings.Fields(rest)[0]
			}
		}
		_, _ = io.Copy(io.Discard, pr)
	}()
	select {
	case s.base = <-found:
	case err := <-s.exited:
		t.Fatalf("serve exited at start: %v\n%s", err, s.stderr)
	case <-time.After(15 * time.Second):
		t.Fatalf("serve did not start\n%s", s.stderr)
	}
	return s
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

func (s *server) do(t *testing.T, method, path, body string, out any) int {
	t.Helper()
	req, _ := http.NewRequest(method, s.base+path, strings.NewReader(body))
	req.Header.Set("X-API-Key", crashKey)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	if out != nil {
		if err := json.NewDecoder(res.Body).Decode(out); err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
	}
	return res.StatusCode
}

func (s *server) jobList(t *testing.T) []jobs.Job {
	t.Helper()
	var l httpapi.JobList
	if st := s.do(t, "GET", "/api/v1/jobs?limit=200", "", &l); st != 200 {
		t.Fatalf("jobs: %d", st)
	}
	return l.Items
}

// answers counts the answers recorded so far (their citations).
func (s *server) answers(t *testing.T) int {
	t.Helper()
	var p httpapi.CitationPage
	if st := s.do(t, "GET", "/api/v1/citations?pageSize=100", "", &p); st != 200 {
		t.Fatalf("citations: %d", st)
	}
	return len(p.Items)
}

// startRuns asks for n runs of 5 platforms × 3 samples (15 answers, two
// rounds of the workflow's Map of 10, so about 2 s each).
func (s *server) startRuns(t *testing.T, n int) {
	t.Helper()
	for i := range n {
		var acc httpapi.JobAccepted
		if st := s.do(t, "POST", fmt.Sprintf("/api/v1/queries/%d/run", 1+i%3), `{"samples":3}`, &acc); st != 202 {
			t.Fatalf("run: %d", st)
		}
	}
}

// waitFor polls until cond holds or the time is up.
func pollUntil(t *testing.T, limit time.Duration, what string, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > limit {
			t.Fatalf("%s: not within %s", what, limit)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return time.Since(start)
}

func count(js []jobs.Job, pred func(jobs.Job) bool) int {
	n := 0
	for _, j := range js {
		if pred(j) {
			n++
		}
	}
	return n
}

func unfinished(j jobs.Job) bool { return !jobs.Terminal(j.Status) }

// checkLedger: no credit is held, what was captured is what the jobs were
// charged, and available + held + captured = granted.
func (s *server) checkLedger(t *testing.T, js []jobs.Job) {
	t.Helper()
	var c httpapi.CreditInfo
	if st := s.do(t, "GET", "/api/v1/me/credits", "", &c); st != 200 {
		t.Fatalf("credits: %d", st)
	}
	var charged int64
	for _, j := range js {
		charged += j.CreditsCharged
	}
	if c.Held != 0 || c.Captured != charged || c.CreditsBalance+c.Held+c.Captured != c.Granted {
		t.Fatalf("ledger %+v; the jobs were charged %d", c, charged)
	}
}

func TestServeFinishesEveryJobAfterKillAndStop(t *testing.T) {
	bin := serveBinary(t)
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	seedFile := filepath.Join(dir, "seed.json")
	seedJSON := `{"tenants":[{"name":"Crash Co","credits":5000,"dailyCreditCeiling":5000,"rpmLimit":100000,
	  "brand":{"name":"Crash Co","domains":["crash.example"]},
	  "competitors":[{"name":"Rival One"},{"name":"Rival Two"}],
	  "queries":[{"text":"best crash test tool"},{"text":"crash test tool for teams"},{"text":"crash co alternatives"}],
	  "apiKeys":[{"key":"` + crashKey + `","scopes":["publish"]}]}]}`
	if err := os.WriteFile(seedFile, []byte(seedJSON), 0o600); err != nil {
		t.Fatal(err)
	}

	// 1. kill -9 under load.
	s1 := startProcess(t, bin, data, seedFile)
	const load = 30
	s1.startRuns(t, load)
	// Kill once the first round of answers is recorded and the second is
	// being asked: jobs running, some of their answers in the store.
	pollUntil(t, 10*time.Second, "answers recorded", func() bool { return s1.answers(t) > 0 })
	inFlight := count(s1.jobList(t), unfinished)
	if err := s1.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-s1.exited
	if inFlight == 0 {
		t.Fatal("no job was in flight at the kill")
	}

	s2 := startProcess(t, bin, data, seedFile)
	took := pollUntil(t, 20*time.Second, "every job final after the restart", func() bool { return count(s2.jobList(t), unfinished) == 0 })
	js := s2.jobList(t)
	t.Logf("kill -9 with %d of %d jobs in flight: all final %s after the restart (%d succeeded)", inFlight, load,
		took.Round(10*time.Millisecond), count(js, func(j jobs.Job) bool { return j.Status == jobs.StatusSucceeded }))
	for _, j := range js {
		if j.Status != jobs.StatusSucceeded || j.CreditsCharged != 15 {
			t.Errorf("job %s: %s, %d credits (want succeeded, 15: every answer asked once after the restart)", j.ID, j.Status, j.CreditsCharged)
		}
	}
	s2.checkLedger(t, js)

	// 2. SIGTERM under load: running steps finish within the grace, the
	// process exits 0, and what was cut off finishes after the restart.
	s2.startRuns(t, 6)
	pollUntil(t, 10*time.Second, "new jobs running", func() bool {
		return count(s2.jobList(t), func(j jobs.Job) bool { return j.Status == jobs.StatusRunning }) == 6
	})
	stopAt := time.Now()
	if err := s2.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-s2.exited:
		if err != nil {
			t.Fatalf("serve exited with %v after SIGTERM", err)
		}
	case <-time.After(12 * time.Second):
		t.Fatal("serve did not exit within its 5 s grace after SIGTERM")
	}
	if !strings.Contains(s2.stdout.String(), "brandlens stopped") {
		t.Fatalf("no orderly stop:\n%s", s2.stdout)
	}
	t.Logf("SIGTERM: exited after %s", time.Since(stopAt).Round(10*time.Millisecond))

	s3 := startProcess(t, bin, data, seedFile)
	took = pollUntil(t, 20*time.Second, "every job final after SIGTERM and restart", func() bool { return count(s3.jobList(t), unfinished) == 0 })
	js = s3.jobList(t)
	t.Logf("after SIGTERM and restart: %d jobs final %s after the restart", len(js), took.Round(10*time.Millisecond))
	if len(js) != load+6 || count(js, func(j jobs.Job) bool { return j.Status != jobs.StatusSucceeded }) != 0 {
		t.Errorf("jobs after the second restart: %d, not all succeeded", len(js))
	}
	s3.checkLedger(t, js)
}
