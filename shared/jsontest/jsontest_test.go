package jsontest_test

import (
	"fmt"
	"testing"

	"github.com/brandlens/brandlens/shared/jsontest"
)

// recorder keeps what a helper reported instead of failing the test.
type recorder struct{ fatal, errs []string }

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(f string, a ...any) {
	r.fatal = append(r.fatal, fmt.Sprintf(f, a...))
}
func (r *recorder) Errorf(f string, a ...any) { r.errs = append(r.errs, fmt.Sprintf(f, a...)) }

func TestEqual(t *testing.T) {
	cases := []struct {
		name             string
		got, want        string
		wantErr, wantBad bool
	}{
		{name: "member order and spacing", got: `{"a":1,"b":[1,2]}`, want: ` { "b" : [1, 2], "a" : 1.0 } `},
		{name: "nested values", got: `{"x":{"y":null,"z":"é"}}`, want: `{"x":{"z":"\u00e9","y":null}}`},
		{name: "array order matters", got: `[1,2]`, want: `[2,1]`, wantErr: true},
		{name: "missing member", got: `{"a":1}`, want: `{"a":1,"b":2}`, wantErr: true},
		{name: "number vs string", got: `{"a":1}`, want: `{"a":"1"}`, wantErr: true},
		{name: "not JSON", got: `{"a":`, want: `{}`, wantBad: true},
		{name: "want not JSON", got: `{}`, want: `nope`, wantBad: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var r recorder
			jsontest.Equal(&r, tc.got, tc.want)
			if (len(r.fatal) > 0) != tc.wantBad {
				t.Errorf("fatal = %q, want fatal %v", r.fatal, tc.wantBad)
			}
			// After Fatalf a real test stops; the recorder goes on, so its
			// errors only count for valid JSON.
			if !tc.wantBad && (len(r.errs) > 0) != tc.wantErr {
				t.Errorf("errors = %q, want error %v", r.errs, tc.wantErr)
			}
		})
	}
}
