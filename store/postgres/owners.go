package postgres

import (
	"context"
	"errors"
	"fmt"

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
		return "", fmt.Errorf("store: owner of %q: %w", session, store.ErrNotFound)
	}
	if err != nil {
		return "", ioErr("owner of "+session, err)
	}
	return addr, nil
}
