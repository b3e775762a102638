package errtest_test

import (
	"errors"
	"testing"

	"github.com/brandlens/brandlens/shared/errtest"
)

// recorder notes whether Want failed its test, without ending this one.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper() {}

func (r *recorder) Fatal(...any) { r.failed = true }

func (r *recorder) Fatalf(string, ...any) { r.failed = true }

func TestWant(t *testing.T) {
	cases := []struct {
		name       string
		err        error
		want       string
		wantFailed bool
		wantDone   bool
	}{
		{name: "no error wanted, none", want: ""},
		{name: "no error wanted, one", err: errors.New("boom"), wantFailed: true},
		{name: "error wanted, it contains the text", err: errors.New("providers: BRANDLENS_X=soon"), want: "BRANDLENS_X=", wantDone: true},
		{name: "error wanted, another", err: errors.New("boom"), want: "BRANDLENS_X=", wantFailed: true, wantDone: true},
		{name: "error wanted, none", want: "BRANDLENS_X=", wantFailed: true, wantDone: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := &recorder{TB: t}
			done := errtest.Want(r, tc.err, tc.want)
			if r.failed != tc.wantFailed || done != tc.wantDone {
				t.Errorf("Want: failed %v, done %v; want failed %v, done %v", r.failed, done, tc.wantFailed, tc.wantDone)
			}
		})
	}
}
