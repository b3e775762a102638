// Package vendorerr holds what the typed errors of vendor API calls share:
// the one way their messages read, whether the call was for an AI answer
// (package providers) or for generated content (package models).
package vendorerr

import (
	"fmt"
	"strings"
)

// Message is the text of a failed vendor call: who failed and how, then
// the HTTP status and the vendor's code when there is a status, then the
// vendor's message — "chatgpt: rate_limited (HTTP 429 rate_limit_exceeded):
// slow down". who and kind are never empty; status 0 means no HTTP answer.
func Message(who, kind string, status int, code, message string) string {
	var b strings.Builder
	b.WriteString(who + ": " + kind)
	if status != 0 {
		fmt.Fprintf(&b, " (HTTP %d", status)
		if code != "" {
			b.WriteString(" " + code)
		}
		b.WriteString(")")
	}
	if message != "" {
		b.WriteString(": " + message)
	}
	return b.String()
}
