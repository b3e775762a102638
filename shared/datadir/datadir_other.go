//go:build !unix

package datadir

import "os"

// Without Unix ownership and modes there is nothing to check here; the
// directory's access control list is the operator's to set.
const noFollow = 0

func isLoop(error) bool { return false }

func private(string, os.FileInfo, string) error { return nil }

func owned(os.FileInfo) bool { return false }

// SyncDir is a no-op where directories cannot be synced.
func SyncDir(string) error { return nil }
