package brandcheck_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/audit"
	"github.com/brandlens/brandlens/shared/brandcheck"
	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/recaptcha"
	"github.com/brandlens/brandlens/shared/store/embedded"
)

// TestCheckWithSiteverify runs the service with the real reCAPTCHA client
// against a local siteverify: each outcome maps to its typed error, the
// visitor's address is passed on, and nothing refused is counted.
func TestCheckWithSiteverify(t *testing.T) {
	var remoteIP atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		remoteIP.Store(r.PostForm.Get("remoteip"))
		switch r.PostForm.Get("response") {
		case "human":
			io.WriteString(w, `{"success":true,"score":0.9,"action":"brand_check","hostname":"brandlens.example"}`)
		case "bot":
			io.WriteString(w, `{"success":true,"score":0.1,"action":"brand_check"}`)
		case "replayed":
			io.WriteString(w, `{"success":false,"error-codes":["timeout-or-duplicate"]}`)
		default:
			w.WriteHeader(http.StatusBadGateway)
		}
	}))
	defer srv.Close()
	rc, err := recaptcha.New(recaptcha.Config{Secret: "s", VerifyURL: srv.URL, MinScore: 0.5, Action: recaptcha.DefaultAction})
	if err != nil {
		t.Fatal(err)
	}
	set := providers.Set{}
	for _, pf := range platforms.All {
		set[pf] = providers.NewSimulated(pf)
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	// The store's clock is the service's: with the real one, the day's
	// counters (TTL an hour past t0's day) read as expired once that hour
	// has passed, and the limit never bites.
	tbl := embedded.NewMemory(embedded.WithClock(func() time.Time { return t0 }))
	trail := audit.NewLog(tbl)
	svc, err := brandcheck.New(brandcheck.Deps{Table: tbl, Providers: set, Verifier: rc,
		Auditor: brandcheck.NewAuditTrail(trail), Logger: logger, Now: func() time.Time { return t0 }},
		brandcheck.Config{ClientKey: clientKey})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		token string
		want  string // error code, "" for success
	}{
		{"bot", brandcheck.CodeRecaptchaFailed},
		{"replayed", brandcheck.CodeRecaptchaFailed},
		{"outage", brandcheck.CodeUnavailable},
		{"human", ""}, {"human", ""}, {"human", ""},
		{"human", brandcheck.CodeRateLimitExceeded},
	}
	for i, tc := range cases {
		_, err := svc.Check(context.Background(), input("Acme", "https://acme.com", tc.token), visitor)
		var coded interface{ Code() string }
		switch {
		case tc.want == "" && err != nil:
			t.Fatalf("request %d (%s): %v", i+1, tc.token, err)
		case tc.want != "" && (!errors.As(err, &coded) || coded.Code() != tc.want):
			t.Fatalf("request %d (%s): %v, want %s", i+1, tc.token, err, tc.want)
		}
		if got := remoteIP.Load(); got != visitor.Addr.String() {
			t.Errorf("remoteip %v", got)
		}
	}
	// The prompts of the one check that asked the platforms are in the
	// service's audit partition — refused requests and the two answered
	// from the day's cache sent nothing, so audited nothing —: one entry per
	// platform and question, by an anonymous actor that is no address.
	page, err := trail.ListService(context.Background(), audit.ScopeBrandCheck, audit.Filter{Limit: 200})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) != len(platforms.All)*3 {
		t.Fatalf("%d audit entries, want %d", len(page.Items), len(platforms.All)*3)
	}
	questions := map[string]bool{}
	for _, q := range brandcheck.Questions("Acme", "acme.com") {
		questions[q.Text] = true
	}
	for _, e := range page.Items {
		if e.Action != brandcheck.AuditAction || e.Actor.Kind != audit.KindAnonymous || strings.Contains(e.Actor.KeyID, visitor.Addr.String()) ||
			!strings.HasPrefix(e.Resource, brandcheck.AuditResource+":") || e.Model == nil || len(e.Model.Prompt) != 1 ||
			!questions[e.Model.Prompt[0].Content] || !platforms.Valid(e.Model.Vendor) {
			t.Fatalf("entry %+v (model %+v)", e, e.Model)
		}
	}
}
