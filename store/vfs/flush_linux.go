package vfs

import (
	"errors"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// OpenFlusher returns a flusher that calls syncfs(2) on the file system
// holding dir: it writes back and commits every file of that file
// system. Linux reports through it a write-back error that any of those
// files met only since 5.8, and only one met since the descriptor it is
// given was opened; before 5.8 such an error would be lost, so there
// flushing is unsupported and each file is synced on its own.
func (o osFS) OpenFlusher(dir string) (Flusher, error) {
	if !syncfsReportsErrors() {
		return nil, errors.ErrUnsupported
	}
	d, err := os.Open(o.path(dir))
	if err != nil {
		return nil, mapErr(err)
	}
	return dirFlusher{d: d}, nil
}

type dirFlusher struct{ d *os.File }

func (r dirFlusher) Flush() error {
	var err error
	for {
		err = unix.Syncfs(int(r.d.Fd()))
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return &os.PathError{Op: "syncfs", Path: r.d.Name(), Err: err}
	}
	return nil
}

func (r dirFlusher) Close() error { return r.d.Close() }

// syncfsReportsErrors reports whether the running kernel is 5.8 or later.
var syncfsReportsErrors = sync.OnceValue(func() bool {
	var u unix.Utsname
	if err := unix.Uname(&u); err != nil {
		return false
	}
	return kernelAtLeast(unix.ByteSliceToString(u.Release[:]), 5, 8)
})
