package webhooks_test

import (
	"context"
	"encoding/base64"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/logtest"
	"github.com/brandlens/brandlens/shared/outbox"
	"github.com/brandlens/brandlens/shared/ssrf"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamotest"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/store/storetest"
	"github.com/brandlens/brandlens/shared/validation"
	"github.com/brandlens/brandlens/shared/webhooks"
)

func TestCreateSubscriptionDefaultsAndSecret(t *testing.T) {
	ctx := context.Background()
	svc := webhooks.New(embedded.NewMemory(), webhooks.Options{})
	sub, err := svc.CreateSubscription(ctx, 1, webhooks.NewSubscription{URL: "https://hooks.example.com/in"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(sub.ID, "wh_") || !sub.Active || len(sub.Events) != 1 || sub.Events[0] != "*" {
		t.Errorf("defaults: %+v", sub)
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(sub.Secret, webhooks.SecretPrefix))
	if !strings.HasPrefix(sub.Secret, webhooks.SecretPrefix) || err != nil || len(raw) != 32 {
		t.Errorf("generated secret %q: want whsec_ and 32 random bytes", sub.Secret)
	}
	if other, _ := svc.CreateSubscription(ctx, 1, webhooks.NewSubscription{URL: "https://hooks.example.com/in"}); other.Secret == sub.Secret {
		t.Error("two generated secrets are equal")
	}
	// Normalisation: duplicates go, "*" absorbs the rest.
	s2, err := svc.CreateSubscription(ctx, 1, webhooks.NewSubscription{URL: "https://hooks.example.com/in",
		Events: []string{outbox.CreditLow, outbox.CreditLow, outbox.APIKeyRevoked}})
	if err != nil || strings.Join(s2.Events, ",") != "credit.low,api_key.revoked" {
		t.Errorf("events %v %v", s2.Events, err)
	}
	s3, _ := svc.CreateSubscription(ctx, 1, webhooks.NewSubscription{URL: "https://hooks.example.com/in", Events: []string{outbox.CreditLow, "*"}})
	if strings.Join(s3.Events, ",") != "*" {
		t.Errorf("events %v, want [*]", s3.Events)
	}

	// Tenant scope.
	if _, err := svc.GetSubscription(ctx, 2, sub.ID); err != webhooks.ErrNotFound {
		t.Errorf("other tenant get: %v", err)
	}
	if _, err := svc.UpdateSubscription(ctx, 2, sub.ID, webhooks.Patch{Active: ptr(false)}); err != webhooks.ErrNotFound {
		t.Errorf("other tenant update: %v", err)
	}
	if err := svc.DeleteSubscription(ctx, 2, sub.ID); err != webhooks.ErrNotFound {
		t.Errorf("other tenant delete: %v", err)
	}

	// Update changes what is given and keeps the secret unless rotated;
	// the plain text is shown at creation only.
	up, err := svc.UpdateSubscription(ctx, 1, sub.ID, webhooks.Patch{Active: ptr(false), Events: []string{outbox.ContentPublished}, Description: ptr("ops")})
	if err != nil || up.Active || up.Events[0] != outbox.ContentPublished || up.Description != "ops" || up.URL != sub.URL ||
		up.Secret != "" || !reflect.DeepEqual(up.SealedSecret, sub.SealedSecret) {
		t.Errorf("update: %+v %v", up, err)
	}
	rot, err := svc.UpdateSubscription(ctx, 1, sub.ID, webhooks.Patch{Secret: ptr("a-brand-new-secret-of-enough-length")})
	if err != nil || rot.Secret != "" || rot.SealedSecret == nil || reflect.DeepEqual(rot.SealedSecret, sub.SealedSecret) {
		t.Errorf("rotation: %+v %v", rot, err)
	}
	if err := svc.DeleteSubscription(ctx, 1, sub.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.GetSubscription(ctx, 1, sub.ID); err != webhooks.ErrNotFound {
		t.Errorf("after delete: %v", err)
	}
}

func TestSubscriptionValidation(t *testing.T) {
	ctx := context.Background()
	svc := webhooks.New(embedded.NewMemory(), webhooks.Options{})
	good := "https://hooks.example.com/in"
	cases := []struct {
		name string
		ns   webhooks.NewSubscription
		want string
	}{
		{"unknown event type", webhooks.NewSubscription{URL: good, Events: []string{"execution.started", "job.done"}}, "events"},
		{"empty event list", webhooks.NewSubscription{URL: good, Events: []string{}}, "events"},
		{"missing url", webhooks.NewSubscription{}, "url"},
		{"relative url", webhooks.NewSubscription{URL: "/hooks"}, "url"},
		{"ftp url", webhooks.NewSubscription{URL: "ftp://example.com/"}, "url"},
		{"decimal loopback", webhooks.NewSubscription{URL: "http://2130706433/"}, "url"},
		{"hex loopback", webhooks.NewSubscription{URL: "http://0x7f.1/"}, "url"},
		{"zero", webhooks.NewSubscription{URL: "http://0/"}, "url"},
		{"mapped loopback", webhooks.NewSubscription{URL: "http://[::ffff:127.0.0.1]/"}, "url"},
		{"userinfo", webhooks.NewSubscription{URL: "http://evil@127.0.0.1/"}, "url"},
		{"private", webhooks.NewSubscription{URL: "http://10.1.2.3/"}, "url"},
		{"metadata", webhooks.NewSubscription{URL: "http://169.254.169.254/latest/meta-data/"}, "url"},
		{"cgnat", webhooks.NewSubscription{URL: "https://100.64.1.1/"}, "url"},
		{"localhost", webhooks.NewSubscription{URL: "http://localhost:8080/"}, "url"},
		{"fullwidth loopback", webhooks.NewSubscription{URL: "http://１２７.０.０.１/"}, "url"},
		{"fullwidth private with ideographic dots", webhooks.NewSubscription{URL: "http://１０。０。０。１/"}, "url"},
		{"fullwidth localhost", webhooks.NewSubscription{URL: "http://ｌｏｃａｌｈｏｓｔ:8080/"}, "url"},
		{"short secret", webhooks.NewSubscription{URL: good, Secret: ptr("short")}, "secret"},
		{"long description", webhooks.NewSubscription{URL: good, Description: ptr(strings.Repeat("d", 501))}, "description"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := svc.CreateSubscription(ctx, 1, c.ns)
			if f := validation.FieldNames(err); len(f) != 1 || f[0] != c.want {
				t.Errorf("error %v names %v, want [%s]", err, f, c.want)
			}
		})
	}
	// Every bad member is named at once.
	_, err := svc.CreateSubscription(ctx, 1, webhooks.NewSubscription{URL: "http://127.0.0.1/", Events: []string{"nope"}, Secret: ptr("x")})
	if f := strings.Join(validation.FieldNames(err), ","); f != "url,events,secret" {
		t.Errorf("fields %s", f)
	}
	if subs, _ := svc.ListSubscriptions(ctx, 1); len(subs) != 0 {
		t.Errorf("invalid requests stored %d subscriptions", len(subs))
	}
	// A Unicode host is stored and shown in the form that was checked.
	sub, err := svc.CreateSubscription(ctx, 2, webhooks.NewSubscription{URL: "https://ＨＯＯＫＳ.bücher.de/in"})
	if err != nil || sub.URL != "https://hooks.xn--bcher-kva.de/in" {
		t.Errorf("created %q, %v; want the normalised URL", sub.URL, err)
	}
	if got, _ := svc.GetSubscription(ctx, 2, sub.ID); got.URL != "https://hooks.xn--bcher-kva.de/in" {
		t.Errorf("stored %q", got.URL)
	}
	// The loopback allowance admits loopback URLs in plain notation only.
	local := webhooks.New(embedded.NewMemory(), webhooks.Options{Guard: ssrf.Guard{AllowLoopback: true}})
	if _, err := local.CreateSubscription(ctx, 1, webhooks.NewSubscription{URL: "http://127.0.0.1:9000/hook"}); err != nil {
		t.Errorf("loopback allowed: %v", err)
	}
	for _, u := range []string{"http://2130706433/", "http://10.0.0.1/", "http://[::ffff:127.0.0.1]/"} {
		if _, err := local.CreateSubscription(ctx, 1, webhooks.NewSubscription{URL: u}); validation.FieldNames(err) == nil {
			t.Errorf("loopback allowed: %s accepted", u)
		}
	}
}

// A public-looking name that resolves to 127.0.0.1 is accepted at creation
// (names are not resolved then) and refused at connect: no connection
// reaches the listening loopback server, and the delivery dead-letters
// with the reason in every attempt.
func TestConnectTimeGuardStopsDeliveries(t *testing.T) {
	rc := newReceiver(t, secret, nil)
	_, port, _ := net.SplitHostPort(rc.srv.Listener.Addr().String())
	lookup := func(_ context.Context, host string) ([]netip.Addr, error) {
		if host == "hooks.public-looking.com" {
			return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
		}
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	h := newHarness(t, nil, webhooks.Options{Guard: ssrf.Guard{}, Lookup: lookup})
	sub := h.subscribe(t, 1, "http://hooks.public-looking.com:"+port+"/hook", secret, webhooks.AllEvents)
	ev := emit(t, h.tbl, 1, outbox.APIKeyRevoked, outbox.APIKeyRevokedData{KeyID: "key_1", RevokedAt: time.Now()})
	d := h.waitStatus(t, 1, sub.ID, ev.ID, webhooks.StatusDeadLettered, 10*time.Second)
	if len(d.Attempts) != webhooks.MaxAttempts {
		t.Errorf("%d attempts", len(d.Attempts))
	}
	for _, a := range d.Attempts {
		// The tenant sees why, never the address its name resolved to.
		if a.HTTPStatus != nil || a.Reason == nil || *a.Reason != ssrf.ReasonRefusedByPolicy || a.Error == nil ||
			!strings.Contains(*a.Error, "may not be reached") || strings.Contains(*a.Error, "127.0.0.1") {
			t.Errorf("attempt %+v", a)
		}
	}
	if n := rc.conns.Load(); n != 0 {
		t.Fatalf("the loopback server accepted %d connections", n)
	}
	// The same engine with the local allowance reaches it.
	h2 := newHarness(t, nil, webhooks.Options{Guard: ssrf.Guard{AllowLoopback: true}, Lookup: lookup})
	sub2 := h2.subscribe(t, 1, "http://hooks.public-looking.com:"+port+"/hook", secret, webhooks.AllEvents)
	ev2 := emit(t, h2.tbl, 1, outbox.APIKeyRevoked, outbox.APIKeyRevokedData{KeyID: "key_2"})
	h2.waitStatus(t, 1, sub2.ID, ev2.ID, webhooks.StatusSucceeded, 5*time.Second)
	if rc.conns.Load() == 0 {
		t.Error("with the allowance, no connection reached the server")
	}
}

func TestRetrySchedule(t *testing.T) {
	if strconv.Itoa(webhooks.MaxAttempts) != "5" || len(webhooks.RetryWaits) != 5 || webhooks.RetryWaits[0] != 5*time.Second || webhooks.RetryWaits[4] != 120*time.Second {
		t.Error("the schedule is not the spec's")
	}
}

// TestSubscriptionCapUnderConcurrency: creates racing for the last places
// never pass MaxSubscriptions, also for a tenant whose subscriptions
// predate the count; a delete frees a place.
func TestSubscriptionCapUnderConcurrency(t *testing.T) {
	dynamotest.Backends(t, time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC), func(t *testing.T, tbl store.Table, clock *storetest.Clock) {
		ctx := context.Background()
		svc := webhooks.New(tbl, webhooks.Options{Now: clock.Now})
		create := func() (webhooks.Subscription, error) {
			return svc.CreateSubscription(ctx, 1, webhooks.NewSubscription{URL: "https://hooks.example.com/in"})
		}
		race := func(n int) (ok int) {
			var mu sync.Mutex
			var wg sync.WaitGroup
			for range n {
				wg.Go(func() {
					_, err := create()
					var le *validation.LimitError
					if err != nil && !errors.As(err, &le) {
						t.Errorf("create: %v", err)
					}
					mu.Lock()
					defer mu.Unlock()
					if err == nil {
						ok++
					}
				})
			}
			wg.Wait()
			return ok
		}
		count := func() int {
			t.Helper()
			subs, err := svc.ListSubscriptions(ctx, 1)
			if err != nil {
				t.Fatal(err)
			}
			return len(subs)
		}
		for range webhooks.MaxSubscriptions - 3 {
			if _, err := create(); err != nil {
				t.Fatal(err)
			}
		}
		// As a tenant of the release before the count: no count item.
		if err := tbl.Delete(ctx, store.Key{PK: "TENANT#1", SK: "WEBHOOKCOUNT"}, store.Cond{}); err != nil {
			t.Fatal(err)
		}
		if ok := race(12); ok != 3 || count() != webhooks.MaxSubscriptions {
			t.Fatalf("%d of 12 racing creates succeeded, %d subscriptions; want 3 and %d", ok, count(), webhooks.MaxSubscriptions)
		}
		subs, _ := svc.ListSubscriptions(ctx, 1)
		if err := svc.DeleteSubscription(ctx, 1, subs[0].ID); err != nil {
			t.Fatal(err)
		}
		if ok := race(12); ok != 1 || count() != webhooks.MaxSubscriptions {
			t.Fatalf("after a delete %d of 12 racing creates succeeded, %d subscriptions; want 1 and %d", ok, count(), webhooks.MaxSubscriptions)
		}
	})
}

// Failed attempts show the tenant a reason and a safe message: no resolved
// address, no resolver address ("lookup … on 10.0.0.2:53"), no URL; the
// raw error goes to the log with the delivery id. A receiver sending
// megabytes of headers is cut off at the client's cap.
func TestFailedAttemptsNameAReasonAndNoInternals(t *testing.T) {
	huge := newReceiver(t, secret, nil)
	huge.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for i := range 16 {
			w.Header().Set("X-Padding-"+strconv.Itoa(i), strings.Repeat("x", 64<<10))
		}
		w.WriteHeader(http.StatusNoContent)
	})
	closedPort := func() string {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		_, port, _ := net.SplitHostPort(l.Addr().String())
		l.Close()
		return port
	}()
	_, hugePort, _ := net.SplitHostPort(huge.srv.Listener.Addr().String())
	lookup := func(_ context.Context, host string) ([]netip.Addr, error) {
		switch host {
		case "private.example.com":
			return []netip.Addr{netip.MustParseAddr("10.1.2.3")}, nil
		case "loop.example.com":
			return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
		}
		return nil, &net.DNSError{Err: "no such host", Name: host, Server: "10.0.0.2:53", IsNotFound: true}
	}
	var logs logtest.Buffer
	h := newHarness(t, nil, webhooks.Options{Guard: ssrf.Guard{AllowLoopback: true}, Lookup: lookup,
		Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	cases := []struct {
		name, url, reason string
	}{
		{"unresolvable name", "https://gone.example.com/hook", ssrf.ReasonDNS},
		{"private address behind a name", "https://private.example.com/hook", ssrf.ReasonRefusedByPolicy},
		{"nobody listening", "http://loop.example.com:" + closedPort + "/hook", ssrf.ReasonConnectionRefused},
		{"huge headers", "http://loop.example.com:" + hugePort + "/hook", ssrf.ReasonInvalidResponse},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tenant := int32(10 + i)
			sub := h.subscribe(t, tenant, c.url, secret, webhooks.AllEvents)
			d, err := h.svc.Ping(context.Background(), tenant, "key_1", sub.ID)
			if err != nil {
				t.Fatal(err)
			}
			d = h.waitAttempts(t, tenant, sub.ID, d.ID, 1, 10*time.Second)
			a := d.Attempts[0]
			if a.Reason == nil || *a.Reason != c.reason || a.Error == nil || a.HTTPStatus != nil {
				t.Fatalf("attempt %+v (reason %v), want reason %s", a, deref(a.Reason), c.reason)
			}
			for _, leak := range []string{"10.0.0.2", ":53", "10.1.2.3", "127.0.0.1", "lookup", "dial tcp", c.url} {
				if strings.Contains(*a.Error, leak) {
					t.Errorf("tenant-visible error %q holds %q", *a.Error, leak)
				}
			}
			// The attempt is stored before its log line is written: wait
			// for the line a little.
			for deadline := time.Now().Add(5 * time.Second); !strings.Contains(logs.String(), `"delivery_id":"`+d.ID+`"`); {
				if time.Now().After(deadline) {
					t.Fatalf("no log line names delivery %s", d.ID)
				}
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
	// The log keeps the raw reason for the operator.
	if !strings.Contains(logs.String(), "10.0.0.2:53") {
		t.Error("the raw DNS error is not in the logs")
	}
}

func deref(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}
