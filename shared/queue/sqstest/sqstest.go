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
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/brandlens/brandlens/shared/emulator"
)

// Environment variables the harness reads.
const (
	EnvEndpoint = "AWS_ENDPOINT_URL_SQS"
	EnvCLI      = "BRANDLENS_FAUXQS_CLI"
)

// defaultCLI is relative to the repository root.
const defaultCLI = "tools/node_modules/.bin/fauxqs"

const startTimeout = 30 * time.Second

var harness = emulator.Harness[*sqs.Client]{
	Package:     "sqstest",
	Emulator:    "fauxqs",
	EnvEndpoint: EnvEndpoint,
	Connect:     NewClient,
	Launch:      launch,
}

// Main runs the tests of m and then stops the fauxqs that Start launched,
// if any. It returns m's exit code; TestMain may simply return.
func Main(m *testing.M) int { return harness.Main(m) }

// Around is Main for test binaries that use several emulators:
//
//	func TestMain(m *testing.M) { dynamotest.Around(func() int { return sqstest.Around(m.Run) }) }
func Around(run func() int) int { return harness.Around(run) }

// Start returns a client of the test endpoint, launching fauxqs on first
// use. It skips tb when Node.js or fauxqs is missing, unless the CI
// environment variable is set, when it fails.
func Start(tb testing.TB) *sqs.Client {
	tb.Helper()
	return harness.Start(tb)
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
	name := harness.UniqueName()
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

func launch() (*emulator.Process, *sqs.Client, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, nil, emulator.Unavailable("node is not installed, so fauxqs cannot run; install Node.js 20 or later, or set %s", EnvEndpoint)
	}
	cli, err := emulator.RepoFile(EnvCLI, defaultCLI)
	if err != nil {
		return nil, nil, err
	}
	if _, err := os.Stat(cli); err != nil {
		return nil, nil, emulator.Unavailable("fauxqs is not at %s; run `npm ci --prefix tools`, or set %s or %s", cli, EnvCLI, EnvEndpoint)
	}
	port, err := emulator.FreePort()
	if err != nil {
		return nil, nil, err
	}
	// Run through node rather than the script's `#!/usr/bin/env node`, so
	// that the node found above is the one used and the child is node itself.
	cmd := exec.Command(node, cli)
	// Pinned so that a developer's own FAUXQS_* settings (an init file, a
	// host) do not leak into the tests. FAUXQS_LOGGER is not set: fauxqs
	// 1.9.2's CLI ignores it and always logs each request, which lands in the
	// capped output that emulator keeps.
	cmd.Env = append(os.Environ(),
		"FAUXQS_PORT="+strconv.Itoa(port),
		"FAUXQS_HOST=localhost",
		"FAUXQS_DEFAULT_REGION=us-east-1",
		"FAUXQS_INIT=",
	)
	p, err := emulator.Start(cmd)
	if err != nil {
		return nil, nil, fmt.Errorf("start fauxqs: %w", err)
	}
	c := NewClient("http://127.0.0.1:" + strconv.Itoa(port))
	err = p.WaitReady(startTimeout, 50*time.Millisecond, func(ctx context.Context) error {
		_, err := c.ListQueues(ctx, &sqs.ListQueuesInput{}, func(o *sqs.Options) { o.RetryMaxAttempts = 1 })
		return err
	})
	if err != nil {
		p.Stop()
		return nil, nil, fmt.Errorf("fauxqs (%s): %w\n%s", cli, err, p.Output())
	}
	return p, c, nil
}
