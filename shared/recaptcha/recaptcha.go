// Package recaptcha verifies reCAPTCHA tokens with Google's siteverify
// endpoint (a form POST of secret, response and remoteip) and sorts every
// outcome into two kinds a caller branches on:
//
//   - *FailedError: Google looked at the token and refused it (invalid,
//     expired or already used — timeout-or-duplicate —, a v3 score under the
//     threshold, another action). The visitor is told to try again: 403.
//   - *UnavailableError: no verdict could be had (network failure, timeout,
//     a non-200 or unreadable answer, or Google saying our secret is wrong).
//     The caller refuses the request for now — 503 — and never lets it
//     through unverified.
//
// v2 answers (no score, no action: Google's always-pass test keys among
// them) are accepted on success; v3 answers must carry the expected action
// and a score at or above the threshold.
package recaptcha

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Settings read by FromEnv.
const (
	EnvSecret    = "BRANDLENS_RECAPTCHA_SECRET"
	EnvVerifyURL = "BRANDLENS_RECAPTCHA_VERIFY_URL"
	EnvMinScore  = "BRANDLENS_RECAPTCHA_MIN_SCORE"
)

// Defaults of the settings.
const (
	DefaultVerifyURL = "https://www.google.com/recaptcha/api/siteverify"
	DefaultMinScore  = 0.5
	DefaultAction    = "brand_check"
)

// Google's published always-pass v2 test keys (local use only: every token
// verifies, and the widget says it is for testing).
const (
	TestSiteKey = "6LeIxAcTAAAAAJcZVRqyHh71UMIEGNQ_MXjiZKhI"
	TestSecret  = "6LeIxAcTAAAAAGG-vFI1TnRWxMZNFuojJ4WifJWe"
)

// Caps of the outbound call: Google answers in well under a second with a
// few hundred bytes, so anything beyond these is a fault, not an answer.
const (
	DefaultTimeout  = 5 * time.Second
	maxHeaderBytes  = 16 << 10
	maxBodyBytes    = 64 << 10
	maxTokenBytes   = 8 << 10
	maxRemoteIPSize = 64
)

// Error codes of siteverify that this package reads.
const (
	CodeMissingInputResponse = "missing-input-response"
	CodeInvalidInputResponse = "invalid-input-response"
	CodeTimeoutOrDuplicate   = "timeout-or-duplicate"
	CodeMissingInputSecret   = "missing-input-secret"
	CodeInvalidInputSecret   = "invalid-input-secret"
	CodeBadRequest           = "bad-request"
	// Reasons this package adds for refusals of an otherwise successful answer.
	CodeLowScore       = "low-score"
	CodeActionMismatch = "action-mismatch"
)

// Config is everything a Client needs.
type Config struct {
	// Secret is the site's secret key (required).
	Secret string
	// VerifyURL is the siteverify endpoint (tests point it at a fake).
	VerifyURL string
	// MinScore is the lowest v3 score admitted, 0..1.
	MinScore float64
	// Action is the v3 action the page executes.
	Action string
	// Timeout bounds one verification, body included.
	Timeout time.Duration
}

// FromEnv reads the settings. The secret is required: a process that
// verifies tokens never starts without one (the local bypass is chosen by
// brandlens serve before it gets here, see LocalBypass).
func FromEnv(getenv func(string) string) (Config, error) {
	c := Config{
		Secret:    strings.TrimSpace(getenv(EnvSecret)),
		VerifyURL: strings.TrimSpace(getenv(EnvVerifyURL)),
		MinScore:  DefaultMinScore,
		Action:    DefaultAction,
		Timeout:   DefaultTimeout,
	}
	if c.Secret == "" {
		return Config{}, fmt.Errorf("recaptcha: %s is not set", EnvSecret)
	}
	if c.VerifyURL == "" {
		c.VerifyURL = DefaultVerifyURL
	}
	if v := strings.TrimSpace(getenv(EnvMinScore)); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0 || f > 1 {
			return Config{}, fmt.Errorf("recaptcha: %s=%q: want a number from 0 to 1", EnvMinScore, v)
		}
		c.MinScore = f
	}
	return c, c.validate()
}

func (c Config) validate() error {
	if c.Secret == "" {
		return errors.New("recaptcha: secret is required")
	}
	u, err := url.Parse(c.VerifyURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fmt.Errorf("recaptcha: verify URL %q is not an absolute http(s) URL", c.VerifyURL)
	}
	if c.MinScore < 0 || c.MinScore > 1 {
		return fmt.Errorf("recaptcha: min score %v is outside 0..1", c.MinScore)
	}
	if c.Action == "" {
		return errors.New("recaptcha: action is required")
	}
	return nil
}

// FailedError: Google refused the token. Codes are siteverify's error
// codes (or CodeLowScore, CodeActionMismatch).
type FailedError struct {
	Codes []string
	Score float64 // the v3 score, when there was one
}

func (e *FailedError) Error() string {
	return "recaptcha: verification failed: " + strings.Join(e.Codes, ", ")
}

// UnavailableError: no verdict could be had; try again later.
type UnavailableError struct {
	Reason string
	Err    error
}

func (e *UnavailableError) Error() string {
	if e.Err != nil {
		return "recaptcha: verifier unavailable: " + e.Reason + ": " + e.Err.Error()
	}
	return "recaptcha: verifier unavailable: " + e.Reason
}

func (e *UnavailableError) Unwrap() error { return e.Err }

// Verdict is a successful verification.
type Verdict struct {
	// V3 is set when the answer carried a score.
	V3       bool
	Score    float64
	Action   string
	Hostname string
}

// Client verifies tokens against siteverify.
type Client struct {
	cfg  Config
	http *http.Client
}

// New returns a client of cfg. Its HTTP client has its own transport with
// connect, TLS and header timeouts and a header size cap; redirects are not
// followed (siteverify does not redirect).
func New(cfg Config) (*Client, error) {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	d := &net.Dialer{Timeout: cfg.Timeout, KeepAlive: 30 * time.Second}
	tr := &http.Transport{
		Proxy:                  http.ProxyFromEnvironment,
		DialContext:            d.DialContext,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    cfg.Timeout,
		ResponseHeaderTimeout:  cfg.Timeout,
		MaxResponseHeaderBytes: maxHeaderBytes,
		MaxIdleConnsPerHost:    16,
		IdleConnTimeout:        90 * time.Second,
	}
	return &Client{cfg: cfg, http: &http.Client{
		Transport: tr,
		Timeout:   cfg.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}}, nil
}

// Verify asks siteverify about token. remoteIP, when valid, is passed on.
// The error is a *FailedError or an *UnavailableError.
func (c *Client) Verify(ctx context.Context, token, remoteIP string) (Verdict, error) {
	token = strings.TrimSpace(token)
	if token == "" {
		return Verdict{}, &FailedError{Codes: []string{CodeMissingInputResponse}}
	}
	if len(token) > maxTokenBytes {
		return Verdict{}, &FailedError{Codes: []string{CodeInvalidInputResponse}}
	}
	form := url.Values{"secret": {c.cfg.Secret}, "response": {token}}
	if ip := net.ParseIP(remoteIP); ip != nil && len(remoteIP) <= maxRemoteIPSize {
		form.Set("remoteip", ip.String())
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.cfg.VerifyURL, strings.NewReader(form.Encode()))
	if err != nil {
		return Verdict{}, &UnavailableError{Reason: "build request", Err: err}
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		// The URL carries no secret (it is in the body), so the error is
		// safe to log.
		return Verdict{}, &UnavailableError{Reason: "request failed", Err: err}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBodyBytes+1))
	if err != nil {
		return Verdict{}, &UnavailableError{Reason: "read answer", Err: err}
	}
	if resp.StatusCode != http.StatusOK {
		return Verdict{}, &UnavailableError{Reason: fmt.Sprintf("siteverify answered HTTP %d", resp.StatusCode)}
	}
	if len(body) > maxBodyBytes {
		return Verdict{}, &UnavailableError{Reason: fmt.Sprintf("answer over %d bytes", maxBodyBytes)}
	}
	ans, err := ParseAnswer(body)
	if err != nil {
		return Verdict{}, &UnavailableError{Reason: "unreadable answer", Err: err}
	}
	return c.judge(ans)
}

// Answer is siteverify's JSON answer.
type Answer struct {
	Success     bool     `json:"success"`
	ChallengeTS string   `json:"challenge_ts"`
	Hostname    string   `json:"hostname"`
	Score       *float64 `json:"score"`
	Action      string   `json:"action"`
	ErrorCodes  []string `json:"error-codes"`
}

// ParseAnswer decodes a siteverify answer. Unknown members are ignored
// (Google adds some, e.g. apk_package_name); a body that is not one JSON
// object with a boolean success is an error.
func ParseAnswer(body []byte) (Answer, error) {
	var probe struct {
		Success *bool `json:"success"`
	}
	if err := json.Unmarshal(body, &probe); err != nil {
		return Answer{}, fmt.Errorf("decode siteverify answer: %w", err)
	}
	if probe.Success == nil {
		return Answer{}, errors.New("decode siteverify answer: no success member")
	}
	var a Answer
	if err := json.Unmarshal(body, &a); err != nil {
		return Answer{}, fmt.Errorf("decode siteverify answer: %w", err)
	}
	return a, nil
}

// judge turns an answer into a verdict or a typed error.
func (c *Client) judge(a Answer) (Verdict, error) {
	if !a.Success {
		codes := a.ErrorCodes
		if len(codes) == 0 {
			codes = []string{CodeInvalidInputResponse}
		}
		// Our secret or our request is at fault, not the visitor: that is an
		// outage to fix, never a reason to blame (or admit) the visitor.
		for _, code := range codes {
			if code == CodeMissingInputSecret || code == CodeInvalidInputSecret || code == CodeBadRequest {
				return Verdict{}, &UnavailableError{Reason: "siteverify refused the request: " + code}
			}
		}
		return Verdict{}, &FailedError{Codes: slices.Clone(codes)}
	}
	v := Verdict{Action: a.Action, Hostname: a.Hostname}
	if a.Score != nil {
		v.V3, v.Score = true, *a.Score
		if a.Action != c.cfg.Action {
			return Verdict{}, &FailedError{Codes: []string{CodeActionMismatch}, Score: v.Score}
		}
		if v.Score < c.cfg.MinScore {
			return Verdict{}, &FailedError{Codes: []string{CodeLowScore}, Score: v.Score}
		}
	}
	return v, nil
}

// BypassToken is the token the page sends when the server runs with the
// local bypass.
const BypassToken = "local-bypass"

// Bypass admits BypassToken and nothing else, without asking anyone. It is
// for `brandlens serve` without a secret; see LocalBypass.
type Bypass struct{}

// Verify implements the verifier of the brand check.
func (Bypass) Verify(_ context.Context, token, _ string) (Verdict, error) {
	if strings.TrimSpace(token) != BypassToken {
		return Verdict{}, &FailedError{Codes: []string{CodeInvalidInputResponse}}
	}
	return Verdict{Hostname: "localhost"}, nil
}

// EnvLambdaFunction is set by the AWS Lambda runtime in every function.
const EnvLambdaFunction = "AWS_LAMBDA_FUNCTION_NAME"

// LocalBypass returns the bypass when all of these hold, and an error
// saying why not otherwise: no secret is configured, the store is the
// embedded one (so this is `brandlens serve` on a developer's machine, not
// a deployment, which always uses DynamoDB), and the process is not a
// Lambda function. The Lambda assembly never calls it: it calls FromEnv,
// which refuses to start without a secret.
func LocalBypass(getenv func(string) string, embeddedStore bool) (Bypass, error) {
	switch {
	case strings.TrimSpace(getenv(EnvSecret)) != "":
		return Bypass{}, fmt.Errorf("recaptcha: no local bypass: %s is set", EnvSecret)
	case !embeddedStore:
		return Bypass{}, errors.New("recaptcha: no local bypass: only brandlens serve on the embedded store may run without a secret")
	case getenv(EnvLambdaFunction) != "":
		return Bypass{}, errors.New("recaptcha: no local bypass inside AWS Lambda")
	}
	return Bypass{}, nil
}
