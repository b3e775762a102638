// Package errtest checks the error of a table-driven test case.
package errtest

import (
	"strings"
	"testing"
)

// Want fails t (Fatal) unless err is what the case wants: want "" is no
// error; anything else an error whose text contains want. It reports
// whether an error was wanted, so that the case returns there:
//
//	if errtest.Want(t, err, tc.wantErr) {
//		return
//	}
func Want(t testing.TB, err error, want string) bool {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Fatal(err)
		}
		return false
	}
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want %q", err, want)
	}
	return true
}
