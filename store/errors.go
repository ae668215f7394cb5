package store

import (
	"errors"
	"fmt"
	"strings"

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

// errorf is fmt.Errorf for this package's errors. An error a caller
// sees begins with "store: ", and so do the errors it may wrap, this
// package's own and store/postgres's: each error among args is said
// without that prefix, so a message names the store once however many
// layers wrapped it. A fragment made only to be wrapped by another
// errorf (a frame's damage, an export line's) has no prefix of its own.
// The errors are wrapped as they were, for errors.Is and errors.As.
func errorf(format string, args ...any) error {
	for i, a := range args {
		if err, ok := a.(error); ok {
			args[i] = unprefixed{err}
		}
	}
	return fmt.Errorf(format, args...)
}

// prefix begins the text of every error of this package.
const prefix = "store: "

// unprefixed is an error said without the prefix it begins with.
type unprefixed struct{ err error }

func (u unprefixed) Error() string { return strings.TrimPrefix(u.err.Error(), prefix) }
func (u unprefixed) Unwrap() error { return u.err }

func ioErr(op string, err error) error {
	return errorf("store: %s: %w: %w", op, ErrIO, err)
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
	return fmt.Sprintf("store: %s ref of %q: %s", e.kind, e.session, unprefixed{ErrNotFound})
}

func (e *refNotFound) Unwrap() error { return ErrNotFound }
