package vfs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// OS returns the operating system's file system rooted at dir.
func OS(dir string) FS { return osFS{root: dir} }

type osFS struct{ root string }

func (o osFS) path(name string) string { return filepath.Join(o.root, filepath.FromSlash(name)) }

func mapErr(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return errors.Join(ErrNotExist, err)
	}
	return err
}

func (o osFS) Create(name string) (File, error) {
	f, err := os.OpenFile(o.path(name), os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, mapErr(err)
	}
	return osFile{f}, nil
}

func (o osFS) OpenAppend(name string) (File, error) {
	f, err := os.OpenFile(o.path(name), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, mapErr(err)
	}
	return osFile{f}, nil
}

func (o osFS) Truncate(name string, size int64) error {
	return mapErr(os.Truncate(o.path(name), size))
}

func (o osFS) ReadFile(name string) ([]byte, error) {
	b, err := os.ReadFile(o.path(name))
	return b, mapErr(err)
}

func (o osFS) ReadAt(name string, p []byte, off int64) (int, error) {
	f, err := os.Open(o.path(name))
	if err != nil {
		return 0, mapErr(err)
	}
	defer f.Close()
	return f.ReadAt(p, off)
}

func (o osFS) Size(name string) (int64, error) {
	fi, err := os.Stat(o.path(name))
	if err != nil {
		return 0, mapErr(err)
	}
	return fi.Size(), nil
}

// osFile syncs with fdatasync where there is one: the length is synced,
// the times need not be.
type osFile struct{ *os.File }

func (f osFile) Sync() error { return datasync(f.File) }

func (o osFS) Exists(name string) (bool, error) {
	_, err := os.Lstat(o.path(name))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

func (o osFS) Rename(oldname, newname string) error {
	return mapErr(os.Rename(o.path(oldname), o.path(newname)))
}

func (o osFS) Remove(name string) error { return mapErr(os.Remove(o.path(name))) }

func (o osFS) MkdirAll(name string) error { return os.MkdirAll(o.path(name), 0o755) }

func (o osFS) ReadDir(name string) ([]string, error) {
	entries, err := os.ReadDir(o.path(name))
	if err != nil {
		return nil, mapErr(err)
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	slices.Sort(names)
	return names, nil
}

func (o osFS) SyncDir(name string) error {
	d, err := os.Open(o.path(name))
	if err != nil {
		return mapErr(err)
	}
	err = d.Sync()
	return errors.Join(err, d.Close())
}

func (o osFS) Lock(name string) (io.Closer, error) {
	f, err := os.OpenFile(o.path(name), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, mapErr(err)
	}
	c, err := lockFile(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	return c, nil
}
