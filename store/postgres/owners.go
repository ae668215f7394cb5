package postgres

import (
	"context"
	"errors"
	"slices"

	"github.com/batonrt/baton/store"
	"github.com/jackc/pgx/v5"
)

// Advertise sets the address this backend records, next to the owner
// epoch, for each session it locks from now on: where other processes
// sharing the database reach the one that drives the session (for baton
// serve, its base URL). Empty advertises nothing.
func (b *Backend) Advertise(addr string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.addr = addr
}

func (b *Backend) advertised() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.addr
}

// Owner returns the address the session's owner advertised when it
// locked the session, while it still holds the lock. ErrNotFound says
// no one holds it, or its holder advertised nothing: whoever asks may
// take the session itself.
func (b *Backend) Owner(ctx context.Context, session string) (string, error) {
	if unstorable(session) != nil {
		return "", errorf("store: owner of %q: %w", session, store.ErrNotFound)
	}
	// A bigint advisory lock shows in pg_locks as its high and low
	// 32 bits, in classid and objid, with objsubid 1.
	key := uint64(b.lockKey(session))
	var addr string
	err := b.pool.QueryRow(ctx, `SELECT o.addr FROM baton_owners o WHERE o.session = $1 AND o.addr <> ''
		AND EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted
			AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
			AND l.classid = $2::bigint::oid AND l.objid = $3::bigint::oid AND l.objsubid = 1)`,
		session, int64(key>>32), int64(key&0xffffffff)).Scan(&addr)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", errorf("store: owner of %q: %w", session, store.ErrNotFound)
	}
	if err != nil {
		return "", ioErr("owner of "+session, err)
	}
	return addr, nil
}

// Locked reports whether some backend, this one or another, holds the
// session's lock, whether or not it advertised an address or stored
// anything yet. It only reads: asking about a session no one ever
// stored leaves nothing behind, as Lock would.
func (b *Backend) Locked(ctx context.Context, session string) (bool, error) {
	if unstorable(session) != nil {
		return false, nil
	}
	if _, held := b.epoch(session); held {
		return true, nil
	}
	key := uint64(b.lockKey(session))
	var locked bool
	err := b.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted
		AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
		AND l.classid = $1::bigint::oid AND l.objid = $2::bigint::oid AND l.objsubid = 1)`,
		int64(key>>32), int64(key&0xffffffff)).Scan(&locked)
	if err != nil {
		return false, ioErr("lock of "+session, err)
	}
	return locked, nil
}

// withdraw clears the address of a session this backend releases on
// purpose, while it still holds the lock, so that only an owner that
// died leaves an address behind a free lock (see Orphans). Only while
// it holds it: the server must still show the lock granted to holder,
// the server process of the connection it was taken on. A lock lost
// with that connection is as free as a dead owner's, and the holder
// that lets it go has stopped driving the session, a run perhaps in
// flight: its address stays, for another process to take the run up.
// A failure leaves the address, which costs another process a needless
// look.
func (b *Backend) withdraw(session string, epoch int64, holder uint32) {
	ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
	defer cancel()
	// A bigint advisory lock shows in pg_locks as its high and low
	// 32 bits, in classid and objid, with objsubid 1.
	key := uint64(b.lockKey(session))
	_, _ = b.pool.Exec(ctx, `UPDATE baton_owners SET addr = '' WHERE session = $1 AND epoch = $2
		AND EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.pid = $3
			AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
			AND l.classid = $4::bigint::oid AND l.objid = $5::bigint::oid AND l.objsubid = 1)`,
		session, epoch, int64(holder), int64(key>>32), int64(key&0xffffffff))
}

// Orphans returns, sorted, the sessions whose owner died holding them:
// the owner advertised an address and never released the session, and
// its lock is free. A run such an owner was driving waits for another
// process to take the session and resume it.
func (b *Backend) Orphans(ctx context.Context) ([]string, error) {
	rows, err := b.pool.Query(ctx, `SELECT session FROM baton_owners WHERE addr <> ''`)
	if err != nil {
		return nil, ioErr("list owners", err)
	}
	advertised, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, ioErr("list owners", err)
	}
	if len(advertised) == 0 {
		return nil, nil
	}
	rows, err = b.pool.Query(ctx, `SELECT classid::bigint, objid::bigint FROM pg_locks
		WHERE locktype = 'advisory' AND granted AND objsubid = 1
		AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`)
	if err != nil {
		return nil, ioErr("list locks", err)
	}
	held := map[uint64]bool{}
	var hi, lo int64
	_, err = pgx.ForEachRow(rows, []any{&hi, &lo}, func() error {
		held[uint64(hi)<<32|uint64(lo)] = true
		return nil
	})
	if err != nil {
		return nil, ioErr("list locks", err)
	}
	var out []string
	for _, s := range advertised {
		if !held[uint64(b.lockKey(s))] {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out, nil
}
