//go:build unix

package datadir

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

const noFollow = syscall.O_NOFOLLOW

func isLoop(err error) bool { return errors.Is(err, syscall.ELOOP) }

// owned reports whether the effective user owns fi.
func owned(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}

// private refuses fi unless the effective user owns it and neither group
// nor others have any permission on it; fix names the remedy.
func private(path string, fi os.FileInfo, fix string) error {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return &UnsafeError{Path: path, Reason: fmt.Sprintf("is owned by user %d, not by this process's user %d", st.Uid, os.Geteuid())}
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return &UnsafeError{Path: path, Reason: fmt.Sprintf("is open to group or others (mode %04o); check what it holds, then %s it", perm, fix)}
	}
	return nil
}

// SyncDir makes created and renamed entries of dir durable.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("data directory: sync %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("data directory: sync %s: %w", dir, err)
	}
	return nil
}
