// Package sqstest gives tests an SQS endpoint: the one named by
// AWS_ENDPOINT_URL_SQS (LocalStack, say) or else the fauxqs emulator,
// started once per test binary from the copy that `npm ci --prefix tools`
// installs. A package using it calls Main from its TestMain:
//
//	func TestMain(m *testing.M) { sqstest.Main(m) }
//
//	func TestX(t *testing.T) {
//		client := sqstest.Start(t)
//		q := sqstest.NewQueue(t, client, sqstest.QueueOptions{MaxReceiveCount: 3})
//		…
//	}
//
// Without Node.js or the package the tests are skipped, or fail when CI is
// set. The client always uses the static credentials local/local in
// us-east-1, which emulators accept and AWS does not.
//
// fauxqs listens on all interfaces (its CLI has no bind-address setting),
// keeps everything in memory, and rejects message bodies with characters
// outside the Basic Multilingual Plane (emoji), which AWS accepts.
package sqstest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
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
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

// Environment variables the harness reads.
const (
	EnvEndpoint = "AWS_ENDPOINT_URL_SQS"
	EnvCLI      = "BRANDLENS_FAUXQS_CLI"
)

// defaultCLI is relative to the repository root.
const defaultCLI = "tools/node_modules/.bin/fauxqs"

const startTimeout = 30 * time.Second

var (
	inMain atomic.Bool
	once   sync.Once
	queues atomic.Int64
	runID  = randomHex(4)

	// Set once by start.
	client      *sqs.Client
	unavailable string // why the emulator cannot run here (skip, or fail in CI)
	startErr    error  // it should run but did not
	proc        *exec.Cmd
	exited      chan struct{}
)

// Main runs the tests of m and then stops the fauxqs that Start launched,
// if any. It returns m's exit code; TestMain may simply return.
func Main(m *testing.M) int {
	inMain.Store(true)
	code := m.Run()
	stop()
	return code
}

// Start returns a client of the test endpoint, launching fauxqs on first
// use. It skips tb when Node.js or fauxqs is missing, unless the CI
// environment variable is set, when it fails.
func Start(tb testing.TB) *sqs.Client {
	tb.Helper()
	if os.Getenv(EnvEndpoint) == "" && !inMain.Load() {
		tb.Fatal("sqstest: call sqstest.Main(m) from TestMain, so that fauxqs is stopped after the tests")
	}
	once.Do(start)
	switch {
	case unavailable != "" && os.Getenv("CI") != "":
		tb.Fatalf("sqstest: %s (CI is set, so this fails instead of skipping)", unavailable)
	case unavailable != "":
		tb.Skipf("sqstest: %s", unavailable)
	case startErr != nil:
		tb.Fatalf("sqstest: %v", startErr)
	}
	return client
}

// QueueOptions shape a queue made by NewQueue.
type QueueOptions struct {
	// VisibilityTimeout is the queue's, in whole seconds (0: SQS's 30 s).
	VisibilityTimeout time.Duration
	// MaxReceiveCount, when positive, also creates a dead-letter queue and
	// gives the queue a redrive policy that moves a message there on the
	// receive after its MaxReceiveCount-th.
	MaxReceiveCount int
}

// Queue is a queue made by NewQueue.
type Queue struct {
	URL    string
	ARN    string
	DLQURL string // empty without MaxReceiveCount
}

// NewQueue creates a standard queue named uniquely (so that runs sharing an
// endpoint do not meet), with a dead-letter queue when o asks for one, and
// deletes them after tb.
func NewQueue(tb testing.TB, c *sqs.Client, o QueueOptions) Queue {
	tb.Helper()
	name := fmt.Sprintf("brandlens-test-%s-%d", runID, queues.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	attrs := map[string]string{}
	if o.VisibilityTimeout > 0 {
		attrs[string(types.QueueAttributeNameVisibilityTimeout)] = strconv.Itoa(int((o.VisibilityTimeout + time.Second - 1) / time.Second))
	}
	var q Queue
	if o.MaxReceiveCount > 0 {
		dlqURL, dlqARN, err := create(ctx, tb, c, name+"-dlq", nil)
		if err != nil {
			tb.Fatalf("sqstest: %v", err)
		}
		policy, _ := json.Marshal(map[string]string{
			"deadLetterTargetArn": dlqARN,
			"maxReceiveCount":     strconv.Itoa(o.MaxReceiveCount),
		})
		attrs[string(types.QueueAttributeNameRedrivePolicy)] = string(policy)
		q.DLQURL = dlqURL
	}
	url, arn, err := create(ctx, tb, c, name, attrs)
	if err != nil {
		tb.Fatalf("sqstest: %v", err)
	}
	q.URL, q.ARN = url, arn
	return q
}

// create makes one queue, returns its URL and ARN, and deletes it after tb.
func create(ctx context.Context, tb testing.TB, c *sqs.Client, name string, attrs map[string]string) (url, arn string, err error) {
	out, err := c.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String(name), Attributes: attrs})
	if err != nil {
		return "", "", fmt.Errorf("create queue %s: %w", name, err)
	}
	url = aws.ToString(out.QueueUrl)
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		c.DeleteQueue(ctx, &sqs.DeleteQueueInput{QueueUrl: aws.String(url)})
	})
	got, err := c.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{
		QueueUrl:       aws.String(url),
		AttributeNames: []types.QueueAttributeName{types.QueueAttributeNameQueueArn},
	})
	if err != nil {
		return "", "", fmt.Errorf("queue %s: ARN: %w", name, err)
	}
	return url, got.Attributes[string(types.QueueAttributeNameQueueArn)], nil
}

// NewClient returns a client of endpoint with the static credentials and
// region that local emulators accept.
func NewClient(endpoint string) *sqs.Client {
	return sqs.New(sqs.Options{
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
	node, err := exec.LookPath("node")
	if err != nil {
		unavailable = "node is not installed, so fauxqs cannot run; install Node.js 20 or later, or set " + EnvEndpoint
		return
	}
	cli, err := cliPath()
	if err != nil {
		startErr = err
		return
	}
	if _, err := os.Stat(cli); err != nil {
		unavailable = fmt.Sprintf("fauxqs is not at %s; run `npm ci --prefix tools`, or set %s or %s", cli, EnvCLI, EnvEndpoint)
		return
	}
	port, err := freePort()
	if err != nil {
		startErr = err
		return
	}
	var out bytes.Buffer
	// Run through node rather than the script's `#!/usr/bin/env node`, so
	// that the node found above is the one used and the child is node itself.
	cmd := exec.Command(node, cli)
	// Pinned so that a developer's own FAUXQS_* settings (an init file, a
	// host) do not leak into the tests. FAUXQS_LOGGER is not set: fauxqs
	// 1.9.2's CLI ignores it and always logs each request, which lands in the
	// capped buffer below.
	cmd.Env = append(os.Environ(),
		"FAUXQS_PORT="+strconv.Itoa(port),
		"FAUXQS_HOST=localhost",
		"FAUXQS_DEFAULT_REGION=us-east-1",
		"FAUXQS_INIT=",
	)
	sw := &syncWriter{w: &out}
	cmd.Stdout, cmd.Stderr = sw, sw
	setDeathSignal(cmd)
	if err := cmd.Start(); err != nil {
		startErr = fmt.Errorf("start fauxqs: %w", err)
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
		startErr = fmt.Errorf("fauxqs (%s): %w\n%s", cli, err, sw.String())
		return
	}
	client = c
}

// cliPath is $BRANDLENS_FAUXQS_CLI or the CLI under the repository root,
// found from the working directory (a package directory in tests).
func cliPath() (string, error) {
	if p := os.Getenv(EnvCLI); p != "" {
		return filepath.Abs(p)
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, filepath.FromSlash(defaultCLI)), nil
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

func waitReady(c *sqs.Client) error {
	deadline := time.Now().Add(startTimeout)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_, err := c.ListQueues(ctx, &sqs.ListQueuesInput{}, func(o *sqs.Options) { o.RetryMaxAttempts = 1 })
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-exited:
			return errors.New("it exited before answering")
		case <-time.After(50 * time.Millisecond):
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
