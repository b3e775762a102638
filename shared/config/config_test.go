package config_test

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/config"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestParse(t *testing.T) {
	tests := []struct {
		name  string
		env   map[string]string
		check func(t *testing.T, c config.Config)
	}{
		{"defaults", nil, func(t *testing.T, c config.Config) {
			if c.Store != config.StoreEmbedded || c.DataDir != config.DefaultDataDir || c.SchedulerInterval != time.Minute ||
				c.RetryScale != 1 || c.AllowLoopbackTargets || c.LogLevel != slog.LevelInfo || c.Function != "" {
				t.Errorf("%+v", c)
			}
		}},
		{"a table name means DynamoDB", map[string]string{config.EnvTableName: "t"}, func(t *testing.T, c config.Config) {
			if c.Store != config.StoreDynamoDB || c.TableName != "t" {
				t.Errorf("%+v", c)
			}
		}},
		{"an explicit store wins", map[string]string{config.EnvTableName: "t", config.EnvStore: "embedded"}, func(t *testing.T, c config.Config) {
			if c.Store != config.StoreEmbedded {
				t.Errorf("%+v", c)
			}
		}},
		{"Lambda settings", map[string]string{
			config.EnvFunction: " api-get-me ", config.EnvJobsQueueURL: "https://sqs/jobs", config.EnvDeliveriesQueueURL: "https://sqs/d",
			config.EnvStateMachineARN: "arn:sm", config.EnvProviderKeysSecretARN: "arn:pk", config.EnvKeySecretARN: "arn:k",
			config.EnvSiteContentSecretARN: "arn:s", config.EnvLogLevel: "DEBUG",
		}, func(t *testing.T, c config.Config) {
			if c.Function != "api-get-me" || c.JobsQueueURL != "https://sqs/jobs" || c.DeliveriesQueueURL != "https://sqs/d" ||
				c.StateMachineARN != "arn:sm" || c.ProviderKeysSecretARN != "arn:pk" || c.KeySecretARN != "arn:k" ||
				c.SiteContentSecretARN != "arn:s" || c.LogLevel != slog.LevelDebug {
				t.Errorf("%+v", c)
			}
		}},
		{"brand check secrets", map[string]string{config.EnvBrandCheckSecretARN: " arn:b ", config.EnvRecaptchaSecretARN: "arn:r",
			config.EnvOriginSecretARN: "arn:o", config.EnvBrandCheckSecret: " b "}, func(t *testing.T, c config.Config) {
			if c.BrandCheckSecretARN != "arn:b" || c.RecaptchaSecretARN != "arn:r" || c.OriginSecretARN != "arn:o" || string(c.BrandCheckSecret) != " b " {
				t.Errorf("%+v", c)
			}
		}},
		{"secrets are kept byte for byte", map[string]string{config.EnvKeySecret: " s p ", config.EnvSiteContentSecret: "x "}, func(t *testing.T, c config.Config) {
			if string(c.KeySecret) != " s p " || string(c.SiteContentSecret) != "x " {
				t.Errorf("%q %q", c.KeySecret, c.SiteContentSecret)
			}
		}},
		{"scheduler off", map[string]string{config.EnvSchedulerInterval: "0s"}, func(t *testing.T, c config.Config) {
			if c.SchedulerInterval != 0 {
				t.Errorf("%v", c.SchedulerInterval)
			}
		}},
		{"schedules off and a 30 s grace by default", nil, func(t *testing.T, c config.Config) {
			if c.Schedules || c.DetectAdjudicator || c.ShutdownGrace != 30*time.Second {
				t.Errorf("%+v", c)
			}
		}},
		{"schedules on, another grace", map[string]string{config.EnvSchedules: " ON ", config.EnvShutdownGrace: "2m", config.EnvDetectAdjudicator: "on"}, func(t *testing.T, c config.Config) {
			if !c.Schedules || !c.DetectAdjudicator || c.ShutdownGrace != 2*time.Minute {
				t.Errorf("%+v", c)
			}
		}},
		{"retry scale and loopback", map[string]string{config.EnvRetryScale: "0.01", config.EnvAllowLoopback: "true"}, func(t *testing.T, c config.Config) {
			if c.RetryScale != 0.01 || !c.AllowLoopbackTargets {
				t.Errorf("%+v", c)
			}
		}},
		{"metrics and the secrets' TTL by default", nil, func(t *testing.T, c config.Config) {
			if c.MetricsNamespace != "" || c.SecretsTTL != config.DefaultSecretsTTL {
				t.Errorf("namespace %q TTL %v", c.MetricsNamespace, c.SecretsTTL)
			}
		}},
		{"tracing to the collector extension", map[string]string{config.EnvTracing: "otlp", config.EnvOTLPEndpoint: "http://localhost:4318"}, func(t *testing.T, c config.Config) {
			if !c.Tracing || c.TracingEndpoint != "http://localhost:4318" {
				t.Errorf("tracing %v endpoint %q", c.Tracing, c.TracingEndpoint)
			}
		}},
		{"tracing off", map[string]string{config.EnvTracing: "off", config.EnvOTLPEndpoint: "http://localhost:4318"}, func(t *testing.T, c config.Config) {
			if c.Tracing {
				t.Error("tracing on")
			}
		}},
		{"metrics namespace and secrets TTL", map[string]string{config.EnvMetricsNamespace: " brandlens/brandlens-prod ", config.EnvSecretsTTL: "300s"}, func(t *testing.T, c config.Config) {
			if c.MetricsNamespace != "brandlens/brandlens-prod" || c.SecretsTTL != 5*time.Minute {
				t.Errorf("namespace %q TTL %v", c.MetricsNamespace, c.SecretsTTL)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := config.Parse(env(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, c)
		})
	}
}

func TestParseRefusesBadValues(t *testing.T) {
	tests := []struct {
		variable, value string
		extra           map[string]string
	}{
		{config.EnvStore, "postgres", nil},
		{config.EnvStore, "dynamodb", nil}, // without a table name
		{config.EnvLogLevel, "loud", nil},
		{config.EnvSchedulerInterval, "5", nil},
		{config.EnvSchedulerInterval, "-1m", nil},
		{config.EnvRetryScale, "0", nil},
		{config.EnvRetryScale, "-1", nil},
		{config.EnvRetryScale, "NaN", nil},
		{config.EnvRetryScale, "+Inf", nil},
		{config.EnvRetryScale, "fast", nil},
		{config.EnvAllowLoopback, "yes please", nil},
		{config.EnvSchedules, "sometimes", nil},
		{config.EnvDetectAdjudicator, "model", nil},
		{config.EnvShutdownGrace, "soon", nil},
		{config.EnvShutdownGrace, "-5s", nil},
		{config.EnvShutdownGrace, "0s", nil},
		{config.EnvSecretsTTL, "300", nil},
		{config.EnvTracing, "xray", nil},
		{config.EnvSecretsTTL, "10ms", nil},
	}
	for _, tt := range tests {
		t.Run(tt.variable+"="+tt.value, func(t *testing.T) {
			m := map[string]string{tt.variable: tt.value}
			for k, v := range tt.extra {
				m[k] = v
			}
			_, err := config.Parse(env(m))
			if err == nil || !strings.Contains(err.Error(), tt.variable) {
				t.Errorf("err = %v, want an error naming %s", err, tt.variable)
			}
		})
	}
}

// FuzzParse: whatever the environment holds, Parse answers a Config or an
// error, and never panics.
func FuzzParse(f *testing.F) {
	f.Add("embedded", "", "1m", "1", "0", "info", "5m", "off")
	f.Add("dynamodb", "t", "0s", "0.01", "1", "DEBUG", "300s", "otlp")
	f.Add("x", "", "?", "-", "maybe", "", "1ms", "xray")
	f.Fuzz(func(t *testing.T, store, table, interval, scale, loopback, level, ttl, tracing string) {
		c, err := config.Parse(env(map[string]string{config.EnvStore: store, config.EnvTableName: table,
			config.EnvSchedulerInterval: interval, config.EnvRetryScale: scale, config.EnvAllowLoopback: loopback, config.EnvLogLevel: level,
			config.EnvSecretsTTL: ttl, config.EnvTracing: tracing}))
		if err == nil && (c.RetryScale <= 0 || c.SchedulerInterval < 0 || (c.Store != config.StoreEmbedded && c.Store != config.StoreDynamoDB) ||
			c.SecretsTTL < time.Second || (c.Tracing && strings.TrimSpace(tracing) != "otlp")) {
			t.Fatalf("accepted %+v", c)
		}
	})
}
