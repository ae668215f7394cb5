//go:build !unix

package vfs

import (
	"io"
	"os"
	"sync"
)

var held sync.Map

// lockFile falls back to an in-process lock where flock is missing; it
// does not exclude other processes.
func lockFile(f *os.File) (io.Closer, error) {
	if _, loaded := held.LoadOrStore(f.Name(), true); loaded {
		return nil, ErrLocked
	}
	return unlocker{f}, nil
}

type unlocker struct{ f *os.File }

func (u unlocker) Close() error {
	held.Delete(u.f.Name())
	return u.f.Close()
}
