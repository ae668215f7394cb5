package store

import (
	"context"
	"io"
	"sync"
)

// LosableLock is a lock that its holder can lose while it holds it, which
// a Backend whose locks live outside the process returns from Lock
// (store/postgres: the lock dies with the server connection that holds
// it). A lock that lives as long as the process that took it, as the
// memory and file backends' do, need not be one: it is never lost.
type LosableLock interface {
	io.Closer
	// Lost returns a context that ends when the lock is lost while held,
	// its cause (context.Cause) an error matching ErrLockLost that says
	// how. Close does not end it.
	Lost() context.Context
}

// Lease is a session lock as its holder sees it: held until Release,
// unless it is lost first. Where a backend can lose a lock (see
// LosableLock), the lease says so as soon as the backend learns it, so
// that the holder stops driving the session before another one takes it
// over, rather than when its next append is refused with ErrLockLost.
type Lease struct {
	release func() error
	leave   func() error
	lost    context.Context
}

// Leaver is a lock that can be let go as a holder that dies lets it go,
// which a Backend that records who holds its sessions returns from Lock
// (store/postgres: the session is listed among those whose owner died,
// for another process to take up and resume). Close lets it go on
// purpose.
type Leaver interface {
	io.Closer
	Leave() error
}

// NewLease returns the lease of the lock c, which Close releases: lost
// when c is a LosableLock that is lost, else never. A Store that wraps
// another's Lease (to count or release its locks itself) returns one
// made here over its own closer.
func NewLease(c io.Closer) *Lease {
	l := &Lease{lost: context.Background()}
	if ll, ok := c.(LosableLock); ok {
		l.lost = ll.Lost()
	}
	var once sync.Once
	let := func(f func() error) func() error {
		return func() error {
			var err error
			once.Do(func() { err = f() })
			return err
		}
	}
	l.release, l.leave = let(c.Close), let(c.Close)
	if lv, ok := c.(Leaver); ok {
		l.leave = let(lv.Leave)
	}
	return l
}

// Release lets the lock go; calling it again, or Leave, does nothing.
func (l *Lease) Release() error { return l.release() }

// Leave lets the lock go as a holder that dies would, for a holder that
// stops driving the session with work in flight (a run it leaves for
// another process to resume), where the backend tells the two apart
// (Leaver); otherwise it is Release. Calling it again, or Release, does
// nothing.
func (l *Lease) Leave() error { return l.leave() }

// Lost returns a channel closed when the lock is lost while held; nil
// when the backend's locks are never lost. Release does not close it.
func (l *Lease) Lost() <-chan struct{} { return l.lost.Done() }

// Err is nil until the lock is lost, and then says how, matching
// ErrLockLost.
func (l *Lease) Err() error { return context.Cause(l.lost) }

// AfterLost arranges for f to run in its own goroutine once the lock is
// lost, as context.AfterFunc does: stop undoes that, and reports whether
// it did so before f was started. A lease that cannot be lost starts no
// goroutine.
func (l *Lease) AfterLost(f func()) (stop func() bool) {
	if l.lost.Done() == nil {
		// Never lost: every agent on a memory or file store watches its
		// lease, and nothing need be set up for it.
		return neverStarted
	}
	return context.AfterFunc(l.lost, f)
}

// neverStarted is the stop of a watch on a lease that cannot be lost: f
// was not started, and never will be.
func neverStarted() bool { return true }
