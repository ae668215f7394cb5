//go:build unix

package vfs

import (
	"errors"
	"io"
	"os"
	"syscall"
)

// lockFile takes a non-blocking flock: the kernel drops it when the
// holder dies, which is how a dead process's lock is recovered, and two
// opens in one process conflict as two processes do. Closing the file
// releases it.
func lockFile(f *os.File) (io.Closer, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return nil, ErrLocked
	}
	return f, err
}
