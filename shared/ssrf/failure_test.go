package ssrf_test

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/ssrf"
)

// Every transport failure is named by a reason, with a message that holds
// no address, resolver or URL of the raw error.
func TestClassify(t *testing.T) {
	wrap := func(err error) error {
		return &url.Error{Op: "Post", URL: "https://hooks.example.com/in?token=s3cr3t", Err: err}
	}
	dial := func(err error) error {
		return &net.OpError{Op: "dial", Net: "tcp", Source: &net.TCPAddr{IP: net.ParseIP("10.0.3.7"), Port: 40112},
			Addr: &net.TCPAddr{IP: net.ParseIP("203.0.113.9"), Port: 443}, Err: err}
	}
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"denied at connect", wrap(dial(fmt.Errorf("%w: 10.1.2.3 is in 10.0.0.0/8", ssrf.ErrDenied))), ssrf.ReasonRefusedByPolicy},
		{"no such host", wrap(dial(&net.DNSError{Err: "no such host", Name: "hooks.example.com", Server: "10.0.0.2:53", IsNotFound: true})), ssrf.ReasonDNS},
		{"resolver timeout", wrap(&net.DNSError{Err: "i/o timeout", Name: "hooks.example.com", Server: "10.0.0.2:53", IsTimeout: true}), ssrf.ReasonDNS},
		{"deadline", wrap(context.DeadlineExceeded), ssrf.ReasonTimeout},
		{"dial timeout", wrap(dial(os.ErrDeadlineExceeded)), ssrf.ReasonTimeout},
		{"refused", wrap(dial(os.NewSyscallError("connect", syscall.ECONNREFUSED))), ssrf.ReasonConnectionRefused},
		{"reset", wrap(dial(os.NewSyscallError("read", syscall.ECONNRESET))), ssrf.ReasonNetwork},
		{"unknown authority", wrap(&tlsVerifyError{x509.UnknownAuthorityError{}}), ssrf.ReasonTLS},
		{"wrong host", wrap(x509.HostnameError{Certificate: &x509.Certificate{}, Host: "10.0.0.8"}), ssrf.ReasonTLS},
		{"tls alert", wrap(errors.New("tls: handshake failure from 10.0.0.8:443")), ssrf.ReasonTLS},
		{"huge headers", wrap(errors.New("net/http: server response headers exceeded 16384 bytes; aborted")), ssrf.ReasonInvalidResponse},
		{"malformed", wrap(errors.New(`net/http: HTTP/1.x transport connection broken: malformed HTTP response "\x00\x00"`)), ssrf.ReasonInvalidResponse},
		{"other", wrap(errors.New("read tcp 10.0.3.7:40112->203.0.113.9:443: use of closed network connection")), ssrf.ReasonNetwork},
		{"nil", nil, ssrf.ReasonNetwork},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := ssrf.Classify(c.err)
			if f.Reason != c.want {
				t.Errorf("reason %q, want %q (%v)", f.Reason, c.want, c.err)
			}
			for _, leak := range []string{"10.", "203.0", ":53", ":443", "hooks.example.com", "s3cr3t", "lookup"} {
				if strings.Contains(f.Message, leak) {
					t.Errorf("message %q holds %q", f.Message, leak)
				}
			}
			if f.Message == "" {
				t.Error("no message")
			}
		})
	}
}

type tlsVerifyError struct{ err error }

func (e *tlsVerifyError) Error() string { return "tls: failed to verify certificate: " + e.err.Error() }
func (e *tlsVerifyError) Unwrap() error { return e.err }

// A destination that answers with megabytes of headers is cut off at the
// cap instead of being buffered (Go's default would read 10 MiB).
func TestClientCapsResponseHeaders(t *testing.T) {
	huge := strings.Repeat("x", 1<<20)
	srv, _ := countingServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Padding", huge)
		w.WriteHeader(http.StatusNoContent)
	})
	small, _ := countingServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Padding", strings.Repeat("x", 8<<10))
		w.WriteHeader(http.StatusNoContent)
	})
	c := ssrf.Guard{AllowLoopback: true}.NewClient(ssrf.ClientOptions{Timeout: 5 * time.Second})
	res, err := c.Post(srv.URL, "application/json", strings.NewReader(`{}`))
	if err == nil {
		res.Body.Close()
		t.Fatalf("1 MiB of headers accepted (status %d)", res.StatusCode)
	}
	if f := ssrf.Classify(err); f.Reason != ssrf.ReasonInvalidResponse {
		t.Errorf("classified %+v (%v), want %s", f, err, ssrf.ReasonInvalidResponse)
	}
	// Headers within the cap pass.
	res, err = c.Post(small.URL, "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatalf("8 KiB of headers: %v", err)
	}
	res.Body.Close()
	tr := c.Transport.(*http.Transport)
	if tr.MaxResponseHeaderBytes != ssrf.DefaultMaxResponseHeaderBytes || tr.ResponseHeaderTimeout != 5*time.Second {
		t.Errorf("transport caps %d bytes, %s", tr.MaxResponseHeaderBytes, tr.ResponseHeaderTimeout)
	}
}
