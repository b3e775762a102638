package destinations_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/destinations"
	"github.com/brandlens/brandlens/shared/secrets"
	"github.com/brandlens/brandlens/shared/ssrf"
	"github.com/brandlens/brandlens/shared/ssrf/ssrftest"
	"github.com/brandlens/brandlens/shared/store"
	"github.com/brandlens/brandlens/shared/store/dynamotest"
	"github.com/brandlens/brandlens/shared/store/embedded"
	"github.com/brandlens/brandlens/shared/store/storetest"
	"github.com/brandlens/brandlens/shared/validation"
)

func TestMain(m *testing.M) { dynamotest.Main(m) }

func ptr[T any](v T) *T { return &v }

func fields(err error) []string {
	var ve *validation.Error
	if !errors.As(err, &ve) {
		return nil
	}
	var out []string
	for _, f := range ve.Fields {
		out = append(out, f.Field)
	}
	return out
}

// Destinations refuse every URL form event subscriptions refuse: the
// same table of inputs (ssrftest) runs through both.
func TestWebhookURLRefusesSSRF(t *testing.T) {
	ctx := context.Background()
	svc := destinations.NewService(embedded.NewMemory(), ssrf.Guard{}, box(), nil)
	for _, c := range ssrftest.Refused {
		t.Run(c.Name, func(t *testing.T) {
			_, err := svc.Create(ctx, 1, destinations.New{Type: destinations.TypeWebhook, Name: "blog", URL: c.URL})
			if f := fields(err); len(f) != 1 || f[0] != "url" {
				t.Errorf("%q: error %v names %v, want [url]", c.URL, err, f)
			}
		})
	}
	local := destinations.NewService(embedded.NewMemory(), ssrf.Guard{AllowLoopback: true}, box(), nil)
	if _, err := local.Create(ctx, 1, destinations.New{Type: destinations.TypeWebhook, Name: "local", URL: "http://127.0.0.1:9000/in"}); err != nil {
		t.Errorf("loopback allowance: %v", err)
	}
	for _, c := range ssrftest.RefusedWithLoopback {
		if _, err := local.Create(ctx, 1, destinations.New{Type: destinations.TypeWebhook, Name: "x", URL: c.URL}); fields(err) == nil {
			t.Errorf("loopback allowance: %s accepted", c.URL)
		}
	}
	// An update is checked the same way.
	d, err := svc.Create(ctx, 1, destinations.New{Type: destinations.TypeWebhook, Name: "blog", URL: "https://blog.example.com/hook"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range ssrftest.Refused {
		if _, err := svc.Update(ctx, 1, d.ID, destinations.Patch{URL: ptr(c.URL)}); fields(err) == nil {
			t.Errorf("update to %q accepted", c.URL)
		}
	}
}

func TestValidation(t *testing.T) {
	ctx := context.Background()
	svc := destinations.NewService(embedded.NewMemory(), ssrf.Guard{}, box(), nil)
	good := "https://blog.example.com/hook"
	cases := []struct {
		name string
		n    destinations.New
		want string
	}{
		{"unknown type", destinations.New{Type: "ftp", Name: "x", URL: good}, "type"},
		{"no name", destinations.New{Type: destinations.TypeWebhook, URL: good}, "name"},
		{"long name", destinations.New{Type: destinations.TypeWebhook, Name: strings.Repeat("n", 201), URL: good}, "name"},
		{"short secret", destinations.New{Type: destinations.TypeWebhook, Name: "x", URL: good, Secret: ptr("short")}, "secret"},
		{"long author", destinations.New{Type: destinations.TypeWebhook, Name: "x", URL: good, DefaultAuthor: ptr(strings.Repeat("a", 201))}, "defaultAuthor"},
		{"control char author", destinations.New{Type: destinations.TypeWebhook, Name: "x", URL: good, DefaultAuthor: ptr("a\x00b")}, "defaultAuthor"},
		{"bad indexnow key", destinations.New{Type: destinations.TypeWebhook, Name: "x", URL: good, IndexNowKey: ptr("short"), IndexNowHost: ptr("blog.example.com")}, "indexNowKey"},
		{"indexnow key without host", destinations.New{Type: destinations.TypeWebhook, Name: "x", URL: good, IndexNowKey: ptr("0123456789abcdef")}, "indexNowHost"},
		{"indexnow host with scheme", destinations.New{Type: destinations.TypeWebhook, Name: "x", URL: good, IndexNowKey: ptr("0123456789abcdef"), IndexNowHost: ptr("https://blog.example.com")}, "indexNowHost"},
		{"indexnow host without key", destinations.New{Type: destinations.TypeWebhook, Name: "x", URL: good, IndexNowHost: ptr("blog.example.com")}, "indexNowKey"},
		{"own site with url", destinations.New{Type: destinations.TypeOwnSite, Name: "x", URL: good}, "url"},
		{"own site with secret", destinations.New{Type: destinations.TypeOwnSite, Name: "x", Secret: ptr("0123456789abcdef0")}, "secret"},
		{"own site bad section", destinations.New{Type: destinations.TypeOwnSite, Name: "x", SiteContentType: ptr("blog")}, "siteContentType"},
		{"section on webhook", destinations.New{Type: destinations.TypeWebhook, Name: "x", URL: good, SiteContentType: ptr("news")}, "siteContentType"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := svc.Create(ctx, 1, c.n)
			if f := fields(err); len(f) != 1 || f[0] != c.want {
				t.Errorf("error %v names %v, want [%s]", err, f, c.want)
			}
		})
	}
	if ds, _ := svc.List(ctx, 1); len(ds) != 0 {
		t.Errorf("refused requests stored %d destinations", len(ds))
	}
}

// box seals with package secrets over an in-memory keyring.
func box() destinations.Sealed {
	return destinations.Sealed{Sealer: secrets.NewSealer(secrets.NewMemoryKeyring())}
}

func TestLifecycle(t *testing.T) {
	dynamotest.Backends(t, time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC), func(t *testing.T, tbl store.Table, clock *storetest.Clock) {
		ctx := context.Background()
		sb := box()
		svc := destinations.NewService(tbl, ssrf.Guard{}, sb, clock.Now)
		d, err := svc.Create(ctx, 1, destinations.New{Type: destinations.TypeWebhook, Name: " Blog ", URL: "https://blog.example.com/hook",
			Secret: ptr("a-secret-of-enough-length"), DefaultAuthor: ptr("Ada Lovelace"),
			IndexNowKey: ptr("0123456789abcdef"), IndexNowHost: ptr("Blog.Example.com")})
		if err != nil {
			t.Fatal(err)
		}
		if d.Name != "Blog" || !d.HasSecret() || d.IndexNowHost != "blog.example.com" || !d.IndexNow() {
			t.Errorf("created %+v", d)
		}
		if strings.Contains(d.SealedSecret, "a-secret-of-enough-length") {
			t.Error("the secret is stored unsealed")
		}
		// The envelope is bound to its destination: copied onto another, it
		// does not open.
		if _, err := sb.Open(ctx, 1, "dst_other", d.SealedSecret); err == nil {
			t.Error("a sealed secret opened for another destination")
		}
		got, err := svc.Get(ctx, 1, d.ID)
		if err != nil {
			t.Fatal(err)
		}
		if sec, err := svc.Secret(ctx, got); err != nil || sec != "a-secret-of-enough-length" {
			t.Errorf("secret %q, %v", sec, err)
		}
		if _, err := svc.Get(ctx, 2, d.ID); !errors.Is(err, destinations.ErrNotFound) {
			t.Errorf("another tenant reads it: %v", err)
		}
		// Clearing the secret makes it unsigned.
		u, err := svc.Update(ctx, 1, d.ID, destinations.Patch{Secret: ptr(""), Name: ptr("Blog 2")})
		if err != nil || u.HasSecret() || u.Name != "Blog 2" || u.URL != d.URL {
			t.Errorf("update: %+v %v", u, err)
		}
		own, err := svc.Create(ctx, 1, destinations.New{Type: destinations.TypeOwnSite, Name: "Our knowledge base"})
		if err != nil || own.SiteContentType != "knowledge" || own.URL != "" {
			t.Fatalf("own site: %+v %v", own, err)
		}
		ds, err := svc.List(ctx, 1)
		if err != nil || len(ds) != 2 {
			t.Fatalf("list: %d %v", len(ds), err)
		}
		if err := svc.Delete(ctx, 1, d.ID); err != nil {
			t.Fatal(err)
		}
		if err := svc.Delete(ctx, 1, d.ID); !errors.Is(err, destinations.ErrNotFound) {
			t.Errorf("second delete: %v", err)
		}
	})
}

// Concurrent creates never pass the per-tenant cap.
func TestCapUnderConcurrency(t *testing.T) {
	dynamotest.Backends(t, time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC), func(t *testing.T, tbl store.Table, clock *storetest.Clock) {
		ctx := context.Background()
		svc := destinations.NewService(tbl, ssrf.Guard{}, box(), nil)
		for i := 0; i < destinations.MaxPerTenant-3; i++ {
			if _, err := svc.Create(ctx, 1, destinations.New{Type: destinations.TypeOwnSite, Name: "d"}); err != nil {
				t.Fatal(err)
			}
		}
		var wg sync.WaitGroup
		for i := 0; i < 10; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, _ = svc.Create(ctx, 1, destinations.New{Type: destinations.TypeOwnSite, Name: "d"})
			}()
		}
		wg.Wait()
		ds, err := svc.List(ctx, 1)
		if err != nil || len(ds) != destinations.MaxPerTenant {
			t.Errorf("%d destinations (%v), want %d", len(ds), err, destinations.MaxPerTenant)
		}
	})
}

// After a key rotation ResealSecrets seals every destination secret under
// the new key, once; the secret still opens, and a secret that no longer
// opens (its key lost) is left alone rather than failing the sweep.
func TestResealSecretsAfterRotation(t *testing.T) {
	ctx := context.Background()
	kr := secrets.NewMemoryKeyring()
	sb := destinations.Sealed{Sealer: secrets.NewSealer(kr)}
	tbl := embedded.NewMemory()
	svc := destinations.NewService(tbl, ssrf.Guard{}, sb, nil)
	d, err := svc.Create(ctx, 1, destinations.New{Type: destinations.TypeWebhook, Name: "Blog", URL: "https://blog.example.com/hook",
		Secret: ptr("a-secret-of-enough-length")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Create(ctx, 1, destinations.New{Type: destinations.TypeOwnSite, Name: "Ours"}); err != nil {
		t.Fatal(err)
	}
	if n, err := svc.ResealSecrets(ctx, 1); err != nil || n != 0 {
		t.Fatalf("before a rotation: resealed %d, %v", n, err)
	}
	if _, err := kr.Rotate(); err != nil {
		t.Fatal(err)
	}
	if sb.Current(d.SealedSecret) {
		t.Fatal("a secret sealed under the old key counts as current")
	}
	if n, err := svc.ResealSecrets(ctx, 1); err != nil || n != 1 {
		t.Fatalf("after a rotation: resealed %d, %v; want 1", n, err)
	}
	got, err := svc.Get(ctx, 1, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.SealedSecret == d.SealedSecret || !sb.Current(got.SealedSecret) {
		t.Error("the secret was not sealed under the new key")
	}
	if sec, err := svc.Secret(ctx, got); err != nil || sec != "a-secret-of-enough-length" {
		t.Errorf("resealed secret opens as %q, %v", sec, err)
	}
	if n, err := svc.ResealSecrets(ctx, 1); err != nil || n != 0 {
		t.Errorf("second sweep resealed %d, %v", n, err)
	}

	// Sealed by another keyring: it does not open here and is left alone.
	lost := destinations.NewService(tbl, ssrf.Guard{}, destinations.Sealed{Sealer: secrets.NewSealer(secrets.NewMemoryKeyring())}, nil)
	if _, err := lost.Create(ctx, 2, destinations.New{Type: destinations.TypeWebhook, Name: "Lost", URL: "https://lost.example.com/hook",
		Secret: ptr("another-secret-of-enough-length")}); err != nil {
		t.Fatal(err)
	}
	if n, err := svc.ResealSecrets(ctx, 2); err != nil || n != 0 {
		t.Errorf("a secret whose key is lost: resealed %d, %v; want 0 and no error", n, err)
	}
}
