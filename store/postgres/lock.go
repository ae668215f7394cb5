package postgres

import (
	"context"
	"encoding/binary"
	"io"
	"sync"
	"time"

	"github.com/batonrt/baton/store"
	"github.com/jackc/pgx/v5"
	"github.com/zeebo/blake3"
)

// closeTimeout bounds how long Close, and the withdrawal of an address,
// wait for the server.
const closeTimeout = 5 * time.Second

// ownerTimeout bounds how long a statement on the owner connection (a
// probe, a lock, a release) waits for the server before the connection
// is given up, and every lock on it with it. A slow answer is no sign
// that the locks are gone: the server holds them until it finds the
// connection dead, which its keepalive probes (ownerSettings) do only
// after 10 + 3×5 = 25 s without a word from this side. So the owner
// rides out a stall of several seconds, and still gives up, and tells
// its holders, some 10 s before another process could take their
// sessions over.
const ownerTimeout = 15 * time.Second

// lockKey names a session's advisory lock, per schema, so stores in two
// schemas of one database never share a lock.
func (b *Backend) lockKey(session string) int64 {
	sum := blake3.Sum256([]byte("baton-session\x00" + b.schema + "\x00" + session))
	return int64(binary.LittleEndian.Uint64(sum[:8]))
}

func (b *Backend) epoch(session string) (int64, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	o, ok := b.held[session]
	if !ok {
		return 0, false
	}
	return o.epoch, true
}

// cachedRef returns a ref of a session owned here, as this owner last saw
// it, unless its lock is lost.
func (b *Backend) cachedRef(kind store.RefKind, session string) (store.Hash, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	o, ok := b.held[session]
	if !ok || o.lost {
		return store.Hash{}, false
	}
	h, ok := o.refs[kind]
	return h, ok
}

// remember records a ref of a session owned here under epoch.
func (b *Backend) remember(kind store.RefKind, session string, epoch int64, h store.Hash) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if o, ok := b.held[session]; ok && o.epoch == epoch && !o.lost {
		o.refs[kind] = h
		o.gen++
	}
}

// readGen returns the epoch and generation of a session owned here, for
// a read of its refs to be remembered with rememberRead.
func (b *Backend) readGen(session string) (epoch int64, gen uint64, held bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	o, ok := b.held[session]
	if !ok || o.lost {
		return 0, 0, false
	}
	return o.epoch, o.gen, true
}

// rememberRead records a ref read from the server, unless this owner
// moved or forgot a ref since the read began (gen changed): the read may
// then predate that move.
func (b *Backend) rememberRead(kind store.RefKind, session string, epoch int64, gen uint64, h store.Hash) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if o, ok := b.held[session]; ok && o.epoch == epoch && o.gen == gen {
		o.refs[kind] = h
	}
}

// forget drops a ref of a session owned here under epoch that may no
// longer hold what this owner last saw, so the next read asks the server.
func (b *Backend) forget(kind store.RefKind, session string, epoch int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if o, ok := b.held[session]; ok && o.epoch == epoch {
		delete(o.refs, kind)
		o.gen++
	}
}

// ownerConn returns the connection that holds this backend's locks,
// connecting again when it died (its locks died with it; the epochs keep
// a new owner safe from this one).
func (b *Backend) ownerConn(ctx context.Context) (*pgx.Conn, error) {
	if b.owner != nil && !b.owner.IsClosed() {
		return b.owner, nil
	}
	// Whoever held a lock on the dead connection learns it now, not at
	// the watcher's next probe.
	b.loseDead()
	conn, err := pgx.ConnectConfig(ctx, b.pool.Config().ConnConfig.Copy())
	if err != nil {
		return nil, ioErr("connect owner", err)
	}
	if _, err := conn.Exec(ctx, ownerSettings); err != nil {
		_ = conn.Close(context.Background())
		return nil, ioErr("connect owner", err)
	}
	b.owner = conn
	return conn, nil
}

// ownerSettings keeps the owner connection, and so its locks, exactly as
// long as the owner lives: it sits idle while its sessions wait for
// their users, which an idle_session_timeout (of the server, the role
// or the URL) must not end, and the server probes it after 10 s of
// quiet, so the locks of an owner whose machine vanished, closing
// nothing, free in under half a minute rather than the system's two
// hours. Each is set only where the server knows it. The pool's
// connections take them too (see OpenBackend).
const ownerSettings = `SELECT set_config(name, setting, false) FROM (VALUES
	('idle_session_timeout', '0'),
	('tcp_keepalives_idle', '10'), ('tcp_keepalives_interval', '5'), ('tcp_keepalives_count', '3')
) AS s(name, setting) WHERE name IN (SELECT name FROM pg_settings)`

// tryLock asks for an advisory lock on the owner connection; when the
// connection turns out dead (the server restarted, the network dropped
// it), it connects again once and asks again.
func (b *Backend) tryLock(ctx context.Context, key int64) (*pgx.Conn, bool, error) {
	for attempt := 0; ; attempt++ {
		conn, err := b.ownerConn(ctx)
		if err != nil {
			return nil, false, err
		}
		// Not cut short by the caller: pgx closes a connection whose
		// statement it gives up on, and this one holds every lock of this
		// backend. Lock lets go of a lock got after ctx ended: its next
		// statement fails.
		qctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ownerTimeout)
		var got bool
		err = conn.QueryRow(qctx, `SELECT pg_try_advisory_lock($1)`, key).Scan(&got)
		cancel()
		if err == nil {
			return conn, got, nil
		}
		if attempt > 0 || !conn.IsClosed() || ctx.Err() != nil {
			return nil, false, ioErr("lock", err)
		}
	}
}

// Lock takes the session's advisory lock on the owner connection and
// bumps the session's owner epoch, which fences any earlier owner's
// commits; the same statement records the address this backend
// advertises (see Advertise). The lock is a store.LosableLock: while
// this backend holds locks, a watcher probes the owner connection, and
// the holders of the locks it held learn when it ends.
func (b *Backend) Lock(ctx context.Context, session string) (io.Closer, error) {
	if err := unstorable(session); err != nil {
		return nil, err
	}
	b.ownerMu.Lock()
	defer b.ownerMu.Unlock()
	if _, held := b.epoch(session); held {
		return nil, errorf("store: lock %q: %w", session, store.ErrLocked)
	}
	key := b.lockKey(session)
	conn, got, err := b.tryLock(ctx, key)
	if err != nil {
		return nil, errorf("store: lock %q: %w", session, err)
	}
	if !got {
		return nil, errorf("store: lock %q: %w", session, store.ErrLocked)
	}
	var epoch int64
	err = b.pool.QueryRow(ctx, `INSERT INTO baton_owners (session, epoch, addr) VALUES ($1, 1, $2)
		ON CONFLICT (session) DO UPDATE SET epoch = baton_owners.epoch + 1, addr = $2 RETURNING epoch`, session, b.advertised()).Scan(&epoch)
	if err != nil {
		b.unlock(conn, key)
		return nil, ioErr("lock "+session, err)
	}
	lost, lose := context.WithCancelCause(context.Background())
	b.mu.Lock()
	b.held[session] = &ownership{epoch: epoch, refs: map[store.RefKind]store.Hash{}, conn: conn, lose: lose}
	b.mu.Unlock()
	b.watch()
	var once sync.Once
	return &heldLock{lost: lost, release: func(withdraw bool) {
		once.Do(func() { b.release(session, key, epoch, conn, withdraw) })
	}}, nil
}

// release lets go of a lock taken on conn, withdrawing the address
// recorded with it unless the holder leaves the session as a dead owner
// would (heldLock.Leave), or lost the lock first (see withdraw). It
// unlocks on conn only: once conn has ended, its locks ended with it,
// and the owner connection now may hold the same session's lock taken
// again since this release began, which is not this holder's to let go.
func (b *Backend) release(session string, key, epoch int64, conn *pgx.Conn, withdraw bool) {
	b.mu.Lock()
	if o, ok := b.held[session]; ok && o.epoch == epoch {
		delete(b.held, session)
	}
	b.mu.Unlock()
	if withdraw {
		b.withdraw(session, epoch, conn.PgConn().PID())
	}
	b.ownerMu.Lock()
	if b.owner == conn && !conn.IsClosed() {
		b.unlock(conn, key)
	}
	done := b.unwatch(false)
	b.ownerMu.Unlock()
	if done != nil {
		<-done
	}
}

// unlock releases an advisory lock; when the server cannot be told, the
// connection is closed, which releases every lock it held.
func (b *Backend) unlock(conn *pgx.Conn, key int64) {
	ctx, cancel := context.WithTimeout(context.Background(), ownerTimeout)
	defer cancel()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_unlock($1)`, key); err != nil {
		_ = conn.Close(ctx)
	}
}
