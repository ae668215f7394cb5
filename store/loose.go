package store

import (
	"errors"
	"slices"
	"strings"

	"github.com/batonrt/baton/store/vfs"
)

// Format 1 kept each object in objects/ab/cdef... and each ref in
// refs/<kind>/<session>. A folder of that format is read in place: these
// are consulted after the logs, and nothing writes them any more.

func (f *fileBackend) looseObject(h Hash) ([]byte, error) {
	s := h.String()
	b, err := f.fs.ReadFile("objects/" + s[:2] + "/" + s[2:])
	if errors.Is(err, vfs.ErrNotExist) {
		return nil, errorf("store: object %s: %w", h, ErrNotFound)
	}
	if err != nil {
		return nil, ioErr("read object "+s, err)
	}
	return b, nil
}

func (f *fileBackend) looseRef(kind RefKind, session string) (Hash, error) {
	b, err := f.fs.ReadFile("refs/" + string(kind) + "/" + escapeSession(session))
	if errors.Is(err, vfs.ErrNotExist) {
		return Hash{}, RefNotFound(kind, session)
	}
	if err != nil {
		return Hash{}, ioErr("read ref "+session, err)
	}
	h, err := ParseHash(strings.TrimSuffix(string(b), "\n"))
	if err != nil || len(b) != 65 {
		return Hash{}, errorf("store: %s ref of %q: %w: holds %q", kind, session, ErrCorrupt, b)
	}
	return h, nil
}

func (f *fileBackend) looseRefs(kind RefKind) ([]string, error) {
	names, err := f.fs.ReadDir("refs/" + string(kind))
	if errors.Is(err, vfs.ErrNotExist) {
		return nil, nil
	}
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
