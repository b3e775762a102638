package app_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/brandcheck"
	"github.com/brandlens/brandlens/shared/config"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/recaptcha"
)

// artifact is the entry point each bootstrap's main passes to app.Main,
// but for the platform step's providers: the tests use the offline ones
// (providers.FromEnv), so that they do not build the AI platforms' SDKs.
func artifact(t *testing.T, name string) app.Artifact {
	t.Helper()
	switch name {
	case app.ArtifactAPI:
		return app.API()
	case app.ArtifactWorker:
		return app.Worker()
	case app.ArtifactPlatform:
		return app.Platform(providers.FromEnv, app.OfflineModels)
	case app.ArtifactGenerate:
		return app.Generate(app.OfflineModels)
	case app.ArtifactBrandCheck:
		return app.BrandCheck(providers.FromEnv)
	}
	t.Fatalf("no entry point for artifact %q", name)
	return app.Artifact{}
}

// clearEnv unsets every setting, so that only what a test sets applies.
func clearEnv(t testing.TB) {
	for _, k := range []string{config.EnvStore, config.EnvDataDir, config.EnvSeedFile, config.EnvTableName, config.EnvKeySecret,
		config.EnvKeySecretARN, config.EnvSiteContentSecret, config.EnvSiteContentSecretARN, config.EnvLogLevel, config.EnvFunction,
		config.EnvJobsQueueURL, config.EnvDeliveriesQueueURL, config.EnvSchedulesQueueURL, config.EnvStateMachineARN, config.EnvProviderKeysSecretARN,
		config.EnvSchedulerInterval, config.EnvRetryScale, config.EnvAllowLoopback, "BRANDLENS_PROVIDERS", "BRANDLENS_REPLAY_FILE",
		config.EnvMetricsNamespace, config.EnvSecretsTTL, config.EnvTracing, config.EnvOTLPEndpoint,
		config.EnvBrandCheckSecret, config.EnvBrandCheckSecretARN, config.EnvRecaptchaSecretARN, config.EnvOriginSecretARN,
		recaptcha.EnvSecret, recaptcha.EnvVerifyURL, recaptcha.EnvMinScore, recaptcha.EnvLambdaFunction, brandcheck.EnvOriginSecret,
		brandcheck.EnvPlatforms, brandcheck.EnvBudget, brandcheck.EnvDailyBudget,
		"BRANDLENS_MODELS", config.StateMachineEnv("gap-detection"), config.StateMachineEnv("content-generation"),
		config.StateMachineEnv("brand-rescore"), config.StateMachineEnv("publish"), config.EnvSiteBaseURL, config.EnvIndexNowEndpoint} {
		t.Setenv(k, "")
	}
}

// coldStart assembles function fn as its Lambda would, in the environment
// template.yaml gives it (set here for the rest of t) with the variables of
// override changed, logging to log.
func coldStart(t *testing.T, c *cloud, tpl template, fn string, log *slog.Logger, override ...string) (*app.Assembled, error) {
	t.Helper()
	return coldStartWith(t, c, tpl, fn, log, nil, override...)
}

// coldStartWith is coldStart with options of the resources.
func coldStartWith(t *testing.T, c *cloud, tpl template, fn string, log *slog.Logger, opts []app.ResourcesOption, override ...string) (*app.Assembled, error) {
	t.Helper()
	f, ok := app.FunctionNamed(fn)
	if !ok {
		t.Fatalf("no function %s", fn)
	}
	tpl.setFunctionEnv(t, c, app.LogicalID(fn))
	for i := 0; i+1 < len(override); i += 2 {
		t.Setenv(override[i], override[i+1])
	}
	cfg, err := config.FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	return artifact(t, f.Artifact).Assemble(context.Background(), app.NewResources(cfg, os.Getenv, opts...), log)
}

// TestEveryFunctionIsFullyAssembled builds every function of the table as
// its Lambda does at cold start and walks what its handler was built from:
// no dependency may be nil but those the function's routes say it must not
// have (the key secret, the site content secret, the AI providers), every
// logger is the function's own, and the function read exactly the secrets
// template.yaml lets it read.
func TestEveryFunctionIsFullyAssembled(t *testing.T) {
	clearEnv(t)
	c := offlineCloud(t)
	tpl := loadTemplate(t)
	fns := app.Functions()
	if len(fns) < len(app.Workflows[0].Steps)+10 {
		t.Fatalf("only %d functions", len(fns))
	}
	for _, f := range fns {
		t.Run(f.Name, func(t *testing.T) {
			log := slog.New(slog.NewJSONHandler(&bytes.Buffer{}, nil))
			var override []string
			if f.CallsPlatforms() {
				override = []string{"BRANDLENS_PROVIDERS", "simulated"}
			}
			if f.Artifact == app.ArtifactGenerate {
				// The template asks for a vendor's model; these builds link none.
				override = []string{"BRANDLENS_MODELS", "offline"}
			}
			asm, err := coldStart(t, c, tpl, f.Name, log, override...)
			if err != nil {
				t.Fatal(err)
			}
			if asm.Handler == nil || asm.Function.Name != f.Name || len(asm.Deps) == 0 {
				t.Fatalf("assembled %+v", asm)
			}
			w := walker{seen: map[uintptr]bool{}, log: log}
			for i, d := range asm.Deps {
				w.walk(reflect.ValueOf(d), fmt.Sprintf("Deps[%d](%T)", i, d))
			}
			// What must be absent, by the function's routes and artifact.
			want := map[string]bool{}
			if w.has["Keys"] && !f.AuthenticatesKeys() {
				want["Keys"] = true
			}
			if w.has["SiteContentSecret"] && !f.VerifiesSignedBodies() && !f.SignsSiteContent() {
				want["SiteContentSecret"] = true
			}
			// The runs service asks the platforms only in the platform step
			// (the brand-check function's providers are its check's).
			if w.has["Providers"] && (!f.CallsPlatforms() || f.Kind != app.KindRunsStep) {
				want["Providers"] = true
			}
			if w.has["Content"] && f.Artifact != app.ArtifactGenerate {
				want["Content"] = true
			}
			// The detection adjudicator is off unless
			// BRANDLENS_DETECT_ADJUDICATOR=on, which the template leaves unset.
			if w.has["Adjudicator"] {
				want["Adjudicator"] = true
			}
			if w.has["BrandCheck"] && !f.AnswersBrandChecks() {
				want["BrandCheck"] = true
			}
			// Only the scheduler and worker-schedule send to the schedules
			// queue.
			if w.has["schedules"] && f.Kind != app.KindScheduler && f.Kind != app.KindScheduleShard {
				want["schedules"] = true
			}
			absent := map[string]bool{}
			for _, p := range w.nils {
				name := p[strings.LastIndex(p, ".")+1:]
				if !want[name] {
					t.Errorf("%s is nil", p)
				}
				absent[name] = true
			}
			for name := range want {
				if !absent[name] {
					t.Errorf("%s is set, but %s has no use for it", name, f.Name)
				}
			}
			for _, p := range w.foreignLoggers {
				t.Errorf("%s is not the function's logger", p)
			}

			// Secrets: read at cold start exactly when granted.
			reads := c.aws.secretReads()
			wantReads := map[string]int{}
			for _, g := range f.Grants {
				if slices.Contains(g.Actions, "secretsmanager:GetSecretValue") {
					for _, r := range g.Resources {
						wantReads[secretARNs[strings.TrimPrefix(r, "!Ref ")]] = 1
					}
				}
			}
			if !reflect.DeepEqual(reads, wantReads) {
				t.Errorf("secrets read %v, template.yaml grants %v", reads, wantReads)
			}
		})
	}
}

// walker finds the nil dependencies reachable from the assembled structs
// of this module (nil pointers, interfaces, funcs, maps, channels and
// slices), and the loggers that are not the function's.
type walker struct {
	seen           map[uintptr]bool
	log            *slog.Logger
	nils           []string
	has            map[string]bool // field names met
	foreignLoggers []string
}

var loggerType = reflect.TypeFor[*slog.Logger]()

func ours(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	// The store's document collections are per-entity settings a repository
	// builds for itself (their hooks are optional), not injected dependencies;
	// the table inside them is checked where the repository holds it.
	if t.PkgPath() == "github.com/brandlens/brandlens/shared/store" && t.Kind() == reflect.Struct {
		return false
	}
	return strings.HasPrefix(t.PkgPath(), "github.com/brandlens/brandlens/")
}

func (w *walker) walk(v reflect.Value, path string) {
	if w.has == nil {
		w.has = map[string]bool{}
	}
	w.has[path[strings.LastIndex(path, ".")+1:]] = true
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Func, reflect.Map, reflect.Chan, reflect.Slice:
		if v.IsNil() {
			w.nils = append(w.nils, path)
			return
		}
	}
	switch v.Kind() {
	case reflect.Interface:
		w.walk(v.Elem(), path)
	case reflect.Pointer:
		if v.Type() == loggerType && v.Pointer() != reflect.ValueOf(w.log).Pointer() {
			w.foreignLoggers = append(w.foreignLoggers, path)
		}
		if w.seen[v.Pointer()] || !ours(v.Type()) {
			return
		}
		w.seen[v.Pointer()] = true
		w.walk(v.Elem(), path)
	case reflect.Struct:
		if !ours(v.Type()) {
			return
		}
		for i := range v.NumField() {
			w.walk(v.Field(i), path+"."+v.Type().Field(i).Name)
		}
	}
}

// TestAssembleRefusesMisconfiguredFunctions: a function is never served by
// the wrong bootstrap, nor half-built for want of a setting.
func TestAssembleRefusesMisconfiguredFunctions(t *testing.T) {
	clearEnv(t)
	c := offlineCloud(t)
	tpl := loadTemplate(t)
	tests := []struct {
		name, function string
		artifact       app.Artifact
		env            map[string]string
		want           string
	}{
		{"no function named", "", app.API(), nil, "BRANDLENS_FUNCTION is not set"},
		{"unknown function", "api-get-everything", app.API(), nil, "no function of the table"},
		{"API function in the worker", "api-get-me", app.Worker(), nil, "runs artifact api, not worker"},
		{"platform step in the worker", "step-run-platform", app.Worker(), nil, "runs artifact step-run-platform, not worker"},
		{"worker in the API", "worker-fanout", app.API(), nil, "runs artifact worker, not api"},
		{"no jobs queue", "api-post-query-run", app.API(), map[string]string{config.EnvJobsQueueURL: ""}, "BRANDLENS_JOBS_QUEUE_URL is not set"},
		{"no deliveries queue", "worker-deliver", app.Worker(), map[string]string{config.EnvDeliveriesQueueURL: ""}, "BRANDLENS_DELIVERIES_QUEUE_URL is not set"},
		{"scheduler without the schedules queue", "scheduler", app.Worker(), map[string]string{config.EnvSchedulesQueueURL: ""}, "BRANDLENS_SCHEDULES_QUEUE_URL is not set"},
		{"worker-schedule without the schedules queue", "worker-schedule", app.Worker(), map[string]string{config.EnvSchedulesQueueURL: ""}, "BRANDLENS_SCHEDULES_QUEUE_URL is not set"},
		{"no state machine", "worker-dispatch", app.Worker(), map[string]string{config.EnvStateMachineARN: ""}, "BRANDLENS_STATE_MACHINE_ARN is not set"},
		{"unreadable key secret", "api-get-me", app.API(), map[string]string{config.EnvKeySecretARN: keySecretARN + "-gone"}, "ResourceNotFoundException"},
		{"live providers without their SDKs", "step-run-platform", app.Platform(providers.FromEnv, app.OfflineModels), nil, "without the live providers"},
		{"brand check in the API", "brand-check", app.API(), nil, "runs artifact brand-check, not api"},
		{"API function in the brand check", "api-get-me", app.BrandCheck(providers.FromEnv), nil, "runs artifact api, not brand-check"},
		{"brand check without a reCAPTCHA secret", "brand-check", app.BrandCheck(providers.FromEnv),
			map[string]string{"BRANDLENS_PROVIDERS": "simulated", config.EnvRecaptchaSecretARN: emptySecretARN}, "BRANDLENS_RECAPTCHA_SECRET is not set"},
		{"brand check without a hash secret", "brand-check", app.BrandCheck(providers.FromEnv),
			map[string]string{"BRANDLENS_PROVIDERS": "simulated", config.EnvBrandCheckSecretARN: ""}, "BRANDLENS_BRANDCHECK_SECRET"},
		{"brand check with a short hash secret", "brand-check", app.BrandCheck(providers.FromEnv),
			map[string]string{"BRANDLENS_PROVIDERS": "simulated", config.EnvBrandCheckSecretARN: emptySecretARN}, "at least 32 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.function != "" {
				if _, ok := app.FunctionNamed(tt.function); ok {
					tpl.setFunctionEnv(t, c, app.LogicalID(tt.function))
				}
			}
			t.Setenv(config.EnvFunction, tt.function)
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			cfg, err := config.FromEnv()
			if err != nil {
				t.Fatal(err)
			}
			asm, err := tt.artifact.Assemble(context.Background(), app.NewResources(cfg, os.Getenv), slog.Default())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("assembled %v, err %v; want an error containing %q", asm, err, tt.want)
			}
		})
	}
}
