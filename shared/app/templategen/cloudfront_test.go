package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/brandcheck"
	"github.com/brandlens/brandlens/shared/brandpage"
	"github.com/brandlens/brandlens/shared/config"
	"github.com/brandlens/brandlens/shared/recaptcha"
)

func itemStrs(n node) []string {
	var out []string
	for _, it := range n.items() {
		out = append(out, it.str())
	}
	return out
}

// TestBrandCheckDistribution reads the brand check's edge in the parsed
// template: two origins (the page's bucket through Origin Access Control,
// the HTTP API for the check), the API behaviour uncached with the viewer
// address forwarded, the origin secret the function checks, HTTPS only,
// the optional WAF rule, the bucket policy and the outputs.
func TestBrandCheckDistribution(t *testing.T) {
	tp := load(t)
	dist := tp.resources[idDistribution]
	if dist.get("Type").str() != "AWS::CloudFront::Distribution" {
		t.Fatalf("no distribution %s", idDistribution)
	}
	cfg := dist.get("Properties", "DistributionConfig")
	origins := map[string]node{}
	for _, o := range cfg.get("Origins").items() {
		origins[o.get("Id").str()] = o
	}
	page, api := origins[originPage], origins[originAPI]
	fn, _ := app.FunctionNamed("brand-check")
	env := tp.resources[app.LogicalID(fn.Name)].get("Properties", "Environment", "Variables")
	oac := tp.resources["BrandCheckOriginAccessControl"].get("Properties", "OriginAccessControlConfig")

	t.Run("origins", func(t *testing.T) {
		if len(origins) != 2 {
			t.Fatalf("origins %v", origins)
		}
		if d := page.get("DomainName"); d.Tag != "!GetAtt" || d.Value != idPageBucket+".RegionalDomainName" {
			t.Errorf("page origin %s %s is not the page bucket", d.Tag, d.Value)
		}
		if id := page.get("OriginAccessControlId"); id.Tag != "!GetAtt" || id.Value != "BrandCheckOriginAccessControl.Id" ||
			!page.get("S3OriginConfig").ok() || page.get("S3OriginConfig", "OriginAccessIdentity").str() != "" {
			t.Error("the page origin must use Origin Access Control (and no legacy identity)")
		}
		if oac.get("OriginAccessControlOriginType").str() != "s3" || oac.get("SigningBehavior").str() != "always" || oac.get("SigningProtocol").str() != "sigv4" {
			t.Errorf("origin access control %v", oac.Value)
		}
		if d := api.get("DomainName"); d.Tag != "!Sub" || !strings.HasPrefix(d.Value, "${HttpApi}.execute-api.") {
			t.Errorf("API origin %s %s is not the HTTP API", d.Tag, d.Value)
		}
		co := api.get("CustomOriginConfig")
		if co.get("OriginProtocolPolicy").str() != "https-only" || !slices.Equal(itemStrs(co.get("OriginSSLProtocols")), []string{"TLSv1.2"}) {
			t.Error("the API origin must be reached over TLS 1.2 only")
		}
		// The origin waits for the check: the function's timeout fits in it.
		if n := co.get("OriginReadTimeout").str(); n == "" || fn.Timeout >= atoi(t, n) {
			t.Errorf("OriginReadTimeout %s s, the function may take %d s", n, fn.Timeout)
		}
	})

	t.Run("origin secret", func(t *testing.T) {
		hs := api.get("OriginCustomHeaders").items()
		if len(hs) != 1 || hs[0].get("HeaderName").str() != brandcheck.OriginSecretHeader {
			t.Fatalf("the API origin must add %s", brandcheck.OriginSecretHeader)
		}
		v := hs[0].get("HeaderValue")
		if v.Tag != "!Sub" || v.Value != "{{resolve:secretsmanager:${"+idOriginSecret+"}:SecretString}}" {
			t.Errorf("header value %s %s is not the origin secret", v.Tag, v.Value)
		}
		// The function compares with the same secret.
		if !env.get(config.EnvOriginSecretARN).isRef(idOriginSecret) {
			t.Errorf("the brand-check function does not read %s", idOriginSecret)
		}
		if g := tp.resources[idOriginSecret].get("Properties", "GenerateSecretString"); !g.ok() {
			t.Error("the origin secret must be generated")
		}
		for _, rs := range []string{"RecaptchaSecret", "BrandCheckSecret"} {
			if tp.resources[rs].get("Type").str() != "AWS::SecretsManager::Secret" {
				t.Errorf("no secret %s", rs)
			}
		}
		if !env.get(config.EnvRecaptchaSecretARN).isRef("RecaptchaSecret") || env.get(recaptcha.EnvSecret).ok() ||
			!env.get(config.EnvBrandCheckSecretARN).isRef("BrandCheckSecret") {
			t.Error("the function must read its secrets from Secrets Manager, never from the template")
		}
		if strings.Contains(string(tp.raw), "recaptcha.LocalBypass") || strings.Contains(string(tp.raw), recaptcha.BypassToken) {
			t.Error("the template mentions the local bypass")
		}
	})

	t.Run("behaviours", func(t *testing.T) {
		def := cfg.get("DefaultCacheBehavior")
		behaviours := append([]node{def}, cfg.get("CacheBehaviors").items()...)
		for _, b := range behaviours {
			if p := b.get("ViewerProtocolPolicy").str(); p != "https-only" && p != "redirect-to-https" {
				t.Errorf("behaviour %s serves plain HTTP (%s)", b.get("PathPattern").str(), p)
			}
		}
		if def.get("TargetOriginId").str() != originPage || def.get("CachePolicyId").str() != cachePolicyCachingOptimized {
			t.Error("the default behaviour must serve the page, cached")
		}
		if fa := def.get("FunctionAssociations").items(); len(fa) != 1 || fa[0].get("EventType").str() != "viewer-request" ||
			fa[0].get("FunctionARN").Value != "BrandCheckPageRewrite.FunctionARN" {
			t.Error("the page rewrite must run on viewer requests of the page")
		}
		var apiB node
		for _, b := range cfg.get("CacheBehaviors").items() {
			if b.get("PathPattern").str() == brandCheckAPIPath {
				apiB = b
			}
		}
		if !apiB.ok() {
			t.Fatalf("no behaviour for %s", brandCheckAPIPath)
		}
		if apiB.get("TargetOriginId").str() != originAPI || apiB.get("ViewerProtocolPolicy").str() != "https-only" {
			t.Error("the check must go to the API, HTTPS only")
		}
		if apiB.get("CachePolicyId").str() != cachePolicyCachingDisabled {
			t.Error("the check's answers must not be cached")
		}
		if !slices.Contains(itemStrs(apiB.get("AllowedMethods")), "POST") {
			t.Error("the check's behaviour does not allow POST")
		}
		orp := apiB.get("OriginRequestPolicyId")
		if orp.Tag != "!Ref" {
			t.Fatalf("origin request policy %v", orp.Value)
		}
		hc := tp.resources[orp.Value].get("Properties", "OriginRequestPolicyConfig", "HeadersConfig")
		headers := itemStrs(hc.get("Headers"))
		if hc.get("HeaderBehavior").str() != "whitelist" || !slices.Contains(headers, brandcheck.ViewerAddressHeader) ||
			!slices.Contains(headers, "Accept") || !slices.Contains(headers, "Content-Type") || slices.Contains(headers, "Host") {
			t.Errorf("forwarded headers %v: the viewer address, Accept and Content-Type, never Host", headers)
		}
		rh := tp.resources["BrandCheckResponseHeadersPolicy"].get("Properties", "ResponseHeadersPolicyConfig", "SecurityHeadersConfig")
		if rh.get("ContentSecurityPolicy", "ContentSecurityPolicy").str() != brandpage.CSP {
			t.Error("CloudFront's Content-Security-Policy differs from the page's")
		}
		for _, b := range behaviours {
			if !b.get("ResponseHeadersPolicyId").isRef("BrandCheckResponseHeadersPolicy") {
				t.Errorf("behaviour %s lacks the security headers", b.get("PathPattern").str())
			}
		}
	})

	t.Run("WAF", func(t *testing.T) {
		param := tp.root.get("Parameters", idWafRateLimit)
		if param.get("Default").str() != "0" {
			t.Error("the WAF rule must be off by default")
		}
		cond := tp.root.get("Conditions", idWafCondition)
		if cond.Tag != "!Not" || !strings.Contains(string(tp.raw), idWafCondition+": !Not [!Equals [!Ref "+idWafRateLimit+`, "0"]]`) {
			t.Errorf("condition %s %v", cond.Tag, cond.Value)
		}
		acl := tp.resources["BrandCheckWebAcl"]
		p := acl.get("Properties")
		rules := p.get("Rules").items()
		if acl.get("Condition").str() != idWafCondition || p.get("Scope").str() != "CLOUDFRONT" || len(rules) != 1 {
			t.Fatal("the web ACL must be conditional and CloudFront-scoped, with one rule")
		}
		rb := rules[0].get("Statement", "RateBasedStatement")
		if !rb.get("Limit").isRef(idWafRateLimit) || rb.get("AggregateKeyType").str() != "IP" ||
			rules[0].get("Action", "Block", "CustomResponse", "ResponseCode").str() != "429" {
			t.Error("the rule must block, per address, above the parameter's rate, with 429")
		}
		var body struct{ Error struct{ Code string } }
		if err := json.Unmarshal([]byte(wafBlockBody), &body); err != nil || body.Error.Code != "rate_limit_exceeded" {
			t.Errorf("the WAF's answer is not the API's envelope: %v", err)
		}
		w := cfg.get("WebACLId")
		if w.Tag != "!If" || len(w.Content) != 3 || w.Content[0].Value != idWafCondition || w.Content[1].Value != "BrandCheckWebAcl.Arn" ||
			w.Content[2].Tag != "!Ref" || w.Content[2].Value != "AWS::NoValue" {
			t.Error("the distribution must attach the web ACL exactly when it exists")
		}
	})

	t.Run("bucket", func(t *testing.T) {
		b := tp.resources[idPageBucket].get("Properties")
		pab := b.get("PublicAccessBlockConfiguration")
		for _, k := range []string{"BlockPublicAcls", "BlockPublicPolicy", "IgnorePublicAcls", "RestrictPublicBuckets"} {
			if pab.get(k).str() != "true" {
				t.Errorf("%s is not on", k)
			}
		}
		pol := tp.resources["BrandCheckPageBucketPolicy"].get("Properties")
		if !pol.get("Bucket").isRef(idPageBucket) {
			t.Fatal("the bucket policy is not the page bucket's")
		}
		var allow node
		for _, st := range pol.get("PolicyDocument", "Statement").items() {
			if st.get("Effect").str() == "Allow" {
				if allow.ok() {
					t.Error("more than one Allow statement")
				}
				allow = st
			}
		}
		src := allow.get("Condition", "StringEquals", "AWS:SourceArn")
		if allow.get("Principal", "Service").str() != "cloudfront.amazonaws.com" || allow.get("Action").str() != "s3:GetObject" ||
			src.Tag != "!Sub" || !strings.HasSuffix(src.Value, ":distribution/${"+idDistribution+"}") {
			t.Error("only this distribution may read the page")
		}
	})

	t.Run("outputs", func(t *testing.T) {
		if u := tp.root.get("Outputs", "BrandCheckUrl", "Value"); u.Tag != "!Sub" || !strings.Contains(u.Value, "${"+idDistribution+".DomainName}") {
			t.Error("no output of the distribution's domain")
		}
		if !tp.root.get("Outputs", "BrandCheckPageBucketName", "Value").isRef(idPageBucket) ||
			!tp.root.get("Outputs", "BrandCheckDistributionId", "Value").isRef(idDistribution) {
			t.Error("no output of the bucket or the distribution id")
		}
	})
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	var n int
	if err := json.Unmarshal([]byte(s), &n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestPageRewrite runs the template's CloudFront Function in Node (the
// JavaScript CloudFront runs): / and /brand-check reach the page's
// document in the bucket, the assets their own keys — the keys the page is
// exported under.
func TestPageRewrite(t *testing.T) {
	nodeBin, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node is not installed")
		}
		t.Skip("node is not installed")
	}
	tp := load(t)
	code := tp.resources["BrandCheckPageRewrite"].get("Properties", "FunctionCode").str()
	if code != pageRewrite {
		t.Fatal("the template's function is not pageRewrite")
	}
	objs, err := brandpage.Objects(brandpage.Config{Bypass: true})
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for _, o := range objs {
		keys[o.Key] = true
	}
	uris := []string{"/", "/brand-check", "/brand-check/", brandpage.AssetBase + "/app.js", brandpage.AssetBase + "/app.css", "/nothing"}
	script := code + `
const out = {};
for (const uri of JSON.parse(process.argv[1])) out[uri] = handler({request: {uri: uri, method: 'GET', headers: {}}}).uri;
console.log(JSON.stringify(out));`
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	arg, _ := json.Marshal(uris)
	out, err := exec.CommandContext(ctx, nodeBin, "-e", script, string(arg)).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got map[string]string
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	for _, uri := range uris[:5] {
		if !keys[strings.TrimPrefix(got[uri], "/")] {
			t.Errorf("%s → %s, which is no exported object (%v)", uri, got[uri], keys)
		}
	}
	if got["/nothing"] != "/nothing" {
		t.Errorf("/nothing → %s", got["/nothing"])
	}
}

func TestSplice(t *testing.T) {
	entry := []edgeEntry{{"", "Added", mapping("Type", str("String"))}}
	cases := []struct {
		name, text, section, want string
		ok                        bool
	}{
		{"middle section", "A:\n  x: 1\n\nB:\n  y: 2\n", "A", "A:\n  x: 1\n  Added:\n    Type: String\n\nB:\n  y: 2\n", true},
		{"last section", "A:\n  x: 1\nB:\n  y: 2\n", "B", "A:\n  x: 1\nB:\n  y: 2\n  Added:\n    Type: String\n", true},
		{"a comment line is no section end", "A:\n  # note\n  x: 1\nB: {}\n", "A", "A:\n  # note\n  x: 1\n  Added:\n    Type: String\n\nB: {}\n", true},
		{"no such section", "A:\n  x: 1\n", "Conditions", "", false},
		{"a nested key of that name is no section", "A:\n  Conditions:\n    x: 1\n", "Conditions", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := splice(tc.text, tc.section, entry)
			if (err == nil) != tc.ok || got != tc.want {
				t.Errorf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}
