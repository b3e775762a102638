//go:build !unix

package embedded

import (
	"fmt"
	"os"

	"github.com/brandlens/brandlens/shared/datadir"
)

// lockDir only creates the lock file: without flock, keeping one process
// per directory is up to the operator.
func lockDir(dir string) (*os.File, error) {
	f, err := datadir.OpenOrCreate(dir, "LOCK", os.O_RDWR)
	if err != nil {
		return nil, fmt.Errorf("store: lock %s: %w", dir, err)
	}
	return f, nil
}
