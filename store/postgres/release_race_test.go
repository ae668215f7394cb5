package postgres

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/postgres/pgtest"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// holdWithdraw holds, once armed, the statement that withdraws an owner's
// address as it releases a session: a release the network slowed down.
type holdWithdraw struct{ holdOnce }

func (h *holdWithdraw) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	if strings.Contains(d.SQL, "SET addr = ''") {
		h.hold()
	}
	return ctx
}

func (h *holdWithdraw) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// The release of a lock lost with its connection must not let go of the
// lock taken again, on the backend's new connection, while that release
// ran: the session would be free for another process to take while this
// one drives it, and this one would not be told.
func TestReleaseOfALostLockKeepsTheLockTakenAgain(t *testing.T) {
	ctx := t.Context()
	url := pgtest.SchemaURL(t)
	tr := &holdWithdraw{newHoldOnce()}
	b := openBackendWith(t, url, func(cfg *pgxpool.Config) { cfg.ConnConfig.Tracer = tr })
	st := store.New(b)
	defer st.Close()
	other := store.New(openBackend(t, url))
	defer other.Close()

	lost, err := st.Lease(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	terminateOwner(t, b)
	tr.arm()
	released := make(chan error, 1)
	go func() { released <- lost.Release() }()
	<-tr.reached
	again, err := st.Lease(ctx, "s")
	if err != nil {
		t.Fatalf("lease of the session while its lost lock is released: %v", err)
	}
	defer again.Release()
	close(tr.release)
	if err := <-released; err != nil {
		t.Fatal(err)
	}

	if _, err := other.Lock(ctx, "s"); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("lock by another process while the session is leased again: got %v, want ErrLocked", err)
	}
	if err := again.Err(); err != nil {
		t.Errorf("the lease taken again: Err = %v, want nil", err)
	}
}
