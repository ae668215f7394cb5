package postgres

import (
	"context"
	"errors"
	"slices"

	"github.com/batonrt/baton/store"
	"github.com/jackc/pgx/v5"
)

var _ store.Backend = (*Backend)(nil)

func (b *Backend) Get(ctx context.Context, h store.Hash) ([]byte, error) {
	var bytes []byte
	err := b.pool.QueryRow(ctx, `SELECT bytes FROM baton_objects WHERE hash = $1`, h[:]).Scan(&bytes)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, errorf("store: object %s: %w", h, store.ErrNotFound)
	}
	if err != nil {
		return nil, ioErr("read object "+h.String(), err)
	}
	return bytes, nil
}

func (b *Backend) Ref(ctx context.Context, kind store.RefKind, session string) (store.Hash, error) {
	if unstorable(session) != nil {
		return store.Hash{}, store.RefNotFound(kind, session)
	}
	if h, ok := b.cachedRef(kind, session); ok {
		return h, nil
	}
	epoch, gen, held := b.readGen(session)
	h, err := b.readRef(ctx, kind, session)
	if err == nil && held {
		// Only if no commit or forget of this owner came in between:
		// the value read may be older than the one that commit cached.
		b.rememberRead(kind, session, epoch, gen, h)
	}
	return h, err
}

func (b *Backend) readRef(ctx context.Context, kind store.RefKind, session string) (store.Hash, error) {
	var raw []byte
	err := b.pool.QueryRow(ctx, `SELECT hash FROM baton_refs WHERE kind = $1 AND session = $2`, string(kind), session).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Hash{}, store.RefNotFound(kind, session)
	}
	if err != nil {
		return store.Hash{}, ioErr("read ref of "+session, err)
	}
	return hashOf(raw, session)
}

func hashOf(raw []byte, session string) (store.Hash, error) {
	var h store.Hash
	if len(raw) != len(h) {
		return h, errorf("store: ref of %q: %w: %d bytes", session, store.ErrCorrupt, len(raw))
	}
	copy(h[:], raw)
	return h, nil
}

func (b *Backend) Refs(ctx context.Context, kind store.RefKind) ([]string, error) {
	rows, err := b.pool.Query(ctx, `SELECT session FROM baton_refs WHERE kind = $1`, string(kind))
	if err != nil {
		return nil, ioErr("list refs", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, ioErr("list refs", err)
	}
	// Sorted bytewise, as every backend sorts, whatever the collation.
	slices.Sort(ids)
	return ids, nil
}

// The statements of a commit: the objects and the ref move in one
// statement, so one round trip and one WAL flush make a step durable.
// $5 is the owner epoch the session was locked with, or null for a writer
// that holds no lock (it holds the advisory lock for its transaction
// instead). FOR SHARE makes a new owner's epoch bump wait for a commit in
// flight, and a commit after it see the new epoch. $8 is the SHA-256 the
// parent's stored bytes must still have (see parentSum), or null. same
// holds when every object of the commit stored already (another session,
// forked from this one, made the same node) has the bytes given: the
// insert keeps a stored object as it is, and a damaged one would be a
// head no read accepts, acknowledged. It sees the rows as they were
// before the statement, so not those the statement inserts.
const (
	ownerCheck = `WITH owner AS (
		SELECT 1 FROM baton_owners WHERE $5::bigint IS NOT NULL AND session = $2 AND epoch = $5 FOR SHARE
	), parent AS (
		SELECT 1 WHERE $8::bytea IS NULL OR (SELECT sha256(bytes) FROM baton_objects WHERE hash = $3::bytea) = $8
	), same AS (
		SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM baton_objects o JOIN unnest($6::bytea[], $7::bytea[]) AS t(h, b) ON o.hash = t.h WHERE o.bytes <> t.b)
	), objs AS (
		INSERT INTO baton_objects (hash, bytes)
		SELECT h, o FROM unnest($6::bytea[], $7::bytea[]) AS t(h, o) WHERE $5::bigint IS NULL OR EXISTS (SELECT 1 FROM owner)
		ON CONFLICT (hash) DO NOTHING
	) `
	moveRef = ownerCheck + `UPDATE baton_refs SET hash = $4 WHERE kind = $1 AND session = $2 AND hash = $3
		AND ($5::bigint IS NULL OR EXISTS (SELECT 1 FROM owner)) AND EXISTS (SELECT 1 FROM parent) AND EXISTS (SELECT 1 FROM same) RETURNING 1`
	createRef = ownerCheck + `INSERT INTO baton_refs (kind, session, hash)
		SELECT $1, $2, $4 WHERE $3::bytea IS NULL AND ($5::bigint IS NULL OR EXISTS (SELECT 1 FROM owner)) AND EXISTS (SELECT 1 FROM same)
		ON CONFLICT (kind, session) DO NOTHING RETURNING 1`
)

func (b *Backend) Commit(ctx context.Context, kind store.RefKind, session string, old, new store.Hash, objs []store.Object) error {
	if err := unstorable(session); err != nil {
		return err
	}
	if err := oversized(session, objs); err != nil {
		return err
	}
	sum, err := b.parentSum(ctx, kind, session, old)
	if err != nil {
		return err
	}
	all := objs
	objs, err = b.storeAhead(ctx, objs)
	if err != nil {
		return err
	}
	hashes, bytes := columns(objs)
	q, oldArg := moveRef, any(old[:])
	if old.IsZero() {
		q, oldArg = createRef, nil
	}
	epoch, held := b.epoch(session)
	var epochArg any
	if held {
		epochArg = epoch
	}
	args := []any{string(kind), session, oldArg, new[:], epochArg, hashes, bytes, sum}
	var moved bool
	if held {
		moved, err = runCommit(ctx, b.pool, q, args)
	} else {
		moved, err = b.commitUnlocked(ctx, session, q, args)
	}
	if err != nil {
		if held {
			// The server may have committed what this owner did not hear
			// back from: the ref is read again rather than trusted.
			b.forget(kind, session, epoch)
		}
		return err
	}
	if moved {
		if held {
			b.remember(kind, session, epoch, new)
			if kind == store.RefHeads {
				b.rememberSum(session, epoch, new, all)
			}
		}
		return nil
	}
	return b.refused(ctx, kind, session, old, epoch, held)
}

// Repair replaces the stored bytes of objects that no longer hash to
// their names with verified ones (store.Repairer), in one statement.
func (b *Backend) Repair(ctx context.Context, objs []store.Object) error {
	hashes, bytes := columns(objs)
	_, err := b.pool.Exec(ctx, `UPDATE baton_objects SET bytes = t.o FROM unnest($1::bytea[], $2::bytea[]) AS t(h, o) WHERE hash = t.h`, hashes, bytes)
	if err != nil {
		return ioErr("repair objects", err)
	}
	return nil
}

type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

func runCommit(ctx context.Context, q querier, sql string, args []any) (bool, error) {
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return false, ioErr("commit", err)
	}
	n := 0
	for rows.Next() {
		n++
	}
	if err := rows.Err(); err != nil {
		return false, ioErr("commit", err)
	}
	return n == 1, nil
}

// commitUnlocked commits for a writer that holds no lock on the session:
// it takes the session's advisory lock for the transaction, so it cannot
// write under an owner's feet.
func (b *Backend) commitUnlocked(ctx context.Context, session, sql string, args []any) (bool, error) {
	tx, err := b.pool.Begin(ctx)
	if err != nil {
		return false, ioErr("commit", err)
	}
	defer tx.Rollback(ctx)
	var free bool
	if err := tx.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock($1)`, b.lockKey(session)).Scan(&free); err != nil {
		return false, ioErr("commit", err)
	}
	if !free {
		return false, errorf("store: commit %q: %w", session, store.ErrLocked)
	}
	moved, err := runCommit(ctx, tx, sql, args)
	if err != nil || !moved {
		return false, err
	}
	if err := tx.Commit(ctx); err != nil {
		return false, ioErr("commit", err)
	}
	return true, nil
}

// refused says why a commit moved nothing: another owner took the
// session, the ref was not where the writer expected (and names a stored
// node, or it is broken), or it was and the stored bytes of the parent,
// or of a node the commit makes, had changed.
func (b *Backend) refused(ctx context.Context, kind store.RefKind, session string, old store.Hash, epoch int64, held bool) error {
	if held {
		var now int64
		err := b.pool.QueryRow(ctx, `SELECT epoch FROM baton_owners WHERE session = $1`, session).Scan(&now)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return ioErr("commit", err)
		}
		if now != epoch {
			return errorf("store: commit %q: %w: another owner took the session (owner epoch %d, this owner's %d)", session, store.ErrLockLost, now, epoch)
		}
		b.forget(kind, session, epoch)
	}
	cur, err := b.readRef(ctx, kind, session)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	if (err == nil && cur == old) || (err != nil && old.IsZero()) {
		// The ref was where the writer expected it: stored bytes were
		// not.
		return damagedCommit(kind, session, old)
	}
	if err == nil {
		if err := b.storedOrBroken(ctx, kind, session, cur); err != nil {
			return err
		}
	}
	return errorf("store: %s ref of %q: %w: holds %s, expected %s", kind, session, store.ErrConflict, cur, old)
}

// storedOrBroken fails with ErrBrokenRef when the ref a commit found in
// its way names no stored object: no writer puts such a hash there (a
// hand edit, a partial restore did), and a caller told ErrConflict would
// take it for another writer at work.
func (b *Backend) storedOrBroken(ctx context.Context, kind store.RefKind, session string, cur store.Hash) error {
	var stored bool
	err := b.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM baton_objects WHERE hash = $1)`, cur[:]).Scan(&stored)
	if err != nil {
		return ioErr("commit", err)
	}
	if !stored {
		return errorf("store: %s ref of %q: %w: %s", kind, session, store.ErrBrokenRef, cur)
	}
	return nil
}
