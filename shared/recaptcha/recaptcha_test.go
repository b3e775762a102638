package recaptcha_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/recaptcha"
)

// fakeSiteverify answers like Google's siteverify: the answer depends on
// the token, and every form it receives is kept for inspection.
type fakeSiteverify struct {
	mu    sync.Mutex
	forms []map[string]string
}

func (f *fakeSiteverify) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/x-www-form-urlencoded" {
		http.Error(w, "bad request", http.StatusMethodNotAllowed)
		return
	}
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	form := map[string]string{}
	for k := range r.PostForm {
		form[k] = r.PostForm.Get(k)
	}
	f.mu.Lock()
	f.forms = append(f.forms, form)
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if form["secret"] != "s3cret" {
		w.Write([]byte(`{"success":false,"error-codes":["invalid-input-secret"]}`))
		return
	}
	switch tok := form["response"]; tok {
	case "v3-good":
		w.Write([]byte(`{"success":true,"challenge_ts":"2026-11-22T10:00:00Z","hostname":"brandlens.example","score":0.9,"action":"brand_check"}`))
	case "v3-borderline":
		w.Write([]byte(`{"success":true,"hostname":"brandlens.example","score":0.5,"action":"brand_check"}`))
	case "v3-low":
		w.Write([]byte(`{"success":true,"hostname":"brandlens.example","score":0.1,"action":"brand_check"}`))
	case "v3-other-action":
		w.Write([]byte(`{"success":true,"hostname":"brandlens.example","score":0.9,"action":"login"}`))
	case "v2":
		w.Write([]byte(`{"success":true,"challenge_ts":"2026-11-22T10:00:00Z","hostname":"testkey.google.com","apk_package_name":null}`))
	case "used":
		w.Write([]byte(`{"success":false,"error-codes":["timeout-or-duplicate"]}`))
	case "garbage":
		w.Write([]byte(`{"success":false,"error-codes":["invalid-input-response"]}`))
	case "no-codes":
		w.Write([]byte(`{"success":false}`))
	case "bad-request":
		w.Write([]byte(`{"success":false,"error-codes":["bad-request"]}`))
	case "http-500":
		w.WriteHeader(http.StatusInternalServerError)
	case "http-429":
		w.WriteHeader(http.StatusTooManyRequests)
	case "not-json":
		w.Write([]byte(`<html>captcha</html>`))
	case "no-success":
		w.Write([]byte(`{"hostname":"x"}`))
	case "huge":
		w.Write([]byte(`{"success":true,"hostname":"` + strings.Repeat("a", 70<<10) + `"}`))
	case "huge-header":
		w.Header().Set("X-Filler", strings.Repeat("b", 20<<10))
		w.Write([]byte(`{"success":true}`))
	case "hang":
		<-r.Context().Done()
	default:
		w.Write([]byte(`{"success":false,"error-codes":["invalid-input-response"]}`))
	}
}

func newClient(t *testing.T, url, secret string) *recaptcha.Client {
	t.Helper()
	c, err := recaptcha.New(recaptcha.Config{Secret: secret, VerifyURL: url, MinScore: 0.5,
		Action: recaptcha.DefaultAction, Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestVerify(t *testing.T) {
	fake := &fakeSiteverify{}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	c := newClient(t, srv.URL, "s3cret")

	const (
		ok = iota
		failed
		unavailable
	)
	cases := []struct {
		name   string
		token  string
		want   int
		codes  []string
		v3     bool
		called bool
	}{
		{name: "v3 above threshold", token: "v3-good", want: ok, v3: true, called: true},
		{name: "v3 at threshold", token: "v3-borderline", want: ok, v3: true, called: true},
		{name: "v3 below threshold", token: "v3-low", want: failed, codes: []string{recaptcha.CodeLowScore}, called: true},
		{name: "v3 other action", token: "v3-other-action", want: failed, codes: []string{recaptcha.CodeActionMismatch}, called: true},
		{name: "v2 test key answer", token: "v2", want: ok, called: true},
		{name: "timeout or duplicate", token: "used", want: failed, codes: []string{recaptcha.CodeTimeoutOrDuplicate}, called: true},
		{name: "invalid input response", token: "garbage", want: failed, codes: []string{recaptcha.CodeInvalidInputResponse}, called: true},
		{name: "refusal without codes", token: "no-codes", want: failed, codes: []string{recaptcha.CodeInvalidInputResponse}, called: true},
		{name: "empty token is never sent", token: "  ", want: failed, codes: []string{recaptcha.CodeMissingInputResponse}},
		{name: "oversized token is never sent", token: strings.Repeat("t", 9000), want: failed, codes: []string{recaptcha.CodeInvalidInputResponse}},
		{name: "bad request is ours", token: "bad-request", want: unavailable, called: true},
		{name: "HTTP 500", token: "http-500", want: unavailable, called: true},
		{name: "HTTP 429", token: "http-429", want: unavailable, called: true},
		{name: "not JSON", token: "not-json", want: unavailable, called: true},
		{name: "no success member", token: "no-success", want: unavailable, called: true},
		{name: "body over the cap", token: "huge", want: unavailable, called: true},
		{name: "header over the cap", token: "huge-header", want: unavailable, called: true},
		{name: "no answer within the timeout", token: "hang", want: unavailable, called: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fake.mu.Lock()
			before := len(fake.forms)
			fake.mu.Unlock()
			v, err := c.Verify(context.Background(), tc.token, "203.0.113.7")
			var fe *recaptcha.FailedError
			var ue *recaptcha.UnavailableError
			switch tc.want {
			case ok:
				if err != nil {
					t.Fatalf("err = %v", err)
				}
				if v.V3 != tc.v3 {
					t.Errorf("V3 = %v, want %v", v.V3, tc.v3)
				}
			case failed:
				if !errors.As(err, &fe) {
					t.Fatalf("err = %v, want *FailedError", err)
				}
				if !slices.Equal(fe.Codes, tc.codes) {
					t.Errorf("codes = %v, want %v", fe.Codes, tc.codes)
				}
			case unavailable:
				if !errors.As(err, &ue) {
					t.Fatalf("err = %v, want *UnavailableError", err)
				}
				if errors.As(err, &fe) {
					t.Fatal("an outage must not read as a failed verification")
				}
			}
			fake.mu.Lock()
			called := len(fake.forms) > before
			fake.mu.Unlock()
			if called != tc.called {
				t.Errorf("siteverify called = %v, want %v", called, tc.called)
			}
		})
	}
}

func TestVerifySendsForm(t *testing.T) {
	fake := &fakeSiteverify{}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	c := newClient(t, srv.URL, "s3cret")
	cases := []struct {
		name, remoteIP, want string
	}{
		{"IPv4 passed on", "203.0.113.7", "203.0.113.7"},
		{"IPv6 passed on", "2001:db8::1", "2001:db8::1"},
		{"not an address dropped", "nonsense", ""},
		{"empty dropped", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := c.Verify(context.Background(), "v3-good", tc.remoteIP); err != nil {
				t.Fatal(err)
			}
			fake.mu.Lock()
			form := fake.forms[len(fake.forms)-1]
			fake.mu.Unlock()
			if form["secret"] != "s3cret" || form["response"] != "v3-good" || form["remoteip"] != tc.want {
				t.Errorf("form = %v", form)
			}
		})
	}
}

func TestVerifyWrongSecretIsAnOutage(t *testing.T) {
	srv := httptest.NewServer(&fakeSiteverify{})
	defer srv.Close()
	_, err := newClient(t, srv.URL, "wrong").Verify(context.Background(), "v3-good", "")
	var ue *recaptcha.UnavailableError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "invalid-input-secret") {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), "wrong") {
		t.Fatal("the secret leaked into the error")
	}
}

func TestVerifyNetworkFailure(t *testing.T) {
	srv := httptest.NewServer(&fakeSiteverify{})
	url := srv.URL
	srv.Close() // nothing listens there any more
	_, err := newClient(t, url, "s3cret").Verify(context.Background(), "v3-good", "")
	var ue *recaptcha.UnavailableError
	if !errors.As(err, &ue) {
		t.Fatalf("err = %v, want *UnavailableError", err)
	}
}

func TestVerifyCancelled(t *testing.T) {
	srv := httptest.NewServer(&fakeSiteverify{})
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := newClient(t, srv.URL, "s3cret").Verify(ctx, "v3-good", "")
	var ue *recaptcha.UnavailableError
	if !errors.As(err, &ue) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
}

func TestFromEnv(t *testing.T) {
	cases := []struct {
		name    string
		env     map[string]string
		wantErr bool
		want    recaptcha.Config
	}{
		{name: "no secret refuses to start", env: map[string]string{}, wantErr: true},
		{name: "defaults", env: map[string]string{recaptcha.EnvSecret: "s"},
			want: recaptcha.Config{Secret: "s", VerifyURL: recaptcha.DefaultVerifyURL, MinScore: 0.5, Action: "brand_check", Timeout: recaptcha.DefaultTimeout}},
		{name: "all set", env: map[string]string{recaptcha.EnvSecret: "s", recaptcha.EnvVerifyURL: "http://127.0.0.1:9/verify", recaptcha.EnvMinScore: "0.7"},
			want: recaptcha.Config{Secret: "s", VerifyURL: "http://127.0.0.1:9/verify", MinScore: 0.7, Action: "brand_check", Timeout: recaptcha.DefaultTimeout}},
		{name: "score not a number", env: map[string]string{recaptcha.EnvSecret: "s", recaptcha.EnvMinScore: "high"}, wantErr: true},
		{name: "score above 1", env: map[string]string{recaptcha.EnvSecret: "s", recaptcha.EnvMinScore: "1.5"}, wantErr: true},
		{name: "relative verify URL", env: map[string]string{recaptcha.EnvSecret: "s", recaptcha.EnvVerifyURL: "/verify"}, wantErr: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := recaptcha.FromEnv(func(k string) string { return tc.env[k] })
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v", err)
			}
			if !tc.wantErr && got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestLocalBypass(t *testing.T) {
	cases := []struct {
		name     string
		env      map[string]string
		embedded bool
		allowed  bool
	}{
		{name: "serve on the embedded store without a secret", embedded: true, allowed: true},
		{name: "a secret is configured", env: map[string]string{recaptcha.EnvSecret: "s"}, embedded: true},
		{name: "DynamoDB store", embedded: false},
		{name: "inside Lambda", env: map[string]string{recaptcha.EnvLambdaFunction: "brand-check"}, embedded: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := recaptcha.LocalBypass(func(k string) string { return tc.env[k] }, tc.embedded)
			if (err == nil) != tc.allowed {
				t.Fatalf("err = %v, allowed %v", err, tc.allowed)
			}
			if !tc.allowed {
				return
			}
			if _, err := b.Verify(context.Background(), recaptcha.BypassToken, ""); err != nil {
				t.Errorf("bypass token refused: %v", err)
			}
			var fe *recaptcha.FailedError
			if _, err := b.Verify(context.Background(), "anything-else", ""); !errors.As(err, &fe) {
				t.Errorf("other token: err = %v", err)
			}
		})
	}
}
