package store

import (
	"errors"
	"io"
	"time"

	"github.com/batonrt/baton/store/vfs"
)

// openLockName is the lock the openers of a folder hold while they write
// its format file and clear its litter. No session's lock has this name:
// an escaped session id never starts with a dot.
const openLockName = "locks/.open"

// openLockWait bounds how long Open waits for other processes opening
// the folder; each holds the lock for a few syncs.
const openLockWait = 30 * time.Second

// lockOpen takes the folder's open lock, waiting while other processes
// opening the folder hold it. An opener removes other processes'
// temporary files as litter, and must not remove the one another opener
// is writing the format file through. A folder this process may only
// read is opened without the lock, since nothing is written then; the
// closer is nil then.
func (f *fileBackend) lockOpen() (io.Closer, error) {
	if err := f.fs.MkdirAll("locks"); err != nil {
		if cannotWrite(err) {
			return nil, nil
		}
		return nil, ioErr("open: mkdir locks", err)
	}
	deadline := time.Now().Add(openLockWait)
	delay := time.Millisecond
	for {
		c, err := f.fs.Lock(openLockName)
		switch {
		case err == nil:
			return c, nil
		case cannotWrite(err):
			return nil, nil
		case !errors.Is(err, vfs.ErrLocked):
			return nil, ioErr("open: lock", err)
		case time.Now().After(deadline):
			return nil, errorf("store: open: %w: another process has been opening the folder for %s", ErrLocked, openLockWait)
		}
		time.Sleep(delay)
		delay = min(2*delay, 50*time.Millisecond)
	}
}

// prepare reads the folder's format, upgrades it, and clears litter,
// holding the open lock.
func (f *fileBackend) prepare() (err error) {
	c, err := f.lockOpen()
	if err != nil {
		return err
	}
	if c != nil {
		defer func() {
			if cerr := c.Close(); err == nil && cerr != nil {
				err = ioErr("open: unlock", cerr)
			}
		}()
	}
	format, err := f.readFormat()
	if err != nil {
		return err
	}
	// A folder upgraded from format 1 keeps its loose files.
	f.loose = format == 1
	for _, d := range []string{"objects", "refs"} {
		ok, err := f.fs.Exists(d)
		if err != nil {
			return ioErr("open: stat "+d, err)
		}
		f.loose = f.loose || ok
	}
	if err := f.init(format); err != nil {
		return err
	}
	return f.cleanLitter()
}
