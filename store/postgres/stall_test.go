package postgres

import (
	"errors"
	"testing"
	"time"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/postgres/pgtest"
	"github.com/batonrt/baton/store/storetest"
	"github.com/jackc/pgx/v5/pgxpool"
)

// A server that answers slowly for a few seconds (a checkpoint's burst
// of I/O, a busy host, a congested link) still holds every lock of the
// owner connection: the owner must not give that connection up, and
// with it every session it drives, for one slow probe. Its runs go on,
// no other process can take their sessions, and their appends land.
func TestSlowServerKeepsLocks(t *testing.T) {
	ctx := t.Context()
	url := pgtest.SchemaURL(t)
	d := &stallingDialer{reading: make(chan struct{}, 1), cut: make(chan struct{}), resume: make(chan struct{})}
	b := openBackendWith(t, url, func(cfg *pgxpool.Config) { cfg.ConnConfig.DialFunc = d.dial })
	st := store.New(b)
	defer st.Close()
	l, err := st.Lease(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()

	d.stall.Store(true)
	select {
	case <-d.reading:
	case <-time.After(10 * time.Second):
		t.Fatal("no probe of the owner connection within 10 s")
	}
	time.Sleep(6 * time.Second)
	d.stall.Store(false)
	close(d.resume)
	select {
	case <-l.Lost():
		t.Fatalf("lease lost after the server answered a probe 6 s late: %v", l.Err())
	case <-time.After(2 * time.Second):
	}

	other := openBackend(t, url)
	defer other.Close()
	if _, err := other.Lock(ctx, "s"); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("lock by another process of a session whose owner saw a slow server: got %v, want ErrLocked", err)
	}
	if _, err := st.Append(ctx, "s", storetest.Script("r", 1)...); err != nil {
		t.Fatalf("append by the owner after the slow server answered: %v", err)
	}
}
