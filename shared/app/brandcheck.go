package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/brandcheck"
	"github.com/brandlens/brandlens/shared/brandpage"
	"github.com/brandlens/brandlens/shared/config"
	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/recaptcha"
)

// ArtifactBrandCheck serves the anonymous brand check: an API route that
// asks the AI platforms itself, within the request, so it links their SDKs
// (package providers/live) and cannot share the API artifact, which stays
// free of them.
const ArtifactBrandCheck = "brand-check"

// BrandCheckOptions are what the anonymous brand check is built from.
type BrandCheckOptions struct {
	// Verifier checks reCAPTCHA tokens: a *recaptcha.Client, or — for
	// brandlens serve only, as recaptcha.LocalBypass decides —
	// recaptcha.Bypass.
	Verifier brandcheck.Verifier
	// Secret is what the key of the stored client hashes derives from
	// (brandcheck.ClientKeyFrom; at least 32 bytes).
	Secret []byte
	// Config tunes the check (platforms, time budget, daily budget); its
	// ClientKey is derived from Secret.
	Config brandcheck.Config
	// Trust says when CloudFront's viewer address is believed.
	Trust brandcheck.ProxyTrust
}

// NewBrandCheck builds the brand check over the repos' table: it asks
// provs, and audits its prompts in the table's audit log.
func NewBrandCheck(r *Repos, provs providers.Set, o BrandCheckOptions, log *slog.Logger) (*brandcheck.Service, error) {
	if o.Verifier == nil {
		return nil, errors.New("app: the brand check needs a reCAPTCHA verifier")
	}
	key, err := brandcheck.ClientKeyFrom(o.Secret)
	if err != nil {
		return nil, fmt.Errorf("app: %w", err)
	}
	cfg := o.Config
	cfg.ClientKey = key
	return brandcheck.New(brandcheck.Deps{Table: r.Table, Providers: provs, Verifier: o.Verifier,
		Auditor: brandcheck.NewAuditTrail(audit.NewLog(r.Table)), Logger: log, Now: r.Now}, cfg)
}

// withBrandCheck returns deps serving the brand check with bc and trust.
func withBrandCheck(deps httpapi.Deps, bc *brandcheck.Service, trust brandcheck.ProxyTrust) httpapi.Deps {
	deps.BrandCheck, deps.ProxyTrust = bc, trust
	return deps
}

// withPage serves the brand check page beside api: GET / and
// GET /brand-check (and its assets) are the page, everything else is the
// API (whose unknown paths keep the error envelope).
func withPage(api http.Handler, page *brandpage.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /{$}", page)
	mux.Handle("GET "+brandpage.PathPage, page)
	mux.Handle("GET "+brandpage.AssetBase+"/", page)
	mux.Handle("/", api)
	return mux
}

// newPage renders the page for the check: bypass exactly when the verifier
// is the local bypass, and the check's platforms and time budget.
func newPage(pc brandpage.Config, o BrandCheckOptions) (*brandpage.Handler, error) {
	pc.Bypass = isBypass(o.Verifier)
	pc.Platforms, pc.Budget = o.Config.Platforms, o.Config.Budget
	return brandpage.New(pc)
}

func isBypass(v brandcheck.Verifier) bool {
	_, ok := v.(recaptcha.Bypass)
	return ok
}

// localVerifier is brandlens serve's reCAPTCHA verifier: a siteverify
// client when BRANDLENS_RECAPTCHA_SECRET is set, else the local bypass —
// which recaptcha.LocalBypass grants only on the embedded store outside
// Lambda.
func (r *Resources) localVerifier() (brandcheck.Verifier, error) {
	if strings.TrimSpace(r.getenv(recaptcha.EnvSecret)) == "" {
		b, err := recaptcha.LocalBypass(r.getenv, r.cfg.Store == config.StoreEmbedded)
		if err != nil {
			return nil, err
		}
		return b, nil
	}
	c, err := recaptcha.FromEnv(r.getenv)
	if err != nil {
		return nil, err
	}
	return newVerifier(c)
}

// newVerifier is a siteverify client of c.
func newVerifier(c recaptcha.Config) (brandcheck.Verifier, error) {
	v, err := recaptcha.New(c)
	if err != nil {
		return nil, err
	}
	return v, nil
}

// localBrandCheck reads brandlens serve's brand check settings: the
// verifier, the tuning, the proxy trust, the page; the client-hash secret
// is BRANDLENS_BRANDCHECK_SECRET or, when unset, the key secret.
func (r *Resources) localBrandCheck(keySecret []byte) (BrandCheckOptions, brandpage.Config, error) {
	v, err := r.localVerifier()
	if err != nil {
		return BrandCheckOptions{}, brandpage.Config{}, err
	}
	cfg, err := brandcheck.ConfigFromEnv(r.getenv)
	if err != nil {
		return BrandCheckOptions{}, brandpage.Config{}, err
	}
	secret := r.cfg.BrandCheckSecret
	if len(secret) == 0 {
		secret = keySecret
	}
	return BrandCheckOptions{Verifier: v, Secret: secret, Config: cfg, Trust: brandcheck.ProxyTrustFromEnv(r.getenv)},
		brandpage.ConfigFromEnv(r.getenv), nil
}

// lambdaBrandCheck reads the brand-check function's settings. Its secrets
// come from Secrets Manager: the reCAPTCHA secret (recaptcha.FromEnv
// refuses to start without one — there is no bypass in Lambda), the
// client-hash secret (required) and the CloudFront origin secret (without
// it no viewer address is believed).
func (r *Resources) lambdaBrandCheck(ctx context.Context) (BrandCheckOptions, error) {
	recaptchaSecret, err := r.secretOrEnv(ctx, "reCAPTCHA secret", r.cfg.RecaptchaSecretARN, recaptcha.EnvSecret)
	if err != nil {
		return BrandCheckOptions{}, err
	}
	rc, err := recaptcha.FromEnv(func(k string) string {
		if k == recaptcha.EnvSecret {
			return recaptchaSecret
		}
		return r.getenv(k)
	})
	if err != nil {
		return BrandCheckOptions{}, err
	}
	v, err := newVerifier(rc)
	if err != nil {
		return BrandCheckOptions{}, err
	}
	secret := string(r.cfg.BrandCheckSecret)
	if secret == "" {
		if r.cfg.BrandCheckSecretARN == "" {
			return BrandCheckOptions{}, fmt.Errorf("app: set %s or %s", config.EnvBrandCheckSecret, config.EnvBrandCheckSecretARN)
		}
		b, err := r.secretValue(ctx, "brand check secret", r.cfg.BrandCheckSecretARN)
		if err != nil {
			return BrandCheckOptions{}, err
		}
		secret = string(b)
	}
	origin, err := r.secretOrEnv(ctx, "origin secret", r.cfg.OriginSecretARN, brandcheck.EnvOriginSecret)
	if err != nil {
		return BrandCheckOptions{}, err
	}
	cfg, err := brandcheck.ConfigFromEnv(r.getenv)
	if err != nil {
		return BrandCheckOptions{}, err
	}
	return BrandCheckOptions{Verifier: v, Secret: []byte(secret), Config: cfg,
		Trust: brandcheck.ProxyTrustFromEnv(func(string) string { return origin })}, nil
}

// secretOrEnv reads a string secret from Secrets Manager when arn is set,
// else the environment variable env.
func (r *Resources) secretOrEnv(ctx context.Context, what, arn, env string) (string, error) {
	if arn == "" {
		return r.getenv(env), nil
	}
	b, err := r.secretValue(ctx, what, arn)
	return string(b), err
}

// BrandCheck is the artifact of the brand-check function
// (functions/brand-check); factory builds the providers, live ones
// included.
func BrandCheck(factory ProviderFactory) Artifact {
	return Artifact{Name: ArtifactBrandCheck, build: func(ctx context.Context, res *Resources, f Function, log *slog.Logger) (*Assembled, error) {
		if !f.AnswersBrandChecks() {
			return nil, fmt.Errorf("app: %s serves no brand check", f.Name)
		}
		o, err := res.lambdaBrandCheck(ctx)
		if err != nil {
			return nil, err
		}
		provs, err := res.Providers(ctx, factory, log)
		if err != nil {
			return nil, err
		}
		// The services without providers: only the check asks platforms.
		svc, err := lambdaServices(ctx, res, nil, nil, nil, nil, log, nil)
		if err != nil {
			return nil, err
		}
		bc, err := NewBrandCheck(svc.Repos, provs, o, log)
		if err != nil {
			return nil, err
		}
		deps := withBrandCheck(svc.HTTPDeps(nil), bc, o.Trust)
		h, err := httpapi.NewLambdaHandler(deps, f.Name)
		if err != nil {
			return nil, err
		}
		return &Assembled{Handler: lambda.NewHandler(h), Deps: []any{deps}}, nil
	}}
}

// AnswersBrandChecks reports whether the function serves the anonymous
// brand check (the one anonymous route).
func (f Function) AnswersBrandChecks() bool {
	return f.Kind == KindAPI && slices.ContainsFunc(f.Routes, func(r httpapi.Route) bool { return r.Guard == httpapi.GuardAnonymous })
}

// Models of the brand check: each platform's cheapest model of the price
// table that searches the web, since anonymous checks are free.
// (perplexity/sonar, the default, is already Perplexity's cheapest.)
var brandCheckModels = []EnvVar{
	{"BRANDLENS_MODEL_CHATGPT", "gpt-5-mini"},
	{"BRANDLENS_MODEL_GEMINI", "gemini-2.5-flash"},
	{"BRANDLENS_MODEL_CLAUDE", "claude-haiku-4-5"},
}

// brandCheckFunction completes the brand-check function: its own artifact,
// live providers with cheap models, its secrets, and a timeout that fits
// API Gateway's.
func brandCheckFunction(f Function) Function {
	f.Artifact = ArtifactBrandCheck
	f.Timeout, f.MemorySize = 28, 512
	f.TimeoutComment = "API Gateway gives an HTTP API integration 30 s at most: the platforms get\n" +
		"the check's 20 s budget (BRANDLENS_BRANDCHECK_TIMEOUT), reCAPTCHA at most 5 s."
	f.Env = append(f.Env,
		EnvVar{"BRANDLENS_PROVIDERS", "live"},
		EnvVar{config.EnvProviderKeysSecretARN, "!Ref ProviderKeysSecret"})
	f.Env = append(f.Env, brandCheckModels...)
	f.Env = append(f.Env,
		// The calls' own timeout outlasts the budget, so that the budget
		// decides (the platform is reported timeout) and no call lingers.
		EnvVar{providers.EnvProviderTimeout, "25s"},
		EnvVar{brandcheck.EnvDailyBudget, "!Ref BrandCheckDailyBudget"},
		EnvVar{config.EnvRecaptchaSecretARN, "!Ref RecaptchaSecret"},
		EnvVar{config.EnvBrandCheckSecretARN, "!Ref BrandCheckSecret"},
		EnvVar{config.EnvOriginSecretARN, "!Ref OriginVerifySecret"})
	f.Grants = append(f.Grants, Grant{Sid: "BrandCheckSecrets", Actions: []string{"secretsmanager:GetSecretValue"},
		Resources: []string{"!Ref ProviderKeysSecret", "!Ref RecaptchaSecret", "!Ref BrandCheckSecret", "!Ref OriginVerifySecret"}})
	return f
}
