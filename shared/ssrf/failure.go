package ssrf

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"net/url"
	"strings"
	"syscall"
)

// Reasons an outbound request failed without an HTTP answer. An answer
// that came is the caller's to name (http_<status>).
const (
	ReasonRefusedByPolicy   = "refused_by_policy"
	ReasonDNS               = "dns_error"
	ReasonTimeout           = "timeout"
	ReasonConnectionRefused = "connection_refused"
	ReasonTLS               = "tls_error"
	// ReasonInvalidResponse: an answer came but was no usable HTTP
	// response (malformed, or headers over the client's cap).
	ReasonInvalidResponse = "invalid_response"
	// ReasonNetwork is any other transport failure (reset, closed, unreachable).
	ReasonNetwork = "network_error"
)

// Failure is a transport failure described for the tenant who chose the
// URL: a stable reason and a message that names no address, resolver,
// host of ours or internal detail. The raw error belongs in the logs.
type Failure struct {
	Reason  string
	Message string
}

// Classify describes err, an error of an outbound HTTP request (a
// *url.Error, a dial or TLS error, a context error). It never returns the
// error's own text, which may hold resolved addresses, the resolver's
// address ("lookup x on 10.0.0.2:53") or the request URL.
func Classify(err error) Failure {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var (
		dnsErr   *net.DNSError
		netErr   net.Error
		unknown  x509.UnknownAuthorityError
		hostname x509.HostnameError
		invalid  x509.CertificateInvalidError
		verify   *tls.CertificateVerificationError
		record   tls.RecordHeaderError
		alert    tls.AlertError
	)
	switch {
	case err == nil:
		return Failure{Reason: ReasonNetwork, Message: "the request failed"}
	case errors.Is(err, ErrDenied):
		return Failure{Reason: ReasonRefusedByPolicy, Message: "the host resolves to an address that may not be reached (loopback, private, link-local or another special-purpose range)"}
	case errors.As(err, &dnsErr):
		if dnsErr.IsNotFound {
			return Failure{Reason: ReasonDNS, Message: "the host name does not exist (DNS)"}
		}
		return Failure{Reason: ReasonDNS, Message: "the host name could not be resolved (DNS failure)"}
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &netErr) && netErr.Timeout():
		return Failure{Reason: ReasonTimeout, Message: "no answer in time"}
	case errors.Is(err, syscall.ECONNREFUSED):
		return Failure{Reason: ReasonConnectionRefused, Message: "the connection was refused"}
	case errors.As(err, &hostname):
		return Failure{Reason: ReasonTLS, Message: "TLS: the certificate is not valid for the host"}
	case errors.As(err, &unknown):
		return Failure{Reason: ReasonTLS, Message: "TLS: the certificate is signed by an unknown authority"}
	case errors.As(err, &invalid):
		return Failure{Reason: ReasonTLS, Message: "TLS: the certificate is invalid or expired"}
	case errors.As(err, &verify), errors.As(err, &record), errors.As(err, &alert), strings.HasPrefix(err.Error(), "tls: "):
		return Failure{Reason: ReasonTLS, Message: "TLS: the handshake failed"}
	case strings.Contains(err.Error(), "server response headers exceeded"):
		return Failure{Reason: ReasonInvalidResponse, Message: "the answer's headers are larger than the client accepts"}
	case strings.Contains(err.Error(), "malformed HTTP"):
		return Failure{Reason: ReasonInvalidResponse, Message: "the answer is not a valid HTTP response"}
	case errors.Is(err, syscall.ECONNRESET):
		return Failure{Reason: ReasonNetwork, Message: "the connection was reset"}
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return Failure{Reason: ReasonNetwork, Message: "the host is unreachable"}
	}
	return Failure{Reason: ReasonNetwork, Message: "the connection failed"}
}
