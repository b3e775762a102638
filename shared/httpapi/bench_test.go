package httpapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/brandlens/brandlens/shared/httpapi/apitest"
	"github.com/brandlens/brandlens/shared/seed"
)

// benchServer is the kit's API (in memory) with n citations of tenant A.
func benchServer(b *testing.B, n int) http.Handler {
	b.Helper()
	api := apitest.NewHandler(b, apitest.Options{RPM: 1 << 40})
	if n > 0 {
		if _, err := seed.SyntheticCitations(context.Background(), api.Svc, api.A.ID, n, 1); err != nil {
			b.Fatal(err)
		}
	}
	return api.Handler
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

func BenchmarkGetMe(b *testing.B) { benchGet(b, benchServer(b, 0), "/api/v1/me") }

func BenchmarkListCitationsFiltered100k(b *testing.B) {
	benchGet(b, benchServer(b, 100_000), "/api/v1/citations?platform=chatgpt&hasMention=true&page=3&pageSize=20")
}
