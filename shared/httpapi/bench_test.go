package httpapi_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/citations"
	"github.com/brandlens/brandlens/shared/httpapi"
	"github.com/brandlens/brandlens/shared/httpapi/apitest"
	"github.com/brandlens/brandlens/shared/platforms"
	"github.com/brandlens/brandlens/shared/providers"
	"github.com/brandlens/brandlens/shared/recaptcha"
	"github.com/brandlens/brandlens/shared/seed"
	"github.com/brandlens/brandlens/shared/store/embedded"
)

// benchServer is a server over an in-memory store holding n citations of
// one tenant whose three queries run on every platform. The fixture stays
// as it was when the benchmarks were first recorded, so that figures
// compare across changes (the kit's tenants would change the filters'
// selectivity).
func benchServer(b *testing.B, n int) (http.Handler, *app.Services) {
	b.Helper()
	// The brand check needs the platforms' providers since it was wired.
	provs := providers.Set{}
	for _, pf := range platforms.All {
		provs[pf] = providers.NewSimulated(pf)
	}
	local, err := app.NewLocal(app.LocalOptions{Table: embedded.NewMemory(), KeySecret: apitest.KeySecret, Providers: provs,
		Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)), BrandCheck: app.BrandCheckOptions{Verifier: recaptcha.Bypass{}}})
	if err != nil {
		b.Fatal(err)
	}
	svc := local.Services
	ctx := context.Background()
	f := seed.File{Tenants: []seed.Tenant{{Name: "Bench", RPMLimit: 1 << 40,
		Brand:       &seed.Brand{Name: "Acme Notes"},
		Competitors: []seed.Brand{{Name: "Notion"}, {Name: "Evernote"}},
		Queries:     []seed.Query{{Text: "best note taking app"}, {Text: "notes for teams"}, {Text: "evernote alternatives"}},
		APIKeys:     []seed.APIKey{{Key: apitest.KeyAPublish, Scopes: []string{"publish"}}}}}}
	if _, err := seed.Apply(ctx, svc.Repos, f); err != nil {
		b.Fatal(err)
	}
	if n > 0 {
		if _, err := seed.SyntheticCitations(ctx, svc.Repos, 1, n, 1); err != nil {
			b.Fatal(err)
		}
	}
	// What `brandlens serve` does at start.
	if err := app.Migrate(ctx, svc.Repos, nil); err != nil {
		b.Fatal(err)
	}
	return httpapi.New(svc.HTTPDeps(nil)), svc
}

func benchGet(b *testing.B, h http.Handler, path string) {
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("X-API-Key", apitest.KeyAPublish)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != 200 {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
}

func BenchmarkGetMe(b *testing.B) {
	h, _ := benchServer(b, 0)
	benchGet(b, h, "/api/v1/me")
}

func BenchmarkListCitationsFiltered100k(b *testing.B) {
	h, _ := benchServer(b, 100_000)
	benchGet(b, h, "/api/v1/citations?platform=chatgpt&hasMention=true&page=3&pageSize=20")
}

// Deep reads: a cursor 50,000 citations in costs what an early page costs;
// a numbered page at the depth cap reads the 10,000 matches before it.
func BenchmarkListCitationsDeep100k(b *testing.B) {
	h, svc := benchServer(b, 100_000)
	res, err := svc.Citations.List(context.Background(), 1, citations.Filter{}, citations.PageRequest{Size: 1, Offset: 50_000})
	if err != nil || res.Next == "" {
		b.Fatal(res.Next, err)
	}
	b.Run("cursor-at-50000", func(b *testing.B) {
		benchGet(b, h, "/api/v1/citations?pageSize=20&cursor="+res.Next)
	})
	b.Run("page-at-cap", func(b *testing.B) {
		benchGet(b, h, "/api/v1/citations?pageSize=20&page=500")
	})
}
