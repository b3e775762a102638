package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/signing"
)

// client calls a running brandlens serve with one key.
type client struct {
	t    *testing.T
	base string
	key  string
}

func (c client) do(method, path, body string, want int, out any) {
	c.t.Helper()
	req, _ := http.NewRequest(method, c.base+path, strings.NewReader(body))
	req.Header.Set("X-API-Key", c.key)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		c.t.Fatalf("%s %s: %d %s, want %d", method, path, res.StatusCode, b, want)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			c.t.Fatalf("%s %s: %v: %s", method, path, err, b)
		}
	}
}

// job waits for a job to end and returns its status.
func (c client) job(id string) map[string]any {
	c.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		var j map[string]any
		c.do("GET", "/api/v1/jobs/"+id, "", 200, &j)
		if s := j["status"]; s == "succeeded" || s == "failed" || s == "partial" {
			return j
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("job %s did not end: %v", id, j)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (c client) write(path, body string) map[string]any {
	c.t.Helper()
	var acc struct{ JobID string }
	c.do("POST", path, body, 202, &acc)
	j := c.job(acc.JobID)
	if j["status"] != "succeeded" {
		c.t.Fatalf("POST %s: job %v", path, j)
	}
	return j
}

// The content loop closed by `brandlens serve` itself, on the demo tenant
// with simulated platforms and the offline writer: a run, gap detection, a
// brief and an article, then a publish to a loopback receiver (admitted by
// BRANDLENS_ALLOW_LOOPBACK_TARGETS=1) that gets exactly one signed POST per
// publish, and a publish to the service's own site, whose page serves.
func TestServePublishesToALoopbackReceiver(t *testing.T) {
	for k, v := range map[string]string{"BRANDLENS_TABLE": "", "BRANDLENS_STORE": "", "BRANDLENS_KEY_SECRET": "", "BRANDLENS_SEED_FILE": "",
		"BRANDLENS_SCHEDULER_INTERVAL": "0s", "BRANDLENS_PROVIDERS": "", "BRANDLENS_REPLAY_FILE": "", "BRANDLENS_MODELS": "",
		"BRANDLENS_SITE_CONTENT_SECRET": "", "BRANDLENS_SITE_BASE_URL": "", "BRANDLENS_ALLOW_LOOPBACK_TARGETS": "1"} {
		t.Setenv(k, v)
	}
	data := filepath.Join(t.TempDir(), "data")
	s := startServeArgs(t, "--data-dir", data)
	key, err := os.ReadFile(filepath.Join(data, "demo-api-key"))
	if err != nil {
		t.Fatal(err)
	}
	c := client{t: t, base: s.base, key: strings.TrimSpace(string(key))}

	const secret = "loopback-receiver-secret-01"
	var (
		mu    sync.Mutex
		posts [][]byte
	)
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if !signing.Verify([]byte(secret), b, r.Header.Get("X-Service-Signature")) || r.Header.Get("X-Service-Event") != "content.published" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		mu.Lock()
		posts = append(posts, b)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"url":"https://blog.acmenotes.com/notes/researchers"}`)
	}))
	defer rc.Close()

	var q struct{ ID int32 }
	c.do("POST", "/api/v1/queries", `{"text":"best note app for researchers","platforms":["chatgpt","perplexity","claude"]}`, 201, &q)
	c.write(fmt.Sprintf("/api/v1/queries/%d/run", q.ID), `{"samples":3}`)
	c.write("/api/v1/gaps/detect", `{"brandProfileId":1}`)
	var gaps struct {
		Items []struct {
			QueryID       int32
			OpportunityID string
		}
	}
	c.do("GET", "/api/v1/gaps?status=open", "", 200, &gaps)
	opp := ""
	for _, g := range gaps.Items {
		if g.QueryID == q.ID {
			opp = g.OpportunityID
		}
	}
	if opp == "" {
		t.Fatalf("no gap for query %d: %+v", q.ID, gaps.Items)
	}
	c.write("/api/v1/opportunities/"+opp+"/generate-brief", `{"contentFormat":"faq"}`)
	c.write("/api/v1/opportunities/"+opp+"/generate-content", `{}`)

	var dest struct{ ID string }
	c.do("POST", "/api/v1/destinations", `{"type":"webhook","name":"Loopback CMS","url":"`+rc.URL+`/publish","secret":"`+secret+`"}`, 201, &dest)
	for i := 1; i <= 2; i++ {
		c.write("/api/v1/opportunities/"+opp+"/publish", `{"destinationId":"`+dest.ID+`","mode":"execute"}`)
		mu.Lock()
		n := len(posts)
		mu.Unlock()
		if n != i {
			t.Fatalf("after publish %d the receiver got %d POSTs", i, n)
		}
	}
	var o struct {
		Status  string
		Publish struct{ LiveURL string }
	}
	c.do("GET", "/api/v1/opportunities/"+opp, "", 200, &o)
	if o.Status != "published" || o.Publish.LiveURL != "https://blog.acmenotes.com/notes/researchers" {
		t.Fatalf("opportunity %+v", o)
	}

	var site struct{ ID string }
	c.do("POST", "/api/v1/destinations", `{"type":"own_site","name":"Research","siteContentType":"research"}`, 201, &site)
	c.write("/api/v1/opportunities/"+opp+"/publish", `{"destinationId":"`+site.ID+`","mode":"execute"}`)
	c.do("GET", "/api/v1/opportunities/"+opp, "", 200, &o)
	if !strings.HasPrefix(o.Publish.LiveURL, s.base+"/site/research/") {
		t.Fatalf("own-site live URL %q", o.Publish.LiveURL)
	}
	res, err := http.Get(o.Publish.LiveURL)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(page), `<link rel="canonical" href="`+o.Publish.LiveURL+`">`) {
		t.Fatalf("own-site page %d %s", res.StatusCode, page)
	}
}
