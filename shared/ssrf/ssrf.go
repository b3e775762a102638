// Package ssrf keeps outbound requests to customer-chosen URLs (event
// subscription endpoints, publish destinations) away from the service's own
// network: loopback, private, link-local (cloud metadata), CGNAT and the
// other special-purpose ranges of reference/reliability.md.
//
// Two checks, because a check on the URL text alone is bypassed by DNS
// (a public name resolving to 127.0.0.1, or rebinding between check and
// connect) and by redirects:
//
//   - at creation, CheckURL refuses what the text already tells: a scheme
//     other than http(s), a relative URL, user information, and a host that
//     is a denied IP literal in any notation (2130706433, 0x7f.1, 0,
//     [::ffff:127.0.0.1] …; numeric hosts other than a plain dotted quad are
//     refused outright, whatever they decode to). The host is first
//     normalised as a URL parser would (IDNA/UTS-46 mapping: fullwidth and
//     other Unicode digit forms, ideographic full stops, case), so
//     "１２７.０.０.１" is checked — and stored — as 127.0.0.1;
//   - at connect, Guard.Control (a net.Dialer Control hook) checks the IP
//     the dialer is about to connect to, after resolution, so no packet ever
//     reaches a denied address. Clients built by NewClient never follow
//     redirects and ignore HTTP(S)_PROXY.
//
// Local development may allow loopback receivers (127.0.0.0/8 and ::1, and
// nothing else) with Guard.AllowLoopback (BRANDLENS_ALLOW_LOOPBACK_TARGETS=1,
// read by package config); it is off by default and never set in AWS.
package ssrf

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	dny "code.dny.dev/ssrf"
	"golang.org/x/net/idna"
)

// ErrDenied wraps every refusal of a destination.
var ErrDenied = errors.New("ssrf: destination not allowed")

// deniedV4 and deniedV6 are the ranges of reference/reliability.md, each
// named. The IANA special-purpose registry (via code.dny.dev/ssrf) is
// consulted as well, and IPv6 outside global unicast (2000::/3) is denied.
var (
	deniedV4 = prefixes(
		"0.0.0.0/8",       // "this network"; 0.0.0.0 reaches the local host on Linux
		"10.0.0.0/8",      // private
		"100.64.0.0/10",   // CGNAT shared address space
		"127.0.0.0/8",     // loopback
		"169.254.0.0/16",  // link-local, incl. the metadata service 169.254.169.254
		"172.16.0.0/12",   // private
		"192.0.0.0/24",    // IETF protocol assignments
		"192.0.2.0/24",    // documentation (TEST-NET-1)
		"192.168.0.0/16",  // private
		"198.18.0.0/15",   // benchmarking
		"198.51.100.0/24", // documentation (TEST-NET-2)
		"203.0.113.0/24",  // documentation (TEST-NET-3)
		"224.0.0.0/4",     // multicast
		"240.0.0.0/4",     // reserved, incl. broadcast 255.255.255.255
	)
	deniedV6 = prefixes(
		"::/128",        // unspecified
		"::1/128",       // loopback
		"::ffff:0:0/96", // IPv4-mapped: would reach any IPv4 address, so never allowed
		"64:ff9b::/96",  // NAT64: embeds IPv4 addresses
		"2001:db8::/32", // documentation
		"2002::/16",     // 6to4: embeds IPv4 addresses
		"fc00::/7",      // unique local, incl. the EC2 metadata address fd00:ec2::254
		"fe80::/10",     // link-local
		"ff00::/8",      // multicast
	)
	v6GlobalUnicast = netip.MustParsePrefix("2000::/3")
	loopbackV4      = netip.MustParsePrefix("127.0.0.0/8")
	loopbackV6      = netip.IPv6Loopback()

	// iana is the special-purpose registry check of code.dny.dev/ssrf; ports
	// and networks are checked here instead (any port, TCP only).
	iana = dny.New(dny.WithAnyPort(), dny.WithAnyNetwork())
)

func prefixes(ss ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(ss))
	for i, s := range ss {
		out[i] = netip.MustParsePrefix(s)
	}
	return out
}

// Guard decides which destinations outbound requests may reach. The zero
// value denies every special-purpose range, loopback included.
type Guard struct {
	// AllowLoopback admits 127.0.0.0/8 and ::1 (local development only).
	AllowLoopback bool
}

// FromGetenv returns the guard that getenv's EnvAllowLoopback asks for (the
// provider factory reads its settings through getenv).
func FromGetenv(getenv func(string) string) Guard {
	v := strings.TrimSpace(getenv("BRANDLENS_ALLOW_LOOPBACK_TARGETS"))
	return Guard{AllowLoopback: v == "1" || strings.EqualFold(v, "true")}
}

// CheckAddr reports whether ip may be connected to.
func (g Guard) CheckAddr(ip netip.Addr) error {
	ip = ip.WithZone("")
	if !ip.IsValid() {
		return fmt.Errorf("%w: invalid address", ErrDenied)
	}
	if g.AllowLoopback && ((ip.Is4() && loopbackV4.Contains(ip)) || ip == loopbackV6) {
		return nil
	}
	list := deniedV4
	if ip.Is6() {
		list = deniedV6
	}
	for _, p := range list {
		if p.Contains(ip) {
			return fmt.Errorf("%w: %s is in %s", ErrDenied, ip, p)
		}
	}
	if ip.Is6() && !v6GlobalUnicast.Contains(ip) {
		return fmt.Errorf("%w: %s is outside IPv6 global unicast (2000::/3)", ErrDenied, ip)
	}
	if err := iana.SafeAddr(ip); err != nil {
		return fmt.Errorf("%w: %v", ErrDenied, err)
	}
	return nil
}

// Control is a net.Dialer Control hook: it runs after the address is
// resolved and before the socket connects, so it sees the very IP that
// would be reached (DNS rebinding cannot slip past it).
func (g Guard) Control(network, address string, _ syscall.RawConn) error {
	switch network {
	case "tcp4", "tcp6":
	default:
		return fmt.Errorf("%w: network %s", ErrDenied, network)
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrDenied, address, err)
	}
	return g.CheckAddr(ap.Addr())
}

// URLError says why a URL is refused; its message suits an API answer.
type URLError struct{ Reason string }

func (e *URLError) Error() string { return e.Reason }

// Is makes URLErrors match ErrDenied.
func (e *URLError) Is(target error) bool { return target == ErrDenied }

// MaxURLLength caps accepted URLs.
const MaxURLLength = 2048

// CheckURL parses raw and refuses what its text already shows to be unsafe
// or unusable. Names are not resolved here: Control checks them at connect.
func (g Guard) CheckURL(raw string) (*url.URL, error) {
	bad := func(format string, args ...any) (*url.URL, error) {
		return nil, &URLError{Reason: fmt.Sprintf(format, args...)}
	}
	if raw == "" {
		return bad("is required")
	}
	if len(raw) > MaxURLLength {
		return bad("must be at most %d characters", MaxURLLength)
	}
	if strings.TrimSpace(raw) != raw || strings.ContainsAny(raw, "\\\t\r\n") {
		return bad("must not contain whitespace or backslashes")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return bad("is not a valid URL")
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return bad("must be an absolute http or https URL")
	}
	if u.Opaque != "" || u.Host == "" {
		return bad("must be an absolute http or https URL with a host")
	}
	if u.User != nil {
		return bad("must not contain user information (user@host)")
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return bad("has an invalid port")
		}
	}
	host := u.Hostname()
	if host == "" {
		return bad("must name a host")
	}
	if strings.Contains(host, ":") { // an IPv6 literal (brackets already removed)
		if err := g.checkIPv6(host); err != nil {
			return nil, err
		}
	} else {
		ascii, err := normalizeHost(host)
		if err != nil {
			return nil, err
		}
		if err := g.checkHost(ascii); err != nil {
			return nil, err
		}
		// What was checked is what is stored and dialled.
		port := u.Port()
		u.Host = ascii
		if port != "" {
			u.Host = net.JoinHostPort(ascii, port)
		}
	}
	u.Scheme = scheme
	return u, nil
}

// hostProfile maps a host name as browsers' URL parsers do (UTS-46,
// non-transitional, no STD3 restriction so that "_" passes), which turns
// every compatibility form of a character into its plain one.
var hostProfile = idna.New(idna.MapForLookup(), idna.BidiRule(), idna.Transitional(false), idna.StrictDomainName(false))

// normalizeHost returns the ASCII (A-label) form of a host name, lower
// case. A name that does not map, or maps to anything but letters, digits,
// hyphens, underscores and dots, is refused.
func normalizeHost(host string) (string, error) {
	refuse := func(format string, args ...any) (string, error) {
		return "", &URLError{Reason: fmt.Sprintf(format, args...)}
	}
	ascii, err := hostProfile.ToASCII(host)
	if err == nil && utf8.ValidString(host) {
		// An A-label must read back as itself (a punycode label that
		// decodes to something unmappable would not).
		var again string
		again, err = hostProfile.ToASCII(ascii)
		if err == nil && again != ascii {
			err = errors.New("not stable")
		}
	} else if err == nil {
		err = errors.New("invalid UTF-8")
	}
	if err != nil {
		return refuse("has a host name that is not a valid internationalised domain name")
	}
	ascii = strings.ToLower(ascii)
	for i := 0; i < len(ascii); i++ {
		c := ascii[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return refuse("has a host name with a character not allowed in host names")
		}
	}
	if strings.Trim(ascii, ".") == "" || strings.Contains(ascii, "..") {
		return refuse("must name a host")
	}
	return ascii, nil
}

func (g Guard) checkIPv6(host string) error {
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return &URLError{Reason: "has an invalid IPv6 address"}
	}
	if err := g.CheckAddr(ip); err != nil {
		return &URLError{Reason: fmt.Sprintf("must not point to a loopback, private, link-local or other special-purpose address (%s)", ip.WithZone(""))}
	}
	return nil
}

// checkHost checks a normalised (ASCII, lower-case) host name.
func (g Guard) checkHost(host string) error {
	refuse := func(format string, args ...any) error {
		return &URLError{Reason: fmt.Sprintf(format, args...)}
	}
	h := strings.TrimSuffix(host, ".")
	if h == "" {
		return refuse("must name a host")
	}
	if ip, numeric := parseIPv4Loose(h); numeric {
		if ip.IsValid() && g.CheckAddr(ip) != nil {
			return refuse("must not point to a loopback, private, link-local or other special-purpose address (%s)", ip)
		}
		if canonical, err := netip.ParseAddr(h); err != nil || canonical != ip {
			// Numeric forms other than a dotted quad are read differently by
			// different resolvers; none of them is needed.
			return refuse("must write an IPv4 address as four decimal numbers (a.b.c.d)")
		}
		return nil
	}
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		if g.AllowLoopback {
			return nil
		}
		return refuse("must not point to localhost")
	}
	return nil
}

// parseIPv4Loose reads host the way inet_aton does: one to four
// dot-separated parts, each decimal, octal (leading 0) or hexadecimal (0x),
// the last part filling the remaining bytes. numeric reports whether the
// host is made only of numeric parts; ip is invalid when the parts overflow.
func parseIPv4Loose(host string) (ip netip.Addr, numeric bool) {
	parts := strings.Split(host, ".")
	if len(parts) > 4 {
		// Still numeric-looking? Then it is an invalid address, not a name.
		for _, p := range parts {
			if _, ok := parseNumber(p); !ok {
				return netip.Addr{}, false
			}
		}
		return netip.Addr{}, true
	}
	vals := make([]uint64, len(parts))
	for i, p := range parts {
		v, ok := parseNumber(p)
		if !ok {
			return netip.Addr{}, false
		}
		vals[i] = v
	}
	var n uint64
	for i, v := range vals[:len(vals)-1] {
		if v > 0xff {
			return netip.Addr{}, true
		}
		n |= v << (8 * (3 - i))
	}
	last := vals[len(vals)-1]
	if last >= 1<<(8*(5-len(vals))) {
		return netip.Addr{}, true
	}
	n |= last
	return netip.AddrFrom4([4]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}), true
}

func parseNumber(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	base := 10
	switch {
	case len(s) > 2 && (s[:2] == "0x"):
		base, s = 16, s[2:]
	case s == "0x":
		return 0, true
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	v, err := strconv.ParseUint(s, base, 64)
	if err != nil {
		// A part that is all digits but overflows is still numeric.
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 1 << 40, true
		}
		return 0, false
	}
	return v, true
}

// Lookup resolves a host name to addresses. Tests inject one to make a
// public-looking name resolve to a denied address.
type Lookup func(ctx context.Context, host string) ([]netip.Addr, error)

// Caps of guarded clients on what a destination sends before its body:
// without them Go reads up to 10 MiB of response headers, for as long as
// the whole request may take, which lets one slow endpoint hold that much
// of a worker's memory per attempt.
const (
	DefaultMaxResponseHeaderBytes = 16 << 10
	DefaultResponseHeaderTimeout  = 10 * time.Second
)

// ClientOptions tune NewClient.
type ClientOptions struct {
	// Timeout bounds a whole request, body included.
	Timeout time.Duration
	// Lookup replaces the system resolver (nil: net.DefaultResolver).
	Lookup Lookup
	// ResponseHeaderTimeout bounds the wait for the answer's headers once
	// the request is sent (0: Timeout, else DefaultResponseHeaderTimeout).
	ResponseHeaderTimeout time.Duration
	// MaxResponseHeaderBytes caps the answer's headers (0:
	// DefaultMaxResponseHeaderBytes).
	MaxResponseHeaderBytes int64
}

// NewClient returns an HTTP client whose every connection passes the
// guard at connect time. It does not follow redirects (a 3xx is the
// answer), never uses a proxy, which would hide the real target, and caps
// the answer's headers in size and wait.
func (g Guard) NewClient(opts ClientOptions) *http.Client {
	tr := g.Transport(opts.Lookup)
	switch {
	case opts.ResponseHeaderTimeout > 0:
		tr.ResponseHeaderTimeout = opts.ResponseHeaderTimeout
	case opts.Timeout > 0:
		tr.ResponseHeaderTimeout = opts.Timeout
	}
	if opts.MaxResponseHeaderBytes > 0 {
		tr.MaxResponseHeaderBytes = opts.MaxResponseHeaderBytes
	}
	return &http.Client{
		Transport: tr,
		Timeout:   opts.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// Transport returns the guarded transport of NewClient, with the default
// header caps.
func (g Guard) Transport(lookup Lookup) *http.Transport {
	d := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second, Control: g.Control}
	dial := d.DialContext
	if lookup != nil {
		dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
			host, port, err := net.SplitHostPort(addr)
			if err != nil {
				return nil, err
			}
			if _, err := netip.ParseAddr(host); err == nil {
				return d.DialContext(ctx, network, addr)
			}
			ips, err := lookup(ctx, host)
			if err != nil {
				return nil, err
			}
			if len(ips) == 0 {
				return nil, fmt.Errorf("ssrf: %s has no addresses", host)
			}
			var firstErr error
			for _, ip := range ips {
				c, err := d.DialContext(ctx, network, net.JoinHostPort(ip.String(), port))
				if err == nil {
					return c, nil
				}
				if firstErr == nil {
					firstErr = err
				}
			}
			return nil, firstErr
		}
	}
	return &http.Transport{
		Proxy:                  nil,
		DialContext:            dial,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    10 * time.Second,
		ResponseHeaderTimeout:  DefaultResponseHeaderTimeout,
		MaxResponseHeaderBytes: DefaultMaxResponseHeaderBytes,
		MaxIdleConns:           256,
		MaxIdleConnsPerHost:    8,
		IdleConnTimeout:        90 * time.Second,
		ExpectContinueTimeout:  time.Second,
	}
}
