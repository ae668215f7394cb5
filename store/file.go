package store

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/batonrt/baton/store/vfs"
)

// folderFormat is the folder layout this release writes: 1 kept every
// object in its own file (objects/ab/cdef...) and every ref in its own
// file (refs/<kind>/<session>); 2 keeps each session in one log
// (logs/<session>.log) and still reads what format 1 left.
const folderFormat = 2

// Open opens (creating if needed) a store: a folder on the operating
// system's file system, or a URL whose scheme a backend package
// registered with RegisterScheme (store/postgres registers postgres://).
func Open(dir string, opts ...Option) (Store, error) {
	if open, ok := openerFor(dir); ok {
		return open(dir, opts...)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, ioErr("open "+dir, err)
	}
	return OpenFS(vfs.OS(dir), opts...)
}

// OpenFS opens (creating if needed) a store on fsys: logs/<session>.log
// holds a session's commits, one checksummed frame each, locks/<session> are lock
// files (locks/.open is held by openers while they write format and
// remove litter), format names the layout. A folder of format 1 is read as it is
// and upgraded in place: its loose objects and ref files stay readable,
// and new commits go to logs. Files starting with .tmp- are litter of an
// interrupted write and are removed. A folder the user may only read
// opens for reading, as it is: a format 1 one is not upgraded, and its
// commits are refused.
func OpenFS(fsys vfs.FS, opts ...Option) (Store, error) {
	fb, err := openFileBackend(fsys)
	if err != nil {
		return nil, err
	}
	return newDB(fb, opts), nil
}

// OpenFSBackend opens the file backend alone, for wrapping or for
// storetest.RunBackend; OpenFS is New over it.
func OpenFSBackend(fsys vfs.FS) (Backend, error) { return openFileBackend(fsys) }

func openFileBackend(fsys vfs.FS) (*fileBackend, error) {
	fb := &fileBackend{fs: fsys, logs: map[string]*sessionLog{}, index: map[Hash]objLoc{}}
	if err := fb.prepare(); err != nil {
		return nil, err
	}
	if err := fb.cutTornTails(); err != nil {
		return nil, err
	}
	// Opened before any commit writes, so that a flush sees every
	// write-back error of the commits it makes durable, and on the logs
	// folder, which may be on another file system than the store's; one
	// that cannot be opened leaves each commit to sync its own file.
	if ffs, ok := fsys.(vfs.FlushFS); ok {
		if fl, err := ffs.OpenFlusher("logs"); err == nil {
			fb.flusher = fl
			fb.group = newGroupSync(fl)
		}
	}
	return fb, nil
}

// fileBackend keeps each session in an append-only log: a commit is one
// frame, written and made durable with one data sync. Sessions commit in
// parallel (no lock is shared across sessions while a sync runs), so the
// file system's journal commits concurrent sessions' syncs together.
type fileBackend struct {
	fs      vfs.FS
	group   *groupSync   // nil when fs cannot flush all its files at once
	flusher vfs.Flusher  // the group's, closed with the backend
	loose   bool         // a format 1 folder: loose objects and ref files are read too
	folds   atomic.Int32 // foldUnknown, foldNo or foldYes: whether the logs folder ignores case (see ownLog)
	noWrite error        // set when the folder could not be upgraded: it may only be read
	seq     atomic.Uint64

	mu    sync.Mutex
	logs  map[string]*sessionLog
	index map[Hash]objLoc
	// forgot is set when a rewound log's objects left the index (see
	// forget): some may be in other logs, read before, which a lookup
	// that misses then reads again.
	forgot bool
	// reindexMu is held by reindex, and taken with no log's mutex held.
	reindexMu sync.Mutex
}

// objLoc says where an object's bytes are: in a log at an offset.
type objLoc struct {
	log *sessionLog
	off int64
	n   int
}

func (f *fileBackend) readFormat() (int, error) {
	b, err := f.fs.ReadFile("format")
	if errors.Is(err, vfs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, ioErr("open: read format", err)
	}
	v, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "baton-store ")
	n, err := strconv.Atoi(v)
	switch {
	case !ok || err != nil || n < 1:
		return 0, errorf("store: open: %w: format file says %q", ErrCorrupt, b)
	case n > folderFormat:
		return 0, errorf("store: open: %w: folder format %d, this release reads up to %d", ErrSchemaVersion, n, folderFormat)
	}
	return n, nil
}

func (f *fileBackend) init(format int) error {
	for _, d := range []string{"logs", "locks"} {
		if err := f.fs.MkdirAll(d); err != nil {
			return f.readOnly(ioErr("open: mkdir "+d, err))
		}
	}
	// Logs found here are durable by name from this sync on, so their
	// first commit need not sync the folder again.
	if err := f.fs.SyncDir("logs"); err != nil {
		return ioErr("open: sync logs", err)
	}
	if err := f.fs.SyncDir("."); err != nil {
		return ioErr("open: sync folder", err)
	}
	if format == folderFormat {
		return nil
	}
	// An older release refuses a folder of a newer format, which keeps it
	// from missing what the logs hold.
	return f.readOnly(f.writeAtomic(".", "format", []byte("baton-store "+strconv.Itoa(folderFormat)+"\n")))
}

// readOnly takes err, from upgrading the folder, as the folder's saying
// it may only be read: it is read as it is, and every commit is refused
// with err, since one written to a log the format file does not name
// would be missed by an older release. Any other error is returned.
func (f *fileBackend) readOnly(err error) error {
	if err != nil && cannotWrite(err) {
		f.noWrite = err
		return nil
	}
	return err
}

func (f *fileBackend) tmpName(dir string) string {
	return fmt.Sprintf("%s/.tmp-%d-%d", dir, os.Getpid(), f.seq.Add(1))
}

// writeAtomic writes b to a synced temporary file in dir, renames it to
// name and syncs dir, so name never holds a partial file.
func (f *fileBackend) writeAtomic(dir, name string, b []byte) error {
	tmp := f.tmpName(dir)
	file, err := f.fs.Create(tmp)
	if err != nil {
		return ioErr("write "+name, err)
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
		return ioErr("write "+name, err)
	}
	if err := f.fs.SyncDir(dir); err != nil {
		return ioErr("sync "+dir, err)
	}
	return nil
}

// cleanLitter removes the temporary files that interrupted writes left
// (this release writes them only for the format file; format 1 wrote one
// per object and ref). The open lock keeps other openers from writing
// meanwhile; this process's own are spared, and so are those of a
// folder this process may only read.
func (f *fileBackend) cleanLitter() error {
	dirs := []string{"."}
	if f.loose {
		dirs = append(dirs, "refs/heads", "refs/checkpoints")
		subs, err := f.fs.ReadDir("objects")
		if err != nil && !errors.Is(err, vfs.ErrNotExist) {
			return ioErr("open: list objects", err)
		}
		for _, s := range subs {
			dirs = append(dirs, "objects/"+s)
		}
	}
	mine := fmt.Sprintf(".tmp-%d-", os.Getpid())
	for _, d := range dirs {
		names, err := f.fs.ReadDir(d)
		if errors.Is(err, vfs.ErrNotExist) {
			continue
		}
		if err != nil {
			return ioErr("open: list "+d, err)
		}
		for _, n := range names {
			if strings.HasPrefix(n, ".tmp-") && !strings.HasPrefix(n, mine) {
				if err := f.fs.Remove(d + "/" + n); err != nil && !errors.Is(err, vfs.ErrNotExist) && !cannotWrite(err) {
					return ioErr("open: remove "+d+"/"+n, err)
				}
			}
		}
	}
	return nil
}

func (f *fileBackend) Close() error {
	f.mu.Lock()
	logs := make([]*sessionLog, 0, len(f.logs))
	for _, l := range f.logs {
		logs = append(logs, l)
	}
	f.mu.Unlock()
	var errs []error
	for _, l := range logs {
		l.mu.Lock()
		if err := l.closeFile(); err != nil {
			errs = append(errs, ioErr("close "+l.name, err))
		}
		if l.lock != nil {
			// A lock left held would keep the session from every store
			// opened on the folder after this one, in this process too.
			errs = append(errs, f.unlock(l))
		}
		l.mu.Unlock()
	}
	f.mu.Lock()
	fl := f.flusher
	f.flusher = nil
	f.mu.Unlock()
	if fl != nil {
		if err := fl.Close(); err != nil {
			errs = append(errs, ioErr("close flusher", err))
		}
	}
	return errors.Join(errs...)
}
