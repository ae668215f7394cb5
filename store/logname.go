package store

import (
	"fmt"
	"path"
	"slices"
)

// ownLog makes sure the log found under l's name is l's own. A file
// system that ignores case (macOS's and Windows' by default) finds the
// log of a session whose id differs from l's only in case under l's
// name; read as l's, the two sessions would merge, and a commit to l
// would land in the other's log. The folder's listing spells each log
// as it was made, so l's is its own when the listing holds its name
// exactly. l.mu is held.
func (f *fileBackend) ownLog(l *sessionLog) error {
	if l.own || !f.folds {
		return nil
	}
	names, err := f.fs.ReadDir(path.Dir(l.name))
	if err != nil {
		return ioErr("list logs", err)
	}
	if !slices.Contains(names, path.Base(l.name)) {
		return fmt.Errorf("store: session id %q: %w: this file system ignores case, and the log of a session whose id differs only in case holds its name", l.id, ErrInvalid)
	}
	l.own = true
	return nil
}

// foldsCase reports whether the file system ignores case in names: it
// finds the logs folder under a name spelled otherwise. A case-sensitive
// one holding such a name too is taken to fold, which costs a listing
// per session and loses nothing.
func (f *fileBackend) foldsCase() (bool, error) {
	ok, err := f.fs.Exists("LOGS")
	if err != nil {
		return false, ioErr("open: stat LOGS", err)
	}
	return ok, nil
}

// listed returns the log of a session found by listing the logs, which
// is its own by name.
func (f *fileBackend) listed(session string) *sessionLog {
	l := f.log(session)
	l.mu.Lock()
	l.own = true
	l.mu.Unlock()
	return l
}
