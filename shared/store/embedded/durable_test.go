package embedded

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/brandlens/brandlens/shared/store"
)

// fsyncGate stands in for fsync: each call waits for the test to answer
// it, until the gate is opened for good.
type fsyncGate struct {
	entered chan struct{}
	answer  chan error
	open    chan struct{}
}

func newFsyncGate() *fsyncGate {
	g := &fsyncGate{entered: make(chan struct{}), answer: make(chan error), open: make(chan struct{})}
	return g
}

func (g *fsyncGate) sync(*os.File) error {
	select {
	case g.entered <- struct{}{}:
	case <-g.open:
		return nil
	}
	select {
	case err := <-g.answer:
		return err
	case <-g.open:
		return nil
	}
}

func withFsync(f func(*os.File) error) Option { return func(o *options) { o.fsync = f } }

// Readers see only durable writes: while a write's fsync is in flight no
// Get or Query returns it, and when the fsync fails it never appears —
// nor does a conditional write learn of it through its condition.
func TestReadersSeeOnlyDurableWrites(t *testing.T) {
	for _, fail := range []bool{true, false} {
		name := map[bool]string{true: "fsync fails", false: "fsync succeeds"}[fail]
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			gate := newFsyncGate()
			tbl := open(t, t.TempDir(), withFsync(gate.sync))
			defer func() {
				close(gate.open)
				tbl.Close()
			}()
			k := store.Key{PK: "P", SK: "a"}
			putDone := make(chan error, 1)
			go func() { putDone <- tbl.Put(ctx, item("a", 1), store.Cond{}) }()
			<-gate.entered // the write is in the log, its fsync in flight

			page, err := tbl.Query(ctx, store.Query{PK: "P"})
			if err != nil || len(page.Items) != 0 {
				t.Fatalf("Query during the fsync: %v, %v; want nothing", page.Items, err)
			}
			getDone := make(chan error, 1)
			go func() { _, err := tbl.Get(ctx, k); getDone <- err }()
			condDone := make(chan error, 1)
			go func() { condDone <- tbl.Put(ctx, item("a", 2), store.NotExists()) }()
			select {
			case err := <-getDone:
				t.Fatalf("Get answered (%v) before the write was durable", err)
			case err := <-condDone:
				t.Fatalf("a conditional write answered (%v) from a write not yet durable", err)
			case <-time.After(50 * time.Millisecond):
			}

			var injected error
			if fail {
				injected = errors.New("injected EIO")
			}
			gate.answer <- injected
			if err := <-putDone; (err != nil) != fail {
				t.Fatalf("Put: %v", err)
			}
			getErr := <-getDone
			condErr := <-condDone
			page, qerr := tbl.Query(ctx, store.Query{PK: "P"})
			if fail {
				if !errors.Is(getErr, store.ErrNotFound) {
					t.Errorf("Get after the failed fsync: %v, want not found", getErr)
				}
				if qerr != nil || len(page.Items) != 0 {
					t.Errorf("Query after the failed fsync: %v, %v", page.Items, qerr)
				}
				if condErr == nil || errors.Is(condErr, store.ErrConditionFailed) {
					t.Errorf("conditional write: %v, want the sync failure", condErr)
				}
				if err := tbl.Put(ctx, item("b", 1), store.Cond{}); err == nil {
					t.Error("a write after a failed fsync succeeded")
				}
				return
			}
			if getErr != nil || qerr != nil || len(page.Items) != 1 {
				t.Errorf("after the fsync: Get %v, Query %v %v", getErr, page.Items, qerr)
			}
			if !errors.Is(condErr, store.ErrConditionFailed) {
				t.Errorf("conditional write: %v, want its condition to fail", condErr)
			}
		})
	}
}

// A data directory that others can write — where anyone could have
// planted a snapshot, a log or a link — is refused, not opened as found.
func TestOpenRefusesADirectoryOthersCanWrite(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	tbl := open(t, dir)
	if err := tbl.Put(ctx, item("a", 1), store.Cond{}); err != nil {
		t.Fatal(err)
	}
	if err := tbl.Close(); err != nil {
		t.Fatal(err)
	}
	planted := `{"p":[{"PK":"APIKEY#planted","SK":"APIKEY","doc":"{}"}]}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, fileName(logPrefix, 1)), []byte(planted), 0o666); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []os.FileMode{0o777, 0o755} {
		if err := os.Chmod(dir, mode); err != nil {
			t.Fatal(err)
		}
		if tbl, err := Open(dir); err == nil {
			tbl.Close()
			t.Fatalf("a directory of mode %04o was opened", mode)
		} else if !strings.Contains(err.Error(), "chmod 700") {
			t.Errorf("mode %04o: error %v does not say how to fix it", mode, err)
		}
	}
}
