package main

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/brandlens/brandlens/shared/brandcheck"
	"github.com/brandlens/brandlens/shared/brandpage"
)

// The brand check's edge: the CloudFront distribution in front of the
// page (an S3 bucket, read through Origin Access Control) and of the
// check's API route (the HTTP API, uncached, with the viewer's address and
// the shared origin secret), an optional WAF rate-based rule, and the
// check's secrets. It is its own piece of the template: its parameters,
// parameters and conditions are spliced into head.yaml's sections, its
// resources written after the functions and its outputs added to the
// derived ones.

// Managed CloudFront policies (their ids are fixed by AWS).
const (
	cachePolicyCachingOptimized = "658327ea-f89d-4fab-a63d-7e88639e58f6"
	cachePolicyCachingDisabled  = "4135ea2d-6df8-44a3-9df3-4b5a84be39ad"
)

// Logical ids of the edge.
const (
	idDistribution    = "BrandCheckDistribution"
	idPageBucket      = "BrandCheckPageBucket"
	idOriginSecret    = "OriginVerifySecret"
	idWafCondition    = "BrandCheckWafEnabled"
	idWafRateLimit    = "BrandCheckWafRateLimit"
	originPage        = "page"
	originAPI         = "api"
	brandCheckAPIPath = "/api/v1/brand-check"
)

// pageRewrite is the CloudFront Function (cloudfront-js-2.0) that serves
// the page's one document at / and /brand-check: the bucket holds it once,
// as index.html, beside brand-check/assets/.
const pageRewrite = `function handler(event) {
  var request = event.request;
  if (request.uri === '/' || request.uri === '/brand-check' || request.uri === '/brand-check/') {
    request.uri = '/index.html';
  }
  return request;
}
`

// wafBlockBody is what the WAF rule answers: the API's error envelope.
const wafBlockBody = `{"error":{"code":"rate_limit_exceeded","message":"Too many requests from your network; please wait a few minutes.","details":{}}}`

// edgeEntry is one named entry of a template section.
type edgeEntry struct {
	comment, id string
	node        *yaml.Node
}

// brandCheckEdge is the edge's entries by template section.
func brandCheckEdge() map[string][]edgeEntry {
	return map[string][]edgeEntry{
		"Parameters": {
			{"", "BrandCheckDailyBudget", mapping("Type", str("Number"), "Default", integer(brandcheck.DefaultDailyBudget), "MinValue", integer(1),
				"Description", str("Anonymous brand checks per UTC day that may ask the AI platforms, all visitors together (BRANDLENS_BRANDCHECK_DAILY_BUDGET); cached checks do not count"))},
			{"", idWafRateLimit, mapping("Type", str("String"), "Default", quoted("0"), "AllowedPattern", quoted("^(0|[1-9][0-9]{1,8})$"),
				"Description", str("0: no WAF. Otherwise a rate-based AWS WAF rule on the brand check's distribution blocks an address sending more than this many /api/ requests in 5 minutes (at least 10). CloudFront web ACLs exist only in us-east-1: deploy the stack there to turn it on"))},
		},
		"Conditions": {
			{"", idWafCondition, fn("!Not", fn("!Equals", value("!Ref "+idWafRateLimit), quoted("0")))},
		},
		"Resources": edgeResources(),
		"Outputs": {
			{"", "BrandCheckUrl", mapping("Description", str("The brand check page, through CloudFront"),
				"Value", value("!Sub https://${"+idDistribution+".DomainName}/brand-check"))},
			{"", "BrandCheckDistributionId", mapping("Description", str("The CloudFront distribution (invalidate /* after uploading the page)"),
				"Value", value("!Ref "+idDistribution))},
			{"", "BrandCheckPageBucketName", mapping("Description", str("The S3 bucket of the page: brandlens admin export-page, then upload (README, Deploying the brand check page)"),
				"Value", value("!Ref "+idPageBucket))},
		},
	}
}

func edgeResources() []edgeEntry {
	secret := func(desc string, generated bool) *yaml.Node {
		props := mapping("Description", value("!Sub brandlens ${Stage}: "+desc))
		if generated {
			add(props, "GenerateSecretString", mapping("PasswordLength", integer(64), "ExcludePunctuation", boolean(true)))
		} else {
			add(props, "SecretString", str("set-this-value-after-the-first-deploy"))
		}
		// Kept like head.yaml's secrets: a stack update or deletion never
		// destroys a secret value an operator set (the stack policy too).
		return mapping("Type", str("AWS::SecretsManager::Secret"), "DeletionPolicy", str("Retain"), "UpdateReplacePolicy", str("Retain"), "Properties", props)
	}
	stackName := func(suffix string) *yaml.Node { return value("!Sub ${AWS::StackName}-" + suffix) }
	securityHeaders := mapping(
		"ContentSecurityPolicy", mapping("ContentSecurityPolicy", str(brandpage.CSP), "Override", boolean(true)),
		"ContentTypeOptions", mapping("Override", boolean(true)),
		"FrameOptions", mapping("FrameOption", str("DENY"), "Override", boolean(true)),
		"ReferrerPolicy", mapping("ReferrerPolicy", str("strict-origin-when-cross-origin"), "Override", boolean(true)),
		"StrictTransportSecurity", mapping("AccessControlMaxAgeSec", integer(63072000), "IncludeSubdomains", boolean(false), "Override", boolean(true)))
	return []edgeEntry{
		{"reCAPTCHA secret of the brand check (Google's reCAPTCHA admin console); set its value\n" +
			"after the first deploy (aws secretsmanager put-secret-value). Until then siteverify\n" +
			"refuses it and checks answer 503: there is no bypass in AWS.",
			"RecaptchaSecret", secret("reCAPTCHA secret of the brand check", false)},
		{"The brand check's client-hash key derives from it (HKDF): counters and stored\n" +
			"checks hold HMACs of the client's address, never the address.",
			"BrandCheckSecret", secret("key of the brand check's client hashes", true)},
		{"Shared secret CloudFront adds to every request it forwards to the API\n" +
			"(X-Origin-Verify); the brand-check function believes CloudFront-Viewer-Address\n" +
			"only beside it.",
			idOriginSecret, secret("CloudFront origin secret of the brand check", true)},

		{"The page (brandlens admin export-page): private, read by CloudFront only.",
			idPageBucket, mapping("Type", str("AWS::S3::Bucket"), "Properties", mapping(
				"PublicAccessBlockConfiguration", mapping("BlockPublicAcls", boolean(true), "BlockPublicPolicy", boolean(true),
					"IgnorePublicAcls", boolean(true), "RestrictPublicBuckets", boolean(true)),
				"OwnershipControls", mapping("Rules", block(mapping("ObjectOwnership", str("BucketOwnerEnforced")))),
				"BucketEncryption", mapping("ServerSideEncryptionConfiguration", block(mapping(
					"ServerSideEncryptionByDefault", mapping("SSEAlgorithm", str("AES256"))))),
				"VersioningConfiguration", mapping("Status", str("Enabled")),
				"Tags", block(mapping("Key", str("app"), "Value", str("brandlens")), mapping("Key", str("stage"), "Value", value("!Ref Stage")))))},
		{"Origin Access Control: only this distribution reads the bucket, with signed requests.",
			"BrandCheckPageBucketPolicy", mapping("Type", str("AWS::S3::BucketPolicy"), "Properties", mapping(
				"Bucket", value("!Ref "+idPageBucket),
				"PolicyDocument", policy(
					mapping("Sid", str("CloudFrontReadsThePage"), "Effect", str("Allow"),
						"Principal", mapping("Service", str("cloudfront.amazonaws.com")),
						"Action", str("s3:GetObject"),
						"Resource", value("!Sub ${"+idPageBucket+".Arn}/*"),
						"Condition", mapping("StringEquals", mapping("AWS:SourceArn",
							value("!Sub arn:${AWS::Partition}:cloudfront::${AWS::AccountId}:distribution/${"+idDistribution+"}")))),
					mapping("Sid", str("TLSOnly"), "Effect", str("Deny"), "Principal", quoted("*"), "Action", quoted("s3:*"),
						"Resource", block(value("!GetAtt "+idPageBucket+".Arn"), value("!Sub ${"+idPageBucket+".Arn}/*")),
						"Condition", mapping("Bool", mapping("aws:SecureTransport", quoted("false"))))))),
		},
		{"", "BrandCheckOriginAccessControl", mapping("Type", str("AWS::CloudFront::OriginAccessControl"), "Properties", mapping(
			"OriginAccessControlConfig", mapping("Name", stackName("brand-check-page"), "OriginAccessControlOriginType", str("s3"),
				"SigningBehavior", str("always"), "SigningProtocol", str("sigv4"))))},
		{"What reaches the API: the viewer's address (for the per-client daily count), the\n" +
			"body's type and the wanted answer type; no cookies, no query.",
			"BrandCheckOriginRequestPolicy", mapping("Type", str("AWS::CloudFront::OriginRequestPolicy"), "Properties", mapping(
				"OriginRequestPolicyConfig", mapping("Name", stackName("brand-check-api"),
					"Comment", str("brand check API: viewer address, Accept, Content-Type"),
					"HeadersConfig", mapping("HeaderBehavior", str("whitelist"),
						"Headers", block(str(brandcheck.ViewerAddressHeader), str("Accept"), str("Content-Type"), str("X-Request-Id"))),
					"CookiesConfig", mapping("CookieBehavior", str("none")),
					"QueryStringsConfig", mapping("QueryStringBehavior", str("none")))))},
		{"The page's Content-Security-Policy (brandpage.CSP) and the usual security headers.",
			"BrandCheckResponseHeadersPolicy", mapping("Type", str("AWS::CloudFront::ResponseHeadersPolicy"), "Properties", mapping(
				"ResponseHeadersPolicyConfig", mapping("Name", stackName("brand-check"), "Comment", str("brand check page and API"),
					"SecurityHeadersConfig", securityHeaders)))},
		{"/ and /brand-check are the page's one document (index.html in the bucket).",
			"BrandCheckPageRewrite", mapping("Type", str("AWS::CloudFront::Function"), "Properties", mapping(
				"Name", stackName("brand-check-page"), "AutoPublish", boolean(true),
				"FunctionConfig", mapping("Comment", str("serve index.html at / and /brand-check"), "Runtime", str("cloudfront-js-2.0")),
				"FunctionCode", literal(pageRewrite)))},
		{"Optional rate-based rule (" + idWafRateLimit + " > 0): too many /api/ requests from one\n" +
			"address in 5 minutes are answered 429 in the API's envelope.",
			"BrandCheckWebAcl", webACL()},
		{"The brand check's front door: the page from S3, POST /api/v1/brand-check to the HTTP\n" +
			"API, uncached, HTTPS only.",
			idDistribution, distribution()},
	}
}

// webACL is the optional rate-based rule: an address sending more than
// BrandCheckWafRateLimit /api/ requests in 5 minutes gets 429 in the API's
// envelope, with Retry-After.
func webACL() *yaml.Node {
	visibility := func(metric string) *yaml.Node {
		return mapping("SampledRequestsEnabled", boolean(true), "CloudWatchMetricsEnabled", boolean(true),
			"MetricName", value("!Sub ${AWS::StackName}-"+metric))
	}
	scopeDown := mapping("ByteMatchStatement", mapping(
		"FieldToMatch", mapping("UriPath", mapping()),
		"PositionalConstraint", str("STARTS_WITH"), "SearchString", str("/api/"),
		"TextTransformations", block(mapping("Priority", integer(0), "Type", str("NONE")))))
	block429 := mapping("Block", mapping("CustomResponse", mapping(
		"ResponseCode", integer(429),
		"CustomResponseBodyKey", str("rate-limited"),
		"ResponseHeaders", block(mapping("Name", str("Retry-After"), "Value", quoted("300"))))))
	rule := mapping("Name", str("brand-check-rate"), "Priority", integer(0),
		"Action", block429,
		"Statement", mapping("RateBasedStatement", mapping(
			"Limit", value("!Ref "+idWafRateLimit), "EvaluationWindowSec", integer(300), "AggregateKeyType", str("IP"),
			"ScopeDownStatement", scopeDown)),
		"VisibilityConfig", visibility("brand-check-rate"))
	return mapping("Type", str("AWS::WAFv2::WebACL"), "Condition", str(idWafCondition), "Properties", mapping(
		"Name", value("!Sub ${AWS::StackName}-brand-check"), "Scope", str("CLOUDFRONT"),
		"DefaultAction", mapping("Allow", mapping()),
		"CustomResponseBodies", mapping("rate-limited", mapping("ContentType", str("APPLICATION_JSON"), "Content", str(wafBlockBody))),
		"VisibilityConfig", visibility("brand-check"),
		"Rules", block(rule)))
}

func distribution() *yaml.Node {
	allMethods := flow(str("GET"), str("HEAD"), str("OPTIONS"), str("PUT"), str("PATCH"), str("POST"), str("DELETE"))
	getHead := flow(str("GET"), str("HEAD"))
	return mapping("Type", str("AWS::CloudFront::Distribution"), "Properties", mapping("DistributionConfig", mapping(
		"Comment", value("!Sub brandlens ${Stage}: brand check page and API"),
		"Enabled", boolean(true),
		"HttpVersion", str("http2and3"),
		"IPV6Enabled", boolean(true),
		"PriceClass", str("PriceClass_100"),
		"DefaultRootObject", str("index.html"),
		"WebACLId", fn("!If", str(idWafCondition), value("!GetAtt BrandCheckWebAcl.Arn"), value("!Ref AWS::NoValue")),
		"Origins", block(
			mapping("Id", str(originPage),
				"DomainName", value("!GetAtt "+idPageBucket+".RegionalDomainName"),
				"OriginAccessControlId", value("!GetAtt BrandCheckOriginAccessControl.Id"),
				"S3OriginConfig", mapping("OriginAccessIdentity", quoted(""))),
			mapping("Id", str(originAPI),
				"DomainName", value("!Sub ${HttpApi}.execute-api.${AWS::Region}.${AWS::URLSuffix}"),
				"CustomOriginConfig", mapping("OriginProtocolPolicy", str("https-only"), "HTTPSPort", integer(443),
					"OriginSSLProtocols", flow(str("TLSv1.2")),
					// The function's 28 s and API Gateway's 30 s fit.
					"OriginReadTimeout", integer(35), "OriginKeepaliveTimeout", integer(5)),
				"OriginCustomHeaders", block(mapping("HeaderName", str(brandcheck.OriginSecretHeader),
					"HeaderValue", value("!Sub {{resolve:secretsmanager:${"+idOriginSecret+"}:SecretString}}"))))),
		"DefaultCacheBehavior", mapping(
			"TargetOriginId", str(originPage),
			"ViewerProtocolPolicy", str("redirect-to-https"),
			"AllowedMethods", getHead, "CachedMethods", getHead, "Compress", boolean(true),
			"CachePolicyId", str(cachePolicyCachingOptimized),
			"ResponseHeadersPolicyId", value("!Ref BrandCheckResponseHeadersPolicy"),
			"FunctionAssociations", block(mapping("EventType", str("viewer-request"),
				"FunctionARN", value("!GetAtt BrandCheckPageRewrite.FunctionARN")))),
		"CacheBehaviors", block(mapping(
			"PathPattern", str(brandCheckAPIPath),
			"TargetOriginId", str(originAPI),
			"ViewerProtocolPolicy", str("https-only"),
			"AllowedMethods", allMethods, "CachedMethods", getHead, "Compress", boolean(true),
			"CachePolicyId", str(cachePolicyCachingDisabled),
			"OriginRequestPolicyId", value("!Ref BrandCheckOriginRequestPolicy"),
			"ResponseHeadersPolicyId", value("!Ref BrandCheckResponseHeadersPolicy"))),
		"ViewerCertificate", mapping("CloudFrontDefaultCertificate", boolean(true)),
	)))
}

// fn is an intrinsic function in its short form: !If [a, b, c].
func fn(tag string, args ...*yaml.Node) *yaml.Node {
	n := flow(args...)
	n.Tag = tag
	return n
}

// literal is a block scalar (|), for code.
func literal(s string) *yaml.Node {
	n := str(s)
	n.Style = yaml.LiteralStyle
	return n
}

// renderEntries writes entries as members of a top-level section.
func renderEntries(entries []edgeEntry) (string, error) {
	var b bytes.Buffer
	for _, e := range entries {
		if err := writeResource(&b, e.comment, e.id, e.node); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

var topLevelKey = regexp.MustCompile(`(?m)^[A-Za-z][A-Za-z0-9]*:`)

// splice adds entries at the end of the top-level section of text (a
// YAML document's part: head.yaml), before the next
// top-level key. A section the text lacks is an error: the edge never
// invents one, so that a change of head.yaml cannot drop its entries.
func splice(text, section string, entries []edgeEntry) (string, error) {
	rendered, err := renderEntries(entries)
	if err != nil {
		return "", err
	}
	// Parameters, conditions and outputs are listed without blank lines.
	rendered = strings.ReplaceAll(rendered, "\n\n", "\n")
	start := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(section) + `:[ \t]*\n`).FindStringIndex(text)
	if start == nil {
		return "", fmt.Errorf("templategen: no %s section to add the brand check's entries to", section)
	}
	end := len(text)
	if next := topLevelKey.FindStringIndex(text[start[1]:]); next != nil {
		end = start[1] + next[0]
	}
	body := strings.TrimRight(text[start[1]:end], "\n") + "\n"
	rest := text[end:]
	if rest != "" {
		rest = "\n" + rest
	}
	return text[:start[1]] + body + strings.TrimPrefix(rendered, "\n") + rest, nil
}
