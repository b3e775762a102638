// Package logtest holds log sinks for tests whose code under test logs from
// several goroutines (workers, retried executions).
package logtest

import (
	"strings"
	"sync"
)

// Buffer collects what a logger writes; unlike bytes.Buffer it may be
// written and read concurrently. The zero value is ready to use.
type Buffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns everything written so far.
func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
