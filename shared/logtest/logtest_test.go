package logtest_test

import (
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/brandlens/brandlens/shared/logtest"
)

// Loggers on many goroutines, with reads between the writes: every record
// arrives whole (the race detector checks the locking).
func TestBufferConcurrentLoggers(t *testing.T) {
	const workers, records = 8, 50
	var buf logtest.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, nil))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range records {
				log.Info("delivered", "worker", w, "n", i)
				_ = buf.String()
			}
		})
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != workers*records {
		t.Fatalf("%d lines, want %d", len(lines), workers*records)
	}
	for w := range workers {
		for i := range records {
			if want := fmt.Sprintf(`"worker":%d,"n":%d}`, w, i); !strings.Contains(buf.String(), want) {
				t.Fatalf("no record %s", want)
			}
		}
	}
}
