package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/brandlens/brandlens/shared/adjudication"
	"github.com/brandlens/brandlens/shared/auth"
	"github.com/brandlens/brandlens/shared/config"
	"github.com/brandlens/brandlens/shared/content"
	"github.com/brandlens/brandlens/shared/datadir"
	"github.com/brandlens/brandlens/shared/metrics"
	"github.com/brandlens/brandlens/shared/models"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/queue"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/secrets"
	"github.com/brandlens/brandlens/shared/ssrf"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamo"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/tenants"
	"github.com/brandlens/brandlens/shared/tracing"
)

// Resources opens what the settings name: the store, the AWS clients (from
// one AWS configuration, loaded on first use) and the secrets.
type Resources struct {
	cfg    config.Config
	getenv func(string) string
	aws    func() (aws.Config, error)
	// metricsOut receives the embedded-metric-format lines (stdout, which
	// Lambda sends to the function's log group with its logs).
	metricsOut io.Writer
	// tracing is built on first use: nil when the settings turn it off.
	tracing func() (*tracing.Tracing, error)
}

// ResourcesOption changes what NewResources opens.
type ResourcesOption func(*Resources)

// WithMetricsOutput sends the business figures' embedded-metric-format
// lines to w instead of stdout.
func WithMetricsOutput(w io.Writer) ResourcesOption { return func(r *Resources) { r.metricsOut = w } }

// NewResources returns the resources of cfg. getenv (os.Getenv in
// production) serves the variables the providers read themselves (the
// platforms' keys and endpoints).
func NewResources(cfg config.Config, getenv func(string) string, opts ...ResourcesOption) *Resources {
	r := &Resources{cfg: cfg, getenv: getenv, metricsOut: os.Stdout, aws: sync.OnceValues(func() (aws.Config, error) {
		// A Lambda cold start builds several clients from one configuration.
		// AWS_ENDPOINT_URL_<SERVICE> (DynamoDB Local, LocalStack, fauxqs) is
		// honoured by each client built from it.
		c, err := awsconfig.LoadDefaultConfig(context.Background())
		if err != nil {
			return aws.Config{}, fmt.Errorf("app: load the AWS configuration: %w", err)
		}
		return c, nil
	})}
	r.tracing = sync.OnceValues(func() (*tracing.Tracing, error) {
		if !cfg.Tracing {
			return nil, nil
		}
		return tracing.New(context.Background(), cfg.TracingEndpoint, cfg.Function)
	})
	for _, o := range opts {
		o(r)
	}
	return r
}

// Tracing is the function's spans (nil when tracing is off: then its
// methods wrap nothing).
func (r *Resources) Tracing() (*tracing.Tracing, error) { return r.tracing() }

// Metrics is where the settled jobs' figures go: embedded-metric-format
// lines of the configured namespace, or nil (none) without one.
func (r *Resources) Metrics(log *slog.Logger) (runs.Metrics, error) {
	if r.cfg.MetricsNamespace == "" {
		return nil, nil
	}
	emf, err := metrics.NewEMF(r.metricsOut, r.cfg.MetricsNamespace, nil)
	if err != nil {
		return nil, fmt.Errorf("app: %s: %w", config.EnvMetricsNamespace, err)
	}
	return metrics.Jobs{EMF: emf, OnError: func(err error) { log.Error("metrics: write the figures", "error", err.Error()) }}, nil
}

// Config is the settings the resources were opened with.
func (r *Resources) Config() config.Config { return r.cfg }

// Guard is the webhook destination guard of the settings.
func (r *Resources) Guard() ssrf.Guard { return ssrf.Guard{AllowLoopback: r.cfg.AllowLoopbackTargets} }

// OpenTable opens the configured store; close releases it.
func (r *Resources) OpenTable(ctx context.Context) (tbl store.Table, close func() error, err error) {
	if r.cfg.Store == config.StoreDynamoDB {
		client, err := r.DynamoClient(ctx)
		if err != nil {
			return nil, nil, err
		}
		return dynamo.New(client, r.cfg.TableName), func() error { return nil }, nil
	}
	t, err := embedded.Open(r.cfg.DataDir)
	if err != nil {
		return nil, nil, fmt.Errorf("app: open the embedded store in %s: %w", r.cfg.DataDir, err)
	}
	return t, t.Close, nil
}

// DynamoClient returns a DynamoDB client.
func (r *Resources) DynamoClient(context.Context) (*dynamodb.Client, error) {
	c, err := r.aws()
	if err != nil {
		return nil, err
	}
	return dynamodb.NewFromConfig(c), nil
}

// SQSQueue returns the SQS queue at url, logging to log.
func (r *Resources) SQSQueue(url string, log *slog.Logger) (*queue.SQS, error) {
	c, err := r.aws()
	if err != nil {
		return nil, err
	}
	return queue.NewSQS(sqs.NewFromConfig(c), url, log), nil
}

// KeySecret returns the API-key hashing secret: from the environment, from
// Secrets Manager (in AWS), or — for the embedded store only — from the
// file key-secret in the data directory. tbl is the opened embedded store
// (nil elsewhere): the file is generated only while it holds no API key,
// since keys hashed under a lost secret could never be checked again.
func (r *Resources) KeySecret(ctx context.Context, tbl store.Table) ([]byte, error) {
	switch {
	case len(r.cfg.KeySecret) > 0:
		return r.cfg.KeySecret, nil
	case r.cfg.KeySecretARN != "":
		return r.secretValue(ctx, "key secret", r.cfg.KeySecretARN)
	case r.cfg.Store == config.StoreEmbedded && tbl != nil:
		return localKeySecret(ctx, r.cfg.DataDir, tbl)
	}
	return nil, fmt.Errorf("app: set %s or %s", config.EnvKeySecret, config.EnvKeySecretARN)
}

// Secrets returns the sealer of tenants' secrets: under the KMS key of
// the settings (in AWS), else — for the embedded store — under the
// keyring file of the data directory. A process with neither (a Lambda
// function the key's policy does not name) gets a sealer that refuses,
// saying why.
func (r *Resources) Secrets() (*secrets.Sealer, error) {
	switch {
	case r.cfg.SecretsKeyID != "":
		c, err := r.aws()
		if err != nil {
			return nil, err
		}
		return secrets.NewSealer(secrets.NewKMS(kms.NewFromConfig(c), r.cfg.SecretsKeyID)), nil
	case r.cfg.Store == config.StoreEmbedded:
		return secrets.NewSealer(secrets.NewKeyring(r.cfg.DataDir)), nil
	}
	return secrets.NewSealer(secrets.Unavailable{Reason: "secrets: " + config.EnvSecretsKeyID +
		" is not set: this function may neither seal nor open tenants' secrets"}), nil
}

// SiteContentSecret returns the secret that signs bodies posted to the
// site-content receiver: from the environment, from Secrets Manager, or —
// for the embedded store only, so that brandlens serve publishes to its
// own site out of the box — from a file in the data directory, created on
// first use. Otherwise it is empty, and the receiver refuses every body.
func (r *Resources) SiteContentSecret(ctx context.Context) ([]byte, error) {
	switch {
	case len(r.cfg.SiteContentSecret) > 0:
		return r.cfg.SiteContentSecret, nil
	case r.cfg.SiteContentSecretARN != "":
		return r.secretValue(ctx, "site content secret", r.cfg.SiteContentSecretARN)
	case r.cfg.Store == config.StoreEmbedded && r.cfg.DataDir != "":
		return localSiteSecret(r.cfg.DataDir)
	}
	return nil, nil
}

// Providers builds the AI platform providers with factory. In AWS the
// platforms' keys come from one Secrets Manager JSON object
// (BRANDLENS_PROVIDER_KEYS_SECRET_ARN), whose members win over the
// environment; it is read at cold start, again after the settings'
// SecretsTTL, and at once when a platform refuses a key (see
// rotatingKeys), so that a rotation reaches warm functions.
func (r *Resources) Providers(ctx context.Context, factory ProviderFactory, log *slog.Logger) (providers.Set, error) {
	arn := r.cfg.ProviderKeysSecretARN
	if arn == "" {
		return factory(r.getenv, http.DefaultClient)
	}
	return newRotatingKeys(ctx, &rotatingKeys{
		read: func(ctx context.Context) ([]byte, error) { return r.secretValue(ctx, "provider keys", arn) },
		build: func(keys map[string]string) (providers.Set, error) {
			return factory(func(name string) string {
				if v, ok := keys[name]; ok {
					return v
				}
				return r.getenv(name)
			}, http.DefaultClient)
		},
		ttl: r.cfg.SecretsTTL,
		now: time.Now,
		log: log,
	})
}

// Models builds the content generator with factory, the vendors' keys
// read from the same secret as Providers' (at cold start only: a rotation
// reaches the generation steps with their next cold start); the offline
// mode gets the offline writer.
func (r *Resources) Models(ctx context.Context, factory ModelFactory) (models.Generator, error) {
	getenv, err := r.vendorEnv(ctx)
	if err != nil {
		return nil, err
	}
	return factory(getenv, http.DefaultClient, content.NewOffline())
}

// Adjudicator is the model that query runs ask about ambiguous mentions,
// or nil — the default — unless BRANDLENS_DETECT_ADJUDICATOR=on and
// BRANDLENS_MODELS names a vendor. It is built with factory like the
// content generator, with the vendor's cheap model
// (adjudication.CheapModels, or BRANDLENS_ADJUDICATOR_MODEL) and the
// short adjudication.DefaultTimeout in place of the content settings.
func (r *Resources) Adjudicator(ctx context.Context, factory ModelFactory) (runs.Adjudicator, error) {
	mode, err := models.Mode(r.getenv)
	if err != nil || !r.cfg.DetectAdjudicator || mode == models.ModeOffline {
		return nil, err
	}
	getenv, err := r.vendorEnv(ctx)
	if err != nil {
		return nil, err
	}
	model := strings.TrimSpace(getenv(adjudication.EnvModel))
	if model == "" {
		model = adjudication.CheapModels[mode]
	}
	gen, err := factory(func(k string) string {
		switch k {
		case models.EnvContentModel:
			return model
		case models.EnvModelTimeout:
			return adjudication.DefaultTimeout.String()
		}
		return getenv(k)
	}, http.DefaultClient, nil)
	if err != nil {
		return nil, err
	}
	return adjudication.New(gen, adjudication.DefaultTimeout), nil
}

// vendorEnv is the environment with the members of the provider keys
// secret (BRANDLENS_PROVIDER_KEYS_SECRET_ARN, in AWS) winning over it.
func (r *Resources) vendorEnv(ctx context.Context) (func(string) string, error) {
	arn := r.cfg.ProviderKeysSecretARN
	if arn == "" {
		return r.getenv, nil
	}
	raw, err := r.secretValue(ctx, "provider keys", arn)
	if err != nil {
		return nil, err
	}
	keys := map[string]string{}
	if err := json.Unmarshal(raw, &keys); err != nil {
		return nil, fmt.Errorf("app: the provider keys secret must be a JSON object of strings: %w", err)
	}
	return func(name string) string {
		if v, ok := keys[name]; ok {
			return v
		}
		return r.getenv(name)
	}, nil
}

// secretValue reads a string secret from Secrets Manager.
func (r *Resources) secretValue(ctx context.Context, what, arn string) ([]byte, error) {
	c, err := r.aws()
	if err != nil {
		return nil, err
	}
	out, err := secretsmanager.NewFromConfig(c).GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: &arn})
	if err != nil {
		return nil, fmt.Errorf("app: read the %s: %w", what, err)
	}
	return []byte(aws.ToString(out.SecretString)), nil
}

// siteSecretFile holds the generated site-content secret in the data
// directory (brandlens serve signs its own site's deliveries with it).
const siteSecretFile = "site-content-secret"

// localSiteSecret reads the site-content secret of the data directory, or
// creates it. Unlike the key secret nothing stored depends on it: a lost
// file only means a new secret.
func localSiteSecret(dir string) ([]byte, error) {
	b, err := datadir.ReadFile(dir, siteSecretFile)
	if s := strings.TrimSpace(string(b)); err == nil && len(s) >= 32 {
		return []byte(s), nil
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("app: read the site-content secret: %w", err)
	}
	var buf [32]byte
	if _, err := rand.Read(buf[:]); err != nil {
		return nil, fmt.Errorf("app: generate a secret: %w", err)
	}
	s := hex.EncodeToString(buf[:])
	if err := datadir.WriteFile(dir, siteSecretFile, []byte(s+"\n")); err != nil {
		return nil, fmt.Errorf("app: %w", err)
	}
	return []byte(s), nil
}

// keySecretFile holds the generated key secret in the data directory.
const keySecretFile = "key-secret"

// localKeySecret reads the key secret of the data directory, or creates it
// (written whole or not at all) when the store holds no API key yet.
func localKeySecret(ctx context.Context, dir string, tbl store.Table) ([]byte, error) {
	b, err := datadir.ReadFile(dir, keySecretFile)
	if err == nil {
		s := strings.TrimSpace(string(b))
		if len(s) < 32 {
			return nil, fmt.Errorf("app: %s holds %d bytes; a key secret has at least 32", filepath.Join(dir, keySecretFile), len(s))
		}
		return []byte(s), nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("app: read the key secret: %w", err)
	}
	ts, err := tenants.NewRepo(tbl, nil).List(ctx)
	if err != nil {
		return nil, err
	}
	ids := make([]int32, len(ts))
	for i, t := range ts {
		ids[i] = t.ID
	}
	switch held, err := auth.AnyKey(ctx, tbl, ids); {
	case err != nil:
		return nil, err
	case held:
		return nil, fmt.Errorf("app: %s is missing but the store holds API keys hashed with it: restore the file (or set %s to its value); a new secret would lock every key out",
			filepath.Join(dir, keySecretFile), config.EnvKeySecret)
	}
	var buf [32]byte
	if _, err := rand.Read(buf[:]); err != nil {
		return nil, fmt.Errorf("app: generate a secret: %w", err)
	}
	s := hex.EncodeToString(buf[:])
	if err := datadir.WriteFile(dir, keySecretFile, []byte(s+"\n")); err != nil {
		return nil, fmt.Errorf("app: %w", err)
	}
	return []byte(s), nil
}
