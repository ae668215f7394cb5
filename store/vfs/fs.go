package vfs

import (
	"errors"
	"io"
)

// Errors an FS returns, for errors.Is.
var (
	// ErrNotExist: the named file or folder does not exist.
	ErrNotExist = errors.New("vfs: file does not exist")
	// ErrLocked: the lock is held by another holder.
	ErrLocked = errors.New("vfs: lock held elsewhere")
	// ErrCrashed: the in-memory FS crashed; every later call fails until
	// Restart.
	ErrCrashed = errors.New("vfs: crashed")
)

// FS is what the file backend needs of a file system. Nothing written is
// durable until the file is synced, and no change to a folder's names
// (create, rename, remove) is durable until the folder is synced.
type FS interface {
	// Create makes (or truncates) a file for writing.
	Create(name string) (File, error)
	// OpenAppend opens a file for appending, making it when missing (a
	// new name is durable once its folder is synced).
	OpenAppend(name string) (File, error)
	// Truncate cuts a file to size bytes; durable once the file is synced
	// through a handle opened after it.
	Truncate(name string, size int64) error
	// ReadFile returns a whole file; ErrNotExist when it is missing.
	ReadFile(name string) ([]byte, error)
	// ReadAt reads len(p) bytes from off, as io.ReaderAt does (io.EOF
	// when the file ends first); ErrNotExist when it is missing.
	ReadAt(name string, p []byte, off int64) (int, error)
	// Size returns a file's length; ErrNotExist when it is missing.
	Size(name string) (int64, error)
	// Exists reports whether a name exists.
	Exists(name string) (bool, error)
	// Rename moves a file, replacing any file at newname.
	Rename(oldname, newname string) error
	// Remove deletes a file.
	Remove(name string) error
	// MkdirAll makes a folder and its parents.
	MkdirAll(name string) error
	// ReadDir lists a folder's names, sorted; ErrNotExist when missing.
	ReadDir(name string) ([]string, error)
	// SyncDir makes the folder's names durable.
	SyncDir(name string) error
	// Lock takes an exclusive lock named name, failing at once with
	// ErrLocked when it is held, by this process or another. A lock whose
	// holder died is free again.
	Lock(name string) (io.Closer, error)
}

// File is a file open for writing.
type File interface {
	io.Writer
	// Sync makes what was written durable (the data and the length, not
	// necessarily the times).
	Sync() error
	Close() error
}

// FlushFS is an FS that can make everything written to its files durable
// at once, with one flush of the file system beneath (syncfs on Linux),
// where File.Sync flushes one file. Writers of many files that share a
// disk can then pay for one flush instead of one each.
type FlushFS interface {
	FS
	// OpenFlusher returns a flusher of the file system holding the
	// folder dir, which need not be the one holding the root (dir may be
	// a symlink or a mount point): it makes durable the files in dir.
	// errors.ErrUnsupported means the platform has no such flush.
	OpenFlusher(dir string) (Flusher, error)
}

// Flusher flushes a file system. It reports a write-back error any of
// the file system's files met since the flusher was opened, and only
// since then, so it must be opened before the writes it is to make
// durable, and kept: a flusher opened later would not see an error met
// in between.
type Flusher interface {
	// Flush makes every file's written data durable, as Sync on each
	// would.
	Flush() error
	Close() error
}
