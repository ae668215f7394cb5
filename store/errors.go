package store

import (
	"errors"
	"fmt"

	"github.com/batonrt/baton/contract"
)

// Errors for errors.Is. Each error the store returns wraps one of them.
var (
	// ErrNotFound: no such session, node or checkpoint.
	ErrNotFound = errors.New("store: not found")
	// ErrCorrupt: an object is empty, truncated, altered, misnamed or not
	// in canonical form, or a ref is unreadable.
	ErrCorrupt = errors.New("store: corrupt object")
	// ErrMissingParent: a node names a parent or linked node that is not
	// stored.
	ErrMissingParent = errors.New("store: missing parent")
	// ErrBrokenRef: a head or checkpoint ref names a node that is not
	// stored.
	ErrBrokenRef = errors.New("store: ref names a missing node")
	// ErrSchemaVersion: the data was written by a newer release. It also
	// matches contract.ErrSchemaVersion.
	ErrSchemaVersion = fmt.Errorf("store: %w", contract.ErrSchemaVersion)
	// ErrLocked: the session is locked by another driver.
	ErrLocked = errors.New("store: session locked")
	// ErrLockLost: this driver held the session's lock and lost it (its
	// connection died, or another owner took the session over), so its
	// writes are refused.
	ErrLockLost = errors.New("store: session lock lost")
	// ErrIO: the underlying storage failed; what was being written is not
	// acknowledged, and what was acknowledged before is intact.
	ErrIO = errors.New("store: i/o error")
	// ErrExists: the session already exists.
	ErrExists = errors.New("store: session exists")
	// ErrInvalid: bad input, such as an empty session id, a record with
	// no signal, or a step out of sequence.
	ErrInvalid = errors.New("store: invalid input")
)

func ioErr(op string, err error) error {
	return fmt.Errorf("store: %s: %w: %w", op, ErrIO, err)
}

// RefNotFound is the error a Backend returns for a ref the session does
// not hold: it matches ErrNotFound. Every new session's first append
// meets it, so its message is made only when read.
func RefNotFound(kind RefKind, session string) error {
	return &refNotFound{kind: kind, session: session}
}

type refNotFound struct {
	kind    RefKind
	session string
}

func (e *refNotFound) Error() string {
	return fmt.Sprintf("store: %s ref of %q: %s", e.kind, e.session, ErrNotFound)
}

func (e *refNotFound) Unwrap() error { return ErrNotFound }
