//go:build !unix

package embedded

import (
	"fmt"
	"os"
	"path/filepath"
)

// lockDir only creates the lock file: without flock, keeping one process
// per directory is up to the operator.
func lockDir(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, "LOCK"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("store: lock %s: %w", dir, err)
	}
	return f, nil
}

// syncDir is a no-op where directories cannot be synced.
func syncDir(string) error { return nil }
