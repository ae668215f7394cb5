package store

import (
	"errors"
	"io/fs"
	"syscall"
)

// cannotWrite reports whether err says the folder may only be read: the
// user lacks permission, or the file system is mounted read-only. Open
// leaves the repairs it would make (litter removed, torn tails cut) to a
// writer then, since a reader skips both anyway, so a store can be read
// by whoever may read it.
func cannotWrite(err error) bool {
	return errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS)
}
