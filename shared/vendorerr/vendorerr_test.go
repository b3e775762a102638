package vendorerr_test

import (
	"testing"

	"github.com/brandlens/brandlens/shared/vendorerr"
)

func TestMessage(t *testing.T) {
	cases := []struct {
		name          string
		who, kind     string
		status        int
		code, message string
		want          string
	}{
		{name: "everything", who: "chatgpt", kind: "rate_limited", status: 429, code: "rate_limit_exceeded", message: "slow down",
			want: "chatgpt: rate_limited (HTTP 429 rate_limit_exceeded): slow down"},
		{name: "status without code", who: "openai gpt-5.5", kind: "auth", status: 401, message: "bad key",
			want: "openai gpt-5.5: auth (HTTP 401): bad key"},
		{name: "no HTTP answer hides the code", who: "claude", kind: "timeout", code: "ignored", message: "no answer in 30s",
			want: "claude: timeout: no answer in 30s"},
		{name: "kind alone", who: "gemini", kind: "failed_answer", want: "gemini: failed_answer"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := vendorerr.Message(tc.who, tc.kind, tc.status, tc.code, tc.message); got != tc.want {
				t.Errorf("Message = %q, want %q", got, tc.want)
			}
		})
	}
}
