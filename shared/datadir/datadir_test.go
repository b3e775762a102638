//go:build unix

package datadir_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/brandlens/brandlens/shared/datadir"
)

func mkdir(t *testing.T, mode os.FileMode) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, mode); err != nil {
		t.Fatal(err)
	}
	return dir
}

func write(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte("x"), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// otherOwner gives path to another user: as root by chown; otherwise the
// test uses a file root owns.
func otherOwned(t *testing.T) (dir string) {
	t.Helper()
	if os.Geteuid() != 0 {
		return "/" // owned by root, not by us
	}
	dir = mkdir(t, 0o700)
	if err := os.Chown(dir, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCheck(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T) string
		ok    bool
	}{
		{"private and empty", func(t *testing.T) string { return mkdir(t, 0o700) }, true},
		{"private with private files", func(t *testing.T) string {
			d := mkdir(t, 0o700)
			write(t, filepath.Join(d, "key-secret"), 0o600)
			return d
		}, true},
		{"open to all, with a planted file", func(t *testing.T) string {
			d := mkdir(t, 0o777)
			write(t, filepath.Join(d, "snapshot-0000000000000002.jsonl"), 0o666)
			return d
		}, false},
		{"readable by others", func(t *testing.T) string {
			d := mkdir(t, 0o755)
			write(t, filepath.Join(d, "log-0000000000000001.jsonl"), 0o600)
			return d
		}, false},
		{"a file readable by others", func(t *testing.T) string {
			d := mkdir(t, 0o700)
			write(t, filepath.Join(d, "key-secret"), 0o644)
			return d
		}, false},
		{"a symbolic link planted", func(t *testing.T) string {
			d := mkdir(t, 0o700)
			if err := os.Symlink("/etc/passwd", filepath.Join(d, "log-0000000000000001.jsonl")); err != nil {
				t.Fatal(err)
			}
			return d
		}, false},
		{"a subdirectory", func(t *testing.T) string {
			d := mkdir(t, 0o700)
			if err := os.Mkdir(filepath.Join(d, "sub"), 0o700); err != nil {
				t.Fatal(err)
			}
			return d
		}, false},
		{"the directory is a link", func(t *testing.T) string {
			d := mkdir(t, 0o700)
			link := filepath.Join(t.TempDir(), "link")
			if err := os.Symlink(d, link); err != nil {
				t.Fatal(err)
			}
			return link
		}, false},
		{"owned by another user", otherOwned, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := datadir.Check(c.setup(t))
			var ue *datadir.UnsafeError
			if c.ok && err != nil {
				t.Fatalf("refused: %v", err)
			}
			if !c.ok && !errors.As(err, &ue) {
				t.Fatalf("error %v, want an UnsafeError", err)
			}
		})
	}
}

// Ensure creates the directory private, and narrows an empty one of ours
// (nothing in it to distrust) — but not one that holds files.
func TestEnsure(t *testing.T) {
	fresh := filepath.Join(t.TempDir(), "a", "b")
	if err := datadir.Ensure(fresh); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(fresh); fi.Mode().Perm() != 0o700 {
		t.Errorf("created with mode %04o", fi.Mode().Perm())
	}
	empty := mkdir(t, 0o755)
	if err := datadir.Ensure(empty); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(empty); fi.Mode().Perm() != 0o700 {
		t.Errorf("empty directory left at %04o", fi.Mode().Perm())
	}
	planted := mkdir(t, 0o777)
	write(t, filepath.Join(planted, "key-secret"), 0o600)
	if err := datadir.Ensure(planted); err == nil {
		t.Error("a 0777 directory holding a file was accepted")
	}
	if fi, _ := os.Stat(planted); fi.Mode().Perm() != 0o777 {
		t.Errorf("a refused directory was changed to %04o", fi.Mode().Perm())
	}
}

// Files are created exclusively, read without following links, and
// replaced atomically.
func TestFiles(t *testing.T) {
	dir := mkdir(t, 0o700)
	if err := datadir.WriteFile(dir, "key-secret", []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := datadir.WriteFile(dir, "key-secret", []byte("two")); err != nil {
		t.Fatal(err)
	}
	if b, err := datadir.ReadFile(dir, "key-secret"); err != nil || string(b) != "two" {
		t.Fatalf("read %q, %v", b, err)
	}
	if fi, _ := os.Stat(filepath.Join(dir, "key-secret")); fi.Mode().Perm() != 0o600 {
		t.Errorf("written with mode %04o", fi.Mode().Perm())
	}
	if _, err := datadir.Create(dir, "key-secret", os.O_WRONLY); !errors.Is(err, os.ErrExist) {
		t.Errorf("Create over an existing file: %v", err)
	}
	if err := os.Symlink(filepath.Join(dir, "key-secret"), filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	var ue *datadir.UnsafeError
	if _, err := datadir.ReadFile(dir, "link"); !errors.As(err, &ue) {
		t.Errorf("read through a link: %v", err)
	}
	if _, err := datadir.Create(dir, "link", os.O_WRONLY); err == nil {
		t.Error("created through a link")
	}
	if _, err := datadir.ReadFile(dir, "missing"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	write(t, filepath.Join(dir, "open"), 0o644)
	if _, err := datadir.ReadFile(dir, "open"); !errors.As(err, &ue) {
		t.Errorf("read a file open to others: %v", err)
	}
}
