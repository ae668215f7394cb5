package postgres

import (
	"errors"
	"testing"
	"time"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/postgres/pgtest"
	"github.com/jackc/pgx/v5/pgxpool"
)

// An owner whose lock connection dies (the server ended it, the network
// dropped it, the server restarted) must learn it while it runs, not at
// its next commit: meanwhile another process may take the session over
// and make the same model and tool calls again. Every lease held on that
// connection is told, and a lock taken afterwards, on a new connection,
// is not lost with the old one.
func TestOwnerIsToldItsLockIsLost(t *testing.T) {
	ctx := t.Context()
	url := pgtest.SchemaURL(t)
	b := openBackend(t, url)
	st := store.New(b)
	defer st.Close()
	var leases []*store.Lease
	for _, id := range []string{"a", "b"} {
		l, err := st.Lease(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		defer l.Release()
		leases = append(leases, l)
	}
	told := make(chan struct{})
	stop := leases[0].AfterLost(func() { close(told) })
	defer stop()

	terminateOwner(t, b)
	for i, l := range leases {
		select {
		case <-l.Lost():
		case <-time.After(10 * time.Second):
			t.Fatalf("lease %d not told of its lost lock 10 s after its connection ended", i)
		}
		if err := l.Err(); !errors.Is(err, store.ErrLockLost) {
			t.Errorf("lease %d: Err = %v, want ErrLockLost", i, err)
		}
	}
	select {
	case <-told:
	case <-time.After(10 * time.Second):
		t.Fatal("the function given to AfterLost did not run")
	}

	other := store.New(openBackend(t, url))
	defer other.Close()
	taken, err := other.Lease(ctx, "a")
	if err != nil {
		t.Fatalf("lease of a session whose owner lost it: %v", err)
	}
	defer taken.Release()
	again, err := st.Lease(ctx, "c")
	if err != nil {
		t.Fatalf("lease on the backend after its connection ended: %v", err)
	}
	defer again.Release()
	if err := again.Err(); err != nil {
		t.Errorf("lease taken on a new connection: Err = %v, want nil", err)
	}
}

// A network that goes quiet closes nothing: the owner must still learn,
// within seconds, that it can no longer count on its locks, which the
// server frees once its probes of the connection go unanswered.
func TestOwnerIsToldWhenItsNetworkGoesQuiet(t *testing.T) {
	ctx := t.Context()
	d := &stallingDialer{reading: make(chan struct{}, 1), cut: make(chan struct{}), resume: make(chan struct{})}
	b := openBackendWith(t, pgtest.SchemaURL(t), func(cfg *pgxpool.Config) { cfg.ConnConfig.DialFunc = d.dial })
	st := store.New(b)
	defer st.Close()
	l, err := st.Lease(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()

	d.stall.Store(true)
	defer func() {
		d.stall.Store(false)
		close(d.resume)
	}()
	// Nominally a probe's interval and timeout; generous, for a machine
	// under load.
	select {
	case <-l.Lost():
	case <-time.After(60 * time.Second):
		t.Fatal("lease not told of its lost lock 60 s after the network went quiet")
	}
	if err := l.Err(); !errors.Is(err, store.ErrLockLost) {
		t.Errorf("Err = %v, want ErrLockLost", err)
	}
}
