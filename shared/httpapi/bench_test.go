package httpapi_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/brandlens/brandlens/shared/app"
	"github.com/brandlens/brandlens/shared/seed"
	"github.com/brandlens/brandlens/shared/store/embedded"
)

// benchServer is a server over an in-memory store holding n citations.
func benchServer(b *testing.B, n int) http.Handler {
	b.Helper()
	local, err := app.NewLocal(app.LocalOptions{Table: embedded.NewMemory(), KeySecret: testSecret,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	svc := local.Services.Repos
	ctx := context.Background()
	f := seed.File{Tenants: []seed.Tenant{{Name: "Bench", RPMLimit: 1 << 40,
		Brand:       &seed.Brand{Name: "Acme Notes"},
		Competitors: []seed.Brand{{Name: "Notion"}, {Name: "Evernote"}},
		Queries:     []seed.Query{{Text: "best note taking app"}, {Text: "notes for teams"}, {Text: "evernote alternatives"}},
		APIKeys:     []seed.APIKey{{Key: keyAPublish, Scopes: []string{"publish"}}}}}}
	if _, err := seed.Apply(ctx, svc, f); err != nil {
		b.Fatal(err)
	}
	if n > 0 {
		if _, err := seed.SyntheticCitations(ctx, svc, 1, n, 1); err != nil {
			b.Fatal(err)
		}
	}
	return local.API
}

func benchGet(b *testing.B, h http.Handler, path string) {
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("X-API-Key", keyAPublish)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != 200 {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
}

func BenchmarkGetMe(b *testing.B) { benchGet(b, benchServer(b, 0), "/api/v1/me") }

func BenchmarkListCitationsFiltered100k(b *testing.B) {
	benchGet(b, benchServer(b, 100_000), "/api/v1/citations?platform=chatgpt&hasMention=true&page=3&pageSize=20")
}
