package store

import (
	"path"
	"slices"
)

// What is known of whether the logs folder ignores case in names.
const (
	foldUnknown int32 = iota
	foldNo
	foldYes
)

// ownLog makes sure the log found under l's name is l's own. A file
// system that ignores case (macOS's and Windows' by default) finds the
// log of a session whose id differs from l's only in case under l's
// name; read as l's, the two sessions would merge, and a commit to l
// would land in the other's log. The folder's listing spells each log
// as it was made, so l's is its own when the listing holds its name
// exactly. l.mu is held.
func (f *fileBackend) ownLog(l *sessionLog) error {
	if l.own {
		return nil
	}
	dir, base := path.Split(l.name)
	other := swapCase(base)
	folds, err := f.logsFold(dir + other)
	if err != nil {
		return err
	}
	if !folds {
		l.own = true
		return nil
	}
	names, err := f.fs.ReadDir(path.Clean(dir))
	if err != nil {
		return ioErr("list logs", err)
	}
	if !slices.Contains(names, other) {
		// other was found, though no log is spelled so.
		f.folds.Store(foldYes)
	}
	if !slices.Contains(names, base) {
		return errorf("store: session id %q: %w: this file system ignores case, and the log of a session whose id differs only in case holds its name", l.id, ErrInvalid)
	}
	l.own = true
	return nil
}

// logsFold reports whether other, a log's name with the case of every
// letter swapped (a log's name has letters: it ends in .log), may find
// that log: whether the folder holding the logs ignores case. That is
// the logs folder's own property, not the store root's, since it may be
// a symlink or mount onto another file system. A folder found to keep
// case is not asked again; one found to ignore it, or keeping a log
// named other too, is settled by its listing.
func (f *fileBackend) logsFold(other string) (bool, error) {
	if s := f.folds.Load(); s != foldUnknown {
		return s == foldYes, nil
	}
	ok, err := f.fs.Exists(other)
	if err != nil {
		return false, ioErr("stat "+other, err)
	}
	if !ok {
		f.folds.Store(foldNo)
	}
	return ok, nil
}

// swapCase swaps the case of every ASCII letter of name, which is all an
// escaped session id has.
func swapCase(name string) string {
	b := []byte(name)
	for i, c := range b {
		switch {
		case 'a' <= c && c <= 'z':
			b[i] = c - 'a' + 'A'
		case 'A' <= c && c <= 'Z':
			b[i] = c - 'A' + 'a'
		}
	}
	return string(b)
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
