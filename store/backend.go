package store

import (
	"context"
	"io"
)

// refKind names a family of refs.
type refKind string

const (
	refHeads       refKind = "heads"
	refCheckpoints refKind = "checkpoints"
)

type object struct {
	hash  Hash
	bytes []byte
}

// backend is the raw storage under a Store: objects by hash, refs by
// session, locks. It checks nothing; the Store on top verifies every read.
type backend interface {
	// putObjects makes the objects durable; one that exists is a no-op.
	putObjects(ctx context.Context, objs []object) error
	// getObject returns the stored bytes, or ErrNotFound.
	getObject(ctx context.Context, h Hash) ([]byte, error)
	// readRef returns a ref, or ErrNotFound.
	readRef(ctx context.Context, kind refKind, session string) (Hash, error)
	// writeRef moves a ref durably; the objects it names are durable.
	writeRef(ctx context.Context, kind refKind, session string, h Hash) error
	// listRefs returns the sessions holding a ref of the kind, sorted.
	listRefs(ctx context.Context, kind refKind) ([]string, error)
	// lock takes the session's lock or fails with ErrLocked.
	lock(ctx context.Context, session string) (io.Closer, error)
}
