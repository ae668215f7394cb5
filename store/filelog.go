package store

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/batonrt/baton/store/vfs"
)

// sessionLog is what this process knows of one session's log. Its mutex
// is taken before the backend's, never after.
type sessionLog struct {
	id, name, lockName string

	mu     sync.Mutex
	loaded bool              // the log was read (or found missing) at least once
	end    int64             // end of the last whole frame read or written
	last   int64             // where that frame starts
	head   [frameHeader]byte // its header, with its payload's checksum
	refs   map[RefKind]Hash
	bad    error     // damage found inside the log: it is refused
	f      vfs.File  // append handle, kept open between commits
	named  bool      // the log's name is durable
	own    bool      // the file found under name is this session's (see ownLog)
	failed bool      // a commit failed after writing: cut back to end first
	held   int       // locks on the session held through this backend
	lock   *heldLock // the file lock Lock took, which Close releases
	// settled is where the frames that may not be durable yet begin (see
	// objLoc.unsettled); read without mu, by commits to other sessions.
	// open says the last frame read moved no ref: a commit too large
	// for one frame goes on after it.
	settled atomic.Int64
	open    bool
}

func (f *fileBackend) log(session string) *sessionLog {
	f.mu.Lock()
	defer f.mu.Unlock()
	l, ok := f.logs[session]
	if !ok {
		esc := escapeSession(session)
		l = &sessionLog{id: session, name: "logs/" + esc + ".log", lockName: "locks/" + esc, refs: map[RefKind]Hash{}}
		f.logs[session] = l
	}
	return l
}

// refresh reads the frames written since the last read, by this process
// or another; a log rewound under what was read is read again from the
// start. With cut, which only a lock holder may ask for, a torn tail (or
// the frame of a commit that failed) is cut off.
func (f *fileBackend) refresh(l *sessionLog, cut bool) error {
	if l.bad != nil {
		return l.bad
	}
	if l.held > 0 && l.loaded && !l.failed {
		// This backend holds the session's lock: no one else writes the
		// log, so what was read is all there is.
		return nil
	}
	if l.failed {
		if !cut {
			return nil
		}
		return f.cutAt(l, l.end)
	}
	size, err := f.fs.Size(l.name)
	if errors.Is(err, vfs.ErrNotExist) {
		l.loaded = true
		if l.end > 0 {
			return f.damaged(l, errLogRemoved)
		}
		return nil
	}
	if err != nil {
		return ioErr("stat "+l.name, err)
	}
	if err := f.ownLog(l); err != nil {
		return err
	}
	if l.end > 0 {
		rewound, err := f.rewound(l, size)
		if err != nil {
			return err
		}
		if rewound {
			f.forget(l)
		}
	}
	l.loaded = true
	if size == l.end {
		return nil
	}
	r := newLogReader(f.fs, l.name, size)
	for l.end < size {
		fr, state, err := r.frame(l.end)
		switch state {
		case frameUnreadable:
			return err
		case frameBad:
			return f.damaged(l, err)
		case frameTorn:
			if cut {
				return f.cutAt(l, l.end)
			}
			return nil
		}
		if !l.open {
			// A commit begins here: its writer synced every commit
			// before it; this one it may be syncing still.
			l.settled.Store(l.end)
		}
		l.open = fr.kind == ""
		f.apply(l, fr)
	}
	return nil
}

// rewound reports whether the last frame read is no longer in the log. A
// process not holding the lock reads a commit's frame as soon as it is
// whole, before its sync is done; if the sync fails, the writer cuts the
// frame off and goes on appending from where it started. Refs and offsets
// read past that point would be stale, and the next frame would be looked
// for in the middle of another. A frame written again the same at the
// same place is the same commit, and nothing needs reading again.
func (f *fileBackend) rewound(l *sessionLog, size int64) (bool, error) {
	if size < l.end {
		return true, nil
	}
	var h [frameHeader]byte
	if _, err := f.fs.ReadAt(l.name, h[:], l.last); err != nil {
		if errors.Is(err, io.EOF) {
			// Cut since its size was taken.
			return true, nil
		}
		return false, ioErr("read "+l.name, err)
	}
	return h != l.head, nil
}

// forget drops what was read of l's log, to read it again from the start.
// Its objects leave the index too: apply keeps the first place it saw an
// object at, and a commit tried again writes its objects at new offsets,
// over bytes the old entries still point to.
func (f *fileBackend) forget(l *sessionLog) {
	clear(l.refs)
	l.end = 0
	l.settled.Store(0)
	l.open = false
	f.mu.Lock()
	defer f.mu.Unlock()
	for h, loc := range f.index {
		if loc.log == l {
			delete(f.index, h)
			f.forgot = true
		}
	}
}

// reindex reads again the frames already read of every log, and indexes
// the objects the index lacks: after forget, an object first seen in the
// rewound log may be in another log too, whose frames were read while
// the index named the first place only.
func (f *fileBackend) reindex() error {
	// One at a time: a lookup that misses while another reindexes waits
	// for it, rather than finding forgot cleared and the index not yet
	// whole.
	f.reindexMu.Lock()
	defer f.reindexMu.Unlock()
	f.mu.Lock()
	if !f.forgot {
		f.mu.Unlock()
		return nil
	}
	f.forgot = false
	logs := make([]*sessionLog, 0, len(f.logs))
	for _, l := range f.logs {
		logs = append(logs, l)
	}
	f.mu.Unlock()
	for _, l := range logs {
		l.mu.Lock()
		err := f.reindexLog(l)
		l.mu.Unlock()
		if err != nil {
			f.mu.Lock()
			f.forgot = true // tried again by the next lookup that misses
			f.mu.Unlock()
			return err
		}
	}
	return nil
}

// reindexLog indexes the objects of l's frames read so far that the
// index lacks; l.mu is held.
func (f *fileBackend) reindexLog(l *sessionLog) error {
	if l.bad != nil || l.end == 0 {
		return nil
	}
	r := newLogReader(f.fs, l.name, l.end)
	for off := int64(0); off < l.end; {
		fr, state, err := r.frame(off)
		if state == frameUnreadable {
			return err
		}
		if state != frameWhole {
			return nil
		}
		f.mu.Lock()
		for _, o := range fr.objs {
			if _, ok := f.index[o.hash]; !ok {
				f.index[o.hash] = objLoc{log: l, off: o.off, n: o.n}
			}
		}
		f.mu.Unlock()
		off += fr.size
	}
	return nil
}

// errLogRemoved is the damage of a log that went away under a session
// this process had read.
var errLogRemoved = errors.New("log removed")

func (f *fileBackend) damaged(l *sessionLog, why error) error {
	l.bad = errorf("store: log of %q: %w: %w", l.id, ErrCorrupt, why)
	return l.bad
}

// cutFailed cuts what a failed commit wrote, while this process still
// holds the session's lock. Once the lock is let go another writer may
// append after those bytes, and a cut made later would take its commits
// too; so a session no one here holds, whose cut failed, is read again
// from the end of its last whole frame instead, as after a crash.
func (f *fileBackend) cutFailed(l *sessionLog) {
	if l.failed && f.cutAt(l, l.end) != nil && l.held == 0 {
		l.failed = false
	}
}

// cutAt truncates the log to end; the next sync makes the cut durable.
func (f *fileBackend) cutAt(l *sessionLog, end int64) error {
	if err := f.fs.Truncate(l.name, end); err != nil && !errors.Is(err, vfs.ErrNotExist) {
		return ioErr("cut torn tail of "+l.name, err)
	}
	l.failed = false
	return nil
}

// apply takes a whole frame read or written at l.end into l and the index.
func (f *fileBackend) apply(l *sessionLog, fr frame) {
	if fr.kind != "" {
		l.refs[fr.kind] = fr.new
	}
	l.last, l.head = l.end, fr.head
	l.end += fr.size
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, o := range fr.objs {
		if _, ok := f.index[o.hash]; !ok {
			f.index[o.hash] = objLoc{log: l, off: o.off, n: o.n}
		}
	}
}

// lockedRef returns the session's ref from its log, else from format 1's
// ref file; l.mu is held.
func (f *fileBackend) lockedRef(l *sessionLog, kind RefKind) (Hash, error) {
	if h, ok := l.refs[kind]; ok {
		return h, nil
	}
	if f.loose {
		return f.looseRef(kind, l.id)
	}
	return Hash{}, RefNotFound(kind, l.id)
}

func (f *fileBackend) Ref(ctx context.Context, kind RefKind, session string) (Hash, error) {
	l := f.log(session)
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := f.refresh(l, false); err != nil {
		return Hash{}, err
	}
	return f.lockedRef(l, kind)
}

func (f *fileBackend) Commit(ctx context.Context, kind RefKind, session string, old, new Hash, objs []Object) (err error) {
	if err := ctx.Err(); err != nil {
		return errorf("store: commit %q: %w", session, err)
	}
	if _, ok := refKindCodes[kind]; !ok {
		return errorf("store: commit: %w: ref kind %q", ErrInvalid, kind)
	}
	if f.noWrite != nil {
		return errorf("store: commit %q: %w", session, f.noWrite)
	}
	l := f.log(session)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.held == 0 {
		// No driver of this process holds the session: hold its lock for
		// this commit, so no other process writes the log meanwhile.
		c, lerr := f.lockFile(l)
		if lerr != nil {
			return lerr
		}
		defer func() {
			// The handle goes with the lock, as unlock lets it go: a
			// process appending to many sessions it does not hold keeps
			// no file of theirs open. A failed close leaves the commit
			// unacknowledged, as a crash right after its sync would.
			if cerr := l.closeFile(); cerr != nil && err == nil {
				err = ioErr("close "+l.name, cerr)
			}
			_ = c.Close()
		}()
	}
	if err := f.refresh(l, true); err != nil {
		return err
	}
	cur, err := f.lockedRef(l, kind)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	if cur != old {
		return errorf("store: %s ref of %q: %w: holds %s, expected %s", kind, session, ErrConflict, cur, old)
	}
	objs, err = f.carry(l, new, f.missing(l, objs))
	if err != nil {
		return errorf("store: commit %q: %w", session, err)
	}
	b, err := encodeCommit(kind, old, new, objs)
	if err != nil {
		return errorf("store: commit %q: %w", session, err)
	}
	if err := f.write(l, b); err != nil {
		l.failed = true
		_ = l.closeFile()
		f.cutFailed(l)
		return err
	}
	for off := 0; off < len(b); {
		fr, _, err := readFrame(b[off:], l.end)
		if err != nil {
			return errorf("store: commit %q: %w", session, err)
		}
		f.apply(l, fr)
		off += int(fr.size)
	}
	l.settled.Store(l.end)
	l.open = false
	return nil
}

// encodeCommit encodes a commit as frames under maxFrame: objects-only
// frames while they do not fit in one, then the frame that moves the
// ref. A crash may keep the first frames and lose the last: objects
// nothing names, which is harmless. An object too large for a frame is
// refused; the Store refuses a node over MaxNode, far smaller, before
// its backend sees it, so only a Backend used directly meets this.
func encodeCommit(kind RefKind, old, new Hash, objs []Object) ([]byte, error) {
	var b []byte
	start, size := 0, 0
	for i, o := range objs {
		n := len(o.Bytes) + 64
		if n > frameSplit {
			return nil, errorf("%w: object %s is %d bytes", ErrInvalid, o.Hash, len(o.Bytes))
		}
		if size+n > frameSplit {
			b = encodeFrame(b, "", Hash{}, Hash{}, objs[start:i])
			start, size = i, 0
		}
		size += n
	}
	return encodeFrame(b, kind, old, new, objs[start:]), nil
}

// missing drops the objects already stored durably, in a log or as loose
// files, from a commit to l.
func (f *fileBackend) missing(l *sessionLog, objs []Object) []Object {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := objs[:0:0]
	seen := make(map[Hash]bool, len(objs))
	for _, o := range objs {
		if loc, ok := f.index[o.Hash]; (!ok || loc.unsettled(l)) && !seen[o.Hash] {
			seen[o.Hash] = true
			out = append(out, o)
		}
	}
	return out
}

// write appends one frame and syncs it: the one data sync of a commit
// (the folder too the first time a log is made).
func (f *fileBackend) write(l *sessionLog, b []byte) error {
	if l.f == nil {
		file, err := f.fs.OpenAppend(l.name)
		if err != nil {
			return ioErr("open "+l.name, err)
		}
		l.f = file
		// Opened under the session's lock, after refresh found the log
		// missing or checked its name: what it names is this session's.
		l.own = true
	}
	if _, err := l.f.Write(b); err != nil {
		return ioErr("write "+l.name, err)
	}
	if err := f.syncLog(l.f); err != nil {
		return ioErr("sync "+l.name, err)
	}
	if !l.named {
		if err := f.fs.SyncDir("logs"); err != nil {
			return ioErr("sync logs", err)
		}
		l.named = true
	}
	return nil
}

// syncLog makes a commit's frame durable: with other sessions' commits
// when the file system can flush them together.
func (f *fileBackend) syncLog(file vfs.File) error {
	if f.group != nil {
		return f.group.sync(file)
	}
	return file.Sync()
}

func (l *sessionLog) closeFile() error {
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

func (f *fileBackend) Get(ctx context.Context, h Hash) ([]byte, error) {
	b, ok, err := f.readIndexed(h)
	if ok && f.settle(h, b, err) {
		b, ok, err = f.readIndexed(h)
	}
	if ok || err != nil {
		return b, err
	}
	// Not seen yet: another session's log, one written since, or a loose
	// object of format 1.
	if err := f.refreshAll(); err != nil {
		return nil, err
	}
	if b, ok, err := f.readIndexed(h); ok || err != nil {
		return b, err
	}
	if err := f.reindex(); err != nil {
		return nil, err
	}
	if b, ok, err := f.readIndexed(h); ok || err != nil {
		return b, err
	}
	if f.loose {
		return f.looseObject(h)
	}
	return nil, errorf("store: object %s: %w", h, ErrNotFound)
}

func (f *fileBackend) readIndexed(h Hash) ([]byte, bool, error) {
	f.mu.Lock()
	loc, ok := f.index[h]
	f.mu.Unlock()
	if !ok {
		return nil, false, nil
	}
	b := make([]byte, loc.n)
	if n, err := f.fs.ReadAt(loc.log.name, b, loc.off); err != nil && !(errors.Is(err, io.EOF) && n == len(b)) {
		if errors.Is(err, io.EOF) {
			return nil, true, errorf("store: object %s: %w: log of %q cut short", h, ErrCorrupt, loc.log.id)
		}
		return nil, true, ioErr("read object "+h.String(), err)
	}
	return b, true, nil
}

// refreshAll reads every log's new frames, including logs not seen yet.
func (f *fileBackend) refreshAll() error {
	ids, err := f.logIDs()
	if err != nil {
		return err
	}
	for _, id := range ids {
		l := f.listed(id)
		l.mu.Lock()
		err := f.refresh(l, false)
		l.mu.Unlock()
		if err != nil && !errors.Is(err, ErrCorrupt) {
			return err
		}
	}
	return nil
}

// logIDs lists the sessions that have a log.
func (f *fileBackend) logIDs() ([]string, error) {
	names, err := f.fs.ReadDir("logs")
	if errors.Is(err, vfs.ErrNotExist) && f.noWrite != nil {
		// A folder of format 1 that could not be upgraded has no logs.
		return nil, nil
	}
	if err != nil {
		return nil, ioErr("list logs", err)
	}
	var ids []string
	for _, n := range names {
		if base, ok := strings.CutSuffix(n, ".log"); ok {
			if id, ok := unescapeSession(base); ok {
				ids = append(ids, id)
			}
		}
	}
	return ids, nil
}

func (f *fileBackend) Refs(ctx context.Context, kind RefKind) ([]string, error) {
	ids, err := f.logIDs()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, id := range ids {
		l := f.listed(id)
		l.mu.Lock()
		err := f.refresh(l, false)
		_, has := l.refs[kind]
		l.mu.Unlock()
		// A damaged log is listed, so that reading it reports the damage.
		if has || errors.Is(err, ErrCorrupt) {
			out = append(out, id)
		} else if err != nil {
			return nil, err
		}
	}
	if f.loose {
		more, err := f.looseRefs(kind)
		if err != nil {
			return nil, err
		}
		out = append(out, more...)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

func (f *fileBackend) lockFile(l *sessionLog) (io.Closer, error) {
	c, err := f.fs.Lock(l.lockName)
	if errors.Is(err, vfs.ErrLocked) {
		return nil, errorf("store: lock %q: %w", l.id, ErrLocked)
	}
	if err != nil {
		return nil, ioErr("lock "+l.id, err)
	}
	return c, nil
}

func (f *fileBackend) Lock(ctx context.Context, session string) (io.Closer, error) {
	if f.noWrite != nil {
		return nil, errorf("store: lock %q: %w", session, f.noWrite)
	}
	l := f.log(session)
	l.mu.Lock()
	defer l.mu.Unlock()
	c, err := f.lockFile(l)
	if err != nil {
		return nil, err
	}
	// Catch up with what other writers did before this lock, cutting the
	// tail of one that died mid-write: while the lock is held nothing
	// else is read from the log.
	if err := f.refresh(l, true); err != nil && !errors.Is(err, ErrCorrupt) {
		_ = c.Close()
		return nil, err
	}
	l.held++
	h := &heldLock{c}
	l.lock = h
	var once sync.Once
	return closerFunc(func() error {
		var err error
		once.Do(func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			if l.lock != h {
				// Released already, by Close.
				return
			}
			err = f.unlock(l)
		})
		return err
	}), nil
}

// heldLock is a file lock Lock took, told apart from a later one by its
// address.
type heldLock struct{ c io.Closer }

// unlock lets go of the lock l holds; l.mu is held.
func (f *fileBackend) unlock(l *sessionLog) error {
	l.held--
	var err error
	if l.held == 0 {
		// Only a lock holder appends: the handle kept open between its
		// commits goes with the last lock, so a process serving many
		// sessions holds no file of a session it let go.
		if cerr := l.closeFile(); cerr != nil {
			err = ioErr("close "+l.name, cerr)
		}
		f.cutFailed(l)
	}
	if cerr := l.lock.c.Close(); cerr != nil && err == nil {
		err = ioErr("unlock "+l.id, cerr)
	}
	l.lock = nil
	return err
}

// cutTornTails checks the last frame of every log and, where a write was
// interrupted, reads the log through and cuts the torn tail, holding the
// session's lock; a log whose lock is held belongs to a live writer and
// is left to it, and one this process may not write is left to a writer.
func (f *fileBackend) cutTornTails() error {
	ids, err := f.logIDs()
	if err != nil {
		return err
	}
	for _, id := range ids {
		l := f.listed(id)
		if ok, err := f.tailWhole(l); err != nil || ok {
			if err != nil {
				return err
			}
			continue
		}
		c, err := f.lockFile(l)
		if errors.Is(err, ErrLocked) || cannotWrite(err) {
			continue
		}
		if err != nil {
			return err
		}
		l.mu.Lock()
		err = f.refresh(l, true)
		if err == nil {
			err = f.syncCut(l)
		}
		l.mu.Unlock()
		if cerr := c.Close(); err == nil && !errors.Is(err, ErrCorrupt) {
			err = cerr
		}
		if err != nil && !errors.Is(err, ErrCorrupt) && !cannotWrite(err) {
			return err
		}
	}
	return nil
}

// syncCut makes a cut durable.
func (f *fileBackend) syncCut(l *sessionLog) error {
	file, err := f.fs.OpenAppend(l.name)
	if err != nil {
		return ioErr("open "+l.name, err)
	}
	err = file.Sync()
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return ioErr("sync "+l.name, err)
	}
	return nil
}

// tailWhole reports whether the log is empty or ends with a whole frame,
// reading only that frame. The trailer names where the last frame
// starts; a torn tail's last bytes may name the start of an earlier
// frame too, so the frame found there must also end the log.
func (f *fileBackend) tailWhole(l *sessionLog) (bool, error) {
	size, err := f.fs.Size(l.name)
	if err != nil {
		return false, ioErr("stat "+l.name, err)
	}
	if size == 0 {
		return true, nil
	}
	if size < frameOverhead {
		return false, nil
	}
	var t [frameTrailer]byte
	if _, err := f.fs.ReadAt(l.name, t[:], size-frameTrailer); err != nil {
		return false, ioErr("read "+l.name, err)
	}
	start := size - int64(binary.LittleEndian.Uint32(t[:])) - frameOverhead
	if start < 0 {
		return false, nil
	}
	fr, state, err := newLogReader(f.fs, l.name, size).frame(start)
	if state == frameUnreadable {
		return false, err
	}
	return state == frameWhole && start+fr.size == size, nil
}
