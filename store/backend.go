package store

import (
	"context"
	"errors"
	"io"
)

// RefKind names a family of refs: each session holds at most one ref of
// each kind.
type RefKind string

const (
	// RefHeads names a session's newest node.
	RefHeads RefKind = "heads"
	// RefCheckpoints names a session's newest checkpoint object.
	RefCheckpoints RefKind = "checkpoints"
)

// Object is stored bytes and the hash that names them.
type Object struct {
	Hash  Hash
	Bytes []byte
}

// ErrConflict: a ref did not hold the value a compare-and-set expected,
// because another writer moved it. Backends return it from Commit.
var ErrConflict = errors.New("store: ref moved by another writer")

// Backend is the raw storage under a Store: objects by hash, one ref per
// session and kind, and session locks. It checks nothing; the Store that
// New builds on it verifies every read and keeps every rule (chains,
// steps, links, checkpoints, export and import), so a backend only moves
// bytes. Errors wrap the Store's sentinels: ErrNotFound, ErrLocked,
// ErrConflict, ErrIO.
type Backend interface {
	// Get returns the bytes stored under h, or ErrNotFound.
	Get(ctx context.Context, h Hash) ([]byte, error)
	// Ref returns the hash a session's ref of kind holds, or ErrNotFound.
	Ref(ctx context.Context, kind RefKind, session string) (Hash, error)
	// Refs returns the sessions holding a ref of kind, sorted.
	Refs(ctx context.Context, kind RefKind) ([]string, error)
	// Commit makes objs durable and moves the session's ref of kind from
	// old to new as one step: when the ref no longer holds old (zero old:
	// when the ref exists), it moves nothing and returns ErrConflict. An
	// object already stored is left as it is. Neither objs nor their
	// Bytes may be kept once Commit returns: the store encodes into
	// buffers it uses again, so a backend copies what it keeps.
	Commit(ctx context.Context, kind RefKind, session string, old, new Hash, objs []Object) error
	// Lock takes the session's lock, or fails at once with ErrLocked when
	// another holder has it. A holder that dies frees it. Commit may
	// refuse a writer that lost the lock; a backend that can lose a lock
	// while its holder lives returns a LosableLock, to tell the holder.
	Lock(ctx context.Context, session string) (io.Closer, error)
	// Close releases what the backend holds; the Store is unusable after.
	Close() error
}

// Repairer is a Backend that can put right objects whose stored bytes no
// longer hash to their names (a flipped bit, a hand-edited row). Import
// repairs such an object from the verified bytes an export carries; over
// a backend that is not a Repairer, that import fails instead.
type Repairer interface {
	// Repair replaces the stored bytes of each object, which the caller
	// has verified to hash to its name.
	Repair(ctx context.Context, objs []Object) error
}
