package vfs

import (
	"fmt"
	"io"
	"sync"
	"syscall"
)

// Faulty wraps an FS and fails one chosen mutating operation, or every
// one from it on: syncs fail with EIO and everything else with ENOSPC, as
// a failing disk and a full one do. A failed write first writes half its
// bytes, as a full disk's short write does.
type Faulty struct {
	inner  FS
	mu     sync.Mutex
	ops    int
	at     int // 0: no fault armed
	sticky bool
}

// NewFaulty wraps inner with no fault armed.
func NewFaulty(inner FS) *Faulty { return &Faulty{inner: inner} }

// Inject arms a fault at the n-th mutating operation from now; sticky
// keeps failing every operation after it.
func (f *Faulty) Inject(n int, sticky bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.at, f.sticky = f.ops+n, sticky
}

// Clear removes the fault: the disk is repaired.
func (f *Faulty) Clear() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.at = 0
}

// Ops returns how many mutating operations were attempted.
func (f *Faulty) Ops() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.ops
}

func (f *Faulty) fault(op string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ops++
	if f.at == 0 || f.ops < f.at || (f.ops > f.at && !f.sticky) {
		return nil
	}
	errno := syscall.ENOSPC
	if op == "sync" || op == "syncdir" {
		errno = syscall.EIO
	}
	return fmt.Errorf("vfs: injected fault at %s (op %d): %w", op, f.ops, errno)
}

func (f *Faulty) Create(name string) (File, error) {
	if err := f.fault("create"); err != nil {
		return nil, err
	}
	file, err := f.inner.Create(name)
	if err != nil {
		return nil, err
	}
	return faultyFile{f: f, inner: file}, nil
}

func (f *Faulty) OpenAppend(name string) (File, error) {
	if err := f.fault("open"); err != nil {
		return nil, err
	}
	file, err := f.inner.OpenAppend(name)
	if err != nil {
		return nil, err
	}
	return faultyFile{f: f, inner: file}, nil
}

func (f *Faulty) Truncate(name string, size int64) error {
	if err := f.fault("truncate"); err != nil {
		return err
	}
	return f.inner.Truncate(name, size)
}

func (f *Faulty) ReadFile(name string) ([]byte, error) { return f.inner.ReadFile(name) }

func (f *Faulty) ReadAt(name string, p []byte, off int64) (int, error) {
	return f.inner.ReadAt(name, p, off)
}

func (f *Faulty) Size(name string) (int64, error) { return f.inner.Size(name) }

func (f *Faulty) Exists(name string) (bool, error) { return f.inner.Exists(name) }

func (f *Faulty) Rename(oldname, newname string) error {
	if err := f.fault("rename"); err != nil {
		return err
	}
	return f.inner.Rename(oldname, newname)
}

func (f *Faulty) Remove(name string) error {
	if err := f.fault("remove"); err != nil {
		return err
	}
	return f.inner.Remove(name)
}

func (f *Faulty) MkdirAll(name string) error {
	if err := f.fault("mkdir"); err != nil {
		return err
	}
	return f.inner.MkdirAll(name)
}

func (f *Faulty) ReadDir(name string) ([]string, error) { return f.inner.ReadDir(name) }

func (f *Faulty) SyncDir(name string) error {
	if err := f.fault("syncdir"); err != nil {
		return err
	}
	return f.inner.SyncDir(name)
}

func (f *Faulty) Lock(name string) (io.Closer, error) {
	if err := f.fault("lock"); err != nil {
		return nil, err
	}
	return f.inner.Lock(name)
}

type faultyFile struct {
	f     *Faulty
	inner File
}

func (ff faultyFile) Write(p []byte) (int, error) {
	if err := ff.f.fault("write"); err != nil {
		n, _ := ff.inner.Write(p[:len(p)/2])
		return n, err
	}
	return ff.inner.Write(p)
}

func (ff faultyFile) Sync() error {
	if err := ff.f.fault("sync"); err != nil {
		return err
	}
	return ff.inner.Sync()
}

// Close always closes the inner file so a fault leaks no handle.
func (ff faultyFile) Close() error {
	err := ff.f.fault("close")
	if cerr := ff.inner.Close(); err == nil {
		err = cerr
	}
	return err
}
