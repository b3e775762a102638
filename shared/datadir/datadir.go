// Package datadir keeps the local runtime's data directory private. The
// embedded store's logs and snapshots, the API-key secret, the secrets key
// and the demo key live there; whoever can write the directory can plant a
// snapshot or a key, and whoever can read it holds every tenant's data.
// So a directory (or a file in it) that is not the process owner's alone
// is refused, not trusted as found: it must be owned by the effective user,
// with no group or other permission bits, and hold only regular files
// (no symbolic links) that are the same. Files are created with
// O_EXCL|O_NOFOLLOW and opened with O_NOFOLLOW, and WriteFile replaces a
// file atomically (temporary file, fsync, rename, fsync of the directory).
package datadir

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// UnsafeError says why a data directory or one of its files is refused.
type UnsafeError struct {
	Path   string
	Reason string
}

func (e *UnsafeError) Error() string {
	return fmt.Sprintf("data directory: %s %s", e.Path, e.Reason)
}

// Ensure creates dir (mode 0700) if it is missing, then checks it. An
// existing empty directory of this user (one just made with mkdir, say)
// is narrowed to 0700 first: it holds nothing to distrust.
func Ensure(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("data directory: create %s: %w", dir, err)
	}
	if fi, err := os.Lstat(dir); err == nil && fi.IsDir() && fi.Mode().Perm()&0o077 != 0 && owned(fi) {
		if des, err := os.ReadDir(dir); err == nil && len(des) == 0 {
			if err := os.Chmod(dir, 0o700); err != nil {
				return fmt.Errorf("data directory: chmod %s: %w", dir, err)
			}
		}
	}
	return Check(dir)
}

// Check refuses dir unless it and every entry in it are private to the
// process owner (see the package documentation).
func Check(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return &UnsafeError{Path: dir, Reason: "is a symbolic link; give the real directory"}
	}
	if !fi.IsDir() {
		return &UnsafeError{Path: dir, Reason: "is not a directory"}
	}
	if err := private(dir, fi, "chmod 700"); err != nil {
		return err
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("data directory: read %s: %w", dir, err)
	}
	for _, de := range des {
		path := filepath.Join(dir, de.Name())
		fi, err := os.Lstat(path)
		if err != nil {
			return fmt.Errorf("data directory: %w", err)
		}
		if !fi.Mode().IsRegular() {
			return &UnsafeError{Path: path, Reason: fmt.Sprintf("is not a regular file (%s); the directory must hold only the service's files", fi.Mode().Type())}
		}
		if err := private(path, fi, "chmod 600"); err != nil {
			return err
		}
	}
	return nil
}

// ReadFile reads dir/name, refusing a symbolic link or a file that is not
// private. A missing file is an error satisfying errors.Is(err, os.ErrNotExist).
func ReadFile(dir, name string) ([]byte, error) {
	f, err := OpenFile(dir, name, os.O_RDONLY)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// OpenFile opens an existing dir/name without following a symbolic link
// and checks that it is a private regular file.
func OpenFile(dir, name string, flag int) (*os.File, error) {
	path := filepath.Join(dir, name)
	f, err := os.OpenFile(path, flag|noFollow, 0)
	if err != nil {
		if isLoop(err) {
			return nil, &UnsafeError{Path: path, Reason: "is a symbolic link"}
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = &UnsafeError{Path: path, Reason: "is not a regular file"}
	}
	if err == nil {
		err = private(path, fi, "chmod 600")
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Create creates dir/name, mode 0600, failing if anything (a file, a
// link) is there already.
func Create(dir, name string, flag int) (*os.File, error) {
	return os.OpenFile(filepath.Join(dir, name), flag|os.O_CREATE|os.O_EXCL|noFollow, 0o600)
}

// OpenOrCreate opens dir/name as OpenFile does, or creates it as Create
// does when it is missing.
func OpenOrCreate(dir, name string, flag int) (*os.File, error) {
	f, err := Create(dir, name, flag)
	if errors.Is(err, os.ErrExist) {
		return OpenFile(dir, name, flag)
	}
	return f, err
}

// WriteFile replaces dir/name with data atomically and durably: a
// temporary file created exclusively, written, fsynced, renamed over the
// name, then the directory fsynced. A crash leaves the old file or the
// new one, never a part of either.
func WriteFile(dir, name string, data []byte) (err error) {
	tmp := name + ".tmp"
	f, err := Create(dir, tmp, os.O_WRONLY)
	if errors.Is(err, os.ErrExist) {
		// Left by a crash (the directory is ours alone): start again.
		if err = os.Remove(filepath.Join(dir, tmp)); err == nil {
			f, err = Create(dir, tmp, os.O_WRONLY)
		}
	}
	if err != nil {
		return fmt.Errorf("data directory: write %s: %w", name, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(filepath.Join(dir, tmp))
		}
	}()
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("data directory: write %s: %w", name, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("data directory: sync %s: %w", name, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("data directory: close %s: %w", name, err)
	}
	if err = os.Rename(filepath.Join(dir, tmp), filepath.Join(dir, name)); err != nil {
		return fmt.Errorf("data directory: install %s: %w", name, err)
	}
	return SyncDir(dir)
}
