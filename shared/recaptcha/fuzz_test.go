package recaptcha

import (
	"errors"
	"testing"
)

// FuzzParseAnswer feeds arbitrary siteverify bodies through the parser and
// the judgement: nothing panics, a refusal never passes, and every error is
// one of the two kinds callers branch on.
func FuzzParseAnswer(f *testing.F) {
	for _, s := range []string{
		`{"success":true,"score":0.9,"action":"brand_check","hostname":"h"}`,
		`{"success":true,"score":0.1,"action":"brand_check"}`,
		`{"success":false,"error-codes":["timeout-or-duplicate"]}`,
		`{"success":false,"error-codes":["invalid-input-secret"]}`,
		`{"success":true}`, `{}`, `null`, `[]`, `{"success":"yes"}`, `{"success":true,"score":"x"}`,
		`{"success":true,"error-codes":null,"score":1e308,"action":"brand_check"}`,
	} {
		f.Add([]byte(s))
	}
	c, err := New(Config{Secret: "s", VerifyURL: "http://127.0.0.1:9/", MinScore: 0.5, Action: "brand_check"})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		a, err := ParseAnswer(body)
		if err != nil {
			return
		}
		v, err := c.judge(a)
		var fe *FailedError
		var ue *UnavailableError
		switch {
		case err == nil:
			if !a.Success {
				t.Fatalf("a refusal passed: %q", body)
			}
			if v.V3 && (v.Score < 0.5 || v.Action != "brand_check") {
				t.Fatalf("a v3 answer below the bar passed: %q", body)
			}
		case errors.As(err, &fe):
			if len(fe.Codes) == 0 {
				t.Fatalf("failure without a code: %q", body)
			}
		case errors.As(err, &ue):
		default:
			t.Fatalf("untyped error %v for %q", err, body)
		}
	})
}
