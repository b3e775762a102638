// Package signing is the one body-signing scheme of both event channels
// (webhook subscriptions and publish destinations): the header
// X-Service-Signature: sha256=<lowercase hex HMAC-SHA256(secret, raw body)>.
// Signing and verifying always work on the exact raw bytes: a body that is
// re-encoded ({"a":1} versus {"a": 1}) no longer verifies.
package signing

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// Header is the name of the signature header.
const Header = "X-Service-Signature"

// prefix starts every signature value; receivers match it case-insensitively.
const prefix = "sha256="

// Sign returns the header value for body: "sha256=" and the lowercase hex
// HMAC-SHA256 of body under secret (the secret's UTF-8 bytes).
func Sign(secret, body []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write(body)
	return prefix + hex.EncodeToString(m.Sum(nil))
}

// Verify checks a "sha256=<hex>" header value (prefix case-insensitive)
// against the HMAC-SHA256 of body, in constant time.
func Verify(secret, body []byte, header string) bool {
	if len(header) <= len(prefix) || !strings.EqualFold(header[:len(prefix)], prefix) {
		return false
	}
	got, err := hex.DecodeString(header[len(prefix):])
	if err != nil {
		return false
	}
	m := hmac.New(sha256.New, secret)
	m.Write(body)
	return hmac.Equal(got, m.Sum(nil))
}
