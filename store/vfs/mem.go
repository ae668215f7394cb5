package vfs

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
)

// Keep says how much of what was not synced survives a crash.
type Keep int

const (
	// KeepNone loses every unsynced write and folder change.
	KeepNone Keep = iota
	// KeepHalf keeps the first half of each file's unsynced bytes and of
	// each folder's unsynced changes, as a torn write would.
	KeepHalf
	// KeepAll keeps everything, as if the crash came after the cache was
	// flushed.
	KeepAll
)

func (k Keep) String() string {
	switch k {
	case KeepNone:
		return "none"
	case KeepHalf:
		return "half"
	case KeepAll:
		return "all"
	}
	return fmt.Sprintf("Keep(%d)", int(k))
}

// Mem is an in-memory FS that tracks what is durable. CrashAfter arms a
// crash at a mutating operation: that operation and every later one fail
// with ErrCrashed. Restart then plays the power loss (dropping unsynced
// data as Keep says) and the reboot, after which the FS works again with
// no locks held, as a new process would find it.
type Mem struct {
	mu      sync.Mutex
	root    *memDir
	locks   map[string]bool
	ops     int
	crashAt int // 0: never; else the 1-based op index that crashes
	crashed bool
	gen     int
}

type memEntry struct {
	file *memFile
	dir  *memDir
}

// memFile is a file's current and durable bytes; rewritten says data no
// longer extends durable (a truncation), so a sync copies it whole
// rather than appending what was written since.
type memFile struct {
	data, durable []byte
	rewritten     bool
}

type memDir struct {
	cur, durable map[string]*memEntry
	pending      []memOp
}

// memOp is one unsynced change of a folder's names; a nil entry removes.
type memOp struct {
	name  string
	entry *memEntry
}

func newMemDir() *memDir {
	return &memDir{cur: map[string]*memEntry{}, durable: map[string]*memEntry{}}
}

// NewMem returns an empty in-memory FS.
func NewMem() *Mem { return &Mem{root: newMemDir(), locks: map[string]bool{}} }

// Ops returns how many mutating operations have been attempted.
func (m *Mem) Ops() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.ops
}

// CrashAfter arms a crash: the n-th mutating operation from now fails,
// with every one after it. n < 1 disarms.
func (m *Mem) CrashAfter(n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.crashAt = 0
	if n >= 1 {
		m.crashAt = m.ops + n
	}
}

// Crashed reports whether the armed crash has happened.
func (m *Mem) Crashed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.crashed
}

// Restart loses what keep says of the unsynced state, releases every lock
// and invalidates open files; the FS then works again.
func (m *Mem) Restart(keep Keep) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.root.restart(keep)
	m.locks = map[string]bool{}
	m.crashed, m.crashAt = false, 0
	m.gen++
}

func keepLen(n int, keep Keep) int {
	switch keep {
	case KeepAll:
		return n
	case KeepHalf:
		return n / 2
	}
	return 0
}

func (d *memDir) restart(keep Keep) {
	names := maps.Clone(d.durable)
	for _, op := range d.pending[:keepLen(len(d.pending), keep)] {
		if op.entry == nil {
			delete(names, op.name)
		} else {
			names[op.name] = op.entry
		}
	}
	d.cur, d.durable, d.pending = names, maps.Clone(names), nil
	for _, e := range names {
		if e.dir != nil {
			e.dir.restart(keep)
			continue
		}
		f := e.file
		if len(f.data) >= len(f.durable) && string(f.data[:len(f.durable)]) == string(f.durable) {
			extra := f.data[len(f.durable):]
			f.durable = append(f.durable, extra[:keepLen(len(extra), keep)]...)
		}
		f.data, f.rewritten = slices.Clone(f.durable), false
	}
}

// step counts a mutating operation and fails it if the crash is due.
func (m *Mem) step() error {
	if m.crashed {
		return ErrCrashed
	}
	m.ops++
	if m.crashAt != 0 && m.ops >= m.crashAt {
		m.crashed = true
		return ErrCrashed
	}
	return nil
}

func split(name string) (dir []string, base string) {
	parts := strings.Split(strings.Trim(name, "/"), "/")
	return parts[:len(parts)-1], parts[len(parts)-1]
}

func (m *Mem) dir(parts []string) (*memDir, error) {
	d := m.root
	for _, p := range parts {
		if p == "" || p == "." {
			continue
		}
		e, ok := d.cur[p]
		if !ok || e.dir == nil {
			return nil, fmt.Errorf("%w: %s", ErrNotExist, strings.Join(parts, "/"))
		}
		d = e.dir
	}
	return d, nil
}

func (m *Mem) lookup(name string) (*memDir, string, error) {
	parts, base := split(name)
	d, err := m.dir(parts)
	return d, base, err
}

func (d *memDir) set(name string, e *memEntry) {
	if e == nil {
		delete(d.cur, name)
	} else {
		d.cur[name] = e
	}
	d.pending = append(d.pending, memOp{name, e})
}

// Create makes or truncates a file.
func (m *Mem) Create(name string) (File, error) { return m.open(name, true) }

// OpenAppend opens a file for appending, making it when missing.
func (m *Mem) OpenAppend(name string) (File, error) { return m.open(name, false) }

// open returns a handle on name, making the file when missing and
// emptying an existing one when truncate is set.
func (m *Mem) open(name string, truncate bool) (File, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.step(); err != nil {
		return nil, err
	}
	d, base, err := m.lookup(name)
	if err != nil {
		return nil, err
	}
	if e, ok := d.cur[base]; ok && e.file != nil {
		if truncate {
			e.file.data, e.file.rewritten = nil, true
		}
		return &memHandle{m: m, f: e.file, gen: m.gen}, nil
	}
	e := &memEntry{file: &memFile{}}
	d.set(base, e)
	return &memHandle{m: m, f: e.file, gen: m.gen}, nil
}

// Truncate cuts a file's current contents; a crash before the next sync
// may bring the cut bytes back.
func (m *Mem) Truncate(name string, size int64) error {
	if size < 0 {
		return fmt.Errorf("vfs: truncate %s: negative size %d", name, size)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.step(); err != nil {
		return err
	}
	f, err := m.file(name)
	if err != nil {
		return err
	}
	if size < int64(len(f.data)) {
		f.data, f.rewritten = slices.Clone(f.data[:size]), true
	}
	return nil
}

func (m *Mem) file(name string) (*memFile, error) {
	d, base, err := m.lookup(name)
	if err != nil {
		return nil, err
	}
	e, ok := d.cur[base]
	if !ok || e.file == nil {
		return nil, fmt.Errorf("%w: %s", ErrNotExist, name)
	}
	return e.file, nil
}

// ReadAt reads from a file's current contents.
func (m *Mem) ReadAt(name string, p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("vfs: read %s: negative offset %d", name, off)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.crashed {
		return 0, ErrCrashed
	}
	f, err := m.file(name)
	if err != nil {
		return 0, err
	}
	if off >= int64(len(f.data)) {
		return 0, io.EOF
	}
	n := copy(p, f.data[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// Size returns a file's current length.
func (m *Mem) Size(name string) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.crashed {
		return 0, ErrCrashed
	}
	f, err := m.file(name)
	if err != nil {
		return 0, err
	}
	return int64(len(f.data)), nil
}

// ReadFile returns a file's current contents.
func (m *Mem) ReadFile(name string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.crashed {
		return nil, ErrCrashed
	}
	d, base, err := m.lookup(name)
	if err != nil {
		return nil, err
	}
	e, ok := d.cur[base]
	if !ok || e.file == nil {
		return nil, fmt.Errorf("%w: %s", ErrNotExist, name)
	}
	return slices.Clone(e.file.data), nil
}

// Exists reports whether a name exists.
func (m *Mem) Exists(name string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.crashed {
		return false, ErrCrashed
	}
	d, base, err := m.lookup(name)
	if err != nil {
		return false, nil
	}
	_, ok := d.cur[base]
	return ok, nil
}

// Rename moves a file; the new name appears before the old one goes, so a
// torn folder update never loses the file.
func (m *Mem) Rename(oldname, newname string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.step(); err != nil {
		return err
	}
	od, obase, err := m.lookup(oldname)
	if err != nil {
		return err
	}
	e, ok := od.cur[obase]
	if !ok {
		return fmt.Errorf("%w: %s", ErrNotExist, oldname)
	}
	nd, nbase, err := m.lookup(newname)
	if err != nil {
		return err
	}
	nd.set(nbase, e)
	od.set(obase, nil)
	return nil
}

// Remove deletes a name.
func (m *Mem) Remove(name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.step(); err != nil {
		return err
	}
	d, base, err := m.lookup(name)
	if err != nil {
		return err
	}
	if _, ok := d.cur[base]; !ok {
		return fmt.Errorf("%w: %s", ErrNotExist, name)
	}
	d.set(base, nil)
	return nil
}

// MkdirAll makes a folder and its parents.
func (m *Mem) MkdirAll(name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.step(); err != nil {
		return err
	}
	d := m.root
	for _, p := range strings.Split(strings.Trim(name, "/"), "/") {
		if p == "" || p == "." {
			continue
		}
		e, ok := d.cur[p]
		if !ok {
			e = &memEntry{dir: newMemDir()}
			d.set(p, e)
		}
		if e.dir == nil {
			return fmt.Errorf("vfs: mkdir %s: %s is a file", name, p)
		}
		d = e.dir
	}
	return nil
}

// ReadDir lists a folder's current names, sorted.
func (m *Mem) ReadDir(name string) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.crashed {
		return nil, ErrCrashed
	}
	d, err := m.dir(strings.Split(strings.Trim(name, "/"), "/"))
	if err != nil {
		return nil, err
	}
	return slices.Sorted(maps.Keys(d.cur)), nil
}

// SyncDir makes a folder's current names durable.
func (m *Mem) SyncDir(name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.step(); err != nil {
		return err
	}
	d, err := m.dir(strings.Split(strings.Trim(name, "/"), "/"))
	if err != nil {
		return err
	}
	d.durable, d.pending = maps.Clone(d.cur), nil
	return nil
}

// Lock takes an in-memory lock; Restart frees them all.
func (m *Mem) Lock(name string) (io.Closer, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.step(); err != nil {
		return nil, err
	}
	if m.locks[name] {
		return nil, ErrLocked
	}
	m.locks[name] = true
	return &memLock{m: m, name: name, gen: m.gen}, nil
}

type memLock struct {
	m    *Mem
	name string
	gen  int
	once sync.Once
}

func (l *memLock) Close() error {
	l.once.Do(func() {
		l.m.mu.Lock()
		defer l.m.mu.Unlock()
		if l.gen == l.m.gen {
			delete(l.m.locks, l.name)
		}
	})
	return nil
}

type memHandle struct {
	m      *Mem
	f      *memFile
	gen    int
	closed bool
}

func (h *memHandle) check() error {
	if err := h.m.step(); err != nil {
		return err
	}
	if h.gen != h.m.gen || h.closed {
		return fmt.Errorf("vfs: file closed")
	}
	return nil
}

func (h *memHandle) Write(p []byte) (int, error) {
	h.m.mu.Lock()
	defer h.m.mu.Unlock()
	if err := h.check(); err != nil {
		return 0, err
	}
	h.f.data = append(h.f.data, p...)
	return len(p), nil
}

func (h *memHandle) Sync() error {
	h.m.mu.Lock()
	defer h.m.mu.Unlock()
	if err := h.check(); err != nil {
		return err
	}
	if f := h.f; !f.rewritten && len(f.data) >= len(f.durable) {
		f.durable = append(f.durable, f.data[len(f.durable):]...)
	} else {
		f.durable, f.rewritten = slices.Clone(f.data), false
	}
	return nil
}

func (h *memHandle) Close() error {
	h.m.mu.Lock()
	defer h.m.mu.Unlock()
	if err := h.check(); err != nil {
		return err
	}
	h.closed = true
	return nil
}
