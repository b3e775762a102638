package brandcheck

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
)

// Headers of the trusted-proxy rule.
const (
	// ViewerAddressHeader is set by CloudFront (through the origin request
	// policy) to the viewer's "ip:port".
	ViewerAddressHeader = "CloudFront-Viewer-Address"
	// OriginSecretHeader carries the secret that the distribution adds to
	// every request it forwards to the API origin.
	OriginSecretHeader = "X-Origin-Verify"
)

// ProxyTrust decides whose address a request comes from. Secret is the
// shared origin secret (BRANDLENS_ORIGIN_SECRET); empty means no proxy is
// trusted, which is the local default.
type ProxyTrust struct{ Secret string }

// ProxyTrustFromEnv reads BRANDLENS_ORIGIN_SECRET.
func ProxyTrustFromEnv(getenv func(string) string) ProxyTrust {
	return ProxyTrust{Secret: strings.TrimSpace(getenv(EnvOriginSecret))}
}

// ClientAddress returns the address a request is counted under:
//
//   - the address in CloudFront-Viewer-Address, only when the request
//     carries OriginSecretHeader equal to the configured secret (compared
//     in constant time): then it came through our distribution, which
//     overwrites any viewer-sent value of that header;
//   - otherwise the TCP peer (RemoteAddr, or API Gateway's sourceIp) —
//     a CloudFront-Viewer-Address header without the secret is ignored,
//     since anyone can send it.
//
// peer is "ip:port" or a bare IP; header reads a request header
// (http.Header.Get). IPv4-mapped IPv6 addresses are unmapped.
func (t ProxyTrust) ClientAddress(peer string, header func(string) string) (netip.Addr, error) {
	if t.Secret != "" && secretMatches(header(OriginSecretHeader), t.Secret) {
		if a, err := ParseViewerAddress(header(ViewerAddressHeader)); err == nil {
			return a, nil
		}
		// Through the distribution but without a usable viewer address:
		// count under the peer (an edge address), which is stricter, not
		// looser.
	}
	return parsePeer(peer)
}

// secretMatches compares digests, so neither content nor length leaks
// through timing.
func secretMatches(got, want string) bool {
	g, w := sha256.Sum256([]byte(got)), sha256.Sum256([]byte(want))
	return hmac.Equal(g[:], w[:])
}

var errNoAddress = errors.New("brandcheck: no client address")

// ParseViewerAddress reads CloudFront-Viewer-Address: "198.51.100.10:46532"
// or, for IPv6, the address and port joined by a last colon without
// brackets ("2001:db8::1:46532"); "[2001:db8::1]:46532" and a bare address
// are accepted too.
func ParseViewerAddress(v string) (netip.Addr, error) {
	v = strings.TrimSpace(v)
	if v == "" || len(v) > 64 {
		return netip.Addr{}, errNoAddress
	}
	if ap, err := netip.ParseAddrPort(v); err == nil {
		return ap.Addr().Unmap(), nil
	}
	if i := strings.LastIndexByte(v, ':'); i > 0 {
		if _, err := strconv.ParseUint(v[i+1:], 10, 16); err == nil {
			if a, err := netip.ParseAddr(v[:i]); err == nil && a.Is6() && a.Zone() == "" {
				return a.Unmap(), nil
			}
		}
	}
	if a, err := netip.ParseAddr(v); err == nil && a.Zone() == "" {
		return a.Unmap(), nil
	}
	return netip.Addr{}, errNoAddress
}

func parsePeer(peer string) (netip.Addr, error) {
	if ap, err := netip.ParseAddrPort(peer); err == nil {
		return ap.Addr().WithZone("").Unmap(), nil
	}
	if a, err := netip.ParseAddr(peer); err == nil {
		return a.WithZone("").Unmap(), nil
	}
	return netip.Addr{}, errNoAddress
}

// clientHash is the only trace of a client that is stored: an HMAC of the
// day and the client's network — the IPv4 address, or the /64 of an IPv6
// address (one subscriber's allocation, which it can rotate freely inside).
// With the day inside, one client's checks cannot be linked across days,
// and without the key the address cannot be recovered by trying all 2^32.
func clientHash(key []byte, day string, a netip.Addr) string {
	if a.Is6() {
		p, _ := a.Prefix(64)
		a = p.Addr()
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte(day))
	m.Write([]byte{0})
	m.Write([]byte(a.String()))
	return hex.EncodeToString(m.Sum(nil))
}

// clientKeyInfo binds derived client keys to their one use.
const clientKeyInfo = "brandlens brand-check client hash v1"

// MinSecretBytes is the shortest secret a client key is derived from.
const MinSecretBytes = 32

// ClientKeyFrom derives the key client hashes are keyed with from a
// deployment secret (HKDF-SHA256 with a purpose label), so the secret
// itself keys nothing else through this package and the same secret can
// serve other purposes under other labels.
func ClientKeyFrom(secret []byte) ([]byte, error) {
	if len(secret) < MinSecretBytes {
		return nil, fmt.Errorf("brandcheck: the client hash secret must be at least %d bytes (got %d)", MinSecretBytes, len(secret))
	}
	return hkdf.Key(sha256.New, secret, nil, clientKeyInfo, 32)
}
