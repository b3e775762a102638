package embedded

import (
	"errors"
	"fmt"
	"os"
)

// Exists reports whether dir holds an embedded store (a snapshot or a log
// of one), without creating or changing anything, so that tools that
// should only work on an existing store can refuse a mistyped directory
// instead of opening a new, empty store there.
func Exists(dir string) (bool, error) {
	des, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: read %s: %w", dir, err)
	}
	for _, de := range des {
		if _, ok := parseGen(de.Name(), snapshotPrefix); ok {
			return true, nil
		}
		if _, ok := parseGen(de.Name(), logPrefix); ok {
			return true, nil
		}
	}
	return false, nil
}
