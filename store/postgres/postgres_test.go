package postgres

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/postgres/pgtest"
	"github.com/batonrt/baton/store/storetest"
	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

func openBackend(t testing.TB, url string) *Backend {
	t.Helper()
	b, err := OpenBackend(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// openBackendWith opens a backend whose pool configure has changed (its
// dialer, its tracer), as OpenBackend would but for the settings it adds.
func openBackendWith(t testing.TB, url string, configure func(*pgxpool.Config)) *Backend {
	t.Helper()
	ctx := context.Background()
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	configure(cfg)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	b := &Backend{pool: pool, held: map[string]*ownership{}}
	if err := b.init(ctx); err != nil {
		pool.Close()
		t.Fatal(err)
	}
	return b
}

func TestConformance(t *testing.T) {
	pgtest.Admin(t)
	storetest.RunBackend(t, func(t *testing.T) store.Backend { return openBackend(t, pgtest.SchemaURL(t)) })
}

func TestOpenByURL(t *testing.T) {
	ctx := t.Context()
	st, err := store.Open(pgtest.SchemaURL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	recs := storetest.Script("r", 3)
	if _, err := st.Append(ctx, "s", recs...); err != nil {
		t.Fatal(err)
	}
	got, err := st.Records(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(recs, got); d != "" {
		t.Fatalf("records mismatch (-want +got):\n%s", d)
	}
}

// terminateOwner kills the server side of the connection that holds the
// backend's locks, as a crash of the owner's machine would.
func terminateOwner(t *testing.T, b *Backend) {
	t.Helper()
	b.ownerMu.Lock()
	pid := b.owner.PgConn().PID()
	b.ownerMu.Unlock()
	admin := pgtest.Admin(t)
	// With a timeout, pg_terminate_backend waits for the backend to exit,
	// which is when its locks are released.
	var gone bool
	if err := admin.QueryRow(context.Background(), `SELECT pg_terminate_backend($1, 10000)`, pid).Scan(&gone); err != nil || !gone {
		t.Fatalf("terminate owner connection %d: %v %v", pid, gone, err)
	}
}

// An owner whose lock connection died loses the session to the next
// owner, and its later appends are refused with ErrLockLost: the head
// stays where the new owner put it.
func TestStaleOwnerCannotMoveHead(t *testing.T) {
	ctx := t.Context()
	url := pgtest.SchemaURL(t)
	ba := openBackend(t, url)
	a, b := store.New(ba), store.New(openBackend(t, url))
	defer a.Close()
	defer b.Close()
	recs := storetest.Script("r", 3)
	if _, err := a.Lock(ctx, "s"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Append(ctx, "s", recs[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Lock(ctx, "s"); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("second owner while the first lives: got %v, want ErrLocked", err)
	}
	if _, err := b.Append(ctx, "s", recs[1]); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("append by a non-owner: got %v, want ErrLocked", err)
	}
	terminateOwner(t, ba)
	if _, err := b.Lock(ctx, "s"); err != nil {
		t.Fatalf("lock after the owner died: %v", err)
	}
	head, err := b.Append(ctx, "s", recs[1])
	if err != nil {
		t.Fatal(err)
	}
	_, err = a.Append(ctx, "s", recs[1])
	if !errors.Is(err, store.ErrLockLost) {
		t.Fatalf("append by the stale owner: got %v, want ErrLockLost", err)
	}
	if got, err := b.Head(ctx, "s"); err != nil || got != head {
		t.Fatalf("head = %s, %v; want the new owner's %s", got, err, head)
	}
	// The stale owner's backend connects again for its next lock.
	release, err := a.Lock(ctx, "t")
	if err != nil {
		t.Fatalf("lock of another session after the owner connection died: %v", err)
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
}

// A database migrated by a newer release is refused, not misread.
func TestNewerSchemaRefused(t *testing.T) {
	url := pgtest.SchemaURL(t)
	b := openBackend(t, url)
	if _, err := b.pool.Exec(t.Context(), `UPDATE baton_schema SET version = 99`); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenBackend(t.Context(), url); !errors.Is(err, store.ErrSchemaVersion) {
		t.Fatalf("open: got %v, want ErrSchemaVersion", err)
	}
}

// Processes starting at once on an empty schema create the tables once.
func TestConcurrentOpensMigrateOnce(t *testing.T) {
	url := pgtest.SchemaURL(t)
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			b, err := OpenBackend(t.Context(), url)
			if err == nil {
				err = b.Close()
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	b := openBackend(t, url)
	defer b.Close()
	var v int
	if err := b.pool.QueryRow(t.Context(), `SELECT version FROM baton_schema`).Scan(&v); err != nil || v != len(migrations) {
		t.Fatalf("schema version %d (%v), want %d", v, err, len(migrations))
	}
}

// An owner that closes (or dies) frees its sessions at once.
func TestClosedOwnerFreesLock(t *testing.T) {
	ctx := t.Context()
	url := pgtest.SchemaURL(t)
	a, b := store.New(openBackend(t, url)), store.New(openBackend(t, url))
	defer b.Close()
	if _, err := a.Lock(ctx, "s"); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	release, err := b.Lock(ctx, "s")
	if err != nil {
		t.Fatalf("lock after the owner closed: %v", err)
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
}

// An import over a node whose row was damaged repairs the row from the
// verified export: the store verifies again.
func TestImportRepairsADamagedRow(t *testing.T) {
	ctx := t.Context()
	b := openBackend(t, pgtest.SchemaURL(t))
	st := store.New(b)
	defer st.Close()
	head, err := st.Append(ctx, "s", storetest.Script("r", 3)...)
	if err != nil {
		t.Fatal(err)
	}
	var export bytes.Buffer
	if err := st.Export(ctx, &export); err != nil {
		t.Fatal(err)
	}
	if _, err := b.pool.Exec(ctx, `UPDATE baton_objects SET bytes = set_byte(bytes, length(bytes)/2, get_byte(bytes, length(bytes)/2) # 1) WHERE hash = $1`, head[:]); err != nil {
		t.Fatal(err)
	}
	if err := st.Verify(ctx); !errors.Is(err, store.ErrCorrupt) {
		t.Fatalf("verify of the damaged row: %v, want ErrCorrupt", err)
	}
	if _, err := st.Import(ctx, &export); err != nil {
		t.Fatalf("import over a damaged row: %v", err)
	}
	if err := st.Verify(ctx); err != nil {
		t.Fatalf("verify after the import: %v", err)
	}
}

// A commit whose outcome the owner never heard (its connection dropped,
// its context ended, after the server had committed) leaves the owner
// reading the session as it is: Head names the node that commit made,
// and the next append goes on from it.
func TestOwnerReadsHeadAfterUnansweredCommit(t *testing.T) {
	ctx := t.Context()
	url := pgtest.SchemaURL(t)
	// The driver, giving up on a statement, asks the server to cancel it.
	// This one's request is lost on the way, as a network may lose it: a
	// request delivered could land after the statement's wait, on its
	// commit (the server signals the backend once for it and once for its
	// process group, and a busy host may run the backend in between), and
	// the server would then hold no commit for the owner to read back.
	d := newCancelLosingDialer()
	ba := openBackendWith(t, url, func(cfg *pgxpool.Config) {
		cfg.ConnConfig.DialFunc = d.dial
		// In plain text, so that the dialer sees the request.
		cfg.ConnConfig.TLSConfig, cfg.ConnConfig.Fallbacks = nil, nil
	})
	st := store.New(ba)
	defer st.Close()
	recs := storetest.Script("r", 3)
	if _, err := st.Lock(ctx, "s"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Append(ctx, "s", recs[0]); err != nil {
		t.Fatal(err)
	}
	// The ref's update waits in a trigger for a lock the test holds, so
	// the owner gives up while the server is known to be running it, and
	// the update commits once the test lets go. The lock's key is the
	// schema's own.
	gate := fmt.Sprint(ba.lockKey("gate"))
	admin := pgtest.Admin(t)
	for _, q := range []string{
		`SELECT pg_advisory_lock(` + gate + `)`,
		`CREATE FUNCTION ` + ba.schema + `.gated() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_advisory_xact_lock(` + gate + `); RETURN NEW; END $$`,
		`CREATE TRIGGER gated AFTER UPDATE ON ` + ba.schema + `.baton_refs FOR EACH ROW EXECUTE FUNCTION ` + ba.schema + `.gated()`,
	} {
		if _, err := admin.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	short, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := st.Append(short, "s", recs[1])
		done <- err
	}()
	waitForLockWaiter(t, admin, ba.lockKey("gate"), time.Minute)
	cancel()
	if err := <-done; err == nil {
		t.Fatal("append outlived its context")
	}
	// Let go only once the driver's request is lost: the wait then ends
	// by the test alone, and no request is left to arrive on the commit.
	select {
	case <-d.lost:
	case <-time.After(time.Minute):
		t.Fatal("the driver asked for no cancel within a minute of giving up")
	}
	for _, q := range []string{
		`SELECT pg_advisory_unlock(` + gate + `)`,
		// Waits for the update's transaction to end.
		`DROP TRIGGER gated ON ` + ba.schema + `.baton_refs`,
	} {
		if _, err := admin.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	var stored []byte
	if err := admin.QueryRow(ctx, `SELECT hash FROM `+ba.schema+`.baton_refs WHERE kind = 'heads' AND session = 's'`).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if n, err := st.Node(ctx, store.Hash(stored)); err != nil || n.Record.Step != 2 {
		t.Fatalf("the server holds step %d (%v) after the unanswered commit, want 2", n.Record.Step, err)
	}
	if head, err := st.Head(ctx, "s"); err != nil || head != store.Hash(stored) {
		t.Fatalf("head = %s, %v; want %x, where the server committed", head, err, stored)
	}
	if _, err := st.Append(ctx, "s", recs[2]); err != nil {
		t.Fatalf("append after the unanswered commit: %v", err)
	}
}

// waitForLockWaiter returns once a session waits for the advisory lock
// key, and fails the test when none does within d.
func waitForLockWaiter(t *testing.T, admin *pgx.Conn, key int64, d time.Duration) {
	t.Helper()
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		var waiting bool
		err := admin.QueryRow(t.Context(), `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
			AND classid = $1::bigint::oid AND objid = $2::bigint::oid AND objsubid = 1)`, uint64(key)>>32, uint64(key)&0xffffffff).Scan(&waiting)
		if err != nil {
			t.Fatal(err)
		}
		if waiting {
			return
		}
	}
	t.Fatalf("no session waited for advisory lock %d within %s", key, d)
}
