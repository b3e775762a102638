package embedded

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/google/btree"

	"github.com/brandlens/brandlens/shared/datadir"
	"github.com/brandlens/brandlens/shared/store"
)

// On disk, generation g of the table is snapshot-g (the state after every
// log before g; absent for g = 1) plus log-g (the writes since, one JSON
// line per commit, so a transaction is one line). Compaction starts log-g+1
// at once and writes snapshot-g+1 from a copy-on-write clone of the tree in
// the background; once the snapshot is renamed into place, older files go.
// Opening loads the newest snapshot and replays every log of its generation
// or later; a torn last line (a write cut by a crash) is dropped.

const (
	snapshotPrefix = "snapshot-"
	logPrefix      = "log-"
	fileSuffix     = ".jsonl"
	snapshotFormat = "brandlens-store-snapshot"
)

func fileName(prefix string, gen uint64) string {
	return fmt.Sprintf("%s%016d%s", prefix, gen, fileSuffix)
}

// logRecord is one committed write.
type logRecord struct {
	P []store.Item `json:"p,omitempty"`
	D []store.Key  `json:"d,omitempty"`
}

type snapshotHeader struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
}

type disk struct {
	t         *Table
	dir       string
	sync      bool
	fsync     func(*os.File) error
	compactAt int64
	lock      *os.File

	// Guarded by t.mu.
	log        *os.File
	gen        uint64
	logSize    int64
	snapSize   int64
	retryAt    int64 // after a failed compaction, the log size to try again at
	broken     error // a log write that could not be undone: refuse writes
	compacting chan struct{}
	compactErr error

	// Group commit: one writer fsyncs for everyone waiting. Guarded by smu.
	smu     sync.Mutex
	scond   *sync.Cond
	syncing bool
	synced  uint64
	serr    error
	sfile   *os.File
	written atomic.Uint64 // last commit written to the log
}

func openDisk(dir string, o options, t *Table) (_ *disk, err error) {
	lock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			lock.Close()
		}
	}()
	snaps, logs, err := listGenerations(dir)
	if err != nil {
		return nil, err
	}
	var snapGen uint64
	var snapSize int64
	if len(snaps) > 0 {
		snapGen = snaps[len(snaps)-1]
		if snapSize, err = loadSnapshot(filepath.Join(dir, fileName(snapshotPrefix, snapGen)), t); err != nil {
			return nil, err
		}
	}
	gen := max(snapGen, 1)
	var replay []uint64
	for _, g := range logs {
		if g >= snapGen {
			replay = append(replay, g)
			gen = max(gen, g)
		}
	}
	var logSize int64
	for i, g := range replay {
		last := i == len(replay)-1
		size, err := replayLog(filepath.Join(dir, fileName(logPrefix, g)), t, last)
		if err != nil {
			return nil, err
		}
		if last {
			logSize = size
		}
	}
	// Files the snapshot covers are left over from a crash mid-compaction.
	removeBefore(dir, snapGen)
	f, err := openLog(dir, gen, false)
	if err != nil {
		return nil, err
	}
	d := &disk{
		t: t, dir: dir, sync: o.sync, fsync: o.fsync, compactAt: o.compactAt, lock: lock,
		log: f, gen: gen, logSize: logSize, snapSize: snapSize,
		synced: t.seq, sfile: f,
	}
	d.scond = sync.NewCond(&d.smu)
	d.written.Store(t.seq)
	return d, nil
}

// openLog opens the log of generation gen for appending: a new one
// (fresh) is created exclusively, the current one at start may exist.
func openLog(dir string, gen uint64, fresh bool) (*os.File, error) {
	open := datadir.OpenOrCreate
	if fresh {
		open = datadir.Create
	}
	f, err := open(dir, fileName(logPrefix, gen), os.O_WRONLY|os.O_APPEND)
	if err != nil {
		return nil, fmt.Errorf("store: open log: %w", err)
	}
	if err := datadir.SyncDir(dir); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// listGenerations returns the generations of the snapshots and logs in dir,
// ascending, and removes temporary files left by a crash.
func listGenerations(dir string) (snaps, logs []uint64, err error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("store: read %s: %w", dir, err)
	}
	for _, de := range des {
		name := de.Name()
		if strings.HasSuffix(name, ".tmp") {
			os.Remove(filepath.Join(dir, name))
			continue
		}
		if g, ok := parseGen(name, snapshotPrefix); ok {
			snaps = append(snaps, g)
		} else if g, ok := parseGen(name, logPrefix); ok {
			logs = append(logs, g)
		}
	}
	sort.Slice(snaps, func(i, j int) bool { return snaps[i] < snaps[j] })
	sort.Slice(logs, func(i, j int) bool { return logs[i] < logs[j] })
	return snaps, logs, nil
}

func parseGen(name, prefix string) (uint64, bool) {
	s, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return 0, false
	}
	s, ok = strings.CutSuffix(s, fileSuffix)
	if !ok {
		return 0, false
	}
	g, err := strconv.ParseUint(s, 10, 64)
	return g, err == nil && g > 0
}

// removeBefore deletes snapshots and logs older than gen.
func removeBefore(dir string, gen uint64) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, de := range des {
		name := de.Name()
		g, ok := parseGen(name, snapshotPrefix)
		if !ok {
			g, ok = parseGen(name, logPrefix)
		}
		if ok && g < gen {
			os.Remove(filepath.Join(dir, name))
		}
	}
}

// decodeItem turns a JSON object decoded with UseNumber into an item.
func decodeItem(m map[string]any) (store.Item, error) {
	it := make(store.Item, len(m))
	for k, v := range m {
		switch x := v.(type) {
		case string, bool:
			it[k] = x
		case json.Number:
			n, err := x.Int64()
			if err != nil {
				return nil, fmt.Errorf("attribute %s: %w", k, err)
			}
			it[k] = n
		default:
			return nil, fmt.Errorf("attribute %s has unsupported type %T", k, v)
		}
	}
	return it, it.Validate()
}

func decodeJSON(line []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("trailing data")
	}
	return nil
}

func decodeRecord(line []byte) (puts []store.Item, dels []store.Key, err error) {
	var raw struct {
		P []map[string]any `json:"p"`
		D []store.Key      `json:"d"`
	}
	if err := decodeJSON(line, &raw); err != nil {
		return nil, nil, err
	}
	if len(raw.P)+len(raw.D) == 0 {
		return nil, nil, errors.New("empty record")
	}
	for _, m := range raw.P {
		it, err := decodeItem(m)
		if err != nil {
			return nil, nil, err
		}
		puts = append(puts, it)
	}
	for _, k := range raw.D {
		if err := k.Validate(); err != nil {
			return nil, nil, err
		}
	}
	return puts, raw.D, nil
}

// replayLog applies the records of one log to t and returns the length of
// its good prefix. A last line that does not decode is a write cut short by
// a crash: it is dropped, and cut off the file when truncate is set (the
// log that will be appended to). A bad line before the last is corruption.
func replayLog(path string, t *Table, truncate bool) (int64, error) {
	data, err := datadir.ReadFile(filepath.Split(path))
	if err != nil {
		return 0, fmt.Errorf("store: read log: %w", err)
	}
	off := 0
	for off < len(data) {
		end := len(data)
		complete := false
		if nl := bytes.IndexByte(data[off:], '\n'); nl >= 0 {
			end, complete = off+nl+1, true
		}
		var puts []store.Item
		var dels []store.Key
		err := errors.New("unterminated line")
		if complete {
			puts, dels, err = decodeRecord(data[off : end-1])
		}
		if err != nil {
			if end == len(data) {
				if truncate {
					if err := os.Truncate(path, int64(off)); err != nil {
						return 0, fmt.Errorf("store: cut torn log line: %w", err)
					}
				}
				return int64(off), nil
			}
			return 0, fmt.Errorf("store: %s is corrupt at byte %d: %v", path, off, err)
		}
		t.seq++
		for _, it := range puts {
			if err := t.insertItem(it, t.seq); err != nil {
				return 0, fmt.Errorf("store: %s at byte %d: %w", path, off, err)
			}
		}
		for _, k := range dels {
			t.remove(k)
		}
		off = end
	}
	return int64(off), nil
}

func loadSnapshot(path string, t *Table) (int64, error) {
	dir, name := filepath.Split(path)
	f, err := datadir.OpenFile(dir, name, os.O_RDONLY)
	if err != nil {
		return 0, fmt.Errorf("store: open snapshot: %w", err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	bad := func(why string, args ...any) (int64, error) {
		return 0, fmt.Errorf("store: snapshot %s: %s", path, fmt.Sprintf(why, args...))
	}
	var size int64
	var count int64
	for lineNo := 0; ; lineNo++ {
		line, err := r.ReadBytes('\n')
		size += int64(len(line))
		if err == io.EOF {
			return bad("ends without its trailer")
		}
		if err != nil {
			return 0, fmt.Errorf("store: read snapshot: %w", err)
		}
		line = line[:len(line)-1]
		if lineNo == 0 {
			var h snapshotHeader
			if err := decodeJSON(line, &h); err != nil || h.Format != snapshotFormat || h.Version != 1 {
				return bad("unknown header %q", line)
			}
			continue
		}
		var m map[string]any
		if err := decodeJSON(line, &m); err != nil {
			return bad("line %d: %v", lineNo+1, err)
		}
		if _, isItem := m[store.AttrPK]; !isItem {
			n, ok := m["end"].(json.Number)
			if !ok || len(m) != 1 || n.String() != strconv.FormatInt(count, 10) {
				return bad("bad trailer %q after %d items", line, count)
			}
			if _, err := r.ReadByte(); err != io.EOF {
				return bad("data after the trailer")
			}
			return size, nil
		}
		it, err := decodeItem(m)
		if err != nil {
			return bad("line %d: %v", lineNo+1, err)
		}
		t.seq++
		if err := t.insertItem(it, t.seq); err != nil {
			return bad("line %d: %v", lineNo+1, err)
		}
		count++
	}
}

// writeSnapshot writes the unexpired items of tree as snapshot gen and
// returns its size and the expired entries it left out.
func (d *disk) writeSnapshot(gen uint64, tree *btree.BTreeG[entry]) (size int64, expired []entry, err error) {
	final := filepath.Join(d.dir, fileName(snapshotPrefix, gen))
	tmp := final + ".tmp"
	f, err := datadir.Create(d.dir, filepath.Base(tmp), os.O_WRONLY)
	if err != nil {
		return 0, nil, fmt.Errorf("store: write snapshot: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	w := bufio.NewWriterSize(f, 1<<20)
	cw := &countingWriter{w: w}
	enc := json.NewEncoder(cw)
	enc.SetEscapeHTML(false)
	if err = enc.Encode(snapshotHeader{Format: snapshotFormat, Version: 1}); err != nil {
		return 0, nil, err
	}
	now := d.t.now()
	var count int64
	tree.Ascend(func(e entry) bool {
		if e.expired(now) {
			expired = append(expired, e)
			return true
		}
		count++
		err = enc.Encode(e.rec.item())
		return err == nil
	})
	if err != nil {
		return 0, nil, fmt.Errorf("store: write snapshot: %w", err)
	}
	if err = enc.Encode(map[string]int64{"end": count}); err != nil {
		return 0, nil, fmt.Errorf("store: write snapshot: %w", err)
	}
	if err = w.Flush(); err != nil {
		return 0, nil, fmt.Errorf("store: write snapshot: %w", err)
	}
	if err = f.Sync(); err != nil {
		return 0, nil, fmt.Errorf("store: sync snapshot: %w", err)
	}
	if err = f.Close(); err != nil {
		return 0, nil, fmt.Errorf("store: close snapshot: %w", err)
	}
	if err = os.Rename(tmp, final); err != nil {
		return 0, nil, fmt.Errorf("store: install snapshot: %w", err)
	}
	if err = datadir.SyncDir(d.dir); err != nil {
		return 0, nil, err
	}
	return cw.n, expired, nil
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// append writes one commit to the log; t.mu is held.
func (d *disk) append(puts []store.Item, dels []store.Key, seq uint64) error {
	if d.broken != nil {
		return d.broken
	}
	if err := d.syncErr(); err != nil {
		return err
	}
	line, err := json.Marshal(logRecord{P: puts, D: dels})
	if err != nil {
		return fmt.Errorf("store: encode log record: %w", err)
	}
	line = append(line, '\n')
	n, err := d.log.Write(line)
	if err != nil {
		// Leave no partial line for the next record to be glued to.
		if terr := d.log.Truncate(d.logSize); terr != nil {
			d.broken = fmt.Errorf("store: log unusable after a failed write: %w", err)
		}
		return fmt.Errorf("store: write log: %w", err)
	}
	d.logSize += int64(n)
	d.written.Store(seq)
	return nil
}

func (d *disk) syncErr() error {
	d.smu.Lock()
	defer d.smu.Unlock()
	return d.serr
}

// waitSynced returns once commit seq is on disk. Whoever finds no fsync
// running starts one covering every commit written so far; the others wait
// for it (group commit).
func (d *disk) waitSynced(seq uint64) error {
	if !d.sync {
		return nil
	}
	d.smu.Lock()
	defer d.smu.Unlock()
	for d.synced < seq {
		if d.serr != nil {
			return d.serr
		}
		if d.syncing {
			d.scond.Wait()
			continue
		}
		d.syncing = true
		f, target := d.sfile, d.written.Load()
		d.smu.Unlock()
		err := d.fsync(f)
		d.smu.Lock()
		d.syncing = false
		if err != nil {
			d.serr = fmt.Errorf("store: sync log: %w", err)
		} else if target > d.synced {
			d.synced = target
		}
		d.scond.Broadcast()
	}
	return nil
}

// syncedSeq is the last commit known to be on disk.
func (d *disk) syncedSeq() uint64 {
	d.smu.Lock()
	defer d.smu.Unlock()
	return d.synced
}

// switchLog makes f the log that fsyncs go to, after syncing the old one;
// t.mu is held, so nothing is being written. Every commit is then durable
// and applied, so that the snapshot cloned next holds them all.
func (d *disk) switchLog(f *os.File) error {
	d.smu.Lock()
	defer d.smu.Unlock()
	for d.syncing {
		d.scond.Wait()
	}
	if d.serr != nil {
		return d.serr
	}
	if err := d.fsync(d.sfile); err != nil {
		d.serr = fmt.Errorf("store: sync log: %w", err)
		d.scond.Broadcast()
		return d.serr
	}
	d.synced = d.written.Load()
	d.t.applyPending(d.synced)
	d.sfile = f
	d.scond.Broadcast()
	return nil
}

// maybeCompact starts a background compaction once the log has outgrown
// both the threshold and the last snapshot; t.mu is held.
func (d *disk) maybeCompact() {
	if d.compacting != nil || d.logSize < max(d.compactAt, d.snapSize, d.retryAt) {
		return
	}
	gen, tree, done, err := d.startCompaction()
	if err != nil {
		d.compactErr = err
		d.retryAt = 2 * d.logSize
		return
	}
	go d.finishCompaction(gen, tree, done) // its error is kept in compactErr
}

// startCompaction rotates the log and clones the tree; t.mu is held.
func (d *disk) startCompaction() (uint64, *btree.BTreeG[entry], chan struct{}, error) {
	gen := d.gen + 1
	f, err := openLog(d.dir, gen, true)
	if err != nil {
		return 0, nil, nil, err
	}
	if err := d.switchLog(f); err != nil {
		f.Close()
		os.Remove(filepath.Join(d.dir, fileName(logPrefix, gen)))
		return 0, nil, nil, err
	}
	d.log.Close()
	d.log, d.gen, d.logSize, d.retryAt = f, gen, 0, 0
	done := make(chan struct{})
	d.compacting = done
	return gen, d.t.items.Clone(), done, nil
}

func (d *disk) finishCompaction(gen uint64, tree *btree.BTreeG[entry], done chan struct{}) error {
	defer close(done)
	size, expired, err := d.writeSnapshot(gen, tree)
	if err == nil {
		removeBefore(d.dir, gen)
	}
	t := d.t
	t.mu.Lock()
	defer t.mu.Unlock()
	d.compacting = nil
	d.compactErr = err
	if err != nil {
		return err
	}
	d.snapSize = size
	// Expired items the snapshot left out leave memory too, unless they
	// have been written since the clone.
	for _, e := range expired {
		if cur, ok := t.items.Get(e); ok && cur.seq == e.seq {
			t.remove(store.Key{PK: e.h(), SK: e.r()})
		}
	}
	return nil
}

// compact runs one compaction now, after any running one.
func (d *disk) compact() error {
	t := d.t
	t.mu.Lock()
	for d.compacting != nil {
		done := d.compacting
		t.mu.Unlock()
		<-done
		t.mu.Lock()
	}
	if t.closed {
		t.mu.Unlock()
		return ErrClosed
	}
	gen, tree, done, err := d.startCompaction()
	t.mu.Unlock()
	if err != nil {
		return err
	}
	return d.finishCompaction(gen, tree, done)
}

// close runs after t.closed is set, so no commit or compaction starts.
func (d *disk) close() error {
	d.t.mu.Lock()
	done := d.compacting
	d.t.mu.Unlock()
	if done != nil {
		<-done
	}
	d.smu.Lock()
	for d.syncing {
		d.scond.Wait()
	}
	serr := d.serr
	if serr == nil {
		if err := d.fsync(d.sfile); err != nil {
			serr = fmt.Errorf("store: sync log: %w", err)
		} else {
			d.synced = d.written.Load()
		}
	}
	d.serr = ErrClosed
	d.scond.Broadcast()
	d.smu.Unlock()
	d.t.mu.Lock()
	cerr := d.compactErr
	d.t.mu.Unlock()
	return errors.Join(serr, d.log.Close(), d.lock.Close(), cerr)
}
