package postgres

import (
	"context"
	"crypto/sha256"
	"errors"
	"strings"
	"sync"

	"github.com/batonrt/baton/store"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

func init() {
	open := func(url string, opts ...store.Option) (store.Store, error) {
		return Open(context.Background(), url, opts...)
	}
	store.RegisterScheme("postgres", open)
	store.RegisterScheme("postgresql", open)
}

// Open connects to the database at url (a libpq URL; search_path picks
// the schema, pool_max_conns the pool size), creates or migrates the
// tables, and returns the Store over the backend.
func Open(ctx context.Context, url string, opts ...store.Option) (store.Store, error) {
	b, err := OpenBackend(ctx, url)
	if err != nil {
		return nil, err
	}
	return store.New(b, opts...), nil
}

// Backend keeps sessions in PostgreSQL; see the package doc.
type Backend struct {
	pool   *pgxpool.Pool
	schema string

	ownerMu sync.Mutex
	owner   *pgx.Conn // holds this backend's session locks
	watcher *watcher  // probes owner while locks are held

	mu   sync.Mutex
	held map[string]*ownership // sessions locked here
	addr string                // advertised with each lock taken
}

// ownership is a session this backend holds: the owner epoch its lock
// got, and the refs as this owner last read or moved them, which no one
// else can move while it owns the session.
type ownership struct {
	epoch int64
	refs  map[store.RefKind]store.Hash
	gen   uint64 // bumped by every move or forget of refs
	// conn is the owner connection the lock was taken on; lose ends the
	// lock's Lost context once that connection is found closed.
	conn *pgx.Conn
	lose context.CancelCauseFunc
	// lost says the lock is lost (see loseDead): the refs are no longer
	// this owner's alone, and are read from the server.
	lost bool
	// sum is the SHA-256 of the bytes of sumOf, the head this owner last
	// committed (see parentSum).
	sumOf store.Hash
	sum   [sha256.Size]byte
}

// OpenBackend connects and migrates, as Open does, and returns the
// backend alone.
func OpenBackend(ctx context.Context, url string) (*Backend, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, errorf("store: postgres: %w: %w", store.ErrInvalid, err)
	}
	// The pool checks a connection only after a second idle, so one the
	// server ended sooner for idleness would fail the next statement:
	// the pool's connections keep the owner connection's settings.
	cfg.AfterConnect = func(ctx context.Context, conn *pgx.Conn) error {
		_, err := conn.Exec(ctx, ownerSettings)
		return err
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, ioErr("connect", err)
	}
	b := &Backend{pool: pool, held: map[string]*ownership{}}
	if err := b.init(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return b, nil
}

func (b *Backend) init(ctx context.Context) error {
	var schema *string
	if err := b.pool.QueryRow(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		return ioErr("connect", err)
	}
	if schema == nil {
		return b.noSchema(ctx)
	}
	b.schema = *schema
	return migrate(ctx, b.pool)
}

// noSchema says that the search_path names no schema that exists, and
// how to make the one it names first: the store makes its tables but
// not the schema they live in, which needs rights it may not have.
func (b *Backend) noSchema(ctx context.Context) error {
	var path string
	if err := b.pool.QueryRow(ctx, `SELECT current_setting('search_path')`).Scan(&path); err != nil {
		return ioErr("connect", err)
	}
	first := ""
	for _, name := range strings.Split(path, ",") {
		// "$user" stands for a schema named as the role, seldom the one meant.
		if name = strings.TrimSpace(name); name != "" && name != `"$user"` {
			first = name
			break
		}
	}
	if first == "" {
		return errorf("store: postgres: %w: search_path %q names no schema that exists; name one in the URL's search_path", store.ErrInvalid, path)
	}
	return errorf("store: postgres: %w: search_path %q names no schema that exists; create it with CREATE SCHEMA %s, or name one that exists in the URL's search_path", store.ErrInvalid, path, first)
}

// Close releases the locks held here and the connections.
func (b *Backend) Close() error {
	watched, err := b.closeOwner()
	if watched != nil {
		<-watched
	}
	b.pool.Close()
	if err != nil {
		return ioErr("close", err)
	}
	return nil
}

// closeOwner releases the locks held here and closes the owner
// connection; it returns the channel closed when the watcher has ended,
// to be waited on without ownerMu, which the watcher may be waiting for.
func (b *Backend) closeOwner() (<-chan struct{}, error) {
	b.ownerMu.Lock()
	defer b.ownerMu.Unlock()
	watched := b.unwatch(true)
	b.mu.Lock()
	held := make(map[string]*ownership, len(b.held))
	for session, o := range b.held {
		held[session] = o
	}
	b.mu.Unlock()
	for session, o := range held {
		b.withdraw(session, o.epoch, o.conn.PgConn().PID())
	}
	var err error
	if b.owner != nil {
		ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
		defer cancel()
		// Released before the connection closes: the server ends a closed
		// connection's backend, and frees its locks, only a moment later.
		_, _ = b.owner.Exec(ctx, `SELECT pg_advisory_unlock_all()`)
		err = b.owner.Close(ctx)
		b.owner = nil
	}
	b.mu.Lock()
	clear(b.held)
	b.mu.Unlock()
	return watched, err
}

func ioErr(op string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return errorf("store: postgres: %s: %w", op, err)
	}
	return errorf("store: postgres: %s: %w: %w", op, store.ErrIO, err)
}
