// Package config reads brandlens's settings from the environment and wires
// the services: the table (embedded or DynamoDB), the key hasher and the
// HTTP dependencies. Lambda mains and `brandlens serve` both start here.
package config

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"

	"github.com/brandlens/brandlens/shared/auth"
	"github.com/brandlens/brandlens/shared/citations"
	"github.com/brandlens/brandlens/shared/competitors"
	"github.com/brandlens/brandlens/shared/credits"
	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/queries"
	"github.com/brandlens/brandlens/shared/ratelimit"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamo"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/webhooks"
)

// Environment variables.
const (
	EnvStore             = "BRANDLENS_STORE" // embedded | dynamodb
	EnvDataDir           = "BRANDLENS_DATA_DIR"
	EnvTableName         = "BRANDLENS_TABLE"
	EnvKeySecret         = "BRANDLENS_KEY_SECRET"
	EnvKeySecretARN      = "BRANDLENS_KEY_SECRET_ARN"
	EnvSiteContentSecret = "BRANDLENS_SITE_CONTENT_SECRET"
	// EnvSiteContentSecretARN names the Secrets Manager secret holding the
	// site content secret (in AWS, set only on api-post-site-content).
	EnvSiteContentSecretARN = "BRANDLENS_SITE_CONTENT_SECRET_ARN"
	EnvLogLevel             = "BRANDLENS_LOG_LEVEL"
)

// DefaultDataDir is where the embedded store keeps its files locally.
const DefaultDataDir = ".brandlens"

// Config is the settings read from the environment.
type Config struct {
	Store             string
	DataDir           string
	TableName         string
	KeySecret         []byte
	KeySecretARN      string
	SiteContentSecret []byte
	// SiteContentSecretARN is read when SiteContentSecret is empty.
	SiteContentSecretARN string
	LogLevel             slog.Level
}

// FromEnv reads the settings. With BRANDLENS_TABLE set and no
// BRANDLENS_STORE the store is DynamoDB; otherwise it is embedded.
func FromEnv() (Config, error) {
	c := Config{
		Store:                os.Getenv(EnvStore),
		DataDir:              os.Getenv(EnvDataDir),
		TableName:            os.Getenv(EnvTableName),
		KeySecret:            []byte(os.Getenv(EnvKeySecret)),
		KeySecretARN:         os.Getenv(EnvKeySecretARN),
		SiteContentSecret:    []byte(os.Getenv(EnvSiteContentSecret)),
		SiteContentSecretARN: os.Getenv(EnvSiteContentSecretARN),
	}
	if c.Store == "" {
		c.Store = "embedded"
		if c.TableName != "" {
			c.Store = "dynamodb"
		}
	}
	if c.DataDir == "" {
		c.DataDir = DefaultDataDir
	}
	if lv := os.Getenv(EnvLogLevel); lv != "" {
		if err := c.LogLevel.UnmarshalText([]byte(lv)); err != nil {
			return Config{}, fmt.Errorf("config: %s: %w", EnvLogLevel, err)
		}
	}
	switch c.Store {
	case "embedded":
	case "dynamodb":
		if c.TableName == "" {
			return Config{}, fmt.Errorf("config: %s=dynamodb needs %s", EnvStore, EnvTableName)
		}
	default:
		return Config{}, fmt.Errorf("config: %s must be embedded or dynamodb, not %q", EnvStore, c.Store)
	}
	return c, nil
}

// Logger returns the structured JSON logger.
func (c Config) Logger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: c.LogLevel}))
}

// OpenTable opens the configured store; close releases it.
func (c Config) OpenTable(ctx context.Context) (tbl store.Table, close func() error, err error) {
	if c.Store == "dynamodb" {
		client, err := c.DynamoClient(ctx)
		if err != nil {
			return nil, nil, err
		}
		return dynamo.New(client, c.TableName), func() error { return nil }, nil
	}
	t, err := embedded.Open(c.DataDir)
	if err != nil {
		return nil, nil, fmt.Errorf("config: open embedded store in %s: %w", c.DataDir, err)
	}
	return t, t.Close, nil
}

// loadAWS loads the shared AWS configuration once per process (a Lambda
// cold start builds several clients from it).
var loadAWS = sync.OnceValues(func() (aws.Config, error) {
	return awsconfig.LoadDefaultConfig(context.Background())
})

func (c Config) awsConfig(context.Context) (aws.Config, error) {
	cfg, err := loadAWS()
	if err != nil {
		return aws.Config{}, fmt.Errorf("config: load AWS configuration: %w", err)
	}
	return cfg, nil
}

// DynamoClient returns a DynamoDB client from the shared AWS configuration.
func (c Config) DynamoClient(ctx context.Context) (*dynamodb.Client, error) {
	cfg, err := c.awsConfig(ctx)
	if err != nil {
		return nil, err
	}
	// AWS_ENDPOINT_URL_DYNAMODB (DynamoDB Local, LocalStack) is honoured by
	// the SDK's shared configuration.
	return dynamodb.NewFromConfig(cfg), nil
}

// KeySecretBytes returns the API-key hashing secret: from the environment,
// from Secrets Manager (in AWS), or — for the embedded store only — from a
// file in the data directory, created on first use.
func (c Config) KeySecretBytes(ctx context.Context) ([]byte, error) {
	switch {
	case len(c.KeySecret) > 0:
		return c.KeySecret, nil
	case c.KeySecretARN != "":
		return c.secretValue(ctx, "key secret", c.KeySecretARN)
	case c.Store == "embedded":
		return localSecret(filepath.Join(c.DataDir, "key-secret"))
	}
	return nil, fmt.Errorf("config: set %s or %s", EnvKeySecret, EnvKeySecretARN)
}

// SiteContentSecretBytes returns the secret that signs bodies posted to the
// site-content receiver: from the environment or from Secrets Manager. It
// is empty when neither is set, and the receiver then rejects every body.
func (c Config) SiteContentSecretBytes(ctx context.Context) ([]byte, error) {
	if len(c.SiteContentSecret) > 0 || c.SiteContentSecretARN == "" {
		return c.SiteContentSecret, nil
	}
	return c.secretValue(ctx, "site content secret", c.SiteContentSecretARN)
}

// secretValue reads a string secret from Secrets Manager.
func (c Config) secretValue(ctx context.Context, what, arn string) ([]byte, error) {
	cfg, err := c.awsConfig(ctx)
	if err != nil {
		return nil, err
	}
	out, err := secretsmanager.NewFromConfig(cfg).GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: &arn})
	if err != nil {
		return nil, fmt.Errorf("config: read %s: %w", what, err)
	}
	return []byte(aws.ToString(out.SecretString)), nil
}

// localSecret reads or creates a random secret file readable by the owner only.
func localSecret(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err == nil {
		return []byte(strings.TrimSpace(string(b))), nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("config: read %s: %w", path, err)
	}
	var r [32]byte
	if _, err := rand.Read(r[:]); err != nil {
		return nil, fmt.Errorf("config: generate secret: %w", err)
	}
	s := hex.EncodeToString(r[:])
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("config: create %s: %w", filepath.Dir(path), err)
	}
	if err := os.WriteFile(path, []byte(s+"\n"), 0o600); err != nil {
		return nil, fmt.Errorf("config: write %s: %w", path, err)
	}
	return []byte(s), nil
}

// Services are the domain services over one table.
type Services struct {
	Table       store.Table
	Keys        *auth.Keys
	Tenants     *tenants.Repo
	Queries     *queries.Repo
	Competitors *competitors.Repo
	Citations   *citations.Repo
	Jobs        *jobs.Repo
	Ledger      *credits.Ledger
	Limiter     *ratelimit.Limiter
	// Runs needs its Sender (the jobs queue) set by the runtime.
	Runs *runs.Service
	// Webhooks needs its Sender (the deliveries queue) set by the runtime.
	Webhooks *webhooks.Service
	Now      func() time.Time
}

// NewServices builds the services over tbl. A nil secret leaves Keys nil,
// for functions that authenticate no key.
func NewServices(tbl store.Table, secret []byte, now func() time.Time) (*Services, error) {
	if now == nil {
		now = time.Now
	}
	var keys *auth.Keys
	if secret != nil {
		h, err := auth.NewHasher(secret)
		if err != nil {
			return nil, err
		}
		keys = auth.NewKeys(tbl, h, now)
	}
	svc := &Services{
		Table:       tbl,
		Keys:        keys,
		Tenants:     tenants.NewRepo(tbl, now),
		Queries:     queries.NewRepo(tbl, now),
		Competitors: competitors.NewRepo(tbl, now),
		Citations:   citations.NewRepo(tbl, now),
		Jobs:        jobs.NewRepo(tbl),
		Ledger:      credits.NewLedger(tbl, now),
		Limiter:     ratelimit.New(tbl, now),
		Now:         now,
	}
	svc.Runs = &runs.Service{Table: tbl, Tenants: svc.Tenants, Queries: svc.Queries, Ledger: svc.Ledger,
		Jobs: svc.Jobs, Competitors: svc.Competitors, Now: now}
	wh, err := newWebhooks(tbl, now)
	if err != nil {
		return nil, err
	}
	svc.Webhooks = wh
	return svc, nil
}

// HTTPDeps returns the dependencies of the HTTP handlers.
func (s *Services) HTTPDeps(logger *slog.Logger, siteContentSecret []byte) httpapi.Deps {
	return httpapi.Deps{
		Keys: s.Keys, Tenants: s.Tenants, Queries: s.Queries, Competitors: s.Competitors,
		Citations: s.Citations, Jobs: s.Jobs, Ledger: s.Ledger, Limiter: s.Limiter, Runs: s.Runs,
		Webhooks: s.Webhooks, Logger: logger, Now: s.Now, SiteContentSecret: siteContentSecret,
	}
}

// LambdaHTTP builds, once per cold start, the handler of one API function.
func LambdaHTTP(ctx context.Context, function string) (httpapi.LambdaHandler, error) {
	c, err := FromEnv()
	if err != nil {
		return nil, err
	}
	tbl, _, err := c.OpenTable(ctx)
	if err != nil {
		return nil, err
	}
	var secret []byte
	if httpapi.NeedsKeys(function) {
		if secret, err = c.KeySecretBytes(ctx); err != nil {
			return nil, err
		}
	}
	siteSecret, err := c.SiteContentSecretBytes(ctx)
	if err != nil {
		return nil, err
	}
	svc, err := NewServices(tbl, secret, nil)
	if err != nil {
		return nil, err
	}
	if q, err := c.JobsQueue(ctx); err != nil {
		return nil, err
	} else if q != nil {
		svc.Runs.Sender = q
	}
	if err := c.attachDeliveries(ctx, svc, c.Logger(os.Stdout)); err != nil {
		return nil, err
	}
	return httpapi.NewLambdaHandler(svc.HTTPDeps(c.Logger(os.Stdout), siteSecret), function)
}
