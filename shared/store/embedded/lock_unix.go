//go:build unix

package embedded

import (
	"fmt"
	"os"
	"syscall"

	"github.com/brandlens/brandlens/shared/datadir"
)

// lockDir takes an exclusive lock on dir, so that two tables (in this
// process or another) never append to the same log.
func lockDir(dir string) (*os.File, error) {
	f, err := datadir.OpenOrCreate(dir, "LOCK", os.O_RDWR)
	if err != nil {
		return nil, fmt.Errorf("store: lock %s: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("store: %s is already open: %w", dir, err)
	}
	return f, nil
}
