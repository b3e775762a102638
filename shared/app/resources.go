package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/brandlens/brandlens/shared/auth"
	"github.com/brandlens/brandlens/shared/config"
	"github.com/brandlens/brandlens/shared/datadir"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/queue"
	"github.com/brandlens/brandlens/shared/secrets"
	"github.com/brandlens/brandlens/shared/ssrf"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamo"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/tenants"
)

// Resources opens what the settings name: the store, the AWS clients (from
// one AWS configuration, loaded on first use) and the secrets.
type Resources struct {
	cfg    config.Config
	getenv func(string) string
	aws    func() (aws.Config, error)
}

// NewResources returns the resources of cfg. getenv (os.Getenv in
// production) serves the variables the providers read themselves (the
// platforms' keys and endpoints).
func NewResources(cfg config.Config, getenv func(string) string) *Resources {
	return &Resources{cfg: cfg, getenv: getenv, aws: sync.OnceValues(func() (aws.Config, error) {
		// A Lambda cold start builds several clients from one configuration.
		// AWS_ENDPOINT_URL_<SERVICE> (DynamoDB Local, LocalStack, fauxqs) is
		// honoured by each client built from it.
		c, err := awsconfig.LoadDefaultConfig(context.Background())
		if err != nil {
			return aws.Config{}, fmt.Errorf("app: load the AWS configuration: %w", err)
		}
		return c, nil
	})}
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
// site-content receiver: from the environment or from Secrets Manager. It
// is empty when neither is set, and the receiver then refuses every body.
func (r *Resources) SiteContentSecret(ctx context.Context) ([]byte, error) {
	if len(r.cfg.SiteContentSecret) > 0 || r.cfg.SiteContentSecretARN == "" {
		return r.cfg.SiteContentSecret, nil
	}
	return r.secretValue(ctx, "site content secret", r.cfg.SiteContentSecretARN)
}

// Providers builds the AI platform providers with factory. In AWS the
// platforms' keys come from one Secrets Manager JSON object
// (BRANDLENS_PROVIDER_KEYS_SECRET_ARN); its members win over the
// environment.
func (r *Resources) Providers(ctx context.Context, factory ProviderFactory) (providers.Set, error) {
	getenv := r.getenv
	if arn := r.cfg.ProviderKeysSecretARN; arn != "" {
		raw, err := r.secretValue(ctx, "provider keys", arn)
		if err != nil {
			return nil, err
		}
		keys := map[string]string{}
		if err := json.Unmarshal(raw, &keys); err != nil {
			return nil, fmt.Errorf("app: the provider keys secret must be a JSON object of strings: %w", err)
		}
		getenv = func(name string) string {
			if v, ok := keys[name]; ok {
				return v
			}
			return r.getenv(name)
		}
	}
	return factory(getenv, http.DefaultClient)
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
