// Package emulator runs a local emulator of an AWS service for a test
// binary: it starts the emulator's process on first use, keeps the start of
// its output for error messages, waits until it answers, and kills it when
// the tests end (or, on Linux, when the test binary dies). The harnesses
// dynamotest and sqstest are built on it; a package using one of them calls
// its Main from TestMain.
//
// An emulator that cannot run on the machine (its runtime or install is
// missing) skips the tests that need it, or fails them when the CI
// environment variable is set.
package emulator

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Harness gives tests a client of one emulator per test binary: of the
// endpoint named by EnvEndpoint when that is set, or else of an emulator
// that Launch starts on first use and Main stops.
type Harness[C any] struct {
	// Package names the harness in messages, e.g. "sqstest".
	Package string
	// Emulator names the emulator in messages, e.g. "fauxqs".
	Emulator string
	// EnvEndpoint is the environment variable of an endpoint to use instead
	// of launching the emulator.
	EnvEndpoint string
	// Connect returns a client of an endpoint.
	Connect func(endpoint string) C
	// Launch starts the emulator and returns it once it answers, with a
	// client of it. It returns an error made by Unavailable when the
	// emulator cannot run on this machine.
	Launch func() (*Process, C, error)

	inMain atomic.Bool
	once   sync.Once
	names  atomic.Int64

	// Set once by start.
	client C
	proc   *Process
	err    error
}

// Main runs the tests of m and then stops the emulator that Start
// launched, if any. It returns m's exit code.
func (h *Harness[C]) Main(m *testing.M) int { return h.Around(m.Run) }

// Around is Main for a test binary that uses several harnesses: run runs
// the tests (m.Run, or another harness's Around of m.Run), then the
// emulator that Start launched, if any, is stopped.
func (h *Harness[C]) Around(run func() int) int {
	h.inMain.Store(true)
	code := run()
	h.proc.Stop()
	return code
}

// Start returns a client of the test endpoint, launching the emulator on
// first use. It skips tb when the emulator cannot run here, unless the CI
// environment variable is set, when it fails.
func (h *Harness[C]) Start(tb testing.TB) C {
	tb.Helper()
	if os.Getenv(h.EnvEndpoint) == "" && !h.inMain.Load() {
		tb.Fatalf("%s: call %s.Main(m) from TestMain, so that %s is stopped after the tests", h.Package, h.Package, h.Emulator)
	}
	h.once.Do(h.start)
	var u unavailable
	switch {
	case errors.As(h.err, &u) && os.Getenv("CI") != "":
		tb.Fatalf("%s: %s (CI is set, so this fails instead of skipping)", h.Package, u)
	case errors.As(h.err, &u):
		tb.Skipf("%s: %s", h.Package, u)
	case h.err != nil:
		tb.Fatalf("%s: %v", h.Package, h.err)
	}
	return h.client
}

func (h *Harness[C]) start() {
	if ep := os.Getenv(h.EnvEndpoint); ep != "" {
		h.client = h.Connect(ep)
		return
	}
	h.proc, h.client, h.err = h.Launch()
}

// UniqueName returns a new name for a resource of the tests, unique to the
// test binary's run so that runs sharing an endpoint do not meet.
func (h *Harness[C]) UniqueName() string {
	return fmt.Sprintf("brandlens-test-%s-%d", runID, h.names.Add(1))
}

var runID = randomHex(4)

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// unavailable is why an emulator cannot run on this machine.
type unavailable string

func (u unavailable) Error() string { return string(u) }

// Unavailable returns the error by which Launch reports that the emulator
// cannot run on this machine, so that the tests skip (or fail in CI).
func Unavailable(format string, args ...any) error {
	return unavailable(fmt.Sprintf(format, args...))
}

// RepoFile is the file named by the environment variable env, or else the
// file at the slash-separated path rel under the repository root, found
// from the working directory (a package directory in tests).
func RepoFile(env, rel string) (string, error) {
	if p := os.Getenv(env); p != "" {
		return filepath.Abs(p)
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, filepath.FromSlash(rel)), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory to find the repository root by")
		}
		dir = parent
	}
}

// FreePort returns a TCP port on 127.0.0.1 that is free now.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Process is a running emulator.
type Process struct {
	cmd    *exec.Cmd
	exited chan struct{}
	out    *output
}

// Start starts cmd with its output captured and, where the kernel allows,
// a signal that kills it when the test binary dies.
func Start(cmd *exec.Cmd) (*Process, error) {
	out := &output{}
	cmd.Stdout, cmd.Stderr = out, out
	setDeathSignal(cmd)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &Process{cmd: cmd, exited: make(chan struct{}), out: out}
	go func() {
		cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// WaitReady calls ready, with a 1-second context, every interval until it
// succeeds, the process exits, or timeout passes.
func (p *Process) WaitReady(timeout, interval time.Duration, ready func(context.Context) error) error {
	deadline := time.Now().Add(timeout)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := ready(ctx)
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-p.exited:
			return errors.New("it exited before answering")
		case <-time.After(interval):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no answer within %v: %w", timeout, err)
		}
	}
}

// Listens reports whether the process itself holds a listening socket on
// port (on Linux; elsewhere it reports true). A readiness check asks it
// first: a port found free may have been taken by another test binary's
// emulator before this one bound it, and that one's answers would stop
// when its tests end.
func (p *Process) Listens(port int) bool { return listens(p.cmd.Process.Pid, port) }

// Output is the start of what the process wrote.
func (p *Process) Output() string { return p.out.String() }

// Stop kills the process and waits for it to exit. It does nothing on a
// nil Process.
func (p *Process) Stop() {
	if p == nil {
		return
	}
	p.cmd.Process.Kill()
	<-p.exited
}

// output keeps the start of the emulator's output for error messages.
type output struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.b.Len() > 64<<10 {
		return len(p), nil
	}
	return o.b.Write(p)
}

func (o *output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.String()
}
