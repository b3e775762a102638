package httpapi_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/brandcheck"
	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/httpapi/apitest"
	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/recaptcha"
	"github.com/brandlens/brandlens/shared/recaptcha/recaptchatest"
)

// checkT0 is 18:00:00 UTC: the day's checks reset in six hours.
var checkT0 = time.Date(2026, 11, 22, 18, 0, 0, 0, time.UTC)

const untilMidnight = 6 * 3600

func checkBody(brand, site, token string) string {
	b, _ := json.Marshal(map[string]string{"brandName": brand, "websiteUrl": site, "recaptchaToken": token})
	return string(b)
}

func brandCheckAPI(t *testing.T, o apitest.Options) *apitest.API {
	t.Helper()
	o.Now = func() time.Time { return checkT0 }
	return apitest.New(t, o)
}

// TestBrandCheckNegotiation: the answer is JSON by default and under
// Accept application/json or text/json (labelled as asked), a text report
// under text/plain; every answer is validated against the OpenAPI
// document, which lists the three media types.
func TestBrandCheckNegotiation(t *testing.T) {
	cases := []struct {
		name, accept, wantType string
	}{
		{"no Accept", "", "application/json"},
		{"application/json", "application/json", "application/json"},
		{"text/json", "text/json", "text/json"},
		{"text/plain", "text/plain", "text/plain; charset=utf-8"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			api := brandCheckAPI(t, apitest.Options{}) // a fresh day's three checks
			var hdr []string
			if tc.accept != "" {
				hdr = []string{"Accept", tc.accept}
			}
			r := api.Do(t, "POST", "/api/v1/brand-check", "", checkBody("Acme Notes", "https://acmenotes.com", recaptchatest.TokenHuman), hdr...)
			if r.Status != http.StatusOK || r.Header.Get("Content-Type") != tc.wantType {
				t.Fatalf("%d %q: %s", r.Status, r.Header.Get("Content-Type"), r.Body)
			}
			if !slices.Contains(r.Header.Values("Vary"), "Accept") {
				t.Errorf("Vary %q: a cache would serve one media type for another", r.Header.Values("Vary"))
			}
			if tc.wantType == "text/plain; charset=utf-8" {
				for _, want := range []string{"Brand check: Acme Notes", "Visibility score: ", "ChatGPT", "Google AI Overviews"} {
					if !strings.Contains(string(r.Body), want) {
						t.Errorf("text report lacks %q:\n%s", want, r.Body)
					}
				}
				return
			}
			var resp brandcheck.Response
			r.Decode(t, http.StatusOK, &resp)
			if resp.BrandName != "Acme Notes" || len(resp.Platforms) != len(platforms.All) || resp.Grade == nil ||
				*resp.Grade != brandcheck.Grade(resp.VisibilityScore) || !resp.CompletedAt.Equal(checkT0) || resp.RequestID == "" {
				t.Errorf("%+v", resp)
			}
		})
	}
}

// TestBrandCheckRefusals: each refusal in the envelope with its status and
// code; none of them counts toward the client's three checks.
func TestBrandCheckRefusals(t *testing.T) {
	api := brandCheckAPI(t, apitest.Options{})
	ok := checkBody("Acme Notes", "https://acmenotes.com", recaptchatest.TokenHuman)
	cases := []struct {
		name, body string
		status     int
		code       string
		fields     []string
		retryAfter string
		details    map[string]any
	}{
		{"every member missing", `{}`, 422, httpapi.CodeValidation, []string{"brandName", "recaptchaToken", "websiteUrl"}, "", nil},
		{"no token", `{"brandName":"Acme","websiteUrl":"https://acme.com"}`, 422, httpapi.CodeValidation, []string{"recaptchaToken"}, "", nil},
		{"blank brand, private website", checkBody("  ", "http://10.0.0.1/", "t"), 422, httpapi.CodeValidation, []string{"brandName", "websiteUrl"}, "", nil},
		{"brand too long", checkBody(strings.Repeat("a", 101), "https://acme.com", "t"), 422, httpapi.CodeValidation, []string{"brandName"}, "", nil},
		{"ill-typed member", `{"brandName":5,"websiteUrl":"https://acme.com","recaptchaToken":"t"}`, 422, httpapi.CodeValidation, []string{"brandName"}, "", nil},
		{"unknown member", `{"brandName":"Acme","websiteUrl":"https://acme.com","recaptchaToken":"t","email":"a@b.c"}`, 422, httpapi.CodeValidation, []string{"email"}, "", nil},
		{"token used twice", checkBody("Acme", "https://acme.com", recaptchatest.TokenReplayed), 403, httpapi.CodeRecaptchaFailed, nil, "",
			map[string]any{"reasons": []any{recaptcha.CodeTimeoutOrDuplicate}}},
		{"a bot's score", checkBody("Acme", "https://acme.com", recaptchatest.TokenBot), 403, httpapi.CodeRecaptchaFailed, nil, "",
			map[string]any{"reasons": []any{recaptcha.CodeLowScore}}},
		{"Google unreachable", checkBody("Acme", "https://acme.com", recaptchatest.TokenDown), 503, httpapi.CodeServiceUnavailable, nil, "30",
			map[string]any{"reason": brandcheck.ReasonVerifier}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := api.Do(t, "POST", "/api/v1/brand-check", "", tc.body)
			if r.Status != tc.status || r.ErrorCode(t) != tc.code {
				t.Fatalf("%d %s, want %d %s", r.Status, r.Body, tc.status, tc.code)
			}
			if tc.fields != nil && !slices.Equal(r.Fields(t), tc.fields) {
				t.Errorf("fields %v, want %v", r.Fields(t), tc.fields)
			}
			if got := r.Header.Get("Retry-After"); got != tc.retryAfter {
				t.Errorf("Retry-After %q, want %q", got, tc.retryAfter)
			}
			details, _ := r.JSON(t)["error"].(map[string]any)["details"].(map[string]any)
			for k, v := range tc.details {
				if got, _ := json.Marshal(details[k]); string(got) != jsonText(v) {
					t.Errorf("details.%s = %s, want %s", k, got, jsonText(v))
				}
			}
		})
	}
	// None of those counted: three checks still pass, the fourth is 429
	// with Retry-After = seconds to the end of the UTC day.
	for i := range 3 {
		if r := api.Do(t, "POST", "/api/v1/brand-check", "", ok); r.Status != http.StatusOK {
			t.Fatalf("check %d: %d %s", i+1, r.Status, r.Body)
		}
	}
	r := api.Do(t, "POST", "/api/v1/brand-check", "", ok)
	if r.Status != http.StatusTooManyRequests || r.ErrorCode(t) != httpapi.CodeRateLimitExceeded ||
		r.Header.Get("Retry-After") != strconv.Itoa(untilMidnight) {
		t.Fatalf("4th: %d Retry-After %q %s", r.Status, r.Header.Get("Retry-After"), r.Body)
	}
	details := r.JSON(t)["error"].(map[string]any)["details"].(map[string]any)
	if details["dailyLimit"] != float64(3) || details["resetsAt"] != "2026-11-23T00:00:00Z" {
		t.Errorf("details %v", details)
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestBrandCheckClientAddress: CloudFront's viewer address is believed only
// with the distribution's origin secret; otherwise the client is the TCP
// peer, whatever CloudFront-Viewer-Address says.
func TestBrandCheckClientAddress(t *testing.T) {
	const secret = "origin-secret-0123456789abcdef"
	api := brandCheckAPI(t, apitest.Options{Local: app.LocalOptions{BrandCheck: app.BrandCheckOptions{
		Trust: brandcheck.ProxyTrust{Secret: secret}}}})
	check := func(t *testing.T, hdr ...string) int {
		t.Helper()
		return api.Do(t, "POST", "/api/v1/brand-check", "", checkBody("Acme Notes", "https://acmenotes.com", recaptchatest.TokenHuman), hdr...).Status
	}
	lastIP := func() string {
		calls := api.Siteverify.Calls()
		return calls[len(calls)-1].RemoteIP
	}
	// Through the distribution, each viewer has its own three checks, and
	// Google is told the viewer's address.
	for _, viewer := range []string{"198.51.100.10:46532", "2001:db8::1:443"} {
		for i := range 4 {
			st := check(t, "CloudFront-Viewer-Address", viewer, "X-Origin-Verify", secret)
			if want := map[bool]int{true: 200, false: 429}[i < 3]; st != want {
				t.Fatalf("viewer %s check %d: %d, want %d", viewer, i+1, st, want)
			}
		}
	}
	if got := lastIP(); got != "2001:db8::1" {
		t.Errorf("siteverify was told remoteip %q", got)
	}
	// A viewer header without the secret, or with a wrong one, is ignored:
	// every such request is the TCP peer's (127.0.0.1).
	spoofs := [][]string{
		{"CloudFront-Viewer-Address", "203.0.113.1:1"},
		{"CloudFront-Viewer-Address", "203.0.113.2:1", "X-Origin-Verify", "guess"},
		{"CloudFront-Viewer-Address", "203.0.113.3:1", "X-Origin-Verify", secret + "x"},
		nil,
	}
	for i, hdr := range spoofs {
		st := check(t, hdr...)
		if want := map[bool]int{true: 200, false: 429}[i < 3]; st != want {
			t.Fatalf("spoof %d: %d, want %d", i+1, st, want)
		}
		if i < 3 && lastIP() != "127.0.0.1" {
			t.Errorf("spoof %d: siteverify was told remoteip %q", i+1, lastIP())
		}
	}
}

// TestBrandCheckConcurrentOneAddress: 20 checks at once from one address,
// through the real HTTP server, admit exactly 3; the others are 429.
func TestBrandCheckConcurrentOneAddress(t *testing.T) {
	api := brandCheckAPI(t, apitest.Options{})
	var wg sync.WaitGroup
	statuses := make([]int, 20)
	for i := range statuses {
		wg.Go(func() {
			// Different brands: no check is served from another's cache.
			statuses[i] = api.Do(t, "POST", "/api/v1/brand-check", "",
				checkBody("Brand "+strconv.Itoa(i), "https://brand"+strconv.Itoa(i)+".com", recaptchatest.TokenHuman)).Status
		})
	}
	wg.Wait()
	count := map[int]int{}
	for _, s := range statuses {
		count[s]++
	}
	if count[http.StatusOK] != 3 || count[http.StatusTooManyRequests] != 17 {
		t.Fatalf("statuses %v, want 3×200 and 17×429", count)
	}
}
