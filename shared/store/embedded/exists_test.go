package embedded

import (
	"os"
	"path/filepath"
	"testing"
)

func TestExists(t *testing.T) {
	root := t.TempDir()
	opened := filepath.Join(root, "opened")
	closeTable(t, open(t, opened))
	other := filepath.Join(root, "other")
	if err := os.MkdirAll(other, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "notes.txt"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, dir string
		want      bool
	}{
		{"missing directory", filepath.Join(root, "nope"), false},
		{"empty directory", root, false},
		{"other files only", other, false},
		{"a store", opened, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Exists(tc.dir)
			if err != nil || got != tc.want {
				t.Fatalf("Exists = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(root, "nope")); !os.IsNotExist(err) {
		t.Error("Exists created the directory")
	}
}
