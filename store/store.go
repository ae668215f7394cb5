package store

import (
	"context"
	"io"
	"iter"
	"log/slog"

	"github.com/batonrt/baton/contract"
)

// Store keeps sessions as chains of record nodes. Every method verifies
// what it reads. Appends to one session are serialized in the process;
// Lock keeps other drivers, in this process or another, away.
type Store interface {
	// Append makes recs durable as new nodes after the session's head
	// (creating the session if new) and moves the head; it returns the new
	// head. Each record's Step must be one more than the one before it,
	// starting at 1. A record whose node would be over MaxNode bytes is
	// ErrInvalid, and nothing of the call is stored. recs is not kept:
	// the caller may reuse it.
	Append(ctx context.Context, sessionID string, recs ...contract.Record) (Hash, error)
	// AppendLinked appends one record whose node links the heads of
	// delegated runs' chains into this session, making the graph a DAG.
	AppendLinked(ctx context.Context, sessionID string, rec contract.Record, links ...Hash) (Hash, error)
	// Head returns the session's newest node; ErrNotFound for an unknown
	// session.
	Head(ctx context.Context, sessionID string) (Hash, error)
	// Node reads and verifies one node.
	Node(ctx context.Context, h Hash) (Node, error)
	// Walk yields the chain ending at from, newest first, each node
	// verified; it stops after the first error.
	Walk(ctx context.Context, from Hash) iter.Seq2[Node, error]
	// Records returns the session's records, oldest first.
	Records(ctx context.Context, sessionID string) ([]contract.Record, error)
	// Sessions lists the sessions, sorted.
	Sessions(ctx context.Context) ([]string, error)
	// Lock takes the session's lock: ErrLocked when it is held elsewhere.
	// A lock left by a dead process is free.
	Lock(ctx context.Context, sessionID string) (release func() error, err error)
	// Lease takes the session's lock as Lock does, and returns it as a
	// Lease, which tells its holder when the lock is lost while held.
	// The conductor takes its sessions' locks here, not through Lock: a
	// Store wrapping another's locks wraps Lease (see NewLease).
	Lease(ctx context.Context, sessionID string) (*Lease, error)
	// Fork makes a new session whose head is the node at; ErrExists when
	// the new session exists.
	Fork(ctx context.Context, newSessionID string, at Hash) error
	// SaveCheckpoint stores a snapshot of the session taken right after
	// the node at, which must be in the session's chain, with
	// snap.SessionID the session and snap.Steps equal to the node's step.
	SaveCheckpoint(ctx context.Context, sessionID string, at Hash, snap contract.RunSnapshot) error
	// Checkpoint returns the session's newest checkpoint; ErrNotFound when
	// it has none.
	Checkpoint(ctx context.Context, sessionID string) (Checkpoint, error)
	// Verify re-hashes every node reachable from a ref and checks parents,
	// links, steps and refs, and that each checkpoint is of its session,
	// at a node of its chain; it returns every problem found, joined.
	Verify(ctx context.Context) error
	// Export writes the sessions (all when none are named) as JSONL; a
	// session named brings the sessions of its delegate calls along. A
	// node over MaxNode, which only a store written before stores kept
	// that bound can hold, is ErrInvalid. The export ends with a line
	// counting what it holds, so a copy cut short is told from a whole one.
	Export(ctx context.Context, w io.Writer, sessionIDs ...string) error
	// Import reads what Export wrote, verifying every node, and returns
	// the sessions it created or found identical. It reads lines of up
	// to MaxImportLine bytes and takes nodes of up to MaxNode, as Append
	// does, so whatever a store took moves to a store of any backend.
	// An export that lacks its end line (cut short), or whose end line
	// does not match the lines before it, or that goes on after it, is
	// ErrCorrupt; exports of releases before the end line import without
	// one. Every line is read and checked before anything is stored, so
	// an input refused for what it holds stores nothing; only a failure
	// while storing (I/O, or a session created meanwhile) can leave the
	// sessions committed before it.
	Import(ctx context.Context, r io.Reader) ([]string, error)
	// Close releases what the store holds (open files, connections); the
	// store is unusable after. Locks still held are released.
	Close() error
}

// Option configures a Store.
type Option func(*db)

// WithLogger sets the logger; the default discards.
func WithLogger(l *slog.Logger) Option {
	return func(d *db) {
		if l != nil {
			d.log = l
		}
	}
}
