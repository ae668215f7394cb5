package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/batonrt/baton/store/vfs"
)

// formatLine is the content of the folder's format file.
const formatLine = "baton-store 1\n"

// Open opens (creating if needed) a store in the folder dir on the
// operating system's file system.
func Open(dir string, opts ...Option) (Store, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, ioErr("open "+dir, err)
	}
	return OpenFS(vfs.OS(dir), opts...)
}

// OpenFS opens (creating if needed) a store on fsys. The layout is git's:
// objects/ab/cdef... holds the object whose hex hash is abcdef...,
// refs/heads/<session> and refs/checkpoints/<session> hold one hash each,
// locks/<session> are lock files. Temporary files start with a dot and
// are never read.
func OpenFS(fsys vfs.FS, opts ...Option) (Store, error) {
	fb := &fileBackend{fs: fsys, durableDirs: map[string]bool{}}
	if err := fb.init(); err != nil {
		return nil, err
	}
	return newDB(fb, opts), nil
}

type fileBackend struct {
	fs  vfs.FS
	seq atomic.Uint64
	mu  sync.Mutex
	// durableDirs are object folders whose own name is known durable.
	durableDirs map[string]bool
}

func (f *fileBackend) init() error {
	for _, d := range []string{"objects", "refs/heads", "refs/checkpoints", "locks"} {
		if err := f.fs.MkdirAll(d); err != nil {
			return ioErr("open: mkdir "+d, err)
		}
	}
	for _, d := range []string{"refs", "."} {
		if err := f.fs.SyncDir(d); err != nil {
			return ioErr("open: sync "+d, err)
		}
	}
	b, err := f.fs.ReadFile("format")
	if errors.Is(err, vfs.ErrNotExist) {
		return f.writeAtomic(".", "format", []byte(formatLine))
	}
	if err != nil {
		return ioErr("open: read format", err)
	}
	return checkFormat(b)
}

func checkFormat(b []byte) error {
	v, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "baton-store ")
	n, err := strconv.Atoi(v)
	switch {
	case !ok || err != nil:
		return fmt.Errorf("store: open: %w: format file says %q", ErrCorrupt, b)
	case n > nodeVersion:
		return fmt.Errorf("store: open: %w: folder format %d, this release reads up to %d", ErrSchemaVersion, n, nodeVersion)
	}
	return nil
}

func (f *fileBackend) tmpName(dir string) string {
	return fmt.Sprintf("%s/.tmp-%d-%d", dir, os.Getpid(), f.seq.Add(1))
}

// writeFile writes b to a temporary file in dir, syncs it and renames it
// to name, so name never holds a partial file. The folder is not synced.
func (f *fileBackend) writeFile(dir, name string, b []byte) error {
	tmp := f.tmpName(dir)
	file, err := f.fs.Create(tmp)
	if err != nil {
		return err
	}
	_, err = file.Write(b)
	if err == nil {
		err = file.Sync()
	}
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = f.fs.Rename(tmp, dir+"/"+name)
	}
	if err != nil {
		_ = f.fs.Remove(tmp)
	}
	return err
}

func (f *fileBackend) writeAtomic(dir, name string, b []byte) error {
	if err := f.writeFile(dir, name, b); err != nil {
		return ioErr("write "+name, err)
	}
	if err := f.fs.SyncDir(dir); err != nil {
		return ioErr("sync "+dir, err)
	}
	return nil
}

func objectPath(h Hash) (dir, name string) {
	s := h.String()
	return "objects/" + s[:2], s[2:]
}

func (f *fileBackend) putObjects(ctx context.Context, objs []object) error {
	dirs := map[string]bool{}
	syncRoot := false
	for _, o := range objs {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("store: write objects: %w", err)
		}
		dir, name := objectPath(o.hash)
		dirs[dir] = true
		f.mu.Lock()
		known := f.durableDirs[dir]
		f.mu.Unlock()
		if !known {
			syncRoot = true
			if err := f.fs.MkdirAll(dir); err != nil {
				return ioErr("mkdir "+dir, err)
			}
		}
		// An object already there may sit in a folder whose last sync
		// failed, so its folder is synced below all the same.
		if ok, err := f.fs.Exists(dir + "/" + name); err != nil {
			return ioErr("stat object "+o.hash.String(), err)
		} else if ok {
			continue
		}
		if err := f.writeFile(dir, name, o.bytes); err != nil {
			return ioErr("write object "+o.hash.String(), err)
		}
	}
	if syncRoot {
		if err := f.fs.SyncDir("objects"); err != nil {
			return ioErr("sync objects", err)
		}
	}
	for _, dir := range slices.Sorted(maps.Keys(dirs)) {
		if err := f.fs.SyncDir(dir); err != nil {
			return ioErr("sync "+dir, err)
		}
	}
	f.mu.Lock()
	for dir := range dirs {
		f.durableDirs[dir] = true
	}
	f.mu.Unlock()
	return nil
}

func (f *fileBackend) getObject(ctx context.Context, h Hash) ([]byte, error) {
	dir, name := objectPath(h)
	b, err := f.fs.ReadFile(dir + "/" + name)
	if errors.Is(err, vfs.ErrNotExist) {
		return nil, fmt.Errorf("store: object %s: %w", h, ErrNotFound)
	}
	if err != nil {
		return nil, ioErr("read object "+h.String(), err)
	}
	return b, nil
}

func refDir(kind refKind) string { return "refs/" + string(kind) }

func (f *fileBackend) readRef(ctx context.Context, kind refKind, session string) (Hash, error) {
	b, err := f.fs.ReadFile(refDir(kind) + "/" + escapeSession(session))
	if errors.Is(err, vfs.ErrNotExist) {
		return Hash{}, fmt.Errorf("store: %s ref of %q: %w", kind, session, ErrNotFound)
	}
	if err != nil {
		return Hash{}, ioErr("read ref "+session, err)
	}
	h, err := ParseHash(strings.TrimSuffix(string(b), "\n"))
	if err != nil || len(b) != 65 {
		return Hash{}, fmt.Errorf("store: %s ref of %q: %w: holds %q", kind, session, ErrCorrupt, b)
	}
	return h, nil
}

func (f *fileBackend) writeRef(ctx context.Context, kind refKind, session string, h Hash) error {
	return f.writeAtomic(refDir(kind), escapeSession(session), []byte(h.String()+"\n"))
}

func (f *fileBackend) listRefs(ctx context.Context, kind refKind) ([]string, error) {
	names, err := f.fs.ReadDir(refDir(kind))
	if err != nil {
		return nil, ioErr("list refs", err)
	}
	var out []string
	for _, n := range names {
		if id, ok := unescapeSession(n); ok {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out, nil
}

func (f *fileBackend) lock(ctx context.Context, session string) (io.Closer, error) {
	c, err := f.fs.Lock("locks/" + escapeSession(session))
	if errors.Is(err, vfs.ErrLocked) {
		return nil, fmt.Errorf("store: lock %q: %w", session, ErrLocked)
	}
	if err != nil {
		return nil, ioErr("lock "+session, err)
	}
	return c, nil
}
