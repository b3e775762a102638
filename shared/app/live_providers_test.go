package app_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	awsevents "github.com/aws/aws-lambda-go/events"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/brandcheck"
	"github.com/brandlens/brandlens/shared/config"
	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/jobs"
	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/providers/live"
	"github.com/brandlens/brandlens/shared/providers/live/vendorfake"
	"github.com/brandlens/brandlens/shared/recaptcha"
	"github.com/brandlens/brandlens/shared/recaptcha/recaptchatest"
	"github.com/brandlens/brandlens/shared/runs"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/tenants"
)

// A paying user's run: BRANDLENS_PROVIDERS=live through the local runtime,
// every platform's base URL pointed at fakes that answer as the vendors
// document and refuse undocumented request members. All five platforms
// succeed with their default models, the brand's own domain is cited on
// each (Gemini's grounding redirect resolved to the page), and every answer
// carries a non-zero provider cost.
func TestLocalRunWithLiveProviders(t *testing.T) {
	f := vendorfake.New(vendorfake.Answer{Brand: "Acme Notes", Domain: "acmenotes.com"})
	t.Cleanup(f.Close)
	env := f.Env()
	env["BRANDLENS_PROVIDERS"] = "live"
	provs, err := live.FromEnv(func(k string) string { return env[k] }, nil)
	if err != nil {
		t.Fatal(err)
	}
	base, tbl := serveLocalWith(t, provs, platforms.All)
	j := runJob(t, base, `{}`)
	if j.Status != jobs.StatusSucceeded || j.CreditsCharged != int64(len(platforms.All)) {
		t.Fatalf("job %+v (refused by the fakes: %v)", j, f.Refused())
	}
	for _, pf := range platforms.All {
		st := j.PerPlatformStatus[pf]
		if st.Status != jobs.StatusSucceeded || st.Truncated || st.CostUnknown || st.Model == nil || st.Mentions != 1 {
			t.Errorf("%s: %+v", pf, st)
		}
	}
	if r := f.Refused(); len(r) > 0 {
		t.Errorf("the fakes refused: %v", r)
	}

	for _, pf := range platforms.All {
		var page httpapi.CitationPage
		call(t, "GET", base+"/api/v1/citations?pageSize=100&platform="+pf, "", &page)
		own := false
		for _, c := range page.Items {
			if c.URL != nil && strings.HasPrefix(*c.URL, "https://acmenotes.com/") && c.CitationSourceType != nil {
				own = true
			}
			if c.URL != nil && strings.Contains(*c.URL, "grounding-api-redirect") {
				t.Errorf("%s: redirect link recorded as the citation: %s", pf, *c.URL)
			}
		}
		if !own {
			t.Errorf("%s: no citation of acmenotes.com among %d", pf, len(page.Items))
		}
	}

	items, err := store.All(context.Background(), tbl, store.Query{PK: tenants.PK(1), SK: store.SKBeginsWith("VISRESULT#")})
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != len(platforms.All) {
		t.Fatalf("%d visibility results", len(items))
	}
	for _, it := range items {
		vr, err := store.Doc[runs.VisibilityResult](it)
		if err != nil {
			t.Fatal(err)
		}
		if vr.CostUSD <= 0 || vr.CostUnknown || vr.Truncated || !vr.Mentioned {
			t.Errorf("%s: cost %v unknown %v truncated %v mentioned %v", vr.Platform, vr.CostUSD, vr.CostUnknown, vr.Truncated, vr.Mentioned)
		}
	}
}

// A rotation of the provider keys reaches a warm platform step: the
// secret (Secrets Manager's JSON protocol) holds a key the vendor refuses,
// an operator puts the new one, and the next call — refused with the old
// key — reads the secret again and succeeds with the new key, through the
// live OpenAI adapter against its fake.
func TestProviderKeysRotationReachesWarmFunctions(t *testing.T) {
	clearEnv(t)
	c := offlineCloud(t)
	f := vendorfake.New(vendorfake.Answer{Brand: "Acme Notes", Domain: "acmenotes.com"})
	t.Cleanup(f.Close)
	env := f.Env()
	delete(env, "OPENAI_API_KEY") // the key comes from the secret
	env["BRANDLENS_PROVIDERS"] = "live"
	c.aws.mu.Lock()
	c.aws.secrets[providerKeysARN] = `{"OPENAI_API_KEY":"sk-revoked-0000"}`
	c.aws.mu.Unlock()
	cfg, err := config.Parse(func(k string) string {
		return map[string]string{config.EnvProviderKeysSecretARN: providerKeysARN, config.EnvSecretsTTL: "1h"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	provs, err := app.NewResources(cfg, func(k string) string { return env[k] }).Providers(ctx, live.FromEnv, quiet())
	if err != nil {
		t.Fatal(err)
	}
	if reads := c.aws.secretReads(); reads[providerKeysARN] != 1 {
		t.Fatalf("cold start read the keys %d times", reads[providerKeysARN])
	}
	// The operator rotates: put-secret-value.
	c.aws.mu.Lock()
	c.aws.secrets[providerKeysARN] = `{"OPENAI_API_KEY":"` + vendorfake.OpenAIKey + `"}`
	c.aws.mu.Unlock()
	ans, err := provs[platforms.ChatGPT].Answer(ctx, providers.Request{Query: "best note taking app", Hints: providers.Hints{Brand: "Acme Notes"}})
	if err != nil || !strings.Contains(ans.Text, "Acme Notes") {
		t.Fatalf("after the rotation: %q, %v (refused by the fake: %v)", ans.Text, err, f.Refused())
	}
	if reads := c.aws.secretReads(); reads[providerKeysARN] != 1 {
		t.Errorf("the refused key made %d reads, want 1", reads[providerKeysARN])
	}
	if r := f.Refused(); len(r) != 1 || !strings.Contains(r[0], "key") {
		t.Errorf("the fake refused %v, want the revoked key once", r)
	}
}

// The brand-check function asks each platform's cheap model: every model
// it sets is priced (its cost is never unknown) and cheaper than the
// platform's default, which paying users' runs keep.
func TestBrandCheckModelsArePricedAndCheap(t *testing.T) {
	f, _ := app.FunctionNamed("brand-check")
	defaults := map[string]string{"BRANDLENS_MODEL_CHATGPT": live.DefaultChatGPTModel, "BRANDLENS_MODEL_GEMINI": live.DefaultGeminiModel,
		"BRANDLENS_MODEL_CLAUDE": live.DefaultClaudeModel, "BRANDLENS_MODEL_PERPLEXITY": live.DefaultPerplexityModel}
	book := live.NewPriceBook(nil)
	n := 0
	for _, e := range f.Env {
		def, ok := defaults[e.Name]
		if !ok {
			continue
		}
		n++
		cheap, ok := book.Lookup(e.Value)
		dear, _ := book.Lookup(def)
		if !ok || cheap.InputPerMTok >= dear.InputPerMTok || cheap.OutputPerMTok >= dear.OutputPerMTok {
			t.Errorf("%s=%s: priced %v at %+v, the default %s at %+v", e.Name, e.Value, ok, cheap, def, dear)
		}
	}
	if n != 3 {
		t.Errorf("%d cheap models set, want chatgpt, gemini and claude (perplexity/sonar is already the cheapest)", n)
	}
}

// The brand-check function as deployed — live providers, the template's
// models — against the vendors' fakes: every platform answers, Gemini is
// asked with the cheap model, and every platform's cost is known.
func TestBrandCheckFunctionWithLiveProviders(t *testing.T) {
	clearEnv(t)
	c := emulatedCloud(t)
	sv := recaptchatest.New(t)
	fake := vendorfake.New(vendorfake.Answer{Brand: "Acme Notes", Domain: "acmenotes.com"})
	t.Cleanup(fake.Close)
	loadTemplate(t).setFunctionEnv(t, c, app.LogicalID("brand-check"))
	for k, v := range fake.Env() {
		if k != "BRANDLENS_PROVIDERS" { // the template's own: live
			t.Setenv(k, v)
		}
	}
	t.Setenv(recaptcha.EnvVerifyURL, sv.URL)
	cfg, err := config.FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	asm, err := app.BrandCheck(live.FromEnv).Assemble(context.Background(), app.NewResources(cfg, os.Getenv), quiet())
	if err != nil {
		t.Fatal(err)
	}
	var resp awsevents.APIGatewayV2HTTPResponse
	if err := json.Unmarshal(invoke(t, asm, readEvent(t, "brand-check.json")), &resp); err != nil {
		t.Fatal(err)
	}
	var body brandcheck.Response
	if err := json.Unmarshal([]byte(resp.Body), &body); err != nil || resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, resp.Body)
	}
	for _, p := range body.Platforms {
		if p.Status != brandcheck.StatusSucceeded || p.MentionCount == 0 || p.CostIncurred <= 0 {
			t.Errorf("%s: %+v (refused by the fakes: %v)", p.Platform, p, fake.Refused())
		}
	}
	if n := fake.Count("/gemini/v1beta/models/gemini-2.5-flash:generateContent"); n != 3 {
		t.Errorf("gemini-2.5-flash was asked %d times, want the 3 questions", n)
	}
}
