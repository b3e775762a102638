package publish

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/brandlens/brandlens/shared/ssrf"
)

// A webhook receiver has the spec's whole 30 s to answer, its headers
// included: an answer after 15 s publishes, one after 31 s times out. The
// service's own guarded client runs over an in-memory connection in a
// synctest bubble, so the waits take no real time.
func TestWebhookDeliveryTimeout(t *testing.T) {
	cases := []struct {
		name    string
		answer  time.Duration
		wantErr string
	}{
		{"answer after the guard's default header wait", 15 * time.Second, ""},
		{"answer after 30 s", DeliveryTimeout + time.Second, "timeout: no answer within 30s"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := NewService(Deps{Guard: ssrf.Guard{}})
				tr := s.webhook.Transport.(*http.Transport)
				defer tr.CloseIdleConnections()
				srv, cli := net.Pipe()
				defer srv.Close()
				done := make(chan struct{})
				defer close(done)
				tr.DialContext = func(context.Context, string, string) (net.Conn, error) { return cli, nil }
				go func() {
					req, err := http.ReadRequest(bufio.NewReader(srv))
					if err != nil {
						return
					}
					req.Body.Close()
					select {
					case <-done: // the client gave up first
						return
					case <-time.After(c.answer):
					}
					_, _ = srv.Write([]byte("HTTP/1.1 204 No Content\r\n\r\n"))
				}()
				a := Post(t.Context(), Target{URL: "http://receiver.example/hook", Client: s.webhook}, "01opp", []byte(`{}`), s.deliveryWait)
				if c.wantErr == "" && (a.Err != "" || a.Status != http.StatusNoContent) {
					t.Errorf("attempt %+v, want 204", a)
				}
				if c.wantErr != "" && !strings.Contains(a.Err, c.wantErr) {
					t.Errorf("attempt %+v, want %q", a, c.wantErr)
				}
			})
		})
	}
}
