package publish_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/publish"
	"github.com/brandlens/brandlens/shared/signing"
	"github.com/brandlens/brandlens/shared/ssrf"
)

// Channel B over real loopback HTTP: one signed POST with the spec's
// headers; the live URL by the spec's precedence; a non-2xx answer fails
// with its status; redirects are not followed.
func TestPostChannelB(t *testing.T) {
	secret := []byte("a-destination-secret")
	body := []byte(`{"SchemaVersion":"1.0","ContentId":"01opp","Slug":"notes"}`)
	cases := []struct {
		name     string
		answer   func(w http.ResponseWriter)
		wantLive string // "" → the endpoint
		wantErr  string
	}{
		{"location header first", func(w http.ResponseWriter) {
			w.Header().Set("Location", "https://blog.example.com/notes")
			w.WriteHeader(201)
			_, _ = io.WriteString(w, `{"url":"https://other.example.com/x"}`)
		}, "https://blog.example.com/notes", ""},
		{"json url", func(w http.ResponseWriter) {
			_, _ = io.WriteString(w, `{"url":"https://blog.example.com/u","location":"https://blog.example.com/l"}`)
		}, "https://blog.example.com/u", ""},
		{"json location", func(w http.ResponseWriter) {
			_, _ = io.WriteString(w, `{"location":"https://blog.example.com/l","publishedUrl":"https://blog.example.com/p"}`)
		}, "https://blog.example.com/l", ""},
		{"json publishedUrl", func(w http.ResponseWriter) {
			_, _ = io.WriteString(w, `{"publishedUrl":"https://blog.example.com/p"}`)
		}, "https://blog.example.com/p", ""},
		{"endpoint when none", func(w http.ResponseWriter) { w.WriteHeader(204) }, "", ""},
		{"500 fails with its status", func(w http.ResponseWriter) { w.WriteHeader(500) }, "", "HTTP 500"},
		{"redirect not followed", func(w http.ResponseWriter) {
			w.Header().Set("Location", "https://elsewhere.example.com/")
			w.WriteHeader(302)
		}, "", "HTTP 302"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var posts atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				posts.Add(1)
				got, _ := io.ReadAll(r.Body)
				if string(got) != string(body) || r.Method != http.MethodPost {
					t.Errorf("%s body %s", r.Method, got)
				}
				if !signing.Verify(secret, got, r.Header.Get(signing.Header)) {
					t.Error("the signature does not verify over the raw body")
				}
				if r.Header.Get("X-Service-Event") != "content.published" || r.Header.Get("X-Service-Content-Id") != "01opp" ||
					r.Header.Get("Content-Type") != "application/json" {
					t.Errorf("headers %v", r.Header)
				}
				c.answer(w)
			}))
			defer srv.Close()
			client := ssrf.Guard{AllowLoopback: true}.NewClient(ssrf.ClientOptions{})
			a := publish.Post(context.Background(), publish.Target{URL: srv.URL + "/hook", Secret: secret, Client: client}, "01opp", body, 30*time.Second)
			if posts.Load() != 1 {
				t.Errorf("%d POSTs, want exactly 1", posts.Load())
			}
			if c.wantErr != "" {
				if !strings.Contains(a.Err, c.wantErr) || a.LiveURL != "" {
					t.Errorf("attempt %+v, want error %q", a, c.wantErr)
				}
				return
			}
			want := c.wantLive
			if want == "" {
				want = srv.URL + "/hook"
			}
			if a.Err != "" || a.LiveURL != want {
				t.Errorf("attempt %+v, want live URL %s", a, want)
			}
		})
	}
}

// The guarded client refuses a loopback destination unless the local
// allowance is on: nothing reaches the server.
func TestPostSSRFGuard(t *testing.T) {
	var posts atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { posts.Add(1) }))
	defer srv.Close()
	a := publish.Post(context.Background(), publish.Target{URL: srv.URL, Client: ssrf.Guard{}.NewClient(ssrf.ClientOptions{})}, "x", []byte(`{}`), 5*time.Second)
	if a.Err == "" || posts.Load() != 0 {
		t.Errorf("attempt %+v, %d posts", a, posts.Load())
	}
}

func TestLiveURLRelativeLocation(t *testing.T) {
	if got := publish.LiveURL("https://blog.example.com/api/hook", "/posts/notes", nil); got != "https://blog.example.com/posts/notes" {
		t.Errorf("relative Location → %s", got)
	}
	if got := publish.LiveURL("https://blog.example.com/api/hook", "javascript:alert(1)", []byte(`{"url":"ftp://x/y"}`)); got != "https://blog.example.com/api/hook" {
		t.Errorf("non-http live URLs → %s", got)
	}
}
