package vfs

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// Flush is syncfs(2) on the file system holding the root: it writes back
// and commits every file of that file system, and since Linux 5.8 reports
// a writeback error that any of them met.
func (o osFS) Flush() error {
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
