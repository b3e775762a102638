// Package jsontest compares JSON documents in tests by value, so that
// member order and spacing never decide a test.
package jsontest

import (
	"encoding/json"
	"reflect"
)

// T is the part of testing.TB the helpers use.
type T interface {
	Helper()
	Fatalf(format string, args ...any)
	Errorf(format string, args ...any)
}

// Same reports whether a and b hold the same JSON value; it fails t at
// once when either is not JSON.
func Same(t T, a, b []byte) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatalf("invalid JSON %s: %v", a, err)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatalf("invalid JSON %s: %v", b, err)
	}
	return reflect.DeepEqual(va, vb)
}

// Equal fails t when got is not the JSON value want.
func Equal(t T, got, want string) {
	t.Helper()
	if !Same(t, []byte(got), []byte(want)) {
		t.Errorf("got %s, want %s", got, want)
	}
}
