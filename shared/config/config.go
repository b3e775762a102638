// Package config reads brandlens's settings from the environment into one
// Config value. It only reads and checks them: package app opens what they
// name (the store, the AWS clients, the secrets) and assembles the service.
package config

import (
	"fmt"
	"log/slog"
	"math"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// Environment variables.
const (
	EnvStore             = "BRANDLENS_STORE" // embedded | dynamodb
	EnvDataDir           = "BRANDLENS_DATA_DIR"
	EnvSeedFile          = "BRANDLENS_SEED_FILE"
	EnvTableName         = "BRANDLENS_TABLE"
	EnvKeySecret         = "BRANDLENS_KEY_SECRET"
	EnvKeySecretARN      = "BRANDLENS_KEY_SECRET_ARN"
	EnvSiteContentSecret = "BRANDLENS_SITE_CONTENT_SECRET"
	// EnvSiteContentSecretARN names the Secrets Manager secret holding the
	// site content secret (in AWS, set only on api-post-site-content).
	EnvSiteContentSecretARN = "BRANDLENS_SITE_CONTENT_SECRET_ARN"
	EnvLogLevel             = "BRANDLENS_LOG_LEVEL"
	// EnvFunction names the Lambda function a bootstrap serves; template.yaml
	// sets it on every function, since one bootstrap serves many.
	EnvFunction              = "BRANDLENS_FUNCTION"
	EnvJobsQueueURL          = "BRANDLENS_JOBS_QUEUE_URL"
	EnvDeliveriesQueueURL    = "BRANDLENS_DELIVERIES_QUEUE_URL"
	EnvSchedulesQueueURL     = "BRANDLENS_SCHEDULES_QUEUE_URL"
	EnvStateMachineARN       = "BRANDLENS_STATE_MACHINE_ARN"
	EnvProviderKeysSecretARN = "BRANDLENS_PROVIDER_KEYS_SECRET_ARN"
	EnvSchedulerInterval     = "BRANDLENS_SCHEDULER_INTERVAL"
	// EnvSchedules turns the runs of scheduled queries on (on/off; off by
	// default, so that a local service spends no credits on its own;
	// template.yaml turns it on for the scheduler function).
	EnvSchedules = "BRANDLENS_SCHEDULES"
	// EnvShutdownGrace is how long `brandlens serve` lets running steps
	// finish after SIGTERM (a Go duration).
	EnvShutdownGrace = "BRANDLENS_SHUTDOWN_GRACE"
	// EnvRetryScale multiplies the webhook retry waits and the platform
	// step's item retry waits (a positive factor):
	// tests run the whole schedule in about a second with 0.01.
	EnvRetryScale = "BRANDLENS_RETRY_SCALE"
	// EnvAllowLoopback lets webhook URLs point to loopback addresses (local
	// development only; template.yaml never sets it).
	EnvAllowLoopback = "BRANDLENS_ALLOW_LOOPBACK_TARGETS"
	// EnvSiteBaseURL is where the service's own site (its receiver and
	// pages) is served: own_site destinations POST there.
	EnvSiteBaseURL = "BRANDLENS_SITE_BASE_URL"
	// EnvIndexNowEndpoint is the IndexNow endpoint publishes ping (tests
	// point it at a local fake).
	EnvIndexNowEndpoint = "BRANDLENS_INDEXNOW_ENDPOINT"
	// EnvSecretsKeyID names the AWS KMS key that seals tenants' secrets
	// (template.yaml sets it on the functions that seal or open them);
	// unset, the embedded store's data directory holds a local keyring.
	EnvSecretsKeyID = "BRANDLENS_SECRETS_KEY_ID"
	// EnvDetectAdjudicator lets query runs ask a cheap chat model about
	// the mentions detection finds ambiguous (on/off; off by default, and
	// without effect unless BRANDLENS_MODELS names a vendor).
	EnvDetectAdjudicator = "BRANDLENS_DETECT_ADJUDICATOR"
	// EnvMetricsNamespace is the CloudWatch namespace of the business
	// figures, written as embedded-metric-format lines (empty: none).
	EnvMetricsNamespace = "BRANDLENS_METRICS_NAMESPACE"
	// EnvSecretsTTL is how long the provider keys read from Secrets
	// Manager are kept before they are read again (a Go duration).
	EnvSecretsTTL = "BRANDLENS_SECRETS_TTL"
	// EnvTracing turns spans on: "otlp" exports them to the collector
	// extension (OTEL_EXPORTER_OTLP_ENDPOINT, default localhost:4318);
	// "off" or empty: no spans.
	EnvTracing = "BRANDLENS_TRACING"
	// EnvOTLPEndpoint is OpenTelemetry's standard variable of the
	// collector's base URL.
	EnvOTLPEndpoint = "OTEL_EXPORTER_OTLP_ENDPOINT"
	// EnvBrandCheckSecret is the secret the brand check's client-hash key
	// derives from (≥ 32 bytes; brandlens serve derives it from the key
	// secret when unset); EnvBrandCheckSecretARN names it in Secrets
	// Manager (the brand-check function).
	EnvBrandCheckSecret    = "BRANDLENS_BRANDCHECK_SECRET"
	EnvBrandCheckSecretARN = "BRANDLENS_BRANDCHECK_SECRET_ARN"
	// EnvRecaptchaSecretARN and EnvOriginSecretARN name, in Secrets Manager,
	// the reCAPTCHA secret (BRANDLENS_RECAPTCHA_SECRET) and the CloudFront
	// origin secret (BRANDLENS_ORIGIN_SECRET) of the brand-check function.
	EnvRecaptchaSecretARN = "BRANDLENS_RECAPTCHA_SECRET_ARN"
	EnvOriginSecretARN    = "BRANDLENS_ORIGIN_SECRET_ARN"
)

// Store backends.
const (
	StoreEmbedded = "embedded"
	StoreDynamoDB = "dynamodb"
)

// Defaults.
const (
	// DefaultDataDir is where the embedded store keeps its files locally.
	DefaultDataDir           = ".brandlens"
	DefaultSchedulerInterval = time.Minute
	// DefaultShutdownGrace leaves a step that is writing its result time to
	// commit; a platform call still waiting is cut off and asked again
	// after the restart.
	DefaultShutdownGrace = 30 * time.Second
	DefaultSecretsTTL    = 5 * time.Minute
)

// Config is the settings read from the environment.
type Config struct {
	Store     string
	DataDir   string
	SeedFile  string
	TableName string
	KeySecret []byte
	// KeySecretARN is read when KeySecret is empty.
	KeySecretARN      string
	SiteContentSecret []byte
	// SiteContentSecretARN is read when SiteContentSecret is empty.
	SiteContentSecretARN string
	LogLevel             slog.Level
	// Function is the Lambda function to serve (empty outside Lambda).
	Function string
	// JobsQueueURL and DeliveriesQueueURL are SQS queues (empty: the
	// in-process queues of `brandlens serve`).
	JobsQueueURL       string
	DeliveriesQueueURL string
	// SchedulesQueueURL is the SQS queue of due-index shards that the
	// scheduler function fans out to worker-schedule (empty: the pass
	// starts the due runs itself, as `brandlens serve` does).
	SchedulesQueueURL string
	// StateMachineARN is the query-execution state machine (worker-dispatch).
	StateMachineARN string
	// ProviderKeysSecretARN names a Secrets Manager JSON object holding the
	// AI platforms' API keys (empty: they come from the environment).
	ProviderKeysSecretARN string
	// SchedulerInterval is the local scheduler's period (0: off).
	SchedulerInterval time.Duration
	// Schedules runs scheduled queries (off: the scheduler only sweeps
	// jobs).
	Schedules bool
	// ShutdownGrace is how long serve lets running steps finish on SIGTERM.
	ShutdownGrace time.Duration
	// RetryScale multiplies the webhook retry waits.
	RetryScale float64
	// AllowLoopbackTargets admits loopback webhook URLs.
	AllowLoopbackTargets bool
	// SiteBaseURL and IndexNowEndpoint: publishing (see the variables).
	SiteBaseURL, IndexNowEndpoint string
	// SecretsKeyID is the KMS key sealing tenants' secrets (empty: the
	// local keyring of the embedded store, or none).
	SecretsKeyID string
	// MetricsNamespace is where the business figures go ("": nowhere).
	MetricsNamespace string
	// SecretsTTL is how long a secret that may be rotated while the
	// process runs (the provider keys) is kept before it is read again.
	SecretsTTL time.Duration
	// Tracing exports spans over OTLP/HTTP to TracingEndpoint ("": the
	// collector extension's default).
	Tracing         bool
	TracingEndpoint string
	// BrandCheckSecret keys the brand check's client hashes (through a
	// derivation); BrandCheckSecretARN is read when it is empty.
	BrandCheckSecret    []byte
	BrandCheckSecretARN string
	// RecaptchaSecretARN and OriginSecretARN name the brand check's other
	// secrets in Secrets Manager (empty: from the environment).
	RecaptchaSecretARN string
	OriginSecretARN    string
	// DetectAdjudicator: see EnvDetectAdjudicator.
	DetectAdjudicator bool
}

// FromEnv reads the settings from the process environment.
func FromEnv() (Config, error) { return Parse(os.Getenv) }

// StateMachineEnv names the variable that holds the ARN of the named state
// machine (worker-dispatch starts every workflow): EnvStateMachineARN for
// query-execution, BRANDLENS_STATE_MACHINE_ARN_<NAME> for the others
// (gap-detection: BRANDLENS_STATE_MACHINE_ARN_GAP_DETECTION).
func StateMachineEnv(machine string) string {
	if machine == "query-execution" {
		return EnvStateMachineARN
	}
	return EnvStateMachineARN + "_" + strings.ToUpper(strings.ReplaceAll(machine, "-", "_"))
}

// Parse reads the settings through getenv. With BRANDLENS_TABLE set and no
// BRANDLENS_STORE the store is DynamoDB; otherwise it is embedded. A value
// that does not parse is an error naming its variable.
func Parse(getenv func(string) string) (Config, error) {
	get := func(k string) string { return strings.TrimSpace(getenv(k)) }
	c := Config{
		Store:                 get(EnvStore),
		DataDir:               get(EnvDataDir),
		SeedFile:              get(EnvSeedFile),
		TableName:             get(EnvTableName),
		KeySecret:             []byte(getenv(EnvKeySecret)),
		KeySecretARN:          get(EnvKeySecretARN),
		SiteContentSecret:     []byte(getenv(EnvSiteContentSecret)),
		SiteContentSecretARN:  get(EnvSiteContentSecretARN),
		Function:              get(EnvFunction),
		JobsQueueURL:          get(EnvJobsQueueURL),
		DeliveriesQueueURL:    get(EnvDeliveriesQueueURL),
		SchedulesQueueURL:     get(EnvSchedulesQueueURL),
		StateMachineARN:       get(EnvStateMachineARN),
		ProviderKeysSecretARN: get(EnvProviderKeysSecretARN),
		SecretsKeyID:          get(EnvSecretsKeyID),
		BrandCheckSecret:      []byte(getenv(EnvBrandCheckSecret)),
		BrandCheckSecretARN:   get(EnvBrandCheckSecretARN),
		RecaptchaSecretARN:    get(EnvRecaptchaSecretARN),
		OriginSecretARN:       get(EnvOriginSecretARN),
		SchedulerInterval:     DefaultSchedulerInterval,
		ShutdownGrace:         DefaultShutdownGrace,
		RetryScale:            1,
		SiteBaseURL:           strings.TrimRight(get(EnvSiteBaseURL), "/"),
		IndexNowEndpoint:      get(EnvIndexNowEndpoint),
		MetricsNamespace:      get(EnvMetricsNamespace),
		SecretsTTL:            DefaultSecretsTTL,
	}
	if c.Store == "" {
		c.Store = StoreEmbedded
		if c.TableName != "" {
			c.Store = StoreDynamoDB
		}
	}
	if c.DataDir == "" {
		c.DataDir = DefaultDataDir
	}
	switch c.Store {
	case StoreEmbedded:
	case StoreDynamoDB:
		if c.TableName == "" {
			return Config{}, fmt.Errorf("config: %s=%s needs %s", EnvStore, StoreDynamoDB, EnvTableName)
		}
	default:
		return Config{}, fmt.Errorf("config: %s must be %s or %s, not %q", EnvStore, StoreEmbedded, StoreDynamoDB, c.Store)
	}
	if v := get(EnvLogLevel); v != "" {
		if err := c.LogLevel.UnmarshalText([]byte(v)); err != nil {
			return Config{}, fmt.Errorf("config: %s: %w", EnvLogLevel, err)
		}
	}
	if v := get(EnvSchedulerInterval); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return Config{}, fmt.Errorf("config: %s must be a duration such as 1m (0s: off), not %q", EnvSchedulerInterval, v)
		}
		c.SchedulerInterval = d
	}
	for _, sw := range []struct {
		env string
		on  *bool
	}{{EnvSchedules, &c.Schedules}, {EnvDetectAdjudicator, &c.DetectAdjudicator}} {
		switch v := strings.ToLower(get(sw.env)); v {
		case "", "off", "0", "false":
		case "on", "1", "true":
			*sw.on = true
		default:
			return Config{}, fmt.Errorf("config: %s must be on or off, not %q", sw.env, v)
		}
	}
	if v := get(EnvShutdownGrace); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return Config{}, fmt.Errorf("config: %s must be a positive duration such as 30s, not %q", EnvShutdownGrace, v)
		}
		c.ShutdownGrace = d
	}
	if v := get(EnvRetryScale); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f <= 0 || math.IsInf(f, 0) || math.IsNaN(f) {
			return Config{}, fmt.Errorf("config: %s must be a positive number, not %q", EnvRetryScale, v)
		}
		c.RetryScale = f
	}
	for _, u := range [][2]string{{EnvSiteBaseURL, c.SiteBaseURL}, {EnvIndexNowEndpoint, c.IndexNowEndpoint}} {
		if p, err := url.Parse(u[1]); u[1] != "" && (err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "") {
			return Config{}, fmt.Errorf("config: %s must be an absolute http(s) URL, not %q", u[0], u[1])
		}
	}
	if v := get(EnvSecretsTTL); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Second {
			return Config{}, fmt.Errorf("config: %s must be a duration of at least 1s such as 5m, not %q", EnvSecretsTTL, v)
		}
		c.SecretsTTL = d
	}
	switch v := get(EnvTracing); v {
	case "", "off":
	case "otlp":
		c.Tracing, c.TracingEndpoint = true, get(EnvOTLPEndpoint)
	default:
		return Config{}, fmt.Errorf("config: %s must be otlp or off, not %q", EnvTracing, v)
	}
	switch v := get(EnvAllowLoopback); {
	case v == "" || v == "0" || strings.EqualFold(v, "false"):
	case v == "1" || strings.EqualFold(v, "true"):
		c.AllowLoopbackTargets = true
	default:
		return Config{}, fmt.Errorf("config: %s must be 1 or 0, not %q", EnvAllowLoopback, v)
	}
	return c, nil
}
