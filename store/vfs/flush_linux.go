package vfs

import (
	"errors"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// Flush is syncfs(2) on the file system holding the root: it writes back
// and commits every file of that file system. Linux reports through it a
// write-back error that any of those files met only since 5.8; before,
// such an error would be lost, so there Flush is unsupported and each
// file is synced on its own.
func (o osFS) Flush() error {
	if !syncfsReportsErrors() {
		return errors.ErrUnsupported
	}
	d, err := os.Open(o.root)
	if err != nil {
		return mapErr(err)
	}
	for {
		err = unix.Syncfs(int(d.Fd()))
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		err = &os.PathError{Op: "syncfs", Path: o.root, Err: err}
	}
	return errors.Join(err, d.Close())
}

// syncfsReportsErrors reports whether the running kernel is 5.8 or later.
var syncfsReportsErrors = sync.OnceValue(func() bool {
	var u unix.Utsname
	if err := unix.Uname(&u); err != nil {
		return false
	}
	return kernelAtLeast(unix.ByteSliceToString(u.Release[:]), 5, 8)
})
