package ssrf_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	dny "code.dny.dev/ssrf"

	"github.com/brandlens/brandlens/shared/ssrf"
)

// The ranges of reference/reliability.md, checked at their first, last and
// a middle address.
var listed = []string{
	"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
	"192.0.0.0/24", "192.0.2.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24",
	"224.0.0.0/4", "240.0.0.0/4",
	"::/128", "::1/128", "::ffff:0:0/96", "64:ff9b::/96", "2001:db8::/32", "2002::/16", "fc00::/7", "fe80::/10", "ff00::/8",
}

func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Masked().Addr().AsSlice()
	bits := p.Bits()
	for i := range b {
		for j := 0; j < 8; j++ {
			if i*8+j >= bits {
				b[i] |= 0x80 >> j
			}
		}
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}

func midAddr(p netip.Prefix) netip.Addr {
	b := p.Masked().Addr().AsSlice()
	if p.Bits() < len(b)*8 {
		b[len(b)-1] |= 0x05
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}

func TestEveryListedRangeIsDenied(t *testing.T) {
	for _, allowLoopback := range []bool{false, true} {
		g := ssrf.Guard{AllowLoopback: allowLoopback}
		for _, s := range listed {
			p := netip.MustParsePrefix(s)
			for _, ip := range []netip.Addr{p.Masked().Addr(), midAddr(p), lastAddr(p)} {
				err := g.CheckAddr(ip)
				loop := (ip.Is4() && netip.MustParsePrefix("127.0.0.0/8").Contains(ip)) || ip == netip.IPv6Loopback()
				switch {
				case allowLoopback && loop:
					if err != nil {
						t.Errorf("loopback allowed: %s refused: %v", ip, err)
					}
				case err == nil:
					t.Errorf("AllowLoopback=%v: %s (in %s) is allowed", allowLoopback, ip, s)
				case !errors.Is(err, ssrf.ErrDenied):
					t.Errorf("%s: error %v does not wrap ErrDenied", ip, err)
				}
			}
		}
	}
}

// The loopback allowance is 127.0.0.0/8 and ::1 and nothing else: not the
// IPv4-mapped form, not 0.0.0.0, not private or metadata addresses.
func TestLoopbackAllowanceIsNarrow(t *testing.T) {
	g := ssrf.Guard{AllowLoopback: true}
	for _, s := range []string{"127.0.0.1", "127.255.255.254", "::1"} {
		if err := g.CheckAddr(netip.MustParseAddr(s)); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	for _, s := range []string{"::ffff:127.0.0.1", "0.0.0.0", "::", "10.0.0.1", "169.254.169.254", "fd00:ec2::254",
		"100.64.0.1", "192.168.1.1", "fe80::1", "::2", "64:ff9b::7f00:1", "2002:7f00:1::1"} {
		if err := g.CheckAddr(netip.MustParseAddr(s)); err == nil {
			t.Errorf("%s allowed with AllowLoopback", s)
		}
	}
	if err := (ssrf.Guard{}).CheckAddr(netip.MustParseAddr("127.0.0.1")); err == nil {
		t.Error("loopback allowed by default")
	}
}

func TestPublicAddressesPass(t *testing.T) {
	for _, s := range []string{"8.8.8.8", "1.1.1.1", "93.184.215.14", "2606:4700:4700::1111", "2a00:1450:4001:81b::200e"} {
		if err := (ssrf.Guard{}).CheckAddr(netip.MustParseAddr(s)); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
}

// The IANA special-purpose registry (code.dny.dev/ssrf) is covered too.
func TestIANARegistryIsDenied(t *testing.T) {
	for _, p := range append(append([]netip.Prefix{}, dny.IPv4DeniedPrefixes...), dny.IPv6DeniedPrefixes...) {
		if err := (ssrf.Guard{AllowLoopback: true}).CheckAddr(midAddr(p)); err == nil && !p.Contains(netip.MustParseAddr("127.0.0.1")) {
			t.Errorf("%s (in %s) allowed", midAddr(p), p)
		}
	}
}

func TestCheckURL(t *testing.T) {
	refused := []string{
		"", "ftp://example.com/", "file:///etc/passwd", "gopher://example.com", "javascript:alert(1)",
		"/relative/path", "example.com/hook", "//example.com/hook", "http:example.com", "http://",
		"http://evil@127.0.0.1/", "https://user:pass@example.com/", "http://example.com:0/", "http://example.com:99999/",
		"http://127.0.0.1/", "http://127.0.0.1:8080/hook", "http://127.1/", "http://2130706433/", "http://0x7f000001/",
		"http://0x7f.1/", "http://0177.0.0.1/", "http://0/", "http://0.0.0.0/", "http://[::1]/", "http://[::]/",
		"http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/", "http://[0:0:0:0:0:ffff:127.0.0.1]/",
		"http://10.0.0.1/", "http://169.254.169.254/latest/meta-data/", "http://[fd00:ec2::254]/", "http://100.64.0.1/",
		"http://172.16.0.1/", "http://192.168.0.1/", "http://[fe80::1%25eth0]/", "http://127.0.0.1./",
		"http://localhost/", "http://LOCALHOST:8080/", "http://app.localhost/", "http://134744072/",
		"http://8.8.8.8.8/", "http://999.1.1.1/", " http://example.com/", "http://exa mple.com/",
		"http://example.com/\\evil", "https://" + strings.Repeat("a", 2100) + ".com/",
		// Unicode forms that a URL parser maps to a denied host (UTS-46).
		"http://１２７.０.０.１/", "http://127。0。0。1/", "http://①②⑦.0.0.1/", "http://０ｘ７ｆ.１/",
		"http://ｌｏｃａｌｈｏｓｔ/", "http://１０.０.０.１:8080/hook", "http://１６９.２５４.１６９.２５４/",
		"http://ex!ample.com/", "http://a..b.com/",
	}
	for _, raw := range refused {
		if _, err := (ssrf.Guard{}).CheckURL(raw); err == nil {
			t.Errorf("%q accepted", raw)
		} else if !errors.Is(err, ssrf.ErrDenied) {
			t.Errorf("%q: %v is not a URLError", raw, err)
		}
	}
	accepted := []string{
		"https://example.com/hooks/brandlens", "http://example.com", "HTTPS://Example.COM:8443/x?y=1",
		"https://8.8.8.8/hook", "https://[2606:4700:4700::1111]/hook", "https://hooks.example.co.uk./",
	}
	for _, raw := range accepted {
		if _, err := (ssrf.Guard{}).CheckURL(raw); err != nil {
			t.Errorf("%q refused: %v", raw, err)
		}
	}
	// The host is kept in the form that was checked: ASCII, lower case.
	for raw, want := range map[string]string{
		"https://ＨＯＯＫＳ.example.com/in":         "https://hooks.example.com/in",
		"https://bücher.de:8443/hook?x=1":      "https://xn--bcher-kva.de:8443/hook?x=1",
		"HTTPS://Example.COM/Path":             "https://example.com/Path",
		"https://８.８.８.８/hook":                 "https://8.8.8.8/hook",
		"https://hooks。example。com/":           "https://hooks.example.com/",
		"https://a_b.example.com/":             "https://a_b.example.com/",
		"https://[2606:4700:4700::1111]:8443/": "https://[2606:4700:4700::1111]:8443/",
	} {
		u, err := (ssrf.Guard{}).CheckURL(raw)
		if err != nil || u.String() != want {
			t.Errorf("%q → %v, %v; want %s", raw, u, err, want)
		}
	}
	// With the local allowance, loopback URLs pass, in plain notation only.
	lg := ssrf.Guard{AllowLoopback: true}
	for _, raw := range []string{"http://127.0.0.1:8080/hook", "http://[::1]:9000/", "http://localhost:3000/"} {
		if _, err := lg.CheckURL(raw); err != nil {
			t.Errorf("AllowLoopback: %q refused: %v", raw, err)
		}
	}
	for _, raw := range []string{"http://2130706433/", "http://127.1/", "http://[::ffff:127.0.0.1]/", "http://10.0.0.1/", "http://0/"} {
		if _, err := lg.CheckURL(raw); err == nil {
			t.Errorf("AllowLoopback: %q accepted", raw)
		}
	}
}

// countingServer is a loopback HTTP server that counts the TCP connections
// it accepts.
func countingServer(t *testing.T, h http.HandlerFunc) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, &conns
}

func fakeDNS(m map[string]string) ssrf.Lookup {
	return func(_ context.Context, host string) ([]netip.Addr, error) {
		if ip, ok := m[host]; ok {
			return []netip.Addr{netip.MustParseAddr(ip)}, nil
		}
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
}

// A public-looking name that resolves to 127.0.0.1 is refused at connect:
// the loopback server never sees a connection. A literal loopback URL is
// refused the same way. With the allowance, both connect.
func TestConnectTimeGuard(t *testing.T) {
	srv, conns := countingServer(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	dns := fakeDNS(map[string]string{"hooks.public-example.com": "127.0.0.1", "private.public-example.com": "10.1.2.3"})
	named := "http://hooks.public-example.com:" + itoa(port) + "/hook"
	literal := srv.URL + "/hook"

	strict := ssrf.Guard{}.NewClient(ssrf.ClientOptions{Timeout: 2 * time.Second, Lookup: dns})
	for _, u := range []string{named, literal} {
		res, err := strict.Post(u, "application/json", strings.NewReader(`{}`))
		if err == nil {
			res.Body.Close()
			t.Fatalf("%s: connected", u)
		}
		if !errors.Is(err, ssrf.ErrDenied) {
			t.Errorf("%s: error %v does not wrap ErrDenied", u, err)
		}
	}
	if n := conns.Load(); n != 0 {
		t.Fatalf("the loopback server accepted %d connections; want 0", n)
	}

	loose := ssrf.Guard{AllowLoopback: true}.NewClient(ssrf.ClientOptions{Timeout: 2 * time.Second, Lookup: dns})
	for _, u := range []string{named, literal} {
		res, err := loose.Post(u, "application/json", strings.NewReader(`{}`))
		if err != nil {
			t.Fatalf("AllowLoopback: %s: %v", u, err)
		}
		res.Body.Close()
	}
	if conns.Load() == 0 {
		t.Fatal("AllowLoopback: no connection reached the loopback server")
	}
	// The allowance does not extend to a private address behind a name.
	if res, err := loose.Get("http://private.public-example.com:" + itoa(port) + "/"); err == nil {
		res.Body.Close()
		t.Fatal("a name resolving to 10.1.2.3 connected")
	} else if !errors.Is(err, ssrf.ErrDenied) {
		t.Errorf("private name: %v does not wrap ErrDenied", err)
	}
}

// Redirects are not followed (the 3xx is the answer) and no proxy is used.
func TestNoRedirectsNoProxy(t *testing.T) {
	target, hits := countingServer(t, func(w http.ResponseWriter, r *http.Request) {})
	redirector, _ := countingServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+"/internal", http.StatusTemporaryRedirect)
	})
	t.Setenv("HTTP_PROXY", "http://192.0.2.1:3128")
	t.Setenv("http_proxy", "http://192.0.2.1:3128")
	c := ssrf.Guard{AllowLoopback: true}.NewClient(ssrf.ClientOptions{Timeout: 2 * time.Second})
	res, err := c.Post(redirector.URL, "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusTemporaryRedirect {
		t.Errorf("status %d, want the 307 itself", res.StatusCode)
	}
	if hits.Load() != 0 {
		t.Error("the redirect target was contacted")
	}
	if tr := c.Transport.(*http.Transport); tr.Proxy != nil {
		t.Error("Transport.Proxy is set")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// FuzzCheckURL: whatever the text, an accepted URL is http(s) with a host,
// and its host is never a denied IP in any numeric notation.
func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{"http://2130706433/", "http://0x7f.1/", "http://[::ffff:127.0.0.1]/", "https://example.com/x",
		"http://evil@127.0.0.1/", "http://0/", "http://127.0.0.1:80/", "http://[fe80::1%25en0]/",
		"http://１２７.０.０.１/", "https://bücher.de/", "http://①②⑦.0.0.1/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := (ssrf.Guard{}).CheckURL(raw)
		if err != nil {
			return
		}
		if u.Scheme != "http" && u.Scheme != "https" || u.Hostname() == "" || u.User != nil {
			t.Fatalf("%q accepted as %v", raw, u)
		}
		if ip, err := netip.ParseAddr(strings.TrimSuffix(u.Hostname(), ".")); err == nil {
			if (ssrf.Guard{}).CheckAddr(ip) != nil {
				t.Fatalf("%q accepted with denied IP %s", raw, ip)
			}
		}
		if h := strings.ToLower(u.Hostname()); h == "localhost" || strings.HasSuffix(h, ".localhost") {
			t.Fatalf("%q accepted", raw)
		}
		// The normalised form is ASCII and checks the same again.
		for _, r := range u.Host {
			if r > 0x7e {
				t.Fatalf("%q accepted with a non-ASCII host %q", raw, u.Host)
			}
		}
		again, err := (ssrf.Guard{}).CheckURL(u.String())
		if err != nil || again.String() != u.String() {
			t.Fatalf("%q normalised to %q, which checks as %v, %v", raw, u, again, err)
		}
	})
}
